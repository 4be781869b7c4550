package lsp

import (
	"sync"

	"go.lsp.dev/uri"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/pipeline"
)

// analysis is what core says about one patch document in one snapshot.
type analysis struct {
	doc   *document
	patch *core.Patch
	plan  *core.Plan
	deps  map[string]bool // the target files it names, cleaned and resolved
	// skipped holds the numbers of the blocks left out of Apply all
	// (skip.go).
	skipped map[int]bool
}

// priorPlans holds the last plan of each patch document, whichever
// snapshot computed it, for the next analysis to start from: the engine
// checks what still holds (core.Revalidate).
type priorPlans struct {
	mu    sync.Mutex
	plans map[uri.URI]*core.Plan
	// alone holds, per patch document and block number, the last check
	// of the block on its own (lens.go).
	alone map[uri.URI]map[int]aloneCheck
	// memos holds, per patch document, what the last parse read of its
	// chat snippets (core.ParseMemo).
	memos map[uri.URI]*core.ParseMemo
}

func newPriorPlans() *priorPlans {
	return &priorPlans{plans: map[uri.URI]*core.Plan{}, alone: map[uri.URI]map[int]aloneCheck{}, memos: map[uri.URI]*core.ParseMemo{}}
}

// memo returns the parse memo of document u.
func (p *priorPlans) memo(u uri.URI) *core.ParseMemo {
	p.mu.Lock()
	defer p.mu.Unlock()
	m := p.memos[u]
	if m == nil {
		m = &core.ParseMemo{}
		p.memos[u] = m
	}
	return m
}

func (p *priorPlans) get(u uri.URI) *core.Plan {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.plans[u]
}

func (p *priorPlans) put(u uri.URI, plan *core.Plan) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.plans[u] = plan
}

func (p *priorPlans) forget(u uri.URI) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.plans, u)
	delete(p.alone, u)
	delete(p.memos, u)
}

func (p *priorPlans) checkedAlone(u uri.URI, n int) (aloneCheck, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	c, ok := p.alone[u][n]
	return c, ok
}

func (p *priorPlans) putAlone(u uri.URI, n int, c aloneCheck) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.alone[u] == nil {
		p.alone[u] = map[int]aloneCheck{}
	}
	p.alone[u][n] = c
}

type analysisOnce struct {
	once sync.Once
	a    *analysis
}

// analyze parses and validates a patch document once per snapshot: the
// diagnostics run and every request on the same snapshot share the result.
// It returns nil for a document that is not open or not a patch.
func (s *snapshot) analyze(u uri.URI) *analysis {
	d, ok := s.docs[u]
	if !ok || s.view == nil || !d.served() {
		return nil
	}
	s.mu.Lock()
	o, ok := s.analyses[u]
	if !ok {
		o = &analysisOnce{}
		s.analyses[u] = o
	}
	s.mu.Unlock()
	o.once.Do(func() { o.a = s.compute(d) })
	return o.a
}

func (s *snapshot) compute(d *document) *analysis {
	a := &analysis{doc: d, deps: map[string]bool{}}
	// A line is a header when it names a file that exists ("Makefile"):
	// the names asked about are dependencies too, so that the patch is
	// read again when such a file appears or goes.
	exists := func(name string) bool {
		if clean, err := core.CleanPath(s.view.slashRoot, name); err == nil {
			a.deps[clean] = true
		}
		return s.exists(name)
	}
	// Streaming: an answer may still be arriving in the editor.
	patch := core.Parse(d.text, core.ParseOptions{Exists: exists, Streaming: true, Snippets: true, Memo: s.prior.memo(d.uri)})
	s.rangesAsSeen(d.uri, patch)
	a.patch = patch
	// A plan that validates may still break a file's syntax: a warning on
	// the block whose new lines hold the error (docs/ARCHITECTURE.md
	// "Language server").
	check := s.check()
	check.Syntax = pipeline.SyntaxIfOK
	// A keystroke or a streamed chunk changes a block or two: the files
	// whose blocks and content are as the last analysis found them keep
	// its results (skip.go's validate; W8 of make bench).
	plan, skipped := s.validate(d.uri, d, patch, check)
	a.plan, a.skipped = plan, skipped
	s.conflicts(a)
	// A file's blocks name it alike, and mostly one after another: a path
	// is cleaned once, and looked up once a run of blocks, not once a
	// block on every chunk of a streamed answer.
	written := map[string]bool{}
	for i := range patch.Blocks {
		if p := patch.Blocks[i].Path; (i == 0 || p != patch.Blocks[i-1].Path) && !written[p] {
			written[p] = true
			if clean, err := core.CleanPath(s.view.slashRoot, p); err == nil {
				a.deps[clean] = true
			}
		}
		if i < len(plan.Blocks) && plan.Blocks[i].Path != "" && (i == 0 || plan.Blocks[i].Path != plan.Blocks[i-1].Path) {
			a.deps[plan.Blocks[i].Path] = true
		}
	}
	return a
}

// check is how the server runs the engine's pipeline: its session's
// tree-sitter cache explains ambiguous blocks, and no syntax check unless
// the caller asks for one.
func (s *snapshot) check() pipeline.Check {
	// Applied: a block that stands applied is a state, not an error
	// (life.go).
	c := pipeline.Check{Options: core.Options{Root: s.view.slashRoot, Fuzzy: s.settings.Fuzzy, Switch: core.SwitchSetting, Applied: true}}
	if s.trees != nil {
		c.Checker = s.trees // not a nil *Cache in the interface
	}
	return c
}

// definitionName is the short name of a place's definition for titles.
func definitionName(ex core.Explanation) string {
	if ex.Name != "" {
		return ex.Name
	}
	return ex.Where
}

// planBlock validates block n (1-based) alone on the current content of
// the workspace: "Apply block #N". With offer, only to decide whether to
// offer it (core.Options.Offer): the plan cannot be written.
func (s *snapshot) planBlock(a *analysis, n int, offer bool) *core.Plan {
	if n < 1 || n > len(a.patch.Blocks) {
		return nil
	}
	b := a.patch.Blocks[n-1]
	if b.Incomplete {
		return nil
	}
	alone := &core.Patch{Text: a.patch.Text, Blocks: []core.Block{b}}
	for _, p := range a.patch.Problems {
		if p.Block == n && p.Severity == core.SeverityError {
			alone.Problems = append(alone.Problems, p)
		}
	}
	c := s.check()
	c.Offer = offer
	return pipeline.Validate(alone, s, c)
}

// blockAt returns the number of the block whose text holds offset, or 0.
func (a *analysis) blockAt(offset int) int {
	for _, b := range a.patch.Blocks {
		if offset >= b.Span.Start && offset <= b.Span.End {
			return b.Number
		}
	}
	return 0
}

// result returns block n's validation result.
func (a *analysis) result(n int) (core.BlockResult, bool) {
	if n < 1 || n > len(a.plan.Blocks) {
		return core.BlockResult{}, false
	}
	return a.plan.Blocks[n-1], true
}

// problems returns the problems of block n.
func (a *analysis) problems(n int) []core.Problem {
	var out []core.Problem
	for _, p := range a.plan.Problems {
		if p.Block == n {
			out = append(out, p)
		}
	}
	return out
}

package lsp

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/fsrb/fsrb/core"
)

// diagnoser publishes diagnostics in its own goroutine: handlers only
// schedule (handlers run one at a time, internal/rpc: a slow one would hold
// every message behind it). A burst of changes is debounced; a new change cancels the run under
// way, whose documents are then validated again on the newer snapshot.
type diagnoser struct {
	srv     *Server
	ceiling time.Duration // the longest a burst waits; 0: no wait at all
	kick    chan struct{}

	mu        sync.Mutex
	pending   map[uri.URI]bool
	snap      *snapshot
	cancel    context.CancelFunc
	published map[uri.URI]bool // documents showing our diagnostics
	ahead     map[uri.URI]int  // the block each document's last check ahead was of (checkAhead)
	cost      time.Duration    // what a run costs, smoothed
	// pulls and hints compare what a client that pulls diagnostics or asks
	// for inlay hints was last answered with what the diagnoser computed
	// since (pull.go).
	pulls, hints staleness
	// stale holds the refresh requests a run found needed.
	stale map[string]bool
	// lensesAt is when the last codeLens/refresh went out, and lensTimer
	// the one due, if any (refreshLenses).
	lensesAt  time.Time
	lensTimer *time.Timer
	// asked counts the refresh requests sent, by method: read without
	// d.mu, which some of the senders hold.
	asked map[string]*atomic.Int64
	// lastChange is when the last change was scheduled, and lone whether
	// it came a debounce or more after the one before it (loop).
	lastChange time.Time
	lone       bool
}

// minDebounce coalesces the changes an editor sends together (a paste, a
// multi-cursor edit, a formatter's edits); a person types slower.
const minDebounce = 2 * time.Millisecond

func newDiagnoser(s *Server, ceiling time.Duration) *diagnoser {
	return &diagnoser{
		srv:       s,
		ceiling:   ceiling,
		kick:      make(chan struct{}, 1),
		pending:   map[uri.URI]bool{},
		published: map[uri.URI]bool{},
		ahead:     map[uri.URI]int{},
		pulls:     newStaleness(),
		hints:     newStaleness(),
		stale:     map[string]bool{},
		asked: map[string]*atomic.Int64{
			methodDiagnosticRefresh: new(atomic.Int64),
			methodInlayHintRefresh:  new(atomic.Int64),
			methodCodeLensRefresh:   new(atomic.Int64),
		},
	}
}

func (d *diagnoser) start(ctx context.Context) { go d.loop(ctx) }

func (d *diagnoser) schedule(snap *snapshot, uris map[uri.URI]bool) {
	d.mu.Lock()
	now := time.Now()
	d.lone = d.lastChange.IsZero() || now.Sub(d.lastChange) >= d.delayLocked()
	d.lastChange = now
	for u := range uris {
		d.pending[u] = true
	}
	d.snap = snap
	if d.cancel != nil {
		d.cancel()
	}
	d.mu.Unlock()
	select {
	case d.kick <- struct{}{}:
	default:
	}
}

func (d *diagnoser) loop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-d.kick:
		}
		// A change that came a debounce or more after the one before is
		// validated at once: not in a burst, it would have waited out the
		// debounce alone (a chat answer streams a chunk every few tens of
		// milliseconds, a person types slower than a cheap validation),
		// and the wait cost a timer's wake-up and its delay every time
		// (make bench, W8). A change that follows it closely cancels the
		// run and waits for quiet, as the rest of a burst does.
		d.mu.Lock()
		lone, delay := d.lone, d.delayLocked()
		d.mu.Unlock()
		if delay > 0 && !lone {
			t := time.NewTimer(delay)
		quiet:
			for {
				select {
				case <-ctx.Done():
					t.Stop()
					return
				case <-d.kick:
					t.Reset(delay)
				case <-t.C:
					break quiet
				}
			}
		}
		d.mu.Lock()
		uris, snap := d.pending, d.snap
		d.pending = map[uri.URI]bool{}
		run, cancel := context.WithCancel(ctx)
		d.cancel = cancel
		d.mu.Unlock()
		start := time.Now()
		d.run(run, snap, uris)
		if run.Err() == nil {
			d.measured(time.Since(start))
		}
		cancel()
	}
}

// lensEvery is the shortest time between two codeLens/refresh requests.
// A client answers each by asking for every lens of the document again,
// which costs the server a disk check and each block's "Apply" checked
// alone: after every chunk of a streamed answer, more than the chunk's
// own analysis (W8 of make bench, with a client that asks). A person
// reads lenses at a slower rate than a stream changes them.
const lensEvery = 250 * time.Millisecond

// refreshLenses asks the client for new lenses at once when the last ask
// is lensEvery old, and otherwise once that time is up, for every run
// that finished in between: the last run's lenses are always asked for.
func (d *diagnoser) refreshLenses(ctx context.Context) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.lensTimer != nil {
		return // due already, and will ask for what is current then
	}
	wait := time.Until(d.lensesAt.Add(lensEvery))
	if wait <= 0 {
		d.lensesAt = time.Now()
		d.refresh(ctx, methodCodeLensRefresh)
		return
	}
	d.lensTimer = time.AfterFunc(wait, func() {
		d.mu.Lock()
		d.lensTimer, d.lensesAt = nil, time.Now()
		d.mu.Unlock()
		d.refresh(ctx, methodCodeLensRefresh)
	})
}

// delay is the debounce: as long as a validation costs, within
// [minDebounce, ceiling]. A patch that validates quickly shows its
// diagnostics right after a keystroke; one of thousands of blocks waits as
// long in quiet as it takes to validate, so a burst of typing validates
// at its end (and at its first change, which came after a pause: loop),
// and never spends more time waiting than working (make bench, W7).
func (d *diagnoser) delay() time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.delayLocked()
}

// delayLocked is delay with d.mu held.
func (d *diagnoser) delayLocked() time.Duration {
	if d.ceiling <= 0 {
		return 0
	}
	return min(max(d.cost, minDebounce), d.ceiling)
}

// measured folds the duration of a completed run into the cost estimate,
// weighing the latest run as much as the history.
func (d *diagnoser) measured(took time.Duration) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cost == 0 {
		d.cost = took
		return
	}
	d.cost = (d.cost + took) / 2
}

func (d *diagnoser) run(ctx context.Context, snap *snapshot, uris map[uri.URI]bool) {
	order := make([]uri.URI, 0, len(uris))
	for u := range uris {
		order = append(order, u)
	}
	sort.Slice(order, func(i, j int) bool { return order[i] < order[j] })
	caps := d.srv.capabilities()
	shown := false // some document's diagnostics went out, or are there to pull
	defer func() {
		d.mu.Lock()
		stale := d.stale
		d.stale = map[string]bool{}
		d.mu.Unlock()
		if shown && caps.codeLensRefresh {
			// Lens titles ("#2 2 matches") change with the validation, and
			// editors otherwise keep the old ones until the user scrolls
			// (seen in VS Code and Neovim).
			d.refreshLenses(ctx)
		}
		for _, m := range []string{methodDiagnosticRefresh, methodInlayHintRefresh} {
			if stale[m] {
				d.refresh(ctx, m)
			}
		}
	}()
	for i, u := range order {
		var params *protocol.PublishDiagnosticsParams
		var a *analysis
		ok := ctx.Err() == nil
		if ok {
			params, a, ok = d.diagnose(snap, u, caps)
			shown = shown || ok || caps.pullDiagnostics && snap.docs[u] != nil && snap.docs[u].served()
		}
		if ctx.Err() != nil {
			// Superseded: what is left runs again on the newer snapshot.
			d.mu.Lock()
			for _, v := range order[i:] {
				d.pending[v] = true
			}
			d.mu.Unlock()
			return
		}
		if !ok {
			continue
		}
		// Once computed, a result goes out whole: the stream refuses to write
		// under a cancelled context, and dropping it would lose the document.
		if err := d.srv.client.PublishDiagnostics(context.WithoutCancel(ctx), params); err != nil {
			d.srv.log.Info("publishDiagnostics", zap.Error(err))
		}
		if a != nil && caps.codeLensRefresh && ctx.Err() == nil {
			d.checkAhead(snap, u, a)
		}
	}
}

// diagnose computes what to publish for u, or false when there is nothing
// to say (a document that is no patch and never got diagnostics), and
// u's analysis, nil when it is served none. For a
// client that pulls diagnostics or asks for inlay hints, it also tells
// whether what the client holds went stale (pull.go).
func (d *diagnoser) diagnose(snap *snapshot, u uri.URI, caps clientCaps) (*protocol.PublishDiagnosticsParams, *analysis, bool) {
	doc, open := snap.docs[u]
	a := snap.analyze(u)
	var diags []protocol.Diagnostic
	var words string
	if a != nil {
		diags = snap.diagnostics(a)
		d.srv.recordDeps(u, a)
		if caps.inlayHints && caps.inlayHintRefresh {
			words = hintWords(blockHints(a))
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if !open {
		delete(d.ahead, u)
		d.pulls.forget(u)
		d.hints.forget(u)
	} else if a != nil {
		c := answer{seq: snap.seq, version: doc.version}
		if caps.inlayHints && caps.inlayHintRefresh {
			c.id = words
			if d.hints.compute(u, c) {
				d.stale[methodInlayHintRefresh] = true
			}
		}
		if caps.pullDiagnostics {
			c.id = resultID(diags)
			if d.pulls.compute(u, c) {
				d.stale[methodDiagnosticRefresh] = true
			}
		}
	}
	if caps.pullDiagnostics {
		return nil, a, false // the client asks (pull.go)
	}
	if a == nil {
		if !d.published[u] {
			return nil, a, false
		}
		delete(d.published, u)
		params := &protocol.PublishDiagnosticsParams{URI: u, Diagnostics: []protocol.Diagnostic{}}
		if open {
			params.Version = publishedVersion(doc.version)
		}
		return params, a, true
	}
	d.published[u] = true
	return &protocol.PublishDiagnosticsParams{URI: u, Version: publishedVersion(doc.version), Diagnostics: diags}, a, true
}

// checkAhead checks u's aheadBlock alone, once: a streamed answer's
// next chunks leave the block as it is, and the kept check answers the
// lens (appliesAlone) for as long as the block and its file stay so.
func (d *diagnoser) checkAhead(snap *snapshot, u uri.URI, a *analysis) {
	n := aheadBlock(a)
	d.mu.Lock()
	done := d.ahead[u] == n
	d.ahead[u] = n
	d.mu.Unlock()
	if n > 0 && !done {
		snap.appliesAlone(a, n, map[string]fileRead{})
	}
}

// publishedVersion leaves out version 0 (Neovim opens documents at 0), as
// fsrb always did: clients match the diagnostics to the document's URI.
func publishedVersion(v int32) protocol.Optional[int32] {
	if v == 0 {
		return protocol.Optional[int32]{}
	}
	return protocol.NewOptional(v)
}

// diagnostics converts every problem of an analysis; never nil, so that an
// empty list clears the editor's.
func (s *snapshot) diagnostics(a *analysis) []protocol.Diagnostic {
	out := make([]protocol.Diagnostic, 0, len(a.plan.Problems))
	m := a.doc.mapper
	for _, p := range a.plan.Problems {
		if p.Kind == core.KindNoBlocks && !a.doc.isPatch() {
			continue // prose in Markdown is not a broken patch
		}
		diag := protocol.Diagnostic{
			Range:    toRange(m, s.problemSpan(a, p)),
			Severity: severity(p.Severity),
			Code:     protocol.String(p.Kind),
			Source:   protocol.NewOptional("fsrb"),
			Message:  protocol.String(message(p)),
		}
		if p.Kind == core.KindAlreadyApplied && p.Severity == core.SeverityInfo {
			diag.Code = protocol.String(codeApplied) // a state of the patch's life, not a problem
			// The editor's own way back, not the CLI's.
			p.Hint = "nothing to do; Revert block or Revert all blocks undoes it"
			diag.Message = protocol.String(message(p))
		}
		if p.Kind == core.KindIncomplete && streaming(a.doc.text, p.Span) {
			diag.Severity = protocol.DiagnosticSeverityInformation
			diag.Message = protocol.String("incomplete block: the answer may still be streaming in (" + p.Message + ")")
		}
		diag.RelatedInformation = s.related(a, p)
		out = append(out, diag)
	}
	sort.SliceStable(out, func(i, j int) bool { return less(out[i].Range.Start, out[j].Range.Start) })
	return out
}

// codeApplied is the code of the information diagnostic on a block that
// stands applied (life.go).
const codeApplied = "applied"

func less(a, b protocol.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

// streaming: a block cut short with only whitespace after it is a model's
// answer still arriving, not a mistake (docs/ARCHITECTURE.md
// "Language server").
// The parser stretches a block without its end to the end of the text, so
// a fence closed inside that stretch (```, then prose) means the answer
// went on without it: cut short in the middle, an error.
func streaming(text string, sp core.Span) bool {
	if strings.TrimSpace(text[min(sp.End, len(text)):]) != "" {
		return false
	}
	rest := text[min(sp.Start, len(text)):]
	for _, l := range strings.Split(rest, "\n") {
		t := strings.TrimSpace(l)
		if len(t) >= 3 && strings.Trim(t, "`") == "" {
			return false
		}
	}
	return true
}

func severity(s core.Severity) protocol.DiagnosticSeverity {
	switch s {
	case core.SeverityWarning:
		return protocol.DiagnosticSeverityWarning
	case core.SeverityInfo:
		return protocol.DiagnosticSeverityInformation
	}
	return protocol.DiagnosticSeverityError
}

func message(p core.Problem) string {
	msg := p.Message
	if p.Block > 0 && !p.MentionsBlock() {
		msg = fmt.Sprintf("block #%d: %s", p.Block, msg)
	}
	if p.Hint != "" {
		msg += "\n" + p.Hint
	}
	return msg
}

// problemSpan puts a problem on the lines it is about: SEARCH for the ones
// about matching, the path for the ones about the file, the opening marker
// for a block cut short (its span runs to the end of the text).
func (s *snapshot) problemSpan(a *analysis, p core.Problem) core.Span {
	var b *core.Block
	if p.Block > 0 && p.Block <= len(a.patch.Blocks) {
		b = &a.patch.Blocks[p.Block-1]
	}
	switch {
	case p.Kind == core.KindNoBlocks:
		return lineSpan(a.doc.mapper, 0)
	case b == nil:
		return p.Span
	}
	if p.Kind == core.KindAlreadyApplied && p.Severity == core.SeverityInfo {
		// Applied is a state, not a problem: the opening line only, so the
		// editor does not underline the whole old text.
		return markerSpan(a.doc.mapper, b)
	}
	switch p.Kind {
	case core.KindNotFound, core.KindAmbiguous, core.KindPartialLine, core.KindAlreadyApplied, core.KindFuzzy:
		return searchSpan(a.doc.mapper, b)
	case core.KindMissingFile, core.KindFileExists, core.KindOutsideRoot, core.KindBadPath, core.KindBinary, core.KindReadError:
		if !b.PathSpan.Empty() {
			return b.PathSpan
		}
		return markerSpan(a.doc.mapper, b)
	case core.KindIncomplete:
		return markerSpan(a.doc.mapper, b)
	case core.KindSyntax:
		// On the new text that broke the file.
		if !b.ReplaceBody.Empty() {
			return bodySpan(b.ReplaceBody)
		}
		return searchSpan(a.doc.mapper, b)
	}
	return p.Span
}

// searchSpan is the SEARCH marker and body, without the body's last line
// break: for a diff hunk, its "@@" line (if any) and its lines.
func searchSpan(m *mapper, b *core.Block) core.Span {
	sp := markerSpan(m, b)
	if b.SearchBody.End > b.SearchBody.Start {
		sp.End = max(sp.End, bodySpan(b.SearchBody).End)
	}
	return sp
}

// bodySpan is a body without its last line break.
func bodySpan(sp core.Span) core.Span {
	if sp.End > sp.Start {
		sp.End-- // before the "\n" of the last body line
	}
	return sp
}

// markerSpan is the line that opens a block, where lenses and symbols sit:
// its SEARCH (or NEW_FILE) marker; for a diff hunk its "@@" line, or its
// first line when the hunk has none (an apply-patch file's first hunk);
// for a whole-file operation (Add, Delete, Move) its header.
func markerSpan(m *mapper, b *core.Block) core.Span {
	switch {
	case !b.SearchMarker.Empty():
		return b.SearchMarker
	case !b.SearchBody.Empty():
		return lineSpan(m, m.Line(b.SearchBody.Start))
	case !b.Header.Empty():
		return b.Header
	}
	return lineSpan(m, m.Line(b.Span.Start))
}

func lineSpan(m *mapper, line int) core.Span {
	return core.Span{Start: m.LineStart(line), End: m.LineEnd(line)}
}

// lineRange is whole 1-based lines first..last of a target file, ending at
// the start of the next line so that no text of the file is needed.
func lineRange(first, last int) protocol.Range {
	return protocol.Range{
		Start: protocol.Position{Line: uint32(max(first-1, 0))},
		End:   protocol.Position{Line: uint32(max(last, first))},
	}
}

// related points into the target file: the closest candidate of a block not
// found, every place of an ambiguous one, the place of an applied one.
func (s *snapshot) related(a *analysis, p core.Problem) []protocol.DiagnosticRelatedInformation {
	res, ok := a.result(p.Block)
	if !ok || res.Path == "" {
		return nil
	}
	u := s.docURI(res.Path)
	var out []protocol.DiagnosticRelatedInformation
	switch p.Kind {
	case core.KindNotFound:
		for _, c := range p.Candidates {
			out = append(out, protocol.DiagnosticRelatedInformation{
				Location: protocol.Location{URI: u, Range: lineRange(c.Line, c.EndLine)},
				Message:  fmt.Sprintf("closest match, %.0f%% similar: lines %d-%d", c.Similarity*100, c.Line, c.EndLine),
			})
		}
	case core.KindAmbiguous:
		for i, c := range p.Candidates {
			msg := fmt.Sprintf("occurrence %d of %d, at line %d: %s", i+1, len(p.Candidates), c.Line, c.Context)
			if where := c.Explanation.Where; where != "" {
				msg = fmt.Sprintf("occurrence %d of %d, in %s (line %d)", i+1, len(p.Candidates), where, c.Line)
			}
			out = append(out, protocol.DiagnosticRelatedInformation{
				Location: protocol.Location{URI: u, Range: lineRange(c.Line, c.EndLine)},
				Message:  msg,
			})
		}
	case core.KindAlreadyApplied, core.KindPartialLine:
		if p.Line > 0 {
			out = append(out, protocol.DiagnosticRelatedInformation{
				Location: protocol.Location{URI: u, Range: lineRange(p.Line, p.Line)},
				Message:  fmt.Sprintf("line %d", p.Line),
			})
		}
	}
	return out
}

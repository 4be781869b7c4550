package core

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Options tunes validation.
type Options struct {
	// Root is the absolute workspace root, with forward slashes. An absolute
	// path in a patch is accepted when it lies inside it.
	Root string
	// RootAliases are other spellings of Root: the root as the user wrote
	// it, before its symlinks were resolved (macOS's /tmp, a linked home).
	// An absolute path under one of them is read as under Root.
	RootAliases []string
	// Fuzzy lets a block with no exact match climb the tolerant ladder.
	Fuzzy bool
	// Switch is how the front end's user turns Fuzzy on: hints name it in
	// the front end's own words.
	Switch Switch
	// Explain, when set, describes the places of an ambiguous block.
	// pipeline.Validate, every front end's one way into the engine, plugs
	// tree-sitter in here; core knows no grammar (docs/ARCHITECTURE.md
	// "Packages").
	Explain Explainer
	// Outline, when set, reads a file's definitions and statements, so
	// that chat snippets (answer.go) are placed by kind and name;
	// pipeline.Validate plugs tree-sitter in here. Without it snippets
	// resolve by equal lines only.
	Outline Outliner
	// Applied validates as every front end does (the CLI, the MCP
	// server, the language server; docs/formats.md "Applied patches"): a
	// block found in its applied state is StatusApplied with an
	// information note, and leaves its file as it is for the blocks after
	// it, so the rest applies and nothing is written twice. Without it
	// (core.Revert, the engine's own strict checks) such a block is an
	// already-applied error and the patch is refused.
	Applied bool
	// Offer validates only to decide what to offer the user, as the
	// language server's "Apply" lens on a block alone does: a chat
	// snippet's stability check (answer.go, stable), a second outline of
	// the file it would write, is left to the validation that writes,
	// which the offer's command runs. The plan holds no file changes, so
	// it cannot be committed.
	Offer bool
}

// Status is what became of one block.
type Status string

const (
	StatusApplies Status = "applies" // it validates and is part of the plan
	StatusFailed  Status = "failed"  // a problem stops it; see Plan.Problems
	StatusApplied Status = "applied" // with Options.Applied: its change is already in the file
)

// BlockResult is what validation found for one block.
type BlockResult struct {
	Block  int
	Path   string // the resolved path, relative to the root ("" if it did not resolve)
	Status Status
	// Line and EndLine (1-based, inclusive) are where SEARCH matched in the
	// file as the block saw it (after the blocks before it); for a create,
	// the lines of the new content. For StatusApplied, where its REPLACE
	// text stands (1..n for a created file, 0 for a deleted one). 0 when
	// the block failed.
	Line, EndLine int
	Rung          string // "exact", or the fuzzy rung that matched
	// Shape is how a chat snippet (OpSnippet) was resolved, and Kept
	// what each omission marker of a lazy one keeps of its file.
	Shape Shape
	Kept  []Kept
}

// Plan is the outcome of validating a patch against a workspace: the new
// content of every file and every problem found, all in one pass.
type Plan struct {
	Patch    *Patch
	Files    []FileChange  // in the order the patch first names them
	Blocks   []BlockResult // one per block, in patch order
	Problems Problems      // parse problems and validation problems, sorted

	memo *memo // what Revalidate takes over, file by file
}

// OK reports whether the plan can be committed as a whole.
func (p *Plan) OK() bool { return !p.Problems.HasErrors() }

// BlockCount returns the number of edit blocks that apply.
func (p *Plan) BlockCount() int { return p.count(StatusApplies) }

// AppliedCount returns the number of blocks found already applied
// (Options.Applied).
func (p *Plan) AppliedCount() int { return p.count(StatusApplied) }

func (p *Plan) count(st Status) int {
	n := 0
	for _, r := range p.Blocks {
		if r.Status == st {
			n++
		}
	}
	return n
}

// target is the running state of one file while its blocks apply in order.
type target struct {
	key     string // real path relative to the root
	display string // the path as first written
	err     *Problem
	existed bool
	orig    []byte
	cr      bool // orig holds a CR (scanText)
	exists  bool // at this point of the patch
	doc     *doc
	blocks  []int
	touched bool

	// Dialects 5-8 (place.go): the splices so far, in lines; the block
	// that rewrote the whole file, if any; the apply-patch section whose
	// hunks are applying and the offset after its last hunk; whether the
	// file was deleted (OpDeleteFile, OpMove) or created empty on purpose.
	edits       []lineEdit
	rewrittenBy int
	spans       []lineEdit // every splice, creates included: for FileChange.Lines
	section     int
	cursor      int
	deleted     bool
	keepEmpty   bool
	movedFrom   string // display path of the file moved here, if any
}

// Validate parses nothing: it takes a parsed patch, reads the files it
// names through fsys, applies every block in order on an in-memory copy, and
// returns the resulting plan. It never writes. Every block is tried, so
// every problem of every file is reported at once.
func Validate(patch *Patch, fsys FS, opt Options) *Plan {
	return offered(refuseBlindInserts(validate(nil, patch, fsys, opt, false), fsys, opt), opt)
}

// offered drops an offer's file changes (Options.Offer): what it
// validated without the stability check is never written.
func offered(plan *Plan, opt Options) *Plan {
	if opt.Offer {
		plan.Files = nil
	}
	return plan
}

// Revalidate is Validate for a patch validated a moment ago with the same
// options: an editor's buffer after a keystroke, an answer still
// streaming in. The blocks of one file apply in sequence: when fsys gives
// a file's content as it was, its first blocks that read as they did in
// prev's patch, at the same numbers and places, keep what prev found for
// them without matching again, and the blocks after them are validated
// from the state they left the file in. The plan is Validate's, whatever
// prev was; prev nil validates everything.
func Revalidate(prev *Plan, patch *Patch, fsys FS, opt Options) *Plan {
	return offered(refuseBlindInserts(validate(prev, patch, fsys, opt, true), fsys, opt), opt)
}

// validate is Validate; with remember, the plan keeps what Revalidate
// takes over from it, and takes over what it can from prev.
func validate(prev *Plan, patch *Patch, fsys FS, opt Options, remember bool) *Plan {
	plan := &Plan{Patch: patch}
	plan.Problems = append(plan.Problems, patch.Problems...)
	broken := map[int]bool{}
	for _, pr := range patch.Problems {
		if pr.Severity == SeverityError && pr.Block > 0 {
			broken[pr.Block] = true
		}
	}
	v := &validator{fsys: fsys, opt: opt, plan: plan, targets: map[string]*target{}, written: map[string]*target{}, named: map[string]int{}}
	plan.Blocks = make([]BlockResult, 0, len(patch.Blocks))
	// Counted by runs: the blocks naming one file mostly come one after
	// another, and a chunk of a streamed answer validates them all again,
	// so one hash a run rather than one a block.
	for i := 0; i < len(patch.Blocks); {
		p, j := patch.Blocks[i].Path, i+1
		for j < len(patch.Blocks) && patch.Blocks[j].Path == p {
			j++
		}
		v.named[p] += j - i
		i = j
	}
	var mem *memo // nil: nothing remembered
	if remember {
		mem = newMemo(patch, opt)
		if prev != nil {
			v.prev = prev.memo
		}
	}
	kept := mem.keep(prev, v, broken)
	for i := range patch.Blocks {
		b := &patch.Blocks[i]
		res := BlockResult{Block: b.Number, Status: StatusFailed}
		before := len(plan.Problems)
		switch {
		case broken[b.Number]:
		case kept != nil && kept[b.Number]:
			res = prev.memo.results[b.Number-1]
			for _, p := range prev.memo.problems[b.Number] {
				p.Candidates = slices.Clone(p.Candidates)
				plan.Problems = append(plan.Problems, p)
			}
		default:
			v.apply(b, &res)
			mem.ran(b.Number, v.targets[res.Path])
		}
		mem.record(b.Number, plan.Problems[before:])
		plan.Blocks = append(plan.Blocks, res)
	}
	plan.Files = make([]FileChange, 0, len(v.order)) // not grown file by file
	for _, t := range v.order {
		fc, ok := t.change()
		if f := mem.taken(t.key); f != nil {
			fc, ok = f.change, f.changed
		}
		mem.file(t, fc, ok)
		if ok {
			plan.Files = append(plan.Files, fc)
		}
	}
	if len(plan.Files) == 0 {
		plan.Files = nil // as before: no changes is no list
	}
	plan.Problems = append(plan.Problems, fileFolderClashes(patch, plan.Files)...)
	speak(patch, plan.Problems)
	plan.Problems.Sort()
	plan.memo = mem.done(plan.Blocks)
	return plan
}

// fileFolderClashes finds a file the plan writes inside a path the plan
// also writes as a file (b/new.py and b/new.py/c.py): one of them cannot
// be made, and the commit would find out only half way.
func fileFolderClashes(patch *Patch, files []FileChange) Problems {
	kept := map[string]*FileChange{}
	for i := range files {
		if files[i].Action != ActionDelete {
			kept[files[i].Path] = &files[i]
		}
	}
	var out Problems
	for i := range files {
		fc := &files[i]
		if fc.Action == ActionDelete {
			continue
		}
		for dir := path.Dir(fc.Path); dir != "." && dir != "/"; dir = path.Dir(dir) {
			other, clash := kept[dir]
			if !clash {
				continue
			}
			p := Problem{
				Kind: KindBadPath, Path: fc.Display,
				Message: fmt.Sprintf("%s would be a file inside %s, which this patch also writes as a file", fc.Display, other.Display),
				Hint:    fmt.Sprintf("write one of them under another path: %s cannot be a file and a folder", other.Display),
			}
			if n := len(fc.Blocks); n > 0 {
				p.Block = fc.Blocks[0]
				if b := patch.Block(p.Block); b != nil {
					p.Span = b.Span
				}
			}
			out = append(out, p)
			break
		}
	}
	return out
}

type validator struct {
	fsys    FS
	opt     Options
	plan    *Plan
	targets map[string]*target // by real path
	written map[string]*target // by path as written (a lookup without a concatenation)
	named   map[string]int     // how many blocks name each path as written
	order   []*target
	guesses map[string]string // namesake's answers, by path as written ("": none)
	// prev is what the validation Revalidate starts from found, file by
	// file: a file read as the very bytes it read (the same memory, from
	// the caller's cache) needs no second scan for NUL and CR.
	prev *memo
}

func (v *validator) fail(b *Block, kind Kind, msg, hint string) *Problem {
	v.plan.Problems = append(v.plan.Problems, Problem{
		Kind: kind, Block: b.Number, Path: b.Path, Span: b.Span,
		Message: msg, Hint: hint, Snippet: firstNonBlankLine(b.Search),
	})
	return &v.plan.Problems[len(v.plan.Problems)-1]
}

// target resolves and loads the file a block names, once per file: two
// names of one file (a symlink, "a/../b") share one state.
func (v *validator) target(b *Block) *target { return v.targetOf(b.Path) }

// targetOf is target for a path as written.
func (v *validator) targetOf(written string) *target {
	if t, ok := v.written[written]; ok {
		return t
	}
	t := v.load(written)
	if t.err == nil {
		if same, ok := v.targets[t.key]; ok {
			t = same
		} else {
			v.targets[t.key] = t
			v.order = append(v.order, t)
		}
	}
	v.written[written] = t
	if t.doc != nil {
		t.doc.expect += v.named[written] // exact matching keeps byte positions for a file many blocks name
	}
	return t
}

func (v *validator) load(written string) *target {
	t := &target{display: written}
	refuse := func(kind Kind, msg, hint string) *target {
		t.err = &Problem{Kind: kind, Message: msg, Hint: hint}
		return t
	}
	clean, err := CleanPathIn(v.opt.Root, v.opt.RootAliases, written)
	if err != nil {
		return refuse(pathKind(err), err.Error(), "use a path relative to the workspace root, inside it")
	}
	real, err := v.fsys.RealPath(clean)
	if err != nil {
		hint := "use a path that stays inside the workspace root"
		if errors.Is(err, ErrNotRegular) {
			hint = "a folder on the path is a file, or the path names a folder or a device: use the path of a regular file"
		}
		return refuse(pathKind(err), strings.TrimPrefix(err.Error(), written+": "), hint)
	}
	if _, err := CleanPath(v.opt.Root, real); err != nil {
		return refuse(pathKind(err), fmt.Sprintf("%s resolves to %s: %v", written, real, err), "edit the file under a path inside the workspace")
	}
	t.key = real
	data, err := v.fsys.ReadFile(real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		t.doc = loadDoc(nil)
	case errors.Is(err, ErrNotRegular):
		return refuse(KindBadPath, fmt.Sprintf("%s is not a regular file (a folder, device or socket)", written), "name a regular file")
	case err != nil:
		return refuse(pathKind(err), fmt.Sprintf("%s cannot be read: %v", written, err), "check the file's permissions")
	default:
		nul, cr := false, false
		if pf := v.prev.fileRead(real, data); pf != nil {
			cr = pf.cr
		} else if nul, cr = scanText(data); nul {
			return refuse(KindBinary, fmt.Sprintf("%s is a binary file (it holds a NUL byte); fsrb edits text files only", written), "edit binary files with another tool")
		}
		t.existed, t.exists, t.orig, t.cr = true, true, data, cr
		t.doc = loadDocScanned(data, cr)
	}
	return t
}

// apply runs one block on its file's running state.
func (v *validator) apply(b *Block, res *BlockResult) {
	t := v.target(b)
	if t.err != nil {
		p := v.fail(b, t.err.Kind, t.err.Message, t.err.Hint)
		p.Path = b.Path
		return
	}
	if v.opt.Fuzzy && b.Op == OpModify && !t.exists && !t.existed && !(v.opt.Applied && b.Replace == "") {
		t = v.resolveNamesake(b, t)
	}
	res.Path = t.key
	d := t.doc
	switch b.Op {
	case OpDeleteFile:
		v.deleteFile(b, t, res)
		return
	case OpMove:
		v.move(b, t, res)
		return
	case OpStrReplace:
		v.strReplace(b, t, res)
		return
	case OpInsert:
		v.insert(b, t, res)
		return
	case OpSnippet:
		v.snippet(b, t, res)
		return
	}
	if b.Op == OpCreate && v.appliedCreate(b, t, res) {
		return
	}
	if b.Op == OpCreate && b.Inverts == OpModify && t.exists && !d.empty() && len(d.occurrences(b.Replace, 1)) == 0 {
		// The block undone removed lines from a file that stayed: no text
		// is left to put them back by.
		v.fail(b, KindIrreversible,
			fmt.Sprintf("block #%d cannot be reverted: it removed lines from %s, which is still there, and no text is left to find their place by", b.Number, b.Path),
			irreversibleHint)
		return
	}
	if b.Op == OpCreate && b.Overwrite && t.exists && !d.empty() {
		v.overwrite(b, t)
	}
	if b.Op == OpCreate {
		if t.exists && !d.empty() && !b.Overwrite {
			what := "an empty SEARCH creates a file"
			if b.Dialect == DialectNewFile {
				what = "a NEW_FILE block creates a file"
			}
			v.fail(b, KindFileExists, fmt.Sprintf("%s already exists and is not empty, but %s", b.Path, what),
				"to change the file, put the text to replace in SEARCH; to replace it whole, delete it first")
			return
		}
		old := ""
		if t.exists {
			old = d.text()
		}
		if v.placeholder(b, b.Replace, old, 1) {
			return
		}
		t.spans = append(t.spans, lineEdit{removed: d.lines(), added: strings.Count(b.Replace, "\n"), block: b.Number})
		if b.CRLF {
			d.setTextCRLF(b.Replace)
		} else {
			d.setText(b.Replace)
		}
		t.exists, t.touched = true, true
		t.deleted, t.keepEmpty, t.rewrittenBy = false, (b.Overwrite || b.Dialect == DialectUdiff) && b.Replace == "", b.Number
		t.blocks = append(t.blocks, b.Number)
		res.Status, res.Rung = StatusApplies, "create"
		res.Line, res.EndLine = 1, max(1, strings.Count(b.Replace, "\n"))
		return
	}
	if !t.exists {
		if v.opt.Applied && b.Replace == "" && b.Search != "" {
			v.applied(b, res, 0, 0, b.Path+" is gone", "", "") // it emptied the file, which was deleted
			return
		}
		msg, hint := fmt.Sprintf("%s does not exist", b.Path), "check the path; to create the file, leave SEARCH empty and put its content in REPLACE"
		if guess, ok := v.namesake(b.Path, t); ok {
			msg += fmt.Sprintf("; did you mean %s?", guess)
			hint = fmt.Sprintf("if the block edits %s, write that path (or run with --fuzzy, which takes it); to create %s, leave SEARCH empty and put its content in REPLACE", guess, b.Path)
		}
		v.fail(b, KindMissingFile, msg, hint)
		return
	}
	scan := appliedModify(b, d)
	if v.appliedEdit(b, d, res, scan) {
		return
	}
	m, placed := v.place(b, t, d)
	switch {
	case placed:
	case scan.scanned:
		m = v.locateOcc(b, d, scan.searchOcc)
	default:
		m = v.locate(b, d)
	}
	if m.problem != nil || v.placeholder(b, m.replace, m.matched, d.lineOf(m.start)+1) {
		return
	}
	if m.applied {
		v.appliedEdit(b, d, res, appliedScan{at: m.at, gone: true, ok: true})
		return
	}
	v.write(b, t, d, m, res)
	res.EndLine = res.Line + strings.Count(m.matched, "\n") - 1
}

// write splices a located match into its file's running state, records
// the edit, and sets the block's status, rung and first line.
func (v *validator) write(b *Block, t *target, d *doc, m match, res *BlockResult) {
	line := t.record(b, d, m)
	d.splice(m.start, m.end, m.replace)
	t.touched = true
	if t.blocks == nil {
		t.blocks = make([]int, 0, max(1, d.expect)) // as record's lists
	}
	t.blocks = append(t.blocks, b.Number)
	res.Status, res.Rung = StatusApplies, m.rung
	res.Line = line + 1 // the lines before the splice did not move
}

// match is where a block's SEARCH sits in its file and what replaces it.
type match struct {
	start, end int    // whole lines of doc.text
	matched    string // the file's text there
	replace    string // what goes there (re-indented by the fuzzy ladder)
	rung       string
	problem    *Problem
	// applied: the block's selector (a line hint, an apply-patch anchor)
	// names a place where its REPLACE text stands and its SEARCH text does
	// not (at: REPLACE's offset); SEARCH found elsewhere is not this
	// block's place, and matching it would write the change a second time.
	applied bool
	at      int
}

// locate finds the one place of a block's SEARCH, or reports why not. In
// fuzzy mode a block with no exact place climbs the ladder (fuzzy.go).
func (v *validator) locate(b *Block, d *doc) match {
	return v.locateOcc(b, d, d.occurrences(b.Search, maxOccurrences))
}

// locateOcc is locate with SEARCH's exact occurrences already found.
func (v *validator) locateOcc(b *Block, d *doc, occ []int) match {
	switch {
	case len(occ) == 1:
		end := occ[0] + len(b.Search)
		return match{start: occ[0], end: end, matched: d.slice(occ[0], end), replace: b.Replace, rung: "exact"}
	case len(occ) > 1:
		return match{problem: v.ambiguous(b, d, occ)}
	}
	if v.opt.Fuzzy {
		if m, ok := v.climb(b, d); ok {
			return m
		}
	}
	p, places := v.notFound(b, d)
	v.explainMiss(b, d, p, places)
	return match{problem: p}
}

func (v *validator) ambiguous(b *Block, d *doc, occ []int) *Problem {
	lines := make([]string, len(occ))
	p := v.fail(b, KindAmbiguous, "", "")
	n := strings.Count(b.Search, "\n")
	p.Candidates = make([]Candidate, 0, len(occ))
	for i, at := range occ {
		line := d.lineOf(at) + 1
		lines[i] = strconv.Itoa(line)
		text := d.text()[at : at+len(b.Search)]
		p.Candidates = append(p.Candidates, Candidate{
			Line: line, EndLine: line + n - 1, Context: firstNonBlankLine(text), Similarity: 1, Text: text,
		})
	}
	more := ""
	if len(occ) == maxOccurrences {
		more = " or more"
	}
	p.Message = fmt.Sprintf("SEARCH block matches %d%s places in %s (lines %s); it must match exactly one",
		len(occ), more, b.Path, strings.Join(lines, ", "))
	p.Hint = "add lines above or below to SEARCH (and the same to REPLACE) so that it matches only the place you mean"
	p.Line = p.Candidates[0].Line
	v.explain(p, b, d, occ)
	return p
}

// notFound writes the problem of a block that matched nowhere; places is
// partialLine's count of SEARCH's places inside lines.
func (v *validator) notFound(b *Block, d *doc) (*Problem, int) {
	at, places := partialLine(d.text(), b.Search)
	if at >= 0 {
		line := d.lineOf(at) + 1
		p := v.fail(b, KindPartialLine,
			fmt.Sprintf("SEARCH matches only part of line %d of %s; SEARCH must hold whole lines", line, b.Path),
			"copy the whole line into SEARCH (and REPLACE), or "+v.opt.Switch.on()+" to widen it to whole lines")
		p.Line = line
		return p, places
	}
	if p := v.rewritten(b, b.Search, false); p != nil {
		return p, 0
	}
	p := v.fail(b, KindNotFound, "SEARCH block not found in file content.",
		"copy the exact lines from the file into SEARCH (whitespace and all), or "+v.opt.Switch.on())
	if c, ok := closestAt(d.text(), b.Search, -1); ok {
		c.Diff = nearMiss(wordsOf(b), b.Path, b.Search, c)
		p.Candidates = []Candidate{c}
		p.Line = c.Line
	}
	return p, places
}

// change turns the running state of a file into what the commit writes.
func (t *target) change() (FileChange, bool) {
	if !t.touched {
		return FileChange{}, false
	}
	fc := FileChange{Path: t.key, Display: t.display, Existed: t.existed, Old: t.orig, Blocks: t.blocks, MovedFrom: t.movedFrom}
	switch {
	case t.deleted && t.existed:
		fc.Action = ActionDelete
	case t.deleted:
		return FileChange{}, false // created and deleted again
	case t.keepEmpty && t.doc.empty():
		fc.Action, fc.content = ActionCreate, &fileContent{b: []byte{}}
		if t.existed {
			fc.Action = ActionModify
		}
	case t.doc.empty() && t.existed && len(t.orig) > 0:
		fc.Action = ActionDelete
	case t.doc.empty() && !t.existed:
		return FileChange{}, false // created and emptied again: nothing to do
	case !t.existed:
		fc.Action, fc.content, fc.Lines = ActionCreate, &fileContent{d: t.doc}, t.blockLines()
	default:
		fc.Action, fc.content, fc.Lines = ActionModify, &fileContent{d: t.doc}, t.blockLines()
	}
	if fc.Existed && fc.Old == nil {
		fc.Old = []byte{}
	}
	return fc, true
}

package core

import (
	"bytes"
	"slices"
	"unsafe"
)

// memo is what one validation found, file by file, for Revalidate to take
// over: each block's result and problems, and each file's content as read
// and its change. Immutable once its plan is returned. Only Revalidate
// keeps one (Validate's callers never revalidate); its methods do nothing
// on a nil memo.
type memo struct {
	patch    *Patch
	opt      Options
	off      bool              // a move ties two files together: nothing is taken over
	results  []BlockResult     // by block number - 1: the plan's
	problems map[int][]Problem // the validation problems of each block that has some
	files    map[string]*memoFile
	reused   map[string]*memoFile // while validating: the files taken over from prev
	// after holds, by block number - 1, the running state of the
	// block's file just after it, read-only: a validation that takes the
	// blocks of a file up to this one over goes on from a copy of it.
	after   []*target
	applied int // the blocks validated, not taken over
}

// memoFile is one target file: its blocks (the numbers of those that
// reached it, in order), its content as read and what the plan does to it.
type memoFile struct {
	blocks  []int
	existed bool
	orig    []byte
	cr      bool // orig holds a CR (and no NUL: it was loaded)
	change  FileChange
	changed bool
}

func newMemo(patch *Patch, opt Options) *memo {
	m := &memo{patch: patch, opt: opt, files: map[string]*memoFile{}, after: make([]*target, len(patch.Blocks))}
	for i := range patch.Blocks {
		if patch.Blocks[i].Op == OpMove || patch.Blocks[i].MoveTo != "" {
			m.off = true
		}
	}
	return m
}

// keep decides which blocks the validation takes over from prev, and
// returns them (by number). The blocks of a file apply in sequence: its
// first blocks are taken over when it reads as it did, both validations
// ran with the same options, and they are the same blocks at the same
// numbers and places (sameBlock) as prev's first blocks of the file. When
// all of them are, the file keeps prev's change; otherwise it goes on
// from its state after the last block taken over (resume), and only the
// blocks after that one are validated: a streamed chunk costs the block
// it completes, an edit the block edited and those after it in its file,
// not every block of the file.
func (m *memo) keep(prev *Plan, v *validator, broken map[int]bool) []bool {
	if m == nil || prev == nil || prev.memo == nil || m.off || prev.memo.off || !sameOptions(m.opt, prev.memo.opt) {
		return nil
	}
	pm := prev.memo
	// Every block loads its file first thing (apply): loading them all
	// ahead, in the same order, leaves the same state.
	groups := map[*target][]int{}
	for i := range m.patch.Blocks {
		b := &m.patch.Blocks[i]
		if !broken[b.Number] {
			t := v.target(b)
			groups[t] = append(groups[t], b.Number)
		}
	}
	var kept []bool
	for _, t := range v.order {
		pf, g := pm.files[t.key], groups[t]
		if pf == nil || pf.existed != t.existed || !bytes.Equal(pf.orig, t.orig) {
			continue
		}
		same := 0 // the first blocks alike
		for same < len(g) && same < len(pf.blocks) && g[same] == pf.blocks[same] &&
			g[same] <= len(pm.patch.Blocks) && sameBlock(&m.patch.Blocks[g[same]-1], &pm.patch.Blocks[g[same]-1]) {
			same++
		}
		switch {
		case same == len(g) && same == len(pf.blocks):
			if m.reused == nil {
				m.reused = map[string]*memoFile{}
			}
			m.reused[t.key] = pf
		case same > 0 && pm.after[g[same-1]-1] != nil:
			t.resume(pm.after[g[same-1]-1])
		default:
			continue
		}
		if kept == nil {
			kept = make([]bool, len(m.patch.Blocks)+1)
		}
		for _, n := range g[:same] {
			kept[n] = true
			m.after[n-1] = pm.after[n-1]
		}
	}
	return kept
}

// taken is the file key as prev left it, when this validation takes it
// over.
func (m *memo) taken(key string) *memoFile {
	if m == nil {
		return nil
	}
	return m.reused[key]
}

// ran keeps a copy of the state block n left its file in, t, and counts
// the block validated.
func (m *memo) ran(n int, t *target) {
	if m == nil {
		return
	}
	m.applied++
	if t != nil {
		m.after[n-1] = t.snapshot()
	}
}

// record keeps the problems block n's validation added.
func (m *memo) record(n int, added []Problem) {
	if m == nil || len(added) == 0 {
		return
	}
	if m.problems == nil {
		m.problems = map[int][]Problem{}
	}
	ps := make([]Problem, len(added))
	for i, p := range added {
		p.Candidates = slices.Clone(p.Candidates)
		ps[i] = p
	}
	m.problems[n] = ps
}

// file keeps a target's content as read and its change.
func (m *memo) file(t *target, fc FileChange, changed bool) {
	if m == nil {
		return
	}
	m.files[t.key] = &memoFile{existed: t.existed, orig: t.orig, cr: t.cr, change: fc, changed: changed}
}

// snapshot copies t for a later validation to go on from (resume); t
// goes on changing without changing the copy.
func (t *target) snapshot() *target {
	c := *t
	c.doc = t.doc.clone()
	// Clipped: the copy's appends copy instead of writing into t's
	// arrays, where t's own appends land past what the copy sees.
	c.blocks, c.edits, c.spans = slices.Clip(t.blocks), slices.Clip(t.edits), slices.Clip(t.spans)
	return &c
}

// resume sets t, a file as read, to a copy of from, the state another
// validation left the same file in after the blocks this one takes over,
// for the blocks after them; from stays as it was.
func (t *target) resume(from *target) {
	orig, cr, expect := t.orig, t.cr, t.doc.expect
	*t = *from.snapshot()
	t.orig, t.cr = orig, cr
	t.doc.expect = expect
}

// clone copies a doc that splices may go on changing without changing d:
// the lists a splice rebuilds in place are copied, the spare pair is not
// shared, and the text's strings and line endings, which no splice writes
// to, are.
func (d *doc) clone() *doc {
	c := *d
	c.pieces, c.nl = slices.Clone(d.pieces), slices.Clone(d.nl)
	c.sparePieces, c.spareNL = nil, nil
	c.kept = slices.Clip(d.kept)
	return &c
}

// fileRead is the file key as m found it, when data is the very bytes it
// read then (the same memory, not merely equal bytes); nil otherwise.
func (m *memo) fileRead(key string, data []byte) *memoFile {
	if m == nil {
		return nil
	}
	f := m.files[key]
	if f == nil || !f.existed || !SameMemory(f.orig, data) {
		return nil
	}
	return f
}

// SameMemory reports whether b is the very slice a is, the same memory
// and length, not merely equal elements: a file a caller's cache handed
// back unchanged. Two empty slices are never the same memory.
func SameMemory[E any](a, b []E) bool {
	return len(a) == len(b) && len(a) > 0 && unsafe.SliceData(a) == unsafe.SliceData(b)
}

// done lists each file's blocks, from the plan's results, and lets go of
// prev.
func (m *memo) done(results []BlockResult) *memo {
	if m == nil {
		return nil
	}
	m.results = results
	for _, res := range results {
		if f := m.files[res.Path]; f != nil {
			f.blocks = append(f.blocks, res.Block)
		}
	}
	m.reused = nil
	return m
}

func sameOptions(a, b Options) bool {
	return a.Root == b.Root && slices.Equal(a.RootAliases, b.RootAliases) && a.Fuzzy == b.Fuzzy &&
		a.Applied == b.Applied && (a.Explain == nil) == (b.Explain == nil)
}

// SameBlock reports whether a and b are the same edit at the same number
// and place: every field alike. What was found of one holds for the
// other, on the same files.
func SameBlock(a, b *Block) bool { return sameBlock(a, b) }

// sameBlock reports whether two blocks are the same edit at the same
// number and place: every field alike (memo_test.go checks that each one
// counts).
func sameBlock(a, b *Block) bool {
	return a.Number == b.Number && a.Path == b.Path && a.Op == b.Op && a.Dialect == b.Dialect &&
		a.Search == b.Search && a.Replace == b.Replace && a.InheritedFrom == b.InheritedFrom &&
		a.Incomplete == b.Incomplete && a.Label == b.Label && equalSlices(a.Anchors, b.Anchors) &&
		a.EOF == b.EOF && a.Section == b.Section && a.MoveTo == b.MoveTo &&
		a.HintLine == b.HintLine && a.HintEndLine == b.HintEndLine && equalSlices(a.Hashes, b.Hashes) &&
		a.ReplaceAll == b.ReplaceAll && a.Expected == b.Expected && a.InsertAfter == b.InsertAfter &&
		a.Overwrite == b.Overwrite && a.Inverts == b.Inverts &&
		a.Span == b.Span && a.Header == b.Header && a.PathSpan == b.PathSpan &&
		a.SearchMarker == b.SearchMarker && a.SearchBody == b.SearchBody && a.Divider == b.Divider &&
		a.ReplaceBody == b.ReplaceBody && a.ReplaceMarker == b.ReplaceMarker &&
		equalSlices(a.Literal, b.Literal) && a.plain == b.plain && a.CRLF == b.CRLF &&
		a.Lang == b.Lang && a.FromLine == b.FromLine && a.ToLine == b.ToLine && equalSlices(a.Omissions, b.Omissions)
}

// equalSlices is slices.Equal that does not read a slice compared with
// itself: a block a streamed answer's parses share (ParseMemo) is compared
// with itself on every chunk, and its slices lie wherever the parse that
// read it left them, a cache miss each.
func equalSlices[E comparable](a, b []E) bool {
	return len(a) == 0 && len(b) == 0 || SameMemory(a, b) || slices.Equal(a, b)
}

package core

import (
	"fmt"
	"strings"
)

// Operations of agents' edit tools (the MCP server's edit and multi_edit,
// and the tool-calls format): the str_replace rule, which is not
// SEARCH/REPLACE's whole-line rule.
const (
	// OpStrReplace replaces Search, any substring of the file (not
	// necessarily whole lines), by Replace. Search must occur exactly once,
	// or Expected times when Expected > 0, or any number of times (at
	// least one) with ReplaceAll; every place is replaced then.
	OpStrReplace Op = "str-replace"
	// OpInsert inserts Replace (whole lines) after line InsertAfter of the
	// file, 0 for the top (Anthropic's text editor "insert").
	OpInsert Op = "insert"

	// DialectToolCall: a block from an agent's edit tool call (the
	// tool-calls format, or the MCP server's edit tools).
	DialectToolCall Dialect = "tool-call"
)

// maxListed bounds the line numbers an ambiguity message lists.
const maxListed = 20

// StrEdit is one str_replace edit, as agents' edit tools send it.
type StrEdit struct {
	Path       string
	Old, New   string // Old "" creates the file (it must not exist, or be empty)
	ReplaceAll bool
	Expected   int // the number of places Old must occur in; 0: exactly one (any with ReplaceAll)
}

// StrEditBlock turns an edit into a block numbered n: an OpStrReplace, or
// a create for an empty Old. Texts are read with LF line endings; new
// text takes the file's ending when it is written.
func StrEditBlock(e StrEdit, n int) Block {
	b := Block{
		Number: n, Path: e.Path, Op: OpStrReplace, Dialect: DialectToolCall,
		Search: lf(e.Old), Replace: lf(e.New), ReplaceAll: e.ReplaceAll, Expected: e.Expected,
	}
	if e.Old == "" {
		b.Op, b.CRLF = OpCreate, crlfThroughout(e.New)
	}
	keepLiterals(&b)
	return b
}

// crlfThroughout reports whether every line break of s is CRLF: the line
// ending a file created from s takes (else LF).
func crlfThroughout(s string) bool {
	n := strings.Count(s, "\r\n")
	return n > 0 && n == strings.Count(s, "\n")
}

// StrEditPatch is a patch made of str_replace edits, in order: edits of
// one file apply in sequence, each to the text the one before left.
func StrEditPatch(edits []StrEdit) *Patch {
	p := &Patch{Format: Format{Name: FormatToolCalls, Reason: "str_replace edits"}}
	for i, e := range edits {
		p.Blocks = append(p.Blocks, StrEditBlock(e, i+1))
	}
	p.Problems = append(p.Problems, strEditProblems(p.Blocks)...)
	if len(p.Blocks) == 0 {
		p.Problems = append(p.Problems, Problem{Kind: KindNoBlocks, Message: "no edit was given", Hint: "give at least one edit"})
	}
	return p
}

// strEditProblems finds what is wrong with edits before any file is read.
func strEditProblems(blocks []Block) Problems {
	var out Problems
	for _, b := range blocks {
		fail := func(kind Kind, msg, hint string) {
			out = append(out, Problem{Kind: kind, Block: b.Number, Path: b.Path, Span: b.Span, Message: msg, Hint: hint})
		}
		switch {
		case b.Op == OpCreate && b.Replace == "" && !b.Overwrite:
			fail(KindEmptyBlock, "old_string and new_string are both empty: the edit does nothing",
				"to create a file give its content as new_string; to change one, give the text to replace as old_string")
		case b.Op == OpStrReplace && b.Search == b.Replace:
			fail(KindEmptyBlock, "old_string and new_string are the same: the edit changes nothing",
				"give the new text as new_string")
		case b.Expected < 0:
			fail(KindMalformed, fmt.Sprintf("the expected number of replacements is %d; it must be 1 or more", b.Expected), "leave it out for exactly one")
		}
	}
	return out
}

func lf(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

// strReplace applies an OpStrReplace block to its file's running state.
func (v *validator) strReplace(b *Block, t *target, res *BlockResult) {
	if !t.exists && v.opt.Fuzzy {
		if nt := v.resolveNamesake(b, t); nt != t {
			t, res.Path = nt, nt.key
		}
	}
	if !t.exists {
		msg, hint := fmt.Sprintf("%s does not exist", b.Path), "check the path; to create the file, give an empty old_string and its content as new_string"
		if guess, ok := v.namesake(b.Path, t); ok {
			msg += fmt.Sprintf("; did you mean %s?", guess)
			hint = fmt.Sprintf("if the edit is for %s, give that path; to create %s, give an empty old_string and its content as new_string", guess, b.Path)
		}
		v.fail(b, KindMissingFile, msg, hint)
		return
	}
	d := t.doc
	text := d.text()
	hay := text // the file's text without the final newline loadDoc added
	if d.noFinalEOL {
		hay = text[:len(text)-1]
	}
	limit := 2
	if b.ReplaceAll || b.Expected > 0 {
		limit = -1
	}
	occ := substrings(hay, b.Search, limit)
	if v.strApplied(b, res, hay, occ) {
		return
	}
	if len(occ) == 0 {
		if v.opt.Fuzzy && v.strClimb(b, t, res) {
			return
		}
		v.strNotFound(b, d, hay)
		return
	}
	if !b.ReplaceAll && (b.Expected == 0 && len(occ) > 1 || b.Expected > 0 && len(occ) != b.Expected) {
		if b.Expected == 0 {
			occ = substrings(hay, b.Search, -1)
		}
		v.strAmbiguous(b, d, hay, occ)
		return
	}
	first := strings.Count(hay[:occ[0]], "\n")
	if v.placeholder(b, b.Replace, b.Search, first+1) {
		return
	}
	removed, added := strings.Count(b.Search, "\n"), strings.Count(b.Replace, "\n")
	for i := len(occ) - 1; i >= 0; i-- {
		at := occ[i]
		// Whole lines around the place, for FileChange.Lines.
		line := strings.Count(hay[:at], "\n")
		e := lineEdit{at: line, removed: removed + 1, added: added + 1, block: b.Number}
		t.edits = append(t.edits, e)
		t.spans = append(t.spans, e)
	}
	if len(occ) == 1 || d.crlf == nil {
		spliceAll(d, occ, b.Search, b.Replace)
	} else {
		for i := len(occ) - 1; i >= 0; i-- {
			d.splice(occ[i], occ[i]+len(b.Search), b.Replace)
		}
	}
	t.touched = true
	t.blocks = append(t.blocks, b.Number)
	res.Status, res.Rung = StatusApplies, "exact"
	res.Line = first + 1
	res.EndLine = res.Line + added
}

// strClimb runs an edit that matches nowhere exactly up the fuzzy ladder
// (fuzzy.go), as a block of whole lines: old_string as SEARCH and
// new_string as REPLACE, each ending its last line. The ladder's rungs
// then forgive what they forgive a block — lost or changed indentation
// (new_string is re-indented), trailing and inner whitespace, typography,
// copied line numbers — and its partial-line rung takes an old_string
// that starts or ends inside a line. Unique places only, reported with
// the rung, as for a block; never without --fuzzy.
func (v *validator) strClimb(b *Block, t *target, res *BlockResult) bool {
	if b.ReplaceAll || b.Expected > 1 {
		return false // the ladder finds one place
	}
	lb := *b
	lb.Op = OpModify
	lb.Search = withEOL(b.Search)
	if !strings.HasSuffix(b.Search, "\n") {
		lb.Replace = withEOL(b.Replace)
	}
	d := t.doc
	m, ok := v.climb(&lb, d)
	if !ok {
		return false
	}
	if m.problem != nil || v.placeholder(b, m.replace, m.matched, d.lineOf(m.start)+1) {
		return true
	}
	v.write(&lb, t, d, m, res)
	res.EndLine = res.Line + max(0, strings.Count(m.replace, "\n")-1)
	return true
}

// spliceAll replaces search by repl at every offset of occ (ascending) in
// one pass: a replace_all over a big file copies it once.
func spliceAll(d *doc, occ []int, search, repl string) {
	if len(occ) == 1 {
		d.splice(occ[0], occ[0]+len(search), repl)
		return
	}
	text := d.text()
	var sb strings.Builder
	sb.Grow(len(text) + len(occ)*(len(repl)-len(search)))
	from := 0
	for _, at := range occ {
		sb.WriteString(text[from:at])
		sb.WriteString(repl)
		from = at + len(search)
	}
	sb.WriteString(text[from:])
	d.flat, d.memoOK = sb.String(), false
}

// substrings returns the offsets of search in text, left to right and not
// overlapping, at most limit of them (-1: all). An overlapping second
// place counts too when limit is 2 (the uniqueness check): "aa" is not
// unique in "aaa". It searches with the finder, as occurrences does:
// strings.Index falls back to Rabin-Karp on an old_string that starts with
// indentation, as most do.
func substrings(text, search string, limit int) []int {
	var out []int
	f := newFinder(search)
	for from := 0; ; {
		at := f.index(text, from)
		if at < 0 {
			break
		}
		out = append(out, at)
		if limit > 0 && len(out) >= limit {
			break
		}
		from = at + len(search)
		if limit == 2 && len(out) == 1 {
			from = at + 1
		}
	}
	return out
}

func (v *validator) strAmbiguous(b *Block, d *doc, hay string, occ []int) {
	p := v.fail(b, KindAmbiguous, "", "")
	var counts []int // places on each line listed, parallel to p.Candidates
	line, last, more := 0, 0, false
	for _, at := range occ {
		line += strings.Count(hay[last:at], "\n")
		last = at
		if n := len(p.Candidates); n > 0 && p.Candidates[n-1].Line == line+1 {
			counts[n-1]++
			continue
		}
		if len(p.Candidates) == maxListed {
			more = true
			continue
		}
		counts = append(counts, 1)
		end := strings.IndexByte(hay[at:], '\n')
		if end < 0 {
			end = len(hay) - at
		}
		start := strings.LastIndexByte(hay[:at], '\n') + 1
		p.Candidates = append(p.Candidates, Candidate{
			Line: line + 1, EndLine: line + 1 + strings.Count(b.Search, "\n"), Similarity: 1,
			Context: strings.TrimSpace(hay[start : at+end]), Text: b.Search,
		})
	}
	list := placeList(p.Candidates, counts, more)
	if b.Expected > 0 {
		were := "replacements were"
		if b.Expected == 1 {
			were = "replacement was"
		}
		p.Message = fmt.Sprintf("old_string occurs %d times in %s (%s), but %d %s expected", len(occ), b.Path, list, b.Expected, were)
		p.Hint = "give more surrounding text in old_string, or the right number of expected replacements"
	} else {
		p.Message = fmt.Sprintf("old_string occurs %d times in %s (%s); it must occur exactly once", len(occ), b.Path, list)
		p.Hint = "include more surrounding text in old_string so that it matches only the place you mean, or set replace_all to change every one"
	}
	p.Line = p.Candidates[0].Line
}

// placeList says where the places of an ambiguous edit are: "lines 2,
// 6"; where some share a line, how many each line holds ("2 on line 1,
// 1 on line 3"; "all on line 1").
func placeList(cands []Candidate, counts []int, more bool) string {
	shared := false
	for _, n := range counts {
		shared = shared || n > 1
	}
	if len(cands) == 1 {
		return fmt.Sprintf("all on line %d", cands[0].Line)
	}
	parts := make([]string, len(cands))
	for i, c := range cands {
		parts[i] = fmt.Sprint(c.Line)
		if shared {
			parts[i] = fmt.Sprintf("%d on line %d", counts[i], c.Line)
		}
	}
	list := strings.Join(parts, ", ")
	if more {
		list += ", …"
	}
	if shared {
		return list
	}
	return "lines " + list
}

func (v *validator) strNotFound(b *Block, d *doc, hay string) {
	if v.rewritten(b, b.Search, true) != nil {
		return
	}
	p := v.fail(b, KindNotFound, fmt.Sprintf("old_string not found in %s", b.Path),
		"old_string must match the file exactly, whitespace and indentation included: read the file again and copy the text")
	search := b.Search
	if !strings.HasSuffix(search, "\n") {
		search += "\n"
	}
	if c, ok := closestAt(d.text(), search, -1); ok {
		c.Diff = nearMiss(wordsOf(b), b.Path, search, c)
		p.Candidates = []Candidate{c}
		p.Line = c.Line
		p.Message += fmt.Sprintf("; the closest place is line %d (%.0f%% similar): %q", c.Line, c.Similarity*100, c.Context)
	}
}

// insert applies an OpInsert block: Replace goes after line InsertAfter.
func (v *validator) insert(b *Block, t *target, res *BlockResult) {
	if !t.exists {
		v.fail(b, KindMissingFile, fmt.Sprintf("%s does not exist", b.Path), "check the path; to create the file, use create")
		return
	}
	d := t.doc
	n := d.lines()
	if b.InsertAfter < 0 || b.InsertAfter > n {
		p := v.fail(b, KindNotFound, fmt.Sprintf("cannot insert after line %d: %s has %s", b.InsertAfter, b.Path, plural(n, "line")),
			fmt.Sprintf("give a line number from 0 (the top) to %d (the end)", n))
		p.Line = n
		return
	}
	at := 0
	if b.InsertAfter > 0 {
		text := d.text()
		for i := 0; i < b.InsertAfter; i++ {
			at += strings.IndexByte(text[at:], '\n') + 1
		}
	}
	// The text is whole lines, the last one ended for it: "" is one empty
	// line, as the text editor's reference tool and OpenHands insert it.
	repl := b.Replace
	if !strings.HasSuffix(repl, "\n") {
		repl += "\n"
	}
	if v.placeholder(b, repl, "", b.InsertAfter+1) {
		return
	}
	added := strings.Count(repl, "\n")
	e := lineEdit{at: b.InsertAfter, removed: 0, added: added, block: b.Number}
	t.edits = append(t.edits, e)
	t.spans = append(t.spans, e)
	d.splice(at, at, repl)
	t.touched = true
	t.blocks = append(t.blocks, b.Number)
	res.Status, res.Rung = StatusApplies, "exact"
	res.Line, res.EndLine = b.InsertAfter+1, b.InsertAfter+added
}

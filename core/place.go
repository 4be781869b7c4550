package core

import (
	"fmt"
	"strings"
)

// Placement for the dialects that say more than SEARCH text: apply-patch
// hunks (a cursor, anchors, *** End of File, addition-only hunks), line
// hints (Roo, unified diffs) and hashline blocks. place runs before the
// generic locate and hands it the cases it does not settle, on the part of
// the file where the block may match (locateIn).

// lineEdit is one splice of a file's running state, in lines: at is the
// zero-based first line, removed and added the line counts.
type lineEdit struct {
	at, removed, added int
	block              int
}

// origLine maps a 1-based line of the file as it was before the patch to
// the file as the blocks applied so far left it. ok is false when an
// earlier block replaced that line (by is its number) or rewrote the file.
func (t *target) origLine(n int) (cur int, by int, ok bool) {
	if t.rewrittenBy > 0 {
		return 0, t.rewrittenBy, false
	}
	l := n - 1
	for _, e := range t.edits {
		switch {
		case l < e.at:
		case l >= e.at+e.removed:
			l += e.added - e.removed
		default:
			return 0, e.block, false
		}
	}
	return l + 1, 0, true
}

// record notes a splice of the running state (for origLine and the cursor
// of apply-patch sections), and returns the zero-based line it starts at.
func (t *target) record(b *Block, d *doc, m match) int {
	e := lineEdit{at: d.lineOf(m.start), removed: strings.Count(m.matched, "\n"), added: strings.Count(m.replace, "\n"), block: b.Number}
	if t.edits == nil {
		// Room for every block that names the file: appends grew both
		// lists block by block (BenchmarkW1's allocations).
		t.edits, t.spans = make([]lineEdit, 0, max(1, d.expect)), make([]lineEdit, 0, max(1, d.expect))
	}
	t.edits = append(t.edits, e)
	t.spans = append(t.spans, e)
	if b.Section > 0 {
		t.section, t.cursor = b.Section, m.start+len(m.replace)
	}
	return e.at
}

// place settles the blocks whose dialect says where they go. handled is
// false when the generic locate should decide.
func (v *validator) place(b *Block, t *target, d *doc) (m match, handled bool) {
	if inner, ok := v.unfence(b, d); ok {
		if m, handled = v.place(inner, t, d); !handled {
			m = v.locate(inner, d)
		}
		return m, true
	}
	switch {
	case len(b.Hashes) > 0:
		return v.placeHashline(b, t, d), true
	case b.Dialect == DialectApplyPatch && b.Section > 0:
		return v.placeHunk(b, t, d), true
	case b.HintLine > 0:
		return v.placeHinted(b, t, d)
	}
	return match{}, false
}

// locateIn runs the generic locate (exact, then the fuzzy ladder) on the
// whole lines [from, to) of d only, and shifts what it finds back.
func (v *validator) locateIn(b *Block, d *doc, from, to int) match {
	if from == 0 && to == d.len() {
		return v.locate(b, d)
	}
	sub := &doc{flat: d.text()[from:to]}
	before := len(v.plan.Problems)
	m := v.locate(b, sub)
	base := d.lineOf(from)
	for i := before; i < len(v.plan.Problems); i++ {
		p := &v.plan.Problems[i]
		if p.Line > 0 {
			p.Line += base
		}
		for k := range p.Candidates {
			c := &p.Candidates[k]
			c.Line += base
			c.EndLine += base
			if c.Diff != "" {
				c.Diff = nearMiss(wordsOf(b), b.Path, b.Search, *c)
			}
		}
	}
	if m.problem == nil {
		m.start += from
		m.end += from
	}
	return m
}

// exactAt is the match of b's SEARCH at offset at of d.
func exactAt(b *Block, d *doc, at int) match {
	end := at + len(b.Search)
	return match{start: at, end: end, matched: d.text()[at:end], replace: b.Replace, rung: "exact"}
}

// placeHunk places an apply-patch hunk: after the previous hunk of its
// section, after its anchors, at the end of the file for *** End of File.
func (v *validator) placeHunk(b *Block, t *target, d *doc) match {
	from := 0
	if t.section == b.Section && t.cursor <= len(d.text()) {
		from = t.cursor
	}
	starts := lineStarts(d.text())
	scopeEnd := len(d.text()) // where the innermost anchor's block ends
	anchored := false
	anchorEnd := 0
	for _, a := range b.Anchors {
		line, p := v.anchor(b, d, starts, from, scopeEnd, a)
		if p != nil {
			return match{problem: p}
		}
		anchored = true
		from = starts[line]
		anchorEnd = starts[line+1]
		scopeEnd = anchorScope(d.text(), starts, line)
	}
	if b.Search == "" { // addition only
		at := len(d.text())
		if anchored && !b.EOF {
			at = anchorEnd // right after the anchor, not at the end of the file
		}
		return match{start: at, end: at, replace: b.Replace, rung: "exact"}
	}
	region := d.text()[from:]
	if b.EOF {
		if strings.HasSuffix(region, b.Search) && (len(region) == len(b.Search) || region[len(region)-len(b.Search)-1] == '\n') {
			return exactAt(b, d, len(d.text())-len(b.Search))
		}
		if occ := occurrences(region, b.Search, 1); len(occ) > 0 {
			line := d.lineOf(from+occ[0]) + 1
			p := v.fail(b, KindNotFound,
				fmt.Sprintf("the hunk ends with *** End of File, but its lines match at line %d, not at the end of %s", line, b.Path),
				"remove the *** End of File line if the hunk is not meant for the end of the file, or add the file's last lines to it")
			p.Line = line
			return match{problem: p}
		}
		return v.locateIn(b, d, from, len(d.text()))
	}
	occ := occurrences(region, b.Search, maxOccurrences)
	if anchored && (len(occ) == 0 || from+occ[0] >= scopeEnd) {
		if at, ok := standsIn(d, b, from, scopeEnd); ok {
			return match{applied: true, at: at}
		}
	}
	switch {
	case len(occ) == 1:
		return exactAt(b, d, from+occ[0])
	case len(occ) > 1 && anchored && from+occ[0] < scopeEnd && from+occ[1] >= scopeEnd:
		// Several places after the anchor, one inside the anchor's block.
		return exactAt(b, d, from+occ[0])
	}
	return v.locateIn(b, d, from, len(d.text()))
}

// anchor finds the line of an "@@ anchor" at or after offset from: the one
// line equal to it once blanks are trimmed, else the one line that starts
// with it; when several do, the first if it is the only one inside the
// enclosing anchor's block (before scopeEnd).
func (v *validator) anchor(b *Block, d *doc, starts []int, from, scopeEnd int, a string) (int, *Problem) {
	want := strings.TrimSpace(a)
	first := d.lineOf(from)
	var eq, prefix []int
	for i := first; i+1 < len(starts); i++ {
		l := strings.TrimSpace(d.text()[starts[i] : starts[i+1]-1])
		switch {
		case l == want:
			eq = append(eq, i)
		case strings.HasPrefix(l, want):
			prefix = append(prefix, i)
		}
	}
	found := eq
	if len(found) == 0 {
		found = prefix
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1 && starts[found[0]] < scopeEnd && starts[found[1]] >= scopeEnd:
		return found[0], nil
	case len(found) == 0:
		where := ""
		if first > 0 {
			where = fmt.Sprintf(" after line %d", first)
		}
		p := v.fail(b, KindNotFound,
			fmt.Sprintf("the anchor line %q (from \"@@ %s\") is not in %s%s", want, want, b.Path, where),
			"copy the anchor from a line of the file (a function or class signature), or drop it and keep enough context lines")
		p.Snippet = want
		return 0, p
	}
	p := v.fail(b, KindAmbiguous, "", "add an outer @@ anchor (the enclosing class or function) or more context lines so that the anchor is unique")
	p.Snippet = want
	var nums []string
	for _, i := range found {
		nums = append(nums, fmt.Sprint(i+1))
		p.Candidates = append(p.Candidates, Candidate{Line: i + 1, EndLine: i + 1, Context: strings.TrimSpace(d.text()[starts[i] : starts[i+1]-1]), Similarity: 1})
	}
	p.Message = fmt.Sprintf("the anchor %q (from \"@@ %s\") matches %d lines of %s (%s); it must match one", want, want, len(found), b.Path, strings.Join(nums, ", "))
	p.Line = found[0] + 1
	return 0, p
}

// anchorScope is the end offset of the block an anchor line opens: up to
// the next non-blank line indented no deeper than the anchor (a closing
// bracket at the anchor's depth still belongs to it). For a Markdown
// heading, up to the next heading of its level or above.
func anchorScope(text string, starts []int, line int) int {
	lineText := func(i int) string { return text[starts[i] : starts[i+1]-1] }
	a := lineText(line)
	lead, core := splitBlank(a)
	if h := runOf(core, '#'); h > 0 && h < len(core) && core[h] == ' ' {
		for i := line + 1; i+1 < len(starts); i++ {
			_, c := splitBlank(lineText(i))
			if k := runOf(c, '#'); k > 0 && k <= h && k < len(c) && c[k] == ' ' {
				return starts[i]
			}
		}
		return len(text)
	}
	for i := line + 1; i+1 < len(starts); i++ {
		l := lineText(i)
		ld, c := splitBlank(l)
		if c == "" || len(ld) > len(lead) {
			continue
		}
		if strings.HasPrefix(c, "}") || strings.HasPrefix(c, ")") || strings.HasPrefix(c, "]") || c == "end" {
			continue
		}
		return starts[i]
	}
	return len(text)
}

// placeHinted uses a line hint (Roo's :start_line:, a diff's "@@ -l,n") to
// pick among several exact matches: the one that overlaps the hinted lines
// (mapped through the blocks applied before). A single match elsewhere
// still applies, with a note. Other cases go to the generic locate.
func (v *validator) placeHinted(b *Block, t *target, d *doc) (match, bool) {
	occ := occurrences(d.text(), b.Search, maxOccurrences)
	if len(occ) == 0 {
		return match{}, false
	}
	lo, _, ok := t.origLine(b.HintLine)
	if !ok {
		lo = b.HintLine
	}
	hiOrig := max(b.HintEndLine, b.HintLine)
	hi := lo + hiOrig - b.HintLine
	n := strings.Count(b.Search, "\n")
	var near []int
	for _, at := range occ {
		first := d.lineOf(at) + 1
		if first <= hi && first+n-1 >= lo {
			near = append(near, at)
		}
	}
	if len(near) == 0 {
		if at, ok := standsNear(d, b, lo, hi); ok {
			return match{applied: true, at: at}, true
		}
	}
	what := "line hint"
	switch b.Dialect {
	case DialectUdiff:
		what = "@@ line numbers"
	case DialectRoo:
		what = ":start_line: hint"
	}
	switch {
	case len(occ) == 1 && len(near) == 0:
		m := exactAt(b, d, occ[0])
		line := d.lineOf(occ[0]) + 1
		v.plan.Problems = append(v.plan.Problems, Problem{
			Kind: KindLineHint, Severity: SeverityInfo, Block: b.Number, Path: b.Path, Span: b.Span, Line: line,
			Message: fmt.Sprintf("block #%d: the %s say line %d, but the text matches only at line %d; applied there", b.Number, what, b.HintLine, line),
			Hint:    "check that this is the place you meant",
		})
		return m, true
	case len(occ) > 1 && len(near) == 1:
		return exactAt(b, d, near[0]), true
	}
	return match{}, false
}

// standsIn reports whether b stands applied (the applied rule, stands)
// in the whole lines [from, to) of d: an anchored hunk inside its
// anchor's block.
func standsIn(d *doc, b *Block, from, to int) (int, bool) {
	region := d.text()[from:to]
	search, repl := withEOL(b.Search), withEOL(b.Replace)
	var old []int
	if search != "" {
		old = occurrences(region, search, maxOccurrences)
	}
	occ := occurrences(region, repl, 2)
	if !stands(search, repl, old, occ, 1) {
		return 0, false
	}
	return from + occ[0], true
}

// standsNear reports whether b stands applied (stands) on the hinted
// lines [lo, hi]: the places of its REPLACE text that overlap them, where
// its SEARCH text has none (the caller found it only away from the hint).
func standsNear(d *doc, b *Block, lo, hi int) (int, bool) {
	repl := withEOL(b.Replace)
	n := strings.Count(repl, "\n")
	var near []int
	for _, o := range occurrences(d.text(), repl, maxOccurrences) {
		if first := d.lineOf(o) + 1; first <= hi && first+n-1 >= lo {
			near = append(near, o)
		}
	}
	if !stands(withEOL(b.Search), repl, nil, near, 1) {
		return 0, false
	}
	return near[0], true
}

// placeHashline locates a hashline block by its line numbers and checks
// every hash against the line as it is now.
func (v *validator) placeHashline(b *Block, t *target, d *doc) match {
	refs := b.Hashes
	for i := 1; i < len(refs); i++ {
		if refs[i].Line != refs[i-1].Line+1 {
			p := v.fail(b, KindMalformed,
				fmt.Sprintf("hashline block: SEARCH lines must be consecutive, but line %d follows line %d", refs[i].Line, refs[i-1].Line),
				"use one block per run of consecutive lines, copied from fsrb read --hashlines "+b.Path)
			p.Line = refs[i].Line
			return match{problem: p}
		}
	}
	first, by, ok := t.origLine(refs[0].Line)
	if ok {
		for _, r := range refs[1:] {
			if _, by, ok = t.origLine(r.Line); !ok {
				break
			}
		}
	}
	if !ok {
		p := v.fail(b, KindStaleHash,
			fmt.Sprintf("hashline block: line %d, which it edits, was already changed by block #%d", refs[0].Line, by),
			"merge the two blocks into one, or read the file again with fsrb read --hashlines after applying the first")
		p.Line = refs[0].Line
		return match{problem: p}
	}
	starts := lineStarts(d.text())
	nlines := len(starts) - 1
	var stale []string
	var cands []Candidate
	for i, r := range refs {
		cur := first + i
		if cur > nlines {
			stale = append(stale, fmt.Sprintf("line %d is past the end of the file (%d lines)", r.Line, nlines))
			continue
		}
		now := d.text()[starts[cur-1] : starts[cur]-1]
		if h := HashLine(now); h != r.Hash {
			stale = append(stale, fmt.Sprintf("line %d is now %d:%s|%s (the block has hash %s)", r.Line, cur, h, now, r.Hash))
			cands = append(cands, Candidate{Line: cur, EndLine: cur, Context: now, Text: now + "\n"})
		}
	}
	if len(stale) > 0 {
		p := v.fail(b, KindStaleHash,
			fmt.Sprintf("hashline block: the file changed since it was read: %s", strings.Join(stale, "; ")),
			"run fsrb read --hashlines "+b.Path+" again and rewrite the block from what it prints")
		p.Line = refs[0].Line
		p.Candidates = cands
		return match{problem: p}
	}
	start, end := starts[first-1], starts[first-1+len(refs)]
	return match{start: start, end: end, matched: d.text()[start:end], replace: b.Replace, rung: "hashline"}
}

// unfence returns a copy of b without the code fence a model wrapped inside
// both its bodies, as aider strips it: SEARCH and REPLACE each start with an
// opening backtick fence and end with a closing one, and the file holds
// neither of SEARCH's fence lines (so the fenced SEARCH cannot match, and
// a Markdown file's own fences are never dropped). The note says so. The
// parsed block is not changed: the server validates it again later.
func (v *validator) unfence(b *Block, d *doc) (*Block, bool) {
	switch b.Dialect {
	case DialectSearchReplace, DialectFenced, DialectCline, DialectRoo:
	default:
		return nil, false
	}
	if b.Op != OpModify || len(b.Hashes) > 0 {
		return nil, false
	}
	search, ok1 := fencedBody(b.Search)
	replace, ok2 := fencedBody(b.Replace)
	if !ok1 || !ok2 || isBlank(joinBody(search[1:len(search)-1])) {
		return nil, false
	}
	open, closing := strings.TrimSpace(search[0]), strings.TrimSpace(search[len(search)-1])
	for _, l := range strings.Split(d.text(), "\n") {
		if t := strings.TrimSpace(l); t == open || t == closing {
			return nil, false
		}
	}
	inner := *b
	inner.Search = joinBody(search[1 : len(search)-1])
	inner.Replace = joinBody(replace[1 : len(replace)-1])
	v.plan.Problems = append(v.plan.Problems, Problem{
		Kind: KindFence, Severity: SeverityInfo, Block: b.Number, Path: b.Path, Span: b.Span,
		Message: fmt.Sprintf("block #%d: SEARCH and REPLACE are each wrapped in a code fence (%s … %s) that %s does not hold; the fence lines were dropped", b.Number, open, closing, b.Path),
		Hint:    "put the fence around the whole block, outside the SEARCH and REPLACE markers",
	})
	return &inner, true
}

// fencedBody splits a body into lines when its first line opens a backtick
// fence and its last line closes it (a bare fence of as many backticks or
// more).
func fencedBody(body string) ([]string, bool) {
	first, _, _ := strings.Cut(body, "\n")
	if f, ok := fenceOf(first); !ok || !f.open || f.ticks == 0 {
		return nil, false // most bodies: no need to split them
	}
	lines := splitBody(body)
	if len(lines) < 2 {
		return nil, false
	}
	open, ok := fenceOf(lines[0])
	if !ok || !open.open || open.ticks == 0 {
		return nil, false
	}
	closing, ok := fenceOf(lines[len(lines)-1])
	if !ok || !closing.close || closing.ticks < open.ticks {
		return nil, false
	}
	return lines, true
}

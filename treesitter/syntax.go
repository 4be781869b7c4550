package treesitter

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// SyntaxError is a syntax error that an edit leaves in a file: an ERROR or
// MISSING node of the new text that the old text did not have.
type SyntaxError struct {
	Line               int    // 1-based line in the new text
	StartByte, EndByte int    // the node, in the new text
	Missing            string // what tree-sitter expected, for a MISSING node ("}", ";"); "" for ERROR
	Message            string // "leaves a syntax error at line 41 (missing \"}\")"
}

// syntaxNode is an ERROR or MISSING node of a tree.
type syntaxNode struct {
	start, end int
	missing    string // the expected node's type for MISSING; "" for ERROR
}

// maxSyntaxErrors bounds the list of one file: the first few say it all.
const maxSyntaxErrors = 5

// SyntaxErrors parses before and after (the file at path before and after
// an edit) and returns the syntax errors of after that touch the edited
// ranges, byte ranges [start, end) of after, within one line, and that
// before did not have. When before parses cleanly and after does not, an
// error away from the edited ranges counts too: the edit is the only
// change. It returns nil for a file of no known language, or when a parse
// fails (a syntax check never blocks an edit).
func (c *Cache) SyntaxErrors(path string, before, after []byte, editedRanges [][2]int) []SyntaxError {
	lang := LanguageFor(path, after)
	if lang == nil {
		return nil
	}
	return c.syntaxErrors(lang, path, before, after, editedRanges)
}

// syntaxErrors is SyntaxErrors with the language known.
func (c *Cache) syntaxErrors(lang *Language, path string, before, after []byte, editedRanges [][2]int) []SyntaxError {
	if !c.WholeFiles || len(after) > MaxSyntaxCheck {
		if errs, ok := windowSyntaxErrors(context.Background(), c.timeout(), lang, path, before, after, alignEdits(before, after, editedRanges)); ok {
			return errs
		}
		if len(after) > MaxSyntaxCheck {
			return nil
		}
	}
	ta, err := c.Parse(path, 0, after, nil)
	if err != nil || !ta.HasError() {
		return nil
	}
	tb, err := c.Parse(path, 0, before, nil)
	if err != nil {
		return nil
	}
	return newSyntaxErrors(tb, ta, editedRanges)
}

func newSyntaxErrors(tb, ta *Tree, ranges [][2]int) []SyntaxError {
	eb, ea := tb.syntaxNodes(), ta.syntaxNodes()
	var out []SyntaxError
	seen := map[int]bool{} // lines reported
	report := func(n syntaxNode, editStart int) {
		at := n.start
		if n.start < editStart && editStart < n.end {
			// An ERROR node often starts at the statement or the
			// definition that holds the damage: point at the edit.
			at = editStart
		}
		line := ta.line(at)
		if seen[line] || len(out) >= maxSyntaxErrors {
			return
		}
		seen[line] = true
		out = append(out, SyntaxError{Line: line, StartByte: n.start, EndByte: n.end, Missing: n.missing, Message: syntaxMessage(line, n.missing)})
	}

	for _, r := range alignEdits(tb.content, ta.content, ranges) {
		aLo, aHi := widenLines(ta.content, ta.lines, r.aStart, r.aEnd)
		bLo, bHi := widenLines(tb.content, tb.lines, r.bStart, r.bEnd)
		na, nb := within(ea, aLo, aHi), within(eb, bLo, bHi)
		if len(na) <= len(nb) {
			continue // no more errors than before here: nothing new
		}
		// An error of after that sits at the same distance from the edit
		// as one of before, of the same kind, is that one, moved.
		used := make([]bool, len(nb))
	next:
		for _, a := range na {
			for j, b := range nb {
				if !used[j] && a.missing == b.missing && a.end-a.start == b.end-b.start &&
					(a.start-r.aStart == b.start-r.bStart || a.start-r.aEnd == b.start-r.bEnd) {
					used[j] = true
					continue next
				}
			}
			report(a, r.aStart)
		}
	}
	if len(out) == 0 && len(eb) == 0 {
		for _, a := range ea {
			report(a, -1)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

func syntaxMessage(line int, missing string) string {
	msg := fmt.Sprintf("leaves a syntax error at line %d", line)
	if missing != "" {
		msg += fmt.Sprintf(" (missing %q)", missing)
	}
	return msg
}

// within returns the nodes that intersect or touch [lo, hi].
func within(nodes []syntaxNode, lo, hi int) []syntaxNode {
	var out []syntaxNode
	for _, n := range nodes {
		if n.start <= hi && n.end >= lo {
			out = append(out, n)
		}
	}
	return out
}

// widenLines extends [s, e) to whole lines, plus one line above and one
// below.
func widenLines(content []byte, starts []int, s, e int) (int, int) {
	first := lineOf(starts, s)
	last := first
	if e > s {
		last = lineOf(starts, e-1)
	}
	lo, _ := lineBounds(content, starts, first-1)
	_, hi := lineBounds(content, starts, last+1)
	return lo, hi
}

// editRegion is an edited range of after and the range of before it
// replaced.
type editRegion struct{ aStart, aEnd, bStart, bEnd int }

// alignEdits pairs each edited range of after with the range of before it
// replaced. The text between edited ranges is unchanged, so each gap of
// after is found again in before, in order. When the ranges do not fit the
// texts, the whole difference is one region.
func alignEdits(before, after []byte, ranges [][2]int) []editRegion {
	if out, ok := alignRanges(before, after, ranges); ok {
		return out
	}
	return []editRegion{diffRegion(before, after)}
}

// alignRanges is alignEdits without the fallback: ok is false where
// alignEdits gives the whole difference as one region.
func alignRanges(before, after []byte, ranges [][2]int) ([]editRegion, bool) {
	rs := normalizeRanges(ranges, len(after))
	if len(rs) == 0 {
		return nil, false
	}
	out := make([]editRegion, len(rs))
	if !bytes.HasPrefix(before, after[:rs[0][0]]) {
		return nil, false
	}
	bPos := rs[0][0]
	for i, r := range rs {
		out[i] = editRegion{aStart: r[0], aEnd: r[1], bStart: bPos}
		if i+1 < len(rs) {
			gap := after[r[1]:rs[i+1][0]]
			j := indexLong(before[bPos:], gap)
			if j < 0 {
				return nil, false
			}
			out[i].bEnd = bPos + j
			bPos = bPos + j + len(gap)
		}
	}
	last := &out[len(out)-1]
	tail := after[last.aEnd:]
	last.bEnd = len(before) - len(tail)
	if last.bEnd < last.bStart || !bytes.HasSuffix(before, tail) {
		return nil, false
	}
	return out, true
}

// indexLong is strings.Index or bytes.Index for a needle that may be long
// (the unchanged text between two edits; a widened block counted over its
// file): they run Rabin-Karp over the whole haystack for needles past 64
// bytes (BenchmarkSyntaxProblemsW1; make bench, W5's widened blocks);
// searching for a short head with the vector search and comparing
// the rest at each hit costs a memchr and one compare. A head that keeps
// matching (a file of repeated lines) goes back to Rabin-Karp, whose cost
// does not grow with the hits.
func indexLong[T string | []byte](s, sep T) int {
	const head, tries = 32, 8
	if len(sep) <= head {
		return index(s, sep)
	}
	from := 0
	for range tries {
		i := index(s[from:], sep[:head])
		if i < 0 {
			return -1
		}
		at := from + i
		if len(s)-at >= len(sep) && string(s[at:at+len(sep)]) == string(sep) {
			return at
		}
		from = at + 1
	}
	if i := index(s[from:], sep); i >= 0 {
		return from + i
	}
	return -1
}

func index[T string | []byte](s, sep T) int {
	switch s := any(s).(type) {
	case string:
		return strings.Index(s, any(sep).(string))
	default:
		return bytes.Index(s.([]byte), any(sep).([]byte))
	}
}

// normalizeRanges clamps, sorts and merges overlapping or touching ranges.
func normalizeRanges(ranges [][2]int, n int) [][2]int {
	rs := make([][2]int, 0, len(ranges))
	for _, r := range ranges {
		s, e := max(0, min(r[0], n)), max(0, min(r[1], n))
		if e < s {
			s, e = e, s
		}
		rs = append(rs, [2]int{s, e})
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i][0] < rs[j][0] })
	merged := rs[:0]
	for _, r := range rs {
		if k := len(merged); k > 0 && r[0] <= merged[k-1][1] {
			merged[k-1][1] = max(merged[k-1][1], r[1])
			continue
		}
		merged = append(merged, r)
	}
	return merged
}

// diffRegion is the region between the common prefix and suffix.
func diffRegion(before, after []byte) editRegion {
	n := min(len(before), len(after))
	p := 0
	for p < n && before[p] == after[p] {
		p++
	}
	s := 0
	for s < n-p && before[len(before)-1-s] == after[len(after)-1-s] {
		s++
	}
	return editRegion{aStart: p, aEnd: len(after) - s, bStart: p, bEnd: len(before) - s}
}

// syntaxNodes returns the tree's ERROR and MISSING nodes, outermost only,
// in document order; computed once per tree.
func (t *Tree) syntaxNodes() []syntaxNode {
	t.errsOnce.Do(func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		root := t.t.RootNode()
		if !root.HasError() {
			return
		}
		c := sitter.NewTreeCursor(root)
		defer c.Close()
		for {
			n := c.CurrentNode()
			switch {
			case n.IsError():
				t.errs = append(t.errs, syntaxNode{start: int(n.StartByte()), end: int(n.EndByte())})
			case n.IsMissing():
				t.errs = append(t.errs, syntaxNode{start: int(n.StartByte()), end: int(n.EndByte()), missing: n.Type()})
			case n.HasError() && c.GoToFirstChild():
				continue
			}
			for !c.GoToNextSibling() {
				if !c.GoToParent() {
					return
				}
			}
		}
	})
	return t.errs
}

package treesitter

import (
	"sort"
	"strings"
)

// Widening is how to make an ambiguous SEARCH block match only one of its
// occurrences: the same block with lines of the file added above and below
// it, in SEARCH and in REPLACE alike.
type Widening struct {
	Occurrence  int          // index of the occurrence in the slice given to Widen
	Line        int          // 1-based first line of the occurrence
	Definitions []Definition // enclosing definitions of the occurrence, outermost first
	// Search and Replace are the widened block. They are "" when the offset
	// given is not an occurrence of SEARCH.
	Search, Replace string
	Above, Below    int // lines added above and below the occurrence
	// Anchor is a signature line for an apply-patch "@@" header that singles
	// this occurrence out without widening: it appears once in the file, and
	// the occurrence is the first after it (Codex's rule) and the only one
	// inside that definition. "" when no enclosing definition does that.
	Anchor string
}

// sigSlack is how many more lines than the shortest unique widening a
// widening may add to reach the signature line of the enclosing
// definition. The signature says better than a neighbouring line which
// place is meant, but every line of context is one more that the model
// must copy exactly and the reader must check: a signature several lines
// up is not worth it when the next line already singles the place out.
const sigSlack = 2

// maxWiden is the most lines a widening may add. Past it the block would
// be mostly context no reader checks (a file of repeated lines needs
// thousands): no widened block is proposed, only the places and, for
// apply-patch, an anchor.
const maxWiden = 30

// maxExplainParse is the largest file parsed to name the definitions
// around the places: 2 MiB parse in about 0.4 s here. Bigger files widen
// line by line, without names.
const maxExplainParse = 2 << 20

// Widen proposes, for each occurrence of search in content (the file at
// path, LF; occurrences are the byte offsets where each occurrence starts),
// the widening that makes it occur exactly once — whole lines, overlapping
// occurrences counted, as the engine matches (docs/ARCHITECTURE.md
// "Matching"): the shortest run of the file's lines around the occurrence
// that occurs once; among runs of one length, the one closest to
// alternating up and down, up first. When the file has a grammar, it
// reaches up to the signature line of the nearest enclosing definition
// that the other occurrences are not in instead, if that adds at most
// sigSlack lines more than the shortest run. Every widened SEARCH is
// checked to occur exactly once.
func (c *Cache) Widen(path string, content string, search, replace string, occurrences []int) []Widening {
	if strings.TrimSpace(search) == "" {
		return nil
	}
	text := content
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n" // a file without a final newline matches as if it had one
	}
	starts := lineStarts([]byte(text))
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	sl := strings.Split(strings.TrimSuffix(search, "\n"), "\n")
	occ := occurrenceLines(lines, sl)

	var tree *Tree
	parsed := false // definitions known: a grammar, and a parse that worked
	chains := make(map[int][]Definition, len(occ))
	span := func(l int) [2]int {
		s, e := starts[l], starts[min(l+len(sl), len(starts)-1)]
		return [2]int{s, min(e, len(content))}
	}
	if lang := LanguageFor(path, []byte(content[:min(len(content), 512)])); lang != nil && len(content) <= maxExplainParse {
		// Windows first (defwindow.go), for the places asked about; a
		// long-lived cache keeps whole trees, parsed once per version.
		if lang.stmtLines != nil && !c.WholeFiles {
			var ls []int
			var ranges [][2]int
			for _, off := range occurrences {
				if off < 0 || off >= len(text) {
					continue
				}
				l := lineOf(starts, off) - 1
				if j := sort.SearchInts(occ, l); starts[l] == off && j < len(occ) && occ[j] == l {
					ls, ranges = append(ls, l), append(ranges, span(l))
				}
			}
			if chs, ok := c.windowChains(lang, path, []byte(content), starts, ranges); ok {
				for i, l := range ls {
					chains[l] = chs[i]
				}
				parsed = true
			}
		}
		if !parsed {
			tree, _ = c.Parse(path, 0, []byte(content), nil) // no tree: widen line by line
			parsed = tree != nil
		}
	}
	chainOf := func(l int) []Definition {
		if !parsed {
			return nil
		}
		if ch, ok := chains[l]; ok {
			return ch
		}
		if tree == nil {
			return nil
		}
		r := span(l)
		ch, _ := tree.EnclosingDefinitions(r[0], r[1])
		chains[l] = ch
		return ch
	}

	out := make([]Widening, 0, len(occurrences))
	for i, off := range occurrences {
		w := Widening{Occurrence: i}
		if off < 0 || off >= len(text) {
			out = append(out, w) // not an occurrence: nothing to widen
			continue
		}
		l := lineOf(starts, off) - 1
		w.Line = l + 1
		if j := sort.SearchInts(occ, l); starts[l] != off || j == len(occ) || occ[j] != l {
			out = append(out, w)
			continue
		}
		w.Definitions = chainOf(l)
		wd := newWidener(lines, sl, occ, l)
		above, below := wd.smallest()
		if parsed {
			if a, b, ok := wd.toSignature(w.Definitions, occ, starts, above+below); ok && a+b <= maxWiden {
				above, below = a, b
			}
			w.Anchor = anchor(lines, occ, l, len(sl), w.Definitions)
		}
		if above+below > maxWiden {
			out = append(out, w)
			continue
		}
		w.Above, w.Below = above, below
		w.Search, w.Replace = widened(lines, l, len(sl), above, below, search, replace)
		if countOccurrences(text, ensureNewline(w.Search)) != 1 {
			w.Search, w.Replace, w.Above, w.Below = "", "", 0, 0 // cannot happen; never propose a wrong block
		}
		out = append(out, w)
	}
	return out
}

// occurrenceLines returns the 0-based lines where the lines sl start a run
// of equal lines, overlapping runs included.
func occurrenceLines(lines, sl []string) []int {
	var occ []int
	for l := 0; l+len(sl) <= len(lines); l++ {
		if lines[l] != sl[0] {
			continue
		}
		ok := true
		for k := 1; k < len(sl); k++ {
			if lines[l+k] != sl[k] {
				ok = false
				break
			}
		}
		if ok {
			occ = append(occ, l)
		}
	}
	return occ
}

// widener answers, for one occurrence at line l, which widenings single it
// out. A widened SEARCH holds SEARCH, so it can only match where SEARCH
// does, shifted: widening by a lines above and b below singles out l when,
// for every other occurrence m, a exceeds the lines equal above both (up)
// or b the lines equal below both (down).
type widener struct {
	l, k, n  int
	up, down []int // per other occurrence
	// needB[a] is the smallest b that singles l out with a lines above.
	needB []int
}

func newWidener(lines, sl []string, occ []int, l int) *widener {
	w := &widener{l: l, k: len(sl), n: len(lines)}
	for _, m := range occ {
		if m == l {
			continue
		}
		u := 0
		for l-u-1 >= 0 && m-u-1 >= 0 && lines[l-u-1] == lines[m-u-1] {
			u++
		}
		d := 0
		for l+w.k+d < w.n && m+w.k+d < w.n && lines[l+w.k+d] == lines[m+w.k+d] {
			d++
		}
		w.up, w.down = append(w.up, u), append(w.down, d)
	}
	// needB[a] = max(down+1) over the occurrences with up >= a.
	w.needB = make([]int, l+2)
	for i, u := range w.up {
		if u > l {
			u = l
		}
		w.needB[u] = max(w.needB[u], w.down[i]+1)
	}
	for a := l - 1; a >= 0; a-- {
		w.needB[a] = max(w.needB[a], w.needB[a+1])
	}
	return w
}

// maxBelow is how many lines the file has below the occurrence.
func (w *widener) maxBelow() int { return w.n - w.l - w.k }

// below returns the fewest lines below that single the occurrence out with
// a lines above, and whether the file has that many.
func (w *widener) below(a int) (int, bool) {
	b := w.needB[a]
	return b, b <= w.maxBelow()
}

// smallest returns the widening with the fewest lines; among equals, the
// one closest to alternating up and down (up first).
func (w *widener) smallest() (above, below int) {
	best, bestT := [2]int{w.l, w.maxBelow()}, w.l+w.maxBelow() // the whole file always works
	for a := 0; a <= w.l; a++ {
		b, ok := w.below(a)
		if !ok {
			continue
		}
		t := a + b
		if t < bestT || t == bestT && alternation(a, b) < alternation(best[0], best[1]) {
			best, bestT = [2]int{a, b}, t
		}
	}
	return best[0], best[1]
}

// alternation ranks splits of one size: up 1, down 1, up 2, ... gives
// a == b or a == b+1 first.
func alternation(a, b int) int {
	d := 2 * (a - b)
	if d < 0 {
		return -d + 1
	}
	return max(d-1, 0) // a == b -> 0, a == b+1 -> 1
}

// toSignature returns the widening that reaches up to the signature line
// of the nearest enclosing definition that holds no other occurrence, if
// it adds at most sigSlack lines more than the shortest widening, which
// adds t. A signature line that singles the occurrence out by itself is
// preferred: when two methods share their "def hello(self):" line, their
// classes' lines do not.
func (w *widener) toSignature(chain []Definition, occ []int, starts []int, t int) (above, below int, ok bool) {
	first := true
	for i := len(chain) - 1; i >= 0; i-- {
		d := chain[i]
		if holdsOther(d, occ, w.l, starts) {
			continue
		}
		a := w.l - (d.SignatureLine - 1)
		if a <= 0 || a > w.l {
			continue // SEARCH already holds the signature: an outer one may help
		}
		if a > t+sigSlack {
			break // outer definitions are farther still
		}
		b, fits := w.below(a)
		if !fits {
			continue
		}
		if b == 0 {
			return a, 0, true
		}
		if first && a+b <= t+sigSlack {
			above, below, ok, first = a, b, true, false
		}
	}
	return above, below, ok
}

// holdsOther reports whether definition d starts before another occurrence
// than l and ends after its first line.
func holdsOther(d Definition, occ []int, l int, starts []int) bool {
	for _, m := range occ {
		if m != l && d.StartByte <= starts[m] && starts[m] < d.EndByte {
			return true
		}
	}
	return false
}

// anchor returns the trimmed signature line of the innermost enclosing
// definition that singles out the occurrence at l for an "@@" header: the
// line appears once in the file (trimmed), the occurrence is the first one
// after it, and the definition holds no other occurrence.
func anchor(lines []string, occ []int, l, k int, chain []Definition) string {
	for i := len(chain) - 1; i >= 0; i-- {
		d := chain[i]
		sig := d.SignatureLine - 1
		if sig >= l || sig < 0 || sig >= len(lines) {
			continue
		}
		text := strings.TrimSpace(lines[sig])
		if text == "" || !onlyLine(lines, text) {
			continue
		}
		first := sort.SearchInts(occ, sig+1)
		if first == len(occ) || occ[first] != l {
			continue
		}
		if first+1 < len(occ) && occ[first+1] <= d.EndLine-1 {
			continue // another occurrence inside the same definition
		}
		return text
	}
	return ""
}

// onlyLine reports whether exactly one line, trimmed, is text.
func onlyLine(lines []string, text string) bool {
	n := 0
	for _, l := range lines {
		if strings.TrimSpace(l) == text {
			if n++; n > 1 {
				return false
			}
		}
	}
	return n == 1
}

// widened builds the widened SEARCH and REPLACE: the same lines of the file
// around both. They end with a newline when search did.
func widened(lines []string, l, k, above, below int, search, replace string) (string, string) {
	var s, r strings.Builder
	for _, x := range lines[l-above : l+k+below] {
		s.WriteString(x)
		s.WriteByte('\n')
	}
	for _, x := range lines[l-above : l] {
		r.WriteString(x)
		r.WriteByte('\n')
	}
	if strings.TrimSpace(replace) != "" { // whitespace-only REPLACE counts as empty
		r.WriteString(ensureNewline(replace))
	}
	for _, x := range lines[l+k : l+k+below] {
		r.WriteString(x)
		r.WriteByte('\n')
	}
	if !strings.HasSuffix(search, "\n") {
		return strings.TrimSuffix(s.String(), "\n"), strings.TrimSuffix(r.String(), "\n")
	}
	return s.String(), r.String()
}

func ensureNewline(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}

// countOccurrences counts the places where search (whole lines, ending
// with a newline) matches whole consecutive lines of text (ending with a
// newline), overlapping places included: the engine's rule, checked
// independently of the line arithmetic above.
func countOccurrences(text, search string) int {
	n := 0
	for from := 0; from+len(search) <= len(text); {
		i := indexLong(text[from:], search)
		if i < 0 {
			break
		}
		at := from + i
		if at == 0 || text[at-1] == '\n' {
			n++
		}
		from = at + 1
	}
	return n
}

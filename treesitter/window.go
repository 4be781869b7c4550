package treesitter

import (
	"bytes"
	"context"
	"sort"
	"time"
)

// Checking the syntax of an edit by parsing the whole file costs the whole
// file: tree-sitter parses 5-10 MB/s here, so twenty 20 KB files take
// 40-60 ms, ten times the rest of a CLI run. An edit usually sits inside
// one definition, and a definition cut out of its file and dedented is
// itself a valid file (a Python method, a Go function, a YAML mapping).
// So the check first parses only windows of that kind around the edited
// ranges:
//
//   - the window after the edit parses cleanly: the edit leaves no error
//     (a clean window is a complete sequence of items, and putting it back
//     where the old one stood keeps the file's syntax; the one blind spot
//     is an edit that unpairs a string or comment delimiter with one
//     outside the window);
//   - it does not, and the same window before the edit parses cleanly: the
//     errors are new, reported from the windows;
//   - both windows have errors: the window is not a file of its own (Java
//     members outside their class, Go statements outside their function),
//     and the whole file is parsed, as before.

// window is a run of whole lines of after, [firstLine, endLine) (0-based),
// with the indentation every one of them shares (indent bytes), and the
// matching bytes of before.
type window struct {
	firstLine, endLine int
	indent             int
	aStart, aEnd       int // bytes of after
	bStart, bEnd       int // bytes of before
	regions            []editRegion
}

// windowSyntaxErrors checks the edit through windows. It returns the errors
// found and ok; ok is false when some window is not a file of its own and
// the whole file must be parsed.
func windowSyntaxErrors(ctx context.Context, timeout time.Duration, lang *Language, path string, before, after []byte, regions []editRegion) ([]SyntaxError, bool) {
	aLines := lineStarts(after)
	var out []SyntaxError
	for _, w := range windowsFor(after, aLines, regions) {
		if w.bStart < 0 || w.bEnd > len(before) || w.bStart > w.bEnd {
			return nil, false
		}
		aText, aMap := dedent(after, aLines, w.firstLine, w.endLine, w.indent)
		ta, err := lang.parse(ctx, timeout, nil, aText)
		if err != nil {
			return nil, false
		}
		wa := newTree(lang, path, 0, aText, 0, ta)
		if !wa.HasError() {
			continue
		}
		bText := dedentBytes(before[w.bStart:w.bEnd], w.indent)
		tb, err := lang.parse(ctx, timeout, nil, bText)
		if err != nil {
			return nil, false
		}
		wb := newTree(lang, path, 0, bText, 0, tb)
		if wb.HasError() {
			return nil, false
		}
		ranges := make([][2]int, 0, len(w.regions))
		for _, r := range w.regions {
			ranges = append(ranges, [2]int{aMap.toWindow(r.aStart), aMap.toWindow(r.aEnd)})
		}
		for _, e := range newSyntaxErrors(wb, wa, ranges) {
			e.StartByte, e.EndByte = aMap.toFile(e.StartByte), aMap.toFile(e.EndByte)
			e.Line = lineOf(aLines, e.StartByte)
			e.Message = syntaxMessage(e.Line, e.Missing)
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	if len(out) > maxSyntaxErrors {
		out = out[:maxSyntaxErrors]
	}
	return out, true
}

// windowsFor returns, for each edited region, the window of lines that
// starts at the nearest line above it indented less than the region's
// least indented line and ends where the indentation comes back to that
// line's level (a closing bracket or "end" there belongs to the window);
// overlapping windows are merged.
func windowsFor(after []byte, starts []int, regions []editRegion) []window {
	var ws []window
	for _, r := range regions {
		first := lineOf(starts, r.aStart) - 1
		last := first
		if r.aEnd > r.aStart {
			last = lineOf(starts, r.aEnd-1) - 1
		}
		least := -1
		for l := first; l <= last; l++ {
			if ind, blank := indentOf(after, starts, l); !blank && (least < 0 || ind < least) {
				least = ind
			}
		}
		if least < 0 { // only blank lines: the next line's level
			least = 0
			for l := last + 1; l < len(starts); l++ {
				if ind, blank := indentOf(after, starts, l); !blank {
					least = ind
					break
				}
			}
		}
		top, level := first, least
		if least > 0 {
			top, level = 0, 0
			for l := first - 1; l >= 0; l-- {
				if ind, blank := indentOf(after, starts, l); !blank && ind < least {
					top, level = l, ind
					break
				}
			}
		}
		end := len(starts)
		for l := last + 1; l < len(starts); l++ {
			ind, blank := indentOf(after, starts, l)
			if blank || ind > level {
				continue
			}
			end = l
			if closesBlock(after[starts[l]+ind : lineEnd(after, starts, l)]) {
				end = l + 1
			}
			break
		}
		ws = append(ws, window{firstLine: top, endLine: end, indent: level, regions: []editRegion{r}})
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i].firstLine < ws[j].firstLine })
	merged := ws[:0]
	for _, w := range ws {
		if k := len(merged); k > 0 && w.firstLine < merged[k-1].endLine {
			m := &merged[k-1]
			m.endLine = max(m.endLine, w.endLine)
			m.indent = min(m.indent, w.indent)
			m.regions = append(m.regions, w.regions...)
			continue
		}
		merged = append(merged, w)
	}
	for i := range merged {
		w := &merged[i]
		w.aStart = starts[w.firstLine]
		w.aEnd = len(after)
		if w.endLine < len(starts) {
			w.aEnd = starts[w.endLine]
		}
		// The text outside the edited regions is the same before and
		// after, so the window's edges sit at the same distance from them.
		sort.Slice(w.regions, func(i, j int) bool { return w.regions[i].aStart < w.regions[j].aStart })
		f, l := w.regions[0], w.regions[len(w.regions)-1]
		w.bStart = f.bStart - (f.aStart - w.aStart)
		w.bEnd = l.bEnd + (w.aEnd - l.aEnd)
	}
	return merged
}

// indentOf returns the width in bytes of line l's leading blanks, and
// whether the line is blank.
func indentOf(text []byte, starts []int, l int) (int, bool) {
	s, e := starts[l], lineEnd(text, starts, l)
	i := s
	for i < e && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i - s, i == e || text[i] == '\r'
}

// lineEnd returns the offset of line l's newline (or of the end of text).
func lineEnd(text []byte, starts []int, l int) int {
	if l+1 < len(starts) {
		return starts[l+1] - 1
	}
	return len(text)
}

// closesBlock reports whether a line (without its indentation) closes what
// the lines above it opened: a bracket, "end", a closing tag.
func closesBlock(line []byte) bool {
	if len(line) == 0 {
		return false
	}
	switch line[0] {
	case '}', ')', ']':
		return true
	}
	if bytes.HasPrefix(line, []byte("</")) {
		return true
	}
	if bytes.HasPrefix(line, []byte("end")) {
		rest := line[3:]
		return len(rest) == 0 || !(rest[0] == '_' || rest[0] >= 'a' && rest[0] <= 'z' || rest[0] >= 'A' && rest[0] <= 'Z' || rest[0] >= '0' && rest[0] <= '9')
	}
	return false
}

// windowMap translates offsets between a dedented window and its file: the
// window's line i is the file's line first+i, shorter by cut[i] bytes at
// its start.
type windowMap struct {
	winStarts  []int // start of each window line, in the window
	fileStarts []int // start of each window line, in the file
	cut        []int
}

func (m windowMap) toWindow(off int) int {
	i := sort.Search(len(m.fileStarts), func(i int) bool { return m.fileStarts[i] > off }) - 1
	if i < 0 {
		return 0
	}
	return m.winStarts[i] + max(0, off-m.fileStarts[i]-m.cut[i])
}

func (m windowMap) toFile(off int) int {
	i := sort.Search(len(m.winStarts), func(i int) bool { return m.winStarts[i] > off }) - 1
	if i < 0 {
		return m.fileStarts[0]
	}
	return m.fileStarts[i] + m.cut[i] + off - m.winStarts[i]
}

// dedent copies lines [first, end) of text without their first indent
// bytes of blanks (fewer where a line has fewer), with the map back.
func dedent(text []byte, starts []int, first, end, indent int) ([]byte, windowMap) {
	n := end - first
	m := windowMap{winStarts: make([]int, 0, n), fileStarts: make([]int, 0, n), cut: make([]int, 0, n)}
	out := make([]byte, 0, lineEndOrLen(text, starts, end)-starts[first])
	for l := first; l < end; l++ {
		s := starts[l]
		e := len(text)
		if l+1 < len(starts) {
			e = starts[l+1]
		}
		k := 0
		for k < indent && s+k < e && (text[s+k] == ' ' || text[s+k] == '\t') {
			k++
		}
		m.winStarts = append(m.winStarts, len(out))
		m.fileStarts = append(m.fileStarts, s)
		m.cut = append(m.cut, k)
		out = append(out, text[s+k:e]...)
	}
	return out, m
}

// dedentBytes is dedent of a whole text.
func dedentBytes(text []byte, indent int) []byte {
	starts := lineStarts(text)
	out, _ := dedent(text, starts, 0, len(starts), indent)
	return out
}

func lineEndOrLen(text []byte, starts []int, l int) int {
	if l < len(starts) {
		return starts[l]
	}
	return len(text)
}

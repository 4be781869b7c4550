package treesitter

import (
	"bytes"
	"context"
	"slices"
	"sort"
	"time"
)

// Checking the syntax of an edit by parsing the whole file costs the whole
// file, and tree-sitter is slow next to the rest of a run: parsing every
// file of a many-file patch whole costs several times the rest of a CLI run
// (BenchmarkSyntaxCheckWindowed, BenchmarkParseFull). An edit usually sits
// inside one definition, and a definition cut out of its file and dedented
// is itself a valid file (a Python method, a Go function, a YAML mapping).
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
//
// Before all this, a language with a statement lexer (Python) tries the
// edited statements alone (stmtwindow.go), which can only settle "clean".

// window is a run of whole lines of after, [aStart, aEnd), with the
// indentation every one of them shares (indent bytes), and the matching
// bytes of before. Windows are found by scanning lines outward from the
// edits, never by indexing the whole file: a 100 MB file with one edit
// costs its window.
type window struct {
	aStart, aEnd int // bytes of after, at line starts
	indent       int
	bStart, bEnd int // bytes of before
	regions      []editRegion
}

// windowSyntaxErrors checks the edit through windows. It returns the errors
// found and ok; ok is false when some window is not a file of its own, or
// is bigger than MaxSyntaxCheck, and the whole-file rule must decide.
func windowSyntaxErrors(ctx context.Context, timeout time.Duration, lang *Language, path string, before, after []byte, regions []editRegion) ([]SyntaxError, bool) {
	ws, ok := windowsFor(after, regions, MaxSyntaxCheck)
	if !ok {
		return nil, false
	}
	return windowsSyntaxErrors(ctx, timeout, lang, path, before, after, ws)
}

// windowsSyntaxErrors is windowSyntaxErrors on windows found.
func windowsSyntaxErrors(ctx context.Context, timeout time.Duration, lang *Language, path string, before, after []byte, ws []window) ([]SyntaxError, bool) {
	var out []SyntaxError
	for _, w := range ws {
		if w.bStart < 0 || w.bEnd > len(before) || w.bStart > w.bEnd || w.bEnd-w.bStart > MaxSyntaxCheck {
			return nil, false
		}
		if statementWindows && statementWindowsClean(ctx, timeout, lang, before, after, w) {
			continue
		}
		aText, aMap := dedent(after, w.aStart, w.aEnd, w.indent)
		ta, err := lang.parse(ctx, timeout, nil, aText)
		if err != nil {
			return nil, false
		}
		wa := newTree(lang, path, 0, aText, 0, ta)
		if !wa.HasError() {
			continue
		}
		bText, _ := dedent(before, w.bStart, w.bEnd, w.indent)
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
			// e.Line is the window's line of the edit when the error node
			// starts above it (newSyntaxErrors points at the edit), as a
			// whole-file parse reports it: map that line, not StartByte's.
			at := e.StartByte
			if i := e.Line - 1; i >= 0 && i < len(aMap.fileStarts) {
				at = aMap.fileStarts[i]
			}
			e.Line = 1 + bytes.Count(after[:at], []byte{'\n'})
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
// overlapping windows are merged. It gives up (false) on a window of more
// than budget bytes.
func windowsFor(after []byte, regions []editRegion, budget int) ([]window, bool) {
	// One window a region, and each window's region list cut from one
	// array: growing the list and allocating a one-region list per
	// window was much of the syntax check's fresh memory
	// (BenchmarkSyntaxProblemsW1).
	ws := make([]window, 0, len(regions))
	own := slices.Clone(regions)
	for i, r := range regions {
		first := lineStart(after, r.aStart)
		last := first
		if r.aEnd > r.aStart {
			last = lineStart(after, r.aEnd-1)
		}
		if last-first > budget {
			return nil, false
		}
		least := -1
		for l := first; l <= last && l < len(after); l = nextLine(after, l) {
			if ind, blank := indentAt(after, l); !blank && (least < 0 || ind < least) {
				least = ind
			}
		}
		if least < 0 { // only blank lines: the next line's level
			least = 0
			for l := nextLine(after, last); l < len(after) && l-last <= budget; l = nextLine(after, l) {
				if ind, blank := indentAt(after, l); !blank {
					least = ind
					break
				}
			}
		}
		top, level := first, least
		if least > 0 {
			top, level = 0, 0
			for l := first; l > 0; {
				l = lineStart(after, l-1)
				if first-l > budget {
					return nil, false
				}
				if ind, blank := indentAt(after, l); !blank && ind < least {
					top, level = l, ind
					break
				}
			}
		}
		end := len(after)
		for l := nextLine(after, last); l < len(after); l = nextLine(after, l) {
			if l-top > budget {
				return nil, false
			}
			ind, blank := indentAt(after, l)
			if blank || ind > level {
				continue
			}
			end = l
			if closesBlock(after[l+ind : lineEnd(after, l)]) {
				end = nextLine(after, l)
			}
			break
		}
		if end-top > budget {
			return nil, false
		}
		ws = append(ws, window{aStart: top, aEnd: end, indent: level, regions: own[i : i+1 : i+1]})
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i].aStart < ws[j].aStart })
	merged := ws[:0]
	for _, w := range ws {
		if k := len(merged); k > 0 && w.aStart < merged[k-1].aEnd {
			m := &merged[k-1]
			m.aEnd = max(m.aEnd, w.aEnd)
			m.indent = min(m.indent, w.indent)
			m.regions = append(m.regions, w.regions...)
			continue
		}
		merged = append(merged, w)
	}
	for i := range merged {
		w := &merged[i]
		// The text outside the edited regions is the same before and
		// after, so the window's edges sit at the same distance from them.
		sort.Slice(w.regions, func(i, j int) bool { return w.regions[i].aStart < w.regions[j].aStart })
		f, l := w.regions[0], w.regions[len(w.regions)-1]
		w.bStart = f.bStart - (f.aStart - w.aStart)
		w.bEnd = l.bEnd + (w.aEnd - l.aEnd)
	}
	return merged, true
}

// lineStart returns the start of the line that holds off.
func lineStart(text []byte, off int) int {
	return bytes.LastIndexByte(text[:min(off, len(text))], '\n') + 1
}

// nextLine returns the start of the line after the one starting at s, or
// len(text).
func nextLine(text []byte, s int) int {
	if i := bytes.IndexByte(text[s:], '\n'); i >= 0 {
		return s + i + 1
	}
	return len(text)
}

// lineEnd returns the offset of the newline of the line starting at s (or
// of the end of text).
func lineEnd(text []byte, s int) int {
	if i := bytes.IndexByte(text[s:], '\n'); i >= 0 {
		return s + i
	}
	return len(text)
}

// indentAt returns the width in bytes of the leading blanks of the line
// starting at s, and whether the line is blank.
func indentAt(text []byte, s int) (int, bool) {
	return indentIn(text, s, lineEnd(text, s))
}

// indentIn is indentAt for a line whose end e (lineEnd's) is known.
func indentIn(text []byte, s, e int) (int, bool) {
	i := s
	for i < e && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i - s, i == e || text[i] == '\r'
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
// window's line i starts at winStarts[i] in the window and fileStarts[i]
// in the file, shorter there by cut[i] bytes at its start.
type windowMap struct {
	winStarts  []int
	fileStarts []int
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

// dedent copies the lines of text[start:end] (start at a line start)
// without their first indent bytes of blanks (fewer where a line has
// fewer), with the map back.
func dedent(text []byte, start, end, indent int) ([]byte, windowMap) {
	var m windowMap
	out := make([]byte, 0, end-start)
	for s := start; s < end; {
		e := min(nextLine(text, s), end)
		k := 0
		for k < indent && s+k < e && (text[s+k] == ' ' || text[s+k] == '\t') {
			k++
		}
		m.winStarts = append(m.winStarts, len(out))
		m.fileStarts = append(m.fileStarts, s)
		m.cut = append(m.cut, k)
		out = append(out, text[s+k:e]...)
		s = e
	}
	if len(m.fileStarts) == 0 {
		m.winStarts, m.fileStarts, m.cut = []int{0}, []int{start}, []int{0}
	}
	return out, m
}

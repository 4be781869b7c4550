package core

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// Chat snippets (OpSnippet): a code block that names its file, as chat
// tools ask models to write them, resolved deterministically to one
// change of the file (docs/formats.md "Answers as chat tools write
// them"). The shapes, in the order they are tried:
//
//   - line range: CopilotChat's start_line/end_line; the lines of the file
//     as the answer saw it (mapped through the blocks before) are
//     replaced.
//   - create: the file does not exist and the block has no marker.
//   - lazy: the block has omission markers. Its items (definitions,
//     statements, lines) pair with the file's items of the scope the block
//     shows, by structure (the same definition by kind and name, the same
//     statement kind and target) or by equal text; a marker keeps the
//     file's text between the paired items around it.
//   - whole file: no marker, and the block holds every top-level
//     definition of the file (and, when the file has top-level lines that
//     are not definitions, some of its own).
//   - definitions: no marker, and every top-level item of the block is a
//     definition the file holds once, by kind and name.
//
// One place or a refusal that names every place: a similarity never
// decides a place, a snippet is never appended, and a partial snippet is
// never taken as the whole file.

// Shape is how a chat snippet was resolved.
type Shape string

const (
	ShapeWholeFile  Shape = "whole-file"
	ShapeDefinition Shape = "definition"
	ShapeLazy       Shape = "lazy"
	ShapeLineRange  Shape = "line-range"
)

// Kept is what one omission marker of a lazy block keeps of its file.
type Kept struct {
	Marker   int // 1-based line of the marker in the block's code
	From, To int // 1-based file lines it keeps, inclusive; To < From when it keeps none
}

// snippetRefusal is a snippet that cannot be placed: the problem to
// report.
type snippetRefusal struct {
	kind       Kind
	msg, hint  string
	line       int
	candidates []Candidate
}

func (r *snippetRefusal) Error() string { return r.msg }

// snippet resolves and applies one chat snippet on its file's running
// state.
func (v *validator) snippet(b *Block, t *target, res *BlockResult) {
	d := t.doc
	if !t.exists {
		switch {
		case b.FromLine > 0:
			v.fail(b, KindMissingFile, fmt.Sprintf("block #%d replaces lines %d-%d of %s, which does not exist", b.Number, b.FromLine, b.ToLine, b.Path),
				"check the path; to create the file, give its whole content without a line range")
		case len(b.Omissions) > 0:
			p := v.fail(b, KindMissingFile, fmt.Sprintf("block #%d has omission markers, but %s does not exist, so they would keep nothing", b.Number, b.Path),
				"check the path; to create the file, give its whole content with no \"... existing code ...\" line")
			p.Line = 0
		default:
			cb := *b
			cb.Op = OpCreate
			v.apply(&cb, res)
			res.Shape = ShapeWholeFile
		}
		return
	}
	text := d.text()
	file := fileLines.of(text)
	var (
		from, to int // the file lines replaced
		repl     string
		shape    Shape
		kept     []Kept
		err      *snippetRefusal
		after    string // the file's text once written, when stable made it
	)
	switch {
	case b.FromLine > 0:
		shape = ShapeLineRange
		from, to, repl, err = v.lineRange(b, t, file)
	default:
		r := v.resolver(b, file, text)
		var lines []string
		if len(b.Omissions) == 0 && withEOL(b.Replace) == text {
			shape, lines = ShapeWholeFile, file // it holds exactly the block
		} else if shape, lines, err = r.resolve(); err == nil {
			fixEOL(lines)
		}
		if err == nil {
			from, to, repl = changed(file, lines)
			if !v.opt.Offer {
				after, err = v.stable(b, text, file, lines, from, to, repl)
			}
		}
		if err == nil {
			kept = r.kept
			if v.opt.Offer && r.pooled {
				dropLines(lines) // no stability check kept them
			}
			if from == to && repl == "" {
				// The file holds it already: its place is what it pairs with.
				from, to = 0, len(file)
				if r.place[1] > r.place[0] {
					from, to = r.place[0], r.place[1]
				}
				repl = strings.Join(file[from:to], "")
			}
		}
	}
	res.Shape = shape
	if err != nil {
		p := v.fail(b, err.kind, err.msg, err.hint)
		p.Line, p.Candidates = err.line, err.candidates
		return
	}
	start, end := lineOffset(file, from), lineOffset(file, to)
	region := text[start:end]
	res.Kept = kept
	if shape == ShapeLineRange {
		// A range stands applied when its new text stands at its first
		// line: the lines it replaced may have been fewer or more. The
		// ranges after it, of the file as the answer saw it, then map
		// through it as if this run had written it.
		n := strings.Count(repl, "\n")
		if at := lineOffset(file, min(from+n, len(file))); stands("", repl, nil, occurIf(text[start:at] == repl), 1) {
			t.edits = append(t.edits, lineEdit{at: from, removed: to - from, added: n, block: b.Number})
			region = repl
		}
	}
	if stands("", region, nil, occurIf(region == repl), 1) {
		line := from + 1
		v.applied(b, res, line, max(line, line+strings.Count(repl, "\n")-1),
			fmt.Sprintf("%s already holds what it resolves to (%s)", b.Path, fileAt(b.Path, line, line+strings.Count(repl, "\n")-1)),
			fmt.Sprintf("%s already holds what this block resolves to: the answer was probably applied already", b.Path),
			"drop this block if the change is already in")
		res.Shape = shape
		return
	}
	if v.placeholder(b, repl, region, from+1) {
		return
	}
	m := match{start: start, end: end, matched: region, replace: repl, rung: string(shape)}
	v.write(b, t, d, m, res)
	// The doc's text now reads as the text stable made (the text ends
	// with a newline, so changed's lines rejoin it): the next block's
	// resolution takes that string instead of joining the pieces again.
	d.adopt(after)
	res.EndLine = res.Line + max(0, strings.Count(region, "\n")-1)
}

// stable refuses a resolution that would not stand applied once written:
// resolved again on the file as it would leave it, the block must change
// nothing. Pairing reads the file's structure, and a file whose structure
// the block's lines change (broken code, a definition split in two) could
// otherwise take the block a second time. This is what makes "never
// written twice" hold by construction for snippets, not by the shapes'
// rules alone; it costs a second outline of the new text.
//
// lines are file's with lines [from, to) replaced by repl (changed), and
// text is file's text. It returns the text of lines, which it makes for
// the outline from text and repl rather than from each line, for the doc
// to keep once written.
func (v *validator) stable(b *Block, text string, file, lines []string, from, to int, repl string) (string, *snippetRefusal) {
	if from == to && repl == "" {
		return "", nil // the file already reads so
	}
	text = text[:lineOffset(file, from)] + repl + text[lineOffset(file, to):]
	fileLines.keep(text, lines)
	again := v.resolver(b, lines, text)
	_, next, err := again.resolve()
	if err == nil {
		fixEOL(next)
	}
	same := err != nil || slices.Equal(next, lines)
	if again.pooled {
		dropLines(again.out)
	}
	if same {
		return text, nil // refused or recognised the second time: never written twice
	}
	return "", &snippetRefusal{kind: KindAmbiguous,
		msg:  fmt.Sprintf("block #%d has no stable place in %s: once written, the file's structure around it reads differently and a second run would change the file again", b.Number, b.Path),
		hint: "check that the block and the file are whole code (a broken definition moves what pairs with what); or use a SEARCH/REPLACE block"}
}

// occurIf is the places of a region's text in itself for stands: one,
// at its start, when the resolved text is the region's.
func occurIf(same bool) []int {
	if same {
		return []int{0}
	}
	return nil
}

// lineRange replaces lines FromLine-ToLine of the file as the answer saw
// it.
func (v *validator) lineRange(b *Block, t *target, file []string) (int, int, string, *snippetRefusal) {
	if b.ToLine < b.FromLine {
		return 0, 0, "", &snippetRefusal{kind: KindMalformed, msg: fmt.Sprintf("block #%d: its line range %d-%d ends before it starts", b.Number, b.FromLine, b.ToLine), hint: "give start_line <= end_line"}
	}
	if len(t.orig) > 0 || t.existed {
		if n := strings.Count(t.origText(), "\n"); b.ToLine > n {
			return 0, 0, "", &snippetRefusal{kind: KindNotFound, line: n,
				msg:  fmt.Sprintf("block #%d replaces lines %d-%d, but %s has %s", b.Number, b.FromLine, b.ToLine, b.Path, plural(n, "line")),
				hint: "the answer was written for another version of the file: ask for the edit again against the file as it is"}
		}
	}
	lo, by, ok := t.origLine(b.FromLine)
	hi, by2, ok2 := t.origLine(b.ToLine)
	if !ok || !ok2 {
		if by == 0 {
			by = by2
		}
		return 0, 0, "", &snippetRefusal{kind: KindNotFound, line: b.FromLine,
			msg:  fmt.Sprintf("block #%d replaces lines %d-%d, which block #%d already changed", b.Number, b.FromLine, b.ToLine, by),
			hint: "merge the two edits into one"}
	}
	if hi > len(file) {
		return 0, 0, "", &snippetRefusal{kind: KindNotFound, line: len(file),
			msg:  fmt.Sprintf("block #%d replaces lines %d-%d, but %s has %s", b.Number, b.FromLine, b.ToLine, b.Path, plural(len(file), "line")),
			hint: "the answer was written for another version of the file: ask for the edit again against the file as it is"}
	}
	return lo - 1, hi, withEOL(b.Replace), nil
}

// fileLines shares the lines of the files snippets resolve against, by
// the text's identity: each block of an answer for a file resolves
// against the very string the stability check of the block before joined
// from its lines, and the lens's check of a block alone against the file
// as read, as the first block did. Splitting a file again for each was a
// tenth of a block's resolution. Callers never modify the lines.
var fileLines linesMemo

// linesKept is how many texts fileLines keeps: the files of an answer,
// written and as read.
const linesKept = 16

type linesMemo struct {
	mu      sync.Mutex
	entries [linesKept]linesEntry
	next    int // the entry the next keep replaces
}

type linesEntry struct {
	text  string
	lines []string
}

// of is splitKeep(text), shared.
func (m *linesMemo) of(text string) []string {
	m.mu.Lock()
	for _, e := range m.entries {
		if len(e.text) == len(text) && unsafe.StringData(e.text) == unsafe.StringData(text) && e.lines != nil {
			m.mu.Unlock()
			return e.lines
		}
	}
	m.mu.Unlock()
	lines := splitKeep(text)
	m.put(text, lines)
	return lines
}

// keep records lines as text's, when they are splitKeep(text): each ends
// with its one newline.
func (m *linesMemo) keep(text string, lines []string) {
	if text == "" || strings.Count(text, "\n") != len(lines) {
		return
	}
	for _, l := range lines {
		if !strings.HasSuffix(l, "\n") {
			return
		}
	}
	m.put(text, lines)
}

func (m *linesMemo) put(text string, lines []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.entries[m.next] = linesEntry{text: text, lines: lines}
	m.next = (m.next + 1) % linesKept
}

// lineBufs recycles the new lines of resolutions that nobody keeps (the
// stability check's, compared and dropped): a 500-line file's are 8 KB
// of pointers, made for every block an answer streams in.
var lineBufs sync.Pool // *[]string

// takeLines returns an empty slice of at least n lines' room.
func takeLines(n int) []string {
	if p, ok := lineBufs.Get().(*[]string); ok && cap(*p) >= n {
		return (*p)[:0]
	}
	return make([]string, 0, n)
}

// dropLines hands s back to takeLines; nothing may read it after. The
// lines it held are cleared, so that it keeps no text alive.
func dropLines(s []string) {
	clear(s)
	s = s[:0]
	lineBufs.Put(&s)
}

// splitKeep splits text into lines that keep their "\n".
func splitKeep(text string) []string {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if n := len(lines); n > 0 && !strings.HasSuffix(lines[n-1], "\n") {
		lines[n-1] += "\n"
	}
	return lines
}

// fixEOL makes sure the last line ends with a newline.
func fixEOL(lines []string) {
	if n := len(lines); n > 0 && !strings.HasSuffix(lines[n-1], "\n") {
		lines[n-1] += "\n"
	}
}

// lineOffset returns the byte offset of line k of lines (the end after
// the last).
func lineOffset(lines []string, k int) int {
	n := 0
	for _, l := range lines[:k] {
		n += len(l)
	}
	return n
}

// changed returns the lines [from, to) of old that new replaces, and what
// replaces them: new and old less their common first and last lines.
func changed(old, new []string) (int, int, string) {
	fixEOL(old)
	fixEOL(new)
	// A resolution's new lines are mostly the file's own strings: the
	// same memory is equal with no call to compare the bytes.
	p := 0
	for p < len(old) && p < len(new) && (sameString(old[p], new[p]) || old[p] == new[p]) {
		p++
	}
	s := 0
	for s < len(old)-p && s < len(new)-p && (sameString(old[len(old)-1-s], new[len(new)-1-s]) || old[len(old)-1-s] == new[len(new)-1-s]) {
		s++
	}
	return p, len(old) - s, strings.Join(new[p:len(new)-s], "")
}

package core

import (
	"sort"
	"strings"
)

// Span is a half-open byte range [Start, End) in a text. Byte offsets are the
// engine's only position unit; lines are what a person reads ("line 12 of
// the patch"). Columns in an editor's unit (LSP's UTF-16) are the editor
// edge's business: lsp/position.go, as gopls keeps its protocol.Mapper.
type Span struct {
	Start, End int
}

// Empty reports whether the span covers no bytes.
func (s Span) Empty() bool { return s.End <= s.Start }

// Lines indexes the line starts of one text: the line of a byte offset, and
// the byte offsets of a line. A line is zero-based; a trailing newline opens
// an empty last line. Offsets and lines outside the text are a caller's
// bug, not input: they are not clamped.
type Lines struct {
	text   string
	starts []int // byte offset of the start of each line
}

// NewLines indexes the line starts of text once.
func NewLines(text string) *Lines {
	starts := make([]int, 1, 1+strings.Count(text, "\n"))
	return &Lines{text: text, starts: appendStarts(starts, text, 0)}
}

// appendStarts appends the start of each line that a "\n" of text opens,
// text sitting at offset at.
func appendStarts(starts []int, text string, at int) []int {
	for i := 0; ; {
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			return starts
		}
		i += j + 1
		starts = append(starts, at+i)
	}
}

// lineStarts returns the offset where every line of text starts, plus
// len(text) at the end (once: a text ending in a newline has no empty
// last line here), for the placement of hunks.
func lineStarts(text string) []int {
	starts := appendStarts(make([]int, 1, 2+strings.Count(text, "\n")), text, 0)
	if starts[len(starts)-1] != len(text) {
		starts = append(starts, len(text))
	}
	return starts
}

// lineAfter returns the offset of the start of the k-th line after the
// line start at (at itself when k <= 0), or len(text) when the text ends
// before it.
func lineAfter(text string, at, k int) int {
	if k <= 0 {
		return at
	}
	if i := afterNewlines(text[at:], k, -1); i >= 0 {
		return at + i
	}
	return len(text)
}

// Splice is the index of the text with the bytes of sp replaced by repl,
// computed from l: the lines before the change are l's, those after it
// are l's moved. An editor's change (a keystroke, a streamed chunk
// appended at the end) then costs what it changes, not a scan of the
// whole text.
func (l *Lines) Splice(sp Span, repl string) *Lines {
	text := l.text[:sp.Start] + repl + l.text[sp.End:]
	// Lines that start at or before sp.Start keep their start: the "\n"
	// before each is outside the change. Those whose "\n" is at or past
	// sp.End move with the text after it.
	keep := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > sp.Start })
	after := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > sp.End })
	starts := make([]int, keep, keep+strings.Count(repl, "\n")+len(l.starts)-after)
	copy(starts, l.starts[:keep])
	starts = appendStarts(starts, repl, sp.Start)
	shift := len(repl) - (sp.End - sp.Start)
	for _, s := range l.starts[after:] {
		starts = append(starts, s+shift)
	}
	return &Lines{text: text, starts: starts}
}

// Text returns the text the index is of.
func (l *Lines) Text() string { return l.text }

// Starts returns the byte offset of the start of each line: the index's
// own slice, which the caller must not modify.
func (l *Lines) Starts() []int { return l.starts }

// LineCount is the number of lines.
func (l *Lines) LineCount() int { return len(l.starts) }

// Line returns the line that holds offset, 0 <= offset <= len(text).
func (l *Lines) Line(offset int) int {
	return sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > offset }) - 1
}

// LineStart returns the byte offset where line starts.
func (l *Lines) LineStart(line int) int { return l.starts[line] }

// LineEnd returns the offset of the end of line's content (before "\n" or
// "\r\n").
func (l *Lines) LineEnd(line int) int {
	if line+1 == len(l.starts) {
		return len(l.text)
	}
	end := l.starts[line+1] - 1
	if end > l.starts[line] && l.text[end-1] == '\r' {
		end--
	}
	return end
}

package core

import "sort"

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
	starts := make([]int, 1, 1+len(text)/32)
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &Lines{text: text, starts: starts}
}

// Text returns the text the index is of.
func (l *Lines) Text() string { return l.text }

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

package core

import (
	"sort"
	"unicode/utf8"
)

// Span is a half-open byte range [Start, End) in a text. Byte offsets are the
// engine's only position unit; Mapper converts them at the edges (CLI line
// numbers, LSP UTF-16 positions), as gopls does with its protocol.Mapper.
type Span struct {
	Start, End int
}

// Empty reports whether the span covers no bytes.
func (s Span) Empty() bool { return s.End <= s.Start }

// Position is a zero-based line and column. Col counts UTF-16 code units (the
// LSP default encoding); ByteCol counts bytes.
type Position struct {
	Line    int
	Col     int
	ByteCol int
}

// Mapper converts byte offsets of one text into lines and UTF-16 columns.
type Mapper struct {
	text  string
	lines []int // byte offset of the start of each line
	ascii bool  // every byte < 0x80: a UTF-16 column is a byte column
}

// NewMapper indexes the line starts of text once, and notes whether the
// text is all ASCII: then columns convert in O(1), where otherwise a line
// is decoded up to the column (an editor typing on a 10,000-character line
// would make each keystroke cost the whole line).
func NewMapper(text string) *Mapper {
	lines := make([]int, 1, 1+len(text)/32)
	var high byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		high |= c
		if c == '\n' {
			lines = append(lines, i+1)
		}
	}
	return &Mapper{text: text, lines: lines, ascii: high < utf8.RuneSelf}
}

// Text returns the text the mapper indexes.
func (m *Mapper) Text() string { return m.text }

// LineCount is the number of lines (a trailing newline opens an empty last line).
func (m *Mapper) LineCount() int { return len(m.lines) }

// Line returns the zero-based line that holds offset.
func (m *Mapper) Line(offset int) int {
	offset = m.clamp(offset)
	return sort.Search(len(m.lines), func(i int) bool { return m.lines[i] > offset }) - 1
}

// LineStart returns the byte offset where zero-based line starts.
func (m *Mapper) LineStart(line int) int {
	if line < 0 {
		return 0
	}
	if line >= len(m.lines) {
		return len(m.text)
	}
	return m.lines[line]
}

// LineEnd returns the offset of the end of line's content (before "\n" or "\r\n").
func (m *Mapper) LineEnd(line int) int {
	end := len(m.text)
	if line+1 < len(m.lines) {
		end = m.lines[line+1] - 1
		if end > m.lines[line] && m.text[end-1] == '\r' {
			end--
		}
	}
	if line >= len(m.lines) {
		return len(m.text)
	}
	return end
}

// Position converts a byte offset into a line and UTF-16 column.
func (m *Mapper) Position(offset int) Position {
	offset = m.clamp(offset)
	line := m.Line(offset)
	start := m.lines[line]
	if m.ascii {
		return Position{Line: line, Col: offset - start, ByteCol: offset - start}
	}
	col := 0
	for _, r := range m.text[start:offset] {
		if r >= 0x10000 {
			col += 2
		} else {
			col++
		}
	}
	return Position{Line: line, Col: col, ByteCol: offset - start}
}

// Offset converts a line and UTF-16 column back into a byte offset, clamping
// positions past the end of a line to its end (LSP clients may send those).
func (m *Mapper) Offset(line, col int) int {
	if line < 0 {
		return 0
	}
	if line >= len(m.lines) {
		return len(m.text)
	}
	off := m.lines[line]
	end := m.LineEnd(line)
	if m.ascii {
		return off + max(0, min(col, end-off))
	}
	for n := 0; off < end && n < col; {
		r, size := utf8.DecodeRuneInString(m.text[off:])
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		off += size
	}
	return off
}

func (m *Mapper) clamp(offset int) int {
	if offset < 0 {
		return 0
	}
	if offset > len(m.text) {
		return len(m.text)
	}
	return offset
}

package core

import (
	"testing"
	"unicode/utf8"
)

// slowOffset is Offset by decoding, the reference for both paths.
func slowOffset(text string, lines []int, line, col int) int {
	if line < 0 {
		return 0
	}
	if line >= len(lines) {
		return len(text)
	}
	off := lines[line]
	m := &Mapper{text: text, lines: lines}
	end := m.LineEnd(line)
	for n := 0; off < end && n < col; {
		r, size := utf8.DecodeRuneInString(text[off:])
		n++
		if r >= 0x10000 {
			n++
		}
		off += size
	}
	return off
}

func TestMapperColumnsAreUTF16(t *testing.T) {
	for _, text := range []string{
		"plain ascii\r\nsecond line\nthird",
		"a😀b\ncafé\r\nx",
		"",
		"\n\n",
	} {
		m := NewMapper(text)
		for line := -1; line <= m.LineCount(); line++ {
			for col := 0; col < 16; col++ {
				got, want := m.Offset(line, col), slowOffset(text, m.lines, line, col)
				if got != want {
					t.Errorf("%q: Offset(%d, %d) = %d, want %d", text, line, col, got, want)
				}
				if line >= 0 && line < m.LineCount() {
					if p := m.Position(got); p.Line != line && got != len(text) {
						t.Errorf("%q: Position(%d) = %+v, want line %d", text, got, p, line)
					}
				}
			}
		}
	}
	m := NewMapper("a😀b")
	if p := m.Position(5); p.Col != 3 || p.ByteCol != 5 {
		t.Errorf("after the emoji: %+v, want UTF-16 column 3, byte column 5", p)
	}
	if m = NewMapper("ab\ncd"); m.Position(4).Col != 1 || m.Offset(1, 9) != 5 {
		t.Errorf("ascii: %+v, %d", m.Position(4), m.Offset(1, 9))
	}
}

package core

import (
	"strings"
	"testing"
)

func TestLines(t *testing.T) {
	for _, text := range []string{
		"plain ascii\r\nsecond line\nthird",
		"a😀b\ncafé\r\nx",
		"",
		"\n\n",
		"a\r\n",
	} {
		l := NewLines(text)
		if want := strings.Count(text, "\n") + 1; l.LineCount() != want {
			t.Errorf("%q: %d lines, want %d", text, l.LineCount(), want)
		}
		for off := 0; off <= len(text); off++ {
			line := l.Line(off)
			if want := strings.Count(text[:off], "\n"); line != want {
				t.Errorf("%q: Line(%d) = %d, want %d", text, off, line, want)
			}
			start := l.LineStart(line)
			if start > off || strings.Contains(text[start:off], "\n") || start > 0 && text[start-1] != '\n' {
				t.Errorf("%q: LineStart(%d) = %d for offset %d", text, line, start, off)
			}
			end := l.LineEnd(line)
			rest := text[end:]
			if strings.ContainsAny(text[start:end], "\n") || rest != "" && !strings.HasPrefix(rest, "\n") && !strings.HasPrefix(rest, "\r\n") {
				t.Errorf("%q: LineEnd(%d) = %d", text, line, end)
			}
		}
	}
}

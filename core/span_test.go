package core

import (
	"slices"
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

// Splice must index the spliced text exactly as indexing it afresh does,
// wherever the change falls: on line breaks, across them, at either end.
func TestLinesSplice(t *testing.T) {
	texts := []string{"", "\n", "a\nb\nc", "ab\r\ncd\n\nef\n", "x\n\n\ny"}
	repls := []string{"", "\n", "q", "1\n2\n", "\r\n", "tail\nmore"}
	for _, text := range texts {
		for start := 0; start <= len(text); start++ {
			for end := start; end <= len(text); end++ {
				for _, repl := range repls {
					got := NewLines(text).Splice(Span{Start: start, End: end}, repl)
					want := NewLines(text[:start] + repl + text[end:])
					if got.Text() != want.Text() || !slices.Equal(got.starts, want.starts) {
						t.Fatalf("%q with [%d,%d) = %q: starts %v, want %v", text, start, end, repl, got.starts, want.starts)
					}
				}
			}
		}
	}
}

func FuzzLinesSplice(f *testing.F) {
	f.Add("a\nb\nc\n", 2, 3, "x\ny")
	f.Fuzz(func(t *testing.T, text string, start, end int, repl string) {
		if start < 0 || end < start || end > len(text) {
			return
		}
		got := NewLines(text).Splice(Span{Start: start, End: end}, repl)
		want := NewLines(text[:start] + repl + text[end:])
		if got.Text() != want.Text() || !slices.Equal(got.starts, want.starts) {
			t.Fatalf("starts %v, want %v", got.starts, want.starts)
		}
	})
}

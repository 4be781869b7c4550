package core

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fsrb/fsrb/bench/gen"
)

// BenchmarkParseSnippets: Parse with chat snippets read
// (ParseOptions.Snippets), as the editor parses on every keystroke. "W1"
// is W1's SEARCH/REPLACE patch, to set beside BenchmarkW1/parse: reading
// snippets must not slow the common answer. "chat" is an answer of 50
// lazy code blocks of 40 lines, each named by the sentence above it and
// holding two omission markers, between prose.
func BenchmarkParseSnippets(b *testing.B) {
	w1 := gen.W1().Patch
	var sb strings.Builder
	for i := range 50 {
		fmt.Fprintf(&sb, "Now update `src/mod%02d.py` so that the handler checks its input:\n\n```python\n", i)
		sb.WriteString("class Handler:\n    # ... existing code ...\n")
		for k := range 36 {
			if k%2 == 0 {
				fmt.Fprintf(&sb, "    def step%d(self, x):\n", k/2)
			} else {
				fmt.Fprintf(&sb, "        return self.run(x, %d)\n", k)
			}
		}
		sb.WriteString("    # ... rest of code ...\n```\n\nThis keeps the other methods as they are.\n\n")
	}
	chat := sb.String()
	for _, tc := range []struct {
		name, text string
		blocks     int
	}{{"W1", w1, 200}, {"chat", chat, 50}} {
		b.Run(tc.name, func(b *testing.B) {
			if p := Parse(tc.text, ParseOptions{Snippets: true}); len(p.Blocks) != tc.blocks || p.Problems.HasErrors() {
				b.Fatalf("%d blocks, problems %v", len(p.Blocks), p.Problems)
			}
			b.ReportAllocs()
			for b.Loop() {
				Parse(tc.text, ParseOptions{Snippets: true})
			}
		})
	}
}

package core

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fsrb/fsrb/bench/gen"
)

// BenchmarkParseSnippets: Parse with chat snippets read
// (ParseOptions.Snippets) and without, as the editor parses on every
// keystroke. "W1" is W1's SEARCH/REPLACE patch, "answer" W8's Markdown
// answer of 500 fenced SEARCH/REPLACE blocks between prose (gen.Answer):
// reading snippets must not slow the common answer. "chat" is an answer
// of 50 lazy code blocks of 40 lines, each named by the sentence above it
// and holding two omission markers, between prose.
func BenchmarkParseSnippets(b *testing.B) {
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
	for _, tc := range []struct {
		name, text string
		edits, all int // blocks without snippets, with them
	}{
		{"W1", gen.W1().Patch, 200, 200},
		{"answer", gen.Answer(500).Patch, 500, 500},
		{"chat", sb.String(), 0, 50},
	} {
		for _, on := range []bool{false, true} {
			name := tc.name + "/off"
			want := tc.edits
			if on {
				name, want = tc.name+"/on", tc.all
			}
			b.Run(name, func(b *testing.B) {
				opt := ParseOptions{Snippets: on}
				if p := Parse(tc.text, opt); len(p.Blocks) != want {
					b.Fatalf("%d blocks, want %d; problems %v", len(p.Blocks), want, p.Problems)
				}
				b.ReportAllocs()
				for b.Loop() {
					Parse(tc.text, opt)
				}
			})
		}
	}
}

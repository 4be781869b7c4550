package core

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// leadByte and splitBlank skip indentation eight spaces at a time; they
// must answer as trimming does, on lines of every length and mix of
// spaces, tabs, other white space, non-ASCII spaces and content.
func TestLeadByteAndSplitBlankAsTrimming(t *testing.T) {
	rnd := rand.New(rand.NewPCG(18, 26))
	parts := []string{" ", " ", " ", "        ", "\t", "\r", "\v", "\f", "\u00a0", "é", "a", "#", "x y"}
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		for k := rnd.IntN(12); k > 0; k-- {
			b.WriteString(parts[rnd.IntN(len(parts))])
		}
		raw := b.String()
		c, ok := leadByte(raw)
		rest := strings.TrimLeft(raw, " \t\r\n\v\f")
		wantC, wantOK := byte(0), true
		if rest != "" {
			wantC, wantOK = rest[0], rest[0] < 0x80
			if !wantOK {
				wantC = 0
			}
		}
		if c != wantC || ok != wantOK {
			t.Fatalf("leadByte(%q) = %q, %v, want %q, %v", raw, c, ok, wantC, wantOK)
		}
		lead, core := splitBlank(raw)
		wantCore := strings.TrimRight(rest, " \t\r\v\f")
		if core != wantCore || lead != raw[:len(raw)-len(rest)] {
			t.Fatalf("splitBlank(%q) = %q, %q, want %q, %q", raw, lead, core, raw[:len(raw)-len(rest)], wantCore)
		}
	}
}

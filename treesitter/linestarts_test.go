package treesitter

import (
	"math/rand"
	"slices"
	"testing"
)

// TestLineStarts holds lineStarts to a byte-by-byte reading of random
// texts: empty, with no newline, ending with one or not, blank lines.
func TestLineStarts(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	for n := 0; n < 2000; n++ {
		src := make([]byte, rnd.Intn(300))
		for i := range src {
			src[i] = "ab \n\n\r"[rnd.Intn(6)]
		}
		want := []int{0}
		for i, c := range src {
			if c == '\n' {
				want = append(want, i+1)
			}
		}
		if got := lineStarts(src); !slices.Equal(got, want) {
			t.Fatalf("lineStarts(%q) = %v, want %v", src, got, want)
		}
	}
}

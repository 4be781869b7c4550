package core

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// TestSubstringsIsIndexLeftToRight holds substrings (the finder) to the
// plain strings.Index loop it replaced, on random texts of few letters,
// where places overlap and repeat: all places, the first two for the
// uniqueness check (an overlapping second counts), and no more than asked.
func TestSubstringsIsIndexLeftToRight(t *testing.T) {
	ref := func(text, search string, limit int) []int {
		var out []int
		for from := 0; from <= len(text)-len(search); {
			i := strings.Index(text[from:], search)
			if i < 0 {
				break
			}
			at := from + i
			out = append(out, at)
			if limit > 0 && len(out) >= limit {
				break
			}
			from = at + len(search)
			if limit == 2 && len(out) == 1 {
				from = at + 1
			}
		}
		return out
	}
	rnd := rand.New(rand.NewSource(18))
	word := func(n int) string { return randText(rnd, "ab \n", n) }
	for range 5000 {
		text, search := word(rnd.Intn(60)), word(1+rnd.Intn(12))
		for _, limit := range []int{-1, 1, 2, 3} {
			if got, want := substrings(text, search, limit), ref(text, search, limit); !slices.Equal(got, want) {
				t.Fatalf("substrings(%q, %q, %d) = %v, want %v", text, search, limit, got, want)
			}
		}
	}
}

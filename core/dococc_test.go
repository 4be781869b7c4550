package core

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// Exact matching on a spliced doc, with and without kept byte offsets,
// finds exactly what a scan of the joined text finds, on texts spliced
// into pieces, with lines that repeat, collide in length
// and indentation, and with REPLACE texts that hold the same lines.
func TestDocOccurrencesSameAsScan(t *testing.T) {
	rnd := rand.New(rand.NewSource(11))
	vocab := []string{"a", "    a", "b", "", "  ", "if x:", "    return x", "\tpass", "pass", "abcdefgh", "abcdefgi", "xbcdefgh", "long line of text one", "long line of text two"}
	lines := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(vocab[rnd.Intn(len(vocab))])
			b.WriteByte('\n')
		}
		return b.String()
	}
	for iter := range 6000 {
		d := loadDoc([]byte(lines(1 + rnd.Intn(40))))
		if iter%2 == 0 {
			d.expect = keepMin // byte offsets kept (kept.go)
		}
		for step := range 1 + rnd.Intn(6) {
			text := d.slice(0, d.len())
			// A search: some whole lines of the text, or random lines.
			var search string
			if rnd.Intn(3) > 0 {
				ls := strings.SplitAfter(text, "\n")
				ls = ls[:len(ls)-1]
				i := rnd.Intn(len(ls))
				j := min(len(ls), i+1+rnd.Intn(4))
				search = strings.Join(ls[i:j], "")
			} else {
				search = lines(1 + rnd.Intn(3))
			}
			if rnd.Intn(10) == 0 {
				search = strings.TrimSuffix(search, "\n")
			}
			for _, limit := range []int{1, 2, maxOccurrences} {
				want := occurrences(text, search, limit)
				got := d.occurrences(search, limit)
				if !slices.Equal(got, want) {
					t.Fatalf("iter %d step %d limit %d: text %q search %q: got %v, want %v", iter, step, limit, text, search, got, want)
				}
			}
			// Splice: replace some whole lines by new ones.
			ls := strings.SplitAfter(text, "\n")
			ls = ls[:len(ls)-1]
			if len(ls) == 0 {
				break
			}
			i := rnd.Intn(len(ls))
			j := min(len(ls), i+rnd.Intn(3))
			start := len(strings.Join(ls[:i], ""))
			end := start + len(strings.Join(ls[i:j], ""))
			repl := lines(rnd.Intn(3))
			if repl == "" && start == 0 && end == d.len() {
				break
			}
			d.splice(start, end, repl)
		}
	}
}

// contains is strings.Contains.
func TestContainsIsStringsContains(t *testing.T) {
	rnd := rand.New(rand.NewSource(3))
	alpha := []string{" ", "  ", "\t", "a", "b", "ab", "\n", "x = 1"}
	gen := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(alpha[rnd.Intn(len(alpha))])
		}
		return b.String()
	}
	for range 20000 {
		s, sub := gen(rnd.Intn(12)), gen(1+rnd.Intn(4))
		if rnd.Intn(3) == 0 && len(s) > 0 {
			i := rnd.Intn(len(s))
			sub = s[i : i+rnd.Intn(len(s)-i+1)]
		}
		if sub == "" {
			continue // SEARCH is never empty here
		}
		if got, want := contains(s, sub), strings.Contains(s, sub); got != want {
			t.Fatalf("contains(%q, %q) = %v, want %v", s, sub, got, want)
		}
	}
}

package core

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

// refLines is NewLines by definition: Bytes() cut after each "\n".
func refLines(b []byte, from, to int) ([]byte, int) {
	starts := []int{0}
	for i, c := range b {
		if c == '\n' && i+1 < len(b) {
			starts = append(starts, i+1)
		}
	}
	if len(b) == 0 {
		starts = nil
	}
	at := func(k int) int {
		if k <= 0 {
			return 0
		}
		if k < len(starts) {
			return starts[k]
		}
		return len(b)
	}
	s, e := at(from), at(to)
	return b[s:max(s, e)], s
}

func checkNewLines(t *testing.T, name string, fc FileChange, want []byte) {
	t.Helper()
	if n := fc.NewLen(); n != len(want) {
		t.Fatalf("%s: NewLen %d, want %d", name, n, len(want))
	}
	lines := bytes.Count(want, []byte{'\n'}) + 3
	for from := -1; from <= lines; from++ {
		for to := from - 1; to <= lines; to++ {
			got, at := fc.NewLines(from, to)
			w, wat := refLines(want, from, to)
			if !bytes.Equal(got, w) || at != wat {
				t.Fatalf("%s: NewLines(%d, %d) = %q at %d, want %q at %d", name, from, to, got, at, w, wat)
			}
		}
	}
}

// NewLines and NewLen answer as Bytes() does, for every kind of doc, before
// and after Bytes() is built, and for a change made by hand.
func TestFileChangeNewLines(t *testing.T) {
	eachHeadChange(t, func(name string, fc FileChange, want []byte) { checkNewLines(t, name, fc, want) })
	for _, b := range []string{"by hand\r\nx", "", "a\n", "\ufeff"} {
		checkNewLines(t, "WithBytes", FileChange{}.WithBytes([]byte(b)), []byte(b))
	}
	for _, raw := range []string{"", "\ufeff", "\ufeffa", "a", "a\r", "a\r\nb", "\ufeffa\r\n"} {
		d := loadDoc([]byte(raw))
		checkNewLines(t, fmt.Sprintf("doc %q", raw), FileChange{content: &fileContent{d: d}}, loadDoc([]byte(raw)).bytes())
	}
}

// Random splices of big docs (lines counted by whole chunks, from either
// end of a piece), every encoding.
func TestDocNewLinesRandom(t *testing.T) {
	rnd := rand.New(rand.NewPCG(18, 5))
	words := []string{"a", "bb", "  x = 1", "\ty", "", strings.Repeat("long ", 300)}
	trials := 40
	if testing.Short() {
		trials = 10 // make test-full runs them all
	}
	for trial := range trials {
		raw := randDoc(rnd.IntN, words, rnd.IntN(3000), trial)
		if trial%4 == 3 {
			raw = bom + raw
		}
		d := loadDoc([]byte(raw))
		for range rnd.IntN(4) {
			starts := lineStarts(d.text())
			i := rnd.IntN(len(starts))
			j := i + rnd.IntN(min(3, len(starts)-i))
			start, end := starts[i], starts[j]
			if d.len() == 0 {
				start, end = 0, 0
			}
			// A line asked for first, as Validate does: counted pieces.
			if rnd.IntN(2) == 0 {
				d.lineOf(start)
			}
			d.splice(start, end, randLines(rnd.IntN, words, rnd.IntN(4)))
		}
		fc := FileChange{content: &fileContent{d: d}}
		want := (&doc{flat: d.text(), bom: d.bom, noFinalEOL: d.noFinalEOL, crlf: d.crlf}).bytes()
		n := d.lineCount()
		if got := fc.NewLen(); got != len(want) {
			t.Fatalf("trial %d: NewLen %d, want %d", trial, got, len(want))
		}
		for range 200 {
			from := rnd.IntN(n+3) - 1
			to := from + rnd.IntN(n+3-from)
			got, at := fc.NewLines(from, to)
			w, wat := refLines(want, from, to)
			if !bytes.Equal(got, w) || at != wat {
				t.Fatalf("trial %d: NewLines(%d, %d): %d bytes at %d, want %d at %d", trial, from, to, len(got), at, len(w), wat)
			}
		}
	}
}

// NewLines only reads the doc: concurrent calls, with Bytes, do not race.
func TestFileChangeNewLinesConcurrent(t *testing.T) {
	d := loadDoc([]byte(strings.Repeat("line\n", 5000)))
	d.splice(d.lineOffset(4000), d.lineOffset(4001), "new\n")
	fc := FileChange{content: &fileContent{d: d}}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == 0 {
				fc.Bytes()
			}
			if b, _ := fc.NewLines(3990, 4010); !bytes.Contains(b, []byte("new\n")) {
				t.Error("new line missing")
			}
		}()
	}
	wg.Wait()
}

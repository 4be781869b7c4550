package scan

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// eachLevel runs f once at every level, the others switched off, so that
// every path of the scans is tested on a machine that would take the
// fastest one. A level this build or CPU cannot run is a skipped subtest
// that says why, never left out.
func eachLevel(t *testing.T, f func(t *testing.T)) {
	for _, l := range Levels() {
		t.Run(l.Name, func(t *testing.T) {
			if l.Missing != "" {
				t.Skip(l.Missing)
			}
			defer Use(l.Name)()
			f(t)
		})
	}
}

func TestLevels(t *testing.T) {
	ls := Levels()
	if last := ls[len(ls)-1]; last.Name != "go" || last.Missing != "" {
		t.Errorf("the last level is %+v; the Go loops must run everywhere", last)
	}
	if useAVX2 != (ls[0].Missing == "") {
		t.Errorf("useAVX2 is %v, but the avx2 level says %q", useAVX2, ls[0].Missing)
	}
	restore := Use("go")
	if useAVX2 {
		t.Error(`Use("go") left the AVX2 routines on`)
	}
	restore()
	if useAVX2 != (ls[0].Missing == "") {
		t.Error("restore did not put the level back")
	}
}

// TestIndexPair holds IndexPair (the AVX2 steps and the Go rest) to the
// obvious loop, on texts of every length up to 340 over three letters, so
// that matches fall in every lane of a step, across steps and in the
// rest, at every distance, and on texts cut at every alignment.
func TestIndexPair(t *testing.T) { eachLevel(t, testIndexPair) }

func testIndexPair(t *testing.T) {
	rnd := rand.New(rand.NewPCG(18, 5))
	buf := make([]byte, 340)
	for range 4000 {
		// Mostly 'a', a few 'b' and 'c': the pair is rare, the single
		// bytes are not.
		for i := range buf {
			buf[i] = "aaaaaaaaaaaaaaabbc"[rnd.IntN(18)]
		}
		off := rnd.IntN(33)
		s := string(buf[off : off+rnd.IntN(len(buf)-off)+1])
		d := rnd.IntN(70)
		c1, c2 := "abc"[rnd.IntN(3)], "abc"[rnd.IntN(3)]
		if got, w := IndexPair(s, c1, c2, d), naiveIndexPair(s, c1, c2, d); got != w {
			t.Fatalf("IndexPair(%q, %q, %q, %d) = %d, want %d", s, c1, c2, d, got, w)
		}
	}
}

// TestIndexEither holds IndexEither to the obvious loop the same way: the
// two bytes are rare, alone or both, at every place of a step and in the
// rest, on texts of every length and alignment.
func TestIndexEither(t *testing.T) { eachLevel(t, testIndexEither) }

func testIndexEither(t *testing.T) {
	rnd := rand.New(rand.NewPCG(18, 6))
	buf := make([]byte, 340)
	for range 4000 {
		// One text in four holds neither byte, so that the scan runs to
		// its end; in the others they are one byte in a hundred or so.
		rare := rnd.IntN(4) > 0
		for i := range buf {
			buf[i] = 'a'
			if rare && rnd.IntN(100) == 0 {
				buf[i] = "\x00\r"[rnd.IntN(2)]
			}
		}
		off := rnd.IntN(33)
		s := string(buf[off : off+rnd.IntN(len(buf)-off)+1])
		if got, w := IndexEither(s, 0, '\r'), naiveIndexEither(s, 0, '\r'); got != w {
			t.Fatalf("IndexEither(%q) = %d, want %d", s, got, w)
		}
	}
}

// TestAppendIndexes holds AppendIndexes to the obvious loop: texts of
// every length and alignment, the byte rare or in every other place (so
// that a step finds more places than the list has room for), appended to
// lists with no room, some, and plenty.
func TestAppendIndexes(t *testing.T) { eachLevel(t, testAppendIndexes) }

func testAppendIndexes(t *testing.T) {
	rnd := rand.New(rand.NewPCG(18, 8))
	buf := make([]byte, 700)
	for range 4000 {
		density := []int{1, 2, 7, 100, 1000}[rnd.IntN(5)]
		for i := range buf {
			buf[i] = 'a'
			if rnd.IntN(density) == 0 {
				buf[i] = 'c'
			}
		}
		off := rnd.IntN(33)
		s := string(buf[off : off+rnd.IntN(len(buf)-off)+1])
		prefix := []int32{-1, -2, -3}
		dst := make([]int32, len(prefix), len(prefix)+[]int{0, 5, 40, 1000}[rnd.IntN(4)])
		copy(dst, prefix)
		want := naiveAppendIndexes(slices.Clone(prefix), s, 'c')
		if got := AppendIndexes(dst, s, 'c'); !slices.Equal(got, want) {
			t.Fatalf("AppendIndexes(%v, %q, 'c') = %v, want %v", dst, s, got, want)
		}
	}
}

func naiveIndexPair(s string, c1, c2 byte, d int) int {
	for i := 0; d >= 0 && i+d < len(s); i++ {
		if s[i] == c1 && s[i+d] == c2 {
			return i
		}
	}
	return -1
}

func naiveIndexEither(s string, a, b byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == a || s[i] == b {
			return i
		}
	}
	return -1
}

func naiveAppendIndexes(dst []int32, s string, c byte) []int32 {
	for i := range len(s) {
		if s[i] == c {
			dst = append(dst, int32(i))
		}
	}
	return dst
}

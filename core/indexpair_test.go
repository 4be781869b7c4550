package core

import (
	"math/rand/v2"
	"testing"
)

// TestIndexPair holds indexPair (the SIMD steps and the scalar rest) to the
// obvious loop, on texts of every length up to 300 over three letters, so
// that matches fall in every lane of a step, across steps and in the rest,
// at every distance, and on texts cut at every alignment.
func TestIndexPair(t *testing.T) {
	rnd := rand.New(rand.NewPCG(18, 5))
	want := func(s string, c1, c2 byte, d int) int {
		for i := 0; i+d < len(s); i++ {
			if s[i] == c1 && s[i+d] == c2 {
				return i
			}
		}
		return -1
	}
	buf := make([]byte, 340)
	for n := 0; n < 4000; n++ {
		// Mostly 'a', a few 'b' and 'c': the pair is rare, the single
		// bytes are not.
		for i := range buf {
			buf[i] = "aaaaaaaaaaaaaaabbc"[rnd.IntN(18)]
		}
		off := rnd.IntN(33)
		s := string(buf[off : off+rnd.IntN(len(buf)-off)+1])
		d := rnd.IntN(70)
		c1, c2 := "abc"[rnd.IntN(3)], "abc"[rnd.IntN(3)]
		if got, w := indexPair(s, c1, c2, d), want(s, c1, c2, d); got != w {
			t.Fatalf("indexPair(%q, %q, %q, %d) = %d, want %d", s, c1, c2, d, got, w)
		}
	}
}

// TestIndexEither holds indexEither to the obvious loop the same way: the
// two bytes are rare, alone or both, at every place of a step and in the
// rest, on texts of every length and alignment.
func TestIndexEither(t *testing.T) {
	rnd := rand.New(rand.NewPCG(18, 6))
	want := func(s string, a, b byte) int {
		for i := 0; i < len(s); i++ {
			if s[i] == a || s[i] == b {
				return i
			}
		}
		return -1
	}
	buf := make([]byte, 340)
	for n := 0; n < 4000; n++ {
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
		if got, w := indexEither(s, 0, '\r'), want(s, 0, '\r'); got != w {
			t.Fatalf("indexEither(%q) = %d, want %d", s, got, w)
		}
	}
}

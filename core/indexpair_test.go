package core

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// eachScan runs f once for each set of scans the CPU has (AVX-512, AVX2,
// none: the Go loops alone), the others switched off, so that every path
// of the scans is tested on a machine that would take the fastest one.
func eachScan(t *testing.T, f func(t *testing.T)) {
	avx512, avx2 := hasAVX512, hasSIMD
	defer func() { hasAVX512, hasSIMD = avx512, avx2 }()
	for _, level := range []struct {
		name         string
		avx512, avx2 bool
	}{{"avx512", true, true}, {"avx2", false, true}, {"go", false, false}} {
		if level.avx512 && !avx512 || level.avx2 && !avx2 {
			continue
		}
		hasAVX512, hasSIMD = level.avx512, level.avx2
		t.Run(level.name, f)
	}
}

// TestIndexPair holds indexPair (the SIMD steps and the scalar rest) to the
// obvious loop, on texts of every length up to 300 over three letters, so
// that matches fall in every lane of a step, across steps and in the rest,
// at every distance, and on texts cut at every alignment.
func TestIndexPair(t *testing.T) { eachScan(t, testIndexPair) }

func testIndexPair(t *testing.T) {
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
func TestIndexEither(t *testing.T) { eachScan(t, testIndexEither) }

func testIndexEither(t *testing.T) {
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

// TestAppendPlaces holds appendPlaces to the obvious loop: texts of every
// length and alignment, the byte rare or in every other place (so that a
// step finds more places than the list has room for), appended to lists
// with no room, some, and plenty.
func TestAppendPlaces(t *testing.T) { eachScan(t, testAppendPlaces) }

func testAppendPlaces(t *testing.T) {
	rnd := rand.New(rand.NewPCG(18, 8))
	buf := make([]byte, 700)
	for n := 0; n < 4000; n++ {
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
		pos := make([]int32, len(prefix), len(prefix)+[]int{0, 5, 40, 1000}[rnd.IntN(4)])
		copy(pos, prefix)
		want := append([]int32(nil), prefix...)
		for i := range len(s) {
			if s[i] == 'c' {
				want = append(want, int32(i))
			}
		}
		if got := appendPlaces(pos, s, 'c'); !slices.Equal(got, want) {
			t.Fatalf("appendPlaces(%v, %q, 'c') = %v, want %v", pos, s, got, want)
		}
	}
}

package core

import (
	"slices"
	"strings"
)

// indexPair returns the first i with s[i] == c1 and s[i+d] == c2 (d >= 0,
// i+d < len(s)), or -1.
//
// It is the finder's scan (match.go): a block's anchor is looked for
// through two of its rare bytes at once, not one. One byte is rare in a
// token, not in a file: W5's anchor stopped 224 times on '+' in 80 KB,
// and each stop cost a call and a compare (issue 18). Go's library has a
// SIMD scan for one byte (strings.IndexByte) but none for two at a
// distance, so on amd64 with AVX2 this is written in assembly
// (indexpair_amd64.s): 32 places a step, each a compare of both bytes,
// at about the speed of IndexByte. Elsewhere, and for the last places of
// s, it skips with IndexByte and tests the second byte.
func indexPair(s string, c1, c2 byte, d int) int {
	m := len(s) - d // the places i can take
	if m <= 0 {
		return -1
	}
	done, width := 0, simdWidth()
	if width > 0 && m >= width {
		var i int
		if hasAVX512 {
			i = indexPairAVX512(s, c1, c2, d)
		} else {
			i = indexPairSIMD(s, c1, c2, d)
		}
		if i >= 0 {
			return i
		}
		done = m &^ (width - 1)
	}
	return indexPairFrom(s, c1, c2, d, done, m)
}

// simdWidth is how many places a step of the widest scan the CPU has
// takes (AVX-512's 64, AVX2's 32), 0 without one: indexPair and
// appendPlaces hand the places before the last whole step to it.
func simdWidth() int {
	switch {
	case hasAVX512:
		return 2 * simdChunk
	case hasSIMD:
		return simdChunk
	}
	return 0
}

// indexPairFrom is indexPair over the places [from, m), by IndexByte.
func indexPairFrom(s string, c1, c2 byte, d, from, m int) int {
	for i := from; i < m; i++ {
		j := strings.IndexByte(s[i:m], c1)
		if j < 0 {
			return -1
		}
		i += j
		if s[i+d] == c2 {
			return i
		}
	}
	return -1
}

// indexEither returns the first i with s[i] == a or s[i] == b, or -1.
//
// A file is read for a NUL byte (binary: refused) and for a CR (its line
// endings) before any block runs: two passes over each file, 13 us each
// for W2's 800 KB here, as long as finding the block. The library has no
// SIMD scan for either of two bytes (strings.IndexAny tests a byte at a
// time, about 1 GB/s), so this one pass is written in assembly too.
func indexEither(s string, a, b byte) int {
	done := 0
	if len(s) >= simdChunk && hasSIMD {
		if i := indexEitherSIMD(s, a, b); i >= 0 {
			return i
		}
		done = len(s) &^ (simdChunk - 1)
	}
	for i := done; i < len(s); i++ {
		if s[i] == a || s[i] == b {
			return i
		}
	}
	return -1
}

// appendPlaces appends to pos the offsets of c in s, in order.
//
// Exact matching lists the places of an anchor's rare byte once per file
// and serves every block of the file from the list (kept.go). One
// IndexByte call a place made the listing 16% of W1's validation; a SIMD
// step tests 128 bytes at once and walks the places it found in a
// register (placesSIMD). Elsewhere, and for the last bytes, IndexByte a
// place.
func appendPlaces(pos []int32, s string, c byte) []int32 {
	done, width := 0, simdWidth()
	for width > 0 && len(s)-done >= width {
		if cap(pos)-len(pos) < 4*simdChunk {
			pos = slices.Grow(pos, max(cap(pos), 4*simdChunk))
		}
		var n, k int
		if hasAVX512 {
			n, k = placesAVX512(s[done:], c, pos[len(pos):cap(pos)], done)
		} else {
			n, k = placesSIMD(s[done:], c, pos[len(pos):cap(pos)], done)
		}
		pos = pos[:len(pos)+n]
		done += k
	}
	for i := done; ; i++ {
		j := strings.IndexByte(s[i:], c)
		if j < 0 {
			return pos
		}
		i += j
		pos = append(pos, int32(i))
	}
}

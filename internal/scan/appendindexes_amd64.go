//go:build !purego

package scan

import "slices"

// AppendIndexes appends to dst the index of every c in s, in order; s is
// shorter than 2 GB.
//
// Exact matching lists the places of an anchor's rare byte once per file
// and serves every block of the file from the list. One IndexByte call a
// place made the listing a sixth of a validation (BenchmarkW1); the AVX2
// routine tests 128 bytes at once and walks the places it found in a
// register.
func AppendIndexes(dst []int32, s string, c byte) []int32 {
	from := 0
	for useAVX2 && len(s)-from >= step {
		if cap(dst)-len(dst) < 4*step {
			dst = slices.Grow(dst, max(cap(dst), 4*step))
		}
		n, k := indexesAVX2(s[from:], c, dst[len(dst):cap(dst)], from)
		dst = dst[:len(dst)+n]
		from += k
	}
	return appendIndexesGo(dst, s, c, from)
}

// indexesAVX2 writes base+i to out for each place i of s[:len(s)&^31]
// that holds c, in order, and returns how many it wrote and how far into
// s it read (a multiple of 32). It stops early when out has no room left
// for a whole step's places, so its caller grows out and calls again.
//
//go:noescape
func indexesAVX2(s string, c byte, out []int32, base int) (n, done int)

//go:build !purego

package scan

// IndexEither returns the first i with s[i] == a or s[i] == b, or -1.
//
// A file is read for a NUL byte (binary: refused) and for a CR (its line
// endings) before any block runs; two passes over each file were as long
// as finding the block in it (BenchmarkW2). strings.IndexAny tests a byte
// at a time, so the one pass is an AVX2 routine.
func IndexEither(s string, a, b byte) int {
	from := 0
	if useAVX2 && len(s) >= step {
		if i := indexEitherAVX2(s, a, b); i >= 0 {
			return i
		}
		from = len(s) &^ (step - 1)
	}
	return indexEitherGo(s, a, b, from)
}

// indexEitherAVX2 is IndexEither over s[:len(s)&^31], len(s) >= 32.
//
//go:noescape
func indexEitherAVX2(s string, a, b byte) int

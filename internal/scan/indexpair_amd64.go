//go:build !purego

package scan

// IndexPair returns the first i with s[i] == c1 and s[i+d] == c2 (d >= 0,
// i+d < len(s)), or -1.
//
// It is the finder's scan: a block's anchor is looked for through two of
// its rare bytes at once, because one byte rare in a token is not rare in
// a file, and every false stop at it costs a call and a compare
// (BenchmarkW5). With AVX2 a step compares 32 places with both bytes, at
// about the speed of IndexByte.
func IndexPair(s string, c1, c2 byte, d int) int {
	m := len(s) - d // the places i can take
	if d < 0 || m <= 0 {
		return -1
	}
	from := 0
	if useAVX2 && m >= step {
		if i := indexPairAVX2(s, c1, c2, d); i >= 0 {
			return i
		}
		from = m &^ (step - 1)
	}
	return indexPairGo(s, c1, c2, d, from)
}

// indexPairAVX2 is IndexPair over the places [0, m&^31), m = len(s)-d >=
// 32: the first match, or -1 when none of those places is one.
//
//go:noescape
func indexPairAVX2(s string, c1, c2 byte, d int) int

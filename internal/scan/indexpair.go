package scan

import "strings"

// indexPairGo is IndexPair over the places from on: IndexByte to the next
// c1, then a test of c2. It is the whole scan where the AVX2 routine does
// not run, the places after its last whole step where it does, and the
// reference the routine is held to (FuzzIndexPair).
func indexPairGo(s string, c1, c2 byte, d, from int) int {
	m := len(s) - d // the places i can take
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

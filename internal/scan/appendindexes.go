package scan

import "strings"

// appendIndexesGo is AppendIndexes over s[from:], IndexByte a place: the
// whole scan where the AVX2 routine does not run, the bytes after its
// last whole step where it does, and the reference the routine is held
// to (FuzzAppendIndexes).
func appendIndexesGo(dst []int32, s string, c byte, from int) []int32 {
	for i := from; ; i++ {
		j := strings.IndexByte(s[i:], c)
		if j < 0 {
			return dst
		}
		i += j
		dst = append(dst, int32(i))
	}
}

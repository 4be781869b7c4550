package scan

// indexEitherGo is IndexEither over s[from:], a byte at a time: the whole
// scan where the AVX2 routine does not run, the bytes after its last
// whole step where it does, and the reference the routine is held to
// (FuzzIndexEither).
func indexEitherGo(s string, a, b byte, from int) int {
	for i := from; i < len(s); i++ {
		if s[i] == a || s[i] == b {
			return i
		}
	}
	return -1
}

//go:build !amd64 || purego

package scan

// IndexPair returns the first i with s[i] == c1 and s[i+d] == c2 (d >= 0,
// i+d < len(s)), or -1.
func IndexPair(s string, c1, c2 byte, d int) int {
	if d < 0 {
		return -1
	}
	return indexPairGo(s, c1, c2, d, 0)
}

//go:build !amd64 || purego

package scan

// IndexEither returns the first i with s[i] == a or s[i] == b, or -1.
func IndexEither(s string, a, b byte) int { return indexEitherGo(s, a, b, 0) }

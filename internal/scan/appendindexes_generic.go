//go:build !amd64 || purego

package scan

// AppendIndexes appends to dst the index of every c in s, in order; s is
// shorter than 2 GB.
func AppendIndexes(dst []int32, s string, c byte) []int32 { return appendIndexesGo(dst, s, c, 0) }

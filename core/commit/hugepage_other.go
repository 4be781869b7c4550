//go:build !linux

package commit

// readBuffer returns a buffer of n bytes for a file's content (huge pages
// are asked for on Linux only).
func readBuffer(n int) []byte { return make([]byte, n) }

//go:build !linux

package commit

// readBuffer returns a buffer of n bytes for a file's content (huge pages
// are asked for on Linux only).
func readBuffer(n int) []byte { return make([]byte, n) }

// hugePages says whether Arena packs reads into huge pages.
const hugePages = false

// hugeAligned is raw's first n bytes: no huge pages are asked for here.
func hugeAligned(raw []byte, n int) []byte { return raw[:n:n] }

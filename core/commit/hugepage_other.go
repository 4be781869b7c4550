//go:build !linux

package commit

// adviseHuge is a no-op where there is no MADV_HUGEPAGE.
func adviseHuge(buf []byte) {}

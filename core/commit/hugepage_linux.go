package commit

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePages says whether Arena packs reads into huge pages.
const hugePages = true

// readBuffer returns a buffer of n bytes for a file's content, in huge
// pages where the kernel gives them on request (MADV_HUGEPAGE: a kernel
// set to give them on request only, as many are, gives a program none
// without it). A file read into 4 KB pages costs a page fault each 4 KB,
// and on a VM where faults are costly those faults were most of a big
// file's dry run (make bench, W6). In 2 MB pages the buffer
// takes a fault each 2 MB, and the copy into it misses the TLB far less.
// The cost: the file's last 2 MB page is resident whole (up to 2 MB more
// RSS), and up to 4 MB of address space that is never touched.
func readBuffer(n int) []byte {
	if n < hugeReadMin {
		return make([]byte, n)
	}
	return hugeAligned(make([]byte, hugeSpan(n)+hugePage), n)
}

// hugeSpan is n rounded up to whole 2 MB pages.
func hugeSpan(n int) int { return (n + hugePage - 1) &^ (hugePage - 1) }

// hugeAligned returns n bytes of raw starting at its first 2 MB boundary,
// their whole 2 MB pages advised huge; raw holds n rounded up to 2 MB, and
// 2 MB more. Advice only: where the kernel says no, or Go hands back
// memory already paged in, the read is as it was.
func hugeAligned(raw []byte, n int) []byte {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(raw)))
	off := int((p+hugePage-1)&^(hugePage-1) - p)
	_ = unix.Madvise(raw[off:off+hugeSpan(n)], unix.MADV_HUGEPAGE)
	return raw[off : off+n : off+n]
}

package commit

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size of an x86-64 and arm64 transparent huge page.
const hugePage = 2 << 20

// adviseHuge asks the kernel to back the whole 2 MB pages inside buf, a
// buffer not yet written, with huge pages (MADV_HUGEPAGE: a kernel set to
// give them on request only, as many are, gives a program none without
// it). A 100 MB file read into 4 KB pages costs 25,600 page faults, each
// zeroing a page; on the VM of issue 18's fifth round that was 90% of
// W6's dry run: 340-450 ms, against 30-180 ms with the advice (50 faults
// for the buffer, and a copy into it that misses the TLB far less).
// Advice only: where the kernel says no, or Go hands back memory already
// paged, the read is as before.
func adviseHuge(buf []byte) {
	if len(buf) < 2*hugePage {
		return
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	lo := int((p+hugePage-1)&^(hugePage-1) - p)
	hi := int((p+uintptr(len(buf)))&^(hugePage-1) - p)
	if hi > lo {
		_ = unix.Madvise(buf[lo:hi], unix.MADV_HUGEPAGE)
	}
}

package commit

import (
	"io"
	"os"
	"sync"
)

// An Arena packs the small files a short-lived process reads into shared
// 2 MB huge pages (where the kernel gives them: hugepage_linux.go), after
// the first arenaStart bytes. A fresh 4 KB page costs a page fault, and on
// a VM a fault is costly while a 2 MB page costs not much more than one:
// twenty small files are a visible share of a dry run's faults (make
// bench, W1). Files of hugeReadMin or more get huge pages of their own
// (readBuffer).
//
// Memory handed out is never returned while any buffer of its 2 MB page
// lives, so an Arena is for a process that exits after one run (the CLI),
// not for a server. The zero Arena is ready; a nil *Arena allocates each
// buffer on its own, as Disk does without one.
type Arena struct {
	mu    sync.Mutex
	given int    // bytes handed out so far
	page  []byte // what is left of the current 2 MB page
}

// hugePage is the size of an x86-64 and arm64 transparent huge page.
const hugePage = 2 << 20

// hugeReadMin is the smallest file read into huge pages of its own: from a
// quarter of one, clearing a 2 MB page costs about what the 4 KB faults it
// replaces cost on a machine where faults are cheap, and far less where
// they are not (readBuffer).
const hugeReadMin = 512 << 10

// arenaStart is how much an Arena hands out in plain 4 KB pages first: a
// run that reads less than this (one small file) would pay more for a
// 2 MB page than for the faults it saves. Here the two cost the same at
// 8-16 pages.
const arenaStart = 64 << 10

// buffer returns n bytes, zeroed, with no room to grow.
func (a *Arena) buffer(n int) []byte {
	if a == nil || n >= hugeReadMin || !hugePages {
		return readBuffer(n)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.given += n
	if a.given <= arenaStart {
		return make([]byte, n)
	}
	if n > len(a.page) {
		a.page = hugeAligned(make([]byte, 2*hugePage), hugePage)
	}
	b := a.page[:n:n]
	a.page = a.page[n:]
	return b
}

// ReadAll reads f to its end, at most limit bytes (one more tells a
// longer file), into a buffer sized by its length when it is a regular
// file: io.ReadAll grows from 512 bytes, clearing and copying each bigger
// buffer, fresh pages each time (make bench, W1: the dry run's faults).
func (a *Arena) ReadAll(f *os.File, limit int64) ([]byte, error) {
	r := io.LimitReader(f, limit)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() < limit {
		return readSized(r, fi.Size(), a)
	}
	return io.ReadAll(r)
}

package lsp

import (
	"sync"
	"time"
)

// readCache keeps the target files the session read from disk, each with
// its stamp: a file whose size and modification time have not moved is not
// read again. A streamed answer's every chunk is validated against every
// file it names (W8 of make bench), and the engine takes over the files
// whose bytes it finds unchanged: the same bytes, not a fresh copy to
// compare.
type readCache struct {
	mu    sync.Mutex
	files map[string]cachedRead
	size  int
}

type cachedRead struct {
	st     stamp
	data   []byte
	readAt int64 // nanoseconds
}

// racy is how long after its last change a file's stamp is trusted:
// file systems stamp a write with a coarse clock (a few milliseconds;
// seconds on some), so a second write of the same size soon after the
// first may keep the stamp. A file changed longer ago than that before it
// was read has a later stamp after any change (git's "racy clean" rule).
const racy = 2 * time.Second

// readCacheMax bounds the bytes kept: past it the cache starts afresh.
const readCacheMax = 64 << 20

func newReadCache() *readCache { return &readCache{files: map[string]cachedRead{}} }

// read returns name's content as it was when the disk last showed st, or
// reads it. st is the stamp taken before reading.
func (c *readCache) read(name string, st stamp, read func() ([]byte, error)) ([]byte, error) {
	c.mu.Lock()
	r, ok := c.files[name]
	c.mu.Unlock()
	if ok && r.st == st && !st.missing && st.mtime < r.readAt-int64(racy) {
		return r.data, nil
	}
	readAt := time.Now().UnixNano()
	data, err := read()
	c.mu.Lock()
	defer c.mu.Unlock()
	if ok {
		c.size -= len(r.data)
		delete(c.files, name)
	}
	if err != nil || st.missing || len(data) > readCacheMax/4 {
		return data, err
	}
	if c.size+len(data) > readCacheMax {
		c.files, c.size = map[string]cachedRead{}, 0
	}
	c.files[name] = cachedRead{st: st, data: data, readAt: readAt}
	c.size += len(data)
	return data, nil
}

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
	// paths holds what the disk resolved each path as written to
	// (core.FS's RealPath: a walk of the path's links, one system call a
	// folder), for as long as a stamp is trusted without a stat.
	paths map[string]resolved
}

type cachedRead struct {
	st     stamp
	data   []byte
	readAt int64 // nanoseconds
	// statAt is when a stat last showed st (0: once an event says the
	// disk changed): until checkedFor after it, the entry is the disk's
	// content without a stat.
	statAt int64
}

type resolved struct {
	real string
	err  error
	at   int64 // nanoseconds
}

// checkedFor is how long what a stat of a target file showed stands for
// the disk in the analyses of patches. A chat answer streamed into the
// editor is validated again on every chunk, many times a second, against
// every file it names: a stat and a walk of each path every time are most
// of that work, and keep the runtime's monitor thread busy besides (W8 of
// make bench). The disk can move behind the server's back for that long
// in diagnostics only, never in an edit: before one is built, checkDisk
// compares every stamp the snapshot's analyses took, trusted or not,
// with the disk, walks again every path they took from an earlier walk,
// and the snapshot's reads after that go to the disk (disk.go,
// stampUnchecked, walkUnchecked). An editor's file-watch event, or a disk
// check that finds a change, drops every trusted stamp at once
// (unconfirm).
const checkedFor = time.Second

// racy is how long after its last change a file's stamp is trusted:
// file systems stamp a write with a coarse clock (a few milliseconds;
// seconds on some), so a second write of the same size soon after the
// first may keep the stamp. A file changed longer ago than that before it
// was read has a later stamp after any change (git's "racy clean" rule).
const racy = 2 * time.Second

// readCacheMax bounds the bytes kept: past it the cache starts afresh.
const readCacheMax = 64 << 20

func newReadCache() *readCache {
	return &readCache{files: map[string]cachedRead{}, paths: map[string]resolved{}}
}

// recent returns name's content and stamp as a stat showed them less
// than checkedFor ago.
func (c *readCache) recent(name string, now int64) ([]byte, stamp, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.files[name]
	if !ok || r.statAt == 0 || now-r.statAt >= int64(checkedFor) || r.st.mtime >= r.readAt-int64(racy) {
		// A stamp too young to tell a change from none is not trusted
		// either: the file is read again (read).
		return nil, stamp{}, false
	}
	return r.data, r.st, true
}

// recentPath is what name resolved to in the workspace at root less than
// checkedFor ago.
func (c *readCache) recentPath(root, name string, now int64) (resolved, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.paths[root+"\x00"+name]
	return r, ok && now-r.at < int64(checkedFor)
}

// putPath remembers what name resolved to at now.
func (c *readCache) putPath(root, name string, r resolved) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.paths) >= maxPaths {
		clear(c.paths)
	}
	c.paths[root+"\x00"+name] = r
}

// maxPaths bounds the resolved paths kept.
const maxPaths = 4096

// unconfirm forgets which stamps and paths a stat confirmed: the next
// read of each file stats it again. Called when an event says the disk
// changed.
func (c *readCache) unconfirm() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, r := range c.files {
		r.statAt = 0
		c.files[k] = r
	}
	clear(c.paths)
}

// read returns name's content as it was when the disk last showed st, or
// reads it. st is the stamp taken before reading, at statAt.
func (c *readCache) read(name string, st stamp, statAt int64, read func() ([]byte, error)) ([]byte, error) {
	c.mu.Lock()
	r, ok := c.files[name]
	if ok && r.st == st && !st.missing && st.mtime < r.readAt-int64(racy) {
		r.statAt = statAt
		c.files[name] = r
		c.mu.Unlock()
		return r.data, nil
	}
	c.mu.Unlock()
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
	if int64(len(data)) != st.size {
		statAt = 0 // changed between the stat and the read: not to be trusted
	}
	c.files[name] = cachedRead{st: st, data: data, readAt: readAt, statAt: statAt}
	c.size += len(data)
	return data, nil
}

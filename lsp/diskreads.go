package lsp

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Every read the server makes of the disk goes through this file, and so
// does what it trusts of what it read (the trust window):
//
//   - the view's readCache keeps, for the session, the target files it read
//     with their stamps, and what each path's walk of its links found. What
//     a stat or a walk showed stands for the disk for checkedFor after it
//     began, within its generation only: unconfirm starts the next one, and
//     a stat or walk begun before it is trusted by nothing after it, however
//     late it is recorded.
//   - each snapshot's diskReads keeps its first read of each file and of
//     each path and gives it to every later read of that snapshot, so two
//     analyses of one snapshot never see different bytes. Before an edit is
//     built, a disk check compares all of them with the disk (check): a read
//     in flight when the check begins is among them, and from then on the
//     snapshot takes no stat or walk on trust.
//
// So a snapshot from which an edit is built holds only what the disk check
// compared, or what a stat or walk begun after the check found: a snapshot
// that check made (it found a change) starts a generation of its own.

// checkedFor is how long what a stat of a target file showed stands for
// the disk in the analyses of patches. A chat answer streamed into the
// editor is validated again on every chunk, many times a second, against
// every file it names: a stat and a walk of each path every time are most
// of that work, and keep the runtime's monitor thread busy besides (W8 of
// make bench). The disk can move behind the server's back for that long
// in diagnostics only, never in an edit (disk.go, checkDisk). An editor's
// file-watch event, or a disk check that finds a change, ends the window
// at once (unconfirm).
const checkedFor = time.Second

// racy is how long after its last change a file's stamp is trusted:
// file systems stamp a write with a coarse clock (a few milliseconds;
// seconds on some), so a second write of the same size soon after the
// first may keep the stamp. A file changed longer ago than that before it
// was read has a later stamp after any change (git's "racy clean" rule).
const racy = 2 * time.Second

// readCacheMax bounds the bytes kept: past it the cache starts afresh.
const readCacheMax = 64 << 20

// maxPaths bounds the walks kept.
const maxPaths = 4096

// stamp is what the disk said of a file when it was read.
type stamp struct {
	missing bool
	size    int64
	mtime   int64 // nanoseconds
	// torn: the read found another size than its stat (a writer that
	// truncates, then writes), so what it read may be neither version. No
	// stat equals such a stamp, and the next disk check reads the file
	// again; the stat's own, if the write kept its size and clock tick,
	// would keep the torn read for good.
	torn bool
}

func statFile(full string) stamp {
	fi, err := os.Stat(full)
	if err != nil {
		return stamp{missing: true}
	}
	return stamp{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
}

// readCache keeps the target files the session read from disk, each with
// its stamp: a file whose size and modification time have not moved is not
// read again. A streamed answer's every chunk is validated against every
// file it names (W8 of make bench), and the engine takes over the files
// whose bytes it finds unchanged: the same bytes, not a fresh copy to
// compare.
type readCache struct {
	now func() int64 // the clock, in nanoseconds; a test sets its own

	mu    sync.Mutex
	gen   uint64 // the generation: 1 at first, one more at every unconfirm
	files map[string]cachedRead
	size  int // the bytes in files, counted from the entries they hold
	paths map[string]cachedWalk
}

// sight is when, and in which generation, a stat or a walk began.
type sight struct {
	gen uint64
	at  int64 // nanoseconds
}

type cachedRead struct {
	st     stamp
	data   []byte
	readAt int64 // nanoseconds
	// seen is the last stat that showed st with a read that agreed; the
	// zero sight (a torn read) is trusted by nothing.
	seen sight
}

// young reports whether r was read too soon after its file's last change
// for its stamp to show the next one (racy).
func (r cachedRead) young() bool { return r.st.mtime >= r.readAt-int64(racy) }

// resolved is what a walk of a path's links found (core.FS's RealPath).
type resolved struct {
	real string
	err  error
}

type cachedWalk struct {
	resolved
	seen sight
}

func newReadCache() *readCache {
	return &readCache{
		now:   func() int64 { return time.Now().UnixNano() },
		gen:   1,
		files: map[string]cachedRead{},
		paths: map[string]cachedWalk{},
	}
}

// begin is the sight of a stat or walk about to begin.
func (c *readCache) begin() sight {
	c.mu.Lock()
	defer c.mu.Unlock()
	return sight{gen: c.gen, at: c.now()}
}

// trusts reports whether what a stat or walk begun at s showed still stands
// for the disk. Called with c.mu held.
func (c *readCache) trusts(s sight) bool {
	return s.gen == c.gen && c.now()-s.at < int64(checkedFor)
}

// unconfirm ends the trust in every stat and walk made so far: the next
// read of each file stats it again, the next resolution of each path walks
// it again. Called when an event says the disk may have changed.
func (c *readCache) unconfirm() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
}

// recent returns name's content and stamp as a trusted stat showed them.
func (c *readCache) recent(name string) ([]byte, stamp, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.files[name]
	if !ok || !c.trusts(r.seen) || r.young() {
		// A stamp too young to tell a change from none is not trusted
		// either: the file is read again (load).
		return nil, stamp{}, false
	}
	return r.data, r.st, true
}

// recentPath is what a trusted walk found name resolved to.
func (c *readCache) recentPath(name string) (resolved, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.paths[name]
	return r.resolved, ok && c.trusts(r.seen)
}

// diskRead is one read of a file: its bytes, or why there are none, and the
// stamp a stat begun before it showed.
type diskRead struct {
	data []byte
	err  error
	st   stamp
	// young: read within racy of its file's last change, so its stamp may
	// not show the next one; a disk check compares its content.
	young bool
}

// load stats name, then returns its content: the bytes cached under that
// stamp when they are old enough to trust it, a fresh read otherwise. The
// sight is taken before the stat, so a stat that an unconfirm follows
// before it is recorded stands for nothing after it.
func (c *readCache) load(name string, stat func() stamp, read func() ([]byte, error)) diskRead {
	seen := c.begin()
	st := stat()
	c.mu.Lock()
	if r, ok := c.files[name]; ok && r.st == st && !st.missing && !r.young() {
		r.seen = seen
		c.files[name] = r
		c.mu.Unlock()
		return diskRead{data: r.data, st: st}
	}
	c.mu.Unlock()
	readAt := c.now()
	data, err := read()
	if err == nil && !st.missing && int64(len(data)) != st.size {
		st.torn, seen = true, sight{}
	}
	got := diskRead{data: data, err: err, st: st, young: err == nil && !st.missing && st.mtime >= readAt-int64(racy)}

	c.mu.Lock()
	defer c.mu.Unlock()
	// The entry this one replaces is the one there now: another load of
	// the same name may have replaced the one seen above.
	if old, ok := c.files[name]; ok {
		c.size -= len(old.data)
		delete(c.files, name)
	}
	if err != nil || st.missing || len(data) > readCacheMax/4 {
		return got
	}
	if c.size+len(data) > readCacheMax {
		clear(c.files)
		c.size = 0
	}
	c.files[name] = cachedRead{st: st, data: data, readAt: readAt, seen: seen}
	c.size += len(data)
	return got
}

// walk resolves name with walk and remembers what it found.
func (c *readCache) walk(name string, walk func(string) (string, error)) resolved {
	seen := c.begin()
	real, err := walk(name)
	r := resolved{real: real, err: err}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.paths) >= maxPaths {
		clear(c.paths)
	}
	c.paths[name] = cachedWalk{resolved: r, seen: seen}
	return r
}

// stat stamps the file of key, a path relative to the root.
func (v *view) stat(key string) stamp {
	return statFile(filepath.Join(v.root, filepath.FromSlash(key)))
}

// load reads the file of key from disk, through the session's cache.
func (v *view) load(key string) diskRead {
	return v.cache.load(key, func() stamp { return v.stat(key) }, func() ([]byte, error) { return v.disk.ReadFile(key) })
}

// walk resolves name's links on disk, through the session's cache.
func (v *view) walk(name string) resolved {
	return v.cache.walk(name, v.disk.RealPath)
}

// diskReads is what one snapshot read of the disk: the first read of each
// file and each path, which every later read of the snapshot returns.
type diskReads struct {
	// phase is held shared by each read, from before it looks at the cache
	// or the disk until it has recorded what it found, and alone by check
	// while it marks the snapshot checked and copies the reads.
	phase sync.RWMutex
	// checked: a disk check compared this snapshot's reads with the disk,
	// and an edit may be built from it; its later reads take nothing on
	// trust. Written under phase alone.
	checked bool

	mu    sync.Mutex // guards files and walks among the reads
	files map[string]diskRead
	walks map[string]resolved
}

func newDiskReads() *diskReads {
	return &diskReads{files: map[string]diskRead{}, walks: map[string]resolved{}}
}

// readFile is the snapshot's read of name from disk.
func (d *diskReads) readFile(v *view, name string) ([]byte, error) {
	d.phase.RLock()
	defer d.phase.RUnlock()
	if r, ok := first(&d.mu, d.files, name); ok {
		return r.data, r.err
	}
	var r diskRead
	if data, st, ok := v.cache.recent(name); ok && !d.checked {
		r = diskRead{data: data, st: st}
	} else {
		r = v.load(name)
	}
	r = keepFirst(&d.mu, d.files, name, r)
	return r.data, r.err
}

// realPath is the snapshot's resolution of name's links on disk.
func (d *diskReads) realPath(v *view, name string) (string, error) {
	d.phase.RLock()
	defer d.phase.RUnlock()
	if r, ok := first(&d.mu, d.walks, name); ok {
		return r.real, r.err
	}
	r, ok := v.cache.recentPath(name)
	if !ok || d.checked {
		r = v.walk(name)
	}
	r = keepFirst(&d.mu, d.walks, name, r)
	return r.real, r.err
}

func first[V any](mu *sync.Mutex, m map[string]V, name string) (V, bool) {
	mu.Lock()
	defer mu.Unlock()
	v, ok := m[name]
	return v, ok
}

// keepFirst records v as the read of name unless another read of the
// snapshot recorded one first, and returns the one recorded.
func keepFirst[V any](mu *sync.Mutex, m map[string]V, name string, v V) V {
	mu.Lock()
	defer mu.Unlock()
	if old, ok := m[name]; ok {
		return old
	}
	m[name] = v
	return v
}

// check marks the snapshot checked, then lists the files it read that the
// disk no longer holds as read: another stamp, other content under a stamp
// too young to tell, or a path that now leads elsewhere (the files at both
// ends).
func (d *diskReads) check(v *view) []string {
	d.phase.Lock()
	d.checked = true
	files, walks := maps.Clone(d.files), maps.Clone(d.walks)
	d.phase.Unlock()
	var out []string
	for k, r := range files {
		if v.stat(k) != r.st {
			out = append(out, k)
			continue
		}
		// The same stamp: a file written twice within one tick of the
		// file system's clock, at the same size, keeps it. Such a file
		// was read within that time of its last change, and its content
		// tells.
		if r.young {
			if now := v.load(k); now.err != nil || !bytes.Equal(now.data, r.data) {
				out = append(out, k)
			}
		}
	}
	for name, r := range walks {
		if now := v.walk(name); now.real != r.real || (now.err == nil) != (r.err == nil) {
			for _, k := range []string{r.real, now.real} {
				if k != "" {
					out = append(out, k)
				}
			}
		}
	}
	return out
}

package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// clock sets c's clock to a time the test moves by hand.
func clock(c *readCache) *int64 {
	now := time.Now().UnixNano()
	c.now = func() int64 { return now }
	return &now
}

// stats is a stat that shows st, and reads counts the reads of text.
func stats(st stamp) func() stamp { return func() stamp { return st } }

func reading(n *int, text string) func() ([]byte, error) {
	return func() ([]byte, error) { *n++; return []byte(text), nil }
}

// TestReadCacheRacyStamp: a file changed just before it was read may
// change again under the same stamp (a coarse clock), so it is read again;
// an older one is not.
func TestReadCacheRacyStamp(t *testing.T) {
	c := newReadCache()
	reads := 0
	young := stamp{size: 4, mtime: time.Now().UnixNano()}
	c.load("a.py", stats(young), reading(&reads, "a=1\n"))
	if got := c.load("a.py", stats(young), reading(&reads, "a=2\n")); string(got.data) != "a=2\n" || reads != 2 || !got.young {
		t.Errorf("a file changed just now: got %q (young %v) after %d reads, want it read again", got.data, got.young, reads)
	}
	old := stamp{size: 4, mtime: time.Now().Add(-time.Hour).UnixNano()}
	c.load("b.py", stats(old), reading(&reads, "b=1\n"))
	if got := c.load("b.py", stats(old), reading(&reads, "b=2\n")); string(got.data) != "b=1\n" || reads != 3 {
		t.Errorf("an old file under the same stamp: got %q after %d reads, want it kept", got.data, reads)
	}
	if got := c.load("b.py", stats(stamp{size: 4, mtime: time.Now().UnixNano()}), reading(&reads, "b=3\n")); string(got.data) != "b=3\n" {
		t.Errorf("a new stamp: got %q, want the file read again", got.data)
	}
}

// TestReadCacheTrust: what a stat showed stands for checkedFor, and no
// longer once an event says the disk changed; so does a resolved path. A
// read that disagrees with its stat is never trusted.
func TestReadCacheTrust(t *testing.T) {
	c := newReadCache()
	now := clock(c)
	start := *now
	old := time.Now().Add(-time.Hour).UnixNano()
	reads := 0
	c.load("a.py", stats(stamp{size: 4, mtime: old}), reading(&reads, "a=1\n"))
	*now = start + int64(checkedFor)/2
	if data, st, ok := c.recent("a.py"); !ok || string(data) != "a=1\n" || st.size != 4 {
		t.Errorf("within checkedFor: %q %v %v, want the read trusted", data, st, ok)
	}
	*now = start + int64(checkedFor)
	if _, _, ok := c.recent("a.py"); ok {
		t.Error("checkedFor after the stat: still trusted")
	}
	*now = start
	c.unconfirm()
	if _, _, ok := c.recent("a.py"); ok {
		t.Error("after unconfirm: still trusted")
	}
	torn := c.load("torn.py", stats(stamp{size: 9, mtime: old}), reading(&reads, "x"))
	if _, _, ok := c.recent("torn.py"); ok || !torn.st.torn {
		t.Errorf("a read shorter than its stat: trusted %v, torn %v", ok, torn.st.torn)
	}
	if statFile(os.DevNull) == torn.st || torn.st == (stamp{size: 9, mtime: old}) {
		t.Error("a torn read's stamp equals a stat's")
	}

	c.walk("a.py", func(string) (string, error) { return "real/a.py", nil })
	*now = start + int64(checkedFor)/2
	if r, ok := c.recentPath("a.py"); !ok || r.real != "real/a.py" {
		t.Errorf("a walk within checkedFor: %v %v", r, ok)
	}
	*now = start + int64(checkedFor)
	if _, ok := c.recentPath("a.py"); ok {
		t.Error("a walk checkedFor ago is trusted")
	}
	*now = start
	c.unconfirm()
	if _, ok := c.recentPath("a.py"); ok {
		t.Error("after unconfirm: a walk is trusted")
	}
}

// A stat or walk begun before an unconfirm and recorded after it stands
// for nothing: an event that says the disk changed came between what it
// showed and its record.
func TestReadCacheStatBeforeUnconfirm(t *testing.T) {
	c := newReadCache()
	clock(c)
	old := time.Now().Add(-time.Hour).UnixNano()
	reads := 0
	statThenUnconfirm := func() stamp { st := stamp{size: 4, mtime: old}; c.unconfirm(); return st }
	c.load("a.py", statThenUnconfirm, reading(&reads, "a=1\n"))
	if _, _, ok := c.recent("a.py"); ok {
		t.Error("a stat begun before unconfirm is trusted after it")
	}
	// The same stamp again, from a stat of its own: trusted.
	c.load("a.py", stats(stamp{size: 4, mtime: old}), reading(&reads, "a=1\n"))
	if _, _, ok := c.recent("a.py"); !ok || reads != 1 {
		t.Errorf("a stat after unconfirm: trusted %v after %d reads, want trusted after 1", ok, reads)
	}
	// A hit of the cache records the stat too, as begun before unconfirm.
	c.load("a.py", statThenUnconfirm, reading(&reads, "a=1\n"))
	if _, _, ok := c.recent("a.py"); ok {
		t.Error("a stat begun before unconfirm, found in the cache, is trusted after it")
	}

	c.walk("a.py", func(string) (string, error) { c.unconfirm(); return "a.py", nil })
	if _, ok := c.recentPath("a.py"); ok {
		t.Error("a walk begun before unconfirm is trusted after it")
	}
}

// Two loads of one name that both miss replace one entry between them:
// the size counts what the cache holds.
func TestReadCacheSizeTwoLoads(t *testing.T) {
	c := newReadCache()
	old := time.Now().Add(-time.Hour).UnixNano()
	reads := 0
	c.load("a.py", stats(stamp{size: 4, mtime: old}), reading(&reads, "a=1\n"))
	st := stamp{size: 5, mtime: old + 1}
	c.load("a.py", stats(st), func() ([]byte, error) {
		c.load("a.py", stats(st), reading(&reads, "a=22\n")) // the other load, while this one reads
		return []byte("a=22\n"), nil
	})
	sum := 0
	for _, r := range c.files {
		sum += len(r.data)
	}
	if c.size != sum {
		t.Errorf("size %d, the entries hold %d bytes", c.size, sum)
	}
}

// workspace is a view of a new folder holding files.
func workspace(t *testing.T, files map[string]string) *view {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v, err := newView(root)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// A path one snapshot resolved, and the next took from that walk without
// walking again, is walked again by a disk check: a link changed in
// between makes both its old and its new file stale.
func TestDiskCheckWalksTrustedPaths(t *testing.T) {
	v := workspace(t, map[string]string{"a.py": "x = 1\n", "b.py": "x = 2\n"})
	clock(v.cache) // the walks stay trusted however slow the test runs
	link := func(name, to string) {
		t.Helper()
		full := filepath.Join(v.root, name)
		if err := os.Remove(full); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if err := os.Symlink(to, full); err != nil {
			t.Skip("no symlinks here:", err)
		}
	}
	link("cur.py", "a.py")
	link("other.py", "a.py")
	first := emptySnapshot(nil, newPriorPlans(), newSeenFiles())
	first.view = v
	for _, name := range []string{"cur.py", "other.py"} {
		if real, err := first.RealPath(name); err != nil || real != "a.py" {
			t.Fatalf("%s resolves to %q, %v", name, real, err)
		}
	}
	next := first.clone()
	if real, _ := next.RealPath("cur.py"); real != "a.py" {
		t.Fatalf("the next snapshot: cur.py resolves to %q", real)
	}
	if stale := next.staleOnDisk(); len(stale) != 0 {
		t.Fatalf("nothing changed, yet stale: %v", stale)
	}
	link("cur.py", "b.py")
	link("other.py", "b.py")
	third := first.clone()
	if real, _ := third.RealPath("cur.py"); real != "a.py" {
		t.Fatalf("the walk before the link changed was not trusted: %q", real)
	}
	stale := third.staleOnDisk()
	if !slices.Contains(stale, "a.py") || !slices.Contains(stale, "b.py") {
		t.Errorf("a link retargeted after a trusted walk: stale %v, want a.py and b.py", stale)
	}
	// The snapshot resolves a path once: its analyses agree on where it
	// leads.
	if real, _ := third.RealPath("cur.py"); real != "a.py" {
		t.Errorf("a second resolution in one snapshot: %q, want the first's", real)
	}
	// The check marked third: it walks afresh the paths it had not
	// resolved yet, though the cache holds a walk it would trust.
	if r, ok := v.cache.recentPath("other.py"); !ok || r.real != "a.py" {
		t.Fatalf("other.py's first walk: %v, trusted %v", r, ok)
	}
	if real, _ := third.RealPath("other.py"); real != "b.py" {
		t.Errorf("a checked snapshot took a walk on trust: %q", real)
	}
}

// A snapshot reads each file once: a change on disk after its first read
// shows in the next snapshot, never in a second read of the same one.
func TestSnapshotReadsOnce(t *testing.T) {
	v := workspace(t, map[string]string{"a.py": "x = 1\n"})
	s := emptySnapshot(nil, newPriorPlans(), newSeenFiles())
	s.view = v
	if got, err := s.ReadFile("a.py"); err != nil || string(got) != "x = 1\n" {
		t.Fatalf("a.py: %q, %v", got, err)
	}
	if err := os.WriteFile(filepath.Join(v.root, "a.py"), []byte("x = 22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	v.cache.unconfirm()
	if got, _ := s.ReadFile("a.py"); string(got) != "x = 1\n" {
		t.Errorf("a second read of one snapshot: %q, want the first's", got)
	}
	if stale := s.staleOnDisk(); !slices.Equal(stale, []string{"a.py"}) {
		t.Errorf("stale %v, want [a.py]", stale)
	}
	next := s.clone()
	if got, _ := next.ReadFile("a.py"); string(got) != "x = 22\n" {
		t.Errorf("the next snapshot: %q, want the disk's", got)
	}
}

package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestReadCacheRacyStamp: a file changed just before it was read may
// change again under the same stamp (a coarse clock), so it is read again;
// an older one is not.
func TestReadCacheRacyStamp(t *testing.T) {
	c := newReadCache()
	reads := 0
	read := func(text string) func() ([]byte, error) {
		return func() ([]byte, error) { reads++; return []byte(text), nil }
	}
	young := stamp{size: 4, mtime: time.Now().UnixNano()}
	c.read("a.py", young, 0, read("a=1\n"))
	if got, _ := c.read("a.py", young, 0, read("a=2\n")); string(got) != "a=2\n" || reads != 2 {
		t.Errorf("a file changed just now: got %q after %d reads, want it read again", got, reads)
	}
	old := stamp{size: 4, mtime: time.Now().Add(-time.Hour).UnixNano()}
	c.read("b.py", old, 0, read("b=1\n"))
	if got, _ := c.read("b.py", old, 0, read("b=2\n")); string(got) != "b=1\n" || reads != 3 {
		t.Errorf("an old file under the same stamp: got %q after %d reads, want it kept", got, reads)
	}
	if got, _ := c.read("b.py", stamp{size: 4, mtime: time.Now().UnixNano()}, 0, read("b=3\n")); string(got) != "b=3\n" {
		t.Errorf("a new stamp: got %q, want the file read again", got)
	}
}

// TestReadCacheTrust: what a stat showed stands for checkedFor, and no
// longer once an event says the disk changed; so does a resolved path. A
// read that disagrees with its stat is never trusted.
func TestReadCacheTrust(t *testing.T) {
	c := newReadCache()
	old := time.Now().Add(-time.Hour).UnixNano()
	now := time.Now().UnixNano()
	c.read("a.py", stamp{size: 4, mtime: old}, now, func() ([]byte, error) { return []byte("a=1\n"), nil })
	if data, st, ok := c.recent("a.py", now+int64(checkedFor)/2); !ok || string(data) != "a=1\n" || st.size != 4 {
		t.Errorf("within checkedFor: %q %v %v, want the read trusted", data, st, ok)
	}
	if _, _, ok := c.recent("a.py", now+int64(checkedFor)); ok {
		t.Error("checkedFor after the stat: still trusted")
	}
	c.unconfirm()
	if _, _, ok := c.recent("a.py", now); ok {
		t.Error("after unconfirm: still trusted")
	}
	c.read("torn.py", stamp{size: 9, mtime: old}, now, func() ([]byte, error) { return []byte("x"), nil })
	if _, _, ok := c.recent("torn.py", now); ok {
		t.Error("a read shorter than its stat is trusted")
	}

	c.putPath("/w", "a.py", resolved{real: "real/a.py", at: now})
	if r, ok := c.recentPath("/w", "a.py", now+int64(checkedFor)/2); !ok || r.real != "real/a.py" {
		t.Errorf("a walk within checkedFor: %v %v", r, ok)
	}
	if _, ok := c.recentPath("/other", "a.py", now); ok {
		t.Error("a walk in another root is trusted")
	}
	if _, ok := c.recentPath("/w", "a.py", now+int64(checkedFor)); ok {
		t.Error("a walk checkedFor ago is trusted")
	}
	c.unconfirm()
	if _, ok := c.recentPath("/w", "a.py", now); ok {
		t.Error("after unconfirm: a walk is trusted")
	}
}

// A path one snapshot resolved, and the next took from that walk without
// walking again, is walked again by a disk check: a link changed in
// between makes both its old and its new file stale.
func TestDiskCheckWalksTrustedPaths(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"a.py": "x = 1\n", "b.py": "x = 2\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a.py", filepath.Join(root, "cur.py")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	v, err := newView(root)
	if err != nil {
		t.Fatal(err)
	}
	first := emptySnapshot(nil, newPriorPlans(), newReadCache())
	first.view = v
	if real, err := first.RealPath("cur.py"); err != nil || real != "a.py" {
		t.Fatalf("cur.py resolves to %q, %v", real, err)
	}
	next := first.clone()
	if real, _ := next.RealPath("cur.py"); real != "a.py" || len(next.walks) != 1 {
		t.Fatalf("the next snapshot walked again (%q, %d trusted walks)", real, len(next.walks))
	}
	if stale := next.staleOnDisk(); len(stale) != 0 {
		t.Fatalf("nothing changed, yet stale: %v", stale)
	}
	if err := os.Remove(filepath.Join(root, "cur.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("b.py", filepath.Join(root, "cur.py")); err != nil {
		t.Fatal(err)
	}
	third := first.clone()
	if real, _ := third.RealPath("cur.py"); real != "a.py" {
		t.Fatalf("the walk before the link changed was not trusted: %q", real)
	}
	stale := third.staleOnDisk()
	if !slices.Contains(stale, "a.py") || !slices.Contains(stale, "b.py") {
		t.Errorf("a link retargeted after a trusted walk: stale %v, want a.py and b.py", stale)
	}
	// The check marked third: it walks afresh from now on.
	if real, _ := third.RealPath("cur.py"); real != "b.py" {
		t.Errorf("a checked snapshot took a trusted walk: %q", real)
	}
}

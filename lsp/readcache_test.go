package lsp

import (
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

	walks := 0
	resolve := func(name string) (string, error) { walks++; return "real/" + name, nil }
	for range 3 {
		if got, _ := c.realPath("/w", "a.py", now, resolve); got != "real/a.py" {
			t.Fatalf("realPath = %q", got)
		}
	}
	c.realPath("/other", "a.py", now, resolve)
	if walks != 2 {
		t.Errorf("%d walks for one path in two roots, want 2", walks)
	}
	c.unconfirm()
	c.realPath("/w", "a.py", now, resolve)
	if walks != 3 {
		t.Errorf("after unconfirm: %d walks, want 3", walks)
	}
}

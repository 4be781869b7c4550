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
	c.read("a.py", young, read("a=1\n"))
	if got, _ := c.read("a.py", young, read("a=2\n")); string(got) != "a=2\n" || reads != 2 {
		t.Errorf("a file changed just now: got %q after %d reads, want it read again", got, reads)
	}
	old := stamp{size: 4, mtime: time.Now().Add(-time.Hour).UnixNano()}
	c.read("b.py", old, read("b=1\n"))
	if got, _ := c.read("b.py", old, read("b=2\n")); string(got) != "b=1\n" || reads != 3 {
		t.Errorf("an old file under the same stamp: got %q after %d reads, want it kept", got, reads)
	}
	if got, _ := c.read("b.py", stamp{size: 4, mtime: time.Now().UnixNano()}, read("b=3\n")); string(got) != "b=3\n" {
		t.Errorf("a new stamp: got %q, want the file read again", got)
	}
}

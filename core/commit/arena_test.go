package commit

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"
)

// An Arena's buffers are zeroed, exactly n long with no room to grow (an
// append copies instead of writing over the next file), and never share
// a byte; past arenaStart, where huge pages are asked for, the small ones
// are cut one after another from one 2 MB page.
func TestArenaBuffers(t *testing.T) {
	var a Arena
	sizes := []int{40 << 10, 20 << 10, 20 << 10, 20 << 10, 7, 20 << 10, hugeReadMin, 20 << 10}
	var bufs [][]byte
	given := 0
	for _, n := range sizes {
		b := a.buffer(n)
		if len(b) != n || cap(b) != n {
			t.Fatalf("buffer(%d): len %d cap %d", n, len(b), cap(b))
		}
		if bytes.IndexFunc(b, func(r rune) bool { return r != 0 }) >= 0 {
			t.Fatalf("buffer(%d) is not zeroed", n)
		}
		for i := range b {
			b[i] = byte(len(bufs) + 1)
		}
		bufs = append(bufs, b)
		given += n
	}
	for i, b := range bufs {
		if bytes.Count(b, []byte{byte(i + 1)}) != len(b) {
			t.Fatalf("buffer %d was written over by another", i)
		}
	}
	if !hugePages {
		return
	}
	start := func(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
	// 40+20 KB fit under arenaStart; the third 20 KB buffer opens a page,
	// and the next small ones follow it in that page.
	page := start(bufs[2])
	if page%hugePage != 0 {
		t.Errorf("the first packed buffer starts at %#x, not at a 2 MB boundary", page)
	}
	at := page
	for _, i := range []int{2, 3, 4, 5, 7} {
		if start(bufs[i]) != at {
			t.Errorf("buffer %d starts at %#x; want %#x, right after the one before it in the page", i, start(bufs[i]), at)
		}
		at += uintptr(len(bufs[i]))
	}
	if s := start(bufs[6]); s >= page && s < page+hugePage {
		t.Errorf("a %d-byte buffer was cut from the shared page; files that big get their own", hugeReadMin)
	}
}

// A Disk with an Arena reads what a Disk without one reads, and a file
// that grows past its buffer (as a file read while written may) is read
// whole without touching its neighbour's bytes.
func TestDiskArenaReads(t *testing.T) {
	root := t.TempDir()
	want := map[string]string{}
	for i, name := range []string{"a.py", "b.py", "c.py", "d.py", "e.py"} {
		want[name] = strings.Repeat(string(rune('a'+i))+"23456789\n", 3000+i)
		if err := os.WriteFile(filepath.Join(root, name), []byte(want[name]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, err := NewDisk(root)
	if err != nil {
		t.Fatal(err)
	}
	d.Arena = new(Arena)
	got := map[string][]byte{}
	for name := range want {
		if got[name], err = d.ReadFile(name); err != nil {
			t.Fatal(err)
		}
	}
	for name, w := range want {
		if string(got[name]) != w {
			t.Errorf("%s: read %d bytes, want its %d", name, len(got[name]), len(w))
		}
	}
	grown := append(got["a.py"], "more\n"...)
	if string(grown[:len(want["a.py"])]) != want["a.py"] {
		t.Fatal("append changed the file's bytes")
	}
	for name, w := range want {
		if string(got[name]) != w {
			t.Errorf("%s changed when a.py's buffer was appended to", name)
		}
	}
}

// ReadAll reads a file whole, or limit bytes of a longer one (the caller
// tells a file over its limit by the length).
func TestArenaReadAll(t *testing.T) {
	path := filepath.Join(t.TempDir(), "patch")
	text := strings.Repeat("x", 100<<10)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var a Arena
	for _, limit := range []int64{1 << 20, 100<<10 + 1, 50 << 10} {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := a.ReadAll(f, limit)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if want := min(int64(len(text)), limit); int64(len(got)) != want || string(got) != text[:want] {
			t.Errorf("limit %d: read %d bytes, want %d", limit, len(got), want)
		}
	}
}

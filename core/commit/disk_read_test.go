package commit

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
)

// TestReadParallel: a big file read in ranges at once holds exactly its
// bytes, the range edges included; a file that is not the size Stat gave
// (it grew or shrank since) is refused, and readRegular then reads it in
// one stream.
func TestReadParallel(t *testing.T) {
	want := make([]byte, parallelReadMin+12345)
	rand.New(rand.NewSource(18)).Read(want)
	path := filepath.Join(t.TempDir(), "big.bin")
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readRegular(path, 0, nil)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("readRegular: %d bytes, %v; want the file's %d bytes", len(got), err, len(want))
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	size := int64(len(want))
	if buf, ok := readParallel(f, size); !ok || !bytes.Equal(buf, want) {
		t.Errorf("readParallel at the file's size: ok=%v, equal=%v", ok, bytes.Equal(buf, want))
	}
	if _, ok := readParallel(f, size-1); ok {
		t.Error("readParallel took a file longer than its size (it grew since Stat)")
	}
	if _, ok := readParallel(f, size+1); ok {
		t.Error("readParallel took a file shorter than its size (it shrank since Stat)")
	}
}

// A file over MaxFileSize is refused by its size, before a byte is read
// (a sparse file: nothing is written).
func TestReadFileTooLarge(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(root, "data", "huge.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxFileSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	d, err := NewDisk(root)
	if err != nil {
		t.Fatal(err)
	}
	data, err := d.ReadFile("data/huge.txt")
	if !errors.Is(err, ErrTooLarge) || data != nil {
		t.Fatalf("ReadFile of %d bytes: %d bytes, %v; want ErrTooLarge", MaxFileSize+1, len(data), err)
	}
	if want := fmt.Sprintf("read data/huge.txt: %v: it holds %d bytes", ErrTooLarge, MaxFileSize+1); err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}

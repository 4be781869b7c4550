//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// stdFile is a File that, like os.Stdin, is never collected: pollable's
// File shares its descriptor, and its finalizer would close it again
// after the test closed it, whatever the number then names.
func stdFile(fd int, name string) *os.File {
	f := os.NewFile(uintptr(fd), name)
	never = append(never, f)
	return f
}

var never []*os.File

// A blocking pipe, as an editor hands the server its stdin, comes back
// polled: a read deadline, which only the poller keeps, takes effect, and
// data still arrives. A regular file comes back as it was.
func TestPollable(t *testing.T) {
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil { // blocking, unlike os.Pipe's
		t.Fatal(err)
	}
	r, w := stdFile(fds[0], "r"), os.NewFile(uintptr(fds[1]), "w")
	defer w.Close()
	if err := r.SetReadDeadline(time.Now()); err == nil {
		t.Fatal("the test's pipe is polled already")
	}
	p := pollable(r)
	if p == r {
		t.Fatal("a blocking pipe came back unchanged")
	}
	defer p.Close()
	if err := p.SetReadDeadline(time.Now().Add(time.Millisecond)); err != nil {
		t.Fatalf("the pipe is not polled: %v", err)
	}
	buf := make([]byte, 8)
	if _, err := p.Read(buf); !os.IsTimeout(err) {
		t.Fatalf("read on an empty polled pipe: %v, want a timeout", err)
	}
	if err := p.SetReadDeadline(time.Time{}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	if n, err := p.Read(buf); err != nil || string(buf[:n]) != "hello" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
	// Already non-blocking, as p's descriptor now is: os polls it already.
	if again := pollable(p); again != p {
		t.Error("a polled file was wrapped again")
	}

	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if pollable(f) != f {
		t.Error("a regular file was changed")
	}
}

//go:build unix

package main

import (
	"bytes"
	"fmt"
	"io"
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
	// Polled already: returned as it is.
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

// One socket given as both stdin and stdout, as socket activation and
// some editors' spawners do, is one open file: a reply larger than the
// socket's buffer waits for the client to read instead of failing, and
// requests still arrive.
func TestStdioOneSocket(t *testing.T) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	out, err := syscall.Dup(fds[1])
	if err != nil {
		t.Fatal(err)
	}
	s := newStdio(stdFile(fds[1], "stdin"), stdFile(out, "stdout"))
	defer s.out.Close()
	defer s.Close()
	client := os.NewFile(uintptr(fds[0]), "client")
	defer client.Close()

	msg := bytes.Repeat([]byte("0123456789abcdef"), 256<<10) // 4 MiB, past any socket buffer
	wrote := make(chan error, 1)
	go func() {
		n, err := s.Write(msg)
		if err == nil && n != len(msg) {
			err = fmt.Errorf("wrote %d of %d bytes", n, len(msg))
		}
		// The client's read ends here, whatever happened to the write.
		_ = syscall.Shutdown(out, syscall.SHUT_WR)
		wrote <- err
	}()
	// The client reads once the server's writes have filled the buffer:
	// when the write has failed, or later.
	select {
	case err := <-wrote:
		t.Fatalf("write, before the client read anything: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	got, err := io.ReadAll(client)
	if err != nil || !bytes.Equal(got, msg) {
		t.Errorf("the client read %d bytes, %v; want %d", len(got), err, len(msg))
	}
	if err := <-wrote; err != nil {
		t.Fatalf("write: %v", err)
	}

	if _, err := client.Write([]byte("request")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	if n, err := s.Read(buf); err != nil || string(buf[:n]) != "request" {
		t.Fatalf("the server read %q, %v", buf[:n], err)
	}
}

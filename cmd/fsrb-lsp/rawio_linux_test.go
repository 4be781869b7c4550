package main

import (
	"bytes"
	"io"
	"syscall"
	"testing"
	"time"
)

// Over a polled pipe, raw reads and writes carry a message bigger than
// the pipe's buffer whole (the writer waits for the reader), end in EOF
// when the writer closes, and a Close wakes a read waiting for data. A
// blocking file is not wrapped.
func TestRawIO(t *testing.T) {
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil {
		t.Fatal(err)
	}
	blocking, blockingW := stdFile(fds[0], "r"), stdFile(fds[1], "w")
	if _, wrapped := rawIO(blocking).(*rawFile); wrapped {
		t.Fatal("a blocking pipe was wrapped")
	}
	r, w := rawIO(pollable(blocking)), rawIO(pollable(blockingW))
	if _, ok := r.(*rawFile); !ok {
		t.Fatal("a polled pipe was not wrapped")
	}
	msg := bytes.Repeat([]byte("0123456789abcdef"), 64<<10) // 1 MiB, past a pipe's 64 KiB
	go func() {
		if n, err := w.Write(msg); n != len(msg) || err != nil {
			t.Errorf("write: %d, %v", n, err)
		}
		w.Close()
	}()
	got, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(got, msg) {
		t.Fatalf("read %d bytes, %v; want %d", len(got), err, len(msg))
	}

	if err := syscall.Pipe(fds[:]); err != nil {
		t.Fatal(err)
	}
	r = rawIO(pollable(stdFile(fds[0], "r")))
	defer syscall.Close(fds[1])
	done := make(chan error)
	go func() {
		_, err := r.Read(make([]byte, 8))
		done <- err
	}()
	time.Sleep(10 * time.Millisecond)
	r.Close()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a read ended by Close returned no error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not end a waiting read")
	}
}

//go:build unix

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// pollable returns f as a file Go's network poller waits on, when f is a
// pipe or a socket (as an editor starts the server). A read blocked in the
// read system call holds a thread in a syscall, and the runtime's monitor
// thread, seeing one there, wakes at its shortest interval for as long as
// the editor keeps sending: a streamed chat answer then costs the server
// more in those wake-ups than in its own work (make bench, W8's floor). A
// polled file parks its goroutine instead, and the monitor sleeps.
//
// A terminal or a regular file is returned unchanged: O_NONBLOCK belongs
// to the open file, and a terminal's is shared with the shell. So is a
// descriptor the parent left non-blocking: os opened it polled already.
func pollable(f *os.File) *os.File {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return f
	}
	fd, nonblocking, ok := blockingMode(f)
	if !ok || nonblocking || unix.SetNonblock(int(fd), true) != nil {
		return f
	}
	// os.NewFile sees a non-blocking descriptor and registers it with the
	// poller; f, never registered, stays as it was for anyone holding it.
	return os.NewFile(fd, f.Name())
}

// blockingMode reads f's descriptor and whether O_NONBLOCK is set on it;
// ok is false when it cannot be read.
func blockingMode(f *os.File) (fd uintptr, nonblocking, ok bool) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, false, false
	}
	if rc.Control(func(d uintptr) {
		flags, err := unix.FcntlInt(d, unix.F_GETFL, 0)
		fd, nonblocking, ok = d, flags&unix.O_NONBLOCK != 0, err == nil
	}) != nil {
		return 0, false, false
	}
	return fd, nonblocking, ok
}

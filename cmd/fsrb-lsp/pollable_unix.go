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
// the editor keeps sending: a streamed chat answer, a change every few
// tens of milliseconds, then costs the server more in those wake-ups than
// in its own work (make bench, W8's floor). A polled file parks its
// goroutine instead, and the monitor sleeps.
//
// A terminal or a regular file is returned unchanged: O_NONBLOCK belongs
// to the open file, and a terminal's is shared with the shell. So is a
// descriptor the parent left non-blocking: os opened it polled already.
func pollable(f *os.File) *os.File {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return f
	}
	raw, err := f.SyscallConn()
	if err != nil {
		return f
	}
	var fd uintptr
	blocking := false
	if raw.Control(func(d uintptr) {
		fd = d
		flags, err := unix.FcntlInt(d, unix.F_GETFL, 0)
		blocking = err == nil && flags&unix.O_NONBLOCK == 0
	}) != nil || !blocking {
		return f
	}
	if unix.SetNonblock(int(fd), true) != nil {
		return f
	}
	// os.NewFile sees a non-blocking descriptor and registers it with the
	// poller; f, never registered, stays as it was for anyone holding it.
	return os.NewFile(fd, f.Name())
}

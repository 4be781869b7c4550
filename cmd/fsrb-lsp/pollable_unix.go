//go:build unix

package main

import (
	"os"
	"time"

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
// Whether f is polled is asked of f itself: only the poller keeps
// deadlines, so setting none fails on a file it does not know. O_NONBLOCK
// does not answer it: the flag belongs to the open file, which stdin and
// stdout share when one socket is given as both (socket activation, some
// editors' spawners), and setting it for stdin leaves stdout
// non-blocking, unpolled, and failing with EAGAIN once the socket's buffer
// is full. A terminal or a regular file is returned unchanged: a
// terminal's O_NONBLOCK is shared with the shell.
func pollable(f *os.File) *os.File {
	if f.SetDeadline(time.Time{}) == nil {
		return f
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return f
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return f
	}
	fd, set := ^uintptr(0), false
	if rc.Control(func(d uintptr) {
		flags, err := unix.FcntlInt(d, unix.F_GETFL, 0)
		if err != nil {
			return
		}
		if flags&unix.O_NONBLOCK == 0 {
			if unix.SetNonblock(int(d), true) != nil {
				return
			}
			set = true
		}
		fd = d
	}) != nil || fd == ^uintptr(0) {
		return f
	}
	// os.NewFile sees a non-blocking descriptor and registers it with the
	// poller; f, never registered, stays as it was for anyone holding it.
	p := os.NewFile(fd, f.Name())
	if p.SetDeadline(time.Time{}) != nil {
		// The poller refused it: f, blocking again, still works.
		if set {
			_ = unix.SetNonblock(int(fd), false)
		}
		return f
	}
	return p
}

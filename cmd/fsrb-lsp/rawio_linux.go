package main

import (
	"io"
	"os"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// rawIO reads and writes f, a non-blocking file the poller waits on
// (pollable), with raw system calls: ones the runtime is not told of. A
// read or write through os enters the runtime's syscall state, and the
// first one after the process went idle wakes the runtime's monitor
// thread from its long sleep into a spell of polling at its shortest
// interval: for each message of a streamed answer, for the read and again
// for the reply (make bench, W8's floor). On a non-blocking descriptor a
// raw call returns at once, so the runtime loses nothing by not knowing
// of it; on a blocking one it could hold a thread the runtime counts as
// running for as long as the editor is silent, so such a file is
// returned as it is.
func rawIO(f *os.File) io.ReadWriteCloser {
	if _, nonblocking, ok := blockingMode(f); !ok || !nonblocking {
		return f
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return f
	}
	return &rawFile{f: f, rc: rc}
}

type rawFile struct {
	f  *os.File
	rc syscall.RawConn
}

// call runs the system call trap on p until it does not fail with EINTR;
// false (the poller waits for the descriptor to be ready, then calls
// again) only on EAGAIN: the poller is edge-triggered, and waiting after
// any other failure could wait for an event that already came.
func call(trap uintptr, fd uintptr, p []byte, n *int, errno *syscall.Errno) bool {
	for {
		r, _, e := unix.RawSyscall(trap, fd, uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
		switch e {
		case unix.EINTR:
			continue
		case unix.EAGAIN:
			return false
		}
		*n, *errno = int(r), e
		return true
	}
}

func (r *rawFile) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	if err := r.rc.Read(func(fd uintptr) bool { return call(unix.SYS_READ, fd, p, &n, &errno) }); err != nil {
		return 0, err
	}
	switch {
	case errno != 0:
		return 0, &os.PathError{Op: "read", Path: r.f.Name(), Err: errno}
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

func (r *rawFile) Write(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		var n int
		var errno syscall.Errno
		if err := r.rc.Write(func(fd uintptr) bool { return call(unix.SYS_WRITE, fd, p[done:], &n, &errno) }); err != nil {
			return done, err
		}
		if errno != 0 {
			return done, &os.PathError{Op: "write", Path: r.f.Name(), Err: errno}
		}
		done += n
	}
	return done, nil
}

func (r *rawFile) Close() error { return r.f.Close() }

//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package commit

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// readFlags opens without blocking: should a fifo replace a checked file
// between Lstat and open, open must not hang until a writer appears.
const readFlags = os.O_RDONLY | syscall.O_NONBLOCK

// lockFile takes an exclusive flock on path. The kernel drops it when the
// process dies, so a journal left "pending" with nobody holding the lock was
// interrupted, never still in progress.
func lockFile(path string, wait time.Duration) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(wait)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { f.Close() }, nil // closing drops the lock
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, err
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, ErrBusy
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// syncDir makes the names in dir (renames, creations, removals) durable;
// fsyncing a file covers its bytes, not its directory entry.
func syncDir(dir string) error { return syncFile(dir) }

// singleLink reports whether fi is a file with no other name: only such a
// file's old inode may serve as a backup (another name could be written
// through in place and change the backup with it).
func singleLink(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink == 1
}

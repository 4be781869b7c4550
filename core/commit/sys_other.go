//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package commit

import (
	"os"
	"time"
)

const readFlags = os.O_RDONLY

// lockFile is a no-op where flock is missing: concurrent fsrb runs in one
// workspace are then not serialized, and Recover cannot tell a live commit
// from an interrupted one.
func lockFile(path string, wait time.Duration) (unlock func(), err error) {
	return func() {}, nil
}

// syncDir is a no-op: Windows cannot fsync a directory handle, and its
// renames are not atomic to begin with.
func syncDir(dir string) error { return nil }

// singleLink is false where link counts are unknown: backups are copies.
func singleLink(fi os.FileInfo) bool { return false }

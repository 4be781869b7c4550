package commit

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// A workspace's journal folder outlives the workspace: prune runs only on
// the workspace's own next commit, which a deleted workspace never makes.
// Backups are hard links to the files the commits replaced, so each such
// folder keeps those files' bytes on the disk: the bench's scratch
// workspaces, committing to a 100 MB file, had grown the state folder to
// 10 GB, and an agent that works in a fresh scratch copy for every task
// leaks the same way. So every commit also removes the journal folders of
// workspaces that are gone.
//
// A folder is removed only when all of these hold: the workspace its
// "root" file names no longer exists; no journal in it is pending (a
// recovery needs it if the workspace comes back: a drive mounted again);
// it has not changed for orphanAge (a workspace on a drive unmounted for
// the afternoon keeps its undo history); and its lock is free.
const orphanAge = 24 * time.Hour

// sweepOrphans removes the orphaned journal folders beside s's own.
// Failures are ignored, as prune's are: a folder left over costs disk
// space, nothing else.
func (s *store) sweepOrphans(now time.Time) {
	base := filepath.Dir(s.dir)
	entries, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range entries {
		dir := filepath.Join(base, e.Name())
		if !e.IsDir() || dir == s.dir || !isStoreName(e.Name()) {
			continue
		}
		if orphaned(dir, now) {
			removeOrphan(dir)
		}
	}
}

// isStoreName reports whether name is one openStore gives a workspace's
// folder (storeNameLen hex digits): nothing else under the state folder is
// touched.
func isStoreName(name string) bool {
	if len(name) != storeNameLen {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// orphaned reports whether dir's workspace is gone and dir is old enough
// to go too.
func orphaned(dir string, now time.Time) bool {
	fi, err := os.Stat(dir)
	if err != nil || now.Sub(fi.ModTime()) < orphanAge {
		return false
	}
	data, err := os.ReadFile(filepath.Join(dir, rootName))
	if err != nil {
		return false // an old folder without the file: whose it is, nobody knows
	}
	root := strings.TrimSuffix(string(data), "\n")
	if !filepath.IsAbs(root) {
		return false
	}
	_, err = os.Lstat(root)
	return errors.Is(err, fs.ErrNotExist)
}

// removeOrphan removes dir under its lock, unless a journal in it is
// pending.
func removeOrphan(dir string) {
	unlock, err := lockFile(filepath.Join(dir, lockName), 0)
	if err != nil {
		return // another fsrb holds it
	}
	defer unlock()
	if pending, err := (&store{dir: dir}).anyPending(); err != nil || pending {
		return
	}
	_ = os.RemoveAll(dir)
}

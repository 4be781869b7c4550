//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package commit_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/core/commit"
)

// backups returns the backup files of every journal under opt's state
// folder.
func backups(t *testing.T, opt commit.Options) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(opt.StateDir, "*", "*", "*.old"))
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

func TestBigBackupIsTheOldFileItself(t *testing.T) {
	root, opt := workspace(t)
	old := strings.Repeat("line of a big file\n", 60000) // 1.1 MB
	write(t, root, "big.txt", old, 0o644)
	before, err := os.Stat(filepath.Join(root, "big.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := commit.Commit(root, []core.FileChange{modify("big.txt", old, old+"one more\n")}, opt); err != nil {
		t.Fatal(err)
	}
	bs := backups(t, opt)
	if len(bs) != 1 {
		t.Fatalf("backups %v", bs)
	}
	fi, err := os.Stat(bs[0])
	if err != nil {
		t.Fatal(err)
	}
	// A link, not a copy: the old inode, now named only by the journal.
	if !os.SameFile(before, fi) {
		t.Errorf("the backup is a copy, not the old file")
	}
	if _, err := commit.Undo(root, opt); err != nil {
		t.Fatal(err)
	}
	if got := read(t, root, "big.txt"); got != old {
		t.Errorf("undo restored %d bytes, want %d", len(got), len(old))
	}
}

func TestBackupOfAFileWithTwoNamesIsACopy(t *testing.T) {
	root, opt := workspace(t)
	old := strings.Repeat("x", 2<<20)
	write(t, root, "big.txt", old, 0o644)
	if err := os.Link(filepath.Join(root, "big.txt"), filepath.Join(root, "alias.txt")); err != nil {
		t.Fatal(err)
	}
	if _, err := commit.Commit(root, []core.FileChange{modify("big.txt", old, "small now\n")}, opt); err != nil {
		t.Fatal(err)
	}
	// The other name still points at the old inode: writing through it
	// in place must not reach the backup.
	if err := os.WriteFile(filepath.Join(root, "alias.txt"), []byte("changed in place"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := commit.Undo(root, opt); err != nil {
		t.Fatal(err)
	}
	if got := read(t, root, "big.txt"); got != old {
		t.Errorf("undo restored %d bytes, want the %d of before", len(got), len(old))
	}
}

package commit_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/core/commit"
)

// commitVersions commits n new versions of one file of size bytes and
// returns the contents, oldest first.
func commitVersions(t *testing.T, n, size int) (root string, opt commit.Options, versions []string) {
	t.Helper()
	root, opt = workspace(t)
	for i := 0; i <= n; i++ {
		versions = append(versions, strings.Repeat(fmt.Sprint(i%10), size-1)+"\n")
	}
	write(t, root, "f.txt", versions[0], 0o644)
	for i := 1; i <= n; i++ {
		if _, err := commit.Commit(root, []core.FileChange{modify("f.txt", versions[i-1], versions[i])}, opt); err != nil {
			t.Fatal(err)
		}
	}
	return root, opt, versions
}

// undoAll undoes until there is nothing left and says how many it undid;
// each undo gives the file back its version before.
func undoAll(t *testing.T, root string, opt commit.Options, versions []string) int {
	t.Helper()
	for undone := 0; ; undone++ {
		_, err := commit.Undo(root, opt)
		if errors.Is(err, commit.ErrNothingToUndo) {
			return undone
		}
		if err != nil {
			t.Fatalf("undo %d: %v", undone+1, err)
		}
		if got, _ := os.ReadFile(filepath.Join(root, "f.txt")); string(got) != versions[len(versions)-2-undone] {
			t.Fatalf("undo %d gave back the wrong version", undone+1)
		}
	}
}

// A root keeps the journals of its last KeepCommitted commits: undo goes
// back that far, and no further.
func TestPruneKeepsTheLastCommits(t *testing.T) {
	root, opt, versions := commitVersions(t, commit.KeepCommitted+3, 100)
	if n := len(states(t, opt)); n != commit.KeepCommitted {
		t.Errorf("%d journals kept, want %d", n, commit.KeepCommitted)
	}
	if n := undoAll(t, root, opt, versions); n != commit.KeepCommitted {
		t.Errorf("%d commits undone, want %d", n, commit.KeepCommitted)
	}
}

// Past the byte bound, older journals go even when fewer commits are
// kept; the last commit's journal stays whatever its size.
func TestPruneKeepsBoundedBytes(t *testing.T) {
	const size = 64 << 10
	commit.SetKeepBytes(t, 3*size+size/2) // three backups and their manifests, not four
	_, opt, _ := commitVersions(t, 6, size)
	if got := states(t, opt); !slices.Equal(got, []string{"commit:committed", "commit:committed", "commit:committed"}) {
		t.Errorf("journals kept: %v, want the last 3 commits", got)
	}

	commit.SetKeepBytes(t, 1)
	root, opt, versions := commitVersions(t, 3, size)
	if n := undoAll(t, root, opt, versions); n != 1 {
		t.Errorf("with a bound below one journal: %d commits undone, want the last one", n)
	}
}

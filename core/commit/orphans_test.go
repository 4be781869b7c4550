package commit_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/core/commit"
)

// A commit removes the journal folders of workspaces that are gone, old
// and with nothing pending, and nothing else.
func TestCommitSweepsOrphanedJournalFolders(t *testing.T) {
	parent, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	opt := commit.Options{StateDir: t.TempDir()}
	names := []string{"gone-old", "gone-recent", "gone-old-pending", "here-old", "committer"}
	folder := map[string]string{} // workspace -> its journal folder
	for _, name := range names {
		root := filepath.Join(parent, name)
		write(t, root, "a.txt", "a\n", 0o644)
		if _, err := commit.Commit(root, []core.FileChange{modify("a.txt", "a\n", "b\n")}, opt); err != nil {
			t.Fatal(err)
		}
		folder[name] = journalFolderOf(t, opt.StateDir, root)
	}
	// Not a workspace's folder, and a workspace's folder from before the
	// "root" file: neither is touched, however old.
	other := filepath.Join(opt.StateDir, "notes")
	noRoot := filepath.Join(opt.StateDir, "0123456789abcdef")
	for _, d := range []string{other, noRoot} {
		if err := os.MkdirAll(filepath.Join(d, "20250101T000000Z-x"), 0o700); err != nil {
			t.Fatal(err)
		}
	}

	for _, name := range []string{"gone-old", "gone-recent", "gone-old-pending"} {
		if err := os.RemoveAll(filepath.Join(parent, name)); err != nil {
			t.Fatal(err)
		}
	}
	// A commit interrupted in a workspace that is gone stays for its
	// recovery, should the workspace come back.
	m := manifestPath(t, folder["gone-old-pending"])
	data, err := os.ReadFile(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(m, []byte(strings.Replace(string(data), `"committed"`, `"pending"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-48 * time.Hour)
	for _, d := range []string{folder["gone-old"], folder["gone-old-pending"], folder["here-old"], other, noRoot} {
		if err := os.Chtimes(d, old, old); err != nil {
			t.Fatal(err)
		}
	}

	root := filepath.Join(parent, "committer")
	if _, err := commit.Commit(root, []core.FileChange{modify("a.txt", "b\n", "c\n")}, opt); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{ // folder -> still there
		folder["gone-old"]: false, folder["gone-recent"]: true, folder["gone-old-pending"]: true,
		folder["here-old"]: true, folder["committer"]: true, other: true, noRoot: true,
	}
	for d, kept := range want {
		if _, err := os.Stat(d); (err == nil) != kept {
			t.Errorf("%s (%s): still there = %v, want %v", filepath.Base(d), rootOf(d), err == nil, kept)
		}
	}
}

// journalFolderOf returns the folder under state whose "root" file names
// root.
func journalFolderOf(t *testing.T, state, root string) string {
	t.Helper()
	entries, err := os.ReadDir(state)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		d := filepath.Join(state, e.Name())
		if rootOf(d) == root {
			return d
		}
	}
	t.Fatalf("no journal folder for %s under %s", root, state)
	return ""
}

func rootOf(dir string) string {
	data, _ := os.ReadFile(filepath.Join(dir, "root"))
	return strings.TrimSuffix(string(data), "\n")
}

// manifestPath returns the manifest of the one journal in dir.
func manifestPath(t *testing.T, dir string) string {
	t.Helper()
	ms, err := filepath.Glob(filepath.Join(dir, "*", "manifest.json"))
	if err != nil || len(ms) != 1 {
		t.Fatalf("manifests in %s: %v, %v", dir, ms, err)
	}
	return ms[0]
}

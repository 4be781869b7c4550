package commit_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/core/commit"
)

func TestCommitMixed(t *testing.T) {
	root, opt, changes := mixed(t)
	res, err := commit.Commit(root, changes, opt)
	if err != nil {
		t.Fatal(err)
	}
	want := &commit.Result{
		Journal:     res.Journal,
		Written:     []string{"src/app.py", "run.sh"},
		Created:     []string{"lib/new/mod.py", "empty.txt"},
		Deleted:     []string{"old/deep/gone.txt", "docs/readme.md"},
		CreatedDirs: []string{"lib", "lib/new"},
		RemovedDirs: []string{"old/deep", "old"},
	}
	if res.Journal == "" || !reflect.DeepEqual(res, want) {
		t.Errorf("Result = %+v\nwant %+v", res, want)
	}
	for p, data := range map[string]string{
		"src/app.py":     "import os\r\nprint('bye')\r\n",
		"run.sh":         "#!/bin/sh\necho b\n",
		"lib/new/mod.py": "x = 1\n",
		"empty.txt":      "filled\n",
		"keep.txt":       "untouched",
		"docs/keep.md":   "stay\n",
	} {
		if got := read(t, root, p); got != data {
			t.Errorf("%s = %q, want %q", p, got, data)
		}
	}
	for _, p := range []string{"old", "docs/readme.md"} {
		if exists(root, p) {
			t.Errorf("%s still exists", p)
		}
	}
	assertNoTemps(t, root)
	if got := states(t, opt); !reflect.DeepEqual(got, []string{"commit:committed"}) {
		t.Errorf("journals = %v", got)
	}
}

// Deleting the only file of a nested folder removes the folders up to the
// root and never the root.
func TestCommitDeletePrunesUpToRoot(t *testing.T) {
	root, opt := workspace(t)
	write(t, root, "a/b/c/only.txt", "x\n", 0o644)
	res, err := commit.Commit(root, []core.FileChange{remove("a/b/c/only.txt", "x\n")}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a/b/c", "a/b", "a"}; !reflect.DeepEqual(res.RemovedDirs, want) {
		t.Errorf("RemovedDirs = %v, want %v", res.RemovedDirs, want)
	}
	assertTree(t, root, map[string]entry{})
	if _, err := os.Stat(root); err != nil {
		t.Fatalf("root removed: %v", err)
	}
}

func TestCommitKeepsMode(t *testing.T) {
	root, opt := workspace(t)
	write(t, root, "run.sh", "#!/bin/sh\n", 0o755)
	write(t, root, "private.txt", "p\n", 0o600)
	_, err := commit.Commit(root, []core.FileChange{
		modify("run.sh", "#!/bin/sh\n", "#!/bin/sh\nexit 0\n"),
		modify("private.txt", "p\n", "q\n"),
		create("new.txt", "n\n"),
	}, opt)
	if err != nil {
		t.Fatal(err)
	}
	for p, mode := range map[string]os.FileMode{"run.sh": 0o755, "private.txt": 0o600} {
		if fi, _ := os.Stat(filepath.Join(root, p)); fi.Mode().Perm() != mode {
			t.Errorf("%s mode = %v, want %v", p, fi.Mode().Perm(), mode)
		}
	}
	// New files get 0644 less the umask: never more.
	if fi, _ := os.Stat(filepath.Join(root, "new.txt")); fi.Mode().Perm()&^0o644 != 0 {
		t.Errorf("new.txt mode = %v, want at most 0644", fi.Mode().Perm())
	}
}

func TestCommitWritesBytesExactly(t *testing.T) {
	root, opt := workspace(t)
	old := "\ufeffline one\r\nline two\r\nno final newline"
	write(t, root, "crlf.txt", old, 0o644)
	for _, data := range []string{"\ufeffline one\r\nline 2\r\nno final newline", "mixed\r\nendings\nand\rcr", "\x00\xff binary is the caller's business"} {
		if _, err := commit.Commit(root, []core.FileChange{modify("crlf.txt", old, data)}, opt); err != nil {
			t.Fatal(err)
		}
		if got := read(t, root, "crlf.txt"); got != data {
			t.Fatalf("content = %q, want %q", got, data)
		}
		old = data
	}
}

func TestCommitConflict(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(root string)
		c     core.FileChange
	}{
		{"changed", func(root string) { write(t, root, "b.txt", "someone else\n", 0o644) }, modify("b.txt", "b\n", "B\n")},
		{"deleted", func(root string) { os.Remove(filepath.Join(root, "b.txt")) }, modify("b.txt", "b\n", "B\n")},
		{"appeared", func(root string) { write(t, root, "new.txt", "", 0o644) }, create("new.txt", "n\n")},
		{"became a folder", func(root string) {
			os.Remove(filepath.Join(root, "b.txt"))
			os.Mkdir(filepath.Join(root, "b.txt"), 0o755)
		}, modify("b.txt", "b\n", "B\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, opt := workspace(t)
			write(t, root, "a.txt", "a\n", 0o644)
			write(t, root, "b.txt", "b\n", 0o644)
			tc.setup(root)
			before := snapshot(t, root)
			_, err := commit.Commit(root, []core.FileChange{modify("a.txt", "a\n", "A\n"), tc.c, create("dir/c.txt", "c\n")}, opt)
			var ce *commit.ConflictError
			if !errors.As(err, &ce) || ce.Path != tc.c.Path {
				t.Fatalf("err = %v, want a ConflictError for %s", err, tc.c.Path)
			}
			if want := tc.c.Path + " changed on disk after validation; nothing was written. Run fsrb again."; err.Error() != want {
				t.Errorf("message = %q, want %q", err, want)
			}
			assertUntouched(t, root, opt, before)
		})
	}
}

// A link inside the root is edited through: its target changes and the
// link stays a link.
func TestCommitSymlinkInsideRoot(t *testing.T) {
	root, opt := workspace(t)
	write(t, root, "real/config.yml", "a: 1\n", 0o644)
	if err := os.Symlink("real/config.yml", filepath.Join(root, "config.yml")); err != nil {
		t.Fatal(err)
	}
	res, err := commit.Commit(root, []core.FileChange{modify("config.yml", "a: 1\n", "a: 2\n")}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"real/config.yml"}; !reflect.DeepEqual(res.Written, want) {
		t.Errorf("Written = %v, want %v", res.Written, want)
	}
	if got := read(t, root, "real/config.yml"); got != "a: 2\n" {
		t.Errorf("target = %q", got)
	}
	if fi, err := os.Lstat(filepath.Join(root, "config.yml")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("config.yml is no longer a link: %v %v", fi.Mode(), err)
	}
}

func TestCommitRefusesEscapes(t *testing.T) {
	root, opt := workspace(t)
	outside := t.TempDir()
	write(t, outside, "secret", "s\n", 0o644)
	write(t, root, "a.txt", "a\n", 0o644)
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "escape"))
	os.Symlink(outside, filepath.Join(root, "escapedir"))
	os.Symlink(".git", filepath.Join(root, "g"))
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	for _, tc := range []struct {
		c   core.FileChange
		err error
	}{
		{modify("escape", "s\n", "pwned\n"), core.ErrOutsideRoot},
		{create("escapedir/new.txt", "pwned\n"), core.ErrOutsideRoot},
		{create("../new.txt", "pwned\n"), core.ErrOutsideRoot},
		{create("g/hooks/pre-commit", "pwned\n"), commit.ErrInsideGit},
	} {
		beforeRoot, beforeOut := snapshot(t, root), snapshot(t, outside)
		_, err := commit.Commit(root, []core.FileChange{modify("a.txt", "a\n", "A\n"), tc.c}, opt)
		if !errors.Is(err, tc.err) {
			t.Errorf("%s: err = %v, want %v", tc.c.Path, err, tc.err)
		}
		assertTree(t, root, beforeRoot)
		assertTree(t, outside, beforeOut)
	}
}

func TestCommitRefusesTwoNamesForOneFile(t *testing.T) {
	root, opt := workspace(t)
	write(t, root, "a.txt", "a\n", 0o644)
	os.Symlink("a.txt", filepath.Join(root, "alias"))
	_, err := commit.Commit(root, []core.FileChange{modify("a.txt", "a\n", "A\n"), modify("alias", "a\n", "B\n")}, opt)
	if err == nil || !strings.Contains(err.Error(), "same file") {
		t.Fatalf("err = %v, want a same-file error", err)
	}
	if got := read(t, root, "a.txt"); got != "a\n" {
		t.Errorf("a.txt = %q", got)
	}
}

// The journal lives under the state folder, never in the workspace.
func TestCommitJournalOutsideWorkspace(t *testing.T) {
	root, opt, changes := mixed(t)
	before := snapshot(t, root)
	if _, err := commit.Commit(root, changes, opt); err != nil {
		t.Fatal(err)
	}
	for p := range snapshot(t, root) {
		if _, old := before[p]; !old && p != "lib" && p != "lib/new" && p != "lib/new/mod.py" {
			t.Errorf("unexpected path in the workspace: %s", p)
		}
	}
	m := manifests(t, opt)
	if len(m) != 1 || len(m[0]["files"].([]any)) != len(changes) {
		t.Fatalf("manifests = %v", m)
	}

	// Nor will it be made inside the workspace, even when asked to.
	write(t, root, "keep.txt", "untouched", 0o644)
	_, err := commit.Commit(root, []core.FileChange{modify("keep.txt", "untouched", "x")}, commit.Options{StateDir: filepath.Join(root, "state")})
	if err == nil || !strings.Contains(err.Error(), "inside the workspace") {
		t.Fatalf("err = %v, want a refusal", err)
	}
	if exists(root, "state") {
		t.Error("the state folder was created inside the workspace")
	}
}

func TestCommitDefaultStateDir(t *testing.T) {
	root, _ := workspace(t)
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	write(t, root, "a.txt", "a\n", 0o644)
	if _, err := commit.Commit(root, []core.FileChange{modify("a.txt", "a\n", "b\n")}, commit.Options{}); err != nil {
		t.Fatal(err)
	}
	if got := manifests(t, commit.Options{StateDir: filepath.Join(state, "fsrb")}); len(got) != 1 {
		t.Errorf("journals under $XDG_STATE_HOME/fsrb: %d, want 1", len(got))
	}
}

func TestCommitNothing(t *testing.T) {
	root, opt := workspace(t)
	res, err := commit.Commit(root, nil, opt)
	if err != nil || res.Journal != "" {
		t.Fatalf("Commit(nil) = %+v, %v", res, err)
	}
	if entries, _ := os.ReadDir(opt.StateDir); len(entries) != 0 {
		t.Errorf("an empty commit wrote a journal")
	}
}

// Only the last journals are kept, and a long history still undoes.
func TestCommitKeepsTenJournals(t *testing.T) {
	root, opt := workspace(t)
	write(t, root, "n.txt", "0", 0o644)
	for i := 1; i <= 13; i++ {
		if _, err := commit.Commit(root, []core.FileChange{modify("n.txt", strconv.Itoa(i-1), strconv.Itoa(i))}, opt); err != nil {
			t.Fatal(err)
		}
	}
	if got := len(manifests(t, opt)); got != 10 {
		t.Errorf("%d journals kept, want 10", got)
	}
	if _, err := commit.Undo(root, opt); err != nil {
		t.Fatal(err)
	}
	if got := read(t, root, "n.txt"); got != "12" {
		t.Errorf("after undo: %q, want 12", got)
	}
}

// Two commits at once in one workspace are serialized by the journal lock.
func TestCommitConcurrent(t *testing.T) {
	root, opt := workspace(t)
	const n = 8
	for i := range n {
		write(t, root, "f"+strconv.Itoa(i), "old", 0o644)
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			_, errs[i] = commit.Commit(root, []core.FileChange{modify("f"+strconv.Itoa(i), "old", "new"+strconv.Itoa(i))}, opt)
		})
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Errorf("commit %d: %v", i, errs[i])
		} else if got := read(t, root, "f"+strconv.Itoa(i)); got != "new"+strconv.Itoa(i) {
			t.Errorf("f%d = %q", i, got)
		}
	}
}

// A file saved by someone else while the new contents are being written
// (big files take seconds) is not overwritten: the commit looks again
// right before the renames, rolls back and says which file changed.
func TestChangeDuringTheWritesIsNotOverwritten(t *testing.T) {
	for _, target := range []string{"a.txt", "new.txt"} {
		root, opt := workspace(t)
		write(t, root, "a.txt", "a\n", 0o644)
		write(t, root, "b.txt", "b\n", 0o644)
		before := snapshot(t, root)
		changes := []core.FileChange{modify("a.txt", "a\n", "A\n"), modify("b.txt", "b\n", "B\n"), create("new.txt", "new\n")}
		commit.SetFailpoint(t, func(step string) error {
			if step == "fsync:new.txt" { // every temp file written and synced
				f, err := os.OpenFile(filepath.Join(root, target), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
				if err != nil {
					return err
				}
				f.WriteString("the user's line\n")
				f.Close()
			}
			return nil
		})
		_, err := commit.Commit(root, changes, opt)
		var conflict *commit.ConflictError
		if !errors.As(err, &conflict) || conflict.Path != target {
			t.Fatalf("%s changed: err = %v, want a ConflictError on it", target, err)
		}
		want := before
		if target == "a.txt" {
			want["a.txt"] = entry{Kind: "file", Data: "a\nthe user's line\n", Mode: want["a.txt"].Mode}
		}
		got := snapshot(t, root)
		delete(got, "new.txt")
		delete(want, "new.txt")
		if d := diffSnapshots(want, got); d != "" {
			t.Errorf("%s changed: %s", target, d)
		}
		if target == "new.txt" && read(t, root, "new.txt") != "the user's line\n" {
			t.Errorf("the user's new.txt was overwritten")
		}
		assertNoTemps(t, root)
	}
}

// Pending decodes only the manifests that hold the word "pending": a
// committed journal whose file is named pending.txt is read whole and
// found committed.
func TestPendingReadsOnlyWhatCanBePending(t *testing.T) {
	root, opt := workspace(t)
	write(t, root, "pending.txt", "0", 0o644)
	write(t, root, "n.txt", "0", 0o644)
	for _, fc := range []core.FileChange{modify("n.txt", "0", "1"), modify("pending.txt", "0", "1")} {
		if _, err := commit.Commit(root, []core.FileChange{fc}, opt); err != nil {
			t.Fatal(err)
		}
	}
	if pending, err := commit.Pending(root, opt); err != nil || pending {
		t.Errorf("Pending = %v, %v; want false: every journal is committed", pending, err)
	}
}

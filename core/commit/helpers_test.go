package commit_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/core/commit"
)

// entry is what one path of a tree holds, for byte-exact comparisons.
type entry struct {
	Kind string // "file", "dir" or "link"
	Mode fs.FileMode
	Data string // file content or link target
}

// snapshot records every path under root (not root itself).
func snapshot(t *testing.T, root string) map[string]entry {
	t.Helper()
	out := map[string]entry{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == root {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		e := entry{Mode: fi.Mode()}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			e.Kind = "link"
			e.Data, err = os.Readlink(p)
		case fi.IsDir():
			e.Kind = "dir"
		default:
			e.Kind = "file"
			var b []byte
			b, err = os.ReadFile(p)
			e.Data = string(b)
		}
		out[filepath.ToSlash(rel)] = e
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// diffSnapshots describes how got differs from want, "" when equal.
func diffSnapshots(want, got map[string]entry) string {
	var lines []string
	for p, w := range want {
		g, ok := got[p]
		switch {
		case !ok:
			lines = append(lines, fmt.Sprintf("missing %s", p))
		case g != w:
			lines = append(lines, fmt.Sprintf("%s: want %v %v %q, got %v %v %q", p, w.Kind, w.Mode, w.Data, g.Kind, g.Mode, g.Data))
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			lines = append(lines, fmt.Sprintf("unexpected %s", p))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func assertTree(t *testing.T, root string, want map[string]entry) {
	t.Helper()
	if d := diffSnapshots(want, snapshot(t, root)); d != "" {
		t.Fatalf("tree differs:\n%s", d)
	}
}

func assertNoTemps(t *testing.T, root string) {
	t.Helper()
	for p := range snapshot(t, root) {
		if strings.Contains(p, ".fsrb-tmp-") {
			t.Errorf("temporary file left behind: %s", p)
		}
	}
}

// assertUntouched checks that a commit that failed or was stopped left
// root as it was before: the same tree, no temporary file, no journal.
func assertUntouched(t *testing.T, root string, opt commit.Options, before map[string]entry) {
	t.Helper()
	assertTree(t, root, before)
	assertNoTemps(t, root)
	if got := states(t, opt); len(got) != 0 {
		t.Errorf("journals left: %v", got)
	}
}

func write(t *testing.T, root, rel, data string, mode fs.FileMode) {
	t.Helper()
	full := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(full, mode); err != nil { // WriteFile's mode passes the umask
		t.Fatal(err)
	}
}

func read(t *testing.T, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func exists(root, rel string) bool {
	_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
	return err == nil
}

// workspace makes a root and a journal folder outside it. The root is
// resolved because t.TempDir may sit under a symlinked /tmp.
func workspace(t *testing.T) (root string, opt commit.Options) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return root, commit.Options{StateDir: t.TempDir()}
}

func modify(p, old, new string) core.FileChange {
	return core.FileChange{Path: p, Display: p, Action: core.ActionModify, Existed: true, Old: []byte(old)}.WithBytes([]byte(new))
}

func create(p, new string) core.FileChange {
	return core.FileChange{Path: p, Display: p, Action: core.ActionCreate}.WithBytes([]byte(new))
}

func remove(p, old string) core.FileChange {
	return core.FileChange{Path: p, Display: p, Action: core.ActionDelete, Existed: true, Old: []byte(old)}
}

// mixed is a workspace with a commit that modifies, creates (in new nested
// folders and over a 0-byte file) and deletes (emptying folders and not).
func mixed(t *testing.T) (root string, opt commit.Options, changes []core.FileChange) {
	t.Helper()
	root, opt = workspace(t)
	write(t, root, "src/app.py", "import os\r\nprint('hi')\r\n", 0o644)
	write(t, root, "run.sh", "#!/bin/sh\necho a\n", 0o755)
	write(t, root, "old/deep/gone.txt", "bye\n", 0o600)
	write(t, root, "docs/readme.md", "# readme\n", 0o644)
	write(t, root, "docs/keep.md", "stay\n", 0o644)
	write(t, root, "empty.txt", "", 0o640)
	write(t, root, "keep.txt", "untouched", 0o644)
	changes = []core.FileChange{
		modify("src/app.py", "import os\r\nprint('hi')\r\n", "import os\r\nprint('bye')\r\n"),
		modify("run.sh", "#!/bin/sh\necho a\n", "#!/bin/sh\necho b\n"),
		remove("old/deep/gone.txt", "bye\n"),
		remove("docs/readme.md", "# readme\n"),
		create("lib/new/mod.py", "x = 1\n"),
		core.FileChange{Path: "empty.txt", Action: core.ActionCreate, Existed: true, Old: []byte{}}.WithBytes([]byte("filled\n")),
	}
	return root, opt, changes
}

// manifests reads every journal manifest under the state folder, oldest
// first.
func manifests(t *testing.T, opt commit.Options) []map[string]any {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(opt.StateDir, "*", "*", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	var out []map[string]any
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func states(t *testing.T, opt commit.Options) []string {
	var out []string
	for _, m := range manifests(t, opt) {
		out = append(out, fmt.Sprint(m["kind"], ":", m["state"]))
	}
	return out
}

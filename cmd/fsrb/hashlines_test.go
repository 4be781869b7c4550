package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fsrb/fsrb/core"
)

func TestReadHashlines(t *testing.T) {
	root := workspace(t, map[string]string{"f.go": "\uFEFFpackage f\r\n\r\nfunc F() {}"})
	code, stdout, stderr := runCLI(t, root, "read", "--hashlines", "f.go")
	want := "1:" + core.HashLine("package f") + "|package f\n2:" + core.HashLine("") + "|\n3:" + core.HashLine("func F() {}") + "|func F() {}\n"
	if code != 0 || stdout != want {
		t.Errorf("exit %d\nstdout %q\nwant   %q\nstderr %s", code, stdout, want, stderr)
	}
	for _, args := range [][]string{{"read", "f.go"}, {"read", "--hashlines"}, {"read", "--hashlines", "a", "b"}, {"read", "--bogus", "f.go"}} {
		if code, _, stderr := runCLI(t, root, args...); code != 2 || !strings.Contains(stderr, "read:") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
	if code, _, stderr := runCLI(t, root, "read", "--hashlines", "missing.go"); code != 1 ||
		!strings.HasPrefix(stderr, "[ERROR] missing.go: missing.go does not exist (kind: missing-file)\nPaths are relative to the root ") {
		t.Errorf("missing file: exit %d, stderr %q", code, stderr)
	}
}

// read reads only what a patch could edit: the root's files, by a path
// relative to the root or absolute inside it. An escape is refused as
// the MCP read tool refuses it (TestPathEscapes there compares the words).
func TestReadStaysInTheRoot(t *testing.T) {
	base := t.TempDir()
	base, _ = filepath.EvalSymlinks(base)
	root, other := filepath.Join(base, "root"), filepath.Join(base, "other")
	os.MkdirAll(filepath.Join(root, "src"), 0o755)
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(root, "src", "a.txt"), []byte("in\n"), 0o644)
	os.WriteFile(filepath.Join(other, "README.md"), []byte("secret\n"), 0o644)
	if err := os.Symlink(other, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	inside := "1:" + core.HashLine("in") + "|in\n"
	for _, tc := range []struct{ dir, name, root string }{
		{root, "src/a.txt", ""},
		{root, filepath.Join(root, "src", "a.txt"), ""},
		{filepath.Join(root, "src"), "src/a.txt", root},
		{base, "src/a.txt", "root"},
	} {
		args := []string{"read", "--hashlines", tc.name}
		if tc.root != "" {
			args = append(args, "--root", tc.root)
		}
		if code, stdout, stderr := runCLI(t, tc.dir, args...); code != 0 || stdout != inside {
			t.Errorf("%v in %s: exit %d, stdout %q, stderr %q", args, tc.dir, code, stdout, stderr)
		}
	}
	for name, why := range map[string]string{
		"../other/README.md":              `the path "../other/README.md" leaves the workspace root through ".."`,
		filepath.Join(other, "README.md"): fmt.Sprintf("the absolute path %q is outside the workspace root %s", filepath.Join(other, "README.md"), root),
		"link/README.md":                  "link/README.md resolves to " + filepath.Join(other, "README.md") + ", outside the workspace " + root,
		"src/../../other/README.md":       `the path "src/../../other/README.md" leaves the workspace root through ".."`,
	} {
		code, stdout, stderr := runCLI(t, root, "read", "--hashlines", name)
		want := "[ERROR] " + name + ": " + why
		if code != 1 || stdout != "" || !strings.HasPrefix(stderr, want) || !strings.HasSuffix(stderr, " (kind: outside-root)\n") {
			t.Errorf("read %s: exit %d, stdout %q\nstderr %q\nwant   %q… (kind: outside-root)", name, code, stdout, stderr, want)
		}
	}
}

// The hashes read prints are the ones a hashline block is checked against:
// a block written from read's output applies.
func TestReadThenApplyHashline(t *testing.T) {
	root := workspace(t, map[string]string{"f.txt": "one\ntwo\nthree\n"})
	_, out, _ := runCLI(t, root, "read", "--hashlines", "f.txt")
	lines := strings.Split(out, "\n")
	patch := writePatch(t, "f.txt\n<<<<<<< SEARCH\n"+lines[1]+"\n=======\nTWO\n>>>>>>> REPLACE\n")
	if code, _, stderr := runCLI(t, root, patch); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := readFile(t, root+"/f.txt"); got != "one\nTWO\nthree\n" {
		t.Errorf("got %q", got)
	}
}

func TestFormatFlag(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	patch := writePatch(t, "*** Begin Patch\n*** Update File: a.txt\n-a\n+b\n*** End Patch\n")
	code, _, stderr := runCLI(t, root, "--format", "udiff", patch)
	if code != 1 || !strings.Contains(stderr, "read as udiff (forced by --format udiff)") {
		t.Errorf("forced udiff: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runCLI(t, root, "--format", "apply-patch", patch); code != 0 {
		t.Errorf("apply-patch: exit %d, stderr %q", code, stderr)
	}
}

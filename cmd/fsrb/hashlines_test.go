package main

import (
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
	if code, _, stderr := runCLI(t, root, "read", "--hashlines", "missing.go"); code != 1 || !strings.Contains(stderr, "does not exist") {
		t.Errorf("missing file: exit %d, stderr %q", code, stderr)
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

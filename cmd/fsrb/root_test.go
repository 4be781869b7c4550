package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fsrb/fsrb/internal/testenv"
)

// Run from a subfolder of a git repository, fsrb takes the repository's
// top as the root, as git and the editors do: a model's paths are from
// the top. --root overrides it; a missing path's error names the root
// used and where it came from.
func TestRootFromSubfolder(t *testing.T) {
	base, repo := testenv.GitRepo(t, map[string]string{"src/x.py": "a = 1\n"})
	src := filepath.Join(repo, "src")

	patch := writePatch(t, "src/x.py\n<<<<<<< SEARCH\na = 1\n=======\na = 2\n>>>>>>> REPLACE\n")
	if code, stdout, stderr := runCLI(t, src, patch); code != 0 || readFile(t, filepath.Join(src, "x.py")) != "a = 2\n" {
		t.Fatalf("from src/: exit %d\n%s%s", code, stdout, stderr)
	}
	if code, stdout, stderr := runCLI(t, src, "read", "--hashlines", "src/x.py"); code != 0 || !strings.HasSuffix(stdout, "|a = 2\n") {
		t.Errorf("read from src/: exit %d\n%s%s", code, stdout, stderr)
	}

	// --root . is the subfolder itself.
	patch = writePatch(t, "x.py\n<<<<<<< SEARCH\na = 2\n=======\na = 3\n>>>>>>> REPLACE\n")
	if code, stdout, stderr := runCLI(t, src, "--root", ".", patch); code != 0 || readFile(t, filepath.Join(src, "x.py")) != "a = 3\n" {
		t.Fatalf("--root . from src/: exit %d\n%s%s", code, stdout, stderr)
	}

	// Without it, x.py is at the top, where it is not: the error says
	// where fsrb looked.
	code, _, stderr := runCLI(t, src, patch)
	want := "Paths are relative to the root " + repo + " (the top of the git repository around the working directory; --root DIR changes it).\n"
	if code != exitFail || !strings.Contains(stderr, "x.py does not exist; did you mean src/x.py?") || !strings.HasSuffix(stderr, want) {
		t.Errorf("a missing path from src/: exit %d, stderr:\n%s", code, stderr)
	}
	code, _, stderr = runCLI(t, src, "read", "--hashlines", "x.py")
	if code != exitFail || !strings.HasSuffix(stderr, want) {
		t.Errorf("read of a missing path from src/: exit %d, stderr:\n%s", code, stderr)
	}

	// Outside any repository, the working directory.
	plain := filepath.Join(base, "plain")
	writeFile(t, plain, "y.py", "b = 1\n")
	patch = writePatch(t, "z.py\n<<<<<<< SEARCH\nb = 1\n=======\nb = 2\n>>>>>>> REPLACE\n")
	code, _, stderr = runCLI(t, plain, patch)
	if code != exitFail || !strings.HasSuffix(stderr, "Paths are relative to the root "+plain+" (the working directory, which is in no git repository; --root DIR changes it).\n") {
		t.Errorf("a missing path outside a repository: exit %d, stderr:\n%s", code, stderr)
	}
}

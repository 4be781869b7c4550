package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// GitRepo makes a git repository for a test of how the root is found: the
// folder base/repo, with a .git folder and files (slash paths to their
// content) in it. base is a new temporary folder, its links resolved so
// that paths compare equal to the ones the code finds. The test is
// skipped when the temporary folder is itself inside a git repository,
// whose top the code would find instead. The check walks the folders up on
// its own rather than calling the code under test, so that a bug there
// cannot turn into a silent skip.
func GitRepo(t testing.TB, files map[string]string) (base, repo string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for dir := base; ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			t.Skipf("the temporary folder is inside the git repository %s: set TMPDIR outside it", dir)
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	repo = filepath.Join(base, "repo")
	write := func(name, data string) {
		p := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".git/HEAD", "ref: refs/heads/main\n")
	for name, data := range files {
		write(name, data)
	}
	return base, repo
}

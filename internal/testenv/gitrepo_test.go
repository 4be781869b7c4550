package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

func TestGitRepo(t *testing.T) {
	base, repo := GitRepo(t, map[string]string{"src/x.py": "a = 1\n"})
	if repo != filepath.Join(base, "repo") {
		t.Errorf("repo %s is not base/repo (base %s)", repo, base)
	}
	for name, want := range map[string]string{".git/HEAD": "ref: refs/heads/main\n", "src/x.py": "a = 1\n"} {
		if data, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(name))); string(data) != want {
			t.Errorf("%s holds %q (%v), want %q", name, data, err, want)
		}
	}

	// With the temporary folder inside that repository, the test is
	// skipped: the code would find that repository's top.
	t.Setenv("TMPDIR", filepath.Join(repo, "src"))
	var inner *testing.T
	t.Run("inside", func(t *testing.T) {
		inner = t
		GitRepo(t, nil)
	})
	if !inner.Skipped() {
		t.Error("GitRepo in a temporary folder inside a git repository did not skip the test")
	}
}

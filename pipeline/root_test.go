package pipeline_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fsrb/fsrb/internal/testenv"
	"github.com/fsrb/fsrb/pipeline"
)

// Without --root, the root is the top of the git repository around the
// working directory (a .git folder, or the .git file of a worktree), else
// the working directory; --root wins over both.
func TestResolveRoot(t *testing.T) {
	base, repo := testenv.GitRepo(t, nil)
	worktree, plain := filepath.Join(base, "wt"), filepath.Join(base, "plain")
	for _, dir := range []string{filepath.Join(repo, "a", "b"), filepath.Join(worktree, "sub"), filepath.Join(plain, "sub")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(worktree, ".git"), []byte("gitdir: /elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		wd, flag, want string
		origin         pipeline.Origin
	}{
		{filepath.Join(repo, "a", "b"), "", repo, pipeline.OriginRepo},
		{repo, "", repo, pipeline.OriginRepo},
		{filepath.Join(worktree, "sub"), "", worktree, pipeline.OriginRepo},
		{filepath.Join(plain, "sub"), "", filepath.Join(plain, "sub"), pipeline.OriginWorkdir},
		{filepath.Join(repo, "a", "b"), ".", filepath.Join(repo, "a", "b"), pipeline.OriginFlag},
		{filepath.Join(repo, "a"), plain, plain, pipeline.OriginFlag},
	} {
		t.Chdir(c.wd)
		got, _, origin, err := pipeline.ResolveRoot(c.flag)
		if err != nil || got != c.want || origin != c.origin {
			t.Errorf("in %s, --root %q: %s (%s), %v; want %s (%s)", c.wd, c.flag, got, origin, err, c.want, c.origin)
		}
	}
}

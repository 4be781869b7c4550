package mcp_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fsrb/fsrb/internal/testenv"
)

// Started in a subfolder of a git repository with no --root and no
// client roots, the server's root is the repository's top, as the CLI's
// and the editors' are; a missing path's answer names it.
func TestRootFromSubfolder(t *testing.T) {
	_, repo := testenv.GitRepo(t, map[string]string{"src/x.py": "a = 1\n"})
	sub := filepath.Join(repo, "src")
	s := start(t, startOpt{dir: sub})
	if r := s.call("edit", map[string]any{"path": "src/x.py", "old_string": "a = 1", "new_string": "a = 2"}); r.isError {
		t.Fatalf("edit of src/x.py from src/: %+v", r)
	}
	if got := s.read("x.py"); got != "a = 2\n" {
		t.Errorf("src/x.py holds %q", got)
	}
	want := "Paths are relative to the root " + repo + " (the top of the git repository around the working directory; --root DIR changes it)."
	if r := s.call("apply", map[string]any{"patch": "x.py\n<<<<<<< SEARCH\na = 2\n=======\na = 3\n>>>>>>> REPLACE\n"}); !r.isError || !strings.Contains(r.text, want) {
		t.Errorf("a missing path: %+v", r)
	}
	if r := s.call("read", map[string]any{"path": "x.py"}); !r.isError || !strings.Contains(r.text, want) {
		t.Errorf("read of a missing path: %+v", r)
	}
}

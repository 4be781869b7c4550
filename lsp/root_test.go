package lsp_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/fsrb/fsrb/internal/testenv"
)

// A client that sends no workspace folder gets the root of the CLI and
// the MCP server: the top of the git repository around the server's
// working directory, here a subfolder. A block on src/x.py, a path from
// the top, is found.
func TestRootWithoutFolder(t *testing.T) {
	_, repo := testenv.GitRepo(t, map[string]string{"src/x.py": "a = 1\n"})
	t.Chdir(filepath.Join(repo, "src"))
	c := startClient(t, repo)
	params := map[string]any{"processId": nil, "capabilities": json.RawMessage(bareCaps)}
	if err := c.call(protocol.MethodInitialize, params, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.notify(protocol.MethodInitialized, map[string]any{}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"src/x.py": false, "x.py": true} {
		patch := name + "\n<<<<<<< SEARCH\na = 1\n=======\na = 2\n>>>>>>> REPLACE\n"
		u := c.open("src/"+strings.ReplaceAll(name, "/", "_")+".fsrb", &patch)
		missing := false
		for _, d := range c.waitDiagnostics(u, 1) {
			missing = missing || strings.Contains(messageOf(d), "does not exist")
		}
		if missing != want {
			t.Errorf("a block on %s: missing %v, want %v (diagnostics %v)", name, missing, want, c.latest(u))
		}
	}
}

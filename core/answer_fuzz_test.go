package core

import (
	"strings"
	"testing"
)

// FuzzSnippet resolves arbitrary snippets against arbitrary files, with
// and without an outline: never a panic, and a snippet that applies
// stands applied on the file it wrote (never written twice).
func FuzzSnippet(f *testing.F) {
	f.Add(pyFile, "def one():\n    x = 10\n    # ... existing code ...\n", "a.py")
	f.Add(pyFile, "# ... existing code ...\ndef stop(self):\n    return False\n# ... existing code ...\n", "a.py")
	f.Add("alpha\nbeta\ngamma\n", "// ... existing code ...\nbeta\nnew\ngamma\n", "n.txt")
	f.Add(pyFile, "class Server:\n    # ... existing code ...\n    def go(self):\n        pass\n", "a.py")
	f.Fuzz(func(t *testing.T, file, code, path string) {
		if !strings.HasSuffix(path, ".py") {
			path = "n.txt"
		}
		b := snippetBlock(path, code)
		if strings.TrimSpace(b.Replace) == "" {
			return
		}
		plan := runSnippet(t, MapFS{path: file}, b)
		if !plan.OK() || plan.Blocks[0].Status != StatusApplies {
			return
		}
		after := content(plan, path)
		again := runSnippet(t, MapFS{path: after}, snippetBlock(path, code))
		if again.OK() && again.Blocks[0].Status == StatusApplies && content(again, path) != after {
			t.Errorf("applied twice:\nfile:\n%s\nblock:\n%s\nonce:\n%s\ntwice:\n%s", file, code, after, content(again, path))
		}
	})
}

package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/pipeline"
)

// A chat snippet is placed by rule, not by the fuzzy ladder: its lens
// names its shape ("applies at app.py:5 (lazy)"), never "fuzzy".
func TestStatusOfSnippet(t *testing.T) {
	root := t.TempDir()
	const file = "import os\n\n\ndef greet(name):\n    return 'Hello, ' + name\n\n\ndef main():\n    print(greet('Ada'))\n"
	if err := os.WriteFile(filepath.Join(root, "app.py"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := newView(root)
	if err != nil {
		t.Fatal(err)
	}
	s := emptySnapshot(nil, newPriorPlans(), newSeenFiles())
	s.view = v
	patch := &core.Patch{Blocks: []core.Block{{
		Number: 1, Path: "app.py", Op: core.OpSnippet, Dialect: core.DialectChat, Lang: "python",
		Replace:   "# ...existing code...\n\n\ndef greet(name):\n    name = name.strip()\n    return 'Hello, ' + name\n\n\n# ...existing code...\n",
		Omissions: []int{0, 8},
	}}}
	a := &analysis{patch: patch, plan: pipeline.Validate(patch, s, s.check())}
	res, _ := a.result(1)
	if res.Status != core.StatusApplies || res.Shape != core.ShapeLazy {
		t.Fatalf("the lazy block: %s, shape %q (%v), want it to apply as lazy", res.Status, res.Shape, a.plan.Problems)
	}
	got := a.status(1)
	if !strings.HasPrefix(got, "applies at app.py:") || !strings.HasSuffix(got, " (lazy)") || strings.Contains(got, "fuzzy") {
		t.Errorf("its status: %q, want \"applies at app.py:N (lazy)\"", got)
	}
}

package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/uri"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/pipeline"
)

// Two CopilotChat ranges of one file, the first growing it by a line: read
// on the file as the answer first saw it, both land where the model meant
// them, the answer then stands applied (a second Apply writes nothing),
// and its revert gives the file back. Read on the file as it is after the
// Apply (the command line's rule), the first range would apply again, on
// lines it already rewrote.
func TestRangesAsSeen(t *testing.T) {
	root := t.TempDir()
	const before = "import math\n\n\ndef area(r):\n    # the area of a circle\n    return 3.14 * r * r\n\n\ndef circumference(r):\n    # its perimeter\n    return 2 * 3.14 * r\n"
	const after = "import math\n\n\ndef area(r):\n    \"\"\"The area.\"\"\"\n    r = float(r)\n    return math.pi * r * r\n\n\ndef circumference(r):\n    return 2 * math.pi * r\n"
	write := func(text string) {
		if err := os.WriteFile(filepath.Join(root, "x.py"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(before)
	v, err := newView(root)
	if err != nil {
		t.Fatal(err)
	}
	seen := newSeenFiles()
	snap := func() *snapshot {
		s := emptySnapshot(nil, newPriorPlans(), seen)
		s.view = v
		return s
	}
	answer := func() *core.Patch {
		return &core.Patch{Blocks: []core.Block{
			{Number: 1, Path: "x.py", Op: core.OpSnippet, Dialect: core.DialectChat, Lang: "python", FromLine: 4, ToLine: 6,
				Replace: "def area(r):\n    \"\"\"The area.\"\"\"\n    r = float(r)\n    return math.pi * r * r"},
			{Number: 2, Path: "x.py", Op: core.OpSnippet, Dialect: core.DialectChat, Lang: "python", FromLine: 9, ToLine: 11,
				Replace: "def circumference(r):\n    return 2 * math.pi * r\n"},
		}}
	}
	const u = uri.URI("file:///answer.md")
	validate := func(s *snapshot, p *core.Patch) *core.Plan {
		return pipeline.Validate(p, s, s.check())
	}

	s := snap()
	p := answer()
	s.rangesAsSeen(u, p)
	plan := validate(s, p)
	if !plan.OK() || len(plan.Files) != 1 || string(plan.Files[0].Bytes()) != after {
		t.Fatalf("the answer on the file it was written for: ok %v, problems %v, files %d", plan.OK(), plan.Problems, len(plan.Files))
	}
	write(after)

	s = snap()
	p = answer()
	s.rangesAsSeen(u, p)
	plan = validate(s, p)
	if plan.AppliedCount() != 2 || len(plan.Files) != 0 {
		t.Errorf("once applied: %d of 2 blocks applied, %d files to write (%v), want 2 and none", plan.AppliedCount(), len(plan.Files), plan.Problems)
	}
	inv := snap().revertPlan(&analysis{patch: p, plan: plan}, 1, 2)
	if !inv.OK() || len(inv.Files) != 1 || string(inv.Files[0].Bytes()) != before {
		t.Errorf("its revert: ok %v, problems %v", inv.OK(), inv.Problems)
	}

	// Without the memory, the first range reads lines 4-6 of the new file.
	s = snap()
	s.seen = nil
	p = answer()
	s.rangesAsSeen(u, p)
	plan = validate(s, p)
	if plan.AppliedCount() == 2 && len(plan.Files) == 0 {
		t.Errorf("read on the file as it is, the applied answer stands applied: the check above proves nothing")
	}

	// The document closed, a new answer starts from the file as it is.
	seen.forget(u)
	s = snap()
	p = answer()
	s.rangesAsSeen(u, p)
	if !strings.HasPrefix(p.Blocks[0].Search, "def area(r):\n    \"\"\"The area.\"\"\"\n    r = float(r)\n") {
		t.Errorf("after forget: SEARCH %q, want lines 4-6 of the file as it is now", p.Blocks[0].Search)
	}
}

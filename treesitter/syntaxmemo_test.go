package treesitter

import (
	"testing"

	"github.com/fsrb/fsrb/core"
)

// A whole-file session checks a file's change once: a revalidation that
// takes the file over finds the same errors without checking it again,
// and a change to its block is checked afresh. A one-shot cache keeps
// nothing.
func TestSyntaxCheckedOncePerChange(t *testing.T) {
	fsys := core.MapFS{"a.py": "def f():\n    return 1\n", "b.py": "x = 1\n"}
	patch := func(b string) *core.Patch {
		return core.Parse("a.py\n<<<<<<< SEARCH\n    return 1\n=======\n    return (1\n>>>>>>> REPLACE\n"+
			"b.py\n<<<<<<< SEARCH\nx = 1\n=======\n"+b+">>>>>>> REPLACE\n", core.ParseOptions{})
	}
	c := NewCache(8)
	c.WholeFiles = true
	first := core.Revalidate(nil, patch("x = 2\n"), fsys, core.Options{})
	if got := c.SyntaxProblems(first); len(got) != 1 || got[0].Path != "a.py" {
		t.Fatalf("first check: %v", got)
	}
	again := core.Revalidate(first, patch("x = (2\n"), fsys, core.Options{})
	a, b := again.Files[0], again.Files[1]
	if _, ok := c.knownSyntaxErrors(&a); !ok {
		t.Error("a.py, taken over, is not known")
	}
	if _, ok := c.knownSyntaxErrors(&b); ok {
		t.Error("b.py's new change is known")
	}
	if got := c.SyntaxProblems(again); len(got) != 2 || got[0].Path != "a.py" || got[1].Path != "b.py" {
		t.Fatalf("second check: %v", got)
	}

	once := NewCache(8)
	once.SyntaxProblems(first)
	if _, ok := once.knownSyntaxErrors(&first.Files[0]); ok {
		t.Error("a one-shot cache kept a check")
	}
}

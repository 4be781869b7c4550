package core

import (
	"maps"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fsrb/fsrb/internal/casefile"
)

// roundTrip applies text to files, then reverts it, and returns the files
// after each step and the revert's plan.
func roundTrip(t *testing.T, text string, files MapFS, popt ParseOptions, opt Options) (applied MapFS, reverted MapFS, rev *Plan) {
	t.Helper()
	patch := Parse(text, popt)
	plan := Validate(patch, files, opt)
	if !plan.OK() {
		t.Fatalf("the patch does not apply: %v", plan.Problems)
	}
	applied = maps.Clone(files)
	applied.Apply(plan)
	rev = Revert(patch, applied, opt)
	reverted = maps.Clone(applied)
	if rev.OK() {
		reverted.Apply(rev)
	}
	return applied, reverted, rev
}

func TestInvertOrderAndNumbers(t *testing.T) {
	text := "a.py\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n" +
		"a.py\n<<<<<<< SEARCH\ny\n=======\nz\n>>>>>>> REPLACE\n" +
		"n.py\n<<<<<<< SEARCH\n=======\nnew\n>>>>>>> REPLACE\n"
	p := Parse(text, ParseOptions{})
	inv := Invert(p)
	var got []string
	for _, b := range inv.Blocks {
		got = append(got, itoa(b.Number)+" "+string(b.Op)+" "+string(b.Inverts)+" "+b.Search+"->"+b.Replace)
	}
	want := []string{
		"3 delete-file create new\n->",
		"2 modify modify z\n->y\n",
		"1 modify modify y\n->x\n",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("inverse blocks (-want +got):\n%s", diff)
	}
	for _, b := range inv.Blocks {
		if b.Span != p.Block(b.Number).Span {
			t.Errorf("block #%d: span %v, want the original's %v", b.Number, b.Span, p.Block(b.Number).Span)
		}
	}
	if inv.Block(2).Search != "z\n" {
		t.Errorf("Block(2) finds %+v", inv.Block(2))
	}
}

// Modify (CRLF and BOM kept), create, and delete by emptying: every byte
// comes back.
func TestRevertRoundTrip(t *testing.T) {
	text := "win.txt\n<<<<<<< SEARCH\ntwo\n=======\nTWO\n2.5\n>>>>>>> REPLACE\n" +
		"docs/new.md\n<<<<<<< SEARCH\n=======\n# New\n>>>>>>> REPLACE\n" +
		"old.txt\n<<<<<<< SEARCH\nonly\nlines\n=======\n>>>>>>> REPLACE\n" +
		"bom.txt\n<<<<<<< SEARCH\nfirst\n=======\npremier\n>>>>>>> REPLACE\n"
	files := MapFS{
		"win.txt": "one\r\ntwo\r\nthree\r\n",
		"old.txt": "only\nlines\n",
		"bom.txt": "\uFEFFfirst\nsecond",
	}
	applied, reverted, rev := roundTrip(t, text, files, ParseOptions{}, Options{Root: "/root"})
	if _, ok := applied["old.txt"]; ok || applied["docs/new.md"] != "# New\n" {
		t.Fatalf("applied = %q", applied)
	}
	if !rev.OK() {
		t.Fatalf("revert: %v", rev.Problems)
	}
	if diff := cmp.Diff(files, reverted); diff != "" {
		t.Errorf("after revert (-want +got):\n%s", diff)
	}
	if rev.BlockCount() != 4 {
		t.Errorf("BlockCount = %d, want 4", rev.BlockCount())
	}
}

// An append and a block that edits what the block before it wrote: the
// last block is undone first.
func TestRevertChained(t *testing.T) {
	text := "a.py\n<<<<<<< SEARCH\nb = 2\n=======\nb = 2\nc = 3\n>>>>>>> REPLACE\n" +
		"a.py\n<<<<<<< SEARCH\nc = 3\n=======\nc = 4\n>>>>>>> REPLACE\n"
	files := MapFS{"a.py": "a = 1\nb = 2\n"}
	_, reverted, rev := roundTrip(t, text, files, ParseOptions{}, Options{Root: "/root"})
	if !rev.OK() || reverted["a.py"] != files["a.py"] {
		t.Errorf("revert: %v; a.py = %q", rev.Problems, reverted["a.py"])
	}
}

func TestRevertApplyPatch(t *testing.T) {
	text := "*** Begin Patch\n" +
		"*** Update File: src/app.py\n@@ def f():\n-    return 1\n+    return 2\n@@ def g():\n-    return 1\n+    return 3\n" +
		"*** Add File: src/new.py\n+print('new')\n" +
		"*** Update File: src/tail.py\n@@\n+appended\n" +
		"*** End Patch\n"
	files := MapFS{
		"src/app.py":  "def f():\n    return 1\n\ndef g():\n    return 1\n",
		"src/tail.py": "x\nappended\ny\n",
	}
	_, reverted, rev := roundTrip(t, text, files, ParseOptions{}, Options{Root: "/root"})
	if !rev.OK() {
		t.Fatalf("revert: %v", rev.Problems)
	}
	if diff := cmp.Diff(files, reverted); diff != "" {
		t.Errorf("after revert (-want +got):\n%s", diff)
	}
}

func TestRevertMove(t *testing.T) {
	text := "*** Begin Patch\n*** Update File: a.py\n*** Move to: b/c.py\n@@\n-x\n+y\n*** End Patch\n"
	files := MapFS{"a.py": "w\nx\nz\n"}
	applied, reverted, rev := roundTrip(t, text, files, ParseOptions{}, Options{Root: "/root"})
	if applied["b/c.py"] != "w\ny\nz\n" {
		t.Fatalf("applied = %q", applied)
	}
	if !rev.OK() {
		t.Fatalf("revert: %v", rev.Problems)
	}
	if diff := cmp.Diff(files, reverted); diff != "" {
		t.Errorf("after revert (-want +got):\n%s", diff)
	}
}

func TestRevertRefused(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		files      MapFS
		want       string // kind and message of the first error
	}{
		{
			name:  "not applied: SEARCH still there",
			text:  "a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n",
			files: MapFS{"a.py": "x = 1\n"},
			want:  "not-applied block #1 is not applied: its SEARCH text still stands in a.py (line 1)",
		},
		{
			name:  "not applied: neither text there",
			text:  "a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n",
			files: MapFS{"a.py": "other\n"},
			want:  "not-applied block #1 is not applied: its REPLACE text is not in a.py",
		},
		{
			name:  "created file missing",
			text:  "n.py\n<<<<<<< SEARCH\n=======\nnew\n>>>>>>> REPLACE\n",
			files: MapFS{},
			want:  "not-applied block #1 is not applied: n.py, which it creates, does not exist",
		},
		{
			name:  "created file edited since",
			text:  "n.py\n<<<<<<< SEARCH\n=======\nnew\n>>>>>>> REPLACE\n",
			files: MapFS{"n.py": "new\nmore\n"},
			want:  "not-applied block #1 is not applied: n.py no longer holds exactly the content it created",
		},
		{
			name:  "emptied file still there",
			text:  "o.py\n<<<<<<< SEARCH\nall\n=======\n>>>>>>> REPLACE\n",
			files: MapFS{"o.py": "all\n"},
			want:  "not-applied block #1 is not applied: o.py, which it empties, still exists",
		},
		{
			name:  "lines removed from a file that stays",
			text:  "o.py\n<<<<<<< SEARCH\ndebug()\n=======\n>>>>>>> REPLACE\n",
			files: MapFS{"o.py": "a\nb\n"},
			want:  "irreversible block #1 cannot be reverted: it removed lines from o.py, which is still there, and no text is left to find their place by",
		},
		{
			name:  "apply-patch Delete File",
			text:  "*** Begin Patch\n*** Delete File: gone.py\n*** End Patch\n",
			files: MapFS{},
			want:  "irreversible block #1 cannot be reverted: *** Delete File: gone.py does not say what the file held, so it cannot be re-created",
		},
		{
			name:  "REPLACE text in two places",
			text:  "a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n",
			files: MapFS{"a.py": "x = 2\ny\nx = 2\n"},
			want:  "ambiguous block #1 cannot be reverted: its REPLACE text occurs in 2 places of a.py (lines 1, 3), so which one it wrote is unknown",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Parse(tc.text, ParseOptions{})
			plan := Revert(p, tc.files, Options{Root: "/root"})
			errs := plan.Problems.Errors()
			if plan.OK() || len(plan.Files) != 0 && errs == nil {
				t.Fatalf("revert OK, want refused")
			}
			if got := string(errs[0].Kind) + " " + errs[0].Message; got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if errs[0].Block != 1 || errs[0].Span != p.Blocks[0].Span || errs[0].Hint == "" {
				t.Errorf("problem not on block #1's span, or no hint: %+v", errs[0])
			}
		})
	}
}

// The property: every txtar case that applies gives back its files,
// byte for byte, when its inverse is applied to the result; or the revert
// is refused as irreversible. Except where the patch does not hold the
// bytes to give back (docs/cli.md "Reverting a patch"), which lossy() tells
// from the plan that applied it.
func TestInvertRoundTripCases(t *testing.T) {
	cases, err := casefile.Load("../testdata/cases")
	if err != nil {
		t.Fatal(err)
	}
	tried := 0
	for _, c := range cases {
		// MapFS has no symlinks and no outside; --revert cases undo already
		if len(c.Links) > 0 || len(c.Outside) > 0 || c.Has("--revert") {
			continue
		}
		in := MapFS{}
		for name, data := range c.In {
			if !strings.HasSuffix(name, "/") {
				in[name] = casefile.Decode(data)
			}
		}
		t.Run(c.Name, func(t *testing.T) {
			popt := ParseOptions{Format: c.Arg("--format"), Exists: func(n string) bool { _, ok := in[n]; return ok }}
			text := casefile.Decode(c.Patch)
			opt := Options{Root: "/root", Fuzzy: c.Has("--fuzzy")}
			patch := Parse(text, popt)
			plan := Validate(patch, in, opt)
			if !plan.OK() {
				return // only cases that apply
			}
			tried++
			after := maps.Clone(in)
			after.Apply(plan)
			if why := lossy(plan); why != "" {
				t.Skip("not exactly revertible: " + why)
			}
			rev := Revert(patch, after, opt)
			if !rev.OK() {
				for _, p := range rev.Problems.Errors() {
					if p.Kind != KindIrreversible {
						t.Fatalf("revert refused, not as irreversible: %s #%d %s: %s", p.Kind, p.Block, p.Path, p.Message)
					}
				}
				return
			}
			back := maps.Clone(after)
			back.Apply(rev)
			if diff := cmp.Diff(in, back); diff != "" {
				t.Errorf("after apply and revert (-before +after):\n%s", diff)
			}
		})
	}
	if tried < 40 {
		t.Errorf("only %d cases applied; the property needs them", tried)
	}
}

// lossy says why a plan's change cannot be undone byte for byte from the
// patch alone: a fuzzy rung matched text other than SEARCH; a file was
// overwritten; a deleted file held bytes its SEARCH text does not (a BOM,
// CRLF, no final newline); a create filled an existing empty file.
func lossy(plan *Plan) string {
	for _, r := range plan.Blocks {
		switch r.Rung {
		case "exact", "create", "delete", "move", "hashline":
		default:
			return "block #" + itoa(r.Block) + " matched by the fuzzy rung " + r.Rung
		}
	}
	for _, p := range plan.Problems {
		if p.Kind == KindOverwrite {
			return "block #" + itoa(p.Block) + " overwrites a file"
		}
	}
	for _, f := range plan.Files {
		old := string(f.Old)
		switch {
		case f.Action == ActionDelete && (strings.HasPrefix(old, "\uFEFF") || strings.Contains(old, "\r") || !strings.HasSuffix(old, "\n")):
			return f.Display + " is deleted, and held a BOM, CRLF or no final newline"
		case f.Existed && strings.TrimPrefix(old, "\uFEFF") == "":
			return f.Display + " existed, empty, before it was created"
		}
	}
	return ""
}

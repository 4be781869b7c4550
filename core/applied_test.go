package core

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// appliedRun validates text against files with Options.Applied.
func appliedRun(t *testing.T, text string, files MapFS, applied bool) *Plan {
	t.Helper()
	return Validate(Parse(text, ParseOptions{}), files, Options{Root: "/root", Applied: applied})
}

func TestAppliedStates(t *testing.T) {
	for _, tc := range []struct {
		name      string
		patch     string
		files     MapFS
		status    Status
		line, end int
		message   string // of the info note, when applied
	}{
		{
			name:   "search gone, replace there",
			patch:  "app.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\ny = 3\n>>>>>>> REPLACE\n",
			files:  MapFS{"app.py": "a\nx = 2\ny = 3\nz\n"},
			status: StatusApplied, line: 2, end: 3,
			message: "block #1 is applied: its REPLACE text stands at app.py:2-3",
		},
		{
			name:   "append applied: SEARCH only inside REPLACE",
			patch:  "app.py\n<<<<<<< SEARCH\nb = 2\n=======\nb = 2\nc = 3\n>>>>>>> REPLACE\n",
			files:  MapFS{"app.py": "a = 1\nb = 2\nc = 3\n"},
			status: StatusApplied, line: 2, end: 3,
			message: "block #1 is applied: its REPLACE text stands at app.py:2-3",
		},
		{
			name:   "append not yet applied",
			patch:  "app.py\n<<<<<<< SEARCH\nb = 2\n=======\nb = 2\nc = 3\n>>>>>>> REPLACE\n",
			files:  MapFS{"app.py": "a = 1\nb = 2\n"},
			status: StatusApplies, line: 2, end: 2,
		},
		{
			name:   "SEARCH also outside REPLACE: normal matching (ambiguous)",
			patch:  "app.py\n<<<<<<< SEARCH\nb = 2\n=======\nb = 2\nc = 3\n>>>>>>> REPLACE\n",
			files:  MapFS{"app.py": "b = 2\nc = 3\nb = 2\n"},
			status: StatusFailed,
		},
		{
			name:   "prepend applied",
			patch:  "app.py\n<<<<<<< SEARCH\nmain()\n=======\nsetup()\nmain()\n>>>>>>> REPLACE\n",
			files:  MapFS{"app.py": "import x\nsetup()\nmain()\n"},
			status: StatusApplied, line: 2, end: 3,
			message: "block #1 is applied: its REPLACE text stands at app.py:2-3",
		},
		{
			name:   "no-op block is never applied",
			patch:  "app.py\n<<<<<<< SEARCH\nx\n=======\nx\n>>>>>>> REPLACE\n",
			files:  MapFS{"app.py": "x\n"},
			status: StatusApplies, line: 1, end: 1,
		},
		{
			name:   "create applied, CRLF and BOM file",
			patch:  "new.txt\n<<<<<<< SEARCH\n=======\none\ntwo\n>>>>>>> REPLACE\n",
			files:  MapFS{"new.txt": "\uFEFFone\r\ntwo\r\n"},
			status: StatusApplied, line: 1, end: 2,
			message: "block #1 is applied: new.txt holds exactly its content (new.txt:1-2)",
		},
		{
			name:   "create on a file with other content: file-exists",
			patch:  "new.txt\n<<<<<<< SEARCH\n=======\none\n>>>>>>> REPLACE\n",
			files:  MapFS{"new.txt": "one\ntwo\n"},
			status: StatusFailed,
		},
		{
			name:    "delete by emptying, file gone",
			patch:   "old.txt\n<<<<<<< SEARCH\nall\n=======\n>>>>>>> REPLACE\n",
			files:   MapFS{},
			status:  StatusApplied,
			message: "block #1 is applied: old.txt is gone",
		},
		{
			name:    "apply-patch Delete File, file gone",
			patch:   "*** Begin Patch\n*** Delete File: old.txt\n*** End Patch\n",
			files:   MapFS{},
			status:  StatusApplied,
			message: "*** Delete File: old.txt (patch line 2) is applied: old.txt is gone",
		},
		{
			name:   "apply-patch Add File applied",
			patch:  "*** Begin Patch\n*** Add File: n.txt\n+a\n+b\n*** End Patch\n",
			files:  MapFS{"n.txt": "a\nb\n"},
			status: StatusApplied, line: 1, end: 2,
			message: "*** Add File: n.txt (patch line 2) is applied: n.txt holds exactly its content (n.txt:1-2)",
		},
		{
			name:   "udiff hunk applied",
			patch:  "--- a/m.go\n+++ b/m.go\n@@ -1,2 +1,3 @@\n a\n+b\n c\n",
			files:  MapFS{"m.go": "a\nb\nc\n"},
			status: StatusApplied, line: 1, end: 3,
			message: "udiff hunk 1 of m.go (patch line 3) is applied: its + lines stand at m.go:1-3",
		},
		{
			name:   "hashline block applied: hashes ignored",
			patch:  "h.txt\n<<<<<<< SEARCH\n1:" + HashLine("old") + "|old\n=======\nnew\n>>>>>>> REPLACE\n",
			files:  MapFS{"h.txt": "new\n"},
			status: StatusApplied, line: 1, end: 1,
			message: "block #1 is applied: its REPLACE text stands at h.txt:1",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan := appliedRun(t, tc.patch, tc.files, true)
			r := plan.Blocks[0]
			if r.Status != tc.status || r.Line != tc.line || r.EndLine != tc.end {
				t.Fatalf("block = %+v, want %s lines %d-%d\n%v", r, tc.status, tc.line, tc.end, plan.Problems)
			}
			if tc.status != StatusApplied {
				if plan.AppliedCount() != 0 {
					t.Errorf("AppliedCount = %d, want 0", plan.AppliedCount())
				}
				return
			}
			if !plan.OK() || len(plan.Files) != 0 || plan.BlockCount() != 0 || plan.AppliedCount() != 1 {
				t.Errorf("OK %v, files %d, BlockCount %d, AppliedCount %d; want true, 0, 0, 1",
					plan.OK(), len(plan.Files), plan.BlockCount(), plan.AppliedCount())
			}
			if len(plan.Problems) != 1 {
				t.Fatalf("problems = %v, want one note", plan.Problems)
			}
			p := plan.Problems[0]
			if p.Kind != KindAlreadyApplied || p.Severity != SeverityInfo || p.Message != tc.message || p.Line != tc.line || p.Block != 1 {
				t.Errorf("note = %s %s line %d %q, want info already-applied line %d %q", p.Severity, p.Kind, p.Line, p.Message, tc.line, tc.message)
			}

			// The CLI (no Options.Applied): the same block is an error.
			cli := appliedRun(t, tc.patch, tc.files, false)
			wantKind := KindAlreadyApplied
			if strings.Contains(tc.name, "emptying") {
				wantKind = KindMissingFile // the CLI keeps its message for a missing file
			}
			if cli.OK() || len(cli.Files) != 0 || cli.Problems[0].Kind != wantKind || cli.Problems[0].Severity != SeverityError {
				t.Errorf("without Options.Applied: OK %v, files %d, problems %v; want an %s error", cli.OK(), len(cli.Files), cli.Problems, wantKind)
			}
		})
	}
}

// A partly applied patch: block 1 is in, block 2 is ready; the plan writes
// block 2's change only, on the file as it stands.
func TestAppliedPartly(t *testing.T) {
	patch := "app.py\n<<<<<<< SEARCH\nb = 2\n=======\nb = 2\nc = 3\n>>>>>>> REPLACE\n" +
		"app.py\n<<<<<<< SEARCH\nz = 9\n=======\nz = 10\n>>>>>>> REPLACE\n"
	files := MapFS{"app.py": "a = 1\nb = 2\nc = 3\nz = 9\n"}
	plan := appliedRun(t, patch, files, true)
	if !plan.OK() {
		t.Fatalf("not OK: %v", plan.Problems)
	}
	got := []Status{plan.Blocks[0].Status, plan.Blocks[1].Status}
	if diff := cmp.Diff([]Status{StatusApplied, StatusApplies}, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	if plan.Blocks[1].Line != 4 || plan.BlockCount() != 1 || plan.AppliedCount() != 1 {
		t.Errorf("block 2 at line %d, BlockCount %d, AppliedCount %d; want 4, 1, 1", plan.Blocks[1].Line, plan.BlockCount(), plan.AppliedCount())
	}
	if len(plan.Files) != 1 || string(plan.Files[0].Bytes()) != "a = 1\nb = 2\nc = 3\nz = 10\n" || !cmp.Equal(plan.Files[0].Blocks, []int{2}) {
		t.Errorf("files = %+v, want app.py with block 2's change only", plan.Files)
	}
}

// A patch run twice: the second run is refused and writes nothing, for the
// append that used to validate twice and for a create.
func TestAppliedTwice(t *testing.T) {
	for _, patch := range []string{
		"app.py\n<<<<<<< SEARCH\nb = 2\n=======\nb = 2\nc = 3\n>>>>>>> REPLACE\n",
		"new.py\n<<<<<<< SEARCH\n=======\nprint(1)\n>>>>>>> REPLACE\n",
		"*** Begin Patch\n*** Update File: app.py\n@@\n+tail\n*** End Patch\n",
	} {
		files := MapFS{"app.py": "a = 1\nb = 2\n"}
		first := appliedRun(t, patch, files, false)
		if !first.OK() {
			t.Fatalf("first run: %v", first.Problems)
		}
		files.Apply(first)
		second := appliedRun(t, patch, files, false)
		if second.OK() || len(second.Files) != 0 || second.Problems[0].Kind != KindAlreadyApplied {
			t.Errorf("second run of %q: OK %v, problems %v; want an already-applied error", patch, second.OK(), second.Problems)
		}
		if ed := appliedRun(t, patch, files, true); ed.AppliedCount() != 1 || !ed.OK() {
			t.Errorf("editor view of %q after one run: %v", patch, ed.Problems)
		}
	}
}

// Fuzzy rungs never declare a block applied: REPLACE must stand exactly.
func TestAppliedStrictOnly(t *testing.T) {
	patch := "app.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n"
	files := MapFS{"app.py": "def f():\n    x = 2\n"}
	plan := Validate(Parse(patch, ParseOptions{}), files, Options{Root: "/root", Applied: true, Fuzzy: true})
	if plan.Blocks[0].Status == StatusApplied || plan.AppliedCount() != 0 {
		t.Errorf("an indented REPLACE counted as applied: %+v", plan.Blocks[0])
	}
}

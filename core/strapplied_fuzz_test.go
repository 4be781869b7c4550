package core

import (
	"strings"
	"testing"
)

// FuzzStrEditTwice holds the applied rule of str_replace edits (agents'
// edit calls, the MCP edit tools): an edit that applied once is refused
// the second time, nothing written, with an already-applied problem when
// its new text keeps its old text.
func FuzzStrEditTwice(f *testing.F) {
	f.Add("a = 1\nb = 2\n", "b = 2", "b = 20", false)
	f.Add("import os\n\nrun()\n", "import os\n", "import os\nimport re\n", false)
	f.Add("hello old world old", "old", "old-new", true)
	f.Add("x x x", "x", "y", true)
	f.Fuzz(func(t *testing.T, content, old, repl string, all bool) {
		if strings.ContainsAny(content+old+repl, "\x00\r") || old == "" || old == repl {
			return // binary files are refused; CRLF is its own test; creates are not edits
		}
		fsys := MapFS{"f.txt": content}
		patch := StrEditPatch([]StrEdit{{Path: "f.txt", Old: old, New: repl, ReplaceAll: all}})
		plan := Validate(patch, fsys, Options{Root: "/w"})
		if !plan.OK() {
			return
		}
		fsys.Apply(plan)
		once := fsys["f.txt"]
		again := Validate(StrEditPatch([]StrEdit{{Path: "f.txt", Old: old, New: repl, ReplaceAll: all}}), fsys, Options{Root: "/w"})
		if !strings.Contains(repl, old) {
			return // old text gone or elsewhere: the second run is judged by the text left
		}
		if again.OK() {
			fsys.Apply(again)
			t.Fatalf("applied twice: %q -> %q -> %q", content, once, fsys["f.txt"])
		}
		if k := again.Problems[0].Kind; k != KindAlreadyApplied && k != KindAmbiguous {
			t.Fatalf("second run refused as %s, want already-applied: %v", k, again.Problems)
		}
	})
}

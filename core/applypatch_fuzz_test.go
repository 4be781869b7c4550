package core

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseApplyPatch reads any text as the "*** Begin Patch" format and
// checks what every parse must hold: spans lie inside the text and in
// order; blocks are numbered 1..n; a block's path is exactly the text its
// PathSpan covers (its Move to: destination the text of ReplaceMarker);
// and a hunk's SEARCH and REPLACE are what its body lines say, rebuilt here
// independently from the text the body span covers (" " lines go to both,
// "-" lines to SEARCH, "+" lines to REPLACE, empty lines to both). Hunks
// of one section keep their section number, and sections only grow.
//
//	go test ./core -run '^$' -fuzz '^FuzzParseApplyPatch$'
func FuzzParseApplyPatch(f *testing.F) {
	for _, s := range []string{
		"*** Begin Patch\n*** Update File: a.py\n@@ def f():\n-    return 1\n+    return 2\n*** End Patch\n",
		"*** Begin Patch\r\n*** Add File: n.txt\r\n+hi\r\n\r\n+there\r\n*** Delete File: old.txt\r\n*** End Patch",
		"*** Begin Patch\n*** Update File: a\n*** Move to: b/c\n@@\n x\n-y\n+z\n*** End of File\n*** End Patch\n",
		"apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: x\n@@ -3,2 +3,2 @@\n a\n-b\n+c\n\n@@ class A\n@@   def g\n q\nbad line\n+r\n*** End Patch\nEOF\n",
		"*** Update File: no-envelope.txt\n-a\n+b\n",
		"*** Begin Patch\n*** Update File: \n*** Frobnicate: x\n*** End of File\n",
	} {
		f.Add(s)
	}
	// The conformance cases of the repository, where present.
	dirs, _ := filepath.Glob("../testdata/apply-patch/*/patch.txt")
	for _, p := range dirs {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(string(data))
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		p := Parse(text, ParseOptions{Format: FormatApplyPatch})
		if p.Format.Name != FormatApplyPatch {
			t.Fatalf("format %q, want %q", p.Format.Name, FormatApplyPatch)
		}
		in := func(s Span) bool { return 0 <= s.Start && s.Start <= s.End && s.End <= len(text) }
		section := 0
		for i, b := range p.Blocks {
			if b.Number != i+1 {
				t.Fatalf("block %d numbered %d", i, b.Number)
			}
			if b.Dialect != DialectApplyPatch {
				t.Fatalf("block #%d dialect %q", b.Number, b.Dialect)
			}
			for _, s := range []Span{b.Span, b.Header, b.PathSpan, b.SearchMarker, b.SearchBody, b.Divider, b.ReplaceBody, b.ReplaceMarker} {
				if !in(s) {
					t.Fatalf("block #%d span %v outside text of %d bytes", b.Number, s, len(text))
				}
			}
			if b.Path == "" || text[b.PathSpan.Start:b.PathSpan.End] != b.Path {
				t.Fatalf("block #%d path %q, text at its span %q", b.Number, b.Path, text[b.PathSpan.Start:b.PathSpan.End])
			}
			if b.PathSpan.Start < b.Header.Start || b.PathSpan.End > b.Header.End {
				t.Fatalf("block #%d: path span %v outside header %v", b.Number, b.PathSpan, b.Header)
			}
			switch b.Op {
			case OpMove:
				if b.MoveTo == "" || text[b.ReplaceMarker.Start:b.ReplaceMarker.End] != b.MoveTo {
					t.Fatalf("block #%d: Move to %q, text at its span %q", b.Number, b.MoveTo, text[b.ReplaceMarker.Start:b.ReplaceMarker.End])
				}
			case OpModify:
				if b.Section < section {
					t.Fatalf("block #%d: section %d after section %d", b.Number, b.Section, section)
				}
				section = b.Section
				if b.SearchBody.Start < b.Span.Start || b.SearchBody.End > len(text) {
					t.Fatalf("block #%d: body %v outside the hunk %v", b.Number, b.SearchBody, b.Span)
				}
				search, replace := rebuildHunk(text[b.SearchBody.Start:b.SearchBody.End])
				if search != b.Search || replace != b.Replace {
					t.Fatalf("block #%d: body %q\nparsed SEARCH %q REPLACE %q\nrebuilt SEARCH %q REPLACE %q",
						b.Number, text[b.SearchBody.Start:b.SearchBody.End], b.Search, b.Replace, search, replace)
				}
				if b.Search != "" && !strings.HasSuffix(b.Search, "\n") || b.Replace != "" && !strings.HasSuffix(b.Replace, "\n") {
					t.Fatalf("block #%d: texts must be whole lines: %q / %q", b.Number, b.Search, b.Replace)
				}
			case OpCreate:
				if !b.Overwrite {
					t.Fatalf("block #%d: Add File must overwrite (as Codex does)", b.Number)
				}
				if b.Replace != "" && !strings.HasSuffix(b.Replace, "\n") {
					t.Fatalf("block #%d: Add File content %q is not whole lines", b.Number, b.Replace)
				}
			case OpDeleteFile:
			default:
				t.Fatalf("block #%d: op %q in an apply-patch", b.Number, b.Op)
			}
		}
		for _, pr := range p.Problems {
			if !in(pr.Span) {
				t.Fatalf("problem %v span %v outside text", pr, pr.Span)
			}
		}
		if len(p.Blocks) == 0 && !p.Problems.HasErrors() {
			t.Fatal("no block and no error")
		}
	})
}

// rebuildHunk reads the body lines of a hunk the way the format defines
// them, skipping the lines that are not body lines (reported as problems).
func rebuildHunk(body string) (search, replace string) {
	var s, r strings.Builder
	for _, raw := range strings.SplitAfter(body, "\n") {
		if raw == "" {
			continue
		}
		l := strings.TrimSuffix(raw, "\n")
		if strings.HasSuffix(raw, "\n") {
			l = strings.TrimSuffix(l, "\r")
		}
		switch {
		case strings.TrimSpace(l) == "*** End of File":
		case l == "":
			s.WriteString("\n")
			r.WriteString("\n")
		case l[0] == ' ':
			s.WriteString(l[1:] + "\n")
			r.WriteString(l[1:] + "\n")
		case l[0] == '-':
			s.WriteString(l[1:] + "\n")
		case l[0] == '+':
			r.WriteString(l[1:] + "\n")
		}
	}
	return s.String(), r.String()
}

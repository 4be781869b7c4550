package core

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// run parses and validates text against files and returns the new content
// of every changed file ("<deleted>" for a deletion) and the problems as
// "severity #block kind".
func runDialect(t *testing.T, text string, files MapFS, opt ParseOptions) (map[string]string, []string) {
	t.Helper()
	plan := Validate(Parse(text, opt), files, Options{Root: "/root"})
	out := map[string]string{}
	for _, fc := range plan.Files {
		if fc.Action == ActionDelete {
			out[fc.Path] = "<deleted>"
		} else {
			out[fc.Path] = string(fc.Bytes())
		}
	}
	var probs []string
	for _, p := range plan.Problems {
		probs = append(probs, p.Severity.String()+" #"+itoa(p.Block)+" "+string(p.Kind))
	}
	return out, probs
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestDetectFormat(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"*** Begin Patch\n*** End Patch\n", FormatApplyPatch},
		{"prose\n  *** Update File: a\n", FormatApplyPatch},
		{"a.py\n<<<<<<< SEARCH\n*** Begin Patch\n=======\n>>>>>>> REPLACE\n", FormatSearchReplace},
		{"a.ts\n------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n", FormatSearchReplace},
		{"```diff\n--- a/x\n+++ b/x\n@@ @@\n-a\n+b\n```\n", FormatUdiff},
		{"diff --git a/x b/x\n", FormatUdiff},
		{"just prose\n", FormatSearchReplace},
	} {
		if got := Parse(tc.text, ParseOptions{}).Format; got.Name != tc.want || got.Reason == "" {
			t.Errorf("Parse(%q).Format = %+v, want %s", tc.text, got, tc.want)
		}
	}
	if f := Parse("x", ParseOptions{Format: FormatUdiff}).Format; !f.Forced || f.Name != FormatUdiff {
		t.Errorf("forced format: %+v", f)
	}
	if !ValidFormat("") || !ValidFormat("hashline") || ValidFormat("xml") {
		t.Error("ValidFormat")
	}
}

func TestParseApplyPatch(t *testing.T) {
	text := "apply_patch <<'EOF'\n" +
		" *** Begin Patch \n" +
		"*** Update File: a.py\n" +
		"*** Move to: b.py\n" +
		" keep\n" + // first hunk without @@
		"-old\n" +
		"+new\n" +
		"@@ class A:\n" +
		"@@     def f(self):\n" +
		"+    pass\n" +
		"\n" + // trailing empty line: dropped
		"@@ -3,2 +3,2 @@\n" +
		" x\n" +
		"-y\n" +
		"+z\n" +
		"*** End of File\n" +
		"*** Add File: n.txt\n" +
		"+one\n" +
		"\n" +
		"+three\n" +
		"*** Delete File: d.txt\n" +
		"*** End Patch\n" +
		"EOF\n"
	p := Parse(text, ParseOptions{})
	if len(p.Problems) != 0 {
		t.Fatalf("problems: %v", p.Problems)
	}
	type row struct {
		Op              Op
		Path, S, R      string
		Anchors         []string
		EOF             bool
		Hint, Section   int
		MoveTo, Dialect string
	}
	var got []row
	for _, b := range p.Blocks {
		got = append(got, row{b.Op, b.Path, b.Search, b.Replace, b.Anchors, b.EOF, b.HintLine, b.Section, b.MoveTo, string(b.Dialect)})
	}
	want := []row{
		{OpModify, "a.py", "keep\nold\n", "keep\nnew\n", nil, false, 0, 1, "", "apply-patch"},
		{OpModify, "a.py", "", "    pass\n", []string{"class A:", "def f(self):"}, false, 0, 1, "", "apply-patch"},
		{OpModify, "a.py", "x\ny\n", "x\nz\n", nil, true, 3, 1, "", "apply-patch"},
		{OpMove, "a.py", "", "", nil, false, 0, 1, "b.py", "apply-patch"},
		{OpCreate, "n.txt", "", "one\n\nthree\n", nil, false, 0, 0, "", "apply-patch"},
		{OpDeleteFile, "d.txt", "", "", nil, false, 0, 0, "", "apply-patch"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("blocks (-want +got):\n%s", diff)
	}
	if p.Format.Name != FormatApplyPatch {
		t.Errorf("format %+v", p.Format)
	}
	if l := p.Blocks[1].Label; !strings.HasPrefix(l, "hunk 2 of *** Update File: a.py (patch line 8)") {
		t.Errorf("label %q", l)
	}
}

func TestParseApplyPatchErrors(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"*** Begin Patch\n*** End Patch\n", []string{"no-blocks"}},
		{"*** Begin Patch\n*** Update File: f\n*** End Patch\n", []string{"empty-block"}},
		{"*** Begin Patch\n*** Frobnicate File: f\n*** End Patch\n", []string{"malformed"}},
		{"*** Begin Patch\n*** Update File: f\n-a\n+b\n", []string{"incomplete"}},
		{"*** Begin Patch\n*** Update File: f\n-a\nb\n*** End Patch\n", []string{"malformed"}},
		{"*** Begin Patch\n*** Add File:\n+x\n*** End Patch\n", []string{"no-path"}},
		{"*** Update File: f\n-a\n+b\n", []string{"malformed"}}, // a warning: no envelope
	} {
		p := Parse(tc.text, ParseOptions{})
		if diff := cmp.Diff(tc.want, kinds(p.Problems)); diff != "" {
			t.Errorf("%q: (-want +got):\n%s", tc.text, diff)
		}
	}
}

func TestAnchorScope(t *testing.T) {
	text := "func f() {\n\tx()\n}\n\nfunc g() {\n}\n## H\ntext\n### sub\nmore\n## Next\n"
	starts := lineStarts(text)
	if got := anchorScope(text, starts, 0); got != starts[4] {
		t.Errorf("Go func scope ends at %d, want line 5 (%d)", got, starts[4])
	}
	if got := anchorScope(text, starts, 6); got != starts[10] {
		t.Errorf("Markdown heading scope ends at %d, want line 11 (%d)", got, starts[10])
	}
}

func TestParseUdiff(t *testing.T) {
	text := "```diff\n--- a/x.go\t2024-01-01\n+++ b/x.go\n@@ -10,3 +10,3 @@ func f\n ctx\n-old\n+new\n\n```\n" +
		"--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+hi\n" +
		"--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n\\ No newline at end of file\n"
	p := Parse(text, ParseOptions{})
	if len(p.Problems) != 0 {
		t.Fatalf("problems: %v", p.Problems)
	}
	var got []string
	for _, b := range p.Blocks {
		got = append(got, strings.Join([]string{string(b.Op), b.Path, b.Search, b.Replace, itoa(b.HintLine / 10)}, "|"))
	}
	want := []string{"modify|x.go|ctx\nold\n|ctx\nnew\n|1", "create|new.txt||hi\n|0", "delete-file|gone.txt|bye\n||0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if b := p.Blocks[0]; b.HintLine != 10 || b.HintEndLine != 12 || b.Dialect != DialectUdiff {
		t.Errorf("hint %d-%d dialect %s", b.HintLine, b.HintEndLine, b.Dialect)
	}
	// a/ is kept when only the prefixed path exists.
	p = Parse("--- a/b.txt\n+++ b/a/b.txt\n@@ @@\n-x\n+y\n", ParseOptions{Exists: func(s string) bool { return s == "a/b.txt" }})
	if p.Blocks[0].Path != "a/b.txt" {
		t.Errorf("path %q", p.Blocks[0].Path)
	}
}

func TestClineMarkersAndRooHints(t *testing.T) {
	for _, tc := range []struct {
		line string
		want marker
	}{
		{"------- SEARCH", markSearch},
		{"--- SEARCH", markSearch},
		{"-- SEARCH", markNone},
		{"+++++++ REPLACE", markReplace},
		{"+++ REPLACE", markReplace},
		{"+++++++ SEARCH", markNone},
		{"-------", markNone},
		{"--- a/file.go", markNone},
	} {
		if got := markerOf(tc.line); got != tc.want {
			t.Errorf("markerOf(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
	text := "<path>r.py</path>\n<diff>\n<<<<<<< SEARCH\n:start_line:5\n:end_line:6\n-------\nx\n=======\ny\n>>>>>>> REPLACE\n</diff>\n" +
		"r.py\n------- SEARCH\n-------\n=======\n---\n+++++++ REPLACE\n"
	p := Parse(text, ParseOptions{})
	if len(p.Problems) != 0 || len(p.Blocks) != 2 {
		t.Fatalf("blocks %d problems %v", len(p.Blocks), p.Problems)
	}
	b := p.Blocks[0]
	if b.Path != "r.py" || b.Search != "x\n" || b.HintLine != 5 || b.HintEndLine != 6 || b.Dialect != DialectRoo {
		t.Errorf("roo block: %+v", b)
	}
	// A line of exactly seven dashes right after the SEARCH marker is Roo's
	// separator (as in Roo's own parser), here leaving an empty SEARCH.
	if b := p.Blocks[1]; b.Dialect != DialectCline || b.Replace != "---\n" {
		t.Errorf("cline block: %+v", b)
	}
	p = Parse("a.md\n<<<<<<< SEARCH\n---\ntitle: x\n=======\n---\ntitle: y\n>>>>>>> REPLACE\n", ParseOptions{})
	if p.Blocks[0].Search != "---\ntitle: x\n" || p.Blocks[0].Dialect != DialectSearchReplace {
		t.Errorf("a SEARCH starting with --- keeps it: %+v", p.Blocks[0])
	}
}

func TestRooHintPicks(t *testing.T) {
	files := MapFS{"r.py": "a\nx\nb\nx\nc\n"}
	got, probs := runDialect(t, "r.py\n<<<<<<< SEARCH\n:start_line:4\n-------\nx\n=======\nX\n>>>>>>> REPLACE\n", files, ParseOptions{})
	if diff := cmp.Diff(map[string]string{"r.py": "a\nx\nb\nX\nc\n"}, got); diff != "" || probs != nil {
		t.Errorf("(-want +got):\n%s\n%v", diff, probs)
	}
	// A block before adds two lines above: the hint still names line 4 of
	// the file as read.
	got, probs = runDialect(t, "r.py\n<<<<<<< SEARCH\na\n=======\na\na1\na2\n>>>>>>> REPLACE\n"+
		"r.py\n<<<<<<< SEARCH\n:start_line:4\n-------\nx\n=======\nX\n>>>>>>> REPLACE\n", files, ParseOptions{})
	if diff := cmp.Diff(map[string]string{"r.py": "a\na1\na2\nx\nb\nX\nc\n"}, got); diff != "" || probs != nil {
		t.Errorf("mapped hint (-want +got):\n%s\n%v", diff, probs)
	}
}

func TestHashLine(t *testing.T) {
	// FNV-1a 32 of "" is 0x811c9dc5: its low 16 bits are 9dc5.
	if got := HashLine(""); got != "9dc5" {
		t.Errorf("HashLine(\"\") = %s", got)
	}
	if got, want := Hashlines([]byte("\uFEFFa\r\n\tb\nc")), "1:"+HashLine("a")+"|a\n2:"+HashLine("\tb")+"|\tb\n3:"+HashLine("c")+"|c\n"; got != want {
		t.Errorf("Hashlines = %q, want %q", got, want)
	}
	if Hashlines(nil) != "" {
		t.Error("empty file")
	}
	for _, tc := range []struct {
		line string
		ok   bool
	}{
		{"12:abcd|x", true}, {"1:0000|", true}, {"0:abcd|x", false}, {"1:ABCD|x", false},
		{"1:abc|x", false}, {"x:abcd|x", false}, {"12:abcd x", false},
	} {
		if _, _, ok := parseHashline(tc.line); ok != tc.ok {
			t.Errorf("parseHashline(%q) ok = %v", tc.line, ok)
		}
	}
}

func TestHashlineBlocks(t *testing.T) {
	file := "one\ntwo\nthree\n"
	files := MapFS{"f.txt": file}
	h := func(n int, s string) string { return itoa(n) + ":" + HashLine(s) + "|" + s + "\n" }
	got, probs := runDialect(t, "f.txt\n<<<<<<< SEARCH\n"+h(2, "two")+h(3, "three")+"=======\nTWO\n>>>>>>> REPLACE\n", files, ParseOptions{})
	if diff := cmp.Diff(map[string]string{"f.txt": "one\nTWO\n"}, got); diff != "" || probs != nil {
		t.Errorf("(-want +got):\n%s\n%v", diff, probs)
	}
	_, probs = runDialect(t, "f.txt\n<<<<<<< SEARCH\n2:0000|two\n=======\nTWO\n>>>>>>> REPLACE\n", files, ParseOptions{})
	if diff := cmp.Diff([]string{"error #1 stale-hash"}, probs); diff != "" {
		t.Errorf("stale: %s", diff)
	}
	_, probs = runDialect(t, "f.txt\n<<<<<<< SEARCH\n"+h(1, "one")+h(3, "three")+"=======\nX\n>>>>>>> REPLACE\n", files, ParseOptions{})
	if diff := cmp.Diff([]string{"error #1 malformed"}, probs); diff != "" {
		t.Errorf("gap: %s", diff)
	}
	// Two blocks on the same line: the second one is told which block changed it.
	_, probs = runDialect(t, "f.txt\n<<<<<<< SEARCH\ntwo\n=======\n2\n>>>>>>> REPLACE\nf.txt\n<<<<<<< SEARCH\n"+h(2, "two")+"=======\nX\n>>>>>>> REPLACE\n", files, ParseOptions{})
	if diff := cmp.Diff([]string{"error #2 stale-hash"}, probs); diff != "" {
		t.Errorf("overlap: %s", diff)
	}
}

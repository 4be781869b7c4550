package core

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fsrb/fsrb/bench/gen"
	"github.com/fsrb/fsrb/internal/casefile"
	"github.com/fsrb/fsrb/internal/golden"
)

var updateSnippets = flag.Bool("update-snippets", false, "rewrite the want sections of testdata/snippet/*.txtar")

// TestSnippetCases parses each answer of testdata/snippet/*.txtar with
// Snippets on and compares what it reads with the archive's want section
// (rewritten by -update-snippets, then read over before committing).
//
// An archive holds "answer" (the text; CRLF endings with the flag crlf),
// optionally "exists" (the files of the root, one a line), and "want".
// Flags on the comment's first line, "flags: a b": crlf, streaming,
// no-snippets (Snippets off), format=NAME. The listing shows each block
// with its lines in the answer (1-based): the whole span, the header, the
// path as the span reads it and the code's body; each line of Replace
// after "|", or "~" for an omission marker; then the problems.
func TestSnippetCases(t *testing.T) {
	golden.Each(t, "testdata/snippet/*.txtar", func(t *testing.T, file string, ar *txtar.Archive) {
		flags := map[string]string{}
		if first, _, _ := strings.Cut(string(ar.Comment), "\n"); strings.HasPrefix(first, "flags:") {
			for _, f := range strings.Fields(strings.TrimPrefix(first, "flags:")) {
				k, v, _ := strings.Cut(f, "=")
				flags[k] = v
			}
		}
		var answer string
		exists := map[string]bool{}
		for _, f := range ar.Files {
			switch f.Name {
			case "answer":
				answer = string(f.Data)
			case "exists":
				for _, l := range strings.Fields(string(f.Data)) {
					exists[l] = true
				}
			case "want":
			default:
				t.Fatalf("%s: unknown section %q", file, f.Name)
			}
		}
		if _, ok := flags["crlf"]; ok {
			answer = strings.ReplaceAll(answer, "\n", "\r\n")
		}
		_, streaming := flags["streaming"]
		_, off := flags["no-snippets"]
		p := Parse(answer, ParseOptions{
			Snippets: !off, Streaming: streaming, Format: flags["format"],
			Exists: func(name string) bool { return exists[name] },
		})
		checkSnippetSpans(t, answer, p)
		golden.Check(t, file, ar, map[string]string{"want": listSnippets(answer, p)}, *updateSnippets, "-update-snippets")
	})
}

// listSnippets writes what Parse read of text, as TestSnippetCases
// compares it.
func listSnippets(text string, p *Patch) string {
	m := NewLines(text)
	lines := func(s Span) string {
		if s.Empty() && s.Start == 0 {
			return "-"
		}
		end := s.End
		if end > s.Start {
			end--
		}
		a, b := m.Line(s.Start)+1, m.Line(end)+1
		if s.Empty() {
			return fmt.Sprintf("%d (empty)", a)
		}
		if a == b {
			return fmt.Sprint(a)
		}
		return fmt.Sprintf("%d-%d", a, b)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "format %s\n", p.Format.Name)
	for _, b := range p.Blocks {
		fmt.Fprintf(&sb, "#%d %s %s %s", b.Number, b.Op, b.Dialect, b.Path)
		if b.Lang != "" {
			fmt.Fprintf(&sb, " lang=%s", b.Lang)
		}
		if b.FromLine > 0 {
			fmt.Fprintf(&sb, " lines=%d-%d", b.FromLine, b.ToLine)
		}
		if b.Incomplete {
			sb.WriteString(" incomplete")
		}
		sb.WriteByte('\n')
		if b.Op != OpSnippet {
			continue
		}
		fmt.Fprintf(&sb, "  span %s, header %s %q, body %s\n", lines(b.Span), lines(b.Header), text[b.PathSpan.Start:b.PathSpan.End], lines(b.ReplaceBody))
		for i, l := range strings.SplitAfter(b.Replace, "\n") {
			if l == "" {
				break
			}
			mark := "|"
			if slices.Contains(b.Omissions, i) {
				mark = "~"
			}
			fmt.Fprintf(&sb, "  %s%s\n", mark, strings.TrimSuffix(l, "\n"))
		}
	}
	for _, s := range p.Shell {
		fmt.Fprintf(&sb, "shell %s %s\n", s.Lang, lines(s.Span))
	}
	for _, pr := range p.Problems {
		fmt.Fprintf(&sb, "%s #%d %s: %s\n", pr.Severity, pr.Block, pr.Kind, pr.Message)
	}
	return sb.String()
}

// checkSnippetSpans checks what an editor relies on to underline a
// snippet: its spans lie in the text, in order, each on the bytes it
// names (the fences, the path, the code).
func checkSnippetSpans(t *testing.T, text string, p *Patch) {
	t.Helper()
	for _, b := range p.Blocks {
		if b.Op != OpSnippet {
			continue
		}
		at := func(s Span) string { return text[s.Start:s.End] }
		if f, ok := fenceOf(at(b.SearchMarker)); !ok || !f.open || f.ticks == 0 {
			t.Errorf("#%d: SearchMarker %q is no opening fence", b.Number, at(b.SearchMarker))
		}
		if !b.Incomplete {
			if f, ok := fenceOf(at(b.ReplaceMarker)); !ok || !f.close {
				t.Errorf("#%d: ReplaceMarker %q is no closing fence", b.Number, at(b.ReplaceMarker))
			}
			if b.Span.End != b.ReplaceMarker.End {
				t.Errorf("#%d: the span ends at %d, the closing fence at %d", b.Number, b.Span.End, b.ReplaceMarker.End)
			}
		} else if ls := splitLines(text); b.Span.End != ls[len(ls)-1].end {
			t.Errorf("#%d: cut short, but its span ends at %d of %d", b.Number, b.Span.End, len(text))
		}
		if !(b.Span.Start <= b.Header.Start && b.Header.Start <= b.PathSpan.Start && b.PathSpan.End <= b.Header.End && b.Header.End <= b.Span.End) {
			t.Errorf("#%d: spans out of order: span %v header %v path %v", b.Number, b.Span, b.Header, b.PathSpan)
		}
		if b.Span.Start != b.Header.Start && b.Span.Start != b.SearchMarker.Start {
			t.Errorf("#%d: the span starts at %d, neither at its header nor at its fence", b.Number, b.Span.Start)
		}
		if !(b.SearchMarker.End < b.ReplaceBody.Start || b.ReplaceBody.Empty()) || !b.Incomplete && b.ReplaceBody.End > b.ReplaceMarker.Start {
			t.Errorf("#%d: the body %v is not between the fences %v and %v", b.Number, b.ReplaceBody, b.SearchMarker, b.ReplaceMarker)
		}
		if got := at(b.PathSpan); got != b.Path && strings.TrimPrefix(got, "./") != b.Path {
			t.Errorf("#%d: the path span reads %q, the path is %q", b.Number, got, b.Path)
		}
		// The body, its lines ended and dedented as the fence is, is Replace.
		body := normalizeLF(at(b.ReplaceBody))
		if body != "" && !strings.HasSuffix(body, "\n") {
			body += "\n"
		}
		indent := indentOf(at(b.SearchMarker))
		var want strings.Builder
		for _, l := range strings.SplitAfter(body, "\n") {
			l = dedent(l, indent)
			if kept, ok := cutKeep(strings.TrimSuffix(l, "\n")); ok {
				l = kept + "\n"
			}
			want.WriteString(l)
		}
		if w := want.String(); w != b.Replace && !(isBlank(w) && b.Replace == "") {
			t.Errorf("#%d: Replace %q is not its body %q", b.Number, b.Replace, w)
		}
	}
}

// TestSnippetsKeepEditBlocks: reading snippets changes nothing of what an
// answer's edit blocks are. Every case of ../testdata/cases and every
// benchmark workload parses, with Snippets on, into the same edit blocks
// as with it off (numbers aside: snippets take numbers too), and the
// fences that become snippets are logged.
func TestSnippetsKeepEditBlocks(t *testing.T) {
	cases, err := casefile.Load("../testdata/cases")
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		name, text, format string
		exists             func(string) bool
	}
	var answers []answer
	for _, c := range cases {
		in := decodeTree(c.In)
		answers = append(answers, answer{c.Name, casefile.Decode(c.Patch), c.Arg("--format"), func(name string) bool {
			_, err := in.ReadFile(name)
			return err == nil
		}})
	}
	for name, w := range map[string]*gen.Workload{"W1": gen.W1(), "W2": gen.W2(), "W3": gen.W3(), "W5": gen.W5(), "W6": gen.W6()} {
		answers = append(answers, answer{name: name, text: w.Patch})
	}
	for _, a := range answers {
		off := Parse(a.text, ParseOptions{Format: a.format, Exists: a.exists})
		on := Parse(a.text, ParseOptions{Format: a.format, Exists: a.exists, Snippets: true})
		var edits []Block
		renumber := map[int]int{}
		for _, b := range on.Blocks {
			if b.Op == OpSnippet {
				t.Logf("%s: block #%d is a snippet of %s", a.name, b.Number, b.Path)
				continue
			}
			renumber[b.Number] = len(edits) + 1
			b.Number = len(edits) + 1
			b.InheritedFrom = renumber[b.InheritedFrom]
			edits = append(edits, b)
		}
		if len(edits) != len(off.Blocks) {
			t.Errorf("%s: %d edit blocks with snippets, %d without", a.name, len(edits), len(off.Blocks))
			continue
		}
		for i := range edits {
			if !sameBlock(&edits[i], &off.Blocks[i]) {
				t.Errorf("%s: block #%d reads differently with snippets:\n%+v\n%+v", a.name, i+1, edits[i], off.Blocks[i])
			}
		}
	}
}

func TestReadFenceInfo(t *testing.T) {
	exists := func(p string) bool { return p == "Makefile" || p == "notes" }
	for _, tc := range []struct {
		info       string
		lang, path string
		from, to   int
		bad        bool
	}{
		{info: "python", lang: "python"},
		{info: "python src/x.py", lang: "python", path: "src/x.py"},
		{info: "python ./src/x.py", lang: "python", path: "src/x.py"},
		{info: "python:src/x.py", lang: "python", path: "src/x.py"},
		{info: "src/x.py", path: "src/x.py"},
		{info: "app.py", path: "app.py"},
		{info: "{python} src/x.py", lang: "python", path: "src/x.py"},
		{info: "python {path=src/x.py}", lang: "python", path: "src/x.py"},
		{info: "{.python file=\"src/my x.py\"}", lang: "python", path: "src/my x.py"},
		{info: "ts filepath=web/a.ts", lang: "ts", path: "web/a.ts"},
		{info: "ts filename='web/a.ts'", lang: "ts", path: "web/a.ts"},
		{info: "python title=\"Example\"", lang: "python"},
		{info: "python title=\"pkg/mod.py\"", lang: "python", path: "pkg/mod.py"},
		{info: "python path=src/x.py start_line=4 end_line=9", lang: "python", path: "src/x.py", from: 4, to: 9},
		{info: "python path=src/x.py start_line=9 end_line=4", lang: "python", path: "src/x.py", bad: true},
		{info: "python path=src/x.py start_line=3", lang: "python", path: "src/x.py", bad: true},
		{info: "python path=src/x.py start_line=0 end_line=2", lang: "python", path: "src/x.py", bad: true},
		{info: "python path=src/x.py start_line=a end_line=2", lang: "python", path: "src/x.py", bad: true},
		{info: "python 3.11", lang: "python"},
		{info: "js v1.2", lang: "js"},
		{info: "python src/a.py src/b.py", lang: "python"},
		{info: "make Makefile", lang: "make", path: "Makefile"},
		{info: "makefile", lang: "makefile"},
		{info: "text notes", lang: "text", path: "notes"},
		{info: "notes", lang: "notes"}, // a lone word is a language, even when a file has its name
		{info: "c++", lang: "c++"},
		{info: "python https://example.com/x.py", lang: "python"},
		{info: "python path=https://example.com/x.py", lang: "python"},
		{info: "", lang: ""},
	} {
		got := readFenceInfo(tc.info, exists)
		if got.lang != tc.lang || got.path != tc.path || got.from != tc.from || got.to != tc.to || (got.bad != "") != tc.bad {
			t.Errorf("readFenceInfo(%q) = %+v, want lang %q path %q lines %d-%d bad %v", tc.info, got, tc.lang, tc.path, tc.from, tc.to, tc.bad)
		}
	}
}

// TestReadFenceInfoKept: the answer readFenceInfo keeps for a streamed
// block's info string never stands in for one that exists decides.
func TestReadFenceInfoKept(t *testing.T) {
	has := func(p string) bool { return p == "Makefile" }
	none := func(string) bool { return false }
	for _, step := range []struct {
		info   string
		exists func(string) bool
		path   string
	}{
		{"make Makefile", nil, ""},
		{"make Makefile", has, "Makefile"},
		{"make Makefile", none, ""},
		{"make Makefile", has, "Makefile"},
		{"python src/x.py", has, "src/x.py"}, // exists not asked: kept for any
		{"python src/x.py", nil, "src/x.py"},
		{"python src/x.py", none, "src/x.py"},
		{"make Makefile", nil, ""},
	} {
		if got := readFenceInfo(step.info, step.exists); got.path != step.path {
			t.Errorf("readFenceInfo(%q) with exists %v: path %q, want %q", step.info, step.exists != nil, got.path, step.path)
		}
	}
}

// A streamed fence's line is looked up only once it is whole: "pk" is
// half of "pkg/x.py", and an editor parses the answer on every chunk.
func TestStreamedFenceAsksOnceWhole(t *testing.T) {
	var asked []string
	opt := ParseOptions{Snippets: true, Streaming: true, Exists: func(p string) bool {
		asked = append(asked, p)
		return false
	}}
	Parse("Here:\n\n```python pk", opt)
	if slices.Contains(asked, "pk") {
		t.Errorf("a fence line still being written asked exists about %q", asked)
	}
	Parse("Here:\n\n```python pk\n", opt)
	if !slices.Contains(asked, "pk") {
		t.Errorf("a whole fence line asked exists about %q, want pk among them", asked)
	}
}

func TestFilepathComment(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"// filepath: src/x.ts", "src/x.ts"},
		{"  # filepath: app.py", "app.py"},
		{"-- filepath: a/init.lua", "a/init.lua"},
		{"<!-- filepath: web/index.html -->", "web/index.html"},
		{"/* filepath: web/site.css */", "web/site.css"},
		{"{/* filepath: web/App.jsx */}", "web/App.jsx"},
		{"; filepath: src/core.clj", "src/core.clj"},
		{"// FILEPATH: ./src/x.ts", "src/x.ts"},
		{"// filepath: /home/me/proj/src/x.ts", "/home/me/proj/src/x.ts"},
		{"// filepath: docs/my notes.md", "docs/my notes.md"},
		{"// File: src/x.ts", ""},
		{"// filepath:", ""},
		{"filepath: src/x.ts", ""}, // not a comment: code or prose
		{"# path to the file", ""},
		{"", ""},
	} {
		got, at, n, ok := filepathComment(tc.line)
		if !ok {
			got = ""
		}
		if got != tc.want {
			t.Errorf("filepathComment(%q) = %q, want %q", tc.line, got, tc.want)
		}
		if ok && tc.line[at:at+n] != got {
			t.Errorf("filepathComment(%q): the path sits at %q", tc.line, tc.line[at:at+n])
		}
	}
}

func TestCopilotHeader(t *testing.T) {
	for _, tc := range []struct {
		line     string
		path     string
		from, to int
		bad      bool
	}{
		{line: "[file:calc.py](src/calc.py) line:4-9", path: "src/calc.py", from: 4, to: 9},
		{line: "  [file:calc.py](src/calc.py) line: 7", path: "src/calc.py", from: 7, to: 7},
		{line: "[file:calc.py](src/calc.py)", path: "src/calc.py"},
		{line: "[file:calc.py]() line:1-2", path: "calc.py", from: 1, to: 2},
		{line: "[file:calc.py](src/calc.py) line:9-4", path: "src/calc.py", bad: true},
		{line: "[link](src/calc.py)"},
		{line: "[file:calc.py] src/calc.py"},
	} {
		path, at, from, to, bad, ok := copilotHeader(tc.line)
		if !ok {
			path = ""
		}
		if path != tc.path || from != tc.from || to != tc.to || (bad != "") != tc.bad {
			t.Errorf("copilotHeader(%q) = %q %d-%d bad %q, want %q %d-%d bad %v", tc.line, path, from, to, bad, tc.path, tc.from, tc.to, tc.bad)
		}
		if ok && tc.line[at:at+len(path)] != path {
			t.Errorf("copilotHeader(%q): the path sits at %q", tc.line, tc.line[at:at+len(path)])
		}
	}
}

func TestOmissionMarker(t *testing.T) {
	for _, tc := range []struct {
		line, lang, path string
		want             bool
	}{
		{"// ... existing code ...", "typescript", "", true},
		{"    // ...existing code...", "", "src/x.ts", true},
		{"// ... rest of code ...", "go", "", true},
		{"// ... same ...", "rust", "", true},
		{"// ...", "java", "", true},
		{"/* ... */", "c", "", true},
		{"# ... existing code ...", "python", "", true},
		{"# ... existing code ...", "", "a/b.rb", true},
		{"-- ... existing code ...", "lua", "", true},
		{"-- ... existing code ...", "", "q.sql", true},
		{";; ...", "clojure", "", true},
		{"% ... rest of the proof ...", "latex", "", true},
		{"<!-- ... existing code ... -->", "html", "", true},
		{"{/* ... existing code ... */}", "tsx", "", true},
		{"# ... existing code ...", "", "", true}, // no language known: every form
		{"# ... existing code ...", "unknownlang", "", true},
		// The language decides the comment forms.
		{"# ... existing code ...", "javascript", "", false},
		{"// ... existing code ...", "python", "", false},
		{"-- ... existing code ...", "c", "", false},
		{"{/* ... */}", "", "src/a.ts", false},
		{"# ... existing code ...", "python", "web/a.js", false}, // the file's extension first
		// Code, never a marker.
		{"...", "python", "", false},
		{"    ...", "", "", false},
		{"...args", "javascript", "", false},
		{"const x = {...a, ...b};", "js", "", false},
		{"func f(xs ...int) {}", "go", "", false},
		{"{...props}", "tsx", "", false},
		{"// TODO: more", "go", "", false},
		{"// Existing methods", "go", "", false},
		{"# ... wait for it ...", "python", "", false},
	} {
		if got := omissionMarker(tc.line, commentsOf(tc.lang, tc.path)); got != tc.want {
			t.Errorf("omissionMarker(%q, %q, %q) = %v, want %v", tc.line, tc.lang, tc.path, got, tc.want)
		}
	}
}

func TestCommentsOf(t *testing.T) {
	for _, tc := range []struct {
		lang, path string
		want       commentSet
	}{
		{"python", "", commentHash},
		{"", "Makefile", commentHash},
		{"", "build/Dockerfile", commentHash},
		{"", "CMakeLists.txt", commentHash},
		{"", ".gitignore", commentHash},
		{"", "src/App.TSX", commentSlash | commentBlock | commentJSX},
		{"html", "web/App.vue", commentHTML | commentSlash | commentBlock},
		{"bash", "scripts/run", commentHash},
		{"", "notes.unknown", commentAny},
	} {
		// Twice: the second answer is the one kept from the first.
		for range 2 {
			if got := commentsOf(tc.lang, tc.path); got != tc.want {
				t.Errorf("commentsOf(%q, %q) = %b, want %b", tc.lang, tc.path, got, tc.want)
			}
		}
	}
}

package core

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func kinds(ps Problems) []string {
	var out []string
	for _, p := range ps {
		out = append(out, string(p.Kind))
	}
	return out
}

func TestHeaderDecorations(t *testing.T) {
	exists := func(p string) bool { return p == "Makefile" }
	for _, tc := range []struct{ line, want string }{
		{"src/app.py", "src/app.py"},
		{"### File: src/app.ts", "src/app.ts"},
		{"**src/app.py**", "src/app.py"},
		{"**src/app.py**:", "src/app.py"},
		{"`src/app.py`", "src/app.py"},
		{"`src/app.py`:", "src/app.py"},
		{"File: docs/my notes.md", "docs/my notes.md"},
		{"Filename: `a.go`", "a.go"},
		{"./src/app.py", "src/app.py"},
		{"src/app.py:", "src/app.py"},
		{"# app/__init__.py", "app/__init__.py"},
		{"__init__.py", "__init__.py"},
		{`"src/quoted.go"`, "src/quoted.go"},
		{"Makefile", "Makefile"},
		{"Dockerfile", ""},
		{"Here is the change:", ""},
		{"Done.", ""},
		{"...", ""},
		{".env", ".env"},
		{"```python", ""},
		{"", ""},
	} {
		got, ok := headerPath(tc.line, exists)
		if !ok {
			got = ""
		}
		if got != tc.want {
			t.Errorf("headerPath(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

// barePath is headerPath's shortcut: every line it takes, the whole of
// headerPath takes as it stands. All strings of up to 5 bytes over an
// alphabet of path bytes and of the decorations headerPath strips.
func TestBarePathAgreesWithHeaderPath(t *testing.T) {
	const alphabet = "a9./_-:`*#\"<> "
	taken := 0
	var walk func(s string)
	walk = func(s string) {
		if barePath(s) {
			taken++
			if got, ok := headerPathOf(s, nil); !ok || got != s {
				t.Errorf("barePath(%q) takes it; headerPath gives %q, %v", s, got, ok)
			}
		}
		if len(s) == 5 {
			return
		}
		for i := range len(alphabet) {
			walk(s + alphabet[i:i+1])
		}
	}
	walk("")
	if taken == 0 {
		t.Fatal("barePath took no string")
	}
}

func TestMarkers(t *testing.T) {
	for _, tc := range []struct {
		line string
		want marker
	}{
		{"<<<<<<< SEARCH", markSearch},
		{"<<<<< SEARCH", markSearch},
		{"<<<<<<<<< SEARCH", markSearch},
		{"<<<< SEARCH", markNone},
		{"<<<<<<<<<< SEARCH", markNone},
		{"  <<<<<<< SEARCH  ", markSearch},
		{"<<<<<<< SEARCH>", markSearch},
		{"=======", markDivider},
		{"==========", markNone},
		{">>>>>>> REPLACE", markReplace},
		{"<<<<<<< NEW_FILE", markNewFileOpen},
		{">>>>>>> NEW_FILE", markNewFileClose},
		{`\=======`, markNone},
		{"<<<<<<< HEAD", markNone},
	} {
		if got := markerOf(tc.line); got != tc.want {
			t.Errorf("markerOf(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

func TestParseSpans(t *testing.T) {
	text := "Some prose.\n\n**src/app.py**\n```python\n<<<<<<< SEARCH\nold line\n=======\nnew line\n>>>>>>> REPLACE\n```\n"
	p := Parse(text, ParseOptions{})
	if len(p.Blocks) != 1 || len(p.Problems) != 0 {
		t.Fatalf("blocks %d problems %v", len(p.Blocks), p.Problems)
	}
	b := p.Blocks[0]
	at := func(s Span) string { return text[s.Start:s.End] }
	for name, got := range map[string][2]string{
		"path":    {at(b.PathSpan), "src/app.py"},
		"header":  {at(b.Header), "**src/app.py**"},
		"search":  {at(b.SearchMarker), "<<<<<<< SEARCH"},
		"sbody":   {at(b.SearchBody), "old line\n"},
		"divider": {at(b.Divider), "======="},
		"rbody":   {at(b.ReplaceBody), "new line\n"},
		"replace": {at(b.ReplaceMarker), ">>>>>>> REPLACE"},
		"block":   {at(b.Span), "**src/app.py**\n```python\n<<<<<<< SEARCH\nold line\n=======\nnew line\n>>>>>>> REPLACE"},
	} {
		if got[0] != got[1] {
			t.Errorf("%s span = %q, want %q", name, got[0], got[1])
		}
	}
	if b.Search != "old line\n" || b.Replace != "new line\n" || b.Dialect != DialectSearchReplace {
		t.Errorf("block = %+v", b)
	}
}

func TestParseDiffFenced(t *testing.T) {
	p := Parse("```go\nmain.go\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n", ParseOptions{})
	if len(p.Blocks) != 1 || p.Blocks[0].Dialect != DialectFenced || p.Blocks[0].Path != "main.go" {
		t.Fatalf("got %+v %v", p.Blocks, p.Problems)
	}
}

func TestParseSourceFences(t *testing.T) {
	p := Parse("app.py\n<source>python\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n</source>\n", ParseOptions{})
	if len(p.Blocks) != 1 || p.Blocks[0].Path != "app.py" || len(p.Problems) != 0 {
		t.Fatalf("got %+v %v", p.Blocks, p.Problems)
	}
}

func TestParseInheritedPath(t *testing.T) {
	text := "app.py\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n\nAnd then:\n\n<<<<<<< SEARCH\nc\n=======\nd\n>>>>>>> REPLACE\n"
	p := Parse(text, ParseOptions{})
	if len(p.Blocks) != 2 || p.Blocks[1].Path != "app.py" || p.Blocks[1].InheritedFrom != 1 {
		t.Fatalf("got %+v", p.Blocks)
	}
	if diff := cmp.Diff([]string{"inherited-path"}, kinds(p.Problems)); diff != "" {
		t.Error(diff)
	}
	if !strings.Contains(p.Problems[0].Message, "block #2 has no file path; using app.py like block #1") {
		t.Errorf("message %q", p.Problems[0].Message)
	}
	if p.Problems[0].Severity != SeverityInfo {
		t.Errorf("severity %v", p.Problems[0].Severity)
	}
}

func TestParseHeaderlessFirstBlock(t *testing.T) {
	p := Parse("Here you go:\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n", ParseOptions{})
	if diff := cmp.Diff([]string{"no-path"}, kinds(p.Problems)); diff != "" {
		t.Error(diff)
	}
}

func TestParseEscapes(t *testing.T) {
	text := "f.txt\n<<<<<<< SEARCH\n\\=======\n  \\\\>>>>>>> REPLACE\n=======\nx\n\\<<<<<<< SEARCH\n>>>>>>> REPLACE\n"
	p := Parse(text, ParseOptions{})
	if len(p.Problems) != 0 {
		t.Fatal(p.Problems)
	}
	b := p.Blocks[0]
	if b.Search != "=======\n  \\>>>>>>> REPLACE\n" || b.Replace != "x\n<<<<<<< SEARCH\n" {
		t.Errorf("search %q replace %q", b.Search, b.Replace)
	}
}

func TestParseMalformed(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"second divider", "f.txt\n<<<<<<< SEARCH\na\n=======\nb\n=======\nc\n>>>>>>> REPLACE\n", []string{"malformed"}},
		{"stray replace", "prose\n>>>>>>> REPLACE\n", []string{"malformed"}},
		{"replace before divider", "f.txt\n<<<<<<< SEARCH\na\n>>>>>>> REPLACE\n", []string{"malformed"}},
		{"no divider", "f.txt\n<<<<<<< SEARCH\na\n", []string{"incomplete"}},
		{"no replace marker", "f.txt\n<<<<<<< SEARCH\na\n=======\nb\n", []string{"incomplete"}},
		{"cut then next block", "f.txt\n<<<<<<< SEARCH\na\n=======\nb\ng.txt\n<<<<<<< SEARCH\nc\n=======\nd\n>>>>>>> REPLACE\n", []string{"incomplete"}},
		{"empty both", "f.txt\n<<<<<<< SEARCH\n=======\n\n>>>>>>> REPLACE\n", []string{"empty-block"}},
		{"no blocks", "just prose\n=======\n", []string{"no-blocks"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Parse(tc.text, ParseOptions{})
			if diff := cmp.Diff(tc.want, kinds(p.Problems)); diff != "" {
				t.Error(diff)
			}
		})
	}
}

func TestParseIncompleteReachesEnd(t *testing.T) {
	text := "f.txt\n<<<<<<< SEARCH\na\n=======\nb partial"
	p := Parse(text, ParseOptions{})
	if len(p.Problems) != 1 || p.Problems[0].Span.End != len(text) || !p.Blocks[0].Incomplete {
		t.Fatalf("%+v", p.Problems)
	}
}

func TestParseShellBlocks(t *testing.T) {
	text := "Run this:\n```bash\nmake test\n```\n\nscript.sh\n```bash\n<<<<<<< SEARCH\necho a\n=======\necho b\n>>>>>>> REPLACE\n```\n"
	p := Parse(text, ParseOptions{})
	if len(p.Shell) != 1 || p.Shell[0].Text != "make test\n" || p.Shell[0].Lang != "bash" {
		t.Fatalf("shell %+v", p.Shell)
	}
	if len(p.Blocks) != 1 || p.Blocks[0].Path != "script.sh" || len(p.Problems) != 0 {
		t.Fatalf("blocks %+v %v", p.Blocks, p.Problems)
	}
}

func TestParseCRLFAndNewFile(t *testing.T) {
	text := "### File: a/new.txt\r\n<<<<<<< NEW_FILE\r\nhello\r\n>>>>>>> NEW_FILE\r\n"
	p := Parse(text, ParseOptions{})
	if len(p.Blocks) != 1 || len(p.Problems) != 0 {
		t.Fatalf("%+v %v", p.Blocks, p.Problems)
	}
	b := p.Blocks[0]
	if b.Op != OpCreate || b.Dialect != DialectNewFile || b.Replace != "hello\n" || b.Path != "a/new.txt" {
		t.Errorf("%+v", b)
	}
}

func TestParseNumbersAcrossPatch(t *testing.T) {
	var sb strings.Builder
	for i := 0; i < 5; i++ {
		sb.WriteString("f.txt\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n")
	}
	p := Parse(sb.String(), ParseOptions{})
	for i, b := range p.Blocks {
		if b.Number != i+1 {
			t.Errorf("block %d numbered %d", i, b.Number)
		}
	}
}

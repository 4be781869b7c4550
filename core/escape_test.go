package core

import (
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestEscapeBodyRoundTrip: a body escaped with EscapeBody for a block's
// dialect and written between the block's markers parses back to exactly
// the body (testdata/escape/roundtrip.txtar says how the data is laid out).
func TestEscapeBodyRoundTrip(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/escape/roundtrip.txtar")
	if err != nil {
		t.Fatal(err)
	}
	frames := map[string]string{}
	bodies := map[string]string{}
	var plain []string
	for _, f := range ar.Files {
		kind, name, _ := strings.Cut(f.Name, "/")
		switch kind {
		case "frame":
			frames[name] = string(f.Data)
		case "body", "plain":
			bodies[f.Name] = string(f.Data)
			if kind == "plain" {
				plain = append(plain, f.Name)
			}
		default:
			t.Fatalf("%s: a file of the archive is frame/, body/ or plain/", f.Name)
		}
	}
	if len(frames) == 0 || len(bodies) == 0 {
		t.Fatal("no frames or no bodies in the archive")
	}
	names := make([]string, 0, len(frames))
	for name := range frames {
		names = append(names, name)
	}
	sort.Strings(names)
	// build puts the bodies in a frame: each placeholder line, with its
	// line break, becomes the body (LF text, each line ended).
	build := func(frame, search, replace string) string {
		frame = strings.Replace(frame, "@SEARCH@\n", search, 1)
		return strings.Replace(frame, "@REPLACE@\n", replace, 1)
	}
	for _, fname := range names {
		frame := frames[fname]
		takesSearch := strings.Contains(frame, "@SEARCH@\n")
		// The dialect the frame parses as, as the language server knows
		// it from the block it rewrites.
		probe := Parse(build(frame, "x\n", "y\n"), ParseOptions{})
		if len(probe.Blocks) != 1 || probe.Problems.HasErrors() {
			t.Fatalf("frame %s: %d blocks, problems %v", fname, len(probe.Blocks), probe.Problems)
		}
		d := probe.Blocks[0].Dialect
		for bname, body := range bodies {
			search, replace := body, "first line\n"+body
			if !takesSearch {
				search, replace = "", body
			}
			text := build(frame, EscapeBody(search, d), EscapeBody(replace, d))
			p := Parse(text, ParseOptions{})
			if len(p.Blocks) != 1 || p.Problems.HasErrors() {
				t.Errorf("frame %s (%s), %s: %d blocks, problems %v\n%s", fname, d, bname, len(p.Blocks), p.Problems, text)
				continue
			}
			b := p.Blocks[0]
			if b.Search != search || b.Replace != replace || b.Dialect != d {
				t.Errorf("frame %s (%s), %s: parsed back\nSEARCH  %q\nREPLACE %q\ndialect %s\nwant\nSEARCH  %q\nREPLACE %q\nfrom\n%s",
					fname, d, bname, b.Search, b.Replace, b.Dialect, search, replace, text)
			}
		}
		for _, bname := range plain {
			if got := EscapeBody(bodies[bname], d); got != bodies[bname] {
				t.Errorf("frame %s (%s), %s: EscapeBody changed a body that needs no escape:\n%s", fname, d, bname, got)
			}
		}
	}
}

// TestEscapeBodyEscapesOnce: a line is escaped with one backslash after its
// indentation, the way the parser takes it off.
func TestEscapeBodyEscapesOnce(t *testing.T) {
	for _, tc := range []struct {
		body string
		d    Dialect
		want string
	}{
		{"=======\n", DialectSearchReplace, "\\=======\n"},
		{"  >>>>>>> REPLACE\n", DialectSearchReplace, "  \\>>>>>>> REPLACE\n"},
		{"\\=======\n", DialectSearchReplace, "\\\\=======\n"},
		{"===\n", DialectSearchReplace, "===\n"},
		{"===\n", DialectCline, "\\===\n"},
		{"-------\nx\n-------\n", DialectRoo, "\\-------\nx\n-------\n"},
		{"<<<<<<< HEAD\n", DialectRoo, "<<<<<<< HEAD\n"},
		{"\\<<<<<<< HEAD\n", DialectRoo, "\\\\<<<<<<< HEAD\n"},
		{":end_line:3\n", DialectSearchReplace, "\\:end_line:3\n"},
		{"x\n<<<<<<< SEARCH>", DialectFenced, "x\n\\<<<<<<< SEARCH>"},
	} {
		if got := EscapeBody(tc.body, tc.d); got != tc.want {
			t.Errorf("EscapeBody(%q, %s) = %q, want %q", tc.body, tc.d, got, tc.want)
		}
	}
}

// TestOpensFence: the fences the parser skips around a block.
func TestOpensFence(t *testing.T) {
	for line, want := range map[string]bool{
		"```": true, "```python": true, "  ````go a.go": true, "<source>": true, "<code>py": true,
		"<pre>": true, "<codeblock>": true, "<sourcecode>": true, "<diff>": true, "<apply_diff>": true,
		"<replace_in_file>": true, "</diff>": false, "</source>": false, "``": false, "``` `x`": false,
		"<div>": false, "a.py": false, "": false,
	} {
		if got := OpensFence(line); got != want {
			t.Errorf("OpensFence(%q) = %v, want %v", line, got, want)
		}
	}
}

// TestNormalizeTypography: what a model "improves" compares as ASCII.
func TestNormalizeTypography(t *testing.T) {
	in := "\u201Chi\u201D \u2018x\u2019 a\u2013b\u2014c\u2212d\u2010e \u2026\u00A0z\u200B\uFEFF\u00AD \u02BC"
	if got, want := NormalizeTypography(in), `"hi" 'x' a-b-c-d-e ... z '`; got != want {
		t.Errorf("NormalizeTypography = %q, want %q", got, want)
	}
	if s := "plain ASCII"; NormalizeTypography(s) != s {
		t.Error("ASCII text changed")
	}
}

// FuzzEscapeBody: any body of text lines, escaped for the dialect of the
// block, parses back as itself in each frame of the round-trip data.
func FuzzEscapeBody(f *testing.F) {
	ar, err := txtar.ParseFile("testdata/escape/roundtrip.txtar")
	if err != nil {
		f.Fatal(err)
	}
	var frames []string
	for _, file := range ar.Files {
		if kind, _, _ := strings.Cut(file.Name, "/"); kind == "frame" {
			if strings.Contains(string(file.Data), "@SEARCH@\n") {
				frames = append(frames, string(file.Data))
			}
		} else {
			f.Add(string(file.Data))
		}
	}
	f.Fuzz(func(t *testing.T, body string) {
		if !strings.HasSuffix(body, "\n") {
			body += "\n"
		}
		if strings.ContainsRune(body, '\r') || isBlank(body) {
			return // bodies are LF lines, each ended, not blank
		}
		for _, frame := range frames {
			probe := Parse(strings.Replace(strings.Replace(frame, "@SEARCH@\n", "x\n", 1), "@REPLACE@\n", "y\n", 1), ParseOptions{})
			d := probe.Blocks[0].Dialect
			text := strings.Replace(strings.Replace(frame, "@SEARCH@\n", EscapeBody(body, d), 1), "@REPLACE@\n", EscapeBody(body, d), 1)
			p := Parse(text, ParseOptions{})
			if len(p.Blocks) != 1 || p.Blocks[0].Dialect != d {
				continue // the body itself reads as another notation (hashline anchors): not an escape's business
			}
			if b := p.Blocks[0]; b.Search != body || b.Replace != body {
				t.Fatalf("dialect %s: parsed back SEARCH %q REPLACE %q, want %q\n%s", d, b.Search, b.Replace, body, text)
			}
		}
	})
}

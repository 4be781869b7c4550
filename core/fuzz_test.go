package core

import (
	"strings"
	"testing"
)

// FuzzParse checks what every parse must hold, whatever the text: spans lie
// inside the text and in order, and blocks are numbered 1..n.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"a.txt\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n",
		"```\nf.go\n<<<<<<< SEARCH\n\\=======\n=======\n>>>>>>> REPLACE\n```\n",
		"### File: x.md\r\n<<<<<<< NEW_FILE\r\nhi\r\n>>>>>>> NEW_FILE",
		"x\n<<<<<<< SEARCH\na\n=======\nb\n=======\n>>>>>>> REPLACE\n<<<<<<< SEARCH\n",
		"```bash\nls\n```\n>>>>>>> REPLACE\n",
		"Here is `src/a.py`:\n```python\n# ... existing code ...\n```\n````ts x.ts\n```\n````\n",
		"```js path=a.js start_line=2 end_line=3\r\n// filepath: b.js\r\n  ```\n  x\n",
		"[file:a](b.py) line:1-2\n```\n// ...\n```\n```python\nc.py\n<<<<<<< SEARCH\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		// Snippets on and off: with it, every fence that names a file is
		// a block too.
		parseChecked(t, text, ParseOptions{})
		parseChecked(t, text, ParseOptions{Snippets: true})
	})
}

// parseChecked parses text with opt and checks what FuzzParse holds.
func parseChecked(t *testing.T, text string, opt ParseOptions) {
	t.Helper()
	p := Parse(text, opt)
	checkSnippetSpans(t, text, p)
	in := func(s Span) bool { return 0 <= s.Start && s.Start <= s.End && s.End <= len(text) }
	for i, b := range p.Blocks {
		if b.Number != i+1 {
			t.Fatalf("block %d numbered %d", i, b.Number)
		}
		for _, s := range []Span{b.Span, b.Header, b.PathSpan, b.SearchMarker, b.SearchBody, b.Divider, b.ReplaceBody, b.ReplaceMarker} {
			if !in(s) {
				t.Fatalf("block #%d span %v outside text of %d bytes", b.Number, s, len(text))
			}
		}
		opener := text[b.SearchMarker.Start:b.SearchMarker.End]
		if f, ok := fenceOf(opener); b.Op == OpSnippet && (!ok || f.ticks == 0) {
			t.Fatalf("block #%d: %q is not a fence", b.Number, opener)
		} else if b.Op != OpSnippet && markerOf(opener) == markNone {
			t.Fatalf("block #%d: %q is not a marker", b.Number, opener)
		}
		if !b.Incomplete && !b.ReplaceMarker.Empty() && (b.ReplaceMarker.Start < b.SearchMarker.End || b.Span.Start > b.SearchMarker.Start) {
			t.Fatalf("block #%d: spans out of order: %+v", b.Number, b)
		}
		if !b.Header.Empty() && b.PathSpan.Start < b.Header.Start {
			t.Fatalf("block #%d: path outside its header", b.Number)
		}
	}
	for _, pr := range p.Problems {
		if !in(pr.Span) {
			t.Fatalf("problem %v span %v outside text", pr, pr.Span)
		}
	}
}

// FuzzApplyInverse: a block that applies, followed by its inverse (SEARCH
// and REPLACE swapped) when that is unique too, restores the original
// bytes — CRLF, BOM and a missing final newline included — and bytes
// before and after the matched lines never change.
func FuzzApplyInverse(f *testing.F) {
	f.Add("a\nb\nc\n", 1, 1, "B\n")
	f.Add("\uFEFFx\r\ny\r\nz", 0, 2, "q\nr\n")
	f.Add("one\ntwo", 1, 1, "2\n")
	f.Add("a\nb\nc\n", 0, 3, "a\n# ... rest unchanged ...\n")
	f.Fuzz(func(t *testing.T, content string, from, n int, replace string) {
		if strings.ContainsRune(content, 0) || strings.ContainsAny(replace, "\x00\r") {
			return // binary files are refused; patch text is LF once parsed
		}
		if crlf := strings.Count(content, "\r\n"); crlf > 0 && crlf != strings.Count(content, "\n") {
			return // mixed endings: new lines take the majority, so no round trip
		}
		d := loadDoc([]byte(content))
		lines := strings.SplitAfter(d.text(), "\n")
		if len(lines) > 0 && lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		if from < 0 || n <= 0 || from+n > len(lines) {
			return
		}
		search := strings.Join(lines[from:from+n], "")
		if replace != "" && !strings.HasSuffix(replace, "\n") {
			replace += "\n"
		}
		if isBlank(search) || isBlank(replace) || len(occurrences(d.text(), search, 2)) != 1 {
			return
		}
		fsys := MapFS{"f.txt": content}
		block := Block{Number: 1, Path: "f.txt", Op: OpModify, Search: search, Replace: replace}
		plan := Validate(&Patch{Blocks: []Block{block}}, fsys, Options{Root: "/w"})
		if search != replace && standsInside(d.text(), search, replace) {
			// The file already reads as the block leaves it: refused,
			// never written twice.
			if plan.OK() || plan.Problems[0].Kind != KindAlreadyApplied {
				t.Fatalf("a block that stands applied: %v", plan.Problems)
			}
			return
		}
		if i, _ := placeholderLine(&block, replace, search); i >= 0 {
			// A placeholder line the file does not hold: never applied.
			refusedPlaceholder(t, plan, 1)
			return
		}
		if !plan.OK() {
			t.Fatalf("unique block failed: %v", plan.Problems)
		}
		fsys.Apply(plan)
		after := fsys["f.txt"]
		start := strings.Index(d.text(), search)
		prefixLF := d.text()[:start]
		if got := loadDoc([]byte(after)).text(); !strings.HasPrefix(got, prefixLF) {
			t.Fatalf("bytes before the match changed: %q -> %q", content, after)
		}
		if strings.Contains(content, "\r\n") != strings.Contains(after, "\r\n") {
			return // the edit removed every CRLF line: the file's style is gone
		}
		d2 := loadDoc([]byte(after))
		if len(occurrences(d2.text(), replace, 2)) != 1 {
			return
		}
		if standsInside(d2.text(), replace, search) {
			// The file reads as the state before the edit too (search
			// stands once, around every place of replace): the inverse
			// stands applied and is refused, never written twice.
			return
		}
		inverse := Block{Number: 1, Path: "f.txt", Op: OpModify, Search: replace, Replace: search}
		plan = Validate(&Patch{Blocks: []Block{inverse}}, fsys, Options{Root: "/w"})
		if i, _ := placeholderLine(&inverse, search, replace); i >= 0 {
			refusedPlaceholder(t, plan, 1)
			return
		}
		if !plan.OK() {
			t.Fatalf("inverse failed: %v", plan.Problems)
		}
		fsys.Apply(plan)
		if fsys["f.txt"] != content {
			t.Fatalf("round trip %q -> %q -> %q", content, after, fsys["f.txt"])
		}
	})
}

// standsInside reports whether outer occurs once in text and every
// occurrence of inner lies inside it.
func standsInside(text, inner, outer string) bool {
	at := occurrences(text, outer, 2)
	if len(at) != 1 {
		return false
	}
	for _, o := range occurrences(text, inner, maxOccurrences) {
		if o < at[0] || o+len(inner) > at[0]+len(outer) {
			return false
		}
	}
	return true
}

// refusedPlaceholder fails t unless block n of plan was refused as a
// placeholder and the plan writes nothing.
func refusedPlaceholder(t *testing.T, plan *Plan, n int) {
	t.Helper()
	found := false
	for _, p := range plan.Problems {
		found = found || p.Block == n && p.Kind == KindPlaceholder
	}
	if !found || plan.OK() {
		t.Fatalf("block #%d holds a placeholder line, but no placeholder problem: %v", n, plan.Problems)
	}
	for _, r := range plan.Blocks {
		if r.Block == n && r.Status != StatusFailed {
			t.Fatalf("block #%d holds a placeholder line, but it %s", n, r.Status)
		}
	}
}

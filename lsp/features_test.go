package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/fsrb/fsrb/lsp"
)

const twoBlocks = "a.txt\n<<<<<<< SEARCH\none\n=======\nONE\n>>>>>>> REPLACE\n\nb.txt\n<<<<<<< SEARCH\ntwo\n=======\nTWO\n>>>>>>> REPLACE\n"

// Hover, definition, links, symbols and folding on a two-block patch.
func TestReadFeatures(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.txt": "one\n", "b.txt": "zero\ntwo\n"})
	c := newClient(t, root)
	text := twoBlocks
	u := c.open("p.fsrb", &text)
	c.waitDiagnostics(u, 1)
	td := protocol.TextDocumentIdentifier{URI: u}
	at := protocol.TextDocumentPositionParams{TextDocument: td, Position: positionOf(text, strings.Index(text, "two"))}

	var hover protocol.Hover
	if err := c.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: at}, &hover); err != nil {
		t.Fatal(err)
	}
	if v := hover.Contents.(*protocol.MarkupContent).Value; !strings.Contains(v, "applies at b.txt:2") || !strings.Contains(v, "```diff") || !strings.Contains(v, "+TWO") {
		t.Errorf("hover:\n%s", v)
	}

	var locs []protocol.Location
	if err := c.call(protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{TextDocumentPositionParams: at}, &locs); err != nil {
		t.Fatal(err)
	}
	if len(locs) != 1 || locs[0].URI != c.uri("b.txt") || locs[0].Range.Start.Line != 1 {
		t.Errorf("definition: %+v", locs)
	}

	var links []protocol.DocumentLink
	if err := c.call(protocol.MethodTextDocumentDocumentLink, &protocol.DocumentLinkParams{TextDocument: td}, &links); err != nil {
		t.Fatal(err)
	}
	if len(links) != 2 || links[1].Target == nil || *links[1].Target != c.uri("b.txt") || excerpt(text, links[1].Range) != "b.txt" {
		t.Errorf("links: %+v", links)
	}

	var syms []protocol.DocumentSymbol
	if err := c.call(protocol.MethodTextDocumentDocumentSymbol, &protocol.DocumentSymbolParams{TextDocument: td}, &syms); err != nil {
		t.Fatal(err)
	}
	if len(syms) != 2 || syms[0].Name != "a.txt" || len(syms[1].Children) != 1 || syms[1].Children[0].Name != "#2 modify" {
		t.Errorf("symbols: %+v", syms)
	}

	var folds []protocol.FoldingRange
	if err := c.call(protocol.MethodTextDocumentFoldingRange, &protocol.FoldingRangeParams{TextDocument: td}, &folds); err != nil {
		t.Fatal(err)
	}
	if len(folds) != 2 || folds[1].StartLine != 7 || folds[1].EndLine != 12 {
		t.Errorf("folding: %+v", folds)
	}
}

// A burst of changes is validated once, for its last version.
func TestDebounce(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.txt": "one\n", "b.txt": "two\n"})
	c := startClientWith(t, root, 200*time.Millisecond)
	c.initialize(vscodeCaps, nil)
	text := twoBlocks
	u := c.open("p.fsrb", &text)
	var v int32
	for _, w := range []string{"ONE1", "ONE12", "ONE123", "ONE1234"} {
		v = c.edit(u, w[:len(w)-1]+"\n", w+"\n")
	}
	c.waitDiagnostics(u, v)
	c.locked(func() {
		if n := len(c.diags[u]); n >= 5 {
			t.Errorf("%d publications for a burst of 5 changes", n)
		}
	})
}

// Markdown answers open as patches; one that loses its blocks is cleared.
func TestMarkdownClearedWhenBlocksGo(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.txt": "one\n"})
	c := newClient(t, root)
	text := "Answer:\n\na.txt\n<<<<<<< SEARCH\nnone\n=======\nONE\n>>>>>>> REPLACE\n"
	u := c.open("answer.md", &text)
	if got := errorsOf(c.waitDiagnostics(u, 1)); len(got) != 1 {
		t.Fatalf("want not-found, got %v", got)
	}
	c.edit(u, "<<<<<<< SEARCH", "SEARCH")
	v := c.edit(u, ">>>>>>> REPLACE", "REPLACE")
	if got := c.waitDiagnostics(u, v); len(got) != 0 {
		b, _ := json.Marshal(got)
		t.Fatalf("prose left: %s", b)
	}
}

// A document of language id "diff" is a patch whatever its name (VS Code
// names *.patch and *.diff so), and is re-validated when a file it names
// changes in the editor (issue 7 item 7).
func TestDiffLanguageID(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.txt": "one\ntwo\n"})
	c := newClient(t, root)
	text := "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-three\n+THREE\n"
	u := c.uri("answer.txt")
	c.mu.Lock()
	c.versions[u], c.texts[u] = 1, text
	c.mu.Unlock()
	if err := c.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "diff", Version: 1, Text: text,
	}}); err != nil {
		t.Fatal(err)
	}
	if got := errorsOf(c.waitDiagnostics(u, 1)); len(got) != 1 || got[0] != "not-found" {
		t.Fatalf("want not-found, got %v", got)
	}
	target := c.open("a.txt", nil)
	c.edit(target, "two", "three")
	c.waitFor("the diff re-validated", func() bool {
		pubs := c.diags[u]
		return len(pubs) > 1 && len(pubs[len(pubs)-1].Diagnostics) == 0
	})
}

// Symbols of an apply-patch document: a file symbol's range holds its
// header (the selection) and every hunk, though hunks leave the header out.
func TestApplyPatchSymbols(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.py": "x = 1\ny = 2\n"})
	c := newClient(t, root)
	text := "*** Begin Patch\n*** Update File: a.py\n-x = 1\n+x = 10\n@@\n-y = 2\n+y = 20\n*** End Patch\n"
	u := c.open("p.patch", &text)
	if got := errorsOf(c.waitDiagnostics(u, 1)); len(got) != 0 {
		t.Fatalf("errors: %v", got)
	}
	var syms []protocol.DocumentSymbol
	if err := c.call(protocol.MethodTextDocumentDocumentSymbol, &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &syms); err != nil {
		t.Fatal(err)
	}
	if len(syms) != 1 || len(syms[0].Children) != 2 {
		t.Fatalf("symbols: %+v", syms)
	}
	inside := func(in, out protocol.Range) bool {
		return !less(in.Start, out.Start) && !less(out.End, in.End)
	}
	if f := syms[0]; !inside(f.SelectionRange, f.Range) || excerpt(text, f.SelectionRange) != "a.py" {
		t.Errorf("file symbol: range %+v, selection %+v", f.Range, f.SelectionRange)
	}
	for i, h := range syms[0].Children {
		if !inside(h.SelectionRange, h.Range) || !inside(h.Range, syms[0].Range) {
			t.Errorf("hunk %d: range %+v, selection %+v", i+1, h.Range, h.SelectionRange)
		}
	}
	// The first hunk has no "@@" line: its selection is its first line.
	if got := excerpt(text, syms[0].Children[0].SelectionRange); got != "-x = 1" {
		t.Errorf("first hunk's selection: %q", got)
	}
}

func less(a, b protocol.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

// Code lens titles change with every validation; a client that supports it
// is asked to fetch them again (VS Code kept "#2 2 matches" otherwise). A
// stream of changes (a chat answer arriving) asks at once, then at most
// once every LensEvery, not once a change: a client answers each ask by
// requesting every lens again.
func TestCodeLensRefresh(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.txt": "one\n"})
	c := startClient(t, root)
	c.initialize(`{"workspace": {"applyEdit": true, "codeLens": {"refreshSupport": true}}}`, nil)
	text := "a.txt\n<<<<<<< SEARCH\none\n=======\nONE\n>>>>>>> REPLACE\n"
	u := c.open("p.fsrb", &text)
	c.waitDiagnostics(u, 1)
	c.waitFor("a codeLens refresh", func() bool { return c.refreshes > 0 })

	start := time.Now()
	const chunks = 40
	for range chunks {
		c.waitDiagnostics(u, c.appendText(u, "\n"))
	}
	var n int
	c.locked(func() { n = c.refreshes })
	if most := 2 + int(time.Since(start)/lsp.LensEvery); n > most {
		t.Errorf("%d refreshes for %d changes in %v, want at most %d", n, chunks, time.Since(start), most)
	}
	// The last change's lenses are asked for too: a refresh arrives after
	// the last diagnostics.
	c.waitRefreshAfterPublish()

	// Without the capability, no request is sent. The diagnostics of a
	// second change come after the first run decided what to ask for.
	c2 := newClient(t, root)
	text2 := text
	u2 := c2.open("q.fsrb", &text2)
	c2.waitDiagnostics(u2, 1)
	c2.waitDiagnostics(u2, c2.appendText(u2, "\n"))
	if asked := c2.session.Asked(refreshLens); asked != 0 {
		t.Errorf("%d refreshes sent to a client without refreshSupport", asked)
	}
}

const refreshLens = "workspace/codeLens/refresh"

// waitRefreshAfterPublish waits for a codeLens/refresh request after the
// last diagnostics published: the run that published them asks for the
// lenses once it is done.
func (c *testClient) waitRefreshAfterPublish() {
	c.t.Helper()
	c.waitFor("a refresh after the last diagnostics", func() bool {
		last := -1
		for i, e := range c.events {
			if strings.HasPrefix(e, "publish ") {
				last = i
			}
		}
		return last >= 0 && slices.Contains(c.events[last:], refreshLens)
	})
}

// "Apply" on a block that applies only after the one before it is left
// out; the check of the block on its own is kept while the block and its
// file's bytes stay as they were, and made again when the file changes.
func TestApplyLensAloneFollowsTheFile(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.txt": "one\ntwo\n"})
	hourAgo := time.Now().Add(-time.Hour) // a stamp old enough to trust
	if err := os.Chtimes(filepath.Join(root, "a.txt"), hourAgo, hourAgo); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, root)
	text := "a.txt\n<<<<<<< SEARCH\none\n=======\nONE\n>>>>>>> REPLACE\n\n" +
		"a.txt\n<<<<<<< SEARCH\nONE\ntwo\n=======\nONE\nTWO\n>>>>>>> REPLACE\n"
	u := c.open("p.fsrb", &text)
	c.waitDiagnostics(u, 1)
	applies := func() []int {
		var lenses []protocol.CodeLens
		if err := c.call(protocol.MethodTextDocumentCodeLens, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &lenses); err != nil {
			t.Fatal(err)
		}
		var out []int
		for _, l := range lenses {
			if l.Command.Title == "Apply" {
				var n int
				_ = json.Unmarshal(mustJSON(t, l.Command.Arguments[1]), &n)
				out = append(out, n)
			}
		}
		return out
	}
	if got := applies(); !slices.Equal(got, []int{1}) {
		t.Fatalf("Apply on blocks %v, want [1]", got)
	}
	c.waitDiagnostics(u, c.appendText(u, "\n"))
	if got := applies(); !slices.Equal(got, []int{1}) {
		t.Fatalf("after a change of the patch: Apply on blocks %v, want [1]", got)
	}
	// On disk, block 1's change is there: block 2 applies on its own.
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("ONE\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := applies(); !slices.Equal(got, []int{2}) {
		t.Fatalf("after the file changed: Apply on blocks %v, want [2]", got)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Hover on a block that matches nowhere shows how SEARCH differs from the
// closest place, numbered as the file's lines, not the block's own change.
func TestHoverClosestPlace(t *testing.T) {
	root := writeFiles(t, map[string]string{"calc.py": "import math\n\n\ndef total(items):\n    result = 0\n    for item in items:\n        result += item.price\n    return result\n"})
	c := newClient(t, root)
	text := "calc.py\n<<<<<<< SEARCH\ndef total(items):\n    result = 0\n    for item in itmes:\n        result += item.price\n    return result\n=======\ndef total(items):\n    return sum(item.price for item in items)\n>>>>>>> REPLACE\n"
	u := c.open("p.fsrb", &text)
	c.waitDiagnostics(u, 1)
	at := protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: positionOf(text, strings.Index(text, "itmes"))}
	var hover protocol.Hover
	if err := c.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: at}, &hover); err != nil {
		t.Fatal(err)
	}
	v := hover.Contents.(*protocol.MarkupContent).Value
	for _, want := range []string{
		"Closest place: `calc.py` lines 4-8, 98% similar",
		"--- SEARCH\n+++ calc.py (lines 4-8)\n@@ -1,5 +4,5 @@\n",
		"-    for item in itmes:\n+    for item in items:\n",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("hover lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "+    return sum(") {
		t.Errorf("hover shows the block's own change:\n%s", v)
	}
}

package lsp_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
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
	if v := hover.Contents.Value; !strings.Contains(v, "applies at b.txt:2") || !strings.Contains(v, "```diff") || !strings.Contains(v, "+TWO") {
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
	if len(links) != 2 || links[1].Target != c.uri("b.txt") || excerpt(text, links[1].Range) != "b.txt" {
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
	if err := c.call(protocol.MethodTextDocumentFoldingRange, &protocol.FoldingRangeParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: td}}, &folds); err != nil {
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
	v := c.edit(u, "<<<<<<< SEARCH", "SEARCH")
	v = c.edit(u, ">>>>>>> REPLACE", "REPLACE")
	if got := c.waitDiagnostics(u, v); len(got) != 0 {
		b, _ := json.Marshal(got)
		t.Fatalf("prose left: %s", b)
	}
}

package lsp_test

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/fsrb/fsrb/lsp"
)

// An untitled document (VS Code's "fsrb: Apply from clipboard", a chat
// answer pasted into a new editor) is a patch like any other: analyzed by
// its language id, its relative paths resolved against the workspace root,
// and "Apply all" edits the workspace's files, never the untitled document.
func TestUntitledPatch(t *testing.T) {
	root := writeFiles(t, map[string]string{"src/calc.py": "def total(items):\n    return sum(items)\n"})
	c := newClient(t, root)
	u := uri.URI("untitled:Untitled-1")
	text := strings.Replace(calcPatch, "calc.py", "src/calc.py", 1)
	bad := strings.Replace(text, "return sum(items)\n=", "return sum(item)\n=", 1)
	c.mu.Lock()
	c.versions[u], c.texts[u] = 1, bad
	c.mu.Unlock()
	if err := c.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "fsrb", Version: 1, Text: bad,
	}}); err != nil {
		t.Fatal(err)
	}
	if got := errorsOf(c.waitDiagnostics(u, 1)); len(got) != 1 || got[0] != "not-found" {
		t.Fatalf("untitled patch with a typo: want not-found, got %v", got)
	}

	v := c.replace(u, text+"\nnotes/new.txt\n<<<<<<< SEARCH\n=======\nhello\n>>>>>>> REPLACE\n")
	if got := errorsOf(c.waitDiagnostics(u, v)); len(got) != 0 {
		t.Fatalf("untitled patch that applies: want no error, got %v", got)
	}
	var res protocol.ApplyWorkspaceEditResult
	if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: lsp.CommandApplyAll, Arguments: testArgs(u)}, &res); err != nil {
		t.Fatal(err)
	}
	if !res.Applied || len(c.applied) != 1 {
		t.Fatalf("apply all: %+v, sent %d edits", res, len(c.applied))
	}
	e := &editor{root: root, files: map[string]string{"src/calc.py": "def total(items):\n    return sum(items)\n"}}
	for _, dc := range c.applied[0].Edit.DocumentChanges {
		if te := docEdit(dc); te != nil && !strings.HasPrefix(string(te.TextDocument.URI), "file://") {
			t.Errorf("an edit of %s: only workspace files may change", te.TextDocument.URI)
		}
	}
	if err := e.apply(&c.applied[0].Edit); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"src/calc.py": "def total(items):\n    return sum(i.price for i in items)\n", "notes/new.txt": "hello\n"}
	for k, w := range want {
		if e.files[k] != w {
			t.Errorf("%s after apply all: %q, want %q", k, e.files[k], w)
		}
	}
	var st struct {
		State string `json:"state"`
	}
	if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: lsp.CommandStatus, Arguments: testArgs(u)}, &st); err != nil {
		t.Fatal(err)
	}
	if st.State != "applied" {
		t.Errorf("status of the untitled patch after apply all: %q, want applied", st.State)
	}
}

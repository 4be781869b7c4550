package lsp_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/fsrb/fsrb/bench/gen"
	"github.com/fsrb/fsrb/lsp"
)

func writeFiles(t testing.TB, files map[string]string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		full := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func rpcCode(err error) jsonrpc2.Code {
	var e *jsonrpc2.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

func errorsOf(diags []protocol.Diagnostic) []string {
	var out []string
	for _, d := range diags {
		if d.Severity == protocol.DiagnosticSeverityError {
			out = append(out, fmt.Sprint(d.Code))
		}
	}
	return out
}

const calcPatch = `calc.py
<<<<<<< SEARCH
def total(items):
    return sum(items)
=======
def total(items):
    return sum(i.price for i in items)
>>>>>>> REPLACE
`

func TestRequestBeforeInitialize(t *testing.T) {
	c := startClient(t, "")
	err := c.call(protocol.MethodTextDocumentCodeLens, &protocol.CodeLensParams{}, nil)
	if rpcCode(err) != jsonrpc2.ServerNotInitialized {
		t.Fatalf("codeLens before initialize: %v, want ServerNotInitialized", err)
	}
	c.initialize(vscodeCaps, nil)
	if err := c.call(protocol.MethodInitialize, map[string]any{"capabilities": map[string]any{}}, nil); rpcCode(err) != jsonrpc2.InvalidRequest {
		t.Fatalf("second initialize: %v, want InvalidRequest", err)
	}
}

func TestUnknownMethods(t *testing.T) {
	c := newClient(t, "")
	err := c.call("fsrb/noSuchMethod", map[string]any{}, nil)
	if rpcCode(err) != jsonrpc2.MethodNotFound {
		t.Fatalf("unknown request: %v, want MethodNotFound", err)
	}
	// Known to LSP but not served: also MethodNotFound, not a panic.
	err = c.call(protocol.MethodTextDocumentCompletion, map[string]any{}, nil)
	if rpcCode(err) != jsonrpc2.MethodNotFound {
		t.Fatalf("completion: %v, want MethodNotFound", err)
	}
	// Unknown notifications are ignored and the server goes on.
	if err := c.notify("fsrb/noSuchNotification", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if err := c.notify(protocol.MethodSetTrace, map[string]any{"value": "off"}); err != nil {
		t.Fatal(err)
	}
	var lenses []protocol.CodeLens
	if err := c.call(protocol.MethodTextDocumentCodeLens, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("none.fsrb")}}, &lenses); err != nil {
		t.Fatalf("the server stopped answering: %v", err)
	}
}

func TestShutdownThenExit(t *testing.T) {
	for _, shutdown := range []bool{true, false} {
		c := newClient(t, "")
		want := 1
		if shutdown {
			want = 0
			if err := c.call(protocol.MethodShutdown, nil, nil); err != nil {
				t.Fatal(err)
			}
			if err := c.call(protocol.MethodTextDocumentCodeLens, &protocol.CodeLensParams{}, nil); rpcCode(err) != jsonrpc2.InvalidRequest {
				t.Errorf("request after shutdown: %v, want InvalidRequest", err)
			}
		}
		if err := c.notify(protocol.MethodExit, nil); err != nil {
			t.Fatal(err)
		}
		if got := <-c.session.Exit(); got != want {
			t.Errorf("shutdown=%v: exit code %d, want %d", shutdown, got, want)
		}
	}
}

// An open target buffer is read instead of the disk: editing it re-validates
// the patch, and "Apply all blocks" names the buffer's version.
func TestTargetBufferEdited(t *testing.T) {
	root := writeFiles(t, map[string]string{"calc.py": "def total(items):\n    return sum(item for item in items)\n"})
	c := newClient(t, root)
	patch := c.open("patch.fsrb", ptr(calcPatch))
	if got := errorsOf(c.waitDiagnostics(patch, 1)); len(got) != 1 || got[0] != "not-found" {
		t.Fatalf("before: %v, want not-found", got)
	}
	target := c.open("calc.py", nil)
	v := c.edit(target, "sum(item for item in items)", "sum(items)")
	c.waitFor("the patch to validate against the buffer", func() bool {
		pubs := c.diags[patch]
		return len(pubs) > 1 && len(errorsOf(pubs[len(pubs)-1].Diagnostics)) == 0
	})
	c.locked(func() {
		if _, ok := c.diags[target]; ok {
			t.Errorf("diagnostics published for a target buffer that is no patch")
		}
	})
	actions := c.codeActions(patch, protocol.Range{}, lsp.KindApplyAll)
	if len(actions) != 1 || actions[0].Edit == nil || len(actions[0].Edit.DocumentChanges) != 1 {
		t.Fatalf("apply all: %+v", actions)
	}
	td, _ := actions[0].Edit.DocumentChanges[0].(*protocol.TextDocumentEdit)
	if td == nil || td.TextDocument.URI != target || td.TextDocument.Version == nil || *td.TextDocument.Version != v {
		t.Fatalf("edit of %+v, want %s version %d", td, target, v)
	}
	// Closing the buffer brings the disk back.
	var before int
	c.locked(func() { before = len(c.diags[patch]) })
	if err := c.notify(protocol.MethodTextDocumentDidClose, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: target}}); err != nil {
		t.Fatal(err)
	}
	c.waitFor("re-validation after close", func() bool { return len(c.diags[patch]) > before })
	if got := errorsOf(c.latest(patch)); len(got) != 1 {
		t.Errorf("after close: %v, want not-found", got)
	}
}

// A change on disk, reported by didChangeWatchedFiles, re-validates the
// patches that name the file, and only those.
func TestWatchedFiles(t *testing.T) {
	root := writeFiles(t, map[string]string{"calc.py": "def total(items):\n    return 0\n", "other.py": "x = 1\n"})
	c := newClient(t, root)
	patch := c.open("patch.fsrb", ptr(calcPatch))
	other := c.open("other.fsrb", ptr("other.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n"))
	c.waitDiagnostics(patch, 1)
	c.waitDiagnostics(other, 1)
	if err := os.WriteFile(filepath.Join(root, "calc.py"), []byte("def total(items):\n    return sum(items)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := c.notify(protocol.MethodWorkspaceDidChangeWatchedFiles, &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{
		{Type: protocol.FileChangeTypeChanged, URI: c.uri("calc.py")},
	}}); err != nil {
		t.Fatal(err)
	}
	c.waitFor("re-validation after the disk changed", func() bool {
		pubs := c.diags[patch]
		return len(pubs) > 1 && len(errorsOf(pubs[len(pubs)-1].Diagnostics)) == 0
	})
	c.locked(func() {
		if n := len(c.diags[other]); n != 1 {
			t.Errorf("a patch that does not name calc.py was re-validated (%d publications)", n)
		}
	})
}

func TestExecuteApplyAll(t *testing.T) {
	root := writeFiles(t, map[string]string{"calc.py": "def total(items):\n    return sum(items)\n"})
	c := newClient(t, root)
	patch := c.open("patch.fsrb", ptr(calcPatch))
	c.waitDiagnostics(patch, 1)

	// The client refuses: the reason reaches the user.
	c.setOnApply(func(protocol.ApplyWorkspaceEditParams) protocol.ApplyWorkspaceEditResult {
		return protocol.ApplyWorkspaceEditResult{FailureReason: ptr("file changed on disk")}
	})
	var res protocol.ApplyWorkspaceEditResult
	if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: lsp.CommandApplyBlock, Arguments: testArgs(patch, 1)}, &res); err != nil {
		t.Fatal(err)
	}
	var m protocol.ShowMessageParams
	c.waitFor("a message", func() bool {
		if len(c.messages) == 1 {
			m = c.messages[0]
		}
		return len(c.messages) == 1
	})
	if m.Type != protocol.MessageTypeWarning || !strings.Contains(m.Message, "file changed on disk") {
		t.Errorf("message %+v", m)
	}

	c.setOnApply(nil)
	if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: lsp.CommandApplyAll, Arguments: testArgs(patch)}, &res); err != nil {
		t.Fatal(err)
	}
	c.waitFor("a second message", func() bool {
		if len(c.messages) != 2 {
			return false
		}
		m = c.messages[1]
		if !res.Applied || len(c.applied) != 2 || len(c.applied[1].Edit.DocumentChanges) != 1 {
			t.Fatalf("applyEdit: %+v, sent %+v", res, c.applied)
		}
		return true
	})
	if m.Type != protocol.MessageTypeInfo || !strings.Contains(m.Message, "applied 1 block to 1 file") {
		t.Errorf("message %+v", m)
	}
}

// A client that cannot create or delete files gets a message, never a
// partial edit.
func TestExecuteWithoutFileOperations(t *testing.T) {
	root := writeFiles(t, map[string]string{"old.txt": "obsolete\n"})
	c := startClient(t, root)
	c.initialize(bareCaps, nil)
	patch := c.open("patch.fsrb", ptr("old.txt\n<<<<<<< SEARCH\nobsolete\n=======\n>>>>>>> REPLACE\n"))
	c.waitDiagnostics(patch, 1)
	actions := c.codeActions(patch, protocol.Range{}, lsp.KindApplyAll)
	if len(actions) != 1 || actions[0].Edit != nil || actions[0].Command.Command == "" {
		t.Fatalf("want a command-only action (no disabledSupport), got %+v", actions)
	}
	cmd := actions[0].Command
	if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: cmd.Command, Arguments: cmd.Arguments}, nil); err != nil {
		t.Fatal(err)
	}
	c.waitFor("a message", func() bool {
		if len(c.messages) != 1 {
			return false
		}
		if m := c.messages[0]; m.Type != protocol.MessageTypeError || !strings.Contains(m.Message, "delete") {
			t.Errorf("message %+v", m)
		}
		if len(c.applied) != 0 {
			t.Errorf("an edit was sent: %+v", c.applied)
		}
		return true
	})
}

// Text-only patches still reach a client without documentChanges, as
// "changes".
func TestChangesWithoutDocumentChanges(t *testing.T) {
	root := writeFiles(t, map[string]string{"calc.py": "def total(items):\n    return sum(items)\n"})
	c := startClient(t, root)
	c.initialize(bareCaps, nil)
	patch := c.open("patch.fsrb", ptr(calcPatch))
	c.waitDiagnostics(patch, 1)
	actions := c.codeActions(patch, protocol.Range{}, lsp.KindApplyAll)
	if len(actions) != 1 || actions[0].Edit == nil || len(actions[0].Edit.Changes) != 1 || len(actions[0].Edit.DocumentChanges) != 0 {
		t.Fatalf("want changes, got %+v", actions)
	}
}

// $/cancelRequest with a numeric id cancels a request waiting on the
// client (internal/rpc/cancel.go).
func TestCancelRequest(t *testing.T) {
	root := writeFiles(t, map[string]string{"calc.py": "def total(items):\n    return sum(items)\n"})
	c := newClient(t, root)
	patch := c.open("patch.fsrb", ptr(calcPatch))
	c.waitDiagnostics(patch, 1)

	entered, release := make(chan struct{}), make(chan struct{})
	c.setOnApply(func(protocol.ApplyWorkspaceEditParams) protocol.ApplyWorkspaceEditResult {
		close(entered)
		<-release
		return protocol.ApplyWorkspaceEditResult{Applied: true}
	})
	defer close(release)
	id := c.nextID()
	done := make(chan error, 1)
	go func() {
		done <- c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: lsp.CommandApplyAll, Arguments: testArgs(patch)}, nil)
	}()
	<-entered
	if err := c.notify(protocol.MethodCancelRequest, map[string]any{"id": id}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; rpcCode(err) != -32800 {
		t.Fatalf("cancelled request: %v, want RequestCancelled", err)
	}
}

// Editing with incremental changes next to CJK and emoji keeps the
// server's text in step (UTF-16 columns).
func TestIncrementalUnicode(t *testing.T) {
	root := writeFiles(t, map[string]string{"m.txt": "a = \"日本 😀 ok\"\n"})
	c := newClient(t, root)
	patch := c.open("patch.fsrb", ptr("m.txt\n<<<<<<< SEARCH\na = \"日本 😀 okk\"\n=======\na = \"日本 😀 好\"\n>>>>>>> REPLACE\n"))
	diags := c.waitDiagnostics(patch, 1)
	if len(errorsOf(diags)) != 1 {
		t.Fatalf("want not-found, got %v", diags)
	}
	v := c.edit(patch, "okk", "ok")
	if got := c.waitDiagnostics(patch, v); len(errorsOf(got)) != 0 {
		t.Fatalf("after fixing the typo: %v", got)
	}
	// A change on the same line after the emoji, then one before it.
	v = c.edit(patch, "😀 好", "😀 好!")
	c.waitDiagnostics(patch, v)
	v = c.edit(patch, "a = \"日本 😀 ok\"\n=", "a = \"日本 😀 ok\" \n=")
	if got := c.waitDiagnostics(patch, v); len(errorsOf(got)) != 1 {
		t.Fatalf("after breaking SEARCH: %v", got)
	}
}

func TestSettings(t *testing.T) {
	root := writeFiles(t, map[string]string{"calc.py": "def total(items):\n    return sum(items)\n"})
	c := newClient(t, root)
	patch := c.open("patch.fsrb", ptr(calcPatch))
	c.waitDiagnostics(patch, 1)
	if err := c.notify(protocol.MethodWorkspaceDidChangeConfiguration, map[string]any{"settings": map[string]any{"fsrb": map[string]any{"fuzzy": true}}}); err != nil {
		t.Fatal(err)
	}
	c.waitFor("re-validation after a settings change", func() bool { return len(c.diags[patch]) == 2 })
}

// Big patches report work-done progress around applyEdit.
func TestProgress(t *testing.T) {
	w := gen.Spread(6, 10, 500) // 60 blocks: more than progressBlocks
	patch := w.Patch
	root := writeFiles(t, w.Files)
	c := newClient(t, root)
	u := c.open("big.fsrb", &patch)
	if got := errorsOf(c.waitDiagnostics(u, 1)); len(got) != 0 {
		t.Fatalf("big patch: %v", got)
	}
	if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: lsp.CommandApplyAll, Arguments: testArgs(u)}, nil); err != nil {
		t.Fatal(err)
	}
	var progress []json.RawMessage
	c.waitFor("progress begin and end", func() bool {
		progress = c.progress
		return len(progress) == 2
	})
	var kinds []string
	for _, p := range progress {
		var v struct {
			Value struct{ Kind string } `json:"value"`
		}
		_ = json.Unmarshal(p, &v)
		kinds = append(kinds, v.Value.Kind)
	}
	if strings.Join(kinds, ",") != "begin,end" {
		t.Errorf("progress %v", kinds)
	}
}

func TestApplyBlockAction(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.txt": "one\n", "b.txt": "two\n"})
	c := newClient(t, root)
	text := "a.txt\n<<<<<<< SEARCH\none\n=======\nONE\n>>>>>>> REPLACE\n\nb.txt\n<<<<<<< SEARCH\ntwo\n=======\nTWO\n>>>>>>> REPLACE\n"
	u := c.open("p.fsrb", &text)
	c.waitDiagnostics(u, 1)
	at := positionOf(text, strings.Index(text, "two"))
	var titles []string
	for _, a := range c.codeActions(u, protocol.Range{Start: at, End: at}, protocol.CodeActionKindRefactorRewrite) {
		titles = append(titles, a.Title)
		if strings.HasPrefix(a.Title, "Apply block #2") {
			if a.Edit == nil || len(a.Edit.DocumentChanges) != 1 || docEdit(a.Edit.DocumentChanges[0]) == nil || docEdit(a.Edit.DocumentChanges[0]).TextDocument.URI != c.uri("b.txt") {
				t.Errorf("apply block #2 edit: %+v", a.Edit)
			}
		}
	}
	if strings.Join(titles, "|") != "Apply all blocks (2 blocks to 2 files)|Apply block #2 (b.txt)|Skip block #2 (b.txt)" {
		t.Errorf("actions %q", titles)
	}
}

func ptr(s string) *string { return &s }

// A folder deleted on disk, reported as one event for the folder, and a
// bare name ("Makefile") that becomes a file both re-validate the patches
// that depend on them.
func TestWatchedFolderAndBareName(t *testing.T) {
	root := writeFiles(t, map[string]string{"src/a.txt": "one\n"})
	c := newClient(t, root)
	inSrc := c.open("a.fsrb", ptr("src/a.txt\n<<<<<<< SEARCH\none\n=======\n1\n>>>>>>> REPLACE\n"))
	bare := c.open("b.fsrb", ptr("Makefile\n<<<<<<< SEARCH\nall:\n=======\nall: build\n>>>>>>> REPLACE\n"))
	c.waitDiagnostics(inSrc, 1)
	c.waitDiagnostics(bare, 1)
	c.locked(func() {
		if n := len(errorsOf(c.diags[bare][0].Diagnostics)); n != 1 {
			t.Errorf("Makefile missing: %d errors, want the no-path one", n)
		}
	})

	if err := os.RemoveAll(filepath.Join(root, "src")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "Makefile"), []byte("all:\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := c.notify(protocol.MethodWorkspaceDidChangeWatchedFiles, &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{
		{Type: protocol.FileChangeTypeDeleted, URI: c.uri("src")},
		{Type: protocol.FileChangeTypeCreated, URI: c.uri("Makefile")},
	}}); err != nil {
		t.Fatal(err)
	}
	c.waitFor("src/a.txt reported missing", func() bool {
		pubs := c.diags[inSrc]
		return len(pubs) > 1 && len(errorsOf(pubs[len(pubs)-1].Diagnostics)) == 1
	})
	c.waitFor("the Makefile block validates", func() bool {
		pubs := c.diags[bare]
		return len(pubs) > 1 && len(errorsOf(pubs[len(pubs)-1].Diagnostics)) == 0
	})
}

// "Apply" runs a block alone, so a block that applies only after the one
// before it (its SEARCH is that block's REPLACE) shows its status, not
// the button; the first keeps its button.
func TestLensApplyOnlyWhereTheBlockAppliesAlone(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.txt": "one\ntwo\n"})
	c := newClient(t, root)
	patch := c.open("p.fsrb", ptr("a.txt\n<<<<<<< SEARCH\none\n=======\nONE\n>>>>>>> REPLACE\n\na.txt\n<<<<<<< SEARCH\nONE\n=======\n1\n>>>>>>> REPLACE\n"))
	c.waitDiagnostics(patch, 1)
	titles := c.lensTitles(patch)
	if len(titles) != 4 || titles[0] != "Apply all blocks" || !strings.HasPrefix(titles[1], "#1 ") || titles[2] != "Apply" || !strings.HasPrefix(titles[3], "#2 ") {
		t.Errorf("lenses %q: want Apply all, #1, Apply, #2 (no Apply), Skip aside", titles)
	}
}

package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/fsrb/fsrb/lsp"
)

// vscodePullCaps is VS Code's capabilities (vscode-languageclient 11) as
// far as fsrb cares, LSP 3.17/3.18 included: pull diagnostics with refresh,
// inlay hints with refresh, code lens refresh, showDocument.
const vscodePullCaps = `{
  "workspace": {"applyEdit": true,
    "workspaceEdit": {"documentChanges": true, "resourceOperations": ["create", "rename", "delete"], "failureHandling": "textOnlyTransactional"},
    "didChangeWatchedFiles": {"dynamicRegistration": true},
    "codeLens": {"refreshSupport": true},
    "inlayHint": {"refreshSupport": true},
    "diagnostics": {"refreshSupport": true}},
  "window": {"workDoneProgress": true, "showDocument": {"support": true}},
  "textDocument": {"codeAction": {"disabledSupport": true},
    "diagnostic": {"dynamicRegistration": true, "relatedDocumentSupport": false},
    "inlayHint": {"dynamicRegistration": true}}
}`

// neovim010Caps: Neovim 0.10 advertises pull diagnostics but no refresh of
// them, inlay hints with refresh, showDocument.
const neovim010Caps = `{
  "workspace": {"applyEdit": true, "workspaceEdit": {"resourceOperations": ["rename", "create", "delete"]},
    "inlayHint": {"refreshSupport": true}},
  "window": {"workDoneProgress": true, "showDocument": {"support": true}},
  "textDocument": {"diagnostic": {"dynamicRegistration": false}, "inlayHint": {"dynamicRegistration": true}}
}`

// initializeWith initializes c and returns the server's capabilities.
func initializeWith(t *testing.T, c *testClient, caps string, options any) map[string]json.RawMessage {
	t.Helper()
	var res struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	var raw json.RawMessage
	params := map[string]any{"processId": nil, "rootUri": uri.File(c.root), "capabilities": json.RawMessage(caps), "initializationOptions": options}
	c.pulls = strings.Contains(caps, `"diagnostics": {"refreshSupport": true}`)
	if err := c.call(protocol.MethodInitialize, params, &raw); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	if err := c.notify(protocol.MethodInitialized, map[string]any{}); err != nil {
		t.Fatal(err)
	}
	return res.Capabilities
}

// Pull diagnostics are offered to a client that can also be told to pull
// again; the others (Neovim 0.7, Neovim 0.10) get push, and see the
// capabilities they always saw.
func TestPullOnlyWithRefresh(t *testing.T) {
	for _, tc := range []struct {
		name, caps   string
		pull, inlays bool
	}{
		{"vscode", vscodePullCaps, true, true},
		{"neovim010", neovim010Caps, false, true},
		{"neovim07", wireNeovim07Caps, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeFiles(t, map[string]string{"a.txt": "one\n", "b.txt": "zero\n"})
			c := startClient(t, root)
			caps := initializeWith(t, c, tc.caps, nil)
			dp, hasDP := caps["diagnosticProvider"]
			if hasDP != tc.pull || tc.pull && string(dp) != `{"interFileDependencies":true,"workspaceDiagnostics":false}` {
				t.Errorf("diagnosticProvider %s", dp)
			}
			if ih, ok := caps["inlayHintProvider"]; ok != tc.inlays || ok && string(ih) != "true" {
				t.Errorf("inlayHintProvider %s", ih)
			}
			text := twoBlocks
			u := c.open("p.fsrb", &text)
			diags := c.waitDiagnostics(u, 1) // pulled or pushed
			if got := errorsOf(diags); len(got) != 1 || got[0] != "not-found" {
				t.Errorf("diagnostics %q", got)
			}
			// A target fixed on disk: a pushing client gets new diagnostics,
			// a pulling one a refresh, after which it pulls them.
			if err := os.WriteFile(filepath.Join(root, "b.txt"), []byte("two\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := c.notify(protocol.MethodTextDocumentDidSave, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}); err != nil {
				t.Fatal(err)
			}
			c.waitFor("no errors", func() bool {
				pubs := c.diags[u]
				return len(errorsOf(pubs[len(pubs)-1].Diagnostics)) == 0
			})
			if !tc.pull {
				// The diagnostics of a later change come after the run
				// before it decided what to ask for.
				c.waitDiagnostics(u, c.appendText(u, "\n"))
			}
			if asked := c.session.Asked("workspace/diagnostic/refresh"); tc.pull != (asked > 0) {
				t.Errorf("%d diagnostic refreshes", asked)
			}
		})
	}
}

// A pull with the id of the last answer is answered "unchanged" while the
// diagnostics stand; a document that is no patch gets an empty report.
func TestPullUnchanged(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.txt": "one\n", "b.txt": "zero\n", "t.py": "x = 1\n"})
	c := startClient(t, root)
	initializeWith(t, c, vscodePullCaps, nil)
	text := twoBlocks
	u := c.open("p.fsrb", &text)
	c.waitDiagnostics(u, 1)
	pull := func(u uri.URI, prev string) map[string]json.RawMessage {
		params := &protocol.DocumentDiagnosticParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}
		if prev != "" {
			params.PreviousResultID = &prev
		}
		var rep map[string]json.RawMessage
		if err := c.call(protocol.MethodTextDocumentDiagnostic, params, &rep); err != nil {
			t.Fatal(err)
		}
		return rep
	}
	first := pull(u, "")
	var id string
	if err := json.Unmarshal(first["resultId"], &id); err != nil || string(first["kind"]) != `"full"` || id == "" {
		t.Fatalf("first pull %s", first)
	}
	if again := pull(u, id); string(again["kind"]) != `"unchanged"` || string(again["resultId"]) != string(first["resultId"]) || again["items"] != nil {
		t.Errorf("second pull %s", again)
	}
	c.edit(u, "TWO", "TWO!")
	if other := pull(u, id); string(other["kind"]) != `"unchanged"` {
		t.Errorf("the same problems after an edit of REPLACE: %s", other)
	}
	c.edit(u, "two\n=", "zero\n=")
	if fixed := pull(u, id); string(fixed["kind"]) != `"full"` || string(fixed["items"]) != "[]" {
		t.Errorf("after the fix %s", fixed)
	}
	py := c.open("t.py", nil)
	if rep := pull(py, ""); string(rep["kind"]) != `"full"` || string(rep["items"]) != "[]" {
		t.Errorf("a target file: %s", rep)
	}
}

// Inlay hints sit at the end of the opening line of each block that
// applies, within the range asked for; a block that does not apply gets
// none (its lens says why).
func TestInlayHints(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.txt": "one\n", "b.txt": "two\ntwo\n", "c.txt": "three\n"})
	c := startClient(t, root)
	initializeWith(t, c, vscodePullCaps, nil)
	text := "a.txt\n<<<<<<< SEARCH\none\n=======\nONE\n>>>>>>> REPLACE\n\nb.txt\n<<<<<<< SEARCH\ntwo\n=======\nTWO\n>>>>>>> REPLACE\n\nc.txt\n<<<<<<< SEARCH\nthree\n=======\nTHREE\n>>>>>>> REPLACE\n"
	u := c.open("p.fsrb", &text)
	c.waitDiagnostics(u, 1)
	hints := func(rng protocol.Range) []protocol.InlayHint {
		var out []protocol.InlayHint
		if err := c.call(protocol.MethodTextDocumentInlayHint, &protocol.InlayHintParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Range: rng}, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	all := hints(protocol.Range{End: protocol.Position{Line: 30}})
	if len(all) != 2 {
		t.Fatalf("hints %+v", all)
	}
	marker := strings.Index(text, "<<<<<<< SEARCH")
	want := positionOf(text, marker+len("<<<<<<< SEARCH"))
	if h := all[0]; h.Position != want || h.Label != protocol.String("→ a.txt:1") || h.Tooltip != protocol.String("#1 applies at a.txt:1") || h.PaddingLeft == nil || !*h.PaddingLeft {
		t.Errorf("hint 1 %+v, want at %+v", h, want)
	}
	if h := all[1]; h.Label != protocol.String("→ c.txt:1") || h.Position.Line != 15 {
		t.Errorf("hint 2 (block #3; block #2, ambiguous, has none) %+v", h)
	}
	if part := hints(protocol.Range{Start: protocol.Position{Line: 5}, End: protocol.Position{Line: 30}}); len(part) != 1 || part[0].Label != protocol.String("→ c.txt:1") {
		t.Errorf("hints of lines 5-30: %+v", part)
	}
}

// showDocument follows the setting and the client's support; the code
// action "Apply all blocks" opens the files too, once the client ran its
// command.
func TestShowChangedFiles(t *testing.T) {
	for _, tc := range []struct {
		name, caps string
		setting    bool
		want       int
	}{
		{"on", vscodePullCaps, true, 2},
		{"off", vscodePullCaps, false, 0},
		{"unsupported", vscodeCaps, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeFiles(t, map[string]string{"a.txt": "one\n", "b.txt": "two\n"})
			c := startClient(t, root)
			initializeWith(t, c, tc.caps, map[string]any{"showChangedFiles": tc.setting})
			text := twoBlocks
			u := c.open("p.fsrb", &text)
			c.waitDiagnostics(u, 1)
			var acts []protocol.CodeAction
			for _, a := range c.codeActions(u, protocol.Range{End: positionOf(text, len(text))}) {
				if strings.HasPrefix(a.Title, "Apply all blocks") {
					acts = append(acts, a)
				}
			}
			if len(acts) != 1 || acts[0].Command.Command != lsp.CommandApplied {
				t.Fatalf("actions %+v", acts)
			}
			// The editor applies the action's edit, then runs its command,
			// which answers once the files are shown (the "on" case checks
			// it): its answer is the event after which nothing more is.
			cmd := acts[0].Command
			if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: cmd.Command, Arguments: cmd.Arguments}, nil); err != nil {
				t.Fatal(err)
			}
			c.locked(func() {
				if len(c.shown) != tc.want {
					t.Fatalf("showDocument %+v", c.shown)
				}
				if tc.want == 2 && (c.shown[0].URI != c.uri("b.txt") || *c.shown[0].TakeFocus || c.shown[1].URI != c.uri("a.txt") || !*c.shown[1].TakeFocus) {
					t.Errorf("showDocument %+v", c.shown)
				}
			})
		})
	}
}

// The preview of a patch with problems lists nothing, and says why.
func TestPreviewProblems(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.txt": "one\n", "b.txt": "zero\n"})
	c := newClient(t, root)
	text := twoBlocks
	u := c.open("p.fsrb", &text)
	c.waitDiagnostics(u, 1)
	var rep lsp.PreviewReport
	if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: lsp.CommandPreview, Arguments: testArgs(u)}, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.State != "problems" || len(rep.Files) != 0 || !strings.Contains(rep.Message, "1 problem") {
		t.Errorf("preview %+v", rep)
	}
	var raw json.RawMessage
	if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: lsp.CommandPreview, Arguments: testArgs(u)}, &raw); err != nil || !strings.Contains(string(raw), `"files":[]`) {
		t.Errorf("preview %s (%v)", raw, err)
	}
}

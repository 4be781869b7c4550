package lsp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fsrb/fsrb/internal/testenv"
	"github.com/fsrb/fsrb/lsp"
)

var updateWire = flag.Bool("update-wire", false, "rewrite testdata/lsp/wire/*.golden from what the server sends")

// TestWireGolden records the exact JSON the server sends for one
// representative session — initialize, diagnostics, code actions with a
// WorkspaceEdit holding CreateFile/DeleteFile/TextDocumentEdit (null and
// numbered versions), code lenses, hover, symbols, links, folding,
// definition, workspace/applyEdit refused with a reason and accepted,
// showMessage, status, errors, shutdown — and compares it with
// testdata/lsp/wire/<client>.golden. The client here speaks raw JSON-RPC
// (no library), so the test does not depend on the JSON-RPC or LSP
// libraries the server is built on: what real clients (Neovim 0.7, an LSP
// 3.16 client; VS Code) receive must not change when they do.
//
// Messages are compared as parsed JSON: key order is free, but a null is
// not an absent field, [] is not null, 1 is not 1.0. Run with
// -update-wire to rewrite the golden files after a deliberate change.
func TestWireGolden(t *testing.T) {
	for _, tc := range []struct{ name, caps string }{
		{"neovim07", wireNeovim07Caps},
		{"vscode", wireVSCodeCaps},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := recordWire(t, tc.caps)
			path := filepath.Join("..", "testdata", "lsp", "wire", tc.name+".golden")
			if *updateWire {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update-wire to create it)", err)
			}
			compareWire(t, string(data), got)
		})
	}
}

// wireVSCodeCaps is vscodeCaps with what VS Code says of pull diagnostics
// (it pulls them, and takes a refresh request) and what the extension
// declares of VS Code's edits (checksDeleteRuns). (Its inlay hints, code lens
// refresh and showDocument are left out: pull_test.go and the scenarios
// cover them.)
const wireVSCodeCaps = `{
  "workspace": {"applyEdit": true,
    "workspaceEdit": {"documentChanges": true, "resourceOperations": ["create", "rename", "delete"], "failureHandling": "textOnlyTransactional"},
    "didChangeWatchedFiles": {"dynamicRegistration": true},
    "diagnostics": {"refreshSupport": true}},
  "window": {"workDoneProgress": true},
  "textDocument": {"codeAction": {"disabledSupport": true},
    "diagnostic": {"dynamicRegistration": true, "relatedDocumentSupport": false}},
  "experimental": {"fsrb": {"checksDeleteRuns": true}}
}`

// wireNeovim07Caps is the part of Neovim 0.7.2's client capabilities that
// touches fsrb: resource operations without documentChanges, no dynamic
// registration, no codeLens refresh, no disabledSupport; and what the
// plugin declares (editsByCommand).
const wireNeovim07Caps = `{
  "workspace": {"applyEdit": true, "configuration": true, "workspaceFolders": true,
    "workspaceEdit": {"resourceOperations": ["rename", "create", "delete"]},
    "symbol": {"dynamicRegistration": false}},
  "textDocument": {
    "synchronization": {"didSave": true, "dynamicRegistration": false, "willSave": false, "willSaveWaitUntil": false},
    "codeAction": {"dynamicRegistration": false, "isPreferredSupport": true, "dataSupport": true,
      "codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["", "quickfix", "refactor", "refactor.extract", "refactor.inline", "refactor.rewrite", "source", "source.organizeImports"]}}},
    "hover": {"contentFormat": ["markdown", "plaintext"], "dynamicRegistration": false},
    "documentSymbol": {"hierarchicalDocumentSymbolSupport": true, "dynamicRegistration": false},
    "publishDiagnostics": {"relatedInformation": true, "tagSupport": {"valueSet": [1, 2]}}},
  "window": {"workDoneProgress": true, "showMessage": {"messageActionItem": {"additionalPropertiesSupport": false}}, "showDocument": {"support": false}},
  "experimental": {"fsrb": {"editsByCommand": true}}
}`

// wireFiles is the workspace of the session: patch.fsrb creates a file in
// a new folder, deletes one and so empties its folder, edits a file the editor has not opened (null
// version) and one it has (its version); bad.fsrb does not apply.
var wireFiles = map[string]string{
	"patch.fsrb": "pkg/new/hello.go\n<<<<<<< SEARCH\n=======\npackage hello\n\nfunc Hello() string { return \"hello\" }\n>>>>>>> REPLACE\n\n" +
		"old/obsolete.txt\n<<<<<<< SEARCH\nobsolete\n=======\n>>>>>>> REPLACE\n\n" +
		"main.go\n<<<<<<< SEARCH\nimport \"fmt\"\n=======\nimport (\n\t\"fmt\"\n\n\t\"example.com/pkg/new/hello\"\n)\n>>>>>>> REPLACE\n\n" +
		"open.py\n<<<<<<< SEARCH\ndef f(a):\n    return a < 1 and a > -1 & 3\n=======\ndef f(a):\n    return a <= 2 \"é\"\n>>>>>>> REPLACE\n",
	"bad.fsrb": "open.py\n<<<<<<< SEARCH\ndef f(b):\n    return b < 1 and b > -1 & 3\n=======\ndef g(b):\n    return b\n>>>>>>> REPLACE\n\n" +
		"missing.txt\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n",
	"old/obsolete.txt": "obsolete\n",
	"main.go":          "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hi\") }\n",
	"open.py":          "# é\ndef f(a):\n    return a < 1 and a > -1 & 3\n",
}

// wireConn is a raw JSON-RPC client over the LSP framing.
type wireConn struct {
	t    *testing.T
	root string
	in   *bufio.Reader
	out  io.Writer
	msgs chan []byte
	next int
	// diags holds the last publishDiagnostics per document.
	diags map[string][]byte
	// pending holds messages read while waiting for another.
	pending [][]byte
	// onRequest answers the server's requests; nil answers null.
	onRequest func(method string, params json.RawMessage) any
	log       []string
}

func (c *wireConn) send(v any) {
	c.t.Helper()
	body, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := fmt.Fprintf(c.out, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		c.t.Fatal(err)
	}
}

func (c *wireConn) read() {
	defer close(c.msgs)
	for {
		length := -1
		for {
			line, err := c.in.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			name, value, _ := strings.Cut(line, ":")
			if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
				length, _ = strconv.Atoi(strings.TrimSpace(value))
			}
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(c.in, body); err != nil {
			return
		}
		c.msgs <- body
	}
}

type wireEnvelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// take returns the next message from the server; it answers requests
// and files diagnostics as it goes (both are also returned).
func (c *wireConn) take() []byte {
	c.t.Helper()
	select {
	case body, ok := <-c.msgs:
		if !ok {
			c.t.Fatal("connection closed")
		}
		var env wireEnvelope
		if err := json.Unmarshal(body, &env); err != nil {
			c.t.Fatalf("server sent %s: %v", body, err)
		}
		switch {
		case env.Method == "textDocument/publishDiagnostics":
			var p struct {
				URI string `json:"uri"`
			}
			_ = json.Unmarshal(env.Params, &p)
			c.diags[p.URI] = body
		case env.Method != "" && env.ID != nil:
			var result any
			if c.onRequest != nil {
				result = c.onRequest(env.Method, env.Params)
			}
			c.send(map[string]any{"jsonrpc": "2.0", "id": env.ID, "result": result})
		}
		return body
	case <-time.After(testenv.Timeout(c.t, 10*time.Second)):
		c.t.Fatal("timed out waiting for the server")
	}
	return nil
}

// waitFor returns the first message (pending first) for which match holds.
func (c *wireConn) waitFor(what string, match func(env wireEnvelope, body []byte) bool) []byte {
	c.t.Helper()
	for i, body := range c.pending {
		var env wireEnvelope
		_ = json.Unmarshal(body, &env)
		if match(env, body) {
			c.pending = append(c.pending[:i:i], c.pending[i+1:]...)
			return body
		}
	}
	for {
		body := c.take()
		var env wireEnvelope
		_ = json.Unmarshal(body, &env)
		if match(env, body) {
			return body
		}
		c.pending = append(c.pending, body)
	}
}

func (c *wireConn) record(label string, body []byte) {
	text := strings.ReplaceAll(string(body), c.root, "$ROOT")
	// A result id names the diagnostics' content, which holds the root.
	text = resultIDs.ReplaceAllString(text, `"resultId":"$$ID"`)
	c.log = append(c.log, "-- "+label+" --\n"+text+"\n")
}

var resultIDs = regexp.MustCompile(`"resultId":"[^"]*"`)

// call sends a request and records its response.
func (c *wireConn) call(label, method string, params any) []byte {
	c.t.Helper()
	c.next++
	id := c.next
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	want := strconv.Itoa(id)
	body := c.waitFor(label, func(env wireEnvelope, _ []byte) bool { return env.Method == "" && string(env.ID) == want })
	c.record(label, body)
	return body
}

func (c *wireConn) notify(method string, params any) {
	c.t.Helper()
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// expect records the next message of the server with the given method.
func (c *wireConn) expect(label, method string, match func(params string) bool) {
	c.t.Helper()
	body := c.waitFor(label, func(env wireEnvelope, _ []byte) bool {
		return env.Method == method && (match == nil || match(string(env.Params)))
	})
	c.record(label, body)
}

// diagnostics records the last diagnostics of u once one holds want.
func (c *wireConn) diagnostics(label, u, want string) {
	c.t.Helper()
	for {
		if body, ok := c.diags[u]; ok && strings.Contains(string(body), want) {
			c.record(label, body)
			return
		}
		c.pending = append(c.pending, c.take())
	}
}

func recordWire(t *testing.T, caps string) string {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range wireFiles {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fileURI := func(name string) string {
		return (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(root, name))}).String()
	}
	serverSide, clientSide := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	session := lsp.Serve(ctx, serverSide, lsp.Options{Version: "test"})
	c := &wireConn{t: t, root: root, in: bufio.NewReader(clientSide), out: clientSide, msgs: make(chan []byte, 100), diags: map[string][]byte{}}
	go c.read()
	defer func() {
		_ = clientSide.Close()
		<-session.Done()
	}()

	c.call("initialize", "initialize", map[string]any{
		"processId": nil, "rootUri": fileURI(""), "rootPath": root,
		"workspaceFolders": []any{map[string]any{"uri": fileURI(""), "name": "ws"}},
		"clientInfo":       map[string]any{"name": "wire-test", "version": "0"},
		"capabilities":     json.RawMessage(caps),
		"trace":            "off",
	})
	c.notify("initialized", map[string]any{})
	if strings.Contains(caps, `"didChangeWatchedFiles"`) {
		c.expect("client/registerCapability", "client/registerCapability", nil)
	}

	patch, bad, open := fileURI("patch.fsrb"), fileURI("bad.fsrb"), fileURI("open.py")
	for _, d := range []struct{ u, lang, name string }{{open, "python", "open.py"}, {patch, "fsrb", "patch.fsrb"}, {bad, "fsrb", "bad.fsrb"}} {
		c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
			"uri": d.u, "languageId": d.lang, "version": 1, "text": wireFiles[d.name]}})
	}
	// A client that pulls diagnostics is never pushed any: it asks.
	pull := strings.Contains(caps, `"diagnostic":`)
	doc := func(u string) map[string]any { return map[string]any{"uri": u} }
	var patchResult string
	if pull {
		body := c.call("diagnostic patch.fsrb", "textDocument/diagnostic", map[string]any{"textDocument": doc(patch)})
		var rep struct {
			Result struct {
				ResultID string `json:"resultId"`
			} `json:"result"`
		}
		if err := json.Unmarshal(body, &rep); err != nil || rep.Result.ResultID == "" {
			t.Fatalf("no resultId in %s (%v)", body, err)
		}
		patchResult = rep.Result.ResultID
		c.call("diagnostic bad.fsrb", "textDocument/diagnostic", map[string]any{"textDocument": doc(bad)})
		c.call("diagnostic patch.fsrb unchanged", "textDocument/diagnostic", map[string]any{"textDocument": doc(patch), "previousResultId": patchResult})
	} else {
		c.diagnostics("publishDiagnostics patch.fsrb", patch, `"version":1`)
		c.diagnostics("publishDiagnostics bad.fsrb", bad, `not-found`)
	}

	// An edit of the open target without a range (the whole text), then
	// one with a range: the patch is re-validated for both.
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": open, "version": 2},
		"contentChanges": []any{map[string]any{"text": "# é\ndef f(a):\n    return a < 1 and a > -1 & 3\n\n"}},
	})
	c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": open, "version": 3},
		"contentChanges": []any{map[string]any{"range": map[string]any{
			"start": map[string]any{"line": 3, "character": 0}, "end": map[string]any{"line": 4, "character": 0}}, "text": ""}},
	})

	// A range past the end of a document is an error now (position.go):
	// "whole" ends where each document ends.
	whole := func(name string) map[string]any {
		end := positionOf(wireFiles[name], len(wireFiles[name]))
		return map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": end.Line, "character": end.Character}}
	}
	c.call("codeAction patch.fsrb", "textDocument/codeAction", map[string]any{
		"textDocument": doc(patch), "range": whole("patch.fsrb"), "context": map[string]any{"diagnostics": []any{}}})
	c.call("codeAction patch.fsrb source", "textDocument/codeAction", map[string]any{
		"textDocument": doc(patch), "range": whole("patch.fsrb"), "context": map[string]any{"diagnostics": []any{}, "only": []any{"source"}}})
	c.call("codeAction bad.fsrb", "textDocument/codeAction", map[string]any{
		"textDocument": doc(bad), "range": whole("bad.fsrb"), "context": map[string]any{"diagnostics": []any{}}})
	c.call("codeLens patch.fsrb", "textDocument/codeLens", map[string]any{"textDocument": doc(patch)})
	c.call("codeLens bad.fsrb", "textDocument/codeLens", map[string]any{"textDocument": doc(bad)})
	at := func(line, char int) map[string]any { return map[string]any{"line": line, "character": char} }
	c.call("hover patch.fsrb", "textDocument/hover", map[string]any{"textDocument": doc(patch), "position": at(19, 2)})
	c.call("hover bad.fsrb", "textDocument/hover", map[string]any{"textDocument": doc(bad), "position": at(1, 2)})
	c.call("hover outside a block", "textDocument/hover", map[string]any{"textDocument": doc(patch), "position": at(7, 0)})
	c.call("documentSymbol patch.fsrb", "textDocument/documentSymbol", map[string]any{"textDocument": doc(patch)})
	c.call("documentLink patch.fsrb", "textDocument/documentLink", map[string]any{"textDocument": doc(patch)})
	c.call("foldingRange patch.fsrb", "textDocument/foldingRange", map[string]any{"textDocument": doc(patch)})
	c.call("definition patch.fsrb", "textDocument/definition", map[string]any{"textDocument": doc(patch), "position": at(19, 2)})
	c.call("definition bad.fsrb", "textDocument/definition", map[string]any{"textDocument": doc(bad), "position": at(1, 2)})
	c.call("status patch.fsrb", "workspace/executeCommand", map[string]any{"command": "fsrb.status", "arguments": []any{patch}})

	// The editor refuses an edit, with a reason.
	c.onRequest = func(method string, params json.RawMessage) any {
		if method == "workspace/applyEdit" {
			return map[string]any{"applied": false, "failureReason": "the file changed"}
		}
		return nil
	}
	c.call("executeCommand applyBlock refused", "workspace/executeCommand", map[string]any{"command": "fsrb.applyBlock", "arguments": []any{patch, 4}})
	c.expect("workspace/applyEdit block 4", "workspace/applyEdit", nil)
	c.expect("showMessage refused", "window/showMessage", nil)

	// It applies "Apply all".
	c.onRequest = func(method string, params json.RawMessage) any {
		if method == "workspace/applyEdit" {
			return map[string]any{"applied": true}
		}
		return nil
	}
	c.call("executeCommand applyAll", "workspace/executeCommand", map[string]any{"command": "fsrb.applyAll", "arguments": []any{patch}})
	c.expect("workspace/applyEdit all", "workspace/applyEdit", nil)
	c.expect("showMessage applied", "window/showMessage", nil)
	if pull {
		// The patch did not change, its targets did: the server asks the
		// client to pull again.
		c.waitFor("workspace/diagnostic/refresh", func(env wireEnvelope, _ []byte) bool { return env.Method == "workspace/diagnostic/refresh" })
		c.call("diagnostic patch.fsrb applied", "textDocument/diagnostic", map[string]any{"textDocument": doc(patch), "previousResultId": patchResult})
	} else {
		c.diagnostics("publishDiagnostics patch.fsrb applied", patch, `"applied"`)
	}
	c.call("status patch.fsrb applied", "workspace/executeCommand", map[string]any{"command": "fsrb.status", "arguments": []any{patch}})
	c.call("codeLens patch.fsrb applied", "textDocument/codeLens", map[string]any{"textDocument": doc(patch)})
	c.call("codeAction patch.fsrb applied", "textDocument/codeAction", map[string]any{
		"textDocument": doc(patch), "range": whole("patch.fsrb"), "context": map[string]any{"diagnostics": []any{}}})
	c.call("executeCommand applyAll again", "workspace/executeCommand", map[string]any{"command": "fsrb.applyAll", "arguments": []any{patch}})
	c.expect("showMessage nothing to apply", "window/showMessage", nil)

	// Errors.
	c.call("executeCommand unknown", "workspace/executeCommand", map[string]any{"command": "fsrb.nope", "arguments": []any{}})
	c.call("executeCommand without a URI", "workspace/executeCommand", map[string]any{"command": "fsrb.applyAll"})
	c.call("unknown method", "textDocument/completion", map[string]any{"textDocument": doc(patch), "position": at(0, 0)})
	// The decoder's own words are no contract: the code and the start are.
	body := c.call("bad params", "textDocument/codeLens", map[string]any{"textDocument": 5})
	if i := strings.Index(string(body), "bad params"); i >= 0 {
		j := strings.Index(string(body), `"},"id"`)
		if j < 0 {
			j = strings.Index(string(body), `"}`)
		}
		c.log[len(c.log)-1] = "-- bad params --\n" + string(body[:i+len("bad params")]) + string(body[j:]) + "\n"
	}

	c.notify("textDocument/didClose", map[string]any{"textDocument": doc(bad)})
	if !pull {
		c.diagnostics("publishDiagnostics bad.fsrb closed", bad, `"diagnostics":[]`)
	}
	c.call("shutdown", "shutdown", nil)
	c.call("after shutdown", "textDocument/codeLens", map[string]any{"textDocument": doc(patch)})
	if pull && len(c.diags) > 0 {
		t.Errorf("diagnostics pushed to a client that pulls them: %q", c.diags)
	}
	return strings.Join(c.log, "")
}

// compareWire compares golden and got message by message, as parsed JSON
// (numbers as written), and reports when they are equal but not
// byte-identical.
func compareWire(t *testing.T, golden, got string) {
	t.Helper()
	// "-- label --" lines, each followed by one message on one line.
	split := func(s string) (labels, bodies []string) {
		lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
		for i := 0; i+1 < len(lines); i += 2 {
			labels = append(labels, strings.TrimSuffix(strings.TrimPrefix(lines[i], "-- "), " --"))
			bodies = append(bodies, lines[i+1])
		}
		return labels, bodies
	}
	wl, wb := split(golden)
	gl, gb := split(got)
	if !reflect.DeepEqual(wl, gl) {
		t.Fatalf("messages differ:\ngolden %q\ngot    %q", wl, gl)
	}
	parse := func(s string) any {
		d := json.NewDecoder(strings.NewReader(s))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			t.Fatalf("%v: %s", err, s)
		}
		return v
	}
	identical := true
	for i := range wl {
		if wb[i] == gb[i] {
			continue
		}
		identical = false
		if !reflect.DeepEqual(parse(wb[i]), parse(gb[i])) {
			t.Errorf("%s differs:\ngolden %s\ngot    %s", wl[i], wb[i], gb[i])
		} else if !bytes.Equal(compact(t, wb[i]), compact(t, gb[i])) {
			t.Logf("%s: same JSON, other key order or escaping", wl[i])
		}
	}
	if !identical {
		t.Logf("not byte-identical (same JSON values)")
	}
}

func compact(t *testing.T, s string) []byte {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

package lsp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/fsrb/fsrb/internal/testenv"
	"github.com/fsrb/fsrb/lsp"
)

// testClient is an editor in the same process: it drives the real server
// through the JSON-RPC wire over net.Pipe and records what the server sends.
type testClient struct {
	t       testing.TB
	root    string
	conn    jsonrpc2.Conn
	session *lsp.Session

	mu        sync.Mutex
	changed   chan struct{} // closed and replaced on every event
	diags     map[uri.URI][]protocol.PublishDiagnosticsParams
	messages  []protocol.ShowMessageParams
	progress  []json.RawMessage
	applied   []protocol.ApplyWorkspaceEditParams
	refreshes int // workspace/codeLens/refresh requests received
	// events lists what the server sent, in the order it arrived:
	// "publish <uri> <version>" and the method of each refresh request.
	events []string
	// pulls: the client pulls diagnostics (its capabilities say so), as
	// VS Code does: after its own didOpen and didChange, and for every
	// open document on workspace/diagnostic/refresh; each answer lands in
	// diags like a publication (version: the document's when it asked).
	pulls         bool
	pullSeq       map[uri.URI]int // the last pull's number per document
	resultIDs     map[uri.URI]string
	diagRefreshes int // workspace/diagnostic/refresh requests received
	hintRefreshes int // workspace/inlayHint/refresh requests received
	shown         []protocol.ShowDocumentParams
	calls         int32 // requests sent, to predict ids for $/cancelRequest
	versions      map[uri.URI]int32
	texts         map[uri.URI]string

	// onApply answers workspace/applyEdit; nil applies nothing and says yes.
	onApply func(protocol.ApplyWorkspaceEditParams) protocol.ApplyWorkspaceEditResult
}

// vscodeCaps is what VS Code advertises, as far as fsrb cares.
const vscodeCaps = `{
  "workspace": {"applyEdit": true,
    "workspaceEdit": {"documentChanges": true, "resourceOperations": ["create", "rename", "delete"], "failureHandling": "textOnlyTransactional"},
    "didChangeWatchedFiles": {"dynamicRegistration": true}},
  "window": {"workDoneProgress": true},
  "textDocument": {"codeAction": {"disabledSupport": true}}
}`

// bareCaps: neither documentChanges nor resource operations.
const bareCaps = `{"workspace": {"applyEdit": true}}`

func newClient(t testing.TB, root string) *testClient {
	t.Helper()
	c := startClient(t, root)
	c.initialize(vscodeCaps, nil)
	return c
}

func startClient(t testing.TB, root string) *testClient {
	t.Helper()
	return startClientWith(t, root, 0)
}

func startClientWith(t testing.TB, root string, debounce time.Duration) *testClient {
	t.Helper()
	if root == "" {
		root = t.TempDir()
	}
	serverSide, clientSide := net.Pipe()
	logger := zap.NewNop()
	if os.Getenv("FSRB_LSP_TEST_LOG") != "" {
		logger, _ = zap.NewDevelopment()
	}
	ctx, cancel := context.WithCancel(context.Background())
	session := lsp.Serve(ctx, serverSide, lsp.Options{Logger: logger, Version: "test", Debounce: debounce})
	c := &testClient{
		t: t, root: root, session: session,
		conn:     jsonrpc2.NewConn(jsonrpc2.NewStream(clientSide), jsonrpc2.WithCodec(testCodec{})),
		changed:  make(chan struct{}),
		diags:    map[uri.URI][]protocol.PublishDiagnosticsParams{},
		versions: map[uri.URI]int32{},
		texts:    map[uri.URI]string{},

		pullSeq:   map[uri.URI]int{},
		resultIDs: map[uri.URI]string{},
	}
	c.conn.Go(ctx, c.inOrder)
	t.Cleanup(func() {
		_ = c.conn.Close()
		<-session.Done()
		cancel()
	})
	return c
}

func (c *testClient) initialize(caps string, options any) {
	c.t.Helper()
	params := map[string]any{
		"processId":             nil,
		"rootUri":               uri.File(c.root),
		"capabilities":          json.RawMessage(caps),
		"initializationOptions": options,
	}
	var cc protocol.ClientCapabilities
	if err := protocol.Unmarshal([]byte(caps), &cc); err != nil {
		c.t.Fatalf("capabilities: %v", err)
	}
	c.pulls = cc.TextDocument != nil && cc.TextDocument.Diagnostic != nil &&
		cc.Workspace != nil && cc.Workspace.Diagnostics != nil && cc.Workspace.Diagnostics.RefreshSupport != nil && *cc.Workspace.Diagnostics.RefreshSupport
	if err := c.call(protocol.MethodInitialize, params, nil); err != nil {
		c.t.Fatalf("initialize: %v", err)
	}
	if err := c.notify(protocol.MethodInitialized, map[string]any{}); err != nil {
		c.t.Fatal(err)
	}
}

// testCodec is protocol's codec: the library's own is unexported.
type testCodec struct{}

func (testCodec) Marshal(v any) ([]byte, error)      { return protocol.Marshal(v) }
func (testCodec) Unmarshal(data []byte, v any) error { return protocol.Unmarshal(data, v) }

// inOrder handles the server's messages one after another, in the order
// they came, as an editor does: run concurrently, two publishDiagnostics
// close together could be recorded the other way round, and a wait for
// the last version's diagnostics would wait for ever. Only
// workspace/applyEdit, whose answer may wait on the test (onApply), runs
// beside the messages after it.
func (c *testClient) inOrder(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	if req.Method() == protocol.MethodWorkspaceApplyEdit {
		jsonrpc2.Async(ctx)
	}
	return c.handle(ctx, req)
}

func (c *testClient) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	switch req.Method() {
	case protocol.MethodTextDocumentPublishDiagnostics:
		var p protocol.PublishDiagnosticsParams
		if err := protocol.Unmarshal(req.Params(), &p); err != nil {
			c.t.Errorf("publishDiagnostics: %v", err)
		}
		if strings.Contains(string(req.Params()), `"diagnostics":null`) {
			c.t.Errorf("publishDiagnostics with null diagnostics: %s", req.Params())
		}
		if c.pulls {
			c.t.Errorf("publishDiagnostics to a client that pulls diagnostics: %s", req.Params())
		}
		c.record(func() {
			c.diags[p.URI] = append(c.diags[p.URI], p)
			v, _ := p.Version.Get()
			c.events = append(c.events, fmt.Sprintf("publish %s %d", p.URI, v))
		})
		return nil, nil
	case protocol.MethodWindowShowMessage:
		var p protocol.ShowMessageParams
		_ = protocol.Unmarshal(req.Params(), &p)
		c.record(func() { c.messages = append(c.messages, p) })
		return nil, nil
	case protocol.MethodProgress:
		c.record(func() { c.progress = append(c.progress, append(json.RawMessage(nil), req.Params()...)) })
		return nil, nil
	case protocol.MethodWorkspaceApplyEdit:
		var p protocol.ApplyWorkspaceEditParams
		if err := protocol.Unmarshal(req.Params(), &p); err != nil {
			return nil, err
		}
		c.record(func() { c.applied = append(c.applied, p) })
		res := protocol.ApplyWorkspaceEditResult{Applied: true}
		c.mu.Lock()
		onApply := c.onApply
		c.mu.Unlock()
		if onApply != nil {
			res = onApply(p)
		}
		return &res, nil
	case protocol.MethodWindowWorkDoneProgressCreate, protocol.MethodClientRegisterCapability:
		return nil, nil
	case "workspace/codeLens/refresh":
		c.record(func() { c.refreshes++; c.events = append(c.events, req.Method()) })
		return nil, nil
	case "workspace/diagnostic/refresh":
		c.record(func() { c.diagRefreshes++; c.events = append(c.events, req.Method()) })
		go c.pullAll()
		return nil, nil
	case "workspace/inlayHint/refresh":
		c.record(func() { c.hintRefreshes++; c.events = append(c.events, req.Method()) })
		return nil, nil
	case protocol.MethodWindowShowDocument:
		var p protocol.ShowDocumentParams
		if err := protocol.Unmarshal(req.Params(), &p); err != nil {
			return nil, err
		}
		c.record(func() { c.shown = append(c.shown, p) })
		return &protocol.ShowDocumentResult{Success: true}, nil
	}
	return jsonrpc2.MethodNotFoundHandler(ctx, req)
}

// locked runs f with the recorded state to itself.
func (c *testClient) locked(f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f()
}

func (c *testClient) setOnApply(f func(protocol.ApplyWorkspaceEditParams) protocol.ApplyWorkspaceEditResult) {
	c.locked(func() { c.onApply = f })
}

func (c *testClient) record(f func()) {
	c.mu.Lock()
	f()
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

// call sends a request and waits for its answer.
func (c *testClient) call(method string, params, result any) error {
	c.mu.Lock()
	c.calls++
	c.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Timeout(c.t, 20*time.Second))
	defer cancel()
	_, err := c.conn.Call(ctx, method, params, result)
	return err
}

// nextID is the id the next call will carry (jsonrpc2 numbers them from 1).
func (c *testClient) nextID() int32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls + 1
}

func (c *testClient) notify(method string, params any) error {
	return c.conn.Notify(context.Background(), method, params)
}

func (c *testClient) uri(name string) uri.URI {
	return uri.File(filepath.Join(c.root, filepath.FromSlash(name)))
}

func languageOf(name string) string {
	switch {
	case strings.HasSuffix(name, ".fsrb"):
		return "fsrb"
	case strings.HasSuffix(name, ".md"):
		return "markdown"
	case strings.HasSuffix(name, ".go"):
		return "go"
	case strings.HasSuffix(name, ".diff"):
		return "diff" // as VS Code names it; a *.patch stays plaintext here, found by its extension
	}
	return "plaintext"
}

// open opens name with text (its disk content when text is nil).
func (c *testClient) open(name string, text *string) uri.URI {
	c.t.Helper()
	if text == nil {
		data, err := os.ReadFile(filepath.Join(c.root, filepath.FromSlash(name)))
		if err != nil {
			c.t.Fatal(err)
		}
		s := string(data)
		text = &s
	}
	u := c.uri(name)
	c.mu.Lock()
	c.versions[u] = 1
	c.texts[u] = *text
	c.mu.Unlock()
	err := c.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: protocol.LanguageKind(languageOf(name)), Version: 1, Text: *text,
	}})
	if err != nil {
		c.t.Fatal(err)
	}
	c.pullAfterChange(u)
	return u
}

// edit replaces the first occurrence of old by new in an open document with
// an incremental change, and returns the new version.
func (c *testClient) edit(u uri.URI, old, new string) int32 {
	c.t.Helper()
	c.mu.Lock()
	text := c.texts[u]
	i := strings.Index(text, old)
	if i < 0 {
		c.mu.Unlock()
		c.t.Fatalf("edit: %q not in %s", old, u)
	}
	rng := protocol.Range{Start: positionOf(text, i), End: positionOf(text, i+len(old))}
	c.texts[u] = text[:i] + new + text[i+len(old):]
	c.versions[u]++
	v := c.versions[u]
	c.mu.Unlock()
	err := c.notify(protocol.MethodTextDocumentDidChange, map[string]any{
		"textDocument":   map[string]any{"uri": u, "version": v},
		"contentChanges": []any{map[string]any{"range": rng, "text": new}},
	})
	if err != nil {
		c.t.Fatal(err)
	}
	c.pullAfterChange(u)
	return v
}

// replace sends the whole new text of an open document (a change without
// a range) and returns its version.
func (c *testClient) replace(u uri.URI, text string) int32 {
	c.t.Helper()
	c.mu.Lock()
	c.texts[u] = text
	c.versions[u]++
	v := c.versions[u]
	c.mu.Unlock()
	err := c.notify(protocol.MethodTextDocumentDidChange, map[string]any{
		"textDocument":   map[string]any{"uri": u, "version": v},
		"contentChanges": []any{map[string]any{"text": text}},
	})
	if err != nil {
		c.t.Fatal(err)
	}
	c.pullAfterChange(u)
	return v
}

// pullAfterChange pulls the diagnostics of u after the client told the
// server of its text, as VS Code does, when the client pulls.
func (c *testClient) pullAfterChange(u uri.URI) {
	if c.pulls {
		go c.pull(u)
	}
}

// pullAll pulls the diagnostics of every open document.
func (c *testClient) pullAll() {
	c.mu.Lock()
	var open []uri.URI
	for u := range c.versions {
		open = append(open, u)
	}
	c.mu.Unlock()
	for _, u := range open {
		c.pull(u)
	}
}

// pull asks for the diagnostics of u and files the answer as if it had
// been published, unless a later pull's answer came first.
func (c *testClient) pull(u uri.URI) {
	c.mu.Lock()
	c.pullSeq[u]++
	seq, version, prev := c.pullSeq[u], c.versions[u], c.resultIDs[u]
	c.mu.Unlock()
	params := &protocol.DocumentDiagnosticParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}
	if prev != "" {
		params.PreviousResultID = &prev
	}
	var raw json.RawMessage
	if err := c.call(protocol.MethodTextDocumentDiagnostic, params, &raw); err != nil {
		// A pull still in flight when the test ends meets the client's
		// own close (t.Cleanup): that is no answer of the server's.
		if !errors.Is(err, context.Canceled) && !errors.Is(err, jsonrpc2.ErrClientClosing) {
			c.t.Errorf("textDocument/diagnostic: %v", err)
		}
		return
	}
	var rep protocol.FullDocumentDiagnosticReport
	if err := protocol.Unmarshal(raw, &rep); err != nil {
		c.t.Errorf("textDocument/diagnostic answered %s: %v", raw, err)
		return
	}
	c.record(func() {
		if c.pullSeq[u] != seq {
			return // a later pull is under way
		}
		items := rep.Items
		if rep.Kind == string(protocol.DocumentDiagnosticReportKindUnchanged) {
			if pubs := c.diags[u]; len(pubs) > 0 {
				items = pubs[len(pubs)-1].Diagnostics
			}
		}
		if items == nil {
			items = []protocol.Diagnostic{}
		}
		if rep.ResultID != nil {
			c.resultIDs[u] = *rep.ResultID
		}
		c.diags[u] = append(c.diags[u], protocol.PublishDiagnosticsParams{URI: u, Version: protocol.NewOptional(version), Diagnostics: items})
	})
}

// waitDiagnostics waits for the diagnostics of u published for version v.
func (c *testClient) waitDiagnostics(u uri.URI, v int32) []protocol.Diagnostic {
	c.t.Helper()
	var got []protocol.Diagnostic
	c.waitFor(fmt.Sprintf("diagnostics of %s version %d", u, v), func() bool {
		pubs := c.diags[u]
		if len(pubs) == 0 {
			return false
		}
		if version, _ := pubs[len(pubs)-1].Version.Get(); version != v {
			return false
		}
		got = pubs[len(pubs)-1].Diagnostics
		return true
	})
	return got
}

// latest returns the last diagnostics published for u.
func (c *testClient) latest(u uri.URI) []protocol.Diagnostic {
	c.mu.Lock()
	defer c.mu.Unlock()
	pubs := c.diags[u]
	if len(pubs) == 0 {
		return nil
	}
	return pubs[len(pubs)-1].Diagnostics
}

// waitFor waits until cond, called under the lock, holds.
func (c *testClient) waitFor(what string, cond func() bool) {
	c.t.Helper()
	deadline := time.After(testenv.Timeout(c.t, 10*time.Second))
	for {
		c.mu.Lock()
		ok := cond()
		ch := c.changed
		c.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			c.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func (c *testClient) codeActions(u uri.URI, rng protocol.Range, only ...protocol.CodeActionKind) []protocol.CodeAction {
	c.t.Helper()
	var out []protocol.CodeAction
	params := &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Range: rng,
		Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{}, Only: only}}
	if err := c.call(protocol.MethodTextDocumentCodeAction, params, &out); err != nil {
		c.t.Fatalf("codeAction: %v", err)
	}
	return out
}

// positionOf converts a byte offset into an LSP position, counting UTF-16
// code units independently of the server's mapper.
func positionOf(text string, offset int) protocol.Position {
	line, start := 0, 0
	for i := 0; i < offset; i++ {
		if text[i] == '\n' {
			line++
			start = i + 1
		}
	}
	col := 0
	for _, r := range text[start:offset] {
		col += utf16.RuneLen(r)
	}
	return protocol.Position{Line: uint32(line), Character: uint32(col)}
}

// offsetOf is positionOf's inverse.
func offsetOf(text string, p protocol.Position) int {
	i := 0
	for line := 0; line < int(p.Line); line++ {
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			return len(text)
		}
		i += j + 1
	}
	for col := 0; i < len(text) && text[i] != '\n' && text[i] != '\r' && col < int(p.Character); {
		r, size := utf8.DecodeRuneInString(text[i:])
		col += utf16.RuneLen(r)
		i += size
	}
	return i
}

// applyEdits applies LSP text edits, as an editor does: every range refers
// to the text before any of them.
func applyEdits(text string, edits []protocol.TextEdit) (string, error) {
	type span struct {
		start, end int
		text       string
	}
	spans := make([]span, len(edits))
	for i, e := range edits {
		spans[i] = span{offsetOf(text, e.Range.Start), offsetOf(text, e.Range.End), e.NewText}
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	var b strings.Builder
	at := 0
	for _, s := range spans {
		if s.start < at || s.end < s.start {
			return "", fmt.Errorf("overlapping edits")
		}
		b.WriteString(text[at:s.start])
		b.WriteString(s.text)
		at = s.end
	}
	b.WriteString(text[at:])
	return b.String(), nil
}

// testArgs makes the arguments of a command.
func testArgs(vs ...any) []protocol.LSPAny {
	out := make([]protocol.LSPAny, len(vs))
	for i, v := range vs {
		data, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		out[i] = protocol.LSPAny(data)
	}
	return out
}

// codeOf, messageOf, sourceOf spell a diagnostic's fields as strings.
func codeOf(d protocol.Diagnostic) string {
	switch c := d.Code.(type) {
	case protocol.String:
		return string(c)
	case protocol.Integer:
		return fmt.Sprint(int32(c))
	}
	return ""
}

func messageOf(d protocol.Diagnostic) string {
	switch m := d.Message.(type) {
	case protocol.String:
		return string(m)
	case *protocol.MarkupContent:
		return m.Value
	}
	return ""
}

func sourceOf(d protocol.Diagnostic) string {
	s, _ := d.Source.Get()
	return s
}

func kindOf(a protocol.CodeAction) protocol.CodeActionKind {
	if a.Kind == nil {
		return ""
	}
	return *a.Kind
}

// docEdit is dc when it is a TextDocumentEdit, else nil.
func docEdit(dc protocol.DocumentChange) *protocol.TextDocumentEdit {
	te, _ := dc.(*protocol.TextDocumentEdit)
	return te
}

// textEdits spells a TextDocumentEdit's edits as TextEdits.
func textEdits(elems []protocol.TextDocumentEditElement) []protocol.TextEdit {
	var out []protocol.TextEdit
	for _, e := range elems {
		if te, ok := e.(*protocol.TextEdit); ok {
			out = append(out, *te)
		}
	}
	return out
}

// editor is the workspace as an editor applying a WorkspaceEdit sees it:
// file contents by path relative to the root, a BOM hidden while editing.
type editor struct {
	root    string
	files   map[string]string
	removed []string // folders deleted, in order
}

func (e *editor) key(u uri.URI) string {
	rel, err := filepath.Rel(e.root, filepath.FromSlash(u.Path()))
	if err != nil {
		panic(err)
	}
	return filepath.ToSlash(rel)
}

// exists reports whether k is a file, a folder holding one, or the root.
func (e *editor) exists(k string) bool {
	if _, ok := e.files[k]; ok || k == "." {
		return true
	}
	for f := range e.files {
		if strings.HasPrefix(f, k+"/") {
			return true
		}
	}
	return false
}

func (e *editor) apply(we *protocol.WorkspaceEdit) error {
	edit := func(u uri.URI, edits []protocol.TextEdit) error {
		k := e.key(u)
		text, ok := e.files[k]
		if !ok {
			return fmt.Errorf("edit of %s, which does not exist", k)
		}
		bom := strings.HasPrefix(text, "\uFEFF")
		text = strings.TrimPrefix(text, "\uFEFF")
		out, err := applyEdits(text, edits)
		if err != nil {
			return err
		}
		if bom {
			out = "\uFEFF" + out
		}
		e.files[k] = out
		return nil
	}
	for _, dc := range we.DocumentChanges {
		switch dc := dc.(type) {
		case *protocol.CreateFile:
			k := e.key(dc.URI)
			if e.exists(k) && dc.Options != nil && dc.Options.IgnoreIfExists != nil && *dc.Options.IgnoreIfExists {
				continue
			}
			if _, ok := e.files[k]; ok {
				return fmt.Errorf("create %s, which exists", k)
			}
			e.files[k] = ""
		case *protocol.DeleteFile:
			k := e.key(dc.URI)
			if _, ok := e.files[k]; ok {
				delete(e.files, k)
				continue
			}
			// A folder: it exists while a file lies under it, which a
			// delete that is not recursive refuses.
			for f := range e.files {
				if strings.HasPrefix(f, k+"/") {
					if dc.Options == nil || dc.Options.Recursive == nil || !*dc.Options.Recursive {
						return fmt.Errorf("delete folder %s, which still holds %s", k, f)
					}
				}
			}
			e.removed = append(e.removed, k)
		case *protocol.TextDocumentEdit:
			if err := edit(dc.TextDocument.URI, textEdits(dc.Edits)); err != nil {
				return err
			}
		default:
			return errors.New("empty document change")
		}
	}
	for u, edits := range we.Changes {
		if err := edit(u, edits); err != nil {
			return err
		}
	}
	return nil
}

package lsp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/uri"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/fsrb/fsrb/internal/testenv"
	"github.com/fsrb/fsrb/lsp"
)

// The language server under abuse, over the real JSON-RPC wire: a raw
// client that writes frames itself (so that it can write broken ones and
// knows the order of what it sends), never answers workspace/applyEdit,
// and reads everything the server says.

type rawClient struct {
	t       testing.TB
	conn    net.Conn
	session *lsp.Session
	logs    *observer.ObservedLogs
	write   sync.Mutex

	mu      sync.Mutex
	waiting map[string]chan map[string]any // by id
	nullIDs chan map[string]any            // answers to messages whose id could not be read
	applies atomic.Int32                   // workspace/applyEdit requests, never answered
	diags   map[string]uint32              // last published version by URI
	changed chan struct{}
}

func startRaw(t testing.TB, debounce time.Duration) *rawClient {
	t.Helper()
	serverSide, clientSide := net.Pipe()
	obs, logs := observer.New(zapcore.InfoLevel) // Debug would keep every call's entry (and what it points to)
	logger := zap.New(obs)
	if os.Getenv("FSRB_LSP_TEST_LOG") != "" {
		dev, _ := zap.NewDevelopment()
		logger = zap.New(zapcore.NewTee(obs, dev.Core()))
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &rawClient{
		t: t, conn: clientSide, logs: logs,
		session: lsp.Serve(ctx, serverSide, lsp.Options{Logger: logger, Version: "test", Debounce: debounce}),
		waiting: map[string]chan map[string]any{}, nullIDs: make(chan map[string]any, 100),
		diags: map[string]uint32{}, changed: make(chan struct{}),
	}
	go c.read()
	t.Cleanup(func() {
		clientSide.Close()
		<-c.session.Done()
		cancel()
	})
	return c
}

func (c *rawClient) read() {
	in := bufio.NewReader(c.conn)
	for {
		length := 0
		for {
			line, err := in.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				length, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(in, body); err != nil {
			return
		}
		var msg map[string]any
		if err := json.Unmarshal(body, &msg); err != nil {
			c.t.Errorf("the server wrote a frame that is not JSON: %q", body)
			continue
		}
		method, _ := msg["method"].(string)
		id, hasID := msg["id"]
		switch {
		case method == "workspace/applyEdit":
			c.applies.Add(1) // never answered
			c.signal()
		case method != "" && hasID:
			c.send(map[string]any{"jsonrpc": "2.0", "id": id, "result": nil})
		case method == "textDocument/publishDiagnostics":
			p := msg["params"].(map[string]any)
			v, _ := p["version"].(float64)
			c.mu.Lock()
			c.diags[p["uri"].(string)] = uint32(v)
			c.mu.Unlock()
			c.signal()
		case method != "":
		case id == nil:
			c.nullIDs <- msg
		default:
			c.mu.Lock()
			ch := c.waiting[fmt.Sprint(id)]
			delete(c.waiting, fmt.Sprint(id))
			c.mu.Unlock()
			if ch == nil {
				c.t.Errorf("an answer to no request: %v", msg)
				continue
			}
			ch <- msg
		}
	}
}

func (c *rawClient) signal() {
	c.mu.Lock()
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

// frame writes body as one message, as is.
func (c *rawClient) frame(body string) {
	c.t.Helper()
	c.raw(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
}

func (c *rawClient) raw(s string) {
	c.t.Helper()
	c.write.Lock()
	defer c.write.Unlock()
	if _, err := io.WriteString(c.conn, s); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

func (c *rawClient) send(v any) {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	c.write.Lock()
	defer c.write.Unlock()
	fmt.Fprintf(c.conn, "Content-Length: %d\r\n\r\n%s", len(data), data)
}

// call sends a request and returns where its answer will come.
func (c *rawClient) call(id int, method string, params any) chan map[string]any {
	ch := make(chan map[string]any, 1)
	c.mu.Lock()
	c.waiting[strconv.Itoa(id)] = ch
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return ch
}

func (c *rawClient) notify(method string, params any) {
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

func (c *rawClient) await(ch chan map[string]any, what string) map[string]any {
	c.t.Helper()
	select {
	case m := <-ch:
		return m
	case <-time.After(testenv.Timeout(c.t, 20*time.Second)):
		c.t.Fatalf("no answer to %s", what)
	}
	return nil
}

func (c *rawClient) waitFor(what string, cond func() bool) {
	c.t.Helper()
	deadline := time.After(testenv.Timeout(c.t, 20*time.Second))
	for {
		c.mu.Lock()
		ok, ch := cond(), c.changed
		c.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ch:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			c.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// errCode is the JSON-RPC error code of an answer, 0 for a result.
func errCode(m map[string]any) int {
	e, ok := m["error"].(map[string]any)
	if !ok {
		return 0
	}
	code, _ := e["code"].(float64)
	return int(code)
}

func errMessage(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	s, _ := e["message"].(string)
	return s
}

func (c *rawClient) initialize(root string, caps string) {
	c.t.Helper()
	m := c.await(c.call(1, "initialize", map[string]any{
		"processId": nil, "rootUri": uri.File(root), "capabilities": json.RawMessage(caps),
	}), "initialize")
	if errCode(m) != 0 {
		c.t.Fatalf("initialize: %v", m)
	}
	c.notify("initialized", map[string]any{})
}

func (c *rawClient) open(root, name, text string) string {
	u := string(uri.File(filepath.Join(root, name)))
	lang := "plaintext"
	if strings.HasSuffix(name, ".fsrb") {
		lang = "fsrb"
	}
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": lang, "version": 1, "text": text}})
	return u
}

func (c *rawClient) panics() []observer.LoggedEntry {
	return c.logs.FilterMessage("panic").All()
}

// A broken message gets an error answer (id null) and the server goes on
// reading: bodies that are not JSON, JSON that is no JSON-RPC message,
// header lines it does not know, a missing or bad Content-Length, a
// message over the size limit; then requests with bad params, unknown
// methods and notifications with bad params.
func TestMalformedJSONRPC(t *testing.T) {
	c := startRaw(t, 0)
	root := writeFiles(t, map[string]string{"calc.py": "def total(items):\n    return sum(items)\n"})
	expectNull := func(what string, code int) {
		t.Helper()
		select {
		case m := <-c.nullIDs:
			if errCode(m) != code {
				t.Errorf("%s: answered %v, want code %d", what, m, code)
			}
		case <-time.After(testenv.Timeout(t, 10*time.Second)):
			t.Fatalf("%s: no answer", what)
		}
	}
	c.frame("{not json")
	expectNull("not JSON", -32700)
	c.frame(`{"jsonrpc":"2.0"}`)
	expectNull("neither method nor id", -32600)
	c.frame(`[1, 2, 3]`)
	expectNull("a batch", -32600)
	c.frame(`{"jsonrpc":"2.0","id":{"no":"objects"},"method":"initialize"}`)
	expectNull("an object id", -32600)
	c.frame("\xff\xfe\x00 binary garbage")
	expectNull("binary garbage", -32700)
	c.raw("Content-Length: abc\r\n\r\n")
	expectNull("bad Content-Length", -32700)
	c.raw("X-Unknown: 1\r\nnonsense header line\r\n")
	c.raw("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n")
	c.frame(`{"jsonrpc":"2.0","method":"fsrb/nothing"}`) // after junk headers: still read
	c.raw(fmt.Sprintf("Content-Length: %d\r\n\r\n", 64<<20+1))
	chunk := strings.Repeat("x", 1<<20)
	for range 64 {
		c.raw(chunk)
	}
	c.raw("x")
	expectNull("a message over 64 MiB", -32600)

	// The connection still works: the lifecycle, then bad requests.
	c.initialize(root, `{"workspace": {"applyEdit": true}}`)
	patch := c.open(root, "p.fsrb", calcPatch)
	for i, tc := range []struct {
		method string
		params any
		code   int
	}{
		{"textDocument/hover", "not an object", -32602},
		{"textDocument/codeAction", []int{1, 2}, -32602},
		{"textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": 42}, "position": "x"}, -32602},
		{"fsrb/unknown", nil, -32601},
		{"textDocument/completion", map[string]any{}, -32601},
		{"workspace/executeCommand", map[string]any{"command": "fsrb.noSuchCommand", "arguments": []any{patch}}, -32602},
		{"workspace/executeCommand", map[string]any{"command": "fsrb.applyBlock", "arguments": []any{patch, "one"}}, -32602},
		{"workspace/executeCommand", map[string]any{"command": "fsrb.applyAll", "arguments": []any{42}}, -32602},
	} {
		m := c.await(c.call(100+i, tc.method, tc.params), tc.method)
		if code := errCode(m); code != tc.code {
			t.Errorf("%s %v: code %d (%s), want %d", tc.method, tc.params, code, errMessage(m), tc.code)
		}
	}
	c.notify("textDocument/didChange", 42)
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": patch, "version": "two"}})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": "nope"})
	c.notify("$/cancelRequest", map[string]any{"id": []int{1}})
	c.notify("$/cancelRequest", map[string]any{"id": 99999})
	c.notify("$/setTrace", map[string]any{"value": "verbose"})
	m := c.await(c.call(200, "textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": patch}}), "codeLens")
	if errCode(m) != 0 {
		t.Errorf("codeLens after the abuse: %v", m)
	}
	if p := c.panics(); len(p) > 0 {
		t.Errorf("panics: %v", p)
	}
}

// Requests about documents the server never saw, positions far past the
// end, reversed ranges, URIs of every shape: answered (a result or an LSP
// error, never an internal error), and the server goes on.
func TestUnknownDocumentsAndPositions(t *testing.T) {
	c := startRaw(t, 0)
	root := writeFiles(t, map[string]string{"calc.py": "def total(items):\n    return sum(items)\n"})
	// No workspace.applyEdit: the commands answer without waiting on us.
	c.initialize(root, `{"workspace": {"workspaceEdit": {"documentChanges": true}}}`)
	patch := c.open(root, "p.fsrb", calcPatch)
	c.open(root, "calc.py", "def total(items):\n    return sum(items)\n")
	far := map[string]any{"line": 4294967295, "character": 4294967295}
	rng := func(a, b any) map[string]any { return map[string]any{"start": a, "end": b} }
	zero := map[string]any{"line": 0, "character": 0}
	uris := []string{patch, string(uri.File(filepath.Join(root, "never-opened.fsrb"))), "untitled:Untitled-1", "", "http://example.com/p.fsrb", "file:///%zz", "file://host/share/p.fsrb", "not a uri at all"}
	id := 1000
	tried := 0
	for _, u := range uris {
		doc := map[string]any{"uri": u}
		for _, tc := range []struct {
			method string
			params map[string]any
		}{
			{"textDocument/hover", map[string]any{"textDocument": doc, "position": far}},
			{"textDocument/definition", map[string]any{"textDocument": doc, "position": far}},
			{"textDocument/codeLens", map[string]any{"textDocument": doc}},
			{"textDocument/codeAction", map[string]any{"textDocument": doc, "range": rng(far, zero), "context": map[string]any{"diagnostics": []any{}}}},
			{"textDocument/codeAction", map[string]any{"textDocument": doc, "range": rng(zero, far), "context": map[string]any{"diagnostics": []any{map[string]any{"range": rng(far, far), "message": "x", "code": "not-found"}}}}},
			{"textDocument/documentLink", map[string]any{"textDocument": doc}},
			{"textDocument/documentSymbol", map[string]any{"textDocument": doc}},
			{"textDocument/foldingRange", map[string]any{"textDocument": doc}},
			{"workspace/executeCommand", map[string]any{"command": lsp.CommandApplyBlock, "arguments": []any{u, 999999}}},
			{"workspace/executeCommand", map[string]any{"command": lsp.CommandApplyBlock, "arguments": []any{u, -1}}},
			{"workspace/executeCommand", map[string]any{"command": lsp.CommandApplyAll, "arguments": []any{u}}},
		} {
			id++
			tried++
			m := c.await(c.call(id, tc.method, tc.params), tc.method+" "+u)
			if code := errCode(m); code == -32603 {
				t.Errorf("%s on %q: %v", tc.method, u, m)
			}
		}
		// Edits to documents that are not open, or far out of range.
		c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": u, "version": 2},
			"contentChanges": []any{map[string]any{"range": rng(far, zero), "text": "X"}}})
		c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": u}})
	}
	// An edit outside the patch is rejected, not clamped (position.go): it
	// is logged, and the document keeps its last good text and version, so
	// that a good edit of the same version then applies and is validated.
	c.open(root, "p.fsrb", calcPatch)
	rejected := func() int {
		n := 0
		for _, e := range c.logs.FilterMessage("notification failed").All() {
			if msg, _ := e.ContextMap()["error"].(string); strings.Contains(msg, "past the end of the document") {
				n++
			}
		}
		return n
	}
	before := rejected()
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": patch, "version": 3},
		"contentChanges": []any{map[string]any{"range": rng(far, far), "text": "\n# a note past the end\n"}}})
	c.waitFor("the out-of-range change rejected", func() bool { return rejected() == before+1 })
	end := positionOf(calcPatch, len(calcPatch))
	eof := map[string]any{"line": end.Line, "character": end.Character}
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": patch, "version": 3},
		"contentChanges": []any{map[string]any{"range": rng(eof, eof), "text": "\n# a note at the end\n"}}})
	c.waitFor("diagnostics of version 3", func() bool { return c.diags[patch] == 3 })
	m := c.await(c.call(1, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": patch}}), "documentSymbol")
	if errCode(m) != 0 || m["result"] == nil {
		t.Errorf("documentSymbol after the abuse: %v", m)
	}
	if p := c.panics(); len(p) > 0 {
		t.Errorf("panics: %v", p)
	}
	t.Logf("%d requests about unknown documents and out-of-range positions answered", tried)
}

// The methods a client may send as requests, with params for the patch.
func requestTypes(patch string) []struct {
	method string
	params any
} {
	doc := map[string]any{"uri": patch}
	pos := map[string]any{"line": 1, "character": 2}
	return []struct {
		method string
		params any
	}{
		{"textDocument/codeAction", map[string]any{"textDocument": doc, "range": map[string]any{"start": pos, "end": pos}, "context": map[string]any{"diagnostics": []any{}}}},
		{"workspace/executeCommand", map[string]any{"command": lsp.CommandApplyAll, "arguments": []any{patch}}},
		{"textDocument/codeLens", map[string]any{"textDocument": doc}},
		{"textDocument/hover", map[string]any{"textDocument": doc, "position": pos}},
		{"textDocument/definition", map[string]any{"textDocument": doc, "position": pos}},
		{"textDocument/documentLink", map[string]any{"textDocument": doc}},
		{"textDocument/documentSymbol", map[string]any{"textDocument": doc}},
		{"textDocument/foldingRange", map[string]any{"textDocument": doc}},
		{"textDocument/completion", map[string]any{"textDocument": doc, "position": pos}},
		{"fsrb/unknown", map[string]any{}},
	}
}

// Every request type, cancelled while it waits in the queue, answers
// RequestCancelled; the request that held the queue answers normally.
func TestCancelEveryRequestType(t *testing.T) {
	c := startRaw(t, 0)
	root := writeFiles(t, map[string]string{"calc.py": "def total(items):\n    return sum(items)\n"})
	c.initialize(root, vscodeCaps)
	patch := c.open(root, "p.fsrb", calcPatch)
	c.waitFor("diagnostics", func() bool { return c.diags[patch] == 1 })

	var held, cancelling atomic.Bool
	cancelling.Store(true)
	release := make(chan struct{})
	lsp.SetTestHook(t, func(ctx context.Context, method string) {
		if method == "textDocument/hover" && held.CompareAndSwap(false, true) {
			<-release
			return
		}
		// Every request behind the holder is cancelled by a notification
		// the read loop handles on its own time: wait for it, so that a
		// loaded machine cannot run a request before its cancellation
		// has been read.
		if cancelling.Load() {
			select {
			case <-ctx.Done():
			case <-time.After(testenv.Timeout(t, 10*time.Second)):
			}
		}
	})
	holder := c.call(1, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": patch}, "position": map[string]any{"line": 0, "character": 0}})
	types := requestTypes(patch)
	var answers []chan map[string]any
	for i, rt := range types {
		answers = append(answers, c.call(10+i, rt.method, rt.params))
		c.notify("$/cancelRequest", map[string]any{"id": 10 + i})
	}
	// A string id is cancelled too.
	strAnswer := make(chan map[string]any, 1)
	c.mu.Lock()
	c.waiting["req-str"] = strAnswer
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": "req-str", "method": "textDocument/codeLens", "params": map[string]any{"textDocument": map[string]any{"uri": patch}}})
	c.notify("$/cancelRequest", map[string]any{"id": "req-str"})
	close(release)

	if m := c.await(holder, "the hover that held the queue"); errCode(m) != 0 {
		t.Errorf("holder: %v", m)
	}
	for i, ch := range append(answers, strAnswer) {
		what := "string id"
		if i < len(types) {
			what = types[i].method
		}
		if m := c.await(ch, what); errCode(m) != -32800 {
			t.Errorf("%s cancelled: %v, want RequestCancelled", what, m)
		}
	}
	if n := c.applies.Load(); n != 0 {
		t.Errorf("a cancelled executeCommand still sent %d applyEdit", n)
	}
	cancelling.Store(false)
	if m := c.await(c.call(99, "textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": patch}}), "codeLens"); errCode(m) != 0 {
		t.Errorf("after the cancellations: %v", m)
	}
	t.Logf("%d request types cancelled", len(types)+1)
}

// A client that never answers workspace/applyEdit holds up nothing: later
// requests answer while the commands wait; cancelling them ends them, and
// their goroutines go.
func TestApplyEditNeverAnswered(t *testing.T) {
	c := startRaw(t, 0)
	root := writeFiles(t, map[string]string{"calc.py": "def total(items):\n    return sum(items)\n"})
	c.initialize(root, vscodeCaps)
	patch := c.open(root, "p.fsrb", calcPatch)
	c.waitFor("diagnostics", func() bool { return c.diags[patch] == 1 })
	runtime.GC()
	base := runtime.NumGoroutine()

	const stuck = 20
	var answers []chan map[string]any
	for i := range stuck {
		answers = append(answers, c.call(10+i, "workspace/executeCommand", map[string]any{"command": lsp.CommandApplyAll, "arguments": []any{patch}}))
	}
	c.waitFor("every applyEdit", func() bool { return c.applies.Load() == stuck })
	start := time.Now()
	m := c.await(c.call(100, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": patch}, "position": map[string]any{"line": 1, "character": 0}}), "hover while applyEdit waits")
	if errCode(m) != 0 {
		t.Errorf("hover: %v", m)
	}
	t.Logf("a hover behind %d unanswered applyEdit answered in %v", stuck, time.Since(start))
	// Edits still apply in order and are re-validated.
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": patch, "version": 2},
		"contentChanges": []any{map[string]any{"text": calcPatch + "\n# edited\n"}}})
	c.waitFor("diagnostics of version 2", func() bool { return c.diags[patch] == 2 })

	for i := range stuck {
		c.notify("$/cancelRequest", map[string]any{"id": 10 + i})
	}
	for i, ch := range answers {
		if m := c.await(ch, fmt.Sprintf("stuck command %d", i)); errCode(m) != -32800 {
			t.Errorf("stuck command %d: %v", i, m)
		}
	}
	deadline := time.Now().Add(testenv.Timeout(t, 10*time.Second))
	for {
		runtime.GC()
		n := runtime.NumGoroutine()
		if n <= base+2 {
			break
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("goroutines: %d before, %d after the commands ended\n%s", base, n, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A panic in a handler answers that request with an internal error, is
// logged with its stack, and the next request is served.
func TestPanicRecoveredPerRequest(t *testing.T) {
	c := startRaw(t, 0)
	root := writeFiles(t, map[string]string{"calc.py": "def total(items):\n    return sum(items)\n"})
	c.initialize(root, vscodeCaps)
	patch := c.open(root, "p.fsrb", calcPatch)
	var armed atomic.Bool
	armed.Store(true)
	lsp.SetTestHook(t, func(_ context.Context, method string) {
		if armed.Load() && (method == "textDocument/hover" || method == "textDocument/didChange") {
			panic("injected: " + method)
		}
	})
	params := map[string]any{"textDocument": map[string]any{"uri": patch}, "position": map[string]any{"line": 0, "character": 0}}
	m := c.await(c.call(10, "textDocument/hover", params), "hover that panics")
	if errCode(m) != -32603 || !strings.Contains(errMessage(m), "internal error in textDocument/hover: injected") {
		t.Errorf("panicking hover: %v", m)
	}
	// A notification that panics has no one to answer; the next request
	// still runs.
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": patch, "version": 2},
		"contentChanges": []any{map[string]any{"text": calcPatch}}})
	c.waitFor("the didChange panic", func() bool { return len(c.panics()) == 2 })
	armed.Store(false)
	if m := c.await(c.call(11, "textDocument/hover", params), "hover after the panic"); errCode(m) != 0 {
		t.Errorf("hover after the panic: %v", m)
	}
	logged := c.panics()
	if len(logged) != 2 {
		t.Fatalf("%d panics logged, want 2", len(logged))
	}
	for _, e := range logged {
		ctx := e.ContextMap()
		stack, _ := ctx["stack"].(string)
		if e.Level != zapcore.ErrorLevel || !strings.Contains(stack, "goroutine") || !strings.Contains(stack, "abuse_test.go") {
			t.Errorf("panic log without a stack: %v %v", e.Entry, ctx)
		}
	}
}

// 10,000 didChange notifications as fast as the wire takes them: the
// server keeps up, applies them in order (the last version's diagnostics
// come), memory comes back to where it was, and a request right after
// answers. The figures (peak heap, latency) are logged, not asserted.
func TestDidChangeStorm(t *testing.T) {
	const storm = 10000
	c := startRaw(t, lsp.DefaultDebounce)
	root := writeFiles(t, map[string]string{"calc.py": "def total(items):\n    return sum(items)\n"})
	c.initialize(root, vscodeCaps)
	text := "# notes\n\n" + calcPatch
	patch := c.open(root, "p.fsrb", text)
	c.waitFor("diagnostics", func() bool { return c.diags[patch] == 1 })
	c.await(c.call(2, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": patch}, "position": map[string]any{"line": 3, "character": 1}}), "warm-up hover")
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc

	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	start := time.Now()
	col := len("# notes")
	for i := range storm {
		c.notify("textDocument/didChange", map[string]any{
			"textDocument": map[string]any{"uri": patch, "version": 2 + i},
			"contentChanges": []any{map[string]any{
				"range": map[string]any{"start": map[string]any{"line": 0, "character": col}, "end": map[string]any{"line": 0, "character": col}},
				"text":  string(rune('a' + i%26)),
			}},
		})
		col++
	}
	sent := time.Since(start)
	reqStart := time.Now()
	m := c.await(c.call(3, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": patch}, "position": map[string]any{"line": 3, "character": 1}}), "hover after the storm")
	latency := time.Since(reqStart)
	if errCode(m) != 0 {
		t.Errorf("hover after the storm: %v", m)
	}
	last := uint32(storm + 1)
	c.waitFor("diagnostics of the last version", func() bool { return c.diags[patch] == last })
	settled := time.Since(start)
	close(stop)
	<-sampled
	reqStart = time.Now()
	m = c.await(c.call(5, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": patch}, "position": map[string]any{"line": 3, "character": 1}}), "hover once the storm is processed")
	caughtUp := time.Since(reqStart)
	if errCode(m) != 0 {
		t.Errorf("hover once the storm is processed: %v", m)
	}

	// The server's text is every change, in order.
	m = c.await(c.call(4, "textDocument/foldingRange", map[string]any{"textDocument": map[string]any{"uri": patch}}), "folding")
	if errCode(m) != 0 {
		t.Errorf("folding after the storm: %v", m)
	}
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	after := ms.HeapAlloc
	if f := os.Getenv("FSRB_STORM_HEAP"); f != "" {
		out, _ := os.Create(f)
		pprof.WriteHeapProfile(out)
		out.Close()
	}
	mb := func(b uint64) string { return fmt.Sprintf("%.1f MB", float64(b)/(1<<20)) }
	t.Logf("storm of %d didChange: sent in %v, last diagnostics after %v; heap %s before, peak %s, %s after GC; a hover sent right behind the storm (queued after it) answered in %v, one sent once it was processed in %v",
		storm, sent.Round(time.Millisecond), settled.Round(time.Millisecond), mb(before), mb(peak.Load()), mb(after), latency.Round(time.Microsecond), caughtUp.Round(time.Microsecond))
	if after > before+16<<20 {
		t.Errorf("memory grew from %s to %s over the storm", mb(before), mb(after))
	}
	if p := c.panics(); len(p) > 0 {
		t.Errorf("panics: %v", p)
	}
}

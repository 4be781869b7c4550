package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/fsrb/fsrb/lsp"
)

// W7: the language server in this process, driven through the JSON-RPC
// wire over a pipe as an editor drives it, with the editors' debounce
// (adaptive, up to lsp.DefaultDebounce): the latency from a didChange to
// its publishDiagnostics, what a user waits for after a keystroke, over
// many edits, and the live heap and the process's RSS before and after.
func runLSP(tmp string, edits int) []row {
	w := w1()
	root := filepath.Join(tmp, "W7")
	for _, name := range w.Order {
		path := filepath.Join(root, filepath.FromSlash(name))
		check(os.MkdirAll(filepath.Dir(path), 0o755))
		check(os.WriteFile(path, []byte(w.Files[name]), 0o644))
	}
	patch := "# generated patch\n\n" + w.Patch
	answer := chatAnswer(w, 5000)
	c := startLSP(root)
	c.files = w.Files
	defer c.close()
	rows := []row{
		c.edits("W7 W1", "didChange -> diagnostics, W1's patch (.fsrb)", "big.fsrb", "fsrb", patch, "# generated patch", "# generated patcH", edits, w.Size()),
		c.edits("W7 md", "didChange -> diagnostics, 5,000-line Markdown answer", "answer.md", "markdown", answer, "# Plan of the refactoring", "# Plan of the Refactoring", edits, w.Size()),
	}
	return rows
}

type lspClient struct {
	root   string
	files  map[string]string
	conn   jsonrpc2.Conn
	cancel context.CancelFunc
	done   <-chan struct{}

	mu      sync.Mutex
	latest  map[uri.URI]int32 // version of the last diagnostics published
	errs    map[uri.URI]int
	changed chan struct{}
	// count: W8 counts the publications, and those that show an error.
	count                     bool
	publishes, errorPublishes int
	// lensDoc, when set, is the document whose lenses the client asks
	// for again on every workspace/codeLens/refresh, as VS Code and
	// Neovim do for the documents they show; lensAsks counts the asks.
	lensDoc  uri.URI
	lensAsks int
}

func startLSP(root string) *lspClient {
	server, client := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	session := lsp.Serve(ctx, server, lsp.Options{Logger: zap.NewNop(), Version: "bench", Debounce: lsp.DefaultDebounce})
	c := dialLSP(root, client, false)
	stop := c.cancel
	c.done, c.cancel = session.Done(), func() { stop(); cancel() }
	return c
}

// dialLSP initializes a server on the other end of rwc; with lenses, the
// client says it takes codeLens/refresh requests (lensDoc).
func dialLSP(root string, rwc io.ReadWriteCloser, lenses bool) *lspClient {
	ctx, cancel := context.WithCancel(context.Background())
	c := &lspClient{
		root: root, cancel: cancel,
		conn:    jsonrpc2.NewConn(jsonrpc2.NewStream(rwc), jsonrpc2.WithCodec(lspCodec{})),
		latest:  map[uri.URI]int32{},
		errs:    map[uri.URI]int{},
		changed: make(chan struct{}, 1),
	}
	c.done = c.conn.Done()
	c.conn.Go(ctx, jsonrpc2.AsyncHandler(c.handle))
	caps := `{"workspace": {"applyEdit": true, "workspaceEdit": {"documentChanges": true}}}`
	if lenses {
		caps = `{"workspace": {"applyEdit": true, "workspaceEdit": {"documentChanges": true}, "codeLens": {"refreshSupport": true}}, "textDocument": {"codeLens": {}}}`
	}
	params := map[string]any{
		"processId": nil, "rootUri": uri.File(root),
		"capabilities": json.RawMessage(caps),
	}
	tctx, tcancel := context.WithTimeout(ctx, 30*time.Second)
	defer tcancel()
	if _, err := c.conn.Call(tctx, protocol.MethodInitialize, params, nil); err != nil {
		fail("initialize: %v", err)
	}
	check(c.conn.Notify(ctx, protocol.MethodInitialized, map[string]any{}))
	return c
}

func (c *lspClient) close() {
	_ = c.conn.Close()
	<-c.done
	c.cancel()
}

// lspCodec is protocol's payload codec (the library's own is unexported).
type lspCodec struct{}

func (lspCodec) Marshal(v any) ([]byte, error)      { return protocol.Marshal(v) }
func (lspCodec) Unmarshal(data []byte, v any) error { return protocol.Unmarshal(data, v) }

func (c *lspClient) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	if req.Method() == "workspace/codeLens/refresh" {
		c.mu.Lock()
		u := c.lensDoc
		c.mu.Unlock()
		if u != "" {
			go c.askLenses(u)
		}
		return nil, nil
	}
	if req.Method() == protocol.MethodTextDocumentPublishDiagnostics {
		var p protocol.PublishDiagnosticsParams
		if err := protocol.Unmarshal(req.Params(), &p); err == nil {
			n := 0
			for _, d := range p.Diagnostics {
				if d.Severity == protocol.DiagnosticSeverityError {
					n++
				}
			}
			c.mu.Lock()
			version, _ := p.Version.Get()
			c.latest[p.URI], c.errs[p.URI] = version, n
			if c.count {
				c.publishes++
				if n > 0 {
					c.errorPublishes++
				}
			}
			c.mu.Unlock()
			select {
			case c.changed <- struct{}{}:
			default:
			}
		}
	}
	return nil, nil
}

// askLenses asks for u's lenses, as an editor does on a refresh.
func (c *lspClient) askLenses(u uri.URI) {
	var lenses json.RawMessage
	if _, err := c.conn.Call(context.Background(), protocol.MethodTextDocumentCodeLens, map[string]any{"textDocument": map[string]any{"uri": u}}, &lenses); err != nil {
		return // the session is ending
	}
	c.mu.Lock()
	c.lensAsks++
	c.mu.Unlock()
}

// wait waits for the diagnostics of version v of u; it returns their error count.
func (c *lspClient) wait(u uri.URI, v int32) int {
	deadline := time.After(30 * time.Second)
	for {
		c.mu.Lock()
		got, errs := c.latest[u], c.errs[u]
		c.mu.Unlock()
		if got == v {
			return errs
		}
		select {
		case <-c.changed:
		case <-deadline:
			fail("W7: no diagnostics for version %d of %s", v, u)
		}
	}
}

// edits opens name with text, then toggles old and new (same length, one
// line) edits times, each an incremental didChange, timing each to its
// diagnostics.
func (c *lspClient) edits(name, desc, file, lang, text, old, new string, edits, files int) row {
	u := uri.File(filepath.Join(c.root, file))
	ctx := context.Background()
	check(c.conn.Notify(ctx, protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: protocol.LanguageKind(lang), Version: 1, Text: text,
	}}))
	if n := c.wait(u, 1); n != 0 {
		fail("%s: %d errors on the workload", name, n)
	}
	line := strings.Count(text[:strings.Index(text, old)], "\n")
	col := strings.Index(text, old) - (strings.LastIndexByte(text[:strings.Index(text, old)], '\n') + 1)
	rng := protocol.Range{
		Start: protocol.Position{Line: uint32(line), Character: uint32(col)},
		End:   protocol.Position{Line: uint32(line), Character: uint32(col + len(old))},
	}
	heapBefore, rssBefore := liveHeap(), rss()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	lat := make([]time.Duration, 0, edits)
	for i := range edits {
		repl := new
		if i%2 == 1 {
			repl = old
		}
		v := int32(i + 2)
		start := time.Now()
		check(c.conn.Notify(ctx, protocol.MethodTextDocumentDidChange, map[string]any{
			"textDocument":   map[string]any{"uri": u, "version": v},
			"contentChanges": []any{map[string]any{"range": rng, "text": repl}},
		}))
		c.wait(u, v)
		lat = append(lat, time.Since(start))
	}
	runtime.ReadMemStats(&ms1)
	heapAfter, rssAfter := liveHeap(), rss()
	slices.Sort(lat)
	return row{
		name: name, desc: desc, bytes: len(text) + files, lsp: true,
		inProc: lat[len(lat)/2], p90: lat[len(lat)*9/10],
		allocs:  float64(ms1.Mallocs-ms0.Mallocs) / float64(edits),
		allocB:  float64(ms1.TotalAlloc-ms0.TotalAlloc) / float64(edits),
		floorIn: floorCount(text, c.files),
		heapKiB: float64(heapAfter-heapBefore) / 1024,
		rssKiB:  float64(rssAfter-rssBefore) / 1024,
	}
}

// floorCount is strings.Count over the bytes a run validates: the
// document and the files its blocks name.
func floorCount(text string, files map[string]string) time.Duration {
	d, _, _ := measure(50, func() {
		sink += strings.Count(text, "<<<<<<< SEARCH")
		for _, data := range files {
			sink += strings.Count(data, "<<<<<<< SEARCH")
		}
	})
	return d
}

// rss is the process's resident set size in bytes, from /proc (0 where
// there is none).
func rss() int64 {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	var size, resident int64
	if _, err := fmt.Sscan(string(data), &size, &resident); err != nil {
		return 0
	}
	return resident * int64(os.Getpagesize())
}

func liveHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

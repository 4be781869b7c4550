package lsp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/fsrb/fsrb/bench/gen"
	"github.com/fsrb/fsrb/lsp"
)

// BenchmarkKeystrokeToDiagnostics measures what a user waits for after a
// keystroke: the latency from a didChange of W1's patch (200 blocks over
// 20 files of 500 lines) to its publishDiagnostics, through the JSON-RPC wire,
// with the editors' debounce (adaptive, up to lsp.DefaultDebounce).
// Target: median under 10 ms, p90 under 25 ms, flat memory.
func BenchmarkKeystrokeToDiagnostics(b *testing.B) {
	benchEdits(b, lsp.DefaultDebounce)
}

// BenchmarkDidChangeToDiagnostics is the same with the debounce off: the
// cost of a validation and its trip through the wire alone.
func BenchmarkDidChangeToDiagnostics(b *testing.B) {
	benchEdits(b, 0)
}

func benchEdits(b *testing.B, debounce time.Duration) {
	w := gen.W1() // bench/gen's, as the bench driver's W7 runs it
	patch := "# generated patch\n\n" + w.Patch
	root := writeFiles(b, w.Files)
	c := startClientWith(b, root, debounce)
	c.initialize(vscodeCaps, nil)
	u := c.open("big.fsrb", &patch)
	if errs := errorsOf(c.waitDiagnostics(u, 1)); len(errs) != 0 {
		b.Fatalf("the benchmark patch does not validate: %v", errs)
	}
	heapBefore := liveHeap()
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		old, new := "# generated patch", "# generated patcH"
		if i%2 == 1 {
			old, new = new, old
		}
		start := time.Now()
		v := c.edit(u, old, new)
		c.waitDiagnostics(u, v)
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "median-ns")
	b.ReportMetric(float64(lat[len(lat)*9/10].Nanoseconds()), "p90-ns")
	b.ReportMetric(float64(liveHeap()-heapBefore)/1024, "heap-growth-KiB")
}

func liveHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// BenchmarkStreamChunk is one chunk of a chat answer streaming in (W8 of
// make bench, without its pacing and with the debounce off): 20
// characters appended to the end of a Markdown answer of 50 or 500
// blocks, from its didChange to its publishDiagnostics; ten blocks a
// file, or (dense) the blocks over ten files, 50 a file for 500.
func BenchmarkStreamChunk(b *testing.B) {
	for _, n := range []int{50, 500} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchStream(b, gen.Answer(n)) })
	}
	for _, n := range []int{50, 500} {
		b.Run(fmt.Sprint("dense", n), func(b *testing.B) { benchStream(b, gen.DenseAnswer(n)) })
	}
	for _, n := range []int{50, 500} {
		b.Run(fmt.Sprint("lazy", n), func(b *testing.B) { benchStream(b, gen.LazyAnswer(n)) })
	}
	for _, n := range []int{50, 500} {
		b.Run(fmt.Sprint("lazytwin", n), func(b *testing.B) { benchStream(b, gen.LazyTwinAnswer(n)) })
	}
}

func benchStream(b *testing.B, w *gen.Workload) {
	root := agedFiles(b, w)
	c := startClientWith(b, root, 0)
	c.initialize(vscodeCaps, nil)
	start := len(w.Patch) * 9 / 10 // the last tenth streams in, again and again
	text := w.Patch[:start]
	u := c.open("answer.md", &text)
	c.waitDiagnostics(u, 1)
	at := start
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if at >= len(w.Patch) {
			b.StopTimer()
			c.waitDiagnostics(u, c.replace(u, w.Patch[:start]))
			at = start
			b.StartTimer()
		}
		chunk := w.Patch[at:min(at+20, len(w.Patch))]
		at += len(chunk)
		c.waitDiagnostics(u, c.appendText(u, chunk))
	}
}

// BenchmarkStreamAnswer is W8's lazy stream in process, without its
// pacing and with the debounce off: a chat answer of lazy blocks, and its
// SEARCH/REPLACE twin (the same edits), appended 20 characters at a time
// from nothing to the whole answer, each chunk waiting for its
// diagnostics, and the code lenses asked for as often as W8's client asks
// at its pace; an op is one answer, to a server of its own. ns/byte is
// per byte of answer: the two answers differ in length.
func BenchmarkStreamAnswer(b *testing.B) {
	for _, n := range []int{50, 500} {
		for _, a := range []struct {
			name string
			w    *gen.Workload
		}{{"lazy", gen.LazyAnswer(n)}, {"lazytwin", gen.LazyTwinAnswer(n)}} {
			b.Run(fmt.Sprint(a.name, n), func(b *testing.B) {
				root := agedFiles(b, a.w)
				for b.Loop() {
					c := startClientWith(b, root, 0)
					c.initialize(vscodeCaps, nil)
					text := ""
					u := c.open("answer.md", &text)
					c.waitDiagnostics(u, 1)
					for at := 0; at < len(a.w.Patch); at += 20 {
						c.waitDiagnostics(u, c.appendText(u, a.w.Patch[at:min(at+20, len(a.w.Patch))]))
						if at%(20*lensEvery) == 0 {
							c.lensTitles(u)
						}
					}
					c.closeDoc(u)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(a.w.Patch)), "ns/byte")
			})
		}
	}
}

// lensEvery is how many chunks of a stream come between two asks for its
// code lenses: the server asks the client to refresh them (and W8's
// client asks) a quarter of a second after a change, at most, and a
// chunk comes every 20 ms.
const lensEvery = 12

// agedFiles writes the files a streamed answer edits, an hour old: files
// a moment old are read again each time (a stamp that young may hide a
// change: diskreads.go), and a workspace's targets are older.
func agedFiles(b *testing.B, w *gen.Workload) string {
	root := writeFiles(b, w.Files)
	hourAgo := time.Now().Add(-time.Hour)
	for name := range w.Files {
		if err := os.Chtimes(filepath.Join(root, filepath.FromSlash(name)), hourAgo, hourAgo); err != nil {
			b.Fatal(err)
		}
	}
	return root
}

// appendText appends s to an open document, as a chat plugin streams an
// answer in, and returns the new version.
func (c *testClient) appendText(u uri.URI, s string) int32 {
	c.t.Helper()
	c.mu.Lock()
	text := c.texts[u]
	end := positionOf(text, len(text))
	c.texts[u] = text + s
	c.versions[u]++
	v := c.versions[u]
	c.mu.Unlock()
	err := c.notify(protocol.MethodTextDocumentDidChange, map[string]any{
		"textDocument":   map[string]any{"uri": u, "version": v},
		"contentChanges": []any{map[string]any{"range": protocol.Range{Start: end, End: end}, "text": s}},
	})
	if err != nil {
		c.t.Fatal(err)
	}
	c.pullAfterChange(u)
	return v
}

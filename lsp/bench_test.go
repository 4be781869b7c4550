package lsp_test

import (
	"runtime"
	"sort"
	"testing"
	"time"

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

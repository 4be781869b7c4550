package lsp_test

import (
	"runtime"
	"sort"
	"testing"
	"time"
)

// BenchmarkDidChangeToDiagnostics measures the latency from a didChange of
// a 200-block patch over 20 files of 500 lines to its publishDiagnostics,
// through the JSON-RPC wire, debounce off. Target: under 10 ms median.
// It also reports the live heap growth over the run (flat memory).
func BenchmarkDidChangeToDiagnostics(b *testing.B) {
	files, patch := bigWorkspace(20, 200, 500)
	root := writeFiles(b, files)
	c := newClient(b, root)
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

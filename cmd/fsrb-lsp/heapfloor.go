package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// heapFloor is the heap the collector lets the server allocate beyond
// what it keeps live before it collects, unless the environment sets
// GOGC.
//
// The runtime collects when the heap has grown by GOGC percent (100) of
// what the last collection left live, and never waits for less than 4 MB
// in all. A language server keeps little live between events: an open
// answer's plan, its files' texts, their outlines. So while an answer
// streams in, it collected every megabyte or two it allocated, many
// times an answer, marking the same outlines again each time.
// After each collection the percent is set so that the next waits for
// heapFloor beyond the live heap, or for the usual 100% once the live
// heap is larger than heapFloor: a large workspace keeps the runtime's
// own pacing, and a small one spends at most heapFloor more memory.
//
// The runtime has no setting for this: GOGC alone scales the allowance
// of a large heap too, and GOMEMLIMIT is a ceiling, not a floor.
const heapFloor = 16 << 20

// keepHeapFloor starts setting the collector's percent after each
// collection (heapFloor); stop ends it.
func keepHeapFloor() (stop func()) {
	var stopped atomic.Bool
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var tune func()
	tune = func() {
		if stopped.Load() {
			return
		}
		metrics.Read(live)
		debug.SetGCPercent(floorPercent(live[0].Value.Uint64()))
		// A finalizer runs once the collection after this one has found
		// its object unreachable: one call a collection. The object holds
		// a pointer, so that the runtime's allocator for tiny objects
		// without pointers, whose finalizers may never run, does not
		// take it.
		runtime.SetFinalizer(&gcTick{}, func(*gcTick) { tune() })
	}
	tune()
	return func() { stopped.Store(true) }
}

type gcTick struct{ _ *byte }

// floorPercent is the GOGC percent that lets the heap grow by heapFloor
// beyond live bytes, or by live when live is larger. The runtime's goal
// is the larger of live*(1+percent/100) and its minimum heap, 4 MB
// scaled by percent/100 (the Go GC guide): below a few megabytes live,
// the minimum is what the percent must bring to live+heapFloor.
func floorPercent(live uint64) int {
	const minHeap = 4 << 20
	if live >= heapFloor {
		return 100
	}
	return int(min(heapFloor*100/max(live, 1), (live+heapFloor)*100/minHeap))
}

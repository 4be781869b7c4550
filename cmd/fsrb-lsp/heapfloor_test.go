package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// TestFloorPercent: the runtime's goal for the percent is the live heap
// plus heapFloor while that is more than twice the live heap, and twice
// the live heap after.
func TestFloorPercent(t *testing.T) {
	const minHeap = 4 << 20
	for live := uint64(0); live <= 3*heapFloor; live += 256 << 10 {
		p := uint64(floorPercent(live))
		goal := max(minHeap*p/100, live+live*p/100)
		want := max(live+heapFloor, 2*live)
		// The percent is whole: the goal may fall short by a percent of
		// the larger of the two terms.
		if goal > want || want-goal > max(minHeap, live)/100+1 {
			t.Errorf("live %d: percent %d gives a goal of %d, want %d", live, p, goal, want)
		}
	}
}

// TestKeepHeapFloor: the percent is the floor's unless the environment
// chose one, and it is set again after each collection.
func TestKeepHeapFloor(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "150")
	debug.SetGCPercent(150)
	keepHeapFloor()()
	if p := gogc(); p != 150 {
		t.Errorf("with GOGC=150 set, keepHeapFloor set the percent to %d", p)
	}
	os.Unsetenv("GOGC") // t.Setenv restores it
	stop := keepHeapFloor()
	defer stop()
	if p := gogc(); p <= 100 {
		t.Errorf("with GOGC unset, keepHeapFloor left the percent at %d, want more than 100 for this test's small heap", p)
	}
	debug.SetGCPercent(100)
	for i := 0; i < 100 && gogc() == 100; i++ {
		runtime.GC() // the finalizer runs after it, on its own goroutine
		time.Sleep(time.Millisecond)
	}
	if p := gogc(); p == 100 {
		t.Errorf("after collections, the percent stayed at %d: keepHeapFloor does not set it again", p)
	}
}

// gogc is the collector's percent.
func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

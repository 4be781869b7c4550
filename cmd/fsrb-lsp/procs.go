package main

import (
	"os"
	"runtime"
)

// oneThread runs the server's Go code on one thread at a time unless the
// environment sets GOMAXPROCS. The server's work comes as small events (a
// keystroke, a chunk of a streamed answer, a lens request), each handed
// between a few goroutines: the read loop, the diagnoser, its debounce
// timer, the replies. While a processor is idle, every such hand-off
// wakes a second thread, which mostly finds the work taken and sleeps
// again; over a streamed answer those wake-ups cost the server more than
// some of its own work (make bench, W8, server CPU). What one thread
// costs: the search for the closest text to an unmatched block in a file
// of hundreds of kilobytes, split over cores elsewhere, runs on one here,
// once per such block. Tree-sitter parses in C, and the runtime hands the
// processor of a goroutine in C to the others, so syntax checks of
// several files still overlap.
func oneThread() {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
}

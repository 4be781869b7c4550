// Command fsrb applies AI-written code edits (SEARCH/REPLACE blocks) to a
// workspace, all or nothing. It only wires: parsing, validation and the
// commit live in core, the reports in core/report.
package main

import (
	"os"
	"runtime/debug"
)

func main() {
	// A run's heap is mostly the files it holds, live until it exits:
	// collecting while they are read finds little and cost a 100 MB dry
	// run 150 of its 300 ms. 200 gives the same time; 400 too, but let a
	// 10,000-block patch peak at 73 MiB instead of 57. GOGC, when set,
	// still wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

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
	// collecting while they are read finds little and costs a big file's
	// dry run much of its time (make bench, W6). 200 is as fast as 400,
	// which lets a patch of thousands of blocks peak higher. GOGC, when
	// set, still wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if caught != nil {
		exitBy(caught)
	}
	os.Exit(code)
}

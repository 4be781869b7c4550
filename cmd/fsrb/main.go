// Command fsrb applies AI-written code edits (SEARCH/REPLACE blocks) to a
// workspace, all or nothing. It only wires: parsing, validation and the
// commit live in core, the reports in core/report.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

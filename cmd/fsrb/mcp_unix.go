//go:build unix

package main

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// execMCP replaces this process with fsrb-mcp: same pid, standard streams
// and environment (the GOGC the CLI sets is not in it: it sets it with
// debug.SetGCPercent). It returns only when the exec fails.
func execMCP(path string, args []string, stderr io.Writer) int {
	err := syscall.Exec(path, append([]string{path}, args...), os.Environ())
	fmt.Fprintf(stderr, "fsrb mcp: cannot run %s: %v\n", path, err)
	return exitFail
}

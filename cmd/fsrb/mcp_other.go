//go:build !unix

package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
)

// execMCP runs fsrb-mcp as a child on the standard streams and exits with
// its status: there is no exec(2) here. An interrupt reaches the child
// (the console sends it to both); this process waits for the child.
func execMCP(path string, args []string, stderr io.Writer) int {
	signal.Ignore(os.Interrupt)
	p, err := os.StartProcess(path, append([]string{path}, args...), &os.ProcAttr{
		Files: []*os.File{os.Stdin, os.Stdout, os.Stderr},
	})
	if err != nil {
		fmt.Fprintf(stderr, "fsrb mcp: cannot run %s: %v\n", path, err)
		return exitFail
	}
	st, err := p.Wait()
	if err != nil {
		fmt.Fprintf(stderr, "fsrb mcp: %s: %v\n", path, err)
		return exitFail
	}
	return st.ExitCode()
}

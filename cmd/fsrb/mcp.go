package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
)

// mcpBinary is the MCP server's own binary (cmd/fsrb-mcp). The CLI does not
// link the MCP SDK, whose net/http, crypto, JSON Schema and gob inits
// would run at every fsrb start-up, and an agent starts fsrb once per
// edit: "fsrb mcp" runs fsrb-mcp in its place.
const mcpBinary = "fsrb-mcp"

// serveMCP is "fsrb mcp [--root DIR]": it becomes fsrb-mcp with the same
// arguments, standard streams and environment (execMCP), so an MCP client
// configured with "fsrb mcp" talks to the server directly.
func serveMCP(args []string, stderr io.Writer) int {
	path, err := findMCP()
	if err != nil {
		fmt.Fprintf(stderr, "fsrb mcp: %v\n", err)
		return exitFail
	}
	return execMCP(path, args, stderr)
}

// findMCP looks for fsrb-mcp beside this fsrb first (the two are installed
// together, and a client's PATH may hold another fsrb-mcp), then in PATH's
// absolute folders (a relative one, "." among them, would run a program
// of the working directory: exec.LookPath's ErrDot rule). Not
// exec.LookPath itself: fsrb imports no os/exec (SECURITY.md 4).
func findMCP() (string, error) {
	name := mcpBinary
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	self, err := os.Executable()
	if err == nil {
		if beside := filepath.Join(filepath.Dir(self), name); isProgram(beside) {
			return beside, nil
		}
	}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if path := filepath.Join(dir, name); filepath.IsAbs(dir) && isProgram(path) {
			return path, nil
		}
	}
	where := "not on PATH"
	if self != "" {
		where = "neither in " + filepath.Dir(self) + " (beside fsrb) nor on PATH"
	}
	return "", fmt.Errorf("the MCP server is a binary of its own, %s, and it is %s.\n"+
		"Install it beside fsrb: `make install` installs both, or\n"+
		"  go install github.com/fsrb/fsrb/cmd/fsrb-mcp@latest", name, where)
}

// isProgram: a regular file, executable (on Windows, by its name).
func isProgram(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && (runtime.GOOS == "windows" || st.Mode()&0o111 != 0)
}

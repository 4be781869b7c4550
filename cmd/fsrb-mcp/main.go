// Command fsrb-mcp is fsrb's MCP server over stdio: what "fsrb mcp" runs. It
// is a binary of its own so that the CLI does not carry the MCP SDK
// (net/http, crypto, JSON Schema), whose inits would slow every fsrb
// start-up; "fsrb mcp" finds it beside fsrb, or on PATH, and execs it. It
// only wires: flags and the root; the server is package mcp.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/fsrb/fsrb/internal/buildinfo"
	"github.com/fsrb/fsrb/mcp"
	"github.com/fsrb/fsrb/pipeline"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = ""

func main() {
	// As the CLI (cmd/fsrb/main.go): a tool call's heap is mostly the files
	// it holds until it answers.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	os.Exit(serve(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: fsrb mcp [--root DIR]
       fsrb-mcp [--root DIR]

Serves fsrb's tools (validate, apply, edit, multi_edit, undo, read) to an
MCP client over standard input and output. See docs/agents.md.

Flags:
`

func serve(args []string, stdout, stderr io.Writer) int {
	set := pflag.NewFlagSet("fsrb mcp", pflag.ContinueOnError)
	set.SetOutput(io.Discard)
	root := set.String("root", "", "the workspace root (default: the client's MCP roots, else the top of the git repository around the working directory, else the working directory)")
	help := set.BoolP("help", "h", false, "print this help")
	showVersion := set.Bool("version", false, "print the version")
	if err := set.Parse(args); err != nil {
		return usageError(stderr, err.Error())
	}
	switch {
	case *help:
		fmt.Fprint(stdout, usage+set.FlagUsages())
		return 0
	case *showVersion:
		fmt.Fprintln(stdout, "fsrb-mcp", buildinfo.Version(version))
		return 0
	}
	if set.NArg() > 0 {
		return usageError(stderr, "takes no arguments")
	}
	resolved, _, origin, err := pipeline.ResolveRoot(*root)
	if err != nil {
		return usageError(stderr, err.Error())
	}
	srv, err := mcp.New(mcp.Options{Root: resolved, Explicit: *root != "", Origin: origin, Version: buildinfo.Version(version)})
	if err != nil {
		return usageError(stderr, err.Error())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Never exit in the middle of a commit: a signal rolls it back, a
	// client gone lets it finish.
	context.AfterFunc(ctx, srv.Interrupt)
	err = srv.Run(ctx, mcp.Stdio())
	srv.Shutdown()
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "fsrb mcp: %v\n", err)
		return 1
	}
	return 0
}

func usageError(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "fsrb: mcp: %s\nRun 'fsrb mcp -h' for usage.\n", msg)
	return 2
}

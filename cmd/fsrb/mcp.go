package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/pflag"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fsrb/fsrb/mcp"
)

// serveMCP is "fsrb mcp [--root DIR]": the MCP server over stdio.
func serveMCP(args []string, stdout, stderr io.Writer) int {
	set := pflag.NewFlagSet("fsrb mcp", pflag.ContinueOnError)
	set.SetOutput(io.Discard)
	root := set.String("root", "", "the workspace root (default: the working directory, or the client's MCP roots)")
	help := set.BoolP("help", "h", false, "print this help")
	if err := set.Parse(args); err != nil {
		return usageError(stderr, "mcp: "+err.Error())
	}
	if *help {
		fmt.Fprint(stdout, "usage: fsrb mcp [--root DIR]\n\nServes fsrb's tools (validate, apply, edit, multi_edit, undo, read) to an\nMCP client over standard input and output. See README.md, \"Agents\".\n\nFlags:\n"+set.FlagUsages())
		return exitOK
	}
	if set.NArg() > 0 {
		return usageError(stderr, "mcp: takes no arguments")
	}
	resolved, _, err := resolveRoot(*root)
	if err != nil {
		return usageError(stderr, "mcp: "+err.Error())
	}
	srv, err := mcp.New(mcp.Options{Root: resolved, Explicit: *root != "", Version: buildVersion()})
	if err != nil {
		return usageError(stderr, "mcp: "+err.Error())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := srv.Run(ctx, &sdk.StdioTransport{}); err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "fsrb mcp: %v\n", err)
		return exitFail
	}
	return exitOK
}

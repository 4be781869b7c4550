package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/pipeline"
)

// read is "fsrb read --hashlines FILE": it prints the file as hashline
// SEARCH blocks quote it, one "N:hhhh|text" line per line (core.HashLine
// documents the hash). It reads only what a patch could edit: FILE is
// confined to the root as the MCP read tool confines it (the same
// pipeline call), and refused with the same words.
func read(args []string, stdout, stderr io.Writer) int {
	set := pflag.NewFlagSet("fsrb read", pflag.ContinueOnError)
	set.SetOutput(io.Discard)
	hashlines := set.Bool("hashlines", false, "prefix every line with N:hhhh| (line number and hash)")
	rootFlag := set.String("root", "", "the workspace root FILE must lie in (default: the top of the git repository around the working directory, else the working directory)")
	help := set.BoolP("help", "h", false, "print this help")
	if err := set.Parse(args); err != nil {
		return usageError(stderr, "read: "+err.Error())
	}
	if *help {
		fmt.Fprint(stdout, "usage: fsrb read --hashlines [--root DIR] FILE\n\nPrints FILE with every line written N:hhhh|text: N the 1-based line number,\nhhhh the low 16 bits of the FNV-1a (32-bit) hash of the line without its\nline ending, in hex. Hashline SEARCH blocks quote lines in that form.\nFILE is relative to the root (the top of the git repository around the\nworking directory, else the working directory), or absolute inside it; like a patch, read\nnever leaves the root.\n\nFlags:\n"+set.FlagUsages())
		return exitOK
	}
	if !*hashlines {
		return usageError(stderr, "read: give --hashlines (the only output form so far)")
	}
	if set.NArg() != 1 {
		return usageError(stderr, "read: give exactly one file")
	}
	root, given, origin, err := pipeline.ResolveRoot(*rootFlag)
	if err != nil {
		return usageError(stderr, "read: "+err.Error())
	}
	ws, err := pipeline.Open(root, given)
	if err != nil {
		return usageError(stderr, "read: "+err.Error())
	}
	name := set.Arg(0)
	data, kind, err := ws.ReadText(filepath.ToSlash(name))
	if err != nil {
		// The MCP read tool's words for the same refusal.
		fmt.Fprintf(stderr, "[ERROR] %s: %v (kind: %s)\n", name, err, kind)
		if kind == core.KindMissingFile {
			fmt.Fprintln(stderr, pipeline.RootNote(root, origin))
		}
		return exitFail
	}
	fmt.Fprint(stdout, core.Hashlines(data))
	return exitOK
}

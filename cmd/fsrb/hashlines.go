package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/spf13/pflag"

	"github.com/fsrb/fsrb/core"
)

// read is "fsrb read --hashlines FILE": it prints the file as hashline
// SEARCH blocks quote it, one "N:hhhh|text" line per line (core.HashLine
// documents the hash).
func read(args []string, stdout, stderr io.Writer) int {
	set := pflag.NewFlagSet("fsrb read", pflag.ContinueOnError)
	set.SetOutput(io.Discard)
	hashlines := set.Bool("hashlines", false, "prefix every line with N:hhhh| (line number and hash)")
	help := set.BoolP("help", "h", false, "print this help")
	if err := set.Parse(args); err != nil {
		return usageError(stderr, "read: "+err.Error())
	}
	if *help {
		fmt.Fprint(stdout, "usage: fsrb read --hashlines FILE\n\nPrints FILE with every line written N:hhhh|text: N the 1-based line number,\nhhhh the low 16 bits of the FNV-1a (32-bit) hash of the line without its\nline ending, in hex. Hashline SEARCH blocks quote lines in that form.\n\nFlags:\n"+set.FlagUsages())
		return exitOK
	}
	if !*hashlines {
		return usageError(stderr, "read: give --hashlines (the only output form so far)")
	}
	if set.NArg() != 1 {
		return usageError(stderr, "read: give exactly one file")
	}
	name := set.Arg(0)
	data, err := os.ReadFile(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(stderr, "fsrb: read: %s does not exist\n", name)
		} else {
			fmt.Fprintf(stderr, "fsrb: read: %v\n", err)
		}
		return exitFail
	}
	fmt.Fprint(stdout, core.Hashlines(data))
	return exitOK
}

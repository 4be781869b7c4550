package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"unsafe"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/core/commit"
	"github.com/fsrb/fsrb/core/report"
	"github.com/fsrb/fsrb/internal/buildinfo"
	"github.com/fsrb/fsrb/pipeline"
)

// Exit codes (docs/cli.md, "Exit status").
const (
	exitOK    = 0
	exitFail  = 1 // validation or commit failure: nothing written
	exitUsage = 2
)

// version is set at build time with -ldflags "-X main.version=…".
var version = ""

type flags struct {
	dryRun, diff, json, fuzzy, partial, blocks bool
	syntaxCheck, snippets                      bool
	root, format                               string
	version, help, recover, undo, revert       bool
}

const usage = `usage: fsrb [flags] <patchfile | ->
       fsrb --revert [flags] <patchfile | ->
       fsrb read --hashlines [--root DIR] FILE
       fsrb mcp [--root DIR]

Applies the edits of a patch (SEARCH/REPLACE blocks, Cline/Roo blocks,
*** Begin Patch, unified diffs, hashline blocks) to the files under the
root, all or nothing. Exit status: 0 the files hold the patch (applied
now, or already), 1 validation or commit failure (nothing written), 2
usage error. A block already applied is skipped with a note, never
written twice; the rest applies. "fsrb --revert PATCH"
undoes a patch whose every block is applied, all or nothing. "fsrb read
--hashlines FILE" prints FILE as N:hhhh|line for hashline SEARCH blocks.
"fsrb mcp" serves the same engine to coding agents as an MCP server over
stdio (it runs fsrb-mcp, installed beside fsrb).

Flags:
`

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "read" {
		return read(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "mcp" {
		return serveMCP(args[1:], stderr)
	}
	var f flags
	fs := pflag.NewFlagSet("fsrb", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&f.dryRun, "dry-run", false, "validate and report what would change; write nothing")
	fs.BoolVar(&f.diff, "diff", false, "print a unified diff of the change; without --dry-run the change is also written")
	fs.BoolVar(&f.json, "json", false, "print one JSON object instead of text")
	fs.BoolVar(&f.fuzzy, "fuzzy", false, "let blocks that match nowhere exactly climb the tolerant ladder")
	fs.BoolVar(&f.partial, "partial", false, "apply the blocks that validate (atomically), skip the rest; exit 1 if any was skipped")
	fs.BoolVar(&f.blocks, "blocks", false, "list the blocks of the patch and touch nothing")
	fs.BoolVar(&f.syntaxCheck, "syntax-check", true, "warn when an edit leaves a syntax error (tree-sitter; files up to 256 KiB); --syntax-check=false skips the parse")
	fs.BoolVar(&f.snippets, "snippets", true, "read a chat answer's code blocks that name their file (whole files, definitions, lazy blocks, line ranges); --snippets=false reads the edit formats only")
	fs.StringVar(&f.root, "root", "", "the workspace root (default: the top of the git repository around the working directory, else the working directory)")
	fs.StringVar(&f.format, "format", "auto", "force a dialect: "+strings.Join(core.Formats, "|"))
	fs.BoolVar(&f.recover, "recover", false, "roll back a commit that was cut off part-way (crash, kill)")
	fs.BoolVar(&f.undo, "undo", false, "restore the files of the last commit under the root")
	fs.BoolVar(&f.revert, "revert", false, "undo the patch: apply its inverse, only if every block of it is applied")
	fs.BoolVar(&f.version, "version", false, "print the version")
	fs.BoolVarP(&f.help, "help", "h", false, "print this help")
	if err := fs.Parse(args); err != nil {
		return usageError(stderr, err.Error())
	}
	switch {
	case f.help:
		fmt.Fprint(stdout, usage+fs.FlagUsages())
		return exitOK
	case f.version:
		fmt.Fprintln(stdout, "fsrb", buildinfo.Version(version))
		return exitOK
	}
	if !core.ValidFormat(f.format) {
		return usageError(stderr, fmt.Sprintf("unknown --format %q; use one of %s", f.format, strings.Join(core.Formats, ", ")))
	}
	root, given, origin, err := pipeline.ResolveRoot(f.root)
	if err != nil {
		return usageError(stderr, err.Error())
	}
	if f.revert && (f.recover || f.undo || f.partial || f.blocks) {
		return usageError(stderr, "--revert undoes a whole patch: it cannot be combined with --recover, --undo, --partial or --blocks")
	}
	if f.recover || f.undo {
		if fs.NArg() > 0 {
			return usageError(stderr, "--recover and --undo take no patch file")
		}
		return journal(root, f, stdout, stderr)
	}
	if fs.NArg() != 1 {
		return usageError(stderr, "give exactly one patch file, or - for standard input")
	}
	if fs.Arg(0) == "-" && isTerminal(stdin) {
		fmt.Fprintln(stderr, stdinHint())
	}
	text, err := readPatch(fs.Arg(0), stdin)
	if err != nil {
		return usageError(stderr, err.Error())
	}
	return apply(workspaceRoot{root, given, origin}, text, f, stdout, stderr)
}

// workspaceRoot is the root a run opens, as pipeline.ResolveRoot found it.
type workspaceRoot struct {
	resolved, given string
	origin          pipeline.Origin
}

func usageError(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "fsrb: %s\nRun 'fsrb -h' for usage.\n", msg)
	return exitUsage
}

// stdinHint is said when "fsrb -" waits on a terminal: to a user who
// typed it by mistake, the command would seem to hang.
func stdinHint() string {
	end := "Ctrl-D"
	if runtime.GOOS == "windows" {
		end = "Ctrl-Z then Enter"
	}
	return "fsrb: reading a patch from standard input; end it with " + end + "."
}

// maxPatch bounds the patch text (SECURITY.md): 10,000 blocks take about
// 1 MiB.
const maxPatch = 64 << 20

func readPatch(name string, stdin io.Reader) (string, error) {
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(io.LimitReader(stdin, maxPatch+1))
	} else {
		var f *os.File
		if f, err = os.Open(name); err == nil {
			data, err = reads.ReadAll(f, maxPatch+1)
			f.Close()
		}
	}
	if err != nil {
		return "", fmt.Errorf("cannot read the patch: %v", err)
	}
	if len(data) > maxPatch {
		return "", fmt.Errorf("the patch is larger than fsrb's limit of %d MiB", maxPatch>>20)
	}
	// No copy: nothing writes to data after this, and a copy of a big
	// patch is fresh pages, each a fault (make bench, W1).
	return unsafe.String(unsafe.SliceData(data), len(data)), nil
}

// reads holds the patch and the files a run reads: fsrb exits after one
// run (see commit.Arena).
var reads commit.Arena

func apply(root workspaceRoot, text string, f flags, stdout, stderr io.Writer) int {
	ws, err := pipeline.Open(root.resolved, root.given)
	if err != nil {
		return usageError(stderr, err.Error())
	}
	ws.Disk.Arena = &reads
	ws.EditFormatsOnly = !f.snippets
	patch := ws.Parse(text, f.format)
	if f.blocks {
		if err := report.Blocks(stdout, patch, f.json); err != nil {
			return exitFail
		}
		if patch.Problems.HasErrors() {
			return exitFail
		}
		return exitOK
	}
	// A dry run writes nothing: a stop signal has no commit to roll back,
	// so it keeps its default effect there, and the run does not pay for
	// catching it (each signal os/signal enables is a round trip with the
	// runtime's signal thread, its own OS thread).
	var in *interrupts
	if !f.dryRun {
		in = catchInterrupts()
	}
	o, err := ws.Run(patch, pipeline.Options{
		Fuzzy: f.fuzzy, SyntaxCheck: f.syntaxCheck, DryRun: f.dryRun, Partial: f.partial, Revert: f.revert,
		Diffs: f.diff && f.json, // one object on stdout: the diffs go inside it
		Stop:  in.stopped(),
	})
	code := outcome(o, err, patch, f, stdout, stderr)
	if !f.json && err == nil {
		if note := pipeline.MissingNote(o.Plan, root.resolved, root.origin); note != "" {
			fmt.Fprintln(stderr, note)
		}
	}
	if sig := in.release(); sig != nil {
		interruptNote(stderr, sig, o.Written)
		if o.Written {
			// Too late to stop: the files hold the answer, as exit 0 says.
			return code
		}
		caught = sig
		return signalCode(sig)
	}
	return code
}

// outcome prints the outcome of a run and returns its exit status.
func outcome(o report.Outcome, err error, patch *core.Patch, f flags, stdout, stderr io.Writer) int {
	if errors.Is(err, pipeline.ErrRecoveryNeeded) {
		return recoveryNeeded(o, f, stdout, stderr)
	}
	plan := o.Plan
	o.Color = colorOK(stdout)
	if f.diff && !f.json && (plan.OK() || f.partial && len(plan.Files) > 0) {
		printDiff(stdout, plan, o.Color)
	}
	if f.json {
		report.JSON(stdout, o)
	} else {
		report.Human(stdout, stderr, o)
		if !plan.OK() || o.CommitFailed {
			formatNote(stderr, patch.Format)
		}
	}
	// As terraform apply: 0 when the files now hold the answer (written
	// now, or every block left out already applied), 1 when they do not.
	if !o.OK() {
		return exitFail
	}
	return exitOK
}

// recoveryNeeded refuses a run while an interrupted commit is pending.
func recoveryNeeded(o report.Outcome, f flags, stdout, stderr io.Writer) int {
	if f.json {
		report.JSON(stdout, o)
		return exitFail
	}
	fmt.Fprint(stderr, "[ERROR] An earlier fsrb commit in this workspace was interrupted (a crash, a kill, a power cut):\n"+
		"its files may be half old, half new. Run `fsrb --recover` to roll it back, then run this patch again.\n\n"+
		"Nothing was written.\n")
	return exitFail
}

func printDiff(w io.Writer, plan *core.Plan, color bool) {
	for _, fc := range plan.Files {
		report.Diff(w, pipeline.FileDiff(fc), color)
	}
	if len(plan.Files) > 0 {
		fmt.Fprintln(w)
	}
}

// formatNote says, after a failure report, how the patch was read when it
// was not read as SEARCH/REPLACE blocks, or when the dialect was forced.
func formatNote(w io.Writer, f core.Format) {
	if f.Name == core.FormatSearchReplace && !f.Forced {
		return
	}
	if f.Forced {
		fmt.Fprintf(w, "The patch was read as %s (%s).\n", f.Name, f.Reason)
		return
	}
	fmt.Fprintf(w, "The patch was read as %s (detected: %s); use --format to read it as another dialect.\n", f.Name, f.Reason)
}

// colorOK: colour only on a terminal, and never with NO_COLOR set
// (https://no-color.org).
func colorOK(w io.Writer) bool {
	if _, set := os.LookupEnv("NO_COLOR"); set {
		return false
	}
	return isTerminal(w)
}

// isTerminal: a terminal, not merely a character device (/dev/null is
// one, and is what a job without input or output is given).
func isTerminal(s any) bool {
	f, ok := s.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func journal(root string, f flags, stdout, stderr io.Writer) int {
	if f.recover {
		rep, err := commit.Recover(root, commit.Options{})
		if err != nil {
			fmt.Fprintf(stderr, "[ERROR] Recovery failed: %v\n", err)
			return exitFail
		}
		fmt.Fprintln(stdout, rep)
		return exitOK
	}
	in := catchInterrupts()
	rep, err := commit.Undo(root, commit.Options{Stop: in.stop})
	sig := in.release()
	if err != nil {
		fmt.Fprintf(stderr, "[ERROR] Undo failed: %v\n", err)
	} else {
		fmt.Fprintln(stdout, rep)
	}
	switch {
	case sig != nil:
		interruptNote(stderr, sig, err == nil)
		if err == nil {
			return exitOK
		}
		caught = sig
		return signalCode(sig)
	case err != nil:
		return exitFail
	}
	return exitOK
}

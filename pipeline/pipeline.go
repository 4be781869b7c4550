// Package pipeline is the engine as a front end runs it: Validate (core,
// with tree-sitter's explanations and syntax check) is the one entry point
// of the CLI, the MCP server, the case runner and the language server, so
// a check added here reaches all of them. On the disk, a Workspace also
// parses and commits through the journal (core/commit).
package pipeline

import (
	"errors"
	"path/filepath"

	"github.com/aymanbagabas/go-udiff"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/core/commit"
	"github.com/fsrb/fsrb/core/report"
	"github.com/fsrb/fsrb/treesitter"
)

// Workspace is a root on disk, resolved once.
type Workspace struct {
	Disk    *commit.Disk
	Root    string   // the resolved root, slash-separated
	Aliases []string // other spellings of Root (as the user gave it)
	// EditFormatsOnly reads the edit formats alone: a chat answer's code
	// block that names its file stays prose (the CLI's --snippets=false).
	EditFormatsOnly bool
}

// Open opens the workspace at root. given is the root as the user wrote it
// (absolute); patches may spell absolute paths either way. "" means root.
func Open(root, given string) (*Workspace, error) {
	disk, err := commit.NewDisk(root)
	if err != nil {
		return nil, err
	}
	w := &Workspace{Disk: disk, Root: filepath.ToSlash(disk.Root)}
	if g := filepath.ToSlash(given); g != "" && g != w.Root {
		w.Aliases = append(w.Aliases, g)
	}
	return w, nil
}

// Clean turns a path as written (relative, or absolute inside the root)
// into a clean slash path relative to the root, or says why it is refused.
func (w *Workspace) Clean(name string) (string, error) {
	return core.CleanPathIn(w.Root, w.Aliases, name)
}

// Exists reports whether a file of that name exists in the root.
func (w *Workspace) Exists(name string) bool {
	clean, err := w.Clean(name)
	if err != nil {
		return false
	}
	_, err = w.Disk.ReadFile(clean)
	return err == nil
}

// Parse parses a patch text; format is one of core.Formats ("" detects).
// Chat snippets are read unless EditFormatsOnly.
func (w *Workspace) Parse(text, format string) *core.Patch {
	return core.Parse(text, core.ParseOptions{Exists: w.Exists, Format: format, Snippets: !w.EditFormatsOnly})
}

// Options says how to run a patch.
type Options struct {
	Fuzzy       bool
	SyntaxCheck bool // tree-sitter syntax warnings (the CLI's --syntax-check)
	DryRun      bool // validate only
	Partial     bool // commit the blocks that validate, skip the rest
	Diffs       bool // fill Outcome.Diffs with each file's unified diff
	Revert      bool // run the patch's inverse (core.Revert): undo an applied patch
	// Stop, once closed, rolls back a commit not yet at its commit point
	// (commit.Options.Stop): the CLI closes it on SIGINT and SIGTERM.
	Stop <-chan struct{}

	// Switch is how the front end's user turns Fuzzy on, for hints.
	Switch core.Switch
}

// ErrRecoveryNeeded: an interrupted commit is pending in the workspace;
// nothing was validated or written (see RecoveryOutcome).
var ErrRecoveryNeeded = commit.ErrRecoveryNeeded

// Run validates a parsed patch against the workspace and, unless it is a
// dry run, commits it all or nothing (or, with Partial, the blocks that
// validate). A block found already applied is skipped with a note, the
// same answer in every front end: the rest commits as one change, and a
// patch whose every block is applied writes nothing and succeeds. The
// outcome is what core/report renders; Written says whether a commit
// wrote files.
func (w *Workspace) Run(patch *core.Patch, opt Options) (report.Outcome, error) {
	// Every run checks for an interrupted commit first: validating against
	// a half-applied tree would report nonsense, and committing on top of
	// it would let a later recovery undo this run with stale backups.
	if pending, err := commit.Pending(w.Disk.Root, commit.Options{}); err == nil && pending {
		return RecoveryOutcome(patch), ErrRecoveryNeeded
	}
	plan := Validate(patch, w.Disk, Check{Options: w.options(opt.Fuzzy, opt.Switch), Checker: Disk, Syntax: syntaxMode(opt.SyntaxCheck), Revert: opt.Revert})
	o := report.Outcome{Plan: plan, Mode: report.ModeApply, Revert: opt.Revert}
	switch {
	case opt.DryRun:
		o.Mode = report.ModeDryRun
	case opt.Partial:
		o.Mode = report.ModePartial
	}
	canWrite := plan.OK() || opt.Partial && len(plan.Files) > 0
	if opt.Diffs && canWrite {
		o.Diffs = map[string]string{}
		for _, fc := range plan.Files {
			o.Diffs[fc.Display] = FileDiff(fc)
		}
	}
	if !opt.DryRun && canWrite && len(plan.Files) > 0 {
		if _, err := commit.Commit(w.Disk.Root, plan.Files, commit.Options{Stop: opt.Stop}); err != nil {
			plan.Problems = append(plan.Problems, CommitProblem(err))
			o.CommitFailed = true
		} else {
			o.Written = true
		}
	}
	return o, nil
}

// Validate is the engine as the front ends run it on the disk: core, with
// tree-sitter (its package-level cache) plugged in to explain ambiguous
// blocks and to check the syntax of what the plan writes (warnings; they
// never stop a commit).
func (w *Workspace) Validate(patch *core.Patch, fuzzy, syntaxCheck bool) *core.Plan {
	return Validate(patch, w.Disk, Check{Options: w.options(fuzzy, core.SwitchFlag), Checker: Disk, Syntax: syntaxMode(syntaxCheck)})
}

// options are the engine's options of the front ends on the disk. Applied:
// a block already in its applied state is skipped with a note, not
// refused, so that a patch run twice, or one block of it done by hand,
// leaves the files holding the answer without writing any block twice.
func (w *Workspace) options(fuzzy bool, sw core.Switch) core.Options {
	return core.Options{Root: w.Root, RootAliases: w.Aliases, Fuzzy: fuzzy, Switch: sw, Applied: true}
}

// Checker is what tree-sitter adds to the engine: the places of an
// ambiguous block told apart (core.Explainer), the outline of a file and
// of a chat snippet (core.Outliner), and the syntax errors a valid plan
// would write. treesitter.Cache implements it: the front ends
// on the disk use the package's cache (Disk), the language server its
// session's cache (trees keyed by content, its own timeout, whole files).
type Checker interface {
	Explain(path, text, search, replace string, occurrences []int) []core.Explanation
	Outline(path, text string) ([]core.Item, bool)
	SyntaxProblems(plan *core.Plan) core.Problems
}

// Disk is the Checker of the front ends on the disk (the CLI, the MCP
// server, the case runner): tree-sitter's package-level cache.
var Disk Checker = treesitter.DefaultCache

// Syntax says when Validate runs the Checker's syntax check.
type Syntax int

const (
	SyntaxOff    Syntax = iota // never
	SyntaxAlways               // on whatever the plan writes (the CLI's --syntax-check, on by default)
	SyntaxIfOK                 // only when every block validates (the language server, on each keystroke)
)

func syntaxMode(check bool) Syntax {
	if check {
		return SyntaxAlways
	}
	return SyntaxOff
}

// Check says how Validate runs the engine.
type Check struct {
	core.Options         // Root, Fuzzy, Applied…; Explain and Outline are filled from Checker
	Checker      Checker // tree-sitter; nil runs core alone
	Syntax       Syntax  // when to add the Checker's syntax warnings
	Revert       bool    // validate the patch's inverse (core.Revert)
	// Revalidate: the caller validates one document again and again (the
	// language server, on every change), through core.Revalidate, which
	// takes over from Previous, the plan of the same document a moment
	// ago validated with the same Check (nil: none yet), the files it
	// finds unchanged.
	Revalidate bool
	Previous   *core.Plan
}

// Validate is the one entry point of the engine that every front end
// calls: the CLI, the MCP server and the case runner (through a
// Workspace or directly, with Disk) and the language server (with its
// session's cache): validate (or revert) → tree-sitter's explanations →
// syntax problems → sort. A check added here reaches all of them.
func Validate(patch *core.Patch, fsys core.FS, c Check) *core.Plan {
	opt := c.Options
	if c.Checker != nil {
		opt.Explain = c.Checker.Explain
		opt.Outline = c.Checker.Outline
	}
	var plan *core.Plan
	switch {
	case c.Revert:
		plan = core.Revert(patch, fsys, opt)
	case c.Revalidate:
		plan = core.Revalidate(c.Previous, patch, fsys, opt)
	default:
		plan = core.Validate(patch, fsys, opt)
	}
	if c.Checker == nil || c.Syntax == SyntaxOff || c.Syntax == SyntaxIfOK && !plan.OK() {
		return plan
	}
	if syntax := c.Checker.SyntaxProblems(plan); len(syntax) > 0 {
		plan.Problems = append(plan.Problems, syntax...)
		plan.Problems.Sort()
	}
	return plan
}

// RecoveryOutcome is the outcome of a run refused because an interrupted
// commit is pending: nothing validated, nothing written.
func RecoveryOutcome(patch *core.Patch) report.Outcome {
	plan := &core.Plan{Patch: patch, Problems: core.Problems{CommitProblem(commit.ErrRecoveryNeeded)}}
	return report.Outcome{Plan: plan, CommitFailed: true}
}

// CommitProblem turns a commit's error into a problem of the report.
func CommitProblem(err error) core.Problem {
	var conflict *commit.ConflictError
	if errors.As(err, &conflict) {
		return core.Problem{Kind: core.KindConflict, Path: conflict.Path, Message: err.Error(),
			Hint: "run fsrb again to validate against the new content"}
	}
	if errors.Is(err, commit.ErrRecoveryNeeded) {
		return core.Problem{Kind: core.KindCommit, Message: err.Error(),
			Hint: "run fsrb --recover to roll the interrupted commit back, then run this patch again"}
	}
	if errors.Is(err, commit.ErrInterrupted) {
		return core.Problem{Kind: core.KindCommit, Message: err.Error(),
			Hint: "run fsrb again to apply the patch"}
	}
	return core.Problem{Kind: core.KindCommit, Message: err.Error(),
		Hint: "fix the cause (permissions, disk space) and run fsrb again"}
}

// FileDiff is the unified diff of one file's change.
func FileDiff(fc core.FileChange) string {
	from, to := "a/"+fc.Display, "b/"+fc.Display
	switch fc.Action {
	case core.ActionCreate:
		from = "/dev/null"
	case core.ActionDelete:
		to = "/dev/null"
	}
	return udiff.Unified(from, to, string(fc.Old), string(fc.Bytes()))
}

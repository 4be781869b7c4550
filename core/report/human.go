// Package report renders a validated plan for people (the CLI's contract, docs/cli.md "Output")
// and for programs (--json). It is pure: plan in, text out.
package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"github.com/fsrb/fsrb/core"
)

// Mode is what the run did or would do.
type Mode int

const (
	ModeApply   Mode = iota // the plan was committed
	ModeDryRun              // --dry-run: nothing written
	ModePartial             // --partial: the blocks that validate were committed
)

// Outcome is everything a report needs.
type Outcome struct {
	Plan    *core.Plan
	Mode    Mode
	Written bool // the commit happened (for ModeApply and ModePartial)
	// CommitFailed: validation passed but writing failed and was rolled back
	// (the reason is among the plan's problems).
	CommitFailed bool
	Color        bool
	// Diffs, with --diff, is each file's unified diff by its Display path:
	// the JSON report carries it per file (text output prints it before).
	Diffs map[string]string
	// Revert: the plan undoes a patch (core.Revert); the report says
	// "Reverted", "Restored" and "reverted" where an apply says "Saved",
	// "Created" and "applied".
	Revert bool
}

const (
	red    = "\x1b[31m"
	green  = "\x1b[32m"
	yellow = "\x1b[33m"
	bold   = "\x1b[1m"
	reset  = "\x1b[0m"
)

func (o Outcome) paint(color, s string) string {
	if !o.Color {
		return s
	}
	return color + s + reset
}

// Plural writes "1 block", "2 blocks".
func Plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// OK reports whether the run did what it was asked: the files now hold
// the answer, written by this run or already there (every block left out
// was found applied), or with a dry run would. A --partial run that
// skipped a block is not OK. It is the exit status, and --json's "ok".
func (o Outcome) OK() bool {
	p := o.Plan
	return p.OK() && !o.CommitFailed && (o.Written || o.Mode == ModeDryRun || len(p.Files) == 0)
}

// Human writes the CLI's output (docs/cli.md "Output"): success lines on
// stdout, the failure report and notes on stderr. A block found already
// applied is a note, and the summary line says how many were.
func Human(stdout, stderr io.Writer, o Outcome) {
	p := o.Plan
	notes(stderr, o)
	if !o.Written && !o.OK() {
		Failure(stderr, o)
		return
	}
	moved := map[string]bool{} // sources whose delete a "Moved" line says
	for _, f := range p.Files {
		if f.MovedFrom != "" {
			moved[f.MovedFrom] = true
		}
	}
	for _, f := range p.Files {
		if f.Action == core.ActionDelete && moved[f.Display] {
			continue
		}
		fmt.Fprintln(stdout, fileLine(f, o.Mode == ModeDryRun, o.Revert))
	}
	blocks, files := Plural(p.BlockCount(), "block"), Plural(len(p.Files), "file")
	applied := p.AppliedCount()
	switch {
	case o.Revert && o.Mode == ModeDryRun:
		fmt.Fprintf(stdout, "\n%s All %s would be reverted in %s; nothing was written.\n", o.paint(yellow, "[DRY RUN]"), blocks, files)
	case o.Revert:
		fmt.Fprintf(stdout, "\n%s All %s reverted in %s.\n", o.paint(green, "[SUCCESS]"), blocks, files)
	case applied > 0 && p.OK() && p.BlockCount() == 0:
		label, color := "[SUCCESS]", green
		if o.Mode == ModeDryRun {
			label, color = "[DRY RUN]", yellow
		}
		fmt.Fprintf(stdout, "%s Nothing to do: %s.\n", o.paint(color, label), allApplied(p))
	case o.Mode == ModeDryRun && applied > 0:
		fmt.Fprintf(stdout, "\n%s %s would apply to %s (%s); nothing was written.\n", o.paint(yellow, "[DRY RUN]"), blocks, files, numbered(p, core.StatusApplied, "is", "are")+" already applied")
	case o.Mode == ModeDryRun:
		fmt.Fprintf(stdout, "\n%s All %s would apply to %s; nothing was written.\n", o.paint(yellow, "[DRY RUN]"), blocks, files)
	case p.OK() && applied > 0:
		fmt.Fprintf(stdout, "\n%s Applied %s to %s (%s).\n", o.paint(green, "[SUCCESS]"), blocks, files, numbered(p, core.StatusApplied, "was", "were")+" already applied")
	case p.OK():
		fmt.Fprintf(stdout, "\n%s All %s applied to %s.\n", o.paint(green, "[SUCCESS]"), blocks, files)
	default: // --partial: what was skipped, and why, on stderr
		also := ""
		if applied > 0 {
			also = " (" + numbered(p, core.StatusApplied, "was", "were") + " already applied)"
		}
		fmt.Fprintf(stdout, "\n%s Applied %s of %d to %s%s; skipped %s.\n", o.paint(yellow, "[PARTIAL]"), blocks, len(p.Blocks), files, also, numbered(p, core.StatusFailed, "", ""))
		fmt.Fprintln(stderr)
		problems(stderr, o)
	}
}

// allApplied says that every block of p is already applied: "block #1 is
// already applied", "all 3 blocks are already applied".
func allApplied(p *core.Plan) string {
	if n := len(p.Blocks); n != 1 {
		return fmt.Sprintf("all %d blocks are already applied", n)
	}
	return fmt.Sprintf("block #%d is already applied", p.Blocks[0].Block)
}

func fileLine(f core.FileChange, dry, revert bool) string {
	switch {
	case revert && f.MovedFrom == "" && f.Action == core.ActionCreate && dry:
		return "Would restore " + f.Display
	case revert && f.MovedFrom == "" && f.Action == core.ActionCreate:
		return "Restored " + f.Display
	case revert && f.Action == core.ActionModify && dry:
		return "Would revert changes to " + f.Display
	case revert && f.Action == core.ActionModify:
		return "Reverted changes to " + f.Display
	case dry && f.MovedFrom != "":
		return "Would move " + f.MovedFrom + " to " + f.Display
	case f.MovedFrom != "":
		return "Moved " + f.MovedFrom + " to " + f.Display
	case dry && f.Action == core.ActionCreate:
		return "Would create " + f.Display
	case dry && f.Action == core.ActionDelete:
		return "Would delete " + f.Display
	case dry:
		return "Would save changes to " + f.Display
	case f.Action == core.ActionCreate:
		return "Created " + f.Display
	case f.Action == core.ActionDelete:
		return "Deleted " + f.Display
	}
	return "Saved changes to " + f.Display
}

// numbered names the blocks of p in one state, with the verb that
// follows for one or for several: "block #3 was", "blocks #2, #4 were".
func numbered(p *core.Plan, st core.Status, one, several string) string {
	var nums []string
	for _, r := range p.Blocks {
		if r.Status == st {
			nums = append(nums, fmt.Sprintf("#%d", r.Block))
		}
	}
	word, verb := "blocks ", several
	if len(nums) == 1 {
		word, verb = "block ", one
	}
	s := word + strings.Join(nums, ", ")
	if verb != "" {
		s += " " + verb
	}
	return s
}

// Failure writes "[ERROR] Validation failed." and every problem, grouped
// under the file it belongs to ("Patch:" for the patch itself).
func Failure(w io.Writer, o Outcome) {
	if o.CommitFailed {
		fmt.Fprintf(w, "%s Commit failed.\n\n", o.paint(red, "[ERROR]"))
		problems(w, o)
		fmt.Fprintln(w, "Every file was rolled back; nothing changed.")
		return
	}
	fmt.Fprintf(w, "%s Validation failed.\n\n", o.paint(red, "[ERROR]"))
	problems(w, o)
	if o.Revert {
		fmt.Fprintln(w, "Nothing was reverted.")
		return
	}
	fmt.Fprintln(w, "Nothing was written.")
}

func problems(w io.Writer, o Outcome) {
	var order []string
	byFile := map[string][]core.Problem{}
	for _, pr := range o.Plan.Problems.Errors() {
		key := pr.Path
		if _, ok := byFile[key]; !ok {
			order = append(order, key)
		}
		byFile[key] = append(byFile[key], pr)
	}
	m := core.NewLines(o.Plan.Patch.Text)
	for _, key := range order {
		if key == "" {
			fmt.Fprintln(w, o.paint(bold, "Patch:"))
		} else {
			fmt.Fprintln(w, o.paint(bold, "File: "+key))
		}
		for _, pr := range byFile[key] {
			problem(w, o.Plan.Patch, m, pr)
		}
		fmt.Fprintln(w)
	}
}

func problem(w io.Writer, patch *core.Patch, m *core.Lines, pr core.Problem) {
	if pr.NamesBlock() {
		fmt.Fprintf(w, "  - B%s\n", pr.Message[1:])
	} else if pr.Block > 0 {
		fmt.Fprintf(w, "  - Block #%d: %s\n", pr.Block, pr.Message)
	} else {
		fmt.Fprintf(w, "  - %s\n", pr.Message)
	}
	if pr.Snippet != "" {
		fmt.Fprintf(w, "    Snippet: %q\n", pr.Snippet)
	}
	switch pr.Kind {
	case core.KindMalformed, core.KindIncomplete, core.KindNoPath, core.KindEmptyBlock:
		// Problems of the patch text: say where in the patch.
		fmt.Fprintf(w, "    At: line %d of the patch\n", m.Line(pr.Span.Start)+1)
	case core.KindNotFound:
		for _, c := range pr.Candidates {
			fmt.Fprintf(w, "    Closest: lines %d-%d, %d%% similar\n", c.Line, c.EndLine, percent(c.Similarity))
			if c.Diff != "" {
				for _, l := range strings.Split(strings.TrimRight(c.Diff, "\n"), "\n") {
					fmt.Fprintf(w, "      %s\n", l)
				}
			}
		}
	case core.KindAmbiguous:
		for _, c := range pr.Candidates {
			where := ""
			if c.Explanation.Where != "" {
				where = ", in " + c.Explanation.Where
			}
			fmt.Fprintf(w, "    At line %d%s: %s\n", c.Line, where, c.Context)
		}
		var dialect core.Dialect
		if b := patch.Block(pr.Block); b != nil {
			dialect = b.Dialect
		}
		for _, c := range pr.Candidates {
			widened(w, dialect, c)
		}
	}
	if pr.Hint != "" {
		fmt.Fprintf(w, "    Fix: %s\n", pr.Hint)
	}
}

// widened prints what targets one place of an ambiguous block, in the
// block's own notation: a SEARCH/REPLACE block, or for a hunk its context
// lines (and the "@@" anchor that singles the place out, for apply-patch).
func widened(w io.Writer, dialect core.Dialect, c core.Candidate) {
	ex := c.Explanation
	place := fmt.Sprintf("line %d", c.Line)
	if ex.Where != "" {
		place = fmt.Sprintf("%s (line %d)", ex.Where, c.Line)
	}
	if ex.Anchor != "" && dialect == core.DialectApplyPatch {
		fmt.Fprintf(w, "    To target %s, put this line above the hunk: @@ %s\n", place, ex.Anchor)
		return
	}
	if ex.Search == "" {
		return
	}
	switch dialect {
	case core.DialectApplyPatch, core.DialectUdiff:
		fmt.Fprintf(w, "    To target %s, use this hunk:\n", place)
		indentBody(w, hunkLines(ex.Search, ex.Replace))
	default:
		fmt.Fprintf(w, "    To target %s, use:\n", place)
		fmt.Fprintln(w, "      <<<<<<< SEARCH")
		indentBody(w, ex.Search)
		fmt.Fprintln(w, "      =======")
		indentBody(w, ex.Replace)
		fmt.Fprintln(w, "      >>>>>>> REPLACE")
	}
}

// hunkLines writes a widened block as the " "/"-"/"+" lines of one hunk,
// through the diff library (every line kept as context).
func hunkLines(search, replace string) string {
	edits := udiff.Strings(search, replace)
	d, err := udiff.ToUnifiedDiff("a", "b", search, edits, strings.Count(search, "\n")+1)
	if err != nil {
		return ""
	}
	var b strings.Builder
	for _, h := range d.Hunks {
		for _, l := range h.Lines {
			prefix := " "
			switch l.Kind {
			case udiff.Delete:
				prefix = "-"
			case udiff.Insert:
				prefix = "+"
			}
			b.WriteString(prefix + strings.TrimSuffix(l.Content, "\n") + "\n")
		}
	}
	return b.String()
}

func indentBody(w io.Writer, body string) {
	for _, l := range strings.SplitAfter(body, "\n") {
		if l != "" {
			fmt.Fprintf(w, "      %s", strings.TrimSuffix(l, "\n")+"\n")
		}
	}
}

// percent rounds down so that a near miss never shows as "100% similar".
func percent(f float64) int {
	n := int(f * 100)
	if n >= 100 && f < 1 {
		n = 99
	}
	return n
}

// notes writes warnings and informations (an inherited path, a fuzzy
// match) to stderr, one line each.
func notes(w io.Writer, o Outcome) {
	for _, pr := range o.Plan.Problems {
		if pr.Severity == core.SeverityError {
			continue
		}
		label := "Note"
		if pr.Severity == core.SeverityWarning {
			label = "Warning"
		}
		fmt.Fprintf(w, "%s: %s\n", o.paint(yellow, label), pr.Message)
	}
}

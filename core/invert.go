package core

import (
	"fmt"
	"strings"
)

// irreversibleHint is what to do about a block whose inverse cannot be
// made or found: the journal and the editor keep the old bytes.
const irreversibleHint = "revert it with fsrb --undo right after applying, or your editor's undo"

// Invert returns the inverse of a patch: applied to the files as p left
// them, it gives them back (README.md "Reverting a patch"). Each block
// keeps its Number, Path and spans, so that problems point at the block
// as the patch wrote it, and carries Inverts (the Op it undoes):
//
//   - modify: SEARCH and REPLACE swap. Line hints and hashes, which
//     described the file before the patch, are dropped; apply-patch
//     anchors are kept when the hunk leaves the lines they name as they
//     were, else dropped (the inverse then relies on its text being
//     unique). An addition-only apply-patch hunk without an anchor added
//     at the end of the file: its inverse must match there.
//   - modify with an empty REPLACE: it removed lines. If it emptied the
//     file, which was then deleted, the inverse re-creates the file with
//     SEARCH's text; if the file stayed, the lines have no text left to be
//     found by, and validation reports KindIrreversible. Only the file can
//     tell the two apart, so the inverse is a create either way.
//   - create: a delete-file that requires exactly the created content.
//   - a unified diff's deletion (its - lines are the content): a create.
//     An apply-patch *** Delete File names no content: KindIrreversible.
//   - move a→b: move b→a (Path is then b).
//
// The blocks come in reverse order, since blocks of one file apply in
// sequence and the last one must be undone first. The hunks of one
// apply-patch *** Update File section keep their order: they match top to
// bottom, each after the one before, never overlapping, and so do their
// inverses; the section's *** Move to is undone before them.
//
// A file deleted by emptying comes back with LF line endings and no BOM
// (the patch holds its text, not its bytes), and an Add File that
// overwrote a file is undone by deleting it: fsrb --undo restores bytes.
func Invert(p *Patch) *Patch {
	inv := &Patch{Text: p.Text, Format: p.Format, Shell: p.Shell}
	inv.Problems = append(inv.Problems, p.Problems...)
	add := func(b *Block) {
		nb, pr := invertBlock(b)
		inv.Blocks = append(inv.Blocks, nb)
		if pr != nil {
			inv.Problems = append(inv.Problems, *pr)
		}
	}
	for hi := len(p.Blocks); hi > 0; {
		lo := hi - 1
		if s := p.Blocks[lo].Section; s > 0 && p.Blocks[lo].Dialect == DialectApplyPatch {
			for lo > 0 && p.Blocks[lo-1].Section == s && p.Blocks[lo-1].Dialect == DialectApplyPatch {
				lo--
			}
		}
		last := hi
		if hi-lo > 1 && p.Blocks[hi-1].Op == OpMove {
			add(&p.Blocks[hi-1])
			last--
		}
		for i := lo; i < last; i++ {
			add(&p.Blocks[i])
		}
		hi = lo
	}
	inv.Problems.Sort()
	return inv
}

// invertBlock returns the inverse of one block, or the block and a
// KindIrreversible problem.
func invertBlock(b *Block) (Block, *Problem) {
	out := *b
	if b.Incomplete || b.Op == OpShell {
		return out, nil
	}
	out.Inverts = b.Op
	out.plain = false // its Replace is another text
	out.HintLine, out.HintEndLine, out.Hashes, out.Overwrite = 0, 0, nil, false
	switch b.Op {
	case OpModify:
		if b.Replace == "" {
			if b.Search == "" {
				return out, nil // an empty block: a parse problem already
			}
			out.Op, out.Search, out.Replace = OpCreate, "", b.Search
			out.Anchors, out.EOF, out.Section = nil, false, 0
			return out, nil
		}
		out.Search, out.Replace = b.Replace, b.Search
		if b.Search == "" && len(b.Anchors) == 0 {
			out.EOF = true
		}
		if !anchorsHold(b) {
			out.Anchors = nil
		}
	case OpCreate:
		out.Op, out.Search, out.Replace = OpDeleteFile, b.Replace, ""
	case OpDeleteFile:
		if b.Dialect == DialectApplyPatch {
			return *b, &Problem{
				Kind: KindIrreversible, Block: b.Number, Path: b.Path, Span: b.Span,
				Message: fmt.Sprintf("block #%d cannot be reverted: *** Delete File: %s does not say what the file held, so it cannot be re-created", b.Number, b.Path),
				Hint:    irreversibleHint,
			}
		}
		out.Op, out.Search, out.Replace = OpCreate, "", b.Search
	case OpMove:
		out.Path, out.MoveTo = b.MoveTo, b.Path
	case OpStrReplace:
		// One substring for another swaps back; a replace_all, a deletion
		// of text or an insert at a line number leaves nothing to find
		// exactly where it was.
		if !b.ReplaceAll && b.Search != "" && b.Replace != "" {
			out.Search, out.Replace = b.Replace, b.Search
			return out, nil
		}
		return *b, irreversible(b, "it replaced every occurrence, or removed text, and the file does not say where the old text stood")
	case OpInsert:
		return *b, irreversible(b, fmt.Sprintf("it inserted lines after line %d, and the file does not say which lines those are now", b.InsertAfter))
	case OpSnippet:
		return *b, irreversible(b, "a code block holds only the new text, not the text it replaced (fsrb --undo restores the last commit)")
	}
	return out, nil
}

func irreversible(b *Block, why string) *Problem {
	return &Problem{
		Kind: KindIrreversible, Block: b.Number, Path: b.Path, Span: b.Span,
		Message: fmt.Sprintf("block #%d cannot be reverted: %s", b.Number, why),
		Hint:    irreversibleHint,
	}
}

// anchorsHold reports whether a hunk leaves the lines its "@@" anchors
// name as they were: every anchor matches as many lines of SEARCH as of
// REPLACE (a hunk that rewrites or adds a signature moves its anchor).
func anchorsHold(b *Block) bool {
	count := func(text, a string) int {
		n := 0
		for l := range strings.SplitSeq(text, "\n") {
			if l = strings.TrimSpace(l); l != "" && strings.HasPrefix(l, a) {
				n++
			}
		}
		return n
	}
	for _, a := range b.Anchors {
		a = strings.TrimSpace(a)
		if count(b.Search, a) != count(b.Replace, a) {
			return false
		}
	}
	return true
}

// Revert validates the inverse of p (Invert) against fsys: the plan that
// undoes p, committed like any other. Its problems speak of the blocks of
// p: a block whose inverse does not apply is not in its applied state
// (KindNotApplied), or cannot be undone (KindIrreversible, KindAmbiguous).
// Plan.Patch is the inverse patch.
func Revert(p *Patch, fsys FS, opt Options) *Plan {
	opt.Applied = false
	plan := Validate(Invert(p), fsys, opt)
	for i := range plan.Problems {
		if b := p.Block(plan.Problems[i].Block); b != nil {
			revertProblem(&plan.Problems[i], b)
		}
	}
	return plan
}

// notApplied is what to do about a block a revert finds not applied.
const notAppliedHint = "fsrb --revert undoes a patch whose every block is applied: apply the patch first, or undo the applied blocks by hand"

// revertProblem words a problem of an inverse block in terms of the block
// b it undoes.
func revertProblem(pr *Problem, b *Block) {
	if pr.Severity != SeverityError {
		return
	}
	notApplied := func(why string) {
		pr.Kind = KindNotApplied
		pr.Message = fmt.Sprintf("block #%d is not applied: %s", b.Number, why)
		pr.Hint = notAppliedHint
	}
	switch pr.Kind {
	case KindAmbiguous:
		var lines []string
		for i := range pr.Candidates {
			lines = append(lines, fmt.Sprint(pr.Candidates[i].Line))
			// A widened inverse block would read as a patch to write.
			pr.Candidates[i].Explanation.Search, pr.Candidates[i].Explanation.Replace, pr.Candidates[i].Explanation.Anchor = "", "", ""
		}
		pr.Message = fmt.Sprintf("block #%d cannot be reverted: its REPLACE text occurs in %d places of %s (lines %s), so which one it wrote is unknown",
			b.Number, len(pr.Candidates), b.Path, strings.Join(lines, ", "))
		pr.Hint = irreversibleHint
	case KindNotFound, KindPartialLine, KindAlreadyApplied, KindMissingFile, KindFileExists, KindStaleHash:
		switch {
		case b.Op == OpModify && b.Replace == "":
			notApplied(b.Path + ", which it empties, still exists")
		case b.Op == OpModify && pr.Kind == KindMissingFile:
			notApplied(b.Path + " does not exist")
		case b.Op == OpModify && pr.Kind == KindAlreadyApplied:
			notApplied(fmt.Sprintf("its SEARCH text still stands in %s (line %d)", b.Path, pr.Line))
			pr.Snippet = firstNonBlankLine(b.Search)
		case b.Op == OpModify:
			notApplied("its REPLACE text is not in " + b.Path)
		case b.Op == OpCreate && pr.Kind == KindNotFound:
			notApplied(b.Path + " no longer holds exactly the content it created")
			pr.Hint = "edit the file back by hand; fsrb --undo restores the last commit"
		case b.Op == OpCreate:
			notApplied(b.Path + ", which it creates, does not exist")
		case b.Op == OpDeleteFile:
			notApplied(b.Path + ", which it deletes, still exists")
		case b.Op == OpMove:
			notApplied(fmt.Sprintf("%s, where it moves %s, does not exist", b.MoveTo, b.Path))
		}
	}
}

package lsp

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/pipeline"
)

// Per-block review keeps all-or-nothing (README.md, "Skipped blocks"): a
// block the user skips is left out of "Apply all blocks", which applies the
// blocks still included as one edit, or nothing. The engine sees a patch
// without the skipped blocks, so the blocks after one of them in the same
// file are validated on the file without its change: one that needed it
// fails there, as its own error, and never lands somewhere else.

// statusSkipped is the result of a skipped block in an analysis's plan.
const statusSkipped core.Status = "skipped"

// kindSkipped is the note on a skipped block, in place of its problems.
const kindSkipped core.Kind = "skipped"

// skipMark is one skipped block of a document: at is the offset where the
// block started, moved along by the editor's changes (the block whose text
// holds it is the one skipped), -1 once a change replaced the whole text;
// key is the block's content, which identifies it then.
type skipMark struct {
	at  int
	key string
}

// blockKey is what a block says: its file, operation and texts.
func blockKey(b *core.Block) string {
	return strings.Join([]string{b.Path, string(b.Op), b.Search, b.Replace}, "\x00")
}

// skippedBlocks is the numbers of the skipped blocks of a patch.
func (s *snapshot) skippedBlocks(u uri.URI, patch *core.Patch) map[int]bool {
	marks := s.skips[u]
	if len(marks) == 0 {
		return nil
	}
	out := map[int]bool{}
	for _, m := range marks {
		for _, b := range patch.Blocks {
			if m.at >= 0 && m.at >= b.Span.Start && m.at < max(b.Span.End, b.Span.Start+1) ||
				m.at < 0 && !out[b.Number] && blockKey(&b) == m.key {
				out[b.Number] = true
				break
			}
		}
	}
	return out
}

// validate runs the engine on the blocks of the patch that are not
// skipped; the plan it returns still has one result per block, skipped
// ones included.
func (s *snapshot) validate(u uri.URI, d *document, patch *core.Patch, check pipeline.Check) (*core.Plan, map[int]bool) {
	skipped := s.skippedBlocks(u, patch)
	if len(skipped) == 0 {
		check.Revalidate, check.Previous = true, s.prior.get(u)
		plan := pipeline.Validate(patch, s, check)
		s.prior.put(u, plan)
		return plan, nil
	}
	// The plan of part of the patch is no start for the next analysis.
	s.prior.forget(u)
	sub := &core.Patch{Text: patch.Text, Format: patch.Format}
	for _, b := range patch.Blocks {
		if !skipped[b.Number] {
			sub.Blocks = append(sub.Blocks, b)
		}
	}
	for _, p := range patch.Problems {
		if !skipped[p.Block] {
			sub.Problems = append(sub.Problems, p)
		}
	}
	plan := pipeline.Validate(sub, s, check)
	full := *plan
	full.Patch = patch
	full.Blocks = make([]core.BlockResult, 0, len(patch.Blocks))
	full.Problems = append(core.Problems(nil), plan.Problems...)
	byNumber := map[int]core.BlockResult{}
	for _, r := range plan.Blocks {
		byNumber[r.Block] = r
	}
	for _, b := range patch.Blocks {
		if !skipped[b.Number] {
			full.Blocks = append(full.Blocks, byNumber[b.Number])
			continue
		}
		res := core.BlockResult{Block: b.Number, Status: statusSkipped}
		if clean, err := core.CleanPath(s.view.slashRoot, b.Path); err == nil {
			res.Path = clean // its header still links to the file
		}
		full.Blocks = append(full.Blocks, res)
		full.Problems = append(full.Problems, core.Problem{
			Kind: kindSkipped, Severity: core.SeverityInfo, Block: b.Number, Path: b.Path,
			Span:    markerSpan(d.mapper, &b),
			Message: fmt.Sprintf("block #%d is skipped: Apply all blocks leaves it out", b.Number),
			Hint:    fmt.Sprintf("Include block #%d puts it back", b.Number),
		})
	}
	// A block that fails after a skipped block of its file may have needed
	// that block's change: say so where the failure is shown.
	for i, p := range full.Problems {
		if p.Severity != core.SeverityError || p.Block < 1 || p.Block > len(patch.Blocks) {
			continue
		}
		path := patch.Blocks[p.Block-1].Path
		var before []string
		for _, b := range patch.Blocks[:p.Block-1] {
			if skipped[b.Number] && b.Path == path {
				before = append(before, fmt.Sprintf("#%d", b.Number))
			}
		}
		if len(before) > 0 {
			note := fmt.Sprintf("block %s of %s, skipped, comes before it: this block may need its change", strings.Join(before, ", "), path)
			if p.Hint != "" {
				note = p.Hint + "; " + note
			}
			full.Problems[i].Hint = note
		}
	}
	full.Problems.Sort()
	return &full, skipped
}

// included is the blocks of the patch that are not skipped.
func (a *analysis) included() []core.Block {
	if len(a.skipped) == 0 {
		return a.patch.Blocks
	}
	var out []core.Block
	for _, b := range a.patch.Blocks {
		if !a.skipped[b.Number] {
			out = append(out, b)
		}
	}
	return out
}

// skippedList is "#3" or "#3, #5".
func (a *analysis) skippedList() string {
	nums := make([]int, 0, len(a.skipped))
	for n := range a.skipped {
		nums = append(nums, n)
	}
	sort.Ints(nums)
	parts := make([]string, len(nums))
	for i, n := range nums {
		parts[i] = fmt.Sprintf("#%d", n)
	}
	return strings.Join(parts, ", ")
}

// summary is the patch's state in a line, for status bars and :Fsrb
// status: "ready: 4 of 5 blocks, #3 skipped".
func (a *analysis) summary() string {
	total, included := len(a.patch.Blocks), len(a.included())
	st := a.state()
	blocks := plural(total, "block")
	if len(a.skipped) > 0 {
		blocks = fmt.Sprintf("%d of %s", included, blocks)
	}
	var out string
	switch st {
	case lifeEmpty:
		return a.noEdit()
	case lifeSkipped:
		return fmt.Sprintf("skipped: every block is skipped (%s); nothing to apply", plural(total, "block"))
	case lifePartly:
		out = fmt.Sprintf("partly-applied: %d of %s applied", a.plan.AppliedCount(), plural(included, "block"))
	case lifeProblems:
		bad := 0
		for _, b := range a.included() {
			if a.blockState(b.Number) == lifeProblems {
				bad++
			}
		}
		out = fmt.Sprintf("problems: %d of %s %s", bad, plural(included, "block"), pluralWord(bad, "does not apply", "do not apply"))
	default:
		out = fmt.Sprintf("%s: %s", st, blocks)
	}
	if len(a.skipped) > 0 {
		out += ", " + a.skippedList() + " skipped"
	}
	return out
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// moveSkips follows a document's changes (applyChanges) with its skip
// marks: a mark moves with the text before it, and goes when a change
// replaces the text it sits on (the block's first line was deleted). A
// change of the whole text leaves the blocks to be found by their
// content.
func moveSkips(marks []skipMark, edits []textEdit) []skipMark {
	out := append([]skipMark(nil), marks...)
	for _, e := range edits {
		if e.whole {
			for i := range out {
				out[i].at = -1
			}
			continue
		}
		kept := out[:0]
		for _, mk := range out {
			switch {
			case mk.at < 0 || mk.at < e.span.Start:
			case mk.at < e.span.End:
				continue // its text is gone
			default:
				mk.at += e.n - (e.span.End - e.span.Start)
			}
			kept = append(kept, mk)
		}
		out = kept
	}
	return out
}

// anchorSkips finds the blocks of a patch's new text that its marks name,
// and marks each one anew, at its start and with its content; a mark whose
// block is gone is dropped. Run after each change of a document that has
// skipped blocks, so that a mark never outlives its block and the content
// it keeps is the block's as it is now.
func (s *snapshot) anchorSkips(u uri.URI, text string) {
	marks := s.skips[u]
	if len(marks) == 0 {
		return
	}
	patch := core.Parse(text, core.ParseOptions{Exists: s.exists, Streaming: true, Snippets: true})
	s.rangesAsSeen(u, patch) // the blocks as analyses read them, keys alike
	var out []skipMark
	for n := range s.skippedBlocks(u, patch) {
		b := patch.Block(n)
		out = append(out, skipMark{at: b.Span.Start, key: blockKey(b)})
	}
	if len(out) == 0 {
		delete(s.skips, u)
		return
	}
	s.skips[u] = out
}

// setSkip skips block n of the patch in u, or includes it again.
func (s *Server) setSkip(u uri.URI, b *core.Block, skip bool) error {
	return s.modify(modification{kind: modSkip, uri: u, skip: &skipChange{span: b.Span, key: blockKey(b), skip: skip}})
}

// skipChange is a modSkip: the block at span (key: its content) skipped or
// included.
type skipChange struct {
	span core.Span
	key  string
	skip bool
}

// applySkip makes the skip marks of the next snapshot.
func (s *snapshot) applySkip(u uri.URI, c *skipChange) {
	var marks []skipMark
	for _, m := range s.skips[u] {
		same := m.at >= c.span.Start && m.at < max(c.span.End, c.span.Start+1) || m.at < 0 && m.key == c.key
		if !same {
			marks = append(marks, m)
		}
	}
	if c.skip {
		marks = append(marks, skipMark{at: c.span.Start, key: c.key})
	}
	if len(marks) == 0 {
		delete(s.skips, u)
		return
	}
	s.skips[u] = marks
}

// skipCommand runs fsrb.skipBlock and fsrb.includeBlock, and answers the
// patch's state after it.
func (s *Server) skipCommand(ctx context.Context, a *analysis, n int, skip bool) (any, error) {
	b := &a.patch.Blocks[n-1]
	if a.skipped[n] != skip {
		if err := s.setSkip(a.doc.uri, b, skip); err != nil {
			return nil, err
		}
	}
	next := s.snapshot().analyze(a.doc.uri)
	if next == nil {
		return nil, nil
	}
	return next.report(), nil
}

// skipActions offers "Skip block #N" on each block in range that is not
// skipped nor applied, and "Include block #N" on each skipped one. They
// change no file: the server keeps the choice.
func skipActions(r *actionRequest) ([]protocol.CodeAction, error) {
	var out []protocol.CodeAction
	for i := range r.a.patch.Blocks {
		b := &r.a.patch.Blocks[i]
		if !r.touches(b) {
			continue
		}
		verb, cmd := "Skip", CommandSkipBlock
		switch r.a.blockState(b.Number) {
		case lifeSkipped:
			verb, cmd = "Include", CommandIncludeBlock
		case lifeApplied:
			continue
		}
		title := fmt.Sprintf("%s block #%d (%s)", verb, b.Number, b.Path)
		out = append(out, protocol.CodeAction{
			Title:   title,
			Kind:    ptr(protocol.CodeActionKindRefactorRewrite),
			Command: protocol.Command{Title: title, Command: cmd, Arguments: args(r.a.doc.uri, b.Number)},
		})
	}
	return out, nil
}

// skipLens is "Skip block" on a block Apply all would take (or that has a
// problem), "Include block" on a skipped one; an applied block gets
// neither: it is no longer Apply all's to take.
func skipLens(a *analysis, b *core.Block, rng protocol.Range) []protocol.CodeLens {
	title, cmd := "Skip block", CommandSkipBlock
	switch a.blockState(b.Number) {
	case lifeSkipped:
		title, cmd = "Include block", CommandIncludeBlock
	case lifeApplied:
		return nil
	}
	return []protocol.CodeLens{{Range: rng, Command: protocol.Command{Title: title, Command: cmd, Arguments: args(string(a.doc.uri), b.Number)}}}
}

package core

import (
	"fmt"
	"strings"
)

// An insert at a line number has no old text, so the applied rule
// (applied.go) cannot tell it applied: run twice, it inserts twice. Alone,
// that is the caller's to judge. But with Options.Applied, when other
// blocks of the same patch stand applied, the patch has probably run
// before, and skipping those blocks while writing the insert again would
// write it twice. So such an insert is refused as probably applied, and
// the plan is made again without it: nothing of it is written, even by a
// partial commit.

// refuseBlindInserts returns plan; or, with Options.Applied, when some
// block stands applied and an insert applies, the plan of the patch
// without those inserts, each an already-applied error.
func refuseBlindInserts(plan *Plan, fsys FS, opt Options) *Plan {
	if !opt.Applied || plan.AppliedCount() == 0 {
		return plan
	}
	patch := plan.Patch
	blind := map[int]bool{}
	for _, r := range plan.Blocks {
		if b := patch.Block(r.Block); r.Status == StatusApplies && b != nil && b.Op == OpInsert {
			blind[r.Block] = true
		}
	}
	if len(blind) == 0 {
		return plan
	}
	sub := &Patch{Text: patch.Text, Format: patch.Format, Shell: patch.Shell, Problems: patch.Problems}
	for _, b := range patch.Blocks {
		if !blind[b.Number] {
			sub.Blocks = append(sub.Blocks, b)
		}
	}
	again := validate(nil, sub, fsys, opt, false)
	var applied []string
	byNumber := map[int]BlockResult{}
	for _, r := range again.Blocks {
		byNumber[r.Block] = r
		if r.Status == StatusApplied {
			applied = append(applied, fmt.Sprintf("#%d", r.Block))
		}
	}
	if len(applied) == 0 {
		return plan // the inserts placed what made the others read as applied
	}
	which := "blocks " + strings.Join(applied, ", ")
	if len(applied) == 1 {
		which = "block " + applied[0]
	}
	out := again
	out.Patch = patch
	out.Blocks = make([]BlockResult, 0, len(patch.Blocks))
	for _, b := range patch.Blocks {
		if !blind[b.Number] {
			out.Blocks = append(out.Blocks, byNumber[b.Number])
			continue
		}
		r := BlockResult{Block: b.Number, Status: StatusFailed}
		if clean, err := CleanPathIn(opt.Root, opt.RootAliases, b.Path); err == nil {
			r.Path = clean
		}
		out.Blocks = append(out.Blocks, r)
		name := b.Label
		if name == "" {
			name = fmt.Sprintf("block #%d", b.Number)
		}
		out.Problems = append(out.Problems, Problem{
			Kind: KindAlreadyApplied, Block: b.Number, Path: b.Path, Span: b.Span, Line: b.InsertAfter,
			Message: fmt.Sprintf("%s inserts after line %d, and an insert cannot be recognised as applied; this patch has %s already applied, so it was probably applied already",
				name, b.InsertAfter, which),
			Hint: "drop this insert if its lines are in the file already; otherwise apply it on its own",
		})
	}
	out.Problems.Sort()
	return out
}

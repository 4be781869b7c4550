package lsp

import (
	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/pipeline"
)

// A patch has a visible life in the editor (lsp/README.md): arriving (an
// answer still streaming in) → problems → ready → applied, and back to
// ready when it is reverted. Applied is never an error: a patch run twice
// is recognised, its "Apply all" becomes "Revert all", and nothing is ever
// written twice.
type lifeState string

const (
	lifeArriving lifeState = "arriving"       // a block cut short at the end of the document
	lifeProblems lifeState = "problems"       // some block does not validate
	lifeReady    lifeState = "ready"          // every block applies
	lifePartly   lifeState = "partly-applied" // some applied, every other one applies
	lifeApplied  lifeState = "applied"        // every block stands applied
	lifeSkipped  lifeState = "skipped"        // the user left the block (every block) out of Apply all
	lifeEmpty    lifeState = "empty"          // no block at all: prose, such as a chat answer with no edit
)

// state is the patch's place in its life.
func (a *analysis) state() lifeState {
	for _, p := range a.plan.Problems {
		if p.Kind == core.KindIncomplete && streaming(a.doc.text, p.Span) {
			return lifeArriving
		}
	}
	if a.empty() {
		return lifeEmpty
	}
	if len(a.patch.Blocks) == 0 || !a.plan.OK() {
		return lifeProblems
	}
	applied, included := a.plan.AppliedCount(), len(a.included())
	switch {
	case included == 0:
		return lifeSkipped
	case applied == included:
		return lifeApplied
	case applied > 0:
		return lifePartly
	}
	return lifeReady
}

// empty reports whether the document holds no block and nothing that
// looks like a broken one: the parser's "no blocks" is its only error. A
// chat is mostly prose, and an answer with no edit in it is not a patch
// with problems: there is nothing to apply, and the editors say so.
func (a *analysis) empty() bool {
	if len(a.patch.Blocks) > 0 {
		return false
	}
	for _, p := range a.plan.Problems.Errors() {
		if p.Kind != core.KindNoBlocks {
			return false
		}
	}
	return true
}

// noEdit says, for an empty document, that it holds no edit: the
// parser's words ("the answer holds no edit: ...").
func (a *analysis) noEdit() string {
	for _, p := range a.plan.Problems {
		if p.Kind == core.KindNoBlocks {
			return p.Message
		}
	}
	return "the document holds no edit"
}

// blockState is one block's place in its life.
func (a *analysis) blockState(n int) lifeState {
	res, ok := a.result(n)
	switch {
	case !ok:
		return lifeProblems
	case res.Status == core.StatusApplied:
		return lifeApplied
	case res.Status == core.StatusApplies:
		return lifeReady
	case res.Status == statusSkipped:
		return lifeSkipped
	}
	if n <= len(a.patch.Blocks) && a.patch.Blocks[n-1].Incomplete && a.state() == lifeArriving {
		return lifeArriving
	}
	return lifeProblems
}

// applies reports whether "Apply all blocks" has something to do: every
// block not skipped validates or stands applied, and at least one is still
// to apply.
func (a *analysis) applies() bool {
	if len(a.patch.Blocks) == 0 || !a.plan.OK() || a.plan.BlockCount() == 0 {
		return false
	}
	for _, r := range a.plan.Blocks {
		if r.Status != core.StatusApplies && r.Status != core.StatusApplied && r.Status != statusSkipped {
			return false
		}
	}
	return true
}

// reverts reports whether "Revert all blocks" is offered: every block not
// skipped stands applied.
func (a *analysis) reverts() bool {
	return a.state() == lifeApplied
}

// revertPlan is the inverse of blocks (every block not skipped when none
// is given) validated on the workspace as it is: REPLACE back to SEARCH,
// created files deleted, deleted files re-created, by the same engine and
// the same exactly-one-place rule as applying.
func (s *snapshot) revertPlan(a *analysis, blocks ...int) *core.Plan {
	sub := &core.Patch{Text: a.patch.Text, Format: a.patch.Format}
	if len(blocks) == 0 {
		sub.Blocks = a.included()
	}
	for _, n := range blocks {
		if n >= 1 && n <= len(a.patch.Blocks) {
			sub.Blocks = append(sub.Blocks, a.patch.Blocks[n-1])
		}
	}
	check := s.check()
	check.Revert = true
	return pipeline.Validate(sub, s, check)
}

// StatusReport is the answer of the fsrb.status command: the patch's state
// and each block's, for status bars and :Fsrb status.
type StatusReport struct {
	State   string        `json:"state"`
	Summary string        `json:"summary"` // "ready: 4 of 5 blocks, #3 skipped"
	Skipped []int         `json:"skipped"` // the blocks left out of Apply all
	Blocks  []BlockStatus `json:"blocks"`
}

// BlockStatus is one block of a StatusReport.
type BlockStatus struct {
	Number int    `json:"number"`
	Path   string `json:"path"`
	State  string `json:"state"`
	Line   int    `json:"line,omitempty"`
	Status string `json:"status"` // the lens's words: "applied at a.py:3"
}

func (a *analysis) report() *StatusReport {
	out := &StatusReport{State: string(a.state()), Summary: a.summary(), Skipped: []int{}, Blocks: []BlockStatus{}}
	for _, b := range a.patch.Blocks {
		st := BlockStatus{Number: b.Number, Path: b.Path, State: string(a.blockState(b.Number)), Status: a.status(b.Number)}
		if st.State == string(lifeProblems) {
			st.State = "problem"
		}
		if res, ok := a.result(b.Number); ok {
			st.Line = res.Line
		}
		if a.skipped[b.Number] {
			out.Skipped = append(out.Skipped, b.Number)
		}
		out.Blocks = append(out.Blocks, st)
	}
	return out
}

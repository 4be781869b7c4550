package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/fsrb/fsrb/core"
)

// appliesAlone reports whether block n validates on its own, as "Apply
// block" runs it. Only a block after another block of the same file can
// differ from its status in the whole patch, so only those are checked.
func appliesAlone(snap *snapshot, a *analysis, n int) bool {
	b := a.patch.Blocks[n-1]
	for _, prev := range a.patch.Blocks[:n-1] {
		if prev.Path == b.Path {
			p := snap.planBlock(a, n)
			return p != nil && p.OK()
		}
	}
	return true
}

// CodeLens shows each block's status above it, with "Apply" on the blocks
// that apply and "Revert" on the ones applied, and on the first line
// "Apply all blocks" when every block still to apply does, or "Revert all
// blocks" when every block is applied.
func (s *Server) CodeLens(ctx context.Context, params *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	snap := s.checkDisk()
	a := snap.analyze(params.TextDocument.URI)
	out := []protocol.CodeLens{}
	if a == nil {
		return out, nil
	}
	uri := string(a.doc.uri)
	switch {
	case a.applies():
		out = append(out, protocol.CodeLens{
			Range:   toRange(a.doc.mapper, lineSpan(a.doc.mapper, 0)),
			Command: protocol.Command{Title: "Apply all blocks", Command: CommandApplyAll, Arguments: args(uri)},
		})
	case a.reverts():
		out = append(out, protocol.CodeLens{
			Range:   toRange(a.doc.mapper, lineSpan(a.doc.mapper, 0)),
			Command: protocol.Command{Title: "Revert all blocks", Command: CommandRevertAll, Arguments: args(uri)},
		})
	}
	for _, b := range a.patch.Blocks {
		rng := toRange(a.doc.mapper, markerSpan(a.doc.mapper, &b))
		// The status lens runs nothing; its arguments say which block it
		// is about, as the Apply and Revert lenses' do, so that a client
		// never reads the number back out of the title.
		out = append(out, protocol.CodeLens{Range: rng, Command: protocol.Command{
			Title: fmt.Sprintf("#%d %s", b.Number, a.status(b.Number)), Arguments: args(uri, b.Number),
		}})
		// "Apply" runs the block alone: a block that applies only after the
		// blocks before it (a hunk after another of the same file) gets
		// the status, not the button.
		if res, ok := a.result(b.Number); ok && res.Status == core.StatusApplies && appliesAlone(snap, a, b.Number) {
			out = append(out, protocol.CodeLens{Range: rng, Command: protocol.Command{
				Title: "Apply", Command: CommandApplyBlock, Arguments: args(uri, b.Number),
			}})
		}
		if res, ok := a.result(b.Number); ok && res.Status == core.StatusApplied {
			out = append(out, protocol.CodeLens{Range: rng, Command: protocol.Command{
				Title: "Revert", Command: CommandRevertBlock, Arguments: args(uri, b.Number),
			}})
		}
		out = append(out, skipLens(a, &b, rng)...)
	}
	return out, nil
}

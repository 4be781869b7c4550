package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/fsrb/fsrb/core"
)

// CodeLens shows each block's status above it, with "Apply" on the blocks
// that apply, and "Apply all blocks" on the first line when all do.
func (s *Server) CodeLens(ctx context.Context, params *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	a := s.snapshot().analyze(params.TextDocument.URI)
	out := []protocol.CodeLens{}
	if a == nil {
		return out, nil
	}
	uri := string(a.doc.uri)
	if a.applies() {
		out = append(out, protocol.CodeLens{
			Range:   toRange(a.doc.mapper, lineSpan(a.doc.mapper, 0)),
			Command: &protocol.Command{Title: "Apply all blocks", Command: CommandApplyAll, Arguments: []any{uri}},
		})
	}
	for _, b := range a.patch.Blocks {
		rng := toRange(a.doc.mapper, markerSpan(a.doc.mapper, &b))
		out = append(out, protocol.CodeLens{Range: rng, Command: &protocol.Command{Title: fmt.Sprintf("#%d %s", b.Number, a.status(b.Number))}})
		if res, ok := a.result(b.Number); ok && res.Status == core.StatusApplies {
			out = append(out, protocol.CodeLens{Range: rng, Command: &protocol.Command{
				Title: "Apply", Command: CommandApplyBlock, Arguments: []any{uri, b.Number},
			}})
		}
	}
	return out, nil
}

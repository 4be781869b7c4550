package lsp

import (
	"context"

	"go.lsp.dev/protocol"
)

// FoldingRanges folds each block, header to closing marker.
func (s *Server) FoldingRanges(ctx context.Context, params *protocol.FoldingRangeParams) ([]protocol.FoldingRange, error) {
	a := s.snapshot().analyze(params.TextDocument.URI)
	out := []protocol.FoldingRange{}
	if a == nil {
		return out, nil
	}
	for _, b := range a.patch.Blocks {
		first, last := a.doc.mapper.Line(b.Span.Start), a.doc.mapper.Line(max(b.Span.Start, b.Span.End-1))
		if last > first {
			out = append(out, protocol.FoldingRange{StartLine: uint32(first), EndLine: uint32(last), Kind: protocol.FoldingRangeKindRegion})
		}
	}
	return out, nil
}

package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/fsrb/fsrb/core"
)

// Definition goes from a block to where it applies in the target file; for
// a block that does not, to its closest candidate or every ambiguous place.
func (s *Server) Definition(ctx context.Context, params *protocol.DefinitionParams) (protocol.DefinitionResult, error) {
	snap := s.snapshot()
	a := snap.analyze(params.TextDocument.URI)
	if a == nil {
		return nil, nil
	}
	at, err := offsetOf(a.doc.mapper, params.Position)
	if err != nil {
		return nil, err
	}
	n := a.blockAt(at)
	res, ok := a.result(n)
	if !ok || res.Path == "" {
		return nil, nil
	}
	u := snap.docURI(res.Path)
	if res.Status == core.StatusApplies {
		return protocol.LocationSlice{{URI: u, Range: lineRange(res.Line, res.EndLine)}}, nil
	}
	var out protocol.LocationSlice
	for _, p := range a.problems(n) {
		for _, c := range p.Candidates {
			out = append(out, protocol.Location{URI: u, Range: lineRange(c.Line, c.EndLine)})
		}
	}
	if out == nil {
		return nil, nil // null, as an empty result always was
	}
	return out, nil
}

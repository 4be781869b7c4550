package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/fsrb/fsrb/core"
)

// DocumentLink makes each header path a link to its file.
func (s *Server) DocumentLink(ctx context.Context, params *protocol.DocumentLinkParams) ([]protocol.DocumentLink, error) {
	snap := s.snapshot()
	a := snap.analyze(params.TextDocument.URI)
	out := []protocol.DocumentLink{}
	if a == nil {
		return out, nil
	}
	for _, b := range a.patch.Blocks {
		if b.PathSpan.Empty() {
			continue
		}
		key := ""
		if res, ok := a.result(b.Number); ok && res.Path != "" {
			key = res.Path
		} else if clean, err := core.CleanPath(snap.view.slashRoot, b.Path); err == nil {
			key = clean
		}
		if key == "" {
			continue
		}
		out = append(out, protocol.DocumentLink{
			Range:   toRange(a.doc.mapper, b.PathSpan),
			Target:  ptr(snap.docURI(key)),
			Tooltip: optional(key),
		})
	}
	return out, nil
}

package lsp

import (
	"context"
	"fmt"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
	"go.lsp.dev/protocol"
)

// Hover on a block tells where it applies and previews its change.
func (s *Server) Hover(ctx context.Context, params *protocol.HoverParams) (*protocol.Hover, error) {
	a := s.snapshot().analyze(params.TextDocument.URI)
	if a == nil {
		return nil, nil
	}
	at, err := offsetOf(a.doc.mapper, params.Position)
	if err != nil {
		return nil, err
	}
	n := a.blockAt(at)
	if n == 0 {
		return nil, nil
	}
	b := a.patch.Blocks[n-1]
	var md strings.Builder
	fmt.Fprintf(&md, "**Block #%d** `%s`: %s\n", n, b.Path, a.status(n))
	for _, p := range a.problems(n) {
		fmt.Fprintf(&md, "\n- %s", p.Message)
	}
	if !b.Incomplete {
		diff := udiff.Unified("a/"+b.Path, "b/"+b.Path, b.Search, b.Replace)
		fmt.Fprintf(&md, "\n\n```diff\n%s```\n", diff)
	}
	rng := toRange(a.doc.mapper, b.Span)
	return &protocol.Hover{Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: md.String()}, Range: &rng}, nil
}

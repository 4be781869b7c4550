package lsp

import (
	"context"
	"fmt"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
	"go.lsp.dev/protocol"
)

// Hover on a block tells where it applies and previews its change, or,
// for a block that matches nowhere, how it differs from its closest place.
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
	// A block that matches nowhere: how SEARCH differs from the closest
	// place in the file, numbered as the file's lines, is what the user
	// needs to fix it; its own change can wait.
	if _, c, ok := a.closest(n); ok && c.Diff != "" {
		fmt.Fprintf(&md, "\n\nClosest place: `%s` lines %d-%d, %.0f%% similar\n\n```diff\n%s```\n", b.Path, c.Line, c.EndLine, c.Similarity*100, closestDiff(b.Path, c))
	} else if !b.Incomplete {
		diff := udiff.Unified("a/"+b.Path, "b/"+b.Path, b.Search, b.Replace)
		fmt.Fprintf(&md, "\n\n```diff\n%s```\n", diff)
	}
	rng := toRange(a.doc.mapper, b.Span)
	return &protocol.Hover{Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: md.String()}, Range: &rng}, nil
}

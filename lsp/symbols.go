package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/fsrb/fsrb/core"
)

// optional is nil for "", which was never sent.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// DocumentSymbol lists the files a patch edits, each with its blocks.
func (s *Server) DocumentSymbol(ctx context.Context, params *protocol.DocumentSymbolParams) (protocol.DocumentSymbolResult, error) {
	a := s.snapshot().analyze(params.TextDocument.URI)
	out := protocol.DocumentSymbolSlice{}
	if a == nil {
		return out, nil
	}
	m := a.doc.mapper
	var files []*protocol.DocumentSymbol
	byPath := map[string]*protocol.DocumentSymbol{}
	spans := map[string]core.Span{}
	for _, b := range a.patch.Blocks {
		f, ok := byPath[b.Path]
		if !ok {
			sel := b.PathSpan
			if sel.Empty() {
				sel = markerSpan(m, &b)
			}
			f = &protocol.DocumentSymbol{Name: b.Path, Kind: protocol.SymbolKindFile, SelectionRange: toRange(m, sel)}
			byPath[b.Path] = f
			files = append(files, f)
			spans[b.Path] = b.Span
		}
		// A diff hunk's span leaves out its file's header, which holds the
		// file symbol's selection range.
		sp, whole := spans[b.Path], b.Span
		if !b.Header.Empty() {
			whole = core.Span{Start: min(whole.Start, b.Header.Start), End: max(whole.End, b.Header.End)}
		}
		spans[b.Path] = core.Span{Start: min(sp.Start, whole.Start), End: max(sp.End, whole.End)}
		f.Children = append(f.Children, protocol.DocumentSymbol{
			Name:           fmt.Sprintf("#%d %s", b.Number, b.Op),
			Detail:         optional(a.status(b.Number)),
			Kind:           protocol.SymbolKindEvent,
			Range:          toRange(m, b.Span),
			SelectionRange: toRange(m, markerSpan(m, &b)),
		})
	}
	for _, f := range files {
		f.Range = toRange(m, spans[f.Name])
		out = append(out, *f)
	}
	return out, nil
}

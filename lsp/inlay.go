package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/fsrb/fsrb/core"
)

// blockHint is the inlay hint at the end of a block's opening line (its
// SEARCH marker, "@@" line or whole-file header: where its lens sits).
type blockHint struct {
	line    int // 0-based line of the patch
	pos     protocol.Position
	label   string // "→ svc.py:12", "2 matches", "not found", "applied"
	tooltip string // the lens's words: "#1 applies at svc.py:12"
}

// blockHints says, block by block, where each lands or why it does not,
// in the words of the lenses (a.status), shortened to fit a line's end.
func blockHints(a *analysis) []blockHint {
	m := a.doc.mapper
	out := make([]blockHint, 0, len(a.patch.Blocks))
	seen := map[int]bool{}
	for _, b := range a.patch.Blocks {
		line := m.Line(markerSpan(m, &b).Start)
		if seen[line] {
			continue // blocks sharing a line (a header of several hunks): the first says it
		}
		seen[line] = true
		status := a.status(b.Number)
		if status == "" {
			continue
		}
		out = append(out, blockHint{
			line:    line,
			pos:     toPosition(m, m.LineEnd(line)),
			label:   hintLabel(a, b.Number, status),
			tooltip: fmt.Sprintf("#%d %s", b.Number, status),
		})
	}
	return out
}

// hintLabel is a block's status in the fewest words: where it lands, or
// what keeps it from applying.
func hintLabel(a *analysis, n int, status string) string {
	res, _ := a.result(n)
	b := a.patch.Blocks[n-1]
	switch res.Status {
	case core.StatusApplied:
		return "applied"
	case core.StatusApplies:
		switch {
		case res.Rung == "create":
			return "→ " + b.Path + " (new file)"
		case b.Op == core.OpDeleteFile:
			return "→ deletes " + b.Path
		case res.Rung != "exact" && res.Rung != "":
			return fmt.Sprintf("→ %s:%d (fuzzy)", b.Path, res.Line)
		}
		return fmt.Sprintf("→ %s:%d", b.Path, res.Line)
	}
	// "not found (closest: line 40, 93% similar)": the closest place is
	// in the tooltip, and on hover.
	if i := strings.Index(status, " ("); i > 0 {
		return status[:i]
	}
	return status
}

// InlayHint shows, at the end of each block's opening line, where the block
// lands ("→ svc.py:12"), or "2 matches", "not found", "applied".
func (s *Server) InlayHint(ctx context.Context, params *protocol.InlayHintParams) ([]protocol.InlayHint, error) {
	snap := s.checkDisk()
	u := params.TextDocument.URI
	out := []protocol.InlayHint{}
	a := snap.analyze(u)
	if a == nil {
		return out, nil
	}
	hints := blockHints(a)
	if s.capabilities().inlayHintRefresh {
		s.diag.answered(ctx, &s.diag.hints, u, answer{seq: snap.seq, version: a.doc.version, id: hintWords(hints)}, methodInlayHintRefresh)
	}
	first, last := params.Range.Start.Line, params.Range.End.Line
	for _, h := range hints {
		if uint32(h.line) < first || uint32(h.line) > last {
			continue
		}
		out = append(out, protocol.InlayHint{
			Position:    h.pos,
			Label:       protocol.String(h.label),
			Tooltip:     protocol.String(h.tooltip),
			PaddingLeft: ptr(true),
		})
	}
	return out, nil
}

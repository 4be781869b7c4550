package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/fsrb/fsrb/core"
)

// blockHint is the inlay hint at the end of a block's opening line (its
// SEARCH marker, "@@" line or whole-file header: where its lens sits).
type blockHint struct {
	line    int // 0-based line of the patch
	pos     protocol.Position
	label   string // "→ svc.py:12", "→ new.md (new file)", "→ deletes old.txt"
	tooltip string // the lens's words: "#1 applies at svc.py:12"
}

// blockHints says where each block that applies lands, shortened to fit a
// line's end. Only that: the block's lens tells its status (a problem,
// applied) and its diagnostic why; a hint saying it too would be the same
// fact a second or third time around the same line.
func blockHints(a *analysis) []blockHint {
	m := a.doc.mapper
	out := make([]blockHint, 0, len(a.patch.Blocks))
	seen := map[int]bool{}
	for _, b := range a.patch.Blocks {
		line := m.Line(markerSpan(m, &b).Start)
		res, _ := a.result(b.Number)
		if res.Status != core.StatusApplies || seen[line] {
			continue // blocks sharing a line (a header of several hunks): the first that applies says it
		}
		seen[line] = true
		status := a.status(b.Number)
		out = append(out, blockHint{
			line:    line,
			pos:     toPosition(m, m.LineEnd(line)),
			label:   hintLabel(res, &b),
			tooltip: fmt.Sprintf("#%d %s", b.Number, status),
		})
		out = append(out, keptHints(m, &b, res)...)
	}
	return out
}

// keptHints names, at the end of each omission marker of a lazy chat
// snippet, the file lines it keeps ("keeps 12-40"): what the marker
// stands for is the one thing the block does not show.
func keptHints(m *mapper, b *core.Block, res core.BlockResult) []blockHint {
	if len(res.Kept) == 0 || b.ReplaceBody.Empty() {
		return nil
	}
	first := m.Line(b.ReplaceBody.Start)
	var out []blockHint
	for _, k := range res.Kept {
		line := first + k.Marker - 1
		label := "keeps nothing"
		switch {
		case k.To > k.From:
			label = fmt.Sprintf("keeps %d-%d", k.From, k.To)
		case k.To == k.From:
			label = fmt.Sprintf("keeps %d", k.From)
		}
		out = append(out, blockHint{
			line:    line,
			pos:     toPosition(m, m.LineEnd(line)),
			label:   label,
			tooltip: fmt.Sprintf("#%d: this marker keeps %s as it is", b.Number, keptWhere(b.Path, k)),
		})
	}
	return out
}

func keptWhere(path string, k core.Kept) string {
	switch {
	case k.To > k.From:
		return fmt.Sprintf("%s lines %d-%d", path, k.From, k.To)
	case k.To == k.From:
		return fmt.Sprintf("%s line %d", path, k.From)
	}
	return "no line of " + path
}

// hintLabel is where a block that applies lands, in the fewest words.
func hintLabel(res core.BlockResult, b *core.Block) string {
	switch {
	case res.Rung == "create":
		return "→ " + b.Path + " (new file)"
	case b.Op == core.OpDeleteFile:
		return "→ deletes " + b.Path
	case res.Shape != "":
		return fmt.Sprintf("→ %s:%d (%s)", b.Path, res.Line, res.Shape)
	case res.Rung != "exact" && res.Rung != "":
		return fmt.Sprintf("→ %s:%d (fuzzy)", b.Path, res.Line)
	}
	return fmt.Sprintf("→ %s:%d", b.Path, res.Line)
}

// InlayHint shows, at the end of the opening line of each block that
// applies, where it lands ("→ svc.py:12").
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

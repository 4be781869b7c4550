package lsp

import (
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/fsrb/fsrb/core"
)

// occurrenceFixes: one quick fix per place of an ambiguous block, which
// rewrites the block in the patch so that it matches there only — SEARCH
// and REPLACE widened with the lines tree-sitter chose (up to the enclosing
// signature when that stays small), or, for an apply-patch hunk, an
// "@@ <signature>" anchor line (docs/ARCHITECTURE.md "Tree-sitter").
// The places come from core's Explainer, which the analysis plugs in.
func occurrenceFixes(r *actionRequest) ([]protocol.CodeAction, error) {
	var out []protocol.CodeAction
	for _, p := range r.a.plan.Problems {
		if p.Kind != core.KindAmbiguous || p.Block < 1 || p.Block > len(r.a.patch.Blocks) {
			continue
		}
		b := &r.a.patch.Blocks[p.Block-1]
		if !r.touches(b) || len(b.Hashes) > 0 {
			continue // hashline blocks are placed by line number, never ambiguous
		}
		titles := occurrenceTitles(r.a, b, p.Candidates)
		for i, c := range p.Candidates {
			edits, anchor := r.a.targetEdits(b, c.Explanation)
			if len(edits) == 0 {
				continue
			}
			title := titles[i]
			if anchor {
				title += fmt.Sprintf(" with the anchor `@@ %s`", c.Explanation.Anchor)
			}
			out = append(out, protocol.CodeAction{
				Title:       title,
				Kind:        ptr(protocol.CodeActionKindQuickFix),
				Edit:        documentEdit(r.a.doc, edits, r.caps),
				Diagnostics: r.diagnostics(p.Kind),
			})
		}
	}
	return out, nil
}

// occurrenceTitles names each place: "Target the occurrence in
// `Server.Start`", or "... at line 12" at top level or when two places
// share a definition.
func occurrenceTitles(a *analysis, b *core.Block, cs []core.Candidate) []string {
	names := make([]string, len(cs))
	seen := map[string]int{}
	for i, c := range cs {
		if c.Explanation.Where != "" {
			names[i] = definitionName(c.Explanation)
			seen[names[i]]++
		}
	}
	out := make([]string, len(cs))
	for i, c := range cs {
		switch {
		case names[i] == "":
			out[i] = fmt.Sprintf("Target the occurrence at line %d", c.Line)
		case seen[names[i]] > 1:
			out[i] = fmt.Sprintf("Target the occurrence in `%s` at line %d", names[i], c.Line)
		default:
			out[i] = fmt.Sprintf("Target the occurrence in `%s`", names[i])
		}
	}
	return out
}

// targetEdits rewrites block b of the patch document to match only the
// place ex explains. anchor reports an "@@" anchor rather than a widening.
// It returns nil when the explanation proposes nothing the block's dialect
// can say.
func (a *analysis) targetEdits(b *core.Block, ex core.Explanation) (edits []protocol.TextEdit, anchor bool) {
	m := a.doc.mapper
	text := a.doc.text
	eol := eolOf(a.doc)
	if !isHunk(b) {
		if ex.Search == "" || b.SearchBody.Empty() {
			return nil, false
		}
		return []protocol.TextEdit{
			{Range: toRange(m, b.SearchBody), NewText: withEOL(core.EscapeBody(ex.Search, b.Dialect), a.doc)},
			{Range: toRange(m, b.ReplaceBody), NewText: withEOL(core.EscapeBody(ex.Replace, b.Dialect), a.doc)},
		}, false
	}
	if b.SearchBody.Empty() {
		return nil, false
	}
	if b.Dialect == core.DialectApplyPatch && ex.Anchor != "" {
		// Codex's rule: the hunk matches the first place after its anchor.
		line := "@@ " + ex.Anchor
		if mk := b.SearchMarker; !mk.Empty() && strings.TrimSpace(text[mk.Start:mk.End]) == "@@" {
			return []protocol.TextEdit{{Range: toRange(m, mk), NewText: line}}, true // a bare "@@" takes the anchor
		}
		at := toRange(m, core.Span{Start: b.SearchBody.Start, End: b.SearchBody.Start})
		return []protocol.TextEdit{{Range: at, NewText: line + eol}}, true // the innermost anchor
	}
	above, below, ok := splitWidening(b, ex)
	if !ok {
		return nil, false
	}
	context := func(lines []string) (string, bool) {
		var sb strings.Builder
		for _, l := range lines {
			if b.Dialect == core.DialectApplyPatch && strings.HasPrefix(strings.TrimSpace(l), "*** ") {
				return "", false // the line would end the hunk
			}
			sb.WriteString(" " + l + eol)
		}
		return sb.String(), true
	}
	up, ok1 := context(above)
	down, ok2 := context(below)
	if !ok1 || !ok2 {
		return nil, false
	}
	if b.Dialect == core.DialectUdiff && !b.SearchMarker.Empty() {
		// Keep the "@@ -l,n +l,n @@" numbers true to the widened hunk:
		// fsrb reads them as hints only, git apply and patch do not.
		if line, ok := widenHunkHeader(text[b.SearchMarker.Start:b.SearchMarker.End], len(above), len(below)); ok {
			edits = append(edits, protocol.TextEdit{Range: toRange(m, b.SearchMarker), NewText: line})
		}
	}
	if up != "" {
		edits = append(edits, protocol.TextEdit{Range: toRange(m, core.Span{Start: b.SearchBody.Start, End: b.SearchBody.Start}), NewText: up})
	}
	if down != "" {
		end := b.SearchBody.End
		if end == len(text) && !strings.HasSuffix(text, "\n") {
			down = eol + strings.TrimSuffix(down, eol) // the hunk's last line has no line break
		}
		edits = append(edits, protocol.TextEdit{Range: toRange(m, core.Span{Start: end, End: end}), NewText: down})
	}
	return edits, false
}

// widenHunkHeader moves an "@@ -l,n +l,n @@" line up by above lines and
// grows both counts by above+below; a header without numbers is left.
func widenHunkHeader(line string, above, below int) (string, bool) {
	r, ok := core.ParseHunkRange(line)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("@@ -%d,%d +%d,%d @@%s", max(1, r.OldStart-above), r.OldLen+above+below, max(1, r.NewStart-above), r.NewLen+above+below, r.Rest), true
}

// isHunk reports whether a block is a diff hunk, whose lines carry SEARCH
// and REPLACE at once (" " context, "-" removed, "+" added).
func isHunk(b *core.Block) bool {
	return b.Dialect == core.DialectApplyPatch || b.Dialect == core.DialectUdiff
}

// splitWidening finds the lines a widening added above and below the
// block: ex.Search is above + SEARCH + below, ex.Replace the same around
// REPLACE.
func splitWidening(b *core.Block, ex core.Explanation) (above, below []string, ok bool) {
	if ex.Search == "" || !strings.HasSuffix(b.Search, "\n") || !strings.HasSuffix(ex.Search, "\n") {
		return nil, nil, false
	}
	lines := strings.SplitAfter(ex.Search, "\n")
	lines = lines[:len(lines)-1] // after the last "\n"
	n := strings.Count(b.Search, "\n")
	replace := b.Replace
	if strings.TrimSpace(replace) == "" {
		replace = "" // whitespace-only REPLACE counts as empty
	}
	for k := 0; k+n <= len(lines); k++ {
		up, down := strings.Join(lines[:k], ""), strings.Join(lines[k+n:], "")
		if up+b.Search+down == ex.Search && up+replace+down == ex.Replace {
			return trimEOL(lines[:k]), trimEOL(lines[k+n:]), true
		}
	}
	return nil, nil, false
}

func trimEOL(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimSuffix(l, "\n")
	}
	return out
}

// hunkWithSearch rewrites the lines of a diff hunk (its body as written)
// so that its context and "-" lines read text, one line for one; "+"
// lines stay. ok is false when the counts differ. The result is LF.
func hunkWithSearch(body, text string) (string, bool) {
	want := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	lines := strings.SplitAfter(body, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var sb strings.Builder
	k := 0
	for _, raw := range lines {
		nl := strings.HasSuffix(raw, "\n")
		l := strings.TrimRight(raw, "\r\n")
		switch {
		case l == "" || l[0] == ' ' || l[0] == '-':
			if k == len(want) {
				return "", false
			}
			prefix := " "
			if l != "" && l[0] == '-' {
				prefix = "-"
			}
			l = prefix + want[k]
			k++
		}
		sb.WriteString(l)
		if nl {
			sb.WriteString("\n")
		}
	}
	if k != len(want) {
		return "", false
	}
	return sb.String(), true
}

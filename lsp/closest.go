package lsp

import (
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/fsrb/fsrb/core"
)

// closestFixMin is the least similarity at which "Use the closest place as
// SEARCH" is offered. At 90% a five-line SEARCH may differ from the place
// by a typo or two, a renamed variable: what a model misremembers. Below
// it the place is more likely other code, which REPLACE would overwrite.
const closestFixMin = 0.90

// closest is the closest place of a block that matches nowhere, and its
// problem; ok is false for any other block.
func (a *analysis) closest(n int) (p core.Problem, c core.Candidate, ok bool) {
	for _, p := range a.problems(n) {
		if p.Kind == core.KindNotFound && len(p.Candidates) > 0 {
			return p, p.Candidates[0], true
		}
	}
	return core.Problem{}, core.Candidate{}, false
}

// closestDiff is core's diff from SEARCH to the closest place (its new
// side already numbered as the file's lines), its "+++" line naming the
// file, so that "@@ -1,5 +4,5 @@" reads as lines 4-8 of calc.py.
func closestDiff(path string, c core.Candidate) string {
	lines := strings.SplitAfter(c.Diff, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "+++ ") {
			lines[i] = fmt.Sprintf("+++ %s (lines %d-%d)\n", path, c.Line, c.EndLine)
		}
	}
	return strings.Join(lines, "")
}

// closestFixes: a block not found whose closest place is at least
// closestFixMin similar, and not only off in whitespace or typography
// (replaceSearchFixes has that one), gets "Use the closest place as
// SEARCH": SEARCH rewritten to the file's text there. Never preferred:
// the user reads the diff (hover) and decides; the text must occur once,
// or the fixed block would be ambiguous.
func closestFixes(r *actionRequest) ([]protocol.CodeAction, error) {
	var out []protocol.CodeAction
	for i := range r.a.patch.Blocks {
		b := &r.a.patch.Blocks[i]
		if !r.touches(b) {
			continue
		}
		p, c, ok := r.a.closest(b.Number)
		if !ok || c.Similarity < closestFixMin || c.Text == "" || sameModuloLooks(b.Search, c.Text) || !occursOnce(r.snap, b.Path, c.Text) {
			continue
		}
		edit, ok := searchEdit(r.a.doc, b, c.Text)
		if !ok {
			continue
		}
		out = append(out, protocol.CodeAction{
			Title:       fmt.Sprintf("Use the closest place as SEARCH (lines %d-%d, %.0f%% similar)", c.Line, c.EndLine, c.Similarity*100),
			Kind:        ptr(protocol.CodeActionKindQuickFix),
			Edit:        documentEdit(r.a.doc, []protocol.TextEdit{edit}, r.caps),
			Diagnostics: r.diagnostics(p.Kind),
		})
	}
	return out, nil
}

// searchEdit rewrites block b's SEARCH to text (whole lines, LF): escaped
// for its dialect, in the document's line endings; in a diff hunk its
// context and "-" lines one for one (false when the counts differ).
func searchEdit(d *document, b *core.Block, text string) (protocol.TextEdit, bool) {
	var body string
	if isHunk(b) {
		var ok bool
		if body, ok = hunkWithSearch(d.text[b.SearchBody.Start:b.SearchBody.End], text); !ok {
			return protocol.TextEdit{}, false
		}
	} else {
		body = core.EscapeBody(text, b.Dialect)
	}
	return protocol.TextEdit{Range: toRange(d.mapper, b.SearchBody), NewText: withEOL(body, d)}, true
}

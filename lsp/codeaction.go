package lsp

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/fsrb/fsrb/core"
)

// actionRequest is what every producer gets.
type actionRequest struct {
	srv    *Server
	snap   *snapshot
	a      *analysis
	caps   clientCaps
	params *protocol.CodeActionParams
	span   core.Span // the requested range, in bytes of the patch
}

// touches reports whether block b has text in the requested range: the
// blocks a code action is offered for.
func (r *actionRequest) touches(b *core.Block) bool {
	return b.Span.End >= r.span.Start && b.Span.Start <= r.span.End
}

// producers is the ordered table of code actions; the client's "only"
// filters it by kind before anything is computed.
var producers = []struct {
	kind protocol.CodeActionKind
	fn   func(r *actionRequest) ([]protocol.CodeAction, error)
}{
	{protocol.CodeActionKindQuickFix, replaceSearchFixes},
	{protocol.CodeActionKindQuickFix, closestFixes},
	{protocol.CodeActionKindQuickFix, occurrenceFixes},
	{protocol.CodeActionKindQuickFix, headerFixes},
	{KindApplyAll, func(r *actionRequest) ([]protocol.CodeAction, error) { return applyAll(r, KindApplyAll) }},
	{protocol.CodeActionKindRefactorRewrite, func(r *actionRequest) ([]protocol.CodeAction, error) {
		return applyAll(r, protocol.CodeActionKindRefactorRewrite)
	}},
	{KindRevertAll, func(r *actionRequest) ([]protocol.CodeAction, error) { return revertAll(r, KindRevertAll) }},
	{protocol.CodeActionKindRefactorRewrite, func(r *actionRequest) ([]protocol.CodeAction, error) {
		return revertAll(r, protocol.CodeActionKindRefactorRewrite)
	}},
	{protocol.CodeActionKindRefactorRewrite, applyBlocks},
	{protocol.CodeActionKindRefactorRewrite, revertBlocks},
	{protocol.CodeActionKindRefactorRewrite, skipActions},
}

func (s *Server) CodeAction(ctx context.Context, params *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	snap := s.checkDisk()
	out := []protocol.CommandOrCodeAction{}
	a := snap.analyze(params.TextDocument.URI)
	if a == nil {
		return out, nil
	}
	span, err := spanOf(a.doc.mapper, params.Range)
	if err != nil {
		return nil, err
	}
	r := &actionRequest{srv: s, snap: snap, a: a, caps: s.capabilities(), params: params, span: span}
	seen := map[string]bool{}
	for _, p := range producers {
		if !wanted(p.kind, params.Context.Only) {
			continue
		}
		actions, err := p.fn(r)
		if err != nil {
			s.log.Info("code action producer failed", zap.String("kind", string(p.kind)), zap.Error(err))
			continue
		}
		// "Apply all blocks" is both a source action and a refactoring; a
		// menu lists it once whatever kinds the client asks for.
		for _, act := range actions {
			if !seen[act.Title] {
				seen[act.Title] = true
				out = append(out, &act)
			}
		}
	}
	return out, nil
}

// wanted: without a filter, every kind but source actions, which LSP
// clients list only when asked for ("Source Action..." in VS Code), so that
// a menu without a filter (Neovim's vim.lsp.buf.code_action()) holds
// "Apply all blocks" once, as a refactoring. With a filter, the kinds that
// equal or refine one asked for ("source" asks for "source.applyAll.fsrb").
func wanted(kind protocol.CodeActionKind, only []protocol.CodeActionKind) bool {
	if len(only) == 0 {
		return kind != protocol.CodeActionKindSource && !strings.HasPrefix(string(kind), string(protocol.CodeActionKindSource)+".")
	}
	for _, o := range only {
		if kind == o || strings.HasPrefix(string(kind), string(o)+".") {
			return true
		}
	}
	return false
}

func applyAll(r *actionRequest, kind protocol.CodeActionKind) ([]protocol.CodeAction, error) {
	if !r.a.applies() {
		return nil, nil // offered only when every block validates
	}
	title := fmt.Sprintf("Apply all blocks (%s to %s)", plural(r.a.plan.BlockCount(), "block"), plural(len(r.a.plan.Files), "file"))
	if len(r.a.skipped) > 0 {
		title = strings.TrimSuffix(title, ")") + ", " + r.a.skippedList() + " skipped)"
	}
	return wholePatch(r, kind, r.a.plan, title, CommandApplyAll, true), nil
}

// revertAll offers the inverse of an applied patch as one edit, only when
// every block stands applied (life.go).
func revertAll(r *actionRequest, kind protocol.CodeActionKind) ([]protocol.CodeAction, error) {
	if !r.a.reverts() {
		return nil, nil
	}
	plan := r.snap.revertPlan(r.a)
	if !plan.OK() {
		return nil, nil // the command says why; a menu entry would only fail
	}
	title := fmt.Sprintf("Revert all blocks (%s in %s)", plural(len(r.a.included()), "block"), plural(len(plan.Files), "file"))
	return wholePatch(r, kind, plan, title, CommandRevertAll, false), nil
}

// wholePatch is the one action that applies plan as one edit. When the
// client cannot take the edit (file operations it does not support), the
// action is disabled with the reason; a client that cannot grey it out
// runs the command, which shows the same message and changes nothing.
func wholePatch(r *actionRequest, kind protocol.CodeActionKind, plan *core.Plan, title, command string, applyAll bool) []protocol.CodeAction {
	act := protocol.CodeAction{Title: title, Kind: &kind}
	edit, err := r.snap.workspaceEdit(plan, r.caps)
	if err != nil {
		act.Disabled = protocol.CodeActionDisabled{Reason: err.Error()}
		act.Command = protocol.Command{Title: act.Title, Command: command, Arguments: args(r.a.doc.uri)}
		return []protocol.CodeAction{act}
	}
	if r.caps.fsrb.EditsByCommand {
		act.Command = protocol.Command{Title: act.Title, Command: command, Arguments: args(r.a.doc.uri)}
		return []protocol.CodeAction{act}
	}
	act.Edit, act.Command = edit, r.srv.onApplied(r.snap, plan, applyAll)
	return []protocol.CodeAction{act}
}

// revertBlocks offers "Revert block #N" on each applied block in range.
func revertBlocks(r *actionRequest) ([]protocol.CodeAction, error) {
	return perBlock(r, "Revert", CommandRevertBlock, func(b *core.Block) *core.Plan {
		if r.a.blockState(b.Number) != lifeApplied {
			return nil
		}
		return r.snap.revertPlan(r.a, b.Number)
	}), nil
}

// applyBlocks offers "Apply block #N" on each block in range that applies
// alone.
func applyBlocks(r *actionRequest) ([]protocol.CodeAction, error) {
	return perBlock(r, "Apply", CommandApplyBlock, func(b *core.Block) *core.Plan {
		if r.a.skipped[b.Number] {
			return nil // "Include block" first: a skipped block is out of the patch
		}
		return r.snap.planBlock(r.a, b.Number, false)
	}), nil
}

// perBlock makes one action per block in the requested range whose plan
// (nil: none) validates and changes something.
func perBlock(r *actionRequest, verb, command string, planOf func(*core.Block) *core.Plan) []protocol.CodeAction {
	var out []protocol.CodeAction
	for i := range r.a.patch.Blocks {
		b := &r.a.patch.Blocks[i]
		if !r.touches(b) {
			continue
		}
		plan := planOf(b)
		if plan == nil || !plan.OK() || len(plan.Files) == 0 {
			continue
		}
		edit, err := r.snap.workspaceEdit(plan, r.caps)
		if err != nil {
			continue
		}
		act := protocol.CodeAction{Title: fmt.Sprintf("%s block #%d (%s)", verb, b.Number, b.Path), Kind: ptr(protocol.CodeActionKindRefactorRewrite)}
		if r.caps.fsrb.EditsByCommand {
			act.Command = protocol.Command{Title: act.Title, Command: command, Arguments: args(r.a.doc.uri, b.Number)}
		} else {
			act.Edit, act.Command = edit, r.srv.onApplied(r.snap, plan, false)
		}
		out = append(out, act)
	}
	return out
}

// replaceSearchFixes: a block not found whose closest place in the file
// differs only in whitespace or typography gets its SEARCH rewritten to the
// file's actual text.
func replaceSearchFixes(r *actionRequest) ([]protocol.CodeAction, error) {
	var out []protocol.CodeAction
	for _, p := range r.a.plan.Problems {
		if p.Kind != core.KindNotFound || len(p.Candidates) == 0 || p.Block < 1 || p.Block > len(r.a.patch.Blocks) {
			continue
		}
		b := r.a.patch.Blocks[p.Block-1]
		if !r.touches(&b) {
			continue
		}
		c := p.Candidates[0]
		if !sameModuloLooks(b.Search, c.Text) || !occursOnce(r.snap, b.Path, c.Text) {
			continue
		}
		// A diff hunk interleaves SEARCH and REPLACE: its context and "-"
		// lines are rewritten, one for one.
		edit, ok := searchEdit(r.a.doc, &b, c.Text)
		if !ok {
			continue
		}
		act := protocol.CodeAction{
			Title:       fmt.Sprintf("Replace SEARCH with the file's actual text (lines %d-%d)", c.Line, c.EndLine),
			Kind:        ptr(protocol.CodeActionKindQuickFix),
			IsPreferred: ptr(true),
			Edit:        documentEdit(r.a.doc, []protocol.TextEdit{edit}, r.caps),
			Diagnostics: r.diagnostics(p.Kind),
		}
		out = append(out, act)
	}
	return out, nil
}

// occursOnce reports whether text occurs once in the file at path as it is
// (the block would otherwise become ambiguous: a fix must give a block
// that applies). A file it cannot read passes: the block's own problem
// will say why.
func occursOnce(s *snapshot, path, text string) bool {
	clean, err := core.CleanPath(s.view.slashRoot, path)
	if err != nil {
		return true
	}
	data, err := s.ReadFile(clean)
	if err != nil {
		return true
	}
	content := strings.ReplaceAll(strings.TrimPrefix(string(data), bom), "\r\n", "\n")
	return len(core.Occurrences(content, text, 2)) == 1
}

// sameModuloLooks reports whether a and b differ only in whitespace and
// typography (core.NormalizeTypography, the fuzzy ladder's rule).
func sameModuloLooks(a, b string) bool {
	strip := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsSpace(r) {
				return -1
			}
			return r
		}, core.NormalizeTypography(s))
	}
	return a != b && strip(a) == strip(b)
}

// headerFixes: a block with no path above it (aider's rule reuses the
// previous block's file) gets that path written in, above its fence if it
// has one, so that the patch says what it does (docs/ARCHITECTURE.md
// "Fine print").
func headerFixes(r *actionRequest) ([]protocol.CodeAction, error) {
	var out []protocol.CodeAction
	m := r.a.doc.mapper
	for _, p := range r.a.patch.Problems {
		if p.Kind != core.KindInheritedPath || p.Block < 1 || p.Block > len(r.a.patch.Blocks) {
			continue
		}
		b := r.a.patch.Blocks[p.Block-1]
		if !r.touches(&b) {
			continue
		}
		line := m.Line(b.SearchMarker.Start)
		for line > 0 && core.OpensFence(m.Text()[m.LineStart(line-1):m.LineEnd(line-1)]) {
			line--
		}
		eol := eolOf(r.a.doc)
		at := toRange(m, core.Span{Start: m.LineStart(line), End: m.LineStart(line)})
		act := protocol.CodeAction{
			Title:       fmt.Sprintf("Write the path %s above block #%d", b.Path, b.Number),
			Kind:        ptr(protocol.CodeActionKindQuickFix),
			Edit:        documentEdit(r.a.doc, []protocol.TextEdit{{Range: at, NewText: b.Path + eol}}, r.caps),
			Diagnostics: r.diagnostics(p.Kind),
		}
		out = append(out, act)
	}
	return out, nil
}

// diagnostics returns the client's diagnostics of ours with that code that
// the action fixes.
func (r *actionRequest) diagnostics(kind core.Kind) []protocol.Diagnostic {
	var out []protocol.Diagnostic
	for _, d := range r.params.Context.Diagnostics {
		code, _ := d.Code.(protocol.String)
		if source, _ := d.Source.Get(); string(code) == string(kind) && source == "fsrb" {
			out = append(out, d)
		}
	}
	return out
}

// eolOf is the line ending new lines of the patch document take: CRLF when
// the document has any, as the quick fixes always did.
func eolOf(d *document) string {
	if strings.Contains(d.text, "\r\n") {
		return "\r\n"
	}
	return "\n"
}

// withEOL gives LF text the document's line endings.
func withEOL(text string, d *document) string {
	if eol := eolOf(d); eol != "\n" {
		return strings.ReplaceAll(text, "\n", eol)
	}
	return text
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

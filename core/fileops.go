package core

import "fmt"

// The file operations of apply-patch (and unified diffs): Delete File, Move
// to, and Add File over an existing file.

// deleteFile runs an OpDeleteFile block: the file must exist (as a regular
// file) at this point of the patch. A unified diff to /dev/null also names
// the content it removes: the file must hold exactly that.
func (v *validator) deleteFile(b *Block, t *target, res *BlockResult) {
	d := t.doc
	if !t.exists {
		v.applied(b, res, 0, 0, b.Path+" is gone",
			fmt.Sprintf("%s does not exist, so it cannot be deleted: it was probably deleted already", b.Path),
			"check the path, or drop the *** Delete File line")
		return
	}
	if b.Inverts != "" && d.content() != b.Search {
		// Undoing a create: the file must hold exactly what it created.
		v.fail(b, KindNotFound, fmt.Sprintf("%s no longer holds exactly the content the block created", b.Path),
			"edit the file back by hand; fsrb --undo restores the last commit")
		return
	}
	if b.Search != "" && d.text() != b.Search {
		v.fail(b, KindNotFound, fmt.Sprintf("the diff deletes %s, but the file's content differs from its - lines", b.Path),
			"make the - lines the file's whole current content, or check that you are deleting the right file")
		return
	}
	n := len(lineStarts(d.text())) - 1
	d.setText("")
	t.exists, t.touched, t.deleted, t.keepEmpty, t.rewrittenBy = false, true, true, false, b.Number
	t.blocks = append(t.blocks, b.Number)
	res.Status, res.Rung = StatusApplies, "delete"
	res.Line, res.EndLine = 1, max(1, n)
}

// move runs an OpMove block: the file, as the blocks before left it, takes
// the path MoveTo. An existing destination is overwritten, as in Codex,
// with a warning.
func (v *validator) move(b *Block, t *target, res *BlockResult) {
	if !t.exists {
		hint := "check the path of the *** Update File line"
		if b.Dialect == DialectUdiff {
			hint = "check the path of the --- line (or of \"rename from\")"
		}
		v.fail(b, KindMissingFile, fmt.Sprintf("%s does not exist, so it cannot be moved to %s", b.Path, b.MoveTo), hint)
		return
	}
	dst := v.target(&Block{Path: b.MoveTo})
	if dst.err != nil {
		p := v.fail(b, dst.err.Kind, "*** Move to: "+dst.err.Message, dst.err.Hint)
		p.Path = b.Path
		return
	}
	if dst == t {
		return // moved onto itself: nothing to do
	}
	if dst.exists {
		v.overwrite(&Block{Number: b.Number, Path: b.MoveTo, Span: b.Span, Dialect: b.Dialect}, dst)
	}
	src := *t.doc
	src.crlf = append([]bool(nil), t.doc.crlf...)
	if t.doc.crlf == nil {
		src.crlf = nil
	}
	dst.doc = &src
	dst.exists, dst.touched, dst.deleted, dst.keepEmpty, dst.rewrittenBy = true, true, false, src.text() == "", b.Number
	dst.movedFrom = t.display
	dst.blocks = append(dst.blocks, b.Number)
	t.doc = loadDoc(nil)
	t.exists, t.touched, t.deleted, t.rewrittenBy = false, true, true, b.Number
	t.blocks = append(t.blocks, b.Number)
	res.Status, res.Rung = StatusApplies, "move"
	res.Line, res.EndLine = 1, max(1, len(lineStarts(src.text()))-1)
}

// overwrite warns that a create (Add File) or a move replaces an existing
// file, as Codex does.
func (v *validator) overwrite(b *Block, t *target) {
	v.plan.Problems = append(v.plan.Problems, Problem{
		Kind: KindOverwrite, Severity: SeverityWarning, Block: b.Number, Path: b.Path, Span: b.Span,
		Message: fmt.Sprintf("block #%d replaces the existing file %s", b.Number, b.Path),
		Hint:    "if the file should keep its content, use *** Update File instead",
	})
	t.doc.setText("")
}

package treesitter

import (
	"context"

	"github.com/fsrb/fsrb/core"
)

// The syntax check of a big file, on the lines around its edits. The
// windows the check parses (window.go) are found by scanning
// lines outward from the edits, and a file bigger than MaxSyntaxCheck is
// checked through windows or not at all: nothing reads the file beyond
// them. Yet the check took the whole new content, which FileChange.Bytes
// builds: a copy of the whole file, a page fault every 4 KB, to validate
// one block (make bench, W2). So for a big file the check
// runs on local texts: the new lines from localContext lines above the
// first edit to localContext lines below the last (FileChange.NewLines,
// built from those lines only), and the old lines that hold the same text
// around the edits (a slice of Old: above the first edit the old and new
// bytes are the same, and below the last edit too). When every window
// lies inside the local texts, away from where they were cut, the windows
// and their parses are those of the whole content, and so are the errors;
// otherwise the whole content is checked as before.

// localMin is the new content's size from which the check runs on local
// texts. It is MaxSyntaxCheck: past it the whole-content check never
// parses the whole file (windows or nothing), so a window inside the local
// texts settles it as it does there; smaller files keep the whole check.
const localMin = MaxSyntaxCheck

// localContext is how many lines around the edits the local texts hold:
// enough for a definition window (a method, a class of a few hundred
// lines); a bigger window sends the check back to the whole content.
// Tests make it small.
var localContext = 1000

// localFirst is how many lines around the edits the local texts hold at
// the first try: a window inside them (most are: a method, a statement)
// settles the check; one that reaches where they were cut sends it to
// localContext lines. The local new text is a copy wherever an edit
// changed its lines: a wide margin each side was a copy of fresh pages
// for a window of a dozen lines (make bench, W2).
const localFirst = 128

// localSyntaxErrors is the syntax check of fc on local texts: the errors,
// with lines and offsets of the whole new content, and ok; ok is false
// when the local texts cannot settle it (a small file, a window that
// reaches where they were cut) and the whole content must be checked.
func (c *Cache) localSyntaxErrors(fc *core.FileChange, lang *Language) ([]SyntaxError, bool) {
	// Only a modified file is its old content with the blocks' lines
	// replaced: a moved or created one is not its Old around the edits.
	if fc.Action != core.ActionModify || fc.MovedFrom != "" || !fc.Existed || len(fc.Lines) == 0 {
		return nil, false
	}
	size := fc.NewLen()
	if size <= localMin {
		return nil, false
	}
	first, last := fc.Lines[0].Line-1, fc.Lines[0].EndLine // 0-based line starts
	for _, l := range fc.Lines {
		first, last = min(first, l.Line-1), max(last, l.EndLine)
	}
	if localContext > localFirst {
		if errs, ok, cut := c.localSyntaxErrorsIn(fc, lang, first, last, localFirst); !cut {
			return errs, ok
		}
	}
	errs, ok, _ := c.localSyntaxErrorsIn(fc, lang, first, last, localContext)
	return errs, ok
}

// localSyntaxErrorsIn is localSyntaxErrors on local texts of n lines
// around lines [first, last) of the new content; cut reports a window
// that reaches where they were cut, which more lines may settle.
func (c *Cache) localSyntaxErrorsIn(fc *core.FileChange, lang *Language, first, last, n int) (errs []SyntaxError, ok, cut bool) {
	size := fc.NewLen()
	from := max(0, first-n)
	after, at := fc.NewLines(from, last+n)
	end := at + len(after)
	if at == 0 && end == size {
		return nil, false, false // the whole file: nothing to save
	}
	// The bytes above line from, and from end on, are the same in the old
	// content: the old local text is what lies between them.
	bStart, bEnd := at, len(fc.Old)-(size-end)
	if bStart > bEnd || bStart > 0 && fc.Old[bStart-1] != '\n' || bEnd > 0 && bEnd < len(fc.Old) && fc.Old[bEnd-1] != '\n' {
		return nil, false, false
	}
	before := fc.Old[bStart:bEnd]

	regions, ok := alignRanges(before, after, editRanges(fc.Lines, after, from))
	if !ok {
		return nil, false, false // alignEdits would fall back to the whole difference
	}
	ws, ok := windowsFor(after, regions, MaxSyntaxCheck)
	if !ok {
		return nil, false, true // it may have needed lines beyond the cut
	}
	for _, w := range ws {
		// A window that starts at the local text's first line or ends at
		// its end may have stopped there because the text was cut.
		if at > 0 && w.aStart == 0 || end < size && w.aEnd >= len(after) {
			return nil, false, true
		}
	}
	errs, ok = windowsSyntaxErrors(context.Background(), c.timeout(), lang, fc.Path, before, after, ws)
	if !ok {
		// The same windows as the whole content's, which does not settle
		// it either; and a file past MaxSyntaxCheck is then not checked.
		return nil, true, false
	}
	for i := range errs {
		e := &errs[i]
		e.Line += from
		e.StartByte += at
		e.EndByte += at
		e.Message = syntaxMessage(e.Line, e.Missing)
	}
	return errs, true, false
}

package core

import (
	"fmt"
	"strings"
)

// rewritten explains a block whose text is not in its file because an
// earlier block of the patch changed it: the text stands in the file as it
// was read, on lines an earlier block replaced. The closest place in the
// file as the blocks before left it would show text that is on no disk,
// so the problem names that block instead. sub: search is any substring
// (an agent's old_string), not whole lines. nil when the text is not in
// the file as read, or no earlier block touched it.
func (v *validator) rewritten(b *Block, search string, sub bool) *Problem {
	t := v.written[b.Path]
	if t == nil || !t.existed || len(t.edits) == 0 && t.rewrittenBy == 0 || strings.TrimSpace(search) == "" {
		return nil
	}
	orig := t.origText()
	var occ []int
	if sub {
		occ = substrings(orig, search, 2)
	} else {
		occ = occurrences(orig, search, 2)
	}
	if len(occ) != 1 {
		return nil
	}
	first := strings.Count(orig[:occ[0]], "\n") + 1
	last := first + max(0, strings.Count(strings.TrimSuffix(search, "\n"), "\n"))
	by, lo, hi := 0, 0, 0 // the earlier block, and the lines of SEARCH it changed
	for l := first; l <= last; l++ {
		if _, n, ok := t.origLine(l); !ok && (by == 0 || n == by) {
			by, hi = n, l
			if lo == 0 {
				lo = l
			}
		}
	}
	if by == 0 || by == b.Number {
		return nil
	}
	name := fmt.Sprintf("block #%d", by)
	if e := v.plan.Patch.Block(by); e != nil {
		name = wordsOf(e).name
	}
	p := v.fail(b, KindNotFound,
		fmt.Sprintf("SEARCH block not found in file content: it matches %s of %s as it was read, but %s of this patch already changed %s",
			lineRange(first, last), b.Path, name, lineRange(lo, hi)),
		fmt.Sprintf("merge the two edits into one, or write SEARCH from the text %s leaves there", name))
	p.Line = first
	return p
}

// origText is the file's text as it was read (LF, with a final newline),
// before any block of the patch.
func (t *target) origText() string {
	return loadDoc(t.orig).text()
}

// lineRange writes "line 4" or "lines 4-5".
func lineRange(first, last int) string {
	if last > first {
		return fmt.Sprintf("lines %d-%d", first, last)
	}
	return fmt.Sprintf("line %d", first)
}

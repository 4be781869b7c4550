package core

import (
	"fmt"
	"strings"
)

// The applied rule: one predicate, stands, decides for every shape
// whether an edit's change is already in its file (docs/ARCHITECTURE.md
// "Applied once"). A patch run twice must write nothing the second time,
// and an editor shows an applied patch as applied, not as errors. Only
// exact text counts: a fuzzy rung never declares an edit applied.
//
// An edit stands applied when its new text stands in the region the
// shape looks in exactly as many times as the edit would have put it
// there, and every place of its old text in that region lies inside a
// place of the new text (old text gone, or kept inside the new text by an
// append, a prepend or a wrap). The shapes differ only in the region and
// the places they hand over:
//
//   - a SEARCH/REPLACE block, a hunk, a hashline block: the whole file,
//     whole lines; the new text once. An addition-only hunk with no
//     anchor adds at the end of the file, so that is where it must stand.
//   - an anchored apply-patch hunk: the anchor's block, whole lines.
//   - a hinted block (Roo's :start_line:, a diff's @@ numbers) whose old
//     text stands only away from the hint: the lines the hint names, so
//     the old text elsewhere in the file does not count.
//   - a str_replace edit: the whole file, substrings; the new text once,
//     Expected times, or at least once for replace_all.
//   - a chat snippet (answer.go): the place it resolves to; its old text
//     is the file's own text there, so it has none to hand over.
//
// Exceptions, where nothing can be recognised: an edit whose new text is
// empty (a deletion leaves nothing behind) or equal to its old text (it
// changes nothing, and stays ready), and an insert at a line number,
// which has no old text to be gone. A created file stands applied when it
// holds exactly the block's text (LF, no BOM); a deleted one, and with
// Options.Applied a modify that empties its file, when it does not exist.

// stands is the applied rule. oldOcc and newOcc are the ascending
// offsets, in one text, of the old text's and the new text's places in
// the shape's region; want is how many places the new text must have
// there (0: at least one).
func stands(old, new string, oldOcc, newOcc []int, want int) bool {
	if new == "" || old == new {
		return false
	}
	if want == 0 && len(newOcc) == 0 || want > 0 && len(newOcc) != want {
		return false
	}
	return within(oldOcc, len(old), newOcc, len(new))
}

// within reports whether every place of a text of length n (ascending
// offsets occ) lies inside one of the places of a text of length m
// (ascending offsets in).
func within(occ []int, n int, in []int, m int) bool {
	j := 0
	for _, o := range occ {
		for j < len(in) && in[j]+m < o+n {
			j++
		}
		if j == len(in) || in[j] > o {
			return false
		}
	}
	return true
}

// content is the file's text as it stands (LF, without BOM), with a final
// newline only if the file has one.
func (d *doc) content() string {
	if d.noFinalEOL {
		return strings.TrimSuffix(d.text(), "\n")
	}
	return d.text()
}

// appliedScan is what appliedModify found: whether the block stands
// applied (at: the offset of its REPLACE text; gone: SEARCH occurs
// nowhere), and SEARCH's occurrences when it looked for them, which
// locate reuses: the check costs no second scan of the file in the common
// case, a SEARCH found and a REPLACE that does not hold it.
type appliedScan struct {
	at        int
	gone, ok  bool
	searchOcc []int
	scanned   bool
}

// appliedModify reports whether a modify block stands applied in d.
func appliedModify(b *Block, d *doc) (r appliedScan) {
	if b.Replace == "" || b.Search == b.Replace {
		return r
	}
	repl := withEOL(b.Replace)
	search := withEOL(b.Search)
	if search != "" {
		r.searchOcc = d.occurrences(search, maxOccurrences)
		r.scanned = search == b.Search
		if len(r.searchOcc) == maxOccurrences || len(r.searchOcc) > 0 && !contains(repl, search) {
			return r // SEARCH stands outside any REPLACE: not applied
		}
	}
	occ := d.occurrences(repl, 2)
	if search == "" && len(occ) == 1 && (len(b.Anchors) == 0 || b.EOF) && occ[0]+len(repl) != d.len() {
		return r // an addition at the end of the file stands elsewhere
	}
	if !stands(search, repl, r.searchOcc, occ, 1) {
		return r
	}
	r.at, r.gone, r.ok = occ[0], len(r.searchOcc) == 0, true
	return r
}

// contains is strings.Contains(s, substr) for a SEARCH inside its REPLACE,
// both short: strings.Index falls back to Rabin-Karp on a needle over 64
// bytes, hashing all of it first, and a finder ranks every byte of it,
// which showed in every block's check (BenchmarkW1). This looks for the
// first byte after the indentation, and compares at each place of it.
func contains(s, substr string) bool {
	if len(substr) > len(s) {
		return false
	}
	k := 0
	for k < len(substr)-1 && isBlankByte(substr[k]) {
		k++
	}
	c, end := substr[k], len(s)-len(substr)+k+1 // c may sit before end
	for i := k; i < end; i++ {
		j := strings.IndexByte(s[i:end], c)
		if j < 0 {
			return false
		}
		i += j
		if s[i-k:i-k+len(substr)] == substr {
			return true
		}
	}
	return false
}

func withEOL(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}

// linesOf counts the lines of a text, a last line without newline too.
func linesOf(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// fileAt writes a place in a file the way compilers do: app.py:12,
// app.py:12-14.
func fileAt(path string, line, end int) string {
	if end > line {
		return fmt.Sprintf("%s:%d-%d", path, line, end)
	}
	return fmt.Sprintf("%s:%d", path, line)
}

// applied records a block found in its applied state: with
// Options.Applied, StatusApplied and a note that says where (its file
// state is left as it is); without, an already-applied error (msg, hint).
func (v *validator) applied(b *Block, res *BlockResult, line, end int, where, msg, hint string) {
	if !v.opt.Applied {
		p := v.fail(b, KindAlreadyApplied, msg, hint)
		p.Line = line
		return
	}
	res.Status, res.Rung = StatusApplied, ""
	res.Line, res.EndLine = line, end
	v.plan.Problems = append(v.plan.Problems, Problem{
		Kind: KindAlreadyApplied, Severity: SeverityInfo, Block: b.Number, Path: b.Path, Span: b.Span, Line: line,
		Message: fmt.Sprintf("block #%d is applied: %s", b.Number, where),
		Hint:    "nothing to do; to undo the patch, revert it (fsrb --revert)",
	})
}

// appliedCreate handles a create whose file already holds its text.
func (v *validator) appliedCreate(b *Block, t *target, res *BlockResult) bool {
	if !t.exists || t.doc.content() != b.Replace {
		return false
	}
	n := max(1, linesOf(b.Replace))
	v.applied(b, res, 1, n,
		fmt.Sprintf("%s holds exactly its content (%s)", b.Path, fileAt(b.Path, 1, n)),
		fmt.Sprintf("%s already holds exactly this block's content: the patch was probably applied already", b.Path),
		"drop this block if the file is already as you want it")
	return true
}

// appliedEdit handles a modify block whose REPLACE text already stands in
// the file (see the rules above).
func (v *validator) appliedEdit(b *Block, d *doc, res *BlockResult, scan appliedScan) bool {
	if !scan.ok {
		return false
	}
	gone := scan.gone
	line := d.lineOf(scan.at) + 1
	end := line + strings.Count(withEOL(b.Replace), "\n") - 1
	msg := fmt.Sprintf("SEARCH block not found in file content, but its REPLACE text is already there (line %d): the patch was probably applied already", line)
	hint := "drop this block if the change is already in; otherwise fix SEARCH"
	if !gone {
		msg = fmt.Sprintf("SEARCH block occurs only inside its REPLACE text, which is already there (lines %d-%d): the patch was probably applied already", line, end)
		hint = "drop this block if the change is already in: applying it again would repeat the lines it adds"
	}
	v.applied(b, res, line, end, "its REPLACE text stands at "+fileAt(b.Path, line, end), msg, hint)
	return true
}

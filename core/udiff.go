package core

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Dialect 7 (docs/ARCHITECTURE.md "Dialects"): unified diffs as models write them,
// alone or inside ```diff fences of a chat answer:
//
//	--- a/src/app.py        ("a/" and "b/" are optional; /dev/null creates or deletes)
//	+++ b/src/app.py
//	@@ -10,7 +10,8 @@       the numbers are hints only; "@@", "@@ @@" and aider's "@@ ... @@" are fine
//	 context
//	-removed
//	+added
//
// Models miscount hunk lengths and line numbers, so neither is trusted: a
// hunk ends at the first line that is not a context, "-" or "+" line, and
// is located by its content, uniquely, like a SEARCH/REPLACE block (its
// "-l,n" range only picks among several matches). Each hunk becomes one
// Block; a diff from /dev/null is a create, one to /dev/null a
// delete-file, one between two different paths edits then moves.

// The diff regexps are compiled on first use: compiled at package init
// they would cost every start of the CLI, and most runs read no diff.
var hunkHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^@@+\s*(?:-(\d+)(?:,(\d+))?)?\s*(?:\+\d+(?:,\d+)?)?\s*@@+`)
})

type udParser struct {
	text  string
	lines []line
	opt   ParseOptions
	patch *Patch
	files int
}

func parseUdiff(text string, opt ParseOptions) *Patch {
	p := &udParser{text: text, lines: splitLines(text), opt: opt, patch: &Patch{Text: text}}
	for i := 0; i < len(p.lines); {
		if p.isHeader(i) {
			i = p.file(i)
			continue
		}
		if strings.HasPrefix(p.lines[i].text, "diff --git ") {
			i = p.gitHeader(i)
			continue
		}
		if isOrphanHunkHeader(p.lines[i].text) {
			p.patch.Problems = append(p.patch.Problems, Problem{
				Kind: KindNoPath, Span: Span{p.lines[i].start, p.lines[i].end},
				Message: fmt.Sprintf("line %d: the hunk has no ---/+++ file headers above it (read as udiff)", i+1),
				Hint:    "write --- a/PATH and +++ b/PATH lines before the first @@ line of each file",
			})
		}
		i++
	}
	if len(p.patch.Blocks) == 0 && !p.patch.Problems.HasErrors() {
		p.patch.Problems = append(p.patch.Problems, Problem{
			Kind:    KindNoBlocks,
			Message: "the patch (read as udiff) holds no hunk",
			Hint:    "write --- a/PATH, +++ b/PATH, then @@ hunks of context (space), removed (-) and added (+) lines",
			Span:    Span{0, len(text)},
		})
	}
	return p.patch
}

// isOrphanHunkHeader reports whether a line outside every file's headers
// looks like a hunk header: "@@ -l,n +l,n @@", "@@", "@@ @@", "@@ ... @@".
// Prose that merely starts with "@@" does not count.
func isOrphanHunkHeader(raw string) bool {
	if !strings.HasPrefix(raw, "@@") {
		return false
	}
	if hunkHeader().MatchString(raw) {
		return true
	}
	t := strings.TrimSpace(raw)
	return t == "@@" || strings.HasSuffix(t, "@@") && strings.Trim(t, "@. ") == ""
}

// isHeader reports whether lines i and i+1 are "--- old" and "+++ new".
func (p *udParser) isHeader(i int) bool {
	return i+1 < len(p.lines) && strings.HasPrefix(p.lines[i].text, "--- ") && strings.HasPrefix(p.lines[i+1].text, "+++ ")
}

// startsFile reports whether the ---/+++ pair at line i opens a file: an
// @@ line follows it (or nothing does). Inside a hunk, "--- old comment"
// and "+++ new comment" are a removed and an added line of SQL or Lua,
// followed by more of the hunk.
func (p *udParser) startsFile(i int) bool {
	return i+2 >= len(p.lines) || strings.HasPrefix(p.lines[i+2].text, "@@")
}

// removesLines reports whether the hunks from line j on hold a "-" line.
func (p *udParser) removesLines(j int) bool {
	for ; j < len(p.lines) && strings.HasPrefix(p.lines[j].text, "@@"); j++ {
		for j+1 < len(p.lines) {
			r := p.lines[j+1].text
			if p.isHeader(j+1) && p.startsFile(j+1) || strings.HasPrefix(r, "@@") || strings.HasPrefix(r, "diff --git ") {
				break
			}
			if r != "" && r[0] != ' ' && r[0] != '-' && r[0] != '+' && r[0] != '\\' {
				return false
			}
			if r != "" && r[0] == '-' {
				return true
			}
			j++
		}
	}
	return false
}

// diffPath reads the path of a ---/+++ line: without a timestamp after a
// tab, quotes, and the a/ or b/ prefix git writes (kept when the
// prefixed path exists and the bare one does not).
func (p *udParser) diffPath(raw, prefix string) (path string, null bool) {
	s := strings.TrimSpace(raw[4:])
	if k := strings.IndexByte(s, '\t'); k >= 0 {
		s = strings.TrimSpace(s[:k])
	}
	s = strings.Trim(s, `"`)
	if s == "/dev/null" {
		return "", true
	}
	if strings.HasPrefix(s, prefix) {
		bare := s[len(prefix):]
		if ex := p.opt.Exists; ex == nil || !ex(s) || ex(bare) {
			s = bare
		}
	}
	return strings.TrimPrefix(s, "./"), false
}

// file reads one file's headers (lines i, i+1) and hunks.
func (p *udParser) file(i int) int {
	oldPath, oldNull := p.diffPath(p.lines[i].text, "a/")
	newPath, newNull := p.diffPath(p.lines[i+1].text, "b/")
	slip := oldNull && !newNull && p.removesLines(i+2)
	if slip {
		// A new file has no lines to remove: "--- /dev/null" above hunks
		// with "-" lines is a slip for the +++ file, read as an edit of
		// it (as aider reads it) rather than a create that drops them.
		oldPath, oldNull = newPath, false
	}
	header := Span{p.lines[i].start, p.lines[i+1].end}
	path := oldPath
	if oldNull {
		path = newPath
	}
	p.files++
	pathSpan := Span{p.lines[i].start + 4, p.lines[i].end}
	if oldNull || slip {
		pathSpan = Span{p.lines[i+1].start + 4, p.lines[i+1].end}
	}
	if oldNull && newNull {
		p.patch.Problems = append(p.patch.Problems, Problem{
			Kind: KindNoPath, Span: header,
			Message: fmt.Sprintf("lines %d-%d: both file headers are /dev/null (read as udiff)", i+1, i+2),
			Hint:    "name the file on the --- line (or the +++ line for a new file)",
		})
	}
	j := i + 2
	n := 0
	var create strings.Builder
	var del strings.Builder
	createStart := -1
	for j < len(p.lines) {
		raw := p.lines[j].text
		if !strings.HasPrefix(raw, "@@") {
			break
		}
		// Any "@@" line starts a hunk: aider's udiff prompt asks for
		// "@@ ... @@", and models also write "@@" or "@@ @@". Only the
		// numbers of "-l,n" are read, as a line hint; without them the hunk
		// has none.
		m := hunkHeader().FindStringSubmatch(raw)
		if m == nil {
			m = make([]string, 3)
		}
		start := j
		j++
		var body []int
		for ; j < len(p.lines); j++ {
			r := p.lines[j].text
			if p.isHeader(j) && p.startsFile(j) || strings.HasPrefix(r, "@@") || strings.HasPrefix(r, "diff --git ") {
				break
			}
			if strings.HasPrefix(r, `\`) { // "\ No newline at end of file"
				continue
			}
			if r != "" && r[0] != ' ' && r[0] != '-' && r[0] != '+' {
				break
			}
			body = append(body, j)
		}
		for len(body) > 0 && p.lines[body[len(body)-1]].text == "" {
			body = body[:len(body)-1]
		}
		n++
		if p.opt.Streaming && j == len(p.lines) && p.cutShort(raw, body) {
			p.patch.Problems = append(p.patch.Problems, Problem{
				Kind: KindIncomplete, Path: path, Span: Span{p.lines[start].start, len(p.text)},
				Message: fmt.Sprintf("udiff hunk %d of %s is cut short: its @@ line counts more lines than have arrived", n, orNull(path)),
				Hint:    "wait for the rest of the answer, or fix the hunk",
			})
			continue
		}
		label := fmt.Sprintf("udiff hunk %d of %s (patch line %d)", n, orNull(path), start+1)
		var search, replace strings.Builder
		for _, k := range body {
			r := p.lines[k].text
			switch {
			case r == "":
				search.WriteString("\n")
				replace.WriteString("\n")
			case r[0] == ' ':
				search.WriteString(r[1:] + "\n")
				replace.WriteString(r[1:] + "\n")
			case r[0] == '-':
				search.WriteString(r[1:] + "\n")
			case r[0] == '+':
				replace.WriteString(r[1:] + "\n")
			}
		}
		end := start
		if len(body) > 0 {
			end = body[len(body)-1]
		}
		span := Span{p.lines[start].start, p.lines[end].end}
		switch {
		case oldNull:
			create.WriteString(replace.String())
			if createStart < 0 {
				createStart = start
			}
			continue
		case newNull:
			del.WriteString(search.String())
			continue
		}
		if search.Len() == 0 && replace.Len() == 0 {
			p.patch.Problems = append(p.patch.Problems, Problem{
				Kind: KindEmptyBlock, Path: path, Span: span,
				Message: label + ": the hunk has no lines",
				Hint:    "write the lines to change under the @@ line, or remove it",
			})
			continue
		}
		if search.Len() == 0 {
			p.patch.Problems = append(p.patch.Problems, Problem{
				Kind: KindMalformed, Path: path, Span: span,
				Message: label + ": the hunk only adds lines, so it cannot be located by its content (line numbers are only hints)",
				Hint:    "add the unchanged lines just above (or below) the new ones as context lines, each starting with a space",
			})
			continue
		}
		b := Block{
			Number: len(p.patch.Blocks) + 1, Path: path, Op: OpModify, Dialect: DialectUdiff,
			Search: search.String(), Replace: replace.String(), Label: label,
			Header: header, PathSpan: pathSpan, Span: span, SearchMarker: Span{p.lines[start].start, p.lines[start].end},
		}
		if len(body) > 0 {
			b.SearchBody = Span{p.lines[body[0]].start, p.lines[end].next}
			b.ReplaceBody = b.SearchBody
		}
		b.HintLine, b.HintEndLine = rangeHint(m[1], m[2])
		if path != "" {
			p.patch.Blocks = append(p.patch.Blocks, b)
		}
	}
	if n == 0 && !(oldPath != "" && newPath != "" && oldPath != newPath) {
		p.patch.Problems = append(p.patch.Problems, Problem{
			Kind: KindEmptyBlock, Path: path, Span: header,
			Message: fmt.Sprintf("lines %d-%d: the diff of %s has no @@ hunk (read as udiff)", i+1, i+2, orNull(path)),
			Hint:    "write an @@ line, then the context, removed and added lines",
		})
	}
	span := Span{header.Start, p.lines[max(j-1, i+1)].end}
	switch {
	case path == "":
	case oldNull && n > 0:
		p.patch.Blocks = append(p.patch.Blocks, Block{
			Number: len(p.patch.Blocks) + 1, Path: path, Op: OpCreate, Dialect: DialectUdiff,
			Replace: create.String(), Label: fmt.Sprintf("the new file %s (patch line %d)", path, i+1),
			Header: header, PathSpan: pathSpan, Span: span,
		})
	case newNull:
		p.patch.Blocks = append(p.patch.Blocks, Block{
			Number: len(p.patch.Blocks) + 1, Path: path, Op: OpDeleteFile, Dialect: DialectUdiff,
			Search: del.String(), Label: fmt.Sprintf("the deletion of %s (patch line %d)", path, i+1),
			Header: header, PathSpan: pathSpan, Span: span,
		})
	case newPath != oldPath:
		p.patch.Blocks = append(p.patch.Blocks, Block{
			Number: len(p.patch.Blocks) + 1, Path: path, Op: OpMove, Dialect: DialectUdiff, MoveTo: newPath,
			Label:  fmt.Sprintf("the move of %s to %s (patch line %d)", path, newPath, i+1),
			Header: header, PathSpan: pathSpan, Span: span,
		})
	}
	return j
}

// gitHeader reads the extended header lines git writes after "diff --git
// a/X b/Y" (line i). When ---/+++ lines follow, they carry the change and
// the file is read as any other. Without them the header is the whole
// change: a rename, an empty new file, an empty file deleted; those
// become blocks, and what fsrb cannot apply (a binary diff, a mode change)
// is an error: a part of the patch is never dropped without a word.
func (p *udParser) gitHeader(i int) int {
	var from, to string
	var newFile, deleted, binary, mode bool
	j := i + 1
	for ; j < len(p.lines); j++ {
		r := p.lines[j].text
		switch {
		case strings.HasPrefix(r, "rename from "):
			from = strings.TrimSpace(r[len("rename from "):])
		case strings.HasPrefix(r, "rename to "):
			to = strings.TrimSpace(r[len("rename to "):])
		case strings.HasPrefix(r, "new file mode"):
			newFile = true
		case strings.HasPrefix(r, "deleted file mode"):
			deleted = true
		case strings.HasPrefix(r, "old mode"), strings.HasPrefix(r, "new mode"):
			mode = true
		case strings.HasPrefix(r, "Binary files"), strings.HasPrefix(r, "GIT binary patch"):
			binary = true
		case strings.HasPrefix(r, "index "), strings.HasPrefix(r, "similarity index"), strings.HasPrefix(r, "dissimilarity index"),
			strings.HasPrefix(r, "copy from "), strings.HasPrefix(r, "copy to "):
		default:
			goto done
		}
	}
done:
	if j < len(p.lines) && p.isHeader(j) && !binary {
		return j // ---/+++ follow: the usual reading, renames included
	}
	a, b := gitPaths(p.lines[i].text)
	header := Span{p.lines[i].start, p.lines[max(i, j-1)].end}
	pathSpan := Span{p.lines[i].start + len("diff --git "), p.lines[i].end}
	add := func(b Block) {
		b.Number, b.Dialect, b.Header, b.PathSpan, b.Span = len(p.patch.Blocks)+1, DialectUdiff, header, pathSpan, header
		p.patch.Blocks = append(p.patch.Blocks, b)
	}
	fail := func(msg, hint string) {
		p.patch.Problems = append(p.patch.Problems, Problem{Kind: KindMalformed, Path: b, Span: header,
			Message: fmt.Sprintf("line %d: %s (read as udiff)", i+1, msg), Hint: hint})
	}
	switch {
	case binary:
		fail("the binary diff of "+b+" cannot be applied: fsrb edits text", "apply binary changes with git apply, and the rest with fsrb")
	case from != "" && to != "":
		add(Block{Path: from, Op: OpMove, MoveTo: to, Label: fmt.Sprintf("the move of %s to %s (patch line %d)", from, to, i+1)})
	case newFile && b != "":
		add(Block{Path: b, Op: OpCreate, Label: fmt.Sprintf("the new empty file %s (patch line %d)", b, i+1)})
	case deleted && a != "":
		add(Block{Path: a, Op: OpDeleteFile, Label: fmt.Sprintf("the deletion of %s (patch line %d)", a, i+1)})
	case mode:
		fail("the mode change of "+b+" is not applied: fsrb keeps file modes", "change the mode with chmod, and remove these lines")
	}
	return j
}

// gitPaths reads "diff --git a/X b/Y" for a header without ---/+++ lines,
// where the two paths are the same file (a new or deleted one), or best
// effort when they differ.
func gitPaths(line string) (a, b string) {
	s := strings.TrimSpace(strings.TrimPrefix(line, "diff --git "))
	if n := len(s); n > 3 && (n-1)%2 == 0 {
		half := (n - 1) / 2
		if s[half] == ' ' && strings.TrimPrefix(s[:half], "a/") == strings.TrimPrefix(s[half+1:], "b/") {
			p := strings.TrimPrefix(s[:half], "a/")
			return p, p
		}
	}
	if k := strings.Index(s, " b/"); k >= 0 {
		return strings.TrimPrefix(s[:k], "a/"), s[k+3:]
	}
	return "", ""
}

// HunkRange is what a strict "@@ -l,n +l,n @@" line says. A count left
// out is 1, and OldLenSet / NewLenSet say whether it was written; Rest is
// the text after the closing "@@" (a section heading).
type HunkRange struct {
	OldStart, OldLen, NewStart, NewLen int
	OldLenSet, NewLenSet               bool
	Rest                               string
}

var hunkRange = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$`) })

// ParseHunkRange reads the numbers of an "@@" line written as diff tools
// write it (the parser itself takes looser ones, whose numbers it only
// uses as hints).
func ParseHunkRange(line string) (HunkRange, bool) {
	m := hunkRange().FindStringSubmatch(strings.TrimRight(line, "\r"))
	if m == nil {
		return HunkRange{}, false
	}
	var n [4]int
	for i, s := range m[1:5] {
		n[i] = 1
		if s != "" {
			v, err := strconv.Atoi(s)
			if err != nil {
				return HunkRange{}, false
			}
			n[i] = v
		}
	}
	return HunkRange{OldStart: n[0], OldLen: n[1], NewStart: n[2], NewLen: n[3], OldLenSet: m[2] != "", NewLenSet: m[4] != "", Rest: m[5]}, true
}

// cutShort reports whether a hunk's body holds fewer old and fewer new
// lines than its @@ line declares: the end of a diff still arriving.
func (p *udParser) cutShort(header string, body []int) bool {
	r, ok := ParseHunkRange(header)
	if !ok || !r.OldLenSet || !r.NewLenSet {
		return false
	}
	oldWant, newWant := r.OldLen, r.NewLen
	oldSeen, newSeen := 0, 0
	for _, k := range body {
		r := p.lines[k].text
		switch {
		case r == "" || r[0] == ' ':
			oldSeen++
			newSeen++
		case r[0] == '-':
			oldSeen++
		case r[0] == '+':
			newSeen++
		}
	}
	return oldSeen < oldWant && newSeen < newWant || oldSeen < oldWant && newWant == 0 || newSeen < newWant && oldWant == 0
}

func orNull(path string) string {
	if path == "" {
		return "/dev/null"
	}
	return path
}

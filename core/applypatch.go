package core

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Dialect 6 (docs/ARCHITECTURE.md "Dialects"): the "*** Begin Patch" format of OpenAI
// Codex's apply_patch tool.
//
//	*** Begin Patch
//	*** Add File: path          then the content, each line prefixed "+"
//	*** Delete File: path
//	*** Update File: path
//	*** Move to: new/path       optional, right after Update File
//	@@ def anchor():            optional hunk header with an anchor line;
//	@@     nested anchor        consecutive headers nest
//	 context line
//	-removed line
//	+added line
//	*** End of File             optional: the hunk ends the file
//	*** End Patch
//
// Marker lines may carry blanks around them; the first hunk of a section
// may omit "@@"; text around the envelope (a heredoc such as
// "apply_patch <<'EOF'" … "EOF", a Markdown fence, prose) is ignored.
//
// Each hunk becomes one Block (Search = context and "-" lines, Replace =
// context and "+" lines, Anchors, EOF), so that the plan, the reports and
// the language server treat hunks like SEARCH/REPLACE blocks. Add File is
// a create that may overwrite (as in Codex, with a warning), Delete File an
// OpDeleteFile block and Move to an OpMove block after the section's hunks.

const (
	apBegin     = "*** Begin Patch"
	apEnd       = "*** End Patch"
	apAdd       = "*** Add File:"
	apDelete    = "*** Delete File:"
	apUpdate    = "*** Update File:"
	apMove      = "*** Move to:"
	apEndOfFile = "*** End of File"
)

// apSectionHeader returns the section marker a trimmed line starts with.
func apSectionHeader(t string) string {
	for _, h := range []string{apAdd, apDelete, apUpdate} {
		if strings.HasPrefix(t, h) {
			return h
		}
	}
	return ""
}

// udiffRange matches a unified diff range that a model wrote after "@@ "
// in an apply-patch hunk header: a line hint, not an anchor.
var udiffRange = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@`) })

type apParser struct {
	text    string
	lines   []line
	opt     ParseOptions
	patch   *Patch
	section int
}

func parseApplyPatch(text string, opt ParseOptions) *Patch {
	p := &apParser{text: text, lines: splitLines(text), opt: opt, patch: &Patch{Text: text}}
	p.run()
	if len(p.patch.Blocks) == 0 && !p.patch.Problems.HasErrors() {
		p.problem(Problem{
			Kind:    KindNoBlocks,
			Message: "the patch (read as apply-patch) holds no file operation",
			Hint:    "after *** Begin Patch, write *** Update File: PATH with @@ hunks, *** Add File: PATH with + lines, or *** Delete File: PATH",
			Span:    Span{0, len(text)},
		})
	}
	return p.patch
}

func (p *apParser) problem(pr Problem) { p.patch.Problems = append(p.patch.Problems, pr) }

func (p *apParser) trimmed(i int) string { return strings.TrimSpace(p.lines[i].text) }

func (p *apParser) lineSpan(i int) Span { return Span{p.lines[i].start, p.lines[i].end} }

// run finds every "*** Begin Patch" envelope. A patch without one but with
// section headers is read from its first header, with a warning.
func (p *apParser) run() {
	found := false
	for i := 0; i < len(p.lines); {
		if p.trimmed(i) == apBegin {
			found = true
			i = p.envelope(i+1, i)
			continue
		}
		i++
	}
	if found {
		return
	}
	for i := range p.lines {
		if apSectionHeader(p.trimmed(i)) != "" {
			p.problem(Problem{
				Kind: KindMalformed, Severity: SeverityWarning, Span: p.lineSpan(i),
				Message: fmt.Sprintf("the patch has no %q line; read from line %d", apBegin, i+1),
				Hint:    "wrap the operations in *** Begin Patch … *** End Patch",
			})
			p.envelope(i, -1)
			return
		}
	}
}

// envelope reads sections from line i up to "*** End Patch" and returns the
// index after it. begin is the index of the "*** Begin Patch" line, or -1.
func (p *apParser) envelope(i, begin int) int {
	for i < len(p.lines) {
		t := p.trimmed(i)
		switch apSectionHeader(t) {
		case apAdd:
			i = p.addFile(i)
			continue
		case apDelete:
			i = p.deleteFile(i)
			continue
		case apUpdate:
			i = p.updateFile(i)
			continue
		}
		switch {
		case t == apEnd:
			return i + 1
		case t == "":
			i++
			continue
		case strings.HasPrefix(t, "***"):
			p.problem(Problem{
				Kind: KindMalformed, Span: p.lineSpan(i),
				Message: fmt.Sprintf("line %d: %q is not an apply-patch operation (read as apply-patch)", i+1, clip(t)),
				Hint:    "use *** Add File: PATH, *** Delete File: PATH, *** Update File: PATH or *** End Patch",
			})
		default:
			p.problem(Problem{
				Kind: KindMalformed, Span: p.lineSpan(i),
				Message: fmt.Sprintf("line %d: %q stands outside any file operation (read as apply-patch)", i+1, clip(t)),
				Hint:    "start a section with *** Update File: PATH (or Add File / Delete File) before hunk lines",
			})
		}
		// Skip to the next line that may start something.
		for i++; i < len(p.lines); i++ {
			t := p.trimmed(i)
			if t == apEnd || apSectionHeader(t) != "" {
				break
			}
		}
	}
	if begin >= 0 {
		p.problem(Problem{
			Kind: KindIncomplete, Span: Span{p.lines[begin].start, len(p.text)},
			Message: fmt.Sprintf("the patch is cut short: the %q of line %d has no %q line", apBegin, begin+1, apEnd),
			Hint:    "end the patch with a *** End Patch line",
		})
	}
	return len(p.lines)
}

// sectionPath reads the path after a section marker.
func (p *apParser) sectionPath(i int, marker string) (path string, pathSpan Span) {
	l := p.lines[i]
	k := strings.Index(l.text, marker)
	rest := l.text[k+len(marker):]
	path = strings.TrimSpace(rest)
	off := l.start + k + len(marker) + strings.Index(rest, path)
	pathSpan = Span{off, off + len(path)}
	if path == "" {
		p.problem(Problem{
			Kind: KindNoPath, Span: p.lineSpan(i),
			Message: fmt.Sprintf("line %d: %q names no file", i+1, strings.TrimSpace(marker)),
			Hint:    "write the path after the colon, for example " + marker + " src/app.py",
		})
	}
	return path, pathSpan
}

func (p *apParser) newBlock(op Op, path string, header, pathSpan Span) Block {
	return Block{
		Number: len(p.patch.Blocks) + 1, Path: path, Op: op, Dialect: DialectApplyPatch,
		Header: header, PathSpan: pathSpan, Span: header,
	}
}

// addFile reads "*** Add File: path" and its "+" lines. Blank lines are
// content when more "+" lines follow them (models drop the "+" of empty
// lines).
func (p *apParser) addFile(i int) int {
	path, ps := p.sectionPath(i, apAdd)
	b := p.newBlock(OpCreate, path, p.lineSpan(i), ps)
	b.Overwrite = true
	b.Label = fmt.Sprintf("*** Add File: %s (patch line %d)", path, i+1)
	var body strings.Builder
	j := i + 1
	last := i
	for j < len(p.lines) {
		raw := p.lines[j].text
		if strings.HasPrefix(raw, "+") {
			body.WriteString(raw[1:])
			body.WriteByte('\n')
			last = j
			j++
			continue
		}
		if strings.TrimSpace(raw) == "" {
			k := j
			for k < len(p.lines) && strings.TrimSpace(p.lines[k].text) == "" {
				k++
			}
			if k < len(p.lines) && strings.HasPrefix(p.lines[k].text, "+") {
				for ; j < k; j++ {
					body.WriteByte('\n')
				}
				continue
			}
		}
		break
	}
	b.Replace = body.String()
	b.ReplaceBody = Span{p.lines[i].next, p.lines[i].next}
	if last > i {
		b.ReplaceBody = Span{p.lines[i+1].start, p.lines[last].next}
		b.Span.End = p.lines[last].end
	}
	if path != "" {
		p.patch.Blocks = append(p.patch.Blocks, b)
	}
	return j
}

func (p *apParser) deleteFile(i int) int {
	path, ps := p.sectionPath(i, apDelete)
	b := p.newBlock(OpDeleteFile, path, p.lineSpan(i), ps)
	b.Label = fmt.Sprintf("*** Delete File: %s (patch line %d)", path, i+1)
	if path != "" {
		p.patch.Blocks = append(p.patch.Blocks, b)
	}
	return i + 1
}

// hunk is a hunk being read.
type apHunk struct {
	start   int // index of its first line (a "@@" line or its first body line)
	anchors []string
	hint    int
	hintEnd int
	marker  Span // the last "@@" line
	body    []int
	search  strings.Builder
	replace strings.Builder
	eof     bool
	end     int // index of its last line
}

// trimEmpty drops trailing empty lines (not " " context lines): they
// separate sections more often than they are context.
func (h *apHunk) trimEmpty(lines []line) {
	for len(h.body) > 0 && lines[h.body[len(h.body)-1]].text == "" {
		h.body = h.body[:len(h.body)-1]
	}
}

// updateFile reads "*** Update File: path", an optional "*** Move to:", and
// the hunks.
func (p *apParser) updateFile(i int) int {
	path, ps := p.sectionPath(i, apUpdate)
	header := p.lineSpan(i)
	p.section++
	section := p.section
	j := i + 1
	moveTo, moveLine := "", -1
	var moveSpan Span
	if j < len(p.lines) && strings.HasPrefix(p.trimmed(j), apMove) {
		moveTo, moveSpan = p.sectionPath(j, apMove)
		moveLine = j
		j++
	}
	n := 0 // hunks of the section
	var h *apHunk
	flush := func() {
		if h == nil {
			return
		}
		// Trailing empty lines (not " " context lines) separate sections
		// more often than they are context: drop them.
		h.trimEmpty(p.lines)
		n++
		label := fmt.Sprintf("hunk %d of *** Update File: %s (patch line %d)", n, path, h.start+1)
		if len(h.body) == 0 {
			p.problem(Problem{
				Kind: KindEmptyBlock, Path: path, Span: Span{p.lines[h.start].start, p.lines[h.end].end},
				Message: label + ": the hunk has no lines",
				Hint:    "write the lines to change under @@: context lines start with a space, removed lines with -, added lines with +",
			})
			h = nil
			return
		}
		b := p.newBlock(OpModify, path, header, ps)
		b.Section = section
		b.Label = label
		b.Anchors = h.anchors
		b.EOF = h.eof
		b.HintLine, b.HintEndLine = h.hint, h.hintEnd
		b.SearchMarker = h.marker
		b.Span = Span{p.lines[h.start].start, p.lines[h.end].end}
		first, last := h.body[0], h.body[len(h.body)-1]
		b.SearchBody = Span{p.lines[first].start, p.lines[last].next}
		b.ReplaceBody = b.SearchBody
		for _, k := range h.body {
			raw := p.lines[k].text
			switch {
			case raw == "":
				h.search.WriteString("\n")
				h.replace.WriteString("\n")
			case raw[0] == ' ':
				h.search.WriteString(raw[1:] + "\n")
				h.replace.WriteString(raw[1:] + "\n")
			case raw[0] == '-':
				h.search.WriteString(raw[1:] + "\n")
			case raw[0] == '+':
				h.replace.WriteString(raw[1:] + "\n")
			}
		}
		b.Search, b.Replace = h.search.String(), h.replace.String()
		if path != "" {
			p.patch.Blocks = append(p.patch.Blocks, b)
		}
		h = nil
	}
	for ; j < len(p.lines); j++ {
		raw := p.lines[j].text
		t := strings.TrimSpace(raw)
		if t == apEnd || t == apBegin || apSectionHeader(t) != "" {
			break
		}
		if strings.HasPrefix(raw, "@@") && (len(raw) == 2 || raw[2] == ' ' || raw[2] == '\t' || strings.TrimSpace(raw) == "@@") {
			if h != nil {
				h.trimEmpty(p.lines)
				if len(h.body) > 0 {
					flush()
				}
			}
			if h == nil {
				h = &apHunk{start: j}
			}
			h.marker, h.end = p.lineSpan(j), j
			if a := strings.TrimSpace(raw[2:]); a != "" {
				if m := udiffRange().FindStringSubmatch(a); m != nil {
					// A unified diff range a model wrote here: a hint only.
					h.hint, h.hintEnd = rangeHint(m[1], m[2])
				} else {
					h.anchors = append(h.anchors, a)
				}
			}
			continue
		}
		if t == apEndOfFile {
			if h == nil || len(h.body) == 0 {
				p.problem(Problem{
					Kind: KindMalformed, Path: path, Span: p.lineSpan(j),
					Message: fmt.Sprintf("line %d: %q ends no hunk", j+1, apEndOfFile),
					Hint:    "put *** End of File right after the last line of the hunk that reaches the end of the file",
				})
				continue
			}
			h.eof, h.end = true, j
			flush()
			continue
		}
		if raw == "" && h == nil {
			continue // blank lines before the first hunk
		}
		if raw == "" || raw[0] == ' ' || raw[0] == '-' || raw[0] == '+' {
			if h == nil {
				h = &apHunk{start: j}
			}
			h.body = append(h.body, j)
			h.end = j
			continue
		}
		p.problem(Problem{
			Kind: KindMalformed, Path: path, Span: p.lineSpan(j),
			Message: fmt.Sprintf("line %d: %q in a hunk of *** Update File: %s starts with neither a space, \"-\" nor \"+\"", j+1, clip(raw), path),
			Hint:    "prefix context lines with a space, removed lines with -, added lines with +; start hunks with @@",
		})
	}
	flush()
	if moveTo != "" && path != "" {
		b := p.newBlock(OpMove, path, header, ps)
		b.Section = section
		b.MoveTo = moveTo
		b.Span = Span{header.Start, p.lines[moveLine].end}
		b.ReplaceMarker = moveSpan
		b.Label = fmt.Sprintf("*** Move to: %s (patch line %d)", moveTo, moveLine+1)
		p.patch.Blocks = append(p.patch.Blocks, b)
	}
	if n == 0 && moveTo == "" {
		p.problem(Problem{
			Kind: KindEmptyBlock, Path: path, Span: header,
			Message: fmt.Sprintf("line %d: *** Update File: %s has no hunk", i+1, path),
			Hint:    "add @@ and the lines to change (context with a space, removed with -, added with +), or remove the section",
		})
	}
	return j
}

// rangeHint turns "l" and "n" of "-l,n" into a 1-based line range.
func rangeHint(l, n string) (start, end int) {
	fmt.Sscan(l, &start)
	count := 1
	if n != "" {
		fmt.Sscan(n, &count)
	}
	if start < 1 {
		return 0, 0
	}
	end = start
	if count > 1 {
		end = start + count - 1
	}
	return start, end
}

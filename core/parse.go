package core

import (
	"fmt"
	"strings"
)

// ParseOptions tunes parsing.
type ParseOptions struct {
	// Exists reports whether a file of that name exists in the root. It lets
	// a bare name such as "Makefile" count as a header. May be nil.
	Exists func(path string) bool

	// Format forces a dialect: one of Formats ("auto" or "" detects it;
	// see detectFormat).
	Format string

	// Streaming says the text may still be arriving (a model's answer in an
	// editor): a last diff hunk shorter than its "@@ -l,n +l,n @@" counts
	// is then cut short, not miscounted, and is not applied; a code
	// fence's line still without its newline asks Exists nothing.
	Streaming bool

	// Snippets reads a chat answer's fenced code blocks that name their
	// file as OpSnippet blocks (snippet.go; docs/formats.md "Answers as
	// chat tools write them"). Off, such a block is prose, as in every
	// release before: the edit formats only.
	Snippets bool

	// Memo, when set, keeps what a parse read of the text's chat snippets
	// for the next parse of the same document (ParseMemo).
	Memo *ParseMemo
}

// Parse reads every block of a patch in dialects 1-4 of docs/ARCHITECTURE.md
// "Dialects": fsrb /
// aider "diff", aider "diff-fenced", Pyxis NEW_FILE blocks, and whole
// Markdown chat answers around them. It never fails: what is wrong with the
// text comes back as positioned problems in Patch.Problems.
//
// Dialects 6 (apply-patch) and 7 (unified diff) are whole-patch formats:
// opt.Format forces one, or detectFormat picks it from the text, and the
// choice is recorded in Patch.Format.
func Parse(text string, opt ParseOptions) *Patch {
	// Agents' tool calls (toolcalls.go) are JSON, which no other format is.
	auto := opt.Format == "" || opt.Format == FormatAuto
	if opt.Format == FormatToolCalls || auto && looksLikeJSON(text) {
		if patch, ok := parseToolCalls(text, !auto); ok {
			for i := range patch.Blocks {
				keepLiterals(&patch.Blocks[i])
			}
			return patch
		}
	}
	var lines []line // read once, for the choice of format and the check for a mix
	if opt.Format == "" || opt.Format == FormatAuto {
		buf := getLines()
		defer putLines(buf)
		*buf = splitLinesInto((*buf)[:0], text)
		lines = *buf
	}
	var run *memoRun
	if opt.Memo != nil {
		run = opt.Memo.begin(text)
		defer run.end()
	}
	f := chooseFormat(lines, opt.Format, run)
	var patch *Patch
	switch f.Name {
	case FormatApplyPatch:
		patch = parseApplyPatch(text, opt)
	case FormatUdiff:
		patch = parseUdiff(text, opt)
	default:
		patch = parseSearchReplace(text, lines, opt, run)
		hashlines(patch, opt.Format)
	}
	patch.Format = f
	for i := range patch.Blocks {
		if patch.Blocks[i].Op != OpSnippet { // readSnippet did its own
			keepLiterals(&patch.Blocks[i])
		}
	}
	if !f.Forced {
		if p := mixedFormats(lines, patch); p != nil {
			patch.Problems = append(patch.Problems, *p)
		} else if opt.Snippets && f.Name != FormatSearchReplace {
			if p := droppedSnippet(text, lines, opt, run, patch); p != nil {
				patch.Problems = append(patch.Problems, *p)
			}
		}
	}
	patch.Problems.Sort()
	return patch
}

// parseSearchReplace reads dialects 1-5; lines are text's, or nil when
// they have not been split yet; run is opt.Memo's use by this Parse.
func parseSearchReplace(text string, lines []line, opt ParseOptions, run *memoRun) *Patch {
	if lines == nil {
		lines = splitLines(text)
	}
	p := &parser{text: text, lines: lines, opt: opt, patch: &Patch{Text: text}, memo: run}
	// Room for every block at once: a Block is large, and a list grown
	// by appends copies them over and over (BenchmarkW1). Every opening
	// marker holds "SEARCH" or "NEW_FILE"; a text full of those words
	// reserves at most 4,096, and appends grow past that.
	// With snippets, every other fence line may open one instead (or be
	// the fence around a SEARCH block), the last one still open while an
	// answer streams in.
	n := strings.Count(text, "SEARCH") + strings.Count(text, "NEW_FILE")
	if opt.Snippets {
		n = max(n, (strings.Count(text, "```")+1)/2)
	}
	p.patch.Blocks = make([]Block, 0, min(4096, n))
	p.run()
	if len(p.patch.Blocks) == 0 && !p.patch.Problems.HasErrors() && opt.Snippets {
		p.patch.Problems = append(p.patch.Problems, Problem{
			Kind:    KindNoBlocks,
			Message: "the answer holds no edit: no SEARCH/REPLACE block and no code block that names its file",
			Hint:    "name the file of a code block in its info string (```python src/app.py) or in a first line // filepath: src/app.py, or write SEARCH/REPLACE blocks",
			Span:    Span{0, len(text)},
		})
	} else if len(p.patch.Blocks) == 0 && !p.patch.Problems.HasErrors() {
		p.patch.Problems = append(p.patch.Problems, Problem{
			Kind:    KindNoBlocks,
			Message: "the patch holds no SEARCH/REPLACE block",
			Hint:    "write blocks as a file path line, then <<<<<<< SEARCH, the text to find, =======, the new text, and >>>>>>> REPLACE",
			Span:    Span{0, len(text)},
		})
	}
	p.patch.Problems.Sort()
	return p.patch
}

type parser struct {
	text  string
	lines []line
	opt   ParseOptions
	patch *Patch
	floor int      // first line a header may come from: just after the previous block
	memo  *memoRun // with ParseOptions.Memo
}

func (p *parser) run() {
	inFence := 0 // with Snippets: see fenceLine
	for i := 0; i < len(p.lines); {
		l := p.lines[i]
		switch markerOf(l.text) {
		case markSearch, markNewFileOpen:
			next := p.block(i)
			p.floor = next
			if p.patch.Blocks[len(p.patch.Blocks)-1].Incomplete {
				// A block cut short by the next one may have swallowed that
				// one's header line: let the next block look back into it.
				p.floor = i + 1
			}
			i = next
			continue
		case markReplace, markNewFileClose:
			p.problem(Problem{
				Kind:    KindMalformed,
				Message: fmt.Sprintf("line %d: a %q marker stands outside any block", i+1, strings.TrimSpace(l.text)),
				Hint:    `if it is text of a SEARCH or REPLACE body, escape it with a backslash ("\` + strings.TrimSpace(l.text) + `"); otherwise add the <<<<<<< SEARCH part before it`,
				Span:    Span{l.start, l.end},
			})
		}
		if p.opt.Snippets {
			if next, ok := p.fenceLine(i, &inFence); ok {
				i = next
				continue
			}
		}
		if next, ok := p.shell(i); ok {
			i = next
			continue
		}
		i++
	}
}

// shell records a fenced shell command block that starts at line i, if it
// is one: a shell-language fence whose body holds no delimiter line.
func (p *parser) shell(i int) (next int, ok bool) {
	open, isFence := fenceOf(p.lines[i].text)
	if !isFence || !open.open || open.close || !shellLang(strings.ToLower(open.lang)) {
		return 0, false
	}
	for j := i + 1; j < len(p.lines); j++ {
		if markerOf(p.lines[j].text) != markNone {
			return 0, false // an edit block fenced as ```bash: not a command block
		}
		f, isFence := fenceOf(p.lines[j].text)
		if !isFence || !f.close || (open.ticks > 0) != (f.ticks > 0) || f.ticks < open.ticks {
			continue
		}
		body := Span{p.lines[i].next, p.lines[j].start}
		if body.Start > body.End {
			body.Start = body.End
		}
		p.patch.Shell = append(p.patch.Shell, ShellBlock{
			Lang: open.lang,
			Text: normalizeLF(p.text[body.Start:body.End]),
			Span: Span{p.lines[i].start, p.lines[j].end},
			Body: body,
		})
		return j + 1, true
	}
	return 0, false
}

// block parses the block whose opening marker is line i and returns the
// index of the first line after it.
func (p *parser) block(i int) int {
	open := p.lines[i]
	b := Block{
		Number:       len(p.patch.Blocks) + 1,
		Op:           OpModify,
		Dialect:      DialectSearchReplace,
		SearchMarker: Span{open.start, open.end},
	}
	p.header(&b, i)

	var next int
	var broken bool
	if markerOf(open.text) == markNewFileOpen {
		next, broken = p.newFile(&b, i)
	} else {
		next, broken = p.searchReplace(&b, i)
	}
	b.Span.End = max(b.Span.End, b.ReplaceMarker.End)
	if b.ReplaceMarker.Empty() {
		b.Span.End = p.lines[next-1].end
	}
	if !broken && b.Op == OpCreate && b.Replace == "" {
		p.problem(Problem{
			Kind: KindEmptyBlock, Block: b.Number, Path: b.Path, Span: b.Span,
			Message: "the SEARCH and REPLACE texts are both empty, so the block would do nothing",
			Hint:    "put the text to change in SEARCH, or the content of the new file in REPLACE",
		})
	}
	p.patch.Blocks = append(p.patch.Blocks, b)
	return next
}

// header finds the block's path: the nearest line above its marker, past
// blank, comment and fence lines, that is a path; without one, the previous
// block's path (aider's rule, noted), or an error for the first block.
func (p *parser) header(b *Block, i int) {
	b.Span.Start = p.lines[i].start
	sawFence := false
	fenceLine, fencePath := -1, "" // a path in the info string of the fence around the block
	prose := -1                    // the first line above that is no header, blank, comment or fence
	for j := i - 1; j >= p.floor; j-- {
		l := p.lines[j]
		if isBlank(l.text) {
			continue
		}
		if f, ok := fenceOf(l.text); ok {
			if !sawFence && f.open && !f.close {
				if path, ok := fenceInfoPath(f.lang, p.opt.Exists); ok {
					fenceLine, fencePath = j, path
				}
			}
			sawFence = true
			continue
		}
		path, ok := headerPath(l.text, p.opt.Exists)
		if !ok {
			path, ok = fileName(l.text)
			ok = ok && p.creates(i)
		}
		if ok {
			setHeader(b, l, path)
			if !sawFence && p.fenceAbove(j) {
				b.Dialect = DialectFenced
			}
			return
		}
		if strings.HasPrefix(strings.TrimSpace(l.text), "#") {
			continue
		}
		prose = j
		break
	}
	if fenceLine >= 0 {
		// ```python:settings.py, ```python src/app.py, <source>src/a.py:
		// the fence names the file; inheriting the previous block's path
		// would edit another file.
		setHeader(b, p.lines[fenceLine], fencePath)
		return
	}
	if prose >= 0 {
		// "In `src/util.py`, change:": chat answers name the file in the
		// sentence that introduces the block; the previous block's path
		// would edit another file.
		l := p.lines[prose]
		if at, n, ok := prosePath(l.text, p.opt.Exists); ok {
			b.Path = l.text[at : at+n]
			b.Header = Span{l.start, l.end}
			b.PathSpan = Span{l.start + at, l.start + at + n}
			b.Span.Start = l.start
			p.problem(Problem{
				Kind: KindProsePath, Severity: SeverityInfo, Block: b.Number, Path: b.Path, Span: b.PathSpan,
				Message: fmt.Sprintf("block #%d takes its path, %s, from the sentence above it", b.Number, b.Path),
				Hint:    fmt.Sprintf("write %s alone on the line before the block to make this explicit", b.Path),
			})
			return
		}
	}
	prev := len(p.patch.Blocks) - 1
	for prev >= 0 && p.patch.Blocks[prev].Path == "" {
		prev--
	}
	marker := Span{p.lines[i].start, p.lines[i].end}
	if prev < 0 {
		p.problem(Problem{
			Kind: KindNoPath, Block: b.Number, Span: marker,
			Message: "the block has no file path above its SEARCH marker",
			Hint:    "write the path of the file to edit on the line before the block (for example src/app.py)",
		})
		return
	}
	from := p.patch.Blocks[prev]
	b.Path = from.Path
	b.InheritedFrom = from.Number
	p.problem(Problem{
		Kind: KindInheritedPath, Severity: SeverityInfo, Block: b.Number, Path: from.Path, Span: marker,
		Message: fmt.Sprintf("block #%d has no file path; using %s like block #%d", b.Number, from.Path, from.Number),
		Hint:    fmt.Sprintf("write %s on the line before the block to make this explicit", from.Path),
	})
}

// creates reports whether the block opened at line i creates a file: a
// NEW_FILE block, or a SEARCH/REPLACE block whose SEARCH is blank. Its
// header may then name a file that does not exist yet (fileName).
func (p *parser) creates(i int) bool {
	open := p.lines[i].text
	if markerOf(open) == markNewFileOpen {
		return true
	}
	cline := isClineOpen(open)
	for k := i + 1; k < len(p.lines); k++ {
		if !isBlank(p.lines[k].text) {
			return markerIn(p.lines[k].text, cline) == markDivider
		}
	}
	return false
}

// setHeader makes line l, which names path, the block's header.
func setHeader(b *Block, l line, path string) {
	b.Path = path
	b.Header = Span{l.start, l.end}
	b.PathSpan = b.Header
	if k := strings.LastIndex(l.text, path); k >= 0 {
		b.PathSpan = Span{l.start + k, l.start + k + len(path)}
	}
	b.Span.Start = l.start
}

// fenceInfoPath reads a path from a fence's info string: "lang:path",
// "lang path", or a path alone; it must read as a header would.
func fenceInfoPath(info string, exists func(string) bool) (string, bool) {
	if strings.ContainsRune(info, '=') {
		// "python path=src/x.py", title="x.py": the attribute forms of
		// chat tools (readFenceInfo), not a path with "=" in it.
		fi := readFenceInfo(info, exists)
		return fi.path, fi.path != ""
	}
	cand := strings.TrimSpace(info)
	if k := strings.IndexByte(cand, ':'); k >= 0 {
		cand = cand[k+1:]
	} else if f := strings.Fields(cand); len(f) > 1 {
		cand = f[len(f)-1]
	}
	if cand == "" || strings.ContainsAny(cand, " \t") {
		return "", false
	}
	return headerPath(cand, exists)
}

// fenceAbove reports whether the nearest non-blank line above line j is a
// fence: aider's diff-fenced dialect puts the path inside the fence.
func (p *parser) fenceAbove(j int) bool {
	for k := j - 1; k >= p.floor; k-- {
		if isBlank(p.lines[k].text) {
			continue
		}
		f, ok := fenceOf(p.lines[k].text)
		return ok && f.open
	}
	return false
}

// searchReplace reads "<<<<<<< SEARCH … ======= … >>>>>>> REPLACE" from line i.
func (p *parser) searchReplace(b *Block, i int) (next int, broken bool) {
	cline := isClineOpen(p.lines[i].text)
	if cline {
		b.Dialect = DialectCline
	}
	first := p.rooHints(b, i+1)
	search, j, _ := p.body(first, cline, false)
	b.SearchBody = p.bodySpan(first, j)
	if j == len(p.lines) || markerIn(p.lines[j].text, cline) != markDivider {
		if j < len(p.lines) && markerIn(p.lines[j].text, cline) == markReplace {
			p.problem(Problem{
				Kind: KindMalformed, Block: b.Number, Path: b.Path, Span: Span{p.lines[j].start, p.lines[j].end},
				Message: fmt.Sprintf("line %d: the >>>>>>> REPLACE marker comes before any ======= divider", j+1),
				Hint:    "add a ======= line between the SEARCH text and the REPLACE text",
			})
			b.ReplaceMarker = Span{p.lines[j].start, p.lines[j].end}
			return j + 1, true
		}
		p.incomplete(b, i, j, "it has no ======= divider after its SEARCH text", "add =======, the new text and >>>>>>> REPLACE")
		return j, true
	}
	b.Divider = Span{p.lines[j].start, p.lines[j].end}
	var replace string // the parts between dividers, joined
	k := j + 1
	plain := true
	for {
		var part string
		var partPlain bool
		part, k, partPlain = p.body(k, cline, true)
		replace += part
		plain = plain && partPlain
		if k < len(p.lines) && markerIn(p.lines[k].text, cline) == markDivider {
			p.problem(Problem{
				Kind: KindMalformed, Block: b.Number, Path: b.Path, Span: Span{p.lines[k].start, p.lines[k].end},
				Message: fmt.Sprintf("line %d: a second ======= divider inside the block", k+1),
				Hint:    `if the line is text of the file, escape it as \=======; otherwise close the block with >>>>>>> REPLACE before it`,
			})
			broken = true
			k++
			continue
		}
		break
	}
	b.ReplaceBody = p.bodySpan(j+1, k)
	if k == len(p.lines) || markerIn(p.lines[k].text, cline) != markReplace {
		closing := ">>>>>>> REPLACE"
		if cline {
			closing = "+++++++ REPLACE"
		}
		p.incomplete(b, i, k, "it has no "+closing+" marker after its REPLACE text", "end the block with a "+closing+" line")
		return k, true
	}
	if p.hintInReplace(b, j+1, k) {
		broken = true
	}
	b.ReplaceMarker = Span{p.lines[k].start, p.lines[k].end}
	b.Search, b.Replace, b.plain = search, replace, plain
	if isBlank(b.Search) {
		b.Search = ""
		b.Op = OpCreate
	}
	if isBlank(b.Replace) {
		b.Replace = ""
	}
	return k + 1, broken
}

// newFile reads "<<<<<<< NEW_FILE … >>>>>>> NEW_FILE" from line i: the whole
// content of a new file. Only the closing marker ends it.
func (p *parser) newFile(b *Block, i int) (next int, broken bool) {
	b.Op, b.Dialect = OpCreate, DialectNewFile
	var body strings.Builder
	j := i + 1
	for ; j < len(p.lines); j++ {
		if markerOf(p.lines[j].text) == markNewFileClose {
			break
		}
		body.WriteString(unescapeBody(p.lines[j].text, false))
		body.WriteByte('\n')
	}
	b.ReplaceBody = p.bodySpan(i+1, j)
	if j == len(p.lines) {
		p.incomplete(b, i, j, "it has no >>>>>>> NEW_FILE marker after its content", "end the block with a >>>>>>> NEW_FILE line")
		return j, true
	}
	b.ReplaceMarker = Span{p.lines[j].start, p.lines[j].end}
	b.Replace = body.String()
	if isBlank(b.Replace) {
		b.Replace = ""
	}
	return j + 1, false
}

// body collects body lines from line i up to the next delimiter line
// (cline: of a block opened by Cline's marker), resolving escapes, and
// returns the text (LF, each line ended), the index of the delimiter line
// (or len(lines)), and, when asked (look: a REPLACE body), plain: no line
// of it may be an omission placeholder or carry its keep marker
// (mayBePlaceholder).
func (p *parser) body(i int, cline, look bool) (text string, next int, plain bool) {
	// Most bodies are the patch's own bytes: LF lines, none escaped. Such
	// a body is a substring of the patch, not a copy.
	same := true
	plain = look
	j := i
	for ; j < len(p.lines); j++ {
		l := p.lines[j]
		// A line whose first non-blank byte starts no marker and no escape
		// is body text as it stands: one look at its indentation instead
		// of one in markerIn and another in unescapeBody. The
		// same look tells whether it may be a placeholder, which the
		// validator then need not ask again.
		if c, ok := leadByte(l.text); ok && !markerOrEscapeByte(c) {
			same = same && l.next == l.end+1
			plain = plain && (c == 0 || !placeholderLead[c] && !placeholderLast[l.text[len(l.text)-1]])
			continue
		}
		if markerIn(l.text, cline) != markNone {
			break
		}
		plain = false
		if same && (l.next != l.end+1 || unescapeBody(l.text, cline) != l.text) {
			same = false
		}
	}
	if j == i {
		return "", j, look
	}
	if same {
		return p.text[p.lines[i].start:p.lines[j-1].next], j, plain
	}
	var b strings.Builder
	b.Grow(p.lines[j-1].next - p.lines[i].start + 1)
	for _, l := range p.lines[i:j] {
		b.WriteString(unescapeBody(l.text, cline))
		b.WriteByte('\n')
	}
	return b.String(), j, plain
}

// bodySpan is the span of lines [i, j): empty at the start of line i when
// there are none.
func (p *parser) bodySpan(i, j int) Span {
	if i >= len(p.lines) {
		return Span{len(p.text), len(p.text)}
	}
	if j <= i {
		return Span{p.lines[i].start, p.lines[i].start}
	}
	return Span{p.lines[i].start, p.lines[j-1].next}
}

// incomplete reports a block cut short. The span runs from its marker to
// where the next block starts (or the end of the text), so that an editor
// can tell a model's answer still streaming in (the span reaches the end).
func (p *parser) incomplete(b *Block, i, j int, why, hint string) {
	end := len(p.text)
	if j < len(p.lines) {
		end = p.lines[j].start
	}
	p.problem(Problem{
		Kind: KindIncomplete, Block: b.Number, Path: b.Path, Span: Span{p.lines[i].start, end},
		Message: "the block is cut short: " + why,
		Hint:    hint,
	})
	b.Incomplete = true
}

func (p *parser) problem(pr Problem) {
	p.patch.Problems = append(p.patch.Problems, pr)
}

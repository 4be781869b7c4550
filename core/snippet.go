package core

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Chat answers' code blocks (docs/formats.md "Answers as chat tools write
// them"): with ParseOptions.Snippets, a backtick fence that holds no edit
// markers and names its file is an OpSnippet block. The plan resolves it
// against the file (answer.go); the parser only reads it.

// fenceLine reads the backtick fence at line i while Snippets is on, and
// keeps inFence, the backtick count of a fence around the lines being read
// that holds edit markers (0 outside any). A fence that holds markers is
// read line by line, as without snippets; a named one becomes a snippet; an unnamed
// one is skipped whole (its lines are code, not the answer's), except a
// shell block, which shell reads. ok is false when run goes on as before.
func (p *parser) fenceLine(i int, inFence *int) (next int, ok bool) {
	if c, known := leadByte(p.lines[i].text); known && c != '`' {
		return 0, false
	}
	f, isFence := fenceOf(p.lines[i].text)
	if !isFence || f.ticks == 0 {
		return 0, false
	}
	if *inFence > 0 {
		if f.close && f.ticks >= *inFence {
			*inFence = 0
		}
		return i + 1, true
	}
	closing, edits := p.scanFence(i, f.ticks)
	if edits {
		*inFence = f.ticks
		return i + 1, true
	}
	if next, ok := p.snippet(i, f, closing); ok {
		return next, true
	}
	if shellLang(strings.ToLower(f.lang)) || closing < 0 {
		return 0, false
	}
	return closing + 1, true
}

// scanFence looks through the fence opened at line i with ticks backticks:
// closing is the index of its closing fence, or -1 when the text ends
// first; edits says that it holds a line only an edit format has (a
// SEARCH, REPLACE or NEW_FILE marker, a diff's file headers, an
// apply-patch header), and the look stopped there.
//
// A fence with a language inside it opens a nested one, which the next
// bare fence closes: models write a README's own code blocks, or a
// docstring's example, inside a three-backtick fence, where Markdown
// would end the outer fence at the first bare one and cut the file
// short. Read so, a fence left open inside leaves the outer one open
// too: cut short, refused, never taken for less than it holds.
func (p *parser) scanFence(i, ticks int) (closing int, edits bool) {
	depth := 0
	for j := i + 1; j < len(p.lines); j++ {
		t := p.lines[j].text
		if c, ok := leadByte(t); ok && c != '`' && c != '*' && c != 'd' && !markerByte(c) {
			continue // most code lines: no fence, marker or header starts so
		}
		if c, _ := leadByte(t); c == '`' {
			f, isFence := fenceOf(t)
			switch {
			case !isFence:
			case !f.close:
				depth++
			case depth > 0:
				depth--
			case f.ticks >= ticks:
				return j, false
			}
			continue
		}
		if m := markerOf(t); m != markNone && m != markDivider {
			return -1, true
		}
		if _, ok := formatOfLine(p.lines, j); ok {
			return -1, true
		}
	}
	return -1, false
}

// diffLang reports the fence languages whose body is a diff: never a
// snippet of the file a sentence above names.
func diffLang(lang string) bool {
	return lang == "diff" || lang == "patch" || lang == "udiff"
}

// readSnippet records the fence opened at line i (closing: its closing line,
// or -1) as an OpSnippet block when it names its file, and returns the
// index of the line after it.
func (p *parser) readSnippet(i int, open fence, closing int) (next int, ok bool) {
	exists := p.opt.Exists
	if l := p.lines[i]; p.opt.Streaming && l.next == l.end {
		// The fence's line is still being written: its last word may be
		// half a path ("pk" of "pkg/x.py"), and no file is looked up by
		// it. Its newline brings the look.
		exists = nil
	}
	info := readFenceInfo(open.lang, exists)
	if diffLang(strings.ToLower(info.lang)) {
		return 0, false
	}
	end, next := closing, closing+1 // the code is lines [first, end)
	if closing < 0 {
		end, next = len(p.lines), len(p.lines)
	}
	fl := p.lines[i]
	b := Block{Op: OpSnippet, Dialect: DialectChat, Lang: info.lang, SearchMarker: Span{fl.start, fl.end}}
	first := i + 1
	var named []Problem // problems of the name, once the block has a number
	commentPath, commentAt, commentLen, comment := "", 0, 0, false
	if first < end {
		commentPath, commentAt, commentLen, comment = filepathComment(p.lines[first].text)
	}
	switch {
	case info.path != "":
		setHeader(&b, fl, info.path)
		if comment {
			cl := p.lines[first]
			first++
			if commentPath != info.path {
				named = append(named, Problem{
					Kind: KindMalformed, Span: Span{cl.start + commentAt, cl.start + commentAt + commentLen},
					Message: fmt.Sprintf("the code block names two files: %s in its first line and %s in its info string", commentPath, info.path),
					Hint:    "keep the name of the file the code belongs to and delete the other",
				})
			}
		}
	case comment:
		cl := p.lines[first]
		b.Path = commentPath
		b.Header = Span{cl.start, cl.end}
		b.PathSpan = Span{cl.start + commentAt, cl.start + commentAt + commentLen}
		first++
	default:
		if !p.nameAbove(&b, i, info.lang, &named) {
			return 0, false
		}
	}
	if outsidePath(b.Path) && (p.opt.Exists == nil || !p.opt.Exists(b.Path)) {
		// A fence naming a file outside the workspace (an answer's
		// /etc/hosts) is about that file, not an edit: it stays prose, as
		// a fence naming none does. Exists confines what it finds.
		return 0, false
	}
	if b.Header.Start >= fl.start {
		b.Span.Start = fl.start // named in or inside the fence: the block starts at it
	}
	if b.FromLine == 0 {
		b.FromLine, b.ToLine = info.from, info.to
	}
	if info.bad != "" {
		named = append(named, Problem{
			Kind: KindMalformed, Span: Span{fl.start, fl.end},
			Message: fmt.Sprintf("the code block's line range, %s, is no range of lines", info.bad),
			Hint:    "write start_line=A end_line=B, with 1 <= A <= B, the lines of the file the block replaces",
		})
	}

	b.Number = len(p.patch.Blocks) + 1
	b.ReplaceBody = p.bodySpan(first, end)
	b.Replace, b.Omissions = p.snippetCode(first, end, indentOf(fl.text), commentsOf(b.Lang, b.Path))
	if closing >= 0 {
		cl := p.lines[closing]
		b.ReplaceMarker = Span{cl.start, cl.end}
		b.Span.End = cl.end
	} else {
		b.Span.End = p.lines[end-1].end
	}
	for _, pr := range named {
		pr.Block, pr.Path = b.Number, b.Path
		p.problem(pr)
	}
	switch {
	case closing < 0:
		fence := strings.Repeat("`", open.ticks)
		p.incomplete(&b, i, end, "its code block has no closing "+fence+" fence", "end the code block with a "+fence+" line")
	case isBlank(b.Replace):
		b.Replace, b.Omissions = "", nil
		p.problem(Problem{
			Kind: KindEmptyBlock, Block: b.Number, Path: b.Path, Span: b.Span,
			Message: fmt.Sprintf("the code block for %s holds no code", b.Path),
			Hint:    "write the code in the block, or delete the block",
		})
	}
	// Here, not in Parse's pass over every block: a snippet the memo
	// hands on has had it done (parsememo.go).
	keepLiterals(&b)
	p.patch.Blocks = append(p.patch.Blocks, b)
	p.floor = next
	return next, true
}

// nameAbove names b from the nearest non-blank line above its fence (line
// i, of language lang), after the previous block: CopilotChat's
// "[file:x.py](src/x.py) line:4-9", a path line (as a block's header), or
// a sentence that names exactly one path in backticks ("Here is the
// updated `src/x.py`:") when proseNames allows. It reports whether that
// line named a file.
func (p *parser) nameAbove(b *Block, i int, lang string, named *[]Problem) bool {
	for j := i - 1; j >= p.floor; j-- {
		l := p.lines[j]
		if isBlank(l.text) {
			continue
		}
		if path, at, from, to, bad, ok := copilotHeader(l.text); ok {
			b.Path, b.FromLine, b.ToLine = path, from, to
			b.Header, b.PathSpan = Span{l.start, l.end}, Span{l.start + at, l.start + at + len(path)}
			b.Span.Start = l.start
			if bad != "" {
				*named = append(*named, Problem{
					Kind: KindMalformed, Span: b.Header,
					Message: fmt.Sprintf("the line range above the code block, %s, is no range of lines", bad),
					Hint:    "write line:A-B, with 1 <= A <= B, the lines of the file the block replaces",
				})
			}
			return true
		}
		if path, ok := headerPath(pathLine(l.text), p.opt.Exists); ok && (pathLike(path) || p.opt.Exists != nil && p.opt.Exists(path)) {
			setHeader(b, l, path)
			return true
		}
		var buf [2]proseSpan
		paths, _ := prosePaths(l.text, p.opt.Exists, buf[:0], nil)
		if len(paths) != 1 || !proseNames(lang, l.text[paths[0].at:paths[0].at+paths[0].n]) {
			return false
		}
		at, n := paths[0].at, paths[0].n
		b.Path = l.text[at : at+n]
		b.Header = Span{l.start, l.end}
		b.PathSpan = Span{l.start + at, l.start + at + n}
		b.Span.Start = l.start
		return true
	}
	return false
}

// proseNames reports whether a sentence naming path may name a code
// block of language lang: a sentence is the weakest of the names, and
// chat answers show a file's output, a command running it or a JSON
// reply under a sentence naming it ("Running `src/app.py` prints:").
// Read as the file's code, such a block would fail the whole answer. So
// the block must have a language; not a shell's (a command) nor an
// output's ("text", "log"), unless the file is of that kind
// ("requirements.txt" under ```text); and not one that another file type
// has (```json under `api/users.py`). Languages and files of no known
// kind do not disagree.
func proseNames(lang, path string) bool {
	l := strings.ToLower(lang)
	if l == "" || shellLang(l) {
		return false
	}
	kinds := kindOf()
	fl, fp := kinds[l], kinds[fileKind(path)]
	if outputLang(l) {
		return fl != "" && fl == fp
	}
	return fl == "" || fp == "" || fl == fp
}

// outputLang reports the fence languages of a program's output or of
// plain text.
func outputLang(lang string) bool {
	switch lang {
	case "text", "txt", "plaintext", "plain", "output", "out", "log",
		"stdout", "stderr", "none", "nohighlight", "raw":
		return true
	}
	return false
}

// kindOf groups fence languages and file extensions by the kind of text
// they are: a fence's language and its file's extension agree when they
// are of one kind (```jsx for App.tsx, ```html for App.vue). Built on
// first use: a CLI run that reads no sentence above a fence (most) does
// not pay for it at start-up.
var kindOf = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for kind, names := range map[string]string{
		"python": "py pyi pyw python python3 py3",
		"js":     "js jsx mjs cjs javascript javascriptreact node ts tsx mts cts typescript typescriptreact",
		"go":     "go golang", "rust": "rs rust", "java": "java", "kotlin": "kt kts kotlin",
		"c":  "c h cpp c++ cc cxx hpp hh hxx objc objective-c m mm",
		"cs": "cs csharp c#", "ruby": "rb ruby erb rake", "php": "php", "swift": "swift", "scala": "scala sc",
		"dart": "dart", "lua": "lua", "sql": "sql psql mysql plsql postgresql sqlite",
		"html": "html htm xhtml vue svelte astro jsp", "css": "css scss sass less styl stylus",
		"json": "json jsonc json5", "yaml": "yaml yml", "toml": "toml", "xml": "xml svg xsl xslt plist csproj xaml",
		"md": "md markdown mdx", "text": "txt text plaintext plain", "log": "log",
		"shell": "sh bash zsh fish ksh", "ps": "ps1 psm1 powershell pwsh",
		"elixir": "ex exs elixir", "haskell": "hs haskell", "clojure": "clj cljs cljc edn clojure",
		"r": "r", "julia": "jl julia", "perl": "pl pm perl", "zig": "zig", "nim": "nim",
		"graphql": "graphql gql", "proto": "proto protobuf", "ini": "ini cfg conf",
	} {
		for _, n := range strings.Fields(names) {
			m[n] = kind
		}
	}
	return m
})

// fileKind returns the extension of p's base name, lower case ("" when
// it has none).
func fileKind(p string) string {
	base := p[strings.LastIndexAny(p, `/\`)+1:]
	dot := strings.LastIndexByte(base, '.')
	if dot <= 0 {
		return ""
	}
	return strings.ToLower(base[dot+1:])
}

// pathLine strips what a path line above a code block may carry around
// its path besides Markdown (headerPath strips that): a list item's
// marker ("- ", "* ", "1. ") and a closing remark in parentheses
// ("src/app.py (new file)").
func pathLine(s string) string {
	t := strings.TrimSpace(s)
	if len(t) > 2 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && t[1] == ' ' {
		t = strings.TrimSpace(t[2:])
	} else if n := digitsAt(t); n > 0 && n+1 < len(t) && (t[n] == '.' || t[n] == ')') && t[n+1] == ' ' {
		t = strings.TrimSpace(t[n+2:])
	}
	if strings.HasSuffix(strings.TrimSuffix(t, ":"), ")") {
		if k := strings.LastIndex(t, " ("); k > 0 {
			t = strings.TrimSpace(t[:k])
		}
	}
	return t
}

// digitsAt counts the digits that start s.
func digitsAt(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// snippetCode returns the code of lines [first, end) as LF text, every
// line ended, with up to indent leading blanks taken from each line (the
// fence's own indentation, as in a Markdown list item), and the 0-based
// lines that are omission markers of a file with comments.
func (p *parser) snippetCode(first, end, indent int, comments commentSet) (string, []int) {
	if first >= end {
		return "", nil
	}
	var buf [8]int // most snippets have a few markers: one allocation for them
	found := buf[:0]
	same := indent == 0 // the code is the patch's own bytes
	for k := first; k < end; k++ {
		l := p.lines[k]
		same = same && l.next == l.end+1
		if mayBePlaceholder(l.text) {
			t := dedent(l.text, indent)
			if _, kept := cutKeep(t); !kept && omissionMarker(t, comments) {
				found = append(found, k-first)
			}
		}
	}
	var omissions []int
	if len(found) > 0 {
		omissions = slices.Clone(found)
	}
	if same {
		return p.text[p.lines[first].start:p.lines[end-1].next], omissions
	}
	var sb strings.Builder
	sb.Grow(p.lines[end-1].next - p.lines[first].start + 1)
	for _, l := range p.lines[first:end] {
		sb.WriteString(dedent(l.text, indent))
		sb.WriteByte('\n')
	}
	return sb.String(), omissions
}

// indentOf counts the blanks before s's first other byte.
func indentOf(s string) int {
	return len(s) - len(strings.TrimLeft(s, " \t"))
}

// dedent takes up to n leading blanks from s.
func dedent(s string, n int) string {
	k := 0
	for k < n && k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	return s[k:]
}

// filepathComment reads a code block's first line that names its file, as
// VS Code's Copilot and the plugins that took its prompt write it: a
// comment of any form whose text is "filepath: P" ("// filepath:
// src/x.ts", "# filepath: app.py", "<!-- filepath: index.html -->"). at
// and n are where the path sits in line. Other comments ("// File: x.ts")
// are code: a file may well begin with one.
func filepathComment(line string) (path string, at, n int, ok bool) {
	t := strings.TrimSpace(line)
	if t == "" || !placeholderLead[t[0]] {
		return "", 0, 0, false
	}
	inner, form := uncommentForm(t)
	const key = "filepath:"
	if form == 0 || len(inner) <= len(key) || !strings.EqualFold(inner[:len(key)], key) {
		return "", 0, 0, false
	}
	path, ok = headerPath(inner, nil)
	if !ok {
		return "", 0, 0, false
	}
	at = strings.LastIndex(line, path)
	if at < 0 {
		return "", 0, 0, false
	}
	return path, at, len(path), true
}

// fenceInfo is what a fence's info string says about its code block.
type fenceInfo struct {
	lang     string // the language ("" when the info string names none)
	path     string // the file, "" when it names none
	from, to int    // CopilotChat's start_line and end_line, 0 when absent
	bad      string // a line range written but unusable, as written
}

// pathKey reports the attribute names that give a code block's file:
// path=, file=, filepath=, filename= (CopilotChat, Markdown attribute
// blocks), and title= when its value reads as a path (MkDocs, Docusaurus).
func pathKey(key string) bool {
	switch key {
	case "path", "file", "filepath", "filename", "title":
		return true
	}
	return false
}

// readFenceInfo is parseFenceInfo, with its last answer kept
// (lastAnswer): reading each word as a header would (infoPath) is the
// cost. An answer that asked exists is not kept (files come and go
// between chunks); one made without exists serves only calls without
// it.
func readFenceInfo(info string, exists func(string) bool) fenceInfo {
	if k, fi, ok := lastFenceInfo.load(); ok && k.info == info && (k.withExists || exists == nil) {
		return fi
	}
	asked, ask := false, exists
	if exists != nil {
		ask = func(p string) bool {
			asked = true
			return exists(p)
		}
	}
	fi := parseFenceInfo(info, ask)
	if !asked {
		kept := fi
		kept.lang, kept.path, kept.bad = strings.Clone(fi.lang), strings.Clone(fi.path), strings.Clone(fi.bad)
		lastFenceInfo.store(fenceInfoKey{strings.Clone(info), exists != nil}, kept)
	}
	return fi
}

// fenceInfoKey is what a kept readFenceInfo answer was for. withExists:
// it was made with an exists it did not ask, so it holds with or
// without one.
type fenceInfoKey struct {
	info       string
	withExists bool
}

var lastFenceInfo lastAnswer[fenceInfoKey, fenceInfo]

// parseFenceInfo reads a fence's info string: "python src/x.py",
// "python:src/x.py", "src/x.py", "{python} src/x.py",
// "python {path=src/x.py}", "{.python file=\"x.py\"}", and CopilotChat's
// "python path=src/x.py start_line=4 end_line=9". A bare word is the
// language; a path needs a "/" or an extension with a letter in it
// ("python 3.11" names no file), or, after the language, the name of a
// file that exists ("make Makefile"). Two paths name none.
func parseFenceInfo(info string, exists func(string) bool) fenceInfo {
	var fi fenceInfo
	s := strings.TrimSpace(info)
	if s == "" {
		return fi
	}
	if strings.ContainsAny(s, "{}") {
		s = strings.NewReplacer("{", " ", "}", " ").Replace(s)
	}
	var start, end string
	var hasStart, hasEnd bool
	var attrPath string
	paths := 0
	var buf [6]string
	for k, f := range infoFields(buf[:0], s) {
		if key, val, isAttr := strings.Cut(f, "="); isAttr && key != "" {
			val = strings.Trim(val, `"'`)
			switch key = strings.ToLower(key); {
			case pathKey(key):
				// "path: " makes a path with a blank in it ("my file.py",
				// quoted) read as one, as after a File: prefix.
				if p, ok := headerPath("path: "+val, exists); ok && attrPath == "" && !strings.Contains(p, "://") && (key != "title" || pathLike(p)) {
					attrPath = p
				}
			case key == "start_line" || key == "startline":
				start, hasStart = val, true
			case key == "end_line" || key == "endline":
				end, hasEnd = val, true
			}
			continue
		}
		if k == 0 {
			lang, p, colon := strings.Cut(f, ":")
			if class := strings.TrimPrefix(f, "."); class != f && !strings.ContainsAny(class, "./:") {
				fi.lang = class // a Markdown attribute block's class: {.python}
				continue
			}
			if !colon && infoPath(f, nil) {
				fi.path, paths = strings.TrimPrefix(f, "./"), 1
				continue
			}
			fi.lang = strings.TrimPrefix(lang, ".")
			if colon && infoPath(p, exists) {
				fi.path, paths = strings.TrimPrefix(p, "./"), 1
			}
			continue
		}
		if infoPath(f, exists) {
			fi.path = strings.TrimPrefix(f, "./")
			paths++
		}
	}
	if paths > 1 {
		fi.path = ""
	}
	if attrPath != "" {
		fi.path = attrPath
	}
	if hasStart || hasEnd {
		a, errA := strconv.Atoi(start)
		b, errB := strconv.Atoi(end)
		if errA != nil || errB != nil || a < 1 || b < a {
			fi.bad = fmt.Sprintf("start_line=%s end_line=%s", orNone(start, hasStart), orNone(end, hasEnd))
		} else {
			fi.from, fi.to = a, b
		}
	}
	return fi
}

func orNone(v string, ok bool) string {
	if !ok {
		return "(none)"
	}
	return v
}

// infoFields appends to out the words of an info string, split at
// blanks, a quoted value (title="my file.py") kept whole.
func infoFields(out []string, s string) []string {
	for i := 0; i < len(s); {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i == len(s) {
			break
		}
		j, quote := i, byte(0)
		for ; j < len(s); j++ {
			c := s[j]
			if quote != 0 {
				if c == quote {
					quote = 0
				}
				continue
			}
			if c == '"' || c == '\'' {
				quote = c
				continue
			}
			if c == ' ' || c == '\t' {
				break
			}
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}

// infoPath reports whether a word of an info string is a path: it reads
// as a header would and looks like a path (pathLike), or names a file
// that exists.
func infoPath(w string, exists func(string) bool) bool {
	p, ok := headerPath(w, nil)
	if ok && p == strings.TrimPrefix(w, "./") && pathLike(p) {
		return true
	}
	return exists != nil && !strings.ContainsAny(w, " \t") && exists(strings.TrimPrefix(w, "./"))
}

// pathLike reports a name that reads as a file's path, not as a word, a
// version or a sentence: a "/" in it, or an extension with a letter
// ("app.py", ".env"; not "3.11", not "e.g.", not a URL).
func pathLike(s string) bool {
	if s == "" || strings.ContainsAny(s, " \t") || strings.Contains(s, "://") {
		return false // a URL is no file of the root
	}
	if strings.ContainsAny(s, `/\`) {
		return true
	}
	dot := strings.LastIndexByte(s, '.')
	if dot < 0 || dot == len(s)-1 {
		return false
	}
	for _, c := range s[dot+1:] {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			return true
		}
	}
	return false
}

// copilotHeader reads CopilotChat's former line above a code block,
// "[file:x.py](src/x.py) line:4-9": the path is the link's target (its
// text when the target is empty), at its offset in line; from and to the
// line range, 0 when the line gives none; bad a range written but
// unusable.
func copilotHeader(line string) (path string, at, from, to int, bad string, ok bool) {
	lead := len(line) - len(strings.TrimLeft(line, " \t"))
	t := strings.TrimSpace(line)
	const open = "[file:"
	if !strings.HasPrefix(t, open) {
		return "", 0, 0, 0, "", false
	}
	mid := strings.Index(t, "](")
	if mid < 0 {
		return "", 0, 0, 0, "", false
	}
	stop := strings.IndexByte(t[mid+2:], ')')
	if stop < 0 {
		return "", 0, 0, 0, "", false
	}
	target := strings.TrimSpace(t[mid+2 : mid+2+stop])
	at = lead + mid + 2 + strings.Index(t[mid+2:], target)
	if target == "" {
		target = strings.TrimSpace(t[len(open):mid])
		at = lead + len(open) + strings.Index(t[len(open):], target)
	}
	if target == "" {
		return "", 0, 0, 0, "", false
	}
	rest := strings.TrimSpace(t[mid+2+stop+1:])
	if r, has := strings.CutPrefix(rest, "line:"); has {
		r = strings.TrimSpace(r)
		a, b, dash := strings.Cut(r, "-")
		if !dash {
			b = a
		}
		x, errA := strconv.Atoi(strings.TrimSpace(a))
		y, errB := strconv.Atoi(strings.TrimSpace(b))
		if errA != nil || errB != nil || x < 1 || y < x {
			bad = "line:" + r
		} else {
			from, to = x, y
		}
	}
	return target, at, from, to, bad, true
}

// droppedSnippet finds, in an answer read as a whole-patch format (a
// unified diff, an apply-patch), a code block that names its file outside
// every block the patch was read into: read so, it would be dropped
// without a word, so the answer is refused as one that mixes formats.
func droppedSnippet(text string, lines []line, opt ParseOptions, run *memoRun, patch *Patch) *Problem {
	sr := parseSearchReplace(text, lines, opt, run)
	for _, s := range sr.Blocks {
		if s.Op != OpSnippet {
			continue
		}
		inside := false
		for _, b := range patch.Blocks {
			if b.Span.Start <= s.ReplaceBody.End && s.ReplaceBody.Start <= b.Span.End {
				inside = true
				break
			}
		}
		if inside {
			continue
		}
		fence := s.SearchMarker
		return &Problem{
			Kind: KindMalformed, Severity: SeverityError, Span: fence,
			Message: fmt.Sprintf("the patch mixes formats: it was read as %s (%s), but line %d opens a code block for %s, which would be dropped",
				patch.Format.Name, patch.Format.Reason, strings.Count(text[:fence.Start], "\n")+1, s.Path),
			Hint: "apply each part on its own (split the answer), or pass --format to read one format and leave the rest",
		}
	}
	return nil
}

// outsidePath reports whether a path, as written, may leave the
// workspace: it is absolute (a drive letter or a UNC name too), or climbs
// with "..".
func outsidePath(p string) bool {
	q := strings.ReplaceAll(p, "\\", "/")
	return strings.HasPrefix(q, "/") || strings.HasPrefix(q, "~") || len(q) > 1 && q[1] == ':' ||
		q == ".." || strings.HasPrefix(q, "../") || strings.Contains(q, "/../")
}

package core

import (
	"strings"
	"unicode"
)

// marker is the kind of a delimiter line of dialects 1-4.
type marker int

const (
	markNone marker = iota
	markSearch
	markDivider
	markReplace
	markNewFileOpen
	markNewFileClose
)

// runOf returns how many times c repeats at the start of s.
func runOf(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

// markerOf recognizes a delimiter line after trimming (docs/ARCHITECTURE.md
// "Rules for dialects 1-5"): 5 to 9 marker characters, then the keyword.
// Written by hand because it runs on every line of every patch on every
// keystroke in the editor, and a regexp would cost several times more.
func markerOf(raw string) marker {
	// The three markers as models write nearly all of them, whole: the
	// trims and the count below showed in Parse, run on each marker line
	// by three of its passes (BenchmarkW1).
	switch raw {
	case "<<<<<<< SEARCH":
		return markSearch
	case "=======":
		return markDivider
	case ">>>>>>> REPLACE":
		return markReplace
	}
	if c, ok := leadByte(raw); ok && !markerByte(c) {
		return markNone
	}
	s := strings.TrimSpace(raw)
	if len(s) < 5 {
		return markNone
	}
	c := s[0]
	if c == '-' || c == '+' {
		return clineMarker(s)
	}
	if c != '<' && c != '=' && c != '>' {
		return markNone
	}
	n := runOf(s, c)
	if n < 5 || n > 9 {
		return markNone
	}
	rest := strings.TrimSpace(s[n:])
	switch c {
	case '=':
		if rest == "" {
			return markDivider
		}
	case '<':
		switch rest {
		case "SEARCH", "SEARCH>":
			return markSearch
		case "NEW_FILE":
			return markNewFileOpen
		}
	case '>':
		switch rest {
		case "REPLACE":
			return markReplace
		case "NEW_FILE":
			return markNewFileClose
		}
	}
	return markNone
}

// unescapeBody removes one backslash from a body line that is a backslash
// followed by a delimiter line: "\=======" is the literal "=======",
// "\\=======" is "\=======" (docs/ARCHITECTURE.md "Fine print"). In a block opened by
// Cline's marker the delimiters include Cline's shorter and longer ones.
// Roo Code's escapes are read too (see rooEscaped).
func unescapeBody(raw string, cline bool) string {
	if c, ok := leadByte(raw); ok && c != '\\' {
		return raw
	}
	t := strings.TrimSpace(raw)
	if !strings.HasPrefix(t, `\`) {
		return raw
	}
	if t = strings.TrimLeft(t, `\`); markerIn(t, cline) == markNone && !rooEscaped(t) {
		return raw
	}
	i := strings.IndexByte(raw, '\\')
	return raw[:i] + raw[i+1:]
}

// EscapeBody escapes the lines of body (LF text) so that, written as a
// body of a block of dialect d between its markers, core.Parse reads back
// exactly body: unescapeBody is its inverse. A line gets one more leading
// backslash (after its indentation) when the parser would otherwise read
// it as something else: a delimiter line of the block (Cline's 3+
// character markers in a Cline block), a line that already starts with
// backslashes before a marker or one of Roo Code's escapable lines (the
// parser would drop one), a line hint (":start_line:"), or a first line
// "-------" (Roo's separator after the hints). Other lines are left as
// they are. The quick fixes of the language server write bodies with it.
func EscapeBody(body string, d Dialect) string {
	cline := d == DialectCline
	lines := strings.SplitAfter(body, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		u := strings.TrimLeft(t, `\`)
		if markerIn(u, cline) == markNone && !isLineHint(u) && !(u != t && rooEscaped(u)) && !(i == 0 && u == "-------") {
			continue
		}
		rest := strings.TrimLeftFunc(l, unicode.IsSpace)
		lines[i] = l[:len(l)-len(rest)] + `\` + rest
	}
	return strings.Join(lines, "")
}

// fence describes a fence line outside bodies: a backtick fence of any
// length with an optional language, or one of aider's HTML-like fences.
type fence struct {
	open  bool   // an opening fence (a backtick fence opens or closes by context)
	close bool   // a closing tag or a bare backtick fence
	ticks int    // backtick count, 0 for tag fences
	lang  string // the info string or the language after the tag
}

var tagFences = []string{"source", "code", "pre", "codeblock", "sourcecode",
	// Cline's and Roo Code's tool-call tags around their blocks (dialect 5).
	"diff", "apply_diff", "replace_in_file"}

// fenceOf recognizes a fence line, or returns ok=false.
func fenceOf(raw string) (f fence, ok bool) {
	if c, known := leadByte(raw); known && c != '`' && c != '<' {
		return fence{}, false
	}
	s := strings.TrimSpace(raw)
	if n := runOf(s, '`'); n >= 3 {
		info := strings.TrimSpace(s[n:])
		if strings.ContainsRune(info, '`') {
			return fence{}, false
		}
		return fence{open: true, close: info == "", ticks: n, lang: info}, true
	}
	if len(s) < 3 || s[0] != '<' {
		return fence{}, false
	}
	// Compared in place: building "</"+tag+">" for each tag cost a fifth
	// of a Parse that looks at every marker line (BenchmarkParseSnippets).
	closing := s[1] == '/'
	name := s[1:]
	if closing {
		name = s[2:]
	}
	for _, tag := range tagFences {
		if len(name) <= len(tag) || name[:len(tag)] != tag || name[len(tag)] != '>' {
			continue
		}
		if closing {
			if len(name) == len(tag)+1 {
				return fence{close: true}, true
			}
			continue
		}
		lang := strings.TrimSpace(name[len(tag)+1:])
		if strings.ContainsAny(lang, " <>") {
			return fence{}, false
		}
		return fence{open: true, lang: lang}, true
	}
	return fence{}, false
}

// OpensFence reports whether line is a fence that may open a code block
// around a block: backticks (with or without an info string) or one of
// the tags the parser skips (aider's <source>, <code>…, Cline's and Roo's
// <diff>, <apply_diff>, <replace_in_file>).
func OpensFence(line string) bool {
	f, ok := fenceOf(line)
	return ok && f.open
}

// shellLang reports the fence languages of command blocks in chat answers:
// listed, never run (docs/ARCHITECTURE.md "Dialects", 4). This and the
// other small sets of words are switches, not maps: a map literal is built
// in every process at start, a switch is code.
func shellLang(lang string) bool {
	switch lang {
	case "bash", "sh", "shell", "zsh", "fish",
		"console", "terminal", "shell-session", "shellsession",
		"powershell", "pwsh", "ps1", "ps", "bat", "cmd", "batch":
		return true
	}
	return false
}

// headerPath strips a candidate header line of markdown and reports the path
// it names. A header (docs/ARCHITECTURE.md "Fine print") is a line that, stripped, has
// no whitespace and contains "/" or ".", or carries a File:/Filename:
// prefix, or names a file that exists in the root.
func headerPath(raw string, exists func(string) bool) (path string, ok bool) {
	s := strings.TrimSpace(strings.TrimPrefix(raw, "\uFEFF")) // a patch file saved with a BOM
	if barePath(s) {
		return s, true
	}
	return headerPathOf(s, exists)
}

// headerPathOf is headerPath on the line trimmed.
func headerPathOf(s string, exists func(string) bool) (path string, ok bool) {
	if s == "" || markerOf(s) != markNone {
		return "", false
	}
	if _, isFence := fenceOf(s); isFence {
		return "", false
	}
	if p, ok := xmlPath(s); ok {
		return p, true
	}
	prefixed := false
	for {
		before := s
		s = strings.TrimLeft(s, "#")
		s = strings.TrimSpace(s)
		s = trimPair(s, "**", true)
		s = trimPair(s, "__", false)
		s = trimPair(s, "`", true)
		s = trimPair(s, `"`, true)
		s = trimPair(s, "'", true)
		s = trimPair(s, "*", true)
		for _, p := range []string{"file:", "filename:", "filepath:", "path:"} {
			if len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
				s = strings.TrimSpace(s[len(p):])
				prefixed = true
			}
		}
		s = strings.TrimSuffix(s, ":")
		s = strings.TrimSpace(s)
		if s == before {
			break
		}
	}
	s = strings.TrimPrefix(s, "./")
	if s == "" || strings.HasPrefix(s, "<") || strings.HasSuffix(s, "/") {
		return "", false
	}
	hasSpace := strings.ContainsAny(s, " \t")
	switch {
	case prefixed:
		return s, true
	case hasSpace:
		// Prose, unless it names a file that exists ("my notes.txt"):
		// docs/ARCHITECTURE.md "Fine print": "or names a file that exists in
		// the root". Only
		// path-like lines are looked up: an editor asks on every keystroke.
		if plainExtension(s) && exists != nil && exists(s) {
			return s, true
		}
		return "", false
	case strings.Contains(s, "/") || hasExtension(s):
		return s, true
	case exists != nil && exists(s):
		return s, true
	}
	return "", false
}

// fileName reads a header line that names a file without an extension by
// the conventions such files follow: a name ending in "file" (Makefile,
// Dockerfile, Procfile, Gemfile, Jenkinsfile) or an upper-case word
// (LICENSE, CODEOWNERS, NOTICE), markdown stripped as headerPath strips
// it. Such a line is a header when the file exists (headerPath asks) or
// when the block creates it: a prose word above a block ("Done") never
// reads as one.
func fileName(raw string) (string, bool) {
	s, ok := headerPathOf(strings.TrimSpace(raw), func(string) bool { return true })
	if !ok || strings.ContainsAny(s, "/. \t") || len(s) < 4 {
		return "", false
	}
	upper, letters := true, true
	for i := 0; i < len(s); i++ {
		c := s[i]
		upper = upper && (c >= 'A' && c <= 'Z' || c == '_' || c == '-' || c >= '0' && c <= '9' && i > 0)
		letters = letters && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '-')
	}
	switch {
	case upper && s[0] >= 'A' && s[0] <= 'Z':
		return s, true
	case letters && len(s) > len("file") && strings.HasSuffix(s, "file"):
		return s, true
	}
	return "", false
}

// prosePath finds the one path that a prose line names in backticks
// ("In `src/util.py`, change:"): at and n are its offset and length in
// line. A span in backticks is a path when it names a file that exists,
// or reads as a path in a folder with an extension (src/new.py); a dotted
// name without a folder ("config.DEBUG") is code unless such a file
// exists. Of several paths only one that exists counts. No path, or two,
// is no answer.
func prosePath(line string, exists func(string) bool) (at, n int, ok bool) {
	var pb, eb [2]proseSpan
	paths, existing := prosePaths(line, exists, pb[:0], eb[:0])
	switch {
	case len(paths) == 1:
		return paths[0].at, paths[0].n, true
	case len(existing) == 1:
		return existing[0].at, existing[0].n, true
	}
	return 0, 0, false
}

// proseSpan is a path in a prose line: its offset and length.
type proseSpan struct{ at, n int }

// prosePaths appends to paths the spans in backticks of a prose line that
// are paths (see prosePath), and to existing those of them that name
// files that exist.
func prosePaths(line string, exists func(string) bool, paths, existing []proseSpan) ([]proseSpan, []proseSpan) {
	for i := 0; i < len(line); {
		open := strings.IndexByte(line[i:], '`')
		if open < 0 {
			break
		}
		open += i + 1
		end := strings.IndexByte(line[open:], '`')
		if end < 0 {
			break
		}
		s, at := line[open:open+end], open
		i = open + end + 1
		if strings.HasPrefix(s, "./") {
			s, at = s[2:], at+2
		}
		there := exists != nil && s != "" && !strings.ContainsAny(s, " \t") && exists(s)
		slash := strings.LastIndexByte(s, '/')
		if !there && (slash < 0 || !barePath(s) || !hasExtension(s[slash+1:])) {
			continue // `os.path`, `config.DEBUG`: names in code, not files
		}
		paths = append(paths, proseSpan{at, len(s)})
		if there {
			existing = append(existing, proseSpan{at, len(s)})
		}
	}
	return paths, existing
}

// barePath reports a header line that is a path and nothing else
// ("pkg/mod00.py"), as nearly every header is: letters, digits and
// "._/-" only, a "/" or an extension, not led by "-" or "./" (a marker,
// a prefix headerPath strips), not wrapped in "__" and not ending in "/".
// headerPath's loop of trims returns such a line unchanged, and cost a
// visible share of Parse (BenchmarkW1).
func barePath(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '/' || strings.HasPrefix(s, "./") ||
		strings.HasPrefix(s, "__") && strings.HasSuffix(s, "__") {
		return false
	}
	slash := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '_', c == '-':
		case c == '/':
			slash = true
		default:
			return false
		}
	}
	return slash || hasExtension(s)
}

// trimPair removes a wrapper from both ends ("**path**:", "`path`"). Where
// loose is set, a lone wrapper at either end goes too; underscores need a
// pair, or "__init__.py" would lose its own.
func trimPair(s, w string, loose bool) string {
	inner := strings.TrimSuffix(s, ":")
	switch {
	case len(inner) > 2*len(w) && strings.HasPrefix(inner, w) && strings.HasSuffix(inner, w):
		return strings.TrimSpace(inner[len(w) : len(inner)-len(w)])
	case loose && strings.HasPrefix(s, w):
		return strings.TrimSpace(s[len(w):])
	case loose && strings.HasSuffix(inner, w):
		return strings.TrimSpace(inner[:len(inner)-len(w)])
	}
	return s
}

// plainExtension reports whether s ends in a file extension of letters
// and digits ("my notes.txt"), not in a sentence's full stop.
func plainExtension(s string) bool {
	i := strings.LastIndexByte(s, '.')
	if i < 0 || i == len(s)-1 || len(s)-i > 11 {
		return false
	}
	for _, c := range s[i+1:] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// hasExtension reports a dot with something after it: "app.py", ".env",
// but not the one-word sentence "Done." right above a block.
func hasExtension(s string) bool {
	i := strings.LastIndexByte(s, '.')
	return i >= 0 && i < len(s)-1
}

// eightSpaces returns the offset past s's leading spaces taken in whole
// runs of eight, one 8-byte compare a run, for the loops of leadByte and
// splitBlank that take the rest byte by byte (code lines often start with
// 8 spaces or more, and each line is asked several times; BenchmarkW1).
// Written so that the compiler inlines it (load64's form did not fit the
// budget): these run on every line of every patch.
func eightSpaces(s string) int {
	i := 0
	for i+8 <= len(s) && s[i:i+8] == "        " { // one 8-byte compare
		i += 8
	}
	return i
}

// markerByte reports whether a line whose first non-blank byte is c may
// be a marker of any dialect: "<", "=", ">", and Cline's "-" and "+".
func markerByte(c byte) bool {
	return c == '<' || c == '=' || c == '>' || c == '-' || c == '+'
}

// markerOrEscapeByte is markerByte, or the "\" of an escaped body line.
func markerOrEscapeByte(c byte) bool { return markerByte(c) || c == '\\' }

// leadByte returns the first byte of raw that is not ASCII white space,
// 0 when there is none (a blank line), and ok=false when that byte starts
// a multi-byte character (which may be white space strings.TrimSpace
// removes). The line tests above ask it first: every line of a patch goes
// through several of them, and trimming each line first showed in
// BenchmarkW1.
func leadByte(raw string) (c byte, ok bool) {
	for i := eightSpaces(raw); i < len(raw); i++ {
		switch c := raw[i]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f':
		case c >= 0x80:
			return 0, false
		default:
			return c, true
		}
	}
	return 0, true
}

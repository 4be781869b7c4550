package treesitter

import (
	"bytes"
	"context"
	"sort"
	"time"
)

// Statement windows. A definition window (window.go) of a Python method
// costs parsing its whole method, for an edit that usually changes one or
// two of its lines: over many blocks that was more than the rest of a CLI
// run (BenchmarkSyntaxCheckStatementWindows, BenchmarkSyntaxProblemsW1).
// A clean edit needs less
// proof: the lines it changed, extended to whole statements, cut out and
// dedented. In a language whose statements are items of a file (Python:
// a run of statements dedented is a module), a run of whole statements
// that parses cleanly, put where a run of whole statements stood, keeps
// the block around it as it was.
//
// "Whole statements" is decided by a lexer of the language (brackets,
// strings, comments, continued lines, the clauses that continue a
// statement such as else and except), run over the definition window in
// both texts, from its first line (the boundary window.go trusts): the
// statement window starts and ends at lines that begin a logical line at
// its indentation, in the text before the edit and after it alike. A
// statement window only ever says "clean": when one has an error, or
// cannot be formed, the definition window decides as before, so every
// error reported comes from the same parses as without them.

// statementWindows switches statement windows on; tests compare with them
// off.
var statementWindows = true

// lineInfo is one line of a window as a statement lexer sees it.
type lineInfo struct {
	start  int // offset in the text
	indent int // bytes of leading blanks
	// neutral: the line starts a logical line (outside any bracket,
	// string or continued line).
	neutral bool
	blank   bool // nothing but blanks or a comment (neutral lines only)
	clause  bool // starts with a keyword that continues the statement above
	deco    bool // a decorator: the statement goes on below
	colon   bool // ends with ':' (a block header whose body follows)
	tab     bool // its indentation holds a tab
	eof     bool // the end of the text, not a line
}

// stmtLexer returns the lines of text from start (a line start, outside
// any bracket or string) one at a time, up to and including the line that
// starts at or after end, or to the end of the text, where it gives an eof
// line. Lines are lexed as they are asked for: a window's statements are
// usually found long before its end.
type stmtLexer func(text []byte, start, end int) func() (lineInfo, bool)

// pyLexer is Python's stmtLexer. It is conservative: what it cannot follow
// (an unterminated string, a closing bracket too many) makes every later
// line non-neutral, which only sends the check to the definition window.
func pyLexer(text []byte, start, end int) func() (lineInfo, bool) {
	depth, quote, triple, cont, lost := 0, byte(0), false, false, false
	i, done := start, false
	return func() (lineInfo, bool) {
		if done {
			return lineInfo{}, false
		}
		if i >= len(text) {
			done = true
			return lineInfo{start: len(text), neutral: !lost && depth == 0 && quote == 0 && !cont, eof: true}, true
		}
		le := lineEnd(text, i)
		ind, blank := indentIn(text, i, le)
		li := lineInfo{start: i, indent: ind, neutral: !lost && depth == 0 && quote == 0 && !cont}
		li.tab = bytes.IndexByte(text[i:i+ind], '\t') >= 0
		if li.neutral {
			rest := text[i+ind : blankEnd(text, i+ind, le)]
			li.blank = blank || len(rest) == 0 || rest[0] == '#'
			li.clause = !li.blank && pyClause(rest)
			li.deco = !li.blank && rest[0] == '@'
		}
		cont = false
		code := le // where a comment starts
	scan:
		for j := i; j < le; j++ {
			c := text[j]
			if quote != 0 {
				switch {
				case c == '\\':
					j++
				case c == quote && !triple:
					quote = 0
				case c == quote && j+2 < le && text[j+1] == quote && text[j+2] == quote:
					quote, j = 0, j+2
				}
				continue
			}
			// Most bytes of code change nothing here: one table look
			// passes them (a switch on every byte was most of the
			// lexer's time, BenchmarkSyntaxProblemsW1).
			if !pyLexByte[c] {
				continue
			}
			switch c {
			case '#':
				code = j
				break scan
			case '"', '\'':
				triple = j+2 < le && text[j+1] == c && text[j+2] == c
				if triple {
					j += 2
				}
				quote = c
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				if depth--; depth < 0 {
					lost = true
				}
			case '\\':
				if j+1 == le || j+2 == le && text[j+1] == '\r' {
					cont = true
				}
			}
		}
		if quote != 0 && !triple {
			lost = true // a string left open at the end of its line
		}
		// A block header ends with ':' outside strings and comments. With
		// no string open at the end, the last non-blank byte before a
		// comment is code or a string's closing quote.
		code = blankEnd(text, i, code)
		li.colon = quote == 0 && code > i && text[code-1] == ':'
		if i >= end {
			done = true
		}
		i = nextLine(text, i)
		return li, true
	}
}

// blankEnd returns where text[from:to] ends without its trailing blanks
// (bytes.TrimRight builds its set of bytes at every call, a visible share
// of the lexer in BenchmarkSyntaxProblemsW1).
func blankEnd(text []byte, from, to int) int {
	for to > from && (text[to-1] == ' ' || text[to-1] == '\t' || text[to-1] == '\r') {
		to--
	}
	return to
}

// pyLexByte marks the bytes that change the lexer's state outside strings.
var pyLexByte = [256]bool{'#': true, '"': true, '\'': true, '(': true, '[': true, '{': true, ')': true, ']': true, '}': true, '\\': true}

// lexedLines holds the lines a stmtLexer gave so far.
type lexedLines struct {
	next func() (lineInfo, bool)
	ls   []lineInfo
	done bool
}

func newLines(lex stmtLexer, text []byte, start, end int) *lexedLines {
	return &lexedLines{next: lex(text, start, end)}
}

// has reports whether line j exists, lexing up to it.
func (l *lexedLines) has(j int) bool {
	for len(l.ls) <= j && !l.done {
		li, ok := l.next()
		if !ok {
			l.done = true
			break
		}
		l.ls = append(l.ls, li)
	}
	return j < len(l.ls)
}

// at returns the index of the line that starts at off.
func (l *lexedLines) at(off int) (int, bool) {
	for (len(l.ls) == 0 || l.ls[len(l.ls)-1].start < off) && l.has(len(l.ls)) {
	}
	i := sort.Search(len(l.ls), func(i int) bool { return l.ls[i].start >= off })
	return i, i < len(l.ls) && l.ls[i].start == off
}

// pyLines lexes every line, for tests.
func pyLines(text []byte, start, end int) []lineInfo {
	l := newLines(pyLexer, text, start, end)
	for l.has(len(l.ls)) {
	}
	return l.ls
}

// pyClause reports whether a logical line continues the compound statement
// above it rather than starting one.
func pyClause(line []byte) bool {
	for _, kw := range [...]string{"else", "elif", "except", "finally", "case"} {
		if bytes.HasPrefix(line, []byte(kw)) {
			rest := line[len(kw):]
			if len(rest) == 0 || !isIdent(rest[0]) {
				return true
			}
		}
	}
	return false
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// stmtSpan is a statement window: lines [aStart, aEnd) of after, with the
// indentation they share.
type stmtSpan struct{ aStart, aEnd, indent int }

// statementWindowsClean reports whether statement windows show every edit
// of the definition window w clean. false means "not shown": the
// definition window decides.
func statementWindowsClean(ctx context.Context, timeout time.Duration, lang *Language, before, after []byte, w window) bool {
	if lang.stmtLines == nil {
		return false
	}
	al := newLines(lang.stmtLines, after, w.aStart, w.aEnd)
	bl := newLines(lang.stmtLines, before, w.bStart, w.bEnd)
	regions := make([]editRegion, 0, len(w.regions))
	for _, r := range w.regions {
		if r = narrowRegion(before, after, r); (r.aStart < r.aEnd || r.bStart < r.bEnd) && !alikeRegion(lang, al, bl, before, after, r) {
			regions = append(regions, r)
		}
	}
	spans := make([]stmtSpan, 0, len(regions))
	for i, r := range regions {
		lo, hi := w.aStart, w.aEnd
		if i > 0 {
			lo = regions[i-1].aEnd
		}
		if i+1 < len(regions) {
			hi = regions[i+1].aStart
		}
		s, ok := statementWindow(al, bl, r, lo, hi)
		if !ok {
			return false
		}
		spans = append(spans, s)
	}
	for _, s := range spans {
		text, _ := dedent(after, s.aStart, s.aEnd, s.indent)
		t, err := lang.parse(ctx, timeout, nil, text)
		if err != nil {
			return false
		}
		clean := !t.RootNode().HasError()
		t.Close()
		if !clean {
			return false
		}
	}
	return true
}

// alikeRegion reports whether region r's new lines keep the tokens of
// its old ones (stmtalike.go): whole lines in both texts, starting where
// the statement lexer is outside any bracket, string or continued line.
// Then the lexer's state after them is the same too, and so is all that
// follows.
func alikeRegion(lang *Language, al, bl *lexedLines, before, after []byte, r editRegion) bool {
	if lang.stmtAlike == nil || !wholeLines(after, r.aStart, r.aEnd) || !wholeLines(before, r.bStart, r.bEnd) {
		return false
	}
	ia, ok := al.at(r.aStart)
	if !ok || !al.ls[ia].neutral {
		return false
	}
	ib, ok := bl.at(r.bStart)
	if !ok || !bl.ls[ib].neutral {
		return false
	}
	return lang.stmtAlike(after[r.aStart:r.aEnd], before[r.bStart:r.bEnd])
}

// wholeLines reports whether text[s:e] is a run of whole lines.
func wholeLines(text []byte, s, e int) bool {
	return s < e && (s == 0 || text[s-1] == '\n') && (e == len(text) || text[e-1] == '\n')
}

// narrowRegion drops the whole lines that an edited region leaves as they
// were at its start and at its end (a block's REPLACE repeats most of its
// SEARCH).
func narrowRegion(before, after []byte, r editRegion) editRegion {
	for r.aStart < r.aEnd && r.bStart < r.bEnd {
		a := bytes.IndexByte(after[r.aStart:r.aEnd], '\n')
		b := bytes.IndexByte(before[r.bStart:r.bEnd], '\n')
		if a < 0 || a != b || !bytes.Equal(after[r.aStart:r.aStart+a+1], before[r.bStart:r.bStart+b+1]) {
			break
		}
		r.aStart, r.bStart = r.aStart+a+1, r.bStart+b+1
	}
	for r.aStart < r.aEnd && r.bStart < r.bEnd && after[r.aEnd-1] == '\n' && before[r.bEnd-1] == '\n' {
		a := bytes.LastIndexByte(after[r.aStart:r.aEnd-1], '\n') + 1 + r.aStart
		b := bytes.LastIndexByte(before[r.bStart:r.bEnd-1], '\n') + 1 + r.bStart
		if !bytes.Equal(after[a:r.aEnd], before[b:r.bEnd]) {
			break
		}
		r.aEnd, r.bEnd = a, b
	}
	return r
}

// statementWindow returns the statement window of region r (narrowed), a
// window that must stay within [lo, hi) of after (the neighbouring
// regions): it starts at r's first line and ends at the first line below r
// that starts a statement at r's indentation or closes its block, in both
// texts at the same distance from r.
func statementWindow(al, bl *lexedLines, r editRegion, lo, hi int) (stmtSpan, bool) {
	ia, ok := al.at(r.aStart)
	if !ok || r.aStart < lo {
		return stmtSpan{}, false
	}
	ib, ok := bl.at(r.bStart)
	if !ok {
		return stmtSpan{}, false
	}
	// The first statement of the new lines sets the indentation; the old
	// lines, if any, must have started at the same place and level.
	least, ok := regionLevel(al, ia, r.aEnd)
	if !ok || least < 0 {
		return stmtSpan{}, false // no statement: a block may be left empty
	}
	if lvl, ok := regionLevel(bl, ib, r.bEnd); !ok || lvl >= 0 && lvl != least {
		return stmtSpan{}, false
	}
	if !topBoundary(al, ia, least) || !topBoundary(bl, ib, least) {
		return stmtSpan{}, false
	}
	ea, ok := al.at(r.aEnd)
	if !ok {
		return stmtSpan{}, false
	}
	eb, ok := bl.at(r.bEnd)
	if !ok {
		return stmtSpan{}, false
	}
	aEnd, ok := bottomBoundary(al, ia, ea, least, hi)
	if !ok {
		return stmtSpan{}, false
	}
	bEnd, ok := bottomBoundary(bl, ib, eb, least, -1)
	if !ok || aEnd-r.aEnd != bEnd-r.bEnd {
		return stmtSpan{}, false
	}
	for _, l := range al.ls[ia:] {
		if l.start >= aEnd {
			break
		}
		if l.tab {
			return stmtSpan{}, false // tabs and spaces: Python counts columns, dedent counts bytes
		}
	}
	return stmtSpan{aStart: r.aStart, aEnd: aEnd, indent: least}, true
}

// regionLevel checks the lines of a region, from line i to offset end: the
// first must start a logical line, and every logical line that holds a
// statement must be indented at least as much as the first such line,
// whose indentation it returns (-1 for none), and must not be a clause.
func regionLevel(ls *lexedLines, i, end int) (int, bool) {
	if l := ls.ls[i]; !l.eof && l.start < end && !l.neutral {
		return 0, false
	}
	level := -1
	for ; ls.has(i) && !ls.ls[i].eof && ls.ls[i].start < end; i++ {
		l := ls.ls[i]
		if !l.neutral || l.blank {
			continue
		}
		if level < 0 {
			if l.clause {
				return 0, false
			}
			level = l.indent
			continue
		}
		if l.indent < level {
			return 0, false
		}
	}
	return level, true
}

// topBoundary reports whether line i can start a run of statements at
// level: it starts a logical line, and the statement above it neither
// decorates it nor opens a block it would have to be the body of.
func topBoundary(ls *lexedLines, i, level int) bool {
	if !ls.ls[i].neutral {
		return false
	}
	for j := i - 1; j >= 0; j-- {
		p := ls.ls[j]
		if p.neutral && p.blank {
			continue
		}
		if p.neutral && p.deco {
			return false
		}
		if p.colon && p.indent >= level {
			return false
		}
		return true
	}
	return true
}

// bottomBoundary returns where the statements of a region end: the first
// line from e on that starts a logical line and either is indented less
// than level or, at level, starts a new statement (not a clause, not
// below a decorator). It fails past hi (when hi >= 0) or at the last line
// lexed, which lies outside the definition window.
func bottomBoundary(ls *lexedLines, first, e, level, hi int) (int, bool) {
	deco := false
	for j := e - 1; j >= first; j-- {
		if l := ls.ls[j]; l.neutral && !l.blank {
			deco = l.deco
			break
		}
	}
	for j := e; ls.has(j); j++ {
		l := ls.ls[j]
		if hi >= 0 && l.start > hi {
			return 0, false
		}
		if l.eof {
			return l.start, l.neutral
		}
		if l.neutral && !l.blank {
			if l.indent < level || l.indent == level && !l.clause && !deco {
				return l.start, true
			}
			deco = l.deco
		}
		if !ls.has(j + 1) {
			return 0, false
		}
	}
	return 0, false
}

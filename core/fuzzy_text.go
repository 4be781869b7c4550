package core

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text rules of the fuzzy ladder (docs/ARCHITECTURE.md "Matching"): what typography
// normalization maps, what a copied line-number prefix looks like, what an
// elision line is, and what a word is for partial lines.

// typoRune maps the typographic characters of rung 3 to ASCII: curly
// quotes, dashes, non-breaking and other fixed-width spaces, the ellipsis,
// and zero-width characters (to nothing). ok is false for any other rune.
func typoRune(r rune) (repl string, ok bool) {
	switch r {
	case '\u2018', '\u2019', '\u201A', '\u201B', '\u2032', '\u02BC':
		return "'", true
	case '\u201C', '\u201D', '\u201E', '\u201F', '\u2033':
		return `"`, true
	case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
		return "-", true
	case '\u00A0', '\u2002', '\u2003', '\u2004', '\u2005', '\u2006', '\u2007', '\u2008', '\u2009', '\u200A', '\u202F', '\u205F', '\u3000':
		return " ", true
	case '\u2026':
		return "...", true
	case '\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u00AD':
		return "", true
	}
	return "", false
}

// hasNonASCII reports whether s holds a byte of 0x80 or more.
func hasNonASCII(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if (s[i]|s[i+1]|s[i+2]|s[i+3]|s[i+4]|s[i+5]|s[i+6]|s[i+7])&0x80 != 0 {
			return true
		}
	}
	for ; i < len(s); i++ {
		if s[i]&0x80 != 0 {
			return true
		}
	}
	return false
}

// normTypo returns s with typography normalized (see typoRune). It never
// adds or removes a line break, so line k of the result is line k of s.
// ASCII text comes back as is, without copying.
func normTypo(s string) string {
	if !hasNonASCII(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0 // s[last:i] is still to copy
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if repl, ok := typoRune(r); ok {
			b.WriteString(s[last:i])
			b.WriteString(repl)
			last = i + size
		}
		i += size
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// NormalizeTypography maps the typography a model tends to "improve"
// (curly quotes, dashes, fixed-width spaces, the ellipsis, zero-width
// characters) to ASCII, as the fuzzy ladder's typography rung compares
// text: two texts that differ only in typography normalize the same.
func NormalizeTypography(s string) string { return normTypo(s) }

// normTypoMap is normTypo for one line, with where each byte of the result
// comes from: pos[i] is the offset in line of the character that byte i
// belongs to, and pos[len(result)] is len(line).
func normTypoMap(line string) (string, []int) {
	var b strings.Builder
	pos := make([]int, 0, len(line)+1)
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		repl, ok := typoRune(r)
		if !ok {
			repl = line[i : i+size]
		}
		b.WriteString(repl)
		for range len(repl) {
			pos = append(pos, i)
		}
		i += size
	}
	return b.String(), append(pos, len(line))
}

// numStyle is a kind of line-number prefix that a model copied from a file
// viewer along with the text (rung 4).
type numStyle int

const (
	numNone  numStyle = iota
	numHash           // "12:a3f|text": hashline anchors
	numPipe           // "  12 | text": editors, fsrb's own listings; "   | text" on some or all lines
	numArrow          // "    12→text": Claude Code's Read tool
	numTab            // "    12\ttext": cat -n
	numColon          // "12:text": grep -n
)

// numPrefix parses a line-number prefix of style st at the start of l and
// returns the number and the text after it. A bare "| " prefix (a viewer's
// gutter without a number, or a continuation line) is of style numPipe,
// with n = 0.
func numPrefix(l string, st numStyle) (n int, rest string, ok bool) {
	i := 0
	for i < len(l) && l[i] == ' ' {
		i++
	}
	d := i
	for i < len(l) && l[i] >= '0' && l[i] <= '9' && i-d < 9 {
		n = n*10 + int(l[i]-'0')
		i++
	}
	if i == d {
		// Roo Code strips "| " alone too; "||" is an operator, not a gutter.
		if st == numPipe && i < len(l) && l[i] == '|' && (i+1 == len(l) || l[i+1] == ' ') {
			return 0, strings.TrimPrefix(l[i+1:], " "), true
		}
		return 0, "", false
	}
	switch st {
	case numHash:
		if i >= len(l) || l[i] != ':' {
			return 0, "", false
		}
		h := i + 1
		for h < len(l) && h-i <= 16 && isHexDigit(l[h]) {
			h++
		}
		if h-(i+1) < 2 || h >= len(l) || l[h] != '|' {
			return 0, "", false
		}
		return n, l[h+1:], true
	case numPipe:
		j := i
		for j < len(l) && l[j] == ' ' {
			j++
		}
		if j >= len(l) || l[j] != '|' {
			return 0, "", false
		}
		rest = l[j+1:]
		return n, strings.TrimPrefix(rest, " "), true
	case numArrow:
		if !strings.HasPrefix(l[i:], "→") {
			return 0, "", false
		}
		return n, l[i+len("→"):], true
	case numTab:
		if i >= len(l) || l[i] != '\t' {
			return 0, "", false
		}
		return n, l[i+1:], true
	case numColon:
		if i >= len(l) || l[i] != ':' {
			return 0, "", false
		}
		return n, l[i+1:], true
	}
	return 0, "", false
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// detectNumbers finds the line-number style that every non-blank line of
// lines carries, numbered consecutively (a blank line may lack its number;
// an elision line may too, and the numbers may jump over it). In the pipe
// style a line may carry a bare "| " instead (numbers on only some lines,
// or none), as long as no line lacks the gutter; lines that all end with
// "|" too are a Markdown table, not a gutter. It returns numNone when there
// is none.
func detectNumbers(lines []string) numStyle {
	for _, st := range [...]numStyle{numHash, numPipe, numArrow, numTab, numColon} {
		prev, prevAt, elided, ok := -1, 0, false, true
		bare, table := false, true
		for i, l := range lines {
			n, _, has := numPrefix(l, st)
			if has && st == numPipe && !isBlank(l) {
				table = table && strings.HasSuffix(strings.TrimSpace(l), "|")
			}
			if has && st == numPipe && n == 0 {
				bare = true
				continue
			}
			if !has {
				if isElision(l) {
					elided = true
					continue
				}
				if isBlank(l) {
					continue
				}
				ok = false
				break
			}
			if prev >= 0 && (!elided && n != prev+i-prevAt || elided && n <= prev) {
				ok = false
				break
			}
			prev, prevAt, elided = n, i, false
		}
		if ok && (prev >= 0 || bare && !table) {
			return st
		}
	}
	return numNone
}

// stripNumbers removes the prefixes of style st from the lines that carry
// one.
func stripNumbers(lines []string, st numStyle) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if _, rest, ok := numPrefix(l, st); ok {
			l = rest
		}
		out[i] = l
	}
	return out
}

// isElision reports whether a SEARCH or REPLACE line stands for skipped
// lines (aider's "..."): the line is "..." or "…", or a comment whose text
// starts with one, such as "// ...", "# ... existing code ...",
// "/* ... */" or "<!-- … -->".
func isElision(l string) bool {
	t := strings.TrimSpace(l)
	if t == "..." || t == "…" {
		return true
	}
	comment := false
	for _, open := range [...]string{"<!--", "/*", "//", "--", "#", ";", "%"} {
		if strings.HasPrefix(t, open) {
			t, comment = t[len(open):], true
			break
		}
	}
	if !comment {
		return false
	}
	for _, cl := range [...]string{"-->", "*/"} {
		t = strings.TrimSuffix(t, cl)
	}
	t = strings.TrimSpace(t)
	switch {
	case strings.HasPrefix(t, "..."):
		t = t[3:]
	case strings.HasPrefix(t, "…"):
		t = t[len("…"):]
	default:
		return false
	}
	// What follows may only be words ("existing code", "rest of the
	// function") and dots: no code.
	if len(t) > 60 {
		return false
	}
	for _, r := range t {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == ' ' || r == '.' || r == '…' || r == '\'' || r == '-' || r == ',') {
			return false
		}
	}
	return true
}

// isWordRune reports whether r belongs to a word: a partial line never cuts
// between two of them.
func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// cutsWord reports whether cutting s at offset i splits a word in two.
func cutsWord(s string, i int) bool {
	if i <= 0 || i >= len(s) {
		return false
	}
	before, _ := utf8.DecodeLastRuneInString(s[:i])
	after, _ := utf8.DecodeRuneInString(s[i:])
	return isWordRune(before) && isWordRune(after)
}

// numHint returns the lines that the prefixes of style st say lines
// (SEARCH) sits on: first and last, 1-based; 0, 0 when no line carries a
// number.
func numHint(lines []string, st numStyle) (first, last int) {
	for i, l := range lines {
		if n, _, ok := numPrefix(l, st); ok && n > 0 {
			if first == 0 {
				first = n - i
			}
			last = n + len(lines) - 1 - i
		}
	}
	if first < 1 {
		return 0, 0
	}
	return first, max(first, last)
}

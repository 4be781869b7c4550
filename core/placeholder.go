package core

import (
	"fmt"
	"strings"
)

// Omission placeholders (README.md "Placeholders"). Models write a line
// such as "// ... existing code ..." into new text to stand for code they
// left out; written as is, it deletes that code. A placeholder line that
// neither SEARCH nor the replaced text holds is refused, in every format.
// The forms follow what aider's prompts forbid ("..." and comments like
// "... rest of code...") and what Gemini CLI's edit tool refuses ("(rest of
// methods ...)"), widened to the comment syntaxes of the common languages.

// keepMarker, written after a placeholder line (separated by a space),
// means the line literally: the parser drops the marker and the guard lets
// the line through.
const keepMarker = "fsrb:keep"

// maxPlaceholder bounds the length of a placeholder line: a longer line is
// prose or code.
const maxPlaceholder = 120

// placeholderWord looks a word up in the vocabulary a placeholder is
// written in: a line is one only if every word of it is known. meaning
// marks the words that carry meaning (a line of fillers alone, "// and so
// on", is not one).
func placeholderWord(w string) (meaning, known bool) {
	switch w {
	case // Fillers.
		"the", "of", "a", "an", "is", "are", "as", "in", "this", "that", "these",
		"those", "and", "so", "on", "for", "to", "from", "with", "no", "not", "up",
		"all", "any", "its", "your", "our", "my", "still", "goes", "go", "stays",
		"stay", "remains", "remain", "here", "there", "above", "below", "before",
		"keep", "kept", "left", "out", "else", "as-is":
		return false, true
	case // What is left out, and how it is said to be.
		"rest", "same", "remainder", "remaining", "existing", "other", "others",
		"more", "previous", "original", "everything", "unchanged", "omitted",
		"omit", "elided", "elide", "unmodified", "untouched", "truncated",
		"skipped", "snipped", "abbreviated", "hidden", "intact", "brevity",
		"shown", "etc", "changes", "change", "code", "file", "files", "class",
		"classes", "function", "functions", "method", "methods", "body", "module",
		"component", "components", "logic", "line", "lines", "import", "imports",
		"export", "exports", "test", "tests", "field", "fields", "property",
		"properties", "config", "configuration", "setting", "settings", "style",
		"styles", "rule", "rules", "content", "contents", "text", "section",
		"sections", "definition", "definitions", "case", "cases", "handler",
		"handlers", "route", "routes", "item", "items", "entry", "entries", "key",
		"keys", "value", "values", "member", "members", "prop", "props", "state",
		"helper", "helpers", "hook", "hooks", "html", "css", "markup", "template",
		"script", "element", "elements", "attribute", "attributes", "declaration",
		"declarations", "statement", "statements", "block", "blocks",
		"constructor", "implementation", "implementations", "stuff", "program",
		"package", "struct", "structs", "type", "types", "interface", "variables",
		"dependencies":
		return true, true
	}
	return false, false
}

// strictPlaceholder reports whether words, with no ellipsis around them,
// still say that code is left out: "rest of the file unchanged", "existing
// code", "(omitted for brevity)". Without an ellipsis a section comment
// such as "// Existing methods" is ordinary code.
func strictPlaceholder(words []string) bool {
	for i, w := range words {
		switch w {
		case "unchanged", "omitted", "omit", "elided", "elide", "unmodified", "untouched", "truncated", "snipped", "brevity":
			return true
		case "rest", "remainder":
			if i+1 < len(words) && words[i+1] == "of" {
				return true
			}
		case "existing":
			if i+1 < len(words) && words[i+1] == "code" {
				return true
			}
		case "before":
			if i > 0 && words[i-1] == "as" {
				return true
			}
		}
	}
	return false
}

// omission reports whether line is an omission placeholder: a whole-line
// comment, or a bare line in parentheses or brackets or with an ellipsis
// at an end, that says code is left out ("// ... existing code ...",
// "# rest of the code unchanged", "(rest of methods ...)", "<!-- ... -->"),
// or an ellipsis alone ("...", "/* ... */"). Code never is one: JS's
// spread ("...args") and Go's variadic "..." stand next to code, and a
// comment that is not written only in a placeholder's words ("// TODO",
// "// wait...") is not one.
func omission(line string) bool {
	t := strings.TrimSpace(line)
	if t == "" || len(t) > maxPlaceholder || !mayBePlaceholder(t) {
		return false
	}
	inner, commented := uncomment(t)
	inner, wrapped := unbracket(inner)
	inner, lead, ok := cutLeadingEllipsis(inner)
	if !ok {
		return false
	}
	if lead && !commented && !wrapped && inner != "" && inner[0] != ' ' && inner[0] != '\t' {
		return false // "...args": a spread, not an ellipsis
	}
	inner, trail := cutTrailingEllipsis(inner)
	ellipsis := lead || trail
	if strings.Contains(inner, "...") || strings.Contains(inner, "…") {
		inner = strings.NewReplacer("...", " ", "…", " ").Replace(inner)
		ellipsis = true
	}
	if !commented && !wrapped && !ellipsis {
		return false // prose: "more details below"
	}
	var buf [13]string // a 13th word is one too many: no allocation
	words, ok := fieldsInto(buf[:0], inner)
	if !ok || len(words) > 12 {
		return false
	}
	if len(words) == 0 {
		return ellipsis
	}
	meaning, unknown := false, 0
	for i, w := range words {
		w = strings.ToLower(strings.Trim(w, ",:;!?'\"*-.()[]`"))
		words[i] = w
		if w == "" || allDigits(w) {
			continue
		}
		content, known := placeholderWord(w)
		if !known {
			// One word of the file's own ("page", "query") may name what
			// is left out when the rest says plainly that it is.
			if unknown++; unknown > 1 {
				return false
			}
		}
		meaning = meaning || content
	}
	if ellipsis && unknown == 0 {
		return meaning
	}
	return strictPlaceholder(words)
}

// placeholderLead marks the ASCII bytes a placeholder may start with:
// comment leaders, brackets and dots; placeholderLast the bytes it may end
// with: a dot, the last byte of "…", blanks omission trims, and the "p"
// of keepMarker. 256 entries: a byte indexes them without a bounds check.
var (
	placeholderLead = [256]bool{'/': true, '#': true, '-': true, ';': true, '%': true, '(': true, '[': true, '{': true, '<': true, '.': true}
	placeholderLast = [256]bool{'.': true, 0xA6: true, ' ': true, '\t': true, '\r': true, 'p': true}
)

// mayBePlaceholder is omission's quick test, run on every line of new
// text: a placeholder starts with a comment leader, a bracket or an
// ellipsis, or ends with an ellipsis. It looks at two bytes: trimming every
// line first showed in a validation of many small blocks (BenchmarkW1).
// The SEARCH/REPLACE parser asks the same of each line as it reads it
// (Block.plain).
func mayBePlaceholder(line string) bool {
	c, ascii := leadByte(line)
	return !ascii || c != 0 && (placeholderLead[c] || placeholderLast[line[len(line)-1]])
}

// uncomment strips one whole-line comment's delimiters.
func uncomment(t string) (string, bool) {
	inner, form := uncommentForm(t)
	return inner, form != 0
}

// uncommentForm strips one whole-line comment's delimiters (commentForms)
// and says which form they were, 0 for none.
func uncommentForm(t string) (string, commentSet) {
	for _, c := range commentForms {
		if !strings.HasPrefix(t, c.open) {
			continue
		}
		t = strings.TrimLeft(t[len(c.open):], c.open[len(c.open)-1:]) // "///", "##", ";;", "/**"
		if c.open == "/*" || c.open == "{/*" {
			t = strings.TrimLeft(t, "*")
		}
		if c.close != "" {
			t = strings.TrimSuffix(strings.TrimSpace(t), c.close)
		}
		return strings.TrimSpace(t), c.set
	}
	return t, 0
}

// omissionMarker reports whether line, of a chat answer's code block
// (OpSnippet) whose file has the comment forms comments (commentsOf),
// is an omission marker: a whole-line comment of one of those forms that
// the placeholder guard takes for a placeholder ("// ... existing code
// ...", "# ... rest of code ...", "{/* ... */}", "// ..."). One
// vocabulary serves both, so that what the guard refuses in a REPLACE
// body is what a snippet may leave out. Code is never one: Python's
// "..." statement, JavaScript's spread, Go's variadic "...", nor a
// comment leader the language does not have ("# ..." in JavaScript).
func omissionMarker(line string, comments commentSet) bool {
	if !mayBePlaceholder(line) {
		return false
	}
	t := strings.TrimSpace(line)
	if _, form := uncommentForm(t); form == 0 || comments&form == 0 {
		return false
	}
	return omission(t)
}

// unbracket strips one pair of brackets around the whole text.
func unbracket(t string) (string, bool) {
	if len(t) >= 2 {
		switch t[0:1] + t[len(t)-1:] {
		case "()", "[]", "{}":
			return strings.TrimSpace(t[1 : len(t)-1]), true
		}
	}
	return t, false
}

// cutLeadingEllipsis strips the dots at the start of t: three or more, or
// "…", are an ellipsis (lead); one or two ("..Default") are not, and ok is
// false.
func cutLeadingEllipsis(t string) (rest string, lead, ok bool) {
	dots, i := 0, 0
	for i < len(t) {
		switch {
		case t[i] == '.':
			dots, i = dots+1, i+1
		case strings.HasPrefix(t[i:], "…"):
			dots, i = dots+3, i+len("…")
		default:
			return t[i:], dots >= 3, dots == 0 || dots >= 3
		}
	}
	return "", dots >= 3, dots == 0 || dots >= 3
}

// cutTrailingEllipsis strips the dots at the end of t; three or more, or
// "…", are an ellipsis, one or two end a sentence.
func cutTrailingEllipsis(t string) (string, bool) {
	dots := 0
	for {
		switch {
		case strings.HasSuffix(t, "."):
			dots, t = dots+1, t[:len(t)-1]
		case strings.HasSuffix(t, "…"):
			dots, t = dots+3, t[:len(t)-len("…")]
		default:
			return strings.TrimSpace(t), dots >= 3
		}
	}
}

// fieldsInto is strings.Fields appending to out, up to cap(out) words;
// ok is false when s has more.
func fieldsInto(out []string, s string) (words []string, ok bool) {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 { // a space of Unicode's may split it
			all := strings.Fields(s)
			return append(out, all[:min(len(all), cap(out)-len(out))]...), len(all) <= cap(out)-len(out)
		}
	}
	for i := 0; i < len(s); {
		for i < len(s) && asciiSpace(s[i]) {
			i++
		}
		if i == len(s) {
			break
		}
		j := i
		for j < len(s) && !asciiSpace(s[j]) {
			j++
		}
		if len(out) == cap(out) {
			return out, false
		}
		out = append(out, s[i:j])
		i = j
	}
	return out, true
}

func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func allDigits(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return w != ""
}

// cutKeep strips keepMarker from the end of a placeholder line: ok is false
// for any other line, so that text which mentions the marker stays as it is.
func cutKeep(line string) (string, bool) {
	r := strings.TrimRight(line, " \t")
	if !strings.HasSuffix(r, keepMarker) {
		return line, false
	}
	r = r[:len(r)-len(keepMarker)]
	kept := strings.TrimRight(r, " \t")
	if kept == "" || len(kept) == len(r) || !omission(kept) {
		return line, false
	}
	return kept, true
}

// keepLiterals drops the keep marker from b's placeholder lines and notes
// them in b.Literal. Parse runs it on every block; a front end that builds
// blocks itself runs it on each.
func keepLiterals(b *Block) {
	if b.plain || !strings.Contains(b.Replace, keepMarker) {
		return
	}
	var sb strings.Builder
	for i, rest := 0, b.Replace; rest != ""; i++ {
		line, eol := rest, ""
		if j := strings.IndexByte(rest, '\n'); j >= 0 {
			line, eol, rest = rest[:j], "\n", rest[j+1:]
		} else {
			rest = ""
		}
		if kept, ok := cutKeep(line); ok {
			line = kept
			b.Literal = append(b.Literal, i)
		}
		sb.WriteString(line)
		sb.WriteString(eol)
	}
	b.Replace = sb.String()
}

// placeholderLine finds the first line of replace (b's new text, as the
// block will write it) that is an omission placeholder which neither b's
// SEARCH nor matched (the text it replaces) holds, and which b does not
// mark literal. A bare ellipsis counts only where it replaces text: in a
// new file it is Python's Ellipsis more often than not. It returns the
// line's index and text, or -1.
func placeholderLine(b *Block, replace, matched string) (int, string) {
	if b.Inverts != "" || b.plain {
		return -1, "" // a revert writes back what the file held; plain: see Block
	}
	for i, rest := 0, replace; rest != ""; i++ {
		line := rest
		if j := strings.IndexByte(rest, '\n'); j >= 0 {
			line, rest = rest[:j], rest[j+1:]
		} else {
			rest = ""
		}
		if !mayBePlaceholder(line) || !omission(line) {
			continue
		}
		t := strings.TrimSpace(line)
		if matched == "" && (t == "..." || t == "…") {
			continue
		}
		if holdsLine(b.Search, t) || holdsLine(matched, t) || literal(b, t) {
			continue
		}
		return i, line
	}
	return -1, ""
}

// holdsLine reports whether text has a line that reads t once trimmed.
func holdsLine(text, t string) bool {
	for from := 0; ; {
		at := strings.Index(text[from:], t)
		if at < 0 {
			return false
		}
		at += from
		start := strings.LastIndexByte(text[:at], '\n') + 1
		end := strings.IndexByte(text[at:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += at
		}
		if strings.TrimSpace(text[start:end]) == t {
			return true
		}
		from = at + len(t)
	}
}

// literal reports whether the trimmed line t is one b marks literal.
func literal(b *Block, t string) bool {
	if len(b.Literal) == 0 {
		return false
	}
	lines := strings.Split(b.Replace, "\n")
	for _, i := range b.Literal {
		if i < len(lines) && strings.TrimSpace(lines[i]) == t {
			return true
		}
	}
	return false
}

// dropped returns the 0-based lines of matched that replace does not keep
// (compared trimmed, each line of replace keeping one), blank lines aside:
// what a placeholder would delete.
func dropped(matched, replace string) []int {
	keep := map[string]int{}
	for _, l := range strings.Split(replace, "\n") {
		keep[strings.TrimSpace(l)]++
	}
	var out []int
	for i, l := range strings.Split(strings.TrimSuffix(matched, "\n"), "\n") {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if keep[t] > 0 {
			keep[t]--
			continue
		}
		out = append(out, i)
	}
	return out
}

// placeholder refuses b when replace holds an omission placeholder
// (placeholderLine): the problem names the line, in the patch where the
// patch shows it, and the lines of matched that would be deleted; line is
// the 1-based line of the file where matched starts (1 for a new file).
// It reports whether b was refused. Every block shape that writes new
// text calls it once the text it replaces is known.
func (v *validator) placeholder(b *Block, replace, matched string, line int) bool {
	i, text := placeholderLine(b, replace, matched)
	if i < 0 {
		return false
	}
	span, patchLine := placeholderSpan(v.plan.Patch.Text, b, i, text)
	label, keeper := placeholderNames(b, i)
	if patchLine > 0 {
		label += fmt.Sprintf(" (patch line %d)", patchLine)
	}
	msg := fmt.Sprintf("%s, %q, stands for code left out: ", label, strings.TrimSpace(text))
	lost := dropped(matched, replace)
	first := line
	switch {
	case len(lost) > 0:
		mlines := strings.Split(matched, "\n")
		first = line + lost[0]
		msg += fmt.Sprintf("written as is, it would delete %s of %s that %s does not keep (%s, from %q)",
			plural(len(lost), "line"), b.Path, keeper, lineRanges(lost, line), strings.TrimSpace(mlines[lost[0]]))
	case matched == "" && b.Op == OpCreate:
		msg += fmt.Sprintf("%s is a new file, so there is no code it could stand for", b.Path)
	default:
		msg += fmt.Sprintf("it would be written into %s as is", b.Path)
	}
	hint := fmt.Sprintf("write out the code the line stands for (copy it from the file), or narrow the edit to the lines that change; if the line is meant literally, end it with \" %s\"", keepMarker)
	if b.Op == OpCreate {
		hint = fmt.Sprintf("write the whole content of the file; if the line is meant literally, end it with \" %s\"", keepMarker)
	}
	p := v.fail(b, KindPlaceholder, msg, hint)
	p.Line = first
	if !span.Empty() {
		p.Span = span
	}
	return true
}

// placeholderNames names line i of b's new text, and the new text, the
// way b's format does.
func placeholderNames(b *Block, i int) (line, text string) {
	switch b.Dialect {
	case DialectApplyPatch, DialectUdiff:
		return "the added line", "the hunk"
	case DialectToolCall:
		return fmt.Sprintf("line %d of the new text", i+1), "the new text"
	case DialectNewFile:
		return fmt.Sprintf("NEW_FILE line %d", i+1), "NEW_FILE"
	}
	return fmt.Sprintf("REPLACE line %d", i+1), "REPLACE"
}

// lineRanges writes 0-based line offsets from first as 1-based ranges:
// "lines 4-9, 12".
func lineRanges(lines []int, first int) string {
	var sb strings.Builder
	for i := 0; i < len(lines); {
		j := i
		for j+1 < len(lines) && lines[j+1] == lines[j]+1 {
			j++
		}
		if sb.Len() > 0 {
			sb.WriteString(", ")
		}
		if j > i {
			fmt.Fprintf(&sb, "%d-%d", first+lines[i], first+lines[j])
		} else {
			fmt.Fprintf(&sb, "%d", first+lines[i])
		}
		i = j + 1
	}
	if len(lines) == 1 {
		return "line " + sb.String()
	}
	return "lines " + sb.String()
}

// placeholderSpan finds the placeholder line (line i of the new text) in
// the patch text: the i-th line of a REPLACE body, or the "+" line of a
// hunk that reads it; it returns the line's span and 1-based patch line,
// or an empty span and 0 when the patch does not show it (a tool call's
// JSON).
func placeholderSpan(text string, b *Block, i int, line string) (Span, int) {
	body := b.ReplaceBody
	if body.Empty() || body.End > len(text) {
		return Span{}, 0
	}
	t := strings.TrimSpace(line)
	hunk := b.Dialect == DialectApplyPatch || b.Dialect == DialectUdiff
	k := 0
	for at := body.Start; at < body.End; k++ {
		end := strings.IndexByte(text[at:body.End], '\n')
		if end < 0 {
			end = body.End
		} else {
			end += at
		}
		l := strings.TrimSuffix(text[at:end], "\r")
		var hit bool
		if hunk {
			hit = strings.HasPrefix(l, "+") && strings.TrimSpace(l[1:]) == t
		} else {
			hit = k >= i && strings.TrimSpace(l) == t
		}
		if hit {
			return Span{at, end}, strings.Count(text[:at], "\n") + 1
		}
		at = end + 1
	}
	return Span{}, 0
}

package treesitter

import "bytes"

// Edits a parse cannot tell apart. Most lines a block changes keep their
// statement's shape: a comment added or reworded, a name or a string's
// words changed. The parser sees the same tokens in the same order, only
// other identifiers and other string contents, and builds the same tree,
// errors included: such an edit adds no error and needs no parse. A
// statement lexer that knows the language's tokens tells (stmtAlike); it
// says "alike" only for what it follows surely, and anything else (a
// triple-quoted or prefixed string, a keyword, a number, a line
// continued) is compared byte for byte or sent to the parse.

// stmtAlike reports whether two runs of whole lines, each starting where
// the lexer is outside any bracket, string or continued line, lex to the
// same tokens but for identifiers' names, plain strings' contents,
// comments and the blanks between tokens of a line.
type stmtAlike func(a, b []byte) bool

// pyAlike is Python's stmtAlike.
func pyAlike(a, b []byte) bool {
	var bufA, bufB [512]byte // an edit's few lines: no fresh memory for them
	ta, ok := pyShape(bufA[:0], a)
	if !ok {
		return false
	}
	tb, ok := pyShape(bufB[:0], b)
	return ok && bytes.Equal(ta, tb)
}

// pyShape writes the tokens of text as a parse sees their kinds: a line's
// indentation as it is, an identifier that is no keyword as 'i', a plain
// one-line string as its quote, a comment as nothing, any other run of
// code bytes as they are, each token ended by a 0 byte and each line by a
// newline, appended to out. ok is false for what it does not follow.
func pyShape(out, text []byte) (shape []byte, ok bool) {
	for i := 0; i < len(text); {
		le := lineEnd(text, i)
		ind, _ := indentIn(text, i, le)
		out = append(out, text[i:i+ind]...)
		out = append(out, 0)
		for j := i + ind; j < le; {
			c := text[j]
			switch {
			case c == ' ' || c == '\t' || c == '\r' && j+1 == le:
				j++
				continue
			case c == '#':
				j = le
				continue
			case c == '"' || c == '\'':
				if j+2 < le && text[j+1] == c && text[j+2] == c {
					// Triple-quoted, as a one-line docstring is: its
					// quotes if it closes on its line.
					k := j + 3
					for k+2 < le && !(text[k] == c && text[k+1] == c && text[k+2] == c) {
						if text[k] == '\\' {
							k++
						}
						k++
					}
					if k+2 >= le {
						return nil, false // it may go on over lines
					}
					out = append(out, c, c, c)
					j = k + 3
					break
				}
				k := j + 1
				for k < le && text[k] != c {
					if text[k] == '\\' {
						k++
					}
					k++
				}
				if k >= le {
					return nil, false // open at the end of its line
				}
				out = append(out, c)
				j = k + 1
			case c == '\\':
				return nil, false // a continued line
			case isIdent(c) && !(c >= '0' && c <= '9'):
				k := j
				for k < le && isIdent(text[k]) {
					k++
				}
				word := text[j:k]
				if k < le && (text[k] == '"' || text[k] == '\'') {
					// A prefixed string (r"", b"", f""), compared as
					// written: an f-string's braces hold code.
					end, ok := prefixedString(text, j, k, le)
					if !ok {
						return nil, false
					}
					out = append(out, text[j:end]...)
					out = append(out, 0)
					j = end
					continue
				}
				if pyKeyword(word) {
					out = append(out, word...)
				} else {
					out = append(out, 'i')
				}
				j = k
			case isIdent(c) || c == '.' && j+1 < le && text[j+1] >= '0' && text[j+1] <= '9':
				// A number, compared as written: "1x" is no number.
				k := j
				for k < le && (isIdent(text[k]) || text[k] == '.' ||
					(text[k] == '+' || text[k] == '-') && (text[k-1] == 'e' || text[k-1] == 'E')) {
					k++
				}
				out = append(out, text[j:k]...)
				j = k
			default:
				// Operators and brackets: a run of them, as written ("**"
				// is not "* *").
				k := j
				for k < le && !isIdent(text[k]) && !opEnds(text[k]) {
					k++
				}
				out = append(out, text[j:k]...)
				j = k
			}
			out = append(out, 0)
		}
		out = append(out, '\n')
		i = nextLine(text, i)
	}
	return out, true
}

// prefixedString returns the end of the string whose prefix is
// text[j:k] and whose quote is at k, on the line ending at le. ok is
// false for what pyShape does not follow: no string prefix, triple
// quotes, no closing quote on the line, an f-string holding a quote or a
// backslash (its braces may hold strings of their own).
func prefixedString(text []byte, j, k, le int) (int, bool) {
	isF := false
	for _, c := range text[j:k] {
		switch c {
		case 'f', 'F':
			isF = true
		case 'r', 'R', 'b', 'B', 'u', 'U':
		default:
			return 0, false
		}
	}
	q := text[k]
	if k-j > 2 || k+2 < le && text[k+1] == q && text[k+2] == q {
		return 0, false
	}
	for i := k + 1; i < le; i++ {
		switch c := text[i]; {
		case c == q:
			return i + 1, true
		case isF && (c == '\\' || c == '"' || c == '\''):
			return 0, false
		case c == '\\':
			i++
		}
	}
	return 0, false
}

// opEnds reports whether c ends a run of operator bytes.
func opEnds(c byte) bool {
	switch c {
	case ' ', '\t', '#', '"', '\'', '\\':
		return true
	}
	return false
}

// pyKeyword reports whether tree-sitter-python reads word as more than a
// name: a keyword, a soft keyword, or a statement of Python 2 it still
// parses.
func pyKeyword(word []byte) bool {
	switch string(word) {
	case "False", "None", "True", "and", "as", "assert", "async", "await", "break", "case", "class",
		"continue", "def", "del", "elif", "else", "except", "exec", "finally", "for", "from", "global",
		"if", "import", "in", "is", "lambda", "match", "nonlocal", "not", "or", "pass", "print", "raise",
		"return", "try", "type", "while", "with", "yield", "_", "__future__":
		return true
	}
	return false
}

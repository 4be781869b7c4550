package core

import "strings"

// line is one line of a text: its content without the line ending, and
// where it sits.
type line struct {
	text  string // content, without "\n" or "\r\n"
	start int    // offset of the first byte
	end   int    // offset just past the content (before the line ending)
	next  int    // offset of the next line's first byte
}

// splitLines cuts text into lines. A final line without a newline counts; an
// empty text has no lines.
func splitLines(text string) []line {
	if text == "" {
		return nil
	}
	// Sized once: a patch of 200 blocks is 2,600 lines, and growing the
	// slice by appends copied 40-byte records over and over (issue 11).
	out := make([]line, 0, strings.Count(text, "\n")+1)
	for start := 0; start < len(text); {
		i := strings.IndexByte(text[start:], '\n')
		var l line
		if i < 0 {
			l = line{text: text[start:], start: start, end: len(text), next: len(text)}
		} else {
			end := start + i
			l = line{start: start, end: end, next: end + 1}
			if end > start && text[end-1] == '\r' {
				l.end = end - 1
			}
			l.text = text[start:l.end]
		}
		out = append(out, l)
		start = l.next
	}
	return out
}

// normalizeLF turns CRLF line endings into LF.
func normalizeLF(s string) string {
	if !strings.Contains(s, "\r\n") {
		return s
	}
	return strings.ReplaceAll(s, "\r\n", "\n")
}

// isBlank reports whether s holds only whitespace.
func isBlank(s string) bool { return strings.TrimSpace(s) == "" }

// firstNonBlankLine returns the first line of s that is not blank, trimmed.
func firstNonBlankLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if t := strings.TrimSpace(l); t != "" {
			return t
		}
	}
	return ""
}

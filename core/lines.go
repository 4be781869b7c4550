package core

import (
	"slices"
	"strings"
	"sync"
)

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
	return splitLinesInto(nil, text)
}

// splitLinesInto is splitLines appending to out.
func splitLinesInto(out []line, text string) []line {
	if text == "" {
		return out
	}
	// Sized once: growing the slice by appends copies the records over
	// and over on a patch of many blocks (BenchmarkW1).
	out = slices.Grow(out, strings.Count(text, "\n")+1)
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
func isBlank(s string) bool {
	if c, ok := leadByte(s); ok { // ASCII: no second pass from the end
		return c == 0
	}
	return strings.TrimSpace(s) == ""
}

// firstNonBlankLine returns the first line of s that is not blank, trimmed.
func firstNonBlankLine(s string) string {
	for l := range strings.SplitSeq(s, "\n") {
		if t := strings.TrimSpace(l); t != "" {
			return t
		}
	}
	return ""
}

// Parse's line records come from a pool: a big patch's records are a
// large object, and allocating it afresh each time (the heap lock,
// zeroing, page faults) and having the collector scan it was much of
// Parse (BenchmarkW1). The records hold substrings of the patch, so
// a returned buffer is cleared first, or it would keep the text alive.
var linesPool = sync.Pool{New: func() any { return new([]line) }}

func getLines() *[]line { return linesPool.Get().(*[]line) }

func putLines(buf *[]line) {
	if cap(*buf) > 1<<16 {
		return // a huge patch's buffer is not kept around
	}
	clear(*buf)
	*buf = (*buf)[:0]
	linesPool.Put(buf)
}

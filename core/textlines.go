package core

import (
	"strings"
	"unsafe"
)

// Lines of a FileChange's new content without building it: the syntax check
// of one block in a big file needs a window of lines, and building the whole
// content for it (Bytes) costs a fresh page fault every 4 KB (make bench,
// W2). Everything here only reads the doc: a FileChange's doc is shared by
// concurrent readers (see fileContent), so newline counts the doc has not
// kept are counted again rather than stored.

// countChunk is the stride of the newline counts that skip whole chunks
// (bytes.Count is vectorised; one IndexByte call a line is not).
const countChunk = 4096

// nlKnown returns the newlines of piece i, counting them if the doc has not
// (and not keeping the count).
func (d *doc) nlKnown(i int) int {
	if d.nl[i] >= 0 {
		return d.nl[i]
	}
	return strings.Count(d.pieces[i], "\n")
}

// lineCount returns how many lines bytes() has: its newlines, plus one for
// a last line that has none (a BOM alone is one line).
func (d *doc) lineCount() int {
	n := 0
	if d.pieces == nil {
		n = strings.Count(d.flat, "\n")
	} else {
		for i := range d.pieces {
			n += d.nlKnown(i)
		}
	}
	switch size := d.len(); {
	case size == 0 && d.bom:
		n = 1
	case size > 0 && d.byteAt(size-1) != '\n':
		n++ // a text not ending in a newline (a create's content)
	}
	return n
}

// afterNewlines returns the offset in s just past its k-th newline (k >= 1),
// or -1 when s has fewer; nl is strings.Count(s, "\n") or -1 when unknown.
// With the count known and the line nearer the end, it counts back from
// the end: a block near the end of a big file asks for a line near it.
func afterNewlines(s string, k, nl int) int {
	if nl >= 0 && k > nl {
		return -1
	}
	if nl >= 0 && nl-k < k {
		// The (nl-k+1)-th newline from the end is the k-th from the start.
		back := nl - k + 1
		end := len(s)
		for end > countChunk {
			n := strings.Count(s[end-countChunk:end], "\n")
			if n >= back {
				break
			}
			back -= n
			end -= countChunk
		}
		for end > 0 {
			i := strings.LastIndexByte(s[:end], '\n')
			if back--; back == 0 {
				return i + 1
			}
			end = i
		}
		return -1
	}
	off := 0
	for len(s)-off > countChunk {
		n := strings.Count(s[off:off+countChunk], "\n")
		if n >= k {
			break
		}
		k -= n
		off += countChunk
	}
	for ; k > 0; k-- {
		i := strings.IndexByte(s[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	return off
}

// lineOffset returns the offset in the text of the start of line k
// (0 <= k), or d.len() when the text has no line k.
func (d *doc) lineOffset(k int) int {
	if k <= 0 {
		return 0
	}
	if d.pieces == nil {
		if at := afterNewlines(d.flat, k, -1); at >= 0 {
			return at
		}
		return len(d.flat)
	}
	base := 0
	for i, p := range d.pieces {
		nl := d.nl[i]
		if nl >= 0 && nl < k {
			k -= nl
			base += len(p)
			continue
		}
		if at := afterNewlines(p, k, nl); at >= 0 {
			return base + at
		}
		k -= strings.Count(p, "\n")
		base += len(p)
	}
	return d.size
}

// newLines is bytes()[start of line from : start of line to] (lines as
// lineCount counts them; from and to clamped), and where it starts in
// bytes(), built from the pieces that hold those lines only.
func (d *doc) newLines(from, to int) ([]byte, int) {
	total := d.lineCount()
	from, to = max(0, min(from, total)), max(0, min(to, total))
	if from == total {
		return []byte{}, d.bytesLen()
	}
	start := d.lineOffset(from)
	at := start
	if d.bom && from > 0 {
		at += len(bom)
	}
	if d.crlf != nil {
		for _, c := range d.crlf[:min(from, len(d.crlf))] {
			if c {
				at++
			}
		}
	}
	if from >= to {
		return []byte{}, at
	}
	if d.len() == 0 {
		return []byte(bom), 0 // bytes() is the BOM alone
	}
	end := d.lineOffset(to)
	trim := to == total && d.noFinalEOL
	s := d.slice(start, end)
	if !(d.bom && from == 0) && d.crlf == nil && !trim {
		// Read-only, like Bytes(): a substring of one piece is not copied.
		return unsafe.Slice(unsafe.StringData(s), len(s)), at
	}
	out := make([]byte, 0, len(s)+len(bom)+(to-from))
	if d.bom && from == 0 {
		out = append(out, bom...)
	}
	if d.crlf == nil {
		out = append(out, s...)
	} else {
		// As bytes() writes each line: its "\r" back before its "\n".
		for i := from; s != ""; i++ {
			n := strings.IndexByte(s, '\n')
			if n < 0 {
				out = append(out, s...)
				break
			}
			out = append(out, s[:n]...)
			if i < len(d.crlf) && d.crlf[i] {
				out = append(out, '\r')
			}
			out = append(out, '\n')
			s = s[n+1:]
		}
	}
	if trim {
		// bytes()'s final trim, the same two steps.
		out = trimByte(out, '\n')
		if n := len(d.crlf); n > 0 && d.crlf[n-1] {
			out = trimByte(out, '\r')
		}
	}
	return out, at
}

func trimByte(b []byte, c byte) []byte {
	if n := len(b); n > 0 && b[n-1] == c {
		return b[:n-1]
	}
	return b
}

// bytesLen returns len(bytes()) without building it.
func (d *doc) bytesLen() int {
	n := d.len()
	if d.bom {
		n += len(bom)
	}
	crlfs := 0
	for _, c := range d.crlf {
		if c {
			crlfs++
		}
	}
	n += crlfs
	if d.noFinalEOL && d.len() > 0 && d.byteAt(d.len()-1) == '\n' {
		n--
		if k := len(d.crlf); k > 0 && d.crlf[k-1] {
			n--
		}
	}
	return n
}

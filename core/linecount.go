package core

import "strings"

// A line number is a count of the newlines before a place: W2's block,
// near the end of an 800 KB file, counted 790 KB for its line, as long as
// finding it (issue 18). Where the CPU has AVX-512, the pass that reads a
// file for a NUL or a CR (scanText) counts its newlines too, per 1 KB
// block, at no cost of its own: that loop is bound by the cache's
// bandwidth, and the compares and counts fit beside its loads. A count
// over a stretch of the text as loaded then reads at most two half
// blocks.

// lineBlock is how much of the text one entry of a lineIndex covers.
const lineBlock = 1024

// lineIndex: entry k is the number of newlines in text[:k*lineBlock], for
// the text it was built on (a file as loaded, when it has no CR).
type lineIndex []uint32

// scanLines reads s for a NUL or a CR and, when it holds neither, returns
// its lineIndex; nil when it holds one (the caller reads it again the
// slow way) or when an index would not pay (a short text, or no
// AVX-512).
func scanLines(s string) lineIndex {
	if !hasAVX512 || len(s) < 2*lineBlock || len(s) >= 1<<31 {
		return nil
	}
	lines := make(lineIndex, len(s)/lineBlock+1)
	if scanLinesAVX512(s, lines) || indexEither(s[len(s)&^(lineBlock-1):], 0, '\r') >= 0 {
		return nil
	}
	return lines
}

// upTo is the number of newlines in text[:x], from the nearer end of x's
// block.
func (ix lineIndex) upTo(text string, x int) int {
	k := x / lineBlock
	if k+1 < len(ix) && x%lineBlock > lineBlock/2 {
		return int(ix[k+1]) - strings.Count(text[x:(k+1)*lineBlock], "\n")
	}
	k = min(k, len(ix)-1)
	return int(ix[k]) + strings.Count(text[k*lineBlock:x], "\n")
}

// newlines counts the newlines of s, a stretch of d's text: through the
// index when s lies in the text as loaded and is long enough for the
// index to pay.
func (d *doc) newlines(s string) int {
	if d.lineIx != nil && len(s) > lineBlock {
		if o, ok := d.loadedOffset(s); ok {
			return d.lineIx.upTo(d.loaded, o+len(s)) - d.lineIx.upTo(d.loaded, o)
		}
	}
	return strings.Count(s, "\n")
}

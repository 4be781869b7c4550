package core

import "strings"

// A line number is a count of the newlines before a place: W2's block,
// near the end of an 800 KB file, counted 790 KB for its line, as long as
// finding it (issue 18). Where the CPU has AVX-512, the pass that reads a
// file for a NUL or a CR (scanText) counts its newlines too, per block
// of 1 KB or more, at no cost of its own: that loop is bound by the cache's
// bandwidth, and the compares and counts fit beside its loads. A count
// over a stretch of the text as loaded then reads at most two half
// blocks.

// lineBlock is the least stretch of text one entry of a lineIndex
// covers; lineEntries the most entries an index has. A longer text takes
// longer blocks: an index is new memory, and each fresh page cost 11-25
// us on issue 18's VM (W6's 100 MB file in 1 KB blocks: 400 KB, about a
// hundred pages), while a count inside a 64 KB block costs under 1 us.
const (
	lineBlock   = 1024
	lineEntries = 2048
)

// lineIndex: at[k] is the number of newlines in text[:k<<shift], for the
// text it was built on (a file as loaded, when it has no CR).
type lineIndex struct {
	shift uint
	at    []uint32
}

// scanLines reads s for a NUL or a CR and, when it holds neither, returns
// its lineIndex; nil when it holds one (the caller reads it again the
// slow way) or when an index would not pay (a short text, or no
// AVX-512).
func scanLines(s string) *lineIndex {
	if !hasAVX512 || len(s) < 2*lineBlock || len(s) >= 1<<31 {
		return nil
	}
	ix := &lineIndex{shift: 10}
	for len(s)>>ix.shift > lineEntries {
		ix.shift++
	}
	ix.at = make([]uint32, len(s)>>ix.shift+1)
	if scanLinesAVX512(s, ix.at, ix.shift) || indexEither(s[len(s)>>ix.shift<<ix.shift:], 0, '\r') >= 0 {
		return nil
	}
	return ix
}

// upTo is the number of newlines in text[:x], from the nearer end of x's
// block.
func (ix *lineIndex) upTo(text string, x int) int {
	k, size := x>>ix.shift, 1<<ix.shift
	if k+1 < len(ix.at) && x&(size-1) > size/2 {
		return int(ix.at[k+1]) - strings.Count(text[x:(k+1)<<ix.shift], "\n")
	}
	k = min(k, len(ix.at)-1)
	return int(ix.at[k]) + strings.Count(text[k<<ix.shift:x], "\n")
}

// newlines counts the newlines of s, a stretch of d's text: through the
// index when s lies in the text as loaded and is longer than a block.
func (d *doc) newlines(s string) int {
	if d.lineIx != nil && len(s) > 1<<d.lineIx.shift {
		if o, ok := d.loadedOffset(s); ok {
			return d.lineIx.upTo(d.loaded, o+len(s)) - d.lineIx.upTo(d.loaded, o)
		}
	}
	return strings.Count(s, "\n")
}

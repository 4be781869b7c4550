package core

import (
	"slices"
	"strings"

	"github.com/fsrb/fsrb/internal/scan"
)

// maxOccurrences bounds how many places of an ambiguous block are listed.
const maxOccurrences = 50

// Occurrences is the engine's rule for where a SEARCH block matches, for
// callers outside core (the language server's quick fixes): the offsets in
// text (LF) where search (LF, whole lines) matches whole consecutive lines,
// at most limit of them. A missing final newline counts as there, as it
// does when a file is loaded.
func Occurrences(text, search string, limit int) []int {
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if search != "" && !strings.HasSuffix(search, "\n") {
		search += "\n"
	}
	return occurrences(text, search, limit)
}

// occurrences returns the offsets in text (LF, ending with "\n") where
// search (LF, whole lines) matches whole, consecutive lines. Overlapping
// places count: "a\na\n" occurs twice in "a\na\na\n" (docs/ARCHITECTURE.md
// "Fine print").
//
// It does not scan for search itself: strings.Index falls back to
// Rabin-Karp (about 0.4 GB/s) on needles that start with indentation, and a
// SEARCH block almost always does. It looks for the content of SEARCH's
// longest line instead, through its rarest byte (see finder), and checks
// the whole block around each hit. Every place holds that line at the same
// offset, so each place is found once, overlapping ones included.
func occurrences(text, search string, limit int) []int {
	off, needle := anchorOf(search)
	if needle == "" {
		return occurrencesSlow(text, search, limit)
	}
	var out []int
	var dropped []string
	f := newFinder(needle)
	last := len(text) - len(search) // the last offset a place may start at
	misses := 0
	for p := f.index(text, off); p >= 0; p = f.index(text, p+1) {
		at := p - off
		if at > last {
			break
		}
		if (at == 0 || text[at-1] == '\n') && text[at:at+len(search)] == search {
			out = append(out, at)
			if len(out) >= limit {
				break
			}
			continue
		}
		if misses++; misses < anchorMisses {
			continue
		}
		// The anchor line is common in this file (an "except KeyError:"
		// in every function, as in make bench's W5): every place of it
		// is a stop and a compare of the block. The next best line takes
		// over from here on; it finds the places not yet passed (those
		// starting after at), each once, as any line of search would.
		dropped = append(dropped, needle)
		o, n := anchorOfExcept(search, dropped)
		if n == "" {
			continue
		}
		off, needle, f, misses = o, n, newFinder(n), 0
		p = at + off // the next place starts after at: its anchor after p
	}
	return out
}

// anchorMisses is how many places of an anchor line that are no place of
// the block make occurrences look for another anchor line: a new anchor
// costs about what ten such stops do.
const anchorMisses = 8

// anchorOf picks the line of search to look for: among the lines whose
// content (without indentation and trailing blanks) is long enough to be
// distinctive, the one with the rarest byte (the finder skips from one
// place of that byte to the next), then the longest. It returns that
// content and its offset in search; "" when every line is blank.
func anchorOf(search string) (off int, needle string) {
	return anchorOfExcept(search, nil)
}

// anchorOfExcept is anchorOf among the lines whose content is none of
// dropped.
func anchorOfExcept(search string, dropped []string) (off int, needle string) {
	best := -1
	for start := 0; start < len(search); {
		end := strings.IndexByte(search[start:], '\n')
		next := start + end + 1
		if end < 0 {
			end, next = len(search)-start, len(search)
		}
		lead, core := splitBlank(search[start : start+end])
		if s := anchorScore(core); s > best && !slices.Contains(dropped, core) {
			best, off, needle = s, start+len(lead), core
		}
		start = next
	}
	return off, needle
}

// anchorScore ranks a line as an anchor: distinctive lines (8 bytes or
// more) first, then by their rarest byte, then by length.
func anchorScore(core string) int {
	if core == "" {
		return -1
	}
	s := maxRank(core)<<8 | min(len(core), 255)
	if len(core) >= 8 {
		s += 1 << 20
	}
	return s
}

// maxRank is the rank of s's rarest byte. Four maxima side by side, not
// one: each max waits for the one before it, and a chain of them showed
// in Validate, every line of every SEARCH text scored (BenchmarkW1).
func maxRank(s string) int {
	var a, b, c, d uint8
	i := 0
	for ; i+4 <= len(s); i += 4 {
		w := s[i : i+4]
		a, b = max(a, byteRank[w[0]]), max(b, byteRank[w[1]])
		c, d = max(c, byteRank[w[2]]), max(d, byteRank[w[3]])
	}
	for ; i < len(s); i++ {
		a = max(a, byteRank[s[i]])
	}
	return int(max(a, b, c, d))
}

// occurrencesSlow is occurrences for a search made of blank lines only.
func occurrencesSlow(text, search string, limit int) []int {
	var out []int
	for from := 0; from <= len(text)-len(search); {
		i := strings.Index(text[from:], search)
		if i < 0 {
			break
		}
		at := from + i
		if at == 0 || text[at-1] == '\n' {
			out = append(out, at)
			if len(out) >= limit {
				break
			}
		}
		from = at + 1
	}
	return out
}

// partialLine looks for search inside a line when it matches no whole
// lines: the offset of the only place it occurs, or -1. Strict mode reports
// that line instead of a bare "not found". A near miss of whole lines
// (wholeOrCut) is no partial line: that block is not found, and the
// closest match shows the difference. places says how
// often search occurs at all: 0, 1, or 2 for two or more (explainMiss
// needs no second scan of the file for fewer than two).
func partialLine(text, search string) (at, places int) {
	s := strings.TrimSuffix(search, "\n")
	if strings.TrimSpace(s) == "" {
		return -1, 0
	}
	f := newFinder(s)
	i := f.index(text, 0)
	if i < 0 {
		return -1, 0
	}
	if f.index(text, i+1) >= 0 {
		return -1, 2
	}
	if wholeOrCut(text, i, len(s)) {
		return -1, 1
	}
	return i, 1
}

// wholeOrCut reports whether the n bytes of text at i are no partial line
// but a near miss of whole lines: they are whole lines but for indentation
// and trailing blanks, or they start a line and stop inside a word
// ("import functool" where the file has "import functools": a typo or a
// line cut short, whose closest place tells more than the line holding
// it). A fragment from the middle of a line is a partial line.
func wholeOrCut(text string, i, n int) bool {
	ls := strings.LastIndexByte(text[:i], '\n') + 1
	le := indexByteFrom(text, i+n, '\n')
	if !isBlank(text[ls:i]) {
		return false
	}
	return isBlank(text[i+n:le]) || cutsWord(text, i+n)
}

// isBlankByte reports whether c is indentation or trailing white space.
func isBlankByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

// splitBlank cuts a line into its indentation and its content without
// trailing white space.
func splitBlank(l string) (lead, core string) {
	i, j := eightSpaces(l), len(l)
	for i < j && isBlankByte(l[i]) {
		i++
	}
	for j > i && isBlankByte(l[j-1]) {
		j--
	}
	return l[:i], l[i:j]
}

// trimBlank is strings.TrimSpace for ASCII blanks only.
func trimBlank(l string) string {
	_, core := splitBlank(l)
	return core
}

// trimBlankRight drops trailing white space.
func trimBlankRight(l string) string {
	j := len(l)
	for j > 0 && isBlankByte(l[j-1]) {
		j--
	}
	return l[:j]
}

// finder finds a needle through its rarest byte: strings.IndexByte (SIMD)
// skips to each place of that byte, a second rare byte filters, and only
// then are the bytes compared. Rarity comes from a fixed table of byte
// frequencies in source code; a needle of common bytes only still works,
// just with more false hits.
//
// A rare byte is often rare in one token only: make bench's W1 anchors
// hold "KeyError", whose 'K' and 'E' stand together at each of its places
// in a file, so the second byte rejected nothing and every place cost a
// compare of the whole needle. The needle's last 8 bytes, one
// load, reject those: lines that share a token rarely share their end.
type finder struct {
	needle string
	r1, r2 int    // offsets of the rarest and the second rarest byte
	p2     int    // the byte index scans for with r1's (see newFinder)
	stops  int    // false places of r1's byte index has passed
	tail   uint64 // the needle's last 8 bytes (needles of 8 bytes or more)
}

func newFinder(needle string) finder {
	f := finder{needle: needle}
	if needle == "" {
		return f // index finds it everywhere
	}
	if len(needle) >= 8 {
		f.tail = load64(needle, len(needle)-8)
	}
	// The best ranks so far are kept, not looked up again a byte (both
	// loops showed in BenchmarkW1's Validate).
	best := -1
	for i := 0; i < len(needle); i++ {
		if r := int(byteRank[needle[i]]); r > best {
			best, f.r1 = r, i
		}
	}
	f.r2 = f.r1
	c1, best2 := needle[f.r1], -1
	for i := 0; i < len(needle); i++ {
		if c := needle[i]; c != c1 {
			if r := int(byteRank[c]); r > best2 {
				best2, f.r2 = r, i
			}
		}
	}
	// index's pair scan takes with r1's byte the needle's byte farthest from
	// it. The bytes next to r1 are often in its token ("KeyError": 'K' and
	// 'E' together at each of its places), and code repeats templates
	// ("] = \"" after every ']' of make bench's W2 file). What filters is
	// the distance: two places share it only where the text between has the
	// same length. Over make bench's W1 anchors the pair stops at a fraction
	// of the places r1 alone, or r1 with r2, stops at.
	f.p2 = 0
	if f.r1 < len(needle)-1-f.r1 {
		f.p2 = len(needle) - 1
	}
	return f
}

// index returns the first offset at or after from where the needle occurs
// in s, or -1.
func (f *finder) index(s string, from int) int {
	n := len(f.needle)
	last := len(s) - n
	if from > last || from < 0 {
		return -1
	}
	if n == 0 {
		return from
	}
	c1, c2 := f.needle[f.r1], f.needle[f.r2]
	end := last + f.r1 + 1 // c1 may sit at most here (exclusive)
	// IndexByte on c1 first: it is the faster scan while c1's places are few
	// (make bench, W2: a rare anchor byte in a big file). After pairAfter
	// places that were not the needle's, scan.IndexPair takes over (below).
	for i := from + f.r1; i < end && f.stops < pairAfter; i++ {
		j := strings.IndexByte(s[i:end], c1)
		if j < 0 {
			return -1
		}
		i += j
		start := i - f.r1
		if f.at(s, start, c2) {
			return start
		}
		f.stops++
		from = start + 1
	}
	// The two bytes, the first in the text first: x is where the first
	// of them sits, d how far on the other does.
	lo, hi := min(f.r1, f.p2), max(f.r1, f.p2)
	cl, ch, d := f.needle[lo], f.needle[hi], hi-lo
	end = last + lo + 1
	for x := from + lo; x < end; x++ {
		j := scan.IndexPair(s[x:end+d], cl, ch, d)
		if j < 0 {
			return -1
		}
		x += j
		if start := x - lo; f.at(s, start, c2) {
			return start
		}
	}
	return -1
}

// pairAfter is how many false places of its rarest byte a finder stops
// at before it scans for two bytes at once. A pair scan reads each byte
// twice, a little slower than IndexByte, and saves a call and a test at
// every false place.
const pairAfter = 4

// at reports whether the needle sits at start of s (in range), c2 being
// the needle's byte at r2: the cheap filters first.
func (f *finder) at(s string, start int, c2 byte) bool {
	n := len(f.needle)
	if s[start+f.r2] != c2 {
		return false
	}
	if n >= 8 && load64(s, start+n-8) != f.tail {
		return false
	}
	return s[start:start+n] == f.needle
}

// load64 reads s[i:i+8] as a little-endian word: the compiler makes it one
// load.
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// byteRank orders bytes from common (0) to rare (255) in source code and
// prose: the order of byteOrder, then every byte it does not list (control
// characters and non-ASCII bytes) as rarest.
var byteRank = func() (r [256]uint8) {
	// '\n' ends a line every 40 bytes or so: a multi-line needle
	// (partialLine's) that anchored on it stopped at every line of the
	// file, many times the places of its rarest letter (make bench, W4).
	const byteOrder = " etaionsrlc\ndu_p.m(),hf=\"gb;:yx/v*w-k'>{}0[]1<\t2+#&!|T3S45E6A$I8R7N9CDOLPFMj%BzUq@G?HWVYK\\J^X~Q`Z"
	for i := range r {
		r[i] = 255
	}
	for i := 0; i < len(byteOrder); i++ {
		r[byteOrder[i]] = uint8(i)
	}
	return r
}()

package core

import (
	"slices"
	"sync"
	"unsafe"

	"github.com/fsrb/fsrb/internal/scan"
)

// A file that several blocks name is searched once per anchor byte, not once
// per block, each scanning the whole file and stopping at every place of its
// anchor's rarest byte (make bench, W1: ten blocks a file). The first block
// whose anchor has byte c lists c's offsets in the text as loaded; every
// later one walks that list over the pieces still cut from it, and scans
// only the pieces that are not (REPLACE texts).

// keepMin is the fewest blocks naming a file for which its byte offsets
// are kept; keepMax the largest text they are kept for (a list costs 4
// bytes a place).
const (
	keepMin = 2
	keepMax = 16 << 20
)

// keptPositions are the offsets of byte c in doc.loaded, in order.
type keptPositions struct {
	c   byte
	pos []int32
}

// positions returns the offsets of c in d.loaded, listing them the first
// time.
func (d *doc) positions(c byte) []int32 {
	for _, k := range d.kept {
		if k.c == c {
			return k.pos
		}
	}
	// Listed into a pooled buffer, then copied at its size: a count first
	// cost a second pass over the file, appends from nothing grew the
	// list seven times or more, and a list sized for a rare byte
	// allocated twice what it held (fresh memory is page faults).
	buf := placesPool.Get().(*[]int32)
	*buf = scan.AppendIndexes((*buf)[:0], d.loaded, c)
	pos := slices.Clone(*buf)
	if cap(*buf) <= 1<<16 {
		placesPool.Put(buf)
	}
	d.kept = append(d.kept, keptPositions{c, pos})
	return pos
}

var placesPool = sync.Pool{New: func() any { b := make([]int32, 0, 1024); return &b }}

// loadedOffset returns where piece p lies in d.loaded, if it is cut from
// it (the same memory): its bytes are then those of d.loaded there.
func (d *doc) loadedOffset(p string) (int, bool) {
	if len(p) == 0 || len(p) > len(d.loaded) {
		return 0, false
	}
	base := uintptr(unsafe.Pointer(unsafe.StringData(d.loaded)))
	at := uintptr(unsafe.Pointer(unsafe.StringData(p)))
	if at < base || at-base > uintptr(len(d.loaded)-len(p)) {
		return 0, false
	}
	return int(at - base), true
}

// occurrencesKept is d.occurrences with the anchor's byte offsets kept
// (see above). It finds the same places in the same order: in each piece,
// every offset where the anchor's content occurs, lowest first.
func (d *doc) occurrencesKept(search string, limit int) []int {
	off, needle := anchorOf(search)
	if needle == "" {
		return occurrences(d.text(), search, limit)
	}
	f := newFinder(needle)
	n := len(needle)
	c2 := needle[f.r2]
	pos := d.positions(needle[f.r1])
	var out []int
	last := d.len() - len(search)
	// check records a place whose anchor content starts at h of piece p,
	// which starts at base of the text; it reports whether to go on. A
	// place inside p is compared there: finding the piece of each offset
	// again (byteAt, equalAt) showed in BenchmarkW1's search.
	check := func(p string, h, base int) bool {
		at := h - off
		if base+at < 0 {
			return true
		}
		if base+at > last {
			return false
		}
		var found bool
		if at > 0 && at+len(search) <= len(p) {
			found = p[at-1] == '\n' && p[at:at+len(search)] == search
		} else {
			found = (base+at == 0 || d.byteAt(base+at-1) == '\n') && d.equalAt(base+at, search)
		}
		if found {
			out = append(out, base+at)
		}
		return len(out) < limit
	}
	one := [1]string{d.flat}
	pieces := d.pieces
	if pieces == nil {
		pieces = one[:]
	}
	base := 0
	for _, p := range pieces {
		if o, ok := d.loadedOffset(p); ok {
			lo, hi := o+f.r1, o+len(p)-n+f.r1 // where the byte sits for the content to fit
			k, _ := slices.BinarySearch(pos, int32(lo))
			for ; k < len(pos) && int(pos[k]) <= hi; k++ {
				h := int(pos[k]) - f.r1 - o // in p
				if f.at(p, h, c2) && !check(p, h, base) {
					return out
				}
			}
		} else {
			for h := f.index(p, 0); h >= 0; h = f.index(p, h+1) {
				if !check(p, h, base) {
					return out
				}
			}
		}
		base += len(p)
	}
	return out
}

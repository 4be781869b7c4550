package core

import (
	"runtime"
	"sort"
	"strings"
	"sync"
	"unsafe"
	"weak"
)

// normView is a file's text with typography normalized, as rungs 3 to 6 of
// the ladder search it. It is built once per version of a doc and shared by
// every block and every rung that needs it (docs/ARCHITECTURE.md
// "Matching": normalize each file once, never per block).
//
// Normalization keeps line breaks, so line k of norm is line k of text;
// line starts map through the two tables.
type normView struct {
	text string // the doc text it was built from
	norm string
	same bool // norm == text: nothing to normalize (the tables are nil)

	normStarts, origStarts []int // line starts, each ending with the length
}

func newNormView(text string) *normView {
	nv := &normView{text: text, norm: text, same: true}
	if !hasNonASCII(text) {
		return nv
	}
	n := strings.Count(text, "\n") + 1
	nv.normStarts = make([]int, 0, n+1)
	nv.origStarts = make([]int, 0, n+1)
	var b []byte
	for start := 0; start < len(text); {
		end := indexByteFrom(text, start, '\n')
		nv.origStarts = append(nv.origStarts, start)
		nv.normStarts = append(nv.normStarts, len(b))
		b = append(b, normTypo(text[start:end])...)
		b = append(b, '\n')
		start = end + 1
	}
	if len(text) > 0 && text[len(text)-1] != '\n' {
		b = b[:len(b)-1] // texts of docs always end with "\n"; keep others as they were
	}
	nv.origStarts = append(nv.origStarts, len(text))
	nv.normStarts = append(nv.normStarts, len(b))
	if string(b) == text {
		// Non-ASCII text with nothing to normalize (accents, CJK).
		return &normView{text: text, norm: text, same: true}
	}
	nv.norm, nv.same = string(b), false
	return nv
}

// indexByteFrom returns the offset of the first c at or after from, or
// len(s).
func indexByteFrom(s string, from int, c byte) int {
	if i := strings.IndexByte(s[from:], c); i >= 0 {
		return from + i
	}
	return len(s)
}

// line returns the 0-based line number of a line start (or the end) of
// norm; only for views that are not the same as their text.
func (nv *normView) line(off int) int { return sort.SearchInts(nv.normStarts, off) }

// orig maps a line start (or the end) of norm to the same place of text.
func (nv *normView) orig(off int) int {
	if nv.same {
		return off
	}
	return nv.origStarts[nv.line(off)]
}

// origCol maps an offset inside the line of norm that starts at lineStart
// to the offset of the same character in text.
func (nv *normView) origCol(lineStart, off int) int {
	if nv.same {
		return off
	}
	k := nv.line(lineStart)
	os, oe := nv.origStarts[k], nv.origStarts[k+1]
	line := nv.text[os:oe]
	if line != "" && line[len(line)-1] == '\n' {
		line = line[:len(line)-1]
	}
	_, pos := normTypoMap(line)
	return os + pos[min(off-lineStart, len(pos)-1)]
}

// viewCache keeps the view of each doc's current text while the doc lives:
// weak keys, and a cleanup that drops the entry with the doc.
var viewCache struct {
	sync.Mutex
	m map[weak.Pointer[doc]]*normView
}

// viewOf returns the normalized view of d's current text, building it only
// when d changed since the last call.
func viewOf(d *doc) *normView {
	key := weak.Make(d)
	viewCache.Lock()
	nv, had := viewCache.m[key]
	viewCache.Unlock()
	if had && sameString(nv.text, d.text()) {
		return nv
	}
	nv = newNormView(d.text())
	viewCache.Lock()
	if viewCache.m == nil {
		viewCache.m = map[weak.Pointer[doc]]*normView{}
	}
	viewCache.m[key] = nv
	viewCache.Unlock()
	if !had {
		runtime.AddCleanup(d, func(k weak.Pointer[doc]) {
			viewCache.Lock()
			delete(viewCache.m, k)
			viewCache.Unlock()
		}, key)
	}
	return nv
}

// sameString reports whether a and b are the very same string (not only
// equal): the cache holds a, so its memory cannot be reused for another
// string while the comparison matters.
func sameString(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

// spaceView is a file as rung 8 compares it: each line of the typography
// view trimmed, with every run of blanks inside it as one space (see
// spaceKey), and where each line starts in the doc's text. Only rung 8
// needs it, after every other rung failed, so it is built per block, not
// cached.
type spaceView struct {
	keys       string
	keyStarts  []int // line starts in keys, ending with len(keys)
	origStarts []int // the same lines' starts in the doc's text
	differs    bool  // some line holds a run of two or more blanks inside it
}

func newSpaceView(nv *normView) *spaceView {
	sv := &spaceView{}
	var b strings.Builder
	b.Grow(len(nv.norm))
	line := 0
	for start := 0; start < len(nv.norm); line++ {
		end := indexByteFrom(nv.norm, start, '\n')
		k := spaceKey(nv.norm[start:end])
		if k != trimBlank(nv.norm[start:end]) {
			sv.differs = true
		}
		sv.keyStarts = append(sv.keyStarts, b.Len())
		sv.origStarts = append(sv.origStarts, nv.orig(start))
		b.WriteString(k)
		b.WriteByte('\n')
		start = end + 1
	}
	sv.keyStarts = append(sv.keyStarts, b.Len())
	sv.origStarts = append(sv.origStarts, len(nv.text))
	sv.keys = b.String()
	return sv
}

// orig maps a line start (or the end) of keys to the doc's text.
func (sv *spaceView) orig(off int) int {
	return sv.origStarts[sort.SearchInts(sv.keyStarts, off)]
}

// spaceKey is what rung 8 compares of a line: typography normalized,
// trimmed, and every run of blanks inside it as one space.
func spaceKey(s string) string {
	s = trimBlank(normTypo(s))
	plain := true // only single spaces inside: nothing to change
	for i := 0; i < len(s) && plain; i++ {
		plain = !isBlankByte(s[i]) || s[i] == ' ' && !isBlankByte(s[i+1])
	}
	if plain {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	blank := false
	for i := 0; i < len(s); i++ {
		if isBlankByte(s[i]) {
			blank = true
			continue
		}
		if blank {
			b.WriteByte(' ')
			blank = false
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

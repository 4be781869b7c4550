package core

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"unsafe"

	"github.com/fsrb/fsrb/internal/scan"
)

const bom = "\uFEFF"

// doc is a target file as the matcher sees it: LF text that always ends
// with a newline, plus what it takes to give back the file's own bytes — its
// BOM, whether it lacked a final newline, and the ending of every line —
// so that bytes outside replaced ranges never change (docs/ARCHITECTURE.md
// "Matching").
//
// The text is flat (one string) or, once blocks have spliced it, a list of
// pieces — slices of the file as read and the REPLACE texts — whose
// concatenation it is: a splice then costs the pieces it touches, not a
// copy of the file (make bench, W1: ten splices a file). Exact
// matching (occurrences) runs on the pieces; every other reader calls
// text(), which joins them once. Strings are never written to, so every
// substring a caller keeps stays valid.
type doc struct {
	flat string // the text when pieces is nil: LF, BOM removed; ends with "\n" unless empty
	// pieces, when not nil, hold the text; nl[i] counts the newlines of
	// pieces[i] (-1 until someone needs it: nlOf), size is the text's
	// length. Every piece is whole lines
	// (ends with "\n"): a line, and so the anchor matching looks for,
	// never spans two pieces.
	pieces []string
	nl     []int
	size   int
	// sparePieces and spareNL are the lists before the last splice,
	// reused by the next one.
	sparePieces []string
	spareNL     []int
	bom         bool
	noFinalEOL  bool   // the file did not end with a newline: keep none
	crlf        []bool // per line of text, whether it ended in CRLF; nil if no line did
	newCRLF     bool   // the file's most frequent line ending is CRLF (new text takes it)

	// expect is how many blocks name the file. From two on, exact
	// matching keeps, per anchor byte, its offsets in loaded, the text as
	// loaded (see occurrencesKept).
	expect int
	loaded string
	kept   []keptPositions

	// The last lineOf answer: a block's line is asked for just before the
	// block is spliced in at the same offset, and each answer counts the
	// newlines of the text before it (50 MB, half way down a 100 MB file).
	memoOff, memoLine int
	memoOK            bool
}

// maxPieces bounds the pieces of a doc: past it, a splice joins them (one
// copy of the file every maxPieces/2 blocks or so), so that the walks over
// the pieces stay short.
const maxPieces = 64

// loadDoc reads data as a file's content: its BOM, line endings and final
// newline.
func loadDoc(data []byte) *doc { return loadDocScanned(data, true) }

// scanText reads a file once for what loading it needs to know first:
// whether it holds a NUL byte (a binary file, refused) and whether a CR
// (its line endings are read; not looked for in a binary file). Two scans
// of each file were as long as finding W2's block in it (BenchmarkW2).
func scanText(data []byte) (nul, cr bool) {
	s := unsafe.String(unsafe.SliceData(data), len(data))
	i := scan.IndexEither(s, 0, '\r')
	switch {
	case i < 0:
		return false, false
	case s[i] == 0:
		return true, false
	}
	return strings.IndexByte(s[i:], 0) >= 0, true
}

// loadDocScanned is loadDoc for data scanText has read: with cr false
// (the data holds no CR) its line endings are not counted.
func loadDocScanned(data []byte, cr bool) *doc {
	d := &doc{}
	if bytes.HasPrefix(data, []byte(bom)) {
		d.bom = true
		data = data[len(bom):]
	}
	// No copy: the bytes read belong to the plan (FileChange.Old) and
	// nothing writes to them after reading; a copy of the file per run is
	// what this saves (make bench, W6).
	s := unsafe.String(unsafe.SliceData(data), len(data))
	crlfs := 0
	if cr {
		crlfs = strings.Count(s, "\r\n")
	}
	if crlfs > 0 {
		lfs := strings.Count(s, "\n") - crlfs
		d.newCRLF = crlfs > lfs || crlfs == lfs && strings.Index(s, "\r\n") < strings.Index(s, "\n")
		// One bool a line, found by a scan: splitLines would build a
		// 40-byte record a line (400 MB of garbage for a 100 MB file).
		d.crlf = make([]bool, 0, crlfs+lfs+1)
		for start := 0; start < len(s); {
			i := strings.IndexByte(s[start:], '\n')
			if i < 0 {
				d.crlf = append(d.crlf, false)
				break
			}
			end := start + i
			d.crlf = append(d.crlf, end > start && s[end-1] == '\r')
			start = end + 1
		}
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	// The final newline is added after the endings are read, so that a
	// last line ending in a lone "\r" keeps it as content.
	if s != "" && !strings.HasSuffix(s, "\n") {
		d.noFinalEOL = true
		s += "\n"
	}
	d.flat, d.loaded = s, s
	return d
}

// text returns the whole text, joining the pieces (once) if need be.
func (d *doc) text() string {
	if d.pieces != nil {
		var b strings.Builder
		b.Grow(d.size)
		for _, p := range d.pieces {
			b.WriteString(p)
		}
		d.flat, d.pieces, d.nl, d.size = b.String(), nil, nil, 0
	}
	return d.flat
}

// adopt takes s as the text, flat, when the pieces hold it: a caller that
// has built the spliced text (a chat snippet's resolution) saves the next
// reader joining it again. s must read as the pieces do; a length that
// differs leaves the doc as it is.
func (d *doc) adopt(s string) {
	if d.pieces == nil || len(s) != d.size {
		return
	}
	d.flat, d.pieces, d.nl, d.size = s, nil, nil, 0
}

// len is len(d.text()) without joining the pieces.
func (d *doc) len() int {
	if d.pieces != nil {
		return d.size
	}
	return len(d.flat)
}

// piece returns the piece that holds offset off (0 <= off < d.len()) and
// that piece's offset; pieces mode only.
func (d *doc) piece(off int) (i, base int) {
	for i, p := range d.pieces {
		if off < base+len(p) {
			return i, base
		}
		base += len(p)
	}
	return len(d.pieces), base
}

// byteAt is d.text()[off] without joining the pieces.
func (d *doc) byteAt(off int) byte {
	if d.pieces == nil {
		return d.flat[off]
	}
	i, base := d.piece(off)
	return d.pieces[i][off-base]
}

// slice is d.text()[start:end] without joining the pieces: a substring
// when one piece holds it, else a copy of that range only.
func (d *doc) slice(start, end int) string {
	if d.pieces == nil {
		return d.flat[start:end]
	}
	if start == end {
		return ""
	}
	i, base := d.piece(start)
	if p := d.pieces[i]; end-base <= len(p) {
		return p[start-base : end-base]
	}
	var b strings.Builder
	b.Grow(end - start)
	for off := start; off < end; i++ {
		p := d.pieces[i]
		from := off - base
		to := min(len(p), end-base)
		b.WriteString(p[from:to])
		off += to - from
		base += len(p)
	}
	return b.String()
}

// equalAt reports whether s sits at offset at of the text.
func (d *doc) equalAt(at int, s string) bool {
	if at < 0 || at+len(s) > d.len() {
		return false
	}
	if d.pieces == nil {
		return d.flat[at:at+len(s)] == s
	}
	i, base := d.piece(at)
	for len(s) > 0 {
		p := d.pieces[i][at-base:]
		n := min(len(p), len(s))
		if p[:n] != s[:n] {
			return false
		}
		s, at, base, i = s[n:], at+n, base+len(d.pieces[i]), i+1
	}
	return true
}

// occurrences is occurrences(d.text(), search, limit) without joining the
// pieces: the anchor line is looked for piece by piece (a line never spans
// two), and the block is checked around each hit across pieces.
func (d *doc) occurrences(search string, limit int) []int {
	if d.expect >= keepMin && d.loaded != "" && len(d.loaded) <= keepMax {
		return d.occurrencesKept(search, limit)
	}
	if d.pieces == nil {
		return occurrences(d.flat, search, limit)
	}
	off, needle := anchorOf(search)
	if needle == "" {
		return occurrences(d.text(), search, limit)
	}
	var out []int
	f := newFinder(needle)
	last := d.size - len(search)
	base := 0
	for _, p := range d.pieces {
		for h := f.index(p, 0); h >= 0; h = f.index(p, h+1) {
			at := base + h - off
			if at < 0 {
				continue
			}
			if at > last {
				return out
			}
			if (at == 0 || d.byteAt(at-1) == '\n') && d.equalAt(at, search) {
				out = append(out, at)
				if len(out) >= limit {
					return out
				}
			}
		}
		base += len(p)
	}
	return out
}

// lineOf returns the zero-based line of an offset in the text.
func (d *doc) lineOf(offset int) int {
	if d.memoOK && d.memoOff == offset {
		return d.memoLine
	}
	n := d.countLines(offset)
	d.memoOff, d.memoLine, d.memoOK = offset, n, true
	return n
}

func (d *doc) countLines(offset int) int {
	if d.pieces == nil {
		if d.memoOK && d.memoOff <= offset {
			// From the last answer on: an ambiguous block's places are
			// asked for in order.
			return d.memoLine + strings.Count(d.flat[d.memoOff:offset], "\n")
		}
		return strings.Count(d.flat[:offset], "\n")
	}
	n, base := 0, 0
	for i, p := range d.pieces {
		if offset < base+len(p) {
			return n + strings.Count(p[:offset-base], "\n")
		}
		n += d.nlOf(i)
		base += len(p)
	}
	return n
}

// nlOf returns the newlines of piece i, counting them the first time.
func (d *doc) nlOf(i int) int {
	if d.nl[i] < 0 {
		d.nl[i] = strings.Count(d.pieces[i], "\n")
	}
	return d.nl[i]
}

// lines counts the newlines of the text.
func (d *doc) lines() int {
	if d.pieces == nil {
		return strings.Count(d.flat, "\n")
	}
	n := 0
	for i := range d.pieces {
		n += d.nlOf(i)
	}
	return n
}

// splice replaces the whole lines [start, end) of the text (offsets at line
// starts) by repl (LF, whole lines). New lines take the file's line ending.
// Earlier texts stay as they were: strings are never written to.
func (d *doc) splice(start, end int, repl string) {
	first := d.lineOf(start) // the line at start; before the text changes
	d.memoOK = false
	lineStart := func(off int) bool { return off == 0 || off == d.len() || d.byteAt(off-1) == '\n' }
	if repl != "" && repl[len(repl)-1] != '\n' || !lineStart(start) || !lineStart(end) {
		// Not whole lines (a create's content without a final newline):
		// pieces need whole lines, so splice the joined text.
		text := d.text()
		d.spliceCRLF(first, strings.Count(text[start:end], "\n"), repl)
		d.flat = text[:start] + repl + text[end:]
		return
	}
	if d.pieces == nil {
		if d.flat == "" {
			d.spliceCRLF(0, 0, repl)
			d.flat = repl
			return
		}
		// The text's newlines are counted when a later block asks for a
		// line past the splice, often never: no copy of the file follows
		// any more (FileChange builds its bytes on demand), so a count
		// here no longer warms the cache for one (BenchmarkW2).
		d.pieces, d.nl, d.size = []string{d.flat}, []int{-1}, len(d.flat)
		d.flat = ""
	}
	// The new lists are built in the spare pair and the old lists become
	// the spare: nothing keeps a doc's lists across a splice, and a new
	// pair per splice was much of what BenchmarkW1 allocated. Sized for
	// every block the file expects (two pieces a splice), so that each of
	// the pair is allocated once, not grown splice by splice.
	want := min(max(len(d.pieces)+2, 2*d.expect+1), maxPieces+2)
	pieces, nl := slices.Grow(d.sparePieces[:0], want), slices.Grow(d.spareNL[:0], want)
	add := func(p string, n int) {
		if p != "" {
			pieces, nl = append(pieces, p), append(nl, n)
		}
	}
	// What comes before start, then repl, then what comes from end on.
	cutPiece, cutAt := -1, 0 // the piece start cuts, and where
	base, counted := 0, 0    // counted: the newlines of the whole pieces before start
	for i, p := range d.pieces {
		if base >= start {
			break
		}
		if base+len(p) <= start {
			n := d.nlOf(i)
			add(p, n)
			counted += n
		} else {
			cutPiece, cutAt = i, start-base
			add(p[:cutAt], first-counted)
		}
		base += len(p)
	}
	add(repl, strings.Count(repl, "\n"))
	removed := strings.Count(d.slice(start, end), "\n")
	base = 0
	for i, p := range d.pieces {
		pend := base + len(p)
		switch {
		case base >= end:
			add(p, d.nl[i])
		case pend > end:
			// end cuts this piece: count what goes, from the cut at
			// start when it is the same piece (a 100 MB piece is not
			// counted twice).
			at := end - base
			if d.nl[i] < 0 {
				add(p[at:], -1) // counted when someone needs it
				break
			}
			var before int
			if i == cutPiece {
				before = first - counted + strings.Count(p[cutAt:at], "\n")
			} else {
				before = strings.Count(p[:at], "\n")
			}
			add(p[at:], d.nl[i]-before)
		}
		base = pend
	}
	d.spliceCRLF(first, removed, repl)
	d.size += len(repl) - (end - start)
	d.sparePieces, d.spareNL = d.pieces[:0], d.nl[:0]
	d.pieces, d.nl = pieces, nl
	if len(d.pieces) == 0 {
		d.pieces, d.nl, d.size = nil, nil, 0
		d.flat = ""
	} else if len(d.pieces) > maxPieces {
		d.text()
	}
}

// spliceCRLF keeps the line endings in step with a splice that replaces
// removed lines at line first by repl.
func (d *doc) spliceCRLF(first, removed int, repl string) {
	if d.crlf == nil {
		return
	}
	added := strings.Count(repl, "\n")
	flags := make([]bool, 0, len(d.crlf)-removed+added)
	flags = append(flags, d.crlf[:first]...)
	for range added {
		flags = append(flags, d.newCRLF)
	}
	d.crlf = append(flags, d.crlf[first+removed:]...)
}

// setText replaces the whole content (a create), with the file's endings.
func (d *doc) setText(s string) {
	d.splice(0, d.len(), s)
	if s != "" {
		d.noFinalEOL = false
	}
}

// setTextCRLF replaces the whole content (a create) by s, LF text whose
// every line the file ends with CRLF; the BOM stays as it was.
func (d *doc) setTextCRLF(s string) {
	nd := loadDoc([]byte(strings.ReplaceAll(s, "\n", "\r\n")))
	nd.bom, nd.expect = d.bom, d.expect
	*d = *nd
}

// empty reports whether the file would hold nothing (a lone BOM counts as
// nothing; docs/ARCHITECTURE.md "Fine print").
func (d *doc) empty() bool { return d.len() == 0 }

// bytes gives the file's content back in its own encoding.
// head is bytes()[:n] (or all of it when shorter) for a doc with no BOM
// and no CRLF line, built from the first pieces only.
func (d *doc) head(n int) []byte {
	size := d.len()
	if d.noFinalEOL && size > 0 {
		size-- // bytes() drops the final "\n"
	}
	n = max(0, min(n, size))
	pieces := d.pieces
	if pieces == nil {
		pieces = []string{d.flat}
	}
	out := make([]byte, 0, n)
	for _, p := range pieces {
		if len(out) == n {
			break
		}
		out = append(out, p[:min(len(p), n-len(out))]...)
	}
	return out
}

func (d *doc) bytes() []byte {
	if !d.bom && d.crlf == nil {
		if d.pieces != nil {
			// One copy, straight from the pieces.
			out := make([]byte, 0, d.size)
			for _, p := range d.pieces {
				out = append(out, p...)
			}
			if d.noFinalEOL {
				out = bytes.TrimSuffix(out, []byte("\n"))
			}
			return out
		}
		// The common case needs no copy: the text is the file's bytes.
		// FileChange.Bytes() is read-only, like every string's bytes.
		out := d.flat
		if d.noFinalEOL {
			out = strings.TrimSuffix(out, "\n")
		}
		return unsafe.Slice(unsafe.StringData(out), len(out))
	}
	var b bytes.Buffer
	b.Grow(d.len() + len(d.crlf) + len(bom))
	if d.bom {
		b.WriteString(bom)
	}
	pieces := d.pieces
	if pieces == nil {
		pieces = []string{d.flat}
	}
	i := 0
	for _, text := range pieces {
		if d.crlf == nil {
			b.WriteString(text)
			continue
		}
		// Every piece is whole lines: no line spans two.
		for start := 0; start < len(text); i++ {
			n := strings.IndexByte(text[start:], '\n')
			b.WriteString(text[start : start+n])
			if i < len(d.crlf) && d.crlf[i] {
				b.WriteByte('\r')
			}
			b.WriteByte('\n')
			start += n + 1
		}
	}
	out := b.Bytes()
	if d.noFinalEOL {
		out = bytes.TrimSuffix(out, []byte("\n"))
		if n := len(d.crlf); n > 0 && d.crlf[n-1] {
			out = bytes.TrimSuffix(out, []byte("\r"))
		}
	}
	return out
}

// writeTo writes bytes() to w without building it, reading d only (a
// FileChange's doc is shared; see fileContent). With no CRLF line the
// pieces go to w as they are, the BOM first; with CRLF lines they go
// through a 64 KiB buffer that puts the "\r"s back.
func (d *doc) writeTo(w io.Writer) (int64, error) { return d.writeToBuf(w, 64<<10) }

// writeToBuf is writeTo with a buffer of size bytes (at least 3) for the
// CRLF case; tests make it small.
func (d *doc) writeToBuf(w io.Writer, size int) (int64, error) {
	pieces := d.pieces
	if pieces == nil {
		pieces = []string{d.flat}
	}
	if d.crlf == nil {
		last := len(pieces) - 1
		for last >= 0 && pieces[last] == "" {
			last--
		}
		var n int64
		put := func(s string) error {
			if s == "" {
				return nil
			}
			m, err := w.Write(unsafe.Slice(unsafe.StringData(s), len(s)))
			n += int64(m)
			return err
		}
		if d.bom {
			if err := put(bom); err != nil {
				return n, err
			}
		}
		for i, p := range pieces[:last+1] {
			if i == last && d.noFinalEOL {
				p = strings.TrimSuffix(p, "\n") // as bytes() does
			}
			if err := put(p); err != nil {
				return n, err
			}
		}
		return n, nil
	}
	b := &heldWriter{w: w, buf: make([]byte, 0, max(size, 3))}
	if d.bom {
		b.put(bom)
	}
	i := 0
	for _, text := range pieces {
		// Every piece is whole lines: no line spans two (as in bytes()).
		for start := 0; start < len(text) && b.err == nil; i++ {
			n := strings.IndexByte(text[start:], '\n')
			b.put(text[start : start+n])
			if i < len(d.crlf) && d.crlf[i] {
				b.put("\r\n")
			} else {
				b.put("\n")
			}
			start += n + 1
		}
	}
	if b.err != nil {
		return b.n, b.err
	}
	// The buffer still holds the last two bytes: bytes()'s trim.
	if d.noFinalEOL {
		b.buf = bytes.TrimSuffix(b.buf, []byte("\n"))
		if n := len(d.crlf); n > 0 && d.crlf[n-1] {
			b.buf = bytes.TrimSuffix(b.buf, []byte("\r"))
		}
	}
	b.flush(0)
	return b.n, b.err
}

// heldWriter buffers what doc.writeTo writes, and holds its last two
// bytes back at every flush so that the final "\n" or "\r\n" a file
// without a final newline drops can still be dropped.
type heldWriter struct {
	w   io.Writer
	buf []byte
	n   int64
	err error
}

func (h *heldWriter) put(s string) {
	for len(s) > 0 && h.err == nil {
		k := min(len(s), cap(h.buf)-len(h.buf))
		h.buf = append(h.buf, s[:k]...)
		s = s[k:]
		if len(h.buf) == cap(h.buf) {
			h.flush(2)
		}
	}
}

// flush writes all but the last keep bytes of the buffer.
func (h *heldWriter) flush(keep int) {
	if h.err != nil || len(h.buf) <= keep {
		return
	}
	m, err := h.w.Write(h.buf[:len(h.buf)-keep])
	h.n += int64(m)
	h.err = err
	h.buf = h.buf[:copy(h.buf, h.buf[len(h.buf)-keep:])]
}

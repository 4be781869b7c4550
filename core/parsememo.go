package core

import (
	"sort"
	"strings"
	"sync"
	"unsafe"
)

// A ParseMemo keeps, from one Parse of a document to the next, what the
// parser read of its chat snippets: an answer streaming into an editor is
// parsed whole on every chunk, and each code block before the one being
// written reads as it did a chunk before, its info string, its name and
// its markers (W8 of make bench: reading them again was most of a chunk's
// parse for a long answer).
//
// A block is taken from the memo only when everything it was read from
// is the same: the text from the line after the previous block through
// its closing fence, at the same offsets. A block whose reading asked
// ParseOptions.Exists is not kept, since files come and go between
// parses, nor is one still open. Every Parse given the memo must have the
// same options; the memo keeps only what the last one used. Safe for
// concurrent use.
type ParseMemo struct {
	mu   sync.Mutex
	last []*snippetRead // what the last parse read or took, in its order
	text string         // the text it parsed
	// undecided: no line of text decides its format (detectFormat), as
	// in a chat answer, which is read to its end for one.
	undecided bool
	// reads is where new readings are made, readsAtOnce to an
	// allocation: every chunk's parse walks the kept readings in order,
	// and readings that lie one after another in memory are read as one
	// stream, where as many scattered ones each miss the cache (a
	// reading holds a 480-byte Block).
	reads []snippetRead
}

const readsAtOnce = 16

// newRead is a new reading's place.
func (m *ParseMemo) newRead() *snippetRead {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.reads) == cap(m.reads) {
		m.reads = make([]snippetRead, 0, readsAtOnce)
	}
	m.reads = m.reads[:len(m.reads)+1]
	return &m.reads[len(m.reads)-1]
}

// snippetKey places a snippet's reading: the bytes it was read from and
// its fence's and closing fence's lines, counted from the first of them.
type snippetKey struct{ from, to, fence, closing int }

// before orders keys as a parse meets them: the parse goes down the text,
// its floor never goes back, and with one floor the fences come in order.
func (k snippetKey) before(o snippetKey) bool {
	return k.from < o.from || k.from == o.from && k.fence < o.fence
}

// snippetRead is what reading the snippet did: the line after it (from
// the key's first line), whether it was a block, and the block and the
// problems it recorded. text is a copy of the bytes it was read from,
// and the block's texts point into it or are copies too (own): a
// chunk's parse reads every kept block, and blocks whose texts lie
// together read faster than slices of as many versions of the document,
// one page each, which they would also keep alive.
type snippetRead struct {
	key      snippetKey
	text     string
	next     int
	ok       bool
	block    Block
	problems []Problem
}

// memoRun is one parse's use of a memo: the last parse's readings, which
// the keys of this one meet in the same order (snippetKey.before), so a
// lookup walks on from the previous one instead of hashing; how much of
// the text is the last parse's (same: a streamed answer only grows, and
// a reading that ends there is the same without a look at its bytes);
// and what this parse read or took, for the next.
type memoRun struct {
	m    *ParseMemo
	prev []*snippetRead
	at   int
	same int
	text string
	cur  []*snippetRead
	// wasUndecided is the last parse's ParseMemo.undecided, undecided
	// this one's.
	wasUndecided, undecided bool
}

func (m *ParseMemo) begin(text string) *memoRun {
	m.mu.Lock()
	prev, last, undecided := m.last, m.text, m.undecided
	m.mu.Unlock()
	return &memoRun{m: m, prev: prev, same: CommonPrefix(text, last), text: text, cur: make([]*snippetRead, 0, len(prev)+1), wasUndecided: undecided}
}

// end hands what this parse used to the next; what it did not use is
// dropped.
func (r *memoRun) end() {
	r.m.mu.Lock()
	defer r.m.mu.Unlock()
	r.m.last, r.m.text, r.m.undecided = r.cur, r.text, r.undecided
}

// undecidedLines is how many of lines (the text's) are known to decide
// no format: when no line of the last text did, those the two texts share
// with the line after them (formatOfLine looks at the next line too).
func (r *memoRun) undecidedLines(lines []line) int {
	if r == nil || !r.wasUndecided {
		return 0
	}
	// The first line not whole within the shared prefix, newline and all.
	j := sort.Search(len(lines), func(i int) bool { return lines[i].next > r.same })
	if j > 0 && lines[j-1].next == lines[j-1].end {
		j-- // the text's last line, without a newline: it may go on
	}
	return max(0, j-1)
}

// decided records whether some line of the text decided its format.
func (r *memoRun) decided(yes bool) {
	if r != nil {
		r.undecided = !yes
	}
}

// CommonPrefix is the length of the longest prefix a and b share: where
// an edit of a into b starts. It compares blocks of bytes at a time, the
// runtime's vectorised compare, narrowing the block to a byte at the
// first that differs: a byte loop over a last block of 512 was most of a
// splice's look for the edit.
func CommonPrefix(a, b string) int {
	n := min(len(a), len(b))
	if a[:n] == b[:n] {
		return n // one comparison, the usual case of a stream
	}
	i := 0
	for _, step := range commonSteps {
		for i+step <= n && a[i:i+step] == b[i:i+step] {
			i += step
		}
	}
	return i
}

// commonSteps are the block lengths CommonPrefix and CommonSuffix compare
// by, in turn; the last is a byte.
var commonSteps = [...]int{512, 64, 8, 1}

// CommonSuffix is the length of the longest suffix a and b share, as
// CommonPrefix compares.
func CommonSuffix(a, b string) int {
	n := min(len(a), len(b))
	if a[len(a)-n:] == b[len(b)-n:] {
		return n
	}
	i := 0
	for _, step := range commonSteps {
		for i+step <= n && a[len(a)-i-step:len(a)-i] == b[len(b)-i-step:len(b)-i] {
			i += step
		}
	}
	return i
}

func (r *memoRun) get(k snippetKey, text string) (*snippetRead, bool) {
	for r.at < len(r.prev) && r.prev[r.at].key.before(k) {
		r.at++
	}
	if r.at == len(r.prev) {
		return nil, false
	}
	s := r.prev[r.at]
	if s.key != k || k.to > r.same && s.text != text {
		return nil, false
	}
	r.at++
	r.cur = append(r.cur, s)
	return s, true
}

// snippet is readSnippet through the memo, when the parse has one.
func (p *parser) snippet(i int, open fence, closing int) (next int, ok bool) {
	m := p.memo
	if m == nil || closing < 0 {
		return p.readSnippet(i, open, closing)
	}
	floor := min(p.floor, i)
	k := snippetKey{from: p.lines[floor].start, to: p.lines[closing].end, fence: i - floor, closing: closing - floor}
	text := p.text[k.from:k.to]
	if r, hit := m.get(k, text); hit {
		if !r.ok {
			return 0, false
		}
		// Appended as it is and numbered in place: a Block is large, and a
		// copy on the way is a second read of it.
		p.patch.Blocks = append(p.patch.Blocks, r.block)
		n := len(p.patch.Blocks)
		p.patch.Blocks[n-1].Number = n
		for _, pr := range r.problems {
			if pr.Block == r.block.Number {
				pr.Block = n
			}
			p.problem(pr)
		}
		p.floor = floor + r.next
		return floor + r.next, true
	}
	exists, asked := p.opt.Exists, false
	if exists != nil {
		p.opt.Exists = func(path string) bool {
			asked = true
			return exists(path)
		}
	}
	blocks, problems := len(p.patch.Blocks), len(p.patch.Problems)
	next, ok = p.readSnippet(i, open, closing)
	p.opt.Exists = exists
	if asked {
		return next, ok
	}
	r := m.m.newRead()
	*r = snippetRead{key: k, text: strings.Clone(text), ok: ok}
	if ok {
		r.next = next - floor
		r.block = p.patch.Blocks[blocks]
		r.problems = append([]Problem(nil), p.patch.Problems[problems:]...)
		r.own(text)
		r.samePath(m.cur)
	}
	m.cur = append(m.cur, r)
	return next, ok
}

// own makes the block's texts the memo's: each that lies in was (the
// bytes the block was read from) points at the same bytes of r.text, and
// any other is copied. A snippet has no texts but these (its Anchors,
// Hashes and MoveTo are the edit formats').
func (r *snippetRead) own(was string) {
	b := &r.block
	for _, s := range []*string{&b.Path, &b.Search, &b.Replace, &b.Lang, &b.Label} {
		*s = rebase(*s, was, r.text)
	}
	for i := range r.problems {
		pr := &r.problems[i]
		pr.Path, pr.Snippet = rebase(pr.Path, was, r.text), rebase(pr.Snippet, was, r.text)
	}
}

// samePath gives the block the very path string of the last reading
// before it, when they name the same file, as an answer's blocks for one
// file mostly follow each other. Each chunk's validation compares every
// block's path with its neighbour's and looks it up; one string compares
// by its pointer, where two copies compare their bytes, which by the
// next chunk are out of the cache.
func (r *snippetRead) samePath(before []*snippetRead) {
	for i := len(before) - 1; i >= 0; i-- {
		if b := before[i]; b.ok {
			if b.block.Path == r.block.Path {
				r.block.Path = b.block.Path
			}
			return
		}
	}
}

// rebase is s at the same place in to when s lies within from (to is a
// copy of from), else a copy of s.
func rebase(s, from, to string) string {
	if s == "" {
		return ""
	}
	if from != "" && len(s) <= len(from) {
		at := uintptr(unsafe.Pointer(unsafe.StringData(s))) - uintptr(unsafe.Pointer(unsafe.StringData(from)))
		if at <= uintptr(len(from)-len(s)) {
			return to[at : int(at)+len(s)]
		}
	}
	return strings.Clone(s)
}

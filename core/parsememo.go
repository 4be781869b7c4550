package core

import "sync"

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
	mu        sync.Mutex
	cur, prev map[snippetKey]*snippetRead
}

// snippetKey places a snippet's reading: the bytes it was read from and
// its fence's and closing fence's lines, counted from the first of them.
type snippetKey struct{ from, to, fence, closing int }

// snippetRead is what reading the snippet did: the line after it (from
// the key's first line), whether it was a block, and the block and the
// problems it recorded.
type snippetRead struct {
	text     string
	next     int
	ok       bool
	block    Block
	problems []Problem
}

func (m *ParseMemo) get(k snippetKey, text string) (*snippetRead, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.cur[k]
	if r == nil {
		r = m.prev[k]
	}
	if r == nil || r.text != text {
		return nil, false
	}
	m.keep(k, r)
	return r, true
}

func (m *ParseMemo) put(k snippetKey, r *snippetRead) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.keep(k, r)
}

// keep marks r used by this parse. m.mu is held.
func (m *ParseMemo) keep(k snippetKey, r *snippetRead) {
	if m.cur == nil {
		m.cur = map[snippetKey]*snippetRead{}
	}
	m.cur[k] = r
}

// turn ends a parse: what it did not use is dropped at the end of the
// next. The two maps trade places, so that a long answer's memo is not
// built anew on every chunk.
func (m *ParseMemo) turn() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.prev, m.cur = m.cur, m.prev
	clear(m.cur)
}

// snippet is readSnippet through the memo, when the parse has one.
func (p *parser) snippet(i int, open fence, closing int) (next int, ok bool) {
	m := p.opt.Memo
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
		b := r.block
		b.Number = len(p.patch.Blocks) + 1
		for _, pr := range r.problems {
			if pr.Block == r.block.Number {
				pr.Block = b.Number
			}
			p.problem(pr)
		}
		p.patch.Blocks = append(p.patch.Blocks, b)
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
	r := &snippetRead{text: text, ok: ok}
	if ok {
		r.next = next - floor
		r.block = p.patch.Blocks[blocks]
		r.problems = append([]Problem(nil), p.patch.Problems[problems:]...)
	}
	m.put(k, r)
	return next, ok
}

package treesitter

import (
	"bytes"
	"context"
	"hash/maphash"
	"strings"
	"sync"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/fsrb/fsrb/core"
)

// Outline implements core.Outliner: the items of text, the file at path
// or a snippet of it, as the path's grammar reads them (outlinewalk.go).
// ok is false when no grammar claims the path, or the parse gave up.
//
// A definition's doc comments and decorators (its Lead lines) are part
// of it, not items of their own; every other comment is an item.
//
// The text is dedented by its common indentation before the parse, so a
// method cut out of its class parses as a definition; lines are the
// text's own either way. A text that does not parse cleanly is tried
// again inside a wrapper its language allows (statements in a function,
// methods in a class; outlineRepairs), or, in Python, with an empty
// block's comment taken for a statement; when that does not parse
// either, the items are what the tree holds outside its ERROR nodes.
//
// The tree comes from the cache (by path and content), and the cache
// keeps the latest outlines by path and text apart from the trees: calls
// for the same text share the items, which callers must not modify.
func (c *Cache) Outline(path, text string) ([]core.Item, bool) {
	items, h, ok := c.outlines.get(path, text)
	if ok {
		return items, true
	}
	// Read in place, and kept so: a string's bytes, or dedented's copy,
	// are never written to.
	src := unsafe.Slice(unsafe.StringData(text), len(text))
	lang := LanguageFor(path, src)
	if lang == nil {
		return nil, false
	}
	t, err := c.parse(context.Background(), path, 0, dedented(src), nil, true)
	if err != nil {
		return nil, false
	}
	// Not dedented, the tree's content is the text: a splice may read it.
	plain := len(t.content) == len(text)
	o, _ := t.outline(c.outlines.nearest(path), plain)
	c.outlines.put(path, h, text, o, len(t.lines))
	return o.items, true
}

// outlineMemo keeps the latest outlines by path and text, least recently
// used out first. Its zero value is empty and ready. The entries are a
// slice, not a map: every lookup first looks for the very string it is
// given (get), and a splice for the entry used last (nearest), which
// read every entry either way, and a map's iteration costs several
// times a slice's for so few.
type outlineMemo struct {
	mu      sync.Mutex
	tick    uint64
	entries []*outlineEntry
}

type outlineEntry struct {
	path   string
	hash   uint64 // of text
	text   string
	items  []core.Item
	tops   []flatNode   // outline.tops
	bodies [][]flatNode // outline.bodies
	lines  int          // how many lines the text has
	used   uint64
}

// holds reports whether e is the outline of text (its hash h) at path.
func (e *outlineEntry) holds(path string, h uint64, text string) bool {
	return e.hash == h && e.path == path && e.text == text
}

// outlinesKept is how many outlines a cache keeps: an answer's snippets
// and their files, for a few answers.
const outlinesKept = 32

func (m *outlineMemo) get(path, text string) ([]core.Item, uint64, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	// A resolver outlines again the very string it outlined before: the
	// text a block writes, which its stability check outlines and the
	// next block of the file resolves against. Found by its memory, it
	// needs no hash of the whole text; a string's bytes never change.
	for _, e := range m.entries {
		if sameString(e.text, text) && e.path == path {
			m.tick++
			e.used = m.tick
			return e.items, e.hash, true
		}
	}
	h := maphash.String(seed, text)
	for _, e := range m.entries {
		if e.holds(path, h, text) {
			m.tick++
			e.used = m.tick
			return e.items, h, true
		}
	}
	return nil, h, false
}

// sameString reports whether a and b are the same memory and length.
func sameString(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

// nearest is the kept outline of path that a splice of a new text's
// outline starts from: the one used last. A splice reads again what lies
// between the two texts' common ends, and the text outlined last is the
// one a new text is most often an edit of: a resolver outlines a file,
// then the file as the block writes it (its stability check). Comparing
// the new text with every kept outline of the path, for the one sharing
// the most bytes, read each whole. A snippet outlined under its file's
// path is kept with the file's own outlines.
func (m *outlineMemo) nearest(path string) *outlineEntry {
	m.mu.Lock()
	defer m.mu.Unlock()
	var last *outlineEntry
	for _, e := range m.entries {
		if e.path == path && e.tops != nil && (last == nil || e.used > last.used) {
			last = e
		}
	}
	return last
}

// put keeps o as the outline of text, whose hash is h (as get gave it),
// and keeps text, the caller's string, which the next get may be given
// again: a string's bytes are never modified.
func (m *outlineMemo) put(path string, h uint64, text string, o outline, lines int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tick++
	e := &outlineEntry{path: path, hash: h, text: text, items: o.items, tops: o.tops, bodies: o.bodies, lines: lines, used: m.tick}
	for i, old := range m.entries {
		if old.holds(path, h, text) {
			m.entries[i] = e // outlined again by another caller meanwhile
			return
		}
	}
	if len(m.entries) < outlinesKept {
		m.entries = append(m.entries, e)
		return
	}
	lru := 0
	for i, old := range m.entries {
		if old.used < m.entries[lru].used {
			lru = i
		}
	}
	m.entries[lru] = e
}

// Outline is Cache.Outline with no cache, for one-shot use.
func Outline(path, text string) ([]core.Item, bool) {
	src := []byte(text)
	lang := LanguageFor(path, src)
	if lang == nil {
		return nil, false
	}
	src = dedented(src)
	st, err := lang.parse(context.Background(), DefaultParseTimeout, nil, src)
	if err != nil {
		return nil, false
	}
	return newTree(lang, path, 0, src, 0, st).Outline(), true
}

// Outline returns the items of the tree's content (see Cache.Outline).
// The tree does not keep them: Cache.Outline keeps the latest outlines
// apart, and a cache holds a few trees of every file an answer writes,
// whose outlines would stay in the collector's way as long as they do.
func (t *Tree) Outline() []core.Item {
	o, _ := t.outline(nil, false)
	return o.items
}

// repairedOutline is the outline of the tree's content made to parse
// cleanly by a repair, if one does. A Python block of comments alone is
// repaired even when the tree has no error: the grammar reads it as an
// empty block, and its comments as the statements after it. t.mu is
// held.
func (t *Tree) repairedOutline(hasError bool) ([]core.Item, bool) {
	if t.Lang.Name == "python" {
		src, rows := passForEmptyBlocks(t.content)
		if rows == nil {
			return nil, false
		}
		rt, ok := cleanParse(t.Lang, src)
		if !ok {
			return nil, false
		}
		return outlineOf(t.Lang, src, lineStarts(src), rt, func(w *walker) { w.passRows = rows }), true
	}
	if !hasError {
		return nil, false
	}
	for _, r := range outlineRepairs(t.Lang.Name) {
		src := make([]byte, 0, len(r.prefix)+len(t.content)+len(r.suffix))
		src = append(append(append(src, r.prefix...), t.content...), r.suffix...)
		rt, ok := cleanParse(t.Lang, src)
		if !ok {
			continue
		}
		items := outlineOf(t.Lang, src, lineStarts(src), rt, func(w *walker) { w.wrapped = true })
		if len(items) != 1 || items[0].Start != 0 {
			continue
		}
		return shifted(items[0].Kids, -1), true
	}
	return nil, false
}

// cleanParse parses src afresh and reports whether it holds no error.
func cleanParse(lang *Language, src []byte) (*sitter.Tree, bool) {
	st, err := lang.parse(context.Background(), DefaultParseTimeout, nil, src)
	if err != nil || st.RootNode().HasError() {
		return nil, false
	}
	return st, true
}

// commentAfterOpener reports whether a comment line of src follows a
// line ending in ":" with only comments and blank lines between, as a
// block of comments alone does: without one, passForEmptyBlocks has
// nothing to change, and this look, which every outline of a Python file
// pays, allocates nothing. It goes from one "#" to the next, a vectorised
// search, rather than trimming every line: a file's comments are few.
func commentAfterOpener(src []byte) bool {
	checked := -1 // the start of the last comment line looked above
	for at := 0; ; {
		k := bytes.IndexByte(src[at:], '#')
		if k < 0 {
			return false
		}
		k += at
		start := bytes.LastIndexByte(src[:k], '\n') + 1
		end := len(src)
		if e := bytes.IndexByte(src[k:], '\n'); e >= 0 {
			end = k + e
		}
		at = end
		if line := bytes.TrimSpace(src[start:end]); len(line) == 0 || line[0] != '#' {
			continue
		}
		if openerAbove(src[:start], checked) {
			return true
		}
		checked = start
	}
}

// openerAbove reports whether the last line of above (whole lines) that
// is neither blank nor a comment ends with ":". Reaching the line that
// starts at checked, a comment line already looked above, it reports no:
// a run of comment lines is read once.
func openerAbove(above []byte, checked int) bool {
	for len(above) > 0 {
		end := len(above) - 1 // its newline
		start := bytes.LastIndexByte(above[:end], '\n') + 1
		if start == checked {
			return false
		}
		line := bytes.TrimSpace(above[start:end])
		above = above[:start]
		if len(line) > 0 && line[0] != '#' {
			return line[len(line)-1] == ':'
		}
	}
	return false
}

// passForEmptyBlocks returns Python source in which the last comment line
// of each block that holds only comments (a block opened by a line ending
// in ":", whose next code line is indented no deeper than that line) is
// "pass", and the rows it changed; nil rows when there is none.
func passForEmptyBlocks(src []byte) ([]byte, map[int]bool) {
	if !commentAfterOpener(src) {
		return src, nil
	}
	return emptyBlockPasses(src)
}

// emptyBlockPasses is passForEmptyBlocks without the first look.
func emptyBlockPasses(src []byte) ([]byte, map[int]bool) {
	lines := bytes.SplitAfter(src, []byte("\n"))
	indent := func(l []byte) int { return len(l) - len(bytes.TrimLeft(l, " \t")) }
	code := func(l []byte) bool {
		s := bytes.TrimSpace(l)
		return len(s) > 0 && s[0] != '#'
	}
	var rows map[int]bool
	opener := -1 // the last code line, when it opens a block
	for i := 0; i < len(lines); i++ {
		if code(lines[i]) {
			opener = -1
			if bytes.HasSuffix(bytes.TrimSpace(lines[i]), []byte(":")) {
				opener = i
			}
			continue
		}
		if opener < 0 || len(bytes.TrimSpace(lines[i])) == 0 {
			continue
		}
		// A comment after an opener: is the block empty? Its comments
		// are those indented deeper than the opener.
		last, j, in := -1, i, true
		for ; j < len(lines) && !code(lines[j]); j++ {
			if len(bytes.TrimSpace(lines[j])) == 0 {
				continue
			}
			if in = in && indent(lines[j]) > indent(lines[opener]); in {
				last = j
			}
		}
		if last >= 0 && (j == len(lines) || indent(lines[j]) <= indent(lines[opener])) {
			if rows == nil {
				rows = map[int]bool{}
				lines = append([][]byte(nil), lines...)
			}
			nl := ""
			if bytes.HasSuffix(lines[last], []byte("\n")) {
				nl = "\n"
			}
			lines[last] = []byte(string(lines[last][:indent(lines[last])]) + "pass" + nl)
			rows[last] = true
		}
		opener, i = -1, j-1
	}
	if rows == nil {
		return src, nil
	}
	return bytes.Join(lines, nil), rows
}

// dedented returns src without the indentation all its non-blank lines
// share (a method cut out of its class), src itself when they share
// none. Lines keep their numbers.
func dedented(src []byte) []byte {
	var common []byte
	first := true
	for rest := src; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		ws := line[:len(line)-len(bytes.TrimLeft(line, " \t"))]
		if first {
			common, first = ws, false
			continue
		}
		n := 0
		for n < len(common) && n < len(ws) && common[n] == ws[n] {
			n++
		}
		if common = common[:n]; n == 0 {
			return src
		}
	}
	if len(common) == 0 {
		return src
	}
	out, _ := dedent(src, 0, len(src), len(common))
	return out
}

// symbols caches a grammar's node type names and which are named: the
// outline asks them of every node it looks at, and the binding's Type
// is a cgo call and a fresh string each time.
type symbols struct {
	names  []string
	named  []bool
	fields map[string]uint16
	flags  []byte        // per symbol: symbolDefinition, symbolDescend
	roles  []outlineRole // per named symbol
}

var symbolTables sync.Map // *Language → *symbols

func symbolsOf(l *Language) *symbols {
	if s, ok := symbolTables.Load(l); ok {
		return s.(*symbols)
	}
	g := l.grammarLanguage()
	n := int(g.SymbolCount())
	s := &symbols{names: make([]string, n), named: make([]bool, n), fields: map[string]uint16{}, flags: make([]byte, n), roles: make([]outlineRole, n)}
	roots := map[string]bool{} // the node types the definition patterns match
	for _, p := range l.plainPatterns() {
		roots[p.root.types[0]] = true
	}
	for i := range n {
		s.names[i] = g.SymbolName(sitter.Symbol(i))
		s.named[i] = g.SymbolType(sitter.Symbol(i)) == sitter.SymbolTypeRegular
		if s.named[i] && roots[s.names[i]] {
			s.flags[i] |= symbolDefinition
		}
		if s.named[i] && outlineDescend(s.names[i]) {
			s.flags[i] |= symbolDescend
		}
		if s.named[i] {
			s.roles[i] = outlineRoles(s.names[i])
		}
	}
	for id := 1; ; id++ {
		name := g.FieldName(id)
		if name == "" {
			break
		}
		s.fields[name] = uint16(id)
	}
	got, _ := symbolTables.LoadOrStore(l, s)
	return got.(*symbols)
}

// normalize joins b's words with single spaces.
func normalize(b []byte) string {
	plain := len(b) > 0 && b[0] != ' ' && b[len(b)-1] != ' '
	for i := 0; plain && i < len(b); i++ {
		c := b[i]
		plain = c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f' && (c != ' ' || b[i+1] != ' ') && c < 0x80
	}
	if plain {
		return string(b)
	}
	return strings.Join(strings.Fields(string(b)), " ")
}

package treesitter

import (
	"bytes"
	"math"
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/fsrb/fsrb/core"
)

// walker reads one tree's outline: at each level (the file, a body), the
// named nodes that start a line of their own, each an Item. It reads the
// tree flattened (flat.go) and node types from a symbol table: no cgo call
// a node.
type walker struct {
	syms  *symbols
	src   []byte
	lines []int      // line start offsets of src
	f     []flatNode // the tree, f[0] its root
	pats  []plainPattern

	// passRows are the rows where a Python repair put "pass" for a
	// comment (passForEmptyBlocks): items there are comments.
	passRows map[int]bool
	// wrapped: the text is inside a repair's wrapper, named "_", which is
	// no scope.
	wrapped bool

	// drafted and listed are stacks of scratch memory: the drafts of
	// the levels being read, and the nodes of the bodies being read,
	// each level's above its parent's.
	drafted []draft
	listed  []nid
}

// nid is a node of the flattened tree, an index in walker.f; 0, the
// root, stands for none where a child is asked for.
type nid = uint32

// maxScanDepth bounds the search for bodies inside one item (a callback
// in a call in a declaration...).
const maxScanDepth = 8

// outlineOf returns the outline of src, its line starts and its tree t,
// with setup (if any) run on the walker first. The caller holds t.
func outlineOf(lang *Language, src []byte, lines []int, t *sitter.Tree, setup func(*walker)) []core.Item {
	items, _, _ := outlineTops(lang, src, lines, t, setup)
	return items
}

// outlineTops is outlineOf, with the root's children it read (topsOf)
// and the members of those that are classes (bodiesOf), which a later
// outline of an edited text is spliced against.
func outlineTops(lang *Language, src []byte, lines []int, t *sitter.Tree, setup func(*walker)) ([]core.Item, []flatNode, [][]flatNode) {
	syms := symbolsOf(lang)
	nodes, free := flattenTree(t, src, syms.flags, 0, math.MaxUint32, 1)
	defer free()
	if len(nodes) == 0 {
		return nil, nil, nil
	}
	w := newWalker(lang, syms, src, lines, nodes)
	if setup != nil {
		setup(w)
	}
	ids := rootKids(nodes)
	return w.top(), topsOf(nodes, ids), w.bodiesOf(ids)
}

func newWalker(lang *Language, syms *symbols, src []byte, lines []int, nodes []flatNode) *walker {
	return &walker{syms: syms, src: src, lines: lines, pats: lang.plainPatterns(), f: nodes}
}

// levelCtx is what a level's items inherit: the scope its definitions
// are members of, and whether it is a container's body (a class, impl,
// trait...: its functions are methods).
type levelCtx struct {
	scope     string
	container bool
}

// draft is an item of a level before the level's doc comments and
// attributes are joined to the definitions below them.
type draft struct {
	core.Item
	comment, attr, absorbed bool
}

// typed is a node and its type.
type typed struct {
	n   nid
	typ string
}

// bodyScan is what the search of an item for its bodies found.
type bodyScan struct {
	kids, clauses []core.Item
	found         bool // a body: head and tail are set
	head, tail    int
	headerEnd     int // byte where the item's first body (or its ":") starts; -1 when none
}

func newScan() bodyScan { return bodyScan{headerEnd: -1} }

// addKids adds a level's items to the kids: the first level's slice is
// taken as it is (leads makes it for the caller alone), not copied.
func (s *bodyScan) addKids(items []core.Item) {
	switch {
	case len(items) == 0:
	case s.kids == nil:
		s.kids = items
	default:
		s.kids = append(s.kids, items...)
	}
}

// fill sets the item's Kids, Head and Tail from the scan: a leaf when it
// found no body, or one that opens and closes on one line.
func (s *bodyScan) fill(it *core.Item) {
	if !s.found && len(s.clauses) == 0 || s.found && s.head > s.tail && len(s.kids)+len(s.clauses) == 0 {
		return
	}
	kids := append(s.kids, s.clauses...)
	if kids == nil {
		kids = []core.Item{}
	}
	it.Kids = kids
	if s.found {
		it.Head, it.Tail = s.head, max(s.head, s.tail)
	}
}

// is reports whether n's type has role r (outlinerules.go).
func (w *walker) is(n nid, r outlineRole) bool {
	s := int(w.f[n].symbol)
	return s < len(w.syms.roles) && w.syms.roles[s]&r != 0
}

func (w *walker) kind(n nid) (string, bool) {
	s := int(w.f[n].symbol)
	if s < len(w.syms.names) {
		return w.syms.names[s], w.syms.named[s]
	}
	return "ERROR", true // tree-sitter's error symbols are past the grammar's
}

// children returns n's children.
func (w *walker) children(n nid) []nid {
	var out []nid
	for ch := w.f[n].kids; ch != 0; ch = w.f[ch].next {
		out = append(out, ch)
	}
	return out
}

// field returns n's first child in the field name, 0 when none.
func (w *walker) field(n nid, name string) nid {
	id, ok := w.syms.fields[name]
	if !ok {
		return 0
	}
	for ch := w.f[n].kids; ch != 0; ch = w.f[ch].next {
		if w.f[ch].field == id {
			return ch
		}
	}
	return 0
}

func (w *walker) sp(n nid) sitter.Point {
	return sitter.Point{Row: w.f[n].startRow, Column: w.f[n].startCol}
}

func (w *walker) ep(n nid) sitter.Point {
	return sitter.Point{Row: w.f[n].endRow, Column: w.f[n].endCol}
}

// lastNamed returns n's last named child that is not a comment.
func (w *walker) lastNamed(n nid) nid {
	var last nid
	for ch := w.f[n].kids; ch != 0; ch = w.f[ch].next {
		if _, named := w.kind(ch); named && !w.is(ch, rComment) {
			last = ch
		}
	}
	return last
}

// firstPoint is where the text of a node that starts at p starts: past
// the blanks and newlines some grammars' tokens begin with (a JSX child
// element's "<" holds the line break before it).
func (w *walker) firstPoint(p sitter.Point) sitter.Point {
	if int(p.Row) >= len(w.lines) {
		return p
	}
	at := w.lines[p.Row] + int(p.Column)
	for at < len(w.src) {
		switch w.src[at] {
		case ' ', '\t', '\r':
			p.Column++
		case '\n':
			p.Row, p.Column = p.Row+1, 0
		default:
			return p
		}
		at++
	}
	return p
}

// startsLine reports whether only blanks come before p on its line.
func (w *walker) startsLine(p sitter.Point) bool {
	if int(p.Row) >= len(w.lines) {
		return false
	}
	at := w.lines[p.Row]
	for _, c := range w.src[at : at+int(p.Column)] {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// endLine is the line after the last one of [sp, ep).
func endLine(sp, ep sitter.Point) int {
	if ep.Column == 0 && ep.Row > sp.Row {
		return int(ep.Row)
	}
	return int(ep.Row) + 1
}

func (w *walker) text(n nid) string {
	if n == 0 {
		return ""
	}
	return normalize(w.src[w.f[n].startByte:w.f[n].endByte])
}

// top returns the items of the tree under root.
func (w *walker) top() []core.Item {
	return w.level(w.children(0), levelCtx{})
}

// level returns the items among nodes, the named children of a body.
func (w *walker) level(nodes []nid, c levelCtx) []core.Item {
	mark := len(w.drafted)
	w.drafts(nodes, c)
	items := leads(w.drafted[mark:])
	w.drafted = w.drafted[:mark]
	return items
}

func (w *walker) drafts(nodes []nid, c levelCtx) {
	for _, n := range nodes {
		typ, named := w.kind(n)
		if !named {
			continue
		}
		if typ == "ERROR" {
			// What parsed inside an error is still the level's, but
			// the error itself is no item.
			w.drafts(w.children(n), c)
			continue
		}
		if sp := w.firstPoint(w.sp(n)); w.startsLine(sp) {
			d := w.item(n, typ, sp, c) // may draft a level of its own first
			w.drafted = append(w.drafted, d)
		}
	}
}

// leads joins doc comments and attributes to the definition right below
// them (no blank line between): its Lead is their first line, and they
// are no items of their own (a marker line there is the resolver's to
// see in the definition's lead).
func leads(ds []draft) []core.Item {
	absorbed := 0
	for i := range ds {
		if ds[i].Kind == "" {
			continue
		}
		lead := ds[i].Lead
		for j := i - 1; j >= 0 && (ds[j].comment || ds[j].attr) && ds[j].End == lead; j-- {
			lead = ds[j].Lead
			if !ds[j].absorbed {
				ds[j].absorbed = true
				absorbed++
			}
		}
		ds[i].Lead = lead
	}
	out := make([]core.Item, 0, len(ds)-absorbed)
	for i := range ds {
		if !ds[i].absorbed {
			out = append(out, ds[i].Item)
		}
	}
	return out
}

// item reads node n of type typ, which starts a line at sp.
func (w *walker) item(n nid, typ string, sp sitter.Point, c levelCtx) draft {
	ep := w.ep(n)
	var d draft
	d.Lead, d.Start, d.End = int(sp.Row), int(sp.Row), endLine(sp, ep)
	d.Head, d.Tail = d.End, d.End
	switch {
	case w.is(n, rComment) || typ == "pass_statement" && w.passRows[d.Start]:
		d.comment = true
		return d
	case w.is(n, rDecorator):
		d.attr = true
		return d
	}
	var buf [4]typed
	chain := w.unwrap(n, typ, &buf)
	for _, u := range chain {
		if f, ok := w.definition(u); ok {
			w.define(&d.Item, n, u, f, c)
			return d
		}
	}
	s := newScan()
	inner := chain[len(chain)-1]
	if ep.Row > sp.Row {
		switch {
		case w.is(inner.n, rSelfBodied):
			w.selfBody(inner.n, levelCtx{}, &s)
		case w.is(inner.n, rBody): // a JSX element, a block
			w.body(inner.n, nil, d.Start+1, levelCtx{}, &s)
		default:
			w.scan(inner.n, inner.typ, levelCtx{}, 0, &s)
		}
	}
	d.Key = w.statementKey(chain, &s)
	s.fill(&d.Item)
	return d
}

// unwrap returns n and the nodes it stands for (outlineWrappers), outer
// first.
func (w *walker) unwrap(n nid, typ string, buf *[4]typed) []typed {
	chain := append(buf[:0], typed{n, typ})
	end := w.ep(n).Row
	for i := 0; i < 3 && w.is(n, rWrapper); i++ {
		last := w.lastNamed(n)
		if last == 0 || w.ep(last).Row != end {
			break
		}
		n = last
		typ, _ = w.kind(n)
		chain = append(chain, typed{n, typ})
	}
	return chain
}

// definition matches u against the language's definition patterns.
func (w *walker) definition(u typed) (found, bool) {
	if sym := int(w.f[u.n].symbol); w.pats == nil || sym >= len(w.syms.flags) || w.syms.flags[sym]&symbolDefinition == 0 {
		return found{}, false
	}
	return w.matchPlain(u.n)
}

// define fills a definition's item: item node n, definition node def.
func (w *walker) define(it *core.Item, n nid, def typed, f found, c levelCtx) {
	name := ""
	if f.nameStart >= 0 {
		name = normalize(w.src[f.nameStart:f.nameEnd])
	}
	kind := f.kind
	if kind == "function" && c.container {
		kind = "method"
	}
	scope := c.scope
	if f.receiver != "" {
		scope = f.receiver
	}
	kidScope := name
	if kind == "impl" {
		if tr := w.field(def.n, "trait"); tr != 0 {
			name = w.text(tr) + " for " + name
		}
	}
	it.Kind, it.Name, it.Scope = kind, name, scope
	it.Key = strings.TrimSpace(kind + " " + name)
	if scope != "" {
		it.Key = kind + " " + scope + "." + name
	}
	if r := w.keywordRow(n); r >= 0 {
		it.Start = r
	}
	kc := levelCtx{}
	if containerKind(kind) && kind != "module" && kind != "namespace" {
		kc = levelCtx{scope: kidScope, container: true}
		if w.wrapped && kidScope == "_" {
			kc.scope = ""
		}
	}
	if w.ep(n).Row > w.sp(n).Row {
		s := newScan()
		w.scan(def.n, def.typ, kc, 0, &s)
		s.fill(it)
	}
}

// keywordRow is the row of n's first child that is not a decorator,
// annotation or comment: the definition's own first line. -1 when none.
func (w *walker) keywordRow(n nid) int {
	for ch := w.f[n].kids; ch != 0; ch = w.f[ch].next {
		if w.is(ch, rDecorator) || w.is(ch, rComment) {
			continue
		}
		if typ, _ := w.kind(ch); typ == "modifiers" {
			if r := w.keywordRow(ch); r >= 0 {
				return r
			}
			continue
		}
		return int(w.firstPoint(w.sp(ch)).Row)
	}
	return -1
}

// scan searches n, an item or a node inside one, for its bodies (their
// items become the item's kids) and its clauses (else, except...).
func (w *walker) scan(n nid, typ string, c levelCtx, depth int, s *bodyScan) {
	prevRow := int(w.sp(n).Row) // where the last child before the next one ended
	colon, elseRow := -1, -1
	isIf := w.is(n, rIf)
	// Comments between a header and its body are the header's children
	// in some grammars (Python's): they are the body's first items.
	var comments []nid
	flush := func() {
		if len(comments) > 0 {
			s.addKids(w.level(comments, c))
			comments = nil
		}
	}
	for ch := w.f[n].kids; ch != 0; ch = w.f[ch].next {
		t, named := w.kind(ch)
		if depth == 0 && w.is(ch, rComment) && w.startsLine(w.sp(ch)) {
			comments = append(comments, ch)
			continue
		}
		if !named {
			switch t {
			case "else":
				if isIf {
					elseRow = int(w.sp(ch).Row)
				}
			case ":", "=>":
				if depth == 0 && s.headerEnd < 0 {
					colon = int(w.f[ch].startByte)
				}
			}
			prevRow = int(w.ep(ch).Row)
			continue
		}
		sp, ep := w.sp(ch), w.ep(ch)
		if !w.is(ch, rBody) {
			flush()
		}
		switch {
		case elseRow >= 0:
			s.clauses = append(s.clauses, w.elseItems(ch, t, elseRow, c)...)
		case w.is(ch, rClause):
			s.clauses = append(s.clauses, w.clauseItems(ch, t, c)...)
		case w.is(ch, rBody):
			if depth == 0 && s.headerEnd < 0 {
				s.headerEnd = int(w.f[ch].startByte)
				if colon >= 0 {
					s.headerEnd = colon
				}
			}
			w.body(ch, comments, prevRow+1, c, s)
			comments = nil
		case ep.Row > sp.Row && depth < maxScanDepth && !w.is(ch, rParameters) && !w.is(ch, rComment):
			w.scan(ch, t, c, depth+1, s)
		}
		elseRow = -1
		prevRow = int(ep.Row)
	}
	flush()
}

// body adds the items of body node b to s: its named children that start
// a line, between its braces (or its JSX tags), after the comments
// before it, if any. defaultHead is the line
// after the one that opens it, for a body with no brace (Python's block).
func (w *walker) body(b nid, before []nid, defaultHead int, c levelCtx, s *bodyScan) {
	head, tail := -1, -1
	mark := len(w.listed)
	w.listed = append(w.listed, before...)
	for ch := w.f[b].kids; ch != 0; ch = w.f[ch].next {
		t, named := w.kind(ch)
		switch {
		case bodyOpens(t):
			if head < 0 && len(w.listed) == mark {
				head = int(w.ep(ch).Row) + 1
			}
			continue
		case bodyCloses(t):
			tail = int(w.firstPoint(w.sp(ch)).Row)
			continue
		}
		if named {
			w.listed = append(w.listed, ch)
		}
	}
	if head < 0 {
		head = defaultHead
	}
	if tail < 0 {
		tail = endLine(w.sp(b), w.ep(b))
	}
	// The level reads its nodes while deeper levels push theirs above
	// them (appends past its length, or into a new array).
	s.addKids(w.level(w.listed[mark:], c))
	w.listed = w.listed[:mark]
	if !s.found {
		s.head, s.found = head, true
	}
	s.tail = tail
}

// bodyOpens and bodyCloses say whether a body's child of type t is the
// token before or after its items (a brace, a parenthesis, a JSX
// element's tag), not an item.
func bodyOpens(t string) bool {
	switch t {
	case "{", "(", "jsx_opening_element":
		return true
	}
	return false
}

func bodyCloses(t string) bool {
	switch t {
	case "}", ")", "jsx_closing_element":
		return true
	}
	return false
}

// selfBody adds the items of n, a case of a switch or Go's switch
// itself, whose statements follow its ":" or sit between its braces.
func (w *walker) selfBody(n nid, c levelCtx, s *bodyScan) {
	head, tail := -1, -1
	mark := len(w.listed)
	for ch := w.f[n].kids; ch != 0; ch = w.f[ch].next {
		t, named := w.kind(ch)
		if !named {
			switch t {
			case "{", ":", "(":
				if head < 0 {
					head, s.headerEnd = int(w.ep(ch).Row)+1, int(w.f[ch].startByte)
				}
			case "}", ")":
				tail = int(w.sp(ch).Row)
			}
			continue
		}
		if head >= 0 {
			w.listed = append(w.listed, ch)
		}
	}
	if head < 0 {
		w.listed = w.listed[:mark]
		return
	}
	if tail < 0 {
		tail = endLine(w.sp(n), w.ep(n))
	}
	s.addKids(w.level(w.listed[mark:], c))
	w.listed = w.listed[:mark]
	s.head, s.tail, s.found = head, tail, true
}

// clauseItems reads a clause of a compound statement (else, elif,
// except, catch, finally): one item, or, for an "else" that holds an
// if, that if as "else if ..." and its own clauses after it.
func (w *walker) clauseItems(n nid, typ string, c levelCtx) []core.Item {
	sp, ep := w.sp(n), w.ep(n)
	if typ == "else_clause" {
		if last := w.lastNamed(n); last != 0 {
			if w.is(last, rIf) {
				lt, _ := w.kind(last)
				return w.elseIf(last, lt, int(sp.Row), c)
			}
		}
	}
	it := core.Item{Lead: int(sp.Row), Start: int(sp.Row), End: endLine(sp, ep)}
	it.Head, it.Tail = it.End, it.End
	s := newScan()
	w.scan(n, typ, c, 0, &s)
	if !s.found {
		s.kids = nil                 // comments the scan took for a body's first items
		w.linesAfterHeader(n, c, &s) // Ruby's else: its statements its own
	}
	it.Key = w.header(n, &s)
	s.fill(&it)
	return []core.Item{it}
}

// linesAfterHeader adds as items the named children of n that start a
// line below its first: the body of a clause that has no body node.
func (w *walker) linesAfterHeader(n nid, c levelCtx, s *bodyScan) {
	first := w.f[n].startRow
	mark := len(w.listed)
	for ch := w.f[n].kids; ch != 0; ch = w.f[ch].next {
		if _, named := w.kind(ch); named && w.f[ch].startRow > first {
			w.listed = append(w.listed, ch)
		}
	}
	if len(w.listed) > mark {
		s.addKids(w.level(w.listed[mark:], c))
		s.head, s.tail, s.found = int(first)+1, endLine(w.sp(n), w.ep(n)), true
	}
	w.listed = w.listed[:mark]
}

// elseItems reads what follows Go's "else": a block or an if.
func (w *walker) elseItems(n nid, typ string, row int, c levelCtx) []core.Item {
	if w.is(n, rIf) {
		return w.elseIf(n, typ, row, c)
	}
	it := core.Item{Lead: row, Start: row, End: endLine(w.sp(n), w.ep(n)), Key: "else"}
	it.Head, it.Tail = it.End, it.End
	s := newScan()
	if w.is(n, rBody) {
		w.body(n, nil, row+1, c, &s)
	}
	s.fill(&it)
	return []core.Item{it}
}

// elseIf reads the if of an "else if" from the else's row: the clause,
// then the if's own clauses as its siblings (it ends where they start).
func (w *walker) elseIf(n nid, typ string, row int, c levelCtx) []core.Item {
	it := core.Item{Lead: row, Start: row, End: endLine(w.sp(n), w.ep(n))}
	it.Head, it.Tail = it.End, it.End
	s := newScan()
	w.scan(n, typ, c, 0, &s)
	it.Key = "else " + w.header(n, &s)
	clauses := s.clauses
	s.clauses = nil
	s.fill(&it)
	if len(clauses) > 0 {
		it.End = clauses[0].Start
	}
	return append([]core.Item{it}, clauses...)
}

// header is a compound statement's text before its body, words joined
// by single spaces, without the ":", "{" or "=>" that opens the body:
// "for job in jobs", "if err != nil", "except ValueError as e".
func (w *walker) header(n nid, s *bodyScan) string {
	start, end := int(w.f[n].startByte), s.headerEnd
	if end < start {
		// No body: the first line.
		end = int(w.f[n].endByte)
		if i := strings.IndexByte(string(w.src[start:end]), '\n'); i >= 0 {
			end = start + i
		}
	}
	h := normalize(bytes.TrimRight(w.src[start:end], " \t\r\n"))
	for _, suffix := range []string{"{", ":", "=>"} {
		h = strings.TrimSpace(strings.TrimSuffix(h, suffix))
	}
	return h
}

// statementKey is the key of a statement, read from the first node of its
// chain (outer first) that has one: "assign x", "call fmt.Println",
// "return", "import os", "field name", or a compound statement's header.
func (w *walker) statementKey(chain []typed, s *bodyScan) string {
	for _, u := range chain {
		switch t := u.typ; {
		case t == "lexical_declaration" || t == "variable_declaration":
			var names []string
			for ch := w.f[u.n].kids; ch != 0; ch = w.f[ch].next {
				if ct, _ := w.kind(ch); ct == "variable_declarator" {
					names = append(names, w.text(w.field(ch, "name")))
				}
			}
			if len(names) > 0 {
				return "assign " + strings.Join(names, ", ")
			}
		case w.is(u.n, rAssignment):
			return "assign " + w.text(w.field(u.n, "left"))
		case t == "let_declaration":
			return "assign " + w.text(w.field(u.n, "pattern"))
		case t == "const_item" || t == "static_item":
			return "assign " + w.text(w.field(u.n, "name"))
		case t == "local_variable_declaration" || t == "declaration":
			if name := w.declared(u.n); name != "" {
				return "assign " + name
			}
			return ""
		case t == "var_declaration" || t == "const_declaration":
			for ch := w.f[u.n].kids; ch != 0; ch = w.f[ch].next {
				switch ct, _ := w.kind(ch); ct {
				case "var_spec", "const_spec":
					return "assign " + w.text(w.field(ch, "name"))
				case "(", "var_spec_list":
					return "" // a group: its specs are its kids
				}
			}
			return ""
		case t == "var_spec" || t == "const_spec":
			return "assign " + w.text(w.field(u.n, "name"))
		case w.is(u.n, rCall):
			return "call " + w.callee(u.n)
		case t == "macro_invocation":
			return "call " + w.text(w.field(u.n, "macro")) + "!"
		case t == "match_arm":
			return "case " + w.text(w.field(u.n, "pattern"))
		case w.is(u.n, rReturn):
			return "return"
		case w.is(u.n, rImport) || t == "import_spec":
			return w.importKey(u)
		case w.is(u.n, rField):
			for _, f := range []string{"name", "property", "key"} {
				if ch := w.field(u.n, f); ch != 0 {
					return "field " + w.text(ch)
				}
			}
			if name := w.declared(u.n); name != "" {
				return "field " + name
			}
			return ""
		case w.is(u.n, rCompound):
			return w.header(u.n, s)
		}
	}
	return ""
}

// importKey is "import" and the module an import names ("import os",
// "import ./api", "import std::io::Read"); "import" alone for Go's
// import ( ... ).
func (w *walker) importKey(u typed) string {
	unquote := func(s string) string { return strings.Trim(s, "\"'`") }
	switch u.typ {
	case "import_statement":
		if src := w.field(u.n, "source"); src != 0 { // JavaScript
			return "import " + unquote(w.text(src))
		}
		name := w.field(u.n, "name") // Python
		if name != 0 {
			if t, _ := w.kind(name); t == "aliased_import" {
				name = w.field(name, "name")
			}
		}
		return strings.TrimSpace("import " + w.text(name))
	case "import_from_statement":
		return "import " + w.text(w.field(u.n, "module_name"))
	case "future_import_statement":
		return "import __future__"
	case "use_declaration":
		return "import " + w.text(w.field(u.n, "argument"))
	case "import_spec":
		return "import " + unquote(w.text(w.field(u.n, "path")))
	case "import_declaration": // Go, Java
		for ch := w.f[u.n].kids; ch != 0; ch = w.f[ch].next {
			switch t, named := w.kind(ch); {
			case t == "import_spec":
				return "import " + unquote(w.text(w.field(ch, "path")))
			case t == "import_spec_list":
				return "import"
			case named && !w.is(ch, rComment):
				return "import " + w.text(ch)
			}
		}
	}
	return "import"
}

// callee is the text a call calls: its function ("fmt.Println"), or,
// in grammars that split it (Java's method_invocation, Ruby's call),
// the text before its arguments ("log.info", "items.each").
func (w *walker) callee(n nid) string {
	if f := w.field(n, "function"); f != 0 {
		return w.text(f)
	}
	end := w.f[n].endByte
	for _, f := range []string{"arguments", "block"} {
		if a := w.field(n, f); a != 0 {
			end = min(end, w.f[a].startByte)
		}
	}
	return normalize(w.src[w.f[n].startByte:end])
}

// declared is the name a C-like declaration declares ("int x = 1;":
// x): its declarator's name, or the declarator itself.
func (w *walker) declared(n nid) string {
	d := w.field(n, "declarator")
	for i := 0; d != 0 && i < 3; i++ {
		next := w.field(d, "name")
		if next == 0 {
			next = w.field(d, "declarator")
		}
		if next == 0 {
			return w.text(d)
		}
		d = next
	}
	return w.text(d)
}

// matchPlain is matchPlain (enclosing.go) on the flattened tree: the
// first of the language's plain patterns that n passes.
func (w *walker) matchPlain(n nid) (found, bool) {
	for i := range w.pats {
		var c flatCaptures
		if !w.match(&w.pats[i].root, n, &c) {
			continue
		}
		f := found{pattern: uint16(i), start: int(w.f[n].startByte), end: int(w.f[n].endByte), kind: w.pats[i].kind, nameStart: -1, nameEnd: -1}
		if c.name != 0 {
			f.nameStart, f.nameEnd = int(w.f[c.name].startByte), int(w.f[c.name].endByte)
		}
		if c.receiver != 0 {
			f.receiver = string(w.src[w.f[c.receiver].startByte:w.f[c.receiver].endByte])
		}
		return f, true
	}
	return found{}, false
}

// flatCaptures are the nodes a match captured (0: none).
type flatCaptures struct{ name, receiver nid }

func (c *flatCaptures) add(o flatCaptures) {
	if o.name != 0 {
		c.name = o.name
	}
	if o.receiver != 0 {
		c.receiver = o.receiver
	}
}

// match is nodeTest.match (plainpattern.go) on the flattened tree.
func (w *walker) match(t *nodeTest, n nid, c *flatCaptures) bool {
	capture := func() {
		if t.name {
			c.name = n
		}
		if t.receiver {
			c.receiver = n
		}
	}
	if t.alts != nil {
		for i := range t.alts {
			var got flatCaptures
			if w.match(&t.alts[i], n, &got) {
				c.add(got)
				capture()
				return true
			}
		}
		return false
	}
	typ, named := w.kind(n)
	if t.anon {
		if named || typ != t.types[0] {
			return false
		}
	} else if !named || t.types[0] != "_" && !slices.Contains(t.types, typ) {
		return false
	}
	var got flatCaptures
	for i := range t.kids {
		k := &t.kids[i]
		if k.field != "" {
			if ch := w.field(n, k.field); ch == 0 || !w.match(&k.node, ch, &got) {
				return false
			}
			continue
		}
		ok := false
		for ch := w.f[n].kids; ch != 0; ch = w.f[ch].next {
			var one flatCaptures
			if ok = w.match(&k.node, ch, &one); ok {
				got.add(one)
				break
			}
		}
		if !ok {
			return false
		}
	}
	c.add(got)
	capture()
	return true
}

package treesitter

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/fsrb/fsrb/core"
)

// walker reads one tree's outline: at each level (the file, a body), the
// named nodes that start a line of their own, each an Item. It walks
// children with one tree cursor (a node's Child(i) walks its siblings from
// the first, quadratic over a file's top level) and reads node types from
// a symbol table, and it descends only into nodes that span lines: only
// those can hold items.
type walker struct {
	syms  *symbols
	src   []byte
	lines []int // line start offsets of src
	pats  []plainPattern
	cur   *sitter.TreeCursor

	// passRows are the rows where a Python repair put "pass" for a
	// comment (passForEmptyBlocks): items there are comments.
	passRows map[int]bool
	// wrapped: the text is inside a repair's wrapper, named "_", which is
	// no scope.
	wrapped bool
}

// maxScanDepth bounds the search for bodies inside one item (a callback
// in a call in a declaration...).
const maxScanDepth = 8

func newWalker(lang *Language, src []byte, lines []int) *walker {
	return &walker{syms: symbolsOf(lang), src: src, lines: lines, pats: lang.plainPatterns()}
}

func (w *walker) close() {
	if w.cur != nil {
		w.cur.Close()
	}
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
	n   *sitter.Node
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

func (w *walker) kind(n *sitter.Node) (string, bool) {
	s := int(n.Symbol())
	if s < len(w.syms.names) {
		return w.syms.names[s], w.syms.named[s]
	}
	if s == 0xFFFF {
		return "ERROR", true
	}
	return n.Type(), n.IsNamed()
}

// children returns n's children, read with the walker's cursor.
func (w *walker) children(n *sitter.Node) []*sitter.Node {
	if w.cur == nil {
		w.cur = sitter.NewTreeCursor(n)
	} else {
		w.cur.Reset(n)
	}
	if !w.cur.GoToFirstChild() {
		return nil
	}
	var out []*sitter.Node
	for {
		out = append(out, w.cur.CurrentNode())
		if !w.cur.GoToNextSibling() {
			return out
		}
	}
}

// lastNamed returns n's last named child that is not a comment.
func (w *walker) lastNamed(n *sitter.Node) *sitter.Node {
	kids := w.children(n)
	for i := len(kids) - 1; i >= 0; i-- {
		if t, named := w.kind(kids[i]); named && !outlineComments[t] {
			return kids[i]
		}
	}
	return nil
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

func (w *walker) text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return normalize(string(w.src[n.StartByte():n.EndByte()]))
}

// top returns the items of the tree under root.
func (w *walker) top(root *sitter.Node) []core.Item {
	return w.level(w.children(root), levelCtx{})
}

// level returns the items among nodes, the named children of a body.
func (w *walker) level(nodes []*sitter.Node, c levelCtx) []core.Item {
	var ds []draft
	w.drafts(nodes, c, &ds)
	return leads(ds)
}

func (w *walker) drafts(nodes []*sitter.Node, c levelCtx, ds *[]draft) {
	for _, n := range nodes {
		typ, named := w.kind(n)
		if !named {
			continue
		}
		if typ == "ERROR" {
			// What parsed inside an error is still the level's, but
			// the error itself is no item.
			w.drafts(w.children(n), c, ds)
			continue
		}
		if sp := w.firstPoint(n.StartPoint()); w.startsLine(sp) {
			*ds = append(*ds, w.item(n, typ, sp, c))
		}
	}
}

// leads joins doc comments and attributes to the definition right below
// them (no blank line between): its Lead is their first line. Comments
// stay items of their own; attributes become part of the definition.
func leads(ds []draft) []core.Item {
	absorbed := 0
	for i := range ds {
		if ds[i].Kind == "" {
			continue
		}
		lead := ds[i].Lead
		for j := i - 1; j >= 0 && (ds[j].comment || ds[j].attr) && ds[j].End == lead; j-- {
			lead = ds[j].Lead
			if ds[j].attr && !ds[j].absorbed {
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
func (w *walker) item(n *sitter.Node, typ string, sp sitter.Point, c levelCtx) draft {
	ep := n.EndPoint()
	var d draft
	d.Lead, d.Start, d.End = int(sp.Row), int(sp.Row), endLine(sp, ep)
	d.Head, d.Tail = d.End, d.End
	switch {
	case outlineComments[typ] || typ == "pass_statement" && w.passRows[d.Start]:
		d.comment = true
		return d
	case outlineDecorators[typ]:
		d.attr = true
		return d
	}
	chain := w.unwrap(n, typ)
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
		case outlineSelfBodied[inner.typ]:
			w.selfBody(inner.n, levelCtx{}, &s)
		case outlineBodies[inner.typ]: // a JSX element, a block
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
func (w *walker) unwrap(n *sitter.Node, typ string) []typed {
	chain := []typed{{n, typ}}
	end := n.EndPoint().Row
	for i := 0; i < 3 && outlineWrappers[typ]; i++ {
		last := w.lastNamed(n)
		if last == nil || last.EndPoint().Row != end {
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
	if w.pats == nil || !w.syms.roots[u.typ] {
		return found{}, false
	}
	return matchPlain(w.pats, u.n, w.src)
}

// define fills a definition's item: item node n, definition node def.
func (w *walker) define(it *core.Item, n *sitter.Node, def typed, f found, c levelCtx) {
	name := ""
	if f.nameStart >= 0 {
		name = normalize(string(w.src[f.nameStart:f.nameEnd]))
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
		if tr := def.n.ChildByFieldName("trait"); tr != nil {
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
	if containerKinds[kind] && kind != "module" && kind != "namespace" {
		kc = levelCtx{scope: kidScope, container: true}
		if w.wrapped && kidScope == "_" {
			kc.scope = ""
		}
	}
	if n.EndPoint().Row > n.StartPoint().Row {
		s := newScan()
		w.scan(def.n, def.typ, kc, 0, &s)
		s.fill(it)
	}
}

// keywordRow is the row of n's first child that is not a decorator,
// annotation or comment: the definition's own first line. -1 when none.
func (w *walker) keywordRow(n *sitter.Node) int {
	for _, ch := range w.children(n) {
		typ, _ := w.kind(ch)
		if outlineDecorators[typ] || outlineComments[typ] {
			continue
		}
		if typ == "modifiers" {
			if r := w.keywordRow(ch); r >= 0 {
				return r
			}
			continue
		}
		return int(ch.StartPoint().Row)
	}
	return -1
}

// scan searches n, an item or a node inside one, for its bodies (their
// items become the item's kids) and its clauses (else, except...).
func (w *walker) scan(n *sitter.Node, typ string, c levelCtx, depth int, s *bodyScan) {
	prevRow := int(n.StartPoint().Row) // where the last child before the next one ended
	colon, elseRow := -1, -1
	isIf := outlineIfs[typ]
	// Comments between a header and its body are the header's children
	// in some grammars (Python's): they are the body's first items.
	var comments []*sitter.Node
	flush := func() {
		if len(comments) > 0 {
			s.kids = append(s.kids, w.level(comments, c)...)
			comments = nil
		}
	}
	for _, ch := range w.children(n) {
		t, named := w.kind(ch)
		if depth == 0 && outlineComments[t] && w.startsLine(ch.StartPoint()) {
			comments = append(comments, ch)
			continue
		}
		if !named {
			switch t {
			case "else":
				if isIf {
					elseRow = int(ch.StartPoint().Row)
				}
			case ":", "=>":
				if depth == 0 && s.headerEnd < 0 {
					colon = int(ch.StartByte())
				}
			}
			prevRow = int(ch.EndPoint().Row)
			continue
		}
		sp, ep := ch.StartPoint(), ch.EndPoint()
		if !outlineBodies[t] {
			flush()
		}
		switch {
		case elseRow >= 0:
			s.clauses = append(s.clauses, w.elseItems(ch, t, elseRow, c)...)
		case outlineClauses[t]:
			s.clauses = append(s.clauses, w.clauseItems(ch, t, c)...)
		case outlineBodies[t]:
			if depth == 0 && s.headerEnd < 0 {
				s.headerEnd = int(ch.StartByte())
				if colon >= 0 {
					s.headerEnd = colon
				}
			}
			w.body(ch, comments, prevRow+1, c, s)
			comments = nil
		case ep.Row > sp.Row && depth < maxScanDepth && !outlineParameters[t] && !outlineComments[t]:
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
func (w *walker) body(b *sitter.Node, before []*sitter.Node, defaultHead int, c levelCtx, s *bodyScan) {
	head, tail := -1, -1
	kids := w.children(b)
	items := append(before, kids...)[:len(before)]
	for _, ch := range kids {
		t, named := w.kind(ch)
		switch t {
		case "{", "(", "jsx_opening_element":
			if head < 0 && len(items) == 0 {
				head = int(ch.EndPoint().Row) + 1
			}
			continue
		case "}", ")", "jsx_closing_element":
			tail = int(w.firstPoint(ch.StartPoint()).Row)
			continue
		}
		if named {
			items = append(items, ch)
		}
	}
	if head < 0 {
		head = defaultHead
	}
	if tail < 0 {
		tail = endLine(b.StartPoint(), b.EndPoint())
	}
	s.kids = append(s.kids, w.level(items, c)...)
	if !s.found {
		s.head, s.found = head, true
	}
	s.tail = tail
}

// selfBody adds the items of n, a case of a switch or Go's switch
// itself, whose statements follow its ":" or sit between its braces.
func (w *walker) selfBody(n *sitter.Node, c levelCtx, s *bodyScan) {
	head, tail := -1, -1
	var items []*sitter.Node
	for _, ch := range w.children(n) {
		t, named := w.kind(ch)
		if !named {
			switch t {
			case "{", ":":
				if head < 0 {
					head, s.headerEnd = int(ch.EndPoint().Row)+1, int(ch.StartByte())
				}
			case "}":
				tail = int(ch.StartPoint().Row)
			}
			continue
		}
		if head >= 0 {
			items = append(items, ch)
		}
	}
	if head < 0 {
		return
	}
	if tail < 0 {
		tail = endLine(n.StartPoint(), n.EndPoint())
	}
	s.kids = append(s.kids, w.level(items, c)...)
	s.head, s.tail, s.found = head, tail, true
}

// clauseItems reads a clause of a compound statement (else, elif,
// except, catch, finally): one item, or, for an "else" that holds an
// if, that if as "else if ..." and its own clauses after it.
func (w *walker) clauseItems(n *sitter.Node, typ string, c levelCtx) []core.Item {
	sp, ep := n.StartPoint(), n.EndPoint()
	if typ == "else_clause" {
		if last := w.lastNamed(n); last != nil {
			if lt, _ := w.kind(last); outlineIfs[lt] {
				return w.elseIf(last, lt, int(sp.Row), c)
			}
		}
	}
	it := core.Item{Lead: int(sp.Row), Start: int(sp.Row), End: endLine(sp, ep)}
	it.Head, it.Tail = it.End, it.End
	s := newScan()
	w.scan(n, typ, c, 0, &s)
	it.Key = w.header(n, &s)
	s.fill(&it)
	return []core.Item{it}
}

// elseItems reads what follows Go's "else": a block or an if.
func (w *walker) elseItems(n *sitter.Node, typ string, row int, c levelCtx) []core.Item {
	if outlineIfs[typ] {
		return w.elseIf(n, typ, row, c)
	}
	it := core.Item{Lead: row, Start: row, End: endLine(n.StartPoint(), n.EndPoint()), Key: "else"}
	it.Head, it.Tail = it.End, it.End
	s := newScan()
	if outlineBodies[typ] {
		w.body(n, nil, row+1, c, &s)
	}
	s.fill(&it)
	return []core.Item{it}
}

// elseIf reads the if of an "else if" from the else's row: the clause,
// then the if's own clauses as its siblings (it ends where they start).
func (w *walker) elseIf(n *sitter.Node, typ string, row int, c levelCtx) []core.Item {
	it := core.Item{Lead: row, Start: row, End: endLine(n.StartPoint(), n.EndPoint())}
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
func (w *walker) header(n *sitter.Node, s *bodyScan) string {
	start, end := int(n.StartByte()), s.headerEnd
	if end < start {
		// No body: the first line.
		end = int(n.EndByte())
		if i := strings.IndexByte(string(w.src[start:end]), '\n'); i >= 0 {
			end = start + i
		}
	}
	h := normalize(string(w.src[start:end]))
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
			for _, ch := range w.children(u.n) {
				if ct, _ := w.kind(ch); ct == "variable_declarator" {
					names = append(names, w.text(ch.ChildByFieldName("name")))
				}
			}
			if len(names) > 0 {
				return "assign " + strings.Join(names, ", ")
			}
		case outlineAssignments[t]:
			return "assign " + w.text(u.n.ChildByFieldName("left"))
		case t == "let_declaration":
			return "assign " + w.text(u.n.ChildByFieldName("pattern"))
		case t == "const_item" || t == "static_item":
			return "assign " + w.text(u.n.ChildByFieldName("name"))
		case t == "var_declaration" || t == "const_declaration":
			for _, ch := range w.children(u.n) {
				if ct, _ := w.kind(ch); ct == "var_spec" || ct == "const_spec" {
					return "assign " + w.text(ch.ChildByFieldName("name"))
				}
			}
			return ""
		case outlineCalls[t]:
			return "call " + w.text(u.n.ChildByFieldName("function"))
		case t == "macro_invocation":
			return "call " + w.text(u.n.ChildByFieldName("macro")) + "!"
		case t == "match_arm":
			return "case " + w.text(u.n.ChildByFieldName("pattern"))
		case outlineReturns[t]:
			return "return"
		case outlineImports[t] || t == "import_spec":
			return w.importKey(u)
		case outlineFields[t]:
			for _, f := range []string{"name", "property", "key"} {
				if ch := u.n.ChildByFieldName(f); ch != nil {
					return "field " + w.text(ch)
				}
			}
			return ""
		case outlineCompounds[t]:
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
		if src := u.n.ChildByFieldName("source"); src != nil { // JavaScript
			return "import " + unquote(w.text(src))
		}
		name := u.n.ChildByFieldName("name") // Python
		if name != nil {
			if t, _ := w.kind(name); t == "aliased_import" {
				name = name.ChildByFieldName("name")
			}
		}
		return strings.TrimSpace("import " + w.text(name))
	case "import_from_statement":
		return "import " + w.text(u.n.ChildByFieldName("module_name"))
	case "future_import_statement":
		return "import __future__"
	case "use_declaration":
		return "import " + w.text(u.n.ChildByFieldName("argument"))
	case "import_spec":
		return "import " + unquote(w.text(u.n.ChildByFieldName("path")))
	case "import_declaration": // Go
		for _, ch := range w.children(u.n) {
			if t, _ := w.kind(ch); t == "import_spec" {
				return "import " + unquote(w.text(ch.ChildByFieldName("path")))
			}
		}
	}
	return "import"
}

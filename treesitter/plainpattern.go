package treesitter

import (
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// The subset of tree-sitter's query language that enclosing.go matches
// itself: a pattern is a node with tests on its children, nested, one of
// them at most captured as @name (and, for Go's methods, @receiver), the
// whole captured as @definition.<kind>:
//
//	(variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)]) @definition.function
//	(impl_item type: (generic_type type: (type_identifier) @name)) @definition.impl
//	(class_declaration declaration_kind: "struct" name: (_) @name) @definition.struct
//	(class_declaration (type_identifier) @name) @definition.class
//	(companion_object) @definition.object
//
// A test is on a field's child, or, without a field, on the first child
// that passes it (a query matches each such child; matchDefinitions keeps
// the earliest name). A node test is a type, "_" for any named node,
// alternatives in brackets, or a quoted token (an anonymous node).
// Alternatives may be whole patterns with captures of their own (Go's
// receiver: a type, a pointer to one, a generic one). Predicates,
// quantifiers, anchors, negated fields, other captures and more than one
// test without a field under one node are not read: a query holding any
// of them keeps the query engine.

// plainPattern is one pattern of a definitions query.
type plainPattern struct {
	kind string
	root nodeTest
}

// nodeTest is what a node must be: of one of types (named; "_" any named
// node), or the token types[0] when anon; with children passing kids; or,
// with alts, whichever of those passes first.
type nodeTest struct {
	types    []string
	anon     bool
	name     bool // captured as @name
	receiver bool // captured as @receiver (Go's methods: "Server.Start")
	kids     []childTest
	alts     []nodeTest
}

// childTest is a test on the child in field ("": on the first child that
// passes).
type childTest struct {
	field string
	node  nodeTest
}

// plainPatterns returns the language's query as plain patterns, in order,
// or nil when any pattern is of another form.
func (l *Language) plainPatterns() []plainPattern {
	l.plainOnce.Do(func() { l.plain = parsePlainPatterns(l.query) })
	return l.plain
}

// parsePlainPatterns reads a query of plain patterns, one a line (";"
// comments and blank lines aside); nil for any other query.
func parsePlainPatterns(query string) []plainPattern {
	var out []plainPattern
	for line := range strings.SplitSeq(query, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, ";") {
			continue
		}
		p, ok := parsePlainPattern(line)
		if !ok {
			return nil
		}
		out = append(out, p)
	}
	return out
}

// patternReader reads one pattern's tokens.
type patternReader struct {
	toks  []string
	at    int
	names int // @name captures read
}

func parsePlainPattern(line string) (plainPattern, bool) {
	toks, ok := patternTokens(line)
	if !ok {
		return plainPattern{}, false
	}
	r := &patternReader{toks: toks}
	root, ok := r.node()
	if !ok || root.anon || root.name || r.at != len(toks)-1 || r.names > 1 {
		return plainPattern{}, false
	}
	kind, ok := strings.CutPrefix(toks[r.at], "@definition.")
	if !ok || !isSymbol(kind) || root.types[0] == "_" || len(root.types) > 1 {
		return plainPattern{}, false
	}
	return plainPattern{kind: kind, root: root}, true
}

// patternTokens cuts a pattern into "(", ")", "[", "]", quoted tokens,
// "field:", symbols and captures; ok is false on any other syntax.
func patternTokens(s string) (toks []string, ok bool) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '(' || c == ')' || c == '[' || c == ']':
			toks = append(toks, s[i:i+1])
			i++
		case c == '"':
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 || strings.ContainsAny(s[i+1:i+1+j], `\`) {
				return nil, false
			}
			toks = append(toks, s[i:i+j+2])
			i += j + 2
		default:
			j := i
			if c == '@' {
				j++
			}
			for j < len(s) && (isSymbol(s[j:j+1]) || c == '@' && s[j] == '.') {
				j++
			}
			if j < len(s) && s[j] == ':' && c != '@' {
				j++
			}
			if j == i || c == '@' && j == i+1 {
				return nil, false // '#', '!', '.', quantifiers, ...
			}
			toks = append(toks, s[i:j])
			i = j
		}
	}
	return toks, true
}

func (r *patternReader) peek() string {
	if r.at < len(r.toks) {
		return r.toks[r.at]
	}
	return ""
}

// node reads "(type child...)" or a quoted token, and a capture after it.
func (r *patternReader) node() (nodeTest, bool) {
	var t nodeTest
	switch tok := r.peek(); {
	case strings.HasPrefix(tok, `"`):
		t = nodeTest{types: []string{tok[1 : len(tok)-1]}, anon: true}
		r.at++
	case tok == "[":
		r.at++
		plain := true // bare types only: one test of several types
		for r.peek() == "(" {
			alt, ok := r.node()
			if !ok || len(alt.types) > 1 || alt.alts != nil {
				return t, false
			}
			plain = plain && !alt.name && !alt.receiver && len(alt.kids) == 0
			t.alts = append(t.alts, alt)
		}
		if r.peek() != "]" || len(t.alts) == 0 {
			return t, false
		}
		r.at++
		if plain {
			for _, a := range t.alts {
				t.types = append(t.types, a.types[0])
			}
			t.alts = nil
		}
	case tok == "(":
		r.at++
		typ := r.peek()
		if !isSymbol(typ) {
			return t, false
		}
		r.at++
		t.types = []string{typ}
		unfielded := 0
		for r.peek() != ")" {
			field := ""
			if f, ok := strings.CutSuffix(r.peek(), ":"); ok {
				field = f
				r.at++
			} else if unfielded++; unfielded > 1 {
				return t, false // siblings in order: the query engine's job
			}
			kid, ok := r.node()
			if !ok {
				return t, false
			}
			t.kids = append(t.kids, childTest{field: field, node: kid})
		}
		r.at++
		if typ == "_" && len(t.kids) > 0 {
			return t, false
		}
	default:
		return t, false
	}
	switch r.peek() {
	case "@name":
		t.name = true
		r.names++
		r.at++
	case "@receiver":
		t.receiver = true
		r.at++
	}
	return t, true
}

// captures are the nodes a match captured.
type captures struct{ name, receiver *sitter.Node }

// match reports whether n passes t, adding what it captures to c.
func (t *nodeTest) match(n *sitter.Node, c *captures) bool {
	if t.alts != nil {
		for i := range t.alts {
			var got captures
			if t.alts[i].match(n, &got) {
				c.add(got)
				t.capture(n, c)
				return true
			}
		}
		return false
	}
	if t.anon {
		if n.IsNamed() || n.Type() != t.types[0] {
			return false
		}
	} else if !n.IsNamed() || t.types[0] != "_" && !slices.Contains(t.types, n.Type()) {
		return false
	}
	var got captures
	for i := range t.kids {
		k := &t.kids[i]
		if k.field != "" {
			if ch := n.ChildByFieldName(k.field); ch == nil || !k.node.match(ch, &got) {
				return false
			}
			continue
		}
		ok := false
		for j := range int(n.ChildCount()) {
			var one captures
			if ok = k.node.match(n.Child(j), &one); ok {
				got.add(one)
				break
			}
		}
		if !ok {
			return false
		}
	}
	c.add(got)
	t.capture(n, c)
	return true
}

// capture records n where t captures it.
func (t *nodeTest) capture(n *sitter.Node, c *captures) {
	if t.name {
		c.name = n
	}
	if t.receiver {
		c.receiver = n
	}
}

func (c *captures) add(o captures) {
	if o.name != nil {
		c.name = o.name
	}
	if o.receiver != nil {
		c.receiver = o.receiver
	}
}

// isSymbol reports a grammar symbol or capture suffix: letters, digits
// and "_", nothing a query would read as more syntax.
func isSymbol(s string) bool {
	return s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	})
}

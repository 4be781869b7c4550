package treesitter

import (
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// The subset of tree-sitter's query language that enclosing.go matches
// itself: a pattern is a node with tests on its children, nested, one of
// them at most captured as @name, and the whole captured as
// @definition.<kind>:
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
// Predicates, quantifiers, anchors, negated fields, other captures and
// more than one test without a field under one node are not read: a query
// holding any of them keeps the query engine.

// plainPattern is one pattern of a definitions query.
type plainPattern struct {
	kind string
	root nodeTest
}

// nodeTest is what a node must be: of one of types (named; "_" any named
// node), or the token types[0] when anon; with children passing kids.
type nodeTest struct {
	types []string
	anon  bool
	name  bool // captured as @name
	kids  []childTest
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
		for r.peek() == "(" {
			alt, ok := r.node()
			if !ok || alt.name || len(alt.kids) > 0 || len(alt.types) > 1 {
				return t, false
			}
			t.types = append(t.types, alt.types[0])
		}
		if r.peek() != "]" || len(t.types) == 0 {
			return t, false
		}
		r.at++
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
	if r.peek() == "@name" {
		t.name = true
		r.names++
		r.at++
	}
	return t, true
}

// match reports whether n passes t, and the node captured as @name under
// it, if any.
func (t *nodeTest) match(n *sitter.Node) (name *sitter.Node, ok bool) {
	if t.anon {
		if n.IsNamed() || n.Type() != t.types[0] {
			return nil, false
		}
	} else if !n.IsNamed() || t.types[0] != "_" && !slices.Contains(t.types, n.Type()) {
		return nil, false
	}
	if t.name {
		name = n
	}
	for i := range t.kids {
		k := &t.kids[i]
		var got *sitter.Node
		if k.field != "" {
			c := n.ChildByFieldName(k.field)
			if c == nil {
				return nil, false
			}
			if got, ok = k.node.match(c); !ok {
				return nil, false
			}
		} else {
			ok = false
			for j := range int(n.ChildCount()) {
				if got, ok = k.node.match(n.Child(j)); ok {
					break
				}
			}
			if !ok {
				return nil, false
			}
		}
		if got != nil {
			name = got
		}
	}
	return name, true
}

// isSymbol reports a grammar symbol or capture suffix: letters, digits
// and "_", nothing a query would read as more syntax.
func isSymbol(s string) bool {
	return s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	})
}

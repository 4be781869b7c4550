package treesitter

import (
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// The definitions around one place, found without the definitions query.
//
// tree-sitter compiles a query by analysing the grammar's whole parse
// table, whatever the query: Python's two patterns cost 5.4-6.4 ms and 360
// page faults to compile on issue 18's sixth-round VM, a quarter of a CLI
// dry run that explains an ambiguous block (W5), which needs the
// definitions around two places only. Those are the place's ancestors in
// the tree. Where every pattern of a language's query is of one plain form,
//
//	(function_definition name: (identifier) @name) @definition.function
//
// (or with more fields tested, as plainPattern says), the ancestors are
// matched against the patterns here, in Go, a few cgo calls a level. The
// query text stays the rule, and the query engine the one path for every
// other language and for Definitions; TestEnclosingByAncestorsMatchesQuery
// holds the two paths to the same chains.

// plainPattern is a query pattern of a node and tests on its fields,
// one of which captures the name:
//
//	(variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)]) @definition.function
//
// A field's child must be a named node of one of the types ("_": any).
type plainPattern struct {
	node, kind string
	fields     []fieldTest
	name       int // index in fields of the one captured @name
}

type fieldTest struct {
	field string
	types []string
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

func parsePlainPattern(line string) (plainPattern, bool) {
	inner, ok := strings.CutPrefix(line, "(")
	i := strings.LastIndex(inner, ") @definition.")
	if !ok || i < 0 {
		return plainPattern{}, false
	}
	p := plainPattern{kind: inner[i+len(") @definition."):], name: -1}
	toks := strings.Fields(inner[:i])
	if len(toks) < 3 || !isSymbol(p.kind) || !isSymbol(toks[0]) {
		return plainPattern{}, false
	}
	p.node = toks[0]
	for k := 1; k < len(toks); {
		field, ok := strings.CutSuffix(toks[k], ":")
		if !ok || !isSymbol(field) || k+1 >= len(toks) {
			return plainPattern{}, false
		}
		k++
		f := fieldTest{field: field}
		alt := strings.HasPrefix(toks[k], "[")
		for first := true; ; first = false {
			t := toks[k]
			if alt && first {
				t = t[1:]
			}
			last := !alt || strings.HasSuffix(t, "]")
			t = strings.TrimSuffix(t, "]")
			typ, ok := strings.CutPrefix(t, "(")
			typ, ok2 := strings.CutSuffix(typ, ")")
			if !ok || !ok2 || !isSymbol(typ) {
				return plainPattern{}, false
			}
			f.types = append(f.types, typ)
			k++
			if last {
				break
			}
			if k >= len(toks) {
				return plainPattern{}, false
			}
		}
		p.fields = append(p.fields, f)
		if k < len(toks) && toks[k] == "@name" {
			if p.name >= 0 {
				return plainPattern{}, false
			}
			p.name = len(p.fields) - 1
			k++
		}
	}
	return p, p.name >= 0
}

// isSymbol reports a grammar symbol or capture suffix: letters, digits
// and "_", nothing a query would read as more syntax.
func isSymbol(s string) bool {
	return s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	})
}

// enclosingByAncestors is EnclosingDefinitions on the trimmed, non-empty
// range [s, e) for a language of plain patterns: the ancestors of the
// smallest named node that holds the range, matched as the query would
// match them (the first pattern that fits a node wins, as in
// matchDefinitions), outermost first.
func (t *Tree) enclosingByAncestors(pats []plainPattern, s, e int) []Definition {
	t.mu.Lock()
	var founds []found // innermost first
	root := t.t.RootNode()
	n := root.NamedDescendantForPointRange(t.point(s), t.point(e))
	for ; n != nil; n = n.Parent() {
		if f, ok := matchPlain(pats, n); ok {
			founds = append(founds, f)
		}
	}
	t.mu.Unlock()
	slices.Reverse(founds)
	chain := make([]Definition, 0, len(founds))
	var kept []found
	for _, f := range founds {
		// One definition a range, as matchDefinitions keys them (a node
		// and its only child can share their bytes): the first pattern's.
		if k := len(kept) - 1; k >= 0 && kept[k].start == f.start && kept[k].end == f.end {
			if f.pattern < kept[k].pattern {
				kept[k] = f
			}
			continue
		}
		kept = append(kept, f)
	}
	for _, f := range kept {
		var parent *Definition
		if len(chain) > 0 {
			parent = &chain[len(chain)-1]
		}
		chain = append(chain, t.definition(f, parent))
	}
	return chain
}

// matchPlain matches node n against the patterns, first first.
func matchPlain(pats []plainPattern, n *sitter.Node) (found, bool) {
	if !n.IsNamed() {
		return found{}, false
	}
	typ := n.Type()
next:
	for i, p := range pats {
		if p.node != typ {
			continue
		}
		var name *sitter.Node
		for k, f := range p.fields {
			c := n.ChildByFieldName(f.field)
			if c == nil || !c.IsNamed() || f.types[0] != "_" && !slices.Contains(f.types, c.Type()) {
				continue next
			}
			if k == p.name {
				name = c
			}
		}
		return found{
			pattern: uint16(i), start: int(n.StartByte()), end: int(n.EndByte()), kind: p.kind,
			nameStart: int(name.StartByte()), nameEnd: int(name.EndByte()),
		}, true
	}
	return found{}, false
}

// point is byte offset off of the content as tree-sitter counts it: row,
// and column in bytes.
func (t *Tree) point(off int) sitter.Point {
	row := t.line(off) - 1
	return sitter.Point{Row: uint32(row), Column: uint32(off - t.lines[row])}
}

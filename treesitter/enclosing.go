package treesitter

import (
	"slices"

	sitter "github.com/smacker/go-tree-sitter"
)

// The definitions around one place, found without the definitions query.
//
// tree-sitter compiles a query by analysing the grammar's whole parse
// table, whatever the query: even Python's two patterns take a large share
// of a CLI dry run that explains an ambiguous block (make bench, W5;
// BenchmarkEnclosingDefinitionsCold), which needs the definitions around
// two places only. Those are the place's ancestors in
// the tree. Where every pattern of a language's query is of one plain form,
//
//	(function_definition name: (identifier) @name) @definition.function
//
// (or any pattern of plainpattern.go's subset), the ancestors are
// matched against the patterns here, in Go, a few cgo calls a level. The
// query text stays the rule, and the query engine the one path for every
// other language and for Definitions; TestEnclosingByAncestorsMatchesQuery
// holds the two paths to the same chains.

// enclosingByAncestors is EnclosingDefinitions on the trimmed, non-empty
// range [s, e) for a language of plain patterns: the ancestors of the
// smallest named node that holds the range, matched as the query would
// match them (the first pattern that fits a node wins, as in
// matchDefinitions), outermost first.
func (t *Tree) enclosingByAncestors(pats []plainPattern, s, e int) []Definition {
	t.mu.Lock()
	var founds []found // innermost first
	root := t.t.RootNode()
	n := root.NamedDescendantForPointRange(point(t.lines, s), point(t.lines, e))
	for ; n != nil; n = n.Parent() {
		if f, ok := matchPlain(pats, n, t.content); ok {
			founds = append(founds, f)
		}
	}
	t.mu.Unlock()
	slices.Reverse(founds)
	chain := make([]Definition, 0, len(founds))
	var kept []found
	for _, f := range founds {
		// One definition a range, as matchDefinitions keys them (a node
		// and its only child can share their bytes).
		if k := len(kept) - 1; k >= 0 && kept[k].start == f.start && kept[k].end == f.end {
			if !kept[k].wins(f) {
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

// matchPlain matches node n of content against the patterns, first
// first.
func matchPlain(pats []plainPattern, n *sitter.Node, content []byte) (found, bool) {
	for i := range pats {
		var c captures
		if !pats[i].root.match(n, &c) {
			continue
		}
		f := found{pattern: uint16(i), start: int(n.StartByte()), end: int(n.EndByte()), kind: pats[i].kind, nameStart: -1, nameEnd: -1}
		if c.name != nil {
			f.nameStart, f.nameEnd = int(c.name.StartByte()), int(c.name.EndByte())
		}
		if c.receiver != nil {
			f.receiver = c.receiver.Content(content)
		}
		return f, true
	}
	return found{}, false
}

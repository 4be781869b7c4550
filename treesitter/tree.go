package treesitter

import (
	"sort"
	"sync"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/fsrb/fsrb/core"
)

// Tree is a parsed file: an immutable copy of its content, the syntax tree,
// and what this package derives from it (definitions, syntax errors),
// computed once on first use. A Tree is safe for concurrent use.
//
// Everything here is measured in bytes; lines come from the package's own
// line index.
type Tree struct {
	Lang    *Language
	Path    string
	Version int // as given to Cache.Parse; 0 when unversioned

	content []byte
	hash    uint64
	lines   []int // byte offset of the start of each line

	// mu guards t: the binding's Tree caches nodes in a map, so even reading
	// a tree mutates it (its doc: "Tree instances are not thread safe").
	mu sync.Mutex
	t  *sitter.Tree

	defsOnce sync.Once
	defs     []Definition // sorted by StartByte, outer before inner
	defsErr  error

	errsOnce sync.Once
	errs     []syntaxNode
}

func newTree(lang *Language, path string, version int, content []byte, hash uint64, t *sitter.Tree) *Tree {
	return &Tree{Lang: lang, Path: path, Version: version, content: content, hash: hash, lines: lineStarts(content), t: t}
}

// Content returns the text the tree was parsed from. Do not modify it.
func (t *Tree) Content() []byte { return t.content }

// HasError reports whether the tree holds any ERROR or MISSING node.
func (t *Tree) HasError() bool { return len(t.syntaxNodes()) > 0 }

// SExpr returns the tree in tree-sitter's S-expression form, for tests and
// debugging.
func (t *Tree) SExpr() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.t.RootNode().String()
}

// copyTree returns a private copy of the syntax tree, to be edited for an
// incremental re-parse without touching this one.
func (t *Tree) copyTree() *sitter.Tree {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.t.Copy()
}

// line returns the 1-based line that holds byte offset off.
func (t *Tree) line(off int) int { return lineOf(t.lines, off) }

// lineStarts returns the offset of the start of each line of content,
// as core indexes a text's lines (a trailing newline opens an empty
// last line).
func lineStarts(content []byte) []int {
	return core.NewLines(unsafe.String(unsafe.SliceData(content), len(content))).Starts()
}

// lineOf returns the 1-based line holding off, given lineStarts' result.
func lineOf(starts []int, off int) int {
	return sort.Search(len(starts), func(i int) bool { return starts[i] > off })
}

// lineBounds returns the byte range of 1-based line n, without its newline.
func lineBounds(content []byte, starts []int, n int) (start, end int) {
	if n < 1 {
		n = 1
	}
	if n > len(starts) {
		n = len(starts)
	}
	start, end = starts[n-1], len(content)
	if n < len(starts) {
		end = starts[n] - 1
	}
	return start, end
}

// point returns tree-sitter's row/column (bytes) for off.
func point(starts []int, off int) sitter.Point {
	l := lineOf(starts, off)
	return sitter.Point{Row: uint32(l - 1), Column: uint32(off - starts[l-1])}
}

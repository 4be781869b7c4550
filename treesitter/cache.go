package treesitter

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"sync"
	"time"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/treesitter/internal/tsparse"
)

// ErrUnknownLanguage is returned by Cache.Parse for a file that no grammar
// of the registry claims.
var ErrUnknownLanguage = errors.New("treesitter: no grammar for this file")

// ParseError is a parse that did not finish: it ran out of time, was
// cancelled, or the grammar could not be loaded. Err is the cause
// (context.DeadlineExceeded for a timeout).
type ParseError struct {
	Path string
	Err  error
}

func (e *ParseError) Error() string { return fmt.Sprintf("treesitter: parsing %s: %v", e.Path, e.Err) }
func (e *ParseError) Unwrap() error { return e.Err }

// Edit describes how content changed since the previous tree of the same
// path: the bytes [StartByte, OldEndByte) of the previous text became
// [StartByte, NewEndByte) of the new one. It is a hint: one that does not
// fit both texts is ignored, and without one the change is found by
// comparing the texts (common prefix and suffix), which costs a memcmp.
type Edit struct {
	StartByte, OldEndByte, NewEndByte int
}

// DefaultParseTimeout bounds a parse when the cache sets no timeout.
const DefaultParseTimeout = 2 * time.Second

const treesPerFile = 4 // before/after of a block, plus a couple of versions

// Cache keeps the latest parse trees of each file, keyed by path and
// content, and re-parses incrementally from the most recent tree of the
// same path. It is safe for concurrent use.
type Cache struct {
	Timeout time.Duration // per parse; DefaultParseTimeout when 0
	// WholeFiles makes the syntax check parse whole files, through the
	// cache, instead of windows around the edits first (window.go). A
	// long-lived session wants it: each version of a file is parsed once,
	// incrementally from the one before, and a re-validation of the same
	// plan costs nothing, where windows would be parsed afresh each time.
	// A one-shot run wants windows. Files over MaxSyntaxCheck get windows
	// either way: a whole parse of them costs more than a keystroke may.
	WholeFiles bool

	mu       sync.Mutex
	maxFiles int
	tick     uint64
	files    map[string]*fileTrees
	// checked holds, per path, the last change a whole-file session
	// checked and what it found (syntaxmemo.go).
	checked map[string]checkedChange

	// outlines keeps the latest outlines by path and text (outline.go),
	// apart from the trees: an answer's snippets of one file would
	// otherwise push the file's own tree out of its few slots.
	outlines outlineMemo
}

type fileTrees struct {
	used  uint64
	trees []*Tree // most recent first
	// gaveUp is the content (hash and length) whose parse ran out of
	// time: the same content is not tried again. An editor re-validates a
	// patch on every keystroke, and a target too big to parse in time
	// would otherwise cost the whole timeout each time.
	gaveUp    uint64
	gaveUpLen int
}

// NewCache returns a cache that keeps trees for at most maxFiles paths,
// dropping the least recently used path first.
func NewCache(maxFiles int) *Cache {
	if maxFiles < 1 {
		maxFiles = 1
	}
	return &Cache{maxFiles: maxFiles, files: map[string]*fileTrees{}, checked: map[string]checkedChange{}}
}

// DefaultCache serves the package-level hooks (Explain, SyntaxProblems).
var DefaultCache = NewCache(64)

var seed = maphash.MakeSeed()

// Parse returns the tree of content, the file at path in the given version
// (0 when unversioned). A tree of the same path and content is reused
// whatever its version; otherwise the most recent tree of the path is
// edited (edit, or the difference of the texts) and re-parsed
// incrementally.
func (c *Cache) Parse(path string, version int, content []byte, edit *Edit) (*Tree, error) {
	return c.ParseContext(context.Background(), path, version, content, edit)
}

// ParseContext is Parse with a context that cancels the parse.
func (c *Cache) ParseContext(ctx context.Context, path string, version int, content []byte, edit *Edit) (*Tree, error) {
	return c.parse(ctx, path, version, content, edit, false)
}

// parse is ParseContext; owned says that content is never written to
// (a string's bytes, or a copy of the caller's own), so that the tree
// keeps it rather than a copy.
func (c *Cache) parse(ctx context.Context, path string, version int, content []byte, edit *Edit, owned bool) (*Tree, error) {
	lang := LanguageFor(path, content)
	if lang == nil {
		return nil, ErrUnknownLanguage
	}
	h := maphash.Bytes(seed, content)

	c.mu.Lock()
	c.tick++
	var prev *Tree
	if f := c.files[path]; f != nil {
		if f.gaveUpLen == len(content) && f.gaveUp == h {
			c.mu.Unlock()
			return nil, &ParseError{Path: path, Err: context.DeadlineExceeded}
		}
		f.used = c.tick
		for i, t := range f.trees {
			if t.Lang == lang && t.hash == h && bytes.Equal(t.content, content) {
				copy(f.trees[1:i+1], f.trees[:i])
				f.trees[0] = t
				c.mu.Unlock()
				return t, nil
			}
		}
		if len(f.trees) > 0 && f.trees[0].Lang == lang {
			prev = f.trees[0]
		}
	}
	c.mu.Unlock()

	if !owned {
		content = bytes.Clone(content)
	}
	var old *sitter.Tree
	if prev != nil {
		// An old tree pays when the edit keeps most of its text: a chat
		// snippet's tree after another snippet's keeps a few bytes at each
		// end, and copying and editing it costs more than the parse saves.
		in := editInput(prev.content, prev.lines, content, edit)
		if kept := int(in.StartIndex) + len(content) - int(in.NewEndIndex); 2*kept >= len(content) {
			old = prev.copyTree()
			old.Edit(in)
		}
	}
	st, err := lang.parse(ctx, c.timeout(), old, content)
	if old != nil {
		old.Close() // the copy is ours: freed now, not at a later collection
	}
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			c.rememberGaveUp(path, h, len(content))
		}
		return nil, &ParseError{Path: path, Err: err}
	}
	t := newTree(lang, path, version, content, h, st)

	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.touch(path)
	f.trees = append([]*Tree{t}, f.trees...)
	if len(f.trees) > treesPerFile {
		f.trees[treesPerFile] = nil
		f.trees = f.trees[:treesPerFile]
	}
	return t, nil
}

func (c *Cache) timeout() time.Duration {
	if c.Timeout <= 0 {
		return DefaultParseTimeout
	}
	return c.Timeout
}

func (c *Cache) rememberGaveUp(path string, h uint64, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.touch(path)
	f.gaveUp, f.gaveUpLen = h, n
}

// touch returns the entry of path, made (evicting the least recently
// used) if need be, as the most recently used. c.mu is held.
func (c *Cache) touch(path string) *fileTrees {
	c.tick++
	f := c.files[path]
	if f == nil {
		f = &fileTrees{used: c.tick}
		c.files[path] = f
		c.evict()
	}
	f.used = c.tick
	return f
}

// evict drops the least recently used paths beyond maxFiles. Trees are
// freed by the binding's finalizers once no caller holds them.
func (c *Cache) evict() {
	for len(c.files) > c.maxFiles {
		var lru string
		var used uint64
		for p, f := range c.files {
			if lru == "" || f.used < used {
				lru, used = p, f.used
			}
		}
		delete(c.files, lru)
	}
}

// Forget drops every tree of path.
func (c *Cache) Forget(path string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.files, path)
}

// editInput describes the change from prev to next for tree-sitter: the
// hint when it fits both texts, the span between their common prefix and
// suffix otherwise.
//
// The binding (EditInput.c) passes OldEndPoint as the new end point too.
// That only misplaces the edited old tree's nodes after the edit; the token
// right after an edit is always re-lexed (its padding spans the edit), so
// the re-parsed tree's positions come out right, which
// TestIncrementalMatchesFresh checks node by node against fresh parses.
func editInput(prev []byte, prevLines []int, next []byte, hint *Edit) sitter.EditInput {
	var start, oldEnd, newEnd int
	if hint != nil && fits(prev, next, *hint) {
		start, oldEnd, newEnd = hint.StartByte, hint.OldEndByte, hint.NewEndByte
	} else {
		a, b := unsafe.String(unsafe.SliceData(prev), len(prev)), unsafe.String(unsafe.SliceData(next), len(next))
		start = core.CommonPrefix(a, b)
		s := core.CommonSuffix(a[start:], b[start:])
		oldEnd, newEnd = len(prev)-s, len(next)-s
	}
	return sitter.EditInput{
		StartIndex:  uint32(start),
		OldEndIndex: uint32(oldEnd),
		NewEndIndex: uint32(newEnd),
		StartPoint:  point(prevLines, start),
		OldEndPoint: point(prevLines, oldEnd),
		NewEndPoint: sitter.Point{
			Row:    uint32(bytes.Count(next[:newEnd], []byte{'\n'})),
			Column: uint32(newEnd - (bytes.LastIndexByte(next[:newEnd], '\n') + 1)),
		},
	}
}

// fits reports whether e describes a change from prev to next.
func fits(prev, next []byte, e Edit) bool {
	if e.StartByte < 0 || e.StartByte > e.OldEndByte || e.StartByte > e.NewEndByte ||
		e.OldEndByte > len(prev) || e.NewEndByte > len(next) ||
		len(prev)-e.OldEndByte != len(next)-e.NewEndByte {
		return false
	}
	return bytes.Equal(prev[:e.StartByte], next[:e.StartByte]) && bytes.Equal(prev[e.OldEndByte:], next[e.NewEndByte:])
}

// parse parses content with a pooled parser, within timeout (docs/ARCHITECTURE.md
// "Conventions": parsers pooled, parse with a timeout). The parser is
// tree-sitter's own, built apart from the binding's with one rule changed
// (internal/tsparse): with the binding's, a reparse after an edit in a
// Python file re-lexed everything after the edit.
//
// The timeout is tree-sitter's own (ts_parser_set_timeout_micros), not a
// context deadline. A parser goes back to the pool after a parse under a
// cancellable context too (the language server's): tsparse stops
// watching the context before the parse returns and resets a parser
// whose parse stopped early. One that failed is closed all the same.
func (l *Language) parse(ctx context.Context, timeout time.Duration, old *sitter.Tree, content []byte) (*sitter.Tree, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, _ := l.parsers.Get().(*tsparse.Parser)
	if p == nil {
		p = tsparse.New(l.grammarLanguage())
	}
	t, err := p.Parse(ctx, timeout, old, content)
	if err != nil {
		p.Close()
		return t, err
	}
	l.parsers.Put(p)
	return t, nil
}

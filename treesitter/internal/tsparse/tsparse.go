// Package tsparse parses with tree-sitter's own parser, built from a copy
// that differs from the binding's in one rule (README.md): a node whose
// external scanner state does not match yet is tried again, not skipped.
// With the binding's parser, an edit in a Python file re-lexed everything
// after the edited definition, so an incremental reparse cost about as
// much as parsing the file afresh. The trees are the binding's
// (sitter.Tree): only the parse itself runs here.
package tsparse

/*
#include "tsparse.h"
*/
import "C"

import (
	"context"
	"reflect"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// Parser is one tree-sitter parser of one language. It is not safe for
// concurrent use.
type Parser struct {
	c *C.TSParser
	// cancel is C memory: the parser reads it while a parse runs, and a
	// cancelled context's goroutine writes it.
	cancel *C.size_t
	lexed  *C.uint64_t // counted when CountLexed is on
}

// New returns a parser of lang.
func New(lang *sitter.Language) *Parser {
	p := &Parser{c: C.fsrb_ts_parser_new(), cancel: (*C.size_t)(C.calloc(1, C.sizeof_size_t))}
	// The binding's Language keeps the C language as its only field.
	C.fsrb_ts_parser_set_language(p.c, (*C.TSLanguage)(*(*unsafe.Pointer)(unsafe.Pointer(lang))))
	C.fsrb_ts_parser_set_cancellation_flag(p.c, p.cancel)
	// Pools drop what they hold without a word: the parser's C memory
	// goes with it.
	runtime.SetFinalizer(p, (*Parser).Close)
	return p
}

// Close frees the parser.
func (p *Parser) Close() {
	if p.c == nil {
		return
	}
	C.fsrb_ts_parser_delete(p.c)
	C.free(unsafe.Pointer(p.cancel))
	if p.lexed != nil {
		C.free(unsafe.Pointer(p.lexed))
	}
	p.c, p.cancel, p.lexed = nil, nil, nil
}

// Parse parses src, incrementally from old when old is given (edited to
// match src already). It stops with ctx's error when ctx ends, and with
// context.DeadlineExceeded after timeout.
func (p *Parser) Parse(ctx context.Context, timeout time.Duration, old *sitter.Tree, src []byte) (*sitter.Tree, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	C.fsrb_ts_parser_set_timeout_micros(p.c, C.uint64_t(max(1, timeout/time.Microsecond)))
	if done := ctx.Done(); done != nil {
		// The watcher is gone before Parse returns: the flag is C memory
		// that Close frees, and a later parse must not see it set.
		finished, gone := make(chan struct{}), make(chan struct{})
		flag := (*uintptr)(unsafe.Pointer(p.cancel))
		go func() {
			defer close(gone)
			select {
			case <-done:
				atomic.StoreUintptr(flag, 1)
			case <-finished:
			}
		}()
		defer func() {
			close(finished)
			<-gone
			atomic.StoreUintptr(flag, 0)
		}()
	}
	var ot *C.TSTree
	if old != nil {
		ot = (*C.TSTree)(CTree(old))
	}
	// The parser reads the text during the call only.
	text := (*C.char)(unsafe.Pointer(&empty))
	if len(src) > 0 {
		text = (*C.char)(unsafe.Pointer(unsafe.SliceData(src)))
	}
	ct := C.fsrb_ts_parser_parse_string(p.c, ot, text, C.uint32_t(len(src)))
	runtime.KeepAlive(old)
	runtime.KeepAlive(src)
	runtime.KeepAlive(p)
	if ct == nil {
		// A halted parse would otherwise resume on the next call.
		C.fsrb_ts_parser_reset(p.c)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, context.DeadlineExceeded
	}
	return wrap(ct), nil
}

// CountLexed makes the parser count the tokens its parses lex, for
// tests; Lexed reads the count.
func (p *Parser) CountLexed() {
	if p.lexed == nil {
		p.lexed = (*C.uint64_t)(C.calloc(1, C.sizeof_uint64_t))
	}
	C.fsrb_ts_parser_count_lexed(p.c, p.lexed)
}

// Lexed is how many tokens the parser lexed since CountLexed.
func (p *Parser) Lexed() uint64 {
	if p.lexed == nil {
		return 0
	}
	return uint64(*p.lexed)
}

// empty is the text of an empty source: the parser takes a pointer.
var empty byte

// CTree is the binding tree's C tree (a TSTree *): its BaseTree keeps it
// as its first field, with no accessor (TestBindingLayout).
func CTree(t *sitter.Tree) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(t.BaseTree))
}

// wrap makes ct a binding tree, as the binding's own parser does: the C
// tree in its BaseTree, freed by its finalizer, and an empty node cache.
func wrap(ct *C.TSTree) *sitter.Tree {
	t := &sitter.Tree{BaseTree: &sitter.BaseTree{}}
	*(*unsafe.Pointer)(unsafe.Pointer(t.BaseTree)) = unsafe.Pointer(ct)
	cache := reflect.ValueOf(t).Elem().FieldByName("cache")
	reflect.NewAt(cache.Type(), unsafe.Pointer(cache.UnsafeAddr())).Elem().Set(reflect.MakeMap(cache.Type()))
	runtime.SetFinalizer(t.BaseTree, (*sitter.BaseTree).Close)
	return t
}

// sizeofSizeT is C's size_t's size, for the test that the cancellation
// flag may be written as a uintptr.
const sizeofSizeT = C.sizeof_size_t

// Node is C's fsrb_node, whose layout the caller's view of a flattened
// tree mirrors.
type Node = C.fsrb_node

// Flags of a symbol for Flatten.
const (
	FlagDefinition = C.FSRB_DEF     // a definition node: its header is read
	FlagDescend    = C.FSRB_DESCEND // read on down a statement's chain
)

// Flatten reads the nodes of t, the tree of src, that an outline reads
// (fsrb_flatten in tsparse.h says which) in one cgo call, walking the
// tree's subtrees: flags are the flags of each symbol, and of the nodes
// wdepth levels below the root or fewer, only those that overlap bytes
// [lo, hi) are read below. The nodes are C memory, n of them, which the
// caller frees with Free; nil when it ran out.
func Flatten(t *sitter.Tree, src, flags []byte, lo, hi, wdepth uint32) (nodes unsafe.Pointer, n int) {
	var src0, flags0 *C.uint8_t
	if len(src) > 0 {
		src0 = (*C.uint8_t)(unsafe.Pointer(&src[0]))
	}
	if len(flags) > 0 {
		flags0 = (*C.uint8_t)(unsafe.Pointer(&flags[0]))
	}
	var count C.uint32_t
	// About one node read for every 3 to 8 bytes of code.
	p := C.fsrb_flatten((*C.TSTree)(CTree(t)), &count, C.uint32_t(len(src)/4), src0, flags0, C.uint32_t(len(flags)), C.uint32_t(lo), C.uint32_t(hi), C.uint32_t(wdepth))
	runtime.KeepAlive(t)
	runtime.KeepAlive(src)
	runtime.KeepAlive(flags)
	return unsafe.Pointer(p), int(count)
}

// Free frees what Flatten returned.
func Free(nodes unsafe.Pointer) { C.free(nodes) }

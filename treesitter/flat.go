package treesitter

/*
#cgo CFLAGS: -I${SRCDIR}/internal/tsparse
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

#include "tsparse.h" // fsrb_node, the flags

// The tree-sitter runtime's API as the binding's copy declares it
// (api.h of github.com/smacker/go-tree-sitter, the version go.mod pins):
// the functions are the binding's, linked from its objects.
typedef struct TSTree TSTree;
typedef uint16_t TSSymbol;
typedef uint16_t TSFieldId;
typedef struct { uint32_t row; uint32_t column; } TSPoint;
typedef struct { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;

TSNode ts_tree_root_node(const TSTree *self);
TSSymbol ts_node_symbol(TSNode self);
uint32_t ts_node_start_byte(TSNode self);
uint32_t ts_node_end_byte(TSNode self);
TSPoint ts_node_start_point(TSNode self);
TSPoint ts_node_end_point(TSNode self);
TSTreeCursor ts_tree_cursor_new(TSNode node);
void ts_tree_cursor_delete(TSTreeCursor *self);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *self);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *self);
bool ts_tree_cursor_goto_parent(TSTreeCursor *self);
TSNode ts_tree_cursor_current_node(const TSTreeCursor *self);
TSFieldId ts_tree_cursor_current_field_id(const TSTreeCursor *self);

// fsrb_flatten_cursor is tsparse.h's fsrb_flatten through the runtime's
// public API, a TSTreeCursor: the reference TestFlattenMatchesCursor
// holds the faster walk of the subtrees to. It reads the same nodes (a
// cursor step is most of its cost, so nodes are skipped, not filtered).

static fsrb_node *fsrb_flatten_cursor(const void *tree, uint32_t *count, uint32_t hint,
		const uint8_t *src, const uint8_t *flags, uint32_t nsyms, uint32_t lo, uint32_t hi, uint32_t wdepth) {
	// A node's mode says which of its children are read: FULL all, down
	// to any depth; BUDGET+b all, b levels down; KEYED+d the statement
	// chain, d levels down; NONE none.
	enum { NONE = 0, BUDGET = 0, KEYED = 64, FULL = 255 };
	TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node((const TSTree *)tree));
	uint32_t n = 0, depth = 0, room = 64, cap = hint > 64 ? hint : 64;
	fsrb_node *out = malloc(cap * sizeof(fsrb_node));
	// Per level: its parent's index, symbol and mode, and the last node
	// written.
	uint32_t *parent = malloc(room * sizeof(uint32_t));
	uint32_t *last = malloc(room * sizeof(uint32_t));
	uint16_t *psym = malloc(room * sizeof(uint16_t));
	uint8_t *pbudget = malloc(room);
	if (!out || !parent || !last || !psym || !pbudget) {
		goto fail;
	}
	parent[0] = 0; last[0] = 0; psym[0] = 0; pbudget[0] = FULL;
	for (;;) {
		TSNode node = ts_tree_cursor_current_node(&c);
		TSPoint sp = ts_node_start_point(node), ep = ts_node_end_point(node);
		uint32_t sb = ts_node_start_byte(node);
		TSSymbol sym = ts_node_symbol(node);
		uint8_t pm = pbudget[depth], pf = psym[depth] < nsyms ? flags[psym[depth]] : 0;
		uint32_t i = n++;
		if (i == cap) {
			fsrb_node *grown = realloc(out, 2 * cap * sizeof(fsrb_node));
			if (!grown) goto fail;
			out = grown;
			cap *= 2;
		}
		{
			fsrb_node *o = &out[i];
			o->start_byte = sb;
			o->end_byte = ts_node_end_byte(node);
			o->start_row = sp.row; o->start_col = sp.column;
			o->end_row = ep.row; o->end_col = ep.column;
			o->kids = 0; o->next = 0;
			o->symbol = sym;
			// Fields are read under definitions and along a key's chain
			// only; asking costs a walk of the parent's field map.
			o->field = depth > 0 && (pf & (FSRB_DEF | FSRB_DESCEND) || (pm > BUDGET && pm < KEYED))
				? ts_tree_cursor_current_field_id(&c) : 0;
			if (depth > 0) {
				if (last[depth] == 0) {
					out[parent[depth]].kids = i;
				} else {
					out[last[depth]].next = i;
				}
			}
		}
		last[depth] = i;
		uint8_t f = sym < nsyms ? flags[sym] : 0;
		uint8_t budget;
		if (ep.row > sp.row) {
			budget = FULL;
		} else if (pm == FULL) {
			bool starts = sp.column <= sb;
			for (uint32_t k = sb - sp.column; starts && k < sb; k++) {
				starts = src[k] == ' ' || src[k] == '\t';
			}
			budget = pf & FSRB_DEF ? BUDGET + 3 : starts ? KEYED + 4 : NONE;
		} else if (pm > KEYED) {
			budget = pf & FSRB_DEF ? BUDGET + 3 : f & FSRB_DESCEND ? pm - 1 : NONE;
		} else if (pm > BUDGET && pm < KEYED) {
			budget = pm - 1;
		} else {
			budget = NONE;
		}
		if (budget == KEYED || (depth >= 1 && depth <= wdepth && (out[i].end_byte <= lo || sb >= hi))) {
			budget = NONE;
		}
		if (budget != NONE && ts_tree_cursor_goto_first_child(&c)) {
			if (++depth == room) {
				room *= 2;
				uint32_t *p = realloc(parent, room * sizeof(uint32_t)); if (p) parent = p;
				uint32_t *l = realloc(last, room * sizeof(uint32_t)); if (l) last = l;
				uint16_t *y = realloc(psym, room * sizeof(uint16_t)); if (y) psym = y;
				uint8_t *b = realloc(pbudget, room); if (b) pbudget = b;
				if (!p || !l || !y || !b) goto fail;
			}
			parent[depth] = i; last[depth] = 0; psym[depth] = sym; pbudget[depth] = budget;
			continue;
		}
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (depth == 0 || !ts_tree_cursor_goto_parent(&c)) goto done;
			depth--;
		}
	}
fail:
	free(out);
	out = NULL;
	n = 0;
done:
	free(parent); free(last); free(psym); free(pbudget);
	ts_tree_cursor_delete(&c);
	*count = n;
	return out;
}
*/
import "C"

import (
	"runtime"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/fsrb/fsrb/treesitter/internal/tsparse"
)

// flatNode is one node of a tree flattened in one cgo call: its place,
// type and field, and links to its first child and next sibling (0 for
// none; node 0 is the root, nobody's child or sibling). It mirrors C's
// fsrb_node.
type flatNode struct {
	startByte, endByte uint32
	startRow, startCol uint32
	endRow, endCol     uint32
	kids, next         uint32
	symbol, field      uint16
}

// flattenTree reads the nodes of t, the tree of src, that an outline
// reads (tsparse.Flatten says which), of the nodes wdepth levels below
// the root or fewer only those that overlap bytes [lo, hi) below, in one
// cgo call: the binding's one call a cursor step and a node property
// cost several times the whole walk (BenchmarkOutline). flags are
// symbolFlags per symbol. The nodes are C's memory, freed by free; nil
// when it ran out. The caller holds t.
func flattenTree(t *sitter.Tree, src []byte, flags []byte, lo, hi, wdepth uint32) (nodes []flatNode, free func()) {
	p, n := tsparse.Flatten(t, src, flags, lo, hi, wdepth)
	if p == nil {
		return nil, func() {}
	}
	return unsafe.Slice((*flatNode)(p), n), func() { tsparse.Free(p) }
}

// flattenTreeCursor is flattenTree through a TSTreeCursor
// (fsrb_flatten_cursor), for tests.
func flattenTreeCursor(t *sitter.Tree, src []byte, flags []byte, lo, hi, wdepth uint32) (nodes []flatNode, free func()) {
	ct := tsparse.CTree(t)
	var src0, flags0 *C.uint8_t
	if len(src) > 0 {
		src0 = (*C.uint8_t)(unsafe.Pointer(&src[0]))
	}
	if len(flags) > 0 {
		flags0 = (*C.uint8_t)(unsafe.Pointer(&flags[0]))
	}
	var n C.uint32_t
	p := C.fsrb_flatten_cursor(ct, &n, C.uint32_t(len(src)/4), src0, flags0, C.uint32_t(len(flags)), C.uint32_t(lo), C.uint32_t(hi), C.uint32_t(wdepth))
	runtime.KeepAlive(t)
	runtime.KeepAlive(src)
	runtime.KeepAlive(flags)
	if p == nil {
		return nil, func() {}
	}
	return unsafe.Slice((*flatNode)(unsafe.Pointer(p)), int(n)), func() { C.free(unsafe.Pointer(p)) }
}

// Flags of a symbol for fsrb_flatten.
const (
	symbolDefinition = tsparse.FlagDefinition // a definition node: its header is read
	symbolDescend    = tsparse.FlagDescend    // read on down a statement's chain
)

// The Go and C views of a node must agree to the byte.
var _ = [1]struct{}{}[unsafe.Sizeof(flatNode{})-C.sizeof_fsrb_node]

#include <stdbool.h>
#include <stdlib.h>

#include "api.h"
#include "./language.h"
#include "./length.h"
#include "./subtree.h"
#include "./tree.h"
#include "tsparse.h"

// fsrb_flatten walks the tree's subtrees themselves, not a TSTreeCursor:
// a cursor's step to a next sibling climbs and descends again through the
// hidden nodes between two visible ones (a file's statements hang from a
// balanced tree of hidden repeat nodes), and its field lookup walks the
// stack, so a step cost several hundred instructions. Here a hidden node
// is a frame of the walk, read once. What it reads, and every value it
// writes, are the cursor's: the node's position and public symbol (an
// alias, when its parent's production has one), and its field, the
// first of its own and its hidden ancestors' up to a visible one.
// TestFlattenMatchesCursor holds the two walks to the same nodes.

// A frame is one node whose children the walk goes through: a visible
// node, or a hidden one whose children read as its visible ancestor's.
typedef struct {
	Subtree self;
	Length pos;                // the start of child i, before its padding
	uint32_t i, structural;    // the next child, and its structural index
	const TSSymbol *aliases;   // of self's production
	const TSFieldMapEntry *fm, *fm_end;
	uint32_t parent;           // the visible node the children read under
	uint32_t depth;            // their depth, counted in visible nodes
	TSSymbol psym;             // that visible node's public symbol
	uint8_t pm;                // and its mode (fsrb_flatten)
	bool fields;               // whether the children's fields are read
	TSFieldId inherited;       // the field of a hidden self, for its children
} fsrb_frame;

// A node's mode says which of its children are read: FULL all, down to
// any depth; BUDGET+b all, b levels down; KEYED+d the statement chain, d
// levels down; NONE none.
enum { NONE = 0, BUDGET = 0, KEYED = 64, FULL = 255 };

// mode is the mode of a node of symbol sym spanning rows sr to er, that
// starts at byte sb, column sc of src, under a parent of symbol flags pf
// and mode pm.
static uint8_t fsrb_mode(const uint8_t *src, uint8_t f, uint8_t pf, uint8_t pm,
		uint32_t sr, uint32_t er, uint32_t sb, uint32_t sc) {
	if (er > sr) {
		return FULL;
	}
	if (pm == FULL) {
		bool starts = sc <= sb;
		for (uint32_t k = sb - sc; starts && k < sb; k++) {
			starts = src[k] == ' ' || src[k] == '\t';
		}
		return pf & FSRB_DEF ? BUDGET + 3 : starts ? KEYED + 4 : NONE;
	}
	if (pm > KEYED) {
		return pf & FSRB_DEF ? BUDGET + 3 : f & FSRB_DESCEND ? pm - 1 : NONE;
	}
	if (pm > BUDGET && pm < KEYED) {
		return pm - 1;
	}
	return NONE;
}

static inline uint8_t fsrb_flags(const uint8_t *flags, uint32_t nsyms, TSSymbol sym) {
	return sym < nsyms ? flags[sym] : 0;
}

// fsrb_push pushes fr, its production's aliases and fields read from its
// node, onto the stack of *sp frames with room for *room, grown when
// full; false when memory ran out.
static bool fsrb_push(fsrb_frame **stack, uint32_t *sp, uint32_t *room, fsrb_frame fr, const TSLanguage *lang) {
	fr.aliases = ts_language_alias_sequence(lang, fr.self.ptr->production_id);
	ts_language_field_map(lang, fr.self.ptr->production_id, &fr.fm, &fr.fm_end);
	if (*sp == *room) {
		fsrb_frame *grown = realloc(*stack, 2 * *room * sizeof(fsrb_frame));
		if (!grown) return false;
		*stack = grown;
		*room *= 2;
	}
	(*stack)[(*sp)++] = fr;
	return true;
}

fsrb_node *fsrb_flatten(const TSTree *tree, uint32_t *count, uint32_t hint,
		const uint8_t *src, const uint8_t *flags, uint32_t nsyms, uint32_t lo, uint32_t hi, uint32_t wdepth) {
	const TSLanguage *lang = tree->language;
	uint32_t n = 0, cap = hint > 64 ? hint : 64, room = 64, sp = 0, lroom = 64;
	fsrb_node *out = malloc(cap * sizeof(fsrb_node));
	fsrb_frame *stack = malloc(room * sizeof(fsrb_frame));
	uint32_t *last = malloc(lroom * sizeof(uint32_t)); // per depth, the last child written
	if (!out || !stack || !last) {
		goto fail;
	}

	Subtree root = tree->root;
	Length rpos = ts_subtree_padding(root);
	Length rsize = ts_subtree_size(root);
	TSSymbol rsym = ts_language_public_symbol(lang, ts_subtree_symbol(root));
	out[0] = (fsrb_node){
		.start_byte = rpos.bytes, .end_byte = rpos.bytes + rsize.bytes,
		.start_row = rpos.extent.row, .start_col = rpos.extent.column,
		.end_row = rpos.extent.row + rsize.extent.row,
		.end_col = rsize.extent.row > 0 ? rsize.extent.column : rpos.extent.column + rsize.extent.column,
		.symbol = rsym,
	};
	n = 1;
	uint8_t rmode = fsrb_mode(src, fsrb_flags(flags, nsyms, rsym), fsrb_flags(flags, nsyms, 0), FULL,
		out[0].start_row, out[0].end_row, out[0].start_byte, out[0].start_col);
	if (rmode != NONE && rmode != KEYED && ts_subtree_child_count(root) > 0) {
		uint8_t pf = fsrb_flags(flags, nsyms, rsym);
		fsrb_frame fr = {.self = root, .pos = rpos, .parent = 0, .depth = 1, .psym = rsym, .pm = rmode,
			.fields = (pf & (FSRB_DEF | FSRB_DESCEND)) || (rmode > BUDGET && rmode < KEYED)};
		fsrb_push(&stack, &sp, &room, fr, lang); // room for 64
		last[1] = 0;
	}

	while (sp > 0) {
		fsrb_frame *f = &stack[sp - 1];
		if (f->i == f->self.ptr->child_count) {
			sp--;
			continue;
		}
		Subtree child = ts_subtree_children(f->self)[f->i];
		if (f->i > 0) {
			f->pos = length_add(f->pos, ts_subtree_padding(child));
		}
		Length pos = f->pos;
		Length size = ts_subtree_size(child);
		f->pos = length_add(f->pos, size);
		f->i++;

		bool extra = ts_subtree_extra(child);
		TSSymbol alias = 0;
		TSFieldId own = 0;
		if (!extra) {
			if (f->aliases) {
				alias = f->aliases[f->structural];
			}
			if (f->fields) {
				for (const TSFieldMapEntry *m = f->fm; m < f->fm_end; m++) {
					if (!m->inherited && m->child_index == f->structural) {
						own = m->field_id;
						break;
					}
				}
			}
			f->structural++;
		}
		TSFieldId field = extra ? 0 : own ? own : f->inherited;

		if (!ts_subtree_visible(child) && !alias) {
			if (ts_subtree_visible_child_count(child) == 0) {
				continue;
			}
			// A hidden node: its children read as its visible ancestor's.
			fsrb_frame fr = *f;
			fr.self = child;
			fr.pos = pos;
			fr.i = 0;
			fr.structural = 0;
			fr.inherited = field;
			if (!fsrb_push(&stack, &sp, &room, fr, lang)) goto fail;
			continue;
		}

		if (n == cap) {
			fsrb_node *grown = realloc(out, 2 * cap * sizeof(fsrb_node));
			if (!grown) goto fail;
			out = grown;
			cap *= 2;
		}
		uint32_t i = n++;
		TSSymbol sym = ts_language_public_symbol(lang, alias ? alias : ts_subtree_symbol(child));
		fsrb_node *o = &out[i];
		o->start_byte = pos.bytes;
		o->end_byte = pos.bytes + size.bytes;
		o->start_row = pos.extent.row;
		o->start_col = pos.extent.column;
		o->end_row = pos.extent.row + size.extent.row;
		o->end_col = size.extent.row > 0 ? size.extent.column : pos.extent.column + size.extent.column;
		o->kids = 0;
		o->next = 0;
		o->symbol = sym;
		o->field = f->fields ? field : 0;
		uint32_t depth = f->depth;
		if (last[depth] == 0) {
			out[f->parent].kids = i;
		} else {
			out[last[depth]].next = i;
		}
		last[depth] = i;

		uint8_t pf = fsrb_flags(flags, nsyms, f->psym);
		uint8_t mode = fsrb_mode(src, fsrb_flags(flags, nsyms, sym), pf, f->pm,
			o->start_row, o->end_row, o->start_byte, o->start_col);
		if (mode == KEYED || (depth <= wdepth && (o->end_byte <= lo || o->start_byte >= hi))) {
			mode = NONE;
		}
		if (mode == NONE || ts_subtree_visible_child_count(child) == 0) {
			continue;
		}
		uint8_t cf = fsrb_flags(flags, nsyms, sym);
		fsrb_frame fr = {.self = child, .pos = pos, .parent = i, .depth = depth + 1, .psym = sym, .pm = mode,
			.fields = (cf & (FSRB_DEF | FSRB_DESCEND)) || (mode > BUDGET && mode < KEYED)};
		if (depth + 1 == lroom) {
			uint32_t *grown = realloc(last, 2 * lroom * sizeof(uint32_t));
			if (!grown) goto fail;
			last = grown;
			lroom *= 2;
		}
		last[depth + 1] = 0;
		if (!fsrb_push(&stack, &sp, &room, fr, lang)) goto fail;
	}
	goto done;
fail:
	free(out);
	out = NULL;
	n = 0;
done:
	free(stack);
	free(last);
	*count = n;
	return out;
}

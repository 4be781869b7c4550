#include <stdint.h>
#include <stdlib.h>

// The runtime's API under the names tsparse.c builds it with (api.h).
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct TSLanguage TSLanguage;

TSParser *fsrb_ts_parser_new(void);
void fsrb_ts_parser_delete(TSParser *self);
_Bool fsrb_ts_parser_set_language(TSParser *self, const TSLanguage *language);
void fsrb_ts_parser_set_timeout_micros(TSParser *self, uint64_t timeout_micros);
void fsrb_ts_parser_set_cancellation_flag(TSParser *self, const size_t *flag);
void fsrb_ts_parser_reset(TSParser *self);
TSTree *fsrb_ts_parser_parse_string(TSParser *self, const TSTree *old_tree, const char *string, uint32_t length);

void fsrb_ts_parser_count_lexed(TSParser *p, uint64_t *count);

// fsrb_node is one node of a flattened tree (flatNode in Go).
typedef struct {
	uint32_t start_byte, end_byte;
	uint32_t start_row, start_col, end_row, end_col;
	uint32_t kids, next; // the first child's and the next sibling's index; 0 for none
	uint16_t symbol, field;
} fsrb_node;

// Flags of a symbol for fsrb_flatten: a definition, whose header is read
// three levels down; a node read on down a statement's chain.
enum { FSRB_DEF = 1, FSRB_DESCEND = 2 };

// fsrb_flatten returns the tree's nodes in preorder, in memory of its
// own (malloc: the caller frees it), and their number in *count (0 and
// NULL when memory ran out); hint is a first guess of the number. It
// reads what an outline reads, no more:
//   - the children of every node that spans lines;
//   - under a node of one line that starts a line of src (a statement),
//     the chain a key reads: its children, and the children of those of
//     them flagged FSRB_DESCEND (a wrapper, an assignment, a call...),
//     four levels at most;
//   - the header of a definition (flagged FSRB_DEF): three levels below
//     it, for its name and a Go method's receiver;
//   - of the nodes wdepth levels below the root or fewer (the root's
//     children are one level below it), only those that overlap bytes
//     [lo, hi) are read below: an outline spliced from an earlier one
//     walks only what an edit touched, the root's children (wdepth 1)
//     or, to any depth, the path down to the members of a class it
//     touched.
// A node's field is read only under a definition and along a chain.
fsrb_node *fsrb_flatten(const TSTree *tree, uint32_t *count, uint32_t hint,
	const uint8_t *src, const uint8_t *flags, uint32_t nsyms, uint32_t lo, uint32_t hi, uint32_t wdepth);

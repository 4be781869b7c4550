#include <string.h>

#include "api.h"
#include "tsparse.h"

void fsrb_ts_parser_set_logger(TSParser *self, TSLogger logger);

// Lexing counts what a parse lexed, for tests: a reparse that reuses the
// old tree lexes only around the edit.
static void fsrb_count_lex(void *payload, TSLogType type, const char *msg) {
	if (type == TSLogTypeParse && strncmp(msg, "lexed_lookahead", 15) == 0) {
		(*(uint64_t *)payload)++;
	}
}

void fsrb_ts_parser_count_lexed(TSParser *p, uint64_t *count) {
	TSLogger l = {count, count ? fsrb_count_lex : NULL};
	fsrb_ts_parser_set_logger(p, l);
}

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

/* jsonscan.h — fast, read-only JSON parsing of large API answers (list pages).
 *
 * A page is parsed in place: strings are unescaped inside the caller's buffer and
 * NUL-terminated there, and the values become cJSON-compatible nodes allocated from an arena
 * that is reset after each list item, so a page costs one item's nodes and no malloc per
 * value.  The nodes are read with the usual cJSON getters (cJSON_GetObjectItemCaseSensitive,
 * cJSON_ArrayForEach, cJSON_Is*, cJSON_Duplicate to keep one); they must never be passed to
 * cJSON_Delete or modified, and they live until the arena is reset.
 *
 * The syntax accepted is cJSON's (cJSON_ParseWithLength): the same documents parse and the
 * same ones fail — bytes <= 0x20 are whitespace, a UTF-8 BOM is skipped, nesting is limited
 * to 1000, \uXXXX escapes (with surrogate pairs) become UTF-8, numbers are read by strtod,
 * and whatever follows the first value is ignored.  One exception: members named in a skip
 * list are passed over by bracket matching (strings respected), not validated, and are
 * absent from the tree.
 */
#ifndef KGPU_JSONSCAN_H
#define KGPU_JSONSCAN_H
#include <stdbool.h>
#include <stddef.h>

struct cJSON;
typedef struct JsonArena JsonArena;

JsonArena *json_arena_new(void);
void json_arena_free(JsonArena *a);
/* forget every node (memory is kept for reuse, up to a bound) */
void json_arena_reset(JsonArena *a);

/* Members of each list item to skip, as "key" (a member of the item) or "key.sub" (a member
 * of the item's object member key), e.g. { "metadata.managedFields", "status.images", NULL }.
 * "key.sub:m1,m2" keeps key.sub, an object, with only its members m1 and m2 (names without ','
 * or ':', e.g. annotation keys): { "metadata.annotations:hami.io/vgpu-devices-allocated" }; when
 * key.sub is an array, each object in it keeps only m1 and m2 (its other elements are kept
 * whole): { "spec.containers:name,resources" }. */
typedef const char *const *JsonSkip;

/* Parses buf[0..len) (modified in place) as one JSON document.  Returns the root, or NULL
 * when the text is not JSON.  Nodes are in a; reset a to drop them. */
const struct cJSON *jsonscan_parse_inplace(char *buf, size_t len, JsonArena *a);

/* What jsonscan_list_walk found besides the items. */
typedef struct {
    bool syntax_error;        /* the text is not JSON (or the root is not an object) */
    bool has_items;           /* a member "items" exists (the first one is used) */
    bool items_null;          /* ... and it is null */
    bool items_not_array;     /* ... and it is neither null nor an array */
    long bad_item;            /* index of the first item that is not an object, -1 if none */
    char *kind;               /* the first member "kind" when a string (malloc'd), else NULL */
    char *cont;               /* metadata.continue when a non-empty string (malloc'd), else NULL */
    char *rv;                 /* metadata.resourceVersion when a non-empty string (malloc'd), else NULL */
    long items;               /* items handed to the callback */
} JsonListInfo;

/* called per item (an object, borrowed until the call returns); non-zero stops the walk and
 * is returned by jsonscan_list_walk */
typedef int (*JsonItemFn)(void *ctx, const struct cJSON *item);
/* called once the list's metadata was read (before the items when metadata comes first, as
 * kube-apiserver writes it), with its continue token (NULL when none); may start the next
 * request */
typedef void (*JsonMetaFn)(void *ctx, const char *cont);

/* Walks a List document buf[0..len) (modified in place): the first "kind", "metadata" and
 * "items" members of the root object are read; each element of "items" is parsed alone,
 * handed to fn, then forgotten (the arena is reset).  Once an element is not an object, or
 * "items" is not an array, fn is no longer called but the text is still checked to its end,
 * so a syntax error anywhere wins.  Returns 0 (then see info), or fn's non-zero value.
 * info->kind, info->cont and info->rv are allocated; free them with json_list_info_clear. */
int jsonscan_list_walk(char *buf, size_t len, JsonArena *a, JsonSkip skip, JsonItemFn fn,
                   JsonMetaFn meta, void *ctx, JsonListInfo *info);
void json_list_info_clear(JsonListInfo *info);

/* ---- documents arriving in pieces, one big array streamed ----
 *
 * JsonSplit reads a document fed in pieces (e.g. from a curl write callback).  The elements
 * of one array, named by its keys from the root (the first member of each name, as
 * cJSON_GetObjectItem finds it), can be handed out one at a time as soon as each is complete,
 * parsed in place; everything else is kept, and json_split_rest gives the document without
 * the elements handed out (the array left empty), to be parsed when the last piece is in.
 * Whether the elements are handed out is asked once, when the array opens, through ready():
 * string values named in watch ("key" or "key.sub", first members) have been captured by
 * then if they come before the array (json_split_watched); when ready() says no, the array
 * stays in the document.  Separators in the array are checked as cJSON checks them; an
 * element that is not JSON, or a bad separator, makes json_split_bad() true. */
typedef struct JsonSplit JsonSplit;
typedef int (*JsonSplitElemFn)(void *ctx, const struct cJSON *elem);
typedef bool (*JsonSplitReadyFn)(void *ctx, const JsonSplit *s);
JsonSplit *json_split_new(const char *const *path, const char *const *watch, JsonSplitReadyFn ready,
                          JsonSplitElemFn elem, void *ctx);
/* elem's non-zero return stops the handing out: later elements are checked and dropped */
void json_split_feed(JsonSplit *s, const char *data, size_t len);
/* the raw text (escapes as sent, at most 63 bytes) of watch[i], NULL when not seen (yet) */
const char *json_split_watched(const JsonSplit *s, size_t i);
bool json_split_bad(const JsonSplit *s);
size_t json_split_handed(const JsonSplit *s);      /* elements handed out */
/* the document so far without the elements handed out; a writable buffer owned by s */
char *json_split_rest(JsonSplit *s, size_t *len);
/* the first bytes of the document (up to 256), for messages */
const char *json_split_head(const JsonSplit *s, size_t *len);
void json_split_free(JsonSplit *s);

/* The first '"' or '\\' in [q, end) — with ctl also the first control byte (below 0x20),
 * which JSON forbids in a string — or end: the scan inside a string, for any reader of JSON
 * text.  Reads nothing at or past end.  jsonscan_string_stop steps sixteen bytes at a time
 * where SSE2 is there; _word is the portable eight-byte step, the same answer everywhere. */
char *jsonscan_string_stop(char *q, const char *end, bool ctl);
char *jsonscan_string_stop_word(char *q, const char *end, bool ctl);

/* The container (object or array) whose opening bracket is at q, passed over by bracket
 * matching with strings respected, not validated: the byte past its closing bracket, or NULL
 * when end comes first.  Reads nothing at or past end.  jsonscan_skip_container steps 64 bytes
 * at a time with the best walk this processor has (AVX2, else SSE2); _bytes walks byte by
 * byte; _walk with the one named (the byte walk when this processor or build has not it).
 * Every walk gives the same answer on any text. */
typedef enum { JSONSKIP_BYTES, JSONSKIP_SSE2, JSONSKIP_AVX2 } JsonSkipWalk;
const char *jsonscan_skip_container(const char *q, const char *end);
const char *jsonscan_skip_container_bytes(const char *q, const char *end);
const char *jsonscan_skip_container_walk(const char *q, const char *end, JsonSkipWalk walk);
bool jsonscan_skip_walk_available(JsonSkipWalk walk);
#endif

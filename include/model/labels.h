/* labels.h — key/value maps (labels, nodeSelector) and Kubernetes label selectors.
 *
 * KVList owns its strings.  LabelSelector is the parsed form of a selector string such as
 * "nvidia.com/gpu.present=true,pool in (a,b),!spot" (=, ==, !=, in, notin, exists, !exists).
 */
#ifndef KGPU_LABELS_H
#define KGPU_LABELS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/strpool.h"

typedef struct { char *key, *value; } KV;
typedef struct { KV *items; uint32_t n, cap; } KVList;   /* 16 bytes: two in each of tens of thousands of pods */
#define KVLIST_INIT { NULL, 0, 0 }
void kv_set(KVList *l, const char *key, const char *value);
const char *kv_get(const KVList *l, const char *key);   /* NULL if absent */
void kv_clear(KVList *l);
struct cJSON;
void kv_from_json(KVList *l, const struct cJSON *obj);   /* string values only */
/* the same, its strings the pool's: the list then owns only its array (free(l->items); never
 * kv_set or kv_clear on it) */
void kv_from_json_pooled(KVList *l, const struct cJSON *obj, StrPool *pool);
/* the value kv_from_json would give key, without the list: NULL when none; obj's own string
 * (borrowed) when it is plain text, else its printable copy, then also in *tofree (the caller
 * frees it; NULL otherwise) */
const char *kv_json_value(const struct cJSON *obj, const char *key, char **tofree);

typedef enum { SEL_EQ, SEL_NEQ, SEL_IN, SEL_NOTIN, SEL_EXISTS, SEL_NOT_EXISTS,
               SEL_GT, SEL_LT } SelOp;   /* Gt/Lt only from node affinity */
typedef struct { char *key; SelOp op; char **values; size_t nvalues; } SelReq;
typedef struct { SelReq *reqs; size_t n, cap; } LabelSelector;
#define LABEL_SELECTOR_INIT { NULL, 0, 0 }

struct Error;
int label_selector_parse(LabelSelector *sel, const char *s, struct Error *err);
bool label_selector_matches(const LabelSelector *sel, const KVList *labels);
void label_selector_add(LabelSelector *sel, const char *key, SelOp op,
                        const char *const *values, size_t nvalues);
bool selreq_matches(const SelReq *r, const KVList *labels);
void label_selector_clear(LabelSelector *sel);
/* "key in (a,b)" etc., for messages; caller frees */
char *selreq_format(const SelReq *r);
#endif

/* strpool.h — the cluster's string pool: one copy of each string, packed into chunks.
 *
 * Model objects kept by a Cluster (model/cluster.h) are decoded straight into its pool: each
 * string field is a `const char *` to the pool's copy, shared by every object that holds the
 * same text, and never freed or written through by the object.  The copies live until
 * strpool_free.  Besides strings, the pool keeps byte blocks (strpool_intern_mem: an array of
 * structs whose strings are themselves pooled, e.g. a pod's tolerations) under the same rule:
 * one copy per distinct content, aligned for any struct, read-only.
 *
 * util/strarena.h is the same pool seen by owners that mix pooled strings with their own.
 *
 * Nothing is ever removed: a long-lived owner (top's live cluster) interns what it still uses
 * into a new pool and frees the old one (cluster_compact_strings).
 */
#ifndef KGPU_STRPOOL_H
#define KGPU_STRPOOL_H
#include <stdbool.h>
#include <stddef.h>

typedef struct StrPool StrPool;

StrPool *strpool_new(void);
void strpool_free(StrPool *p);                       /* NULL is fine */
/* the pool's copy of s (NULL for NULL) */
const char *strpool_intern(StrPool *p, const char *s);
/* a copy of s in the pool (NULL for NULL), made without looking for one: for text that is each
 * object's own (a pod's name: unique in its namespace), which a lookup never finds and the
 * table would only hold.  Another copy of the same text may exist; compare such strings with
 * strcmp, not by pointer. */
const char *strpool_add(StrPool *p, const char *s);
/* the pool's copy of str_printable(s, max) (util.h: at most max bytes, cut at a UTF-8
 * boundary, control characters as spaces); NULL for NULL.  Plain ASCII is not copied twice. */
const char *strpool_printable(StrPool *p, const char *s, size_t max);
/* the pool's copy of len bytes (NULL when len is 0), aligned for any type */
const void *strpool_intern_mem(StrPool *p, const void *data, size_t len);
/* A memo of derived blocks: what a caller made from some source text (a pod's tolerations from
 * their JSON), recorded under that text's bytes, so that each distinct source is made once (the
 * pods of a Job carry the same).  get: the value put for the same key bytes, NULL when none.
 * put: records value (NULL, or a key longer than STRPOOL_MEMO_KEY_MAX: nothing recorded); the
 * first STRPOOL_MEMO_MAX keys only (a copy of each is kept in the pool: a bounded cost when
 * every source differs).  The caller's key must hold all that the value depends on. */
#define STRPOOL_MEMO_MAX 1024
#define STRPOOL_MEMO_KEY_MAX 1024
const void *strpool_memo_get(const StrPool *p, const void *key, size_t len);
void strpool_memo_put(StrPool *p, const void *key, size_t len, const void *value);
/* s points into the pool: one of its copies, or inside one (p may be NULL: false) */
bool strpool_owns(const StrPool *p, const void *s);
/* drop the lookup tables and the memo (the copies stay valid); a later intern starts new ones, which may
 * then copy a string twice */
void strpool_seal(StrPool *p);
/* a pool filled once and then mostly read (top's live cluster after its list): the string
 * table is made as small as a load of 7/8 allows (1/2 before: twice the slots, 2 MB at 218,923
 * strings), and kept at that load when it grows; a lookup probes a few more slots */
void strpool_pack(StrPool *p);
size_t strpool_count(const StrPool *p);              /* strings (added ones too) and blocks held */
size_t strpool_bytes(const StrPool *p);              /* bytes of the chunks and tables */
#endif

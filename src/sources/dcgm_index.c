/* dcgm_index.c — positions of records by hash, open addressing (dcgm_index.h). */
#include "sources/dcgm_index.h"
#include "util/util.h"
#include <stdlib.h>

#define FNV_PRIME 1099511628211ULL

uint64_t dcgm_hash_str(uint64_t h, const char *s)
{
    for (; s && *s; s++) h = (h ^ (unsigned char)*s) * FNV_PRIME;
    return (h ^ 0x1f) * FNV_PRIME;           /* the separator: ("ab", "c") is not ("a", "bc") */
}

uint64_t dcgm_hash_int(uint64_t h, long v)
{
    unsigned long u = (unsigned long)v;
    for (int i = 0; i < 8; i++, u >>= 8) h = (h ^ (u & 0xff)) * FNV_PRIME;
    return h;
}

/* the slot of hash h's probe sequence: a match's, or the first empty one */
static size_t probe(const DcgmIndex *x, uint64_t h, DcgmIndexMatch match, const void *ctx)
{
    size_t mask = x->cap - 1, i = (size_t)(h ^ (h >> 29)) & mask;
    while (x->slot[i] && !(match && match(ctx, x->slot[i] - 1))) i = (i + 1) & mask;
    return i;
}

size_t dcgm_index_find(const DcgmIndex *x, uint64_t h, DcgmIndexMatch match, const void *ctx)
{
    if (!x->cap) return 0;
    return x->slot[probe(x, h, match, ctx)];
}

/* at most two thirds full (half was 1 MB for the 69,761 records a metrics refresh of top
 * indexes at 5,000 GPU nodes, and 1.5 MB while it grew beside the records' slots) */
static bool full(size_t n, size_t cap) { return 3 * n > 2 * cap; }

void dcgm_index_reserve(DcgmIndex *x, size_t n)
{
    if (x->cap || !n) return;
    size_t cap = 64;
    while (full(n, cap)) cap *= 2;
    x->slot = xcalloc(cap, sizeof *x->slot);
    x->cap = cap;
}

void dcgm_index_add(DcgmIndex *x, uint64_t h, size_t idx, DcgmIndexHash rehash, const void *owner)
{
    if (full(x->n + 1, x->cap)) {
        size_t cap = x->cap ? 2 * x->cap : 64;
        uint32_t *old = x->slot;
        size_t oldcap = x->cap;
        x->slot = xcalloc(cap, sizeof *x->slot);
        x->cap = cap;
        for (size_t i = 0; i < oldcap; i++)
            if (old[i]) x->slot[probe(x, rehash(owner, old[i] - 1), NULL, NULL)] = old[i];
        free(old);
    }
    x->slot[probe(x, h, NULL, NULL)] = (uint32_t)(idx + 1);
    x->n++;
}

void dcgm_index_clear(DcgmIndex *x)
{
    free(x->slot);
    x->slot = NULL;
    x->cap = x->n = 0;
}

/* strpool.c — one copy of each string (and byte block), see strpool.h.
 *
 * Two open-addressing tables (FNV-1a): strings compare with strcmp and are packed back to back;
 * blocks carry their length in front and start on a max_align_t boundary.  Chunks of 64 KiB;
 * an entry longer than a quarter chunk gets a block of its own.  The string table (hundreds of
 * thousands of entries on a large cluster) holds 4-byte references, chunk << 16 | offset,
 * instead of pointers: half the table. */
#include "util/strpool.h"
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/hash.h"
#include "util/util.h"

#define POOL_CHUNK ((size_t)64 << 10)

typedef struct {
    const char **slots;
    size_t cap, n;
} Table;

typedef struct {
    uint32_t *slots;                /* reference + 1, 0 = empty */
    size_t cap, n;
} RefTable;

#define MAX_CHUNKS 65535            /* references: 16 bits of chunk, 16 of offset (4 GiB) */

struct StrPool {
    RefTable strs;
    Table mems;
    char **chunks; size_t nchunks, capchunks;
    char *cur; size_t left;
    size_t cur_chunk;               /* chunks[cur_chunk] holds cur */
    size_t bytes;
    struct Range { uintptr_t lo; size_t len; } *ranges;   /* the chunks by address (owns) */
    size_t nranges, capranges;
    bool dense;                     /* strpool_pack: the string table up to 7/8 full, not 1/2 */
    struct Memo { const char *key; const void *value; } *memo;   /* strpool_memo_put's (owns the
                                                                      array; keys in the chunks) */
    size_t memocap, memon;
    size_t added;                   /* strpool_add's copies (in no table) */
};

StrPool *strpool_new(void) { return xcalloc(1, sizeof(StrPool)); }

void strpool_free(StrPool *p)
{
    if (!p) return;
    for (size_t i = 0; i < p->nchunks; i++) free(p->chunks[i]);
    free(p->chunks);
    free(p->ranges);
    free(p->strs.slots);
    free(p->mems.slots);
    free(p->memo);
    free(p);
}

/* The tables' hash is util/hash.h's (eight bytes a step: a pod's reading interns some thirty
 * strings and a 100-byte block, and the byte-at-a-time FNV was a tenth of its cost). */

#define MEM_HDR (sizeof(max_align_t))        /* the length, padded so the data stays aligned */
static size_t mem_len(const char *e) { size_t n; memcpy(&n, e - MEM_HDR, sizeof n); return n; }

static void table_grow(StrPool *p, Table *t)
{
    if ((t->n + 1) * 2 <= t->cap) return;
    size_t oc = t->cap;
    const char **old = t->slots;
    t->cap = oc ? oc * 2 : 256;
    t->slots = xcalloc(t->cap, sizeof *t->slots);
    p->bytes += (t->cap - oc) * sizeof *t->slots;
    for (size_t i = 0; i < oc; i++) {
        if (!old[i]) continue;
        size_t j = (size_t)hash_bytes(old[i], mem_len(old[i])) & (t->cap - 1);
        while (t->slots[j]) j = (j + 1) & (t->cap - 1);
        t->slots[j] = old[i];
    }
    free(old);
}

static const char *deref(const StrPool *p, uint32_t v)
{
    return p->chunks[(v - 1) >> 16] + ((v - 1) & 0xffff);
}

/* the string table rebuilt with cap slots (a power of two above its count) */
static void reftable_rehash(StrPool *p, size_t cap)
{
    RefTable *t = &p->strs;
    size_t oc = t->cap;
    uint32_t *old = t->slots;
    t->cap = cap;
    t->slots = xcalloc(t->cap, sizeof *t->slots);
    p->bytes = p->bytes - oc * sizeof *t->slots + t->cap * sizeof *t->slots;
    for (size_t i = 0; i < oc; i++) {
        if (!old[i]) continue;
        const char *e = deref(p, old[i]);
        size_t j = (size_t)hash_bytes(e, strlen(e)) & (t->cap - 1);
        while (t->slots[j]) j = (j + 1) & (t->cap - 1);
        t->slots[j] = old[i];
    }
    free(old);
}

static bool reftable_room(const StrPool *p, size_t n, size_t cap)
{
    return p->dense ? n * 8 <= cap * 7 : n * 2 <= cap;
}

static void reftable_grow(StrPool *p)
{
    RefTable *t = &p->strs;
    if (t->cap && reftable_room(p, t->n + 1, t->cap)) return;
    reftable_rehash(p, t->cap ? t->cap * 2 : 1024);
}

void strpool_pack(StrPool *p)
{
    if (!p) return;
    p->dense = true;
    if (!p->strs.cap) return;
    size_t cap = 1024;
    while (!reftable_room(p, p->strs.n + 1, cap)) cap *= 2;
    if (cap < p->strs.cap) reftable_rehash(p, cap);
}

static void too_many_chunks(void)
{
    fputs("kubectl-gpu: out of memory (string pool over 4 GiB)\n", stderr);
    exit(1);
}

/* a new chunk of len bytes, in chunks[] and in ranges[] (kept sorted by address) */
static char *new_chunk(StrPool *p, size_t len)
{
    char *c = xmalloc(len);
    ARRAY_GROW(p->chunks, p->nchunks, p->capchunks);
    p->chunks[p->nchunks++] = c;
    ARRAY_GROW(p->ranges, p->nranges, p->capranges);
    size_t i = p->nranges;
    while (i > 0 && p->ranges[i - 1].lo > (uintptr_t)c) i--;
    memmove(&p->ranges[i + 1], &p->ranges[i], (p->nranges - i) * sizeof *p->ranges);
    p->ranges[i].lo = (uintptr_t)c;
    p->ranges[i].len = len;
    p->nranges++;
    p->bytes += len;
    return c;
}

/* room for size bytes at an offset of align within the current chunk; *chunk = its index */
static char *pool_alloc(StrPool *p, size_t size, size_t align, size_t *chunk)
{
    if (p->nchunks >= MAX_CHUNKS) too_many_chunks();
    if (size > POOL_CHUNK / 4) {
        *chunk = p->nchunks;
        return new_chunk(p, size);
    }
    size_t pad = align > 1 ? (size_t)(-(uintptr_t)p->cur & (align - 1)) : 0;
    if (!p->cur || size + pad > p->left) {
        p->cur_chunk = p->nchunks;
        p->cur = new_chunk(p, POOL_CHUNK);
        p->left = POOL_CHUNK;
        pad = 0;
    }
    char *dst = p->cur + pad;
    p->cur += pad + size;
    p->left -= pad + size;
    *chunk = p->cur_chunk;
    return dst;
}

/* the first len bytes of s as a pooled string, h = hash_bytes(s, len) */
static const char *intern_hashed(StrPool *p, const char *s, size_t len, uint64_t h)
{
    RefTable *t = &p->strs;
    reftable_grow(p);
    size_t j = (size_t)h & (t->cap - 1);
    while (t->slots[j]) {
        const char *e = deref(p, t->slots[j]);
        if (strncmp(e, s, len) == 0 && e[len] == '\0') return e;
        j = (j + 1) & (t->cap - 1);
    }
    size_t chunk;
    char *dst = pool_alloc(p, len + 1, 1, &chunk);
    memcpy(dst, s, len);
    dst[len] = '\0';
    t->slots[j] = (uint32_t)((chunk << 16 | (size_t)(dst - p->chunks[chunk])) + 1);
    t->n++;
    return dst;
}

static const char *intern_n(StrPool *p, const char *s, size_t len)
{
    return intern_hashed(p, s, len, hash_bytes(s, len));
}

const char *strpool_intern(StrPool *p, const char *s)
{
    return s ? intern_n(p, s, strlen(s)) : NULL;
}

const char *strpool_add(StrPool *p, const char *s)
{
    if (!s) return NULL;
    size_t len = strlen(s), chunk;
    char *dst = pool_alloc(p, len + 1, 1, &chunk);
    memcpy(dst, s, len + 1);
    p->added++;
    return dst;
}

/* hash_bytes(s, len) when the len bytes are all plain ASCII (0x20-0x7e), in the same pass (a
 * pod's or a node's strings are looked at once, not three times: the scan, the hash and the
 * copy's); false otherwise.  A word w of such bytes has neither w - 0x20.. (a byte below 0x20:
 * the lowest such one borrows, the others above it cannot make it look plain), nor w + 0x01..
 * (0x7f), nor w itself (0x80 and up) with a top bit set in any byte. */
static bool plain_hash(const char *s, size_t len, uint64_t *out)
{
    const unsigned char *u = (const unsigned char *)s;
    const uint64_t ones = 0x0101010101010101ULL, tops = 0x8080808080808080ULL;
    uint64_t h = hash_start(len), w, bad = 0;
    for (; len >= 8; u += 8, len -= 8) {
        memcpy(&w, u, 8);
        bad |= (w - 0x20 * ones) | (w + ones) | w;
        h = hash_word(h, w);
    }
    for (size_t i = 0; i < len; i++) if (u[i] < 0x20 || u[i] >= 0x7f) return false;
    if (bad & tops) return false;
    *out = hash_finish(h, u, len);
    return true;
}

const char *strpool_printable(StrPool *p, const char *s, size_t max)
{
    if (!s) return NULL;
    size_t len = strnlen(s, max);
    uint64_t h;
    if (plain_hash(s, len, &h)) return intern_hashed(p, s, len, h);   /* the usual case */
    char *copy = str_printable(s, max);
    const char *r = intern_n(p, copy, strlen(copy));
    free(copy);
    return r;
}

const void *strpool_intern_mem(StrPool *p, const void *data, size_t len)
{
    if (!len) return NULL;
    Table *t = &p->mems;
    table_grow(p, t);
    size_t j = (size_t)hash_bytes(data, len) & (t->cap - 1);
    while (t->slots[j]) {
        const char *e = t->slots[j];
        if (mem_len(e) == len && memcmp(e, data, len) == 0) return e;
        j = (j + 1) & (t->cap - 1);
    }
    size_t chunk;
    char *dst = pool_alloc(p, MEM_HDR + len, alignof(max_align_t), &chunk) + MEM_HDR;
    memcpy(dst - MEM_HDR, &len, sizeof len);
    memcpy(dst, data, len);
    t->slots[j] = dst;
    t->n++;
    return dst;
}

/* the memo's slot of key: its entry's, or the empty one where it goes */
static struct Memo *memo_slot(const StrPool *p, const void *key, size_t len)
{
    size_t j = (size_t)hash_bytes(key, len) & (p->memocap - 1);
    while (p->memo[j].key && !(mem_len(p->memo[j].key) == len && memcmp(p->memo[j].key, key, len) == 0))
        j = (j + 1) & (p->memocap - 1);
    return &p->memo[j];
}

const void *strpool_memo_get(const StrPool *p, const void *key, size_t len)
{
    if (!p || !p->memocap || !len) return NULL;
    return memo_slot(p, key, len)->value;
}

void strpool_memo_put(StrPool *p, const void *key, size_t len, const void *value)
{
    if (!len || !value || len > STRPOOL_MEMO_KEY_MAX || p->memon >= STRPOOL_MEMO_MAX) return;
    if ((p->memon + 1) * 2 > p->memocap) {         /* at most half full */
        struct Memo *old = p->memo;
        size_t oc = p->memocap;
        p->memocap = oc ? oc * 2 : 16;
        p->memo = xcalloc(p->memocap, sizeof *p->memo);
        p->bytes += (p->memocap - oc) * sizeof *p->memo;
        for (size_t i = 0; i < oc; i++)
            if (old[i].key) *memo_slot(p, old[i].key, mem_len(old[i].key)) = old[i];
        free(old);
    }
    struct Memo *m = memo_slot(p, key, len);
    if (!m->key) {
        size_t chunk;
        char *dst = pool_alloc(p, MEM_HDR + len, alignof(max_align_t), &chunk) + MEM_HDR;
        memcpy(dst - MEM_HDR, &len, sizeof len);
        memcpy(dst, key, len);
        m->key = dst;
        p->memon++;
    }
    m->value = value;
}

size_t strpool_count(const StrPool *p) { return p ? p->strs.n + p->mems.n + p->added : 0; }
size_t strpool_bytes(const StrPool *p) { return p ? p->bytes : 0; }

bool strpool_owns(const StrPool *p, const void *s)
{
    if (!p || !s) return false;
    uintptr_t a = (uintptr_t)s;
    size_t lo = 0, hi = p->nranges;                /* the last range starting at or before a */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->ranges[mid].lo <= a) lo = mid + 1;
        else hi = mid;
    }
    return lo > 0 && a - p->ranges[lo - 1].lo < p->ranges[lo - 1].len;
}

void strpool_seal(StrPool *p)
{
    if (!p) return;
    p->bytes -= p->strs.cap * sizeof *p->strs.slots + p->mems.cap * sizeof *p->mems.slots;
    p->bytes -= p->memocap * sizeof *p->memo;
    free(p->strs.slots);
    free(p->mems.slots);
    free(p->memo);
    p->strs = (RefTable){ 0 };
    p->mems = (Table){ 0 };
    p->memo = NULL;
    p->memocap = p->memon = 0;
}

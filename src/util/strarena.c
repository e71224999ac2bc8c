/* strarena.c — one copy of each string, packed into chunks (strarena.h).
 *
 * Chunks of 256 KiB; a lookup table (open addressing, FNV-1a, at most half full) finds an
 * earlier copy.  Ownership is a range check over the chunks (a few dozen at 100,000 strings). */
#include "util/strarena.h"
#include "util/util.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_CHUNK ((size_t)256 << 10)

struct StrArena {
    char **chunks; size_t nchunks, capchunks;
    char *cur; size_t left;
    const char **slots; size_t cap, n;
};

StrArena *strarena_new(void) { return xcalloc(1, sizeof(StrArena)); }

void strarena_free(StrArena *a)
{
    if (!a) return;
    for (size_t i = 0; i < a->nchunks; i++) free(a->chunks[i]);
    free(a->chunks);
    free(a->slots);
    free(a);
}

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    while (*s) { h ^= (unsigned char)*s++; h *= 1099511628211ULL; }
    return h;
}

static void rehash(StrArena *a)
{
    size_t oc = a->cap;
    const char **old = a->slots;
    a->cap = oc ? oc * 2 : 1024;
    a->slots = xcalloc(a->cap, sizeof *a->slots);
    for (size_t i = 0; i < oc; i++) {
        if (!old[i]) continue;
        size_t j = (size_t)hash(old[i]) & (a->cap - 1);
        while (a->slots[j]) j = (j + 1) & (a->cap - 1);
        a->slots[j] = old[i];
    }
    free(old);
}

char *strarena_intern(StrArena *a, const char *s)
{
    if (!s) return NULL;
    size_t len = strlen(s) + 1;
    if (len > ARENA_CHUNK / 4) return xstrdup(s);
    if ((a->n + 1) * 2 > a->cap) rehash(a);
    size_t j = (size_t)hash(s) & (a->cap - 1);
    while (a->slots[j]) {
        if (strcmp(a->slots[j], s) == 0) return (char *)a->slots[j];
        j = (j + 1) & (a->cap - 1);
    }
    if (len > a->left) {
        ARRAY_GROW(a->chunks, a->nchunks, a->capchunks);
        a->cur = a->chunks[a->nchunks++] = xmalloc(ARENA_CHUNK);
        a->left = ARENA_CHUNK;
    }
    char *dst = a->cur;
    memcpy(dst, s, len);
    a->cur += len;
    a->left -= len;
    a->slots[j] = dst;
    a->n++;
    return dst;
}

bool strarena_owns(const StrArena *a, const char *s)
{
    for (size_t i = 0; a && s && i < a->nchunks; i++)
        if ((uintptr_t)s - (uintptr_t)a->chunks[i] < ARENA_CHUNK) return true;
    return false;
}

void strarena_seal(StrArena *a)
{
    if (!a) return;
    free(a->slots);
    a->slots = NULL;
    a->cap = a->n = 0;
}

void strarena_release(const StrArena *a, char *s)
{
    if (s && !strarena_owns(a, s)) free(s);
}

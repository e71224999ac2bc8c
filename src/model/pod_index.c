/* pod_index.c — kept pods by namespace/name (pod_index.h): linear probing over uint32
 * positions, FNV-1a of "ns/name" computed without building the string, deletion by backward
 * shift (no tombstones: a watch that adds and deletes pods for hours keeps probes short). */
#include "pod_index.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "util/util.h"

struct PodIndex {
    uint32_t *slots;            /* position+1, 0 = empty */
    size_t cap, n;
};

static uint64_t fnv(uint64_t h, const char *s)
{
    for (; *s; s++) { h ^= (unsigned char)*s; h *= 1099511628211ULL; }
    return h;
}

static size_t key_hash(const char *ns, const char *name)
{
    uint64_t h = fnv(1469598103934665603ULL, ns);
    h ^= '/'; h *= 1099511628211ULL;
    return (size_t)fnv(h, name);
}

static bool slot_is(const Pod *pods, uint32_t v, const char *ns, const char *name)
{
    const Pod *p = &pods[v - 1];
    return strcmp(p->name, name) == 0 && strcmp(p->ns, ns) == 0;
}

PodIndex *pod_index_new(void) { return xcalloc(1, sizeof(PodIndex)); }

void pod_index_free(PodIndex *x)
{
    if (!x) return;
    free(x->slots);
    free(x);
}

/* the slot holding ns/name, or the empty slot where it would go */
static size_t find(const PodIndex *x, const Pod *pods, const char *ns, const char *name)
{
    size_t j = key_hash(ns, name) & (x->cap - 1);
    while (x->slots[j] && !slot_is(pods, x->slots[j], ns, name)) j = (j + 1) & (x->cap - 1);
    return j;
}

size_t pod_index_get(const PodIndex *x, const Pod *pods, const char *ns, const char *name)
{
    if (!x || !x->cap || !ns || !name) return 0;
    return x->slots[find(x, pods, ns, name)];
}

static void grow(PodIndex *x, const Pod *pods)
{
    size_t oc = x->cap;
    uint32_t *old = x->slots;
    x->cap = oc ? oc * 2 : 1024;
    x->slots = xcalloc(x->cap, sizeof *x->slots);
    for (size_t i = 0; i < oc; i++) {
        if (!old[i]) continue;
        const Pod *p = &pods[old[i] - 1];
        size_t j = key_hash(p->ns, p->name) & (x->cap - 1);
        while (x->slots[j]) j = (j + 1) & (x->cap - 1);
        x->slots[j] = old[i];
    }
    free(old);
}

void pod_index_put(PodIndex *x, const Pod *pods, size_t i)
{
    if ((x->n + 1) * 2 > x->cap) grow(x, pods);
    size_t j = find(x, pods, pods[i].ns, pods[i].name);
    if (!x->slots[j]) x->n++;
    x->slots[j] = (uint32_t)(i + 1);
}

void pod_index_del(PodIndex *x, const Pod *pods, const char *ns, const char *name)
{
    if (!x || !x->cap || !ns || !name) return;
    size_t mask = x->cap - 1, j = find(x, pods, ns, name);
    if (!x->slots[j]) return;
    x->slots[j] = 0;
    x->n--;
    /* move back every later entry of the run whose home is not between the hole and it */
    for (size_t k = (j + 1) & mask; x->slots[k]; k = (k + 1) & mask) {
        const Pod *p = &pods[x->slots[k] - 1];
        size_t home = key_hash(p->ns, p->name) & mask;
        bool stays = j <= k ? (j < home && home <= k) : (j < home || home <= k);
        if (stays) continue;
        x->slots[j] = x->slots[k];
        x->slots[k] = 0;
        j = k;
    }
}

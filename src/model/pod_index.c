/* pod_index.c — kept pods by namespace/name (pod_index.h): linear probing over uint32
 * positions, FNV-1a of "ns/name" computed without building the string, deletion by backward
 * shift (no tombstones: a watch that adds and deletes pods for hours keeps probes short).
 * A slot keeps 32 bits of its key's hash beside the position: a probe reads the pod (two cache
 * misses: the Pod, then its name) only when they match, and growing or deleting never reads a
 * pod (on the full training cluster those reads were most of the index's cost). */
#include "pod_index.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "util/util.h"

typedef struct { uint32_t pos; uint32_t hash; } Slot;   /* pos: position+1, 0 = empty */

struct PodIndex {
    Slot *slots;
    size_t cap, n;
};

static uint64_t fnv(uint64_t h, const char *s)
{
    for (; *s; s++) { h ^= (unsigned char)*s; h *= 1099511628211ULL; }
    return h;
}

/* 32 bits of the hash (the table's slots are positions in 32 bits too) */
static uint32_t key_hash(const char *ns, const char *name)
{
    uint64_t h = fnv(1469598103934665603ULL, ns);
    h ^= '/'; h *= 1099511628211ULL;
    h = fnv(h, name);
    return (uint32_t)(h ^ (h >> 32));
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

/* the slot holding ns/name (of hash h), or the empty slot where it would go */
static size_t find(const PodIndex *x, const Pod *pods, const char *ns, const char *name, uint32_t h)
{
    size_t j = h & (x->cap - 1);
    while (x->slots[j].pos && !(x->slots[j].hash == h && slot_is(pods, x->slots[j].pos, ns, name)))
        j = (j + 1) & (x->cap - 1);
    return j;
}

size_t pod_index_get(const PodIndex *x, const Pod *pods, const char *ns, const char *name)
{
    if (!x || !x->cap || !ns || !name) return 0;
    return x->slots[find(x, pods, ns, name, key_hash(ns, name))].pos;
}

static void grow(PodIndex *x)
{
    size_t oc = x->cap;
    Slot *old = x->slots;
    x->cap = oc ? oc * 2 : 1024;
    x->slots = xcalloc(x->cap, sizeof *x->slots);
    for (size_t i = 0; i < oc; i++) {
        if (!old[i].pos) continue;
        size_t j = old[i].hash & (x->cap - 1);
        while (x->slots[j].pos) j = (j + 1) & (x->cap - 1);
        x->slots[j] = old[i];
    }
    free(old);
}

void pod_index_put(PodIndex *x, const Pod *pods, size_t i)
{
    if ((x->n + 1) * 2 > x->cap) grow(x);
    uint32_t h = key_hash(pods[i].ns, pods[i].name);
    size_t j = find(x, pods, pods[i].ns, pods[i].name, h);
    if (!x->slots[j].pos) x->n++;
    x->slots[j] = (Slot){ (uint32_t)(i + 1), h };
}

void pod_index_del(PodIndex *x, const Pod *pods, const char *ns, const char *name)
{
    if (!x || !x->cap || !ns || !name) return;
    size_t mask = x->cap - 1, j = find(x, pods, ns, name, key_hash(ns, name));
    if (!x->slots[j].pos) return;
    x->slots[j].pos = 0;
    x->n--;
    /* move back every later entry of the run whose home is not between the hole and it */
    for (size_t k = (j + 1) & mask; x->slots[k].pos; k = (k + 1) & mask) {
        size_t home = x->slots[k].hash & mask;
        bool stays = j <= k ? (j < home && home <= k) : (j < home || home <= k);
        if (stays) continue;
        x->slots[j] = x->slots[k];
        x->slots[k].pos = 0;
        j = k;
    }
}

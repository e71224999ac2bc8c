/* strmap.c — open-addressing hash map (util/hash.h's hash, eight bytes a step: the
 * byte-at-a-time FNV-1a it had was most of a lookup of a node's name), linear probing, load
 * factor <= 1/2.  A slot keeps its key's hash: a probe compares it before the key (whose bytes,
 * a separate allocation, are a cache miss away: on a large cluster's node and usage maps the
 * strcmp calls were most of a lookup), and growing or deleting never hashes a key again. */
#include "util/strmap.h"
#include "util/hash.h"
#include "util/util.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct { char *key; void *value; uint64_t hash; } Slot;
struct StrMap { Slot *slots; size_t cap, size; };

static uint64_t hash(const char *s) { return hash_bytes(s, strlen(s)); }

StrMap *strmap_new(void)
{
    StrMap *m = xcalloc(1, sizeof *m);
    m->cap = 16;
    m->slots = xcalloc(m->cap, sizeof(Slot));
    return m;
}

void strmap_free(StrMap *m, void (*free_value)(void *))
{
    if (!m) return;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->slots[i].key) continue;
        free(m->slots[i].key);
        if (free_value) free_value(m->slots[i].value);
    }
    free(m->slots);
    free(m);
}

static Slot *find(const StrMap *m, const char *key, uint64_t h)
{
    size_t i = (size_t)h & (m->cap - 1);
    while (m->slots[i].key && (m->slots[i].hash != h || strcmp(m->slots[i].key, key) != 0))
        i = (i + 1) & (m->cap - 1);
    return &m->slots[i];
}

/* the empty slot where an entry of hash h goes (its key known to be absent) */
static Slot *free_slot(const StrMap *m, uint64_t h)
{
    size_t i = (size_t)h & (m->cap - 1);
    while (m->slots[i].key) i = (i + 1) & (m->cap - 1);
    return &m->slots[i];
}

void *strmap_get(const StrMap *m, const char *key)
{
    if (!m || !key) return NULL;
    Slot *s = find(m, key, hash(key));
    return s->key ? s->value : NULL;
}

static void grow(StrMap *m)
{
    Slot *old = m->slots;
    size_t oldcap = m->cap;
    m->cap *= 2;
    m->slots = xcalloc(m->cap, sizeof(Slot));
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].key) *free_slot(m, old[i].hash) = old[i];
    free(old);
}

void strmap_put(StrMap *m, const char *key, void *value)
{
    if ((m->size + 1) * 2 > m->cap) grow(m);
    uint64_t h = hash(key);
    Slot *s = find(m, key, h);
    if (!s->key) { s->key = xstrdup(key); s->hash = h; m->size++; }
    s->value = value;
}

/* linear probing: the entries after the hole that would no longer be found move back */
void *strmap_del(StrMap *m, const char *key)
{
    if (!m || !key) return NULL;
    Slot *s = find(m, key, hash(key));
    if (!s->key) return NULL;
    void *value = s->value;
    free(s->key);
    s->key = NULL;
    m->size--;
    size_t mask = m->cap - 1, hole = (size_t)(s - m->slots), i = hole;
    for (;;) {
        i = (i + 1) & mask;
        if (!m->slots[i].key) break;
        size_t home = (size_t)m->slots[i].hash & mask;
        /* the entry stays when its home lies cyclically in (hole, i] */
        bool stays = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
        if (stays) continue;
        m->slots[hole] = m->slots[i];
        m->slots[i].key = NULL;
        hole = i;
    }
    return value;
}

size_t strmap_size(const StrMap *m) { return m ? m->size : 0; }

int strmap_next(const StrMap *m, size_t *idx, const char **key, void **value)
{
    for (; *idx < m->cap; (*idx)++) {
        if (m->slots[*idx].key) {
            *key = m->slots[*idx].key;
            *value = m->slots[*idx].value;
            (*idx)++;
            return 1;
        }
    }
    return 0;
}

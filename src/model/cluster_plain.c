/* cluster_plain.c — the incremental path's records of the pods that were folded away
 * (cluster_live.c's header says why and how small), and its state's release: below cluster.c,
 * which records a fold while c->live is set and frees the state with the cluster, and
 * cluster_live.c, which takes the records back when a watch says a pod changed.
 *
 * The records live in two parts: most in one array sorted by key, exactly sized (found by
 * binary search; one taken back is marked dead), the ones added since the last merge in a
 * small open-addressing table.  When that table holds more than PLAIN_TAIL_MIN + 1/8 of the
 * sorted records, its records are sorted and merged in (from the back, in place; the dead
 * go), so an insert costs O(log n) amortized and the whole costs its records and little more.
 * One open-addressing table for all (load at most 3/4, doubling) held 262,144 slots of 24
 * bytes for the 106,726 pods without GPUs of the full training cluster (6.3 MB, and 9.4 MB
 * while it grew from 131,072); the sorted array holds 2.6 MB.
 */
#include "cluster_plain.h"
#include "cluster_int.h"
#include "util/strmap.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Memory in 32 bits: the top two bits the unit (bytes, 1000 bytes, KiB, MiB), the other 30
 * the count; false when m (milli-bytes) is no whole number of one of those units below 2^30
 * (the record then keeps cpu and memory in its list) */
static const uint64_t MEM_UNIT[4] = { 1, 1000, 1024, 1024 * 1024 };

static bool mem_pack(int64_t m, uint32_t *out)
{
    if (m < 0 || m % 1000) return false;
    uint64_t b = (uint64_t)(m / 1000);
    for (uint32_t u = 0; u < 4; u++)
        if (b % MEM_UNIT[u] == 0 && b / MEM_UNIT[u] < (1u << 30)) {
            *out = (u << 30) | (uint32_t)(b / MEM_UNIT[u]);
            return true;
        }
    return false;
}

static int64_t mem_unpack(uint32_t v)
{
    return (int64_t)((uint64_t)(v & ((1u << 30) - 1)) * MEM_UNIT[v >> 30] * 1000);
}

static void extra_free(ResourceList *l)
{
    if (!l) return;
    rlist_clear(l);
    free(l);
}

void cluster_plain_release(PlainTable *t)
{
    for (size_t i = 0; i < t->nextras; i++) extra_free(t->extras[i]);
    free(t->extras);
    free(t->free_extras);
    free(t->slots);
    free(t->sorted);
    for (size_t i = 0; i < t->nnodes; i++) free(t->nodes[i]);
    free(t->nodes);
    strmap_free(t->node_ids, NULL);
    memset(t, 0, sizeof *t);
}

uint64_t cluster_plain_hash(const char *ns, const char *name)
{
    uint64_t h = 1469598103934665603ULL;
    for (const char *p = ns && *ns ? ns : "default"; *p; p++) { h ^= (unsigned char)*p; h *= 1099511628211ULL; }
    h ^= '/'; h *= 1099511628211ULL;
    for (const char *p = name; *p; p++) { h ^= (unsigned char)*p; h *= 1099511628211ULL; }
    return h ? h : 1;
}

static size_t home_of(const PlainTable *t, uint64_t key)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 17) & (t->cap - 1);
}

#define PLAIN_TAIL_MIN 1024

/* key's slot in the open-addressing part: its record, or the empty slot (key 0) where it
 * would go (t->cap > 0) */
static PlainRec *tail_slot(const PlainTable *t, uint64_t key)
{
    size_t i = home_of(t, key);
    while (t->slots[i].key && t->slots[i].key != key) i = (i + 1) & (t->cap - 1);
    return &t->slots[i];
}

static void tail_grow(PlainTable *t)
{
    PlainRec *old = t->slots;
    size_t oc = t->cap;
    t->cap = oc ? oc * 2 : 256;
    t->slots = xcalloc(t->cap, sizeof *t->slots);
    for (size_t i = 0; i < oc; i++) if (old[i].key) *tail_slot(t, old[i].key) = old[i];
    free(old);
}

/* key's record in the sorted part (alive or dead), or NULL */
static PlainRec *sorted_find(const PlainTable *t, uint64_t key)
{
    size_t lo = 0, hi = t->nsorted;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->sorted[mid].key < key) lo = mid + 1;
        else hi = mid;
    }
    return lo < t->nsorted && t->sorted[lo].key == key ? &t->sorted[lo] : NULL;
}

const PlainRec *cluster_plain_find(const PlainTable *t, uint64_t key)
{
    if (t->cap) {
        const PlainRec *r = tail_slot(t, key);
        if (r->key) return r;
    }
    const PlainRec *r = sorted_find(t, key);
    return r && r->node != PLAIN_DEAD ? r : NULL;
}

static int cmp_rec(const void *a, const void *b)
{
    uint64_t x = ((const PlainRec *)a)->key, y = ((const PlainRec *)b)->key;
    return x < y ? -1 : x > y;
}

void cluster_plain_settle(PlainTable *t)
{
    if (!t->n && !t->ndead) {
        free(t->slots);
        t->slots = NULL;
        t->cap = 0;
        return;
    }
    size_t m = 0;
    PlainRec *tail = t->n ? xmalloc(t->n * sizeof *tail) : NULL;
    for (size_t i = 0; i < t->cap; i++) if (t->slots[i].key) tail[m++] = t->slots[i];
    free(t->slots);
    t->slots = NULL;
    t->cap = t->n = 0;
    if (m > 1) qsort(tail, m, sizeof *tail, cmp_rec);
    size_t w = 0;                               /* the dead go */
    for (size_t i = 0; i < t->nsorted; i++) if (t->sorted[i].node != PLAIN_DEAD) t->sorted[w++] = t->sorted[i];
    size_t total = w + m;
    if (!total) {
        free(t->sorted);
        t->sorted = NULL;
    } else {
        t->sorted = xrealloc(t->sorted, total * sizeof *t->sorted);
        for (size_t i = w, j = m, o = total; j > 0;)     /* from the back: nothing is overwritten unread */
            t->sorted[--o] = i > 0 && t->sorted[i - 1].key > tail[j - 1].key ? t->sorted[--i] : tail[--j];
    }
    t->nsorted = total;
    t->ndead = 0;
    free(tail);
}

static uint32_t node_id(PlainTable *t, const char *node)
{
    if (!t->node_ids) t->node_ids = strmap_new();
    size_t id = (size_t)(uintptr_t)strmap_get(t->node_ids, node);
    if (id) return (uint32_t)(id - 1);
    ARRAY_GROW(t->nodes, t->nnodes, t->capnodes);
    t->nodes[t->nnodes++] = xstrdup(node);
    strmap_put(t->node_ids, node, (void *)(uintptr_t)t->nnodes);
    return (uint32_t)(t->nnodes - 1);
}

/* takes the record of key out of the table (false when there is none) */
bool cluster_plain_take(PlainTable *t, uint64_t key, PlainRec *out)
{
    PlainRec *s = t->cap ? tail_slot(t, key) : NULL;
    if (!s || !s->key) {
        PlainRec *r = sorted_find(t, key);
        if (!r || r->node == PLAIN_DEAD) return false;
        *out = *r;
        r->node = PLAIN_DEAD;
        r->extra = 0;
        t->ndead++;
        return true;
    }
    *out = *s;
    s->key = 0;
    t->n--;
    size_t mask = t->cap - 1, hole = (size_t)(s - t->slots), i = hole;
    for (;;) {                         /* linear probing: later entries of the run move back */
        i = (i + 1) & mask;
        if (!t->slots[i].key) break;
        size_t home = home_of(t, t->slots[i].key);
        bool stays = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
        if (stays) continue;
        t->slots[hole] = t->slots[i];
        t->slots[i].key = 0;
        hole = i;
    }
    return true;
}

/* a list kept for a record: its index + 1 */
static uint32_t extra_put(PlainTable *t, ResourceList *l)
{
    size_t i;
    if (t->nfree) i = t->free_extras[--t->nfree];
    else {
        ARRAY_GROW(t->extras, t->nextras, t->capextras);
        i = t->nextras++;
    }
    t->extras[i] = l;
    return (uint32_t)(i + 1);
}

/* the record's list freed and its index given back */
void cluster_plain_drop_extra(PlainTable *t, uint32_t extra)
{
    if (!extra) return;
    extra_free(t->extras[extra - 1]);
    t->extras[extra - 1] = NULL;
    ARRAY_GROW(t->free_extras, t->nfree, t->capfree);
    t->free_extras[t->nfree++] = extra - 1;
}

/* rec's resources as a list (the caller frees it) */
void cluster_plain_requests(const PlainTable *t, const PlainRec *r, ResourceList *out)
{
    if (r->cpu) rlist_add(out, "cpu", r->cpu);
    if (r->mem) rlist_add(out, "memory", mem_unpack(r->mem));
    if (r->extra) rlist_add_all(out, t->extras[r->extra - 1]);
}

void cluster_usage_free(void *v)
{
    NodeUsage *u = v;
    if (!u) return;
    rlist_clear(&u->requested);
    free(u);
}

void cluster_live_free(Cluster *c)
{
    ClusterLive *l = c->live;
    if (!l) return;
    cluster_plain_release(&l->plain);
    strmap_free(l->dirty, NULL);               /* cluster_live.c's marks and event index */
    free(l->ev_slots);
    free(l);
    c->live = NULL;
}

void cluster_live_note_plain(Cluster *c, const char *ns, const char *name, const char *node,
                             const ResourceList *req)
{
    PlainTable *t = &c->live->plain;
    PlainRec r = { cluster_plain_hash(ns, name), node_id(t, node), 0, 0, 0 };
    int64_t cpu = 0, mem = 0;
    bool others = false;
    for (size_t i = 0; i < req->n; i++) {
        const ResourceEntry *e = &req->items[i];
        if (str_eq(e->name, "cpu")) cpu += e->milli;
        else if (str_eq(e->name, "memory")) mem += e->milli;
        else others = true;
    }
    bool packed = cpu >= 0 && (uint64_t)cpu <= UINT32_MAX && mem_pack(mem, &r.mem);
    if (packed) r.cpu = (uint32_t)cpu;
    else r.mem = 0;
    if (others || !packed) {
        /* the list gets what cluster_plain_requests would have added, in the same order */
        ResourceList *l = xcalloc(1, sizeof *l);
        if (!packed && cpu) rlist_add(l, "cpu", cpu);
        if (!packed && mem) rlist_add(l, "memory", mem);
        for (size_t i = 0; i < req->n; i++) {
            const ResourceEntry *e = &req->items[i];
            if (!str_eq(e->name, "cpu") && !str_eq(e->name, "memory")) rlist_add(l, e->name, e->milli);
        }
        r.extra = extra_put(t, l);
    }
    PlainRec old;
    if (cluster_plain_take(t, r.key, &old)) cluster_plain_drop_extra(t, old.extra);
    if (t->n >= PLAIN_TAIL_MIN + t->nsorted / 8 || (t->ndead > PLAIN_TAIL_MIN && t->ndead > t->nsorted / 2))
        cluster_plain_settle(t);
    if ((t->n + 1) * 4 > t->cap * 3) tail_grow(t);
    *tail_slot(t, r.key) = r;
    t->n++;
}

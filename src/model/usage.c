/* usage.c — release of the usage records and their joins to nodes and pods (usage.h). */
#include "model/usage.h"
#include "util/strmap.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------- */
/* the string pool (usage_intern)                                                            */

/* Strings are packed into chunks; a lookup table (open addressing, FNV-1a) finds an earlier
 * copy while records are filled.  A string longer than a quarter chunk is not pooled (a copy
 * of its own, freed with its record). */
#define USTR_CHUNK ((size_t)256 << 10)

typedef struct UsageStrings {
    char **chunks; size_t nchunks, capchunks;
    char *cur; size_t left;
    const char **slots; size_t cap, n;
} UsageStrings;

static uint64_t ustr_hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    while (*s) { h ^= (unsigned char)*s++; h *= 1099511628211ULL; }
    return h;
}

static void ustr_rehash(UsageStrings *p)
{
    size_t oc = p->cap;
    const char **old = p->slots;
    p->cap = oc ? oc * 2 : 1024;
    p->slots = xcalloc(p->cap, sizeof *p->slots);
    for (size_t i = 0; i < oc; i++) {
        if (!old[i]) continue;
        size_t j = (size_t)ustr_hash(old[i]) & (p->cap - 1);
        while (p->slots[j]) j = (j + 1) & (p->cap - 1);
        p->slots[j] = old[i];
    }
    free(old);
}

char *usage_intern(UsageData *d, const char *s)
{
    if (!s) return NULL;
    size_t len = strlen(s) + 1;
    if (len > USTR_CHUNK / 4) return xstrdup(s);
    if (!d->strings) d->strings = xcalloc(1, sizeof *d->strings);
    UsageStrings *p = d->strings;
    if ((p->n + 1) * 2 > p->cap) ustr_rehash(p);
    size_t j = (size_t)ustr_hash(s) & (p->cap - 1);
    while (p->slots[j]) {
        if (strcmp(p->slots[j], s) == 0) return (char *)p->slots[j];
        j = (j + 1) & (p->cap - 1);
    }
    if (len > p->left) {
        ARRAY_GROW(p->chunks, p->nchunks, p->capchunks);
        p->cur = p->chunks[p->nchunks++] = xmalloc(USTR_CHUNK);
        p->left = USTR_CHUNK;
    }
    char *dst = p->cur;
    memcpy(dst, s, len);
    p->cur += len;
    p->left -= len;
    p->slots[j] = dst;
    p->n++;
    return dst;
}

void usage_intern_done(UsageData *d)
{
    if (!d->strings) return;
    free(d->strings->slots);
    d->strings->slots = NULL;
    d->strings->cap = d->strings->n = 0;
}

static bool ustr_owns(const UsageStrings *p, const char *s)
{
    for (size_t i = 0; p && i < p->nchunks; i++)
        if ((uintptr_t)s - (uintptr_t)p->chunks[i] < USTR_CHUNK) return true;
    return false;
}

static void ustr_free(UsageStrings *p)
{
    if (!p) return;
    for (size_t i = 0; i < p->nchunks; i++) free(p->chunks[i]);
    free(p->chunks);
    free(p->slots);
    free(p);
}

/* a record's string: the pool's, or its own */
static void field_free(const UsageStrings *p, char *s)
{
    if (s && !ustr_owns(p, s)) free(s);
}

static void gpu_usage_free(const UsageStrings *p, GpuUsage *u)
{
    field_free(p, u->node); field_free(p, u->uuid); field_free(p, u->model);
    field_free(p, u->mig_profile); field_free(p, u->ns); field_free(p, u->pod);
    field_free(p, u->container);
}

static void usage_index_free(struct UsageIndex *x);

void usage_free(UsageData *d)
{
    if (!d) return;
    usage_index_free(d->index);
    for (size_t i = 0; i < d->ngpus; i++) gpu_usage_free(d->strings, &d->gpus[i]);
    for (size_t i = 0; i < d->npods; i++) gpu_usage_free(d->strings, &d->pods[i]);
    ustr_free(d->strings);
    free(d->gpus); free(d->pods); free(d->source); free(d->detail);
    strvec_free(&d->warnings);
    memset(d, 0, sizeof *d);
}

void workloads_free(WorkloadUsage *w, size_t n)
{
    for (size_t i = 0; w && i < n; i++) {
        free(w[i].ns); free(w[i].pod); free(w[i].container);
        free(w[i].owner_kind); free(w[i].owner_name);
    }
    free(w);
}

/* ---------------------------------------------------------------------------------------- */
/* joins                                                                                     */

/* The joins were scans of every record: status asks once per node and per pod, which is
 * nodes x devices string compares (minutes at 5,000 GPU nodes).  The index lists, per node
 * and per pod name, the positions of their records in order, so the answers (and the order
 * sums are made in) are those of the scans. */
typedef struct { size_t *v; size_t n, cap; } PosList;
struct UsageIndex {
    const GpuUsage *gpus, *pods;
    size_t ngpus, npods;
    StrMap *by_node, *by_pod;        /* -> PosList* */
};

static void poslist_free(void *p)
{
    PosList *l = p;
    if (l) free(l->v);
    free(l);
}

static void usage_index_free(struct UsageIndex *x)
{
    if (!x) return;
    strmap_free(x->by_node, poslist_free);
    strmap_free(x->by_pod, poslist_free);
    free(x);
}

static void index_add(StrMap *m, const char *key, size_t pos)
{
    PosList *l = strmap_get(m, key);
    if (!l) { l = xcalloc(1, sizeof *l); strmap_put(m, key, l); }
    ARRAY_GROW(l->v, l->n, l->cap);
    l->v[l->n++] = pos;
}

static const struct UsageIndex *usage_index(const UsageData *d)
{
    struct UsageIndex *x = d->index;
    if (x && x->gpus == d->gpus && x->ngpus == d->ngpus && x->pods == d->pods && x->npods == d->npods)
        return x;
    usage_index_free(x);
    x = xcalloc(1, sizeof *x);
    x->gpus = d->gpus; x->ngpus = d->ngpus; x->pods = d->pods; x->npods = d->npods;
    x->by_node = strmap_new();
    x->by_pod = strmap_new();
    for (size_t i = 0; i < d->ngpus; i++) if (d->gpus[i].node) index_add(x->by_node, d->gpus[i].node, i);
    for (size_t i = 0; i < d->npods; i++) if (d->pods[i].pod) index_add(x->by_pod, d->pods[i].pod, i);
    ((UsageData *)d)->index = x;     /* a cache: the data itself does not change */
    return x;
}

size_t usage_node_gpus(const UsageData *d, const char *node, const GpuUsage **out, size_t max)
{
    size_t n = 0;
    if (!d || !node || !d->ngpus) return 0;
    const PosList *l = strmap_get(usage_index(d)->by_node, node);
    for (size_t k = 0; l && k < l->n; k++) {
        if (out && n < max) out[n] = &d->gpus[l->v[k]];
        n++;
    }
    return n;
}

static bool same_device(const GpuUsage *a, const GpuUsage *b)
{
    return str_eq(a->node, b->node) && a->gpu == b->gpu && a->mig_instance == b->mig_instance &&
           str_eq(a->uuid, b->uuid);
}

size_t usage_device_pods(const UsageData *d, const GpuUsage *dev, const GpuUsage **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; d && dev && i < d->npods; i++)
        if (same_device(&d->pods[i], dev)) { if (out && n < max) out[n] = &d->pods[i]; n++; }
    return n;
}

size_t usage_pod_devices(const UsageData *d, const char *ns, const char *pod,
                         const GpuUsage **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; d && pod && i < d->npods; i++)
        if (str_eq(d->pods[i].pod, pod) && (!ns || str_eq(d->pods[i].ns, ns))) {
            if (out && n < max) out[n] = &d->pods[i];
            n++;
        }
    return n;
}

bool usage_for_pod(const UsageData *d, const char *ns, const char *pod, double *mem_mib, double *util)
{
    double mem = 0, usum = 0;
    size_t nmem = 0, nutil = 0, found = 0;
    const PosList *l = d && pod && d->npods ? strmap_get(usage_index(d)->by_pod, pod) : NULL;
    for (size_t k = 0; l && k < l->n; k++) {
        const GpuUsage *u = &d->pods[l->v[k]];
        if (!str_eq(u->pod, pod) || (ns && !str_eq(u->ns, ns))) continue;
        found++;
        if (!isnan(u->mem_used_mib)) { mem += u->mem_used_mib; nmem++; }
        if (!isnan(u->util)) { usum += u->util; nutil++; }
    }
    if (mem_mib) *mem_mib = nmem ? mem : NAN;
    if (util) *util = nutil ? usum / (double)nutil : NAN;
    return found > 0;
}

bool usage_is_idle_allocated(const UsageData *d, const GpuUsage *u)
{
    if (!d || !u) return false;
    if (!u->pod && u->holders <= 0) return false;
    if (isnan(u->util_max)) return false;
    return u->util_max < d->idle_threshold;
}

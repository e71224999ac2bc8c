/* usage.c — release of the usage records and their joins to nodes and pods (usage.h). */
#include "model/usage.h"
#include "util/strmap.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void gpu_usage_free(GpuUsage *u)
{
    free(u->node); free(u->uuid); free(u->model); free(u->mig_profile);
    free(u->ns); free(u->pod); free(u->container);
}

static void usage_index_free(struct UsageIndex *x);

void usage_free(UsageData *d)
{
    if (!d) return;
    usage_index_free(d->index);
    for (size_t i = 0; i < d->ngpus; i++) gpu_usage_free(&d->gpus[i]);
    for (size_t i = 0; i < d->npods; i++) gpu_usage_free(&d->pods[i]);
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

void usage_snapshot_free(UsageSnapshot *s)
{
    if (!s) return;
    usage_free(&s->devices);
    workloads_free(s->workloads, s->nworkloads);
    free(s->wl_source); free(s->wl_detail);
    strvec_free(&s->wl_warnings);
    free(s);
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

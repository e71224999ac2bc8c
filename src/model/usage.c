/* usage.c — release of the usage records and their joins to nodes and pods (usage.h). */
#include "model/usage.h"
#include "util/strarena.h"
#include "usage_int.h"
#include "util/sort.h"
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* the records' strings: the pool's (usage_intern), or their own */
char *usage_intern(UsageData *d, const char *s)
{
    if (!s) return NULL;
    if (d->strings_share) return xstrdup(s);    /* a shared pool is read-only: an own copy */
    if (!d->strings) d->strings = strarena_new();
    return strarena_intern(d->strings, s);
}

void usage_intern_done(UsageData *d) { strarena_seal(d->strings); }

static void field_free(const StrArena *p, char *s) { strarena_release(p, s); }

static void gpu_usage_release(const StrArena *p, GpuUsage *u)
{
    field_free(p, u->node); field_free(p, u->uuid); field_free(p, u->model);
    field_free(p, u->mig_profile); field_free(p, u->ns); field_free(p, u->pod);
    field_free(p, u->container);
}

static void usage_index_free(struct UsageIndex *x);

struct UsageSeriesShare { atomic_int refs; uint16_t *util, *mem; struct UsageSeriesGrid *grid; };

static void series_release(UsageData *d)
{
    struct UsageSeriesShare *sh = d->series_share;
    if (!sh) {
        free(d->series_util);
        free(d->series_mem);
        free(d->series_grid);
    } else if (atomic_fetch_sub(&sh->refs, 1) == 1) {
        free(sh->util);
        free(sh->mem);
        free(sh->grid);
        free(sh);
    }
    d->series_share = NULL;
    d->series_util = d->series_mem = NULL;
    d->series_grid = NULL;
}

void usage_series_share(UsageData *dst, const UsageData *src)
{
    UsageData *s = (UsageData *)src;          /* only its sharing record is made */
    if (!s->series_util || !s->series_mem || !s->series_grid) return;
    if (!s->series_share) {
        s->series_share = xmalloc(sizeof *s->series_share);
        atomic_init(&s->series_share->refs, 1);
        s->series_share->util = s->series_util;
        s->series_share->mem = s->series_mem;
        s->series_share->grid = s->series_grid;
    }
    atomic_fetch_add(&s->series_share->refs, 1);
    dst->series_share = s->series_share;
    dst->series_util = s->series_util;
    dst->series_mem = s->series_mem;
    dst->series_grid = s->series_grid;
}

struct UsageStringsShare { atomic_int refs; };

static void strings_release(UsageData *d)
{
    struct UsageStringsShare *sh = d->strings_share;
    if (!sh) {
        strarena_free(d->strings);
        strarena_free(d->held_strings);
    } else if (atomic_fetch_sub(&sh->refs, 1) == 1) {
        strarena_free(d->strings);
        strarena_free(d->held_strings);
        free(sh);
    }
    d->strings_share = NULL;
    d->strings = NULL;
    d->held_strings = NULL;
}

void usage_strings_share(UsageData *dst, const UsageData *src)
{
    UsageData *s = (UsageData *)src;          /* only its sharing record is made */
    if (!s->strings && !s->held_strings) return;
    if (!s->strings_share) {
        s->strings_share = xmalloc(sizeof *s->strings_share);
        atomic_init(&s->strings_share->refs, 1);
    }
    atomic_fetch_add(&s->strings_share->refs, 1);
    dst->strings_share = s->strings_share;
    dst->strings = s->strings;
    dst->held_strings = s->held_strings;
}

struct UsageRecordsShare { atomic_int refs; };

void usage_records_share(UsageData *dst, const UsageData *src)
{
    UsageData *s = (UsageData *)src;          /* only its sharing record is made */
    if (!s->records_share) {
        s->records_share = xmalloc(sizeof *s->records_share);
        atomic_init(&s->records_share->refs, 1);
    }
    atomic_fetch_add(&s->records_share->refs, 1);
    dst->records_share = s->records_share;
    dst->gpus = s->gpus; dst->ngpus = s->ngpus;
    dst->pods = s->pods; dst->npods = s->npods;
    dst->held = s->held; dst->nheld = s->nheld;
}

/* the records, freed by the last of the copies sharing them (before the pool: their own
 * strings are told from the pool's) */
static void records_release(UsageData *d)
{
    struct UsageRecordsShare *sh = d->records_share;
    if (sh && atomic_fetch_sub(&sh->refs, 1) != 1) return;
    free(sh);
    for (size_t i = 0; i < d->ngpus; i++) gpu_usage_release(d->strings, &d->gpus[i]);
    for (size_t i = 0; i < d->npods; i++) gpu_usage_release(d->strings, &d->pods[i]);
    usage_held_release(d);
    free(d->gpus); free(d->pods);
}

/* a held record's strings: the pool's, the held pool's (held_strings), or their own */
static void held_field_free(const UsageData *d, char *s)
{
    if (!strarena_owns(d->held_strings, s)) field_free(d->strings, s);
}

void usage_held_release(UsageData *d)
{
    for (size_t i = 0; i < d->nheld; i++) {
        UsageHeld *h = &d->held[i];
        held_field_free(d, h->node); held_field_free(d, h->uuid); held_field_free(d, h->model);
        held_field_free(d, h->mig_profile); held_field_free(d, h->ns); held_field_free(d, h->pod);
    }
    free(d->held);
    d->held = NULL;
    d->nheld = 0;
}

void usage_series_release(UsageData *d) { series_release(d); }

void usage_clear(UsageData *d)
{
    if (!d) return;
    usage_index_free(d->index);
    records_release(d);
    series_release(d);
    strings_release(d);
    if (d->refill) {
        free(d->refill->gnums); free(d->refill->pnums); free(d->refill->wide);
        free(d->refill->series);
    }
    free(d->refill);
    free(d->source); free(d->detail);
    strvec_clear(&d->warnings);
    memset(d, 0, sizeof *d);
}

void workload_usage_free(WorkloadUsage *w, size_t n)
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
    usage_clear(&s->devices);
    workload_usage_free(s->workloads, s->nworkloads);
    free(s->wl_source); free(s->wl_detail);
    strvec_clear(&s->wl_warnings);
    free(s);
}

/* ---------------------------------------------------------------------------------------- */
/* joins                                                                                     */

/* The joins were scans of every record: status asks once per node and per pod, which is
 * nodes x devices string compares (minutes at 5,000 GPU nodes).  The index holds the positions
 * of the records sorted by node (gpus) and by pod name (pods), ties in record order, so a
 * lookup is a binary search and the answers (and the order sums are made in) are those of the
 * scans.  Two arrays of positions: no per-key allocation (at 50,000 devices a map of lists
 * cost more than the records). */
struct UsageIndex {
    const GpuUsage *gpus, *pods;
    size_t ngpus, npods;
    uint32_t *by_node; size_t nby_node;   /* positions in gpus with a node, sorted by node */
    uint32_t *by_pod; size_t nby_pod;     /* positions in pods with a pod name, sorted by pod */
};

static void usage_index_free(struct UsageIndex *x)
{
    if (!x) return;
    free(x->by_node);
    free(x->by_pod);
    free(x);
}

/* the node (key 0) or pod name (key 1) of a record */
static const char *rec_key(const GpuUsage *u, int key) { return key ? u->pod : u->node; }

typedef struct { const GpuUsage *recs; int key; } SortCtx;

static int cmp_pos(const void *a, const void *b, void *ctx)
{
    const SortCtx *sc = ctx;
    size_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    int r = strcmp(rec_key(&sc->recs[i], sc->key), rec_key(&sc->recs[j], sc->key));
    return r ? r : (i > j) - (i < j);
}

/* (32 bits a position: each copy of a UsageData in top has its index) */
static uint32_t *sorted_positions(const GpuUsage *recs, size_t n, int key, size_t *count)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) if (rec_key(&recs[i], key)) k++;
    uint32_t *v = xcalloc(k ? k : 1, sizeof *v);
    k = 0;
    for (size_t i = 0; i < n; i++) if (rec_key(&recs[i], key)) v[k++] = (uint32_t)i;
    SortCtx sc = { recs, key };
    sort_r(v, k, sizeof *v, cmp_pos, &sc);
    *count = k;
    return v;
}

/* the run of positions whose record's key is name: *first and the count */
static size_t find_run(const uint32_t *v, size_t n, const GpuUsage *recs, int key, const char *name,
                       size_t *first)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(rec_key(&recs[v[mid]], key), name) < 0) lo = mid + 1;
        else hi = mid;
    }
    size_t end = lo;
    while (end < n && strcmp(rec_key(&recs[v[end]], key), name) == 0) end++;
    *first = lo;
    return end - lo;
}

static const struct UsageIndex *usage_index(const UsageData *d)
{
    struct UsageIndex *x = d->index;
    if (x && x->gpus == d->gpus && x->ngpus == d->ngpus && x->pods == d->pods && x->npods == d->npods)
        return x;
    usage_index_free(x);
    x = xcalloc(1, sizeof *x);
    x->gpus = d->gpus; x->ngpus = d->ngpus; x->pods = d->pods; x->npods = d->npods;
    x->by_node = sorted_positions(d->gpus, d->ngpus, 0, &x->nby_node);
    x->by_pod = sorted_positions(d->pods, d->npods, 1, &x->nby_pod);
    ((UsageData *)d)->index = x;     /* a cache: the data itself does not change */
    return x;
}

size_t usage_node_gpus(const UsageData *d, const char *node, const GpuUsage **out, size_t max)
{
    size_t n = 0;
    if (!d || !node || !d->ngpus) return 0;
    const struct UsageIndex *x = usage_index(d);
    size_t first, count = find_run(x->by_node, x->nby_node, d->gpus, 0, node, &first);
    for (size_t k = 0; k < count; k++) {
        if (out && n < max) out[n] = &d->gpus[x->by_node[first + k]];
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
    const struct UsageIndex *x = d && pod && d->npods ? usage_index(d) : NULL;
    size_t first = 0, count = x ? find_run(x->by_pod, x->nby_pod, d->pods, 1, pod, &first) : 0;
    for (size_t k = 0; k < count; k++) {
        const GpuUsage *u = &d->pods[x->by_pod[first + k]];
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

/* ---------------------------------------------------------------------------------------- */
/* series                                                                                    */

double usage_idle_for(const UsageData *d, const GpuUsage *u)
{
    float v[USAGE_SERIES_MAX];
    if (!usage_util_series(d, u, v)) return NAN;
    /* the last interval or two can be empty while the newest scrape is not in yet (scrape
     * interval, ingestion, the clocks of the tool and the server): they neither count nor
     * end the run */
    size_t k = d->series_points, skipped = 0;
    while (k > 0 && skipped < 2 && isnan(v[k - 1])) { k--; skipped++; }
    size_t run = 0;
    for (; k-- > 0; run++)
        if (isnan(v[k]) || !((double)v[k] < d->idle_threshold)) break;
    return (double)run * d->series_step;
}

double usage_pod_idle_for(const UsageData *d, const char *ns, const char *pod)
{
    double best = NAN;
    const struct UsageIndex *x = d && pod && d->npods && d->nseries ? usage_index(d) : NULL;
    size_t first = 0, count = x ? find_run(x->by_pod, x->nby_pod, d->pods, 1, pod, &first) : 0;
    for (size_t k = 0; k < count; k++) {
        const GpuUsage *u = &d->pods[x->by_pod[first + k]];
        if (ns && !str_eq(u->ns, ns)) continue;
        double f = usage_idle_for(d, u);
        if (!isnan(f) && (isnan(best) || f < best)) best = f;
    }
    return best;
}

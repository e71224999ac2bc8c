/* dcgm.c — DCGM series -> GpuUsage records (the text format and the metric names are
 * dcgm_text.c's).
 *
 * The accumulator keys every value by (node, device, pod): a device is a whole GPU (UUID) or a
 * MIG instance (UUID + GPU_I_ID).  Device-level figures are derived in dcgm_accum_finish; the
 * rules are stated in dcgm.h.
 */
#include "sources/dcgm.h"
#include "sources/dcgm_index.h"
#include "util/strarena.h"
#include "util/util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

/* a series' values: a Series' own, or a refill's slot (one per record, dcgm_accum_new_refill) */
typedef struct {
    double v[DCGM__FIELDS];
    uint16_t has;               /* bit f: v[f] was given (a bool each was 8 bytes more a series,
                                 * some 70,000 at 5,000 GPU nodes) */
    uint8_t flags;              /* refill slots: SLOT_* */
    int32_t gpu;                /* refill slots: the series' gpu index (as Series.gpu) */
} SeriesVals;

#define HAS(x, f) (((x)->has >> (f)) & 1u)
_Static_assert(DCGM__FIELDS <= 16, "SeriesVals.has holds a bit per field");
_Static_assert(sizeof(UsageNumbers) <= sizeof(SeriesVals), "a refill slot holds its record's numbers");

enum { SLOT_SEEN = 1, SLOT_MODEL = 2, SLOT_PROFILE = 4 };

typedef struct {
    char *node, *uuid, *model, *profile;
    int gpu, gi;
    char *ns, *pod, *container;
    SeriesVals x;
} Series;

struct DcgmAccum {
    Series *s; size_t n, cap;
    DcgmIndex index;        /* the series by (node, device, pod, container) */
    StrArena *strings;      /* the series' strings (names repeat across fields and series):
                             * the accumulator's own, or with `into` the records' pool */
    UsageData *into;        /* dcgm_accum_new_into: the series' strings are interned in its
                             * pool (usage_intern) and the records built from them share them */
    /* dcgm_accum_new_refill: no series, a slot per record of `of` (gpus, then pods) */
    const UsageData *of;
    SeriesVals *slot;
    DcgmIndex recs;         /* of's records by series key */
    DcgmIndex migs;         /* of's MIG-instance device records by GPU (node, UUID or gpu) */
    bool failed;            /* a series names no record of `of` */
};

DcgmAccum *dcgm_accum_new(void)
{
    return xcalloc(1, sizeof(DcgmAccum));
}

DcgmAccum *dcgm_accum_new_into(UsageData *d)
{
    DcgmAccum *a = dcgm_accum_new();
    a->into = d;
    return a;
}

static char *accum_intern(DcgmAccum *a, const char *s)
{
    if (a->into) return usage_intern(a->into, s);
    if (!a->strings) a->strings = strarena_new();
    return strarena_intern(a->strings, s);
}

/* the pool the series' strings are in (NULL: none yet, every string is its own) */
static const StrArena *accum_pool(const DcgmAccum *a)
{
    return a->into ? a->into->strings : a->strings;
}

static void series_release(const StrArena *sa, Series *s)
{
    strarena_release(sa, s->node); strarena_release(sa, s->uuid); strarena_release(sa, s->model);
    strarena_release(sa, s->profile); strarena_release(sa, s->ns); strarena_release(sa, s->pod);
    strarena_release(sa, s->container);
}

static void accum_clear(DcgmAccum *a)
{
    for (size_t i = 0; i < a->n; i++) series_release(accum_pool(a), &a->s[i]);   /* the over-long ones */
    if (!a->into) strarena_free(a->strings);
    a->strings = NULL;
    free(a->s);
    a->s = NULL; a->n = a->cap = 0;
    dcgm_index_clear(&a->index);
    free(a->slot);
    a->slot = NULL;
    dcgm_index_clear(&a->recs);
    dcgm_index_clear(&a->migs);
}

void dcgm_accum_free(DcgmAccum *a)
{
    if (!a) return;
    accum_clear(a);
    free(a);
}

static const char *first_label(const PromLabel *l, size_t n, const char *const *names)
{
    for (; *names; names++) {
        const char *v = dcgm_prom_label(l, n, *names);
        if (v && *v) return v;
    }
    return NULL;
}

static bool parse_index(const char *s, int *out)
{
    int64_t v;
    if (!s || !str_to_int64(s, &v) || v < 0 || v > 1000000) return false;
    *out = (int)v;
    return true;
}

static const char *const node_names[] = { "Hostname", "hostname", "node", "kubernetes_node", NULL };
static const char *const uuid_names[] = { "UUID", "uuid", NULL };

static bool series_ids(const PromLabel *l, size_t n, const char *default_node, const char **node,
                       const char **uuid, int *gpu, int *gi)
{
    *node = first_label(l, n, node_names);
    if (!*node) *node = default_node && *default_node ? default_node : NULL;
    *uuid = first_label(l, n, uuid_names);
    *gpu = -1;
    *gi = -1;
    parse_index(dcgm_prom_label(l, n, "gpu"), gpu);
    const char *gi_s = dcgm_prom_label(l, n, "GPU_I_ID");
    if (gi_s && *gi_s && !parse_index(gi_s, gi)) return false;
    return *node && (*uuid || *gpu >= 0);
}

char *dcgm_series_device(const PromLabel *l, size_t n, const char *default_node)
{
    const char *node, *uuid;
    int gpu, gi;
    if (!series_ids(l, n, default_node, &node, &uuid, &gpu, &gi)) return NULL;
    if (uuid) return xasprintf("%s\x1f%s\x1f%d", node, uuid, gi);
    return xasprintf("%s\x1fgpu%d\x1f%d", node, gpu, gi);
}

bool dcgm_series_ids(const PromLabel *l, size_t n, const char **node, const char **uuid, int *gpu, int *gi)
{
    return series_ids(l, n, NULL, node, uuid, gpu, gi);
}

int dcgm_series_instance(const PromLabel *l, size_t n)
{
    int gi = -1;
    const char *gi_s = dcgm_prom_label(l, n, "GPU_I_ID");
    if (gi_s && *gi_s && !parse_index(gi_s, &gi)) return -1;
    return gi;
}

/* a series' identity: the device (node, UUID or else the gpu index, GPU_I_ID) and the pod */
typedef struct {
    const char *node, *uuid;
    int gpu, gi;
    const char *ns, *pod, *container;
} SeriesKey;

static uint64_t key_hash(const SeriesKey *k)
{
    uint64_t h = dcgm_hash_str(DCGM_HASH_INIT, k->node);
    h = k->uuid ? dcgm_hash_str(h, k->uuid) : dcgm_hash_int(h, k->gpu);
    h = dcgm_hash_int(h, k->gi);
    h = dcgm_hash_str(h, k->ns);
    h = dcgm_hash_str(h, k->pod);
    return dcgm_hash_str(h, k->container);
}

static SeriesKey series_key(const Series *s)
{
    return (SeriesKey){ s->node, s->uuid, s->gpu, s->gi, s->ns, s->pod, s->container };
}

static uint64_t series_hash(const void *owner, size_t i)
{
    SeriesKey k = series_key(&((const DcgmAccum *)owner)->s[i]);
    return key_hash(&k);
}

typedef struct { const DcgmAccum *a; const SeriesKey *k; } KeyMatch;

/* NULL and "" are one (as they were in the composed keys) */
static bool same_str(const char *a, const char *b)
{
    return a == b || strcmp(a ? a : "", b ? b : "") == 0;
}

static bool series_matches(const void *ctx, size_t i)
{
    const KeyMatch *m = ctx;
    const Series *s = &m->a->s[i];
    const SeriesKey *k = m->k;
    /* without a UUID the gpu index names the device; with one, the UUID alone (the series'
     * gpu may be filled in later) */
    return same_str(s->node, k->node) && same_str(s->uuid, k->uuid) && (k->uuid || s->gpu == k->gpu) &&
           s->gi == k->gi && same_str(s->ns, k->ns) && same_str(s->pod, k->pod) &&
           same_str(s->container, k->container);
}

static bool refill_add(DcgmAccum *a, DcgmField f, const SeriesKey *key, uint64_t h, const char *model,
                       const char *profile, double value);

bool dcgm_accum_add(DcgmAccum *a, DcgmField f, const PromLabel *l, size_t n, double value,
                    const char *default_node)
{
    static const char *const model_names[] = { "modelName", NULL };
    static const char *const profile_names[] = { "GPU_I_PROFILE", NULL };

    if ((int)f < 0 || f >= DCGM__FIELDS) return false;
    if (!isfinite(value) || value < 0) return false;     /* NaN/Inf/negative: no usable value */
    const char *node, *uuid, *ns, *pod, *ctr;
    int gpu, gi;
    if (!series_ids(l, n, default_node, &node, &uuid, &gpu, &gi)) return false;
    dcgm_series_pod(l, n, &ns, &pod, &ctr);

    SeriesKey key = { node, uuid, gpu, gi, ns, pod, ctr };
    uint64_t h = key_hash(&key);
    KeyMatch km = { a, &key };
    if (a->of) {
        const char *model = first_label(l, n, model_names);
        const char *profile = gi >= 0 ? first_label(l, n, profile_names) : NULL;
        return refill_add(a, f, &key, h, model, profile, value);
    }
    size_t idx = dcgm_index_find(&a->index, h, series_matches, &km);
    Series *s;
    if (idx) {
        s = &a->s[idx - 1];
    } else {
        ARRAY_GROW(a->s, a->n, a->cap);
        s = &a->s[a->n++];
        memset(s, 0, sizeof *s);
        s->node = accum_intern(a, node);
        s->uuid = accum_intern(a, uuid);
        s->gpu = gpu;
        s->gi = gi;
        s->ns = accum_intern(a, ns);
        s->pod = accum_intern(a, pod);
        s->container = accum_intern(a, ctr);
        dcgm_index_add(&a->index, h, a->n - 1, series_hash, a);
    }
    if (!s->model) s->model = accum_intern(a, first_label(l, n, model_names));
    if (!s->profile) s->profile = accum_intern(a, first_label(l, n, profile_names));
    if (s->gpu < 0 && gpu >= 0) s->gpu = gpu;
    s->x.v[f] = value;
    s->x.has |= (uint16_t)(1u << f);
    return true;
}

/* Several pod series of one device: equal values = the device value repeated per pod; different
 * values = a per-process split, whose sum is the device's. */
static double combine_split(const double *v, size_t n)
{
    if (n == 0) return NAN;
    bool equal = true;
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i] != v[0]) equal = false;
        sum += v[i];
    }
    return equal ? v[0] : sum;
}

static double combine_max(const double *v, size_t n)
{
    if (n == 0) return NAN;
    double m = v[0];
    for (size_t i = 1; i < n; i++) if (v[i] > m) m = v[i];
    return m;
}

static bool series_is_current(const SeriesVals *s)
{
    return HAS(s, DCGM_FB_USED) || HAS(s, DCGM_FB_FREE) || HAS(s, DCGM_GPU_UTIL) ||
           HAS(s, DCGM_GR_ENGINE_ACTIVE);
}

static int series_cmp(const void *pa, const void *pb)
{
    const Series *a = *(const Series *const *)pa, *b = *(const Series *const *)pb;
    int c = strcmp(a->node, b->node);
    if (c) return c;
    if (a->gpu != b->gpu) return a->gpu < b->gpu ? -1 : 1;
    c = strcmp(a->uuid ? a->uuid : "", b->uuid ? b->uuid : "");
    if (c) return c;
    if (a->gi != b->gi) return a->gi < b->gi ? -1 : 1;
    c = strcmp(a->ns ? a->ns : "", b->ns ? b->ns : "");
    if (c) return c;
    c = strcmp(a->pod ? a->pod : "", b->pod ? b->pod : "");
    if (c) return c;
    return strcmp(a->container ? a->container : "", b->container ? b->container : "");
}

static bool same_device(const Series *a, const Series *b)
{
    return strcmp(a->node, b->node) == 0 && a->gi == b->gi && a->gpu == b->gpu &&
           str_eq(a->uuid, b->uuid);
}

static bool same_gpu(const Series *a, const Series *b)
{
    return strcmp(a->node, b->node) == 0 && a->gpu == b->gpu && str_eq(a->uuid, b->uuid);
}

/* utilization in percent of one series following the device's choice of metric */
static double series_util(const SeriesVals *s, bool use_gr, bool max)
{
    DcgmField f = use_gr ? (max ? DCGM_GR_ENGINE_ACTIVE_MAX : DCGM_GR_ENGINE_ACTIVE)
                         : (max ? DCGM_GPU_UTIL_MAX : DCGM_GPU_UTIL);
    if (!HAS(s, f)) return NAN;
    return use_gr ? s->v[f] * 100.0 : s->v[f];
}

/* the records' strings are d's pooled copies (usage_intern) */
static void fill_usage(UsageData *d, GpuUsage *u, const Series *s)
{
    memset(u, 0, sizeof *u);
    u->node = usage_intern(d, s->node);
    u->gpu = s->gpu;
    u->uuid = usage_intern(d, s->uuid);
    u->model = usage_intern(d, s->model);
    u->mig_profile = s->gi >= 0 ? usage_intern(d, s->profile) : NULL;
    u->mig_instance = s->gi;
    u->mem_used_mib = u->mem_total_mib = u->util = u->util_max = NAN;
    u->temp_c = u->power_w = u->xid = u->ecc_dbe = NAN;
}

/* the largest value of field f over a device's series, NAN when none has it; values that
 * cannot be a reading (negative, not finite, DCGM's blank sentinels near 2^63) are skipped */
static double device_max(const SeriesVals *const *dev, size_t n, DcgmField f)
{
    double m = NAN;
    for (size_t i = 0; i < n; i++) {
        double x = dev[i]->v[f];
        if (!HAS(dev[i], f) || !isfinite(x) || x < 0 || x > 1e15) continue;
        if (isnan(m) || x > m) m = x;
    }
    return m;
}

static void collect_values(const SeriesVals *const *dev, size_t n, DcgmField f, double *buf, size_t *k)
{
    *k = 0;
    for (size_t i = 0; i < n; i++)
        if (HAS(dev[i], f)) buf[(*k)++] = dev[i]->v[f];
}

/* The numbers of a device's record from the values of its series (the current ones, in the
 * records' order: the one without a pod, then by namespace, pod, container), by dcgm.h's
 * rules; *use_gr: its utilization is GR_ENGINE_ACTIVE's.  buf has room for nd values.  One
 * function for the records built (dcgm_accum_finish) and the ones refilled, so both agree. */
static void device_numbers(const SeriesVals *const *dev, size_t nd, bool mig, double *buf,
                           UsageNumbers *u, bool *use_gr)
{
    size_t k;
    bool gr = false;
    for (size_t t = 0; t < nd; t++)
        if (HAS(dev[t], DCGM_GR_ENGINE_ACTIVE) || HAS(dev[t], DCGM_GR_ENGINE_ACTIVE_MAX)) gr = true;
    *use_gr = gr;
    u->mem_total_mib = u->util = u->util_max = NAN;
    collect_values(dev, nd, DCGM_FB_USED, buf, &k);
    u->mem_used_mib = combine_split(buf, k);
    collect_values(dev, nd, DCGM_FB_FREE, buf, &k);
    double free_mib = combine_max(buf, k);
    collect_values(dev, nd, DCGM_FB_RESERVED, buf, &k);
    double reserved = k ? combine_max(buf, k) : 0;
    if (!isnan(u->mem_used_mib) && !isnan(free_mib)) u->mem_total_mib = u->mem_used_mib + free_mib + reserved;
    if (gr || !mig) {
        k = 0;
        for (size_t t = 0; t < nd; t++) { double x = series_util(dev[t], gr, false); if (!isnan(x)) buf[k++] = x; }
        u->util = combine_split(buf, k);
        k = 0;
        for (size_t t = 0; t < nd; t++) { double x = series_util(dev[t], gr, true); if (!isnan(x)) buf[k++] = x; }
        u->util_max = combine_split(buf, k);
    }
    u->temp_c = device_max(dev, nd, DCGM_GPU_TEMP);
    u->power_w = device_max(dev, nd, DCGM_POWER_USAGE);
    u->xid = device_max(dev, nd, DCGM_XID_ERRORS);
    u->ecc_dbe = device_max(dev, nd, DCGM_ECC_DBE);
}

/* the numbers of a per-pod record from its series and its device's numbers */
static void pod_numbers(const SeriesVals *s, const UsageNumbers *dev, bool mig, bool use_gr, UsageNumbers *p)
{
    p->mem_used_mib = HAS(s, DCGM_FB_USED) ? s->v[DCGM_FB_USED] : NAN;
    p->mem_total_mib = dev->mem_total_mib;
    p->util = p->util_max = NAN;
    if (use_gr || !mig) {
        p->util = series_util(s, use_gr, false);
        p->util_max = series_util(s, use_gr, true);
    }
    p->temp_c = p->power_w = p->xid = p->ecc_dbe = NAN;
}

static void numbers_put(GpuUsage *u, const UsageNumbers *n)
{
    u->mem_used_mib = n->mem_used_mib; u->mem_total_mib = n->mem_total_mib;
    u->util = n->util; u->util_max = n->util_max;
    u->temp_c = n->temp_c; u->power_w = n->power_w; u->xid = n->xid; u->ecc_dbe = n->ecc_dbe;
}

/* a->s reordered in place: a->s[t] = the series at ord[t] before (ord: a permutation of 0..n-1) */
static void apply_order(DcgmAccum *a, const size_t *ord)
{
    uint8_t *done = xcalloc(a->n ? a->n : 1, 1);
    for (size_t start = 0; start < a->n; start++) {
        if (done[start]) continue;
        Series tmp = a->s[start];
        size_t cur = start;
        for (;;) {
            done[cur] = 1;
            size_t next = ord[cur];
            if (next == start) { a->s[cur] = tmp; break; }
            a->s[cur] = a->s[next];
            cur = next;
        }
    }
    free(done);
}

/* the pages wholly inside a->s[from..to) given back to the system: those series are done
 * with and never read again (their own strings released before) */
static void give_back(DcgmAccum *a, size_t from, size_t to)
{
#if defined(__linux__) && defined(MADV_DONTNEED)
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = ((uintptr_t)(a->s + from) + page - 1) / page * page, hi = (uintptr_t)(a->s + to) / page * page;
    if (page > 0 && hi > lo) madvise((void *)lo, hi - lo, MADV_DONTNEED);
#else
    (void)a; (void)from; (void)to;
#endif
}

void dcgm_accum_finish(DcgmAccum *a, UsageData *d)
{
    /* the series are complete and are cleared below: their index can go now, before the
     * records are built (memory at 50,000 devices) */
    dcgm_index_clear(&a->index);
    size_t n = 0;
    Series **v = xcalloc(a->n ? a->n : 1, sizeof *v);
    for (size_t i = 0; i < a->n; i++)
        if (series_is_current(&a->s[i].x)) v[n++] = &a->s[i];
    qsort(v, n, sizeof *v, series_cmp);

    /* drop GPU-level series of GPUs that also have MIG-instance series (sorted: one GPU's
     * series are adjacent, its GPU-level ones first) */
    size_t m = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        bool has_mig = false;
        while (j < n && same_gpu(v[i], v[j])) { if (v[j]->gi >= 0) has_mig = true; j++; }
        for (size_t t = i; t < j; t++)
            if (!has_mig || v[t]->gi >= 0) v[m++] = v[t];
        i = j;
    }
    n = m;

    /* the series in that order at the front of a->s (the dropped ones after them, released
     * now), so that the records can be built from the last device back while the series
     * behind them are given back: the series and the records (each some 10 MB at 50,000
     * devices) are not both held whole */
    size_t *ord = xcalloc(a->n ? a->n : 1, sizeof *ord);
    uint8_t *kept = xcalloc(a->n ? a->n : 1, 1);
    for (size_t i = 0; i < n; i++) { ord[i] = (size_t)(v[i] - a->s); kept[ord[i]] = 1; }
    for (size_t i = 0, t = n; i < a->n; i++) if (!kept[i]) ord[t++] = i;
    free(kept);
    apply_order(a, ord);
    free(ord);
    for (size_t i = n; i < a->n; i++) series_release(accum_pool(a), &a->s[i]);
    give_back(a, n, a->n);
    a->n = n;
    for (size_t i = 0; i < n; i++) v[i] = &a->s[i];

    /* room for the records: one per device, one per series naming a pod (counted first: an
     * array sized by the series would hold twice the records at 50,000 devices) */
    size_t ndev = 0, nheld = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || !same_device(v[i - 1], v[i])) ndev++;
        if (v[i]->pod) nheld++;
    }
    d->gpus = xrealloc(d->gpus, (d->ngpus + ndev + 1) * sizeof *d->gpus);
    d->pods = xrealloc(d->pods, (d->npods + nheld + 1) * sizeof *d->pods);

    double *buf = xcalloc(n ? n : 1, sizeof *buf);
    const SeriesVals **xv = xcalloc(n ? n : 1, sizeof *xv);
    for (size_t i = 0; i < n; i++) xv[i] = &v[i]->x;
    size_t gpos = d->ngpus + ndev, ppos = d->npods + nheld, kept_to = n;
    for (size_t j = n; j > 0;) {
        size_t i = j - 1;
        while (i > 0 && same_device(v[i - 1], v[j - 1])) i--;
        Series **dev = v + i;
        size_t nd = j - i;

        int holders = 0;
        for (size_t t = 0; t < nd; t++) if (dev[t]->pod) holders++;
        bool mig = dev[0]->gi >= 0;
        bool use_gr;
        UsageNumbers un;
        device_numbers(xv + i, nd, mig, buf, &un, &use_gr);

        GpuUsage u;
        fill_usage(d, &u, dev[0]);
        for (size_t t = 0; t < nd && !u.model; t++) u.model = usage_intern(d, dev[t]->model);
        if (mig) for (size_t t = 0; t < nd && !u.mig_profile; t++) u.mig_profile = usage_intern(d, dev[t]->profile);
        u.holders = holders;
        numbers_put(&u, &un);
        if (holders == 1)
            for (size_t t = 0; t < nd; t++)
                if (dev[t]->pod) {
                    u.ns = usage_intern(d, dev[t]->ns); u.pod = usage_intern(d, dev[t]->pod);
                    u.container = usage_intern(d, dev[t]->container);
                }
        d->gpus[--gpos] = u;

        size_t q = ppos - (size_t)holders;
        ppos = q;
        for (size_t t = 0; t < nd; t++) {
            if (!dev[t]->pod) continue;
            GpuUsage p;
            fill_usage(d, &p, dev[t]);
            if (!p.model) p.model = usage_intern(d, u.model);
            if (mig && !p.mig_profile) p.mig_profile = usage_intern(d, u.mig_profile);
            p.ns = usage_intern(d, dev[t]->ns); p.pod = usage_intern(d, dev[t]->pod);
            p.container = usage_intern(d, dev[t]->container);
            p.holders = holders;
            UsageNumbers pn;
            pod_numbers(&dev[t]->x, &un, mig, use_gr, &pn);
            numbers_put(&p, &pn);
            d->pods[q++] = p;
        }
        for (size_t t = i; t < j; t++) series_release(accum_pool(a), &a->s[t]);
        if ((kept_to - i) * sizeof *a->s >= ((size_t)1 << 20)) {
            give_back(a, i, kept_to);
            kept_to = i;
        }
        j = i;
    }
    d->ngpus += ndev;
    d->npods += nheld;
    free(buf);
    free(xv);
    free(v);
    usage_intern_done(d);
    a->n = 0;                   /* every series released above */
    accum_clear(a);
}

/* ---- refill (dcgm_accum_new_refill) ---- */

/* record i of `of` (gpus, then pods) as a series key: a device's record without the pod it
 * names (its series without a pod are its own; its pods' are their records') */
static SeriesKey rec_key(const UsageData *of, size_t i)
{
    if (i < of->ngpus) {
        const GpuUsage *u = &of->gpus[i];
        return (SeriesKey){ u->node, u->uuid, u->gpu, u->mig_instance, NULL, NULL, NULL };
    }
    const GpuUsage *u = &of->pods[i - of->ngpus];
    return (SeriesKey){ u->node, u->uuid, u->gpu, u->mig_instance, u->ns, u->pod, u->container };
}

static const GpuUsage *rec_at(const UsageData *of, size_t i)
{
    return i < of->ngpus ? &of->gpus[i] : &of->pods[i - of->ngpus];
}

static uint64_t rec_hash(const void *owner, size_t i)
{
    SeriesKey k = rec_key(((const DcgmAccum *)owner)->of, i);
    return key_hash(&k);
}

/* as series_matches, against a record */
static bool rec_matches(const void *ctx, size_t i)
{
    const KeyMatch *m = ctx;
    SeriesKey r = rec_key(m->a->of, i);
    const SeriesKey *k = m->k;
    return same_str(r.node, k->node) && same_str(r.uuid, k->uuid) && (k->uuid || r.gpu == k->gpu) &&
           r.gi == k->gi && same_str(r.ns, k->ns) && same_str(r.pod, k->pod) &&
           same_str(r.container, k->container);
}

static uint64_t gpu_key_hash(const char *node, const char *uuid, int gpu)
{
    uint64_t h = dcgm_hash_str(DCGM_HASH_INIT, node);
    return uuid ? dcgm_hash_str(h, uuid) : dcgm_hash_int(h, gpu);
}

static uint64_t mig_rehash(const void *owner, size_t i)
{
    const GpuUsage *u = &((const DcgmAccum *)owner)->of->gpus[i];
    return gpu_key_hash(u->node, u->uuid, u->gpu);
}

typedef struct { const DcgmAccum *a; const SeriesKey *k; } MigMatch;

/* a MIG instance's record on the GPU of k (same_gpu) */
static bool mig_matches(const void *ctx, size_t i)
{
    const MigMatch *m = ctx;
    const GpuUsage *u = &m->a->of->gpus[i];
    return strcmp(u->node, m->k->node) == 0 && u->gpu == m->k->gpu && str_eq(u->uuid, m->k->uuid);
}

DcgmAccum *dcgm_accum_new_refill(const UsageData *of)
{
    DcgmAccum *a = dcgm_accum_new();
    a->of = of;
    size_t n = of->ngpus + of->npods;
    a->slot = xcalloc(n ? n : 1, sizeof *a->slot);       /* one allocation, sized as the records */
    dcgm_index_reserve(&a->recs, n);
    for (size_t i = 0; i < n; i++) dcgm_index_add(&a->recs, rec_hash(a, i), i, rec_hash, a);
    for (size_t i = 0; i < of->ngpus; i++)
        if (of->gpus[i].mig_instance >= 0) dcgm_index_add(&a->migs, mig_rehash(a, i), i, mig_rehash, a);
    return a;
}

bool dcgm_accum_refill_failed(const DcgmAccum *a) { return a && a->of && a->failed; }

/* a value into the slot of the record the series is for; labels the record must agree with */
static bool refill_add(DcgmAccum *a, DcgmField f, const SeriesKey *key, uint64_t h, const char *model,
                       const char *profile, double value)
{
    if (a->failed) return false;
    KeyMatch km = { a, key };
    size_t idx = dcgm_index_find(&a->recs, h, rec_matches, &km);
    if (!idx) {
        MigMatch mm = { a, key };
        if (key->gi < 0 && dcgm_index_find(&a->migs, gpu_key_hash(key->node, key->uuid, key->gpu),
                                           mig_matches, &mm))
            return true;        /* a GPU-level series beside MIG instances: the records drop it too */
        a->failed = true;
        return false;
    }
    SeriesVals *x = &a->slot[idx - 1];
    const GpuUsage *r = rec_at(a->of, idx - 1);
    if (!(x->flags & SLOT_SEEN)) {
        x->flags |= SLOT_SEEN;
        x->gpu = key->gpu;
    } else if (x->gpu < 0 && key->gpu >= 0) {
        x->gpu = key->gpu;
    }
    if (model) {
        x->flags |= SLOT_MODEL;
        if (!str_eq(model, r->model)) a->failed = true;
    }
    if (profile) {
        x->flags |= SLOT_PROFILE;
        if (!str_eq(profile, r->mig_profile)) a->failed = true;
    }
    x->v[f] = value;
    x->has |= (uint16_t)(1u << f);
    return !a->failed;
}

static bool rec_same_device(const GpuUsage *a, const GpuUsage *b)
{
    return strcmp(a->node, b->node) == 0 && a->mig_instance == b->mig_instance && a->gpu == b->gpu &&
           str_eq(a->uuid, b->uuid);
}

/* the device's model (or MIG profile) as dcgm_accum_finish takes it: the first of its current
 * series' (own, then the pods') that has one; the pods' records that had none take the
 * device's.  true when the records say the same */
static bool refill_names_agree(const DcgmAccum *a, size_t i, bool own, size_t p0, size_t p1, int flag,
                               bool profile)
{
    const UsageData *of = a->of;
    const GpuUsage *g = &of->gpus[i];
    const char *gn = profile ? g->mig_profile : g->model, *first = NULL;
    bool seen = false;
    if (own && (a->slot[i].flags & flag)) { first = gn; seen = true; }
    for (size_t t = p0; t < p1; t++) {
        const GpuUsage *p = &of->pods[t];
        const char *pn = profile ? p->mig_profile : p->model;
        if (a->slot[of->ngpus + t].flags & flag) {
            if (!seen) { first = pn; seen = true; }
        } else if (!str_eq(pn, gn)) {
            return false;
        }
    }
    return str_eq(first, gn);
}

bool dcgm_accum_finish_refill(DcgmAccum *a, UsageData *d)
{
    const UsageData *of = a->of;
    bool ok = of && !a->failed;
    dcgm_index_clear(&a->recs);
    dcgm_index_clear(&a->migs);
    size_t ng = of ? of->ngpus : 0, np = of ? of->npods : 0, j = 0;
    const SeriesVals **dev = xcalloc(np + 1, sizeof *dev);
    double *buf = xcalloc(np + 1, sizeof *buf);
    for (size_t i = 0; ok && i < ng; i++) {
        const GpuUsage *g = &of->gpus[i];
        SeriesVals *own = &a->slot[i];
        size_t nd = 0, p0 = j;
        bool own_cur = series_is_current(own);
        if (own_cur) {
            if (own->gpu != g->gpu) ok = false;
            dev[nd++] = own;
        }
        while (j < np && rec_same_device(&of->pods[j], g)) {
            const SeriesVals *px = &a->slot[ng + j];
            if (!series_is_current(px) || px->gpu != g->gpu || of->pods[j].holders != g->holders) ok = false;
            dev[nd++] = px;
            j++;
        }
        bool mig = g->mig_instance >= 0;
        if (!ok || nd == 0 || (size_t)g->holders != j - p0 ||
            !refill_names_agree(a, i, own_cur, p0, j, SLOT_MODEL, false) ||
            (mig && !refill_names_agree(a, i, own_cur, p0, j, SLOT_PROFILE, true))) {
            ok = false;
            break;
        }
        bool use_gr;
        UsageNumbers un;
        device_numbers(dev, nd, mig, buf, &un, &use_gr);
        for (size_t t = p0; t < j; t++) {        /* each slot read, then its numbers left in it */
            UsageNumbers pn;
            pod_numbers(&a->slot[ng + t], &un, mig, use_gr, &pn);
            memcpy(&a->slot[ng + t], &pn, sizeof pn);
        }
        memcpy(own, &un, sizeof un);
    }
    if (j != np) ok = false;
    free(dev);
    free(buf);
    if (ok) {
        /* the numbers side by side, the rest given back (a third of the slots' memory, held
         * while the series are fetched again) */
        size_t nrec = ng + np;
        for (size_t i = 0; i < nrec; i++)
            memmove((char *)a->slot + i * sizeof(UsageNumbers), &a->slot[i], sizeof(UsageNumbers));
        UsageRefill *r = xcalloc(1, sizeof *r);
        r->of = of;
        r->ngpus = ng;
        r->npods = np;
        r->slots = xrealloc(a->slot, (nrec ? nrec : 1) * sizeof(UsageNumbers));
        r->slot_size = sizeof(UsageNumbers);
        a->slot = NULL;
        if (d->refill) free(d->refill->slots);
        free(d->refill);
        d->refill = r;
    }
    accum_clear(a);
    return ok;
}

/* ---- one scrape body (the text format: dcgm_text.c) ---- */

typedef struct { DcgmAccum *a; const char *node; } ScrapeCtx;

static int scrape_sample(void *ctx, const char *metric, const PromLabel *l, size_t n,
                         double value, int64_t ts)
{
    (void)ts;
    ScrapeCtx *sc = ctx;
    DcgmField f;
    if (dcgm_field_from_metric(metric, &f)) dcgm_accum_add(sc->a, f, l, n, value, sc->node);
    return 0;
}

void dcgm_parse_text(const char *text, size_t len, const char *default_node, UsageData *d,
                     PromTextStats *st)
{
    ScrapeCtx sc = { dcgm_accum_new_into(d), default_node };
    dcgm_promtext_parse(text, len, scrape_sample, &sc, st);
    dcgm_accum_finish(sc.a, d);
    dcgm_accum_free(sc.a);
}

/* prometheus_series.c — the downsampled usage series of every device over the window and how
 * long each pod held each device (usage.h: UsageData.series_*, UsageData.held), from one
 * query_range through the Prometheus client (prometheus.c).
 *
 * The server downsamples: each point is max_over_time over one step of the window, aggregated
 * by the DCGM device and pod labels like the instant queries (prometheus_usage.c), so the
 * answer has about 60 points per device, field and pod, never raw samples.  One query_range
 * per field (GR_ENGINE_ACTIVE, GPU_UTIL, FB_USED, in that order), tagged with a kgpu_field
 * label.  After each series, the device's row (one per device and field) goes straight into
 * the UsageData's storage, packed (usage.h: usage_series_append), as long as its values read
 * back exactly there (whole MiB, whole percents, GR_ENGINE_ACTIVE's few decimals); a row that
 * cannot is gathered as floats and put at the end, so only such rows are ever held as floats.
 * The per-pod bookkeeping is two bit masks per (device, pod): presence and "busy" (at or over
 * the idle threshold, from the values as served); none without the held records (top's).
 *
 * Per device and point, several pod series (time-slicing) combine as dcgm.h says for the
 * instant values: equal values are the device's value repeated per pod, different values are
 * a per-process split and are summed.  Utilization is GR_ENGINE_ACTIVE x 100 when the device
 * reports it, else GPU_UTIL (never on a MIG instance, where it means nothing).
 */
#include "sources/prometheus.h"
#include "sources/dcgm_index.h"
#include "util/strarena.h"
#include "util/error.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SERIES_LABELS "Hostname, hostname, node, kubernetes_node, gpu, UUID, uuid, modelName, " \
    "GPU_I_PROFILE, GPU_I_ID, namespace, pod, container, exported_namespace, exported_pod, " \
    "exported_container, pod_namespace, pod_name, container_name"

/* a device whose points get a second value (time-slicing): most devices never have one */
typedef struct {
    uint64_t differ[2];         /* per field: points whose values differ (summed) */
    uint8_t cnt[2][USAGE_SERIES_MAX];   /* values seen per point (0: one) */
} DevMulti;

/* a device's names and ids: a record's (SeriesCtx.recs), or interned in the UsageData */
typedef struct { char *node, *uuid, *model, *profile; int gpu, gi; } DevNames;

#define NAMES_REC 0x80000000u     /* DevAcc.names: the record's at the index in the other bits */

/* what few devices have: a row of floats, a second value at a point */
typedef struct {
    uint32_t wide[2];           /* per field: 1 + its row of floats in SeriesCtx.wide, 0 = the
                                 * row is in the UsageData's storage */
    uint32_t multi;             /* 1 + its DevMulti in SeriesCtx.multi, 0 = none */
} DevExtra;

#define DEV_HAS_GR 0x80000000u    /* DevAcc.extra: GR_ENGINE_ACTIVE seen (GPU_UTIL is not used) */
#define DEV_HAS_UTIL 0x40000000u  /* a utilization value seen */
#define DEV_EXTRA 0x3FFFFFFFu     /* 1 + its DevExtra in SeriesCtx.extra, 0 = none */

/* 24 bytes a device (48 with the ids and the rarely used indexes in each: 1.3 MB less at
 * 51,424 devices, at the first screen's and the re-fetch's peaks) */
typedef struct {
    uint64_t seen[2];           /* per field (0 util, 1 mem): points with a value */
    uint32_t names;             /* NAMES_REC | index of the record whose names and ids these
                                 * are (the device's own record's, nearly always), else index
                                 * in SeriesCtx.names */
    uint32_t extra;             /* DEV_HAS_GR, DEV_HAS_UTIL, DEV_EXTRA */
} DevAcc;
_Static_assert(sizeof(DevAcc) == 24, "DevAcc: 24 bytes a device");

typedef struct {
    size_t dev;                 /* DevAcc index */
    char *ns, *pod;             /* interned */
    uint64_t present[3], busy[3];   /* by field: 0 GPU_UTIL, 1 GR_ENGINE_ACTIVE, 2 FB_USED */
} HeldAcc;

typedef struct {
    UsageData *d;
    size_t n;                   /* points per row */
    double start, step;
    DevAcc *dev; size_t ndev, capdev;
    size_t caprows;             /* rows of the UsageData's storage */
    float *wide; size_t nwide, capwide;   /* rows of n floats (DevAcc.wide) */
    DevMulti *multi; size_t nmulti, capmulti;   /* DevAcc.multi */
    DevNames *names; size_t nnames, capnames;   /* DevAcc.names without NAMES_REC */
    DevExtra *extra; size_t nextra, capextra;   /* DevAcc.extra & DEV_EXTRA */
    DcgmIndex devs;             /* the devices by (node, UUID or gpu index, GPU_I_ID) */
    HeldAcc *held; size_t nheld, capheld;
    DcgmIndex helds;            /* the (device, pod) pairs by (device, namespace, pod) */
    long series;
    /* the rows, packed, put at the end of their field's codes after each series that changes
     * them (usage_series_append): no row is held as 16-bit codes a point */
    UsageSeriesAppend app;
    /* prometheus_collect_series_refill: d has no records; the records are of's (only read) */
    const UsageData *of;
    const UsageData *recs;      /* whose pooled names the rows and held records take when they
                                 * are the same: of's, else d's own (made just before), or NULL */
    DcgmIndex ofdevs;           /* recs' device records by (node, UUID or gpu index, GPU_I_ID) */
    DcgmIndex ofpods;           /* recs' per-pod records by (namespace, pod) */
    bool want_held;             /* the held records too (not for top, which reads none: no
                                 * (device, pod) pair is then looked up or kept) */
} SeriesCtx;

/* a device's identity, as dcgm_series_device composes it: the node, the UUID or else the gpu
 * index, GPU_I_ID */
typedef struct { const char *node, *uuid; int gpu, gi; } DevKey;

static uint64_t dev_hash(const DevKey *k)
{
    uint64_t h = dcgm_hash_str(DCGM_HASH_INIT, k->node);
    h = k->uuid ? dcgm_hash_str(h, k->uuid) : dcgm_hash_int(h, k->gpu);
    return dcgm_hash_int(h, k->gi);
}

static DevNames dev_names(const SeriesCtx *x, const DevAcc *a)
{
    if (!(a->names & NAMES_REC)) return x->names[a->names];
    const GpuUsage *u = &x->recs->gpus[a->names & ~NAMES_REC];
    return (DevNames){ u->node, u->uuid, u->model, u->mig_profile, u->gpu, u->mig_instance };
}

static int dev_gi(const SeriesCtx *x, const DevAcc *a)
{
    return a->names & NAMES_REC ? x->recs->gpus[a->names & ~NAMES_REC].mig_instance : x->names[a->names].gi;
}

/* a device's DevExtra (made when asked for: NULL when it has none and make is false) */
static DevExtra *dev_extra(SeriesCtx *x, DevAcc *a, bool make)
{
    if (a->extra & DEV_EXTRA) return &x->extra[(a->extra & DEV_EXTRA) - 1];
    if (!make) return NULL;
    ARRAY_GROW(x->extra, x->nextra, x->capextra);
    memset(&x->extra[x->nextra], 0, sizeof *x->extra);
    a->extra |= (uint32_t)++x->nextra;
    return &x->extra[x->nextra - 1];
}

static uint64_t dev_rehash(const void *owner, size_t i)
{
    const SeriesCtx *x = owner;
    const DevAcc *a = &x->dev[i];
    DevNames nm = dev_names(x, a);
    DevKey k = { nm.node, nm.uuid, nm.gpu, nm.gi };
    return dev_hash(&k);
}

typedef struct { const SeriesCtx *x; const DevKey *k; } DevMatch;

static bool dev_matches(const void *ctx, size_t i)
{
    const DevMatch *m = ctx;
    const DevAcc *a = &m->x->dev[i];
    DevNames nm = dev_names(m->x, a);
    return str_eq(nm.node, m->k->node) && str_eq(nm.uuid, m->k->uuid) &&
           (m->k->uuid || nm.gpu == m->k->gpu) && nm.gi == m->k->gi;
}

/* index + 1 of the device, 0 when it has no series */
static size_t dev_find(const SeriesCtx *x, const DevKey *k)
{
    DevMatch m = { x, k };
    return dcgm_index_find(&x->devs, dev_hash(k), dev_matches, &m);
}

/* ---- a refill's (prometheus_collect_series_refill): strings are of's where it has them ---- */

static uint64_t ofdev_rehash(const void *owner, size_t i)
{
    const GpuUsage *u = &((const SeriesCtx *)owner)->recs->gpus[i];
    DevKey k = { u->node, u->uuid, u->gpu, u->mig_instance };
    return dev_hash(&k);
}

static bool ofdev_matches(const void *ctx, size_t i)
{
    const DevMatch *m = ctx;
    const GpuUsage *u = &m->x->recs->gpus[i];
    return str_eq(u->node, m->k->node) && str_eq(u->uuid, m->k->uuid) &&
           (m->k->uuid || u->gpu == m->k->gpu) && u->mig_instance == m->k->gi;
}

static uint64_t name_hash(const char *ns, const char *pod)
{
    return dcgm_hash_str(dcgm_hash_str(DCGM_HASH_INIT, ns), pod);
}

static uint64_t ofpod_rehash(const void *owner, size_t i)
{
    const GpuUsage *u = &((const SeriesCtx *)owner)->recs->pods[i];
    return name_hash(u->ns, u->pod);
}

typedef struct { const SeriesCtx *x; const char *ns, *pod; } NameMatch;

static bool ofpod_matches(const void *ctx, size_t i)
{
    const NameMatch *m = ctx;
    const GpuUsage *u = &m->x->recs->pods[i];
    return str_eq(u->ns, m->ns) && str_eq(u->pod, m->pod);
}

/* s as the records' pooled copy `have` when they are the same string (never a record's own
 * copy: the held records would free it), else d's */
static char *reuse(SeriesCtx *x, const char *have, const char *s)
{
    if (have && s && strcmp(have, s) == 0 && strarena_owns(x->recs->strings, have)) return (char *)have;
    return usage_intern(x->d, s);
}

static void of_index(SeriesCtx *x)
{
    const UsageData *of = x->recs;
    dcgm_index_reserve(&x->ofdevs, of->ngpus);
    for (size_t i = 0; i < of->ngpus; i++) dcgm_index_add(&x->ofdevs, ofdev_rehash(x, i), i, ofdev_rehash, x);
    if (!x->want_held) return;          /* the pods' records name only held records' pods */
    dcgm_index_reserve(&x->ofpods, of->npods);
    for (size_t i = 0; i < of->npods; i++) dcgm_index_add(&x->ofpods, ofpod_rehash(x, i), i, ofpod_rehash, x);
}

/* the records the rows are for: d's, or of's for a refill */
static size_t rec_count(const SeriesCtx *x) { return x->of ? x->of->ngpus : x->d->ngpus; }

static size_t dev_for(SeriesCtx *x, const PromLabel *l, size_t nl, const DevKey *k)
{
    size_t idx = dev_find(x, k);
    if (idx) return idx - 1;
    size_t nrec = rec_count(x);
    if (x->ndev >= x->capdev) {
        /* grown as the rows below (doubling held 65,536 of them for 51,424 devices: 1.5 MB) */
        x->capdev = x->capdev ? x->capdev + x->capdev / 4 + 16 : nrec + nrec / 16 + 16;
        x->dev = xrealloc(x->dev, x->capdev * sizeof *x->dev);
    }
    DevAcc *a = &x->dev[x->ndev];
    memset(a, 0, sizeof *a);
    const char *model = dcgm_prom_label(l, nl, "modelName");
    const char *profile = k->gi >= 0 ? dcgm_prom_label(l, nl, "GPU_I_PROFILE") : NULL;
    DevNames nm;
    if (x->recs) {
        DevMatch m = { x, k };
        size_t r = dcgm_index_find(&x->ofdevs, dev_hash(k), ofdev_matches, &m);
        const GpuUsage *u = r ? &x->recs->gpus[r - 1] : NULL;
        nm.node = reuse(x, u ? u->node : NULL, k->node);
        nm.uuid = reuse(x, u ? u->uuid : NULL, k->uuid);
        nm.model = reuse(x, u ? u->model : NULL, model);
        nm.profile = reuse(x, u ? u->mig_profile : NULL, profile);
        /* the record's ids too (a UUID's record may name another gpu index) */
        if (u && r - 1 < NAMES_REC && nm.node == u->node && nm.uuid == u->uuid && nm.model == u->model &&
            nm.profile == u->mig_profile && u->gpu == k->gpu && u->mig_instance == k->gi)
            a->names = NAMES_REC | (uint32_t)(r - 1);
    } else {
        nm.node = usage_intern(x->d, k->node);
        nm.uuid = usage_intern(x->d, k->uuid);
        nm.model = usage_intern(x->d, model);
        nm.profile = usage_intern(x->d, profile);
    }
    if (!(a->names & NAMES_REC)) {
        nm.gpu = k->gpu;
        nm.gi = k->gi;
        ARRAY_GROW(x->names, x->nnames, x->capnames);
        x->names[x->nnames] = nm;
        a->names = (uint32_t)x->nnames++;
    }
    if (x->ndev >= x->caprows) {
        /* first about the device records (one row each, and a few more), then by a quarter:
         * at 20,000 devices doubling would hold megabytes of rows never used */
        size_t cap = x->caprows ? x->caprows + x->caprows / 4 + 16 : nrec + nrec / 16 + 16;
        usage_series_resize_fields(x->d, 0, cap);       /* the grid: a row's is set when it is put */
        x->caprows = cap;
    }
    dcgm_index_add(&x->devs, dev_hash(k), x->ndev, dev_rehash, x);
    return x->ndev++;
}

static uint64_t held_hash(size_t dev, const char *ns, const char *pod)
{
    return dcgm_hash_str(dcgm_hash_str(dcgm_hash_int(DCGM_HASH_INIT, (long)dev), ns), pod);
}

static uint64_t held_rehash(const void *owner, size_t i)
{
    const HeldAcc *h = &((const SeriesCtx *)owner)->held[i];
    return held_hash(h->dev, h->ns, h->pod);
}

typedef struct { const SeriesCtx *x; size_t dev; const char *ns, *pod; } HeldMatch;

static bool held_matches(const void *ctx, size_t i)
{
    const HeldMatch *m = ctx;
    const HeldAcc *h = &m->x->held[i];
    /* no namespace and an empty one are one (as in the composed keys before) */
    return h->dev == m->dev && strcmp(h->ns ? h->ns : "", m->ns ? m->ns : "") == 0 && str_eq(h->pod, m->pod);
}

static HeldAcc *held_for(SeriesCtx *x, size_t dev, const char *ns, const char *pod)
{
    HeldMatch m = { x, dev, ns, pod };
    uint64_t hash = held_hash(dev, ns, pod);
    size_t idx = dcgm_index_find(&x->helds, hash, held_matches, &m);
    if (!idx) {
        ARRAY_GROW(x->held, x->nheld, x->capheld);
        HeldAcc *h = &x->held[x->nheld++];
        memset(h, 0, sizeof *h);
        h->dev = dev;
        const GpuUsage *u = NULL;
        if (x->recs) {
            NameMatch nm = { x, ns, pod };
            size_t r = dcgm_index_find(&x->ofpods, name_hash(ns, pod), ofpod_matches, &nm);
            u = r ? &x->recs->pods[r - 1] : NULL;
        }
        h->ns = x->recs ? reuse(x, u ? u->ns : NULL, ns) : usage_intern(x->d, ns);
        h->pod = x->recs ? reuse(x, u ? u->pod : NULL, pod) : usage_intern(x->d, pod);
        dcgm_index_add(&x->helds, hash, x->nheld - 1, held_rehash, x);
        idx = x->nheld;
    }
    return &x->held[idx - 1];
}

static UsageSeriesField field_of(int f) { return f ? USAGE_SERIES_MEM : USAGE_SERIES_UTIL; }

static float *wide_row(const SeriesCtx *x, const DevAcc *a, int f)
{
    const DevExtra *e = a->extra & DEV_EXTRA ? &x->extra[(a->extra & DEV_EXTRA) - 1] : NULL;
    return e && e->wide[f] ? x->wide + (size_t)(e->wide[f] - 1) * x->n : NULL;
}

/* device di's row of field f (0 utilization, 1 memory) as floats: its floats, the row put
 * after its last series, or no sample (nothing seen, or utilization's dropped for
 * GR_ENGINE_ACTIVE) */
static void row_load(const SeriesCtx *x, size_t di, int f, float *row)
{
    const DevAcc *a = &x->dev[di];
    const float *w = wide_row(x, a, f);
    for (size_t k = 0; k < x->n; k++)
        row[k] = w ? w[k] : a->seen[f] ? usage_series_get(x->d, field_of(f), di, k) : NAN;
}

/* the row put back: packed at the end of its field's codes when it reads back exactly there
 * (every point as the float it is), else, and from then on, kept as floats (put at the end,
 * series_finish) */
static void row_store(SeriesCtx *x, size_t di, int f, const float *row)
{
    DevAcc *a = &x->dev[di];
    bool wide = wide_row(x, a, f) != NULL;
    if (!wide && usage_series_append(x->d, &x->app, field_of(f), di, row, true)) return;
    if (!wide) {
        if (x->nwide >= x->capwide) {
            x->capwide = x->capwide ? x->capwide * 2 : 64;
            x->wide = xrealloc(x->wide, x->capwide * x->n * sizeof *x->wide);
        }
        dev_extra(x, a, true)->wide[f] = (uint32_t)++x->nwide;
    }
    memcpy(wide_row(x, a, f), row, x->n * sizeof *row);
}

/* one value into a device's row at point k (the combining rule above) */
static void combine(SeriesCtx *x, DevAcc *a, int f, size_t k, float v, float *row)
{
    uint64_t bit = (uint64_t)1 << k;
    if (!(a->seen[f] & bit)) {
        a->seen[f] |= bit;
        row[k] = v;
        return;
    }
    DevExtra *e = dev_extra(x, a, true);
    if (!e->multi) {
        ARRAY_GROW(x->multi, x->nmulti, x->capmulti);
        memset(&x->multi[x->nmulti], 0, sizeof *x->multi);
        e->multi = (uint32_t)++x->nmulti;
    }
    DevMulti *mu = &x->multi[e->multi - 1];
    uint8_t c = mu->cnt[f][k] ? mu->cnt[f][k] : 1;     /* values seen before this one */
    float have = row[k];
    if (mu->differ[f] & bit) row[k] = have + v;
    else if (have != v) {
        mu->differ[f] |= bit;
        row[k] = have * (float)c + v;
    }
    if (c < UINT8_MAX) mu->cnt[f][k] = (uint8_t)(c + 1);
}

static int series_point_index(const SeriesCtx *x, double ts, size_t *k)
{
    double r = (ts - x->start) / x->step;
    long i = lround(r);
    if (fabs(r - (double)i) > 0.01 || i < 0 || (size_t)i >= x->n) return -1;
    *k = (size_t)i;
    return 0;
}

static int on_series(void *ctx, const PromLabel *l, size_t nl, const double *ts, const double *v, size_t np)
{
    SeriesCtx *x = ctx;
    const char *field = dcgm_prom_label(l, nl, "kgpu_field");
    int f = !field ? -1 : strcmp(field, "util") == 0 ? 0 : strcmp(field, "gr") == 0 ? 1
          : strcmp(field, "mem") == 0 ? 2 : -1;
    if (f < 0 || np == 0) return 0;
    DevKey dk;
    if (!dcgm_series_ids(l, nl, &dk.node, &dk.uuid, &dk.gpu, &dk.gi)) return 0;
    x->series++;
    size_t di = dev_for(x, l, nl, &dk);
    DevAcc *a = &x->dev[di];
    const char *ns, *pod, *ctr;
    dcgm_series_pod(l, nl, &ns, &pod, &ctr);
    HeldAcc *h = pod && x->want_held ? held_for(x, di, ns, pod) : NULL;
    if (f == 0 && dk.gi >= 0) return 0;                 /* GPU_UTIL: not on MIG */
    if (f == 0 && (a->extra & DEV_HAS_GR)) {
        /* GPU_UTIL beside GR_ENGINE_ACTIVE, whose query is sent first: the row is GR's; the
         * values still say that the device reports utilization, and when the pod held it,
         * as when GPU_UTIL came first and its row was dropped for GR's */
        for (size_t i = 0; i < np; i++) {
            size_t k;
            if (!isfinite(v[i]) || v[i] < 0 || series_point_index(x, ts[i], &k) < 0) continue;
            a->extra |= DEV_HAS_UTIL;
            if (h) {
                h->present[0] |= (uint64_t)1 << k;
                if (!(v[i] < x->d->idle_threshold)) h->busy[0] |= (uint64_t)1 << k;
            }
        }
        return 0;
    }
    if (f == 1 && !(a->extra & DEV_HAS_GR)) {
        /* GR_ENGINE_ACTIVE wins over GPU_UTIL values seen before it */
        a->extra |= DEV_HAS_GR;
        float *w = wide_row(x, a, 0);
        if (w) for (size_t k = 0; k < x->n; k++) w[k] = NAN;
        const DevExtra *e = dev_extra(x, a, false);
        if (e && e->multi) {
            DevMulti *mu = &x->multi[e->multi - 1];
            memset(mu->cnt[0], 0, sizeof mu->cnt[0]);
            mu->differ[0] = 0;
        }
        a->seen[0] = 0;
    }
    int rf = f == 2 ? 1 : 0;                            /* the row's field */
    float row[USAGE_SERIES_MAX];
    bool changed = false;
    row_load(x, di, rf, row);
    for (size_t i = 0; i < np; i++) {
        size_t k;
        if (!isfinite(v[i]) || v[i] < 0 || series_point_index(x, ts[i], &k) < 0) continue;
        double val = f == 1 ? v[i] * 100 : v[i];
        uint64_t bit = (uint64_t)1 << k;
        combine(x, a, rf, k, (float)val, row);
        changed = true;
        if (f != 2) a->extra |= DEV_HAS_UTIL;
        if (h) {
            h->present[f] |= bit;
            if (!(val < x->d->idle_threshold)) h->busy[f] |= bit;
        }
    }
    if (changed) row_store(x, di, rf, row);
    return 0;
}

static int held_cmp(const void *pa, const void *pb)
{
    const UsageHeld *a = pa, *b = pb;
    int c = strcmp(a->ns ? a->ns : "", b->ns ? b->ns : "");
    if (c) return c;
    c = strcmp(a->pod, b->pod);
    if (c) return c;
    c = strcmp(a->node, b->node);
    if (c) return c;
    if (a->gpu != b->gpu) return a->gpu < b->gpu ? -1 : 1;
    return (a->mig_instance > b->mig_instance) - (a->mig_instance < b->mig_instance);
}

/* the GPUs with MIG-instance series (by node and UUID or gpu index), for dropping the
 * GPU-level series beside them */
static uint64_t gpu_hash(const SeriesCtx *x, const DevAcc *a)
{
    DevNames nm = dev_names(x, a);
    uint64_t h = dcgm_hash_str(DCGM_HASH_INIT, nm.node);
    return nm.uuid ? dcgm_hash_str(h, nm.uuid) : dcgm_hash_int(h, nm.gpu);
}

static uint64_t gpu_rehash(const void *owner, size_t i)
{
    const SeriesCtx *x = owner;
    return gpu_hash(x, &x->dev[i]);
}

typedef struct { const SeriesCtx *x; const DevAcc *a; } GpuMatch;

static bool same_gpu(const void *ctx, size_t i)
{
    const GpuMatch *m = ctx;
    const DevAcc *b = &m->x->dev[i];
    DevNames bn = dev_names(m->x, b), an = dev_names(m->x, m->a);
    return str_eq(bn.node, an.node) && str_eq(bn.uuid, an.uuid) && (an.uuid || bn.gpu == an.gpu);
}

#define SHARED_ONE UINT32_MAX     /* series_finish: a device one kept pod holds */

static void series_finish(SeriesCtx *x)
{
    UsageData *d = x->d;
    /* the lookups of the answers' series are done with: given back before the rows are copied
     * and the held records made (about 1 MB at 51,424 devices, at the re-fetch's peak) */
    dcgm_index_clear(&x->helds);
    dcgm_index_clear(&x->ofdevs);
    dcgm_index_clear(&x->ofpods);
    free(x->multi);                 /* the points' counts: the rows are complete */
    x->multi = NULL;
    x->nmulti = x->capmulti = 0;
    /* the rows gathered as floats, and the rows never put (no sample), into the storage; the
     * storage to its size (the words of rows put again dropped) */
    float none[USAGE_SERIES_MAX];
    for (size_t k = 0; k < x->n; k++) none[k] = NAN;
    for (size_t i = 0; i < x->ndev; i++)
        for (int f = 0; f < 2; f++) {
            const float *w = wide_row(x, &x->dev[i], f);
            if (w || !x->dev[i].seen[f]) usage_series_append(d, &x->app, field_of(f), i, w ? w : none, false);
        }
    free(x->wide);
    x->wide = NULL;
    free(x->extra);                 /* the wide rows' and counts' indexes: done with */
    x->extra = NULL;
    x->nextra = x->capextra = 0;
    usage_series_append_done(d, &x->app, x->ndev);
    usage_series_resize_fields(d, 0, x->ndev);
    d->nseries = x->ndev;
    d->series_points = x->ndev ? x->n : 0;
    d->series_start = x->start;
    d->series_step = x->step;
    /* devices: the records of gpus and pods name their row (a refill's: of's records, in
     * the refill's list, written into them when it is applied) */
    const UsageData *rd = x->of ? x->of : d;
    uint32_t *link = x->of ? xcalloc(rd->ngpus + rd->npods + 1, sizeof *link) : NULL;
    for (int pass = 0; pass < 2; pass++) {
        const GpuUsage *recs = pass ? rd->pods : rd->gpus;
        size_t nrecs = pass ? rd->npods : rd->ngpus;
        for (size_t i = 0; i < nrecs; i++) {
            const GpuUsage *u = &recs[i];
            if (!u->node) continue;
            DevKey k = { u->node, u->uuid, u->gpu, u->mig_instance };
            size_t row = dev_find(x, &k);
            if (link) link[pass ? rd->ngpus + i : i] = (uint32_t)row;
            else ((GpuUsage *)u)->series = (int)row;
        }
    }
    dcgm_index_clear(&x->devs);     /* every record linked: no device is looked up again */
    if (x->of) {
        d->refill->series_new = true;
        d->refill->series = link;
    }
    if (!x->want_held) {
        if (!x->ndev) usage_series_resize(d, 0);
        return;
    }
    /* a GPU with MIG-instance series drops its GPU-level pod series (as dcgm_accum_finish) */
    DcgmIndex migparents = { 0 };
    for (size_t i = 0; i < x->ndev; i++)
        if (dev_gi(x, &x->dev[i]) >= 0) dcgm_index_add(&migparents, gpu_hash(x, &x->dev[i]), i, gpu_rehash, x);
    /* the pods holding each device at each point: a device held by one kept pod has it at
     * every point that pod is present, so rows of counts are made only for devices held by
     * several (time-slicing): shared[dev] = 0 none, SHARED_ONE one, else 1 + its row
     * (a row per device was 3 MB at 51,424 devices, at the first screen's peak) */
    uint32_t *shared = xcalloc(x->ndev ? x->ndev : 1, sizeof *shared);
    size_t nshared = 0;
    uint64_t *present = xcalloc(x->nheld ? x->nheld : 1, sizeof *present);
    uint64_t *idle = xcalloc(x->nheld ? x->nheld : 1, sizeof *idle);
    bool *keep = xcalloc(x->nheld ? x->nheld : 1, sizeof *keep);
    for (size_t i = 0; i < x->nheld; i++) {
        const HeldAcc *h = &x->held[i];
        const DevAcc *a = &x->dev[h->dev];
        GpuMatch gm = { x, a };
        if (dev_gi(x, a) < 0 && dcgm_index_find(&migparents, gpu_hash(x, a), same_gpu, &gm)) continue;
        int uf = a->extra & DEV_HAS_GR ? 1 : 0;
        present[i] = h->present[0] | h->present[1] | h->present[2];
        idle[i] = h->present[uf] & ~h->busy[uf];
        if (!present[i]) continue;
        keep[i] = true;
        if (!shared[h->dev]) shared[h->dev] = SHARED_ONE;
        else if (shared[h->dev] == SHARED_ONE) shared[h->dev] = (uint32_t)++nshared;
    }
    uint8_t *holders = xcalloc(nshared ? nshared * x->n : 1, 1);
    for (size_t i = 0; i < x->nheld; i++) {
        uint32_t sh = keep[i] ? shared[x->held[i].dev] : 0;
        if (!sh || sh == SHARED_ONE) continue;
        uint8_t *row = holders + (size_t)(sh - 1) * x->n;
        for (size_t k = 0; k < x->n; k++)
            if ((present[i] >> k & 1) && row[k] < UINT8_MAX) row[k]++;
    }
    size_t nkeep = 0;
    for (size_t i = 0; i < x->nheld; i++) nkeep += keep[i];
    d->held = nkeep ? xcalloc(nkeep, sizeof *d->held) : NULL;
    for (size_t i = 0; i < x->nheld; i++) {
        if (!keep[i]) continue;
        const HeldAcc *h = &x->held[i];
        const DevAcc *a = &x->dev[h->dev];
        UsageHeld *o = &d->held[d->nheld++];
        DevNames nm = dev_names(x, a);
        o->node = nm.node; o->uuid = nm.uuid; o->model = nm.model; o->mig_profile = nm.profile;
        o->gpu = nm.gpu; o->mig_instance = nm.gi;
        o->ns = h->ns; o->pod = h->pod;
        o->held_s = util_popcount64(present[i]) * x->step;
        double share = 0, ishare = 0;
        uint32_t sh = shared[h->dev];
        const uint8_t *row = sh == SHARED_ONE ? NULL : holders + (size_t)(sh - 1) * x->n;
        for (size_t k = 0; k < x->n; k++) {
            /* one holder: 1 wherever it is present (idle points are present points) */
            uint8_t hc = row ? row[k] : (uint8_t)(present[i] >> k & 1);
            if ((present[i] >> k & 1) && hc) share += x->step / hc;
            if ((idle[i] >> k & 1) && hc) ishare += x->step / hc;
        }
        o->share_s = share;
        bool has_util = a->extra & DEV_HAS_UTIL;
        o->idle_s = has_util ? util_popcount64(idle[i]) * x->step : NAN;
        o->idle_share_s = has_util ? ishare : NAN;
    }
    if (d->nheld > 1) qsort(d->held, d->nheld, sizeof *d->held, held_cmp);
    free(holders); free(shared); free(present); free(idle); free(keep);
    dcgm_index_clear(&migparents);
    if (!x->ndev) usage_series_resize(d, 0);
}

size_t prometheus_series_points(double window_s, double *step_s)
{
    size_t n = window_s >= 60 ? 60 : (window_s >= 1 ? (size_t)window_s : 1);
    /* whole milliseconds: the step is also the PromQL range of each point */
    double step = llround(window_s * 1000 / (double)n) / 1000.0;
    if (step < 0.001) step = 0.001;
    *step_s = step;
    return n;
}

static const char *const series_metric[3] = {
    "DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_PROF_GR_ENGINE_ACTIVE", "DCGM_FI_DEV_FB_USED" };
static const char *const series_field[3] = { "util", "gr", "mem" };

char *prometheus_series_query(double step_s, int field)
{
    long long ms = llround(step_s * 1000);
    if (ms < 1) ms = 1;
    if (field < 0 || field > 2) field = 0;
    return xasprintf("label_replace(max by (" SERIES_LABELS ") (max_over_time(%s[%lldms])),"
                     " \"kgpu_field\", \"%s\", \"\", \"\")", series_metric[field], ms, series_field[field]);
}

static int collect_series(PromClient *c, double window_s, double end, bool held, UsageData *d,
                          const UsageData *of, Error *err)
{
    SeriesCtx x;
    memset(&x, 0, sizeof x);
    x.d = d;
    x.of = of;
    x.want_held = held;
    /* the strings of the records just made from the instant values (their pool's lookup is
     * sealed: interning the names again would copy every node, UUID, model and pod name, about
     * 2 MB at 51,424 devices, kept as long as the records) */
    x.recs = of ? of : d->ngpus || d->npods ? d : NULL;
    if (x.recs) {
        of_index(&x);
        /* a device a record, nearly always: the devices' index made at that size (grown by
         * doubling, its last two sizes were held at once: 0.75 MB at 51,424 devices) */
        dcgm_index_reserve(&x.devs, x.recs->ngpus);
    }
    x.n = prometheus_series_points(window_s, &x.step);
    x.start = end - (double)(x.n - 1) * x.step;
    d->series_points = x.n;             /* the rows' length while they are stored */
    if (of && of->nseries && of->series_points == x.n) {
        /* the rows of a set made again take about the words of the set they replace: that
         * room at once, with a little more (grown by a quarter, they held up to 1.6 MB of
         * slack at 51,424 devices, at the re-fetch's peak) */
        for (int f = 0; f < 2; f++) {
            size_t w = usage_series_field_codes(of, (UsageSeriesField)f);
            usage_series_append_reserve(d, &x.app, (UsageSeriesField)f, w + w / 64 + 1024);
        }
        x.app.reserved = true;
    }
    /* one query per field: each stays within the server's per-query sample limit (at 20,000
     * devices and a 15 s scrape one field touches some 5 million samples) */
    int rc = 0;
    /* GR_ENGINE_ACTIVE first: a device that has it takes its utilization from it, and a
     * GPU_UTIL row put before it would stay behind in the storage until the end (some 2 MB
     * at 51,424 devices, at the re-fetch's peak) */
    static const int order[3] = { 1, 0, 2 };
    for (int i = 0; i < 3 && rc == 0; i++) {
        char *promql = prometheus_series_query(x.step, order[i]);
        rc = prometheus_query_range(c, promql, x.start, end, x.step, on_series, &x, &d->warnings, err);
        free(promql);
    }
    if (rc == 0) series_finish(&x);
    else {
        usage_series_resize(d, 0);
        d->series_points = 0;
    }
    free(x.wide);
    free(x.multi);
    free(x.extra);
    free(x.names);
    free(x.dev);
    free(x.held);
    dcgm_index_clear(&x.devs);
    dcgm_index_clear(&x.helds);
    dcgm_index_clear(&x.ofdevs);
    dcgm_index_clear(&x.ofpods);
    return rc;
}

int prometheus_collect_series(PromClient *c, double window_s, double end, bool held, UsageData *d,
                              Error *err)
{
    return collect_series(c, window_s, end, held, d, NULL, err);
}

int prometheus_collect_series_refill(PromClient *c, double window_s, double end, bool held, UsageData *d,
                                     Error *err)
{
    if (!d->refill) return collect_series(c, window_s, end, held, d, NULL, err);
    d->refill->series_new = true;               /* a failure leaves the records without series */
    return collect_series(c, window_s, end, held, d, d->refill->of, err);
}

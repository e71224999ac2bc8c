/* sharing.c — safe time-slicing / MPS replica counts and the GPUs needed after sharing.
 * The rules are in sharing.h; the reasoning in one line: the scheduler may co-locate any
 * `replicas` workloads of the group, so every bound is checked against the worst case.
 */
#include "util/sort.h"
#include "analysis/sharing.h"
#include "util/util.h"
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EXCLUDED 1024

const char *sharing_limit_name(ShareLimit l)
{
    switch (l) {
    case SHARE_LIMIT_MEMORY: return "memory";
    case SHARE_LIMIT_COMPUTE: return "compute";
    case SHARE_LIMIT_PLUGIN: return "device-plugin";
    case SHARE_LIMIT_WORKLOADS: return "workloads";
    case SHARE_LIMIT_NONE: break;
    }
    return "none";
}

const char *sharing_mode_name(ShareMode m) { return m == SHARE_MPS ? "mps" : "time-slicing"; }

int sharing_mps_client_limit(int cc_major, int cc_minor)
{
    return (cc_major > 7 || (cc_major == 7 && cc_minor >= 5)) ? 48 : 16;
}

typedef struct {
    const ShareParams *p;
    size_t n;
    double *mem, *util;          /* sized demands */
    size_t *by_mem, *by_util;    /* indices, largest first */
} Ctx;

/* indexes by their key (ctx: the keys) descending, then by index */
static int desc_cmp(const void *a, const void *b, void *ctx)
{
    const double *sort_key = ctx;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    if (sort_key[x] > sort_key[y]) return -1;
    if (sort_key[x] < sort_key[y]) return 1;
    return x < y ? -1 : x > y;
}

static void ctx_init(Ctx *c, const ShareParams *p, const ShareWorkload *w, size_t n)
{
    double grow = 1.0 + (p->headroom_pct > 0 ? p->headroom_pct : 0) / 100.0;
    c->p = p; c->n = n;
    c->mem = xcalloc(n, sizeof(double)); c->util = xcalloc(n, sizeof(double));
    c->by_mem = xcalloc(n, sizeof(size_t)); c->by_util = xcalloc(n, sizeof(size_t));
    for (size_t i = 0; i < n; i++) {
        c->mem[i] = (double)(w[i].memory_mib > 0 ? w[i].memory_mib : 0) * grow;
        double u = w[i].utilization == w[i].utilization && w[i].utilization > 0 ? w[i].utilization : 0;
        c->util[i] = u * grow;
        c->by_mem[i] = c->by_util[i] = i;
    }
    sort_r(c->by_mem, n, sizeof(size_t), desc_cmp, (void *)c->mem);
    sort_r(c->by_util, n, sizeof(size_t), desc_cmp, (void *)c->util);
}

static void ctx_release(Ctx *c)
{
    free(c->mem); free(c->util); free(c->by_mem); free(c->by_util);
}

/* how many of the largest included values (in `order`) sum to <= cap */
static int largest_fitting(const double *v, const size_t *order, size_t n, const bool *inc,
                           double cap, int most)
{
    double sum = 0;
    int r = 0;
    for (size_t k = 0; k < n && r < most; k++) {
        size_t i = order[k];
        if (inc && !inc[i]) continue;
        sum += v[i];
        if (sum > cap + 1e-9) break;
        r++;
    }
    return r;
}

static double largest_included(const double *v, const size_t *order, size_t n, const bool *inc)
{
    for (size_t k = 0; k < n; k++) if (!inc || inc[order[k]]) return v[order[k]];
    return 0;
}

/* ns: how many workloads inc includes (the caller knows: sharing_plan excludes one per step,
 * and counting them here was most of the plan's time on a cluster of 10,000 workloads) */
/* from_mem, from_util: where the included ones start in by_mem and by_util (every entry
 * before is excluded: sharing_plan excludes the largest, so its walks began with ever more
 * of them to skip, quadratic in the exclusions) */
static int ctx_max_replicas_from(const Ctx *c, const bool *inc, size_t ns, size_t from_mem, size_t from_util,
                                 ShareLimit *limit)
{
    const ShareParams *p = c->p;
    if (limit) *limit = SHARE_LIMIT_NONE;
    if (ns == 0 || p->gpu_memory_mib <= 0) return 0;
    if (p->mode == SHARE_MPS && p->mig_enabled) return 0;
    int r_wl = ns > INT_MAX ? INT_MAX : (int)ns;
    int r_mem, r_cpu, r_plugin = INT_MAX;
    double M = (double)p->gpu_memory_mib;
    if (p->mode == SHARE_TIME_SLICING) {
        r_mem = largest_fitting(c->mem, c->by_mem + from_mem, c->n - from_mem, inc, M, r_wl);
        r_cpu = largest_fitting(c->util, c->by_util + from_util, c->n - from_util, inc, 100.0, r_wl);
    } else {
        /* per client: floor(M / r) MiB >= ceil(max demand)  <=>  r <= M / ceil(max) */
        double mm = ceil(largest_included(c->mem, c->by_mem + from_mem, c->n - from_mem, inc) - 1e-9);
        double mu = ceil(largest_included(c->util, c->by_util + from_util, c->n - from_util, inc) - 1e-9);
        r_mem = mm <= 0 ? INT_MAX : (int)fmin(floor(M / mm), (double)INT_MAX);
        r_cpu = mu <= 0 ? INT_MAX : (int)floor(100.0 / mu);
        r_plugin = sharing_mps_client_limit(p->cc_major, p->cc_minor);
    }
    /* ties name the workload count first: then no resource bound stops more sharing */
    int r = r_wl;
    ShareLimit l = SHARE_LIMIT_WORKLOADS;
    if (r_mem < r) { r = r_mem; l = SHARE_LIMIT_MEMORY; }
    if (r_cpu < r) { r = r_cpu; l = SHARE_LIMIT_COMPUTE; }
    if (r_plugin < r) { r = r_plugin; l = SHARE_LIMIT_PLUGIN; }
    if (limit) *limit = l;
    return r;
}

static int ctx_max_replicas(const Ctx *c, const bool *inc, size_t ns, ShareLimit *limit)
{
    return ctx_max_replicas_from(c, inc, ns, 0, 0, limit);
}

struct ShareSet { Ctx c; const ShareWorkload *w; bool ok; };

ShareSet *sharing_set_new(const ShareParams *p, const ShareWorkload *w, size_t n)
{
    ShareSet *s = xcalloc(1, sizeof *s);
    s->w = w;
    s->ok = p && (w || !n);
    if (s->ok) ctx_init(&s->c, p, w, n);
    return s;
}

int sharing_set_max_replicas(const ShareSet *s, const bool *include, ShareLimit *limit)
{
    if (limit) *limit = SHARE_LIMIT_NONE;
    if (!s->ok) return 0;
    size_t ns = 0;
    for (size_t i = 0; i < s->c.n; i++) ns += !include || include[i];
    return ctx_max_replicas(&s->c, include, ns, limit);
}

void sharing_set_free(ShareSet *s)
{
    if (!s) return;
    if (s->ok) ctx_release(&s->c);
    free(s);
}

int sharing_max_replicas(const ShareParams *p, const ShareWorkload *w, const bool *include,
                         size_t n, ShareLimit *limit)
{
    ShareSet *s = sharing_set_new(p, w, n);
    int r = sharing_set_max_replicas(s, include, limit);
    sharing_set_free(s);
    return r;
}

static double dominance_of(const Ctx *c, size_t i)
{
    double fm = c->mem[i] / (double)c->p->gpu_memory_mib, fu = c->util[i] / 100.0;
    return fm > fu ? fm : fu;
}

int sharing_plan(const ShareParams *p, const ShareWorkload *w, size_t n, SharePlan *out)
{
    ShareSet *s = sharing_set_new(p, w, n);
    int r = sharing_plan_set(s, out);
    sharing_set_free(s);
    return r;
}

int sharing_plan_set(const ShareSet *set, SharePlan *out)
{
    memset(out, 0, sizeof *out);
    if (!set->ok || set->c.p->gpu_memory_mib <= 0) return -1;
    const Ctx *cx = &set->c;
    const ShareParams *p = cx->p;
    const ShareWorkload *w = set->w;
    size_t n = cx->n;
    out->n = n;
    out->shared = xcalloc(n ? n : 1, sizeof(bool));

    /* candidates: single-GPU workloads with usage data; the rest keep their GPUs */
    bool *inc = xcalloc(n ? n : 1, sizeof(bool));
    int fixed = 0, ncand = 0;
    for (size_t i = 0; i < n; i++) {
        int g = w[i].gpus > 0 ? w[i].gpus : 0;
        out->gpus_before += g;
        if (w[i].gpus == 1 && w[i].memory_mib >= 0) { inc[i] = true; ncand++; }
        else fixed += g;
    }
    /* exclusion order: the largest share of a GPU first */
    size_t *dom = xcalloc(n ? n : 1, sizeof(size_t));
    double *dkey = xcalloc(n ? n : 1, sizeof(double));
    size_t nd = 0;
    for (size_t i = 0; i < n; i++) if (inc[i]) { dom[nd++] = i; dkey[i] = dominance_of(cx, i); }
    sort_r(dom, nd, sizeof(size_t), desc_cmp, (void *)dkey);

    int best_total = fixed + ncand, best_j = -1, best_r = 0;
    ShareLimit best_limit = SHARE_LIMIT_NONE;
    size_t from_mem = 0, from_util = 0;
    for (int j = 0; j <= ncand && j <= MAX_EXCLUDED; j++) {
        if (j > 0) inc[dom[j - 1]] = false;
        if (fixed + j + 1 >= best_total) break;      /* cannot beat the best any more */
        while (from_mem < n && !inc[cx->by_mem[from_mem]]) from_mem++;
        while (from_util < n && !inc[cx->by_util[from_util]]) from_util++;
        int nsh = ncand - j;
        ShareLimit lim;
        int r = ctx_max_replicas_from(cx, inc, (size_t)nsh, from_mem, from_util, &lim);
        if (r < 2 || nsh < 2) continue;
        int total = fixed + j + (nsh + r - 1) / r;
        if (total < best_total) { best_total = total; best_j = j; best_r = r; best_limit = lim; }
    }

    if (best_j < 0) {
        out->possible = false;
        if (p->mode == SHARE_MPS && p->mig_enabled) out->reason = "MPS cannot share MIG-enabled GPUs";
        else if (ncand < 2) out->reason = "fewer than two single-GPU workloads with usage data";
        else out->reason = "no two workloads fit one GPU together (memory and utilization with headroom)";
        out->gpus_whole = out->gpus_after = out->gpus_before;
        out->limit = SHARE_LIMIT_NONE;
    } else {
        for (size_t i = 0; i < n; i++) out->shared[i] = w[i].gpus == 1 && w[i].memory_mib >= 0;
        for (int j = 0; j < best_j; j++) out->shared[dom[j]] = false;
        int nsh = ncand - best_j;
        out->possible = true;
        out->max_replicas = best_r;
        out->limit = best_limit;
        out->shared_workloads = nsh;
        out->gpus_shared = (nsh + best_r - 1) / best_r;
        out->replicas = (nsh + out->gpus_shared - 1) / out->gpus_shared;
        out->gpus_whole = fixed + best_j;
        out->gpus_after = out->gpus_shared + out->gpus_whole;
    }
    free(inc); free(dom); free(dkey);
    return 0;
}

void sharing_plan_clear(SharePlan *s)
{
    if (!s) return;
    free(s->shared);
    memset(s, 0, sizeof *s);
}

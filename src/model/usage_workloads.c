/* usage_workloads.c — DCGM usage folded per workload, once (usage_workloads.h). */
#include "model/usage_workloads.h"
#include "util/util.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- keys */

void usage_keys_init(UsageKeys *k)
{
    k->map = strmap_new();
    k->n = 0;
}

void usage_keys_release(UsageKeys *k)
{
    strmap_free(k->map, NULL);
    memset(k, 0, sizeof *k);
}

size_t usage_keys_at(UsageKeys *k, const char *a, const char *b, const char *c, const char *d, bool *made)
{
    /* the unit separator never occurs in Kubernetes names or DCGM labels; the key is composed
     * in place (no formatting: this runs once per series of every workload query) */
    const char *part[4] = { a ? a : "", b ? b : "", c ? c : "", d ? d : "" };
    size_t len[4], total = 4;
    for (int i = 0; i < 4; i++) { len[i] = strlen(part[i]); total += len[i]; }
    char stackbuf[512];
    char *key = total <= sizeof stackbuf ? stackbuf : xmalloc(total);
    char *w = key;
    for (int i = 0; i < 4; i++) {
        if (i) *w++ = '\x1f';
        memcpy(w, part[i], len[i]);
        w += len[i];
    }
    *w = '\0';
    size_t at = (size_t)(uintptr_t)strmap_get(k->map, key);
    *made = at == 0;
    if (!at) {
        at = ++k->n;
        strmap_put(k->map, key, (void *)(uintptr_t)at);
    }
    if (key != stackbuf) free(key);
    return at - 1;
}

/* ---------------------------------------------------------------- the fold */

double usage_max_nan(double a, double b)
{
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    return a > b ? a : b;
}

void workload_usage_stats_init(WorkloadUsage *u)
{
    u->mem_peak_mib = u->mem_pct_mib = u->util_peak = u->util_pct = NAN;
    u->samples = 0;
    u->devices = 0;
}

void workload_usage_fold(WorkloadUsage *into, const WorkloadUsage *from)
{
    into->mem_pct_mib = usage_max_nan(into->mem_pct_mib, from->mem_pct_mib);
    into->mem_peak_mib = usage_max_nan(into->mem_peak_mib, from->mem_peak_mib);
    into->util_pct = usage_max_nan(into->util_pct, from->util_pct);
    into->util_peak = usage_max_nan(into->util_peak, from->util_peak);
    if (from->samples > into->samples) into->samples = from->samples;
    into->devices += from->devices > 0 ? from->devices : 1;
}

/* ---------------------------------------------------------------- per device */

void usage_wl_devices_init(UsageWlDevices *t)
{
    memset(t, 0, sizeof *t);
    usage_keys_init(&t->keys);
}

void usage_wl_devices_release(UsageWlDevices *t)
{
    for (size_t i = 0; i < t->n; i++) { free(t->d[i].ns); free(t->d[i].pod); free(t->d[i].container); }
    free(t->d);
    usage_keys_release(&t->keys);
    memset(t, 0, sizeof *t);
}

void usage_wl_devices_add(UsageWlDevices *t, const char *ns, const char *pod, const char *container,
                          const char *device, int gi, UsageWlStat s, double v)
{
    bool made;
    size_t at = usage_keys_at(&t->keys, ns, pod, container, device, &made);
    if (made) {
        ARRAY_GROW(t->d, t->n, t->cap);
        UsageWlDevice *d = &t->d[t->n++];
        memset(d, 0, sizeof *d);
        d->ns = xstrdup(ns);
        d->pod = xstrdup(pod);
        d->container = xstrdup(container);
        d->gi = gi;
    }
    t->d[at].v[s] = v;
    t->d[at].has[s] = true;
}

static int workload_cmp(const void *pa, const void *pb)
{
    const WorkloadUsage *a = pa, *b = pb;
    int c = strcmp(a->ns ? a->ns : "", b->ns ? b->ns : "");
    if (c) return c;
    c = strcmp(a->pod, b->pod);
    if (c) return c;
    return strcmp(a->container ? a->container : "", b->container ? b->container : "");
}

/* one device's statistics as a workload record of one device */
static WorkloadUsage device_usage(const UsageWlDevice *d)
{
    WorkloadUsage u = { 0 };
    workload_usage_stats_init(&u);
    bool gr = d->has[USAGE_WL_GR_PCT] || d->has[USAGE_WL_GR_MAX];
    bool mig = d->gi >= 0;      /* GPU_UTIL means nothing on a MIG instance */
    u.util_pct = gr ? (d->has[USAGE_WL_GR_PCT] ? d->v[USAGE_WL_GR_PCT] * 100 : NAN)
                    : (!mig && d->has[USAGE_WL_UTIL_PCT] ? d->v[USAGE_WL_UTIL_PCT] : NAN);
    u.util_peak = gr ? (d->has[USAGE_WL_GR_MAX] ? d->v[USAGE_WL_GR_MAX] * 100 : NAN)
                     : (!mig && d->has[USAGE_WL_UTIL_MAX] ? d->v[USAGE_WL_UTIL_MAX] : NAN);
    if (d->has[USAGE_WL_MEM_PCT]) u.mem_pct_mib = d->v[USAGE_WL_MEM_PCT];
    if (d->has[USAGE_WL_MEM_MAX]) u.mem_peak_mib = d->v[USAGE_WL_MEM_MAX];
    if (d->has[USAGE_WL_SAMPLES]) u.samples = d->v[USAGE_WL_SAMPLES];
    u.devices = 1;
    return u;
}

void usage_wl_devices_fold(const UsageWlDevices *t, WorkloadUsage **out, size_t *nout)
{
    UsageKeys keys;
    usage_keys_init(&keys);
    WorkloadUsage *res = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < t->n; i++) {
        const UsageWlDevice *d = &t->d[i];
        bool made;
        size_t at = usage_keys_at(&keys, d->ns, d->pod, d->container, NULL, &made);
        if (made) {
            ARRAY_GROW(res, n, cap);
            WorkloadUsage *u = &res[n++];
            memset(u, 0, sizeof *u);
            u->ns = xstrdup(d->ns);
            u->pod = xstrdup(d->pod);
            u->container = xstrdup(d->container);
            workload_usage_stats_init(u);
        }
        WorkloadUsage du = device_usage(d);
        workload_usage_fold(&res[at], &du);
    }
    usage_keys_release(&keys);
    if (n) qsort(res, n, sizeof *res, workload_cmp);
    *out = res;
    *nout = n;
}

/* usage_workloads.c — DCGM usage folded per workload, once (usage_workloads.h). */
#include "model/usage_workloads.h"
#include "util/util.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- keys */

/* An open-addressing table of its own (linear probing, at most half full): the keys are
 * hashed eight bytes at a time, as the Prometheus workload queries look up every series. */
void usage_keys_init(UsageKeys *k)
{
    k->cap = 16;
    k->slots = xcalloc(k->cap, sizeof *k->slots);
    k->n = 0;
}

void usage_keys_release(UsageKeys *k)
{
    for (size_t i = 0; i < k->cap; i++) free(k->slots[i].key);
    free(k->slots);
    memset(k, 0, sizeof *k);
}

static uint32_t keys_hash(const char *s, size_t len)
{
    uint64_t h = 0x9E3779B97F4A7C15u ^ len, w;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        memcpy(&w, s + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdu;
        h ^= h >> 32;
    }
    w = 0;
    memcpy(&w, s + i, len - i);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53u;
    h ^= h >> 29;
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 32;
    return (uint32_t)h;
}

static size_t keys_find(const UsageKeys *k, const char *key, uint32_t h)
{
    size_t i = h & (k->cap - 1);
    while (k->slots[i].key && (k->slots[i].hash != h || strcmp(k->slots[i].key, key) != 0)) i = (i + 1) & (k->cap - 1);
    return i;
}

static void keys_grow(UsageKeys *k)
{
    UsageKeySlot *old = k->slots;
    size_t oldcap = k->cap;
    k->cap *= 2;
    k->slots = xcalloc(k->cap, sizeof *k->slots);
    for (size_t i = 0; i < oldcap; i++) {
        if (!old[i].key) continue;
        size_t j = old[i].hash & (k->cap - 1);
        while (k->slots[j].key) j = (j + 1) & (k->cap - 1);
        k->slots[j] = old[i];
    }
    free(old);
}

size_t usage_keys_at(UsageKeys *k, const char *a, const char *b, const char *c, const char *d, bool *made)
{
    /* the unit separator never occurs in Kubernetes names or DCGM labels; the key is composed
     * in place (no formatting: this runs once per series of every workload query) */
    const char *part[4] = { a ? a : "", b ? b : "", c ? c : "", d ? d : "" };
    size_t len[4], total = 3;
    for (int i = 0; i < 4; i++) { len[i] = strlen(part[i]); total += len[i]; }
    char stackbuf[512];
    char *key = total < sizeof stackbuf ? stackbuf : xmalloc(total + 1);
    char *w = key;
    for (int i = 0; i < 4; i++) {
        if (i) *w++ = '\x1f';
        memcpy(w, part[i], len[i]);
        w += len[i];
    }
    *w = '\0';
    uint32_t h = keys_hash(key, total);
    size_t i = keys_find(k, key, h);
    *made = !k->slots[i].key;
    if (*made) {
        if (k->n >= UINT32_MAX - 1) abort();     /* 2^32 keys: 100 GB of slots and keys first */
        if ((k->n + 1) * 2 > k->cap) {
            keys_grow(k);
            i = keys_find(k, key, h);
        }
        k->slots[i].key = key == stackbuf ? xstrdup(key) : key;
        k->slots[i].hash = h;
        k->slots[i].at = (uint32_t)++k->n;
        key = NULL;
    }
    size_t at = k->slots[i].at;
    if (key && key != stackbuf) free(key);
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

/* prometheus_usage.c — the PromQL that reads DCGM usage through the Prometheus client
 * (prometheus.c): per device for status, per workload for plan.
 *
 * The server does the heavy lifting: every query aggregates by the DCGM device and pod labels
 * (max by (...)), which folds duplicate series scraped by several jobs or instances into one,
 * and computes the window statistics (max_over_time, quantile_over_time), so the answer has
 * one small value per device and field, never raw samples.
 */
#include "sources/prometheus.h"
#include "model/usage_workloads.h"
#include "util/error.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* every label that names a device or its pod (see dcgm.h); grouping by labels a series does not
 * have is harmless, so one list serves all exporter versions and relabelings */
#define DEVICE_LABELS "Hostname, hostname, node, kubernetes_node, gpu, UUID, uuid, modelName, " \
    "GPU_I_PROFILE, GPU_I_ID, namespace, pod, container, exported_namespace, exported_pod, " \
    "exported_container, pod_namespace, pod_name, container_name"

static void promql_duration(char *buf, size_t n, double seconds)
{
    long s = seconds < 1 ? 1 : (long)llround(seconds);
    snprintf(buf, n, "%lds", s);
}

char *prometheus_usage_query(double window_s)
{
    char w[32];
    promql_duration(w, sizeof w, window_s);
    return xasprintf(
        "label_replace(max by (__name__, " DEVICE_LABELS ") ({__name__=~\"DCGM_FI_DEV_FB_USED|"
        "DCGM_FI_DEV_FB_FREE|DCGM_FI_DEV_FB_RESERVED|DCGM_FI_DEV_GPU_UTIL|"
        "DCGM_FI_PROF_GR_ENGINE_ACTIVE|DCGM_FI_DEV_GPU_TEMP|DCGM_FI_DEV_POWER_USAGE\"}), \"kgpu_field\", \"$1\", "
        "\"__name__\", \"(.*)\")"
        " or label_replace(max by (" DEVICE_LABELS ") (max_over_time(DCGM_FI_DEV_XID_ERRORS[%s])),"
        " \"kgpu_field\", \"xid_max\", \"\", \"\")"
        " or label_replace(max by (" DEVICE_LABELS ") (increase({__name__=~\"DCGM_FI_DEV_ECC_DBE_VOL_TOTAL|"
        "DCGM_FI_DEV_ECC_DBE_AGG_TOTAL\"}[%s])), \"kgpu_field\", \"ecc_dbe_increase\", \"\", \"\")"
        " or label_replace(max by (" DEVICE_LABELS ") (max_over_time(DCGM_FI_DEV_GPU_UTIL[%s])),"
        " \"kgpu_field\", \"gpu_util_max\", \"\", \"\")"
        " or label_replace(max by (" DEVICE_LABELS ") (max_over_time("
        "DCGM_FI_PROF_GR_ENGINE_ACTIVE[%s])), \"kgpu_field\", \"gr_engine_active_max\", \"\", \"\")",
        w, w, w, w);
}

typedef struct { DcgmAccum *a; long series; bool refill; } UsageCtx;

static int usage_series(void *ctx, const PromLabel *l, size_t n, const double *ts,
                        const double *v, size_t np)
{
    (void)ts;
    UsageCtx *u = ctx;
    const char *field = dcgm_prom_label(l, n, "kgpu_field");
    DcgmField f;
    if (!field || np == 0) return 0;
    if (strcmp(field, "gpu_util_max") == 0) f = DCGM_GPU_UTIL_MAX;
    else if (strcmp(field, "gr_engine_active_max") == 0) f = DCGM_GR_ENGINE_ACTIVE_MAX;
    else if (strcmp(field, "xid_max") == 0) f = DCGM_XID_ERRORS;
    else if (strcmp(field, "ecc_dbe_increase") == 0) f = DCGM_ECC_DBE;
    else if (!dcgm_field_from_metric(field, &f)) return 0;
    u->series++;
    if (u->a) dcgm_accum_add(u->a, f, l, n, v[np - 1], NULL);
    /* a refill that cannot be one stops here: the answer is read again as records */
    if (u->refill && dcgm_accum_refill_failed(u->a)) return 1;
    /* without records (plan) one series answers the only question, whether there are any:
     * the rest of the answer is still checked (prometheus.c), not handed out */
    return u->a ? 0 : 1;
}

/* per workload and device: the window statistics, folded per container by the model
 * (usage_workloads.h) */
typedef struct { UsageWlDevices t; UsageWlStat field; } WlCtx;

static int workload_series(void *ctx, const PromLabel *l, size_t n, const double *ts,
                           const double *v, size_t np)
{
    (void)ts;
    WlCtx *w = ctx;
    const char *ns, *pod, *ctr;
    if (np == 0 || !isfinite(v[np - 1]) || v[np - 1] < 0) return 0;
    dcgm_series_pod(l, n, &ns, &pod, &ctr);
    if (!pod) return 0;
    char *dev = dcgm_series_device(l, n, NULL);
    if (!dev) {
        /* no node label: the device is still one per UUID + instance */
        const char *uuid = dcgm_prom_label(l, n, "UUID");
        if (!uuid) uuid = dcgm_prom_label(l, n, "uuid");
        dev = xasprintf("?\x1f%s\x1f%d", uuid ? uuid : "?", dcgm_series_instance(l, n));
    }
    usage_wl_devices_add(&w->t, ns, pod, ctr, dev, dcgm_series_instance(l, n), w->field, v[np - 1]);
    free(dev);
    return 0;
}

static int collect_workloads(PromClient *c, const MetricsQuery *q, double at, Strvec *warnings,
                             WorkloadUsage **out, size_t *nout, Error *err)
{
    char w[32], p[32];
    promql_duration(w, sizeof w, q->window_s);
    double pct = q->percentile > 0 && q->percentile <= 100 ? q->percentile : 95;
    snprintf(p, sizeof p, "%.4g", pct / 100.0);
    for (char *x = p; *x; x++) if (*x == ',') *x = '.';
    static const struct { UsageWlStat field; const char *fn; const char *metric; bool pct; } qs[] = {
        { USAGE_WL_MEM_PCT, "quantile_over_time", "DCGM_FI_DEV_FB_USED", true },
        { USAGE_WL_MEM_MAX, "max_over_time", "DCGM_FI_DEV_FB_USED", false },
        { USAGE_WL_GR_PCT, "quantile_over_time", "DCGM_FI_PROF_GR_ENGINE_ACTIVE", true },
        { USAGE_WL_GR_MAX, "max_over_time", "DCGM_FI_PROF_GR_ENGINE_ACTIVE", false },
        { USAGE_WL_UTIL_PCT, "quantile_over_time", "DCGM_FI_DEV_GPU_UTIL", true },
        { USAGE_WL_UTIL_MAX, "max_over_time", "DCGM_FI_DEV_GPU_UTIL", false },
        { USAGE_WL_SAMPLES, "count_over_time", "DCGM_FI_DEV_FB_USED", false },
    };
    WlCtx ctx;
    usage_wl_devices_init(&ctx.t);
    int rc = 0;
    /* one query per statistic: each stays within the server's per-query sample limit */
    for (size_t i = 0; i < sizeof qs / sizeof qs[0] && rc == 0; i++) {
        char *promql = xasprintf("max by (" DEVICE_LABELS ") (%s(%s%s%s[%s]))", qs[i].fn,
                                 qs[i].pct ? p : "", qs[i].pct ? ", " : "", qs[i].metric, w);
        ctx.field = qs[i].field;
        rc = prometheus_query(c, promql, at, workload_series, &ctx, warnings, err);
        free(promql);
    }
    if (rc == 0) usage_wl_devices_fold(&ctx.t, out, nout);
    usage_wl_devices_release(&ctx.t);
    return rc;
}

long prometheus_collect_usage(PromClient *c, const MetricsQuery *q, double at, UsageData *d,
                        WorkloadUsage **workloads, size_t *nworkloads, Error *err)
{
    if (workloads) *workloads = NULL;
    if (nworkloads) *nworkloads = 0;
    double window = q && q->window_s > 0 ? q->window_s : 3600;
    char *promql = prometheus_usage_query(window);
    /* the workload profiles' caller (plan) reads no device records: the device query then
     * only says whether Prometheus has DCGM series (tens of thousands of devices are not
     * worth keeping in memory for nothing) */
    bool devices = !(q && q->want_workloads && workloads && nworkloads);
    UsageCtx u = { devices ? dcgm_accum_new_into(d) : NULL, 0, false };
    int rc = prometheus_query(c, promql, at, usage_series, &u, &d->warnings, err);
    free(promql);
    if (rc != 0) {
        dcgm_accum_free(u.a);
        return -1;
    }
    if (u.a) dcgm_accum_finish(u.a, d);
    dcgm_accum_free(u.a);
    d->windowed = true;
    if (devices && q && q->want_series && u.series > 0) {
        Error serr = { .set = false };
        double end = at > 0 ? at : d->evaluated_at;
        if (prometheus_collect_series(c, window, end, !q->no_held, d, &serr) != 0)
            strvec_pushf(&d->warnings, "usage series over the window unavailable: %s", serr.msg);
    }
    if (q && q->want_workloads && workloads && nworkloads && u.series > 0) {
        MetricsQuery wq = *q;
        wq.window_s = window;
        Error werr = { .set = false };
        if (collect_workloads(c, &wq, at, &d->warnings, workloads, nworkloads, &werr) != 0)
            strvec_pushf(&d->warnings, "per-workload usage over the window unavailable: %s", werr.msg);
    }
    return u.series;
}

long prometheus_collect_usage_refill(PromClient *c, const MetricsQuery *q, double at, UsageData *d,
                                     const UsageData *shown, Error *err)
{
    double window = q && q->window_s > 0 ? q->window_s : 3600;
    char *promql = prometheus_usage_query(window);
    if (q && q->want_series) {
        /* the series alone (top's minute): the device query only says whether the source has
         * DCGM series (handed out up to the first, as for plan); the shown numbers stay until
         * the next refresh, and no slot of values is held beside the series being made */
        UsageCtx n = { NULL, 0, false };
        int rc = prometheus_query(c, promql, at, usage_series, &n, &d->warnings, err);
        free(promql);
        if (rc != 0) return -1;
        if (n.series > 0) {
            d->refill = xcalloc(1, sizeof *d->refill);
            d->refill->of = shown;
            d->refill->ngpus = shown->ngpus;
            d->refill->npods = shown->npods;
            d->windowed = true;
            Error serr = { .set = false };
            double end = at > 0 ? at : d->evaluated_at;
            if (prometheus_collect_series_refill(c, window, end, !q->no_held, d, &serr) != 0)
                strvec_pushf(&d->warnings, "usage series over the window unavailable: %s", serr.msg);
        }
        return n.series;
    }
    UsageCtx u = { dcgm_accum_new_refill(shown), 0, true };
    int rc = prometheus_query(c, promql, at, usage_series, &u, &d->warnings, err);
    free(promql);
    if (rc != 0) {
        dcgm_accum_free(u.a);
        return -1;
    }
    bool done = dcgm_accum_finish_refill(u.a, d);
    dcgm_accum_free(u.a);
    if (!done) {
        /* a device or pod came or went: the records are made again (a second query; the
         * first answer's warnings are not kept twice) */
        strvec_clear(&d->warnings);
        MetricsQuery fq = q ? *q : (MetricsQuery){ window, 5, 95, false, false, false };
        fq.want_workloads = false;
        return prometheus_collect_usage(c, &fq, at, d, NULL, NULL, err);
    }
    d->windowed = true;
    return u.series;
}

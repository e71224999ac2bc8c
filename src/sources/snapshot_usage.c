/* snapshot_usage.c — the usage a snapshot stores (snapshot_format.h): written from what
 * metrics_collect gathered live, read back into c->stored_usage, and handed to the commands
 * offline as metrics_collect would have handed it live.
 *
 * Values are written as the model holds them (17 significant digits, so they read back
 * exactly; unknown = NAN is written null and read back NAN), so the analysis sees the same
 * numbers offline as it saw live.
 */
#include "sources/snapshot_format.h"
#include "util/util.h"
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- writing ---- */

static cJSON *record(const char *kind)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "apiVersion", SNAPSHOT_API_VERSION);
    cJSON_AddStringToObject(o, "kind", kind);
    return o;
}

static void add_str(cJSON *o, const char *k, const char *v)
{
    if (v) cJSON_AddStringToObject(o, k, v);
}

/* cJSON prints 15 significant digits (and 17 only when those do not read back within its
 * epsilon), so a value read back could differ in the last bits and a threshold compare flip
 * offline; 17 digits ("%.17g", LC_NUMERIC is never changed) always read back exactly. */
static void add_num(cJSON *o, const char *k, double v)
{
    if (isnan(v) || isinf(v)) {
        cJSON_AddNullToObject(o, k);
    } else if (v == floor(v) && fabs(v) < 1e15) {
        cJSON_AddNumberToObject(o, k, v);
    } else {
        char buf[40];
        snprintf(buf, sizeof buf, "%.17g", v);
        cJSON_AddRawToObject(o, k, buf);
    }
}

/* a series as numbers of float precision (9 significant digits read back the same float),
 * null for no sample */
static void add_series(cJSON *o, const char *k, const float *v, size_t n)
{
    cJSON *a = cJSON_AddArrayToObject(o, k);
    for (size_t i = 0; i < n; i++) {
        if (isnan(v[i]) || isinf(v[i])) { cJSON_AddItemToArray(a, cJSON_CreateNull()); continue; }
        char buf[32];
        snprintf(buf, sizeof buf, "%.9g", (double)v[i]);
        cJSON_AddItemToArray(a, cJSON_CreateRaw(buf));
    }
}

static cJSON *gpu_record(const UsageData *d, const GpuUsage *u, const char *of)
{
    cJSON *o = record("GPUUsage");
    cJSON_AddStringToObject(o, "of", of);
    add_str(o, "node", u->node);
    cJSON_AddNumberToObject(o, "gpu", u->gpu);
    add_str(o, "uuid", u->uuid);
    add_str(o, "model", u->model);
    add_str(o, "migProfile", u->mig_profile);
    cJSON_AddNumberToObject(o, "migInstance", u->mig_instance);
    add_str(o, "namespace", u->ns);
    add_str(o, "pod", u->pod);
    add_str(o, "container", u->container);
    add_num(o, "memUsedMiB", u->mem_used_mib);
    add_num(o, "memTotalMiB", u->mem_total_mib);
    add_num(o, "util", u->util);
    add_num(o, "utilMax", u->util_max);
    if (strcmp(of, "device") == 0) {            /* health and thermals (issue 29): devices only */
        if (isfinite(u->temp_c)) add_num(o, "tempC", u->temp_c);      /* absent = not served */
        if (isfinite(u->power_w)) add_num(o, "powerW", u->power_w);
        if (isfinite(u->xid)) add_num(o, "xid", u->xid);
        if (isfinite(u->ecc_dbe)) add_num(o, "eccDbe", u->ecc_dbe);
    }
    cJSON_AddNumberToObject(o, "holders", u->holders);
    if (strcmp(of, "device") == 0) {
        float v[USAGE_SERIES_MAX];
        if (usage_util_series(d, u, v)) add_series(o, "utilSeries", v, d->series_points);
        if (usage_mem_series(d, u, v)) add_series(o, "memSeries", v, d->series_points);
    }
    return o;
}

static cJSON *held_record(const UsageHeld *h)
{
    cJSON *o = record("GPUHeld");
    add_str(o, "node", h->node);
    cJSON_AddNumberToObject(o, "gpu", h->gpu);
    add_str(o, "uuid", h->uuid);
    add_str(o, "model", h->model);
    add_str(o, "migProfile", h->mig_profile);
    cJSON_AddNumberToObject(o, "migInstance", h->mig_instance);
    add_str(o, "namespace", h->ns);
    add_str(o, "pod", h->pod);
    add_num(o, "heldSeconds", h->held_s);
    add_num(o, "idleSeconds", h->idle_s);
    add_num(o, "shareSeconds", h->share_s);
    add_num(o, "idleShareSeconds", h->idle_share_s);
    return o;
}

static void emit(SnapshotEmitFn fn, void *ctx, cJSON *rec)
{
    fn(ctx, rec);
    cJSON_Delete(rec);
}

void snapshot_usage_records(const char *what, const UsageData *d, const MetricsQuery *q,
                            const WorkloadUsage *w, size_t n, SnapshotEmitFn fn, void *ctx)
{
    bool workloads = strcmp(what, "workloads") == 0;
    cJSON *src = record("UsageSource");
    cJSON_AddStringToObject(src, "for", what);
    add_str(src, "source", d->source ? d->source : "none");
    add_str(src, "detail", d->detail ? d->detail : "");
    add_num(src, "windowSeconds", d->window_s);
    add_num(src, "idleThreshold", d->idle_threshold);
    add_num(src, "percentile", q->percentile);
    cJSON_AddBoolToObject(src, "windowed", d->windowed);
    add_num(src, "evaluatedAt", d->evaluated_at);
    if (!workloads && d->series_points && d->nseries) {
        add_num(src, "seriesStart", d->series_start);
        add_num(src, "seriesStepSeconds", d->series_step);
        cJSON_AddNumberToObject(src, "seriesPoints", (double)d->series_points);
    }
    cJSON *warn = cJSON_AddArrayToObject(src, "warnings");
    for (size_t i = 0; i < d->warnings.n; i++) cJSON_AddItemToArray(warn, cJSON_CreateString(d->warnings.v[i]));
    emit(fn, ctx, src);
    if (!workloads) {
        for (size_t i = 0; i < d->ngpus; i++) emit(fn, ctx, gpu_record(d, &d->gpus[i], "device"));
        for (size_t i = 0; i < d->npods; i++) emit(fn, ctx, gpu_record(d, &d->pods[i], "pod"));
        for (size_t i = 0; i < d->nheld; i++) emit(fn, ctx, held_record(&d->held[i]));
        return;
    }
    for (size_t i = 0; i < n; i++) {
        cJSON *o = record("WorkloadUsage");
        add_str(o, "namespace", w[i].ns);
        add_str(o, "pod", w[i].pod);
        add_str(o, "container", w[i].container);
        add_num(o, "memPeakMiB", w[i].mem_peak_mib);
        add_num(o, "memPercentileMiB", w[i].mem_pct_mib);
        add_num(o, "utilPeak", w[i].util_peak);
        add_num(o, "utilPercentile", w[i].util_pct);
        add_num(o, "samples", w[i].samples);
        cJSON_AddNumberToObject(o, "devices", w[i].devices);
        emit(fn, ctx, o);
    }
}

/* ---- reading ---- */

static char *get_str(const cJSON *o, const char *k)
{
    const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));
    return v ? xstrdup(v) : NULL;
}

/* a record's string as the usage's pooled copy (usage_intern): one copy per distinct node,
 * UUID, model and pod name, not seven per record */
static char *pool_str(UsageData *d, const cJSON *o, const char *k)
{
    return usage_intern(d, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k)));
}

static double get_num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static int get_int(const cJSON *o, const char *k, int dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) && v->valuedouble >= -1e9 && v->valuedouble <= 1e9 ? (int)v->valuedouble : dflt;
}

static void read_gpu(UsageData *d, GpuUsage *u, const cJSON *o)
{
    memset(u, 0, sizeof *u);
    u->node = pool_str(d, o, "node");
    u->gpu = get_int(o, "gpu", 0);
    u->uuid = pool_str(d, o, "uuid");
    u->model = pool_str(d, o, "model");
    u->mig_profile = pool_str(d, o, "migProfile");
    u->mig_instance = get_int(o, "migInstance", -1);
    u->ns = pool_str(d, o, "namespace");
    u->pod = pool_str(d, o, "pod");
    u->container = pool_str(d, o, "container");
    u->mem_used_mib = get_num(o, "memUsedMiB");
    u->mem_total_mib = get_num(o, "memTotalMiB");
    u->util = get_num(o, "util");
    u->util_max = get_num(o, "utilMax");
    u->temp_c = get_num(o, "tempC");
    u->power_w = get_num(o, "powerW");
    u->xid = get_num(o, "xid");
    u->ecc_dbe = get_num(o, "eccDbe");
    u->holders = get_int(o, "holders", 0);
}

/* a device record's series into a new row of d's series; false when it has none */
static void read_series(UsageSnapshot *s, GpuUsage *u, const cJSON *o)
{
    UsageData *d = &s->devices;
    const cJSON *ua = cJSON_GetObjectItemCaseSensitive(o, "utilSeries");
    const cJSON *ma = cJSON_GetObjectItemCaseSensitive(o, "memSeries");
    size_t n = d->series_points;
    if (!n || !cJSON_IsArray(ua) || !cJSON_IsArray(ma) || (size_t)cJSON_GetArraySize(ua) != n ||
        (size_t)cJSON_GetArraySize(ma) != n)
        return;
    if (d->nseries >= s->capseries) {
        s->capseries = s->capseries ? s->capseries * 2 : 64;
        usage_series_resize(d, s->capseries);
    }
    float ur[USAGE_SERIES_MAX], mr[USAGE_SERIES_MAX];
    size_t k = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, ua) { ur[k++] = cJSON_IsNumber(v) ? (float)v->valuedouble : NAN; }
    k = 0;
    cJSON_ArrayForEach(v, ma) { mr[k++] = cJSON_IsNumber(v) ? (float)v->valuedouble : NAN; }
    usage_series_put_row(d, USAGE_SERIES_UTIL, d->nseries, ur);
    usage_series_put_row(d, USAGE_SERIES_MEM, d->nseries, mr);
    u->series = (int)++d->nseries;
}

static void read_held(UsageSnapshot *s, const cJSON *o)
{
    UsageData *d = &s->devices;
    ARRAY_GROW(d->held, d->nheld, s->capheld);
    UsageHeld *h = &d->held[d->nheld++];
    memset(h, 0, sizeof *h);
    h->node = pool_str(d, o, "node");
    h->gpu = get_int(o, "gpu", 0);
    h->uuid = pool_str(d, o, "uuid");
    h->model = pool_str(d, o, "model");
    h->mig_profile = pool_str(d, o, "migProfile");
    h->mig_instance = get_int(o, "migInstance", -1);
    h->ns = pool_str(d, o, "namespace");
    h->pod = pool_str(d, o, "pod");
    h->held_s = get_num(o, "heldSeconds");
    h->idle_s = get_num(o, "idleSeconds");
    h->share_s = get_num(o, "shareSeconds");
    h->idle_share_s = get_num(o, "idleShareSeconds");
    if (!h->pod) h->pod = xstrdup("");
}

void snapshot_usage_ingest(Cluster *c, const cJSON *item)
{
    const char *kind = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "kind"));
    if (!kind) return;
    if (!c->stored_usage) c->stored_usage = xcalloc(1, sizeof *c->stored_usage);
    UsageSnapshot *s = c->stored_usage;
    if (strcmp(kind, "UsageSource") == 0) {
        const char *what = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "for"));
        const cJSON *warn = cJSON_GetObjectItemCaseSensitive(item, "warnings"), *w;
        if (str_eq(what, "devices")) {
            UsageData *d = &s->devices;
            free(d->source); free(d->detail);
            d->source = get_str(item, "source");
            d->detail = get_str(item, "detail");
            d->window_s = get_num(item, "windowSeconds");
            d->idle_threshold = get_num(item, "idleThreshold");
            d->windowed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(item, "windowed"));
            d->evaluated_at = get_num(item, "evaluatedAt");
            double pts = get_num(item, "seriesPoints"), step = get_num(item, "seriesStepSeconds");
            if (d->nseries == 0 && pts >= 1 && pts <= USAGE_SERIES_MAX && step > 0) {
                d->series_points = (size_t)pts;
                d->series_step = step;
                d->series_start = get_num(item, "seriesStart");
            }
            cJSON_ArrayForEach(w, warn) if (cJSON_IsString(w)) strvec_push(&d->warnings, w->valuestring);
            s->have_devices = d->source != NULL;
        } else if (str_eq(what, "workloads")) {
            free(s->wl_source); free(s->wl_detail);
            s->wl_source = get_str(item, "source");
            s->wl_detail = get_str(item, "detail");
            s->wl_window_s = get_num(item, "windowSeconds");
            s->wl_percentile = get_num(item, "percentile");
            s->wl_windowed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(item, "windowed"));
            s->wl_evaluated_at = get_num(item, "evaluatedAt");
            cJSON_ArrayForEach(w, warn) if (cJSON_IsString(w)) strvec_push(&s->wl_warnings, w->valuestring);
            s->have_workloads = s->wl_source != NULL;
        }
    } else if (strcmp(kind, "GPUUsage") == 0) {
        const char *of = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "of"));
        UsageData *d = &s->devices;
        if (str_eq(of, "device")) {
            ARRAY_GROW(d->gpus, d->ngpus, s->capgpus);
            read_gpu(d, &d->gpus[d->ngpus], item);
            read_series(s, &d->gpus[d->ngpus++], item);
        } else if (str_eq(of, "pod")) {
            ARRAY_GROW(d->pods, d->npods, s->cappods);
            read_gpu(d, &d->pods[d->npods++], item);
        }
    } else if (strcmp(kind, "GPUHeld") == 0) {
        read_held(s, item);
    } else if (strcmp(kind, "WorkloadUsage") == 0) {
        ARRAY_GROW(s->workloads, s->nworkloads, s->capworkloads);
        WorkloadUsage *w = &s->workloads[s->nworkloads++];
        memset(w, 0, sizeof *w);
        w->ns = get_str(item, "namespace");
        w->pod = get_str(item, "pod");
        w->container = get_str(item, "container");
        w->mem_peak_mib = get_num(item, "memPeakMiB");
        w->mem_pct_mib = get_num(item, "memPercentileMiB");
        w->util_peak = get_num(item, "utilPeak");
        w->util_pct = get_num(item, "utilPercentile");
        w->samples = get_num(item, "samples");
        w->devices = get_int(item, "devices", 1);
    }
}

/* ---- offline ---- */

static void duration_text(char *buf, size_t n, double s)
{
    if (s >= 86400 && fmod(s, 86400) == 0) snprintf(buf, n, "%gd", s / 86400);
    else if (s >= 3600 && fmod(s, 3600) == 0) snprintf(buf, n, "%gh", s / 3600);
    else if (s >= 60 && fmod(s, 60) == 0) snprintf(buf, n, "%gm", s / 60);
    else snprintf(buf, n, "%gs", s);
}

static char *stored_detail(const char *detail, double at)
{
    char when[32] = "";
    if (at > 0 && at < 1e11) {
        time_t t = (time_t)at;
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    }
    return xasprintf("%s (stored in the snapshot%s%s)", detail && *detail ? detail : "metrics",
                     *when ? ", evaluated at " : "", when);
}

bool snapshot_usage_fill(const Cluster *c, const MetricsQuery *q, UsageData *data, WorkloadUsage **w, size_t *nw)
{
    UsageSnapshot *s = c ? c->stored_usage : NULL;
    if (!s) return false;
    char want[32], have[32];
    if (q->want_workloads && w && nw) {
        if (!s->have_workloads) return false;
        free(data->source); free(data->detail);
        data->source = xstrdup(s->wl_source);
        data->detail = stored_detail(s->wl_detail, s->wl_evaluated_at);
        data->windowed = s->wl_windowed;
        data->evaluated_at = s->wl_evaluated_at;
        for (size_t i = 0; i < s->wl_warnings.n; i++) strvec_push(&data->warnings, s->wl_warnings.v[i]);
        if (fabs(q->window_s - s->wl_window_s) >= 1) {
            duration_text(want, sizeof want, q->window_s);
            duration_text(have, sizeof have, s->wl_window_s);
            strvec_pushf(&data->warnings, "metrics: the snapshot holds usage over %s; a window of %s cannot be "
                         "applied offline (the stored %s is used)", have, want, have);
        }
        if (fabs(q->percentile - s->wl_percentile) > 1e-9)
            strvec_pushf(&data->warnings, "metrics: the snapshot holds the p%g of usage; p%g cannot be computed "
                         "offline (the stored p%g is used)", s->wl_percentile, q->percentile, s->wl_percentile);
        /* handed over, not copied: tens of thousands of records are not held twice */
        *w = s->workloads;
        *nw = s->nworkloads;
        s->workloads = NULL;
        s->nworkloads = s->capworkloads = 0;
        s->have_workloads = false;
        /* the command that reads workload profiles (plan) reads no device records, as live
         * (prometheus_collect_usage keeps none then): they are released */
        usage_clear(&s->devices);
        s->capgpus = s->cappods = 0;
        s->have_devices = false;
        return true;
    }
    if (!s->have_devices) return false;
    UsageData *d = &s->devices;
    free(data->source); free(data->detail);
    data->source = xstrdup(d->source);
    data->detail = stored_detail(d->detail, d->evaluated_at);
    data->windowed = d->windowed;
    data->evaluated_at = d->evaluated_at;
    data->window_s = d->window_s;
    for (size_t i = 0; i < d->warnings.n; i++) strvec_push(&data->warnings, d->warnings.v[i]);
    if (d->windowed && fabs(q->window_s - d->window_s) >= 1) {
        duration_text(want, sizeof want, q->window_s);
        duration_text(have, sizeof have, d->window_s);
        strvec_pushf(&data->warnings, "metrics: the snapshot holds usage over %s; a window of %s cannot be "
                     "applied offline (the stored %s is used)", have, want, have);
    }
    /* the per-pod records name their device's series row, as live */
    for (size_t i = 0; i < d->npods; i++) {
        const GpuUsage *dev[1];
        GpuUsage *p = &d->pods[i];
        size_t nd = usage_node_gpus(d, p->node, NULL, 0);
        const GpuUsage **all = nd ? xcalloc(nd, sizeof *all) : NULL;
        usage_node_gpus(d, p->node, all, nd);
        dev[0] = NULL;
        for (size_t k = 0; k < nd && !dev[0]; k++)
            if (all[k]->gpu == p->gpu && all[k]->mig_instance == p->mig_instance && str_eq(all[k]->uuid, p->uuid))
                dev[0] = all[k];
        p->series = dev[0] ? dev[0]->series : 0;
        free(all);
    }
    if (d->nseries) {
        /* the reader's spare capacity is given back */
        usage_series_resize(d, d->nseries);
        usage_series_pack(d);
        data->series_util = d->series_util;
        data->series_mem = d->series_mem;
        data->series_grid = d->series_grid;
        data->nseries = d->nseries;
        data->series_points = d->series_points;
        data->series_start = d->series_start;
        data->series_step = d->series_step;
        d->series_util = d->series_mem = NULL;
        d->series_grid = NULL;
        d->nseries = d->series_points = s->capseries = 0;
    }
    data->held = d->held;
    data->nheld = d->nheld;
    d->held = NULL;
    d->nheld = s->capheld = 0;
    /* handed over, as above */
    data->gpus = d->gpus;
    data->ngpus = d->ngpus;
    data->pods = d->pods;
    data->npods = d->npods;
    data->strings = d->strings;           /* the pool the records' strings are in goes with them */
    d->strings = NULL;
    usage_intern_done(data);
    d->gpus = d->pods = NULL;
    d->ngpus = d->npods = s->capgpus = s->cappods = 0;
    s->have_devices = false;
    return true;
}

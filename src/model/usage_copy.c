/* usage_copy.c — a deep copy of UsageData (usage.h), for a view that keeps showing the last
 * metrics while the cluster under them changes (top between metrics refreshes). */
#include "model/usage.h"
#include "usage_int.h"
#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s) { return s ? xstrdup(s) : NULL; }

static GpuUsage *copy_records(const GpuUsage *src, size_t n)
{
    if (!n) return NULL;
    GpuUsage *out = xcalloc(n, sizeof *out);
    for (size_t i = 0; i < n; i++) {
        out[i] = src[i];
        out[i].node = dup_or_null(src[i].node);
        out[i].uuid = dup_or_null(src[i].uuid);
        out[i].model = dup_or_null(src[i].model);
        out[i].mig_profile = dup_or_null(src[i].mig_profile);
        out[i].ns = dup_or_null(src[i].ns);
        out[i].pod = dup_or_null(src[i].pod);
        out[i].container = dup_or_null(src[i].container);
    }
    return out;
}

void usage_copy(UsageData *dst, const UsageData *src)
{
    memset(dst, 0, sizeof *dst);
    dst->gpus = copy_records(src->gpus, src->ngpus);
    dst->ngpus = src->ngpus;
    dst->pods = copy_records(src->pods, src->npods);
    dst->npods = src->npods;
    dst->source = dup_or_null(src->source);
    dst->detail = dup_or_null(src->detail);
    dst->window_s = src->window_s;
    dst->idle_threshold = src->idle_threshold;
    for (size_t i = 0; i < src->warnings.n; i++) strvec_push(&dst->warnings, src->warnings.v[i]);
    dst->windowed = src->windowed;
    dst->evaluated_at = src->evaluated_at;
    dst->index = NULL;                   /* made again on first use */
    dst->series_points = src->series_points;
    dst->nseries = src->nseries;
    dst->series_start = src->series_start;
    dst->series_step = src->series_step;
    if (src->nseries && src->series_points && src->series_util && src->series_mem)
        usage_series_share(dst, src);          /* 10 MB at 20,000 devices: not copied */
    else
        dst->nseries = dst->series_points = 0;
    if (src->nheld) {
        dst->held = xcalloc(src->nheld, sizeof *dst->held);
        for (size_t i = 0; i < src->nheld; i++) {
            UsageHeld *h = &dst->held[i];
            *h = src->held[i];
            h->node = dup_or_null(h->node); h->uuid = dup_or_null(h->uuid);
            h->model = dup_or_null(h->model); h->mig_profile = dup_or_null(h->mig_profile);
            h->ns = dup_or_null(h->ns); h->pod = dup_or_null(h->pod);
        }
        dst->nheld = src->nheld;
    }
}

void usage_take_series(UsageData *dst, UsageData *src)
{
    if (dst->nseries || !src->nseries) return;
    for (int pass = 0; pass < 2; pass++) {
        GpuUsage *recs = pass ? dst->pods : dst->gpus;
        size_t n = pass ? dst->npods : dst->ngpus;
        for (size_t i = 0; i < n; i++) {
            GpuUsage *u = &recs[i];
            u->series = 0;
            size_t nd = u->node ? usage_node_gpus(src, u->node, NULL, 0) : 0;
            if (!nd) continue;
            const GpuUsage **all = xcalloc(nd, sizeof *all);
            usage_node_gpus(src, u->node, all, nd);
            for (size_t k = 0; k < nd && !u->series; k++)
                if (all[k]->gpu == u->gpu && all[k]->mig_instance == u->mig_instance &&
                    (!u->uuid || !all[k]->uuid || str_eq(all[k]->uuid, u->uuid)))
                    u->series = all[k]->series;
            free(all);
        }
    }
    dst->series_util = src->series_util; dst->series_mem = src->series_mem;
    dst->series_share = src->series_share;
    src->series_share = NULL;
    dst->nseries = src->nseries; dst->series_points = src->series_points;
    dst->series_start = src->series_start; dst->series_step = src->series_step;
    src->series_util = src->series_mem = NULL;
    src->nseries = src->series_points = 0;
    for (size_t i = 0; i < src->ngpus; i++) src->gpus[i].series = 0;
    for (size_t i = 0; i < src->npods; i++) src->pods[i].series = 0;
    /* held: own copies of the strings (src's pool goes with src) */
    if (!dst->nheld && src->nheld) {
        dst->held = xcalloc(src->nheld, sizeof *dst->held);
        for (size_t i = 0; i < src->nheld; i++) {
            UsageHeld *h = &dst->held[i];
            *h = src->held[i];
            h->node = dup_or_null(h->node); h->uuid = dup_or_null(h->uuid);
            h->model = dup_or_null(h->model); h->mig_profile = dup_or_null(h->mig_profile);
            h->ns = dup_or_null(h->ns); h->pod = dup_or_null(h->pod);
        }
        dst->nheld = src->nheld;
    }
}

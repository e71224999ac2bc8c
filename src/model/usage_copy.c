/* usage_copy.c — a copy of UsageData (usage.h), for a view that keeps showing the last
 * metrics while the cluster under them changes (top between metrics refreshes). */
#include "model/usage.h"
#include "usage_int.h"
#include "util/strarena.h"
#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s) { return s ? xstrdup(s) : NULL; }

/* src's string in the copy: the shared pool's own pointer when pooled, else a copy */
static char *share_or_dup(const UsageData *src, const char *s)
{
    return !s ? NULL : strarena_owns(src->strings, s) ? (char *)s : xstrdup(s);
}

static GpuUsage *copy_records(const UsageData *d, const GpuUsage *src, size_t n)
{
    if (!n) return NULL;
    GpuUsage *out = xcalloc(n, sizeof *out);
    for (size_t i = 0; i < n; i++) {
        out[i] = src[i];
        out[i].node = share_or_dup(d, src[i].node);
        out[i].uuid = share_or_dup(d, src[i].uuid);
        out[i].model = share_or_dup(d, src[i].model);
        out[i].mig_profile = share_or_dup(d, src[i].mig_profile);
        out[i].ns = share_or_dup(d, src[i].ns);
        out[i].pod = share_or_dup(d, src[i].pod);
        out[i].container = share_or_dup(d, src[i].container);
    }
    return out;
}

void usage_copy(UsageData *dst, const UsageData *src)
{
    memset(dst, 0, sizeof *dst);
    /* the pool is shared (its strings never move or change): the records point into it */
    usage_strings_share(dst, src);
    dst->gpus = copy_records(src, src->gpus, src->ngpus);
    dst->ngpus = src->ngpus;
    dst->pods = copy_records(src, src->pods, src->npods);
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
            h->node = share_or_dup(src, h->node); h->uuid = share_or_dup(src, h->uuid);
            h->model = share_or_dup(src, h->model); h->mig_profile = share_or_dup(src, h->mig_profile);
            h->ns = share_or_dup(src, h->ns); h->pod = share_or_dup(src, h->pod);
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
    /* held: the strings into dst's pool (src's pool goes with src); own copies when dst's pool
     * is shared already (usage_intern) */
    if (!dst->nheld && src->nheld) {
        dst->held = xcalloc(src->nheld, sizeof *dst->held);
        for (size_t i = 0; i < src->nheld; i++) {
            UsageHeld *h = &dst->held[i];
            *h = src->held[i];
            h->node = usage_intern(dst, h->node); h->uuid = usage_intern(dst, h->uuid);
            h->model = usage_intern(dst, h->model); h->mig_profile = usage_intern(dst, h->mig_profile);
            h->ns = usage_intern(dst, h->ns); h->pod = usage_intern(dst, h->pod);
        }
        dst->nheld = src->nheld;
    }
}

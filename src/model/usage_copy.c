/* usage_copy.c — a copy of UsageData (usage.h), for a view that keeps showing the last
 * metrics while the cluster under them changes (top between metrics refreshes): the records,
 * strings and series are shared by the copies (usage.c counts them), not copied. */
#include "model/usage.h"
#include "usage_int.h"
#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s) { return s ? xstrdup(s) : NULL; }

void usage_copy(UsageData *dst, const UsageData *src)
{
    memset(dst, 0, sizeof *dst);
    /* the records and the pool their strings are in are shared: nothing of them is copied */
    usage_strings_share(dst, src);
    usage_records_share(dst, src);
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
    if (src->nseries && src->series_points && src->series_util && src->series_mem && src->series_grid)
        usage_series_share(dst, src);          /* 5 MB at 20,000 devices: not copied */
    else
        dst->nseries = dst->series_points = 0;
}

void usage_take_series(UsageData *dst, UsageData *src)
{
    if (dst->nseries || !src->nseries || dst->records_share) return;
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
    dst->series_grid = src->series_grid;
    dst->series_share = src->series_share;
    src->series_share = NULL;
    dst->nseries = src->nseries; dst->series_points = src->series_points;
    dst->series_start = src->series_start; dst->series_step = src->series_step;
    src->series_util = src->series_mem = NULL;
    src->series_grid = NULL;
    src->nseries = src->series_points = 0;      /* its records' rows now name nothing */
    if (!src->records_share) {                  /* shared records are not written */
        for (size_t i = 0; i < src->ngpus; i++) src->gpus[i].series = 0;
        for (size_t i = 0; i < src->npods; i++) src->pods[i].series = 0;
    }
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

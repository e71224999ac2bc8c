/* usage_refill.c — a refill's numbers written into the records they are for (usage.h:
 * UsageRefill): the records, their strings, series and joins stay; only the numbers of a
 * metrics refresh and its header change. */
#include "model/usage.h"
#include "usage_int.h"
#include "util/strarena.h"
#include <stdlib.h>
#include <string.h>

static void numbers_put(GpuUsage *u, const UsageNumbersPacked *n, const double *wide)
{
    double x[8];
    for (int i = 0; i < 8; i++) x[i] = usage_exact_value(n->v[i], (n->wide >> i) & 1u, wide);
    u->mem_used_mib = x[0]; u->mem_total_mib = x[1];
    u->util = x[2]; u->util_max = x[3];
    u->temp_c = x[4]; u->power_w = x[5]; u->xid = x[6]; u->ecc_dbe = x[7];
}

bool usage_refill_apply(UsageData *shown, UsageData *next)
{
    UsageRefill *r = next->refill;
    if (!r || r->of != shown || r->ngpus != shown->ngpus || r->npods != shown->npods ||
        shown->records_share || shown->strings_share)
        return false;
    bool numbers = r->gnums || r->pnums;
    for (size_t i = 0; numbers && i < r->ngpus; i++) numbers_put(&shown->gpus[i], &r->gnums[i], r->wide);
    for (size_t i = 0; numbers && i < r->npods; i++) numbers_put(&shown->pods[i], &r->pnums[i], r->wide);
    if (r->series_new) {
        /* the new series and held records (next's; their strings shown's, or next's pool,
         * which shown keeps for them), the records linked to the new rows */
        for (size_t i = 0; i < r->ngpus + r->npods; i++) {
            GpuUsage *u = i < r->ngpus ? &shown->gpus[i] : &shown->pods[i - r->ngpus];
            u->series = r->series ? (int)r->series[i] : 0;
        }
        usage_series_release(shown);
        shown->series_util = next->series_util; shown->series_mem = next->series_mem;
        shown->series_grid = next->series_grid; shown->series_share = next->series_share;
        shown->nseries = next->nseries; shown->series_points = next->series_points;
        shown->series_start = next->series_start; shown->series_step = next->series_step;
        next->series_util = next->series_mem = NULL;
        next->series_grid = NULL;
        next->series_share = NULL;
        next->nseries = next->series_points = 0;
        usage_held_release(shown);
        strarena_free(shown->held_strings);
        shown->held = next->held; shown->nheld = next->nheld;
        strarena_seal(next->strings);           /* no more lookups: the table goes */
        shown->held_strings = next->strings;
        next->held = NULL; next->nheld = 0;
        next->strings = NULL;
    }
    if (!numbers) {
        /* the series alone: the numbers and what they were read from stay; the warnings of
         * both are kept */
        for (size_t i = 0; i < next->warnings.n; i++) strvec_push(&shown->warnings, next->warnings.v[i]);
        usage_clear(next);
        return true;
    }
    free(shown->source); free(shown->detail);
    shown->source = next->source; shown->detail = next->detail;
    next->source = next->detail = NULL;
    strvec_clear(&shown->warnings);
    shown->warnings = next->warnings;
    next->warnings = (Strvec)STRVEC_INIT;
    shown->window_s = next->window_s;
    shown->idle_threshold = next->idle_threshold;
    shown->windowed = next->windowed;
    shown->evaluated_at = next->evaluated_at;
    usage_clear(next);
    return true;
}

/* usage_refill.c — a refill's numbers written into the records they are for (usage.h:
 * UsageRefill): the records, their strings, series and joins stay; only the numbers of a
 * metrics refresh and its header change. */
#include "model/usage.h"
#include "usage_int.h"
#include "util/strarena.h"
#include <stdlib.h>
#include <string.h>

static void numbers_put(GpuUsage *u, const UsageNumbers *n)
{
    u->mem_used_mib = n->mem_used_mib; u->mem_total_mib = n->mem_total_mib;
    u->util = n->util; u->util_max = n->util_max;
    u->temp_c = n->temp_c; u->power_w = n->power_w; u->xid = n->xid; u->ecc_dbe = n->ecc_dbe;
}

bool usage_refill_apply(UsageData *shown, UsageData *next)
{
    UsageRefill *r = next->refill;
    if (!r || r->of != shown || r->ngpus != shown->ngpus || r->npods != shown->npods ||
        shown->records_share || shown->strings_share)
        return false;
    const char *slot = r->slots;
    for (size_t i = 0; slot && i < r->ngpus; i++, slot += r->slot_size)
        numbers_put(&shown->gpus[i], (const UsageNumbers *)(const void *)slot);
    for (size_t i = 0; slot && i < r->npods; i++, slot += r->slot_size)
        numbers_put(&shown->pods[i], (const UsageNumbers *)(const void *)slot);
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
    if (!r->slots) {
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

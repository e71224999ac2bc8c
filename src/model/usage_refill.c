/* usage_refill.c — a refill's numbers written into the records they are for (usage.h:
 * UsageRefill): the records, their strings, series and joins stay; only the numbers of a
 * metrics refresh and its header change. */
#include "model/usage.h"
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
        shown->records_share)
        return false;
    const char *slot = r->slots;
    for (size_t i = 0; i < r->ngpus; i++, slot += r->slot_size)
        numbers_put(&shown->gpus[i], (const UsageNumbers *)(const void *)slot);
    for (size_t i = 0; i < r->npods; i++, slot += r->slot_size)
        numbers_put(&shown->pods[i], (const UsageNumbers *)(const void *)slot);
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

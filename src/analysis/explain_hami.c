/* explain_hami.c — the resource names HAMi's scheduler extender takes from kube-scheduler
 * (charts/hami/templates/_helpers.tpl: ignoredByScheduler; explain_platform.c has the whole
 * story), below the per-node evaluation that skips them and the HAMi verdict that fits them.
 */
#include "explain_int.h"

static const char *const hami_names[] = { "nvidia.com/gpumem", "nvidia.com/gpucores", "nvidia.com/gpumem-percentage",
                                          "nvidia.com/priority" };

bool explain_hami_resource(const char *res)
{
    for (size_t i = 0; i < sizeof hami_names / sizeof *hami_names; i++) if (str_eq(res, hami_names[i])) return true;
    return false;
}

bool explain_hami_present(const ExplainIndex *ix)
{
    if (!ix->hami) {
        int v = 1;
        for (size_t i = 0; i < ix->c->nnodes && v == 1; i++) if (ix->c->nodes[i].gpu.nhami) v = 2;
        ((ExplainIndex *)ix)->hami = v;         /* a cache of the cluster's one fact */
    }
    return ix->hami == 2;
}

bool explain_hami_ignored(const ExplainIndex *ix, const char *res)
{
    return explain_hami_resource(res) && explain_hami_present(ix);
}

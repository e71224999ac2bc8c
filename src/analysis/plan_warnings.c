/* plan_warnings.c — what a plan's change of the cluster-wide MIG strategy means for the nodes
 * that run MIG with the single strategy today (plan_warnings.h). */
#include "analysis/plan_warnings.h"
#include "util/util.h"
#include <stdlib.h>
#include <string.h>

static int ids_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void plan_mig_single_warnings(const Cluster *c, const PlanResult *r, const PlanWorkload *w, size_t nw, Strvec *out)
{
    /* mixed, cluster-wide: nodes running MIG with the single strategy outside the MIG groups */
    for (size_t i = 0; r->mig_strategy_change && i < c->nnodes; i++) {
        const Node *n = &c->nodes[i];
        if (n->gpu.mig_strategy != MIG_SINGLE || !n->gpu.mig_single_profile) continue;
        bool planned_mig = false;
        for (size_t gi = 0; gi < r->ngroups && !planned_mig; gi++)
            planned_mig = r->groups[gi].strategy == PLAN_MIG && strvec_contains(&r->groups[gi].nodes, n->name);
        if (!planned_mig) {
            strvec_pushf(out, "%s runs MIG with the single strategy: once the ClusterPolicy says mixed it "
                         "advertises nvidia.com/mig-%s instead of nvidia.com/gpu, and pods asking for nvidia.com/gpu "
                         "there stay Pending", n->name, n->gpu.mig_single_profile);
            continue;
        }
        /* relabelled by the plan: its pods' nvidia.com/gpu meant a MIG device; after the switch
         * it means a whole GPU (k8s-device-plugin internal/rm/device_map.go:91-104: only single
         * advertises MIG devices as nvidia.com/gpu) */
        Strvec ids = STRVEC_INIT;
        for (size_t k = 0; k < nw; k++) {
            const PlanWorkload *x = &w[k];
            if (!str_eq(x->node, n->name) || !str_eq(x->resource, "nvidia.com/gpu")) continue;
            char *id = xasprintf("%s/%s", x->ns ? x->ns : "?", x->name ? x->name : "?");
            if (!strvec_contains(&ids, id)) strvec_push(&ids, id);
            free(id);
        }
        if (ids.n > 1) qsort(ids.v, ids.n, sizeof *ids.v, ids_cmp);
        Strbuf who = STRBUF_INIT;
        size_t nwho = ids.n;
        for (size_t k = 0; k < ids.n; k++) strbuf_addf(&who, "%s%s", k ? ", " : "", ids.v[k]);
        strvec_clear(&ids);
        if (nwho)
            strvec_pushf(out, "%s runs MIG %s with the single strategy: %s request%s nvidia.com/gpu there, "
                         "a MIG device now and a whole GPU once the ClusterPolicy says mixed: change %s request to "
                         "the plan's (REQUEST INSTEAD) before the script drains the node, or each pod takes a whole GPU",
                         n->name, n->gpu.mig_single_profile, strbuf_str(&who), nwho == 1 ? "s" : "",
                         nwho == 1 ? "its" : "their");
        strbuf_clear(&who);
    }
}

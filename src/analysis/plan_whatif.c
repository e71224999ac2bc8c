/* plan_whatif.c — which Pending GPU pods the plan's layout would let schedule (plan.h).  The
 * non-resource filters are explain's own (explain_node), so `plan` and `explain` never disagree
 * about taints, selectors or cordons; the resource check uses the node's resources after the
 * plan and the spare its group has once the planned workloads hold theirs. */
#include "analysis/plan.h"
#include <stdlib.h>
#include <string.h>
#include "analysis/explain.h"
#include "model/resources.h"
#include "util/strmap.h"

static bool resource_reason(NodeReasonCode code)
{
    return code == NR_NO_DEVICE_PLUGIN || code == NR_RESOURCE_NOT_ADVERTISED ||
           code == NR_EXCEEDS_NODE_CAPACITY || code == NR_INSUFFICIENT;
}

static int64_t expected(const PlanNode *pn, const char *res)
{
    for (size_t i = 0; i < pn->expected.n; i++)
        if (str_eq(pn->expected.items[i].name, res)) return pn->expected.items[i].milli;
    return 0;
}

static const PlanGroupWorkload *planned_workload(const PlanResult *r, const PlanWorkload *w, const Pod *p)
{
    const char *kind, *name;
    char *tofree;
    plan_pod_workload(p, &kind, &name, &tofree);
    const PlanGroupWorkload *found = NULL;
    for (size_t i = 0; i < r->ngroups && !found; i++) {
        const PlanGroup *g = &r->groups[i];
        if (g->strategy == PLAN_NONE) continue;
        for (size_t k = 0; k < g->nworkloads && !found; k++) {
            const PlanWorkload *x = &w[g->assign[g->workloads[k].first].workload];
            if (str_eq(x->ns, p->ns) && str_eq(x->name, name) && str_eq(x->kind ? x->kind : "Pod", kind))
                found = &g->workloads[k];
        }
    }
    free(tofree);
    return found;
}

void plan_whatif(Strvec *out, const Cluster *c, const PlanResult *r, const PlanWorkload *w)
{
    StrMap *spare = strmap_new();          /* "group res" -> milli left + 1 (as a pointer-sized int) */
    for (size_t pi = 0; pi < c->npods; pi++) {
        const Pod *p = &c->pods[pi];
        if (!pod_is_pending_unbound(p) || !pod_requests_gpu(p)) continue;
        if (pod_more(p)->ngates) continue;   /* gated: waits for its controller, not for GPUs */
        const PlanGroupWorkload *gw = planned_workload(r, w, p);
        const char *res = NULL;
        int64_t need = 0;
        if (gw) { res = gw->request_resource; need = (int64_t)gw->request_count * 1000; }
        else
            for (size_t i = 0; i < p->requests.n; i++)
                if (resources_is_gpu(p->requests.items[i].name) && p->requests.items[i].milli > need) {
                    res = p->requests.items[i].name; need = p->requests.items[i].milli;
                }
        if (!res) continue;
        bool fits = false;
        for (size_t gi = 0; gi < r->ngroups && !fits; gi++) {
            const PlanGroup *g = &r->groups[gi];
            if (g->strategy == PLAN_NONE) continue;
            char *key = xasprintf("%zu\x1f%s", gi, res);
            intptr_t left = (intptr_t)strmap_get(spare, key);
            if (!left) {
                int64_t total = 0;
                for (size_t j = 0; j < g->nplan_nodes; j++) total += expected(&g->plan_nodes[j], res);
                for (size_t k = 0; k < g->nworkloads; k++)
                    if (str_eq(g->workloads[k].request_resource, res))
                        total -= (int64_t)g->workloads[k].pods * g->workloads[k].request_count * 1000;
                left = (intptr_t)(total < 0 ? 0 : total) + 1;
            }
            for (size_t j = 0; j < g->nplan_nodes && !fits && left - 1 >= need; j++) {
                const PlanNode *pn = &g->plan_nodes[j];
                if (pn->gpus <= 0 || expected(pn, res) < need) continue;
                const Node *n = cluster_find_node(c, pn->name);
                if (!n) continue;
                NodeResult nr;
                memset(&nr, 0, sizeof nr);         /* explain_node appends to it */
                explain_node(c, p, n, &nr);
                bool admitted = true;
                for (size_t q = 0; q < nr.nreasons; q++) admitted &= resource_reason(nr.reasons[q].code);
                node_result_clear(&nr);
                if (admitted) { fits = true; left -= (intptr_t)need; }
            }
            strmap_put(spare, key, (void *)left);
            free(key);
        }
        if (fits) strvec_pushf(out, "%s/%s", p->ns, p->name);
    }
    strmap_free(spare, NULL);
}

/* plan_group.c — the planner's ground floor: what the stages above share about one product
 * group (plan_internal.h's GroupCtx).  The strategies' names and trade-offs, the assignments'
 * reasons in words, the MIG resource names, what a workload holds now (its MIG profile, share
 * of a GPU, whole GPUs, utilization), and which group nodes become shared pools.  plan_candidates.c and plan_rollout.c build on it,
 * plan.c on them all; nothing here calls upward (scripts/check-objects.py --loops).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plan_internal.h"
#include "analysis/explain.h"
#include "analysis/health.h"
#include "model/resources.h"

const char *plan_strategy_name(PlanStrategy s)
{
    switch (s) {
    case PLAN_MIG: return "mig";
    case PLAN_TIME_SLICING: return "time-slicing";
    case PLAN_MPS: return "mps";
    case PLAN_NONE: break;
    }
    return "none";
}

const char *plan_assignment_why(const PlanAssignment *a)
{
    switch ((PlanWhy)a->why) {
    case PLAN_WHY_NO_USAGE_KEEPS_MIG: return "no usage data: keeps its MIG profile";
    case PLAN_WHY_NO_USAGE: return "no usage data";
    case PLAN_WHY_SEVERAL_GPUS: return "uses several GPUs";
    case PLAN_WHY_FITS_NO_MIG: return "fits no MIG profile";
    case PLAN_WHY_TOO_LARGE_TO_SHARE: return "too large to share safely";
    case PLAN_WHY_NONE: break;
    }
    return NULL;
}

const char *plan_tradeoff(PlanStrategy s)
{
    switch (s) {
    case PLAN_MIG:
        return "MIG: hardware isolation of memory and compute — each instance has its own memory, "
               "cache and SMs, and a fault stays inside it; but the slices are fixed: a workload "
               "cannot grow past its slice, and changing the layout needs the GPU idle";
    case PLAN_MPS:
        return "MPS: each client gets a memory limit (memory/replicas) and a share of the SMs "
               "(active thread percentage 100/replicas), but compute is shared through one MPS "
               "server: one client's fault can affect all clients on the GPU; experimental in "
               "the device plugin";
    case PLAN_TIME_SLICING:
        return "time-slicing: no memory isolation — one workload that outgrows its usual memory "
               "can OOM the others on the GPU; workloads take turns on the whole GPU (context "
               "switching), so latency grows with the number of busy replicas";
    case PLAN_NONE: break;
    }
    return "no change";
}

/* ---- what a workload holds now ---- */

/* "nvidia.com/mig-<profile with + as .>" */
char *plan_mig_resource_name(const MigProfile *p)
{
    char *r = xasprintf("nvidia.com/mig-%s", p->name);
    for (char *q = r; *q; q++) if (*q == '+') *q = '.';
    return r;
}

double plan_profile_share(const MigGpuModel *m, const MigProfile *p)
{
    double c = (double)p->compute / m->compute_slices, s = (double)p->size / m->axis;
    return c > s ? c : s;
}

/* the MIG profile the workload runs on now (mixed: from the resource name; single: the node's
 * profile), or NULL */
const MigProfile *plan_current_profile(const Node *n, const MigGpuModel *m, const PlanWorkload *w)
{
    if (!m || !w->resource) return NULL;
    if (resources_is_mig(w->resource)) {
        char *prof = resources_mig_profile(w->resource);
        const MigProfile *p = mig_model_profile(m, prof);
        free(prof);
        return p;
    }
    if (n && n->gpu.mig_strategy == MIG_SINGLE && n->gpu.mig_single_profile &&
        str_eq(w->resource, "nvidia.com/gpu"))
        return mig_model_profile(m, n->gpu.mig_single_profile);
    return NULL;
}

int plan_mig_replicas(const Node *n, const char *profile_resource)
{
    char *prof = resources_mig_profile(profile_resource);
    int r = 1;
    for (size_t i = 0; prof && i < n->gpu.nmig; i++)
        if (str_eq(n->gpu.mig[i].profile, prof) && n->gpu.mig[i].replicas > 1) r = n->gpu.mig[i].replicas;
    free(prof);
    return r;
}

/* share of physical GPUs held now */
double plan_held_share(const Node *n, const MigGpuModel *m, const PlanWorkload *w)
{
    double count = w->count > 0 ? w->count : 0;
    int replicas = n->gpu.replicas > 1 ? n->gpu.replicas : 1;
    const MigProfile *p = plan_current_profile(n, m, w);
    if (w->resource && resources_is_mig(w->resource)) {
        double share = p ? plan_profile_share(m, p) : 1.0 / 7;
        if (resources_is_shared(w->resource) || plan_mig_replicas(n, w->resource) > 1)
            share /= plan_mig_replicas(n, w->resource);
        return count * share;
    }
    if (p) return count * plan_profile_share(m, p);                    /* single strategy */
    return count / replicas;                                      /* gpu or gpu.shared */
}

/* whole GPUs the workload needs if it does not share: its request for plain GPUs, else 1 */
int plan_whole_need(const Node *n, const MigGpuModel *m, const PlanWorkload *w)
{
    if (w->resource && str_eq(w->resource, "nvidia.com/gpu") && !plan_current_profile(n, m, w) &&
        n->gpu.replicas <= 1)
        return w->count > 1 ? w->count : 1;
    return 1;
}

/* MIG instances the workload needs: its device count when it runs on MIG devices now */
int plan_mig_instances(const Node *n, const MigGpuModel *m, const PlanWorkload *w)
{
    if (w->resource && plan_current_profile(n, m, w) && !resources_is_shared(w->resource) &&
        (!resources_is_mig(w->resource) || plan_mig_replicas(n, w->resource) <= 1))
        return w->count > 1 ? w->count : 1;
    return 1;
}

/* utilization as % of a whole GPU */
double plan_gpu_util(const Node *n, const MigGpuModel *m, const PlanWorkload *w)
{
    if (!w->has_usage) return NAN;
    double u = w->utilization == w->utilization && w->utilization > 0 ? w->utilization : 0;
    const MigProfile *p = plan_current_profile(n, m, w);
    if (p) u *= (double)p->compute / m->compute_slices;
    return u > 100 ? 100 : u;
}

/* ---- the group's nodes ---- */

int plan_str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

bool plan_pod_admits(const GroupCtx *c, size_t k, size_t j)
{
    const Pod *p = c->w[c->idx[k]].pod_obj;
    return !p || explain_pod_admits(p, c->gnodes[j]);
}

/* Pods that nodes admit alike (explain_pod_admits reads the tolerations, the nodeSelector and
 * the required node affinity): the same tolerations and nodeSelector arrays (the pool interns
 * them: equal contents, one pointer) and no node affinity.  The pods of one workload usually
 * are; plan_pool_nodes asked every node about every shared pod (3 million questions on the
 * 1,000-node training cluster).  At most ADMIT_CLASSES; other pods are asked about directly. */
#define ADMIT_CLASSES 64
typedef struct {
    const void *tol[ADMIT_CLASSES], *sel[ADMIT_CLASSES];
    uint32_t ntol[ADMIT_CLASSES], nsel[ADMIT_CLASSES];
    size_t nadmit[ADMIT_CLASSES];      /* how many pool nodes admit the class; SIZE_MAX: not counted yet */
    bool placed[ADMIT_CLASSES];        /* a pod of the class was placed (or found no node) */
    int n;
} AdmitClasses;

/* p's class, -1 when it has none (node affinity, or the classes are full) */
static int admit_class(AdmitClasses *ac, const Pod *p)
{
    if (!p || p->naffinity_terms) return -1;      /* (no pod: every node admits it) */
    const void *tol = pod_more(p)->tolerations, *sel = pod_more(p)->node_selector.items;
    uint32_t ntol = pod_more(p)->ntolerations, nsel = pod_more(p)->node_selector.n;
    for (int i = 0; i < ac->n; i++)
        if (ac->tol[i] == tol && ac->ntol[i] == ntol && ac->sel[i] == sel && ac->nsel[i] == nsel) return i;
    if (ac->n == ADMIT_CLASSES) return -1;
    int i = ac->n++;
    ac->tol[i] = tol; ac->ntol[i] = ntol; ac->sel[i] = sel; ac->nsel[i] = nsel;
    ac->nadmit[i] = SIZE_MAX;
    ac->placed[i] = false;
    return i;
}

/* The nodes that become shared pools: the fewest that hold `need` GPUs (most GPUs first, then
 * by name), so shared workloads consolidate.  chosen (may be NULL) is parallel to c->gnodes.
 * Returns their GPUs. */
int plan_pool_nodes(const GroupCtx *c, int need, const bool *shared, bool *chosen)
{
    size_t n = c->ngnodes;
    bool *used = xcalloc(n ? n : 1, sizeof(bool));
    int have = 0;
    /* each node's healthy GPUs, once: the loops below ask for them per pod and per pool node */
    int *healthy = xcalloc(n ? n : 1, sizeof *healthy);
    for (size_t j = 0; j < n; j++) healthy[j] = health_good_gpus(c->gnodes[j]);
    /* a pod pinned by its constraints takes its node into the pools; the pods with the fewest
     * nodes to go to first, so one node can serve them and the less constrained ones */
    size_t *order = xcalloc(c->n ? c->n : 1, sizeof *order);
    size_t *nadmit = xcalloc(c->n ? c->n : 1, sizeof *nadmit);
    AdmitClasses ac = { .n = 0 };
    int *klass = xcalloc(c->n ? c->n : 1, sizeof *klass);
    size_t no = 0;
    for (size_t k = 0; shared && k < c->n; k++) {
        if (!shared[k]) continue;
        klass[k] = admit_class(&ac, c->w[c->idx[k]].pod_obj);
        if (klass[k] >= 0 && ac.nadmit[klass[k]] != SIZE_MAX) {
            nadmit[k] = ac.nadmit[klass[k]];
        } else {
            for (size_t j = 0; j < n; j++) nadmit[k] += plan_pod_admits(c, k, j);
            if (klass[k] >= 0) ac.nadmit[klass[k]] = nadmit[k];
        }
        size_t at = no++;             /* insertion by nadmit, stable */
        while (at > 0 && nadmit[order[at - 1]] > nadmit[k]) { order[at] = order[at - 1]; at--; }
        order[at] = k;
    }
    for (size_t o = 0; o < no; o++) {
        size_t k = order[o];
        /* a pod admitted alike to one placed before: that one's node (or none) answers it too,
         * as the pool nodes only grow */
        if (klass[k] >= 0 && ac.placed[klass[k]]) continue;
        if (klass[k] >= 0) ac.placed[klass[k]] = true;
        size_t best = SIZE_MAX;
        int bg = 0;
        bool covered = false;
        for (size_t j = 0; j < n && !covered; j++) {
            int gp = healthy[j];
            if (gp <= 0 || !plan_pod_admits(c, k, j)) continue;
            if (used[j]) covered = true;
            else if (best == SIZE_MAX || gp > bg) { best = j; bg = gp; }
        }
        if (!covered && best != SIZE_MAX) { used[best] = true; have += bg; }
    }
    free(order);
    free(nadmit);
    free(klass);
    /* a workload whose pods may not share a node (required pod anti-affinity on the hostname)
     * needs as many pool nodes that admit it as it has shared pods */
    size_t *spread = xcalloc(c->nwid ? c->nwid : 1, sizeof *spread), *first = xcalloc(c->nwid ? c->nwid : 1, sizeof *first);
    for (size_t k = 0; shared && k < c->n; k++) {
        const Pod *p = c->w[c->idx[k]].pod_obj;
        if (!shared[k] || !p || !p->spread_by_node) continue;
        if (!spread[c->wid[k]]++) first[c->wid[k]] = k;
    }
    for (size_t id = 0; id < c->nwid; id++) {
        if (!spread[id]) continue;
        size_t have_nodes = 0;
        for (size_t j = 0; j < n; j++) have_nodes += used[j] && plan_pod_admits(c, first[id], j);
        while (have_nodes < spread[id]) {
            size_t best = SIZE_MAX;
            int bg = 0;
            for (size_t j = 0; j < n; j++) {
                int gp = healthy[j];
                if (used[j] || gp <= 0 || !plan_pod_admits(c, first[id], j)) continue;
                if (best == SIZE_MAX || gp > bg) { best = j; bg = gp; }
            }
            if (best == SIZE_MAX) break;
            used[best] = true;
            have += bg;
            have_nodes++;
        }
    }
    free(spread);
    free(first);
    while (have < need) {
        size_t best = SIZE_MAX;
        int bg = 0;
        for (size_t j = 0; j < n; j++) {
            int gp = healthy[j];
            if (used[j] || gp <= 0) continue;
            if (best == SIZE_MAX || gp > bg || (gp == bg && strcmp(c->gnodes[j]->name, c->gnodes[best]->name) < 0)) {
                best = j; bg = gp;
            }
        }
        if (best == SIZE_MAX) break;
        used[best] = true;
        have += bg;
    }
    if (chosen) memcpy(chosen, used, n * sizeof(bool));
    free(used);
    free(healthy);
    return have;
}

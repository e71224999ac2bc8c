/* explain_queue_preempt.c — whether Kueue would preempt admitted workloads to admit a waiting
 * one, as its classical preemption picks them (kueue pkg/scheduler/preemption/preemption.go
 * findCandidates, common/preemption_policy.go SatisfiesPreemptionPolicy, common/ordering.go
 * CandidatesOrdering):
 *   - within its ClusterQueue, when spec.preemption.withinClusterQueue is not Never: admitted
 *     workloads of lower priority (LowerPriority), or of equal priority created after it too
 *     (LowerOrNewerEqualPriority);
 *   - in its cohort, when spec.preemption.reclaimWithinCohort is not Never: admitted workloads of
 *     the other ClusterQueues that borrow the flavor's resource (use above their nominal quota),
 *     of lower priority (LowerPriority) or any (Any);
 *   - of those, the ones holding the (flavor, resource) it waits for, taken in Kueue's order
 *     (other ClusterQueues first, lower priority first, the newest first) until their GPUs cover
 *     what it needs.
 * Not modelled: borrowWithinCohort, fair sharing, the fill-back of targets Kueue makes after
 * (it may preempt fewer than named here, never more). */
#include "explain_queue_int.h"
#include <stdlib.h>
#include <string.h>

static bool satisfies(const char *policy, const QueueWorkload *w, const QueueWorkload *cand)
{
    if (str_eq(policy, "LowerPriority")) return cand->priority < w->priority;
    if (str_eq(policy, "LowerOrNewerEqualPriority"))
        return cand->priority < w->priority || (cand->priority == w->priority && w->creation < cand->creation);
    return str_eq(policy, "Any");
}

static bool borrows(const QueueDef *d, const char *flavor, const char *res)
{
    const QueueQuota *qq = queue_def_quota(d, flavor, res);
    return qq && qq->used > qq->nominal;
}

typedef struct { const QueueWorkload *w; int64_t g; bool other; } Cand;

static int cmp_cand(const void *a, const void *b)
{
    const Cand *x = a, *y = b;
    if (x->other != y->other) return x->other ? -1 : 1;
    if (x->w->priority != y->w->priority) return x->w->priority < y->w->priority ? -1 : 1;
    if (x->w->creation != y->w->creation) return x->w->creation > y->w->creation ? -1 : 1;
    int c = strcmp(x->w->ns, y->w->ns);
    return c ? c : strcmp(x->w->name, y->w->name);
}

bool explain_queue_preempts(const QueueIndex *qi, size_t i, const QueueDef *d, const char *flavor, const char *res,
                            int64_t need, Strbuf *victims)
{
    const QueueState *q = qi->q;
    const QueueWorkload *w = &q->workloads[i];
    if (d->system != QSYS_KUEUE || need <= 0) return false;
    bool within = d->preempt_within && !str_eq(d->preempt_within, "Never");
    bool reclaim = d->cohort && d->preempt_reclaim && !str_eq(d->preempt_reclaim, "Never");
    if (!within && !reclaim) return false;
    Cand *cands = NULL;
    size_t n = 0, cap = 0;
    for (size_t k = 0; k < q->nworkloads; k++) {
        const QueueWorkload *c = &q->workloads[k];
        if (k == i || c->system != QSYS_KUEUE || !c->reserved || c->finished || !c->cluster_queue) continue;
        int64_t g = queue_workload_holds(c, flavor, res);
        if (g <= 0) continue;
        bool other = !str_eq(c->cluster_queue, d->name);
        if (!other && !(within && satisfies(d->preempt_within, w, c))) continue;
        if (other) {
            const QueueDef *cd = qi->def[k];
            if (!reclaim || !cd || !str_eq(cd->cohort, d->cohort) || !borrows(cd, flavor, res) ||
                !satisfies(d->preempt_reclaim, w, c))
                continue;
        }
        ARRAY_GROW(cands, n, cap);
        cands[n++] = (Cand){ c, g, other };
    }
    if (n > 1) qsort(cands, n, sizeof *cands, cmp_cand);
    int64_t freed = 0;
    size_t used = 0;
    while (used < n && freed < need) freed += cands[used++].g;
    bool enough = freed >= need;
    for (size_t k = 0; enough && k < used; k++)
        strbuf_addf(victims, "%s%s/%s", victims->len ? ", " : "", cands[k].w->ns, cands[k].w->name);
    free(cands);
    return enough;
}

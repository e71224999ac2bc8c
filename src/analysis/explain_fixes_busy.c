/* explain_fixes_busy.c — fixes for a pod stopped by busy nodes (explain_fixes.c dispatches by
 * verdict): the fewest pods whose end frees a node, preemption of lower-priority pods, a lower
 * request of another resource, each re-checked on the node; nodes that share their GPUs
 * (time-slicing, MPS, MIG single) are named in one note per kind, since ending a pod there
 * frees replicas or slices, not GPUs.  Bounded: at most MAX_FIXES_PER_KIND of each kind.
 */
#include "explain_int.h"
#include <stdlib.h>
#include <string.h>

#define MAX_FIXES_PER_KIND 3

static int cmp_victim(const void *a, const void *b)
{
    const PodHold *x = a, *y = b;
    if (x->pod->priority != y->pod->priority) return x->pod->priority < y->pod->priority ? -1 : 1;
    if (x->milli != y->milli) return x->milli > y->milli ? -1 : 1;
    int c = strcmp(x->pod->ns, y->pod->ns);
    return c ? c : strcmp(x->pod->name, y->pod->name);
}

/* true when preemption frees node r for the pod (a fix, or a note under preemptionPolicy Never) */
static bool fix_preemption(Ctx *x, const NodeResult *r, const NodeReason *ins, bool *possible)
{
    bool freed_node = false;
    PodHold *cand = xcalloc(ins->nholders + 1, sizeof *cand);
    size_t ncand = 0;
    for (size_t h = 0; h < ins->nholders; h++)
        if (ins->holders[h].pod->priority < x->p->priority) cand[ncand++] = ins->holders[h];
    qsort(cand, ncand, sizeof *cand, cmp_victim);
    Relief rl = { xcalloc(ncand + 1, sizeof(Pod *)), 0 };
    int64_t need = ins->requested - ins->free, freed = 0;
    Strvec victims = STRVEC_INIT, names = STRVEC_INIT;
    for (size_t h = 0; h < ncand && freed < need; h++) {
        rl.ended[rl.nended++] = cand[h].pod;
        strvec_pushf(&victims, "%s/%s (priority %d)", cand[h].pod->ns, cand[h].pod->name, cand[h].pod->priority);
        strvec_pushf(&names, "%s/%s", cand[h].pod->ns, cand[h].pod->name);
        freed += cand[h].milli;
    }
    NodeResult after = { 0 };
    if (freed >= need && rl.nended) explain_node_relief(x->ix, x->p, r->node, &rl, &after);
    if (freed >= need && rl.nended && after.nreasons == 0) {
        *possible = freed_node = true;
        Strbuf sb = STRBUF_INIT;
        explain_add_names(&sb, &victims);
        if (str_eq(pod_more(x->p)->preemption_policy, "Never")) {
            strvec_pushf(&x->e->notes, "preemption could free node %s by evicting %s, but the pod has "
                         "preemptionPolicy: Never", r->node->name, strbuf_str(&sb));
        } else {
            FixInfo *fi = explain_fix_add(x, EFFORT_NONE, "preemption can evict lower-priority %s on node %s (this pod has "
                                  "priority %d); the pod then fits there.  The scheduler does it on a later attempt "
                                  "unless a PodDisruptionBudget blocks it", strbuf_str(&sb), r->node->name, x->p->priority);
            if (fi) { fi->fits_on = xstrdup(r->node->name); explain_info_end_pods(fi, &names); }
        }
        strbuf_clear(&sb);
    }
    node_result_clear(&after);
    strvec_clear(&victims); strvec_clear(&names);
    free(rl.ended);
    free(cand);
    return freed_node;
}

/* one note per kind of sharing for the busy nodes where ending pods is not offered: their
 * names bounded (explain_add_names), not a note per node */
static void note_shared_nodes(Ctx *x, const Strvec *names, const char *how)
{
    if (!names->n) return;
    Strbuf sb = STRBUF_INIT;
    explain_add_names(&sb, names);
    strvec_pushf(&x->e->notes, "%s %s %s GPUs (%s): %lld %s there are replicas or slices, not "
                 "%lld GPUs, so no pod's end is offered as a fix there", names->n == 1 ? "node" : "nodes",
                 strbuf_str(&sb), names->n == 1 ? "shares its" : "share their", how,
                 (long long)explain_milli_units(x->gpu_req), x->gpu, (long long)explain_milli_units(x->gpu_req));
    strbuf_clear(&sb);
}

/* Preemption as the default scheduler does it (any lower-priority pod on the node) is not how
 * the batch schedulers do it, so for their pods none is offered; a note says why where
 * lower-priority pods hold a node it needs:
 *   - Volcano preempts only when its configuration lists the preempt action, which its default
 *     does not ("enqueue, allocate, backfill": volcano
 *     installer/helm/chart/volcano/config/volcano-scheduler.conf at ed72c7c, line 1);
 *   - KAI preempts whole jobs of its own queue only, of lower priority and preemptible (below
 *     priority 100 unless their PodGroup says otherwise), and takes other queues' GPUs back by
 *     its reclaim action, by fair share (NVIDIA/KAI-Scheduler pkg/scheduler/actions/preempt/
 *     preempt.go:124-140 buildFilterFuncForPreempt, pkg/common/podgroup/preemptible.go:10
 *     at 72de64fc); neither is judged here. */
static const char *batch_scheduler_note(const Ctx *x)
{
    const char *s = pod_more(x->p)->scheduler_name;
    if (str_eq(s, "volcano"))
        return "its scheduler is Volcano, which preempts only when its configuration (ConfigMap "
               "volcano-scheduler-configmap) lists the preempt action, and its default (enqueue, allocate, "
               "backfill) does not";
    if (str_eq(s, "kai-scheduler"))
        return "its scheduler is KAI, which preempts only preemptible jobs of lower priority in the pod's own "
               "queue and takes other queues' GPUs back by fair share (reclaim), which are not judged here";
    return NULL;
}

static bool holds_lower(const Ctx *x, const NodeReason *ins)
{
    for (size_t h = 0; h < ins->nholders; h++) if (ins->holders[h].pod->priority < x->p->priority) return true;
    return false;
}

void explain_fixes_busy(Ctx *x)
{
    size_t ends = 0, preemptions = 0;
    const char *batch = batch_scheduler_note(x);     /* NULL: the default scheduler's preemption */
    bool preempt = false, by_priority = !batch, lower_held = false;
    char a[48], b[48];
    Strvec mig_single = STRVEC_INIT, sliced = STRVEC_INIT;
    for (size_t i = 0; i < x->e->nnodes; i++) {
        if (!x->flags[i].admits || !x->flags[i].could_hold || x->flags[i].cls != CL_BUSY) continue;
        const NodeResult *r = &x->e->nodes[i];
        const NodeReason *ins = explain_find_code(r, NR_INSUFFICIENT, x->gpu);
        if (ins && !explain_node_serves_request(x->ix, x->p, x->p, r->node)) {
            strvec_push(r->node->gpu.mig_strategy == MIG_SINGLE ? &mig_single : &sliced, r->node->name);
            continue;
        }
        if (ins) {
            /* one pod whose end is enough, else the fewest pods */
            Relief rl;
            Strvec names = STRVEC_INIT;
            if (ends < MAX_FIXES_PER_KIND && explain_fits_after_ending(x, x->p, r->node, &rl, &names)) {
                Strbuf sb = STRBUF_INIT;
                explain_add_names(&sb, &names);
                int64_t f = explain_node_free_relief(x->ix, r->node, x->p, x->gpu, &rl);
                FixInfo *fi = explain_fix_add(x, EFFORT_END_PODS, "when %s end%s, node %s has %lld %s free and the pod fits there",
                                      strbuf_str(&sb), names.n == 1 ? "s" : "", r->node->name,
                                      (long long)explain_milli_units(f), x->gpu);
                if (fi) { fi->fits_on = xstrdup(r->node->name); explain_info_end_pods(fi, &names); ends++; }
                strbuf_clear(&sb);
                free(rl.ended);
            }
            strvec_clear(&names);
            /* the first nodes (cluster order) preemption frees, as many as the other kinds; a pod
             * nominated to a node has its preemption under way (explain.c says so, once) */
            if (pod_more(x->p)->nominated_node) preempt = true;
            else if (!by_priority) lower_held = lower_held || holds_lower(x, ins);
            else if (preemptions < MAX_FIXES_PER_KIND && fix_preemption(x, r, ins, &preempt)) preemptions++;
            continue;
        }
        /* the GPUs are free here; lower another request if that makes it fit */
        for (size_t k = 0; k < r->nreasons; k++) {
            const NodeReason *rr = &r->reasons[k];
            if (rr->code == NR_TOO_MANY_PODS) {
                strvec_pushf(&x->e->notes, "node %s has the GPUs free but is at its pod limit (%lld pods): move other "
                             "pods off it, or raise the kubelet's maxPods there", r->node->name,
                             (long long)explain_milli_units(rr->allocatable));
                continue;
            }
            if (rr->code != NR_INSUFFICIENT || rr->free <= 0) continue;
            PodEdit d;
            explain_edit_begin(&d, x->p);
            rlist_set(&d.req, rr->resource, rr->free);
            explain_edit_sync(&d);
            NodeResult after = { 0 };
            explain_node_relief(x->ix, &d.q, r->node, NULL, &after);
            if (after.nreasons == 0) {
                explain_fmt_amount(rr->resource, rr->free, b, sizeof b);
                explain_fmt_amount(rr->resource, rr->requested, a, sizeof a);
                FixInfo *fi = explain_fix_add(x, EFFORT_POD, "lower the pod's %s request from %s to at most %s: the pod then fits "
                                      "node %s", rr->resource, a, b, r->node->name);
                if (fi) { fi->fits_on = xstrdup(r->node->name); rlist_set(&fi->requests, rr->resource, rr->free); }
            }
            node_result_clear(&after);
            explain_edit_end(&d);
        }
    }
    note_shared_nodes(x, &mig_single, "MIG single strategy");
    note_shared_nodes(x, &sliced, "time-slicing or MPS");
    strvec_clear(&mig_single);
    strvec_clear(&sliced);
    if (lower_held)
        strvec_pushf(&x->e->notes, "lower-priority pods hold the nodes it needs, but %s: no preemption is offered",
                     batch);
    /* any other scheduler (YuniKorn, scheduler-plugins, a second kube-scheduler profile such as
     * HAMi's): the preemption offered is kube-scheduler's, which that scheduler may not do */
    const char *sched = pod_more(x->p)->scheduler_name;
    if (preemptions && sched && *sched && !str_eq(sched, "default-scheduler"))
        strvec_pushf(&x->e->notes, "the preemption offered is kube-scheduler's (its DefaultPreemption plugin); the "
                     "pod's scheduler is %s, which preempts so only if it is a kube-scheduler profile that keeps "
                     "that plugin", sched);
    if (by_priority && !preempt && !str_eq(pod_more(x->p)->preemption_policy, "Never") && x->e->verdict != V_UNKNOWN)
        strvec_pushf(&x->e->notes, "no set of lower-priority pods (priority < %d) frees enough %s on one node, "
                     "so preemption cannot help; a higher PriorityClass would let it evict others", x->p->priority, x->gpu);
}


/* explain_dra.c — why a pod that gets its GPUs through DRA ResourceClaims is Pending.
 *
 * The scheduler's DynamicResources plugin (docs/dra.md has the upstream references):
 *   PreEnqueue/PreFilter: every claim of the pod must exist (`resourceclaim "X" not found`),
 *     not be being deleted, and name device classes that exist ("request R: device class C
 *     does not exist"); an allocated claim restricts the pod to the nodes of its allocation.
 *   Filter, per node: the structured allocator must find devices for every request of every
 *     unallocated claim among the devices the node's ResourceSlices publish that no other
 *     claim holds ("cannot allocate all claims"); an allocated claim whose node selector does
 *     not match fails the node ("resourceclaim not available on the node").
 * Here the non-DRA filters of explain_node (cordon, readiness, taints, selectors, cpu/memory,
 * pods) run first, as in the scheduler's filter order, then each request is matched against
 * the node's devices: the class's CEL selectors and the request's, evaluated for the forms
 * dra_cel_match reads (others count as matching, and a note says so), count or All, the
 * firstAvailable alternatives in order, each device used once across the pod's requests (a
 * greedy pass: the allocator backtracks, so it may find a fit this misses; never the reverse
 * on the common single-class claims).
 */
#include "explain_dra_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the loader could not read the claims (loader_dra.c words the warning so) */
static bool claims_unreadable(const Cluster *c)
{
    for (size_t i = 0; i < c->warnings.n; i++)
        if (str_starts_with(c->warnings.v[i], "resourceclaims.resource.k8s.io: ")) return true;
    return false;
}

bool explain_dra_applies(const Cluster *c, const Pod *p)
{
    if (pod_requests_gpu(p) || !p->nclaims) return false;
    return dra_pod_wants_gpu(c->dra, p) || claims_unreadable(c);   /* unreadable: it may want GPUs */
}

bool explain_dra_takes(const Cluster *c, const Pod *p)
{
    return !pod_requests_gpu(p) && p->nclaims && (c->dra || claims_unreadable(c));
}

static void add_reason(NodeResult *r, NodeReasonCode code, const char *resource, int64_t req, int64_t freen,
                       int64_t total, char *detail)
{
    r->reasons = xrealloc(r->reasons, (r->nreasons + 1) * sizeof *r->reasons);
    NodeReason *x = &r->reasons[r->nreasons++];
    memset(x, 0, sizeof *x);
    x->code = code;
    x->resource = xstrdup(resource);
    x->requested = req * 1000;
    x->free = freen * 1000;
    x->allocatable = total * 1000;
    x->detail = detail;
}


/* the node's devices (indices into d->devices) */
static void node_devices(DraCtx *x, const char *node)
{
    x->ndevs = 0;
    for (size_t i = dra_node_first(x->d, node); i; i = x->d->devices[i - 1].node_next) x->devs[x->ndevs++] = i - 1;
    memset(x->taken, 0, x->ndevs * sizeof *x->taken);
}

typedef struct { int64_t need, matching, freen; } AltCount;

static AltCount count_alt(DraCtx *x, const DraAlternative *a)
{
    AltCount k = { a->count, 0, 0 };
    for (size_t i = 0; i < x->ndevs; i++) {
        const DraDevice *v = &x->d->devices[x->devs[i]];
        DraMatch m = dra_alt_match(x->d, a, v);
        if (m == DRA_MATCH_NO) continue;
        if (m == DRA_MATCH_UNKNOWN) x->unknown_selector = true;
        k.matching++;
        if (!x->taken[i] && !dra_device_busy(x->d, v)) k.freen++;
    }
    if (str_eq(a->mode, "All")) k.need = k.matching ? k.matching : 1;
    return k;
}

static void take_alt(DraCtx *x, const DraAlternative *a, int64_t n)
{
    for (size_t i = 0; i < x->ndevs && n > 0; i++) {
        const DraDevice *v = &x->d->devices[x->devs[i]];
        if (x->taken[i] || dra_device_busy(x->d, v) || dra_alt_match(x->d, a, v) == DRA_MATCH_NO) continue;
        x->taken[i] = true;
        n--;
    }
}

/* pods holding the devices a request matches on the node: the pods the claims are reserved for */
static void add_holders(DraCtx *x, NodeReason *r, const DraAlternative *a)
{
    for (size_t i = 0; i < x->ndevs; i++) {
        const DraDevice *v = &x->d->devices[x->devs[i]];
        if (!v->claim || dra_alt_match(x->d, a, v) == DRA_MATCH_NO) continue;
        const DraClaim *cl = &x->d->claims[v->claim - 1];
        for (size_t k = 0; k < cl->reserved_for.n; k++) {
            const Pod *q = cluster_find_pod(x->c, cl->ns, cl->reserved_for.v[k]);
            if (!q) continue;
            size_t j = 0;
            while (j < r->nholders && r->holders[j].pod != q) j++;
            if (j == r->nholders) {
                r->holders = xrealloc(r->holders, (r->nholders + 1) * sizeof *r->holders);
                r->holders[r->nholders++] = (PodHold){ q, 0, false };
            }
            r->holders[j].milli += 1000;
        }
    }
}

/* the DRA reasons of one node, appended to res */
/* x->texts for every request of every unallocated GPU claim, in dra_node's order */
static void make_texts(DraCtx *x)
{
    size_t n = 0, cap = 0;
    for (size_t ci = 0; ci < x->nclaims; ci++) {
        const PodClaim *pc = &x->claims[ci];
        const DraClaim *cl = pc->claim;
        if (!cl || !cl->gpu || cl->allocated) continue;
        for (size_t ri = 0; ri < cl->nrequests; ri++) {
            const DraRequest *rq = &cl->requests[ri];
            ARRAY_GROW(x->texts, n, cap);
            if (!rq->nalts) { memset(&x->texts[n++], 0, sizeof *x->texts); continue; }
            const DraAlternative *a = &rq->alts[0];
            char *what = explain_dra_alt_text(a);
            x->texts[n].resource = xasprintf("claim %s/%s (%s)", pc->label, rq->name, a->device_class ? a->device_class : "?");
            x->texts[n].none = xasprintf("no device published on the node matches request %s of claim %s: %s%s", rq->name,
                                         pc->label, what, rq->nalts > 1 ? " (nor its other alternatives)" : "");
            x->texts[n].detail = xasprintf("request %s of claim %s: %s", rq->name, pc->label, what);
            free(what);
            n++;
        }
    }
    x->ntexts = n;
}

static void dra_node(DraCtx *x, const Node *n, NodeResult *res)
{
    node_devices(x, n->name);
    size_t ti = 0;
    for (size_t ci = 0; ci < x->nclaims; ci++) {
        const PodClaim *pc = &x->claims[ci];
        const DraClaim *cl = pc->claim;
        if (!cl || !cl->gpu) continue;
        if (cl->allocated) {
            if (cl->node && !str_eq(cl->node, n->name))
                add_reason(res, NR_CLAIM_ELSEWHERE, pc->label, 0, 0, 0,
                           xasprintf("claim %s is allocated on node %s", pc->label, cl->node));
            continue;
        }
        for (size_t ri = 0; ri < cl->nrequests; ri++, ti++) {
            const DraRequest *rq = &cl->requests[ri];
            bool done = false;
            AltCount first = { 0, 0, 0 };
            for (size_t ai = 0; ai < rq->nalts && !done; ai++) {
                AltCount k = count_alt(x, &rq->alts[ai]);
                if (ai == 0) first = k;
                if (k.matching > 0 && k.freen >= k.need) { take_alt(x, &rq->alts[ai], k.need); done = true; }
            }
            if (done || !rq->nalts) continue;
            const DraAlternative *a = &rq->alts[0];
            const char *resource = x->texts[ti].resource;
            if (first.matching == 0)
                add_reason(res, NR_NO_MATCHING_DEVICE, resource, first.need, 0, 0, xstrdup(x->texts[ti].none));
            else if (first.matching < first.need)
                add_reason(res, NR_EXCEEDS_NODE_CAPACITY, resource, first.need, first.freen, first.matching,
                           xstrdup(x->texts[ti].detail));
            else {
                add_reason(res, NR_INSUFFICIENT, resource, first.need, first.freen, first.matching,
                           xstrdup(x->texts[ti].detail));
                add_holders(x, &res->reasons[res->nreasons - 1], a);
            }
        }
    }
}

static bool is_dra_reason(const NodeReason *r)
{
    return r->code == NR_NO_MATCHING_DEVICE || r->code == NR_CLAIM_ELSEWHERE ||
           ((r->code == NR_INSUFFICIENT || r->code == NR_EXCEEDS_NODE_CAPACITY) && str_starts_with(r->resource, "claim "));
}

static void resolve_claims(DraCtx *x)
{
    const Pod *p = x->p;
    x->claims = xcalloc(p->nclaims ? p->nclaims : 1, sizeof *x->claims);
    for (size_t i = 0; i < p->nclaims; i++) {
        const PodClaimRef *ref = &p->claims[i];
        PodClaim *pc = &x->claims[x->nclaims++];
        pc->pod_claim = ref->name;
        if (ref->claim) {
            pc->claim = dra_find_claim(x->d, p->ns, ref->claim);
            pc->label = xasprintf("%s/%s", p->ns, ref->claim);
            if (!pc->claim && !x->missing_claim)
                x->missing_claim = claims_unreadable(x->c)
                    ? xasprintf("ResourceClaim %s could not be read (see the warnings): its devices cannot be judged",
                                pc->label)
                    : xasprintf("ResourceClaim %s does not exist: the scheduler waits for it", pc->label);
            if (pc->claim && pc->claim->deleting && !x->missing_claim)   /* dynamicresources.go foreachPodResourceClaim */
                x->missing_claim = xasprintf("ResourceClaim %s is being deleted: the scheduler waits for it", pc->label);
        } else if (ref->template_name) {
            pc->claim = dra_find_template(x->d, p->ns, ref->template_name);
            pc->from_template = true;
            pc->label = xasprintf("%s (not created yet, template %s)", ref->name, ref->template_name);
            if (!pc->claim && !x->missing_claim)
                x->missing_claim = xasprintf("ResourceClaimTemplate %s/%s does not exist: the pod's claim cannot be "
                                             "made", p->ns, ref->template_name);
        } else {
            pc->label = xstrdup(ref->name);
        }
        const DraClaim *cl = pc->claim;
        for (size_t r = 0; cl && cl->gpu && !x->missing_class && r < cl->nrequests; r++)
            for (size_t a = 0; a < cl->requests[r].nalts; a++) {
                const char *k = cl->requests[r].alts[a].device_class;
                if (!dra_find_class(x->d, k) && !cl->allocated) {
                    x->missing_class = xasprintf("request %s of claim %s: device class %s does not exist",
                                                 cl->requests[r].name, pc->label, k ? k : "(none)");
                    break;
                }
            }
    }
}









static void decide(DraCtx *x, const NodeFlags *fl)
{
    Explanation *e = x->e;
    const Cluster *c = x->c;
    const PodMore *more = pod_more(x->p);
    if (more->ngates) {
        e->verdict = V_GATED;
        e->summary = xasprintf("scheduling gates: %s%s", more->gates[0], more->ngates > 1 ? ", ..." : "");
        return;
    }
    if (x->missing_claim) {
        e->verdict = V_UNKNOWN;
        e->summary = xstrdup(x->missing_claim);
        return;
    }
    if (x->missing_class) {
        e->verdict = V_RESOURCE_NAME;
        e->summary = xstrdup(x->missing_class);
        explain_dra_note_device_plugin(x);
        return;
    }
    size_t fits = SIZE_MAX, could = 0, sel_ok = 0;
    for (size_t i = 0; i < e->nnodes; i++) {
        if (e->node_rank[i] == 0 && fits == SIZE_MAX) fits = i;
        if (e->node_rank[i] <= 2) could++;
        if (e->node_rank[i] == 2 && fl[i].sel_ok) sel_ok++;
    }
    if (fits != SIZE_MAX) {
        e->verdict = V_UNKNOWN;
        e->summary = xasprintf("node %s has the devices free now: the scheduler has not retried, or stops the pod "
                               "for a reason that is not a device", c->nodes[fits].name);
        return;
    }
    bool any_e = false;
    for (size_t i = 0; i < e->nnodes; i++) any_e |= e->node_rank[i] == 1;
    if (!any_e) {
        if (!could) {
            e->verdict = V_TOO_LARGE;
            /* the request nothing could ever hold */
            for (size_t i = 0; i < e->nnodes && !e->summary; i++)
                for (size_t k = 0; k < e->nodes[i].nreasons; k++) {
                    const NodeReason *r = &e->nodes[i].reasons[k];
                    if (r->code == NR_EXCEEDS_NODE_CAPACITY && is_dra_reason(r)) {
                        e->summary = xasprintf("no node publishes enough matching devices: %s", r->detail);
                        break;
                    }
                }
            if (!e->summary)
                for (size_t i = 0; i < e->nnodes && !e->summary; i++)
                    for (size_t k = 0; k < e->nodes[i].nreasons; k++)
                        if (e->nodes[i].reasons[k].code == NR_NO_MATCHING_DEVICE) {
                            const char *d = e->nodes[i].reasons[k].detail;
                            const char *m = strstr(d, "matches ");
                            e->summary = xasprintf("no node publishes a device that %s", m ? m : d);
                            break;
                        }
            if (!e->summary) e->summary = xstrdup("no node could ever hold the pod");
            explain_dra_note_published(x);
        } else {
            e->verdict = sel_ok ? V_TAINT : V_SELECTOR;
            e->summary = xstrdup(sel_ok ? "the nodes with matching devices have taints the pod does not tolerate"
                                        : "the nodes with matching devices do not match the pod's node selector or affinity");
        }
        return;
    }
    /* nodes that admit the pod and could hold it: busy, not ready, cordoned */
    Busy best = { SIZE_MAX, -1, 0, NULL };
    int64_t sum_free = 0, need = 0;
    size_t busy = 0, nready = 0;
    for (size_t i = 0; i < e->nnodes; i++) {
        if (e->node_rank[i] != 1) continue;
        const NodeResult *r = &e->nodes[i];
        if (explain_has_code(r, NR_NOT_READY) || explain_has_code(r, NR_UNSCHEDULABLE)) { nready++; continue; }
        for (size_t k = 0; k < r->nreasons; k++) {
            const NodeReason *x_ = &r->reasons[k];
            if (x_->code != NR_INSUFFICIENT || !is_dra_reason(x_)) continue;
            busy++;
            sum_free += x_->free / 1000;
            need = x_->requested / 1000;
            if (x_->free / 1000 > best.freen) best = (Busy){ i, x_->free / 1000, x_->requested / 1000, x_ };
            break;
        }
    }
    if (busy) {
        bool frag = busy > 1 && sum_free >= need;
        e->verdict = frag ? V_FRAGMENTED : V_INSUFFICIENT;
        e->summary = xasprintf("%s: %s; most free on one node: %lld of %lld (%s)",
                               frag ? "matching devices are free on several nodes but none has enough"
                                    : "matching devices are held by other claims",
                               best.r->detail, (long long)best.freen, (long long)(best.r->allocatable / 1000),
                               c->nodes[best.node].name);
        explain_dra_fix_end_holders(x, &best);
        explain_dra_note_idle_claims(x, &c->nodes[best.node]);
        return;
    }
    bool notready = false;
    for (size_t i = 0; i < e->nnodes; i++) if (e->node_rank[i] == 1 && explain_has_code(&e->nodes[i], NR_NOT_READY)) notready = true;
    e->verdict = notready ? V_NOT_READY : nready ? V_UNSCHEDULABLE : V_UNKNOWN;
    e->summary = xstrdup(notready ? "the nodes with matching devices are not Ready"
                         : nready ? "the nodes with matching devices are cordoned"
                                  : "the nodes with matching devices stop the pod for other reasons (see the nodes)");
}

/* The scheduler's counts against the recomputation: DynamicResources runs after the node,
 * taint, affinity and resource filters, so a node counts for it when nothing earlier stops it. */
static void reconcile_dra(DraCtx *x)
{
    Explanation *e = x->e;
    const SchedMessage *m = explanation_sched(e);
    e->agrees = true;
    if (m->kind != SM_FIT_ERROR) return;
    int sched_dra = -1, sim_dra = 0;
    for (size_t i = 0; i < m->filter.nreasons; i++) {
        const SchedReason *r = &m->filter.reasons[i];
        if (r->code == SC_DYNAMIC_RESOURCES) {
            if (r->count >= 0) sched_dra = (sched_dra < 0 ? 0 : sched_dra) + r->count;
            strvec_pushf(&e->notes, "the scheduler's DynamicResources: \"%s\"%s", r->text,
                         r->count >= 0 ? "" : " (before any node was tried)");
        }
    }
    for (size_t i = 0; i < e->nnodes; i++) {
        const NodeResult *r = &e->nodes[i];
        bool earlier = false, dra = false;
        for (size_t k = 0; k < r->nreasons; k++) {
            if (is_dra_reason(&r->reasons[k])) dra = true;
            else if (r->reasons[k].code != NR_NOT_READY) earlier = true;
        }
        if (dra && !earlier) sim_dra++;
    }
    if (sched_dra >= 0 && sched_dra != sim_dra) {
        e->agrees = false;
        strvec_pushf(&e->disagreements, "scheduler: %d node(s) cannot allocate the claims; recomputed now: %d",
                     sched_dra, sim_dra);
    }
    if (m->filter.total >= 0 && (size_t)m->filter.total != x->c->nnodes) {
        e->agrees = false;
        strvec_pushf(&e->disagreements, "the scheduler counted %d node(s); the cluster has %zu now", m->filter.total,
                     x->c->nnodes);
    }
}

void explain_dra_pod(const ExplainIndex *ix, const Pod *p, bool with_fixes, Explanation *e)
{
    const Cluster *c = ix->c;
    static const DraState no_dra;              /* claims unreadable and nothing else of DRA */
    DraCtx x = { .c = c, .d = c->dra ? c->dra : &no_dra, .p = p, .e = e };
    resolve_claims(&x);
    e->nnodes = c->nnodes;
    e->nodes = c->nnodes ? xcalloc(c->nnodes, sizeof *e->nodes) : NULL;
    e->node_rank = c->nnodes ? xcalloc(c->nnodes, 1) : NULL;
    NodeFlags *fl = c->nnodes ? xcalloc(c->nnodes, sizeof *fl) : NULL;
    x.devs = xcalloc(x.d->ndevices ? x.d->ndevices : 1, sizeof *x.devs);
    x.taken = xcalloc(x.d->ndevices ? x.d->ndevices : 1, sizeof *x.taken);
    make_texts(&x);
    for (size_t i = 0; i < c->nnodes; i++) {
        const Node *n = &c->nodes[i];
        NodeResult *r = &e->nodes[i];
        explain_node_relief(ix, p, n, NULL, r);
        dra_node(&x, n, r);
        fl[i].sel_ok = !explain_has_code(r, NR_NODE_SELECTOR_MISMATCH) && !explain_has_code(r, NR_NODE_AFFINITY_MISMATCH);
        fl[i].taint_ok = !explain_has_code(r, NR_UNTOLERATED_TAINT);
        bool could = !explain_has_code(r, NR_NO_MATCHING_DEVICE) && !explain_has_code(r, NR_CLAIM_ELSEWHERE) &&
                     !explain_has_code(r, NR_EXCEEDS_NODE_CAPACITY);
        e->node_rank[i] = !r->nreasons ? 0 : !could ? 3 : fl[i].sel_ok && fl[i].taint_ok ? 1 : 2;
    }
    explain_dra_set_gpus(&x);
    decide(&x, fl);
    if (!with_fixes) {
        for (size_t i = 0; i < e->fixes.n; i++) explain_fix_info_release(&e->fix_info[i]);
        free(e->fix_info);
        e->fix_info = NULL;
        strvec_clear(&e->fixes);
    }
    explain_dra_claim_notes(&x);
    if (x.unknown_selector)
        strvec_push(&e->notes, "a CEL selector has a form this tool does not evaluate: devices it names were counted "
                               "as matching");
    if (e->verdict != V_GATED) reconcile_dra(&x);
    for (size_t i = 0; i < x.nclaims; i++) free(x.claims[i].label);
    free(x.claims);
    free(x.devs); free(x.taken); free(fl);
    free(x.missing_class); free(x.missing_claim);
    for (size_t i = 0; i < x.ntexts; i++) { free(x.texts[i].resource); free(x.texts[i].none); free(x.texts[i].detail); }
    free(x.texts);
}

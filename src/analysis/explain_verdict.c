/* explain_verdict.c — the verdict as a table of stages, each a small function that either
 * decides (sets verdict and summary) or passes.  The order is the one written in explain.h,
 * product.md and the man page; explain_fixes.c adds the fixes for the verdict reached.
 *
 * The precedence among the nodes that admit the pod, as ONE rule (man page VERDICTS):
 *   E = the nodes the pod's own constraints admit that could ever hold the request, counted
 *   as each node advertises it per its strategy (physical GPUs; MIG devices on a MIG single
 *   node; MIG profiles only where MIG capability is yes).  Each node of E is classed by its
 *   most severe blocker — NotReady > cordoned > NoDevicePlugin > ResourceName > allocatable
 *   too small > busy > fits — where a node without a running device plugin is NoDevicePlugin
 *   only when its plugin, as configured for that node (GFD sharing labels or its device-plugin
 *   config, MIG strategy, MIG capability), would advertise the requested name, and otherwise
 *   ResourceName (the request is, or would be, offered there only under another name).  The
 *   verdict is the first class present in the order fits, busy, NoDevicePlugin, ResourceName,
 *   TooLarge, NotReady, Unschedulable (explain_node_flags in explain_node.c classes; the stages below
 *   test the classes in that order).
 */
#include "explain_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* E: the nodes the pod's own constraints admit and that could ever hold the request */
static bool in_e(const Ctx *x, size_t i) { return x->flags[i].admits && x->flags[i].could_hold; }

static size_t count_e_class(const Ctx *x, NodeClass cls, Strvec *names)
{
    size_t n = 0;
    for (size_t i = 0; i < x->e->nnodes; i++) {
        if (!in_e(x, i) || x->flags[i].cls != cls) continue;
        n++;
        if (names) strvec_push(names, x->e->nodes[i].node->name);
    }
    return n;
}

static char *names_line(const Strvec *v)
{
    Strbuf sb = STRBUF_INIT;
    explain_add_names(&sb, v);
    return strbuf_detach(&sb);
}

/* ---------------------------------------------------------------- stages */

static bool stage_gated(Ctx *x)
{
    Strvec gates = pod_gates(x->p);
    if (!gates.n) return false;
    x->e->verdict = V_GATED;
    char *g = names_line(&gates);
    x->e->summary = xasprintf("scheduling gates: %s", g);
    free(g);
    return true;
}

static bool stage_no_nodes(Ctx *x)
{
    if (x->c->nnodes) return false;
    x->e->verdict = V_UNKNOWN;
    x->e->summary = xstrdup("the cluster has no nodes (none in the dump or none visible): nothing to recompute");
    return true;
}

/* the largest physical GPU count, and its node */
static int largest_physical(const Ctx *x, const char **node)
{
    int best = 0;
    *node = NULL;
    for (size_t i = 0; i < x->ix->n; i++)
        if (x->ix->nodes[i].physical > best) { best = x->ix->nodes[i].physical; *node = x->ix->nodes[i].node->name; }
    return best;
}

static void summary_too_large_physical(Ctx *x)
{
    const char *big;
    int most = largest_physical(x, &big);
    long long want = (long long)explain_milli_units(x->gpu_req);
    if (!x->gpu_req) {
        x->e->summary = xstrdup("no node has enough allocatable cpu/memory for the pod, even when empty");
    } else if (!most) {
        x->e->summary = xasprintf("no node has GPUs for %lld %s", want, x->gpu);
    } else if (resources_is_mig(x->gpu)) {
        x->e->summary = xasprintf("no node's GPUs can hold %lld x %s (largest node %s: %d physical GPU(s))",
                                  want, x->gpu, big, most);
    } else {
        x->e->summary = xasprintf("requests %lld %s; the largest node has %d physical GPU(s) (%s)%s", want, x->gpu,
                                  most, big, resources_is_shared(x->gpu) || want > 1 ?
                                  "; time-sliced and MPS replicas are not counted as GPUs" : "");
    }
}

static bool stage_intent(Ctx *x)
{
    Explanation *e = x->e;
    size_t ne = 0, nc = 0, nc_sel = 0;
    for (size_t i = 0; i < e->nnodes; i++) {
        ne += in_e(x, i);
        nc += x->flags[i].could_hold;
        nc_sel += x->flags[i].could_hold && x->flags[i].sel_ok;
    }
    if (ne) return false;
    if (!nc) {
        e->verdict = V_TOO_LARGE;
        summary_too_large_physical(x);
        return true;
    }
    Strvec could = STRVEC_INIT;
    const char *why = NULL;
    for (size_t i = 0; i < e->nnodes; i++) {
        if (!x->flags[i].could_hold || (nc_sel && !x->flags[i].sel_ok)) continue;
        strvec_push(&could, e->nodes[i].node->name);
        if (!why && !nc_sel) {
            const NodeReason *r = explain_find_code(&e->nodes[i], NR_NODE_SELECTOR_MISMATCH, NULL);
            if (!r) r = explain_find_code(&e->nodes[i], NR_NODE_AFFINITY_MISMATCH, NULL);
            if (r) why = r->detail;
        }
    }
    char *names = names_line(&could);
    if (!nc_sel) {
        e->verdict = V_SELECTOR;
        e->summary = xasprintf("nodeSelector/affinity admits no node that could hold the request; those that could "
                               "(%s) fail it: %s", names, why ? why : "mismatch");
    } else {
        e->verdict = V_TAINT;
        Strvec taints = STRVEC_INIT;
        for (size_t i = 0; i < e->nnodes; i++) {
            if (!x->flags[i].could_hold || !x->flags[i].sel_ok) continue;
            for (size_t k = 0; k < e->nodes[i].nreasons; k++) {
                const NodeReason *r = &e->nodes[i].reasons[k];
                if (r->code != NR_UNTOLERATED_TAINT || str_starts_with(r->key, "node.kubernetes.io/")) continue;
                char *t = xasprintf("%s%s%s:%s", r->key, *r->value ? "=" : "", r->value, r->effect);
                if (!strvec_contains(&taints, t)) strvec_push(&taints, t);
                free(t);
            }
        }
        /* a toleration that misses a taint by one field is the likeliest cause: named */
        Strvec near = STRVEC_INIT;
        for (size_t i = 0; i < e->nnodes; i++) {
            if (!x->flags[i].could_hold || !x->flags[i].sel_ok) continue;
            for (size_t k = 0; k < e->nodes[i].nreasons; k++) {
                const NodeReason *r = &e->nodes[i].reasons[k];
                if (r->code == NR_UNTOLERATED_TAINT && r->detail && !strvec_contains(&near, r->detail))
                    strvec_push(&near, r->detail);
            }
        }
        char *tl = names_line(&taints), *nl = names_line(&near);
        e->summary = xasprintf("untolerated taint %s on every node that matches the pod's selector and could hold "
                               "it (%s)%s%s", tl, names, near.n ? "; near miss: " : "", nl);
        free(nl);
        strvec_clear(&near);
        free(tl);
        strvec_clear(&taints);
    }
    free(names);
    strvec_clear(&could);
    return true;
}

static bool stage_fits_now(Ctx *x)
{
    for (size_t i = 0; i < x->e->nnodes; i++) {
        if (!in_e(x, i) || x->flags[i].cls != CL_FITS) continue;
        const Node *n = x->e->nodes[i].node;
        x->e->verdict = V_UNKNOWN;
        if (pod_more(x->p)->nominated_node)
            x->e->summary = xasprintf("nominated to node %s: waiting for preempted pods to end", pod_more(x->p)->nominated_node);
        else
            x->e->summary = xasprintf("fits node %s now (%lld %s free); the scheduler has not placed it since",
                                      n->name, (long long)explain_milli_units(explain_node_free_relief(x->ix, n, x->p, x->gpu, NULL)),
                                      x->gpu);
        return true;
    }
    return false;
}

/* busy nodes: only Insufficient / TooManyPods stop them */
static bool stage_busy(Ctx *x)
{
    Explanation *e = x->e;
    if (!count_e_class(x, CL_BUSY, NULL)) return false;
    char a[48], b[48];
    int64_t sum = 0, best = 0;
    size_t nholders = 0;
    Strvec frees = STRVEC_INIT, holders = STRVEC_INIT;
    for (size_t i = 0; i < e->nnodes; i++) {
        if (!in_e(x, i) || x->flags[i].cls != CL_BUSY) continue;
        int64_t f = explain_node_free_relief(x->ix, e->nodes[i].node, x->p, x->gpu, NULL);
        if (f > best) best = f;
        if (f > 0) { sum += f; strvec_pushf(&frees, "%s %lld", e->nodes[i].node->name, (long long)explain_milli_units(f)); }
        /* a pod is bound to one node and listed once there: no holder repeats across nodes, so
         * only the names printed are made, and the rest counted */
        const NodeReason *r = explain_find_code(&e->nodes[i], NR_INSUFFICIENT, x->gpu);
        if (r && x->ix->rows && holders.n < MAX_NAMES)    /* gathered unsorted (explain_int.h) */
            explain_node_sort_holders(&e->nodes[i].reasons[r - e->nodes[i].reasons]);
        for (size_t h = 0; r && h < r->nholders; h++, nholders++)
            if (holders.n < MAX_NAMES) strvec_pushf(&holders, "%s/%s", r->holders[h].pod->ns, r->holders[h].pod->name);
    }
    char *fl = names_line(&frees), *hl = names_line(&holders);
    if (nholders > holders.n) {
        char *all = xasprintf("%s +%zu more", hl, nholders - holders.n);
        free(hl);
        hl = all;
    }
    if (best < x->gpu_req && sum >= x->gpu_req) {
        e->verdict = V_FRAGMENTED;
        e->summary = xasprintf("%lld %s free in total (%s) but no node has %lld", (long long)explain_milli_units(sum), x->gpu,
                               fl, (long long)explain_milli_units(x->gpu_req));
    } else if (best < x->gpu_req) {
        e->verdict = V_INSUFFICIENT;
        if (sum > 0)
            e->summary = xasprintf("%s busy: %lld free in total (%s), needs %lld on one node%s%s", x->gpu,
                                   (long long)explain_milli_units(sum), fl, (long long)explain_milli_units(x->gpu_req),
                                   holders.n ? "; held by " : "", hl);
        else
            e->summary = xasprintf("%s busy: none free on the %zu node(s) that admit the pod and could hold it%s%s",
                                   x->gpu, count_e_class(x, CL_BUSY, NULL), holders.n ? "; held by " : "", hl);
    } else {
        /* some node has the GPUs free: say what else each one lacks */
        e->verdict = V_INSUFFICIENT;
        Strbuf why = STRBUF_INIT;
        size_t shown = 0;
        for (size_t i = 0; i < e->nnodes && shown < MAX_NAMES; i++) {
            if (!in_e(x, i) || x->flags[i].cls != CL_BUSY) continue;
            const NodeResult *r = &e->nodes[i];
            if (explain_find_code(r, NR_INSUFFICIENT, x->gpu)) continue;
            for (size_t k = 0; k < r->nreasons; k++) {
                const NodeReason *rr = &r->reasons[k];
                if (rr->code == NR_TOO_MANY_PODS) {
                    strbuf_addf(&why, "%s%s is at its pod limit", why.len ? "; " : "", r->node->name);
                } else if (rr->code == NR_INSUFFICIENT) {
                    explain_fmt_amount(rr->resource, rr->requested, a, sizeof a);
                    explain_fmt_amount(rr->resource, rr->free, b, sizeof b);
                    strbuf_addf(&why, "%s%s lacks %s (%s free, %s requested)", why.len ? "; " : "", r->node->name,
                                rr->resource, b, a);
                } else {
                    continue;
                }
                shown++;
                break;
            }
        }
        e->summary = xasprintf("enough %s, but %s", x->gpu, strbuf_str(&why));
        strbuf_clear(&why);
    }
    free(fl); free(hl);
    strvec_clear(&frees); strvec_clear(&holders);
    return true;
}

static bool stage_no_plugin(Ctx *x)
{
    Strvec v = STRVEC_INIT;
    if (!count_e_class(x, CL_NO_PLUGIN, &v)) return false;
    char *l = names_line(&v);
    x->e->verdict = V_NO_DEVICE_PLUGIN;
    x->e->summary = xasprintf("GPU node(s) %s that admit the pod advertise no GPU resource: device plugin not running", l);
    free(l);
    strvec_clear(&v);
    return true;
}

static bool stage_resource_name(Ctx *x)
{
    Strvec v = STRVEC_INIT, alts = STRVEC_INIT;
    if (!count_e_class(x, CL_RESOURCE_NAME, &v)) return false;
    for (size_t i = 0; i < x->e->nnodes; i++) {
        if (!in_e(x, i) || x->flags[i].cls != CL_RESOURCE_NAME) continue;
        const NodeReason *r = explain_find_code(&x->e->nodes[i], NR_RESOURCE_NOT_ADVERTISED, NULL);
        for (size_t k = 0; r && k < r->advertised.n; k++)
            if (!strvec_contains(&alts, r->advertised.v[k])) strvec_push(&alts, r->advertised.v[k]);
    }
    /* nodes of the class that offer nothing yet: their device plugin, as configured, would
     * offer only other names */
    Strvec offering = STRVEC_INIT, unplugged = STRVEC_INIT, invalid = STRVEC_INIT;
    for (size_t i = 0; i < x->e->nnodes; i++) {
        if (!in_e(x, i) || x->flags[i].cls != CL_RESOURCE_NAME) continue;
        const Node *n = x->e->nodes[i].node;
        strvec_push(explain_find_code(&x->e->nodes[i], NR_RESOURCE_NOT_ADVERTISED, NULL) ? &offering :
                    explain_node_mig_invalid(n) ? &invalid : &unplugged, n->name);
    }
    char *l = names_line(&offering), *al = names_line(&alts), *ul = names_line(&unplugged), *il = names_line(&invalid);
    x->e->verdict = V_RESOURCE_NAME;
    Strbuf sb = STRBUF_INIT;
    strbuf_addf(&sb, "no node the pod admits offers %s", x->gpu);
    if (offering.n) strbuf_addf(&sb, "; %s offer%s %s", l, offering.n == 1 ? "s" : "", al);
    if (unplugged.n)
        strbuf_addf(&sb, "; %s run%s no device plugin, which as configured there would not offer %s either", ul,
                    unplugged.n == 1 ? "s" : "", x->gpu);
    if (invalid.n)
        strbuf_addf(&sb, "; %s advertise%s nothing until a valid MIG layout is applied (GFD product -MIG-INVALID)", il,
                    invalid.n == 1 ? "s" : "");
    x->e->summary = strbuf_detach(&sb);
    free(l); free(al); free(ul); free(il);
    strvec_clear(&v); strvec_clear(&alts); strvec_clear(&offering); strvec_clear(&unplugged); strvec_clear(&invalid);
    return true;
}

static bool stage_allocatable(Ctx *x)
{
    Strvec v = STRVEC_INIT;
    if (!count_e_class(x, CL_TOO_SMALL, &v)) return false;
    const NodeReason *r = NULL;
    const NodeFacts *f = NULL;
    for (size_t i = 0; i < x->e->nnodes && !r; i++)
        if (in_e(x, i) && x->flags[i].cls == CL_TOO_SMALL) {
            r = explain_find_code(&x->e->nodes[i], NR_EXCEEDS_NODE_CAPACITY, NULL);
            f = &x->ix->nodes[i];
        }
    char a[48], b[48];
    x->e->verdict = V_TOO_LARGE;
    if (r) {
        explain_fmt_amount(r->resource, r->requested, a, sizeof a);
        explain_fmt_amount(r->resource, r->allocatable, b, sizeof b);
        x->e->summary = xasprintf("requests %s %s; node %s advertises only %s allocatable%s%.0d%s", a, r->resource,
                                  f->node->name, b, f->physical > 0 && resources_is_gpu(r->resource) ? " of " : "",
                                  f->physical > 0 && resources_is_gpu(r->resource) ? f->physical : 0,
                                  f->physical > 0 && resources_is_gpu(r->resource) ? " physical GPUs (unhealthy or "
                                  "held back by the device plugin?)" : "");
    } else {
        x->e->summary = xstrdup("the nodes that admit the pod advertise less than it requests");
    }
    strvec_clear(&v);
    return true;
}

static bool stage_node_state(Ctx *x, NodeClass cls, Verdict v, const char *what)
{
    Strvec names = STRVEC_INIT;
    if (!count_e_class(x, cls, &names)) return false;
    char *l = names_line(&names);
    x->e->verdict = v;
    x->e->summary = xasprintf("every node that admits the pod and could hold it is %s (%s)", what, l);
    free(l);
    strvec_clear(&names);
    return true;
}
static bool stage_not_ready(Ctx *x) { return stage_node_state(x, CL_NOT_READY, V_NOT_READY, "NotReady"); }
static bool stage_cordoned(Ctx *x) { return stage_node_state(x, CL_CORDONED, V_UNSCHEDULABLE, "cordoned"); }

typedef bool (*StageFn)(Ctx *x);
static const StageFn stages[] = {
    stage_gated, stage_no_nodes, stage_intent, stage_fits_now, stage_busy, stage_no_plugin,
    stage_resource_name, stage_allocatable, stage_not_ready, stage_cordoned,
};

/* other classes of E besides the verdict's: what else stands between the pod and a node */
static void note_other_classes(Ctx *x)
{
    static const struct { NodeClass cls; Verdict v; const char *what; } other[] = {
        { CL_NO_PLUGIN, V_NO_DEVICE_PLUGIN, "advertise no GPU resource (device plugin not running)" },
        { CL_RESOURCE_NAME, V_RESOURCE_NAME, "offer other GPU resource names" },
        { CL_TOO_SMALL, V_TOO_LARGE, "advertise less than the request" },
        { CL_NOT_READY, V_NOT_READY, "are NotReady" },
        { CL_CORDONED, V_UNSCHEDULABLE, "are cordoned" },
    };
    for (size_t k = 0; k < sizeof other / sizeof *other; k++) {
        if (other[k].v == x->e->verdict) continue;
        Strvec names = STRVEC_INIT;
        if (count_e_class(x, other[k].cls, &names)) {
            char *l = names_line(&names);
            strvec_pushf(&x->e->notes, "other nodes that admit the pod and could hold it %s: %s", other[k].what, l);
            free(l);
        }
        strvec_clear(&names);
    }
}

/* a whole-GPU request and MIG single nodes among those that admit the pod: what it gets there */
static void note_mig_single(Ctx *x)
{
    if (!str_eq(x->gpu, "nvidia.com/gpu") || x->gpu_req <= 0) return;
    for (size_t i = 0; i < x->e->nnodes; i++) {
        const Node *n = x->e->nodes[i].node;
        if (!in_e(x, i) || n->gpu.mig_strategy != MIG_SINGLE || !n->gpu.mig_single_profile) continue;
        long long k = (long long)explain_milli_units(x->gpu_req);
        strvec_pushf(&x->e->notes, "node %s runs MIG with the single strategy: each nvidia.com/gpu there is one %s MIG "
                     "device, so the pod gets %lld such device%s there, not %lld whole GPU%s", n->name,
                     n->gpu.mig_single_profile, k, k == 1 ? "" : "s", k, k == 1 ? "" : "s");
        return;                                /* once: the first such node */
    }
}

/* a MIG request and nodes whose MIG capability no signal gives (mig_capability.h): they were
 * not called too small, and the explanation says why */
static void note_mig_unknown(Ctx *x)
{
    if (!resources_is_mig(x->gpu)) return;
    Strvec names = STRVEC_INIT;
    for (size_t i = 0; i < x->e->nnodes; i++)
        if (x->flags[i].could_hold && x->e->nodes[i].nreasons && node_is_gpu_node(x->e->nodes[i].node) &&
            x->ix->nodes[i].migcap.capable == MIG_CAP_UNKNOWN)
            strvec_push(&names, x->e->nodes[i].node->name);
    if (names.n) {
        char *l = names_line(&names);
        strvec_pushf(&x->e->notes, "whether the GPUs of %s can hold MIG devices is unknown (no nvidia.com/mig.capable "
                     "label, no MIG devices, no GPU model named): counted as possible", l);
        free(l);
    }
    strvec_clear(&names);
}

void explain_decide_verdict(Ctx *x)
{
    for (size_t i = 0; i < sizeof stages / sizeof *stages; i++) {
        if (!stages[i](x)) continue;
        if (x->e->verdict != V_GATED && x->c->nnodes) { note_other_classes(x); note_mig_single(x); note_mig_unknown(x); }
        return;
    }
    x->e->verdict = V_UNKNOWN;                 /* not reached: an E with nodes has a class */
    x->e->summary = xstrdup("no verdict");
}

/* explain_fixes_size.c — fixes that change what the pod asks for: another GPU resource name
 * of at least the request's size (the smallest first; a MIG single-strategy node reached by its
 * exact product label), the node's MIG configuration for a whole-GPU pod, a plan command for a
 * MIG profile no node offers yet, and smaller pods when no node could hold the request.  Each is
 * re-checked like every fix (explain_fixes.c).
 */
#include "explain_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIXES_PER_KIND 3

/* ---------------------------------------------------------------- sizes and resource names */

/* is one `alt` device (on node f) at least the size of one `req` device? */
static bool alt_size_ok(const NodeFacts *f, const char *req, int64_t units, const char *alt)
{
    int rc, rm, ac, am;
    bool req_mig = resources_is_mig(req);
    if (resources_is_mig(alt)) {
        if (units > 1) return false;           /* CUDA sees one MIG device per process */
        if (!explain_mig_profile_size(alt, &ac, &am)) return false;
        if (req_mig) return explain_mig_profile_size(req, &rc, &rm) && ac >= rc && am >= rm;
        if (resources_is_shared(req)) return false;
        return f->mig && ac >= f->mig->compute_slices;   /* a whole GPU: only a full-GPU profile */
    }
    bool single = f->node->gpu.mig_strategy == MIG_SINGLE && f->node->gpu.mig_single_profile;
    if (resources_is_shared(alt)) return !req_mig && units == 1;   /* a replica: one GPU shared in time */
    if (single) {                              /* nvidia.com/gpu is a MIG slice here */
        if (units > 1 || !explain_mig_profile_size(f->node->gpu.mig_single_profile, &ac, &am)) return false;
        if (req_mig) return explain_mig_profile_size(req, &rc, &rm) && ac >= rc && am >= rm;
        return !resources_is_shared(req) ? f->mig && ac >= f->mig->compute_slices : true;
    }
    /* a whole GPU for a MIG request: only when its memory is known to be at least the profile's */
    if (req_mig) return explain_mig_profile_size(req, &rc, &rm) && f->gpu_mem_mib >= (int64_t)rm * 1000;
    return true;                               /* a whole GPU for a whole or shared GPU */
}

static int alt_rank(const char *alt, const Node *n)
{
    int c = 0, m = 0;
    if (resources_is_mig(alt)) { explain_mig_profile_size(alt, &c, &m); return c * 1000 + m; }
    if (n->gpu.mig_strategy == MIG_SINGLE && explain_mig_profile_size(n->gpu.mig_single_profile, &c, &m)) return c * 1000 + m;
    return 1000000;
}

typedef struct { const char *alt; const Node *node; size_t idx; int rank; } Alt;

static int cmp_alt(const void *a, const void *b)
{
    const Alt *x = a, *y = b;
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void hint_for(const Node *n, const char *name, Strbuf *sb)
{
    if (resources_is_mig(name)) strbuf_adds(sb, "MIG slices, mixed strategy");
    else if (resources_is_shared(name)) strbuf_addf(sb, "time-sliced GPUs, %d replicas each", n->gpu.replicas);
    else if (n->gpu.mig_strategy == MIG_SINGLE && n->gpu.mig_single_profile)
        strbuf_addf(sb, "MIG single strategy: each is a %s slice", n->gpu.mig_single_profile);
    else if (n->gpu.replicas > 1) strbuf_addf(sb, "time-sliced, %d replicas per GPU", n->gpu.replicas);
    else strbuf_adds(sb, "whole GPUs");
}

static bool ignore_other_name(const NodeReason *r) { return r->code == NR_RESOURCE_NOT_ADVERTISED; }

/* A whole-GPU pod and a MIG node that offers only slices: the slices are smaller than what the
 * pod asked for, so they are named in a note; the fix that gives it whole GPUs is the node's
 * MIG configuration (mig-parted's all-disabled), checked as "the node then advertises its
 * physical GPUs as nvidia.com/gpu". */
static void fixes_whole_gpu_on_mig(Ctx *x)
{
    size_t shown = 0;
    for (size_t i = 0; i < x->e->nnodes && shown < MAX_FIXES_PER_KIND; i++) {
        const NodeFacts *f = &x->ix->nodes[i];
        if (!x->flags[i].admits || !x->flags[i].could_hold || x->flags[i].cls != CL_RESOURCE_NAME) continue;
        const NodeReason *rna = explain_find_code(&x->e->nodes[i], NR_RESOURCE_NOT_ADVERTISED, x->gpu);
        bool mig_only = rna && rna->advertised.n;
        for (size_t k = 0; rna && k < rna->advertised.n; k++) mig_only &= resources_is_mig(rna->advertised.v[k]);
        if (!mig_only) continue;
        Strbuf sb = STRBUF_INIT;
        for (size_t k = 0; k < rna->advertised.n; k++) strbuf_addf(&sb, "%s%s", k ? ", " : "", rna->advertised.v[k]);
        strvec_pushf(&x->e->notes, "node %s offers only MIG slices (%s), each smaller than the whole GPU the pod asks "
                     "for: if the workload fits in one, request that profile instead", f->node->name, strbuf_str(&sb));
        strbuf_clear(&sb);
        if (f->physical <= 0 || f->physical < explain_milli_units(x->gpu_req) || !str_eq(x->gpu, "nvidia.com/gpu") ||
            !explain_fits_on_ignoring(x, f->node, ignore_other_name))
            continue;
        FixInfo *fi = explain_fix_add(x, EFFORT_CLUSTER, "turn MIG off on node %s (mig-parted all-disabled; the MIG manager "
                              "drains its GPU pods first): it then offers %d whole nvidia.com/gpu and the pod fits there:\n"
                              "  kubectl label node %s nvidia.com/mig.config=all-disabled --overwrite",
                              f->node->name, f->physical, f->node->name);
        if (fi) {
            fi->fits_on = xstrdup(f->node->name);
            fi->node = xstrdup(f->node->name);
            fi->advertise = xstrdup(x->gpu);
            fi->advertise_count = f->physical;
            kv_set(&fi->labels, "nvidia.com/mig.config", "all-disabled");
            shown++;
        }
    }
}

/* Another GPU resource name, at least the request's size, on nodes that admit the pod; the
 * smallest first.  A MIG single-strategy node is reached by its exact product label. */
void explain_fixes_resource_name(Ctx *x, bool only_now)
{
    Alt *alts = NULL;
    size_t n = 0, cap = 0;
    int64_t units = explain_milli_units(x->gpu_req);
    for (size_t i = 0; i < x->e->nnodes; i++) {
        if (!x->flags[i].admits || !x->flags[i].could_hold) continue;
        const NodeReason *rna = explain_find_code(&x->e->nodes[i], NR_RESOURCE_NOT_ADVERTISED, x->gpu);
        for (size_t j = 0; rna && j < rna->advertised.n; j++) {
            const char *alt = rna->advertised.v[j];
            if (!alt_size_ok(&x->ix->nodes[i], x->gpu, units, alt)) continue;
            ARRAY_GROW(alts, n, cap);
            alts[n++] = (Alt){ alt, x->e->nodes[i].node, i, alt_rank(alt, x->e->nodes[i].node) };
        }
    }
    if (n > 1) qsort(alts, n, sizeof *alts, cmp_alt);
    size_t shown = 0;
    Strvec done = STRVEC_INIT;
    for (size_t k = 0; k < n && shown < MAX_FIXES_PER_KIND; k++) {
        const Node *node = alts[k].node;
        bool single = str_eq(alts[k].alt, "nvidia.com/gpu") && node->gpu.mig_strategy == MIG_SINGLE &&
                      node->gpu.product;
        bool pin = single || (resources_is_mig(x->gpu) && str_eq(alts[k].alt, "nvidia.com/gpu") && node->gpu.product);
        char *id = xasprintf("%s|%s", alts[k].alt, pin ? node->gpu.product : "");
        if (strvec_contains(&done, id)) { free(id); continue; }
        strvec_push(&done, id);
        free(id);
        PodEdit d;
        explain_edit_begin(&d, x->p);
        rlist_set(&d.req, x->gpu, 0);
        rlist_set(&d.req, alts[k].alt, x->gpu_req);
        if (pin) kv_set(&d.sel, "nvidia.com/gpu.product", node->gpu.product);
        explain_edit_sync(&d);
        Strvec names = STRVEC_INIT;
        char *where = NULL;
        const Node *at = explain_landing(x, &d.q, node, &names, &where);
        if (at && (!only_now || !names.n)) {
            Strbuf hint = STRBUF_INIT;
            hint_for(node, alts[k].alt, &hint);
            FixInfo *fi = explain_fix_add(x, names.n ? EFFORT_END_PODS : EFFORT_POD,
                                  "request %s instead of %s (%s on node %s; %s):\n  resources:\n    limits:\n      %s: %lld%s%s%s",
                                  alts[k].alt, x->gpu, strbuf_str(&hint), node->name, where, alts[k].alt, (long long)units,
                                  pin ? "\n  nodeSelector:\n    nvidia.com/gpu.product: \"" : "",
                                  pin ? node->gpu.product : "", pin ? "\"" : "");
            if (fi) {
                fi->fits_on = xstrdup(at->name);
                rlist_set(&fi->requests, x->gpu, 0);
                rlist_set(&fi->requests, alts[k].alt, x->gpu_req);
                if (pin) kv_set(&fi->selector, "nvidia.com/gpu.product", node->gpu.product);
                explain_info_end_pods(fi, &names);
                shown++;
            }
            strbuf_clear(&hint);
        }
        free(where);
        strvec_clear(&names);
        explain_edit_end(&d);
    }
    strvec_clear(&done);
    free(alts);
    if (only_now) return;
    if (!resources_is_mig(x->gpu)) { fixes_whole_gpu_on_mig(x); return; }
    if (shown) return;                         /* a profile at least its size fits already */
    /* a MIG-capable node that could hold the profile: reconfigure it (plan writes the config) */
    for (size_t i = 0; i < x->e->nnodes; i++) {
        const NodeFacts *f = &x->ix->nodes[i];
        if (!x->flags[i].admits || !x->flags[i].could_hold || !f->mig || x->flags[i].cls != CL_RESOURCE_NAME) continue;
        char *prof = resources_mig_profile(x->gpu);
        explain_fix_add(x, EFFORT_CLUSTER, "reconfigure node %s (%s, MIG-capable) to offer %s: kubectl gpu plan -l "
                "kubernetes.io/hostname=%s --strategy mig -o script", f->node->name, f->mig->display,
                prof ? prof : x->gpu, f->node->name);
        free(prof);
        break;
    }
}

/* the largest request (below the pod's) that fits some node now: split the work */
void explain_fix_split(Ctx *x, const char *lead)
{
    int64_t want = explain_milli_units(x->gpu_req), most = 0;
    bool unknown = false;
    for (size_t i = 0; i < x->ix->n; i++) {        /* a pod's GPUs are physical GPUs, never replicas */
        if (x->ix->nodes[i].physical < 0) unknown = true;
        if (x->ix->nodes[i].physical > most) most = x->ix->nodes[i].physical;
    }
    int64_t start = want - 1;
    if (!unknown && !resources_is_mig(x->gpu) && most < start) start = most;
    for (int64_t k = start; k >= 1; k--) {
        PodEdit d;
        explain_edit_begin(&d, x->p);
        rlist_set(&d.req, x->gpu, k * 1000);
        explain_edit_sync(&d);
        const Node *n = explain_recheck_fits(x, &d.q, NULL);
        explain_edit_end(&d);
        if (!n) continue;
        FixInfo *fi = explain_fix_add(x, EFFORT_POD, "%ssplit the work into pods of at most %lld %s each: such a pod fits node %s now",
                              lead, (long long)k, x->gpu, n->name);
        if (fi) {
            fi->fits_on = xstrdup(n->name);
            rlist_set(&fi->requests, x->gpu, k * 1000);
            x->fixes[x->nfixes - 1].split = true;   /* explain_fix_add appended it */
        }
        return;
    }
}


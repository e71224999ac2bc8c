/* plan.c — per product group, the strategy that holds the observed workloads on the fewest
 * GPUs (rules in plan.h).  Each candidate (MIG, time-slicing, MPS) is computed in full and
 * compared; the chosen one keeps its packing / sharing plan and per-workload assignment.
 */
#include "plan.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "resources.h"
#include "strmap.h"

bool plan_choice_parse(const char *s, PlanChoice *out)
{
    static const struct { const char *name; PlanChoice c; } t[] = {
        { "auto", PLAN_CHOICE_AUTO }, { "mig", PLAN_CHOICE_MIG },
        { "time-slicing", PLAN_CHOICE_TIME_SLICING }, { "mps", PLAN_CHOICE_MPS },
    };
    for (size_t i = 0; s && i < sizeof t / sizeof t[0]; i++)
        if (strcmp(s, t[i].name) == 0) { *out = t[i].c; return true; }
    return false;
}

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

static const char *tradeoff_of(PlanStrategy s)
{
    switch (s) {
    case PLAN_MIG:
        return "MIG: each instance has its own memory, cache and SMs (hardware isolation, faults "
               "stay inside); layouts are fixed per GPU and changing them needs the GPU idle";
    case PLAN_MPS:
        return "MPS: each client is limited to memory/replicas and 100/replicas % of the SMs, "
               "but shares one context server: a fault in one client can stop all; "
               "experimental in the device plugin";
    case PLAN_TIME_SLICING:
        return "time-slicing: no memory or fault isolation; workloads take turns on the whole "
               "GPU, and one that outgrows its usual memory can make the others fail";
    case PLAN_NONE: break;
    }
    return "no change";
}

const char *plan_assignment_label(const PlanAssignment *a, char *buf, size_t len)
{
    switch (a->kind) {
    case PLAN_ASSIGN_MIG:
        snprintf(buf, len, "mig-%s", a->profile ? a->profile->name : "?");
        for (char *p = buf; *p; p++) if (*p == '+') *p = '.';
        return buf;
    case PLAN_ASSIGN_SHARED: return "shared";
    case PLAN_ASSIGN_WHOLE: break;
    }
    return "whole";
}

/* ---- what a workload holds now ---- */

static int label_int(const Node *n, const char *key)
{
    int64_t v;
    const char *s = kv_get(&n->labels, key);
    return s && str_to_int64(s, &v) && v >= 0 && v < 1000 ? (int)v : 0;
}

static double profile_share(const MigGpuModel *m, const MigProfile *p)
{
    double c = (double)p->compute / m->compute_slices, s = (double)p->size / m->axis;
    return c > s ? c : s;
}

/* the MIG profile the workload runs on now (mixed: from the resource name; single: the node's
 * profile), or NULL */
static const MigProfile *current_profile(const Node *n, const MigGpuModel *m, const PlanWorkload *w)
{
    if (!m || !w->resource) return NULL;
    if (resource_is_mig(w->resource)) {
        char *prof = resource_mig_profile(w->resource);
        const MigProfile *p = mig_model_profile(m, prof);
        free(prof);
        return p;
    }
    if (n && n->gpu.mig_strategy == MIG_SINGLE && n->gpu.mig_single_profile &&
        str_eq(w->resource, "nvidia.com/gpu"))
        return mig_model_profile(m, n->gpu.mig_single_profile);
    return NULL;
}

static int mig_replicas(const Node *n, const char *profile_resource)
{
    char *prof = resource_mig_profile(profile_resource);
    int r = 1;
    for (size_t i = 0; prof && i < n->gpu.nmig; i++)
        if (str_eq(n->gpu.mig[i].profile, prof) && n->gpu.mig[i].replicas > 1) r = n->gpu.mig[i].replicas;
    free(prof);
    return r;
}

/* share of physical GPUs held now */
static double held_share(const Node *n, const MigGpuModel *m, const PlanWorkload *w)
{
    double count = w->count > 0 ? w->count : 0;
    int replicas = n->gpu.replicas > 1 ? n->gpu.replicas : 1;
    const MigProfile *p = current_profile(n, m, w);
    if (w->resource && resource_is_mig(w->resource)) {
        double share = p ? profile_share(m, p) : 1.0 / 7;
        if (resource_is_shared(w->resource) || mig_replicas(n, w->resource) > 1)
            share /= mig_replicas(n, w->resource);
        return count * share;
    }
    if (p) return count * profile_share(m, p);                    /* single strategy */
    return count / replicas;                                      /* gpu or gpu.shared */
}

/* whole GPUs the workload needs if it does not share: its request for plain GPUs, else 1 */
static int whole_need(const Node *n, const MigGpuModel *m, const PlanWorkload *w)
{
    if (w->resource && str_eq(w->resource, "nvidia.com/gpu") && !current_profile(n, m, w) &&
        n->gpu.replicas <= 1)
        return w->count > 1 ? w->count : 1;
    return 1;
}

/* utilization as % of a whole GPU */
static double gpu_util(const Node *n, const MigGpuModel *m, const PlanWorkload *w)
{
    if (!w->has_usage) return NAN;
    double u = w->utilization == w->utilization && w->utilization > 0 ? w->utilization : 0;
    const MigProfile *p = current_profile(n, m, w);
    if (p) u *= (double)p->compute / m->compute_slices;
    return u > 100 ? 100 : u;
}

/* ---- candidates ---- */

typedef struct {
    int after;                        /* -1 = not possible */
    PlanAssignment *assign;
    MigPacking mig;
    SharePlan share;
    const char *why_not;
} Candidate;

typedef struct {
    PlanGroup *g;
    const PlanWorkload *w;
    size_t *idx; size_t n;            /* the group's workloads */
    const Node **node;                /* per group workload: its node */
    double headroom;
} GroupCtx;

static int64_t sized_mem(const PlanWorkload *w, double headroom)
{
    if (!w->has_usage) return -1;
    double m = (double)(w->memory_mib > 0 ? w->memory_mib : 0) * (1 + headroom / 100);
    return (int64_t)ceil(m);
}

static void assign_base(const GroupCtx *c, size_t k, PlanAssignment *a)
{
    const PlanWorkload *w = &c->w[c->idx[k]];
    memset(a, 0, sizeof *a);
    a->workload = c->idx[k];
    a->kind = PLAN_ASSIGN_WHOLE;
    a->gpus = whole_need(c->node[k], c->g->model, w);
    a->sized_memory_mib = sized_mem(w, c->headroom);
    a->gpu_utilization = gpu_util(c->node[k], c->g->model, w);
}

static void eval_mig(const GroupCtx *c, Candidate *cand)
{
    const MigGpuModel *m = c->g->model;
    cand->after = -1;
    if (!m) { cand->why_not = "the GPU model does not support MIG"; return; }
    cand->assign = xcalloc(c->n ? c->n : 1, sizeof *cand->assign);
    int demand[MIG_MAX_PROFILES] = { 0 }, whole = 0;
    for (size_t k = 0; k < c->n; k++) {
        const PlanWorkload *w = &c->w[c->idx[k]];
        PlanAssignment *a = &cand->assign[k];
        assign_base(c, k, a);
        const MigProfile *now = current_profile(c->node[k], m, w), *p = NULL;
        if (!w->has_usage) {
            if (now) { p = now; a->why = "no usage data: keeps its MIG profile"; }
            else a->why = "no usage data";
        } else if (a->gpus > 1) {
            a->why = "uses several GPUs";
        } else {
            p = mig_choose_profile(m, w->memory_mib, a->gpu_utilization, c->headroom);
            if (!p) a->why = "fits no MIG profile";
        }
        if (p) {
            a->kind = PLAN_ASSIGN_MIG; a->profile = p; a->gpus = 0;
            if (w->has_usage) a->why = NULL;
            demand[mig_model_profile_index(m, p)]++;
        } else {
            whole += a->gpus;
        }
    }
    if (mig_pack(m, demand, &cand->mig) != 0) { cand->why_not = "MIG packing failed"; return; }
    cand->after = cand->mig.gpus + whole;
}

static void eval_sharing(const GroupCtx *c, ShareMode mode, Candidate *cand)
{
    cand->after = -1;
    if (c->g->gpu_memory_mib <= 0) { cand->why_not = "GPU memory unknown (no GFD labels)"; return; }
    ShareWorkload *sw = xcalloc(c->n ? c->n : 1, sizeof *sw);
    cand->assign = xcalloc(c->n ? c->n : 1, sizeof *cand->assign);
    for (size_t k = 0; k < c->n; k++) {
        const PlanWorkload *w = &c->w[c->idx[k]];
        assign_base(c, k, &cand->assign[k]);
        sw[k].memory_mib = w->has_usage ? (w->memory_mib > 0 ? w->memory_mib : 0) : -1;
        sw[k].utilization = w->has_usage ? cand->assign[k].gpu_utilization : 0;
        sw[k].gpus = cand->assign[k].gpus;
    }
    ShareParams p = { .mode = mode, .gpu_memory_mib = c->g->gpu_memory_mib,
                      .cc_major = c->g->cc_major, .cc_minor = c->g->cc_minor,
                      .headroom_pct = c->headroom, .mig_enabled = false };
    sharing_plan(&p, sw, c->n, &cand->share);
    free(sw);
    for (size_t k = 0; k < c->n; k++) {
        const PlanWorkload *w = &c->w[c->idx[k]];
        PlanAssignment *a = &cand->assign[k];
        if (cand->share.shared[k]) { a->kind = PLAN_ASSIGN_SHARED; a->gpus = 0; continue; }
        a->why = !w->has_usage ? "no usage data" : a->gpus > 1 ? "uses several GPUs"
                 : cand->share.possible ? "too large to share safely" : cand->share.reason;
    }
    if (!cand->share.possible) { cand->why_not = cand->share.reason; return; }
    cand->after = cand->share.gpus_after;
}

static void candidate_free(Candidate *c)
{
    free(c->assign);
    mig_packing_free(&c->mig);
    sharing_plan_free(&c->share);
    memset(c, 0, sizeof *c);
}

static void plan_group(GroupCtx *c, PlanChoice choice)
{
    PlanGroup *g = c->g;
    Candidate cand[4];                    /* indexed by PlanStrategy */
    memset(cand, 0, sizeof cand);
    for (int s = 0; s < 4; s++) cand[s].after = -1;
    bool want_mig = choice == PLAN_CHOICE_AUTO || choice == PLAN_CHOICE_MIG;
    bool want_ts = choice == PLAN_CHOICE_AUTO || choice == PLAN_CHOICE_TIME_SLICING;
    bool want_mps = choice == PLAN_CHOICE_AUTO || choice == PLAN_CHOICE_MPS;
    if (want_mig) eval_mig(c, &cand[PLAN_MIG]);
    if (want_ts) eval_sharing(c, SHARE_TIME_SLICING, &cand[PLAN_TIME_SLICING]);
    if (want_mps) eval_sharing(c, SHARE_MPS, &cand[PLAN_MPS]);
    g->after_mig = cand[PLAN_MIG].after;
    g->after_time_slicing = cand[PLAN_TIME_SLICING].after;
    g->after_mps = cand[PLAN_MPS].after;

    /* the fewest GPUs; ties to the stronger isolation: MIG, MPS, time-slicing */
    static const PlanStrategy pref[] = { PLAN_MIG, PLAN_MPS, PLAN_TIME_SLICING };
    PlanStrategy best = PLAN_NONE;
    for (size_t i = 0; i < 3; i++) {
        PlanStrategy s = pref[i];
        if (cand[s].after < 0) continue;
        if (best == PLAN_NONE || cand[s].after < cand[best].after) best = s;
    }
    if (choice == PLAN_CHOICE_AUTO && best != PLAN_NONE && cand[best].after >= g->gpus_before) {
        strvec_pushf(&g->notes, "no strategy frees a GPU (best: %s needs %d, the workloads hold %d now)",
                     plan_strategy_name(best), cand[best].after, g->gpus_before);
        best = PLAN_NONE;
    }
    if (choice != PLAN_CHOICE_AUTO && best == PLAN_NONE) {
        PlanStrategy asked = choice == PLAN_CHOICE_MIG ? PLAN_MIG
                           : choice == PLAN_CHOICE_MPS ? PLAN_MPS : PLAN_TIME_SLICING;
        strvec_pushf(&g->notes, "%s not possible: %s", plan_strategy_name(asked),
                     cand[asked].why_not ? cand[asked].why_not : "unknown");
    }
    for (int s = 1; s < 4; s++)
        if (s != (int)best && choice == PLAN_CHOICE_AUTO && cand[s].after < 0 && cand[s].why_not)
            strvec_pushf(&g->notes, "%s not possible: %s", plan_strategy_name((PlanStrategy)s), cand[s].why_not);

    g->strategy = best;
    g->tradeoff = tradeoff_of(best);
    if (best == PLAN_NONE) {
        g->gpus_after = g->gpus_before;
        g->assign = xcalloc(c->n ? c->n : 1, sizeof *g->assign);
        for (size_t k = 0; k < c->n; k++) assign_base(c, k, &g->assign[k]);
    } else {
        Candidate *b = best == PLAN_MIG ? &cand[PLAN_MIG]
                     : best == PLAN_MPS ? &cand[PLAN_MPS] : &cand[PLAN_TIME_SLICING];
        g->gpus_after = b->after;
        g->assign = b->assign; b->assign = NULL;
        g->mig = b->mig; memset(&b->mig, 0, sizeof b->mig);
        g->share = b->share; memset(&b->share, 0, sizeof b->share);
        if (best == PLAN_MIG) {
            if (g->mig.optimal)
                strvec_pushf(&g->notes, "MIG packing: %d GPUs, proven minimal", g->mig.gpus);
            else
                strvec_pushf(&g->notes, "MIG packing: %d GPUs, at most %d above the lower bound %d",
                             g->mig.gpus, g->mig.gpus - g->mig.lower_bound, g->mig.lower_bound);
        } else {
            g->replicas = g->share.replicas;
            strvec_pushf(&g->notes, "%d replicas per GPU (safe up to %d, bounded by %s)",
                         g->share.replicas, g->share.max_replicas, share_limit_name(g->share.limit));
        }
        if (choice != PLAN_CHOICE_AUTO && g->gpus_after >= g->gpus_before)
            strvec_pushf(&g->notes, "%s frees no GPU here (%d needed, %d held now)",
                         plan_strategy_name(best), g->gpus_after, g->gpus_before);
    }
    g->nassign = c->n;
    for (int s = 0; s < 4; s++) candidate_free(&cand[s]);
}

/* ---- groups ---- */

static int group_cmp(const void *a, const void *b)
{
    return strcmp(((const PlanGroup *)a)->product, ((const PlanGroup *)b)->product);
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static const char *node_product(const Node *n)
{
    if (n->gpu.base_product && *n->gpu.base_product) return n->gpu.base_product;
    if (n->gpu.product && *n->gpu.product) return n->gpu.product;
    return "unknown";
}

int plan_build(const Node *const *nodes, size_t nnodes, const PlanWorkload *w, size_t nw,
               const PlanOptions *o, PlanResult *out)
{
    memset(out, 0, sizeof *out);
    if ((!nodes && nnodes) || (!w && nw) || !o) return -1;
    size_t cap = 0;
    StrMap *by_product = strmap_new();
    for (size_t i = 0; i < nnodes; i++) {
        const Node *n = nodes[i];
        const char *prod = node_product(n);
        if (strmap_get(by_product, prod)) continue;
        ARRAY_GROW(out->groups, out->ngroups, cap);
        PlanGroup *g = &out->groups[out->ngroups++];
        memset(g, 0, sizeof *g);
        g->product = xstrdup(prod);
        g->model = mig_model_for_product(prod);
        strmap_put(by_product, prod, (void *)1);
    }
    qsort(out->groups, out->ngroups, sizeof *out->groups, group_cmp);
    for (size_t gi = 0; gi < out->ngroups; gi++)
        strmap_put(by_product, out->groups[gi].product, (void *)(uintptr_t)(gi + 1));

    /* nodes: group facts; per node: its group and the shares held on it */
    StrMap *node_idx = strmap_new();
    double *held = xcalloc(nnodes ? nnodes : 1, sizeof(double));
    for (size_t i = 0; i < nnodes; i++) {
        const Node *n = nodes[i];
        PlanGroup *g = &out->groups[(uintptr_t)strmap_get(by_product, node_product(n)) - 1];
        strvec_push(&g->nodes, n->name);
        g->physical_gpus += node_physical_gpus(n);
        if (g->gpu_memory_mib <= 0) {
            /* under single strategy the label holds the MIG device's memory */
            g->gpu_memory_mib = n->gpu.mig_strategy == MIG_SINGLE && g->model ? g->model->memory_mib
                                                                             : n->gpu.memory_mib;
        }
        if (g->cc_major == 0) {
            g->cc_major = label_int(n, "nvidia.com/gpu.compute.major");
            g->cc_minor = label_int(n, "nvidia.com/gpu.compute.minor");
        }
        strmap_put(node_idx, n->name, (void *)(uintptr_t)(i + 1));
    }

    /* workloads into groups */
    size_t ng1 = out->ngroups ? out->ngroups : 1;
    size_t **gidx = xcalloc(ng1, sizeof(size_t *));
    const Node ***gnode = xcalloc(ng1, sizeof(const Node **));
    size_t *gn = xcalloc(ng1, sizeof(size_t)), *gcap = xcalloc(ng1, sizeof(size_t));
    for (size_t i = 0; i < nw; i++) {
        uintptr_t ni = w[i].node ? (uintptr_t)strmap_get(node_idx, w[i].node) : 0;
        if (!ni) {
            strvec_pushf(&out->warnings, "%s/%s runs on %s, outside the selected GPU nodes: not planned",
                         w[i].ns ? w[i].ns : "?", w[i].name ? w[i].name : "?", w[i].node ? w[i].node : "no node");
            continue;
        }
        const Node *n = nodes[ni - 1];
        size_t g = (uintptr_t)strmap_get(by_product, node_product(n)) - 1;
        if (gn[g] >= gcap[g]) {
            gcap[g] = gcap[g] ? gcap[g] * 2 : 16;
            gidx[g] = xrealloc(gidx[g], gcap[g] * sizeof(size_t));
            gnode[g] = xrealloc(gnode[g], gcap[g] * sizeof(const Node *));
        }
        gidx[g][gn[g]] = i; gnode[g][gn[g]] = n; gn[g]++;
        held[ni - 1] += held_share(n, out->groups[g].model, &w[i]);
    }
    for (size_t i = 0; i < nnodes; i++) {
        PlanGroup *g = &out->groups[(uintptr_t)strmap_get(by_product, node_product(nodes[i])) - 1];
        int b = (int)ceil(held[i] - 1e-9), phys = node_physical_gpus(nodes[i]);
        if (phys > 0 && b > phys) b = phys;
        g->gpus_before += b;
    }

    for (size_t gi = 0; gi < out->ngroups; gi++) {
        PlanGroup *g = &out->groups[gi];
        qsort(g->nodes.v, g->nodes.n, sizeof(char *), str_cmp);
        GroupCtx c = { .g = g, .w = w, .idx = gidx[gi], .n = gn[gi], .node = gnode[gi],
                       .headroom = o->headroom_pct > 0 ? o->headroom_pct : 0 };
        plan_group(&c, o->choice);
        out->gpus_before += g->gpus_before;
        out->gpus_after += g->gpus_after;
        free(gidx[gi]); free(gnode[gi]);
    }
    free(gidx); free(gnode); free(gn); free(gcap); free(held);
    strmap_free(node_idx, NULL);
    strmap_free(by_product, NULL);
    return 0;
}

void plan_result_free(PlanResult *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->ngroups; i++) {
        PlanGroup *g = &r->groups[i];
        free(g->product);
        strvec_free(&g->nodes);
        mig_packing_free(&g->mig);
        sharing_plan_free(&g->share);
        free(g->assign);
        strvec_free(&g->notes);
    }
    free(r->groups);
    strvec_free(&r->warnings);
    memset(r, 0, sizeof *r);
}

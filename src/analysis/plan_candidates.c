/* plan_candidates.c — per product group, each candidate (MIG, time-slicing, MPS) computed in
 * full and compared; the chosen one keeps its packing / sharing plan and per-pod assignment
 * (rules in plan.h).
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "plan_internal.h"
#include "model/resources.h"
#include "util/strmap.h"

typedef struct {
    int after;                        /* -1 = not possible */
    PlanAssignment *assign;
    MigPacking mig;
    SharePlan share;
    const char *why_not;
} Candidate;

/* ---- candidates ---- */

static double grow_of(const GroupCtx *c, const PlanWorkload *w)
{
    return w->from_requests ? 1.0 : 1.0 + c->headroom / 100.0;
}

static void assign_base(const GroupCtx *c, size_t k, PlanAssignment *a)
{
    const PlanWorkload *w = &c->w[c->idx[k]];
    memset(a, 0, sizeof *a);
    a->workload = (uint32_t)c->idx[k];
    a->kind = PLAN_ASSIGN_WHOLE;
    a->gpus = plan_whole_need(c->node[k], c->g->model, w);
    a->instances = 1;
    if (w->has_usage) {
        double grow = grow_of(c, w);
        a->sized_memory_mib = (int64_t)ceil((double)(w->memory_mib > 0 ? w->memory_mib : 0) * grow - 1e-9);
        a->sized_utilization = plan_gpu_util(c->node[k], c->g->model, w) * grow;
    } else {
        a->sized_memory_mib = -1;
        a->sized_utilization = NAN;
    }
}

/* the larger of two assignments of one workload (whole beats MIG; more GPUs; larger share) */
static bool assignment_larger(const MigGpuModel *m, const PlanAssignment *a, const PlanAssignment *b)
{
    if (a->kind != b->kind) return a->kind == PLAN_ASSIGN_WHOLE;
    if (a->kind == PLAN_ASSIGN_WHOLE) return a->gpus > b->gpus;
    if (a->kind == PLAN_ASSIGN_MIG && m && a->profile && b->profile) {
        double sa = plan_profile_share(m, a->profile) * a->instances, sb = plan_profile_share(m, b->profile) * b->instances;
        if (sa != sb) return sa > sb;
        return a->profile->memory_mib > b->profile->memory_mib;
    }
    return false;
}

/* one pod template, one request: every pod of a workload takes the largest assignment any of
 * its pods got (pods of one workload differ only when they run on differently set up nodes) */
static void unify_mig(const GroupCtx *c, PlanAssignment *as)
{
    size_t *rep = xcalloc(c->nwid ? c->nwid : 1, sizeof *rep);
    for (size_t i = 0; i < c->nwid; i++) rep[i] = SIZE_MAX;
    for (size_t k = 0; k < c->n; k++) {
        size_t w = c->wid[k];
        if (rep[w] == SIZE_MAX || assignment_larger(c->g->model, &as[k], &as[rep[w]])) rep[w] = k;
    }
    for (size_t k = 0; k < c->n; k++) {
        const PlanAssignment *r = &as[rep[c->wid[k]]];
        if (r == &as[k]) continue;
        as[k].kind = r->kind; as[k].profile = r->profile; as[k].instances = r->instances;
        as[k].gpus = r->gpus; as[k].why = r->why;
    }
    free(rep);
}

static void eval_mig(const GroupCtx *c, Candidate *cand)
{
    const MigGpuModel *m = c->g->model;
    cand->after = -1;
    if (!m) { cand->why_not = c->g->mig_unable ? c->g->mig_unable : "the GPU model does not support MIG"; return; }
    if (c->mig_block) { cand->why_not = c->mig_block; return; }
    cand->assign = xcalloc(c->n ? c->n : 1, sizeof *cand->assign);
    for (size_t k = 0; k < c->n; k++) {
        const PlanWorkload *w = &c->w[c->idx[k]];
        PlanAssignment *a = &cand->assign[k];
        assign_base(c, k, a);
        const MigProfile *now = plan_current_profile(c->node[k], m, w), *p = NULL;
        if (!w->has_usage) {
            if (now) { p = now; a->why = PLAN_WHY_NO_USAGE_KEEPS_MIG; }
            else a->why = PLAN_WHY_NO_USAGE;
        } else if (a->gpus > 1) {
            a->why = PLAN_WHY_SEVERAL_GPUS;
        } else {
            p = mig_choose_profile(m, a->sized_memory_mib, a->sized_utilization, 0);
            if (!p) a->why = PLAN_WHY_FITS_NO_MIG;
        }
        if (p) {
            a->kind = PLAN_ASSIGN_MIG; a->profile = p; a->gpus = 0;
            a->instances = plan_mig_instances(c->node[k], m, w);
            if (w->has_usage) a->why = PLAN_WHY_NONE;
        }
    }
    unify_mig(c, cand->assign);
    int demand[MIG_MAX_PROFILES] = { 0 }, whole = 0;
    for (size_t k = 0; k < c->n; k++) {
        const PlanAssignment *a = &cand->assign[k];
        if (a->kind == PLAN_ASSIGN_MIG) demand[mig_model_profile_index(m, a->profile)] += a->instances;
        else whole += a->gpus;
    }
    if (mig_pack(m, demand, &cand->mig) != 0) { cand->why_not = "MIG packing failed"; return; }
    cand->after = cand->mig.gpus + whole;
}

/* GPUs a shared set needs with the largest safe replica count; -1 when it cannot share */
static int shared_gpus(const ShareSet *set, const bool *inc, size_t n,
                       int *replicas, int *max_replicas, ShareLimit *limit)
{
    int ns = 0;
    for (size_t i = 0; i < n; i++) ns += inc[i];
    if (ns == 0) { *replicas = 0; return 0; }
    int r = sharing_set_max_replicas(set, inc, limit);
    if (r < 2 || ns < 2) return -1;
    int gpus = (ns + r - 1) / r;
    *max_replicas = r;
    *replicas = (ns + gpus - 1) / gpus;
    return gpus;
}

/* sharing_plan decides per pod; the pods of one workload must share or not together.  For a
 * workload split between the two, both ways are computed and the one with fewer GPUs kept
 * (a tie keeps it whole: the safer). */
static void unify_sharing(const GroupCtx *c, const ShareSet *set, const ShareWorkload *sw, SharePlan *s)
{
    if (!s->possible) return;
    bool changed = false;
    bool *inc = xcalloc(c->n ? c->n : 1, sizeof *inc);
    /* per workload, its one-GPU pods and how many of them share, counted in one pass (a
     * workload's turn below changes only its own pods, so the counts hold until then) */
    int *nall = xcalloc(c->nwid ? c->nwid : 1, sizeof *nall), *nshared = xcalloc(c->nwid ? c->nwid : 1, sizeof *nshared);
    for (size_t k = 0; k < c->n; k++)
        if (c->wid[k] < c->nwid && sw[k].gpus == 1 && sw[k].memory_mib >= 0) {
            nall[c->wid[k]]++;
            nshared[c->wid[k]] += s->shared[k];
        }
    for (size_t wi = 0; wi < c->nwid; wi++) {
        if (nshared[wi] == 0 || nshared[wi] == nall[wi]) continue;
        int best = -1;
        bool best_share = false;
        for (int opt = 0; opt < 2; opt++) {            /* 0: all whole, 1: all shared */
            for (size_t k = 0; k < c->n; k++) {
                inc[k] = s->shared[k];
                if (c->wid[k] == wi && sw[k].gpus == 1 && sw[k].memory_mib >= 0) inc[k] = opt == 1;
            }
            int r = 0, mr = 0, whole = 0;
            ShareLimit lim = SHARE_LIMIT_NONE;
            int g = shared_gpus(set, inc, c->n, &r, &mr, &lim);
            if (g < 0) continue;
            for (size_t k = 0; k < c->n; k++) if (!inc[k]) whole += sw[k].gpus > 0 ? sw[k].gpus : 0;
            if (best < 0 || g + whole < best) { best = g + whole; best_share = opt == 1; }
        }
        if (best < 0) best_share = false;
        for (size_t k = 0; k < c->n; k++)
            if (c->wid[k] == wi && sw[k].gpus == 1 && sw[k].memory_mib >= 0) s->shared[k] = best_share;
        changed = true;
    }
    free(nall);
    free(nshared);
    if (changed) {
        int r = 0, mr = 0, whole = 0, nsh = 0;
        ShareLimit lim = SHARE_LIMIT_NONE;
        for (size_t k = 0; k < c->n; k++) { inc[k] = s->shared[k]; nsh += inc[k]; }
        int g = shared_gpus(set, inc, c->n, &r, &mr, &lim);
        if (g <= 0 || nsh < 2) {
            memset(s->shared, 0, c->n * sizeof(bool));
            s->possible = false;
            s->reason = "the workloads that could share are the pods of one workload that must stay whole";
            s->gpus_whole = s->gpus_after = s->gpus_before;
            s->replicas = s->max_replicas = s->shared_workloads = s->gpus_shared = 0;
        } else {
            for (size_t k = 0; k < c->n; k++) if (!inc[k]) whole += sw[k].gpus > 0 ? sw[k].gpus : 0;
            s->replicas = r; s->max_replicas = mr; s->limit = lim;
            s->shared_workloads = nsh; s->gpus_shared = g;
            s->gpus_whole = whole; s->gpus_after = g + whole;
        }
    }
    free(inc);
}

static void eval_sharing(const GroupCtx *c, ShareMode mode, Candidate *cand)
{
    cand->after = -1;
    if (mode == SHARE_MPS && c->mps_block) { cand->why_not = c->mps_block; return; }
    /* renameByDefault and failRequestsGreaterThanOne came with v0.12.0 (device plugin CHANGELOG) */
    const PlanCurrent *cur = c->o ? c->o->cur : NULL;
    if (cur && cur->dp_version_known && !plan_dp_at_least(cur, 0, 12)) {
        cand->why_not = "sharing needs device plugin v0.12.0 or later (renameByDefault, failRequestsGreaterThanOne)";
        return;
    }
    if (c->g->gpu_memory_mib <= 0) { cand->why_not = "GPU memory unknown (no GFD label, HAMi registration, MIG table or cloud label gives it)"; return; }
    ShareWorkload *sw = xcalloc(c->n ? c->n : 1, sizeof *sw);
    for (size_t k = 0; k < c->n; k++) {
        const PlanWorkload *w = &c->w[c->idx[k]];
        PlanAssignment a;
        assign_base(c, k, &a);
        /* sized here (per workload: requests are not grown), so sharing gets headroom 0 */
        sw[k].memory_mib = w->has_usage ? a.sized_memory_mib : -1;
        sw[k].utilization = w->has_usage ? a.sized_utilization : 0;
        sw[k].gpus = a.gpus;
    }
    ShareParams p = { .mode = mode, .gpu_memory_mib = c->g->gpu_memory_mib,
                      .cc_major = c->g->cc_major, .cc_minor = c->g->cc_minor,
                      .headroom_pct = 0, .mig_enabled = false };
    ShareSet *set = sharing_set_new(&p, sw, c->n);     /* sorted once for both */
    sharing_plan_set(set, &cand->share);
    unify_sharing(c, set, sw, &cand->share);
    sharing_set_free(set);
    free(sw);
    /* the pods' assignments only for a candidate that can be chosen (one that cannot share is
     * never read: 1.8 MB at the full training cluster's A100 group, beside the MIG candidate's) */
    if (!cand->share.possible) { cand->why_not = cand->share.reason; return; }
    cand->assign = xcalloc(c->n ? c->n : 1, sizeof *cand->assign);
    for (size_t k = 0; k < c->n; k++) {
        const PlanWorkload *w = &c->w[c->idx[k]];
        PlanAssignment *a = &cand->assign[k];
        assign_base(c, k, a);
        if (cand->share.shared[k]) { a->kind = PLAN_ASSIGN_SHARED; a->gpus = 0; continue; }
        a->why = !w->has_usage ? PLAN_WHY_NO_USAGE : a->gpus > 1 ? PLAN_WHY_SEVERAL_GPUS : PLAN_WHY_TOO_LARGE_TO_SHARE;
    }
    /* sharing is set per node: every GPU of a pool node counts, unless packed allocation
     * fills the pool GPU by GPU */
    int pool = plan_pool_nodes(c, cand->share.gpus_shared, cand->share.shared, NULL);
    cand->after = (c->packed ? cand->share.gpus_shared : pool) + cand->share.gpus_whole;
}

/* MPS over time-slicing (same GPUs) only when measured peaks fit MPS's per-client memory
 * limit (memory / replicas, k8s-device-plugin cmd/mps-control-daemon/mps/daemon.go); NULL when
 * safe, else why not (static or in buf) */
static const char *mps_unsafe(const GroupCtx *c, const Candidate *mps, char *buf, size_t len)
{
    int r = mps->share.replicas;
    int64_t limit = r > 0 ? c->g->gpu_memory_mib / r : 0;
    for (size_t k = 0; k < c->n; k++) {
        if (!mps->share.shared[k]) continue;
        const PlanWorkload *w = &c->w[c->idx[k]];
        if (w->from_requests || !w->has_usage)
            return "usage is not measured (requests stand in), so MPS's per-client memory limit cannot be shown safe";
        if (w->peak_memory_mib < 0) {
            snprintf(buf, len, "no peak memory is known for %s/%s", w->ns ? w->ns : "?", w->name ? w->name : "?");
            return buf;
        }
        if (w->peak_memory_mib > limit) {
            snprintf(buf, len, "%s/%s peaks at %lld MiB, above MPS's per-client limit of %lld MiB",
                     w->ns ? w->ns : "?", w->name ? w->name : "?", (long long)w->peak_memory_mib, (long long)limit);
            return buf;
        }
    }
    return NULL;
}

static void candidate_clear(Candidate *c)
{
    free(c->assign);
    mig_packing_clear(&c->mig);
    sharing_plan_clear(&c->share);
    memset(c, 0, sizeof *c);
}

/* strategy none: every pod keeps what it requests now */
static void assign_unchanged(const GroupCtx *c, size_t k, PlanAssignment *a)
{
    const PlanWorkload *w = &c->w[c->idx[k]];
    assign_base(c, k, a);
    a->unchanged = true;
    const MigProfile *p = plan_current_profile(c->node[k], c->g->model, w);
    bool shared = (w->resource && resources_is_shared(w->resource)) || c->node[k]->gpu.replicas > 1 ||
                  (w->resource && resources_is_mig(w->resource) && plan_mig_replicas(c->node[k], w->resource) > 1);
    if (shared) { a->kind = PLAN_ASSIGN_SHARED; a->gpus = 0; }
    else if (p) { a->kind = PLAN_ASSIGN_MIG; a->profile = p; a->gpus = 0; a->instances = plan_mig_instances(c->node[k], c->g->model, w); }
    else a->gpus = w->count > 0 ? w->count : 1;
}

/* Can candidate s no longer be chosen, whatever the ones not evaluated yet give?  The fewest
 * GPUs wins; a tie goes to MIG, then time-slicing, except that MPS may take a tie from
 * time-slicing (below) */
static bool candidate_beaten(const Candidate *cand, PlanStrategy s)
{
    static const PlanStrategy pref[] = { PLAN_MIG, PLAN_TIME_SLICING, PLAN_MPS };
    if (cand[s].after < 0) return true;
    bool before = true;                   /* t comes before s in pref */
    for (size_t i = 0; i < 3; i++) {
        PlanStrategy t = pref[i];
        if (t == s) { before = false; continue; }
        if (cand[t].after < 0) continue;
        if (cand[t].after < cand[s].after) return true;
        if (cand[t].after == cand[s].after && before && !(t == PLAN_TIME_SLICING && s == PLAN_MPS)) return true;
    }
    return false;
}

/* A candidate's per-pod assignments are kept only while it may be chosen: with the three
 * candidates' arrays and then the group's own beside them, a group's pods were assigned four
 * times over at once (28,835 pods of 64 bytes each in the full training cluster's A100 group) */
static void drop_beaten(Candidate *cand, bool all)
{
    for (int s = PLAN_MIG; s <= PLAN_MPS; s++)
        if (cand[s].assign && (all || candidate_beaten(cand, (PlanStrategy)s))) {
            free(cand[s].assign);
            cand[s].assign = NULL;
        }
}

void plan_choose(GroupCtx *c, PlanChoice choice)
{
    PlanGroup *g = c->g;
    Candidate cand[4];                    /* indexed by PlanStrategy */
    memset(cand, 0, sizeof cand);
    for (int s = 0; s < 4; s++) cand[s].after = -1;
    bool want_mig = choice == PLAN_CHOICE_AUTO || choice == PLAN_CHOICE_MIG;
    bool want_ts = choice == PLAN_CHOICE_AUTO || choice == PLAN_CHOICE_TIME_SLICING;
    bool want_mps = choice == PLAN_CHOICE_AUTO || choice == PLAN_CHOICE_MPS;
    if (want_mig) eval_mig(c, &cand[PLAN_MIG]);
    drop_beaten(cand, false);
    if (want_ts) eval_sharing(c, SHARE_TIME_SLICING, &cand[PLAN_TIME_SLICING]);
    drop_beaten(cand, false);
    if (want_mps) eval_sharing(c, SHARE_MPS, &cand[PLAN_MPS]);
    drop_beaten(cand, false);
    g->after_mig = cand[PLAN_MIG].after;
    g->after_time_slicing = cand[PLAN_TIME_SLICING].after;
    g->after_mps = cand[PLAN_MPS].after;

    /* the fewest GPUs; ties to MIG (hardware isolation), then time-slicing; MPS takes a tie
     * from time-slicing only when measured usage shows its memory limit is safe */
    static const PlanStrategy pref[] = { PLAN_MIG, PLAN_TIME_SLICING, PLAN_MPS };
    PlanStrategy best = PLAN_NONE;
    for (size_t i = 0; i < 3; i++) {
        PlanStrategy s = pref[i];
        if (cand[s].after < 0) continue;
        if (best == PLAN_NONE || cand[s].after < cand[best].after) best = s;
    }
    if (best == PLAN_TIME_SLICING && cand[PLAN_MPS].after == cand[best].after) {
        char buf[256];
        const char *why = mps_unsafe(c, &cand[PLAN_MPS], buf, sizeof buf);
        if (!why) {
            best = PLAN_MPS;
            strvec_pushf(&g->notes, "MPS over time-slicing (same GPUs): every shared workload's measured peak fits "
                         "MPS's per-client memory limit, and MPS isolates memory");
        } else {
            strvec_pushf(&g->notes, "time-slicing over MPS (same GPUs): %s", why);
        }
    }
    if (c->n == 0) {
        strvec_push(&g->notes, "no GPU workloads run on these nodes: nothing to plan");
        best = PLAN_NONE;
    } else if (choice == PLAN_CHOICE_AUTO && best != PLAN_NONE && cand[best].after >= g->gpus_before) {
        strvec_pushf(&g->notes, "no strategy frees a GPU (best: %s needs %d, the workloads hold %d now)",
                     plan_strategy_name(best), cand[best].after, g->gpus_before);
        if (best != PLAN_MIG && cand[best].share.possible) {
            /* what sharing would gain instead: the pool's replicas the workloads leave free */
            int pool = plan_pool_nodes(c, cand[best].share.gpus_shared, cand[best].share.shared, NULL);
            int slots = pool * cand[best].share.replicas - cand[best].share.shared_workloads;
            strvec_pushf(&g->notes, "%s would gain %d free shared slot%s (%d GPU%s x %d replicas, %d taken)%s",
                         plan_strategy_name(best), slots, slots == 1 ? "" : "s", pool, pool == 1 ? "" : "s",
                         cand[best].share.replicas, cand[best].share.shared_workloads,
                         !c->packed && cand[best].share.gpus_after < g->gpus_before
                         ? "; with packed allocation (device plugin v0.20+) it would free GPUs" : "");
        }
        best = PLAN_NONE;
    }
    if (c->n && choice != PLAN_CHOICE_AUTO && best == PLAN_NONE) {
        PlanStrategy asked = choice == PLAN_CHOICE_MIG ? PLAN_MIG
                           : choice == PLAN_CHOICE_MPS ? PLAN_MPS : PLAN_TIME_SLICING;
        strvec_pushf(&g->notes, "%s not possible: %s", plan_strategy_name(asked),
                     cand[asked].why_not ? cand[asked].why_not : "unknown");
    }
    for (int s = 1; c->n && s < 4; s++)
        if (s != (int)best && choice == PLAN_CHOICE_AUTO && cand[s].after < 0 && cand[s].why_not)
            strvec_pushf(&g->notes, "%s not possible: %s", plan_strategy_name((PlanStrategy)s), cand[s].why_not);

    g->strategy = best;
    g->tradeoff = plan_tradeoff(best);
    if (best == PLAN_NONE) {
        drop_beaten(cand, true);          /* none of them is used */
        g->gpus_after = g->gpus_before;
        g->assign = xcalloc(c->n ? c->n : 1, sizeof *g->assign);
        for (size_t k = 0; k < c->n; k++) assign_unchanged(c, k, &g->assign[k]);
    } else {
        Candidate *b = best == PLAN_MIG ? &cand[PLAN_MIG]
                     : best == PLAN_MPS ? &cand[PLAN_MPS] : &cand[PLAN_TIME_SLICING];
        g->gpus_after = b->after;
        g->assign = b->assign; b->assign = NULL;
        g->mig = b->mig; memset(&b->mig, 0, sizeof b->mig);
        g->share = b->share; memset(&b->share, 0, sizeof b->share);
        if (best != PLAN_MIG) {
            g->replicas = g->share.replicas;
            g->packed = c->packed;
            strvec_pushf(&g->notes, "%d replicas per GPU (safe up to %d, bounded by %s)",
                         g->share.replicas, g->share.max_replicas, sharing_limit_name(g->share.limit));
        }
        if (choice != PLAN_CHOICE_AUTO && g->gpus_after >= g->gpus_before)
            strvec_pushf(&g->notes, "%s frees no GPU here (%d needed, %d held now)",
                         plan_strategy_name(best), g->gpus_after, g->gpus_before);
    }
    g->nassign = c->n;
    for (int s = 0; s < 4; s++) candidate_clear(&cand[s]);
}

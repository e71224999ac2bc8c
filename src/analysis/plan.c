/* plan.c — per product group, the strategy that holds the observed workloads on the fewest
 * GPUs (rules in plan.h).  Each candidate (MIG, time-slicing, MPS) is computed in full and
 * compared; the chosen one keeps its packing / sharing plan and per-pod assignment.  Then the
 * rollout lays the result onto the group's nodes, and the risks are collected.
 */
#include "plan.h"
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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

char *plan_group_key(const char *product)
{
    const char *s = product ? product : "unknown";
    if (strncasecmp(s, "NVIDIA", 6) == 0 && s[6] && !isalnum((unsigned char)s[6]) && s[7]) s += 7;
    Strbuf sb = STRBUF_INIT;
    bool dash = true;                 /* no leading dash */
    for (; *s && sb.len < 40; s++) {
        unsigned char ch = (unsigned char)*s;
        if (isalnum(ch)) { strbuf_addch(&sb, (char)tolower(ch)); dash = false; }
        else if (!dash) { strbuf_addch(&sb, '-'); dash = true; }
    }
    while (sb.len && sb.buf[sb.len - 1] == '-') sb.buf[--sb.len] = '\0';
    if (!sb.len) strbuf_adds(&sb, "gpu");
    return strbuf_detach(&sb);
}

/* "nvidia.com/mig-<profile with + as .>" */
static char *mig_resource_name(const MigProfile *p)
{
    char *r = xasprintf("nvidia.com/mig-%s", p->name);
    for (char *q = r; *q; q++) if (*q == '+') *q = '.';
    return r;
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

/* MIG instances the workload needs: its device count when it runs on MIG devices now */
static int mig_instances(const Node *n, const MigGpuModel *m, const PlanWorkload *w)
{
    if (w->resource && current_profile(n, m, w) && !resource_is_shared(w->resource) &&
        (!resource_is_mig(w->resource) || mig_replicas(n, w->resource) <= 1))
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
    size_t *idx; size_t n;            /* the group's pods */
    const Node **node;                /* per group pod: its node */
    size_t *wid; size_t nwid;         /* per group pod: its workload (0 .. nwid-1) */
    double headroom;
} GroupCtx;

static double grow_of(const GroupCtx *c, const PlanWorkload *w)
{
    return w->from_requests ? 1.0 : 1.0 + c->headroom / 100.0;
}

static void assign_base(const GroupCtx *c, size_t k, PlanAssignment *a)
{
    const PlanWorkload *w = &c->w[c->idx[k]];
    memset(a, 0, sizeof *a);
    a->workload = c->idx[k];
    a->kind = PLAN_ASSIGN_WHOLE;
    a->gpus = whole_need(c->node[k], c->g->model, w);
    a->instances = 1;
    a->gpu_utilization = gpu_util(c->node[k], c->g->model, w);
    if (w->has_usage) {
        double grow = grow_of(c, w);
        a->sized_memory_mib = (int64_t)ceil((double)(w->memory_mib > 0 ? w->memory_mib : 0) * grow - 1e-9);
        a->sized_utilization = a->gpu_utilization * grow;
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
        double sa = profile_share(m, a->profile) * a->instances, sb = profile_share(m, b->profile) * b->instances;
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
    if (!m) { cand->why_not = "the GPU model does not support MIG"; return; }
    cand->assign = xcalloc(c->n ? c->n : 1, sizeof *cand->assign);
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
            p = mig_choose_profile(m, a->sized_memory_mib, a->sized_utilization, 0);
            if (!p) a->why = "fits no MIG profile";
        }
        if (p) {
            a->kind = PLAN_ASSIGN_MIG; a->profile = p; a->gpus = 0;
            a->instances = mig_instances(c->node[k], m, w);
            if (w->has_usage) a->why = NULL;
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
static int shared_gpus(const ShareParams *p, const ShareWorkload *sw, const bool *inc, size_t n,
                       int *replicas, int *max_replicas, ShareLimit *limit)
{
    int ns = 0;
    for (size_t i = 0; i < n; i++) ns += inc[i];
    if (ns == 0) { *replicas = 0; return 0; }
    int r = sharing_max_replicas(p, sw, inc, n, limit);
    if (r < 2 || ns < 2) return -1;
    int gpus = (ns + r - 1) / r;
    *max_replicas = r;
    *replicas = (ns + gpus - 1) / gpus;
    return gpus;
}

/* sharing_plan decides per pod; the pods of one workload must share or not together.  For a
 * workload split between the two, both ways are computed and the one with fewer GPUs kept
 * (a tie keeps it whole: the safer). */
static void unify_sharing(const GroupCtx *c, const ShareParams *p, const ShareWorkload *sw, SharePlan *s)
{
    if (!s->possible) return;
    bool changed = false;
    bool *inc = xcalloc(c->n ? c->n : 1, sizeof *inc);
    for (size_t wi = 0; wi < c->nwid; wi++) {
        int nsh = 0, nall = 0;
        for (size_t k = 0; k < c->n; k++)
            if (c->wid[k] == wi && sw[k].gpus == 1 && sw[k].memory_mib >= 0) { nall++; nsh += s->shared[k]; }
        if (nsh == 0 || nsh == nall) continue;
        int best = -1;
        bool best_share = false;
        for (int opt = 0; opt < 2; opt++) {            /* 0: all whole, 1: all shared */
            for (size_t k = 0; k < c->n; k++) {
                inc[k] = s->shared[k];
                if (c->wid[k] == wi && sw[k].gpus == 1 && sw[k].memory_mib >= 0) inc[k] = opt == 1;
            }
            int r = 0, mr = 0, whole = 0;
            ShareLimit lim = SHARE_LIMIT_NONE;
            int g = shared_gpus(p, sw, inc, c->n, &r, &mr, &lim);
            if (g < 0) continue;
            for (size_t k = 0; k < c->n; k++) if (!inc[k]) whole += sw[k].gpus > 0 ? sw[k].gpus : 0;
            if (best < 0 || g + whole < best) { best = g + whole; best_share = opt == 1; }
        }
        if (best < 0) best_share = false;
        for (size_t k = 0; k < c->n; k++)
            if (c->wid[k] == wi && sw[k].gpus == 1 && sw[k].memory_mib >= 0) s->shared[k] = best_share;
        changed = true;
    }
    if (changed) {
        int r = 0, mr = 0, whole = 0, nsh = 0;
        ShareLimit lim = SHARE_LIMIT_NONE;
        for (size_t k = 0; k < c->n; k++) { inc[k] = s->shared[k]; nsh += inc[k]; }
        int g = shared_gpus(p, sw, inc, c->n, &r, &mr, &lim);
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
    if (c->g->gpu_memory_mib <= 0) { cand->why_not = "GPU memory unknown (no GFD labels)"; return; }
    ShareWorkload *sw = xcalloc(c->n ? c->n : 1, sizeof *sw);
    cand->assign = xcalloc(c->n ? c->n : 1, sizeof *cand->assign);
    for (size_t k = 0; k < c->n; k++) {
        const PlanWorkload *w = &c->w[c->idx[k]];
        PlanAssignment *a = &cand->assign[k];
        assign_base(c, k, a);
        /* sized here (per workload: requests are not grown), so sharing gets headroom 0 */
        sw[k].memory_mib = w->has_usage ? a->sized_memory_mib : -1;
        sw[k].utilization = w->has_usage ? a->sized_utilization : 0;
        sw[k].gpus = a->gpus;
    }
    ShareParams p = { .mode = mode, .gpu_memory_mib = c->g->gpu_memory_mib,
                      .cc_major = c->g->cc_major, .cc_minor = c->g->cc_minor,
                      .headroom_pct = 0, .mig_enabled = false };
    sharing_plan(&p, sw, c->n, &cand->share);
    unify_sharing(c, &p, sw, &cand->share);
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

/* strategy none: every pod keeps what it requests now */
static void assign_unchanged(const GroupCtx *c, size_t k, PlanAssignment *a)
{
    const PlanWorkload *w = &c->w[c->idx[k]];
    assign_base(c, k, a);
    a->unchanged = true;
    const MigProfile *p = current_profile(c->node[k], c->g->model, w);
    bool shared = (w->resource && resource_is_shared(w->resource)) || c->node[k]->gpu.replicas > 1 ||
                  (w->resource && resource_is_mig(w->resource) && mig_replicas(c->node[k], w->resource) > 1);
    if (shared) { a->kind = PLAN_ASSIGN_SHARED; a->gpus = 0; }
    else if (p) { a->kind = PLAN_ASSIGN_MIG; a->profile = p; a->gpus = 0; a->instances = mig_instances(c->node[k], c->g->model, w); }
    else a->gpus = w->count > 0 ? w->count : 1;
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
    if (c->n == 0) {
        strvec_push(&g->notes, "no GPU workloads run on these nodes: nothing to plan");
        best = PLAN_NONE;
    } else if (choice == PLAN_CHOICE_AUTO && best != PLAN_NONE && cand[best].after >= g->gpus_before) {
        strvec_pushf(&g->notes, "no strategy frees a GPU (best: %s needs %d, the workloads hold %d now)",
                     plan_strategy_name(best), cand[best].after, g->gpus_before);
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
    g->tradeoff = tradeoff_of(best);
    if (best == PLAN_NONE) {
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

/* ---- per workload: one request ---- */

static const PlanWorkload *sort_w;
static const PlanAssignment *sort_as;

static int gw_cmp(const void *pa, const void *pb)
{
    const PlanGroupWorkload *a = pa, *b = pb;
    const PlanWorkload *x = &sort_w[sort_as[a->first].workload], *y = &sort_w[sort_as[b->first].workload];
    int c = strcmp(x->ns ? x->ns : "", y->ns ? y->ns : "");
    if (!c) c = strcmp(x->name ? x->name : "", y->name ? y->name : "");
    if (!c) c = strcmp(x->kind ? x->kind : "Pod", y->kind ? y->kind : "Pod");
    return c;
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void build_workloads(GroupCtx *c)
{
    PlanGroup *g = c->g;
    g->workloads = xcalloc(c->nwid ? c->nwid : 1, sizeof *g->workloads);
    g->nworkloads = c->nwid;
    for (size_t i = 0; i < c->nwid; i++) g->workloads[i].first = SIZE_MAX;
    for (size_t k = 0; k < c->n; k++) {
        PlanGroupWorkload *gw = &g->workloads[c->wid[k]];
        if (gw->first == SIZE_MAX) gw->first = k;
        gw->pods++;
        const char *node = c->w[c->idx[k]].node;
        if (node && !strvec_contains(&gw->nodes, node)) strvec_push(&gw->nodes, node);
    }
    for (size_t i = 0; i < g->nworkloads; i++) {
        PlanGroupWorkload *gw = &g->workloads[i];
        const PlanAssignment *a = &g->assign[gw->first];
        const PlanWorkload *w = &c->w[a->workload];
        if (gw->nodes.n > 1) qsort(gw->nodes.v, gw->nodes.n, sizeof(char *), str_cmp);
        if (a->unchanged) {
            gw->request_resource = xstrdup(w->resource ? w->resource : "nvidia.com/gpu");
            gw->request_count = w->count > 0 ? w->count : 1;
        } else if (a->kind == PLAN_ASSIGN_MIG) {
            gw->request_resource = mig_resource_name(a->profile);
            gw->request_count = a->instances > 0 ? a->instances : 1;
        } else if (a->kind == PLAN_ASSIGN_SHARED) {
            gw->request_resource = xstrdup("nvidia.com/gpu.shared");
            gw->request_count = 1;
        } else {
            gw->request_resource = xstrdup("nvidia.com/gpu");
            gw->request_count = a->gpus > 0 ? a->gpus : 1;
        }
    }
    sort_w = c->w; sort_as = g->assign;
    if (g->nworkloads > 1) qsort(g->workloads, g->nworkloads, sizeof *g->workloads, gw_cmp);
    sort_w = NULL; sort_as = NULL;
}

/* ---- rollout: the plan laid onto the group's nodes ---- */

static const char *config_name(PlanGroup *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *config_name(PlanGroup *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    for (size_t i = 0; i < g->config_names.n; i++)
        if (strcmp(g->config_names.v[i], s) == 0) { free(s); return g->config_names.v[i]; }
    strvec_push(&g->config_names, s);
    free(s);
    return g->config_names.v[g->config_names.n - 1];
}

static int int_desc(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x < y) - (x > y);
}

/* whole-GPU pods first fit decreasing into the nodes that are not shared; returns the GPUs of
 * the pods that found no node */
static int place_whole(PlanGroup *g, const GroupCtx *c)
{
    int *need = xcalloc(c->n ? c->n : 1, sizeof(int));
    size_t nn = 0;
    for (size_t k = 0; k < c->n; k++)
        if (g->assign[k].kind == PLAN_ASSIGN_WHOLE) need[nn++] = g->assign[k].gpus > 0 ? g->assign[k].gpus : 1;
    qsort(need, nn, sizeof(int), int_desc);
    int unplaced = 0;
    for (size_t i = 0; i < nn; i++) {
        bool placed = false;
        for (size_t j = 0; j < g->nplan_nodes && !placed; j++) {
            PlanNode *pn = &g->plan_nodes[j];
            if (pn->shared || pn->gpus - pn->whole_used - pn->mig_gpus < need[i]) continue;
            pn->whole_used += need[i];
            placed = true;
        }
        if (!placed) unplaced += need[i];
    }
    free(need);
    return unplaced;
}

static void rollout_mig(PlanGroup *g, const GroupCtx *c)
{
    int unplaced = place_whole(g, c);
    /* MIG GPUs, in packing order, onto the GPUs left free on each node, first nodes first */
    int next = 0, total = g->mig.gpus;
    for (size_t j = 0; j < g->nplan_nodes && next < total; j++) {
        PlanNode *pn = &g->plan_nodes[j];
        int free_gpus = pn->gpus - pn->whole_used;
        for (int i = 0; i < free_gpus && next < total; i++) pn->mig_gpus++, next++;
    }
    if (unplaced)
        strvec_pushf(&g->risks, "%d whole GPU%s of multi-GPU pods find no node with enough free GPUs "
                     "under this layout", unplaced, unplaced == 1 ? "" : "s");
    if (next < total)
        strvec_pushf(&g->risks, "the MIG layouts need %d more GPU%s than the group's nodes have free",
                     total - next, total - next == 1 ? "" : "s");
    /* GPU indices: MIG GPUs first (packing order), the rest MIG-disabled; nodes with the same
     * geometry share one mig-parted config */
    g->device_plugin_config = xasprintf("kgpu-%s-mig", g->key);
    StrMap *by_sig = strmap_new();
    int gpu = 0, nconf = 0;
    for (size_t j = 0; j < g->nplan_nodes; j++) {
        PlanNode *pn = &g->plan_nodes[j];
        pn->gpu_layout = xcalloc(pn->gpus > 0 ? (size_t)pn->gpus : 1, sizeof(int));
        Strbuf sig = STRBUF_INIT;
        strbuf_addf(&sig, "%d:", pn->gpus);
        for (int i = 0; i < pn->gpus; i++) {
            int lg = -1;
            if (i < pn->mig_gpus) {
                int idx = gpu++, acc = 0;
                for (size_t q = 0; q < g->mig.ngroups; q++) {
                    if (idx < acc + g->mig.groups[q].gpus) { lg = (int)q; break; }
                    acc += g->mig.groups[q].gpus;
                }
            }
            pn->gpu_layout[i] = lg;
            strbuf_addf(&sig, "%d,", lg);
        }
        pn->device_plugin_config = g->device_plugin_config;
        if (pn->mig_gpus == 0) {
            pn->mig_config = "all-disabled";
        } else {
            const char *name = strmap_get(by_sig, strbuf_str(&sig));
            if (!name) {
                name = config_name(g, "kgpu-%s-mig-%d", g->key, ++nconf);
                strmap_put(by_sig, strbuf_str(&sig), (void *)name);
            }
            pn->mig_config = name;
        }
        strbuf_free(&sig);
        /* resources the device plugin advertises afterwards (mixed strategy) */
        for (int i = 0; i < pn->gpus; i++) {
            if (pn->gpu_layout[i] < 0) { rlist_add(&pn->expected, "nvidia.com/gpu", 1000); continue; }
            const MigLayout *l = &g->mig.groups[pn->gpu_layout[i]].layout;
            for (size_t q = 0; q < g->model->nprofiles; q++) {
                if (!l->counts[q]) continue;
                char *r = mig_resource_name(&g->model->profiles[q]);
                rlist_add(&pn->expected, r, (int64_t)l->counts[q] * 1000);
                free(r);
            }
        }
        rlist_sort(&pn->expected);
    }
    strmap_free(by_sig, NULL);
}

static void rollout_sharing(PlanGroup *g, const GroupCtx *c)
{
    const char *word = g->strategy == PLAN_MPS ? "mps" : "time-slicing";
    g->device_plugin_config = xasprintf("kgpu-%s-%s", g->key, word);
    g->device_plugin_whole_config = xasprintf("kgpu-%s-whole", g->key);
    /* the first nodes (by name) share until they hold the shared GPUs; the others stay whole */
    int need = g->share.gpus_shared, have = 0;
    for (size_t j = 0; j < g->nplan_nodes && have < need; j++) {
        if (g->plan_nodes[j].gpus <= 0) continue;
        g->plan_nodes[j].shared = true;
        have += g->plan_nodes[j].gpus;
    }
    int unplaced = place_whole(g, c);
    if (have < need)
        strvec_pushf(&g->risks, "sharing needs %d GPUs, the group has %d", need, have);
    if (unplaced)
        strvec_pushf(&g->risks, "%d GPU%s of pods kept whole find no node without sharing (renamed "
                     "shared GPUs do not serve nvidia.com/gpu): keep one more node unshared, or let "
                     "them share", unplaced, unplaced == 1 ? "" : "s");
    for (size_t j = 0; j < g->nplan_nodes; j++) {
        PlanNode *pn = &g->plan_nodes[j];
        pn->gpu_layout = xcalloc(pn->gpus > 0 ? (size_t)pn->gpus : 1, sizeof(int));
        for (int i = 0; i < pn->gpus; i++) pn->gpu_layout[i] = -1;
        pn->device_plugin_config = pn->shared ? g->device_plugin_config : g->device_plugin_whole_config;
        /* MIG must be off for whole GPUs and sharing (MPS refuses MIG devices) */
        if (g->model) pn->mig_config = "all-disabled";
        if (pn->gpus > 0) {
            if (pn->shared) rlist_set(&pn->expected, "nvidia.com/gpu.shared", (int64_t)pn->gpus * g->replicas * 1000);
            else rlist_set(&pn->expected, "nvidia.com/gpu", (int64_t)pn->gpus * 1000);
        }
    }
}

static void rollout(PlanGroup *g, const GroupCtx *c, const Node *const *gnodes)
{
    g->nplan_nodes = g->nodes.n;
    g->plan_nodes = xcalloc(g->nodes.n ? g->nodes.n : 1, sizeof *g->plan_nodes);
    for (size_t j = 0; j < g->nodes.n; j++) {
        g->plan_nodes[j].name = g->nodes.v[j];
        g->plan_nodes[j].gpus = node_physical_gpus(gnodes[j]);
    }
    if (g->strategy == PLAN_MIG) rollout_mig(g, c);
    else if (g->strategy == PLAN_TIME_SLICING || g->strategy == PLAN_MPS) rollout_sharing(g, c);
    /* a node whose GPU count is unknown (no GFD labels, no GPU capacity) is left alone */
    for (size_t j = 0; j < g->nplan_nodes; j++)
        if (g->plan_nodes[j].gpus <= 0 && g->strategy != PLAN_NONE) {
            g->plan_nodes[j].mig_config = g->plan_nodes[j].device_plugin_config = NULL;
            strvec_pushf(&g->risks, "%s: GPU count unknown — left as it is", g->plan_nodes[j].name);
        }
}

/* ---- risks ---- */

static void collect_risks(PlanGroup *g, const GroupCtx *c)
{
    for (size_t i = 0; i < g->nworkloads; i++) {
        const PlanGroupWorkload *gw = &g->workloads[i];
        const PlanAssignment *a = &g->assign[gw->first];
        const PlanWorkload *w = &c->w[a->workload];
        const char *ns = w->ns ? w->ns : "?", *name = w->name ? w->name : "?";
        if (!w->has_usage) {
            strvec_pushf(&g->risks, "%s/%s: no usage data — %s", ns, name,
                         a->unchanged ? "left as it is" : a->kind == PLAN_ASSIGN_MIG ? "keeps its MIG profile"
                                                                                  : "keeps whole GPUs");
            continue;
        }
        if (!w->from_requests && w->coverage == w->coverage && w->coverage < PLAN_LITTLE_DATA)
            strvec_pushf(&g->risks, "%s/%s: little data — only about %.0f%% of the window has samples; "
                         "its sizing may be too small", ns, name, w->coverage * 100);
        if (w->utilization_unknown)
            strvec_pushf(&g->risks, "%s/%s: no utilization series — assumed to use all of its device",
                         ns, name);
        if (a->unchanged) continue;
        if (a->kind == PLAN_ASSIGN_WHOLE && a->why &&
            (strcmp(a->why, "fits no MIG profile") == 0 || strcmp(a->why, "too large to share safely") == 0))
            strvec_pushf(&g->risks, "%s/%s: %" PRId64 " MiB and %.0f%% (with headroom) %s — keeps a whole GPU",
                         ns, name, a->sized_memory_mib, a->sized_utilization, a->why);
        if (w->peak_memory_mib > 0) {
            if (a->kind == PLAN_ASSIGN_MIG && a->profile && w->peak_memory_mib > a->profile->memory_mib)
                strvec_pushf(&g->risks, "%s/%s: its peak of %" PRId64 " MiB exceeds the %s slice's %" PRId64
                             " MiB — it would fail at such a peak (raise --percentile or --headroom)",
                             ns, name, w->peak_memory_mib, a->profile->name, a->profile->memory_mib);
            else if (a->kind == PLAN_ASSIGN_SHARED && g->strategy == PLAN_MPS && g->replicas > 0 &&
                     w->peak_memory_mib > g->gpu_memory_mib / g->replicas)
                strvec_pushf(&g->risks, "%s/%s: its peak of %" PRId64 " MiB exceeds the MPS client limit of %"
                             PRId64 " MiB — it would fail at such a peak", ns, name, w->peak_memory_mib,
                             g->gpu_memory_mib / g->replicas);
            else if (a->kind == PLAN_ASSIGN_SHARED && g->strategy == PLAN_TIME_SLICING &&
                     w->peak_memory_mib > a->sized_memory_mib)
                strvec_pushf(&g->risks, "%s/%s: its peak of %" PRId64 " MiB is above the %" PRId64 " MiB it "
                             "was sized for — with time-slicing such a peak takes memory from the others",
                             ns, name, w->peak_memory_mib, a->sized_memory_mib);
        }
    }
    if (g->strategy == PLAN_MIG) {
        if (g->mig.optimal)
            strvec_pushf(&g->risks, "optimality: the MIG packing (%d GPU%s) is proven minimal for these slices",
                         g->mig.gpus, g->mig.gpus == 1 ? "" : "s");
        else
            strvec_pushf(&g->risks, "optimality: the MIG packing uses %d GPUs; no packing uses fewer than %d, "
                         "so at most %d GPU%s could be saved by a better one", g->mig.gpus, g->mig.lower_bound,
                         g->mig.gpus - g->mig.lower_bound, g->mig.gpus - g->mig.lower_bound == 1 ? "" : "s");
        if (g->model && g->model->placements_inferred)
            strvec_pushf(&g->risks, "the MIG placement rules of %s are inferred from NVIDIA's tables, not "
                         "observed on hardware", g->model->display);
    } else if (g->strategy == PLAN_TIME_SLICING || g->strategy == PLAN_MPS) {
        strvec_pushf(&g->risks, "optimality: %d replicas per GPU is the largest safe count for the shared "
                     "workloads' worst case (bounded by %s); workloads kept whole were tried one by one",
                     g->share.max_replicas, share_limit_name(g->share.limit));
    }
}

/* ---- groups ---- */

static int group_cmp(const void *a, const void *b)
{
    return strcmp(((const PlanGroup *)a)->product, ((const PlanGroup *)b)->product);
}

static const char *node_product(const Node *n)
{
    if (n->gpu.base_product && *n->gpu.base_product) return n->gpu.base_product;
    if (n->gpu.product && *n->gpu.product) return n->gpu.product;
    return "unknown";
}

static int node_name_cmp(const void *a, const void *b)
{
    const Node *x = *(const Node *const *)a, *y = *(const Node *const *)b;
    return strcmp(x->name, y->name);
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
    if (out->ngroups > 1) qsort(out->groups, out->ngroups, sizeof *out->groups, group_cmp);
    for (size_t gi = 0; gi < out->ngroups; gi++) {
        strmap_put(by_product, out->groups[gi].product, (void *)(uintptr_t)(gi + 1));
        /* config-name keys must differ between groups: products that sanitise alike get -2, -3 */
        char *key = plan_group_key(out->groups[gi].product);
        int dup = 1;
        for (size_t gj = 0; gj < gi; gj++)
            if (str_starts_with(out->groups[gj].key, key)) dup++;
        out->groups[gi].key = dup > 1 ? xasprintf("%s-%d", key, dup) : xstrdup(key);
        free(key);
    }

    /* nodes: group facts; per node: its group and the shares held on it */
    size_t ng1 = out->ngroups ? out->ngroups : 1;
    const Node ***gnodes = xcalloc(ng1, sizeof(const Node **));
    size_t *gnn = xcalloc(ng1, sizeof(size_t));
    StrMap *node_idx = strmap_new();
    double *held = xcalloc(nnodes ? nnodes : 1, sizeof(double));
    for (size_t i = 0; i < nnodes; i++) {
        const Node *n = nodes[i];
        size_t gi = (uintptr_t)strmap_get(by_product, node_product(n)) - 1;
        PlanGroup *g = &out->groups[gi];
        strvec_push(&g->nodes, n->name);
        gnodes[gi] = xrealloc(gnodes[gi], (gnn[gi] + 1) * sizeof(const Node *));
        gnodes[gi][gnn[gi]++] = n;
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

    /* pods into groups; workloads numbered per group */
    size_t **gidx = xcalloc(ng1, sizeof(size_t *));
    const Node ***gnode = xcalloc(ng1, sizeof(const Node **));
    size_t **gwid = xcalloc(ng1, sizeof(size_t *));
    size_t *gn = xcalloc(ng1, sizeof(size_t)), *gcap = xcalloc(ng1, sizeof(size_t));
    size_t *gnw = xcalloc(ng1, sizeof(size_t));
    StrMap *wl_ids = strmap_new();            /* "group ns kind name" -> id + 1 */
    StrMap *wl_groups = strmap_new();         /* "ns kind name" -> first group + 1 */
    for (size_t i = 0; i < nw; i++) {
        uintptr_t ni = w[i].node ? (uintptr_t)strmap_get(node_idx, w[i].node) : 0;
        if (!ni) {
            strvec_pushf(&out->warnings, "%s/%s runs on %s, outside the selected GPU nodes: not planned",
                         w[i].ns ? w[i].ns : "?", w[i].pod ? w[i].pod : w[i].name ? w[i].name : "?",
                         w[i].node ? w[i].node : "no node");
            continue;
        }
        const Node *n = nodes[ni - 1];
        size_t g = (uintptr_t)strmap_get(by_product, node_product(n)) - 1;
        if (gn[g] >= gcap[g]) {
            gcap[g] = gcap[g] ? gcap[g] * 2 : 16;
            gidx[g] = xrealloc(gidx[g], gcap[g] * sizeof(size_t));
            gnode[g] = xrealloc(gnode[g], gcap[g] * sizeof(const Node *));
            gwid[g] = xrealloc(gwid[g], gcap[g] * sizeof(size_t));
        }
        char *wkey = xasprintf("%s\x1f%s\x1f%s", w[i].ns ? w[i].ns : "", w[i].kind ? w[i].kind : "Pod",
                               w[i].name ? w[i].name : "");
        char *key = xasprintf("%zu\x1f%s", g, wkey);
        uintptr_t id = (uintptr_t)strmap_get(wl_ids, key);
        if (!id) { id = ++gnw[g]; strmap_put(wl_ids, key, (void *)id); }
        uintptr_t first = (uintptr_t)strmap_get(wl_groups, wkey);
        if (!first) strmap_put(wl_groups, wkey, (void *)(uintptr_t)(g + 1));
        else if (first != g + 1 && first != UINTPTR_MAX) {
            strvec_pushf(&out->warnings, "%s/%s runs on %s and %s nodes: one pod template can request only "
                         "one of the planned resources; pin it to one product with a nodeSelector on "
                         "nvidia.com/gpu.product", w[i].ns ? w[i].ns : "?", w[i].name ? w[i].name : "?",
                         out->groups[first - 1].product, out->groups[g].product);
            strmap_put(wl_groups, wkey, (void *)UINTPTR_MAX);
        }
        free(key); free(wkey);
        gidx[g][gn[g]] = i; gnode[g][gn[g]] = n; gwid[g][gn[g]] = id - 1; gn[g]++;
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
        if (gnn[gi] > 1) qsort(gnodes[gi], gnn[gi], sizeof(const Node *), node_name_cmp);
        GroupCtx c = { .g = g, .w = w, .idx = gidx[gi], .n = gn[gi], .node = gnode[gi],
                       .wid = gwid[gi], .nwid = gnw[gi],
                       .headroom = o->headroom_pct > 0 ? o->headroom_pct : 0 };
        plan_group(&c, o->choice);
        build_workloads(&c);
        rollout(g, &c, gnodes[gi]);
        collect_risks(g, &c);
        out->gpus_before += g->gpus_before;
        out->gpus_after += g->gpus_after;
        free(gidx[gi]); free(gnode[gi]); free(gwid[gi]); free(gnodes[gi]);
    }
    free(gidx); free(gnode); free(gwid); free(gn); free(gcap); free(gnw); free(held);
    free(gnodes); free(gnn);
    strmap_free(wl_ids, NULL);
    strmap_free(wl_groups, NULL);
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
        free(g->key);
        strvec_free(&g->nodes);
        mig_packing_free(&g->mig);
        sharing_plan_free(&g->share);
        free(g->assign);
        for (size_t j = 0; j < g->nworkloads; j++) {
            strvec_free(&g->workloads[j].nodes);
            free(g->workloads[j].request_resource);
        }
        free(g->workloads);
        for (size_t j = 0; j < g->nplan_nodes; j++) {
            free(g->plan_nodes[j].gpu_layout);
            rlist_free(&g->plan_nodes[j].expected);
        }
        free(g->plan_nodes);
        strvec_free(&g->config_names);
        free(g->device_plugin_config);
        free(g->device_plugin_whole_config);
        strvec_free(&g->notes);
        strvec_free(&g->risks);
    }
    free(r->groups);
    strvec_free(&r->warnings);
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------------------------------------ */
/* step 1: from the cluster to PlanWorkloads                                                   */

void plan_pod_workload(const Pod *p, const char **kind, const char **name, char **tofree)
{
    *tofree = NULL;
    if (p->owner_kind && p->owner_name && *p->owner_name) {
        if (strcmp(p->owner_kind, "ReplicaSet") == 0) {
            const char *hash = kv_get(&p->labels, "pod-template-hash");
            size_t ol = strlen(p->owner_name), hl = hash ? strlen(hash) : 0;
            if (hash && hl && ol > hl + 1 && p->owner_name[ol - hl - 1] == '-' &&
                strcmp(p->owner_name + ol - hl, hash) == 0) {
                *tofree = xstrndup(p->owner_name, ol - hl - 1);
                *kind = "Deployment";
                *name = *tofree;
                return;
            }
        }
        *kind = p->owner_kind;
        *name = p->owner_name;
        return;
    }
    *kind = "Pod";
    *name = p->name;
}

static bool all_alnum(const char *s, size_t n)
{
    if (n == 0) return false;
    for (size_t i = 0; i < n; i++) if (!isalnum((unsigned char)s[i])) return false;
    return true;
}

/* does a pod name follow the naming of this workload's pods?  (for pods that are gone) */
static bool name_follows(const char *pod, const char *kind, const char *wname)
{
    size_t wl = strlen(wname);
    if (strcmp(kind, "Pod") == 0 || strncmp(pod, wname, wl) != 0 || pod[wl] != '-') return false;
    const char *rest = pod + wl + 1;
    size_t rl = strlen(rest);
    if (strcmp(kind, "Deployment") == 0) {
        const char *dash = strchr(rest, '-');
        return dash && all_alnum(rest, (size_t)(dash - rest)) && strlen(dash + 1) == 5 &&
               all_alnum(dash + 1, 5);
    }
    if (strcmp(kind, "StatefulSet") == 0) {
        for (size_t i = 0; i < rl; i++) if (!isdigit((unsigned char)rest[i])) return false;
        return rl > 0;
    }
    if (strcmp(kind, "ReplicaSet") == 0 || strcmp(kind, "Job") == 0 || strcmp(kind, "DaemonSet") == 0)
        return rl == 5 && all_alnum(rest, 5);
    return rl > 0;                    /* other controllers name their pods their own way */
}

typedef struct {
    const char *ns, *kind, *name;     /* borrowed from PlanInput.owned */
    double mem_pct, mem_peak, util_pct, util_peak, samples;
    int pods;                         /* its pods holding GPUs now */
} WlAgg;

static double nan_max(double a, double b)
{
    if (a != a) return b;
    if (b != b) return a;
    return a > b ? a : b;
}

static const char *own(PlanInput *in, const char *s)
{
    if (!s) return NULL;
    strvec_push(&in->owned, s);
    return in->owned.v[in->owned.n - 1];
}

/* the GPU resource a pod requests (the largest count) */
static const char *pod_gpu_resource(const Pod *p, int *count, int *nres)
{
    const char *best = NULL;
    int64_t bm = 0;
    *nres = 0;
    for (size_t i = 0; i < p->requests.n; i++) {
        const ResourceEntry *e = &p->requests.items[i];
        if (!resource_is_gpu(e->name) || e->milli <= 0) continue;
        (*nres)++;
        if (!best || e->milli > bm) { best = e->name; bm = e->milli; }
    }
    *count = (int)((bm + 999) / 1000);
    return best;
}

/* the request standing in for usage: memory and utilization of what the pod holds */
static bool usage_from_request(const Node *n, const char *resource, int64_t *mem, double *util)
{
    const MigGpuModel *m = mig_model_for_product(n->gpu.base_product ? n->gpu.base_product : n->gpu.product);
    const MigProfile *p = NULL;
    int replicas = 1;
    if (resource_is_mig(resource)) {
        char *prof = resource_mig_profile(resource);
        p = m ? mig_model_profile(m, prof) : NULL;
        for (size_t i = 0; prof && i < n->gpu.nmig; i++)
            if (str_eq(n->gpu.mig[i].profile, prof)) {
                if (n->gpu.mig[i].replicas > 1) replicas = n->gpu.mig[i].replicas;
                if (!p && n->gpu.mig[i].memory_mib > 0) { *mem = n->gpu.mig[i].memory_mib / replicas; *util = 100.0 / replicas; free(prof); return true; }
            }
        free(prof);
        if (!p) return false;
        *mem = p->memory_mib / replicas;
        *util = 100.0 / replicas;             /* of the instance; the plan scales it */
        return true;
    }
    if (n->gpu.mig_strategy == MIG_SINGLE && n->gpu.mig_single_profile && str_eq(resource, "nvidia.com/gpu")) {
        p = m ? mig_model_profile(m, n->gpu.mig_single_profile) : NULL;
        if (!p) return false;
        *mem = p->memory_mib;
        *util = 100.0;
        return true;
    }
    replicas = n->gpu.replicas > 1 ? n->gpu.replicas : 1;
    int64_t total = n->gpu.memory_mib;
    if (total <= 0) return false;
    *mem = total / replicas;
    *util = 100.0 / replicas;
    return true;
}

void plan_input_build(PlanInput *in, const Cluster *c, const Node *const *nodes, size_t nnodes,
                      const WorkloadUsage *u, size_t nu, bool metrics)
{
    memset(in, 0, sizeof *in);
    in->from_requests = !metrics;
    StrMap *planned = strmap_new();
    for (size_t i = 0; i < nnodes; i++) strmap_put(planned, nodes[i]->name, (void *)nodes[i]);

    /* the workloads of the GPU pods on the planned nodes */
    StrMap *wl = strmap_new();                /* "ns kind name" -> index + 1 */
    WlAgg *agg = NULL;
    size_t nagg = 0, capagg = 0;
    size_t *pod_wl = xcalloc(c->npods ? c->npods : 1, sizeof(size_t));   /* index + 1, 0 = not planned */
    for (size_t i = 0; i < c->npods; i++) {
        const Pod *p = &c->pods[i];
        if (!pod_holds_resources(p) || !pod_requests_gpu(p)) continue;
        if (!strmap_get(planned, p->node_name)) { in->pods_elsewhere++; continue; }
        const char *kind, *name;
        char *tofree;
        plan_pod_workload(p, &kind, &name, &tofree);
        char *key = xasprintf("%s\x1f%s\x1f%s", p->ns, kind, name);
        size_t idx = (size_t)(uintptr_t)strmap_get(wl, key);
        if (!idx) {
            ARRAY_GROW(agg, nagg, capagg);
            WlAgg *a = &agg[nagg++];
            a->ns = own(in, p->ns); a->kind = own(in, kind); a->name = own(in, name);
            a->mem_pct = a->mem_peak = a->util_pct = a->util_peak = NAN;
            a->samples = 0;
            a->pods = 0;
            strmap_put(wl, key, (void *)(uintptr_t)nagg);
            idx = nagg;
        }
        pod_wl[i] = idx;
        agg[idx - 1].pods++;
        free(key);
        free(tofree);
    }

    /* usage: every series of a pod that is, or was, one of these workloads' */
    double ref = 0;
    StrMap *pod_samples = strmap_new();       /* "ns pod" -> (samples, workload) record */
    typedef struct { double samples; size_t wl; } PodRec;
    PodRec *recs = xcalloc(nu ? nu : 1, sizeof *recs);
    size_t nrec = 0;
    for (size_t i = 0; metrics && i < nu; i++) {
        const WorkloadUsage *x = &u[i];
        if (!x->pod) continue;
        size_t idx = 0;
        const Pod *p = cluster_find_pod(c, x->ns ? x->ns : "", x->pod);
        if (p) {
            size_t pi = (size_t)(p - c->pods);
            idx = pi < c->npods ? pod_wl[pi] : 0;
        } else {
            /* a pod that is gone: the workload whose naming it follows (the longest name) */
            size_t best_len = 0;
            for (size_t j = 0; j < nagg; j++) {
                if (!str_eq(agg[j].ns, x->ns ? x->ns : "")) continue;
                size_t l = strlen(agg[j].name);
                if (l > best_len && name_follows(x->pod, agg[j].kind, agg[j].name)) { idx = j + 1; best_len = l; }
            }
        }
        if (x->samples > ref) ref = x->samples;
        if (!idx) continue;
        WlAgg *a = &agg[idx - 1];
        a->mem_pct = nan_max(a->mem_pct, x->mem_pct_mib);
        a->mem_peak = nan_max(a->mem_peak, x->mem_peak_mib);
        a->util_pct = nan_max(a->util_pct, x->util_pct);
        a->util_peak = nan_max(a->util_peak, x->util_peak);
        char *pk = xasprintf("%s\x1f%s", x->ns ? x->ns : "", x->pod);
        size_t r = (size_t)(uintptr_t)strmap_get(pod_samples, pk);
        if (!r) { recs[nrec] = (PodRec){ 0, idx }; r = ++nrec; strmap_put(pod_samples, pk, (void *)(uintptr_t)r); }
        free(pk);
        if (x->samples > recs[r - 1].samples) recs[r - 1].samples = x->samples;
    }
    for (size_t r = 0; r < nrec; r++) agg[recs[r].wl - 1].samples += recs[r].samples;
    free(recs);
    strmap_free(pod_samples, NULL);

    /* one PlanWorkload per pod */
    size_t cap = 0;
    for (size_t i = 0; i < c->npods; i++) {
        if (!pod_wl[i]) continue;
        const Pod *p = &c->pods[i];
        const WlAgg *a = &agg[pod_wl[i] - 1];
        const Node *n = strmap_get(planned, p->node_name);
        int count = 0, nres = 0;
        const char *res = pod_gpu_resource(p, &count, &nres);
        if (nres > 1)
            strvec_pushf(&in->warnings, "%s/%s requests several GPU resources: planned by %s only",
                         p->ns, p->name, res);
        ARRAY_GROW(in->w, in->n, cap);
        PlanWorkload *w = &in->w[in->n++];
        memset(w, 0, sizeof *w);
        w->ns = a->ns; w->kind = a->kind; w->name = a->name;
        w->pod = own(in, p->name);
        w->node = own(in, p->node_name);
        w->resource = own(in, res);
        w->count = count;
        w->peak_memory_mib = -1;
        w->peak_utilization = NAN;
        w->coverage = NAN;
        if (!metrics) {
            int64_t mem;
            double util;
            if (usage_from_request(n, res, &mem, &util)) {
                w->has_usage = true;
                w->from_requests = true;
                w->memory_mib = mem;
                w->utilization = util;
            }
            continue;
        }
        if (a->mem_pct == a->mem_pct) {
            w->has_usage = true;
            w->memory_mib = (int64_t)ceil(a->mem_pct - 1e-9);
            if (a->util_pct == a->util_pct) w->utilization = a->util_pct;
            else { w->utilization = 100; w->utilization_unknown = true; }
            w->peak_memory_mib = a->mem_peak == a->mem_peak ? (int64_t)ceil(a->mem_peak - 1e-9) : -1;
            w->peak_utilization = a->util_peak;
            /* samples per current pod against one series over the whole window: replicas
             * running side by side count once, a pod and the one it replaced add up */
            w->coverage = ref > 0 && a->pods > 0 ? fmin(1.0, a->samples / (ref * a->pods)) : NAN;
        }
    }
    free(pod_wl);
    free(agg);
    strmap_free(wl, NULL);
    strmap_free(planned, NULL);
}

void plan_input_free(PlanInput *in)
{
    if (!in) return;
    free(in->w);
    strvec_free(&in->owned);
    strvec_free(&in->warnings);
    memset(in, 0, sizeof *in);
}

/* plan.c — kubectl gpu plan, the top floor: the names of choices and assignments, the grouping
 * of nodes and pods by product (each group's MIG capability, healthy GPUs and memory), and
 * plan_build, which runs the stages per group: candidates (plan_candidates.c), rollout and
 * risks (plan_rollout.c), both on plan_group.c.  Rules in plan.h.
 */
#include "analysis/plan.h"
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "plan_internal.h"
#include "analysis/health.h"
#include "model/mig_capability.h"
#include "model/resources.h"
#include "util/strpool.h"
#include "util/strmap.h"

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

int plan_label_int(const Node *n, const char *key)
{
    int64_t v;
    const char *s = kv_get(&n->labels, key);
    return s && str_to_int64(s, &v) && v >= 0 && v < 1000 ? (int)v : 0;
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

/* MIG capability of a group, from every node of it (mig_capability, never the memory
 * size): a node that cannot take MIG keeps the group off MIG, and so does one no signal speaks
 * for (said as unknown); g->model is the MIG table only when MIG can be planned */
static void group_mig_capability(PlanGroup *g, const Node *const *nodes, size_t nnodes)
{
    const MigGpuModel *model = NULL;
    const Node *no = NULL, *unknown = NULL;
    const char *no_src = NULL;
    for (size_t i = 0; i < nnodes; i++) {
        if (strcmp(node_product(nodes[i]), g->product) != 0) continue;
        MigCapability mc = mig_capability(nodes[i]);
        if (mc.capable == MIG_CAP_NO && !no) { no = nodes[i]; no_src = mc.source; }
        else if (mc.capable == MIG_CAP_UNKNOWN && !unknown) unknown = nodes[i];
        else if (mc.capable == MIG_CAP_YES && !model) model = mc.model;
    }
    g->model = NULL;
    if (no)
        g->mig_unable = xasprintf("the GPU model does not support MIG (%s: %s)", no->name, no_src ? no_src : "?");
    else if (unknown)
        g->mig_unable = xasprintf("MIG capability unknown on %s (no nvidia.com/mig.capable label, MIG devices or "
                                  "GPU model the MIG tables name): not planned", unknown->name);
    else if (!model)
        g->mig_unable = xasprintf("MIG-capable, but the MIG tables do not know the %s's profiles", g->product);
    else g->model = model;
}

/* the GPUs of n a plan may count on: the healthy ones; warns once per node that has unhealthy */
static int group_capacity(PlanResult *out, const Node *n)
{
    int phys = inventory_physical_gpus(n), healthy = health_good_gpus(n);
    if (phys > healthy)
        strvec_pushf(&out->warnings, "%s: %d of its %d GPU%s unhealthy, not counted as capacity", n->name,
                     phys - healthy, phys, phys == 1 ? "" : "s");
    return healthy;
}

/* undo plan_choose (to choose again) */
static void group_reset(PlanGroup *g)
{
    free(g->assign); g->assign = NULL; g->nassign = 0;
    mig_packing_clear(&g->mig); memset(&g->mig, 0, sizeof g->mig);
    sharing_plan_clear(&g->share); memset(&g->share, 0, sizeof g->share);
    strvec_clear(&g->notes);
    g->strategy = PLAN_NONE;
    g->replicas = 0; g->packed = false;
    g->after_mig = g->after_time_slicing = g->after_mps = -1;
}

static int node_name_cmp(const void *a, const void *b)
{
    const Node *x = *(const Node *const *)a, *y = *(const Node *const *)b;
    return strcmp(x->name, y->name);
}

/* The mixed strategy reaches every node's device plugin (MIG_STRATEGY, gpu-operator
 * controllers/object_controls.go:2787-2794, overrides the config file), and the plugin refuses
 * MPS with it (k8s-device-plugin cmd/nvidia-device-plugin/main.go:228-229): a node running MPS
 * now that the plan does not move off MPS would advertise nothing.  The plan then keeps the
 * strategy and plans the MIG groups without MIG (re-chosen: time-slicing may still free GPUs);
 * it does not switch those MPS nodes to time-slicing on its own, because that drops the
 * per-client memory limits their workloads were placed under — a change of isolation on nodes
 * outside the groups the plan changes.  Returns true when it blocked MIG. */
static bool mixed_blocked(PlanResult *out, GroupCtx *ctx, const Node *const *nodes, size_t nnodes,
                          const PlanOptions *o)
{
    Strvec mps = STRVEC_INIT;
    /* every node the cluster-wide strategy reaches, selected by -l or not */
    const Node *all = o->cluster_nodes;
    size_t nall = all ? o->ncluster_nodes : 0;
    for (size_t i = 0; i < (all ? nall : nnodes); i++) {
        const Node *n = all ? &all[i] : nodes[i];
        if (n->gpu.sharing != SHARING_MPS) continue;
        bool moved = false;                 /* in a group the plan relabels off MPS */
        for (size_t gi = 0; gi < out->ngroups && !moved; gi++) {
            PlanStrategy s = out->groups[gi].strategy;
            moved = (s == PLAN_MIG || s == PLAN_TIME_SLICING) && strvec_contains(&out->groups[gi].nodes, n->name);
        }
        if (!moved) strvec_push(&mps, n->name);
    }
    if (!mps.n && !o->unseen_mps) return false;
    Strbuf who = STRBUF_INIT;
    for (size_t i = 0; i < mps.n; i++) strbuf_addf(&who, "%s%s", i ? ", " : "", mps.v[i]);
    if (o->unseen_mps) strbuf_addf(&who, "%s%s", mps.n ? " and " : "", o->unseen_mps);
    static char why[512];
    snprintf(why, sizeof why, "MIG needs the mixed strategy here, and the device plugin refuses MPS with it: "
             "%s run%s MPS and would advertise nothing", strbuf_str(&who), mps.n == 1 && !o->unseen_mps ? "s" : "");
    for (size_t gi = 0; gi < out->ngroups; gi++) {
        PlanGroup *g = &out->groups[gi];
        if (g->strategy != PLAN_MIG) continue;
        int after = g->after_mig, before = g->gpus_before;
        group_reset(g);
        ctx[gi].mig_block = why;
        plan_choose(&ctx[gi], o->choice);
        strvec_pushf(&out->warnings, "%s: MIG layout not planned (MIG would need %d GPU%s, now %s: %d): it needs the "
                     "ClusterPolicy's mig.strategy mixed, which stops MPS on %s (k8s-device-plugin refuses MPS with "
                     "mixed); move those nodes to time-slicing (it drops MPS's per-client memory limits) and plan "
                     "again to get it", g->product, after, after == 1 ? "" : "s",
                     g->strategy == PLAN_NONE ? "left as it is" : plan_strategy_name(g->strategy),
                     g->strategy == PLAN_NONE ? before : g->gpus_after, strbuf_str(&who));
    }
    strbuf_clear(&who);
    strvec_clear(&mps);
    return true;
}

/* The workloads met so far, keyed by a pod's (namespace, kind, name): the PlanWorkloads' own
 * strings, compared in place (a key string per pod and per workload, in two maps, made 8 MB of
 * blocks at the full training cluster's 51,647 pods, and left the heap that much larger).
 * by_group: the key is (group, workload); else group is the slot's value (its first group). */
typedef struct { uint32_t pod, hash, group, id; } WlSlot;  /* pod = index + 1, 0 = free */
typedef struct { WlSlot *s; size_t cap, n; bool by_group; } WlIndex;
#define WL_WARNED 0x80000000u         /* in group: the two-products warning was given */

static const char *wl_ns(const PlanWorkload *x) { return x->ns ? x->ns : ""; }
static const char *wl_kind(const PlanWorkload *x) { return x->kind ? x->kind : "Pod"; }
static const char *wl_name(const PlanWorkload *x) { return x->name ? x->name : ""; }

static uint32_t wl_hash(const PlanWorkload *x)
{
    const char *part[3] = { wl_ns(x), wl_kind(x), wl_name(x) };
    uint64_t h = 0xcbf29ce484222325u;         /* FNV-1a, the parts apart by a unit separator */
    for (int i = 0; i < 3; i++) {
        for (const unsigned char *p = (const unsigned char *)part[i]; *p; p++) h = (h ^ *p) * 0x100000001b3u;
        h = (h ^ 0x1f) * 0x100000001b3u;
    }
    return (uint32_t)(h ^ (h >> 32));
}

static bool wl_same(const PlanWorkload *a, const PlanWorkload *b)
{
    if (a->ns == b->ns && a->kind == b->kind && a->name == b->name) return true;
    return strcmp(wl_ns(a), wl_ns(b)) == 0 && strcmp(wl_kind(a), wl_kind(b)) == 0 &&
           strcmp(wl_name(a), wl_name(b)) == 0;
}

/* sized for `expect` keys (more grow the table) */
static void wl_index_init(WlIndex *ix, size_t expect, bool by_group)
{
    ix->cap = expect + expect / 3 + 16;       /* load at most 3/4 */
    ix->s = xcalloc(ix->cap, sizeof *ix->s);
    ix->n = 0;
    ix->by_group = by_group;
}

static void wl_index_release(WlIndex *ix)
{
    free(ix->s);
    memset(ix, 0, sizeof *ix);
}

static size_t wl_slot_find(const WlIndex *ix, const PlanWorkload *w, size_t i, uint32_t h, uint32_t group)
{
    size_t at = h % ix->cap;
    for (;; at = at + 1 == ix->cap ? 0 : at + 1) {
        const WlSlot *s = &ix->s[at];
        if (!s->pod) return at;
        if (s->hash == h && (!ix->by_group || s->group == group) && wl_same(&w[s->pod - 1], &w[i])) return at;
    }
}

/* the slot of w[i]'s workload (in `group` when by_group), a new one (*made, with group set and
 * id 0) when it is not there yet; valid until the next key is added */
static WlSlot *wl_index_at(WlIndex *ix, const PlanWorkload *w, size_t i, uint32_t h, uint32_t group, bool *made)
{
    if (ix->by_group) h ^= (group + 1) * 0x9E3779B9u;
    size_t at = wl_slot_find(ix, w, i, h, group);
    *made = !ix->s[at].pod;
    if (!*made) return &ix->s[at];
    if ((ix->n + 1) * 4 > ix->cap * 3) {      /* grow: the slots again at twice the room */
        WlIndex big;
        wl_index_init(&big, ix->cap * 2, ix->by_group);
        for (size_t k = 0; k < ix->cap; k++) {
            const WlSlot *s = &ix->s[k];
            if (!s->pod) continue;
            size_t to = s->hash % big.cap;
            while (big.s[to].pod) to = to + 1 == big.cap ? 0 : to + 1;
            big.s[to] = *s;
        }
        big.n = ix->n;
        free(ix->s);
        *ix = big;
        at = wl_slot_find(ix, w, i, h, group);
    }
    ix->s[at] = (WlSlot){ (uint32_t)i + 1, h, group, 0 };
    ix->n++;
    return &ix->s[at];
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
        strmap_put(by_product, prod, (void *)1);
    }
    if (out->ngroups > 1) qsort(out->groups, out->ngroups, sizeof *out->groups, group_cmp);
    for (size_t gi = 0; gi < out->ngroups; gi++) group_mig_capability(&out->groups[gi], nodes, nnodes);
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
        g->physical_gpus += group_capacity(out, n);
        if (g->gpu_memory_mib <= 0) {
            /* the inventory's per-GPU memory: GFD, HAMi's registration, the MIG table, the
             * cloud's labels (model/inventory.c; under MIG single not the MIG device's) */
            NodeInventory inv;
            inventory_node(n, NULL, &inv);
            g->gpu_memory_mib = inv.memory_per_gpu_mib;
        }
        if (g->cc_major == 0) {
            g->cc_major = plan_label_int(n, "nvidia.com/gpu.compute.major");
            g->cc_minor = plan_label_int(n, "nvidia.com/gpu.compute.minor");
        }
        strmap_put(node_idx, n->name, (void *)(uintptr_t)(i + 1));
    }

    /* pods into groups; workloads numbered per group, in the order their first pod comes.
     * The groups' arrays are sized by a first pass, and the workloads are keyed by their pods'
     * own strings (WlIndex), without a key string per pod */
    uint32_t *node_group = xcalloc(nnodes ? nnodes : 1, sizeof *node_group);
    for (size_t i = 0; i < nnodes; i++)
        node_group[i] = (uint32_t)((uintptr_t)strmap_get(by_product, node_product(nodes[i])) - 1);
    uint32_t *pod_node = xcalloc(nw ? nw : 1, sizeof *pod_node);     /* node index + 1, 0 = none */
    size_t *gn = xcalloc(ng1, sizeof(size_t));
    for (size_t i = 0; i < nw; i++) {
        pod_node[i] = w[i].node ? (uint32_t)(uintptr_t)strmap_get(node_idx, w[i].node) : 0;
        if (pod_node[i]) gn[node_group[pod_node[i] - 1]]++;
    }
    uint32_t **gidx = xcalloc(ng1, sizeof(uint32_t *));
    const Node ***gnode = xcalloc(ng1, sizeof(const Node **));
    uint32_t **gwid = xcalloc(ng1, sizeof(uint32_t *));
    for (size_t g = 0; g < out->ngroups; g++) {
        gidx[g] = xcalloc(gn[g] ? gn[g] : 1, sizeof(uint32_t));
        gnode[g] = xcalloc(gn[g] ? gn[g] : 1, sizeof(const Node *));
        gwid[g] = xcalloc(gn[g] ? gn[g] : 1, sizeof(uint32_t));
        gn[g] = 0;
    }
    size_t *gnw = xcalloc(ng1, sizeof(size_t));
    WlIndex first, more;                      /* workload -> its first group and id there; */
    wl_index_init(&first, nw, false);         /* (group, workload) -> id in its other groups */
    wl_index_init(&more, 0, true);
    for (size_t i = 0; i < nw; i++) {
        uint32_t ni = pod_node[i];
        if (!ni) {
            strvec_pushf(&out->warnings, "%s/%s runs on %s, outside the selected GPU nodes: not planned",
                         w[i].ns ? w[i].ns : "?", plan_workload_pod(&w[i]) ? plan_workload_pod(&w[i]) : "?",
                         w[i].node ? w[i].node : "no node");
            continue;
        }
        const Node *n = nodes[ni - 1];
        uint32_t g = node_group[ni - 1];
        uint32_t h = wl_hash(&w[i]);
        bool made;
        WlSlot *f = wl_index_at(&first, w, i, h, g, &made);
        size_t id;
        if (made) {
            f->id = (uint32_t)gnw[g]++;
            id = f->id;
        } else if ((f->group & WL_WARNED) == 0 && f->group == g) {
            id = f->id;
        } else {
            if (!(f->group & WL_WARNED)) {
                strvec_pushf(&out->warnings, "%s/%s runs on %s and %s nodes: one pod template can request only "
                             "one of the planned resources; pin it to one product with a nodeSelector on "
                             "nvidia.com/gpu.product", w[i].ns ? w[i].ns : "?", w[i].name ? w[i].name : "?",
                             out->groups[f->group].product, out->groups[g].product);
                f->group |= WL_WARNED;    /* said once */
            }
            if ((f->group & ~WL_WARNED) == g) id = f->id;
            else {
                WlSlot *m = wl_index_at(&more, w, i, h, g, &made);
                if (made) m->id = (uint32_t)gnw[g]++;
                id = m->id;
            }
        }
        gidx[g][gn[g]] = (uint32_t)i; gnode[g][gn[g]] = n; gwid[g][gn[g]] = (uint32_t)id; gn[g]++;
        held[ni - 1] += plan_held_share(n, out->groups[g].model, &w[i]);
    }
    wl_index_release(&first);                 /* gone before the groups are planned */
    wl_index_release(&more);
    free(pod_node);
    free(node_group);
    for (size_t i = 0; i < nnodes; i++) {
        PlanGroup *g = &out->groups[(uintptr_t)strmap_get(by_product, node_product(nodes[i])) - 1];
        int b = (int)ceil(held[i] - 1e-9), phys = inventory_physical_gpus(nodes[i]);
        if (phys > 0 && b > phys) b = phys;
        g->gpus_before += b;
    }

    /* What the device plugin refuses, cluster-wide: MPS with the mixed MIG strategy.  The
     * operator passes spec.mig.strategy as MIG_STRATEGY (gpu-operator controllers/
     * object_controls.go applyMIGConfiguration), which overrides the config file's flag; the
     * plan makes it mixed when a group gets MIG.  So: choose every group, and when a MIG group
     * turns a set strategy into mixed, choose the MPS groups again without MPS. */
    const PlanCurrent *cur = o->cur;
    const char *cp_strategy = cur ? cur->mig_strategy : NULL;
    const char *mps_block = NULL;
    char version_block[160];
    if (cp_strategy && strcmp(cp_strategy, "mixed") == 0)
        mps_block = "the ClusterPolicy's MIG strategy is mixed, and the device plugin refuses MPS with the mixed strategy";
    else if (!cur || !plan_dp_at_least(cur, 0, 15)) {
        snprintf(version_block, sizeof version_block, "MPS needs device plugin v0.15.0 or later; the running one is %s",
                 cur ? cur->dp_version_text : "unknown");
        mps_block = version_block;
    }
    bool packed = cur && plan_dp_at_least(cur, 0, 20);
    GroupCtx *ctx = xcalloc(ng1, sizeof *ctx);
    for (size_t gi = 0; gi < out->ngroups; gi++) {
        PlanGroup *g = &out->groups[gi];
        qsort(g->nodes.v, g->nodes.n, sizeof(char *), plan_str_cmp);
        if (gnn[gi] > 1) qsort(gnodes[gi], gnn[gi], sizeof(const Node *), node_name_cmp);
        ctx[gi] = (GroupCtx){ .g = g, .w = w, .idx = gidx[gi], .n = gn[gi], .node = gnode[gi],
                              .wid = gwid[gi], .nwid = gnw[gi],
                              .headroom = o->headroom_pct > 0 ? o->headroom_pct : 0, .o = o,
                              .gnodes = gnodes[gi], .ngnodes = gnn[gi], .mps_block = mps_block,
                              .mig_block = o->mig_block, .packed = packed };
        plan_choose(&ctx[gi], o->choice);
    }
    bool any_mig = false;
    for (size_t gi = 0; gi < out->ngroups; gi++) any_mig |= out->groups[gi].strategy == PLAN_MIG;
    out->mig_strategy_after = cp_strategy;
    if (any_mig && cp_strategy && strcmp(cp_strategy, "mixed") != 0)
        any_mig = !mixed_blocked(out, ctx, nodes, nnodes, o);
    if (any_mig && cp_strategy && strcmp(cp_strategy, "mixed") != 0) {
        out->mig_strategy_after = "mixed";
        out->mig_strategy_change = true;
        for (size_t gi = 0; gi < out->ngroups; gi++) {
            if (out->groups[gi].strategy != PLAN_MPS) continue;
            group_reset(&out->groups[gi]);
            ctx[gi].mps_block = "the plan sets the ClusterPolicy's MIG strategy to mixed for the MIG groups, and "
                                "the device plugin refuses MPS with the mixed strategy";
            plan_choose(&ctx[gi], o->choice);
        }
    }
    for (size_t gi = 0; gi < out->ngroups; gi++) {
        PlanGroup *g = &out->groups[gi];
        plan_build_workloads(&ctx[gi]);
        plan_rollout(g, &ctx[gi], gnodes[gi]);
        plan_collect_risks(g, &ctx[gi]);
        out->gpus_before += g->gpus_before;
        out->gpus_after += g->gpus_after;
        free(gidx[gi]); free(gnode[gi]); free(gwid[gi]); free(gnodes[gi]);
    }
    free(ctx);
    free(gidx); free(gnode); free(gwid); free(gn); free(gnw); free(held);
    free(gnodes); free(gnn);
    strmap_free(node_idx, NULL);
    strmap_free(by_product, NULL);
    return 0;
}

void plan_result_clear(PlanResult *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->ngroups; i++) {
        PlanGroup *g = &r->groups[i];
        free(g->product);
        free(g->key);
        free(g->mig_unable);
        strvec_clear(&g->nodes);
        mig_packing_clear(&g->mig);
        sharing_plan_clear(&g->share);
        free(g->assign);
        free(g->workload_nodes);        /* the workloads' node lists (names borrowed) */
        free(g->workloads);
        strpool_free(g->strings);             /* after the workloads: they point into it */
        for (size_t j = 0; j < g->nplan_nodes; j++) {
            free(g->plan_nodes[j].gpu_layout);
            rlist_clear(&g->plan_nodes[j].expected);
            rlist_clear(&g->plan_nodes[j].expected_max);
        }
        free(g->plan_nodes);
        strvec_clear(&g->config_names);
        free(g->device_plugin_config);
        free(g->device_plugin_whole_config);
        strvec_clear(&g->notes);
        strvec_clear(&g->risks);
        strvec_clear(&g->nodes_freed);
    }
    free(r->groups);
    strvec_clear(&r->warnings);
    memset(r, 0, sizeof *r);
}

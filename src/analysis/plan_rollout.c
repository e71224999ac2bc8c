/* plan_rollout.c — the chosen strategy laid onto the group's nodes: one request per workload,
 * which node gets which MIG geometry or sharing config, the config names, the resources each
 * node advertises after, and the risks (rules in plan.h).
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "util/sort.h"
#include "util/strpool.h"
#include "analysis/manifests.h"
#include "plan_internal.h"
#include "model/resources.h"
#include "util/strmap.h"

/* ---- per workload: one request ---- */

typedef struct { const PlanWorkload *w; const PlanAssignment *as; const PlanGroupWorkload *gw; } GwSort;

/* a group's workloads by namespace, name, kind, as indices into the group's workloads (ctx: a
 * GwSort) */
static int gw_cmp(const void *pa, const void *pb, void *ctx)
{
    const GwSort *s = ctx;
    const PlanWorkload *sort_w = s->w;
    const PlanAssignment *sort_as = s->as;
    const PlanGroupWorkload *a = &s->gw[*(const uint32_t *)pa], *b = &s->gw[*(const uint32_t *)pb];
    const PlanWorkload *x = &sort_w[sort_as[a->first].workload], *y = &sort_w[sort_as[b->first].workload];
    int c = strcmp(x->ns ? x->ns : "", y->ns ? y->ns : "");
    if (!c) c = strcmp(x->name ? x->name : "", y->name ? y->name : "");
    if (!c) c = strcmp(x->kind ? x->kind : "Pod", y->kind ? y->kind : "Pod");
    return c;
}

void plan_build_workloads(GroupCtx *c)
{
    PlanGroup *g = c->g;
    g->workloads = xcalloc(c->nwid ? c->nwid : 1, sizeof *g->workloads);
    g->nworkloads = c->nwid;
    for (size_t i = 0; i < c->nwid; i++) g->workloads[i].first = UINT32_MAX;
    for (size_t k = 0; k < c->n; k++) {
        PlanGroupWorkload *gw = &g->workloads[c->wid[k]];
        if (gw->first == UINT32_MAX) gw->first = (uint32_t)k;
        gw->pods++;
    }
    /* a workload of one pod runs on its pod's node: the input row's field is its list; one of
     * several pods runs on at most as many nodes as it has pods: its slice of one array */
    size_t multi = 0;
    for (size_t i = 0; i < c->nwid; i++) if (g->workloads[i].pods > 1) multi += (size_t)g->workloads[i].pods;
    g->workload_nodes = multi ? xcalloc(multi, sizeof *g->workload_nodes) : NULL;
    size_t at = 0;
    for (size_t i = 0; i < c->nwid; i++) {
        if (g->workloads[i].pods < 2) continue;
        g->workloads[i].nodes = g->workload_nodes + at;
        at += (size_t)g->workloads[i].pods;
    }
    for (size_t k = 0; k < c->n; k++) {
        PlanGroupWorkload *gw = &g->workloads[c->wid[k]];
        const char *const *node = &c->w[c->idx[k]].node;
        if (!*node) continue;
        if (gw->pods == 1) { gw->nodes = node; gw->nnodes = 1; continue; }
        bool seen = false;
        for (size_t j = 0; !seen && j < gw->nnodes; j++) seen = strcmp(gw->nodes[j], *node) == 0;
        if (!seen) g->workload_nodes[(gw->nodes - g->workload_nodes) + gw->nnodes++] = *node;
    }
    if (!g->strings && g->nworkloads) g->strings = strpool_new();
    for (size_t i = 0; i < g->nworkloads; i++) {
        PlanGroupWorkload *gw = &g->workloads[i];
        const PlanAssignment *a = &g->assign[gw->first];
        const PlanWorkload *w = &c->w[a->workload];
        if (gw->nnodes > 1)
            qsort(g->workload_nodes + (gw->nodes - g->workload_nodes), gw->nnodes, sizeof(char *), plan_str_cmp);
        if (a->unchanged) {
            gw->request_resource = strpool_intern(g->strings, w->resource ? w->resource : "nvidia.com/gpu");
            gw->request_count = w->count > 0 ? w->count : 1;
        } else if (a->kind == PLAN_ASSIGN_MIG) {
            char *name = plan_mig_resource_name(a->profile);
            gw->request_resource = strpool_intern(g->strings, name);
            free(name);
            gw->request_count = a->instances > 0 ? a->instances : 1;
        } else if (a->kind == PLAN_ASSIGN_SHARED) {
            gw->request_resource = strpool_intern(g->strings, "nvidia.com/gpu.shared");
            gw->request_count = 1;
        } else {
            gw->request_resource = strpool_intern(g->strings, "nvidia.com/gpu");
            gw->request_count = a->gpus > 0 ? a->gpus : 1;
        }
    }
    /* sorted through an index, then put in that order in place: the C library's merge sort
     * takes a buffer as large as what it sorts (0.9 MB for the 28,835 workloads of the full
     * training cluster's A100 group, at plan's peak), 4 bytes a workload here.  The keys are
     * distinct within a group (plan_build numbers workloads by them), so the order is the one
     * sorting the records gave. */
    size_t n = g->nworkloads;
    uint32_t *order = xcalloc(n ? n : 1, sizeof *order);
    for (size_t i = 0; i < n; i++) order[i] = (uint32_t)i;
    GwSort gs = { c->w, g->assign, g->workloads };
    sort_r(order, n, sizeof *order, gw_cmp, &gs);
    for (size_t i = 0; i < n; i++) {          /* workloads[j] = old workloads[order[j]], cycle by */
        if (order[i] == i) continue;          /* cycle; a place done gets order[j] = j */
        PlanGroupWorkload first = g->workloads[i];
        size_t j = i;
        for (;;) {
            size_t k = order[j];
            order[j] = (uint32_t)j;
            if (k == i) { g->workloads[j] = first; break; }
            g->workloads[j] = g->workloads[k];
            j = k;
        }
    }
    free(order);
}

/* ---- plan_rollout: the plan laid onto the group's nodes ---- */

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

/* FNV-1a, 32 bits: a short, stable hash of a config's content */
static uint32_t content_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) { h ^= (unsigned char)*s; h *= 16777619u; }
    return h;
}

/* "kgpu-<key>-<word>-<hash of content>": a label value (at most 63 characters), so a changed
 * content always changes the label and mig-manager / config-manager see a change */
char *plan_config_name(const char *key, const char *word, const char *content)
{
    int room = 63 - 5 - 1 - (int)strlen(word) - 1 - 8;
    int kl = (int)strlen(key);
    if (kl > room) kl = room;
    while (kl > 0 && key[kl - 1] == '-') kl--;
    return xasprintf("kgpu-%.*s-%s-%08x", kl, key, word, (unsigned)content_hash(content));
}

typedef struct { size_t k; int need, nadmit; } WholePod;

/* more GPUs first, then the pods with the fewest nodes to go to, then group order */
static int whole_cmp(const void *pa, const void *pb, void *ctx)
{
    (void)ctx;
    const WholePod *x = pa, *y = pb;
    if (x->need != y->need) return y->need - x->need;
    if (x->nadmit != y->nadmit) return x->nadmit - y->nadmit;
    return (x->k > y->k) - (x->k < y->k);
}

/* whole-GPU pods, first fit decreasing, into the nodes that are not shared and that the pod's
 * own constraints admit (nodeSelector, required node affinity, tolerations: explain's filters,
 * explain_pod_admits; at most one pod of a workload per node under a required pod anti-affinity
 * on the hostname), the most constrained first; a pod that finds no such node is named in
 * the risks and keeps its node out of nodesFreed.  Returns the GPUs of the pods left over. */
static int place_whole(PlanGroup *g, const GroupCtx *c)
{
    WholePod *wp = xcalloc(c->n ? c->n : 1, sizeof *wp);
    size_t nn = 0;
    for (size_t k = 0; k < c->n; k++) {
        if (g->assign[k].kind != PLAN_ASSIGN_WHOLE) continue;
        WholePod *x = &wp[nn++];
        x->k = k;
        x->need = g->assign[k].gpus > 0 ? g->assign[k].gpus : 1;
        for (size_t j = 0; j < g->nplan_nodes; j++) x->nadmit += plan_pod_admits(c, k, j);
    }
    sort_r(wp, nn, sizeof *wp, whole_cmp, NULL);
    int unplaced = 0;
    Strvec stuck = STRVEC_INIT;
    StrMap *spread = strmap_new();            /* "workload node" where a spread pod was placed */
    for (size_t i = 0; i < nn; i++) {
        bool placed = false;
        const Pod *p = c->w[c->idx[wp[i].k]].pod_obj;
        bool one_per_node = p && p->spread_by_node;
        for (size_t j = 0; j < g->nplan_nodes && !placed; j++) {
            PlanNode *pn = &g->plan_nodes[j];
            if (pn->shared || pn->gpus - pn->whole_used - pn->mig_gpus < wp[i].need) continue;
            if (!plan_pod_admits(c, wp[i].k, j)) continue;
            char key[48];
            snprintf(key, sizeof key, "%zu %zu", (size_t)c->wid[wp[i].k], j);
            if (one_per_node && strmap_get(spread, key)) continue;   /* pod anti-affinity on the hostname */
            if (one_per_node) strmap_put(spread, key, (void *)1);
            pn->whole_used += wp[i].need;
            placed = true;
        }
        if (placed) continue;
        unplaced += wp[i].need;
        /* it stays where it runs: that node is not freed */
        const PlanWorkload *w = &c->w[c->idx[wp[i].k]];
        for (size_t j = 0; j < g->nplan_nodes; j++)
            if (w->node && strcmp(g->plan_nodes[j].name, w->node) == 0) g->plan_nodes[j].whole_used += wp[i].need;
        if (wp[i].nadmit < (int)g->nplan_nodes || one_per_node) {
            char *id = xasprintf("%s/%s", w->ns ? w->ns : "?", w->name ? w->name : "?");
            if (!strvec_contains(&stuck, id)) strvec_push(&stuck, id);
            free(id);
        }
    }
    for (size_t i = 0; i < stuck.n; i++)
        strvec_pushf(&g->risks, "%s: its nodeSelector, required node affinity, tolerations or pod anti-affinity "
                     "admit no node of the group with whole GPUs free under this layout: its pods stay "
                     "where they run", stuck.v[i]);
    strvec_clear(&stuck);
    strmap_free(spread, NULL);
    free(wp);
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
    char *dpc = manifests_device_plugin_text(g, true);   /* the one config of a MIG group */
    g->device_plugin_config = plan_config_name(g->key, "mig", dpc);
    free(dpc);
    StrMap *by_sig = strmap_new();
    int gpu = 0, nconf = 0;
    for (size_t j = 0; j < g->nplan_nodes; j++) {
        PlanNode *pn = &g->plan_nodes[j];
        pn->gpu_layout = xcalloc(pn->gpus > 0 ? (size_t)pn->gpus : 1, sizeof(int));
        Strbuf sig = STRBUF_INIT;             /* the geometry per GPU index: the config's content */
        strbuf_addf(&sig, "%s;%d:", g->model->key, pn->gpus);
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
            if (lg < 0) strbuf_adds(&sig, "off,");
            else {
                const MigLayout *l = &g->mig.groups[lg].layout;
                for (size_t q = 0; q < g->model->nprofiles; q++)
                    if (l->counts[q]) strbuf_addf(&sig, "%s=%d ", g->model->profiles[q].name, l->counts[q]);
                strbuf_adds(&sig, ",");
            }
        }
        pn->device_plugin_config = g->device_plugin_config;
        if (pn->mig_gpus == 0) {
            pn->mig_config = "all-disabled";
        } else {
            const char *name = strmap_get(by_sig, strbuf_str(&sig));
            if (!name) {
                char *nm = plan_config_name(g->key, "mig", strbuf_str(&sig));
                name = config_name(g, "%s", nm);
                free(nm);
                nconf++;
                strmap_put(by_sig, strbuf_str(&sig), (void *)name);
            }
            pn->mig_config = name;
        }
        strbuf_clear(&sig);
        /* resources the device plugin advertises afterwards (mixed strategy) */
        for (int i = 0; i < pn->gpus; i++) {
            if (pn->gpu_layout[i] < 0) { rlist_add(&pn->expected, "nvidia.com/gpu", 1000); continue; }
            const MigLayout *l = &g->mig.groups[pn->gpu_layout[i]].layout;
            for (size_t q = 0; q < g->model->nprofiles; q++) {
                if (!l->counts[q]) continue;
                char *r = plan_mig_resource_name(&g->model->profiles[q]);
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
    char *s1 = manifests_device_plugin_text(g, true), *s2 = manifests_device_plugin_text(g, false);
    g->device_plugin_config = plan_config_name(g->key, word, s1);
    g->device_plugin_whole_config = plan_config_name(g->key, "whole", s2);
    free(s1); free(s2);
    /* the fewest nodes (most GPUs first) become the shared pools; the others stay whole */
    int need = g->share.gpus_shared;
    bool *chosen = xcalloc(g->nplan_nodes ? g->nplan_nodes : 1, sizeof(bool));
    int have = plan_pool_nodes(c, need, g->share.shared, chosen);
    for (size_t j = 0; j < g->nplan_nodes; j++) g->plan_nodes[j].shared = chosen[j];
    free(chosen);
    g->pool_gpus = have;
    g->shared_slots_free = have * g->replicas - g->share.shared_workloads;
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

/* what each node runs now, and whether the plan changes it; a MIG change drains the node
 * (mig-parted destroys every GPU instance of a GPU it reconfigures and fails while a process
 * uses it), a device-plugin config change does not (config-manager restarts the plugin) */
static void node_changes(PlanGroup *g, const Node *const *gnodes)
{
    for (size_t j = 0; j < g->nplan_nodes; j++) {
        PlanNode *pn = &g->plan_nodes[j];
        const Node *n = gnodes[j];
        pn->mig_config_now = kv_get(&n->labels, "nvidia.com/mig.config");
        pn->device_plugin_config_now = kv_get(&n->labels, "nvidia.com/device-plugin.config");
        const char *state = kv_get(&n->labels, "nvidia.com/mig.config.state");
        if (pn->mig_config) {
            bool same = str_eq(pn->mig_config_now, pn->mig_config) && str_eq(state, "success");
            pn->mig_change = !same;
            /* all-disabled on a node that has no MIG device now: mig-manager's assert passes and
             * nothing is reset */
            bool no_mig_now = n->gpu.nmig == 0 && n->gpu.mig_strategy != MIG_SINGLE;
            pn->drain = pn->mig_change && !(strcmp(pn->mig_config, "all-disabled") == 0 && no_mig_now);
        }
        if (pn->device_plugin_config) pn->dp_change = !str_eq(pn->device_plugin_config_now, pn->device_plugin_config);
        /* time-slicing / MPS back to whole GPUs (or MIG): replicated devices are advertised as
         * "<GPU id>::<replica>" (k8s-device-plugin v0.17.0 internal/rm/device_map.go:324-330,
         * internal/rm/devices.go:241-242) and mapped back to the GPU only at Allocate
         * (internal/plugin/server.go:452-456); the kubelet tracks allocated devices by those IDs,
         * so after the switch the plain "<GPU id>" counts as free while old replica pods still
         * use the GPU: a new whole-GPU pod would share it.  The node is drained. */
        bool shared_now = n->gpu.replicas > 1 || n->gpu.sharing == SHARING_TIME_SLICING || n->gpu.sharing == SHARING_MPS;
        if (shared_now && !pn->shared && (pn->dp_change || pn->mig_change)) pn->drain = pn->whole_after_shared = true;
    }
}

/* GPUs the device plugin reports Unhealthy now: the whole-GPU units allocatable lacks against
 * capacity (kubelet counts only Healthy devices as allocatable), over the replicas per GPU */
static int node_unhealthy_gpus(const Node *n)
{
    int64_t units = 0;
    static const char *const res[] = { "nvidia.com/gpu", "nvidia.com/gpu.shared" };
    for (size_t i = 0; i < 2; i++) {
        int64_t d = rlist_get(&n->capacity, res[i]) - rlist_get(&n->allocatable, res[i]);
        if (d > 0) units += d / 1000;
    }
    int r = n->gpu.replicas > 1 ? n->gpu.replicas : 1;
    /* MIG single: nvidia.com/gpu counts the MIG devices, all of one profile on every GPU; health
     * events come per physical GPU and mark its MIG devices (k8s-device-plugin
     * internal/rm/health.go:74-88, 154) */
    int phys = inventory_physical_gpus(n);
    if (n->gpu.mig_strategy == MIG_SINGLE && n->gpu.mig_single_profile && phys > 0) {
        int64_t cap = rlist_get(&n->capacity, "nvidia.com/gpu") / 1000 / r;
        r *= cap >= phys ? (int)(cap / phys) : 1;
    }
    return (int)((units + r - 1) / r);
}

/* per resource: what GPU i of the node advertises after the plan */
static int64_t gpu_units(const PlanGroup *g, const PlanNode *pn, int i, const char *res)
{
    if (pn->gpu_layout && pn->gpu_layout[i] >= 0) {
        const MigLayout *l = &g->mig.groups[pn->gpu_layout[i]].layout;
        int64_t u = 0;
        for (size_t q = 0; q < g->model->nprofiles; q++) {
            if (!l->counts[q]) continue;
            char *r = plan_mig_resource_name(&g->model->profiles[q]);
            if (strcmp(r, res) == 0) u += l->counts[q];
            free(r);
        }
        return u;
    }
    if (g->strategy == PLAN_MIG) return strcmp(res, "nvidia.com/gpu") == 0;
    if (pn->shared) return strcmp(res, "nvidia.com/gpu.shared") == 0 ? g->replicas : 0;
    return strcmp(res, "nvidia.com/gpu") == 0;
}

static int cmp_desc(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x < y) - (x > y);
}

/* an unhealthy GPU stays so across the restart once its fault recurs, and which GPU it is is not
 * known here: each resource is expected at its count less the most any `unhealthy` GPUs give */
static void expect_unhealthy(const PlanGroup *g, PlanNode *pn, const Node *n)
{
    rlist_copy(&pn->expected_max, &pn->expected);
    pn->unhealthy = node_unhealthy_gpus(n);
    if (pn->unhealthy <= 0 || pn->gpus <= 0) return;
    if (pn->unhealthy > pn->gpus) pn->unhealthy = pn->gpus;
    int64_t *u = xcalloc((size_t)pn->gpus, sizeof *u);
    for (size_t q = 0; q < pn->expected.n; q++) {
        const char *res = pn->expected.items[q].name;
        for (int i = 0; i < pn->gpus; i++) u[i] = gpu_units(g, pn, i, res);
        qsort(u, (size_t)pn->gpus, sizeof *u, cmp_desc);
        int64_t lost = 0;
        for (int i = 0; i < pn->unhealthy; i++) lost += u[i];
        int64_t left = pn->expected.items[q].milli - lost * 1000;
        pn->expected.items[q].milli = left > 0 ? left : 0;
    }
    free(u);
}

void plan_rollout(PlanGroup *g, const GroupCtx *c, const Node *const *gnodes)
{
    g->nplan_nodes = g->nodes.n;
    g->plan_nodes = xcalloc(g->nodes.n ? g->nodes.n : 1, sizeof *g->plan_nodes);
    for (size_t j = 0; j < g->nodes.n; j++) {
        g->plan_nodes[j].name = g->nodes.v[j];
        g->plan_nodes[j].gpus = inventory_physical_gpus(gnodes[j]);
    }
    if (g->strategy == PLAN_MIG) rollout_mig(g, c);
    else if (g->strategy == PLAN_TIME_SLICING || g->strategy == PLAN_MPS) rollout_sharing(g, c);
    /* a node whose GPU count is unknown (no GFD labels, no GPU capacity) is left alone */
    for (size_t j = 0; j < g->nplan_nodes; j++)
        if (g->plan_nodes[j].gpus <= 0 && g->strategy != PLAN_NONE) {
            g->plan_nodes[j].mig_config = g->plan_nodes[j].device_plugin_config = NULL;
            strvec_pushf(&g->risks, "%s: GPU count unknown — left as it is", g->plan_nodes[j].name);
        }
    node_changes(g, gnodes);
    for (size_t j = 0; j < g->nplan_nodes; j++) expect_unhealthy(g, &g->plan_nodes[j], gnodes[j]);
    if (g->strategy == PLAN_TIME_SLICING || g->strategy == PLAN_MPS) {
        for (size_t j = 0; j < g->nplan_nodes; j++)
            if (g->plan_nodes[j].gpus > 0 && !g->plan_nodes[j].shared && !g->plan_nodes[j].whole_used)
                strvec_push(&g->nodes_freed, g->plan_nodes[j].name);
        if (g->packed)
            strvec_pushf(&g->notes, "packed allocation (device plugin v0.20+): replicas fill one GPU before the "
                         "next, so the shared workloads take %d GPU%s of the %d in the pool%s", g->share.gpus_shared,
                         g->share.gpus_shared == 1 ? "" : "s", g->pool_gpus, g->pool_gpus == 1 ? "" : "s");
        else
            strvec_pushf(&g->notes, "sharing is set per node and the device plugin spreads replicas over every GPU "
                         "(distributed allocation): all %d GPU%s of the pool node%s count as used", g->pool_gpus,
                         g->pool_gpus == 1 ? "" : "s", g->pool_gpus == 1 ? "" : "s");
        if (g->nodes_freed.n)
            strvec_pushf(&g->notes, "consolidation: %zu node%s left without GPU workloads (%s%s)", g->nodes_freed.n,
                         g->nodes_freed.n == 1 ? "" : "s", g->nodes_freed.v[0], g->nodes_freed.n > 1 ? ", ..." : "");
        if (g->gpus_after >= g->gpus_before)
            strvec_pushf(&g->notes, "frees no GPU; gains %d free shared slot%s (%d GPU%s x %d replicas, %d taken)",
                         g->shared_slots_free, g->shared_slots_free == 1 ? "" : "s", g->pool_gpus,
                         g->pool_gpus == 1 ? "" : "s", g->replicas, g->share.shared_workloads);
    }
}

/* ---- risks ---- */

void plan_collect_risks(PlanGroup *g, const GroupCtx *c)
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
        if (a->kind == PLAN_ASSIGN_WHOLE && (a->why == PLAN_WHY_FITS_NO_MIG || a->why == PLAN_WHY_TOO_LARGE_TO_SHARE))
            strvec_pushf(&g->risks, "%s/%s: %" PRId64 " MiB and %.0f%% (with headroom) %s — keeps a whole GPU",
                         ns, name, a->sized_memory_mib, a->sized_utilization, plan_assignment_why(a));
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
                     g->share.max_replicas, sharing_limit_name(g->share.limit));
    }
}

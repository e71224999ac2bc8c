/* plan_actions.c — the plan as an ordered list of changes (contract in plan_actions.h). */
#include "analysis/plan_actions.h"
#include <cjson/cJSON.h>
#include <inttypes.h>
#include "analysis/explain.h"
#include "model/resources.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *plan_action_kind_name(PlanActionKind k)
{
    switch (k) {
    case ACT_CONFIGMAP: return "ConfigMap";
    case ACT_QUOTA: return "Quota";
    case ACT_CLUSTERPOLICY_PATCH: return "ClusterPolicyPatch";
    case ACT_NODE_LABEL: return "NodeLabel";
    case ACT_ROLLOUT_RESTART: return "RolloutRestart";
    case ACT_NODEPOOL: return "NodePoolUpdate";
    }
    return "?";
}

PlanAction *plan_actions_add(PlanActions *a, PlanActionKind kind, const char *target, const char *detail)
{
    a->v = xrealloc(a->v, (a->n + 1) * sizeof *a->v);
    PlanAction *x = &a->v[a->n++];
    memset(x, 0, sizeof *x);
    x->kind = kind;
    x->target = xstrdup(target);
    x->detail = xstrdup(detail);
    return x;
}

static PlanAction *push(PlanActions *a, PlanActionKind kind)
{
    a->v = xrealloc(a->v, (a->n + 1) * sizeof *a->v);
    PlanAction *x = &a->v[a->n++];
    memset(x, 0, sizeof *x);
    x->kind = kind;
    return x;
}

static int node_cmp(const void *pa, const void *pb)
{
    const PlanAction *x = pa, *y = pb;
    if (x->pods != y->pods) return x->pods - y->pods;
    return strcmp(x->target, y->target);
}

static const char *meta_name(const cJSON *doc, const char *field)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "metadata"), field);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* ---- room for the pods a drain moves (plan_actions.h) ----
 * With EVICT=no (the script's default) a drained node's GPU pods leave only when their
 * workloads roll out their new requests and the new pods run elsewhere.  A Deployment's
 * RollingUpdate removes old pods only within maxUnavailable, which rounds DOWN (25 % of 2-3
 * replicas is 0), and adds new ones within maxSurge, which rounds UP (kubernetes
 * pkg/controller/deployment/util/deployment_util.go ResolveFenceposts, commit 00bdb3fa:
 * GetValueFromIntOrPercent(maxSurge, desired, true), (maxUnavailable, desired, false)): with few replicas the
 * rollout replaces no old pod until a new one runs, so the new requests need room on the other
 * nodes that admit the pods — nodes already converted (their resources after the plan) and
 * nodes the plan leaves (allocatable less what is held).  Simulated in the script's order. */

/* Per node: the units free per GPU resource and the workload entries running there (indices
 * into w, ascending); per workload entry: the request its pod makes under the plan.  Looked up
 * by node name once per node, not by a "node\x1fresource" key printed per look-up, and the
 * entries of a node not found by a scan of every entry per drained node (at 2,000 GPU nodes
 * and 50,000 GPU pods the scans were most of plan's own CPU). */
typedef struct {
    ResourceList free;  /* units free (kept in the milli field), never below 0 */
    size_t *wl; size_t nwl, capwl;
} RoomNode;

typedef struct {
    StrMap *nodes;      /* node name -> RoomNode */
    StrMap *spread;     /* "ns\x1fkind\x1fname\x1fnode": a pod of that workload, whose pods may not
                           share a node (Pod.spread_by_node), runs or lands there */
    const char **res;   /* per workload entry: the resource and count it requests under the plan */
    int *count;
    bool *gpu_node;     /* per node of the cluster: node_is_gpu_node (asked once, not per drain) */
} Room;

static char *spread_key(const PlanWorkload *x, const char *node)
{
    return xasprintf("%s\x1f%s\x1f%s\x1f%s", x->ns ? x->ns : "", x->kind ? x->kind : "Pod", x->name ? x->name : "",
                     node);
}

static RoomNode *room_node(Room *rm, const char *node)
{
    RoomNode *rn = strmap_get(rm->nodes, node);
    if (!rn) {
        rn = xcalloc(1, sizeof *rn);
        strmap_put(rm->nodes, node, rn);
    }
    return rn;
}

static void room_node_free(void *v)
{
    RoomNode *rn = v;
    rlist_clear(&rn->free);
    free(rn->wl);
    free(rn);
}

/* rn: a node's RoomNode (NULL: nothing free there) */
static int64_t room_node_get(const RoomNode *rn, const char *res)
{
    return rn ? rlist_get(&rn->free, res) : 0;
}

static int64_t room_get(const Room *rm, const char *node, const char *res)
{
    return room_node_get(strmap_get(rm->nodes, node), res);
}

static void room_set(Room *rm, const char *node, const char *res, int64_t units)
{
    rlist_set(&room_node(rm, node)->free, res, units > 0 ? units : 0);
}

/* the identity planned_requests matches workloads by: ns, name and kind, NULL only equal to NULL */
static int nullable_cmp(const char *a, const char *b)
{
    if (!a || !b) return (a != NULL) - (b != NULL);
    return strcmp(a, b);
}

static int workload_cmp(const PlanWorkload *a, const PlanWorkload *b)
{
    int c = nullable_cmp(a->ns, b->ns);
    if (!c) c = nullable_cmp(a->name, b->name);
    if (!c) c = nullable_cmp(a->kind, b->kind);
    return c;
}

/* a group's workload, in group order (gi, k) */
typedef struct { const PlanWorkload *x; uint32_t gi, k; } GroupWlRef;

static int group_wl_cmp(const void *pa, const void *pb)
{
    const GroupWlRef *a = pa, *b = pb;
    int c = workload_cmp(a->x, b->x);
    if (c) return c;
    if (a->gi != b->gi) return a->gi < b->gi ? -1 : 1;
    return a->k < b->k ? -1 : a->k > b->k;
}

static const PlanWorkload *sort_entries;

static int entry_cmp(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    int c = workload_cmp(&sort_entries[a], &sort_entries[b]);
    return c ? c : (a > b) - (a < b);
}

/* the request each pod of w makes under the plan: the request of the first group workload (in
 * group order) that is its workload, its own when that group keeps requests (strategy none) or
 * when its workload is not planned.  Both sides sorted by workload and walked together (a map
 * keyed by workload cost 4.6 MB at 51,647 workloads, at plan's peak). */
static void planned_requests(const PlanResult *r, const PlanWorkload *w, size_t nw, const char **res, int *count)
{
    size_t nref = 0;
    for (size_t i = 0; i < r->ngroups; i++) nref += r->groups[i].nworkloads;
    GroupWlRef *ref = xcalloc(nref ? nref : 1, sizeof *ref);
    size_t m = 0;
    for (size_t i = 0; i < r->ngroups; i++) {
        const PlanGroup *g = &r->groups[i];
        for (size_t k = 0; k < g->nworkloads; k++)
            ref[m++] = (GroupWlRef){ &w[g->assign[g->workloads[k].first].workload], (uint32_t)i, (uint32_t)k };
    }
    if (nref > 1) qsort(ref, nref, sizeof *ref, group_wl_cmp);
    size_t *idx = xcalloc(nw ? nw : 1, sizeof *idx);
    for (size_t i = 0; i < nw; i++) idx[i] = i;
    sort_entries = w;
    if (nw > 1 && nref) qsort(idx, nw, sizeof *idx, entry_cmp);
    sort_entries = NULL;
    size_t j = 0;
    for (size_t q = 0; q < nw; q++) {
        size_t i = idx[q];
        const PlanWorkload *x = &w[i];
        res[i] = x->resource ? x->resource : "nvidia.com/gpu";
        count[i] = x->count > 0 ? x->count : 1;
        while (j < nref && workload_cmp(ref[j].x, x) < 0) j++;
        if (j == nref || workload_cmp(ref[j].x, x) != 0) continue;
        const PlanGroup *g = &r->groups[ref[j].gi];      /* the first in group order */
        if (g->strategy == PLAN_NONE) continue;
        res[i] = g->workloads[ref[j].k].request_resource;
        count[i] = g->workloads[ref[j].k].request_count;
    }
    free(idx);
    free(ref);
}

static void room_init(Room *rm, const Cluster *c, const PlanResult *r, const PlanWorkload *w, size_t nw)
{
    rm->nodes = strmap_new();
    rm->spread = strmap_new();
    rm->res = xcalloc(nw ? nw : 1, sizeof *rm->res);
    rm->count = xcalloc(nw ? nw : 1, sizeof *rm->count);
    planned_requests(r, w, nw, rm->res, rm->count);
    rm->gpu_node = xcalloc(c->nnodes ? c->nnodes : 1, sizeof *rm->gpu_node);
    for (size_t i = 0; i < c->nnodes; i++) rm->gpu_node[i] = node_is_gpu_node(&c->nodes[i]);
    for (size_t i = 0; i < nw; i++) {
        if (!w[i].node) continue;
        RoomNode *rn = room_node(rm, w[i].node);
        ARRAY_GROW(rn->wl, rn->nwl, rn->capwl);
        rn->wl[rn->nwl++] = i;
        if (!w[i].pod_obj || !w[i].pod_obj->spread_by_node) continue;
        char *key = spread_key(&w[i], w[i].node);
        strmap_put(rm->spread, key, (void *)1);
        free(key);
    }
    for (size_t i = 0; i < c->nnodes; i++) {
        const Node *n = &c->nodes[i];
        const NodeUsage *u = cluster_node_usage(c, n);
        for (size_t q = 0; q < n->allocatable.n; q++) {
            const char *res = n->allocatable.items[q].name;
            if (!resources_is_gpu(res)) continue;
            int64_t held = u ? rlist_get(&u->requested, res) : 0;
            room_set(rm, n->name, res, (n->allocatable.items[q].milli - held) / 1000);
        }
    }
}

static void room_release(Room *rm)
{
    strmap_free(rm->nodes, room_node_free);
    strmap_free(rm->spread, NULL);
    free(rm->res);
    free(rm->count);
    free(rm->gpu_node);
}

/* the workload entries running on node (ascending), none when no entry runs there */
static const size_t *room_workloads(const Room *rm, const char *node, size_t *n)
{
    const RoomNode *rn = strmap_get(rm->nodes, node);
    *n = rn ? rn->nwl : 0;
    return rn ? rn->wl : NULL;
}

/* after node pn is converted: what it advertises, less what its own pods take back */
static void room_converted(Room *rm, const PlanNode *pn)
{
    for (size_t q = 0; q < pn->expected.n; q++)
        room_set(rm, pn->name, pn->expected.items[q].name, pn->expected.items[q].milli / 1000);
    size_t nwl;
    const size_t *wl = room_workloads(rm, pn->name, &nwl);
    for (size_t j = 0; j < nwl; j++) {
        size_t i = wl[j];
        room_set(rm, pn->name, rm->res[i], room_get(rm, pn->name, rm->res[i]) - rm->count[i]);
    }
}

/* a pod the drain of pn moves: its workload entry and the request it makes under the plan */
typedef struct { size_t i; const char *res; int count; bool placed; } Moved;

static int moved_cmp(const void *a, const void *b)
{
    const Moved *x = a, *y = b;
    if (x->count != y->count) return x->count > y->count ? -1 : 1;     /* the largest first */
    return x->i < y->i ? -1 : x->i > y->i;
}

/* can moved pod m land on node n now: room for its whole request on that one node (a pod's
 * GPUs all come from its node), a node it admits (explain's filters), and, for a workload whose
 * pods may not share a node, no pod of it there already (rn: n's RoomNode, looked up once per
 * node by room_check) */
static bool room_takes(const Room *rm, const RoomNode *rn, const Moved *m, const PlanWorkload *w, const Node *n)
{
    if (room_node_get(rn, m->res) < m->count) return false;
    if (w[m->i].pod_obj && !explain_pod_admits(w[m->i].pod_obj, n)) return false;
    if (!w[m->i].pod_obj || !w[m->i].pod_obj->spread_by_node) return true;
    char *key = spread_key(&w[m->i], n->name);
    bool taken = strmap_get(rm->spread, key) != NULL;
    free(key);
    return !taken;
}

static void room_take(Room *rm, RoomNode *rn, Moved *m, const PlanWorkload *w, const Node *n)
{
    room_set(rm, n->name, m->res, room_node_get(rn, m->res) - m->count);
    m->placed = true;
    if (!w[m->i].pod_obj || !w[m->i].pod_obj->spread_by_node) return;
    char *key = spread_key(&w[m->i], n->name);
    strmap_put(rm->spread, key, (void *)1);
    free(key);
}

/* The moved pods are placed one by one, the largest first, each on the first other node that
 * takes it (room_takes); the nodes that take one are the ones the script re-checks live.  Pods
 * left over make x->room_missing: per resource the units needed and the units free on the
 * nodes that admit them, and why it fails when those would add up (no single node with room
 * for a pod that large, or a workload whose pods may not share a node).  One pass over the
 * nodes, ending once every pod has a place: a drain per node times every node would not scale. */
static void room_check(PlanAction *x, Room *rm, const Cluster *c, const PlanWorkload *w, const StrMap *pending)
{
    const PlanNode *pn = x->pn;
    ResourceList need = { 0 };       /* units per resource (kept in the milli field) */
    size_t nwl;
    const size_t *wl = room_workloads(rm, pn->name, &nwl);
    Moved *mv = xcalloc(nwl ? nwl : 1, sizeof *mv);
    size_t nmoved = 0, left;
    for (size_t j = 0; j < nwl; j++) {
        size_t i = wl[j];
        Moved *m = &mv[nmoved++];
        m->i = i;
        m->res = rm->res[i];
        m->count = rm->count[i];
        rlist_add(&need, m->res, (int64_t)m->count);
    }
    if (need.n == 0) { rlist_clear(&need); free(mv); return; }
    rlist_sort(&need);
    for (size_t q = 0; q < need.n; q++) strvec_pushf(&x->room, "%s=%" PRId64, need.items[q].name, need.items[q].milli);
    qsort(mv, nmoved, sizeof *mv, moved_cmp);
    int64_t *seen = xcalloc(need.n, sizeof *seen);     /* units free on nodes admitting a left pod */
    left = nmoved;
    for (size_t j = 0; j < c->nnodes && left > 0; j++) {
        const Node *n = &c->nodes[j];
        if (!rm->gpu_node[j] || str_eq(n->name, pn->name)) continue;
        if (strmap_get(pending, n->name)) continue;   /* changed later in the order: may be cordoned */
        RoomNode *rn = strmap_get(rm->nodes, n->name);
        bool used = false;
        for (size_t q = 0; q < need.n; q++) {
            int64_t f = room_node_get(rn, need.items[q].name);
            if (f <= 0) continue;
            for (size_t k = 0; k < nmoved; k++)
                if (!mv[k].placed && str_eq(mv[k].res, need.items[q].name) &&
                    (!w[mv[k].i].pod_obj || explain_pod_admits(w[mv[k].i].pod_obj, n))) { seen[q] += f; break; }
        }
        for (size_t k = 0; k < nmoved; k++) {
            if (mv[k].placed || !room_takes(rm, rn, &mv[k], w, n)) continue;
            room_take(rm, rn, &mv[k], w, n);
            if (!rn) rn = strmap_get(rm->nodes, n->name);   /* room_set may have made it */
            left--;
            used = true;
        }
        if (used) strvec_push(&x->room_nodes, n->name);
    }
    Strbuf miss = STRBUF_INIT;
    for (size_t q = 0; q < need.n && left > 0; q++) {
        int64_t want = 0, largest = 0;
        bool spread = false;
        for (size_t k = 0; k < nmoved; k++) {
            if (mv[k].placed || !str_eq(mv[k].res, need.items[q].name)) continue;
            want += mv[k].count;
            if (mv[k].count > largest) largest = mv[k].count;
            spread |= w[mv[k].i].pod_obj && w[mv[k].i].pod_obj->spread_by_node;
        }
        if (want == 0) continue;
        strbuf_addf(&miss, "%s%s: %" PRId64 " needed, %" PRId64 " free", miss.len ? "; " : "",
                    need.items[q].name, want, seen[q]);
        if (seen[q] >= want)
            strbuf_addf(&miss, spread ? " (but not on nodes apart: its pods may not share a node)"
                                      : " (but no single node has %" PRId64 " of them for one pod)", largest);
    }
    if (miss.len) x->room_missing = strbuf_detach(&miss);
    strbuf_clear(&miss);
    free(seen);
    rlist_clear(&need);
    free(mv);
}

void plan_actions_build(PlanActions *a, const PlanResult *r, const Manifests *m, const PlanCurrent *cur,
                        const StrMap *node_pods, const Cluster *c, const PlanWorkload *w, size_t nw)
{
    memset(a, 0, sizeof *a);
    for (size_t i = 0; i < m->n; i++) {
        const cJSON *kind = cJSON_GetObjectItemCaseSensitive(m->docs[i], "kind");
        bool cm = cJSON_IsString(kind) && strcmp(kind->valuestring, "ConfigMap") == 0;
        if (!cm) continue;             /* quotas: last, below */
        PlanAction *x = push(a, ACT_CONFIGMAP);
        x->doc = m->docs[i];
        x->target = xasprintf("%s/%s", meta_name(m->docs[i], "namespace"), meta_name(m->docs[i], "name"));
        bool dp = strcmp(meta_name(m->docs[i], "name"), m->dp_name ? m->dp_name : MANIFESTS_DEVICE_PLUGIN_CONFIGMAP) == 0;
        const cJSON *data = cJSON_GetObjectItemCaseSensitive(m->docs[i], "data");
        int keys = cJSON_GetArraySize(data);
        if (dp)
            x->detail = xasprintf("device-plugin configs: %d (%zu carried over from %s)", keys, m->carried_dp,
                                  cur && cur->dp_map ? cur->dp_map : "no ConfigMap in use");
        else
            x->detail = xasprintf("mig-parted configs (config.yaml): %zu carried over from %s, plus the plan's",
                                  m->carried_mig, m->mig_builtin ? "the operator's built-in set for the cluster's models"
                                  : cur && cur->mig_map ? cur->mig_map : "default-mig-parted-config");
    }
    /* inert labels that would name a missing config once a map is in use: removed first */
    for (size_t i = 0; i < m->unlabel_nodes.n; i++) {
        PlanAction *x = push(a, ACT_NODE_LABEL);
        x->target = xstrdup(m->unlabel_nodes.v[i]);
        x->detail = xasprintf("nvidia.com/device-plugin.config: %s -> (removed): no device-plugin ConfigMap was in use, "
                              "so the label did nothing; the new map has no such config; no drain", m->unlabel_values.v[i]);
    }
    /* the ClusterPolicy patch: point the operator at the new maps; mixed for MIG groups */
    bool point_dp = m->device_plugin && !(cur && cur->dp_map && strcmp(cur->dp_map, MANIFESTS_DEVICE_PLUGIN_CONFIGMAP) == 0);
    bool point_mig = m->mig_parted && !(cur && cur->mig_map && strcmp(cur->mig_map, MANIFESTS_MIG_PARTED_CONFIGMAP) == 0);
    if (cur && cur->clusterpolicy && (point_dp || point_mig || r->mig_strategy_change)) {
        cJSON *patch = cJSON_CreateObject();
        cJSON *spec = cJSON_AddObjectToObject(patch, "spec");
        Strbuf d = STRBUF_INIT;
        if (point_dp) {
            cJSON *cfg = cJSON_AddObjectToObject(cJSON_AddObjectToObject(spec, "devicePlugin"), "config");
            cJSON_AddStringToObject(cfg, "name", MANIFESTS_DEVICE_PLUGIN_CONFIGMAP);
            strbuf_addf(&d, "devicePlugin.config.name: %s -> %s (default %s kept)", cur->dp_map ? cur->dp_map : "(none)",
                        MANIFESTS_DEVICE_PLUGIN_CONFIGMAP, cur->dp_default ? cur->dp_default : "(none)");
        }
        if (point_mig) {
            cJSON *cfg = cJSON_AddObjectToObject(cJSON_AddObjectToObject(spec, "migManager"), "config");
            cJSON_AddStringToObject(cfg, "name", MANIFESTS_MIG_PARTED_CONFIGMAP);
            strbuf_addf(&d, "%smigManager.config.name: %s -> %s", d.len ? "; " : "",
                        cur->mig_map ? cur->mig_map : "(operator default)", MANIFESTS_MIG_PARTED_CONFIGMAP);
        }
        if (r->mig_strategy_change) {
            cJSON_AddStringToObject(cJSON_AddObjectToObject(spec, "mig"), "strategy", "mixed");
            strbuf_addf(&d, "%smig.strategy: %s -> mixed", d.len ? "; " : "", cur->mig_strategy ? cur->mig_strategy : "(unset)");
        }
        PlanAction *x = push(a, ACT_CLUSTERPOLICY_PATCH);
        x->target = xasprintf("clusterpolicies.nvidia.com/%s", cur->clusterpolicy);
        x->patch = cJSON_PrintUnformatted(patch);
        x->detail = strbuf_detach(&d);
        cJSON_Delete(patch);
    }
    /* nodes */
    size_t first = a->n;
    for (size_t i = 0; i < r->ngroups; i++) {
        const PlanGroup *g = &r->groups[i];
        if (g->strategy == PLAN_NONE) continue;
        for (size_t j = 0; j < g->nplan_nodes; j++) {
            const PlanNode *pn = &g->plan_nodes[j];
            if (!pn->mig_change && !pn->dp_change) continue;
            PlanAction *x = push(a, ACT_NODE_LABEL);
            uintptr_t pods = node_pods ? (uintptr_t)strmap_get(node_pods, pn->name) : 0;
            x->g = g; x->pn = pn; x->pods = pods ? (int)(pods - 1) : 0;
            x->target = xstrdup(pn->name);
            x->drain = pn->drain;
            Strbuf d = STRBUF_INIT;
            if (pn->mig_change)
                strbuf_addf(&d, "nvidia.com/mig.config: %s -> %s", pn->mig_config_now ? pn->mig_config_now : "(none)",
                            pn->mig_config);
            if (pn->dp_change)
                strbuf_addf(&d, "%snvidia.com/device-plugin.config: %s -> %s", d.len ? "; " : "",
                            pn->device_plugin_config_now ? pn->device_plugin_config_now : "(none)",
                            pn->device_plugin_config);
            if (pn->drain && pn->mig_change && !pn->whole_after_shared)
                strbuf_addf(&d, "; MIG layout changes: cordon and drain (%d GPU pod%s on it now)", x->pods,
                            x->pods == 1 ? "" : "s");
            else if (pn->drain)
                strbuf_addf(&d, "; shared GPUs become whole: cordon and drain (%d GPU pod%s on it now; the "
                            "kubelet would hand a GPU that old replica pods still use to a whole-GPU pod)", x->pods,
                            x->pods == 1 ? "" : "s");
            else
                strbuf_adds(&d, "; no drain (the device plugin restarts, running pods keep their GPUs)");
            x->detail = strbuf_detach(&d);
        }
    }
    if (a->n - first > 1) qsort(a->v + first, a->n - first, sizeof *a->v, node_cmp);
    /* room for what each drain moves, node by node in that order (nothing to check without a
     * drain: the room itself is all it would make) */
    bool any_drain = false;
    for (size_t i = first; i < a->n; i++) any_drain |= a->v[i].pn && a->v[i].drain;
    if (c && w && any_drain) {
        Room rm;
        room_init(&rm, c, r, w, nw);
        StrMap *pending = strmap_new();            /* nodes not converted yet */
        for (size_t i = first; i < a->n; i++) if (a->v[i].pn) strmap_put(pending, a->v[i].pn->name, (void *)1);
        for (size_t i = first; i < a->n; i++) {
            PlanAction *x = &a->v[i];
            if (!x->pn) continue;
            strmap_del(pending, x->pn->name);
            if (x->drain) room_check(x, &rm, c, w, pending);
            room_converted(&rm, x->pn);
            if (!x->room_missing) continue;
            char *d = xasprintf("%s; ROOM MISSING while it is drained: its GPU pods need, on the other nodes that "
                                "admit them, %s: with EVICT=no the script stops before cordoning it (nothing "
                                "changed); with EVICT=yes they are evicted and wait Pending until it is converted",
                                x->detail, x->room_missing);
            free(x->detail);
            x->detail = d;
        }
        strmap_free(pending, NULL);
        room_release(&rm);
    }
    /* quotas last (see plan_actions.h) */
    for (size_t i = 0, q = 0; i < m->n; i++) {
        const cJSON *kind = cJSON_GetObjectItemCaseSensitive(m->docs[i], "kind");
        if (cJSON_IsString(kind) && strcmp(kind->valuestring, "ConfigMap") == 0) continue;
        PlanAction *x = push(a, ACT_QUOTA);
        x->doc = m->docs[i];
        x->target = xasprintf("%s/%s", meta_name(m->docs[i], "namespace"), meta_name(m->docs[i], "name"));
        x->detail = xasprintf("%s; applied after the node changes, once the namespace holds no more than it",
                              q < m->quotas ? m->quota_info[q].detail : "");
        q++;
    }

    /* in words */
    for (size_t i = 0; i < a->n; i++) {
        const PlanAction *x = &a->v[i];
        if (x->kind == ACT_CONFIGMAP) strvec_pushf(&a->changes, "ConfigMap %s replaced: %s", x->target, x->detail);
        else if (x->kind == ACT_QUOTA) strvec_pushf(&a->changes, "ResourceQuota %s: %s", x->target, x->detail);
        else if (x->kind == ACT_CLUSTERPOLICY_PATCH) strvec_pushf(&a->changes, "ClusterPolicy %s patched: %s", x->target, x->detail);
    }
    if (r->mig_strategy_change)
        strvec_pushf(&a->changes, "MIG strategy %s -> mixed, cluster-wide: nodes running MIG with the single strategy "
                     "will advertise nvidia.com/mig-<profile> instead of nvidia.com/gpu", cur && cur->mig_strategy ? cur->mig_strategy : "(unset)");
    size_t drains = 0, labels = 0;
    for (size_t i = 0; i < a->n; i++) if (a->v[i].kind == ACT_NODE_LABEL && a->v[i].pn) { labels++; drains += a->v[i].drain; }
    for (size_t i = 0; i < m->reconstructed.n; i++)
        strvec_pushf(&a->changes, "device-plugin config %s", m->reconstructed.v[i]);
    if (m->unlabel_nodes.n)
        strvec_pushf(&a->changes, "%zu inert nvidia.com/device-plugin.config label%s removed (no map was in use)",
                     m->unlabel_nodes.n, m->unlabel_nodes.n == 1 ? "" : "s");
    if (labels)
        strvec_pushf(&a->changes, "%zu node%s relabelled, %zu drained (MIG layout changes, shared to whole), %zu without drain",
                     labels, labels == 1 ? "" : "s", drains, labels - drains);
}

void plan_actions_quotas_last(PlanActions *a)
{
    if (a->n < 2) return;
    PlanAction *v = xcalloc(a->n ? a->n : 1, sizeof *v);
    size_t k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < a->n; i++)
            if ((a->v[i].kind == ACT_QUOTA) == (pass == 1)) v[k++] = a->v[i];
    memcpy(a->v, v, a->n * sizeof *v);
    free(v);
}

void plan_actions_clear(PlanActions *a)
{
    if (!a) return;
    for (size_t i = 0; i < a->n; i++) {
        free(a->v[i].target); free(a->v[i].detail); free(a->v[i].patch); free(a->v[i].command);
        free(a->v[i].room_missing);
        strvec_clear(&a->v[i].room); strvec_clear(&a->v[i].room_nodes);
    }
    free(a->v);
    strvec_clear(&a->changes);
    memset(a, 0, sizeof *a);
}

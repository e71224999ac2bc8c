/* cluster_live.c — watch events applied to a Cluster one object at a time (cluster_live.h).
 *
 * The list path folds every pod without GPUs into its node's usage and forgets it; a watch
 * later says "that pod changed" or "is gone", so while c->live is set the fold also records
 * what the pod added (its node and effective request, keyed "ns/name").  Per-node usage is
 * then two running sums — pods without GPUs (cluster.c's pending_usage) and GPU pods
 * (live->gpu_usage) — and a node's NodeUsage is recomputed from them when a pod on it
 * changes: the cost of an event is that of the object and of two nodes' resource lists.
 *
 * Memory: at 150,000 pods the records are most of what the incremental path adds, so they
 * are small: one slot of an open-addressing table holding the 64-bit hash of "ns/name" (two
 * different pods colliding among 10^6 has a chance near 10^-8), the node as an index into a
 * table of node names, cpu (milli) and memory (bytes, in a unit the value is a whole multiple
 * of) in 32 bits each, and a list only for the rare other resources (hugepages,
 * ephemeral-storage, extended resources) or values those 32 bits cannot hold, found by an
 * index: 24 bytes a pod.
 */
#include "model/cluster_live.h"
#include "cluster_int.h"
#include "cluster_plain.h"
#include "pod_index.h"
#include "json_fields.h"
#include "model/dra.h"
#include "util/error.h"
#include "util/strmap.h"
#include "util/strpool.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static char *key_of(const char *ns, const char *name)
{
    return xasprintf("%s/%s", ns && *ns ? ns : "default", name);
}

void cluster_live_enable(Cluster *c)
{
    if (c->live) return;
    c->live = xcalloc(1, sizeof *c->live);
}

void cluster_live_loaded(Cluster *c)
{
    if (!c->live) return;
    cluster_plain_settle(&c->live->plain);
    c->live->packed = true;
    strpool_pack(c->strings);         /* interned into at watch time only: 1 MB less at 5,000 nodes */
    c->live->pool_after = cluster_pooled_strings(c);
}

/* ---- running sums ---- */

static void sum_add(StrMap *m, const char *node, const ResourceList *req, int sign)
{
    NodeUsage *u = strmap_get(m, node);
    if (!u) { u = xcalloc(1, sizeof *u); strmap_put(m, node, u); }
    for (size_t i = 0; i < req->n; i++) rlist_add(&u->requested, req->items[i].name, sign * req->items[i].milli);
    u->pods += sign;
}

/* builds the indexes the arrays imply (after the list, and after a relist) */
static void live_index(Cluster *c)
{
    ClusterLive *l = c->live;
    if (l->indexed) return;
    strmap_free(l->gpu_usage, cluster_usage_free);
    strmap_free(l->event_index, NULL);
    l->gpu_usage = strmap_new();
    l->event_index = strmap_new();
    for (size_t i = 0; i < c->npods; i++)
        if (pod_holds_resources(&c->pods[i])) sum_add(l->gpu_usage, c->pods[i].node_name, &c->pods[i].requests, 1);
    for (size_t i = 0; i < c->nevents; i++) {
        char *k = key_of(c->events[i].ns, c->events[i].name);
        strmap_put(l->event_index, k, (void *)(uintptr_t)(i + 1));
        free(k);
    }
    l->indexed = true;
}

static void add_nonzero(ResourceList *dst, const NodeUsage *u, int *pods)
{
    if (!u) return;
    for (size_t i = 0; i < u->requested.n; i++)
        if (u->requested.items[i].milli) rlist_add(dst, u->requested.items[i].name, u->requested.items[i].milli);
    *pods += u->pods;
}

/* node's NodeUsage from the two sums (nothing when the node is not in the cluster) */
static void usage_recompute(Cluster *c, const char *node)
{
    if (!node || !c->usage) return;
    size_t idx = (size_t)(uintptr_t)strmap_get(c->node_index, node);
    if (!idx) return;
    NodeUsage *u = &c->usage[idx - 1];
    cluster_unshare_rlist(c, &u->requested);
    rlist_clear(&u->requested);
    u->pods = 0;
    add_nonzero(&u->requested, cluster_pending_usage(c, node), &u->pods);
    add_nonzero(&u->requested, strmap_get(c->live->gpu_usage, node), &u->pods);
    cluster_share_rlist(c, &u->requested);
}

/* ---- nodes ---- */

static void node_remove(Cluster *c, const char *name)
{
    size_t idx = (size_t)(uintptr_t)strmap_get(c->node_index, name);
    if (!idx) return;
    size_t i = idx - 1, last = c->nnodes - 1;
    strmap_del(c->node_index, name);          /* before the release: name is the node's */
    cluster_release_node(c, &c->nodes[i]);
    if (c->usage) {
        cluster_unshare_rlist(c, &c->usage[i].requested);
        rlist_clear(&c->usage[i].requested);
    }
    if (i != last) {
        c->nodes[i] = c->nodes[last];
        if (c->usage) c->usage[i] = c->usage[last];
        strmap_put(c->node_index, c->nodes[i].name, (void *)(uintptr_t)(i + 1));
    }
    c->nnodes--;
}

static int node_upsert(Cluster *c, const cJSON *obj, Error *err)
{
    size_t before = c->nnodes;
    if (cluster_ingest(c, OBJ_NODE, obj, err) < 0) return -1;
    if (c->nnodes > before) {                 /* a new node: its usage so far */
        c->usage = xrealloc(c->usage, c->nnodes * sizeof *c->usage);
        memset(&c->usage[c->nnodes - 1], 0, sizeof *c->usage);
        usage_recompute(c, c->nodes[c->nnodes - 1].name);
    }
    return 0;
}

/* ---- pods ---- */

/* takes pod key out of the cluster and of the sums; the node it held resources on in *node
 * (a copy, or NULL) */
static bool pod_forget(Cluster *c, const char *ns, const char *name, const char *key, char **node)
{
    ClusterLive *l = c->live;
    *node = NULL;
    PlainRec pr;
    if (cluster_plain_take(&l->plain, cluster_plain_hash(ns, name), &pr)) {
        const char *pnode = l->plain.nodes[pr.node];
        NodeUsage *u = cluster_pending_usage(c, pnode);
        if (u) {
            ResourceList req = RESOURCE_LIST_INIT;
            cluster_plain_requests(&l->plain, &pr, &req);
            for (size_t i = 0; i < req.n; i++) rlist_add(&u->requested, req.items[i].name, -req.items[i].milli);
            rlist_clear(&req);
            u->pods--;
        }
        *node = xstrdup(pnode);
        cluster_plain_drop_extra(&l->plain, pr.extra);
        return true;
    }
    const char *dns = ns && *ns ? ns : "default";
    size_t idx = pod_index_get(c->pod_index, c->pods, dns, name);
    if (!idx) return false;
    size_t i = idx - 1, last = c->npods - 1;
    Pod *p = &c->pods[i];
    if (pod_holds_resources(p)) {
        sum_add(l->gpu_usage, p->node_name, &p->requests, -1);
        *node = xstrdup(p->node_name);
    }
    pod_index_del(c->pod_index, c->pods, dns, name);
    cluster_release_pod(c, p);
    if (i != last) {
        c->pods[i] = c->pods[last];
        pod_index_put(c->pod_index, c->pods, i);
    }
    c->npods--;
    return true;
}

static char *obj_key(const cJSON *obj)
{
    const cJSON *meta = jobj(obj, "metadata");
    const char *name = jstr_ne(meta, "name");
    return name ? key_of(jstr_ne(meta, "namespace"), name) : NULL;
}

static int pod_change(Cluster *c, LiveChange change, const cJSON *obj, Error *err)
{
    char *key = obj_key(obj);
    if (!key) { error_set(err, "pod without metadata.name"); return -1; }
    const cJSON *meta = jobj(obj, "metadata");
    const char *ns = jstr_ne(meta, "namespace"), *name = jstr_ne(meta, "name");
    char *old_node = NULL;
    if (pod_forget(c, ns, name, key, &old_node) && c->all_pods) c->all_pods--;
    int rc = 0;
    if (change == LIVE_UPSERT) {
        rc = cluster_ingest(c, OBJ_POD, obj, err);
        const Pod *p = cluster_find_pod(c, ns && *ns ? ns : "default", name);
        if (p && pod_holds_resources(p)) {
            sum_add(c->live->gpu_usage, p->node_name, &p->requests, 1);
            usage_recompute(c, p->node_name);
        }
        PlainTable *t = &c->live->plain;
        const PlainRec *pr = cluster_plain_find(t, cluster_plain_hash(ns, name));
        if (pr) usage_recompute(c, t->nodes[pr->node]);
    }
    usage_recompute(c, old_node);
    free(old_node);
    free(key);
    return rc;
}

/* ---- events ---- */

static void event_remove(Cluster *c, const char *key)
{
    size_t idx = (size_t)(uintptr_t)strmap_del(c->live->event_index, key);
    if (!idx) return;
    size_t i = idx - 1, last = c->nevents - 1;
    cluster_event_clear(&c->events[i]);
    if (i != last) {
        c->events[i] = c->events[last];
        char *k = key_of(c->events[i].ns, c->events[i].name);
        strmap_put(c->live->event_index, k, (void *)(uintptr_t)(i + 1));
        free(k);
    }
    c->nevents--;
}

static int event_change(Cluster *c, LiveChange change, const cJSON *obj, Error *err)
{
    char *key = obj_key(obj);
    if (!key) { error_set(err, "event without metadata.name"); return -1; }
    event_remove(c, key);
    int rc = 0;
    size_t before = c->nevents;
    if (change == LIVE_UPSERT && (rc = cluster_ingest(c, OBJ_EVENT, obj, err)) == 0 && c->nevents > before) {
        const Event *e = &c->events[c->nevents - 1];
        char *k = key_of(e->ns, e->name);
        strmap_put(c->live->event_index, k, (void *)(uintptr_t)c->nevents);
        /* as finalize prunes: a pod's scheduling failure matters only for pods kept */
        if (str_eq(e->reason, "FailedScheduling") && str_eq(e->involved_kind, "Pod") && e->involved_name &&
            c->all_pods && !cluster_find_pod(c, e->ns, e->involved_name))
            event_remove(c, k);
        free(k);
    }
    free(key);
    return rc;
}

int cluster_live_apply(Cluster *c, ObjKind kind, LiveChange change, const cJSON *obj, Error *err)
{
    if (!c->live) cluster_live_enable(c);
    if (!cJSON_IsObject(obj)) { error_set(err, "%s: not a JSON object", obj_kind_name(kind)); return -1; }
    live_index(c);
    const cJSON *meta = jobj(obj, "metadata");
    const char *name = jstr_ne(meta, "name");
    bool was_final = c->finalized;
    int rc = 0;
    switch (kind) {
    case OBJ_NODE:
        if (!name) { error_set(err, "node without metadata.name"); return -1; }
        if (change == LIVE_DELETE) node_remove(c, name);
        else rc = node_upsert(c, obj, err);
        break;
    case OBJ_POD: rc = pod_change(c, change, obj, err); break;
    case OBJ_EVENT: rc = event_change(c, change, obj, err); break;
    default:
        /* quotas, DaemonSets, the ClusterPolicy, services, ConfigMaps, DRA: by namespace/name */
        rc = cluster_live_small_apply(c, kind, change == LIVE_DELETE, obj, err);
        break;
    }
    c->finalized = was_final && !c->live->relisted;
    return rc;
}

void cluster_live_reset(Cluster *c, ObjKind kind)
{
    if (!c->live) cluster_live_enable(c);
    ClusterLive *l = c->live;
    l->relisted = true;
    l->indexed = false;
    switch (kind) {
    case OBJ_NODE:
        while (c->nnodes) node_remove(c, c->nodes[c->nnodes - 1].name);
        break;
    case OBJ_POD:
        for (size_t i = 0; i < c->npods; i++) cluster_release_pod(c, &c->pods[i]);
        c->npods = 0;
        pod_index_free(c->pod_index);
        c->pod_index = NULL;
        cluster_plain_release(&l->plain);
        cluster_live_clear_folded(c);
        c->all_pods = 0;
        break;
    case OBJ_EVENT: {
        /* the watched events are the scheduler's; quota refusals (FailedCreate) stay */
        size_t w = 0;
        for (size_t i = 0; i < c->nevents; i++) {
            if (str_eq(c->events[i].reason, "FailedScheduling")) cluster_event_clear(&c->events[i]);
            else c->events[w++] = c->events[i];
        }
        c->nevents = w;
        break;
    }
    default:
        cluster_live_small_reset(c, kind);
        break;
    }
}

void cluster_live_commit(Cluster *c)
{
    if (!c->live) return;
    if (c->live->relisted || !c->finalized) {
        cluster_finalize(c);
        cluster_plain_settle(&c->live->plain);
        c->live->relisted = false;
        c->live->indexed = false;
    }
    dra_finalize(c->dra);            /* the DRA joins, when a DRA object changed (else nothing) */
    /* the pool never forgets a string; pods that come and go (Jobs) would make it grow for as
     * long as the view stays open: when it doubled, keep only what is used (amortized O(1)) */
    size_t n = cluster_pooled_strings(c);
    if (n > 4096 && n > 2 * c->live->pool_after) {
        cluster_compact_strings(c);
        if (c->live->packed) strpool_pack(c->strings);
        c->live->pool_after = cluster_pooled_strings(c);
    }
}

size_t cluster_live_pooled_strings(const Cluster *c) { return cluster_pooled_strings(c); }
size_t cluster_live_pooled_bytes(const Cluster *c) { return cluster_pooled_bytes(c); }

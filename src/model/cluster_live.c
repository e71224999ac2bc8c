/* cluster_live.c — watch events applied to a Cluster one object at a time (cluster_live.h).
 *
 * The list path folds every pod without GPUs into its node's usage and forgets it; a watch
 * later says "that pod changed" or "is gone", so while c->live is set the fold also records
 * what the pod added (its node and effective request, keyed "ns/name").  Per-node usage is
 * then a running sum of the pods without GPUs (cluster.c's pending_usage) and the GPU pods
 * the cluster keeps: a change marks the nodes it touches, and the commit makes their NodeUsage
 * again from the sum and one pass over the kept pods (a per-node sum of the GPU pods was
 * 1.2 MB at 5,000 busy GPU nodes, most of it resource names copied per node).  The events
 * are found by namespace/name in a table of 16-byte slots (a map of "ns/name" copies before).
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

static const char *ns_or_default(const char *ns) { return ns && *ns ? ns : "default"; }
void cluster_live_enable(Cluster *c)
{
    if (c->live) return;
    c->live = xcalloc(1, sizeof *c->live);
    c->live->plain_complete = !c->all_pods && !c->npods;
}

/* the per-node sums of the pods without GPUs are the records' (plain_complete): not kept */
static void plain_usage_drop(Cluster *c)
{
    if (c->live->plain_complete) cluster_live_clear_folded(c);
}

/* each live record of the table to fn */
static void plain_each(const PlainTable *t, void (*fn)(void *, const PlainTable *, const PlainRec *), void *ctx)
{
    for (size_t i = 0; i < t->nsorted; i++) if (t->sorted[i].node != PLAIN_DEAD) fn(ctx, t, &t->sorted[i]);
    for (size_t i = 0; i < t->cap; i++) if (t->slots[i].key) fn(ctx, t, &t->slots[i]);
}

static void add_rec(void *ctx, const PlainTable *t, const PlainRec *r)
{
    NodeUsage **per = ctx;
    if (!per[r->node]) per[r->node] = xcalloc(1, sizeof **per);
    cluster_plain_requests(t, r, &per[r->node]->requested);
    per[r->node]->pods++;
}

static void add_marked(void *ctx, const PlainTable *t, const PlainRec *r)
{
    NodeUsage **per = ctx;
    if (per[r->node]) add_rec(ctx, t, r);
}

/* cluster.c's pending_usage made again from the records (before a finalize reads it) */
static void plain_usage_rebuild(Cluster *c)
{
    const PlainTable *t = &c->live->plain;
    cluster_live_clear_folded(c);
    NodeUsage **per = t->nnodes ? xcalloc(t->nnodes, sizeof *per) : NULL;
    plain_each(t, add_rec, per);
    for (size_t i = 0; i < t->nnodes; i++) {
        if (!per[i]) continue;
        if (!c->pending_usage) c->pending_usage = strmap_new();
        strmap_put(c->pending_usage, t->nodes[i], per[i]);
    }
    free(per);
}

void cluster_live_loaded(Cluster *c)
{
    if (!c->live) return;
    cluster_plain_settle(&c->live->plain);
    c->live->packed = true;
    strpool_pack(c->strings);         /* interned into at watch time only: 1 MB less at 5,000 nodes */
    plain_usage_drop(c);              /* in c->usage since finalize, the records hold the rest */
    c->live->pool_after = cluster_pooled_strings(c);
}

/* ---- the events by namespace/name ---- */

static uint64_t event_key(const Event *e) { return cluster_plain_hash(e->ns, e->name ? e->name : ""); }

static bool event_is(const Event *e, const char *ns, const char *name)
{
    return str_eq(ns_or_default(e->ns), ns_or_default(ns)) && str_eq(e->name ? e->name : "", name);
}

static size_t ev_home(const ClusterLive *l, uint64_t key)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 17) & (l->ev_cap - 1);
}

/* the slot of the event ns/name, or SIZE_MAX */
static size_t ev_find(const Cluster *c, const char *ns, const char *name)
{
    const ClusterLive *l = c->live;
    if (!l->ev_cap) return SIZE_MAX;
    uint64_t key = cluster_plain_hash(ns, name);
    for (size_t i = ev_home(l, key);; i = (i + 1) & (l->ev_cap - 1)) {
        const EventSlot *s = &l->ev_slots[i];
        if (!s->at) return SIZE_MAX;
        if (s->key == key && event_is(&c->events[s->at - 1], ns, name)) return i;
    }
}

/* the slot that holds index at (the event is at that index), or SIZE_MAX */
static size_t ev_slot_of(const Cluster *c, size_t at)
{
    const ClusterLive *l = c->live;
    if (!l->ev_cap) return SIZE_MAX;
    uint64_t key = event_key(&c->events[at]);
    for (size_t i = ev_home(l, key);; i = (i + 1) & (l->ev_cap - 1)) {
        const EventSlot *s = &l->ev_slots[i];
        if (!s->at) return SIZE_MAX;
        if (s->at == at + 1) return i;
    }
}

static void ev_rebuild(Cluster *c, size_t cap);

/* c->events[at] indexed by its namespace/name (an event of the same name already indexed is
 * replaced, as a map's put would) */
static void ev_put(Cluster *c, size_t at)
{
    ClusterLive *l = c->live;
    if ((l->ev_n + 1) * 4 > l->ev_cap * 3) { ev_rebuild(c, l->ev_cap ? 2 * l->ev_cap : 64); return; }
    const Event *e = &c->events[at];
    uint64_t key = event_key(e);
    size_t i = ev_home(l, key);
    for (; l->ev_slots[i].at; i = (i + 1) & (l->ev_cap - 1))
        if (l->ev_slots[i].key == key && event_is(&c->events[l->ev_slots[i].at - 1], e->ns, e->name ? e->name : "")) {
            l->ev_slots[i].at = (uint32_t)(at + 1);
            return;
        }
    l->ev_slots[i] = (EventSlot){ key, (uint32_t)(at + 1) };
    l->ev_n++;
}

/* every event of c->events indexed again, in a table of cap slots (grown while it is more
 * than 3/4 full) */
static void ev_rebuild(Cluster *c, size_t cap)
{
    ClusterLive *l = c->live;
    while (c->nevents * 4 > cap * 3) cap *= 2;
    free(l->ev_slots);
    l->ev_slots = xcalloc(cap, sizeof *l->ev_slots);
    l->ev_cap = cap;
    l->ev_n = 0;
    for (size_t i = 0; i < c->nevents; i++) ev_put(c, i);
}

/* the slot i emptied; the slots after it in its run moved back (linear probing) */
static void ev_del(ClusterLive *l, size_t i)
{
    size_t mask = l->ev_cap - 1;
    for (size_t j = (i + 1) & mask; l->ev_slots[j].at; j = (j + 1) & mask) {
        size_t h = ev_home(l, l->ev_slots[j].key);
        /* j's record may fill the hole i when its home is not in (i, j] (cyclically) */
        if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
            l->ev_slots[i] = l->ev_slots[j];
            i = j;
        }
    }
    l->ev_slots[i] = (EventSlot){ 0, 0 };
    l->ev_n--;
}

/* builds the index the arrays imply (after the list, and after a relist) */
static void live_index(Cluster *c)
{
    ClusterLive *l = c->live;
    if (l->indexed) return;
    ev_rebuild(c, 64);
    l->indexed = true;
}

/* ---- per-node usage ---- */

/* node's usage is made again at the commit (NULL: nothing; during a relist the commit makes
 * every node's) */
static void usage_dirty(Cluster *c, const char *node)
{
    ClusterLive *l = c->live;
    if (!node || !c->usage || l->relisted) return;
    if (!l->dirty) l->dirty = strmap_new();
    strmap_put(l->dirty, node, NULL);
}

static void add_nonzero(ResourceList *dst, const ResourceList *src)
{
    for (size_t i = 0; i < src->n; i++)
        if (src->items[i].milli) rlist_add(dst, src->items[i].name, src->items[i].milli);
}

/* the marked nodes' NodeUsage made again (make; else the marks are dropped): the running
 * sum of their pods without GPUs, then the GPU pods holding resources on them, summed in one
 * pass over the kept pods */
static void usage_settle(Cluster *c, bool make)
{
    ClusterLive *l = c->live;
    if (make && l->dirty && c->usage && c->nnodes) {
        uint32_t *slot = xcalloc(c->nnodes, sizeof *slot);        /* node -> 1 + marked node */
        size_t *nodes = xcalloc(c->nnodes, sizeof *nodes);
        size_t nmarked = 0, it = 0;
        const char *name;
        void *unused;
        while (strmap_next(l->dirty, &it, &name, &unused)) {
            size_t idx = (size_t)(uintptr_t)strmap_get(c->node_index, name);
            if (!idx || slot[idx - 1]) continue;
            nodes[nmarked] = idx - 1;
            slot[idx - 1] = (uint32_t)++nmarked;
        }
        NodeUsage *gpu = xcalloc(nmarked ? nmarked : 1, sizeof *gpu);
        NodeUsage *plain = xcalloc(nmarked ? nmarked : 1, sizeof *plain);
        if (l->plain_complete && nmarked) {       /* the records of the marked nodes, summed */
            const PlainTable *t = &l->plain;
            NodeUsage **per = t->nnodes ? xcalloc(t->nnodes, sizeof *per) : NULL;
            for (size_t id = 0; id < t->nnodes; id++) {
                size_t idx = (size_t)(uintptr_t)strmap_get(c->node_index, t->nodes[id]);
                if (idx && slot[idx - 1]) per[id] = &plain[slot[idx - 1] - 1];
            }
            plain_each(t, add_marked, per);
            free(per);
        }
        for (size_t i = 0; nmarked && i < c->npods; i++) {
            const Pod *p = &c->pods[i];
            if (!pod_holds_resources(p)) continue;
            size_t idx = (size_t)(uintptr_t)strmap_get(c->node_index, p->node_name);
            if (!idx || !slot[idx - 1]) continue;
            NodeUsage *g = &gpu[slot[idx - 1] - 1];
            rlist_add_all(&g->requested, &p->requests);
            g->pods++;
        }
        for (size_t k = 0; k < nmarked; k++) {
            NodeUsage *u = &c->usage[nodes[k]];
            const NodeUsage *p = l->plain_complete ? &plain[k] : cluster_pending_usage(c, c->nodes[nodes[k]].name);
            cluster_unshare_rlist(c, &u->requested);
            rlist_clear(&u->requested);
            u->pods = 0;
            if (p) { add_nonzero(&u->requested, &p->requested); u->pods += p->pods; }
            add_nonzero(&u->requested, &gpu[k].requested);
            u->pods += gpu[k].pods;
            cluster_share_rlist(c, &u->requested);
            rlist_clear(&gpu[k].requested);
            rlist_clear(&plain[k].requested);
        }
        free(gpu);
        free(plain);
        free(nodes);
        free(slot);
    }
    strmap_free(l->dirty, NULL);
    l->dirty = NULL;
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
        usage_dirty(c, c->nodes[c->nnodes - 1].name);
    }
    return 0;
}

/* ---- pods ---- */

/* takes pod ns/name out of the cluster (and a pod without GPUs out of its node's sum); the
 * node whose usage it was part of marked */
static bool pod_forget(Cluster *c, const char *ns, const char *name)
{
    ClusterLive *l = c->live;
    PlainRec pr;
    if (cluster_plain_take(&l->plain, cluster_plain_hash(ns, name), &pr)) {
        const char *pnode = l->plain.nodes[pr.node];
        NodeUsage *u = l->plain_complete ? NULL : cluster_pending_usage(c, pnode);
        if (u) {
            ResourceList req = RESOURCE_LIST_INIT;
            cluster_plain_requests(&l->plain, &pr, &req);
            for (size_t i = 0; i < req.n; i++) rlist_add(&u->requested, req.items[i].name, -req.items[i].milli);
            rlist_clear(&req);
            u->pods--;
        }
        usage_dirty(c, pnode);
        cluster_plain_drop_extra(&l->plain, pr.extra);
        return true;
    }
    const char *dns = ns && *ns ? ns : "default";
    size_t idx = pod_index_get(c->pod_index, c->pods, dns, name);
    if (!idx) return false;
    size_t i = idx - 1, last = c->npods - 1;
    Pod *p = &c->pods[i];
    if (pod_holds_resources(p)) usage_dirty(c, p->node_name);
    pod_index_del(c->pod_index, c->pods, dns, name);
    cluster_release_pod(c, p);
    if (i != last) {
        c->pods[i] = c->pods[last];
        pod_index_put(c->pod_index, c->pods, i);
    }
    c->npods--;
    return true;
}

static int pod_change(Cluster *c, LiveChange change, const cJSON *obj, Error *err)
{
    const cJSON *meta = jobj(obj, "metadata");
    const char *ns = jstr_ne(meta, "namespace"), *name = jstr_ne(meta, "name");
    if (!name) { error_set(err, "pod without metadata.name"); return -1; }
    if (pod_forget(c, ns, name) && c->all_pods) c->all_pods--;
    int rc = 0;
    if (change == LIVE_UPSERT) {
        rc = cluster_ingest(c, OBJ_POD, obj, err);
        const Pod *p = cluster_find_pod(c, ns_or_default(ns), name);
        if (p && pod_holds_resources(p)) usage_dirty(c, p->node_name);
        PlainTable *t = &c->live->plain;
        const PlainRec *pr = cluster_plain_find(t, cluster_plain_hash(ns, name));
        if (pr) usage_dirty(c, t->nodes[pr->node]);
    }
    return rc;
}

/* ---- events ---- */

static void event_remove(Cluster *c, const char *ns, const char *name)
{
    ClusterLive *l = c->live;
    size_t s = ev_find(c, ns, name);
    if (s == SIZE_MAX) return;
    size_t i = l->ev_slots[s].at - 1, last = c->nevents - 1;
    ev_del(l, s);
    if (i != last) {                          /* the last event takes the hole */
        size_t ls = ev_slot_of(c, last);
        if (ls != SIZE_MAX) l->ev_slots[ls].at = (uint32_t)(i + 1);
    }
    cluster_event_clear(&c->events[i]);
    if (i != last) c->events[i] = c->events[last];
    c->nevents--;
}

static int event_change(Cluster *c, LiveChange change, const cJSON *obj, Error *err)
{
    const cJSON *meta = jobj(obj, "metadata");
    const char *ns = jstr_ne(meta, "namespace"), *name = jstr_ne(meta, "name");
    if (!name) { error_set(err, "event without metadata.name"); return -1; }
    event_remove(c, ns, name);
    int rc = 0;
    size_t before = c->nevents;
    if (change == LIVE_UPSERT && (rc = cluster_ingest(c, OBJ_EVENT, obj, err)) == 0 && c->nevents > before) {
        ev_put(c, c->nevents - 1);
        const Event *e = &c->events[c->nevents - 1];
        /* as finalize prunes: a pod's scheduling failure matters only for pods kept */
        if (str_eq(e->reason, "FailedScheduling") && str_eq(e->involved_kind, "Pod") && e->involved_name &&
            c->all_pods && !cluster_find_pod(c, e->ns, e->involved_name))
            event_remove(c, e->ns, e->name ? e->name : "");
    }
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
        usage_settle(c, false);         /* finalize makes every node's usage */
        if (c->live->plain_complete) plain_usage_rebuild(c);
        cluster_finalize(c);
        plain_usage_drop(c);
        cluster_plain_settle(&c->live->plain);
        c->live->relisted = false;
        c->live->indexed = false;
    } else {
        usage_settle(c, true);
        plain_usage_drop(c);            /* what the batch's new pods without GPUs added to it */
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

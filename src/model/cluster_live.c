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
#include "pod_index.h"
#include "json_fields.h"
#include "model/dra.h"
#include "util/error.h"
#include "util/strmap.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t key;            /* hash of "ns/name"; 0 = empty slot */
    uint32_t node;           /* index into PlainTable.nodes */
    uint32_t extra;          /* 1 + index into PlainTable.extras, 0 when none */
    uint32_t cpu;            /* milli-cpu */
    uint32_t mem;            /* memory: see mem_pack */
} PlainRec;

typedef struct {
    PlainRec *slots;
    size_t cap, n;           /* cap a power of two, n <= 3/4 cap */
    char **nodes; size_t nnodes, capnodes;
    StrMap *node_ids;        /* node name -> index + 1 */
    ResourceList **extras; size_t nextras, capextras;   /* the records' lists; NULL = free */
    uint32_t *free_extras; size_t nfree, capfree;       /* free indices of extras */
} PlainTable;

/* Memory in 32 bits: the top two bits the unit (bytes, 1000 bytes, KiB, MiB), the other 30
 * the count; false when m (milli-bytes) is no whole number of one of those units below 2^30
 * (the record then keeps cpu and memory in its list) */
static const uint64_t MEM_UNIT[4] = { 1, 1000, 1024, 1024 * 1024 };

static bool mem_pack(int64_t m, uint32_t *out)
{
    if (m < 0 || m % 1000) return false;
    uint64_t b = (uint64_t)(m / 1000);
    for (uint32_t u = 0; u < 4; u++)
        if (b % MEM_UNIT[u] == 0 && b / MEM_UNIT[u] < (1u << 30)) {
            *out = (u << 30) | (uint32_t)(b / MEM_UNIT[u]);
            return true;
        }
    return false;
}

static int64_t mem_unpack(uint32_t v)
{
    return (int64_t)((uint64_t)(v & ((1u << 30) - 1)) * MEM_UNIT[v >> 30] * 1000);
}

typedef struct ClusterLive {
    PlainTable plain;       /* pods without GPUs holding resources: what each adds */
    StrMap *gpu_usage;      /* node -> NodeUsage* of the GPU pods holding resources on it */
    StrMap *event_index;    /* "ns/name" -> index + 1 into c->events */
    bool indexed;           /* gpu_usage and event_index match the arrays */
    bool relisted;          /* a kind was reset: commit finalizes in full */
    size_t pool_after;      /* strings in the pool after the last compaction */
} ClusterLive;

static void extra_free(ResourceList *l)
{
    if (!l) return;
    rlist_clear(l);
    free(l);
}

static void plain_release(PlainTable *t)
{
    for (size_t i = 0; i < t->nextras; i++) extra_free(t->extras[i]);
    free(t->extras);
    free(t->free_extras);
    free(t->slots);
    for (size_t i = 0; i < t->nnodes; i++) free(t->nodes[i]);
    free(t->nodes);
    strmap_free(t->node_ids, NULL);
    memset(t, 0, sizeof *t);
}

static uint64_t pod_hash(const char *ns, const char *name)
{
    uint64_t h = 1469598103934665603ULL;
    for (const char *p = ns && *ns ? ns : "default"; *p; p++) { h ^= (unsigned char)*p; h *= 1099511628211ULL; }
    h ^= '/'; h *= 1099511628211ULL;
    for (const char *p = name; *p; p++) { h ^= (unsigned char)*p; h *= 1099511628211ULL; }
    return h ? h : 1;
}

static size_t home_of(const PlainTable *t, uint64_t key)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 17) & (t->cap - 1);
}

static PlainRec *plain_slot(const PlainTable *t, uint64_t key)
{
    size_t i = home_of(t, key);
    while (t->slots[i].key && t->slots[i].key != key) i = (i + 1) & (t->cap - 1);
    return &t->slots[i];
}

static void plain_grow(PlainTable *t)
{
    PlainRec *old = t->slots;
    size_t oc = t->cap;
    t->cap = oc ? oc * 2 : 1024;
    t->slots = xcalloc(t->cap, sizeof *t->slots);
    for (size_t i = 0; i < oc; i++) if (old[i].key) *plain_slot(t, old[i].key) = old[i];
    free(old);
}

static uint32_t node_id(PlainTable *t, const char *node)
{
    if (!t->node_ids) t->node_ids = strmap_new();
    size_t id = (size_t)(uintptr_t)strmap_get(t->node_ids, node);
    if (id) return (uint32_t)(id - 1);
    ARRAY_GROW(t->nodes, t->nnodes, t->capnodes);
    t->nodes[t->nnodes++] = xstrdup(node);
    strmap_put(t->node_ids, node, (void *)(uintptr_t)t->nnodes);
    return (uint32_t)(t->nnodes - 1);
}

/* takes the record of key out of the table (false when there is none) */
static bool plain_take(PlainTable *t, uint64_t key, PlainRec *out)
{
    if (!t->cap) return false;
    PlainRec *s = plain_slot(t, key);
    if (!s->key) return false;
    *out = *s;
    s->key = 0;
    t->n--;
    size_t mask = t->cap - 1, hole = (size_t)(s - t->slots), i = hole;
    for (;;) {                         /* linear probing: later entries of the run move back */
        i = (i + 1) & mask;
        if (!t->slots[i].key) break;
        size_t home = home_of(t, t->slots[i].key);
        bool stays = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
        if (stays) continue;
        t->slots[hole] = t->slots[i];
        t->slots[i].key = 0;
        hole = i;
    }
    return true;
}

/* a list kept for a record: its index + 1 */
static uint32_t extra_put(PlainTable *t, ResourceList *l)
{
    size_t i;
    if (t->nfree) i = t->free_extras[--t->nfree];
    else {
        ARRAY_GROW(t->extras, t->nextras, t->capextras);
        i = t->nextras++;
    }
    t->extras[i] = l;
    return (uint32_t)(i + 1);
}

/* the record's list freed and its index given back */
static void extra_drop(PlainTable *t, uint32_t extra)
{
    if (!extra) return;
    extra_free(t->extras[extra - 1]);
    t->extras[extra - 1] = NULL;
    ARRAY_GROW(t->free_extras, t->nfree, t->capfree);
    t->free_extras[t->nfree++] = extra - 1;
}

/* rec's resources as a list (the caller frees it) */
static void rec_requests(const PlainTable *t, const PlainRec *r, ResourceList *out)
{
    if (r->cpu) rlist_add(out, "cpu", r->cpu);
    if (r->mem) rlist_add(out, "memory", mem_unpack(r->mem));
    if (r->extra) rlist_add_all(out, t->extras[r->extra - 1]);
}

static void node_usage_free(void *v)
{
    NodeUsage *u = v;
    if (!u) return;
    rlist_clear(&u->requested);
    free(u);
}

static char *key_of(const char *ns, const char *name)
{
    return xasprintf("%s/%s", ns && *ns ? ns : "default", name);
}

void cluster_live_enable(Cluster *c)
{
    if (c->live) return;
    c->live = xcalloc(1, sizeof *c->live);
}

void cluster_live_free(Cluster *c)
{
    ClusterLive *l = c->live;
    if (!l) return;
    plain_release(&l->plain);
    strmap_free(l->gpu_usage, node_usage_free);
    strmap_free(l->event_index, NULL);
    free(l);
    c->live = NULL;
}

void cluster_live_note_plain(Cluster *c, const char *ns, const char *name, const char *node,
                             const ResourceList *req)
{
    PlainTable *t = &c->live->plain;
    PlainRec r = { pod_hash(ns, name), node_id(t, node), 0, 0, 0 };
    int64_t cpu = 0, mem = 0;
    bool others = false;
    for (size_t i = 0; i < req->n; i++) {
        const ResourceEntry *e = &req->items[i];
        if (str_eq(e->name, "cpu")) cpu += e->milli;
        else if (str_eq(e->name, "memory")) mem += e->milli;
        else others = true;
    }
    bool packed = cpu >= 0 && (uint64_t)cpu <= UINT32_MAX && mem_pack(mem, &r.mem);
    if (packed) r.cpu = (uint32_t)cpu;
    else r.mem = 0;
    if (others || !packed) {
        /* the list gets what rec_requests would have added, in the same order */
        ResourceList *l = xcalloc(1, sizeof *l);
        if (!packed && cpu) rlist_add(l, "cpu", cpu);
        if (!packed && mem) rlist_add(l, "memory", mem);
        for (size_t i = 0; i < req->n; i++) {
            const ResourceEntry *e = &req->items[i];
            if (!str_eq(e->name, "cpu") && !str_eq(e->name, "memory")) rlist_add(l, e->name, e->milli);
        }
        r.extra = extra_put(t, l);
    }
    PlainRec old;
    if (plain_take(t, r.key, &old)) extra_drop(t, old.extra);
    if ((t->n + 1) * 4 > t->cap * 3) plain_grow(t);
    *plain_slot(t, r.key) = r;
    t->n++;
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
    strmap_free(l->gpu_usage, node_usage_free);
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
    if (plain_take(&l->plain, pod_hash(ns, name), &pr)) {
        const char *pnode = l->plain.nodes[pr.node];
        NodeUsage *u = cluster_pending_usage(c, pnode);
        if (u) {
            ResourceList req = RESOURCE_LIST_INIT;
            rec_requests(&l->plain, &pr, &req);
            for (size_t i = 0; i < req.n; i++) rlist_add(&u->requested, req.items[i].name, -req.items[i].milli);
            rlist_clear(&req);
            u->pods--;
        }
        *node = xstrdup(pnode);
        extra_drop(&l->plain, pr.extra);
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
        if (t->cap) {
            const PlainRec *pr = plain_slot(t, pod_hash(ns, name));
            if (pr->key) usage_recompute(c, t->nodes[pr->node]);
        }
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
        plain_release(&l->plain);
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
        c->live->relisted = false;
        c->live->indexed = false;
    }
    dra_finalize(c->dra);            /* the DRA joins, when a DRA object changed (else nothing) */
    /* the pool never forgets a string; pods that come and go (Jobs) would make it grow for as
     * long as the view stays open: when it doubled, keep only what is used (amortized O(1)) */
    size_t n = cluster_pooled_strings(c);
    if (n > 4096 && n > 2 * c->live->pool_after) {
        cluster_compact_strings(c);
        c->live->pool_after = cluster_pooled_strings(c);
    }
}

size_t cluster_live_pooled_strings(const Cluster *c) { return cluster_pooled_strings(c); }
size_t cluster_live_pooled_bytes(const Cluster *c) { return cluster_pooled_bytes(c); }

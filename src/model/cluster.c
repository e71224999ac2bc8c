/* cluster.c — the reduced cluster: objects arrive one at a time and only what is used stays.
 *
 * Reduction rules (see cluster.h):
 *   Node         every node with its labels: a GPU pod's nodeSelector or affinity must be
 *                checked against CPU nodes too, or explain would blame the wrong filter
 *                (tens of labels per node: a few MB at 5,000 nodes).  A second object
 *                with the same name replaces the first.
 *   Pod          GPU pods (non-zero request of a GPU resource) are kept, replaced by name.
 *                Other pods that hold resources (bound, not Succeeded/Failed) are folded into
 *                pending_usage[node name] (pods may arrive before their node) and dropped.
 *   Event        FailedScheduling events (any namespace: when events arrive before pods we
 *                cannot tell GPU pods yet) and FailedCreate events whose message says
 *                "exceeded quota"; messages truncated to 4 KiB.  cluster_finalize drops the
 *                FailedScheduling events of pods that were not kept, when pods were loaded.
 *   ResourceQuota  when a hard/used key names a GPU resource (bare, requests.* or limits.*).
 *   DaemonSet    in gpu-operator / nvidia-gpu-operator / kube-system, or whose app label or
 *                name starts with nvidia- or gpu-, or of any name and namespace whose container
 *                image is the device plugin's or the MIG manager's (k8s-device-plugin,
 *                k8s-mig-manager: the repository's last path component, so mirrors match); of
 *                those two also the config selection (DS_ENV_KEYS env values, config-manager,
 *                ConfigMap volumes and where they are mounted, Helm labels).
 *   Service      whose name or a label key/value contains "prometheus" (metrics discovery).
 *   ClusterPolicy  name, status.state and spec.devicePlugin.config.{name,default} (the one not
 *                "ignored" wins when several).
 *   ConfigMap    each data value that parses as a device-plugin config becomes one
 *                DevicePluginConfig (dpconfig.c: dpconfig_ingest_configmap).
 * (The small kinds, ResourceQuota to ConfigMap, are cluster_kinds.c.)
 * cluster_finalize joins usage to nodes (dropped pods + kept GPU pods that hold resources) and
 * rebuilds the node index; it may be called again after more objects were ingested.
 */
#include "model/cluster.h"
#include "model/dra.h"
#include "model/queue.h"
#include "cluster_int.h"
#include "pod_index.h"
#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "util/error.h"
#include "json_fields.h"
#include "util/strmap.h"
#include "util/strpool.h"
#include "util/util.h"

static const char *const kind_names[OBJ__COUNT] = {
    [OBJ_NODE] = "Node", [OBJ_POD] = "Pod", [OBJ_EVENT] = "Event",
    [OBJ_RESOURCEQUOTA] = "ResourceQuota", [OBJ_DAEMONSET] = "DaemonSet",
    [OBJ_CLUSTERPOLICY] = "ClusterPolicy", [OBJ_SERVICE] = "Service", [OBJ_CONFIGMAP] = "ConfigMap",
    [OBJ_PRIORITYCLASS] = "PriorityClass",
    [OBJ_RESOURCESLICE] = "ResourceSlice", [OBJ_RESOURCECLAIM] = "ResourceClaim",
    [OBJ_RESOURCECLAIMTEMPLATE] = "ResourceClaimTemplate", [OBJ_DEVICECLASS] = "DeviceClass",
    [OBJ_KUEUE_WORKLOAD] = "Workload", [OBJ_KUEUE_LOCALQUEUE] = "LocalQueue",
    [OBJ_KUEUE_CLUSTERQUEUE] = "ClusterQueue", [OBJ_KUEUE_FLAVOR] = "ResourceFlavor",
    [OBJ_KUEUE_COHORT] = "Cohort", [OBJ_VOLCANO_PODGROUP] = "PodGroup", [OBJ_VOLCANO_QUEUE] = "Queue",
    [OBJ_KAI_PODGROUP] = "PodGroup", [OBJ_KAI_QUEUE] = "Queue", [OBJ_KUEUE_PENDING] = "PendingWorkloadsSummary",
    [OBJ_KUEUE_PRIORITYCLASS] = "WorkloadPriorityClass",
};

const char *obj_kind_name(ObjKind k) { return k >= 0 && k < OBJ__COUNT ? kind_names[k] : "Unknown"; }

bool obj_kind_from_name(const char *kind, ObjKind *out)
{
    for (int i = 0; i < OBJ__COUNT; i++)
        if (str_eq(kind, kind_names[i])) { *out = (ObjKind)i; return true; }
    return false;
}

bool obj_kind_is_queue(ObjKind k) { return k >= OBJ_KUEUE_WORKLOAD && k <= OBJ_KUEUE_PRIORITYCLASS; }

bool obj_kind_from_api(const char *api_version, const char *kind, ObjKind *out)
{
    if (!obj_kind_from_name(kind, out)) return false;
    if (api_version && str_starts_with(api_version, "scheduling.run.ai/")) {
        if (*out == OBJ_VOLCANO_PODGROUP) *out = OBJ_KAI_PODGROUP;
        if (*out == OBJ_VOLCANO_QUEUE) *out = OBJ_KAI_QUEUE;
    }
    /* a Kueue kind's name in another group (e.g. a Queue of some other system) is not ours */
    if (obj_kind_is_queue(*out) && api_version) {
        const char *group = *out <= OBJ_KUEUE_COHORT || *out == OBJ_KUEUE_PRIORITYCLASS ? "kueue.x-k8s.io/"
                          : *out <= OBJ_VOLCANO_QUEUE ? "scheduling.volcano.sh/"
                          : *out <= OBJ_KAI_QUEUE ? "scheduling.run.ai/" : "visibility.kueue.x-k8s.io/";
        if (!str_starts_with(api_version, group)) return false;
    }
    return true;
}

void cluster_init(Cluster *c)
{
    memset(c, 0, sizeof *c);
    c->now = (int64_t)time(NULL);
}

/* ---- shared strings ----
 *
 * The strings of kept nodes and pods repeat a lot (label keys and values, namespaces,
 * resource names, tolerations, owner kinds, scheduler names): nodes and pods are decoded
 * straight into the cluster's pool (util/strpool.h; never freed before cluster_release), so
 * memory follows the distinct strings, not the objects.  Their lists (a pod's labels and
 * requests, a node's capacity) are built by the shared list types with their own strings: once
 * an object is kept, those are swapped for the pool's copies here, and set to NULL again
 * before node_clear/pod_clear free the lists.  visit_node_lists / visit_pod_lists are the only
 * place that knows which list strings are shared; visit_node / visit_pod add the pooled
 * fields (for compaction, which interns every string still used into a new pool). */

typedef void (*FieldFn)(Cluster *c, const char **field);

static StrPool *cluster_pool(Cluster *c)
{
    if (!c->strings) c->strings = strpool_new();
    return c->strings;
}

static void share_field(Cluster *c, const char **f)
{
    if (!*f) return;
    const char *s = strpool_intern(cluster_pool(c), *f);
    free((char *)*f);               /* the list's own copy, replaced by the pool's */
    *f = s;
}

static void unshare_field(Cluster *c, const char **f)
{
    (void)c;
    *f = NULL;                      /* the pool's; not the list's to free */
}

/* a list item's `char *` through a FieldFn (no cast of the field's address) */
#define VISIT_OWN(c, fn, field) do { const char *v_ = (field); fn((c), &v_); (field) = (char *)v_; } while (0)

static void visit_kv(Cluster *c, KVList *l, FieldFn fn)
{
    for (size_t i = 0; i < l->n; i++) { VISIT_OWN(c, fn, l->items[i].key); VISIT_OWN(c, fn, l->items[i].value); }
}

/* (a common name is the binary's, nobody's to share or free: resources.h) */
static void visit_rlist(Cluster *c, ResourceList *l, FieldFn fn)
{
    for (size_t i = 0; i < l->n; i++)
        if (!resources_name_static(l->items[i].name)) VISIT_OWN(c, fn, l->items[i].name);
}

/* a node's labels are read into the pool (node_from_json): only its resource lists are its own */
static void visit_node_lists(Cluster *c, Node *n, FieldFn fn)
{
    visit_rlist(c, &n->capacity, fn);
    visit_rlist(c, &n->allocatable, fn);
}

static void visit_node(Cluster *c, Node *n, FieldFn fn)
{
    visit_kv(c, &n->labels, fn);
    visit_node_lists(c, n, fn);
    fn(c, &n->name);
    for (size_t i = 0; i < n->ntaints; i++) {
        fn(c, &n->taints[i].key); fn(c, &n->taints[i].value); fn(c, &n->taints[i].effect);
    }
    fn(c, &n->not_ready_reason);
    for (size_t i = 0; i < n->nhealth; i++) {
        fn(c, &n->health[i].type); fn(c, &n->health[i].reason); fn(c, &n->health[i].message);
    }
    GpuFacts *g = &n->gpu;
    fn(c, &g->product); fn(c, &g->base_product); fn(c, &g->family); fn(c, &g->mig_config);
    fn(c, &g->mig_config_state); fn(c, &g->device_plugin_config); fn(c, &g->mig_single_profile);
    fn(c, &g->driver_version); fn(c, &g->cloud_partition);
    for (size_t i = 0; i < g->nmig; i++) fn(c, &g->mig[i].profile);
    for (size_t i = 0; i < g->nhami; i++) { fn(c, &g->hami[i].uuid); fn(c, &g->hami[i].type); }
}

/* a kept pod's requests are the pool's, shared by the pods that request the same (cap 0) */
static bool pooled_requests(const Pod *p) { return p->requests.n && !p->requests.cap; }

static void visit_pod_lists(Cluster *c, Pod *p, FieldFn fn)
{
    visit_kv(c, &p->labels, fn);
    if (!pooled_requests(p)) visit_rlist(c, &p->requests, fn);
}

static void visit_pod(Cluster *c, Pod *p, FieldFn fn)
{
    visit_pod_lists(c, p, fn);
    fn(c, &p->ns); fn(c, &p->name); fn(c, &p->node_name);
    fn(c, &p->owner_kind); fn(c, &p->owner_name);
    for (size_t i = 0; i < p->nclaims; i++) {
        PodClaimRef *r = &p->claims[i];
        fn(c, &r->name); fn(c, &r->claim); fn(c, &r->template_name);
    }
}

/* The object arrays (200-350 bytes an object, tens of thousands of pods) grow by an eighth
 * past 1,024 objects, not twice: their slack is part of the load's peak (a doubling left
 * 65,536 pod slots for 56,819 pods, 1.7 MB).  Blocks this large are mapped on their own
 * (loader.c), so growing moves pages (mremap), it does not copy them. */
#define GROW_OBJECTS(ptr, n, cap) do { if ((n) >= (cap)) {                                      \
    (cap) = (cap) < 1024 ? ((cap) ? (cap) * 2 : 8) : (cap) + (cap) / 8;                         \
    (ptr) = xrealloc((ptr), (cap) * sizeof(*(ptr))); } } while (0)

/* a kept object's lists no longer grow: give their slack back */
#define SHRINK(ptr, n, cap) do { if ((cap) > (n) && (n)) { (ptr) = xrealloc((ptr), (n) * sizeof *(ptr)); (cap) = (n); } } while (0)

static void shrink_node(Node *n)
{
    SHRINK(n->labels.items, n->labels.n, n->labels.cap);
    SHRINK(n->capacity.items, n->capacity.n, n->capacity.cap);
    SHRINK(n->allocatable.items, n->allocatable.n, n->allocatable.cap);
}

static void shrink_pod(Pod *p)
{
    SHRINK(p->labels.items, p->labels.n, p->labels.cap);
    SHRINK(p->requests.items, p->requests.n, p->requests.cap);
}

static void release_node(Cluster *c, Node *n)
{
    visit_node_lists(c, n, unshare_field);
    node_clear(n);
}

/* A bound pod's labels are read for one thing: whether its ReplicaSet is named by its
 * pod-template-hash, as a Deployment's is, which Pod.rs_hash_len keeps as it is decoded.
 * Every other reader of a pod's labels reads pending pods (pending -l, top's filter: rows of
 * unbound pods) or the pod's own labels while it is decoded (pod_from_json's spread_by_node).
 * So a kept bound pod keeps none: 51,819 running pods on the full training cluster, 51,919
 * distinct label sets among them (2.7 MB of lists, their values in the pool besides; the
 * hash alone, kept until this round, was 1.6 MB of lists and a new string in the pool per
 * ReplicaSet).  ingest_pod reads them so (pod_from_json_kept: they are not even copied); this
 * keeps the rule for a pod read otherwise. */
static void trim_bound_labels(Pod *p)
{
    if (p->node_name) kv_clear(&p->labels);
}

/* once its names are the pool's: the array too (a Job's pods request the same) */
static void share_requests(Cluster *c, Pod *p)
{
    ResourceList *r = &p->requests;
    if (!r->n || !r->cap) return;
    const void *a = strpool_intern_mem(cluster_pool(c), r->items, r->n * sizeof *r->items);
    free(r->items);
    r->items = (ResourceEntry *)a;  /* never written again: cap 0 says it is not the pod's */
    r->cap = 0;
}

static void release_pod(Cluster *c, Pod *p)
{
    if (pooled_requests(p)) p->requests = (ResourceList)RESOURCE_LIST_INIT;
    visit_pod_lists(c, p, unshare_field);
    pod_clear(p);
}

/* ---- usage ---- */

void usage_snapshot_free(struct UsageSnapshot *s);     /* usage.h (its usage_clear is not this one) */

/* a pod dropped unbound: its name only, so that explain can say it requests no GPU */
static void note_plain_unbound(Cluster *c, const char *ns, const char *name)
{
    if (!c->plain_unbound) c->plain_unbound = strmap_new();
    char *key = xasprintf("%s/%s", ns ? ns : "default", name);
    strmap_put(c->plain_unbound, key, c);
    free(key);
}

bool cluster_saw_plain_unbound(const Cluster *c, const char *ns, const char *name)
{
    if (!c->plain_unbound) return false;
    char *key = xasprintf("%s/%s", ns, name);
    bool seen = strmap_get(c->plain_unbound, key) != NULL;
    free(key);
    return seen;
}

static void add_pending_usage(Cluster *c, const char *node, const ResourceList *req)
{
    if (!c->pending_usage) c->pending_usage = strmap_new();
    NodeUsage *u = strmap_get(c->pending_usage, node);
    if (!u) { u = xcalloc(1, sizeof *u); strmap_put(c->pending_usage, node, u); }
    rlist_add_all(&u->requested, req);
    u->pods++;
}

/* ---- nodes ---- */

static int ingest_node(Cluster *c, const cJSON *obj, Error *err)
{
    Node n;
    if (node_from_json(&n, obj, true, cluster_pool(c), err) < 0) return -1;
    visit_node_lists(c, &n, share_field);
    shrink_node(&n);
    if (!c->node_index) c->node_index = strmap_new();
    size_t idx = (size_t)(uintptr_t)strmap_get(c->node_index, n.name);
    if (idx) {
        release_node(c, &c->nodes[idx - 1]);
        c->nodes[idx - 1] = n;
        return 0;
    }
    GROW_OBJECTS(c->nodes, c->nnodes, c->capnodes);
    c->nodes[c->nnodes++] = n;
    strmap_put(c->node_index, n.name, (void *)(uintptr_t)c->nnodes);
    return 0;
}

/* ---- pods ---- */

static void reintern_field(Cluster *c, const char **f);
static void reintern_more(Cluster *c, Pod *p);

/* Most pods of a cluster request no GPU: for them only the effective request, the node and
 * the phase matter (folded into the node's usage).  This reads just those, after the checks
 * pod_from_json would fail on (name; with node affinity, the whole pod is read instead so its
 * operators are checked the same way).  Returns 1 when the pod was handled here, 0 when it
 * needs pod_from_json (*maybe_kept: it requests a GPU or has DRA claims; else it is decoded
 * only to be checked and folded; *computed, *have: its effective requests when computed here,
 * for pod_from_json_kept, so that no pod's are computed twice), -1 with err set. */
/* a pod's name and namespace as pod_from_json accepts them (else it fails on the pod) */
static bool pod_names_accepted(const char *name, const char *ns)
{
    return name && strlen(name) <= MODEL_NAME_MAX && (!ns || strlen(ns) <= 63);
}

static int ingest_plain_pod(Cluster *c, const cJSON *obj, bool *maybe_kept, ResourceList *computed, bool *have,
                            Error *err)
{
    *maybe_kept = true;
    const cJSON *meta = jobj(obj, "metadata"), *spec = jobj(obj, "spec");
    const char *name = jstr_ne(meta, "name"), *ns = jstr_ne(meta, "namespace");
    if (!pod_names_accepted(name, ns)) return 0;   /* its error */
    if (cJSON_GetArraySize(jarr(spec, "resourceClaims")) > 0) return 0;   /* DRA: kept */
    ResourceList req = RESOURCE_LIST_INIT;
    pod_effective_requests(spec, &req);
    /* the pods decoded whole get the requests computed here (pod_from_json_kept) */
    if (rlist_has_gpu(&req)) { *computed = req; *have = true; return 0; }
    *maybe_kept = false;
    if (jobj(jobj(spec, "affinity"), "nodeAffinity")) { *computed = req; *have = true; return 0; }
    c->all_pods++;
    const char *node = jstr_ne(spec, "nodeName");
    const char *phase = jstr(jobj(obj, "status"), "phase");
    if (node && !str_eq(phase, "Succeeded") && !str_eq(phase, "Failed")) {
        char *n = jdup_trunc(node, MODEL_NAME_MAX);
        add_pending_usage(c, n, &req);
        if (c->live) cluster_live_note_plain(c, ns ? ns : "default", name, n, &req);
        free(n);
    } else if (!node && !str_eq(phase, "Succeeded") && !str_eq(phase, "Failed")) {
        note_plain_unbound(c, ns, name);
    }
    rlist_clear(&req);
    (void)err;
    return 1;
}

/* any key of o, an object, that names a GPU resource (resources_is_gpu) */
static bool any_gpu_key(const cJSON *o)
{
    if (!jtype(o, cJSON_Object)) return false;
    for (const cJSON *k = o->child; k; k = k->next)
        if (k->string && resources_is_gpu(k->string)) return true;
    return false;
}

/* a list of containers (an array member of a spec) with a resource named as a GPU resource in
 * any of its "resources" blocks (requests, limits, claims: any of them) */
static bool containers_name_gpu(const cJSON *list)
{
    if (!jtype(list, cJSON_Array)) return false;
    for (const cJSON *ct = list->child; ct; ct = ct->next) {
        if (!jtype(ct, cJSON_Object)) continue;
        for (const cJSON *r = ct->child; r; r = r->next) {
            if (!r->string || r->string[0] != 'r' || strcmp(r->string, "resources") != 0 || !jtype(r, cJSON_Object))
                continue;
            for (const cJSON *l = r->child; l; l = l->next)
                if (any_gpu_key(l)) return true;
        }
    }
    return false;
}

/* (every member of each name is looked at, not only the first, as the readers take it: the
 * answer holds of a pod whose members repeat; one pass, by first letter: it runs for every pod
 * a snapshot writes) */
bool cluster_pod_folded(const cJSON *obj)
{
    const cJSON *meta = jobj(obj, "metadata"), *spec = jobj(obj, "spec");
    const char *name = jstr_ne(meta, "name"), *ns = jstr_ne(meta, "namespace");
    if (!pod_names_accepted(name, ns) || !spec) return false;
    for (const cJSON *m = spec->child; m; m = m->next) {
        const char *k = m->string;
        if (!k) continue;
        switch (k[0]) {
        case 'a':
            if (strcmp(k, "affinity") == 0 && (!jtype(m, cJSON_Object) || jget(m, "nodeAffinity"))) return false;
            break;
        case 'c':
            if (strcmp(k, "containers") == 0 && containers_name_gpu(m)) return false;
            break;
        case 'i':
            if (strcmp(k, "initContainers") == 0 && containers_name_gpu(m)) return false;
            break;
        case 'o':
            if (strcmp(k, "overhead") == 0 && (!jtype(m, cJSON_Object) || any_gpu_key(m))) return false;
            break;
        case 'r':
            if (strcmp(k, "resourceClaims") == 0 && !(jtype(m, cJSON_Array) && !m->child)) return false;
            break;
        default: break;
        }
    }
    return true;
}

static int ingest_pod(Cluster *c, const cJSON *obj, Error *err)
{
    bool maybe_kept;
    ResourceList req = RESOURCE_LIST_INIT;    /* the effective requests, when computed already */
    bool have_req = false;
    int plain = ingest_plain_pod(c, obj, &maybe_kept, &req, &have_req, err);
    if (plain) return plain > 0 ? 0 : -1;
    /* a pod only checked and folded (node affinity, no GPU: DaemonSet pods) leaves nothing in
     * the cluster's pool: it is decoded into a scratch pool */
    StrPool *scratch = maybe_kept ? NULL : strpool_new();
    Pod p;
    if (pod_from_json_kept(&p, obj, scratch ? scratch : cluster_pool(c), have_req ? &req : NULL, err) < 0) {
        strpool_free(scratch);
        return -1;
    }
    c->all_pods++;
    if (!pod_requests_gpu(&p) && !p.nclaims) {
        if (pod_holds_resources(&p)) {
            add_pending_usage(c, p.node_name, &p.requests);
            if (c->live) cluster_live_note_plain(c, p.ns, p.name, p.node_name, &p.requests);
        } else if (!p.node_name && p.phase == PHASE_PENDING) {
            note_plain_unbound(c, p.ns, p.name);
        }
        pod_clear(&p);
        strpool_free(scratch);
        return 0;
    }
    if (scratch) {                  /* cannot happen (same rule as ingest_plain_pod): re-home */
        visit_pod(c, &p, reintern_field);
        reintern_more(c, &p);
        strpool_free(scratch);
    }
    trim_bound_labels(&p);
    visit_pod_lists(c, &p, share_field);
    shrink_pod(&p);
    share_requests(c, &p);
    if (!c->pod_index) c->pod_index = pod_index_new();
    size_t idx = pod_index_get(c->pod_index, c->pods, p.ns, p.name);
    if (idx) {
        release_pod(c, &c->pods[idx - 1]);
        c->pods[idx - 1] = p;
    } else {
        GROW_OBJECTS(c->pods, c->npods, c->cappods);
        c->pods[c->npods++] = p;
        pod_index_put(c->pod_index, c->pods, c->npods - 1);
    }
    return 0;
}

/* ---- events ---- */

/* an event owns nothing: its strings are the pool's */
static void event_clear(Event *e) { memset(e, 0, sizeof *e); }

static void visit_event(Cluster *c, Event *e, FieldFn fn)
{
    fn(c, &e->ns); fn(c, &e->name); fn(c, &e->reason); fn(c, &e->message);
    fn(c, &e->involved_kind); fn(c, &e->involved_name); fn(c, &e->involved_uid);
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* core/v1 Event and events.k8s.io/v1 Event (regarding, note, deprecated*, series) */
static int ingest_event(Cluster *c, const cJSON *obj, Error *err)
{
    const char *reason = jstr(obj, "reason");
    const char *message = jstr(obj, "message");
    if (!message) message = jstr(obj, "note");
    bool keep = str_eq(reason, "FailedScheduling") ||
                (str_eq(reason, "FailedCreate") && message && strstr(message, "exceeded quota"));
    if (!keep) return 0;
    const cJSON *meta = jobj(obj, "metadata");
    const char *name = jstr_ne(meta, "name");
    if (!name) { error_set(err, "event without metadata.name"); return -1; }
    const cJSON *inv = jobj(obj, "involvedObject");
    if (!inv) inv = jobj(obj, "regarding");
    const char *ns = jstr_ne(meta, "namespace");
    if (!ns) ns = jstr_ne(inv, "namespace");

    ARRAY_GROW(c->events, c->nevents, c->capevents);
    Event *e = &c->events[c->nevents++];
    memset(e, 0, sizeof *e);
    StrPool *pool = cluster_pool(c);
    e->ns = jpool_trunc(pool, ns ? ns : "", 63);
    e->name = jpool_trunc(pool, name, MODEL_NAME_MAX);
    e->reason = strpool_intern(pool, reason);
    e->message = jpool_trunc(pool, message ? message : "", MODEL_TEXT_MAX);
    e->involved_kind = jpool_trunc(pool, jstr_ne(inv, "kind"), 64);
    e->involved_name = jpool_trunc(pool, jstr_ne(inv, "name"), MODEL_NAME_MAX);
    e->involved_uid = jpool_trunc(pool, jstr_ne(inv, "uid"), 64);
    const cJSON *series = jobj(obj, "series");
    e->count = (int)jint(obj, "count", 0, INT32_MAX, 0);
    if (!e->count) e->count = (int)jint(obj, "deprecatedCount", 0, INT32_MAX, 0);
    if (!e->count) e->count = (int)jint(series, "count", 0, INT32_MAX, 0);
    if (!e->count) e->count = 1;
    e->last_seen = max64(max64(jtime(obj, "lastTimestamp"), jtime(obj, "eventTime")),
                         max64(jtime(series, "lastObservedTime"), jtime(obj, "deprecatedLastTimestamp")));
    if (!e->last_seen) e->last_seen = max64(jtime(obj, "firstTimestamp"), jtime(meta, "creationTimestamp"));
    return 0;
}

/* ---- entry points ---- */

static int ingest_queue(Cluster *c, ObjKind kind, const cJSON *obj, Error *err)
{
    if (!c->queues) c->queues = queue_state_new();
    switch (kind) {
    case OBJ_KUEUE_WORKLOAD: return queue_ingest_workload(c->queues, QSYS_KUEUE, obj, err);
    case OBJ_KUEUE_LOCALQUEUE: return queue_ingest_local(c->queues, obj, err);
    case OBJ_KUEUE_CLUSTERQUEUE: return queue_ingest_def(c->queues, QSYS_KUEUE, obj, err);
    case OBJ_KUEUE_FLAVOR: return queue_ingest_flavor(c->queues, obj, err);
    case OBJ_KUEUE_COHORT: return queue_ingest_cohort(c->queues, obj, err);
    case OBJ_VOLCANO_PODGROUP: return queue_ingest_workload(c->queues, QSYS_VOLCANO, obj, err);
    case OBJ_VOLCANO_QUEUE: return queue_ingest_def(c->queues, QSYS_VOLCANO, obj, err);
    case OBJ_KAI_PODGROUP: return queue_ingest_workload(c->queues, QSYS_KAI, obj, err);
    case OBJ_KUEUE_PENDING: return queue_ingest_positions(c->queues, obj, err);
    case OBJ_KUEUE_PRIORITYCLASS: return queue_ingest_priority_class(c->queues, obj, err);
    default: return queue_ingest_def(c->queues, QSYS_KAI, obj, err);
    }
}

static int ingest_dra(Cluster *c, ObjKind kind, const cJSON *obj, Error *err)
{
    if (!c->dra) c->dra = dra_state_new();
    switch (kind) {
    case OBJ_RESOURCESLICE: return dra_ingest_slice(c->dra, obj, err);
    case OBJ_RESOURCECLAIM: return dra_ingest_claim(c->dra, obj, false, err);
    case OBJ_RESOURCECLAIMTEMPLATE: return dra_ingest_claim(c->dra, obj, true, err);
    default: return dra_ingest_class(c->dra, obj, err);
    }
}

int cluster_ingest(Cluster *c, ObjKind kind, const cJSON *obj, Error *err)
{
    if (!cJSON_IsObject(obj)) { error_set(err, "%s: not a JSON object", obj_kind_name(kind)); return -1; }
    if (kind == OBJ__COUNT) {
        const char *k = jstr_ne(obj, "kind");
        if (!k) { error_set(err, "object without \"kind\""); return -1; }
        if (!obj_kind_from_api(jstr_ne(obj, "apiVersion"), k, &kind)) return 0;   /* a kind we do not use */
    }
    c->finalized = false;                               /* usage is stale until finalize */
    switch (kind) {
    case OBJ_NODE: return ingest_node(c, obj, err);
    case OBJ_POD: return ingest_pod(c, obj, err);
    case OBJ_EVENT: return ingest_event(c, obj, err);
    case OBJ_RESOURCEQUOTA: case OBJ_DAEMONSET: case OBJ_CLUSTERPOLICY: case OBJ_SERVICE: case OBJ_CONFIGMAP:
    case OBJ_PRIORITYCLASS:
        return cluster_ingest_small(c, kind, obj, err);
    case OBJ_RESOURCESLICE: case OBJ_RESOURCECLAIM: case OBJ_RESOURCECLAIMTEMPLATE: case OBJ_DEVICECLASS:
        return ingest_dra(c, kind, obj, err);
    case OBJ_KUEUE_WORKLOAD: case OBJ_KUEUE_LOCALQUEUE: case OBJ_KUEUE_CLUSTERQUEUE: case OBJ_KUEUE_FLAVOR:
    case OBJ_KUEUE_COHORT: case OBJ_VOLCANO_PODGROUP: case OBJ_VOLCANO_QUEUE: case OBJ_KAI_PODGROUP:
    case OBJ_KAI_QUEUE: case OBJ_KUEUE_PENDING: case OBJ_KUEUE_PRIORITYCLASS:
        return ingest_queue(c, kind, obj, err);
    case OBJ__COUNT: break;
    }
    error_set(err, "unknown object kind %d", (int)kind);
    return -1;
}

static void prune_events(Cluster *c)
{
    if (c->all_pods == 0) return;        /* pods not loaded: keep what we have */
    size_t w = 0;
    for (size_t i = 0; i < c->nevents; i++) {
        Event *e = &c->events[i];
        bool drop = str_eq(e->reason, "FailedScheduling") && str_eq(e->involved_kind, "Pod") &&
                    e->involved_name && !cluster_find_pod(c, e->ns, e->involved_name);
        if (drop) event_clear(e);
        else c->events[w++] = *e;
    }
    c->nevents = w;
}

void cluster_finalize(Cluster *c)
{
    /* the object arrays are complete (until more ingest): no growth slack */
    if (c->capnodes > c->nnodes && c->nnodes) {
        c->nodes = xrealloc(c->nodes, c->nnodes * sizeof *c->nodes);
        c->capnodes = c->nnodes;
    }
    if (c->cappods > c->npods && c->npods) {
        c->pods = xrealloc(c->pods, c->npods * sizeof *c->pods);
        c->cappods = c->npods;
    }
    if (c->usage)
        for (size_t i = 0; i < c->nnodes; i++) {
            visit_rlist(c, &c->usage[i].requested, unshare_field);
            rlist_clear(&c->usage[i].requested);
        }
    free(c->usage);
    c->usage = c->nnodes ? xcalloc(c->nnodes, sizeof *c->usage) : NULL;
    strmap_free(c->node_index, NULL);
    c->node_index = strmap_new();
    for (size_t i = 0; i < c->nnodes; i++)
        strmap_put(c->node_index, c->nodes[i].name, (void *)(uintptr_t)(i + 1));

    size_t it = 0;
    const char *node;
    void *v;
    while (c->pending_usage && strmap_next(c->pending_usage, &it, &node, &v)) {
        size_t idx = (size_t)(uintptr_t)strmap_get(c->node_index, node);
        if (!idx) continue;                 /* node not loaded (e.g. filtered by -l) */
        const NodeUsage *u = v;
        rlist_add_all(&c->usage[idx - 1].requested, &u->requested);
        c->usage[idx - 1].pods += u->pods;
    }
    for (size_t i = 0; i < c->npods; i++) {
        const Pod *p = &c->pods[i];
        if (!pod_holds_resources(p)) continue;
        size_t idx = (size_t)(uintptr_t)strmap_get(c->node_index, p->node_name);
        if (!idx) continue;
        rlist_add_all(&c->usage[idx - 1].requested, &p->requests);
        c->usage[idx - 1].pods++;
    }
    for (size_t i = 0; i < c->nnodes; i++) {
        visit_rlist(c, &c->usage[i].requested, share_field);
        SHRINK(c->usage[i].requested.items, c->usage[i].requested.n, c->usage[i].requested.cap);
    }
    prune_events(c);
    dra_finalize(c->dra);
    c->finalized = true;
}

Node *cluster_find_node(const Cluster *c, const char *name)
{
    size_t idx = (size_t)(uintptr_t)strmap_get(c->node_index, name);
    return idx ? &c->nodes[idx - 1] : NULL;
}

size_t cluster_node_index(const Cluster *c, const Node *n)
{
    return (size_t)(n - c->nodes);
}

const NodeUsage *cluster_node_usage(const Cluster *c, const Node *n)
{
    if (!c->finalized || !c->usage || !n || n < c->nodes || n >= c->nodes + c->nnodes) return NULL;
    return &c->usage[n - c->nodes];
}

Pod *cluster_find_pod(const Cluster *c, const char *ns, const char *name)
{
    size_t idx = pod_index_get(c->pod_index, c->pods, ns, name);
    return idx ? &c->pods[idx - 1] : NULL;
}

void cluster_release(Cluster *c)
{
    for (size_t i = 0; i < c->nnodes; i++) {
        release_node(c, &c->nodes[i]);
        if (c->usage) {
            visit_rlist(c, &c->usage[i].requested, unshare_field);
            rlist_clear(&c->usage[i].requested);
        }
    }
    free(c->nodes);
    free(c->usage);
    for (size_t i = 0; i < c->npods; i++) release_pod(c, &c->pods[i]);
    free(c->pods);
    for (size_t i = 0; i < c->nevents; i++) event_clear(&c->events[i]);
    free(c->events);
    cluster_small_kinds_release(c);
    dpconfig_cluster_clear(c);
    dra_state_free(c->dra);
    queue_state_free(c->queues);
    cluster_live_free(c);
    strvec_clear(&c->warnings);
    free(c->context); free(c->server); free(c->source); free(c->pods_namespace);
    usage_snapshot_free(c->stored_usage);
    strmap_free(c->node_index, NULL);
    strmap_free(c->pending_usage, cluster_usage_free);
    strmap_free(c->plain_unbound, NULL);
    pod_index_free(c->pod_index);
    strpool_free(c->strings);
    memset(c, 0, sizeof *c);
}

/* ---- for the incremental path (cluster_int.h) ---- */

void cluster_share_rlist(Cluster *c, ResourceList *l) { visit_rlist(c, l, share_field); }
void cluster_unshare_rlist(Cluster *c, ResourceList *l) { visit_rlist(c, l, unshare_field); }
void cluster_release_node(Cluster *c, Node *n) { release_node(c, n); }
void cluster_release_pod(Cluster *c, Pod *p) { release_pod(c, p); }
void cluster_event_clear(Event *e) { event_clear(e); }
NodeUsage *cluster_pending_usage(Cluster *c, const char *node)
{
    return c->pending_usage ? strmap_get(c->pending_usage, node) : NULL;
}
void cluster_live_clear_folded(Cluster *c)
{
    strmap_free(c->pending_usage, cluster_usage_free);
    c->pending_usage = NULL;
}

/* every kept string (nodes, pods, events) interned again into a new pool, the old pool
 * freed: strings of objects gone since (pods that came and went under a watch) are dropped;
 * the pods' PodMore blocks (their gates, nodeSelector and tolerations arrays) are interned
 * again after their strings */
static void reintern_field(Cluster *c, const char **f)
{
    if (*f) *f = strpool_intern(cluster_pool(c), *f);
}

static void reintern_requests(Cluster *c, Pod *p)
{
    if (!pooled_requests(p)) return;
    ResourceList r = RESOURCE_LIST_INIT;
    r.items = xmalloc(p->requests.n * sizeof *r.items);
    memcpy(r.items, p->requests.items, p->requests.n * sizeof *r.items);
    r.n = r.cap = p->requests.n;
    visit_rlist(c, &r, reintern_field);
    p->requests.items = (ResourceEntry *)strpool_intern_mem(cluster_pool(c), r.items, r.n * sizeof *r.items);
    free(r.items);
}

/* the pod's PodMore block into this cluster's pool, after its strings */
static void reintern_more(Cluster *c, Pod *p)
{
    if (!p->more) return;
    PodMore m;
    memcpy(&m, p->more, sizeof m);   /* padding too: the block is pooled by its bytes */
    reintern_field(c, &m.nominated_node); reintern_field(c, &m.scheduler_name);
    reintern_field(c, &m.priority_class); reintern_field(c, &m.preemption_policy);
    reintern_field(c, &m.runtime_class); reintern_field(c, &m.hami_devices);
    reintern_field(c, &m.pod_group);
    reintern_field(c, &m.request_init);
    reintern_field(c, &m.scheduled.reason); reintern_field(c, &m.scheduled.message);
    if (m.ngates) {
        const char **g = xmalloc(m.ngates * sizeof *g);
        for (size_t i = 0; i < m.ngates; i++) { g[i] = m.gates[i]; reintern_field(c, &g[i]); }
        m.gates = strpool_intern_mem(cluster_pool(c), g, m.ngates * sizeof *g);
        free(g);
    }
    if (m.node_selector.n) {
        KV *v = xmalloc(m.node_selector.n * sizeof *v);
        memcpy(v, m.node_selector.items, m.node_selector.n * sizeof *v);
        for (size_t i = 0; i < m.node_selector.n; i++) {
            VISIT_OWN(c, reintern_field, v[i].key);
            VISIT_OWN(c, reintern_field, v[i].value);
        }
        m.node_selector.items = (KV *)strpool_intern_mem(cluster_pool(c), v, m.node_selector.n * sizeof *v);
        free(v);
    }
    if (m.ntolerations) {
        Toleration *t = xmalloc(m.ntolerations * sizeof *t);
        memcpy(t, m.tolerations, m.ntolerations * sizeof *t);
        for (size_t i = 0; i < m.ntolerations; i++) {
            reintern_field(c, &t[i].key); reintern_field(c, &t[i].op);
            reintern_field(c, &t[i].value); reintern_field(c, &t[i].effect);
        }
        m.tolerations = strpool_intern_mem(cluster_pool(c), t, m.ntolerations * sizeof *t);
        free(t);
    }
    p->more = strpool_intern_mem(cluster_pool(c), &m, sizeof m);
}

void cluster_compact_strings(Cluster *c)
{
    StrPool *old = c->strings;
    if (!old) return;
    c->strings = strpool_new();
    for (size_t i = 0; i < c->nnodes; i++) {
        visit_node(c, &c->nodes[i], reintern_field);
        if (c->usage) visit_rlist(c, &c->usage[i].requested, reintern_field);
    }
    for (size_t i = 0; i < c->npods; i++) {
        visit_pod(c, &c->pods[i], reintern_field);
        reintern_more(c, &c->pods[i]);
        reintern_requests(c, &c->pods[i]);
    }
    for (size_t i = 0; i < c->nevents; i++) visit_event(c, &c->events[i], reintern_field);
    strpool_free(old);
}

void cluster_seal_strings(Cluster *c)
{
    strpool_seal(c->strings);
    /* the dropped pods' usage per node is in c->usage since finalize; only a later ingest and
     * finalize (a watch) would read it again */
    strmap_free(c->pending_usage, cluster_usage_free);
    c->pending_usage = NULL;
}

size_t cluster_pooled_strings(const Cluster *c) { return strpool_count(c->strings); }
size_t cluster_pooled_bytes(const Cluster *c) { return strpool_bytes(c->strings); }

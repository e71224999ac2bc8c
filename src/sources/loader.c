/* loader.c — where the cluster comes from: the API server (kubeconfig + apiclient, one list
 * per kind, each item into cluster_ingest) or a snapshot file (snapshot.c).
 *
 * The live lists, in order (pods after nodes so pods can be folded into node usage, events
 * after pods so scheduling events can be matched to the pods kept):
 *   nodes            /api/v1/nodes [?labelSelector=-l]                       required
 *   pods             /api/v1[/namespaces/NS]/pods?fieldSelector=non-terminal required
 *                    [&labelSelector=top's -l]
 *   events           FailedScheduling and FailedCreate (one unfiltered list when the
 *                    server refuses the field selector)                      optional
 *   resourcequotas   /api/v1[/namespaces/NS]/resourcequotas                  optional
 *   daemonsets       /apis/apps/v1/daemonsets                                optional
 *                    then GET the ConfigMaps that device-plugin DaemonSets (image
 *                    k8s-device-plugin, any name) mount, in their namespace (at most 4)
 *   clusterpolicies  /apis/nvidia.com/v1/clusterpolicies (404 = not installed) optional
 *   services         /api/v1/services                                        optional
 *   queues           Kueue / Volcano / KAI (after DRA; loader_queues.c: one GET /apis/GROUP
 *                    each, 404 = not installed)                               optional
 *   resource.k8s.io  deviceclasses, resourceslices, resourceclaims, resourceclaimtemplates
 *                    (after pods; loader_dra.c: version fallback, 404 = no DRA)  optional
 *   configmaps       GET /api/v1/namespaces/NS/configmaps/NAME for the device-plugin and
 *                    mig-parted ConfigMaps the ClusterPolicy names (NS = its status.namespace;
 *                    without a custom mig-parted name, default-mig-parted-config)   optional
 *                    (to be watched, loader_cluster_load_at: .../configmaps?fieldSelector=
 *                    metadata.name=NAME, a list, for the resourceVersion the watch starts at)
 *                    (a ClusterPolicy without status.namespace, as older operators write it:
 *                    /api/v1/configmaps?fieldSelector=metadata.name=NAME for each name)
 * An optional list refused with 403/404 becomes a warning naming what is not shown; any other
 * failure fails the load: a partial cluster is never presented as the whole one.
 */
#include "sources/loader.h"
#include "util/log.h"
#include "model/cluster_live.h"
#include "sources/apiclient.h"
#include "util/error.h"
#include "sources/kubeconfig.h"
#include <cjson/cJSON.h>
typedef const char *const *JsonSkipList;
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>       /* mallopt */
#endif

const char *loader_api_version(ObjKind kind)
{
    switch (kind) {
    case OBJ_DAEMONSET: return "apps/v1";
    case OBJ_CLUSTERPOLICY: return "nvidia.com/v1";
    case OBJ_PRIORITYCLASS: return "scheduling.k8s.io/v1";
    case OBJ_RESOURCESLICE: case OBJ_RESOURCECLAIM: case OBJ_RESOURCECLAIMTEMPLATE: case OBJ_DEVICECLASS:
        return loader_dra_api_version();
    default:
        if (obj_kind_is_queue(kind)) return loader_queue_api_version(kind);
        return "v1";
    }
}

int loader_connect(const SourceConfig *sc, RestConfig *rc, ApiClient **api, Error *err)
{
    KubeconfigOverrides ov = { sc->kubeconfig, sc->context, sc->cluster, sc->user, sc->namespace_ };
    *api = NULL;
    if (kubeconfig_load(rc, &ov, err)) return -1;
    if (sc->verbose >= 1)
        for (size_t i = 0; i < rc->warnings.n; i++) log_verbose(1, "warning: %s", rc->warnings.v[i]);
    /* $KUBECTL_GPU_CHUNK_SIZE: items per page (kubectl's --chunk-size), for tests and tuning */
    int64_t chunk = 500;
    const char *cs = getenv("KUBECTL_GPU_CHUNK_SIZE");
    if (cs && *cs && (!str_to_int64(cs, &chunk) || chunk < 1 || chunk > 100000)) {
        error_set(err, "KUBECTL_GPU_CHUNK_SIZE=\"%s\": want a number of items per page, 1 to 100000", cs);
        restconfig_clear(rc);
        return -1;
    }
    ApiClientOptions opt = { sc->request_timeout, sc->verbose, (int)chunk };
    *api = apiclient_new(rc, &opt, err);
    if (!*api) { restconfig_clear(rc); return -1; }
    return 0;
}

char *loader_default_namespace(const SourceConfig *sc, Error *err)
{
    if (sc->namespace_) return xstrdup(sc->namespace_);
    if (sc->snapshot) return xstrdup("default");
    KubeconfigOverrides ov = { sc->kubeconfig, sc->context, sc->cluster, sc->user, NULL };
    RestConfig rc;
    if (kubeconfig_load(&rc, &ov, err)) return NULL;
    char *ns = xstrdup(rc.namespace_ ? rc.namespace_ : "default");
    restconfig_clear(&rc);
    return ns;
}

/* ---- one list ---- */

typedef struct {
    ObjKind kind;
    LoaderItemFn fn;
    void *ctx;
} ListCtx;

static int on_item(void *ctx, const cJSON *item, Error *err)
{
    ListCtx *lc = ctx;
    return lc->fn(lc->ctx, lc->kind, item, err);
}

typedef enum { LIST_OK, LIST_SKIPPED, LIST_FAILED } ListResult;

/* Members of the objects that the reduced cluster never reads (cluster.h, node.c, pod.c):
 * when loading into the model they are passed over unparsed; of the annotations, only those
 * node.c and pod.c read are kept, of a container only what pod.c reads (POD_CONTAINER_READ:
 * its env, image, command, probes and mounts are skipped; ephemeral containers have no
 * resources).  They are most of a pod's and a
 * node's bytes (managed fields, container statuses, image lists).  `snapshot` leaves them out
 * too (and reduces the rest: snapshot_reduce). */
static const char *const model_skip_pod[] = {
    "metadata.managedFields", "metadata.annotations:" POD_ANNOTATIONS_READ, "spec.volumes",
    "spec.containers:" POD_CONTAINER_READ, "spec.initContainers:" POD_CONTAINER_READ, "spec.ephemeralContainers",
    "status.containerStatuses", "status.initContainerStatuses", "status.ephemeralContainerStatuses", "status.podIPs",
    NULL
};
static const char *const model_skip_node[] = {
    "metadata.managedFields", "metadata.annotations:" NODE_ANNOTATIONS_READ, "status.images", "status.nodeInfo",
    "status.addresses", "status.daemonEndpoints", "status.volumesAttached", "status.volumesInUse",
    "status.config", "status.features", "status.runtimeHandlers", NULL
};
static const char *const model_skip_other[] = { "metadata.managedFields", NULL };

static JsonSkipList skip_for(ObjKind kind, bool model)
{
    if (!model) return NULL;
    switch (kind) {
    case OBJ_POD: return model_skip_pod;
    case OBJ_NODE: return model_skip_node;
    default: return model_skip_other;
    }
}

/* runs one list; an optional one refused with 403/404 is LIST_SKIPPED with a warning */
static ListResult run_list(ApiClient *api, ObjKind kind, const char *what, const char *path,
                           const char *query, bool optional, const char *consequence,
                           LoaderItemFn fn, void *ctx, Strvec *warnings, bool model, Error *err)
{
    ListCtx lc = { kind, fn, ctx };
    Error e = { 0 };
    if (apiclient_list_skip(api, path, query, on_item, NULL, skip_for(kind, model), &lc, &e) == 0) return LIST_OK;
    if (optional && (e.code == 403 || e.code == 404)) {
        strvec_pushf(warnings, "%s: %s (%s)", what, e.msg, consequence);
        return LIST_SKIPPED;
    }
    *err = e;           /* the messages name the path or resource already */
    if (e.code == 403) {
        /* a required list refused: kubectl's Forbidden message once (the server's "... is
         * forbidden: ..." needs no "forbidden: " before it), and where the rights are written */
        const char *m = e.msg, *rest = e.msg + strlen("forbidden: ");
        if (str_starts_with(m, "forbidden: ") && strstr(rest, "forbidden")) m = rest;
        error_set(err, "%s (the RBAC rules kubectl-gpu needs: examples/rbac.yaml)", m);
        err->code = 403;
    }
    return LIST_FAILED;
}

/* the unfiltered events fallback keeps what the field selectors would have let through */
static int on_scheduling_event(void *ctx, ObjKind kind, const cJSON *item, Error *err)
{
    ListCtx *lc = ctx;
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(item, "reason");
    if (!cJSON_IsString(r) || (strcmp(r->valuestring, "FailedScheduling") != 0 &&
                               strcmp(r->valuestring, "FailedCreate") != 0))
        return 0;
    return lc->fn(lc->ctx, kind, item, err);
}

/* the honoured ClusterPolicy's ConfigMap names, seen as its items pass (cluster.c's rule: the
 * first one whose state is not "ignored") */
typedef struct {
    ListCtx inner;
    char *ns, *dp, *mig, *state;
} CpSeen;

static int on_clusterpolicy(void *ctx, const cJSON *item, Error *err)
{
    CpSeen *s = ctx;
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(item, "status");
    const cJSON *state = cJSON_GetObjectItemCaseSensitive(st, "state");
    bool ignored = cJSON_IsString(state) && strcmp(state->valuestring, "ignored") == 0;
    if (!s->state || (strcmp(s->state, "ignored") == 0 && !ignored)) {
        const cJSON *spec = cJSON_GetObjectItemCaseSensitive(item, "spec");
        const cJSON *ns = cJSON_GetObjectItemCaseSensitive(st, "namespace");
        const cJSON *dp = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(spec, "devicePlugin"), "config"), "name");
        const cJSON *mig = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(spec, "migManager"), "config"), "name");
        free(s->ns); free(s->dp); free(s->mig); free(s->state);
        s->ns = cJSON_IsString(ns) && *ns->valuestring ? xstrdup(ns->valuestring) : NULL;
        s->dp = cJSON_IsString(dp) && *dp->valuestring ? xstrdup(dp->valuestring) : NULL;
        s->mig = cJSON_IsString(mig) && *mig->valuestring ? xstrdup(mig->valuestring) : NULL;
        s->state = xstrdup(ignored ? "ignored" : "honoured");
    }
    return on_item(&s->inner, item, err);
}

/* The ConfigMaps' watch starts where they were listed (one list per name): the earlier of the
 * two lists' resourceVersions.  resourceVersions are opaque to clients; compared here only
 * when both are decimal numbers (etcd revisions, as every apiserver serves them), else the
 * first stays: a watch from an earlier point replays changes, never misses them. */
static void note_configmap_rv(char **list_rv, const char *rv)
{
    if (!list_rv || !rv || !*rv) return;
    char *old = list_rv[OBJ_CONFIGMAP];
    if (old) {
        size_t lo = strspn(old, "0123456789"), ln = strspn(rv, "0123456789");
        bool numeric = lo == strlen(old) && ln == strlen(rv);
        if (!numeric || ln > lo || (ln == lo && strcmp(rv, old) >= 0)) return;
    }
    free(old);
    list_rv[OBJ_CONFIGMAP] = xstrdup(rv);
}

/* GET one ConfigMap; 404 is no ConfigMap, 403 a warning */
static int get_configmap(ApiClient *api, const char *ns, const char *name, LoaderItemFn fn, void *ctx,
                         Strvec *warnings, Error *err)
{
    char *ens = apiclient_query_escape(ns), *ename = apiclient_query_escape(name);
    char *path = xasprintf("/api/v1/namespaces/%s/configmaps/%s", ens, ename);
    free(ens); free(ename);
    cJSON *obj = NULL;
    Error e = { 0 };
    int rc = 0;
    if (apiclient_get_json(api, path, NULL, &obj, &e) == 0) {
        rc = fn(ctx, OBJ_CONFIGMAP, obj, err);
    } else if (e.code == 403 || e.code == 404) {
        if (e.code == 403) strvec_pushf(warnings, "configmaps: %s (the GPU Operator's configs not read)", e.msg);
    } else {
        *err = e;
        rc = -1;
    }
    cJSON_Delete(obj);
    free(path);
    return rc;
}

static void note_list_rv(char **list_rv, ObjKind kind, ApiClient *api)
{
    if (!list_rv) return;
    free(list_rv[kind]);
    list_rv[kind] = apiclient_list_rv(api) ? xstrdup(apiclient_list_rv(api)) : NULL;
}

/* The ConfigMaps device-plugin DaemonSets mount (any DaemonSet whose container image is
 * k8s-device-plugin, model/cluster.h cluster_image_is), seen as the DaemonSets pass: without the
 * GPU Operator (the Helm chart, a static manifest) they hold the plugin's configs. */
#define DS_MAPS_MAX 4
typedef struct {
    ListCtx inner;
    Strvec ns, name;
} DsSeen;

static int on_daemonset(void *ctx, const cJSON *item, Error *err)
{
    DsSeen *s = ctx;
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(item, "metadata");
    const cJSON *tspec = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(item, "spec"), "template"), "spec");
    const char *ns = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(meta, "namespace"));
    bool dp = false;
    const cJSON *ctr;
    cJSON_ArrayForEach(ctr, cJSON_GetObjectItemCaseSensitive(tspec, "containers"))
        dp |= cluster_image_is(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ctr, "image")), "k8s-device-plugin");
    const cJSON *v;
    const cJSON *vols = dp && ns ? cJSON_GetObjectItemCaseSensitive(tspec, "volumes") : NULL;
    cJSON_ArrayForEach(v, vols) {
        const char *cm = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(v, "configMap"), "name"));
        if (!cm || !*cm || s->name.n >= DS_MAPS_MAX) continue;
        bool dup = false;
        for (size_t i = 0; i < s->name.n && !dup; i++) dup = str_eq(s->name.v[i], cm) && str_eq(s->ns.v[i], ns);
        if (!dup) { strvec_push(&s->ns, ns); strvec_push(&s->name, cm); }
    }
    return on_item(&s->inner, item, err);
}

/* read_ns: set to the namespace of -n when the pods of every namespace were forbidden and that
 * namespace's pods, events and quotas were read instead (NULL otherwise) */
static int list_live(ApiClient *api, const LoadRequest *rq, LoaderItemFn fn, void *ctx,
                     Strvec *warnings, bool *clusterpolicy_checked, bool model, char **list_rv,
                     const char **read_ns, Error *err)
{
    const char *ns = rq->pod_namespace;
    if (read_ns) *read_ns = NULL;
    *clusterpolicy_checked = false;
    ListResult r;
    if (rq->nodes) {
        char *q = rq->node_selector && *rq->node_selector ? apiclient_query_param("labelSelector", rq->node_selector) : NULL;
        r = run_list(api, OBJ_NODE, "nodes", "/api/v1/nodes", q, false, "", fn, ctx, warnings, model, err);
        free(q);
        if (r == LIST_FAILED) return -1;
        note_list_rv(list_rv, OBJ_NODE, api);
    }
    if (rq->pods) {
        char *p = apiclient_core_path(ns, "pods");
        char *q = apiclient_query_param("fieldSelector", "status.phase!=Succeeded,status.phase!=Failed");
        r = run_list(api, OBJ_POD, "pods", p, q, false, "", fn, ctx, warnings, model, err);
        free(p);
        if (r == LIST_FAILED && err->code == 403 && !ns && rq->pods_forbidden_ns) {
            /* rights that stop at the namespace of -n: its pods, events and quotas, said */
            ns = rq->pods_forbidden_ns;
            error_clear(err);
            p = apiclient_core_path(ns, "pods");
            r = run_list(api, OBJ_POD, "pods", p, q, false, "", fn, ctx, warnings, model, err);
            free(p);
            if (r == LIST_OK && read_ns) *read_ns = ns;
            if (r == LIST_OK)
                strvec_pushf(warnings, "pods: listing pods of all namespaces is forbidden; read those of namespace %s "
                             "only: GPUs held by pods of other namespaces are not seen, so nodes may look freer than "
                             "they are", ns);
        }
        free(q);
        if (r == LIST_FAILED) return -1;
        note_list_rv(list_rv, OBJ_POD, api);
    }
    if (loader_wants_dra(rq) && loader_list_dra(api, fn, ctx, warnings, model, list_rv, err)) return -1;
    if (loader_wants_queues(rq) && loader_list_queues(api, fn, ctx, warnings, model, rq->priority_classes, list_rv, err)) return -1;
    if (rq->events) {
        char *p = apiclient_core_path(ns, "events");
        char *q = apiclient_query_param("fieldSelector", "reason=FailedScheduling");
        ListCtx lc = { OBJ_EVENT, fn, ctx };
        Error e = { 0 };
        int rc = apiclient_list_skip(api, p, q, on_item, NULL, skip_for(OBJ_EVENT, model), &lc, &e);
        free(q);
        if (rc && e.code == 400) {
            /* the server refuses the field selector: read every event once instead */
            ListCtx inner = { OBJ_EVENT, fn, ctx };
            r = run_list(api, OBJ_EVENT, "events", p, NULL, true, "scheduler messages not shown",
                         on_scheduling_event, &inner, warnings, model, err);
        } else if (rc && (e.code == 403 || e.code == 404)) {
            strvec_pushf(warnings, "events: %s (scheduler messages not shown)", e.msg);
            r = LIST_SKIPPED;
        } else if (rc) {
            *err = e;
            r = LIST_FAILED;
        } else {
            note_list_rv(list_rv, OBJ_EVENT, api);
            q = apiclient_query_param("fieldSelector", "reason=FailedCreate");
            r = run_list(api, OBJ_EVENT, "events", p, q, true, "quota rejections not shown",
                         fn, ctx, warnings, model, err);
            free(q);
        }
        free(p);
        if (r == LIST_FAILED) return -1;
    }
    if (!rq->events && rq->quota_events) {
        char *p = apiclient_core_path(ns, "events");
        char *q = apiclient_query_param("fieldSelector", "reason=FailedCreate");
        r = run_list(api, OBJ_EVENT, "events", p, q, true, "quota rejections not shown", fn, ctx, warnings, model, err);
        free(p); free(q);
        if (r == LIST_FAILED) return -1;
    }
    if (rq->quotas) {
        char *p = apiclient_core_path(ns, "resourcequotas");
        r = run_list(api, OBJ_RESOURCEQUOTA, "resourcequotas", p, NULL, true, "GPU quotas not checked",
                     fn, ctx, warnings, model, err);
        free(p);
        if (r == LIST_FAILED) return -1;
        if (r == LIST_OK) note_list_rv(list_rv, OBJ_RESOURCEQUOTA, api);
    }
    DsSeen ds_seen = { { OBJ_DAEMONSET, fn, ctx }, STRVEC_INIT, STRVEC_INIT };
    if (rq->daemonsets) {
        Error e = { 0 };
        if (apiclient_list_skip(api, "/apis/apps/v1/daemonsets", NULL, on_daemonset, NULL,
                                skip_for(OBJ_DAEMONSET, model), &ds_seen, &e) == 0) {
            note_list_rv(list_rv, OBJ_DAEMONSET, api);
        } else if (e.code == 403 || e.code == 404) {
            strvec_pushf(warnings, "daemonsets: %s (GPU Operator health not shown)", e.msg);
        } else {
            *err = e;
            strvec_clear(&ds_seen.ns); strvec_clear(&ds_seen.name);
            return -1;
        }
    }
    /* the device plugin's own ConfigMaps (Helm chart, static manifest) */
    for (size_t i = 0; rq->configmaps && i < ds_seen.name.n; i++) {
        int rc;
        if (!list_rv) {
            rc = get_configmap(api, ds_seen.ns.v[i], ds_seen.name.v[i], fn, ctx, warnings, err);
        } else {
            char *sel = xasprintf("metadata.name=%s", ds_seen.name.v[i]);
            char *q = apiclient_query_param("fieldSelector", sel);
            char *path = apiclient_core_path(ds_seen.ns.v[i], "configmaps");
            free(sel);
            r = run_list(api, OBJ_CONFIGMAP, "configmaps", path, q, true, "the device plugin's configs not read",
                         fn, ctx, warnings, model, err);
            free(q); free(path);
            rc = r == LIST_FAILED ? -1 : 0;
            if (r == LIST_OK) note_configmap_rv(list_rv, apiclient_list_rv(api));
        }
        if (rc) { strvec_clear(&ds_seen.ns); strvec_clear(&ds_seen.name); return -1; }
    }
    strvec_clear(&ds_seen.ns); strvec_clear(&ds_seen.name);
    if (rq->clusterpolicy) {
        CpSeen seen = { { OBJ_CLUSTERPOLICY, fn, ctx }, NULL, NULL, NULL, NULL };
        Error e = { 0 };
        int rc = 0;
        int lrc = apiclient_list_skip(api, "/apis/nvidia.com/v1/clusterpolicies", NULL, on_clusterpolicy,
                                      NULL, skip_for(OBJ_CLUSTERPOLICY, model), &seen, &e);
        if (lrc == 0) note_list_rv(list_rv, OBJ_CLUSTERPOLICY, api);
        if (lrc == 0 || e.code == 404) {
            *clusterpolicy_checked = true;             /* 404: the CRD is not installed */
        } else if (e.code == 403) {
            strvec_pushf(warnings, "clusterpolicies: %s (GPU Operator ClusterPolicy state not shown)", e.msg);
        } else {
            *err = e;
            rc = -1;
        }
        if (rc == 0 && rq->configmaps && seen.state) {
            const char *names[2] = { seen.dp, seen.mig ? seen.mig : "default-mig-parted-config" };
            for (int i = 0; i < 2 && rc == 0; i++) {
                if (!names[i]) continue;
                if (seen.ns && !list_rv) {
                    rc = get_configmap(api, seen.ns, names[i], fn, ctx, warnings, err);
                } else {
                    /* no status.namespace: find the map by name in every namespace; or to be
                     * watched: a list, whose resourceVersion a watch can start from (an
                     * object's own is as old as its last change, likely before the watch
                     * cache's window: 410) */
                    char *sel = xasprintf("metadata.name=%s", names[i]);
                    char *q = apiclient_query_param("fieldSelector", sel);
                    char *path = seen.ns ? apiclient_core_path(seen.ns, "configmaps") : xstrdup("/api/v1/configmaps");
                    free(sel);
                    r = run_list(api, OBJ_CONFIGMAP, "configmaps", path, q, true,
                                 "the GPU Operator's device-plugin / mig-parted configs not read", fn, ctx,
                                 warnings, model, err);
                    free(q); free(path);
                    if (r == LIST_FAILED) rc = -1;
                    if (r == LIST_OK) note_configmap_rv(list_rv, apiclient_list_rv(api));
                }
            }
        }
        free(seen.ns); free(seen.dp); free(seen.mig); free(seen.state);
        if (rc) return -1;
    }
    if (rq->services) {
        r = run_list(api, OBJ_SERVICE, "services", "/api/v1/services", NULL, true,
                     "in-cluster Prometheus not looked for", fn, ctx, warnings, model, err);
        if (r == LIST_FAILED) return -1;
        if (r == LIST_OK) note_list_rv(list_rv, OBJ_SERVICE, api);
    }
    if (rq->priority_classes) {
        r = run_list(api, OBJ_PRIORITYCLASS, "priorityclasses", "/apis/scheduling.k8s.io/v1/priorityclasses", NULL,
                     true, "a priorityClassName is not resolved", fn, ctx, warnings, model, err);
        if (r == LIST_FAILED) return -1;
        if (r == LIST_OK) note_list_rv(list_rv, OBJ_PRIORITYCLASS, api);
    }
    return 0;
}

int loader_list_live(ApiClient *api, const LoadRequest *rq, LoaderItemFn fn, void *ctx,
                     Strvec *warnings, bool *clusterpolicy_checked, Error *err)
{
    return list_live(api, rq, fn, ctx, warnings, clusterpolicy_checked, true, NULL, NULL, err);
}

/* ---- loader_cluster_load ---- */

typedef struct {
    Cluster *c;
    size_t skipped;
    char first_skip[2700];
} IngestCtx;

static int ingest(void *ctx, ObjKind kind, const cJSON *item, Error *err)
{
    IngestCtx *ic = ctx;
    Error e = { 0 };
    if (cluster_ingest(ic->c, kind, item, &e) != 0) {
        /* one malformed object does not sink the cluster, but it is not hidden either */
        if (!ic->skipped) snprintf(ic->first_skip, sizeof ic->first_skip, "%s: %s", obj_kind_name(kind), e.msg);
        ic->skipped++;
    }
    (void)err;
    return 0;
}

static double clock_seconds(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int load_live(Cluster *c, const SourceConfig *sc, const LoadRequest *rq, char **list_rv,
                     ApiClient **api_out, Error *err)
{
    double wall0 = clock_seconds(CLOCK_MONOTONIC), cpu0 = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
    RestConfig rc;
    ApiClient *api;
    if (loader_connect(sc, &rc, &api, err)) return -1;
    int ret = -1;
    for (int attempt = 0;; attempt++) {
        Strvec warnings = STRVEC_INIT;
        bool checked = false;
        IngestCtx ic = { c, 0, "" };
        Error e = { 0 };
        const char *read_ns = NULL;
        int rc_ = list_live(api, rq, ingest, &ic, &warnings, &checked, true, list_rv, &read_ns, &e);
        if (rc_ && e.code == 410 && attempt == 0) {
            /* a continue token expired: read everything again, so the result is consistent */
            if (sc->verbose >= 1) log_verbose(1, "a list expired while being read; reading the cluster again");
            strvec_clear(&warnings);
            bool live = c->live != NULL;
            cluster_release(c);
            cluster_init(c);
            if (live) cluster_live_enable(c);
            continue;
        }
        if (rc_) { *err = e; strvec_clear(&warnings); break; }
        for (size_t i = 0; i < warnings.n; i++) cluster_warn(c, "%s", warnings.v[i]);
        if (ic.skipped)
            cluster_warn(c, "%zu object(s) could not be read and were skipped (first: %s)", ic.skipped, ic.first_skip);
        strvec_clear(&warnings);
        c->clusterpolicy_checked = checked;
        free(c->pods_namespace);
        c->pods_namespace = read_ns ? xstrdup(read_ns) : NULL;
        ret = 0;
        break;
    }
    if (ret == 0) {
        free(c->context); free(c->server); free(c->source);
        c->context = xstrdup(rc.context_name);
        c->server = xstrdup(apiclient_server(api));
        c->source = xstrdup("api");
        c->now = (int64_t)time(NULL);
        if (sc->verbose >= 1)
            log_verbose(1, "read the cluster with %ld requests in %.2f s (CPU %.2f s)",
                    apiclient_request_count(api), clock_seconds(CLOCK_MONOTONIC) - wall0,
                    clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu0);
    }
    restconfig_clear(&rc);
    if (ret == 0 && api_out) *api_out = api;
    else apiclient_free(api);
    return ret;
}

/* Blocks of 128 KiB and more (the pages in flight, megabytes each, on two threads; the
 * cluster's arrays while they grow) mapped on their own, so that freeing one gives it back.
 * glibc's default raises that threshold to the largest block freed (up to 32 MiB): the page
 * buffers then live in the heap, and what they leave there when freed stays resident under
 * what the command builds next (explain, plan): 4-6 MiB of peak RSS on the full training
 * cluster (5,000 GPU nodes, 163,545 pods).  Growing arrays are then moved by mremap, not
 * copied.  Set by the one-shot load only: a view kept open (loader_cluster_load_at, watched)
 * keeps glibc's policy, which spares it a mapping per large block per refresh. */
static void loader_memory_policy(void)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

int loader_cluster_load(Cluster *c, const SourceConfig *sc, const LoadRequest *rq, ApiClient **api_out, Error *err)
{
    if (api_out) *api_out = NULL;
    loader_memory_policy();
    if (sc->snapshot) {
        if (snapshot_read(c, sc->snapshot, rq, err)) return -1;
    } else if (load_live(c, sc, rq, NULL, api_out, err)) {
        return -1;
    }
    cluster_finalize(c);
    return 0;
}

int loader_cluster_load_at(Cluster *c, const SourceConfig *sc, const LoadRequest *rq, char **list_rv,
                    ApiClient **api_out, Error *err)
{
    if (api_out) *api_out = NULL;
    if (sc->snapshot) { error_set(err, "a snapshot cannot be watched"); return -1; }
    if (load_live(c, sc, rq, list_rv, api_out, err)) return -1;
    cluster_finalize(c);
    return 0;
}

/* loader.h — fill a Cluster from the API server or from a snapshot file, through the same
 * cluster_ingest() path.  The only place that decides where data comes from.
 */
#ifndef KGPU_LOADER_H
#define KGPU_LOADER_H
#include <stdbool.h>
#include "model/cluster.h"
#include "sources/source_config.h"

typedef struct {
    bool nodes, pods, events, quotas, daemonsets, clusterpolicy, services;
    const char *node_selector;   /* label selector for nodes (-l) */
    const char *pod_namespace;   /* NULL = all namespaces (pods, events, quotas) */
    bool configmaps;             /* the ConfigMaps the ClusterPolicy names (with clusterpolicy) */
    bool quota_events;           /* without events: the FailedCreate ones only (owners whose pods a
                                  * ResourceQuota refused; status's note), listed once, not watched */
    const char *pods_forbidden_ns;   /* -n given: when the cluster-wide pods list is forbidden (403),
                                      * list this namespace's pods, events and quotas instead, with a
                                      * warning (GPUs held by other namespaces' pods are not seen) */
    bool queues;                 /* Kueue, Volcano and KAI queues and workloads (loader_queues.c) */
    bool priority_classes;       /* scheduling.k8s.io PriorityClasses (fit: a template's priority) */
} LoadRequest;

struct Error;
struct ApiClient;
struct RestConfig;
/* Loads what rq asks for.  Optional lists (events, quotas, daemonsets, clusterpolicy,
 * services) that fail with 403/404 become warnings in c->warnings; failures of nodes or pods
 * are errors.  When api_out is non-NULL and the source is live, the API client is handed to
 * the caller (for metrics through the proxy), who frees it with apiclient_free; offline it is
 * set to NULL.  A continue token that expires (410) restarts the whole load once, so the
 * result is one consistent read.  Sets c->context, c->server, c->source and c->now, and calls
 * cluster_finalize().  With sc->snapshot the file is read instead of the API server. */
int loader_cluster_load(Cluster *c, const SourceConfig *sc, const LoadRequest *rq,
                 struct ApiClient **api_out, struct Error *err);
/* As loader_cluster_load, live only, with the point each list was read at for the watches that
 * follow (watch.h): list_rv[kind] (an array of OBJ__COUNT) is set to the list's
 * resourceVersion (malloc'd, replacing what was there; NULL for kinds not listed, not served
 * or refused (403/404); events: the FailedScheduling list; ConfigMaps, read one by one: the
 * earlier of their resourceVersions). */
int loader_cluster_load_at(Cluster *c, const SourceConfig *sc, const LoadRequest *rq, char **list_rv,
                    struct ApiClient **api_out, struct Error *err);

/* Snapshot: a JSON List (as `kubectl gpu snapshot` or `kubectl get ... -o json` writes it)
 * read item by item into c (the file is mapped, items are parsed one at a time).  Items with
 * kinds the model does not use are skipped; unknown top-level keys (e.g. "kubectlGpuMetrics")
 * are ignored.  rq filters as the live lists would (node selector, namespace, non-terminal
 * pods).  c->now is the List's metadata.annotations["kubectl-gpu/snapshot-time"] (RFC 3339)
 * when present, else the file's modification time.  Does not call cluster_finalize(). */
int snapshot_read(Cluster *c, const char *path, const LoadRequest *rq, struct Error *err);

/* Annotations of a snapshot List (metadata.annotations). */
#define SNAPSHOT_ANN_TIME     "kubectl-gpu/snapshot-time"
#define SNAPSHOT_ANN_CONTEXT  "kubectl-gpu/context"
#define SNAPSHOT_ANN_SERVER   "kubectl-gpu/server"
#define SNAPSHOT_ANN_VERSION  "kubectl-gpu/version"
#define SNAPSHOT_ANN_WARNINGS "kubectl-gpu/warnings"           /* lines joined with '\n' */
#define SNAPSHOT_ANN_CP_CHECKED "kubectl-gpu/clusterpolicy-checked"   /* "true" */

/* ---- the live side, shared by loader_cluster_load and `kubectl gpu snapshot` ---- */

/* kubeconfig_load with the overrides of sc, then apiclient_new.  *rc is filled (free with
 * restconfig_clear) and *api returned.  Kubeconfig warnings are printed with -v.  Pages hold
 * 500 items, or $KUBECTL_GPU_CHUNK_SIZE (kubectl's --chunk-size; used by the tests). */
int loader_connect(const SourceConfig *sc, struct RestConfig *rc, struct ApiClient **api,
                   struct Error *err);

/* Lists what rq asks for, in order nodes, pods, DRA objects (loader_wants_dra), events,
 * resourcequotas, daemonsets, clusterpolicies, services, handing each item to fn with its kind
 * (without the members the model never reads, as loader_cluster_load reads them).  Optional lists failing
 * with 403/404 add a line to *warnings; *clusterpolicy_checked is true when the ClusterPolicy
 * CRD was queried (404 = not installed counts as checked).  An expired continue token
 * fails with err->code = 410 (the caller restarts). */
typedef int (*LoaderItemFn)(void *ctx, ObjKind kind, const struct cJSON *item, struct Error *err);
int loader_list_live(struct ApiClient *api, const LoadRequest *rq, LoaderItemFn fn, void *ctx,
                     Strvec *warnings, bool *clusterpolicy_checked, struct Error *err);

/* apiVersion of a kind as listed ("v1", "apps/v1", "nvidia.com/v1", "resource.k8s.io/v1") */
const char *loader_api_version(ObjKind kind);

/* ---- DRA (loader_dra.c) ----
 * The resource.k8s.io lists go with every load that reads nodes and pods (status, pending,
 * explain, plan, top, snapshot): deviceclasses, resourceslices, resourceclaims,
 * resourceclaimtemplates, cluster-wide (a claim in another namespace may hold the GPU a pod
 * waits for).  v1, else v1beta2, else v1beta1, chosen by the first list; no DRA served (404
 * on every version) is silent; 403 is a warning per list (claims are listed cluster-wide, as
 * pods are: a claim of another namespace may hold the device a pod waits for).  list_rv: as
 * loader_cluster_load_at's, for the four kinds (NULL: not wanted). */
bool loader_wants_dra(const LoadRequest *rq);
int loader_list_dra(struct ApiClient *api, LoaderItemFn fn, void *ctx, Strvec *warnings, bool model,
                    char **list_rv, struct Error *err);
/* the resource.k8s.io version the last live load used ("resource.k8s.io/v1" before any) */
const char *loader_dra_api_version(void);

/* ---- batch queues (loader_queues.c) ----
 * Kueue (kueue.x-k8s.io, the version the server prefers), Volcano (scheduling.volcano.sh/
 * v1beta1) and KAI (scheduling.run.ai v2 queues, v2alpha2 podgroups), cluster-wide, after the
 * pods.  One GET /apis/GROUP per system: 404 = not installed, silent; 403 on it or on a list is
 * a warning; a kind the release does not serve (404) is silent.  priority_classes: Kueue's
 * WorkloadPriorityClasses too.  list_rv: as above. */
bool loader_wants_queues(const LoadRequest *rq);
int loader_list_queues(struct ApiClient *api, LoaderItemFn fn, void *ctx, Strvec *warnings, bool model,
                       bool priority_classes, char **list_rv, struct Error *err);
/* the apiVersion a queue kind was (or will be) listed in */
const char *loader_queue_api_version(ObjKind kind);

/* The namespace commands use when -n is not given: the context's namespace (live), or
 * "default" offline.  Returns a newly allocated string, or NULL with err set. */
char *loader_default_namespace(const SourceConfig *sc, struct Error *err);
#endif

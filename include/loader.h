/* loader.h — fill a Cluster from the API server or from a snapshot file, through the same
 * cluster_ingest() path.  The only place that decides where data comes from.
 */
#ifndef KGPU_LOADER_H
#define KGPU_LOADER_H
#include <stdbool.h>
#include "cluster.h"
#include "options.h"

typedef struct {
    bool nodes, pods, events, quotas, daemonsets, clusterpolicy, services;
    const char *node_selector;   /* label selector for nodes (-l) */
    const char *pod_namespace;   /* NULL = all namespaces */
} LoadRequest;

struct Error;
struct ApiClient;
/* Loads what rq asks for.  Optional lists (events, quotas, daemonsets, clusterpolicy,
 * services) that fail with 403/404 become warnings in c->warnings; failures of nodes or pods
 * are errors.  When api_out is non-NULL and the source is live, the API client is handed to
 * the caller (for metrics through the proxy), who frees it with apiclient_free. */
int cluster_load(Cluster *c, GlobalOptions *g, const LoadRequest *rq,
                 struct ApiClient **api_out, struct Error *err);

/* snapshot: a JSON List (as `kubectl get ... -o json`) read item by item into c */
int snapshot_read(Cluster *c, const char *path, const LoadRequest *rq, struct Error *err);
#endif

/* global_options.c — the global flags of kubectl gpu and what the sources are told of them. */
#include "cmd/global_options.h"

GlobalOptions global_storage;

const Option global_options[] = {
    { OPT_STRING, 0,   "kubeconfig", &global_storage.kubeconfig, "PATH",
      "path to the kubeconfig file (default: $KUBECONFIG, then ~/.kube/config)", NULL, "file" },
    { OPT_STRING, 0,   "context", &global_storage.context, "NAME", "kubeconfig context to use", NULL, "context" },
    { OPT_STRING, 0,   "contexts", &global_storage.contexts, "NAME,...",
      "status, pending, top: query these kubeconfig contexts at once, a fleet view (not with --context)", NULL, "contexts" },
    { OPT_BOOL,   0,   "all-contexts", &global_storage.all_contexts, NULL,
      "status, pending, top: query every context of the kubeconfig at once, a fleet view", NULL, NULL },
    { OPT_INT,    0,   "max-concurrent-contexts", &global_storage.max_concurrent_contexts, "N",
      "with --contexts/--all-contexts: contexts queried at the same time (default 8)", NULL, NULL },
    { OPT_STRING, 0,   "cluster", &global_storage.cluster, "NAME", "kubeconfig cluster to use", NULL, "cluster" },
    { OPT_STRING, 0,   "user", &global_storage.user, "NAME", "kubeconfig user to use", NULL, "user" },
    { OPT_STRING, 'n', "namespace", &global_storage.namespace_, "NS", "namespace of pods (default: the context's)", NULL, "namespace" },
    { OPT_BOOL,   'A', "all-namespaces", &global_storage.all_namespaces, NULL, "pods of all namespaces", NULL, NULL },
    { OPT_STRING, 'l', "selector", &global_storage.selector, "SEL", "label selector: of nodes for status, top, plan and snapshot; of pods for pending", NULL, NULL },
    { OPT_DURATION, 0, "request-timeout", &global_storage.request_timeout, "DURATION",
      "time limit for each API request, e.g. 30s or 1m (0 = none)", NULL, NULL },
    { OPT_STRING, 0,   "snapshot", &global_storage.snapshot, "FILE", "read a cluster dump instead of the API server", NULL, "file" },
    { OPT_STRING, 0,   "prometheus", &global_storage.prometheus, "URL", "Prometheus to read DCGM metrics from", NULL, NULL },
    { OPT_STRING, 0,   "prometheus-token", &global_storage.prometheus_token, "TOKEN",
      "bearer token for --prometheus (or $KUBECTL_GPU_PROMETHEUS_TOKEN)", NULL, NULL },
    { OPT_STRING, 0,   "prometheus-basic-auth", &global_storage.prometheus_user, "USER:PASSWORD",
      "basic auth for --prometheus (or $KUBECTL_GPU_PROMETHEUS_BASIC_AUTH)", NULL, NULL },
    { OPT_BOOL,   0,   "no-metrics", &global_storage.no_metrics, NULL, "do not look for metrics", NULL, NULL },
    { OPT_BOOL,   0,   "no-color", &global_storage.no_color, NULL, "no colour, also when stdout is a terminal", NULL, NULL },
    { OPT_COUNT,  'v', "verbose", &global_storage.verbose, NULL,
      "more detail on stderr, kubectl's levels: 1 decisions, 6 requests (URL, status, time), 7 headers "
      "(credentials redacted), 8 bodies (1 KiB), 9 (10 KiB); -v 6, --v=6 or -vv", NULL, NULL },
    { OPT_BOOL,   'h', "help", &global_storage.help, NULL, "show help", NULL, NULL },
    { OPT_BOOL,   0,   "version", &global_storage.version, NULL, "print the version and exit", NULL, NULL },
    OPT_END_MARK
};

SourceConfig global_options_source_config(const GlobalOptions *g)
{
    return (SourceConfig){
        .kubeconfig = g->kubeconfig, .context = g->context, .cluster = g->cluster,
        .user = g->user, .namespace_ = g->namespace_,
        .request_timeout = g->request_timeout,
        .snapshot = g->snapshot,
        .no_metrics = g->no_metrics, .prometheus = g->prometheus,
        .prometheus_token = g->prometheus_token, .prometheus_basic_auth = g->prometheus_user,
        .verbose = g->verbose,
    };
}

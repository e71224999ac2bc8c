/* source_config.h — what the sources (loader.h, metrics.h) are told: where the cluster is,
 * how long to wait, where metrics come from, how much to log.  Built by the command layer from
 * its options (global_options_source_config in cmd/global_options.h); the sources never see the
 * CLI's tables.  Strings are borrowed (from argv or the environment) for the life of the command.
 */
#ifndef KGPU_SOURCE_CONFIG_H
#define KGPU_SOURCE_CONFIG_H
#include <stdbool.h>

typedef struct SourceConfig {
    /* kubeconfig overrides; NULL = what the kubeconfig says */
    const char *kubeconfig, *context, *cluster, *user, *namespace_;
    double request_timeout;             /* seconds; 0 = none */
    const char *snapshot;               /* read this file instead of the API server; NULL = live */
    /* metrics */
    bool no_metrics;
    const char *prometheus;             /* URL; NULL = find one in the cluster */
    const char *prometheus_token;       /* bearer token, may be NULL */
    const char *prometheus_basic_auth;  /* "user:password", may be NULL */
    int verbose;                        /* -v level */
} SourceConfig;
#endif

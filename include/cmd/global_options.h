/* global_options.h — the program's global flags: the values every command runs with, and the
 * flag table that fills them (handed to the option library, cli/options.h, through
 * app_program in cmd/commands.h; valid before and after the subcommand word).
 */
#ifndef KGPU_GLOBAL_OPTIONS_H
#define KGPU_GLOBAL_OPTIONS_H
#include "cli/options.h"
#include "sources/source_config.h"

typedef struct GlobalOptions {
    const char *kubeconfig, *context, *cluster, *user, *namespace_;
    bool all_namespaces;
    const char *selector;
    double request_timeout;      /* seconds; 0 = none */
    const char *snapshot;
    const char *prometheus;
    const char *prometheus_token;   /* also $KUBECTL_GPU_PROMETHEUS_TOKEN */
    const char *prometheus_user;    /* "user:password", also $KUBECTL_GPU_PROMETHEUS_BASIC_AUTH */
    bool no_metrics, no_color;
    int verbose;
    bool help, version;
    const char *contexts;        /* --contexts a,b,c (cmd/fleet.h) */
    bool all_contexts;           /* --all-contexts */
    int max_concurrent_contexts; /* 0 = the default, 8 */
    /* derived after parsing */
    bool color;                  /* stdout is a terminal, no --no-color, no NO_COLOR */
    bool namespace_explicit;     /* -n given */
    SourceConfig source;         /* what the sources are told (global_options_source_config) */
    const CliProgram *program;   /* the table the line was parsed against (app_program): the
                                  * hidden __complete completes against it */
} GlobalOptions;

/* the SourceConfig of these options: kubeconfig overrides, timeout, snapshot, metrics flags,
 * verbosity (the one place the CLI's flags become the sources' configuration) */
SourceConfig global_options_source_config(const GlobalOptions *g);

extern const Option global_options[];
extern GlobalOptions global_storage;     /* where global_options store their values */

#endif

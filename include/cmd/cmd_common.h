/* cmd_common.h — what every command's run shares: loading the cluster it reads (live or from
 * a snapshot) and mapping -o to the renderers' formats.
 *
 * Ownership: a CmdCluster is set up by cmd_load_cluster and released by cmd_cluster_release
 * (the struct itself is the caller's, usually on its stack).
 */
#ifndef KGPU_CMD_COMMON_H
#define KGPU_CMD_COMMON_H
#include <stdbool.h>
#include <stdio.h>
#include "cmd/global_options.h"
#include "model/cluster.h"
#include "render/render.h"
#include "sources/loader.h"

struct ApiClient;
struct Error;

typedef struct {
    Cluster cluster;
    struct ApiClient *api;       /* live and asked for (metrics through the proxy); else NULL */
} CmdCluster;

/* Loads what rq asks for from g's source (loader_cluster_load).  want_api keeps the API client for
 * the caller.  Returns 0, or -1 with err set (cc then holds nothing to release). */
int cmd_load_cluster(CmdCluster *cc, const GlobalOptions *g, const LoadRequest *rq, bool want_api,
                     struct Error *err);
void cmd_cluster_release(CmdCluster *cc);

/* After metrics_collect (source and detail as it left them): no metrics with --require-metrics
 * is an error (-1, err set: the command exits 1); a --prometheus the user named that gave
 * nothing is a warning on stderr, whatever the output format (0).  Metrics found: 0. */
int cmd_metrics_outcome(const char *source, const char *detail, const GlobalOptions *g, bool require,
                        struct Error *err);

/* --price against the GPU products of c's nodes: every MODEL must name one (its GFD name, the
 * same without "NVIDIA-", or its short name), else -1 with err set naming the products known,
 * as kubectl names the choices it allows (the command exits 2).  price NULL or all known: 0. */
int cmd_price_check(const Cluster *c, const char *price, struct Error *err);

/* -o jsonpath=/go-template= (render/output_template.h) for any command whose -o takes json:
 * the command runs as with -o json, its stdout captured (a temporary file behind fd 1), and the
 * template is run on the document it printed.  cmd_template_begin: 0, or -1 with err set;
 * cmd_template_end restores stdout and, when rc is EXIT_OK, prints the template's text;
 * returns the exit code (EXIT_FAIL with err set when the document does not parse or the
 * template fails on it). */
struct OutputTemplate;
typedef struct { int saved_fd; FILE *tmp; } CmdTemplateRun;
int cmd_template_begin(CmdTemplateRun *r, struct Error *err);
int cmd_template_end(CmdTemplateRun *r, const struct OutputTemplate *t, int rc, struct Error *err);

/* the renderers' format for -o (table and default: RENDER_TEXT) */
RenderFormat cmd_render_format(OutputFormat f);
#endif

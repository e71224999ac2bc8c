/* cmd_top.c — `kubectl gpu top`: the live, full-screen view of the cluster's GPUs.
 *
 * What is loaded mirrors `status` (nodes, pods of every namespace, the GPU DaemonSets, the
 * ClusterPolicy, services to find Prometheus) plus what `pending` needs (events, quotas).
 * One refresh builds a TopData (tui.h): status_build over the cluster and the metrics, and —
 * when the cluster lists were read again — explain_pending over the new cluster, without the
 * fixes (the explain view computes them for the one pod it shows).
 *
 * Refresh: the loading runs in the feed's worker thread (tui_feed.h): the metrics every
 * --interval, the cluster lists every CLUSTER_EVERY intervals or when the user presses r.  The
 * worker keeps the newest TopCluster and the API client between refreshes; only it touches
 * them.  With --snapshot there is one load and no refresh.
 *
 * The worker runs without -v output (the screen is the terminal) and never prompts.
 */
#include "sources/apiclient.h"
#include "cmd/commands.h"
#include "util/error.h"
#include "analysis/explain.h"
#include "sources/loader.h"
#include "sources/metrics.h"
#include "tui/tui.h"
#include "tui/tui_feed.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CLUSTER_EVERY 5           /* metrics refreshes per reload of the cluster lists */

static double top_interval = 2;
static const Option top_opts[] = {
    { OPT_DURATION, 0, "interval", &top_interval, "DURATION",
      "time between refreshes of the metrics; the cluster lists are read every 5 intervals "
      "(default 2s)", NULL, NULL },
    OPT_END_MARK
};

/* what the worker keeps between refreshes (touched by the worker thread only) */
typedef struct {
    GlobalOptions g;              /* a copy, -v silenced */
    const char *pending_ns;       /* NULL = all namespaces */
    TopCluster *cur;              /* newest cluster (one reference), NULL before the first load */
    ApiClient *api;               /* its API client, NULL offline */
    bool live;                    /* refreshes follow (not a snapshot) */
    bool metrics_deferred;        /* the first live load went without metrics */
    bool metrics_none;            /* the last metrics collection found no source */
} TopSource;

static void *top_fetch(void *ctx, bool full, Error *err)
{
    TopSource *s = ctx;
    if (!s->cur) full = true;
    if (!full && (s->g.no_metrics || (s->metrics_none && !s->g.prometheus)))
        return NULL;              /* nothing changes between cluster reloads: not a failure */
    if (full) {
        TopCluster *tc = top_cluster_new();
        LoadRequest rq = { .nodes = true, .pods = true, .events = true, .quotas = true,
                           .daemonsets = true, .clusterpolicy = true, .configmaps = true,
                           .services = !s->g.no_metrics && !s->g.prometheus,
                           .node_selector = s->g.selector };
        ApiClient *api = NULL;
        if (cluster_load(&tc->cluster, &s->g.source, &rq, &api, err) < 0) {
            top_cluster_unref(tc);
            return NULL;
        }
        tc->loaded_at = (int64_t)time(NULL);
        /* rows only: the explain view makes the full explanation for the pod it shows (tui_app.c) */
        explain_pending_rows(&tc->cluster, s->pending_ns, &tc->pending);
        top_cluster_unref(s->cur);
        s->cur = tc;
        if (s->api) apiclient_free(s->api);
        s->api = api;
    }
    TopData *d = xcalloc(1, sizeof *d);
    d->tc = top_cluster_ref(s->cur);
    if (s->live && !s->metrics_deferred && !s->g.no_metrics) {
        /* the first screen does not wait for the metrics sources (an unreachable exporter
         * is retried for seconds): they come with the next refresh, one interval later */
        d->usage.source = xstrdup("none");
        d->usage.detail = xstrdup("not collected yet (next refresh)");
        s->metrics_deferred = true;
    } else {
        MetricsQuery q = { 3600, 5, 95, false };     /* the idle window and threshold of `status` */
        metrics_collect(&d->usage, &s->g.source, s->api, &s->cur->cluster, &q, NULL, NULL);
        d->metrics_at = (int64_t)time(NULL);
        s->metrics_none = !d->usage.source || strcmp(d->usage.source, "none") == 0;
    }
    status_build(&d->status, &s->cur->cluster, &d->usage, NULL);
    return d;
}

static void top_data_free_void(void *p) { top_data_free(p); }

static int run_top(int argc, char **argv, GlobalOptions *g, Error *out_err)
{
    (void)argc; (void)argv;
    if (!(top_interval >= 0.2)) {
        fprintf(stderr, "error: --interval must be at least 0.2s\nSee 'kubectl gpu top --help' for usage.\n");
        return EXIT_USAGE;
    }
    if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)) {
        fprintf(stderr, "error: top needs a terminal; use 'kubectl gpu status'\n");
        return EXIT_FAIL;
    }
    const char *nc = getenv("NO_COLOR");
    bool color = !g->no_color && !(nc && *nc);

    TopSource src;
    memset(&src, 0, sizeof src);
    src.g = *g;
    src.g.verbose = 0;
    src.g.source.verbose = 0;
    src.pending_ns = g->namespace_explicit && !g->all_namespaces ? g->namespace_ : NULL;
    src.live = !g->snapshot;

    FeedConfig fc = { .interval = g->snapshot ? 0 : top_interval, .full_every = CLUSTER_EVERY,
                      .fetch = top_fetch, .free_data = top_data_free_void, .ctx = &src };
    Error err = { .set = false };
    Feed *feed = feed_start(&fc, &err);
    if (!feed) {
        fprintf(stderr, "error: %s\n", err.msg);
        return EXIT_FAIL;
    }
    TuiOptions o = { .interval = g->snapshot ? 0 : top_interval, .color = color,
                     .pending_ns = src.pending_ns, .snapshot = g->snapshot, .full_every = CLUSTER_EVERY };
    int rc = tui_run(&o, feed, &err);
    /* the worker may be inside a request to a slow server: do not wait for it long */
    if (!feed_stop(feed, 1.0)) {
        if (rc < 0) fprintf(stderr, "error: %s\n", err.msg);
        fflush(stdout);
        fflush(stderr);
        _exit(rc < 0 ? EXIT_FAIL : EXIT_OK);
    }
    top_cluster_unref(src.cur);
    if (src.api) apiclient_free(src.api);
    if (rc < 0) {
        fprintf(stderr, "error: %s\n", err.msg);
        return EXIT_FAIL;
    }
    return EXIT_OK;
}

const Command command_top = {
    .name = "top",
    .summary = "Live full-screen view of the GPUs, the pods holding them and the pending pods",
    .usage = "kubectl gpu top [--interval 2s] [flags]",
    .description =
        "A full-screen view in the spirit of htop: the GPU nodes with their allocation and, with\n"
        "metrics, utilization and memory bars; the selected node's resources, MIG devices or shared\n"
        "slots and the pods holding them; the pending GPU pods with their verdicts.  Enter opens a\n"
        "node, or explains a pending pod as 'kubectl gpu explain' does; Tab switches between the\n"
        "lists; / filters by name or label (key=value selects by label); s sorts by name,\n"
        "allocation, utilization or idle GPUs; r refreshes; ? shows the keys; q quits.\n"
        "Metrics are refreshed every --interval and the cluster lists every 5 intervals, in the\n"
        "background: a slow API server shows as \"refreshing\" and never freezes the keys; when a\n"
        "refresh fails the last good data stays on screen.  Pending pods of every namespace are\n"
        "listed unless -n is given.  With --snapshot the picture is still (refresh disabled).\n"
        "Needs a terminal (80x24 or larger); --no-color and NO_COLOR give a monochrome screen.",
    .examples = "  kubectl gpu top\n  kubectl gpu top --interval 5s\n"
                "  kubectl gpu top -l nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3\n"
                "  kubectl gpu top --snapshot cluster.json\n",
    .options = top_opts,
    .min_args = 0, .max_args = 0,
    .run = run_top,
};

/* cmd_top.c — `kubectl gpu top`: the live, full-screen view of the cluster's GPUs.
 *
 * Its flags, and the run: the feed (tui_feed.h) fetching from a TopSource (top_source.c: the
 * load, the watches, the metrics, each refresh's TopData) under the screen (tui.h).  The
 * worker runs without -v output (the screen is the terminal) and never prompts.
 */
#include "cmd/commands.h"
#include "cmd/fleet.h"
#include "cmd/top_source.h"
#include "util/error.h"
#include "tui/tui.h"
#include "tui/tui_feed.h"
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static double top_interval = 2;
static const Option top_opts[] = {
    { OPT_DURATION, 0, "interval", &top_interval, "DURATION",
      "time between refreshes of the metrics (default 2s); the cluster follows watches", NULL, NULL },
    OPT_END_MARK
};

static void top_data_free_void(void *p) { top_data_free(p); }

static int run_top(int argc, char **argv, GlobalOptions *g, Error *out_err)
{
    (void)argc; (void)argv;
    if (!(top_interval >= 0.2)) {
        error_set(out_err, "--interval must be at least 0.2s");
        return EXIT_USAGE;
    }
    if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)) {
        error_set(out_err, "top needs a terminal; use 'kubectl gpu status'");
        return EXIT_FAIL;
    }
    if (fleet_wanted(g))                       /* --contexts, --all-contexts: the fleet screen */
        return fleet_top_run(&cmd_status_fleet, run_top, g, top_interval, out_err);
    const char *nc = getenv("NO_COLOR");
    bool color = !g->no_color && !(nc && *nc);

#ifdef __GLIBC__
    /* top rebuilds megabyte arrays (usage records, series, status) every refresh on the worker
     * thread and frees the last ones on the screen's: with glibc's sliding threshold they come
     * from the heap after the first free and leave it fragmented (about 10 MB at 20,000
     * devices); a fixed threshold maps each, so its free gives it back at once */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    /* and one arena for its threads (loader, prefetch, watchers, screen): each thread's own
     * arena kept its freed chunks apart from the others' (0.4-0.6 MB of the first screen's
     * peak on the 5,000-node training cluster) */
    mallopt(M_ARENA_MAX, 1);
#endif
    TopSource src;
    memset(&src, 0, sizeof src);
    src.g = *g;
    src.g.verbose = 0;
    src.g.source.verbose = 0;
    src.pending_ns = g->namespace_explicit && !g->all_namespaces ? g->namespace_ : NULL;
    src.live = !g->snapshot;
    src.interval = top_interval;

    pthread_mutex_init(&src.notify_mu, NULL);
    FeedConfig fc = { .interval = g->snapshot ? 0 : top_interval, .full_every = CLUSTER_EVERY,
                      .fetch = top_fetch, .free_data = top_data_free_void, .ctx = &src };
    Feed *feed = feed_start(&fc, out_err);
    if (!feed) return EXIT_FAIL;
    pthread_mutex_lock(&src.notify_mu);
    src.feed = feed;
    pthread_mutex_unlock(&src.notify_mu);
    TuiOptions o = { .interval = g->snapshot ? 0 : top_interval, .color = color,
                     .pending_ns = src.pending_ns, .snapshot = g->snapshot, .full_every = CLUSTER_EVERY,
                     .node_selector = g->selector && *g->selector ? g->selector : NULL };
    int rc = tui_run(&o, feed, out_err);
    pthread_mutex_lock(&src.notify_mu);          /* the watcher no longer wakes the feed */
    src.feed = NULL;
    pthread_mutex_unlock(&src.notify_mu);
    /* the worker may be inside a request to a slow server: do not wait for it long */
    if (!feed_stop(feed, 1.0)) {
        if (rc < 0) cli_print_error(out_err, NULL);   /* main will not: the worker holds the process */
        fflush(stdout);
        fflush(stderr);
        _exit(rc < 0 ? EXIT_FAIL : EXIT_OK);
    }
    top_source_release(&src);                    /* the worker ended: only this thread uses it */
    return rc < 0 ? EXIT_FAIL : EXIT_OK;
}

const Command cmd_top = {
    .name = "top",
    .summary = "Live full-screen view of the GPUs, the pods holding them and the pending pods",
    .usage = "kubectl gpu top [--interval 2s] [flags]",
    .description =
        "A full-screen view in the spirit of htop: the GPU nodes with their allocation and, with\n"
        "metrics, utilization and memory bars; the selected node's resources, MIG devices or shared\n"
        "slots and the pods holding them; the pending GPU pods with their verdicts.  Enter opens a\n"
        "node, or explains a pending pod as 'kubectl gpu explain' does; Tab switches between the\n"
        "lists; / filters by node, pod (namespace/name) or label (key=value selects by label; a bad\n"
        "selector says so); s sorts by name, allocation, utilization or idle GPUs; r refreshes; ?\n"
        "shows the keys; q quits.\n"
        "The cluster is listed once, then followed by watches: a pod created or deleted shows within\n"
        "a second and no list is read again unless a watch is lost for good (the header says \"live\n"
        "(watch)\" or \"watch lost since HH:MM:SS, data AGE old\"; the keys keep working).  Metrics are\n"
        "refreshed every --interval in the background.\n"
        "Pods of every namespace are read unless -n NS is given: then only that namespace's pods are\n"
        "listed and watched, the header says \"pods: NS\", and the allocation, pending list and\n"
        "verdicts count those pods only.  -l SEL selects nodes by label, as for status: only the\n"
        "matching nodes are listed and watched, pods on other nodes are not counted, verdicts judge\n"
        "those nodes only, and the header says \"nodes: SEL\".  / filters the view further.  With\n"
        "--snapshot the picture is still (refresh disabled).\n"
        "With --contexts or --all-contexts: a fleet screen, a row per context with its totals, each\n"
        "context listed then followed by a watch of its own, its row redrawn when they change; while\n"
        "its watch is down it keeps its figures, marked \"lost since HH:MM:SS, data Ns old\"; Enter\n"
        "opens its top.\n"
        "Needs a terminal of 80x24 or larger (smaller, it says so); --no-color and NO_COLOR give a\n"
        "monochrome screen.",
    .examples = "  kubectl gpu top\n  kubectl gpu top --interval 5s\n"
                "  kubectl gpu top -n ml-training\n"
                "  kubectl gpu top -l nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3\n"
                "  kubectl gpu top --snapshot cluster.json\n  kubectl gpu top --all-contexts\n",
    .options = top_opts,
    .min_args = 0, .max_args = 0,
    .run = run_top,
};

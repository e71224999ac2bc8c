/* cmd_top.c — `kubectl gpu top`: the live, full-screen view of the cluster's GPUs.
 *
 * What is loaded mirrors `status` (nodes, pods of every namespace, the GPU DaemonSets, the
 * ClusterPolicy, services to find Prometheus) plus what `pending` needs (events, quotas).
 * One refresh builds a TopData (tui.h): status_build over the cluster and the metrics, and —
 * when the cluster lists were read again — explain_pending over the new cluster, without the
 * fixes (the explain view computes them for the one pod it shows).
 *
 * Live: the cluster is listed once, then followed by watches (sources/watch.h): the feed's
 * worker applies the queued events to the TopCluster in place (model/cluster_live.h), holding
 * the feed's data lock until the TopData rebuilt from it is published (tui_feed.h), and the
 * watcher wakes the worker when events arrive, so a change shows within WATCH_BATCH seconds
 * plus the rebuild.  The metrics are collected every --interval; in between, the last ones
 * are shown again (a copy) under the changed cluster.  A kind whose watch is lost is resumed
 * or listed again by the watcher alone.  When the watches cannot start, the lists are read
 * again every CLUSTER_EVERY intervals (or when the user presses r) as before.  The worker
 * keeps the newest TopCluster and the API client between refreshes; only it touches them.
 * With --snapshot there is one load and no refresh.
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
#include "model/cluster_live.h"
#include "sources/watch.h"
#include <pthread.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CLUSTER_EVERY 5           /* metrics refreshes per reload of the cluster lists */
#define WATCH_BATCH 0.25          /* seconds: changes closer than this are applied together */

static double top_interval = 2;
static const Option top_opts[] = {
    { OPT_DURATION, 0, "interval", &top_interval, "DURATION",
      "time between refreshes of the metrics (default 2s); the cluster follows watches", NULL, NULL },
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
    /* following the cluster (NULL: lists re-read every CLUSTER_EVERY intervals) */
    Watcher *watch;
    char *rv[OBJ__COUNT];         /* where each list was read (the watches start there) */
    bool relisting[OBJ__COUNT];
    UsageData usage;              /* the last metrics, shown again between collections */
    bool have_usage;
    double metrics_mono, applied_mono;
    double series_mono;         /* when the usage series were last fetched (kept between) */
    int watch_lost;               /* as last shown */
    /* the watcher wakes the feed: notify_mu guards feed (NULL once the feed stops) */
    pthread_mutex_t notify_mu;
    Feed *feed;
} TopSource;

static double mono_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void wake_feed(void *ctx)
{
    TopSource *s = ctx;
    pthread_mutex_lock(&s->notify_mu);
    if (s->feed) feed_refresh_now(s->feed);
    pthread_mutex_unlock(&s->notify_mu);
}

/* the queued watch events applied to the current cluster; true when something changed (the
 * data lock is then held until this fetch's result is published) */
static bool apply_watch(TopSource *s)
{
    double since = mono_seconds() - s->applied_mono;
    if (since < WATCH_BATCH) {                  /* a burst: take it as one change */
        struct timespec ts = { 0, (long)((WATCH_BATCH - since) * 1e9) };
        nanosleep(&ts, NULL);
    }
    WatchEvent *evs = watcher_take(s->watch, 0);
    if (!evs) return false;
    feed_hold_data();
    Cluster *c = &s->cur->cluster;
    for (WatchEvent *e = evs; e; e = e->next) {
        Error ae = { 0 };
        switch (e->type) {
        case WATCH_RELIST_BEGIN: s->relisting[e->kind] = true; cluster_live_reset(c, e->kind); break;
        case WATCH_RELIST_END: s->relisting[e->kind] = false; break;
        case WATCH_UPSERT: case WATCH_DELETE:
            cluster_live_apply(c, e->kind, e->type == WATCH_DELETE ? LIVE_DELETE : LIVE_UPSERT, e->obj, &ae);
            break;
        }
    }
    watch_events_free(evs);
    cluster_live_commit(c);
    c->now = (int64_t)time(NULL);
    explanation_list_free(&s->cur->pending);
    explain_pending_opts(c, s->pending_ns, false, &s->cur->pending);
    s->cur->loaded_at = (int64_t)time(NULL);
    s->applied_mono = mono_seconds();
    return true;
}

static void *top_fetch(void *ctx, bool full, Error *err)
{
    TopSource *s = ctx;
    if (s->cur && s->watch) {
        /* watching: the lists are never read again; a change or due metrics make new data */
        bool metrics_due = !s->g.no_metrics && !(s->metrics_none && !s->g.prometheus) &&
                           mono_seconds() - s->metrics_mono >= top_interval * 0.9;
        if (metrics_due || !s->have_usage) {
            /* before the changes: the data lock is not held while the sources answer (only
             * this thread writes the cluster; reading it beside the screen is safe) */
            /* the series have a point a minute: fetched once a minute, kept in between */
            bool series_due = !s->have_usage || mono_seconds() - s->series_mono >= 60;
            MetricsQuery q = { 3600, 5, 95, false, series_due };
            UsageData prev = s->usage;
            bool had = s->have_usage;
            if (had && series_due) {          /* nothing of it is kept: gone before the new */
                usage_free(&prev);
                had = false;
            }
            metrics_collect(&s->usage, &s->g.source, s->api, &s->cur->cluster, &q, NULL, NULL);
            if (series_due) s->series_mono = mono_seconds();
            else if (had) usage_take_series(&s->usage, &prev);
            if (had) usage_free(&prev);
#ifdef __GLIBC__
            malloc_trim(0);                   /* the answers parsed are gone: give them back */
#endif
            s->have_usage = true;
            s->metrics_mono = mono_seconds();
            s->metrics_none = !s->usage.source || strcmp(s->usage.source, "none") == 0;
        }
        bool changed = apply_watch(s);
        WatchStats ws;
        watcher_stats(s->watch, &ws);
        if (!changed && !metrics_due && ws.lost == s->watch_lost) return NULL;
        s->watch_lost = ws.lost;
        TopData *d = xcalloc(1, sizeof *d);
        d->tc = top_cluster_ref(s->cur);
        usage_copy(&d->usage, &s->usage);
        d->metrics_at = (int64_t)time(NULL);
        status_build(&d->status, &s->cur->cluster, &d->usage, NULL);
        d->watching = true;
        d->watch_lost = ws.lost;
        return d;
    }
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
        bool watch = s->live && !s->cur;        /* the first load is followed by watches */
        if (watch) cluster_live_enable(&tc->cluster);
        if ((watch ? cluster_load_at(&tc->cluster, &s->g.source, &rq, s->rv, &api, err)
                   : cluster_load(&tc->cluster, &s->g.source, &rq, &api, err)) < 0) {
            top_cluster_unref(tc);
            return NULL;
        }
#ifdef __GLIBC__
        malloc_trim(0);             /* the pages read are gone: give their memory back */
#endif
        if (watch) {
            Error we = { 0 };
            s->watch = watcher_start(&s->g.source, &rq, s->rv, &we);   /* NULL: lists as before */
            if (s->watch) watcher_set_notify(s->watch, wake_feed, s);
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
        MetricsQuery q = { 3600, 5, 95, false, true };     /* the idle window and threshold of `status` */
        metrics_collect(&d->usage, &s->g.source, s->api, &s->cur->cluster, &q, NULL, NULL);
        d->metrics_at = (int64_t)time(NULL);
        s->metrics_none = !d->usage.source || strcmp(d->usage.source, "none") == 0;
    }
    status_build(&d->status, &s->cur->cluster, &d->usage, NULL);
    d->watching = s->watch != NULL;
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

#ifdef __GLIBC__
    /* top rebuilds megabyte arrays (usage records, series, status) every refresh on the worker
     * thread and frees the last ones on the screen's: with glibc's sliding threshold they come
     * from the heap after the first free and leave it fragmented (about 10 MB at 20,000
     * devices); a fixed threshold maps each, so its free gives it back at once */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
    TopSource src;
    memset(&src, 0, sizeof src);
    src.g = *g;
    src.g.verbose = 0;
    src.g.source.verbose = 0;
    src.pending_ns = g->namespace_explicit && !g->all_namespaces ? g->namespace_ : NULL;
    src.live = !g->snapshot;

    pthread_mutex_init(&src.notify_mu, NULL);
    FeedConfig fc = { .interval = g->snapshot ? 0 : top_interval, .full_every = CLUSTER_EVERY,
                      .fetch = top_fetch, .free_data = top_data_free_void, .ctx = &src };
    Error err = { .set = false };
    Feed *feed = feed_start(&fc, &err);
    if (!feed) {
        fprintf(stderr, "error: %s\n", err.msg);
        return EXIT_FAIL;
    }
    pthread_mutex_lock(&src.notify_mu);
    src.feed = feed;
    pthread_mutex_unlock(&src.notify_mu);
    TuiOptions o = { .interval = g->snapshot ? 0 : top_interval, .color = color,
                     .pending_ns = src.pending_ns, .snapshot = g->snapshot, .full_every = CLUSTER_EVERY };
    int rc = tui_run(&o, feed, &err);
    pthread_mutex_lock(&src.notify_mu);          /* the watcher no longer wakes the feed */
    src.feed = NULL;
    pthread_mutex_unlock(&src.notify_mu);
    /* the worker may be inside a request to a slow server: do not wait for it long */
    if (!feed_stop(feed, 1.0)) {
        if (rc < 0) fprintf(stderr, "error: %s\n", err.msg);
        fflush(stdout);
        fflush(stderr);
        _exit(rc < 0 ? EXIT_FAIL : EXIT_OK);
    }
    watcher_stop(src.watch);                     /* the worker ended: only this thread uses it */
    for (int k = 0; k < OBJ__COUNT; k++) free(src.rv[k]);
    if (src.have_usage) usage_free(&src.usage);
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
        "lists; / filters by node, pod (namespace/name) or label (key=value selects by label; a bad\n"
        "selector says so); s sorts by name, allocation, utilization or idle GPUs; r refreshes; ?\n"
        "shows the keys; q quits.\n"
        "The cluster is listed once, then followed by watches: a pod created or deleted shows within\n"
        "a second and no list is read again unless a watch is lost for good (the header says \"live\n"
        "(watch)\" or \"watch lost\"; the keys keep working).  Metrics are refreshed every\n"
        "--interval in the background.  Pending pods of every namespace are listed unless -n is\n"
        "given.  With --snapshot the picture is still (refresh disabled).\n"
        "Needs a terminal of 80x24 or larger (smaller, it says so); --no-color and NO_COLOR give a\n"
        "monochrome screen.",
    .examples = "  kubectl gpu top\n  kubectl gpu top --interval 5s\n"
                "  kubectl gpu top -l nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3\n"
                "  kubectl gpu top --snapshot cluster.json\n",
    .options = top_opts,
    .min_args = 0, .max_args = 0,
    .run = run_top,
};

/* top_source.c — what `kubectl gpu top` shows, made on the feed's worker (top_source.h).
 *
 * What is loaded mirrors `status` (nodes, pods of every namespace, the GPU DaemonSets, the
 * ClusterPolicy, services to find Prometheus) plus what `pending` needs (events, quotas).
 * -n NS scopes the pods as kubectl's does (the namespace's path): listed and watched, pods,
 * events and quotas are those of the namespace only (the header says "pods: NS"; node
 * allocation then counts those pods only).  -l SEL selects nodes, as for status: the nodes are
 * listed and watched with that labelSelector, pods bound to other nodes count nowhere, and
 * the header says "nodes: SEL".
 * One refresh builds a TopData (tui.h): status_build over the cluster and the metrics, and —
 * when the cluster lists were read again — explain_pending over the new cluster, without the
 * fixes (the explain view computes them for the one pod it shows).  The status and the metrics
 * shown live in one TopShown, made again in place under the feed's data lock (publish): the
 * screen's status and usage are dropped before the next status is built, never held twice.
 *
 * Live: the cluster is listed once, then followed by watches (sources/watch.h): the feed's
 * worker applies the queued events to the TopCluster in place (model/cluster_live.h), holding
 * the feed's data lock until the TopData rebuilt from it is published (tui_feed.h), and the
 * watcher wakes the worker when events arrive, so a change shows within WATCH_BATCH seconds
 * plus the rebuild (on a big cluster that changes all the time, spaced by the rebuild's cost:
 * watch_loop_gap).  The metrics are collected every --interval; in between, the last ones
 * are shown again under the changed cluster.  A kind whose watch is lost is resumed
 * or listed again by the watcher alone.  When the watches cannot start, the lists are read
 * again every CLUSTER_EVERY intervals (or when the user presses r) as before.  The worker
 * keeps the newest TopCluster and the API client between refreshes; only it touches them.
 * With --snapshot there is one load and no refresh.
 */
#include "cmd/top_source.h"
#include "cmd/watch_loop.h"
#include "sources/apiclient.h"
#include "util/error.h"
#include "analysis/explain.h"
#include "sources/loader.h"
#include "sources/metrics.h"
#include "model/cluster_live.h"
#include "sources/watch.h"
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WATCH_BATCH 0.25          /* seconds: changes closer than this are applied together (a
                                     big cluster that changes all the time: watch_loop_gap) */

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
    double gap = watch_loop_gap(s->rebuild_cost, WATCH_BATCH);
    if (since < gap) {                          /* a burst: take it as one change */
        double wait = gap - since;
        struct timespec ts = { (time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9) };
        nanosleep(&ts, NULL);
    }
    s->apply_started = mono_seconds();
    WatchEvent *evs = watcher_take(s->watch, 0);
    if (!evs) return false;
    feed_hold_data();
    /* what the screen shows from the cluster goes before the changes (the lock is held: nothing
     * reads it until publish): the old status and pending rows are not held beside the string
     * pool's compaction, the new rows' explanation and the new status */
    if (s->shown) top_shown_clear(s->shown, false);
    explanation_list_clear(&s->cur->pending);
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
    top_cluster_explain_pending(s->cur, s->pending_ns);
    s->cur->loaded_at = (int64_t)time(NULL);
    s->applied_mono = mono_seconds();
    return true;
}

/* the next TopData: the TopShown made again in place (tui.h), with the feed's data lock held
 * until it is published.  next: new metrics (moved into the TopShown; with keep_series the
 * series the screen showed move to them), NULL: the metrics shown stay.  The status and the
 * usage the screen showed are dropped before the new status is built: they are never held
 * twice. */
static TopData *publish(TopSource *s, UsageData *next, bool keep_series)
{
    feed_hold_data();
    if (!s->shown) s->shown = top_shown_new();
    TopShown *sh = s->shown;
    if (next && next->refill) {
        /* the same devices and pods: their new numbers into the shown records (only this
         * thread writes them; the screen reads them under the lock held here) */
        if (!usage_refill_apply(&sh->usage, next)) usage_clear(next);   /* not for these: dropped */
        top_shown_clear(sh, false);
    } else if (next) {
        if (keep_series) usage_take_series(next, &sh->usage);
        top_shown_clear(sh, true);
        sh->usage = *next;
        memset(next, 0, sizeof *next);
    } else {
        top_shown_clear(sh, false);
    }
    status_build(&sh->status, &s->cur->cluster, &sh->usage, NULL);
    TopData *d = xcalloc(1, sizeof *d);
    d->tc = top_cluster_ref(s->cur);
    d->shown = top_shown_ref(sh);
    d->usage = &sh->usage;
    d->status = &sh->status;
    return d;
}

void *top_fetch(void *ctx, bool full, Error *err)
{
    TopSource *s = ctx;
    if (s->cur && s->watch) {
        /* watching: the lists are never read again; a change or due metrics make new data */
        bool metrics_due = !s->g.no_metrics && !(s->metrics_none && !s->g.prometheus) &&
                           mono_seconds() - s->metrics_mono >= s->interval * 0.9;
        bool collected = false, series_due = false;
        UsageData next = { 0 };
        if (metrics_due || !s->have_usage) {
            /* before the changes: the data lock is not held while the sources answer (only
             * this thread writes the cluster; reading it beside the screen is safe); the
             * screen keeps showing the last metrics meanwhile */
            /* the series have a point a minute: fetched once a minute, kept in between (publish
             * moves them over) */
            series_due = !s->have_usage || mono_seconds() - s->series_mono >= 60;
            /* no held records: top shows none (status --by and snapshot read them) */
            MetricsQuery q = { 3600, 5, 95, false, series_due, .no_held = true };
            if (s->shown)
                /* refilled into the shown records when the values name the same devices and
                 * pods (read here beside the screen, written in publish); when the series are
                 * due, they alone, made beside the shown ones and put in their place there
                 * (the numbers come with the next refresh) */
                metrics_collect_refill(&next, &s->g.source, s->api, &s->cur->cluster, &q, &s->shown->usage);
            else
                metrics_collect(&next, &s->g.source, s->api, &s->cur->cluster, &q, NULL, NULL);
            if (series_due) s->series_mono = mono_seconds();
#ifdef __GLIBC__
            malloc_trim(0);                   /* the answers parsed are gone: give them back */
#endif
            collected = true;
            s->have_usage = true;
            s->metrics_mono = mono_seconds();
            s->metrics_none = !next.source || strcmp(next.source, "none") == 0;
        }
        bool changed = apply_watch(s);
        WatchStats ws;
        watcher_stats(s->watch, &ws);
        if (!changed && !collected && ws.lost == s->watch_lost && ws.refused == s->watch_refused) return NULL;
        if (ws.lost && !s->watch_lost) s->lost_since = (int64_t)time(NULL);
        s->watch_lost = ws.lost;
        s->watch_refused = (int)ws.refused;
        TopData *d = publish(s, collected ? &next : NULL, !series_due);
        if (changed) s->rebuild_cost = mono_seconds() - s->apply_started;
        d->metrics_at = (int64_t)time(NULL);
        d->watching = true;
        d->watch_lost = ws.lost;
        d->watch_refused = (int)ws.refused;
        d->lost_since = s->lost_since;
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
                           .pod_namespace = s->pending_ns, .node_selector = s->g.selector, .queues = true };
        ApiClient *api = NULL;
        bool watch = s->live && !s->cur;        /* the first load is followed by watches */
        if (watch) cluster_live_enable(&tc->cluster);
        if ((watch ? loader_cluster_load_at(&tc->cluster, &s->g.source, &rq, s->rv, &api, err)
                   : loader_cluster_load(&tc->cluster, &s->g.source, &rq, &api, err)) < 0) {
            top_cluster_unref(tc);
            return NULL;
        }
        if (watch) cluster_live_loaded(&tc->cluster);
        apiclient_idle(api);        /* kept for the metrics, not its buffers (about 1 MB) */
#ifdef __GLIBC__
        malloc_trim(0);             /* the pages read are gone: give their memory back */
#endif
        if (watch) {
            Error we = { 0 };
            s->watch = watcher_start(&s->g.source, &rq, &tc->cluster, s->rv, &we);   /* NULL: lists as before */
            if (s->watch) watcher_set_notify(s->watch, wake_feed, s);
        }
        tc->loaded_at = (int64_t)time(NULL);
        /* rows only: the explain view makes the full explanation for the pod it shows (tui_app.c) */
        top_cluster_explain_pending(tc, s->pending_ns);
        top_cluster_unref(s->cur);
        s->cur = tc;
        if (s->api) apiclient_free(s->api);
        s->api = api;
    }
    UsageData next = { 0 };
    int64_t metrics_at = 0;
    if (s->live && !s->metrics_deferred && !s->g.no_metrics) {
        /* the first screen does not wait for the metrics sources (an unreachable exporter
         * is retried for seconds): they come with the next refresh, one interval later */
        next.source = xstrdup("none");
        next.detail = xstrdup("not collected yet (next refresh)");
        s->metrics_deferred = true;
    } else {
        /* the idle window and threshold of `status`; no held records (top shows none) */
        MetricsQuery q = { 3600, 5, 95, false, true, .no_held = true };
        metrics_collect(&next, &s->g.source, s->api, &s->cur->cluster, &q, NULL, NULL);
        metrics_at = (int64_t)time(NULL);
        s->metrics_none = !next.source || strcmp(next.source, "none") == 0;
    }
    TopData *d = publish(s, &next, false);
    d->metrics_at = metrics_at;
    d->watching = s->watch != NULL;
    return d;
}

void top_source_release(TopSource *s)
{
    watcher_stop(s->watch);
    for (int k = 0; k < OBJ__COUNT; k++) free(s->rv[k]);
    top_shown_unref(s->shown);
    top_cluster_unref(s->cur);
    if (s->api) apiclient_free(s->api);
}

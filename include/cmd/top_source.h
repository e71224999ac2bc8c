/* top_source.h — the data of `kubectl gpu top`: the feed's fetch (tui_feed.h) that loads the
 * cluster, follows it by watches, collects the metrics and builds each TopData (tui.h).
 *
 * Ownership: a TopSource is the caller's (cmd_top.c, on its stack), filled before the feed
 * starts; the worker alone touches it while the feed runs; top_source_release frees what it
 * holds once the worker has ended.
 */
#ifndef KGPU_CMD_TOP_SOURCE_H
#define KGPU_CMD_TOP_SOURCE_H
#include <pthread.h>
#include <stdbool.h>
#include "cmd/global_options.h"
#include "model/usage.h"
#include "sources/loader.h"
#include "sources/watch.h"
#include "tui/tui.h"
#include "tui/tui_feed.h"

#define CLUSTER_EVERY 5           /* metrics refreshes per reload of the cluster lists */

struct ApiClient;
struct Error;

/* what the worker keeps between refreshes (touched by the worker thread only) */
typedef struct TopSource {
    GlobalOptions g;              /* a copy, -v silenced */
    const char *pending_ns;       /* -n: the pods listed and watched, NULL = all namespaces */
    TopCluster *cur;              /* newest cluster (one reference), NULL before the first load */
    struct ApiClient *api;               /* its API client, NULL offline */
    bool live;                    /* refreshes follow (not a snapshot) */
    double interval;              /* --interval: seconds between metrics collections */
    bool metrics_deferred;        /* the first live load went without metrics */
    bool metrics_none;            /* the last metrics collection found no source */
    /* following the cluster (NULL: lists re-read every CLUSTER_EVERY intervals) */
    Watcher *watch;
    char *rv[OBJ__COUNT];         /* where each list was read (the watches start there) */
    bool relisting[OBJ__COUNT];
    TopShown *shown;              /* what the screen shows (tui.h): the last metrics, shown again
                                     between collections, and the status; NULL before the first */
    bool have_usage;              /* watching: metrics were collected since the first load */
    double metrics_mono, applied_mono;
    double rebuild_cost;          /* seconds the last change took to apply and show (top_fetch) */
    double apply_started;
    double series_mono;           /* when the usage series were last fetched (kept between) */
    int watch_lost;               /* as last shown */
    int watch_refused;            /* as last shown */
    int64_t lost_since;           /* wall clock when watch_lost went above 0 */
    /* the watcher wakes the feed: notify_mu guards feed (NULL once the feed stops) */
    pthread_mutex_t notify_mu;
    Feed *feed;
} TopSource;

/* the feed's fetch (FeedConfig.fetch) with a TopSource as ctx */
void *top_fetch(void *ctx, bool full, struct Error *err);
/* once the feed's worker has ended */
void top_source_release(TopSource *s);
#endif

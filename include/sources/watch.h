/* watch.h — list-then-watch: the cluster's changes as they happen, kind by kind.
 *
 * After loader_cluster_load_at() read the lists (and the resourceVersion each was read at), a
 * Watcher follows each kind from that point with one watch request at a time
 * (?watch=1&resourceVersion=RV&allowWatchBookmarks=true&timeoutSeconds=N), on its own thread
 * and API client, and queues what it learns for the caller's thread:
 *   - ADDED / MODIFIED as WATCH_UPSERT, DELETED as WATCH_DELETE (the object, owned by the
 *     event); BOOKMARK only moves the kind's resourceVersion on;
 *   - the server ending the watch (its timeout, 5 to 10 min), or the stream cut or quiet
 *     for 90 s after it was up, renews it at once from the last resourceVersion seen;
 *   - a watch that fails to start (refused connection, 429, 5xx) or ends within 1 s with
 *     nothing is retried the same way after a backoff;
 *   - 410 Gone (a too old resourceVersion, as an HTTP status or an ERROR event) or any other
 *     ERROR event relists that kind only, after a backoff: WATCH_RELIST_BEGIN, the items as
 *     WATCH_UPSERT, WATCH_RELIST_END (apply nothing in between to the screen);
 *   - 403/404 on the watch: that kind is not followed any more (its listed state stays);
 *   - backoff: 0.8 s doubling to 30 s, back to the start after 2 minutes without trouble.
 * (watch.c's header and docs/watch.md: the client-go Reflector functions this follows.)
 * The queue is bounded: a thread relisting a large kind waits while the caller is behind, so
 * memory follows the queue, not the list.
 *
 * Ownership: watcher_take() returns a chain the caller frees with watch_events_free().
 * watcher_stop() cancels the open requests and waits (up to 3 s) for the threads to end; one
 * that does not (a server that does not answer the TLS close) ends by itself later and frees
 * what it holds.
 */
#ifndef KGPU_WATCH_H
#define KGPU_WATCH_H
#include <stdbool.h>
#include "model/cluster.h"
#include "sources/loader.h"
#include "sources/source_config.h"

typedef enum { WATCH_UPSERT, WATCH_DELETE, WATCH_RELIST_BEGIN, WATCH_RELIST_END } WatchEventType;

typedef struct WatchEvent {
    ObjKind kind;
    WatchEventType type;
    struct cJSON *obj;             /* UPSERT / DELETE: the object (owned) */
    struct WatchEvent *next;
} WatchEvent;
void watch_events_free(WatchEvent *e);

typedef struct Watcher Watcher;
struct Error;

/* Starts one watch per kind of rq that has a list_rv (as loader_cluster_load_at filled it), with the
 * same paths and selectors as the lists (watch_plan.h: nodes, pods, FailedScheduling events,
 * quotas, DaemonSets, ClusterPolicies, services, the ClusterPolicy's ConfigMaps, the DRA
 * kinds); c is the cluster the lists made (the ConfigMaps' names come from its ClusterPolicy).
 * NULL with err set when nothing can be watched or a thread cannot start. */
Watcher *watcher_start(const SourceConfig *sc, const LoadRequest *rq, const Cluster *c, char *const *list_rv,
                       struct Error *err);
/* the events queued so far, oldest first; waits up to timeout seconds for the first one
 * (0 = do not wait).  NULL when none. */
WatchEvent *watcher_take(Watcher *w, double timeout);
/* fn(ctx) is called (on a watch thread, with the watcher's lock held: fn must not call the
 * watcher) when events are queued while the queue
 * was empty: a caller that does not wait in watcher_take learns there is something to take */
void watcher_set_notify(Watcher *w, void (*fn)(void *ctx), void *ctx);
/* wakes a watcher_take() that is waiting (e.g. from a signal handler's flag check loop) */
void watcher_wake(Watcher *w);

typedef struct {
    long lists;                   /* relists made (not counting the first lists) */
    long watches;                 /* watch requests made */
    long events;                  /* events received (bookmarks included) */
    int kinds;                    /* kinds watched */
    int lost;                     /* kinds currently without a working watch */
    long refused;                 /* watches refused (403/404): their kinds stay as listed */
    char last_problem[2400];       /* the last watch failure, "" when none */
} WatchStats;
void watcher_stats(Watcher *w, WatchStats *out);

/* stops every thread (see the header comment); w is gone afterwards (NULL ok) */
void watcher_stop(Watcher *w);
#endif

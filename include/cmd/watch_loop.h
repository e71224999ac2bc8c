/* watch_loop.h — `status -w` and `pending -w`: list once, then print again when the output
 * would change, as `kubectl get -w` does.
 *
 * The cluster is loaded live (loader_cluster_load_at), shown, then kept current from the watches
 * (sources/watch.h) through model/cluster_live.h.  After each batch of changes (events that
 * arrive within WATCH_SETTLE of each other) show() runs again into a buffer, and the buffer is
 * printed only when it differs from what was printed last — a node's heartbeat or a pod's
 * status detail that changes nothing shown prints nothing.  Nothing is shown while a kind is
 * being listed again (after a lost watch).  SIGINT or SIGTERM ends the loop with EXIT_OK.
 * pending -w prints rows, not pictures (watch_loop_run_rows).
 */
#ifndef KGPU_CMD_WATCH_LOOP_H
#define KGPU_CMD_WATCH_LOOP_H
#include <stdbool.h>
#include "model/cluster.h"
#include "sources/loader.h"
#include "cmd/global_options.h"
#include "sources/watch.h"

/* Under constant change each picture costs the whole view computed again (pending: every
 * pending pod explained, 0.4 s of CPU with 5,000 of them): the next one comes at least
 * 6 times the last one's cost later (the computing then takes at most a seventh of a core;
 * applying the events and drawing come on top: a quarter of a core in all for top on the
 * full training cluster), never more than 2 s, and never sooner than least.  Used by the -w
 * views and by top. */
double watch_loop_gap(double cost, double least);

struct ApiClient;
/* prints one picture of c to stdout; api is the first load's client (for metrics), may be
 * NULL; first is true the first time.  Returns 0, or non-zero to stop with EXIT_FAIL. */
typedef int (*WatchShowFn)(void *ctx, Cluster *c, struct ApiClient *api, bool first);

/* runs until interrupted; returns the command's exit code, with err set when it failed for a
 * reason of its own (show() sets err itself).  A snapshot cannot be watched. */
struct Error;
int watch_loop_run(const GlobalOptions *g, const char *cmd, const LoadRequest *rq,
                   WatchShowFn show, void *ctx, struct Error *err);
/* the same, printing rows as kubectl get -w does when show() prints a table whose rows have keys
 * (render/table.h table_row_key): the first table whole, then only the rows that changed, were
 * added or went (their last state), without the header; with events (--output-watch-events)
 * an EVENT column first, ADDED for the first table's rows, then ADDED, MODIFIED or DELETED.
 * Output without such a table (-o json, "no pending pods") is printed whole when it changes. */
int watch_loop_run_rows(const GlobalOptions *g, const char *cmd, const LoadRequest *rq,
                        WatchShowFn show, void *ctx, bool events, struct Error *err);
/* called between two waits for events (at least every 0.25 s), outside show(), with the
 * watcher's state (e.g. how many kinds have no working watch) */
typedef void (*WatchTickFn)(void *ctx, const WatchStats *stats);
typedef struct {
    WatchTickFn tick;            /* tick(ctx, ...) as above, or NULL */
} WatchLoopExtra;
/* watch_loop_run, with x's additions (x may be NULL) */
int watch_loop_run_ex(const GlobalOptions *g, const char *cmd, const LoadRequest *rq,
                      WatchShowFn show, void *ctx, const WatchLoopExtra *x, struct Error *err);
#endif

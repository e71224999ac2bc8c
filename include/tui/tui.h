/* tui.h — the screen of `kubectl gpu top`: what it shows and how it is run.
 *
 * The command (cmd_top.c) loads and analyses; the TUI only presents.  One refresh's result is
 * a TopData: a TopShown — the GpuStatus of analysis/allocation.c (nodes, resources, the pods
 * holding GPUs, per-device usage) and the UsageData it was joined from — and a TopCluster:
 * the reduced Cluster and the explanations of its pending GPU pods (analysis/explain.c), which
 * borrow from that Cluster.  Both are shared between refreshes.
 *
 * The TopShown is made again in place: the refresh worker, holding the feed's data lock
 * (tui_feed.h feed_hold_data), drops the status and usage the screen showed and builds the
 * new ones into the same TopShown, then publishes a TopData pointing at it; the event loop
 * looks at data only with that lock held and takes the new TopData before it draws again, so
 * it never sees the TopShown half made, and the status is never held twice (at 5,000 GPU
 * nodes it is tens of MB: issue 35).  The TopCluster is changed in place the same way when
 * watch events arrive.
 *
 * Ownership: a TopData holds one reference to its TopCluster and one to its TopShown;
 * top_data_free releases both (each when its last reference goes; the counts are atomic
 * because the refresh thread and the event loop hold references at the same time).  Outside
 * the worker's data lock their contents are read-only.
 */
#ifndef KGPU_TUI_H
#define KGPU_TUI_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "analysis/allocation.h"
#include "model/cluster.h"
#include "analysis/explain.h"
#include "model/usage.h"

typedef struct TopCluster {
    Cluster cluster;
    ExplanationList pending;     /* pending GPU pods of the namespace shown (borrows cluster):
                                  * the rows of the pending pane (top_cluster_explain_pending) */
    int64_t loaded_at;           /* wall clock when the lists were read */
    atomic_int refs;
} TopCluster;

TopCluster *top_cluster_new(void);                 /* one reference, cluster initialized */
/* tc->pending made again for the pods of namespace ns (NULL all): the old rows are dropped
 * first, then the new are made by explain_pending_rows: slim (what a row and the detail pane
 * print; the explain view makes the full explanation of the pod it shows), their summaries
 * pooled in tc->pending.strings: the pods of a Job share one, and at 5,000 pending pods they
 * are 18 MB when each row has its copy (a busy verdict names the pods holding the GPUs: 8 KB) */
void top_cluster_explain_pending(TopCluster *tc, const char *ns);
TopCluster *top_cluster_ref(TopCluster *tc);
void top_cluster_unref(TopCluster *tc);            /* NULL ok */

/* the status and the metrics shown (see above) */
typedef struct TopShown {
    UsageData usage;
    GpuStatus status;            /* built from usage (and the TopCluster's cluster) */
    atomic_int refs;
} TopShown;

TopShown *top_shown_new(void);                     /* one reference, empty status and usage */
TopShown *top_shown_ref(TopShown *ts);
void top_shown_unref(TopShown *ts);                /* NULL ok */
/* empties ts for a rebuild in place: its status first (the usage goes too when drop_usage) */
void top_shown_clear(TopShown *ts, bool drop_usage);

typedef struct TopData {
    TopCluster *tc;              /* one reference */
    TopShown *shown;             /* one reference */
    const UsageData *usage;      /* &shown->usage */
    const GpuStatus *status;     /* &shown->status */
    int64_t metrics_at;          /* wall clock when the metrics were collected */
    bool watching;               /* the cluster follows watches (not periodic lists) */
    int watch_lost;              /* kinds whose watch is being re-established */
    int watch_refused;           /* kinds listed whose watch was refused (403/404): shown as listed */
    int64_t lost_since;          /* wall clock when a watch was lost (watch_lost went above 0) */
} TopData;

void top_data_free(TopData *d);                    /* frees d itself too; NULL ok */

struct Feed;
struct Error;
typedef struct {
    double interval;             /* seconds between refreshes; 0 with a snapshot */
    bool color;                  /* no --no-color, no NO_COLOR */
    const char *pending_ns;      /* -n: the namespace of the pods read, NULL = all */
    const char *snapshot;        /* --snapshot FILE, NULL live */
    int full_every;              /* refreshes per reload of the cluster lists (for the help) */
    const char *node_selector;   /* -l: the nodes read match it (the header says so), NULL = all */
} TuiOptions;

/* Runs the screen until the user quits.  Data comes from feed (TopData results).
 * 0: quit by the user (q, Esc, ^C).  -1 with err set: the terminal could not be used, or the
 * first load failed (then nothing was ever shown; the error is what the load said).
 * The terminal is restored before returning, whatever happened. */
int tui_run(const TuiOptions *o, struct Feed *feed, struct Error *err);
#endif

/* tui.h — the screen of `kubectl gpu top`: what it shows and how it is run.
 *
 * The command (cmd_top.c) loads and analyses; the TUI only presents.  One refresh's result is
 * a TopData: the GpuStatus of analysis/allocation.c (nodes, resources, the pods holding GPUs,
 * per-device usage), the UsageData it was joined from, and — shared between refreshes until
 * the cluster lists are read again — a TopCluster: the reduced Cluster and the explanations
 * of its pending GPU pods (analysis/explain.c), which borrow from that Cluster.
 *
 * Ownership: a TopData holds one reference to its TopCluster; top_data_free releases both
 * (the TopCluster when its last reference goes; the count is atomic because the refresh
 * thread and the event loop hold references at the same time).  TopCluster contents are
 * read-only once published.
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
    ExplanationList pending;     /* pending GPU pods of the namespace shown (borrows cluster) */
    int64_t loaded_at;           /* wall clock when the lists were read */
    atomic_int refs;
} TopCluster;

TopCluster *top_cluster_new(void);                 /* one reference, cluster initialized */
TopCluster *top_cluster_ref(TopCluster *tc);
void top_cluster_unref(TopCluster *tc);            /* NULL ok */

typedef struct TopData {
    TopCluster *tc;              /* one reference */
    UsageData usage;
    GpuStatus status;
    int64_t metrics_at;          /* wall clock when the metrics were collected */
    bool watching;               /* the cluster follows watches (not periodic lists) */
    int watch_lost;              /* kinds whose watch is being re-established */
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

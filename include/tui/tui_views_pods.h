/* tui_views_pods.h — the GPU pods view of `kubectl gpu top` (key p): every pod holding GPUs
 * cluster-wide in one sortable list, and under it the totals per namespace.  Every number is
 * the GpuStatus's (HolderPod counts and usage, GpuDevice idle flags) summed here, nothing new.
 */
#ifndef KGPU_TUI_VIEWS_PODS_H
#define KGPU_TUI_VIEWS_PODS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tui/tui.h"
#include "tui/tui_panel.h"

typedef enum { PSORT_GPUS, PSORT_MEM, PSORT_UTIL, PSORT_IDLE, PSORT_NS, PSORT__COUNT } PodSort;

typedef struct {
    const NodeStatus *node;
    const HolderPod *pod;
    int64_t gpus;                /* GPU resource units it holds (all names together) */
    int idle;                    /* its devices held but idle (with metrics) */
    double idle_for;             /* seconds all its devices have been idle (the trailing run of
                                  * their series under the threshold); NAN without series */
} PodRow;

typedef struct {
    char *ns;
    size_t pods;
    int64_t gpus;
    int idle;
    double mem_used_mib;         /* sum over its pods with usage; NAN when none has usage */
    double util;                 /* GPU-weighted mean over its pods with usage; NAN when none */
} NsTotal;

typedef struct {
    PodRow *rows; size_t n;      /* the pods shown, sorted */
    size_t total;                /* pods holding GPUs before the filter */
    NsTotal *ns; size_t nns;     /* per namespace of the rows shown, by GPUs held */
    Panel panel;
    PodSort sort;                /* memory, utilization and idle only with metrics */
    bool metrics;
    bool series;                 /* the metrics have series: IDLE-FOR shows */
    char *sel;                   /* "node/ns/name" of the selection, kept across rebuilds */
} PodsView;

/* whether a pod is shown (the filter); NULL = every pod */
typedef bool (*PodMatchFn)(void *ctx, const NodeStatus *n, const HolderPod *p);

const char *tui_pods_sort_name(PodSort s);
/* the rows and totals from td (NULL: empty), keeping the selection */
void pods_view_rebuild(PodsView *v, const TopData *td, PodMatchFn match, void *ctx);
/* the pods pane and the namespace pane in rows y..y+h-1 */
void pods_view_draw(PodsView *v, const TopData *td, int y, int h, int w, bool filtered);
/* movement and sorting keys; false when the key is not one of them */
bool pods_view_key(PodsView *v, int ch);
const PodRow *pods_view_selected(const PodsView *v);
void pods_view_clear(PodsView *v);
#endif

/* tui_lists.c — top's lists as shown: the GPU nodes and the pending rows the filter lets
 * through (tui_filter.c), sorted, identical waiting pods folded into one row with a count, the
 * selection kept by name; and the status line's transient message.  Below the key map
 * (tui_keys.c), the filter's editing (tui_filter_edit.c) and the event loop (tui_app.c).
 */
#include "tui/tui_app.h"
#include "util/strmap.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void app_message(App *a, const char *msg)
{
    snprintf(a->message, sizeof a->message, "%s", msg);
    a->message_until = time(NULL) + 3;
}

/* ------------------------------------------------------------------ lists */

static const GpuStatus *sort_status;     /* qsort has no context argument; the UI is one thread */
static SortKey sort_key;

static int cmp_double_desc(double x, double y)
{
    if (isnan(x) && isnan(y)) return 0;
    if (isnan(x)) return 1;
    if (isnan(y)) return -1;
    return x > y ? -1 : x < y ? 1 : 0;
}

static int node_cmp(const void *pa, const void *pb)
{
    const NodeStatus *x = &sort_status->gpu_node_list[*(const size_t *)pa];
    const NodeStatus *y = &sort_status->gpu_node_list[*(const size_t *)pb];
    int c = 0;
    switch (sort_key) {
    case SORT_ALLOC:
        c = cmp_double_desc(alloc_frac(x), alloc_frac(y));
        if (!c) c = cmp_double_desc((double)node_status_allocated(x), (double)node_status_allocated(y));
        break;
    case SORT_UTIL:
        c = cmp_double_desc(x->util, y->util);
        break;
    case SORT_IDLE:
        /* most GPUs held but idle first; then the most held (candidates to look at) */
        c = cmp_double_desc((double)x->idle_allocated, (double)y->idle_allocated);
        if (!c) c = -cmp_double_desc(x->util, y->util);
        if (!c) c = cmp_double_desc((double)node_status_allocated(x), (double)node_status_allocated(y));
        break;
    case SORT_NAME: case SORT__COUNT: break;
    }
    return c ? c : strcmp(x->name, y->name);
}

void app_rebuild_lists(App *a)
{
    free(a->nodes); free(a->pend); free(a->pend_count);
    a->nodes = a->pend = a->pend_count = NULL;
    a->nnodes = a->npend = a->npend_pods = 0;
    /* the pods view's rows only while it (or a node opened from it) shows: on a large cluster
     * they are every pod holding GPUs; otherwise none are kept (they would point into old data) */
    bool pods_shown = a->view == VIEW_PODS || (a->view == VIEW_NODE && a->back == VIEW_PODS);
    pods_view_rebuild(&a->pods, pods_shown ? a->data : NULL, tui_pod_matches, a);
    if (!a->data) { panel_set_count(&a->node_panel, 0); panel_set_count(&a->pend_panel, 0); return; }
    const GpuStatus *st = a->data->status;
    a->nodes = xcalloc(st->ngpu_node_list + 1, sizeof *a->nodes);
    for (size_t i = 0; i < st->ngpu_node_list; i++)
        if (app_node_matches(a, &st->gpu_node_list[i])) a->nodes[a->nnodes++] = i;
    sort_status = st;
    sort_key = a->sort;
    qsort(a->nodes, a->nnodes, sizeof *a->nodes, node_cmp);
    const ExplanationList *pl = &a->data->tc->pending;
    a->pend = xcalloc(pl->n + 1, sizeof *a->pend);
    a->pend_count = xcalloc(pl->n + 1, sizeof *a->pend_count);
    /* identical waiting pods (same owner, requests, verdict, reason) are one row with a count */
    StrMap *groups = strmap_new();
    for (size_t i = 0; i < pl->n; i++) {
        if (!app_pending_matches(a, &pl->items[i])) continue;
        a->npend_pods++;
        char *key = explanation_group_key(&pl->items[i]);
        size_t row = key ? (size_t)(uintptr_t)strmap_get(groups, key) : 0;
        if (row) {
            a->pend_count[row - 1]++;
        } else {
            if (key) strmap_put(groups, key, (void *)(uintptr_t)(a->npend + 1));
            a->pend_count[a->npend] = 1;
            a->pend[a->npend++] = i;
        }
        free(key);
    }
    strmap_free(groups, NULL);

    panel_set_count(&a->node_panel, a->nnodes);
    panel_set_count(&a->pend_panel, a->npend);
    for (size_t i = 0; a->sel_node && i < a->nnodes; i++)
        if (str_eq(node_at(a, i)->name, a->sel_node)) { panel_select(&a->node_panel, i); break; }
    for (size_t i = 0; a->sel_pend && i < a->npend; i++) {
        char *k = tui_pend_key(pend_at(a, i));
        bool same = str_eq(k, a->sel_pend);
        free(k);
        if (same) { panel_select(&a->pend_panel, i); break; }
    }
}

/* after the selection moved: remember it by name */
void app_remember_selection(App *a)
{
    const NodeStatus *n = node_at(a, a->node_panel.selected);
    if (n) { free(a->sel_node); a->sel_node = xstrdup(n->name); }
    const Explanation *e = pend_at(a, a->pend_panel.selected);
    if (e) { free(a->sel_pend); a->sel_pend = tui_pend_key(e); }
}

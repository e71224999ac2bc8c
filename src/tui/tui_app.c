/* tui_app.c — the event loop of `kubectl gpu top`: the header, the function bar, the key map
 * (the main screen's panes are tui_main.c, the pods view tui_views_pods.c): the data taken
 * from the feed, the lists as shown, the screens drawn.  The header and the function bar are
 * tui_bars.c, the key map tui_keys.c, the lists tui_lists.c, the filter tui_filter.c (what it
 * matches) and tui_filter_edit.c (typing it).
 *
 * Screen (80x24 and up):
 *   4 header rows     title and where the data comes from; counts; totals per GPU resource;
 *                     the status line (refreshing / last refresh failed / metrics source)
 *   node list         one row per GPU node: allocation bar, utilization and memory bars with
 *                     metrics (MIG and sharing columns without)
 *   detail pane       the selected node (or the selected pending pod's verdict)
 *   pending list      pending GPU pods with their verdicts
 *   function bar      the keys
 * Enter replaces the three panes with the node view or the explain view; ? with the help.
 *
 * The loop: take new data from the feed when there is some (selection kept by name), draw,
 * wait up to 200 ms for a key.  Nothing here blocks longer than that; loading is the feed's.
 * Every screen is drawn from the current TopData each time, so a refresh, a resize or a new
 * filter never leaves stale text behind.
 */
#include "tui/tui_app.h"
#include "render/status.h"
#include "util/error.h"
#include "model/labels.h"
#include "util/strmap.h"
#include "tui/tui_feed.h"
#include "tui/tui_panel.h"
#include "tui/tui_screen.h"
#include "tui/tui_text.h"
#include "tui/tui_views.h"
#include "tui/tui_views_pods.h"
#include <ctype.h>
#include <curses.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* ------------------------------------------------------------------ helpers */

static const NodeStatus *find_node(const App *a, const char *name)
{
    if (!a->data || !name) return NULL;
    const GpuStatus *st = a->data->status;
    for (size_t i = 0; i < st->ngpu_node_list; i++)
        if (str_eq(st->gpu_node_list[i].name, name)) return &st->gpu_node_list[i];
    return NULL;
}

static void full_clear(App *a)
{
    if (!a->full_tc) return;
    explanation_clear(&a->full);
    top_cluster_unref(a->full_tc);
    a->full_tc = NULL;
    a->full_src = NULL;
}

/* e with its fixes: computed for the one pod the explain view shows, kept while it shows it */
static const Explanation *full_explanation(App *a, const Explanation *e)
{
    if (!e || !e->pod || !a->data) return e;        /* an owner not created: its fixes are there */
    if (a->full_tc == a->data->tc && a->full_src == e) return &a->full;
    full_clear(a);
    explain_pod(&a->data->tc->cluster, e->pod, &a->full);
    a->full_tc = top_cluster_ref(a->data->tc);
    a->full_src = e;
    return &a->full;
}

static const Explanation *find_pending(const App *a, const char *ns, const char *name)
{
    if (!a->data || !ns || !name) return NULL;
    const ExplanationList *l = &a->data->tc->pending;
    for (size_t i = 0; i < l->n; i++)
        if (str_eq(l->items[i].ns, ns) && str_eq(l->items[i].name, name)) return &l->items[i];
    return NULL;
}

/* ------------------------------------------------------------------ screens */

static void draw_doc(App *a, const char *title, TextDoc *d, size_t *top)
{
    int y = HEADER_ROWS, rows = LINES - 1 - HEADER_ROWS - 1;
    if (rows < 1) return;
    tui_screen_fill(y, 0, COLS, TA_PANE_FOCUS);
    size_t max_top = d->n > (size_t)rows ? d->n - (size_t)rows : 0;
    if (*top > max_top) *top = max_top;
    int pw = 0;
    if (d->n > (size_t)rows) {
        char pos[48];
        snprintf(pos, sizeof pos, "lines %zu-%zu of %zu ", *top + 1, *top + (size_t)rows, d->n);
        pw = screen_width(pos);
        tui_screen_put(y, COLS - pw, pw, TA_PANE_FOCUS, pos);
    }
    tui_screen_put_cut(y, 1, COLS - 2 - (pw ? pw + 1 : 0), TA_PANE_FOCUS, title);
    tui_text_draw(d, y + 1, 1, rows, COLS - 2, *top);
    for (int r = 1; r <= rows; r++) tui_screen_put(y + r, 0, 1, TA_NORMAL, " ");
    a->view_rows = rows;
    a->view_lines = d->n;
}

static void draw(App *a)
{
    if (tui_screen_too_small(TUI_MIN_COLS, TUI_MIN_LINES)) return;
    erase();
    app_draw_header(a);
    if (a->help) {
        TextDoc d;
        tui_doc_init(&d, COLS - 2);
        tui_view_help(&d, &tui_app_keymap, !a->opt->snapshot, a->opt->interval, a->opt->full_every);
        draw_doc(a, "HELP", &d, &a->help_top);
        text_clear(&d);
    } else if (a->view == VIEW_NODE && a->data) {
        TextDoc d;
        tui_doc_init(&d, COLS - 2);
        tui_view_node(&d, a->data, find_node(a, a->view_node), a->view_node);
        char *t = xasprintf("NODE %s", a->view_node);
        draw_doc(a, t, &d, &a->view_top);
        free(t);
        text_clear(&d);
    } else if (a->view == VIEW_EXPLAIN && a->data) {
        TextDoc d;
        tui_doc_init(&d, COLS - 2);
        tui_view_explain(&d, a->data, full_explanation(a, find_pending(a, a->view_ns, a->view_pod)), a->view_ns,
                     a->view_pod);
        char *t = xasprintf("EXPLAIN %s/%s", a->view_ns, a->view_pod);
        draw_doc(a, t, &d, &a->view_top);
        free(t);
        text_clear(&d);
    } else if (a->view == VIEW_QUEUES && a->data) {
        TextDoc d;
        tui_doc_init(&d, COLS - 2);
        status_queues_doc(&d, a->data->status, (size_t)(COLS - 2));
        draw_doc(a, "QUEUES", &d, &a->view_top);
        text_clear(&d);
    } else if (a->view == VIEW_PODS) {
        pods_view_draw(&a->pods, a->data, HEADER_ROWS, LINES - 1 - HEADER_ROWS, COLS, a->filter && *a->filter);
    } else {
        tui_main_draw(a);
    }
    app_draw_fbar(a);
    refresh();
}

/* ------------------------------------------------------------------ run */

/* the newest data, when there is any (with the feed's data lock held) */
static void take_data(App *a, Feed *feed)
{
    TopData *nd = feed_take(feed);
    if (!nd) return;
    /* a watched cluster changes in place (same TopCluster): the explain view's explanation
     * borrows from it and is made again */
    full_clear(a);
    bool first = !a->data;
    top_data_free(a->data);
    a->data = nd;
    app_rebuild_lists(a);
    if (first) app_remember_selection(a);
}

int tui_run(const TuiOptions *o, Feed *feed, Error *err)
{
    if (tui_screen_open(o->color, err) < 0) return -1;
    App a;
    memset(&a, 0, sizeof a);
    a.opt = o;
    a.feed = feed;
    a.focus = PANE_NODES;
    int rc = 0;
    for (;;) {
        if (tui_screen_quit_signal()) break;
        /* the data is looked at with the feed's data lock held (tui_feed.h) */
        feed_data_lock(feed);
        take_data(&a, feed);
        feed_status(feed, &a.fs);
        if (!a.data && a.fs.failed) {
            feed_data_unlock(feed);
            error_set(err, "%s", a.fs.error);
            rc = -1;
            break;
        }
        draw(&a);
        feed_data_unlock(feed);
        int ch = tui_screen_getkey();
        if (ch < 0) continue;
        feed_data_lock(feed);
        take_data(&a, feed);
        bool go_on = app_handle_key(&a, ch);
        feed_data_unlock(feed);
        if (!go_on) break;
    }
    tui_screen_close();
    top_data_free(a.data);
    full_clear(&a);
    free(a.nodes); free(a.pend); free(a.pend_count);
    free(a.filter); free(a.filter_before);
    label_selector_clear(&a.sel);
    strbuf_clear(&a.edit);
    free(a.sel_node); free(a.sel_pend);
    free(a.view_node); free(a.view_ns); free(a.view_pod);
    pods_view_clear(&a.pods);
    return rc;
}

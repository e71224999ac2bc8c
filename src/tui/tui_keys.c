/* tui_keys.c — top's keys: one table (tui_app_keymap, tui_keymap.h), each row a binding with the
 * views where it acts, its action, its help line and its function-bar label; dispatch, the
 * function bar (tui_bars.c) and the help (tui_views.c) are made from it.  While the filter is
 * typed (KV_EDIT) a key of no row is text of the filter (tui_filter.c).
 */
#include "tui/tui_app.h"
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const sort_names[SORT__COUNT] = { "name", "allocation", "utilization", "idle" };

unsigned app_view_bit(const App *a)
{
    if (a->editing) return KV_EDIT;
    if (a->help) return KV_HELP;
    switch (a->view) {
    case VIEW_NODE: case VIEW_QUEUES: return KV_NODE;    /* a document: scroll, back */
    case VIEW_EXPLAIN: return KV_EXPLAIN;
    case VIEW_PODS: return KV_PODS;
    default: return KV_MAIN;
    }
}

/* ------------------------------------------------------------------ actions */

static KeyActResult act_move(void *ctx, int ch)
{
    App *a = ctx;
    if (a->view == VIEW_PODS) pods_view_key(&a->pods, ch);
    else panel_key(a->focus == PANE_NODES ? &a->node_panel : &a->pend_panel, ch);
    return KEY_ACT_DONE;
}

static KeyActResult act_scroll(void *ctx, int ch)
{
    App *a = ctx;
    size_t *top = a->help ? &a->help_top : &a->view_top;
    size_t rows = a->view_rows > 1 ? (size_t)a->view_rows : 1;
    size_t max_top = a->view_lines > rows ? a->view_lines - rows : 0;
    switch (ch) {
    case KEY_UP: case 'k': if (*top) (*top)--; break;
    case KEY_DOWN: case 'j': if (*top < max_top) (*top)++; break;
    case KEY_PPAGE: case 'b': *top = *top > rows - 1 ? *top - (rows - 1) : 0; break;
    case KEY_NPAGE: case ' ': *top += rows - 1; if (*top > max_top) *top = max_top; break;
    case KEY_HOME: case 'g': *top = 0; break;
    case KEY_END: case 'G': *top = max_top; break;
    default: break;
    }
    return KEY_ACT_DONE;
}

static KeyActResult act_pane(void *ctx, int ch)
{
    App *a = ctx;
    (void)ch;
    a->focus = a->focus == PANE_NODES ? PANE_PENDING : PANE_NODES;
    return KEY_ACT_DONE;
}

static void open_node(App *a, const char *name, ViewId back)
{
    free(a->view_node);
    a->view_node = xstrdup(name);
    a->view = VIEW_NODE;
    a->back = back;
    a->view_top = 0;
}

/* the selected node or pending pod of the main screen; the node of the pods view's pod */
static KeyActResult act_open(void *ctx, int ch)
{
    App *a = ctx;
    (void)ch;
    if (a->view == VIEW_PODS) {
        const PodRow *r = pods_view_selected(&a->pods);
        if (r) open_node(a, r->node->name, VIEW_PODS);
        return KEY_ACT_DONE;
    }
    if (!a->data) return KEY_ACT_DONE;
    if (a->focus == PANE_NODES) {
        const NodeStatus *n = node_at(a, a->node_panel.selected);
        if (n) open_node(a, n->name, VIEW_MAIN);
        return KEY_ACT_DONE;
    }
    const Explanation *e = pend_at(a, a->pend_panel.selected);
    if (!e) return KEY_ACT_DONE;
    free(a->view_ns); free(a->view_pod);
    a->view_ns = xstrdup(e->ns);
    a->view_pod = xstrdup(e->name);
    a->view = VIEW_EXPLAIN;
    a->view_top = 0;
    return KEY_ACT_DONE;
}

static KeyActResult act_filter(void *ctx, int ch)
{
    (void)ch;
    app_start_filter(ctx);
    return KEY_ACT_DONE;
}

static KeyActResult act_filter_apply(void *ctx, int ch)
{
    (void)ch;
    app_filter_apply(ctx);
    return KEY_ACT_DONE;
}

static KeyActResult act_filter_cancel(void *ctx, int ch)
{
    (void)ch;
    app_filter_cancel(ctx);
    return KEY_ACT_DONE;
}

static KeyActResult act_filter_edit(void *ctx, int ch)
{
    app_filter_key(ctx, ch);
    return KEY_ACT_DONE;
}

/* s forwards, S backwards: the nodes, or the pods of the pods view */
static KeyActResult act_sort(void *ctx, int ch)
{
    App *a = ctx;
    if (a->view == VIEW_PODS) { pods_view_key(&a->pods, ch); return KEY_ACT_DONE; }
    a->sort = (SortKey)((a->sort + (ch == 'S' ? SORT__COUNT - 1 : 1)) % SORT__COUNT);
    app_rebuild_lists(a);
    return KEY_ACT_DONE;
}

static void back_to_main(App *a)
{
    a->view = VIEW_MAIN;
    a->back = VIEW_MAIN;
    app_rebuild_lists(a);             /* the pods view's rows are let go */
}

/* p opens the pods view and closes it */
static KeyActResult act_pods(void *ctx, int ch)
{
    App *a = ctx;
    (void)ch;
    if (a->view == VIEW_PODS) { back_to_main(a); return KEY_ACT_DONE; }
    a->view = VIEW_PODS;
    app_rebuild_lists(a);
    return KEY_ACT_DONE;
}

/* Q opens the batch queues' view (a document; q goes back) */
static KeyActResult act_queues(void *ctx, int ch)
{
    App *a = ctx;
    (void)ch;
    a->view = VIEW_QUEUES;
    a->back = VIEW_MAIN;
    a->view_top = 0;
    return KEY_ACT_DONE;
}

static KeyActResult act_refresh(void *ctx, int ch)
{
    App *a = ctx;
    (void)ch;
    if (a->opt->snapshot) { app_message(a, "refresh is disabled: the data is a snapshot (--snapshot)"); return KEY_ACT_DONE; }
    feed_refresh_now(a->feed);        /* the busy indicator says the rest */
    a->message_until = 0;
    return KEY_ACT_DONE;
}

static KeyActResult act_help(void *ctx, int ch)
{
    App *a = ctx;
    (void)ch;
    a->help = true;
    a->help_top = 0;
    return KEY_ACT_DONE;
}

static KeyActResult act_help_close(void *ctx, int ch)
{
    App *a = ctx;
    (void)ch;
    a->help = false;
    return KEY_ACT_DONE;
}

/* from the pods view to the main screen; from the node view to where it was opened from */
static KeyActResult act_back(void *ctx, int ch)
{
    App *a = ctx;
    (void)ch;
    if (a->view == VIEW_PODS) back_to_main(a);
    else a->view = a->view == VIEW_NODE ? a->back : VIEW_MAIN;
    return KEY_ACT_DONE;
}

static KeyActResult act_quit(void *ctx, int ch)
{
    (void)ctx; (void)ch;
    return KEY_ACT_QUIT;
}

/* Esc on the main screen: clears the filter first, then quits */
static KeyActResult act_escape(void *ctx, int ch)
{
    App *a = ctx;
    (void)ch;
    if (!a->filter) return KEY_ACT_QUIT;
    app_set_filter(a, NULL);
    return KEY_ACT_DONE;
}

/* ------------------------------------------------------------------ bar labels */

static const char *label_open(const void *ctx, char *buf, size_t n)
{
    const App *a = ctx;
    (void)buf; (void)n;
    return a->view == VIEW_MAIN && a->focus == PANE_PENDING ? "Explain" : "Node";
}

static const char *label_filter(const void *ctx, char *buf, size_t n)
{
    const App *a = ctx;
    if (!a->filter || !*a->filter) return "Filter";
    if (screen_width(a->filter) > 16) snprintf(buf, n, "Filter:%.15s%s", a->filter, ellipsis());
    else snprintf(buf, n, "Filter:%s", a->filter);
    return buf;
}

static const char *label_sort(const void *ctx, char *buf, size_t n)
{
    const App *a = ctx;
    snprintf(buf, n, "Sort:%s", a->view == VIEW_PODS ? tui_pods_sort_name(a->pods.sort) : sort_names[a->sort]);
    return buf;
}

/* ------------------------------------------------------------------ the table */

#define MOVE_KEYS KEY_UP, KEY_DOWN, 'k', 'j', KEY_PPAGE, KEY_NPAGE, KEY_HOME, KEY_END, 'g', 'G'
#define BACK_KEYS 'q', 27, KEY_LEFT, 'h'
#define KV_DOCS (KV_NODE | KV_EXPLAIN)
#define KV_ALL (KV_MAIN | KV_PODS | KV_DOCS)

/* In the order of the function bar and the help */
static const KeyBinding app_keys[] = {
    { { MOVE_KEYS }, KV_MAIN | KV_PODS, act_move,
      "Up/Down j/k", "move the selection (PgUp/PgDn, Home/End g/G: further)", 0, NULL, NULL, NULL, NULL },
    { { MOVE_KEYS, 'b', ' ' }, KV_DOCS | KV_HELP, act_scroll,
      "Up/Down j/k", "scroll the text (PgUp/PgDn b/Space, Home/End g/G: further)",
      KV_DOCS, "↑↓", "Up/Dn", "Scroll", NULL },
    { { '\n', '\r', KEY_ENTER, KEY_RIGHT, 'l' }, KV_MAIN | KV_PODS, act_open,
      "Enter", "open the selected node (GPUs, MIG devices, slots, pods) or explain the pending pod",
      KV_MAIN | KV_PODS, "Enter", NULL, NULL, label_open },
    { { '\t', KEY_BTAB }, KV_MAIN, act_pane,
      "Tab", "switch between the node list and the pending pods", KV_MAIN, "Tab", NULL, "Pane", NULL },
    { { '/' }, KV_MAIN | KV_PODS, act_filter,
      "/", "filter by name or label: type, Enter applies, Esc cancels; empty clears",
      KV_MAIN | KV_PODS, "/", NULL, NULL, label_filter },
    /* while the filter is typed (its help is the line of /): any other key is text */
    { { '\n', '\r', KEY_ENTER }, KV_EDIT, act_filter_apply, "/", "Enter applies the filter typed",
      KV_EDIT, "Enter", NULL, "Apply", NULL },
    { { 27 }, KV_EDIT, act_filter_cancel, "/", "Esc goes back to the filter before", KV_EDIT, "Esc", NULL, "Cancel", NULL },
    { { KEY_BACKSPACE, 127, 8, 21 }, KV_EDIT, act_filter_edit, "/", "Backspace erases a character, Ctrl-U the line",
      0, NULL, NULL, NULL, NULL },
    { { 's', KEY_F(6), 'S' }, KV_MAIN | KV_PODS, act_sort,
      "s S", "sort nodes: name, allocation, utilization, idle (held but unused GPUs); S backwards",
      KV_MAIN | KV_PODS, "s", NULL, NULL, label_sort },
    { { 'p' }, KV_MAIN | KV_PODS, act_pods,
      "p", "the GPU pods view: every pod holding GPUs, with the totals per namespace; s sorts it by GPUs, "
           "memory, utilization, idle time (IDLE-FOR, from Prometheus history; else idle devices) or namespace",
      KV_MAIN, "p", NULL, "Pods", NULL },
    { { 'Q' }, KV_MAIN, act_queues,
      "Q", "the batch queues: per Kueue ClusterQueue, Volcano or KAI Queue the GPUs nominal, borrowed, used and "
           "pending (their waiting workloads are in the pending list)", 0, NULL, NULL, NULL, NULL },
    { { 'r', KEY_F(5) }, KV_ALL, act_refresh,
      "r", "refresh now (the metrics; the cluster follows watches, or is listed again when they cannot start)", KV_ALL, "r", NULL, "Refresh", NULL },
    { { '?', KEY_F(1) }, KV_ALL, act_help, "?", "this help", KV_ALL, "?", NULL, "Help", NULL },
    { { '?', KEY_F(1), BACK_KEYS }, KV_HELP, act_help_close,
      "?", "this help (q, Esc or ? again: back)", KV_HELP, "q", NULL, "Back", NULL },
    { { BACK_KEYS, KEY_BACKSPACE }, KV_PODS | KV_DOCS, act_back,
      "q Esc", "back; on the main screen quit (Esc first clears a filter)", KV_PODS | KV_DOCS, "q", NULL, "Back", NULL },
    { { 'q', KEY_F(10) }, KV_MAIN, act_quit,
      "q Esc", "quit", KV_MAIN, "q", NULL, "Quit", NULL },
    { { 27 }, KV_MAIN, act_escape, "q Esc", "clear the filter; without one quit", 0, NULL, NULL, NULL, NULL },
    { { 0 }, 0, NULL, "Ctrl-C", "quit", 0, NULL, NULL, NULL, NULL },   /* SIGINT (cbreak, tui_screen.c) */
};

const KeyMap tui_app_keymap = { app_keys, sizeof app_keys / sizeof *app_keys };

/* false: quit */
bool app_handle_key(App *a, int ch)
{
    if (ch == KEY_RESIZE) { clear(); return true; }
    unsigned view = app_view_bit(a);
    bool found;
    if (keymap_dispatch(&tui_app_keymap, view, ch, a, &found) == KEY_ACT_QUIT) return false;
    if (view == KV_EDIT && !found) app_filter_key(a, ch);    /* the text of the filter */
    if (view == KV_MAIN) app_remember_selection(a);      /* the selection, kept by name */
    return true;
}

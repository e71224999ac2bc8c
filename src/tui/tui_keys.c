/* tui_keys.c — top's key map: the help, refresh, the drill-down views (scrolling, back), the
 * pods view, and on the main screen the panes' movement, Tab, Enter, sorting and the filter.
 */
#include "tui/tui_app.h"
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ keys */

static void refresh_now(App *a)
{
    if (a->opt->snapshot) { app_message(a, "refresh is disabled: the data is a snapshot (--snapshot)"); return; }
    feed_refresh_now(a->feed);        /* the busy indicator says the rest */
    a->message_until = 0;
}



static void open_selected(App *a)
{
    if (!a->data) return;
    if (a->focus == PANE_NODES) {
        const NodeStatus *n = node_at(a, a->node_panel.selected);
        if (!n) return;
        free(a->view_node);
        a->view_node = xstrdup(n->name);
        a->view = VIEW_NODE;
        a->back = VIEW_MAIN;
    } else {
        const Explanation *e = pend_at(a, a->pend_panel.selected);
        if (!e) return;
        free(a->view_ns); free(a->view_pod);
        a->view_ns = xstrdup(e->ns);
        a->view_pod = xstrdup(e->name);
        a->view = VIEW_EXPLAIN;
    }
    a->view_top = 0;
}

static void scroll_doc(App *a, size_t *top, int ch)
{
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
}


/* the pods view: moving, sorting, Enter opens the pod's node, / filters, q / Esc back */
static bool pods_key(App *a, int ch)
{
    if (pods_view_key(&a->pods, ch)) return true;
    const PodRow *r;
    switch (ch) {
    case 'q': case 27: case KEY_LEFT: case 'h': case KEY_BACKSPACE: case 'p':
        a->view = VIEW_MAIN;
        a->back = VIEW_MAIN;
        app_rebuild_lists(a);             /* the pods view's rows are let go */
        break;
    case '/': app_start_filter(a); break;
    case '\n': case '\r': case KEY_ENTER: case KEY_RIGHT: case 'l':
        r = pods_view_selected(&a->pods);
        if (!r) break;
        free(a->view_node);
        a->view_node = xstrdup(r->node->name);
        a->view = VIEW_NODE;
        a->back = VIEW_PODS;
        a->view_top = 0;
        break;
    default: break;
    }
    return true;
}

/* false: quit */
bool app_handle_key(App *a, int ch)
{
    if (ch == KEY_RESIZE) { clear(); return true; }
    if (a->editing) { app_filter_key(a, ch); return true; }
    if (a->help) {
        if (ch == 'q' || ch == 27 || ch == '?' || ch == KEY_F(1) || ch == KEY_LEFT || ch == 'h') a->help = false;
        else scroll_doc(a, &a->help_top, ch);
        return true;
    }
    if (ch == '?' || ch == KEY_F(1)) { a->help = true; a->help_top = 0; return true; }
    if (ch == 'r' || ch == KEY_F(5)) { refresh_now(a); return true; }
    if (a->view == VIEW_PODS) return pods_key(a, ch);
    if (a->view != VIEW_MAIN) {
        if (ch == 'q' || ch == 27 || ch == KEY_LEFT || ch == 'h' || ch == KEY_BACKSPACE)
            a->view = a->view == VIEW_NODE ? a->back : VIEW_MAIN;
        else scroll_doc(a, &a->view_top, ch);
        return true;
    }
    Panel *p = a->focus == PANE_NODES ? &a->node_panel : &a->pend_panel;
    if (panel_key(p, ch)) { app_remember_selection(a); return true; }
    switch (ch) {
    case 'q': case KEY_F(10): return false;
    case 27:
        if (a->filter) { app_set_filter(a, NULL); return true; }
        return false;
    case '\t': case KEY_BTAB:
        a->focus = a->focus == PANE_NODES ? PANE_PENDING : PANE_NODES;
        break;
    case '\n': case '\r': case KEY_ENTER: case KEY_RIGHT: case 'l':
        open_selected(a);
        break;
    case '/': app_start_filter(a); break;
    case 'p':
        a->view = VIEW_PODS;
        app_rebuild_lists(a);
        break;
    case 's': case KEY_F(6):
        a->sort = (SortKey)((a->sort + 1) % SORT__COUNT);
        app_rebuild_lists(a);
        break;
    case 'S':
        a->sort = (SortKey)((a->sort + SORT__COUNT - 1) % SORT__COUNT);
        app_rebuild_lists(a);
        break;
    default: break;
    }
    app_remember_selection(a);
    return true;
}

/* tui_app.h — what the event loop of `kubectl gpu top` (tui_app.c) shares with the main
 * screen's panes (tui_main.c), the header and function bar (tui_bars.c), the key map
 * (tui_keys.c), the lists (tui_lists.c) and the filter (tui_filter.c, tui_filter_edit.c): the
 * App state, the small accessors of its lists and the functions they call across.  Private to
 * src/tui.
 */
#ifndef KGPU_TUI_APP_H
#define KGPU_TUI_APP_H
#include <math.h>
#include <time.h>
#include "model/labels.h"
#include "tui/tui.h"
#include "tui/tui_feed.h"
#include "tui/tui_keymap.h"
#include "tui/tui_panel.h"
#include "tui/tui_screen.h"
#include "tui/tui_views_pods.h"

#define HEADER_ROWS 4

typedef enum { PANE_NODES, PANE_PENDING } PaneId;
typedef enum { VIEW_MAIN, VIEW_NODE, VIEW_EXPLAIN, VIEW_PODS, VIEW_QUEUES } ViewId;
/* the views as bits of the key table (tui_keymap.h); KV_HELP: the help over any of them;
 * KV_EDIT: the filter being typed */
enum { KV_MAIN = 1, KV_NODE = 2, KV_EXPLAIN = 4, KV_PODS = 8, KV_HELP = 16, KV_EDIT = 32 };
typedef enum { SORT_NAME, SORT_ALLOC, SORT_UTIL, SORT_IDLE, SORT__COUNT } SortKey;

typedef struct {
    const TuiOptions *opt;
    Feed *feed;
    TopData *data;
    FeedStatus fs;
    /* the lists as shown: indices into status.gpu_node_list / tc->pending.items */
    size_t *nodes, nnodes;
    size_t *pend, npend;
    size_t *pend_count;          /* parallel to pend: the identical waiting pods a row stands for */
    size_t npend_pods;           /* pods the pending rows stand for */
    /* the explain view's pod with its fixes (the list is made without them): borrows full_tc */
    Explanation full;
    TopCluster *full_tc;
    const Explanation *full_src;
    Panel node_panel, pend_panel;
    PaneId focus;
    SortKey sort;
    /* filter: applied text, its selector form, the text being typed */
    char *filter;
    LabelSelector sel;
    bool sel_mode;
    bool editing;
    Strbuf edit;
    char *filter_before;
    /* selection kept across refreshes, sorting and filtering */
    char *sel_node, *sel_pend;
    /* drill-down */
    ViewId view;
    ViewId back;                 /* where q goes from the node view: the main screen or the pods */
    PodsView pods;
    char *view_node, *view_ns, *view_pod;
    size_t view_top;
    bool help;
    size_t help_top;
    int view_rows;               /* rows of the last drawn view, for paging */
    size_t view_lines;
    /* a transient message in the status line */
    char message[200];
    time_t message_until;
} App;

enum { TUI_MIN_COLS = 80, TUI_MIN_LINES = 24 };

static inline const char *ellipsis(void) { return tui_screen_utf8() ? "…" : "..."; }
static inline const NodeStatus *node_at(const App *a, size_t i)
{
    return i < a->nnodes ? &a->data->status->gpu_node_list[a->nodes[i]] : NULL;
}

static inline const Explanation *pend_at(const App *a, size_t i)
{
    return i < a->npend ? &a->data->tc->pending.items[a->pend[i]] : NULL;
}

static inline size_t pend_count_at(const App *a, size_t i)
{
    return i < a->npend && a->pend_count ? a->pend_count[i] : 1;
}

static inline double alloc_frac(const NodeStatus *n)
{
    int64_t total = node_status_allocatable(n);
    return total > 0 ? (double)node_status_allocated(n) / (double)total : NAN;
}

static inline TuiAttr pick(TuiAttr a, bool sel, bool focused)
{
    if (!sel) return a;
    return focused ? TA_SELECTED : TA_SELECTED_BLUR;
}

/* the main screen: node list, detail pane, pending list (tui_main.c) */
void tui_main_draw(App *a);

/* tui_lists.c: a message in the status line for 3 s; the lists as shown, made again from the
 * data, the filter and the sort (selection kept by name); the selection remembered by name */
void app_message(App *a, const char *msg);
void app_rebuild_lists(App *a);
void app_remember_selection(App *a);
/* tui_filter.c: what the filter lets through; "ns/name" of a pending row (the caller frees it) */
bool app_node_matches(const App *a, const NodeStatus *n);
bool tui_pod_matches(void *ctx, const NodeStatus *n, const HolderPod *p);
bool app_pending_matches(const App *a, const Explanation *e);
char *tui_pend_key(const Explanation *e);
/* tui_filter_edit.c: the filter applied (NULL: none); while it is typed: a key that edits it
 * (Backspace, ^U, a character), Enter applying it, Esc going back to the filter before; typing
 * it begins */
void app_set_filter(App *a, const char *f);
void app_filter_key(App *a, int ch);
void app_filter_apply(App *a);
void app_filter_cancel(App *a);
void app_start_filter(App *a);
/* tui_bars.c: the 4 header rows and the function bar */
void app_draw_header(App *a);
void app_draw_fbar(App *a);
/* tui_keys.c: one key; false = quit.  The key table of top, whence the dispatch, the function
 * bar and the help; the view shown as its bit */
bool app_handle_key(App *a, int ch);
extern const KeyMap tui_app_keymap;
unsigned app_view_bit(const App *a);
#endif

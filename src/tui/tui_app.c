/* tui_app.c — the event loop of `kubectl gpu top`: layout, the main screen, the key map.
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
#include "tui/tui.h"
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

#define HEADER_ROWS 4

typedef enum { PANE_NODES, PANE_PENDING } PaneId;
typedef enum { VIEW_MAIN, VIEW_NODE, VIEW_EXPLAIN, VIEW_PODS } ViewId;
typedef enum { SORT_NAME, SORT_ALLOC, SORT_UTIL, SORT_IDLE, SORT__COUNT } SortKey;
static const char *const sort_names[SORT__COUNT] = { "name", "allocation", "utilization", "idle" };

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

/* ------------------------------------------------------------------ helpers */

static const char *ellipsis(void) { return screen_utf8() ? "…" : "..."; }

static void app_message(App *a, const char *msg)
{
    snprintf(a->message, sizeof a->message, "%s", msg);
    a->message_until = time(NULL) + 3;
}

static const NodeStatus *node_at(const App *a, size_t i)
{
    return i < a->nnodes ? &a->data->status.gpu_node_list[a->nodes[i]] : NULL;
}

static const Explanation *pend_at(const App *a, size_t i)
{
    return i < a->npend ? &a->data->tc->pending.items[a->pend[i]] : NULL;
}

static const NodeStatus *find_node(const App *a, const char *name)
{
    if (!a->data || !name) return NULL;
    const GpuStatus *st = &a->data->status;
    for (size_t i = 0; i < st->ngpu_node_list; i++)
        if (str_eq(st->gpu_node_list[i].name, name)) return &st->gpu_node_list[i];
    return NULL;
}

static size_t pend_count_at(const App *a, size_t i)
{
    return i < a->npend && a->pend_count ? a->pend_count[i] : 1;
}

static void full_clear(App *a)
{
    if (!a->full_tc) return;
    explanation_free(&a->full);
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

static char *pend_key(const Explanation *e) { return xasprintf("%s/%s", e->ns, e->name); }

static double alloc_frac(const NodeStatus *n)
{
    int64_t total = node_status_allocatable(n);
    return total > 0 ? (double)node_status_allocated(n) / (double)total : NAN;
}

static TuiAttr pick(TuiAttr a, bool sel, bool focused)
{
    if (!sel) return a;
    return focused ? TA_SELECTED : TA_SELECTED_BLUR;
}

/* ------------------------------------------------------------------ filter */

static bool contains_ci(const char *hay, const char *needle)
{
    if (!hay) return false;
    size_t n = strlen(needle);
    if (!n) return true;
    for (const char *p = hay; *p; p++)
        if (strncasecmp(p, needle, n) == 0) return true;
    return false;
}

static bool labels_contain(const KVList *l, const char *needle)
{
    for (size_t i = 0; i < l->n; i++)
        if (contains_ci(l->items[i].key, needle) || contains_ci(l->items[i].value, needle)) return true;
    return false;
}

/* key=value, key!=value, "key in (a,b)", "!key": a label selector; anything else a word */
static void filter_compile(App *a)
{
    label_selector_free(&a->sel);
    a->sel_mode = false;
    const char *f = a->filter;
    if (!f || !*f) return;
    if (!strchr(f, '=') && !strchr(f, '!') && !strstr(f, " in ") && !strstr(f, " notin ")) return;
    Error err = { .set = false };
    if (label_selector_parse(&a->sel, f, &err) == 0) {
        a->sel_mode = true;
        return;
    }
    label_selector_free(&a->sel);
    /* said, not silently taken as text: the filter then matches it as words */
    char *msg = xasprintf("bad label selector (%.120s); filtering by text", err.msg);
    app_message(a, msg);
    free(msg);
}

static bool node_matches(const App *a, const NodeStatus *n)
{
    if (!a->filter || !*a->filter) return true;
    const Node *node = cluster_find_node(&a->data->tc->cluster, n->name);
    if (a->sel_mode) return node && label_selector_matches(&a->sel, &node->labels);
    if (contains_ci(n->name, a->filter) || contains_ci(n->product, a->filter)) return true;
    /* the pods it holds, by namespace/name */
    for (size_t i = 0; i < n->npods; i++) {
        char *key = xasprintf("%s/%s", n->pods[i].ns, n->pods[i].name);
        bool m = contains_ci(key, a->filter);
        free(key);
        if (m) return true;
    }
    return node && labels_contain(&node->labels, a->filter);
}

/* the pods view: a word matches the pod's namespace/name or its node (name, product, labels);
 * a selector matches the node's labels */
static bool pod_matches(void *ctx, const NodeStatus *n, const HolderPod *p)
{
    const App *a = ctx;
    if (!a->filter || !*a->filter) return true;
    const Node *node = cluster_find_node(&a->data->tc->cluster, n->name);
    if (a->sel_mode) return node && label_selector_matches(&a->sel, &node->labels);
    char *key = xasprintf("%s/%s", p->ns, p->name);
    bool m = contains_ci(key, a->filter) || contains_ci(n->name, a->filter) || contains_ci(n->product, a->filter) ||
             (node && labels_contain(&node->labels, a->filter));
    free(key);
    return m;
}

static bool pending_matches(const App *a, const Explanation *e)
{
    if (!a->filter || !*a->filter) return true;
    if (a->sel_mode) return e->pod && label_selector_matches(&a->sel, &e->pod->labels);
    char *key = pend_key(e);
    bool m = contains_ci(key, a->filter) || contains_ci(verdict_name(e->verdict), a->filter) ||
             (e->pod && labels_contain(&e->pod->labels, a->filter));
    free(key);
    return m;
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

static void rebuild_lists(App *a)
{
    free(a->nodes); free(a->pend); free(a->pend_count);
    a->nodes = a->pend = a->pend_count = NULL;
    a->nnodes = a->npend = a->npend_pods = 0;
    pods_view_rebuild(&a->pods, a->data, pod_matches, a);
    if (!a->data) { panel_set_count(&a->node_panel, 0); panel_set_count(&a->pend_panel, 0); return; }
    const GpuStatus *st = &a->data->status;
    a->nodes = xcalloc(st->ngpu_node_list + 1, sizeof *a->nodes);
    for (size_t i = 0; i < st->ngpu_node_list; i++)
        if (node_matches(a, &st->gpu_node_list[i])) a->nodes[a->nnodes++] = i;
    sort_status = st;
    sort_key = a->sort;
    qsort(a->nodes, a->nnodes, sizeof *a->nodes, node_cmp);
    const ExplanationList *pl = &a->data->tc->pending;
    a->pend = xcalloc(pl->n + 1, sizeof *a->pend);
    a->pend_count = xcalloc(pl->n + 1, sizeof *a->pend_count);
    /* identical waiting pods (same owner, requests, verdict, reason) are one row with a count */
    StrMap *groups = strmap_new();
    for (size_t i = 0; i < pl->n; i++) {
        if (!pending_matches(a, &pl->items[i])) continue;
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
        char *k = pend_key(pend_at(a, i));
        bool same = str_eq(k, a->sel_pend);
        free(k);
        if (same) { panel_select(&a->pend_panel, i); break; }
    }
}

/* after the selection moved: remember it by name */
static void remember_selection(App *a)
{
    const NodeStatus *n = node_at(a, a->node_panel.selected);
    if (n) { free(a->sel_node); a->sel_node = xstrdup(n->name); }
    const Explanation *e = pend_at(a, a->pend_panel.selected);
    if (e) { free(a->sel_pend); a->sel_pend = pend_key(e); }
}

/* ------------------------------------------------------------------ header */

static void fmt_clock(char *out, size_t n, int64_t t)
{
    time_t tt = (time_t)t;
    struct tm tm;
    localtime_r(&tt, &tm);
    strftime(out, n, "%H:%M:%S", &tm);
}

static void draw_header(App *a)
{
    int w = COLS;
    /* row 0: what this is looking at */
    screen_fill(0, 0, w, TA_TITLE);
    Strbuf left = STRBUF_INIT, right = STRBUF_INIT;
    strbuf_adds(&left, " kubectl gpu top  ");
    const Cluster *c = a->data ? &a->data->tc->cluster : NULL;
    if (a->opt->snapshot) {
        strbuf_addf(&left, "snapshot %s", a->opt->snapshot);
        if (c) {
            char when[32];
            time_t tt = (time_t)c->now;
            struct tm tm;
            gmtime_r(&tt, &tm);
            strftime(when, sizeof when, "%Y-%m-%d %H:%MZ", &tm);
            strbuf_addf(&left, " of %s", when);
        }
        strbuf_adds(&right, "refresh disabled ");
    } else {
        if (c && c->context) strbuf_addf(&left, "context %s", c->context);
        else if (c) strbuf_adds(&left, "in-cluster");
        if (c && c->server) strbuf_addf(&left, " (%s)", c->server);
        if (a->opt->pending_ns) strbuf_addf(&left, "  -n %s", a->opt->pending_ns);
        char clock[16] = "--:--:--";
        if (a->fs.last_ok) fmt_clock(clock, sizeof clock, a->fs.last_ok);
        const TopData *d = a->data;
        if (d && d->watching && d->watch_lost)
            strbuf_addf(&right, "watch lost (%d), retrying %s ", d->watch_lost, clock);
        else if (d && d->watching)
            strbuf_addf(&right, "live (watch), changed %s ", clock);
        else
            strbuf_addf(&right, "every %gs, refreshed %s ", a->opt->interval, clock);
    }
    int rw = screen_width(strbuf_str(&right));
    if (rw > w / 2) rw = 0;
    screen_put(0, 0, w - rw - 1, TA_TITLE, strbuf_str(&left));
    if (rw) screen_put(0, w - rw, rw, TA_TITLE, strbuf_str(&right));
    strbuf_free(&left);
    strbuf_free(&right);

    /* rows 1-2: counts, then the totals per GPU resource, flowing over both rows */
    for (int y = 1; y < HEADER_ROWS; y++) screen_fill(y, 0, w, TA_NORMAL);
    if (a->data) {
        const GpuStatus *st = &a->data->status;
        Strvec labels = STRVEC_INIT, values = STRVEC_INIT;
        strvec_push(&labels, "Nodes");
        strvec_pushf(&values, "%d (%d GPU)", st->nodes, st->gpu_nodes);
        strvec_push(&labels, "GPUs");
        if (st->unknown_gpu_nodes) strvec_pushf(&values, "%d (+%d nodes ?)", st->physical_gpus, st->unknown_gpu_nodes);
        else strvec_pushf(&values, "%d", st->physical_gpus);
        strvec_push(&labels, "Pending");
        strvec_pushf(&values, "%d", st->pending_gpu_pods);
        strvec_push(&labels, "Idle");
        if (st->has_metrics) strvec_pushf(&values, "%d", st->idle_allocated_gpus);
        else strvec_push(&values, "-");
        size_t ncounts = labels.n;
        for (size_t i = 0; i < st->ntotals; i++) {
            strvec_push(&labels, view_short_resource(st->totals[i].name));
            strvec_pushf(&values, "%lld/%lld", (long long)st->totals[i].allocated, (long long)st->totals[i].allocatable);
        }
        int y = 1, x = 1;
        for (size_t i = 0; i < labels.n; i++) {
            int need = screen_width(labels.v[i]) + 1 + screen_width(values.v[i]);
            if (x > 1 && x + need > w - 1) {
                if (y == 2) { screen_put(y, x, w - x, TA_DIM, ellipsis()); break; }
                y++; x = 1;
            }
            TuiAttr va = TA_VALUE;
            if ((i == 2 && st->pending_gpu_pods) || (i == 3 && st->has_metrics && st->idle_allocated_gpus)) va = TA_WARN;
            x += screen_put(y, x, w - x, TA_LABEL, labels.v[i]);
            x += screen_put(y, x, w - x, TA_NORMAL, " ");
            x += screen_put(y, x, w - x, va, values.v[i]);
            x += 3;
            if (i + 1 == ncounts && x > 1) x += 1;
        }
        strvec_free(&labels);
        strvec_free(&values);
    }

    /* row 3: the status line */
    int y = HEADER_ROWS - 1, x = 1;
    if (a->message_until > time(NULL)) {
        screen_put(y, x, w - x, TA_WARN, a->message);
        return;
    }
    if (a->fs.busy) {
        char *s = xasprintf("%s%s %.0fs", a->data ? "refreshing" : "loading the cluster", ellipsis(), a->fs.busy_for);
        x += screen_put(y, x, w - x, TA_BUSY, s);
        x += screen_put(y, x, w - x, TA_NORMAL, "   ");
        free(s);
    }
    if (a->fs.failed && a->data) {
        char clock[16];
        fmt_clock(clock, sizeof clock, a->fs.last_ok);
        x += screen_put(y, x, w - x, TA_ERROR, "last refresh failed: ");
        char *s = xasprintf("%s (showing data of %s)", a->fs.error, clock);
        screen_put(y, x, w - x, TA_ERROR, s);
        free(s);
        return;
    }
    if (!a->data) return;
    const GpuStatus *st = &a->data->status;
    x += screen_put(y, x, w - x, TA_LABEL, "Metrics ");
    x += screen_put(y, x, w - x, st->has_metrics ? TA_OK : TA_DIM, st->metrics_source);
    if (st->metrics_detail) {
        x += screen_put(y, x, w - x, TA_DIM, ": ");
        x += screen_put(y, x, w - x, TA_DIM, st->metrics_detail);
    }
    if (st->warnings.n && x < w - 4) {
        char *s = xasprintf("   %zu warning%s: %s", st->warnings.n, st->warnings.n == 1 ? "" : "s", st->warnings.v[0]);
        screen_put(y, x, w - x, TA_WARN, s);
        free(s);
    }
}

/* ------------------------------------------------------------------ node list */

typedef struct {
    App *a;
    bool metrics;
    int name, product, mode, alloc, bar, pct, status;
} NodeCols;

static void mode_col(char *out, size_t n, const NodeStatus *ns)
{
    char *m = node_status_mode(ns);
    snprintf(out, n, "%s", m);
    free(m);
}

static void node_cols(App *a, int w, NodeCols *nc)
{
    memset(nc, 0, sizeof *nc);
    nc->a = a;
    nc->metrics = a->data && a->data->status.has_metrics;
    char title[48];
    snprintf(title, sizeof title, "NODES %zu", a->nnodes);
    nc->name = screen_width(title) + 4;
    nc->product = 7;
    nc->alloc = 5;
    for (size_t i = 0; i < a->nnodes; i++) {
        const NodeStatus *n = node_at(a, i);
        int l = screen_width(n->name);
        if (l > nc->name) nc->name = l;
        l = screen_width(n->short_product ? n->short_product : "-");
        if (l > nc->product) nc->product = l;
        char buf[48];
        snprintf(buf, sizeof buf, "%lld/%lld", (long long)node_status_allocated(n), (long long)node_status_allocatable(n));
        l = (int)strlen(buf);
        if (l > nc->alloc) nc->alloc = l;
    }
    int status_want = 6;
    for (size_t i = 0; i < a->nnodes; i++) {
        char *word = node_status_word(node_at(a, i));
        int l = screen_width(word) + (nc->metrics && node_at(a, i)->idle_allocated ? 8 : 0);
        free(word);
        if (l > status_want) status_want = l;
    }
    if (status_want > (nc->metrics ? 16 : 28)) status_want = nc->metrics ? 16 : 28;
    /* NAME and PRODUCT take the extra width of a wide terminal; cut with an ellipsis past it */
    int name_cap = w / 4 > 24 ? w / 4 : 24, product_cap = w / 8 > 16 ? w / 8 : 16;
    if (nc->name > name_cap) nc->name = name_cap;
    if (nc->product > product_cap) nc->product = product_cap;
    if (w < 72) nc->product = 0;
    if (w < 50 && nc->name > 12) nc->name = 12;
    int fixed = 1 + nc->name + 1 + (nc->product ? nc->product + 1 : 0) + nc->alloc + 1;
    if (nc->metrics) {
        nc->pct = 5;
        fixed += 1 + nc->pct + 1 + nc->pct + 1 + 1;
        nc->bar = (w - fixed - status_want) / 3;
        if (nc->bar > 20) nc->bar = 20;
        if (nc->bar < 4) nc->bar = 4;
        nc->status = w - fixed - 3 * nc->bar;
    } else {
        nc->mode = 4;
        for (size_t i = 0; i < a->nnodes; i++) {
            char m[64];
            mode_col(m, sizeof m, node_at(a, i));
            if (screen_width(m) > nc->mode) nc->mode = screen_width(m);
        }
        if (nc->mode > 16) nc->mode = 16;
        if (w < 66) nc->mode = 0;
        fixed += (nc->mode ? nc->mode + 1 : 0) + 1;
        nc->bar = w - fixed - status_want;
        if (nc->bar > 24) nc->bar = 24;
        if (nc->bar < 6) nc->bar = 6;
        nc->status = w - fixed - nc->bar;
    }
    if (nc->status < 1) nc->status = 1;
}

static void node_header(void *ctx, int y, int x, int w, bool focused)
{
    NodeCols *nc = ctx;
    App *a = nc->a;
    TuiAttr at = focused ? TA_PANE_FOCUS : TA_PANE_TITLE;
    screen_fill(y, x, w, at);
    char title[48];
    if (a->data && a->nnodes != a->data->status.ngpu_node_list)
        snprintf(title, sizeof title, "NODES %zu/%zu", a->nnodes, a->data->status.ngpu_node_list);
    else
        snprintf(title, sizeof title, "NODES %zu", a->nnodes);
    int cx = x + 1;
    const char *mark = screen_glyph(G_SORT);
    screen_putf(y, cx, nc->name, at, "%s%s", title, a->sort == SORT_NAME ? mark : "");
    cx += nc->name + 1;
    if (nc->product) { screen_put(y, cx, nc->product, at, "PRODUCT"); cx += nc->product + 1; }
    if (nc->metrics) {
        screen_putf(y, cx, nc->alloc + 1 + nc->bar, at, "ALLOC%s", a->sort == SORT_ALLOC ? mark : "");
        cx += nc->alloc + 1 + nc->bar + 1;
        screen_putf(y, cx, nc->bar + nc->pct, at, "UTIL%s", a->sort == SORT_UTIL ? mark : "");
        cx += nc->bar + nc->pct + 1;
        screen_put(y, cx, nc->bar + nc->pct, at, "MEM");
        cx += nc->bar + nc->pct + 1;
    } else {
        if (nc->mode) { screen_put(y, cx, nc->mode, at, "MODE"); cx += nc->mode + 1; }
        screen_putf(y, cx, nc->alloc + 1 + nc->bar, at, "ALLOC%s", a->sort == SORT_ALLOC ? mark : "");
        cx += nc->alloc + 1 + nc->bar + 1;
    }
    screen_putf(y, cx, x + w - cx, at, "STATUS%s", a->sort == SORT_IDLE ? "  (sort: idle)" :
                a->sort == SORT_UTIL && !nc->metrics ? "  (sort: utilization)" : "");
}

static void node_row(void *ctx, size_t i, int y, int x, int w, bool sel, bool focused)
{
    NodeCols *nc = ctx;
    const NodeStatus *n = node_at(nc->a, i);
    TuiAttr over = sel ? pick(TA_NORMAL, true, focused) : TA_NORMAL;
    int cx = x + 1;
    screen_put_cut(y, cx, nc->name, pick(TA_NORMAL, sel, focused), n->name);
    cx += nc->name + 1;
    if (nc->product) {
        screen_put_cut(y, cx, nc->product, pick(TA_NORMAL, sel, focused), n->short_product ? n->short_product : "-");
        cx += nc->product + 1;
    }
    if (!nc->metrics) {
        if (nc->mode) {
            char m[64];
            mode_col(m, sizeof m, n);
            screen_put_cut(y, cx, nc->mode, pick(str_starts_with(m, "MIG INVALID") ? TA_ERROR : TA_NORMAL, sel, focused), m);
            cx += nc->mode + 1;
        }
    }
    char buf[48];
    if (n->nres) snprintf(buf, sizeof buf, "%lld/%lld", (long long)node_status_allocated(n), (long long)node_status_allocatable(n));
    else if (n->dra.devices) snprintf(buf, sizeof buf, "%d/%d", n->dra.allocated, n->dra.devices);   /* DRA */
    else snprintf(buf, sizeof buf, "-");
    screen_putf(y, cx, nc->alloc, pick(TA_NORMAL, sel, focused), "%*s", nc->alloc, buf);
    cx += nc->alloc + 1;
    screen_bar(y, cx, nc->bar, alloc_frac(n), TA_BAR_ALLOC, over);
    cx += nc->bar + 1;
    if (nc->metrics) {
        screen_bar(y, cx, nc->bar, isnan(n->util) ? NAN : n->util / 100.0, TA_BAR_UTIL, over);
        cx += nc->bar;
        if (isnan(n->util)) snprintf(buf, sizeof buf, "    -");
        else snprintf(buf, sizeof buf, " %3.0f%%", n->util);
        screen_put(y, cx, nc->pct, pick(TA_NORMAL, sel, focused), buf);
        cx += nc->pct + 1;
        double mf = !isnan(n->mem_used_mib) && !isnan(n->mem_total_mib) && n->mem_total_mib > 0
                    ? n->mem_used_mib / n->mem_total_mib : NAN;
        screen_bar(y, cx, nc->bar, mf, TA_BAR_MEM, over);
        cx += nc->bar;
        if (isnan(mf)) snprintf(buf, sizeof buf, "    -");
        else snprintf(buf, sizeof buf, " %3.0f%%", mf * 100);
        screen_put(y, cx, nc->pct, pick(TA_NORMAL, sel, focused), buf);
        cx += nc->pct + 1;
    }
    char *word = node_status_word(n);
    Strbuf sb = STRBUF_INIT;
    strbuf_adds(&sb, word);
    if (nc->metrics && n->idle_allocated) strbuf_addf(&sb, " idle:%d", n->idle_allocated);
    screen_put_cut(y, cx, x + w - cx, pick(view_node_attr(n), sel, focused), strbuf_str(&sb));
    strbuf_free(&sb);
    free(word);
}

/* ------------------------------------------------------------------ pending list */

typedef struct { App *a; int name, gpus, verdict; } PendCols;

static char *pend_name(const Explanation *e, size_t count)
{
    if (e->created && count > 1) return xasprintf("%s/%s/%s (%zu pods)", e->ns, e->owner_kind, e->owner_name, count);
    if (e->created) return xasprintf("%s/%s", e->ns, e->name);
    return xasprintf("%s/%s/%s (not created)", e->ns, e->owner_kind ? e->owner_kind : "owner", e->name);
}

/* "nvidia.com/gpu:4,nvidia.com/mig-1g.10gb:1" -> "gpu:4,mig-1g.10gb:1"; caller frees */
static char *pend_gpus(const Explanation *e)
{
    char *g = explanation_gpus(e);
    Strbuf sb = STRBUF_INIT;
    for (const char *p = g; *p; ) {
        if (str_starts_with(p, "nvidia.com/")) { p += strlen("nvidia.com/"); continue; }
        strbuf_addch(&sb, *p++);
    }
    free(g);
    return strbuf_detach(&sb);
}

static void pend_cols(App *a, int w, PendCols *pc)
{
    pc->a = a;
    pc->name = 12;
    pc->gpus = 4;
    pc->verdict = 12;
    for (size_t i = 0; i < a->npend; i++) {
        const Explanation *e = pend_at(a, i);
        char *n = pend_name(e, pend_count_at(a, i));
        int l = screen_width(n);
        free(n);
        if (l > pc->name) pc->name = l;
        char *g = pend_gpus(e);
        l = screen_width(g);
        free(g);
        if (l > pc->gpus) pc->gpus = l;
    }
    int cap = w / 2 - 2;
    if (pc->name > cap) pc->name = cap;
    if (pc->gpus > (w / 5 > 24 ? w / 5 : 24)) pc->gpus = w / 5 > 24 ? w / 5 : 24;
    if (w < 70 && pc->gpus > 14) pc->gpus = 14;
}

static void pend_header(void *ctx, int y, int x, int w, bool focused)
{
    PendCols *pc = ctx;
    App *a = pc->a;
    TuiAttr at = focused ? TA_PANE_FOCUS : TA_PANE_TITLE;
    screen_fill(y, x, w, at);
    char title[48];
    if (a->data && a->npend_pods != a->data->tc->pending.n)
        snprintf(title, sizeof title, "PENDING %zu/%zu", a->npend_pods, a->data->tc->pending.n);
    else
        snprintf(title, sizeof title, "PENDING %zu", a->npend_pods);
    int cx = x + 1;
    screen_put(y, cx, pc->name, at, title);
    cx += pc->name + 1;
    screen_put(y, cx, pc->gpus, at, "GPUS");
    cx += pc->gpus + 1;
    screen_put(y, cx, pc->verdict, at, "VERDICT");
    cx += pc->verdict + 1;
    screen_put(y, cx, x + w - cx, at, "REASON");
}

static void pend_row(void *ctx, size_t i, int y, int x, int w, bool sel, bool focused)
{
    PendCols *pc = ctx;
    const Explanation *e = pend_at(pc->a, i);
    int cx = x + 1;
    char *n = pend_name(e, pend_count_at(pc->a, i));
    screen_put_cut(y, cx, pc->name, pick(TA_NORMAL, sel, focused), n);
    free(n);
    cx += pc->name + 1;
    char *g = pend_gpus(e);
    screen_put_cut(y, cx, pc->gpus, pick(TA_NORMAL, sel, focused), g);
    free(g);
    cx += pc->gpus + 1;
    screen_put(y, cx, pc->verdict, pick(view_verdict_attr(e->verdict), sel, focused), verdict_name(e->verdict));
    cx += pc->verdict + 1;
    screen_put_cut(y, cx, x + w - cx, pick(TA_NORMAL, sel, focused), e->summary ? e->summary : "");
}

/* ------------------------------------------------------------------ detail pane */

static void draw_detail(App *a, int y, int h, int w)
{
    if (h <= 0) return;
    TuiAttr at = TA_PANE_TITLE;
    screen_fill(y, 0, w, at);
    TextDoc d;
    text_init(&d, w - 2);
    if (a->focus == PANE_PENDING && pend_at(a, a->pend_panel.selected)) {
        const Explanation *e = pend_at(a, a->pend_panel.selected);
        char *n = pend_name(e, pend_count_at(a, a->pend_panel.selected));
        int cx = 1 + screen_put(y, 1, w - 2, at, n);
        free(n);
        screen_putf(y, cx, w - cx - 1, at, "  %s", verdict_name(e->verdict));
        text_newline(&d);
        text_wrap(&d, 0, TA_NORMAL, e->summary ? e->summary : "");
        text_newline(&d);
        text_add(&d, TA_DIM, "Enter: the full explanation with the scheduler's message, per-node reasons and fixes");
    } else if (node_at(a, a->node_panel.selected)) {
        const NodeStatus *n = node_at(a, a->node_panel.selected);
        int cx = 1 + screen_put(y, 1, w - 2, at, n->name);
        char *s = view_node_summary(n);
        screen_putf(y, cx, w - cx - 1, at, "  %s", s);
        free(s);
        view_node_detail(&d, a->data, n);
    } else {
        screen_put(y, 1, w - 2, at, "DETAIL");
    }
    int rows = h - 1;
    if ((int)d.n > rows && rows > 0) {
        /* the last row says there is more */
        text_draw(&d, y + 1, 1, rows - 1, w - 2, 0);
        screen_fill(y + rows, 0, w, TA_NORMAL);
        screen_putf(y + rows, 1, w - 2, TA_DIM, "%s %zu more lines: Enter opens the full view", ellipsis(), d.n - (size_t)(rows - 1));
    } else {
        text_draw(&d, y + 1, 1, rows, w - 2, 0);
    }
    for (int r = 1; r <= rows; r++) screen_put(y + r, 0, 1, TA_NORMAL, " ");
    text_free(&d);
}

/* ------------------------------------------------------------------ function bar */

static void draw_fbar(App *a)
{
    int y = LINES - 1, x = 0, w = COLS;
    screen_fill(y, 0, w, TA_FLABEL);
    if (a->editing) {
        x += screen_put(y, x, w - x, TA_FKEY, "Filter: ");
        x += screen_put(y, x, w - x - 28, TA_INPUT, strbuf_str(&a->edit));
        x += screen_put(y, x, w - x, TA_INPUT, "_");
        x += 2;
        x += screen_put(y, x, w - x, TA_FKEY, "Enter");
        x += screen_put(y, x, w - x, TA_FLABEL, " Apply  ");
        x += screen_put(y, x, w - x, TA_FKEY, "Esc");
        screen_put(y, x, w - x, TA_FLABEL, " Cancel ");
        return;
    }
    const char *items[8][2];
    size_t n = 0;
    char sortlbl[32], filt[48];
    snprintf(sortlbl, sizeof sortlbl, "Sort:%s", sort_names[a->sort]);
    if (a->filter && *a->filter) {
        if (screen_width(a->filter) > 16) snprintf(filt, sizeof filt, "Filter:%.15s%s", a->filter, ellipsis());
        else snprintf(filt, sizeof filt, "Filter:%s", a->filter);
    }
    else snprintf(filt, sizeof filt, "Filter");
    if (a->help) {
        items[n][0] = "q"; items[n++][1] = "Back";
    } else if (a->view == VIEW_PODS) {
        snprintf(sortlbl, sizeof sortlbl, "Sort:%s", pods_sort_name(a->pods.sort));
        items[n][0] = "Enter"; items[n++][1] = "Node";
        items[n][0] = "/"; items[n++][1] = filt;
        items[n][0] = "s"; items[n++][1] = sortlbl;
        items[n][0] = "r"; items[n++][1] = "Refresh";
        items[n][0] = "?"; items[n++][1] = "Help";
        items[n][0] = "q"; items[n++][1] = "Back";
    } else if (a->view != VIEW_MAIN) {
        items[n][0] = screen_utf8() ? "↑↓" : "Up/Dn"; items[n++][1] = "Scroll";
        items[n][0] = "r"; items[n++][1] = "Refresh";
        items[n][0] = "?"; items[n++][1] = "Help";
        items[n][0] = "q"; items[n++][1] = "Back";
    } else {
        items[n][0] = "Enter"; items[n++][1] = a->focus == PANE_NODES ? "Node" : "Explain";
        items[n][0] = "Tab"; items[n++][1] = "Pane";
        items[n][0] = "/"; items[n++][1] = filt;
        items[n][0] = "s"; items[n++][1] = sortlbl;
        items[n][0] = "p"; items[n++][1] = "Pods";
        items[n][0] = "r"; items[n++][1] = "Refresh";
        items[n][0] = "?"; items[n++][1] = "Help";
        items[n][0] = "q"; items[n++][1] = "Quit";
    }
    for (size_t i = 0; i < n && x < w; i++) {
        x += screen_put(y, x, w - x, TA_FKEY, items[i][0]);
        x += screen_put(y, x, w - x, TA_FLABEL, " ");
        x += screen_put(y, x, w - x, TA_FLABEL, items[i][1]);
        x += screen_put(y, x, w - x, TA_FLABEL, " ");
    }
}

/* ------------------------------------------------------------------ screens */

static void draw_main(App *a)
{
    int top = HEADER_ROWS, bottom = LINES - 1;      /* rows top..bottom-1 */
    int body = bottom - top;
    if (body < 3) return;
    int w = COLS;
    /* pending list: its items up to a quarter; detail: at least a fifth; nodes: their rows;
     * what is left goes to the detail pane */
    int pend_cap = body / 4 < 3 ? 3 : body / 4;
    if (pend_cap > 12) pend_cap = 12;
    int pend_h = (int)a->npend + 1;
    if (pend_h < 2) pend_h = 2;
    if (pend_h > pend_cap) pend_h = pend_cap;
    int detail_min = body >= 12 ? (body / 5 > 4 ? body / 5 : 4) : 0;
    int nodes_h = (int)a->nnodes + 1;
    if (nodes_h < 3) nodes_h = 3;
    if (nodes_h > body - pend_h - detail_min) nodes_h = body - pend_h - detail_min;
    if (nodes_h < 2) { pend_h = 0; detail_min = 0; nodes_h = body; }
    int detail_h = body - pend_h - nodes_h;

    a->node_panel.focused = a->focus == PANE_NODES;
    a->pend_panel.focused = a->focus == PANE_PENDING;
    panel_place(&a->node_panel, top, 0, nodes_h, w);
    panel_place(&a->pend_panel, top + nodes_h + detail_h, 0, pend_h, w);

    NodeCols nc;
    node_cols(a, w, &nc);
    const char *empty = !a->data ? "loading..." : a->filter && *a->filter ? "no node matches the filter"
                                                                         : "no GPU nodes";
    panel_draw(&a->node_panel, node_header, node_row, &nc, empty);
    draw_detail(a, top + nodes_h, detail_h, w);
    if (pend_h) {
        PendCols pc;
        pend_cols(a, w, &pc);
        panel_draw(&a->pend_panel, pend_header, pend_row, &pc,
                   a->data && a->data->tc->pending.n ? "no pending pod matches the filter" : "no pending GPU pods");
    }
}

/* a full-body TextDoc screen (node, explain, help) with a title row */
static void draw_doc(App *a, const char *title, TextDoc *d, size_t *top)
{
    int y = HEADER_ROWS, rows = LINES - 1 - HEADER_ROWS - 1;
    if (rows < 1) return;
    screen_fill(y, 0, COLS, TA_PANE_FOCUS);
    screen_put(y, 1, COLS - 2, TA_PANE_FOCUS, title);
    size_t max_top = d->n > (size_t)rows ? d->n - (size_t)rows : 0;
    if (*top > max_top) *top = max_top;
    if (d->n > (size_t)rows) {
        char pos[48];
        snprintf(pos, sizeof pos, "lines %zu-%zu of %zu ", *top + 1, *top + (size_t)rows, d->n);
        int pw = screen_width(pos);
        screen_put(y, COLS - pw, pw, TA_PANE_FOCUS, pos);
    }
    text_draw(d, y + 1, 1, rows, COLS - 2, *top);
    for (int r = 1; r <= rows; r++) screen_put(y + r, 0, 1, TA_NORMAL, " ");
    a->view_rows = rows;
    a->view_lines = d->n;
}

static void draw(App *a)
{
    if (screen_too_small(TUI_MIN_COLS, TUI_MIN_LINES)) return;
    erase();
    draw_header(a);
    if (a->help) {
        TextDoc d;
        text_init(&d, COLS - 2);
        view_help(&d, !a->opt->snapshot, a->opt->interval, a->opt->full_every);
        draw_doc(a, "HELP", &d, &a->help_top);
        text_free(&d);
    } else if (a->view == VIEW_NODE && a->data) {
        TextDoc d;
        text_init(&d, COLS - 2);
        view_node(&d, a->data, find_node(a, a->view_node), a->view_node);
        char *t = xasprintf("NODE %s", a->view_node);
        draw_doc(a, t, &d, &a->view_top);
        free(t);
        text_free(&d);
    } else if (a->view == VIEW_EXPLAIN && a->data) {
        TextDoc d;
        text_init(&d, COLS - 2);
        view_explain(&d, a->data, full_explanation(a, find_pending(a, a->view_ns, a->view_pod)), a->view_ns,
                     a->view_pod);
        char *t = xasprintf("EXPLAIN %s/%s", a->view_ns, a->view_pod);
        draw_doc(a, t, &d, &a->view_top);
        free(t);
        text_free(&d);
    } else if (a->view == VIEW_PODS) {
        pods_view_draw(&a->pods, a->data, HEADER_ROWS, LINES - 1 - HEADER_ROWS, COLS, a->filter && *a->filter);
    } else {
        draw_main(a);
    }
    draw_fbar(a);
    refresh();
}

/* ------------------------------------------------------------------ keys */

static void refresh_now(App *a)
{
    if (a->opt->snapshot) { app_message(a, "refresh is disabled: the data is a snapshot (--snapshot)"); return; }
    feed_refresh_now(a->feed);        /* the busy indicator says the rest */
    a->message_until = 0;
}

static void set_filter(App *a, const char *f)
{
    free(a->filter);
    a->filter = f && *f ? xstrdup(f) : NULL;
    filter_compile(a);
    rebuild_lists(a);
    remember_selection(a);
}

static void filter_key(App *a, int ch)
{
    if (ch == 27) {                                  /* Esc: back to what was applied */
        a->editing = false;
        set_filter(a, a->filter_before);
        free(a->filter_before);
        a->filter_before = NULL;
        return;
    }
    if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
        a->editing = false;
        set_filter(a, strbuf_str(&a->edit));
        free(a->filter_before);
        a->filter_before = NULL;
        return;
    }
    if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        while (a->edit.len && ((unsigned char)a->edit.buf[a->edit.len - 1] & 0xC0) == 0x80) a->edit.len--;
        if (a->edit.len) a->edit.len--;
        if (a->edit.buf) a->edit.buf[a->edit.len] = '\0';
    } else if (ch == 21) {                           /* ^U */
        strbuf_reset(&a->edit);
    } else if (ch >= 32 && ch < 256 && ch != 127 && a->edit.len < 200) {
        strbuf_addch(&a->edit, (char)ch);
    } else {
        return;
    }
    set_filter(a, strbuf_str(&a->edit));             /* the list follows what is typed */
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

static void start_filter(App *a)
{
    a->editing = true;
    free(a->filter_before);
    a->filter_before = xstrdup(a->filter);
    strbuf_reset(&a->edit);
    if (a->filter) strbuf_adds(&a->edit, a->filter);
}

/* the pods view: moving, sorting, Enter opens the pod's node, / filters, q / Esc back */
static bool pods_key(App *a, int ch)
{
    if (pods_view_key(&a->pods, ch)) return true;
    const PodRow *r;
    switch (ch) {
    case 'q': case 27: case KEY_LEFT: case 'h': case KEY_BACKSPACE: case 'p': a->view = VIEW_MAIN; break;
    case '/': start_filter(a); break;
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
static bool handle_key(App *a, int ch)
{
    if (ch == KEY_RESIZE) { clear(); return true; }
    if (a->editing) { filter_key(a, ch); return true; }
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
    switch (ch) {
    case 'q': case KEY_F(10): return false;
    case 27:
        if (a->filter) { set_filter(a, NULL); return true; }
        return false;
    case KEY_UP: case 'k': panel_move(p, -1); break;
    case KEY_DOWN: case 'j': panel_move(p, 1); break;
    case KEY_PPAGE: panel_page(p, -1); break;
    case KEY_NPAGE: panel_page(p, 1); break;
    case KEY_HOME: case 'g': panel_home(p); break;
    case KEY_END: case 'G': panel_end(p); break;
    case '\t': case KEY_BTAB:
        a->focus = a->focus == PANE_NODES ? PANE_PENDING : PANE_NODES;
        break;
    case '\n': case '\r': case KEY_ENTER: case KEY_RIGHT: case 'l':
        open_selected(a);
        break;
    case '/': start_filter(a); break;
    case 'p': a->view = VIEW_PODS; break;
    case 's': case KEY_F(6):
        a->sort = (SortKey)((a->sort + 1) % SORT__COUNT);
        rebuild_lists(a);
        break;
    case 'S':
        a->sort = (SortKey)((a->sort + SORT__COUNT - 1) % SORT__COUNT);
        rebuild_lists(a);
        break;
    default: break;
    }
    remember_selection(a);
    return true;
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
    rebuild_lists(a);
    if (first) remember_selection(a);
}

int tui_run(const TuiOptions *o, Feed *feed, Error *err)
{
    if (screen_open(o->color, err) < 0) return -1;
    App a;
    memset(&a, 0, sizeof a);
    a.opt = o;
    a.feed = feed;
    a.focus = PANE_NODES;
    int rc = 0;
    for (;;) {
        if (screen_quit_signal()) break;
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
        int ch = screen_getkey();
        if (ch < 0) continue;
        feed_data_lock(feed);
        take_data(&a, feed);
        bool go_on = handle_key(&a, ch);
        feed_data_unlock(feed);
        if (!go_on) break;
    }
    screen_close();
    top_data_free(a.data);
    full_clear(&a);
    free(a.nodes); free(a.pend); free(a.pend_count);
    free(a.filter); free(a.filter_before);
    label_selector_free(&a.sel);
    strbuf_free(&a.edit);
    free(a.sel_node); free(a.sel_pend);
    free(a.view_node); free(a.view_ns); free(a.view_pod);
    pods_view_free(&a.pods);
    return rc;
}

/* tui_app.c — the event loop of `kubectl gpu top`: the header, the function bar, the key map
 * (the main screen's panes are tui_main.c, the pods view tui_views_pods.c).
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

static const char *const sort_names[SORT__COUNT] = { "name", "allocation", "utilization", "idle" };

/* ------------------------------------------------------------------ helpers */

static void app_message(App *a, const char *msg)
{
    snprintf(a->message, sizeof a->message, "%s", msg);
    a->message_until = time(NULL) + 3;
}

static const NodeStatus *find_node(const App *a, const char *name)
{
    if (!a->data || !name) return NULL;
    const GpuStatus *st = &a->data->status;
    for (size_t i = 0; i < st->ngpu_node_list; i++)
        if (str_eq(st->gpu_node_list[i].name, name)) return &st->gpu_node_list[i];
    return NULL;
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
    /* the pods view's rows only while it (or a node opened from it) shows: on a large cluster
     * they are every pod holding GPUs; otherwise none are kept (they would point into old data) */
    bool pods_shown = a->view == VIEW_PODS || (a->view == VIEW_NODE && a->back == VIEW_PODS);
    pods_view_rebuild(&a->pods, pods_shown ? a->data : NULL, pod_matches, a);
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
    /* what the pods were scoped to (-n, -l): everything below counts those only */
    if (a->opt->pending_ns || a->opt->pod_selector)
        strbuf_addf(&left, "  pods: %s%s%s", a->opt->pending_ns ? a->opt->pending_ns : "all namespaces",
                    a->opt->pod_selector ? ", " : "", a->opt->pod_selector ? a->opt->pod_selector : "");
    int rw = screen_width(strbuf_str(&right));
    if (rw > w / 2) rw = 0;
    screen_put_cut(0, 0, w - rw - 1, TA_TITLE, strbuf_str(&left));
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

static void draw_doc(App *a, const char *title, TextDoc *d, size_t *top)
{
    int y = HEADER_ROWS, rows = LINES - 1 - HEADER_ROWS - 1;
    if (rows < 1) return;
    screen_fill(y, 0, COLS, TA_PANE_FOCUS);
    size_t max_top = d->n > (size_t)rows ? d->n - (size_t)rows : 0;
    if (*top > max_top) *top = max_top;
    int pw = 0;
    if (d->n > (size_t)rows) {
        char pos[48];
        snprintf(pos, sizeof pos, "lines %zu-%zu of %zu ", *top + 1, *top + (size_t)rows, d->n);
        pw = screen_width(pos);
        screen_put(y, COLS - pw, pw, TA_PANE_FOCUS, pos);
    }
    screen_put_cut(y, 1, COLS - 2 - (pw ? pw + 1 : 0), TA_PANE_FOCUS, title);
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
        main_draw(a);
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
    case 'q': case 27: case KEY_LEFT: case 'h': case KEY_BACKSPACE: case 'p':
        a->view = VIEW_MAIN;
        a->back = VIEW_MAIN;
        rebuild_lists(a);             /* the pods view's rows are let go */
        break;
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
    if (panel_key(p, ch)) { remember_selection(a); return true; }
    switch (ch) {
    case 'q': case KEY_F(10): return false;
    case 27:
        if (a->filter) { set_filter(a, NULL); return true; }
        return false;
    case '\t': case KEY_BTAB:
        a->focus = a->focus == PANE_NODES ? PANE_PENDING : PANE_NODES;
        break;
    case '\n': case '\r': case KEY_ENTER: case KEY_RIGHT: case 'l':
        open_selected(a);
        break;
    case '/': start_filter(a); break;
    case 'p':
        a->view = VIEW_PODS;
        rebuild_lists(a);
        break;
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

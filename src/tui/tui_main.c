/* tui_main.c — the main screen of `kubectl gpu top`: the node list, the detail pane under it
 * and the pending pods, laid out in the rows between the header and the function bar. */
#include "analysis/explain_queue.h"
#include "tui/tui_app.h"
#include "render/status.h"
#include "analysis/physical.h"
#include "tui/tui_text.h"
#include "tui/tui_views.h"
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    nc->metrics = a->data && a->data->status->has_metrics;
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
        int l = screen_width(word) + (nc->metrics && node_at(a, i)->idle_allocated ? 8 : 0) +
                (health_count(&node_at(a, i)->health) ? 12 : 0);
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
    char title[48];
    size_t total = a->data ? a->data->status->ngpu_node_list : 0;
    TuiAttr at = tui_panel_header_begin(y, x, w, focused, title, sizeof title, "NODES", a->nnodes,
                                             total, a->data && a->nnodes != total);
    int cx = x + 1;
    const char *mark = tui_screen_glyph(G_SORT);
    tui_screen_putf(y, cx, nc->name, at, "%s%s", title, a->sort == SORT_NAME ? mark : "");
    cx += nc->name + 1;
    if (nc->product) { tui_screen_put(y, cx, nc->product, at, "PRODUCT"); cx += nc->product + 1; }
    if (nc->metrics) {
        tui_screen_putf(y, cx, nc->alloc + 1 + nc->bar, at, "ALLOC%s", a->sort == SORT_ALLOC ? mark : "");
        cx += nc->alloc + 1 + nc->bar + 1;
        tui_screen_putf(y, cx, nc->bar + nc->pct, at, "UTIL%s", a->sort == SORT_UTIL ? mark : "");
        cx += nc->bar + nc->pct + 1;
        tui_screen_put(y, cx, nc->bar + nc->pct, at, "MEM");
        cx += nc->bar + nc->pct + 1;
    } else {
        if (nc->mode) { tui_screen_put(y, cx, nc->mode, at, "MODE"); cx += nc->mode + 1; }
        tui_screen_putf(y, cx, nc->alloc + 1 + nc->bar, at, "ALLOC%s", a->sort == SORT_ALLOC ? mark : "");
        cx += nc->alloc + 1 + nc->bar + 1;
    }
    tui_screen_putf(y, cx, x + w - cx, at, "STATUS%s", a->sort == SORT_IDLE ? "  (sort: idle)" :
                a->sort == SORT_UTIL && !nc->metrics ? "  (sort: utilization)" : "");
}

static void node_row(void *ctx, size_t i, int y, int x, int w, bool sel, bool focused)
{
    NodeCols *nc = ctx;
    const NodeStatus *n = node_at(nc->a, i);
    TuiAttr over = sel ? pick(TA_NORMAL, true, focused) : TA_NORMAL;
    int cx = x + 1;
    tui_screen_put_cut(y, cx, nc->name, pick(TA_NORMAL, sel, focused), n->name);
    cx += nc->name + 1;
    if (nc->product) {
        tui_screen_put_cut(y, cx, nc->product, pick(TA_NORMAL, sel, focused), n->short_product ? n->short_product : "-");
        cx += nc->product + 1;
    }
    if (!nc->metrics) {
        if (nc->mode) {
            char m[64];
            mode_col(m, sizeof m, n);
            tui_screen_put_cut(y, cx, nc->mode, pick(str_starts_with(m, "MIG INVALID") ? TA_ERROR : TA_NORMAL, sel, focused), m);
            cx += nc->mode + 1;
        }
    }
    char buf[48];
    if (n->nres) snprintf(buf, sizeof buf, "%lld/%lld", (long long)node_status_allocated(n), (long long)node_status_allocatable(n));
    else if (n->dra.devices) snprintf(buf, sizeof buf, "%d/%d", n->dra.allocated, n->dra.devices);   /* DRA */
    else snprintf(buf, sizeof buf, "-");
    tui_screen_putf(y, cx, nc->alloc, pick(TA_NORMAL, sel, focused), "%*s", nc->alloc, buf);
    cx += nc->alloc + 1;
    tui_screen_bar(y, cx, nc->bar, alloc_frac(n), TA_BAR_ALLOC, over);
    cx += nc->bar + 1;
    if (nc->metrics) {
        tui_screen_bar(y, cx, nc->bar, isnan(n->util) ? NAN : n->util / 100.0, TA_BAR_UTIL, over);
        cx += nc->bar;
        if (isnan(n->util)) snprintf(buf, sizeof buf, "    -");
        else if (!isfinite(n->util) || n->util < 0 || n->util > 100.5) snprintf(buf, sizeof buf, "    ?");
        else snprintf(buf, sizeof buf, " %3.0f%%", n->util);
        tui_screen_put(y, cx, nc->pct, pick(TA_NORMAL, sel, focused), buf);
        cx += nc->pct + 1;
        double mf = !isnan(n->mem_used_mib) && !isnan(n->mem_total_mib) && n->mem_total_mib > 0
                    ? n->mem_used_mib / n->mem_total_mib : NAN;
        tui_screen_bar(y, cx, nc->bar, mf, TA_BAR_MEM, over);
        cx += nc->bar;
        if (isnan(mf)) snprintf(buf, sizeof buf, "    -");
        else snprintf(buf, sizeof buf, " %3.0f%%", mf * 100);
        tui_screen_put(y, cx, nc->pct, pick(TA_NORMAL, sel, focused), buf);
        cx += nc->pct + 1;
    }
    char *word = node_status_word(n);
    Strbuf sb = STRBUF_INIT;
    strbuf_adds(&sb, word);
    if (nc->metrics && physical_idle_node(n)) strbuf_addf(&sb, " idle:%d", physical_idle_node(n));
    if (health_count(&n->health)) strbuf_addf(&sb, " unhealthy:%d", health_count(&n->health));
    if (screen_width(strbuf_str(&sb)) > x + w - cx) {
        /* the brief form before any cut (issue 34: STATUS is a value, not free text), then the
         * counts while they fit */
        char *brief = status_node_brief(n);
        strbuf_reset(&sb);
        strbuf_adds(&sb, brief);
        free(brief);
        char extra[32];
        if (nc->metrics && physical_idle_node(n)) {
            snprintf(extra, sizeof extra, " idle:%d", physical_idle_node(n));
            if (screen_width(strbuf_str(&sb)) + screen_width(extra) <= x + w - cx) strbuf_adds(&sb, extra);
        }
        if (health_count(&n->health)) {
            snprintf(extra, sizeof extra, " unhealthy:%d", health_count(&n->health));
            if (screen_width(strbuf_str(&sb)) + screen_width(extra) <= x + w - cx) strbuf_adds(&sb, extra);
        }
    }
    tui_screen_put_cut(y, cx, x + w - cx, pick(node_doc_attr(n), sel, focused), strbuf_str(&sb));
    strbuf_clear(&sb);
    free(word);
}

/* ------------------------------------------------------------------ pending list */

typedef struct { App *a; int name, gpus, verdict; } PendCols;

static char *pend_name(const Explanation *e, size_t count)
{
    if (e->queue)                               /* a queue's workload: its owner, as pending names it */
        return xasprintf("%s/%s/%s (%s)", e->ns, e->owner_kind ? e->owner_kind : e->queue->row_kind,
                         e->owner_name ? e->owner_name : e->name, e->queue->row_kind);
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
    pc->verdict = 7;                            /* "VERDICT"; the longest verdict shown, whole */
    for (size_t i = 0; i < a->npend; i++) {
        const Explanation *e = pend_at(a, i);
        int vl = screen_width(verdict_name(e->verdict));
        if (vl > pc->verdict) pc->verdict = vl;
        char *n = pend_name(e, pend_count_at(a, i));
        int l = screen_width(n);
        free(n);
        if (l > pc->name) pc->name = l;
        char *g = pend_gpus(e);
        l = screen_width(g);
        free(g);
        if (l > pc->gpus) pc->gpus = l;
        l = (int)strlen(verdict_name(e->verdict));          /* QueueInactive is 13 */
        if (l > pc->verdict) pc->verdict = l;
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
    char title[48];
    size_t total = a->data ? a->data->tc->pending.n : 0;
    TuiAttr at = tui_panel_header_begin(y, x, w, focused, title, sizeof title, "PENDING", a->npend_pods,
                                             total, a->data && a->npend_pods != total);
    int cx = x + 1;
    tui_screen_put(y, cx, pc->name, at, title);
    cx += pc->name + 1;
    tui_screen_put(y, cx, pc->gpus, at, "GPUS");
    cx += pc->gpus + 1;
    tui_screen_put(y, cx, pc->verdict, at, "VERDICT");
    cx += pc->verdict + 1;
    tui_screen_put(y, cx, x + w - cx, at, "REASON");
}

static void pend_row(void *ctx, size_t i, int y, int x, int w, bool sel, bool focused)
{
    PendCols *pc = ctx;
    const Explanation *e = pend_at(pc->a, i);
    int cx = x + 1;
    char *n = pend_name(e, pend_count_at(pc->a, i));
    tui_screen_put_cut(y, cx, pc->name, pick(TA_NORMAL, sel, focused), n);
    free(n);
    cx += pc->name + 1;
    char *g = pend_gpus(e);
    tui_screen_put_cut(y, cx, pc->gpus, pick(TA_NORMAL, sel, focused), g);
    free(g);
    cx += pc->gpus + 1;
    tui_screen_put_cut(y, cx, pc->verdict, pick(tui_view_verdict_attr(e->verdict), sel, focused), verdict_name(e->verdict));
    cx += pc->verdict + 1;
    tui_screen_put_cut(y, cx, x + w - cx, pick(TA_NORMAL, sel, focused), e->summary ? e->summary : "");
}

/* ------------------------------------------------------------------ detail pane */

static void draw_detail(App *a, int y, int h, int w)
{
    if (h <= 0) return;
    TuiAttr at = TA_PANE_TITLE;
    tui_screen_fill(y, 0, w, at);
    TextDoc d;
    tui_doc_init(&d, w - 2);
    if (a->focus == PANE_PENDING && pend_at(a, a->pend_panel.selected)) {
        const Explanation *e = pend_at(a, a->pend_panel.selected);
        char *n = pend_name(e, pend_count_at(a, a->pend_panel.selected));
        char *t = xasprintf("%s  %s", n, verdict_name(e->verdict));
        tui_screen_put_cut(y, 1, w - 2, at, t);
        free(t);
        free(n);
        text_newline(&d);
        text_wrap(&d, 0, TA_NORMAL, e->summary ? e->summary : "");
        if (e->queue) {
            const QueueFacts *q = e->queue;
            text_newline(&d);
            text_addf(&d, TA_NORMAL, "%s queue %s%s%s%s%s", queue_system_name(q->system),
                      q->local_queue ? q->local_queue : "", q->local_queue ? " -> " : "",
                      q->cluster_queue ? q->cluster_queue : "(none)", q->cohort ? ", cohort " : "", q->cohort ? q->cohort : "");
            if (q->position > 0) text_addf(&d, TA_NORMAL, ", position %lld of %lld", (long long)q->position, (long long)q->queued);
        }
        text_newline(&d);
        text_add(&d, TA_DIM, "Enter: the full explanation with the scheduler's message, per-node reasons and fixes");
    } else if (node_at(a, a->node_panel.selected)) {
        const NodeStatus *n = node_at(a, a->node_panel.selected);
        char *s = node_doc_summary(n);
        char *t = xasprintf("%s  %s", n->name, s);
        tui_screen_put_cut(y, 1, w - 2, at, t);
        free(t);
        free(s);
        tui_view_node_detail(&d, a->data, n);
    } else {
        tui_screen_put(y, 1, w - 2, at, a->data ? "DETAIL" : "DETAIL  loading...");
    }
    int rows = h - 1;
    if ((int)d.n > rows && rows > 0) {
        /* the last row says there is more */
        tui_text_draw(&d, y + 1, 1, rows - 1, w - 2, 0);
        tui_screen_fill(y + rows, 0, w, TA_NORMAL);
        tui_screen_putf(y + rows, 1, w - 2, TA_DIM, "%s %zu more lines: Enter opens the full view", ellipsis(), d.n - (size_t)(rows - 1));
    } else {
        tui_text_draw(&d, y + 1, 1, rows, w - 2, 0);
    }
    for (int r = 1; r <= rows; r++) tui_screen_put(y + r, 0, 1, TA_NORMAL, " ");
    text_clear(&d);
}

void tui_main_draw(App *a)
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
    /* rows the detail pane has beyond its least go to the lists that have more rows than they
     * show: the pending list first (its cap is a share, not a need), then the nodes */
    int spare = detail_h - detail_min;
    int pend_more = (int)a->npend + 1 - pend_h;
    if (pend_h && spare > 0 && pend_more > 0) {
        int give = spare < pend_more ? spare : pend_more;
        pend_h += give;
        spare -= give;
    }
    int nodes_more = (int)a->nnodes + 1 - nodes_h;
    if (spare > 0 && nodes_more > 0) nodes_h += spare < nodes_more ? spare : nodes_more;
    detail_h = body - pend_h - nodes_h;

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
                   !a->data ? "loading..." : a->data->tc->pending.n ? "no pending pod matches the filter"
                                                                   : "no pending GPU pods");
    }
}

/* a full-body TextDoc screen (node, explain, help) with a title row */

/* tui_views_pods.c — the GPU pods view and the namespace totals (see tui_views_pods.h). */
#include "tui/tui_views_pods.h"
#include "tui/tui_screen.h"
#include "tui/tui_views.h"
#include "util/sort.h"
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const sort_names[PSORT__COUNT] = { "gpus", "memory", "utilization", "idle", "namespace" };

const char *tui_pods_sort_name(PodSort s) { return s >= 0 && s < PSORT__COUNT ? sort_names[s] : "?"; }

static char *row_key(const PodRow *r) { return xasprintf("%s/%s/%s", r->node->name, r->pod->ns, r->pod->name); }

/* devices of the node held by this pod and idle (the metrics name the pod on the device) */
static int pod_idle(const NodeStatus *n, const HolderPod *p)
{
    int idle = 0;
    for (size_t i = 0; i < n->ngpus; i++) {
        const GpuDevice *g = &n->gpus[i];
        if (g->idle_allocated && g->pod && str_eq(g->pod, p->name) && str_eq(g->pod_ns ? g->pod_ns : "", p->ns)) idle++;
    }
    return idle;
}

static double usage(const PodRow *r, bool mem)
{
    if (!r->pod->has_usage) return NAN;
    HolderUsage u = node_status_holder_usage(r->node, r->pod);
    return mem ? u.mem_used_mib : u.util;
}

static int cmp_desc(double x, double y)
{
    if (isnan(x) && isnan(y)) return 0;
    if (isnan(x)) return 1;
    if (isnan(y)) return -1;
    return x > y ? -1 : x < y ? 1 : 0;
}

static int row_cmp(const void *pa, const void *pb, void *ctx)
{
    const PodRow *x = pa, *y = pb;
    int c = 0;
    switch (*(const PodSort *)ctx) {
    case PSORT_GPUS: c = cmp_desc((double)x->gpus, (double)y->gpus); break;
    case PSORT_MEM: c = cmp_desc(usage(x, true), usage(y, true)); break;
    case PSORT_UTIL: c = cmp_desc(usage(x, false), usage(y, false)); break;
    case PSORT_IDLE:
        /* idle the longest first (the series' trailing run under the threshold), then most
         * devices held idle, then the least used */
        c = cmp_desc(x->idle_for, y->idle_for);
        if (!c) c = cmp_desc((double)x->idle, (double)y->idle);
        if (!c) c = (int)isnan(usage(x, false)) - (int)isnan(usage(y, false));    /* unknown last */
        if (!c) c = -cmp_desc(usage(x, false), usage(y, false));
        break;
    case PSORT_NS: c = strcmp(x->pod->ns, y->pod->ns); break;
    case PSORT__COUNT: break;
    }
    if (!c) c = strcmp(x->pod->ns, y->pod->ns);
    if (!c) c = strcmp(x->pod->name, y->pod->name);
    if (!c) c = strcmp(x->node->name, y->node->name);
    return c;
}

static int ns_cmp(const void *pa, const void *pb)
{
    const NsTotal *x = pa, *y = pb;
    if (x->gpus != y->gpus) return x->gpus > y->gpus ? -1 : 1;
    return strcmp(x->ns, y->ns);
}

static void free_ns(PodsView *v)
{
    for (size_t i = 0; i < v->nns; i++) free(v->ns[i].ns);
    free(v->ns);
    v->ns = NULL;
    v->nns = 0;
}

static void ns_totals(PodsView *v)
{
    free_ns(v);
    v->ns = xcalloc(v->n + 1, sizeof *v->ns);
    double *weight = xcalloc(v->n + 1, sizeof *weight);
    for (size_t i = 0; i < v->n; i++) {
        const PodRow *r = &v->rows[i];
        size_t j = 0;
        while (j < v->nns && !str_eq(v->ns[j].ns, r->pod->ns)) j++;
        NsTotal *t = &v->ns[j];
        if (j == v->nns) {
            v->nns++;
            t->ns = xstrdup(r->pod->ns);
            t->mem_used_mib = t->util = NAN;
        }
        t->pods++;
        t->gpus += r->gpus;
        t->idle += r->idle;
        HolderUsage u = node_status_holder_usage(r->node, r->pod);
        if (r->pod->has_usage && !isnan(u.mem_used_mib))
            t->mem_used_mib = (isnan(t->mem_used_mib) ? 0 : t->mem_used_mib) + u.mem_used_mib;
        if (r->pod->has_usage && !isnan(u.util)) {
            double w = r->gpus > 0 ? (double)r->gpus : 1;
            t->util = ((isnan(t->util) ? 0 : t->util * weight[j]) + u.util * w) / (weight[j] + w);
            weight[j] += w;
        }
    }
    free(weight);
    qsort(v->ns, v->nns, sizeof *v->ns, ns_cmp);
}

void pods_view_rebuild(PodsView *v, const TopData *td, PodMatchFn match, void *ctx)
{
    free(v->rows);
    v->rows = NULL;
    v->n = v->total = 0;
    if (td) {
        const GpuStatus *st = td->status;
        size_t cap = 0;
        for (size_t i = 0; i < st->ngpu_node_list; i++) cap += st->gpu_node_list[i].npods;
        v->rows = xcalloc(cap + 1, sizeof *v->rows);
        for (size_t i = 0; i < st->ngpu_node_list; i++) {
            const NodeStatus *n = &st->gpu_node_list[i];
            for (size_t k = 0; k < n->npods; k++) {
                const HolderPod *p = &n->pods[k];
                v->total++;
                if (match && !match(ctx, n, p)) continue;
                PodRow *r = &v->rows[v->n++];
                r->node = n;
                r->pod = p;
                for (size_t j = 0; j < p->nres; j++) r->gpus += p->res[j].count;
                r->idle = st->has_metrics ? pod_idle(n, p) : 0;
                r->idle_for = st->has_metrics ? usage_pod_idle_for(td->usage, p->ns, p->name) : NAN;
            }
        }
        v->metrics = st->has_metrics;
        v->series = st->has_metrics && td->usage->nseries > 0;
        if (!v->metrics && v->sort != PSORT_NS) v->sort = PSORT_GPUS;
        sort_r(v->rows, v->n, sizeof *v->rows, row_cmp, &v->sort);
    }
    ns_totals(v);
    panel_set_count(&v->panel, v->n);
    for (size_t i = 0; v->sel && i < v->n; i++) {
        char *k = row_key(&v->rows[i]);
        bool same = str_eq(k, v->sel);
        free(k);
        if (same) { panel_select(&v->panel, i); break; }
    }
}

const PodRow *pods_view_selected(const PodsView *v)
{
    return v->panel.selected < v->n ? &v->rows[v->panel.selected] : NULL;
}

static void remember(PodsView *v)
{
    const PodRow *r = pods_view_selected(v);
    if (!r) return;
    free(v->sel);
    v->sel = row_key(r);
}

bool pods_view_key(PodsView *v, int ch)
{
    Panel *p = &v->panel;
    if (panel_key(p, ch)) { remember(v); return true; }
    switch (ch) {
    case 's': case KEY_F(6): case 'S': {
        remember(v);
        /* without metrics only GPUs and namespace order the pods */
        do v->sort = (PodSort)((v->sort + (ch == 'S' ? PSORT__COUNT - 1 : 1)) % PSORT__COUNT);
        while (!v->metrics && v->sort != PSORT_GPUS && v->sort != PSORT_NS);
        sort_r(v->rows, v->n, sizeof *v->rows, row_cmp, &v->sort);
        for (size_t i = 0; v->sel && i < v->n; i++) {
            char *k = row_key(&v->rows[i]);
            bool same = str_eq(k, v->sel);
            free(k);
            if (same) { panel_select(p, i); break; }
        }
        return true;
    }
    default: return false;
    }
    remember(v);
    return true;
}

void pods_view_clear(PodsView *v)
{
    free(v->rows);
    free_ns(v);
    free(v->sel);
    memset(v, 0, sizeof *v);
}

/* ------------------------------------------------------------------ drawing */

typedef struct {
    PodsView *v;
    bool metrics, filtered;
    int name, node, gpus, res, mem, util, idle, idle_for;   /* column widths; 0 = not shown */
} PodCols;

static char *res_words(const HolderPod *p)
{
    Strbuf sb = STRBUF_INIT;
    for (size_t k = 0; k < p->nres; k++)
        strbuf_addf(&sb, "%s%s:%lld", k ? "," : "", node_doc_short_resource(p->res[k].name), (long long)p->res[k].count);
    if (!p->nres) strbuf_adds(&sb, "-");
    return strbuf_detach(&sb);
}

static void pod_cols(PodsView *v, bool metrics, bool filtered, int w, PodCols *c)
{
    memset(c, 0, sizeof *c);
    c->v = v;
    c->metrics = metrics;
    c->filtered = filtered;
    c->node = 4;
    c->gpus = 5;
    c->res = 9;
    for (size_t i = 0; i < v->n; i++) {
        int l = screen_width(v->rows[i].node->name);
        if (l > c->node) c->node = l;
        char *r = res_words(v->rows[i].pod);
        l = screen_width(r);
        free(r);
        if (l > c->res) c->res = l;
    }
    if (metrics) { c->mem = 8; c->util = 5; c->idle = 4; }
    if (metrics && v->series) c->idle_for = 9;     /* "IDLE-FOR" and the sort mark */
    /* the fixed columns, then NAME takes what is left (at least 24); NODE and RESOURCES
     * widen with the terminal */
    int node_cap = w / 5 > 20 ? w / 5 : 20, res_cap = w / 6 > 14 ? w / 6 : 14;
    if (c->node > node_cap) c->node = node_cap;
    if (c->res > res_cap) c->res = res_cap;
    int fixed = 1 + c->node + 1 + c->gpus + 1 + c->res + 1 + (metrics ? c->mem + 1 + c->util + 1 + c->idle + 1 : 0) +
                (c->idle_for ? c->idle_for + 1 : 0) + 9;
    c->name = w - fixed;
    if (c->name < 24) {             /* narrow: RESOURCES goes first */
        c->name += c->res + 1;
        c->res = 0;
    }
    if (c->name < 16) c->name = 16;
}

static void pod_header(void *ctx, int y, int x, int w, bool focused)
{
    PodCols *c = ctx;
    PodsView *v = c->v;
    char title[64];
    TuiAttr at = tui_panel_header_begin(y, x, w, focused, title, sizeof title, "GPU PODS", v->n, v->total,
                                             c->filtered);
    const char *mark = tui_screen_glyph(G_SORT);
    int cx = x + 1;
    tui_screen_putf(y, cx, c->name, at, "%s%s", title, v->sort == PSORT_NS ? mark : "");
    cx += c->name + 1;
    tui_screen_put(y, cx, c->node, at, "NODE");
    cx += c->node + 1;
    tui_screen_putf(y, cx, c->gpus, at, "GPUS%s", v->sort == PSORT_GPUS ? mark : "");
    cx += c->gpus + 1;
    if (c->res) { tui_screen_put(y, cx, c->res, at, "RESOURCES"); cx += c->res + 1; }
    if (c->metrics) {
        tui_screen_putf(y, cx, c->mem, at, "MEMORY%s", v->sort == PSORT_MEM ? mark : "");
        cx += c->mem + 1;
        tui_screen_putf(y, cx, c->util, at, "UTIL%s", v->sort == PSORT_UTIL ? mark : "");
        cx += c->util + 1;
        tui_screen_putf(y, cx, c->idle, at, "IDLE%s", v->sort == PSORT_IDLE && !c->idle_for ? mark : "");
        cx += c->idle + 1;
        if (c->idle_for) {
            tui_screen_putf(y, cx, c->idle_for, at, "IDLE-FOR%s", v->sort == PSORT_IDLE ? mark : "");
            cx += c->idle_for + 1;
        }
    }
    tui_screen_put(y, cx, x + w - cx, at, "PHASE");
    /* the sort, said in words at the right end */
    char *s = xasprintf(" sort: %s ", tui_pods_sort_name(v->sort));
    int sw = screen_width(s);
    if (cx + 6 + sw < x + w) tui_screen_put(y, x + w - sw, sw, at, s);
    free(s);
}

static TuiAttr pk(TuiAttr a, bool sel, bool focused)
{
    if (!sel) return a;
    return focused ? TA_SELECTED : TA_SELECTED_BLUR;
}

static void pod_row(void *ctx, size_t i, int y, int x, int w, bool sel, bool focused)
{
    PodCols *c = ctx;
    const PodRow *r = &c->v->rows[i];
    TuiAttr at = pk(TA_NORMAL, sel, focused);
    int cx = x + 1;
    char *nm = xasprintf("%s/%s", r->pod->ns, r->pod->name);
    tui_screen_put_cut(y, cx, c->name, at, nm);
    free(nm);
    cx += c->name + 1;
    tui_screen_put_cut(y, cx, c->node, at, r->node->name);
    cx += c->node + 1;
    tui_screen_putf(y, cx, c->gpus, at, "%*lld", c->gpus, (long long)r->gpus);
    cx += c->gpus + 1;
    if (c->res) {
        char *rs = res_words(r->pod);
        tui_screen_put_cut(y, cx, c->res, at, rs);
        free(rs);
        cx += c->res + 1;
    }
    if (c->metrics) {
        char mem[32], util[16];
        node_doc_fmt_mib(mem, sizeof mem, usage(r, true));
        double u = usage(r, false);
        if (isnan(u)) snprintf(util, sizeof util, "-");
        else snprintf(util, sizeof util, "%.0f%%", u);
        tui_screen_putf(y, cx, c->mem, at, "%*s", c->mem, mem);
        cx += c->mem + 1;
        tui_screen_putf(y, cx, c->util, at, "%*s", c->util, util);
        cx += c->util + 1;
        if (r->idle) tui_screen_putf(y, cx, c->idle, pk(TA_WARN, sel, focused), "%*d", c->idle, r->idle);
        else tui_screen_putf(y, cx, c->idle, at, "%*s", c->idle, "-");
        cx += c->idle + 1;
        if (c->idle_for) {
            char f[24];
            node_doc_fmt_duration(f, sizeof f, r->idle_for);
            tui_screen_putf(y, cx, c->idle_for, r->idle_for > 0 ? pk(TA_WARN, sel, focused) : at, "%*s", c->idle_for, f);
            cx += c->idle_for + 1;
        }
    }
    tui_screen_put_cut(y, cx, x + w - cx - 1, pk(r->pod->phase == PHASE_RUNNING ? TA_NORMAL : TA_WARN, sel, focused),
                   node_status_holder_phase(r->pod));
}

/* the namespace pane: one row per namespace, those holding the most GPUs first */
static void draw_ns(PodsView *v, bool metrics, int y, int h, int w)
{
    if (h <= 0) return;
    tui_screen_fill(y, 0, w, TA_PANE_TITLE);
    int nw = 16;
    for (size_t i = 0; i < v->nns; i++)
        if (screen_width(v->ns[i].ns) > nw) nw = screen_width(v->ns[i].ns);
    int cap = w - 2 - (6 + 1 + 6 + 1) - (metrics ? 9 + 1 + 5 + 1 + 5 : 0) - 2;
    if (nw > cap) nw = cap;
    char title[48];
    snprintf(title, sizeof title, "NAMESPACES %zu", v->nns);
    int cx = 1;
    tui_screen_put(y, cx, nw, TA_PANE_TITLE, title);
    cx += nw + 1;
    tui_screen_putf(y, cx, w - cx, TA_PANE_TITLE, "%6s %6s", "PODS", "GPUS");
    cx += 14;
    if (metrics) tui_screen_putf(y, cx, w - cx, TA_PANE_TITLE, "%9s %5s %5s", "MEMORY", "UTIL", "IDLE");
    for (int r = 1; r < h; r++) {
        size_t i = (size_t)(r - 1);
        tui_screen_fill(y + r, 0, w, TA_NORMAL);
        if (i >= v->nns) {
            if (r == 1) tui_screen_put(y + r, 1, w - 2, TA_DIM, "no pod holds GPUs");
            continue;
        }
        if (r == h - 1 && v->nns > (size_t)(h - 1)) {
            tui_screen_putf(y + r, 1, w - 2, TA_DIM, "%s %zu more namespaces", tui_screen_glyph(G_ELLIPSIS), v->nns - i);
            break;
        }
        const NsTotal *t = &v->ns[i];
        cx = 1;
        tui_screen_put_cut(y + r, cx, nw, TA_NORMAL, t->ns);
        cx += nw + 1;
        tui_screen_putf(y + r, cx, w - cx, TA_NORMAL, "%6zu %6lld", t->pods, (long long)t->gpus);
        cx += 14;
        if (metrics) {
            char mem[32], util[16];
            node_doc_fmt_mib(mem, sizeof mem, t->mem_used_mib);
            if (isnan(t->util)) snprintf(util, sizeof util, "-");
            else snprintf(util, sizeof util, "%.0f%%", t->util);
            cx += tui_screen_putf(y + r, cx, w - cx, TA_NORMAL, "%9s %5s ", mem, util);
            tui_screen_putf(y + r, cx, w - cx, t->idle ? TA_WARN : TA_NORMAL, "%5d", t->idle);
        }
    }
}

void pods_view_draw(PodsView *v, const TopData *td, int y, int h, int w, bool filtered)
{
    if (h < 3) return;
    bool metrics = td && td->status->has_metrics;
    int ns_h = (int)v->nns + 1;
    if (ns_h < 2) ns_h = 2;
    if (ns_h > h / 3) ns_h = h / 3 > 2 ? h / 3 : 2;
    int pods_h = h - ns_h;
    v->panel.focused = true;
    panel_place(&v->panel, y, 0, pods_h, w);
    PodCols c;
    pod_cols(v, metrics, filtered, w, &c);
    panel_draw(&v->panel, pod_header, pod_row, &c,
               !td ? "loading..." : filtered && v->total ? "no pod matches the filter" : "no pod holds GPUs");
    draw_ns(v, metrics, y + pods_h, ns_h, w);
}

/* tui_bars.c — top's header (4 rows: where the data comes from and what was read, the
 * counts, the totals per GPU resource, the status line) and its function bar (the keys of the
 * screen shown, or the filter being typed).
 */
#include "tui/tui_app.h"
#include "analysis/physical.h"
#include "tui/tui_views.h"
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------ header */

static void fmt_clock(char *out, size_t n, int64_t t)
{
    time_t tt = (time_t)t;
    struct tm tm;
    localtime_r(&tt, &tm);
    strftime(out, n, "%H:%M:%S", &tm);
}

void app_draw_header(App *a)
{
    int w = COLS;
    /* row 0: what this is looking at */
    tui_screen_fill(0, 0, w, TA_TITLE);
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
        if (d && d->watching && d->watch_lost) {
            /* since when, and how old what is shown is: the data was current until then */
            char since[16], age[16] = "?";
            fmt_clock(since, sizeof since, d->lost_since);
            int64_t old = (int64_t)time(NULL) - d->lost_since;
            util_format_age(old > 0 ? old : 0, age, sizeof age);
            strbuf_addf(&right, "watch lost since %s, data %s old ", since, age);
        }
        else if (d && d->watching && d->watch_refused)
            /* a kind the rights let list but not watch stays as listed (docs/watch.md) */
            strbuf_addf(&right, "live (%d refused), changed %s ", d->watch_refused, clock);
        else if (d && d->watching)
            strbuf_addf(&right, "live (watch), changed %s ", clock);
        else
            strbuf_addf(&right, "every %gs, refreshed %s ", a->opt->interval, clock);
    }
    /* what was read (-l nodes, -n pods): everything below counts those only */
    if (a->opt->pending_ns) strbuf_addf(&left, "  pods: %s", a->opt->pending_ns);
    if (a->opt->node_selector) strbuf_addf(&left, "  nodes: %s", a->opt->node_selector);
    int rw = screen_width(strbuf_str(&right));
    if (rw > w / 2) rw = 0;
    tui_screen_put_cut(0, 0, w - rw - 1, TA_TITLE, strbuf_str(&left));
    if (rw) tui_screen_put(0, w - rw, rw, TA_TITLE, strbuf_str(&right));
    strbuf_clear(&left);
    strbuf_clear(&right);

    /* rows 1-2: counts, then the totals per GPU resource, flowing over both rows */
    for (int y = 1; y < HEADER_ROWS; y++) tui_screen_fill(y, 0, w, TA_NORMAL);
    if (a->data) {
        const GpuStatus *st = a->data->status;
        Strvec labels = STRVEC_INIT, values = STRVEC_INIT;
        strvec_push(&labels, "Nodes");
        strvec_pushf(&values, "%d (%d GPU)", st->nodes, st->gpu_nodes);
        strvec_push(&labels, "GPUs");
        if (st->unknown_gpu_nodes) strvec_pushf(&values, "%d (+%d nodes ?)", st->physical_gpus, st->unknown_gpu_nodes);
        else strvec_pushf(&values, "%d", st->physical_gpus);
        /* the pending pane's count: pods, and owners whose pods a quota refused (one row each) */
        size_t pending = a->data->tc->pending.n;
        strvec_push(&labels, "Pending");
        strvec_pushf(&values, "%zu", pending);
        strvec_push(&labels, "Idle");
        if (st->has_metrics) strvec_pushf(&values, "%d", physical_idle_total(st));
        else strvec_push(&values, "-");
        size_t ncounts = labels.n;
        for (size_t i = 0; i < st->ntotals; i++) {
            strvec_push(&labels, node_doc_short_resource(st->totals[i].name));
            strvec_pushf(&values, "%lld/%lld", (long long)st->totals[i].allocated, (long long)st->totals[i].allocatable);
        }
        int y = 1, x = 1;
        for (size_t i = 0; i < labels.n; i++) {
            int need = screen_width(labels.v[i]) + 1 + screen_width(values.v[i]);
            if (x > 1 && x + need > w - 1) {
                if (y == 2) { tui_screen_put(y, x, w - x, TA_DIM, ellipsis()); break; }
                y++; x = 1;
            }
            TuiAttr va = TA_VALUE;
            if ((i == 2 && pending) || (i == 3 && st->has_metrics && physical_idle_total(st))) va = TA_WARN;
            x += tui_screen_put(y, x, w - x, TA_LABEL, labels.v[i]);
            x += tui_screen_put(y, x, w - x, TA_NORMAL, " ");
            x += tui_screen_put(y, x, w - x, va, values.v[i]);
            x += 3;
            if (i + 1 == ncounts && x > 1) x += 1;
        }
        strvec_clear(&labels);
        strvec_clear(&values);
    }

    /* row 3: the status line */
    int y = HEADER_ROWS - 1, x = 1;
    if (a->message_until > time(NULL)) {
        tui_screen_put(y, x, w - x, TA_WARN, a->message);
        return;
    }
    if (a->fs.busy) {
        char *s = xasprintf("%s%s %.0fs", a->data ? "refreshing" : "loading the cluster", ellipsis(), a->fs.busy_for);
        x += tui_screen_put(y, x, w - x, TA_BUSY, s);
        x += tui_screen_put(y, x, w - x, TA_NORMAL, "   ");
        free(s);
    }
    if (a->fs.failed && a->data) {
        char clock[16];
        fmt_clock(clock, sizeof clock, a->fs.last_ok);
        x += tui_screen_put(y, x, w - x, TA_ERROR, "last refresh failed: ");
        char *s = xasprintf("%s (showing data of %s)", a->fs.error, clock);
        tui_screen_put(y, x, w - x, TA_ERROR, s);
        free(s);
        return;
    }
    if (!a->data) return;
    const GpuStatus *st = a->data->status;
    x += tui_screen_put(y, x, w - x, TA_LABEL, "Metrics ");
    x += tui_screen_put(y, x, w - x, st->has_metrics ? TA_OK : TA_DIM, st->metrics_source);
    if (st->metrics_detail) {
        x += tui_screen_put(y, x, w - x, TA_DIM, ": ");
        x += tui_screen_put(y, x, w - x, TA_DIM, st->metrics_detail);
    }
    if (st->warnings.n && x < w - 4) {
        char *s = xasprintf("   %zu warning%s: %s", st->warnings.n, st->warnings.n == 1 ? "" : "s", st->warnings.v[0]);
        tui_screen_put(y, x, w - x, TA_WARN, s);
        free(s);
    }
}

/* ------------------------------------------------------------------ function bar */

void app_draw_fbar(App *a)
{
    int y = LINES - 1, x = 0, w = COLS;
    tui_screen_fill(y, 0, w, TA_FLABEL);
    if (a->editing) {                    /* what is typed, then the keys of KV_EDIT */
        x += tui_screen_put(y, x, w - x, TA_FKEY, "Filter: ");
        x += tui_screen_put(y, x, w - x - 28, TA_INPUT, strbuf_str(&a->edit));
        x += tui_screen_put(y, x, w - x, TA_INPUT, "_");
        x += 2;
    }
    KeyBarItem items[16];                 /* the key table's rows for this view (tui_keys.c) */
    size_t n = keymap_bar(&tui_app_keymap, app_view_bit(a), a, tui_screen_utf8(), items, sizeof items / sizeof *items);
    for (size_t i = 0; i < n && x < w; i++) {
        x += tui_screen_put(y, x, w - x, TA_FKEY, items[i].key);
        x += tui_screen_put(y, x, w - x, TA_FLABEL, " ");
        x += tui_screen_put(y, x, w - x, TA_FLABEL, items[i].label);
        x += tui_screen_put(y, x, w - x, TA_FLABEL, " ");
    }
}

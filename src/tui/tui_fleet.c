/* tui_fleet.c — the fleet screen of top (tui/tui_fleet.h). */
#include "tui/tui_fleet.h"
#include "tui/tui_screen.h"
#include "util/util.h"
#include <curses.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

enum { FLEET_MIN_COLS = 80, FLEET_MIN_LINES = 10, FLEET_TOP_ROWS = 2,
       FLEET_DATA_COLS = 36, FLEET_MIN_CONTEXT = 12 };   /* DATA: "lost since 23:59:59, data 59m old" */

static const struct { const char *title; int width; } fleet_cols[] = {
    { "CONTEXT", 0 }, { "GPU NODES", 10 }, { "GPUS", 7 }, { "IN USE", 8 }, { "IDLE", 6 }, { "FREE", 6 },
    { "UNAVAIL", 8 }, { "PENDING", 8 }, { "DATA", 0 },
};
enum { FLEET_NCOLS = sizeof fleet_cols / sizeof *fleet_cols };

static void figure(char *buf, size_t n, double v)
{
    if (isnan(v)) snprintf(buf, n, "?");
    else snprintf(buf, n, "%.0f", v);
}

/* "live", "listing", "lost since 14:02:11, data 40s old", "failed" */
static TuiAttr state_word(const TuiFleetRow *r, char *buf, size_t n)
{
    if (r->lost && r->have) {
        char age[32], since[16] = "?";
        util_format_age((int64_t)r->age, age, sizeof age);
        struct tm tm;
        if (localtime_r(&r->lost_since, &tm)) strftime(since, sizeof since, "%H:%M:%S", &tm);
        snprintf(buf, n, "lost since %s, data %s old", since, age);
        return TA_WARN;
    }
    if (r->lost) { snprintf(buf, n, "failed"); return TA_ERROR; }
    if (!r->have) { snprintf(buf, n, "listing"); return TA_DIM; }
    snprintf(buf, n, "live");
    return TA_OK;
}

void tui_fleet_draw(const TuiFleetRow *rows, size_t n, size_t selected, const char *message)
{
    erase();
    if (tui_screen_too_small(FLEET_MIN_COLS, FLEET_MIN_LINES)) {
        refresh();
        return;
    }
    size_t answering = 0;
    for (size_t i = 0; i < n; i++) answering += rows[i].have && !rows[i].lost;
    tui_screen_putf(0, 0, COLS, TA_TITLE, "kubectl gpu top - fleet: %zu context(s), %zu answering", n, answering);
    int fixed = FLEET_DATA_COLS;
    for (size_t c = 1; c < FLEET_NCOLS; c++) fixed += fleet_cols[c].width;
    int ctxw = COLS - fixed > FLEET_MIN_CONTEXT ? COLS - fixed : FLEET_MIN_CONTEXT;  /* DATA takes the rest */
    tui_screen_fill(FLEET_TOP_ROWS - 1, 0, COLS, TA_COLUMNS);
    for (size_t c = 0, x = 0; c < FLEET_NCOLS; c++) {
        int w = c == 0 ? ctxw : c + 1 == FLEET_NCOLS ? COLS - (int)x : fleet_cols[c].width;
        tui_screen_put(FLEET_TOP_ROWS - 1, (int)x, w, TA_COLUMNS, fleet_cols[c].title);
        x += (size_t)w;
    }
    int room = LINES - FLEET_TOP_ROWS - 2;
    size_t first = selected >= (size_t)room ? selected - (size_t)room + 1 : 0;
    for (size_t i = first; i < n && (int)(i - first) < room; i++) {
        const TuiFleetRow *r = &rows[i];
        int y = FLEET_TOP_ROWS + (int)(i - first);
        bool sel = i == selected;
        if (sel) tui_screen_fill(y, 0, COLS, TA_SELECTED);
        TuiAttr base = sel ? TA_SELECTED : r->lost ? TA_DIM : TA_VALUE;
        double v[] = { r->gpu_nodes, r->gpus, r->in_use, r->idle, r->free_, r->unavailable, r->pending };
        int x = 0;
        tui_screen_put_cut(y, x, ctxw - 1, base, r->context);
        x += ctxw;
        for (size_t c = 1; c < FLEET_NCOLS - 1; c++) {
            char buf[32] = "-";
            if (r->have) figure(buf, sizeof buf, v[c - 1]);
            tui_screen_put(y, x, fleet_cols[c].width - 1, base, buf);
            x += fleet_cols[c].width;
        }
        char st[128];
        TuiAttr sa = state_word(r, st, sizeof st);
        tui_screen_put(y, x, COLS - x, sel ? TA_SELECTED : sa, st);
    }
    const TuiFleetRow *s = n ? &rows[selected] : NULL;
    if (message) tui_screen_put_cut(LINES - 2, 0, COLS, TA_WARN, message);
    else if (s && s->lost && s->error) tui_screen_putf(LINES - 2, 0, COLS, TA_WARN, "%s: %s", s->context, s->error);
    tui_screen_put(LINES - 1, 0, COLS, TA_FLABEL, "Enter open the context's top   r retry failed now   q quit   "
                   "(IDLE ? = no metrics)");
    refresh();
}

/* watch_loop.c — list, show, then show again on change (watch_loop.h). */
#include "cmd/watch_loop.h"
#include "model/cluster_live.h"
#include "sources/apiclient.h"
#include "sources/watch.h"
#include "util/error.h"
#include "util/log.h"
#include "render/table.h"
#include "render/text.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WATCH_SETTLE 0.3          /* seconds: events closer than this are one change ... */
#define WATCH_MAX_DELAY 1.0       /* ... but a change is shown at most this late */
#define WATCH_COST_RATIO 6.0      /* watch_loop_gap (watch_loop.h) */
#define WATCH_MAX_GAP 2.0

double watch_loop_gap(double cost, double least)
{
    double gap = cost * WATCH_COST_RATIO;
    if (gap > WATCH_MAX_GAP) gap = WATCH_MAX_GAP;
    return gap > least ? gap : least;
}

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static volatile sig_atomic_t interrupted;
static void on_signal(int sig) { (void)sig; interrupted = 1; }

/* show() into a buffer: the caller prints it when it differs from the last; *rows: the keyed
 * table show() printed (render/table.h table_capture), NULL when none */
static char *render(WatchShowFn show, void *ctx, Cluster *c, struct ApiClient *api, bool first, int *rc, Table **rows)
{
    *rows = NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem) { *rc = -1; return NULL; }
    fflush(stdout);
    FILE *real = stdout;
    table_assume_width(true, table_terminal_width(real));   /* the buffer goes to the terminal */
    stdout = mem;
    c->now = (int64_t)time(NULL);                 /* ages are counted from now */
    table_capture(rows);
    *rc = show(ctx, c, api, first);
    table_capture(NULL);
    fflush(mem);
    stdout = real;
    table_assume_width(false, 0);
    fclose(mem);
    return buf;
}

/* prints what changed from (last, last_rows) to (now, now_rows): the rows that changed when
 * row mode has tables to compare, else the whole output when it differs; false when nothing */
static bool print_change(const char *last, const Table *last_rows, const char *now, const Table *now_rows,
                         bool row_mode, bool events, bool color)
{
    if (row_mode && (last_rows || now_rows)) {
        Table *d = table_diff(last_rows, now_rows, events);
        bool any = d && table_rows(d);
        /* the first table after none (no pending pods until now) comes with its header, unless
         * the command prints none (--no-headers) */
        if (any) table_print_rows(d, stdout, color, !last_rows && table_headed(now_rows));
        table_free(d);
        return any;
    }
    if (strcmp(now, last) == 0) return false;
    fputs("\n", stdout);
    fputs(now, stdout);
    return true;
}

static int watch_loop(const GlobalOptions *g, const char *cmd, const LoadRequest *rq, WatchShowFn show, void *ctx,
                      bool row_mode, bool events, const WatchLoopExtra *x, Error *err);

int watch_loop_run(const GlobalOptions *g, const char *cmd, const LoadRequest *rq, WatchShowFn show, void *ctx,
                   Error *err)
{
    return watch_loop(g, cmd, rq, show, ctx, false, false, NULL, err);
}

int watch_loop_run_ex(const GlobalOptions *g, const char *cmd, const LoadRequest *rq, WatchShowFn show, void *ctx,
                      const WatchLoopExtra *x, Error *err)
{
    return watch_loop(g, cmd, rq, show, ctx, false, false, x, err);
}

int watch_loop_run_rows(const GlobalOptions *g, const char *cmd, const LoadRequest *rq, WatchShowFn show, void *ctx,
                        bool events, Error *err)
{
    return watch_loop(g, cmd, rq, show, ctx, true, events, NULL, err);
}

static int watch_loop(const GlobalOptions *g, const char *cmd, const LoadRequest *rq, WatchShowFn show, void *ctx,
                      bool row_mode, bool events, const WatchLoopExtra *x, Error *err)
{
    WatchTickFn tick = x ? x->tick : NULL;
    if (g->snapshot) {
        error_set(err, "%s --watch follows a live cluster; it cannot be used with --snapshot", cmd);
        return EXIT_USAGE;
    }
    Cluster c;
    cluster_init(&c);
    cluster_live_enable(&c);
    char *rv[OBJ__COUNT] = { 0 };
    ApiClient *api = NULL;
    if (loader_cluster_load_at(&c, &g->source, rq, rv, &api, err) < 0) {
        cluster_release(&c);
        return EXIT_FAIL;
    }
    cluster_live_loaded(&c);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    int ret = EXIT_OK, rc = 0;
    Table *last_rows = NULL, *now_rows = NULL;
    char *last = render(show, ctx, &c, api, true, &rc, &last_rows);
    if (rc || !last) { ret = EXIT_FAIL; goto out; }
    if (!row_mode) table_free(last_rows), last_rows = NULL;
    if (last_rows && events) print_change("", NULL, last, last_rows, true, true, g->color);   /* every row ADDED */
    else fputs(last, stdout);
    fflush(stdout);
    SourceConfig wsc = g->source;                /* the watches' (copied by watcher_start) */
    Watcher *w = watcher_start(&wsc, rq, &c, rv, err);
    if (!w) { ret = EXIT_FAIL; goto out; }
    bool relisting[OBJ__COUNT] = { false };
    long refused = 0;
    double render_cost = 0, rendered_at = 0;
    bool changed = false;
    double changed_at = 0;
    while (!interrupted) {
        WatchEvent *evs = watcher_take(w, changed ? WATCH_SETTLE : 0.25);
        for (WatchEvent *e = evs; e; e = e->next) {
            Error ae = { 0 };
            switch (e->type) {
            case WATCH_RELIST_BEGIN:
                relisting[e->kind] = true;
                cluster_live_reset(&c, e->kind);
                break;
            case WATCH_RELIST_END:
                relisting[e->kind] = false;
                break;
            case WATCH_UPSERT: case WATCH_DELETE:
                if (cluster_live_apply(&c, e->kind, e->type == WATCH_DELETE ? LIVE_DELETE : LIVE_UPSERT, e->obj, &ae) < 0)
                    log_verbose(1, "watch: %s skipped: %s", obj_kind_name(e->kind), ae.msg);
                break;
            }
            if (!changed) changed_at = mono();
            changed = true;
        }
        bool busy = evs != NULL;
        watch_events_free(evs);
        WatchStats st;
        watcher_stats(w, &st);
        if (tick) tick(ctx, &st);
        if (st.refused > refused) {
            /* as kubectl get -w says a refused watch; here the other kinds go on */
            refused = st.refused;
            text_printf(stderr, "warning: watch: %s; what was listed stays as it was\n", st.last_problem);
        }
        bool any_relist = false;
        for (int k = 0; k < OBJ__COUNT; k++) any_relist |= relisting[k];
        /* wait for a burst to settle, not longer than WATCH_MAX_DELAY; never mid-relist; not
         * sooner than the last picture's cost allows */
        if (!changed || any_relist || (busy && mono() - changed_at < WATCH_MAX_DELAY)) continue;
        if (mono() - rendered_at < watch_loop_gap(render_cost, 0)) continue;
        changed = false;
        cluster_live_commit(&c);
        double r0 = mono();
        char *now = render(show, ctx, &c, api, false, &rc, &now_rows);
        rendered_at = mono();
        render_cost = rendered_at - r0;
        if (rc || !now) { free(now); table_free(now_rows); ret = EXIT_FAIL; break; }
        if (!row_mode) table_free(now_rows), now_rows = NULL;
        if (print_change(last, last_rows, now, now_rows, row_mode, events, g->color)) fflush(stdout);
        free(last);
        last = now;
        table_free(last_rows);
        last_rows = now_rows;
        now_rows = NULL;
    }
    watcher_stop(w);
out:
    free(last);
    table_free(last_rows);
    for (int k = 0; k < OBJ__COUNT; k++) free(rv[k]);
    if (api) apiclient_free(api);
    cluster_release(&c);
    return ret;
}

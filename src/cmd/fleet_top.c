/* fleet_top.c — `kubectl gpu top --contexts/--all-contexts`: the fleet screen (cmd/fleet.h).
 *
 * Each context is followed by its own watch, in a child process of ours (fork, no exec: its
 * credentials, exec plugin and memory stay its own, as one `status -w`): the child lists the
 * context, then follows it by watches (cmd/watch_loop.h, the machinery of `status -w`) and
 * writes to a pipe one line of JSON each time something the row shows changes:
 *
 *   {"summary": {...}}           the GPUStatus summary's figures (FleetCommand.watch)
 *   {"watch": {"lost": N, "problem": "..."}}   N kinds without a working watch (0: all back)
 *   {"error": "..."}             its last line when it ends: why it could not list or watch
 *
 * The parent waits on every pipe and the keyboard at once and redraws a row as soon as its
 * line arrives.  A watch that breaks is resumed (or its kind listed again after a 410) by the
 * child's watcher, as the single-context top does; while it is down the row is "lost since
 * HH:MM:SS" with its data's age.  A child that ends (the lists failed, the server was down) is
 * started again after a backoff (1 s doubling to 30 s).  At most --max-concurrent-contexts
 * children are listing at once (started, no first line yet); the others wait their turn.
 * The parent holds a row and a line of at most FLEET_LINE_MAX bytes per context.
 * Enter gives the terminal to the selected context's usual top (run in a child process with
 * --context NAME) and takes it back when that quits; the watches go on meanwhile (each child
 * is in a process group of its own: the terminal's Ctrl-C is not theirs).
 */
#include "cmd/fleet.h"
#include "tui/tui_fleet.h"
#include "tui/tui_screen.h"
#include "util/error.h"
#include "util/util.h"
#include <cjson/cJSON.h>
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { FLEET_DEFAULT_CONCURRENCY = 8, FLEET_LINE_MAX = 64 * 1024 };
#define FLEET_RETRY_START 1.0     /* seconds before a context whose child ended is started again ... */
#define FLEET_RETRY_CAP 30.0      /* ... doubling up to this */
#define FLEET_POLL_MS 200         /* the longest wait for a line or a key */

typedef enum { CW_IDLE, CW_LISTING, CW_WATCHING } FleetWatchState;

/* one context's child, as the parent sees it */
typedef struct {
    FleetWatchState state;
    pid_t pid;
    int fd;                      /* the read end of the child's stdout, -1 when none */
    Strbuf line;                 /* what arrived of the next line */
    bool overlong;               /* the line being read is over FLEET_LINE_MAX: dropped */
    double retry_at;             /* CW_IDLE: when to start it again */
    double retry_wait;           /* the backoff's current wait */
    double good_mono;            /* the last moment its figures were known current */
    char *error;                 /* the reason it is lost or failed, or NULL */
} FleetWatch;

static double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* the row's figures from a {"summary": ...} line (the keys of the GPUStatus document) */
static void row_read(TuiFleetRow *r, const cJSON *doc)
{
    const cJSON *sum = cJSON_GetObjectItemCaseSensitive(doc, "summary");
    const cJSON *phys = cJSON_GetObjectItemCaseSensitive(sum, "physical");
    r->gpu_nodes = num(sum, "gpuNodes");
    r->gpus = num(sum, "physicalGPUs");
    r->in_use = num(phys, "inUse");
    r->idle = num(phys, "idleAllocated");
    r->free_ = num(phys, "free");
    r->unavailable = num(phys, "unavailable");
    r->pending = num(sum, "pendingGPUPods");
}

/* ---- the child: one context listed, then watched ---- */

typedef struct {
    pid_t parent;
    int sent_lost;               /* the "lost" last written, -1 before the first */
} ChildTick;

/* one line of JSON to stdout (the pipe) */
static void child_emit(cJSON *doc)
{
    char *line = cJSON_PrintUnformatted(doc);
    if (line) printf("%s\n", line);
    fflush(stdout);
    cJSON_free(line);
    cJSON_Delete(doc);
}

static void child_tick(void *ctx, const WatchStats *st)
{
    ChildTick *t = ctx;
    if (getppid() != t->parent) _exit(EXIT_OK);    /* the fleet screen is gone (killed) */
    if (st->lost == t->sent_lost) return;
    t->sent_lost = st->lost;
    cJSON *doc = cJSON_CreateObject();
    cJSON *w = cJSON_AddObjectToObject(doc, "watch");
    cJSON_AddNumberToObject(w, "lost", st->lost);
    cJSON_AddNumberToObject(w, "kinds", st->kinds);
    cJSON_AddStringToObject(w, "problem", st->lost ? st->last_problem : "");
    child_emit(doc);
}

static _Noreturn void child_run(const FleetCommand *fc, GlobalOptions *g, const char *context, int out_fd,
                                const FleetWatch *all, size_t n, pid_t parent)
{
    setpgid(0, 0);                               /* the terminal's signals are not ours */
    signal(SIGINT, SIG_DFL);
    signal(SIGQUIT, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);                    /* the parent gone: end at the next line */
    for (size_t i = 0; i < n; i++)               /* the other contexts' pipes */
        if (all[i].fd >= 0) close(all[i].fd);
    int devnull = open("/dev/null", O_RDWR);
    if (devnull >= 0) {
        dup2(devnull, STDIN_FILENO);             /* no prompts: many run at once */
        dup2(devnull, STDERR_FILENO);            /* the screen is the parent's; reasons come as lines */
        close(devnull);
    }
    dup2(out_fd, STDOUT_FILENO);
    close(out_fd);
    g->context = context;
    g->contexts = NULL;
    g->all_contexts = false;
    g->color = false;
    g->source = global_options_source_config(g);
    ChildTick t = { parent, -1 };
    Error err = { 0 };
    int rc = fc->watch(g, child_tick, &t, &err);
    if (rc != EXIT_OK) {
        cJSON *doc = cJSON_CreateObject();
        if (err.set) cJSON_AddStringToObject(doc, "error", err.msg);
        else {
            char *why = xasprintf("failed with exit code %d", rc);
            cJSON_AddStringToObject(doc, "error", why);
            free(why);
        }
        child_emit(doc);
    }
    fflush(stdout);
    _exit(rc);
}

/* starts the context's child: CW_LISTING, or CW_IDLE with the reason */
static void watch_spawn(const FleetCommand *fc, GlobalOptions *g, FleetWatch *all, size_t n, size_t i,
                        const char *context)
{
    FleetWatch *w = &all[i];
    int p[2];
    if (pipe(p) < 0) {
        free(w->error);
        w->error = xasprintf("pipe: %s", strerror(errno));
        return;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        child_run(fc, g, context, p[1], all, n, parent);
    }
    close(p[1]);
    if (pid < 0) {
        close(p[0]);
        free(w->error);
        w->error = xasprintf("fork: %s", strerror(errno));
        return;
    }
    setpgid(pid, pid);                           /* as the child does: whichever runs first */
    fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
    fcntl(p[0], F_SETFD, FD_CLOEXEC);
    w->pid = pid;
    w->fd = p[0];
    w->state = CW_LISTING;
    strbuf_reset(&w->line);
    w->overlong = false;
}

/* the child is gone (or to go): its process group ended and waited for */
static void watch_end(FleetWatch *w)
{
    if (w->fd >= 0) close(w->fd);
    w->fd = -1;
    if (w->pid > 0) {
        kill(-w->pid, SIGKILL);                  /* with an exec plugin it may have started */
        kill(w->pid, SIGKILL);
        while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR) {}
    }
    w->pid = 0;
    w->state = CW_IDLE;
}

static void mark_lost(FleetWatch *w, TuiFleetRow *r, double now)
{
    if (r->lost) return;
    r->lost = true;
    r->lost_since = time(NULL);
    w->good_mono = now;
}

/* one line from the child */
static void watch_line(FleetWatch *w, TuiFleetRow *r, const char *text, size_t len, double now)
{
    cJSON *doc = cJSON_ParseWithLength(text, len);
    if (!cJSON_IsObject(doc)) {
        cJSON_Delete(doc);
        return;
    }
    const cJSON *sum = cJSON_GetObjectItemCaseSensitive(doc, "summary");
    const cJSON *wst = cJSON_GetObjectItemCaseSensitive(doc, "watch");
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(doc, "error");
    if (cJSON_IsObject(sum)) {
        row_read(r, doc);
        r->have = true;
        r->listing = false;
        if (w->state == CW_LISTING) {            /* listed: live until a watch says otherwise */
            w->state = CW_WATCHING;
            r->lost = false;
            free(w->error);
            w->error = NULL;
            w->retry_wait = 0;
        }
    } else if (cJSON_IsObject(wst)) {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(wst, "problem");
        if (num(wst, "lost") > 0) {
            free(w->error);
            w->error = xstrdup(cJSON_IsString(p) && *p->valuestring ? p->valuestring : "watch lost");
            mark_lost(w, r, now);
        } else {
            free(w->error);
            w->error = NULL;
            r->lost = false;
        }
    } else if (cJSON_IsString(e)) {
        free(w->error);
        w->error = xstrdup(e->valuestring);
    }
    cJSON_Delete(doc);
}

/* what the child wrote since; false when the pipe ended (the child is ending) */
static bool watch_read(FleetWatch *w, TuiFleetRow *r, double now)
{
    char buf[4096];
    for (;;) {
        ssize_t got = read(w->fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return errno == EAGAIN || errno == EWOULDBLOCK;
        if (got == 0) return false;
        for (ssize_t i = 0; i < got;) {
            const char *nl = memchr(buf + i, '\n', (size_t)(got - i));
            size_t take = nl ? (size_t)(nl - (buf + i)) : (size_t)(got - i);
            if (!w->overlong && w->line.len + take <= FLEET_LINE_MAX) strbuf_add(&w->line, buf + i, take);
            else w->overlong = true;
            i += (ssize_t)take;
            if (!nl) break;
            i++;
            if (!w->overlong && w->line.len) watch_line(w, r, w->line.buf, w->line.len, now);
            strbuf_reset(&w->line);
            w->overlong = false;
        }
    }
}

/* the child ended: the row is lost (figures kept) or failed; started again after a backoff */
static void watch_ended(FleetWatch *w, TuiFleetRow *r, double now)
{
    int st = 0;
    pid_t pid = w->pid;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    w->pid = 0;
    watch_end(w);
    if (!w->error) {
        if (WIFSIGNALED(st)) w->error = xasprintf("killed by signal %d", WTERMSIG(st));
        else w->error = xasprintf("ended with exit code %d", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    }
    r->listing = false;
    mark_lost(w, r, now);
    w->retry_wait = w->retry_wait > 0 ? fmin(FLEET_RETRY_CAP, w->retry_wait * 2) : FLEET_RETRY_START;
    w->retry_at = now + w->retry_wait;
}

/* the selected context's own top, in a child that has the terminal; its exit code */
static int open_context(int (*top_run)(int, char **, struct GlobalOptions *, struct Error *), GlobalOptions *g,
                        const char *context, const FleetWatch *all, size_t n)
{
    tui_screen_close();
    struct sigaction ign = { 0 }, old_int, old_quit;
    ign.sa_handler = SIG_IGN;
    sigaction(SIGINT, &ign, &old_int);           /* Ctrl-C is the child's (its screen's flag) */
    sigaction(SIGQUIT, &ign, &old_quit);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        for (size_t i = 0; i < n; i++)
            if (all[i].fd >= 0) close(all[i].fd);
        signal(SIGPIPE, SIG_DFL);                /* as a top of its own (Ctrl-C: its screen's) */
        g->context = context;
        g->contexts = NULL;
        g->all_contexts = false;
        g->source = global_options_source_config(g);
        Error err = { 0 };
        int rc = top_run(0, NULL, g, &err);
        if (rc && err.set) fprintf(stderr, "error: %s\n", err.msg);
        fflush(stdout);
        fflush(stderr);
        _exit(rc);
    }
    int status = 0, rc = -1;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (pid > 0) rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    return rc;
}

int fleet_top_run(const FleetCommand *status_fc, int (*top_run)(int, char **, struct GlobalOptions *, struct Error *),
                  GlobalOptions *g, double interval, Error *err)
{
    (void)interval;                              /* the watches say when; the context's own top uses it */
    if (!status_fc->watch) {
        error_set(err, "top --contexts: %s cannot be watched", status_fc->name);
        return EXIT_FAIL;
    }
    Strvec names = STRVEC_INIT;
    int crc = fleet_contexts(g, NULL, &names, err);
    if (crc) return crc;
    size_t n = names.n;
    size_t limit = g->max_concurrent_contexts > 0 ? (size_t)g->max_concurrent_contexts : FLEET_DEFAULT_CONCURRENCY;
    FleetWatch *ws = xcalloc(n, sizeof *ws);
    TuiFleetRow *rows = xcalloc(n, sizeof *rows);
    struct pollfd *pfd = xcalloc(n + 1, sizeof *pfd);
    size_t *pfd_of = xcalloc(n + 1, sizeof *pfd_of);
    for (size_t i = 0; i < n; i++) {
        rows[i].context = names.v[i];
        ws[i].fd = -1;
    }
    /* a child's pipe closed under a write it makes is its own SIGPIPE, not ours */
    struct sigaction ign = { 0 }, old_pipe;
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &old_pipe);
    const char *nc = getenv("NO_COLOR");
    bool color = !g->no_color && !(nc && *nc);
    int rc = EXIT_OK;
    if (tui_screen_open(color, err) < 0) rc = EXIT_FAIL;
    size_t selected = 0;
    char *message = NULL;
    while (rc == EXIT_OK) {
        double now = mono_now();
        size_t listing = 0;
        for (size_t i = 0; i < n; i++) listing += ws[i].state == CW_LISTING;
        for (size_t i = 0; i < n && listing < limit; i++) {
            if (ws[i].state != CW_IDLE || now < ws[i].retry_at) continue;
            watch_spawn(status_fc, g, ws, n, i, names.v[i]);
            if (ws[i].state == CW_LISTING) {
                listing++;
                rows[i].listing = true;
            } else {
                mark_lost(&ws[i], &rows[i], now);
                ws[i].retry_wait = ws[i].retry_wait > 0 ? fmin(FLEET_RETRY_CAP, ws[i].retry_wait * 2) : FLEET_RETRY_START;
                ws[i].retry_at = now + ws[i].retry_wait;
            }
        }
        for (size_t i = 0; i < n; i++) {
            rows[i].error = ws[i].error;
            rows[i].age = rows[i].lost && rows[i].have ? now - ws[i].good_mono : 0;
        }
        tui_fleet_draw(rows, n, selected, message);
        if (tui_screen_quit_signal()) break;

        size_t np = 0;
        pfd[np].fd = STDIN_FILENO;
        pfd[np].events = POLLIN;
        pfd_of[np++] = n;
        for (size_t i = 0; i < n; i++) {
            if (ws[i].fd < 0) continue;
            pfd[np].fd = ws[i].fd;
            pfd[np].events = POLLIN;
            pfd_of[np++] = i;
        }
        /* keys ncurses holds already are taken first: poll would not see them */
        int pr = poll(pfd, (nfds_t)np, FLEET_POLL_MS);
        now = mono_now();
        for (size_t k = 1; pr > 0 && k < np; k++) {
            if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            size_t i = pfd_of[k];
            if (!watch_read(&ws[i], &rows[i], now)) watch_ended(&ws[i], &rows[i], now);
        }
        timeout(0);                              /* poll waited already */
        int key = tui_screen_getkey();
        if (key == 'q' || key == 'Q') break;
        if (key == KEY_UP || key == 'k') { if (selected) selected--; }
        else if (key == KEY_DOWN || key == 'j') { if (selected + 1 < n) selected++; }
        else if (key == 'r') { for (size_t i = 0; i < n; i++) ws[i].retry_at = 0; }
        else if (key == '\n' || key == '\r' || key == KEY_ENTER) {
            int trc = open_context(top_run, g, names.v[selected], ws, n);
            free(message);
            message = trc ? xasprintf("top --context %s ended with exit code %d", names.v[selected], trc) : NULL;
            if (tui_screen_open(color, err) < 0) rc = EXIT_FAIL;
        }
    }
    tui_screen_close();
    for (size_t i = 0; i < n; i++) {            /* the watches end with the screen */
        watch_end(&ws[i]);
        strbuf_clear(&ws[i].line);
        free(ws[i].error);
    }
    sigaction(SIGPIPE, &old_pipe, NULL);
    free(message);
    free(ws); free(rows); free(pfd); free(pfd_of);
    strvec_clear(&names);
    return rc;
}

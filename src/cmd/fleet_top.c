/* fleet_top.c — `kubectl gpu top --contexts/--all-contexts`: the fleet screen (cmd/fleet.h).
 *
 * Each context is read on its own schedule: `status --context NAME -o json` in a child
 * process (fleet_slot_spawn, as status --all-contexts runs it), at most
 * --max-concurrent-contexts at once, and read again FLEET_TOP_EVERY --interval (10 s by
 * default) after its last result.  A context whose latest read failed keeps its last
 * figures, marked lost with their age.  Enter gives the terminal to the selected context's
 * usual top (run in a child process with --context NAME) and takes it back when that quits.
 */
#include "cmd/fleet.h"
#include "tui/tui_fleet.h"
#include "tui/tui_screen.h"
#include "util/error.h"
#include "util/util.h"
#include <cjson/cJSON.h>
#include <curses.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { FLEET_TOP_EVERY = 5 };       /* intervals between two reads of a context */

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

/* the row's figures from the context's GPUStatus document */
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

/* the selected context's own top, in a child that has the terminal; its exit code */
static int open_context(int (*top_run)(int, char **, struct GlobalOptions *, struct Error *), GlobalOptions *g,
                        const char *context)
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
    Strvec names = STRVEC_INIT;
    int crc = fleet_contexts(g, NULL, &names, err);
    if (crc) return crc;
    size_t n = names.n, limit = g->max_concurrent_contexts > 0 ? (size_t)g->max_concurrent_contexts : 8;
    double every = FLEET_TOP_EVERY * interval;
    FleetSlot *slots = xcalloc(n, sizeof *slots);
    TuiFleetRow *rows = xcalloc(n, sizeof *rows);
    double *due = xcalloc(n, sizeof *due), *read_at = xcalloc(n, sizeof *read_at);
    char **errors = xcalloc(n, sizeof *errors);
    for (size_t i = 0; i < n; i++) {
        slots[i].context = rows[i].context = names.v[i];
    }
    const char *nc = getenv("NO_COLOR");
    if (tui_screen_open(!g->no_color && !(nc && *nc), err) < 0) {
        free(slots); free(rows); free(due); free(read_at); free(errors);
        strvec_clear(&names);
        return EXIT_FAIL;
    }
    size_t selected = 0, running = 0;
    char *message = NULL;
    for (;;) {
        double now = mono_now();
        for (size_t i = 0; i < n && running < limit; i++) {
            if (slots[i].state != SLOT_WAITING || now < due[i]) continue;
            fleet_slot_spawn(status_fc, &slots[i], 0, NULL, g);
            if (slots[i].state == SLOT_RUNNING) running++;
            rows[i].reading = true;
        }
        for (size_t i = 0; i < n; i++) {
            if (slots[i].state == SLOT_RUNNING) {
                int st = 0;
                if (waitpid(slots[i].pid, &st, WNOHANG) != slots[i].pid) continue;
                slots[i].wait_status = st;
                slots[i].state = SLOT_DONE;
                running--;
            }
            if (slots[i].state != SLOT_DONE) continue;
            char *reason = NULL;
            cJSON *doc = fleet_slot_collect(&slots[i], false, false, &reason);
            free(errors[i]);
            errors[i] = reason;
            rows[i].error = reason;
            rows[i].reading = false;
            rows[i].lost = doc == NULL;
            if (doc) {
                row_read(&rows[i], doc);
                rows[i].have = true;
                read_at[i] = now;
            }
            cJSON_Delete(doc);
            due[i] = now + every;
        }
        for (size_t i = 0; i < n; i++) rows[i].age = rows[i].have ? now - read_at[i] : 0;
        tui_fleet_draw(rows, n, selected, message);
        if (tui_screen_quit_signal()) break;
        int key = tui_screen_getkey();
        if (key == 'q' || key == 'Q') break;
        if (key == KEY_UP || key == 'k') { if (selected) selected--; }
        else if (key == KEY_DOWN || key == 'j') { if (selected + 1 < n) selected++; }
        else if (key == 'r') { for (size_t i = 0; i < n; i++) due[i] = 0; }
        else if (key == '\n' || key == '\r' || key == KEY_ENTER) {
            int rc = open_context(top_run, g, names.v[selected]);
            free(message);
            message = rc ? xasprintf("top --context %s ended with exit code %d", names.v[selected], rc) : NULL;
            if (tui_screen_open(!g->no_color && !(nc && *nc), err) < 0) break;
        }
    }
    tui_screen_close();
    for (size_t i = 0; i < n; i++) {            /* reads still under way are not waited for */
        if (slots[i].state == SLOT_RUNNING) {
            kill(slots[i].pid, SIGTERM);
            waitpid(slots[i].pid, &slots[i].wait_status, 0);
            slots[i].state = SLOT_DONE;
        }
        if (slots[i].state == SLOT_DONE) {
            char *reason = NULL;
            cJSON_Delete(fleet_slot_collect(&slots[i], false, false, &reason));
            free(reason);
        }
        free(slots[i].spawn_error);
        free(errors[i]);
    }
    int rc = err->set ? EXIT_FAIL : EXIT_OK;
    free(message);
    free(slots); free(rows); free(due); free(read_at); free(errors);
    strvec_clear(&names);
    return rc;
}

/* fleet.c — a command over several kubeconfig contexts: one child process per context, a
 * bounded number at once, the results rendered in the kubeconfig's order (cmd/fleet.h).
 */
#include "cmd/fleet.h"
#include "sources/kubeconfig.h"
#include "render/text.h"
#include "util/error.h"
#include "util/log.h"
#include "util/util.h"
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { FLEET_DEFAULT_CONCURRENCY = 8 };

bool fleet_wanted(const GlobalOptions *g)
{
    return g->all_contexts || (g->contexts != NULL);
}

/* --contexts a,b,c: each name once, in the order given, each one the kubeconfig has */
static int fleet_named(const char *list, const Strvec *known, Strvec *out, Error *err)
{
    char *copy = xstrdup(list), *save = NULL;
    int rc = 0;
    for (char *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
        while (*p == ' ') p++;
        size_t n = strlen(p);
        while (n && p[n - 1] == ' ') p[--n] = '\0';
        if (!*p || strvec_contains(out, p)) continue;
        if (!strvec_contains(known, p)) {
            error_set(err, "--contexts: context \"%s\" does not exist in the kubeconfig", p);
            rc = -1;
            break;
        }
        strvec_push(out, p);
    }
    free(copy);
    if (!rc && out->n == 0) {
        error_set(err, "--contexts: no context named");
        rc = -1;
    }
    return rc;
}

/* the flags a fleet cannot take: 0, or -1 with err set (a usage error) */
static int fleet_check_flags(const GlobalOptions *g, const char *output, size_t ncontexts, Error *err)
{
    if (g->context) error_set(err, "--context: not with --contexts or --all-contexts (name it in --contexts)");
    else if (g->cluster || g->user) error_set(err, "--cluster and --user: not with --contexts or --all-contexts");
    else if (g->snapshot) error_set(err, "--snapshot: not with --contexts or --all-contexts (a snapshot is one cluster)");
    else if (g->prometheus && ncontexts > 1)
        error_set(err, "--prometheus: one context only; with several, each context's Prometheus or DCGM "
                  "exporters are found as without the flag");
    else if (output && !str_eq(output, "table") && !str_eq(output, "wide") && !str_eq(output, "json") &&
             !str_eq(output, "yaml"))
        error_set(err, "-o %s: with --contexts or --all-contexts, -o is table, wide, json or yaml", output);
    else return 0;
    return -1;
}

/* ---- one context, in a child process ---- */

static void fleet_child(const FleetCommand *fc, FleetSlot *s, int argc, char **argv, GlobalOptions *g)
{
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) { dup2(devnull, STDIN_FILENO); close(devnull); }   /* no prompts: many run at once */
    dup2(fileno(s->out), STDOUT_FILENO);
    dup2(fileno(s->err), STDERR_FILENO);
    g->context = s->context;
    g->contexts = NULL;
    g->all_contexts = false;
    g->color = false;
    g->source = global_options_source_config(g);
    *fc->output = "json";
    if (fc->no_headers) *fc->no_headers = false;
    Error err = { 0 };
    int rc = fc->run(argc, argv, g, &err);
    fflush(stdout);
    if (rc == EXIT_OK && ferror(stdout)) rc = EXIT_FAIL;
    if (rc != EXIT_OK && err.set) fprintf(stderr, "error: %s\n", err.msg);
    fflush(stderr);
    _exit(rc);
}

void fleet_slot_spawn(const FleetCommand *fc, FleetSlot *s, int argc, char **argv, GlobalOptions *g)
{
    s->pid = 0;
    s->wait_status = 0;
    free(s->spawn_error);
    s->spawn_error = NULL;
    s->out = tmpfile();
    s->err = tmpfile();
    if (!s->out || !s->err) {
        s->spawn_error = xasprintf("temporary file: %s", strerror(errno));
        s->state = SLOT_DONE;
        return;
    }
    /* not inherited past exec (exec plugins): the child's own become its stdout and stderr */
    fcntl(fileno(s->out), F_SETFD, FD_CLOEXEC);
    fcntl(fileno(s->err), F_SETFD, FD_CLOEXEC);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        s->spawn_error = xasprintf("fork: %s", strerror(errno));
        s->state = SLOT_DONE;
        return;
    }
    if (pid == 0) fleet_child(fc, s, argc, argv, g);
    s->pid = pid;
    s->state = SLOT_RUNNING;
    log_verbose(1, "fleet: context %s: started (pid %d)", s->context, (int)pid);
}

/* ---- its result, in the parent ---- */

static char *read_all(FILE *f, size_t *len)
{
    Strbuf sb = STRBUF_INIT;
    char buf[1 << 16];
    size_t n;
    rewind(f);
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) strbuf_add(&sb, buf, n);
    *len = sb.len;
    return strbuf_detach(&sb);
}

/* the child's stderr: its "error: " line (the last) becomes the reason; with -v, or when the
 * context answered, every other line is passed on under the context's name */
static char *relay_stderr(const FleetSlot *s, bool answered, bool verbose, bool relay)
{
    size_t len = 0;
    char *text = read_all(s->err, &len);
    char *reason = NULL;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (!answered && str_starts_with(line, "error: ")) {
            free(reason);
            reason = xstrdup(line + 7);
            continue;
        }
        if (!relay || (!answered && !verbose)) continue;
        if (str_starts_with(line, "warning: ")) text_printf(stderr, "warning: context \"%s\": %s\n", s->context, line + 9);
        else text_printf(stderr, "context \"%s\": %s\n", s->context, line);
    }
    free(text);
    return reason;
}

struct cJSON *fleet_slot_collect(FleetSlot *s, bool relay, bool verbose, char **reason_out)
{
    cJSON *doc = NULL;
    char *reason = NULL;
    bool exited_ok = !s->spawn_error && WIFEXITED(s->wait_status) && WEXITSTATUS(s->wait_status) == 0;
    if (exited_ok) {
        size_t len = 0;
        char *text = read_all(s->out, &len);
        doc = cJSON_ParseWithLength(text, len);
        free(text);
        if (!cJSON_IsObject(doc)) {
            cJSON_Delete(doc);
            doc = NULL;
        }
    }
    if (s->spawn_error) reason = xstrdup(s->spawn_error);
    else reason = relay_stderr(s, doc != NULL, verbose, relay);
    if (!doc && !reason) {
        if (exited_ok) reason = xstrdup("its answer was not a JSON document");
        else if (WIFSIGNALED(s->wait_status)) reason = xasprintf("killed by signal %d", WTERMSIG(s->wait_status));
        else reason = xasprintf("failed with exit code %d", WEXITSTATUS(s->wait_status));
    }
    if (doc) {
        free(reason);
        reason = NULL;
    }
    if (s->out) fclose(s->out);
    if (s->err) fclose(s->err);
    s->out = s->err = NULL;
    s->state = SLOT_WAITING;
    *reason_out = reason;
    return doc;
}

/* true when the context answered */
static bool fleet_finish_slot(FleetSlot *s, FleetRender *r, bool verbose)
{
    char *reason = NULL;
    cJSON *doc = fleet_slot_collect(s, true, verbose, &reason);
    if (!doc) text_printf(stderr, "warning: context \"%s\": %s\n", s->context, reason);
    fleet_render_context(r, s->context, reason, doc);
    bool answered = doc != NULL;
    cJSON_Delete(doc);
    free(reason);
    return answered;
}

/* the slot of a child that ended, or NULL (not one of ours) */
static FleetSlot *slot_of(FleetSlot *slots, size_t n, pid_t pid)
{
    for (size_t i = 0; i < n; i++)
        if (slots[i].state == SLOT_RUNNING && slots[i].pid == pid) return &slots[i];
    return NULL;
}

int fleet_contexts(const GlobalOptions *g, const char *output, Strvec *names, Error *err)
{
    Strvec known = STRVEC_INIT;
    if (kubeconfig_context_names(g->kubeconfig, &known, err) < 0) {
        strvec_clear(&known);
        return EXIT_FAIL;
    }
    int rc = EXIT_USAGE;
    bool bad = false;
    if (g->contexts && g->all_contexts) error_set(err, "--contexts and --all-contexts: give one of them");
    else if (g->all_contexts) {
        for (size_t i = 0; i < known.n; i++) strvec_push(names, known.v[i]);
        if (!names->n) { error_set(err, "--all-contexts: the kubeconfig has no contexts"); rc = EXIT_FAIL; }
    } else {
        bad = fleet_named(g->contexts, &known, names, err) < 0;
    }
    strvec_clear(&known);
    if (bad || !names->n || fleet_check_flags(g, output, names->n, err) < 0) {
        strvec_clear(names);
        return rc;
    }
    return 0;
}

int fleet_run(const FleetCommand *fc, int argc, char **argv, GlobalOptions *g, Error *err)
{
    Strvec names = STRVEC_INIT;
    int crc = fleet_contexts(g, *fc->output, &names, err);
    if (crc) return crc;
    OutputFormat fmt = OUT_TABLE;
    static const OutputFormat allowed[] = { OUT_TABLE, OUT_WIDE, OUT_JSON, OUT_YAML };
    if (*fc->output && output_format_parse(*fc->output, allowed, 4, &fmt, fc->name) < 0) {
        strvec_clear(&names);
        return EXIT_USAGE;
    }
    RenderFormat rf = fmt == OUT_WIDE ? RENDER_WIDE : fmt == OUT_JSON ? RENDER_JSON : fmt == OUT_YAML ? RENDER_YAML
                                                                                                      : RENDER_TEXT;
    size_t limit = g->max_concurrent_contexts > 0 ? (size_t)g->max_concurrent_contexts : FLEET_DEFAULT_CONCURRENCY;
    log_verbose(1, "fleet: %zu context(s), %zu at a time", names.n, limit);

    FleetSlot *slots = xcalloc(names.n, sizeof *slots);
    for (size_t i = 0; i < names.n; i++) slots[i].context = names.v[i];
    FleetRender *r = fleet_render_new(fc->kind, rf, g->color, fc->no_headers && *fc->no_headers);
    size_t next_start = 0, next_done = 0, running = 0, answered = 0;
    bool verbose = g->verbose > 0;
    while (next_done < names.n) {
        while (running < limit && next_start < names.n) {
            fleet_slot_spawn(fc, &slots[next_start], argc, argv, g);
            if (slots[next_start++].state == SLOT_RUNNING) running++;
        }
        while (next_done < names.n && slots[next_done].state == SLOT_DONE) {  /* in the kubeconfig's order */
            answered += fleet_finish_slot(&slots[next_done], r, verbose);
            next_done++;
        }
        if (next_done >= names.n || !running) continue;
        int status = 0;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR) continue;
            for (size_t i = 0; i < names.n; i++)     /* ECHILD: none of ours is left to wait for */
                if (slots[i].state == SLOT_RUNNING) {
                    slots[i].spawn_error = xasprintf("waitpid: %s", strerror(errno));
                    slots[i].state = SLOT_DONE;
                }
            running = 0;
            continue;
        }
        FleetSlot *s = slot_of(slots, names.n, pid);
        if (!s) continue;
        s->wait_status = status;
        s->state = SLOT_DONE;
        running--;
        log_verbose(1, "fleet: context %s: done (exit %d)", s->context,
                    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    }
    int wrc = fleet_render_finish(r);
    for (size_t i = 0; i < names.n; i++) free(slots[i].spawn_error);
    free(slots);
    strvec_clear(&names);
    if (wrc < 0) {
        error_set(err, "writing output failed");
        return EXIT_FAIL;
    }
    if (!answered) {
        error_set(err, "no context answered");
        return EXIT_FAIL;
    }
    return EXIT_OK;
}

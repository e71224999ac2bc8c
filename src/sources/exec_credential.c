/* exec_credential.c — client-go credential plugins (reference §5): run users[].user.exec,
 * read the ExecCredential it prints, cache it until it expires.
 *
 * The plugin runs with our environment plus its env entries and KUBERNETES_EXEC_INFO; its
 * stderr is ours (so its prompts and errors reach the person), stdin is /dev/null unless the
 * interactive mode asks for the terminal.  Its stdout is read through a pipe with a deadline,
 * until the plugin exits (a child it leaves holding stdout does not hold us): a plugin that
 * hangs is killed (with its process group when it is not interactive) and the
 * error says so.  Nothing the plugin printed on stdout is ever repeated in a message: it holds
 * the credential.
 */
#include "sources/kubeconfig.h"
#include "util/log.h"
#include "util/error.h"
#include "internal.h"
#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define EXEC_OUTPUT_MAX (1u << 20)
#define EXEC_DEFAULT_TIMEOUT 60.0

static int cloexec_pipe(int fds[2])
{
    if (pipe(fds) != 0) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
}

static double now_mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* prefix naming the kubeconfig entry the plugin belongs to */
static void exec_error(const RestConfig *rc, Error *err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void exec_error(const RestConfig *rc, Error *err, const char *fmt, ...)
{
    char msg[1536];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (rc->user_origin && rc->user_name)
        error_set(err, "kubeconfig %s: user \"%s\": %s", rc->user_origin, rc->user_name, msg);
    else
        error_set(err, "%s", msg);
}

/* the command as it will be executed: a path, or the first match on PATH; NULL if none */
static char *find_executable(const char *cmd)
{
    struct stat st;
    if (strchr(cmd, '/'))
        return stat(cmd, &st) == 0 && S_ISREG(st.st_mode) ? xstrdup(cmd) : NULL;
    const char *path = getenv("PATH");
    if (!path || !*path) path = "/usr/local/bin:/usr/bin:/bin";
    char *copy = xstrdup(path), *found = NULL;
    for (char *save = NULL, *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
        char *cand = xasprintf("%s/%s", *d ? d : ".", cmd);
        if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0) found = cand;
        else free(cand);
    }
    free(copy);
    return found;
}

/* one line: newlines of an install hint become spaces */
static char *one_line(const char *s)
{
    char *t = xstrdup(s ? s : "");
    for (char *p = t; *p; p++) if (*p == '\n' || *p == '\r' || *p == '\t') *p = ' ';
    size_t n = strlen(t);
    while (n && t[n - 1] == ' ') t[--n] = '\0';
    return t;
}

static char *exec_info_json(const RestConfig *rc, bool interactive)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "kind", "ExecCredential");
    cJSON_AddStringToObject(root, "apiVersion", rc->exec.api_version);
    cJSON *spec = cJSON_AddObjectToObject(root, "spec");
    cJSON_AddBoolToObject(spec, "interactive", interactive);
    if (rc->exec.provide_cluster_info) {
        cJSON *cl = cJSON_AddObjectToObject(spec, "cluster");
        cJSON_AddStringToObject(cl, "server", rc->server ? rc->server : "");
        if (rc->tls_server_name) cJSON_AddStringToObject(cl, "tls-server-name", rc->tls_server_name);
        if (rc->insecure) cJSON_AddBoolToObject(cl, "insecure-skip-tls-verify", true);
        char *ca = rc->ca_data ? xstrdup(rc->ca_data) : rc->ca_file ? util_read_file(rc->ca_file, NULL, NULL) : NULL;
        if (ca) {
            char *b64 = base64_encode(ca, strlen(ca));
            cJSON_AddStringToObject(cl, "certificate-authority-data", b64);
            free(b64);
            free(ca);
        }
        if (rc->proxy_url) cJSON_AddStringToObject(cl, "proxy-url", rc->proxy_url);
        if (rc->disable_compression) cJSON_AddBoolToObject(cl, "disable-compression", true);
        if (rc->exec_cluster_config) {
            cJSON *cfg = cJSON_Parse(rc->exec_cluster_config);
            if (cfg) cJSON_AddItemToObject(cl, "config", cfg);
        }
    }
    char *s = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return s;
}

/* environ + the plugin's entries (which replace same-named ones) + KUBERNETES_EXEC_INFO */
static char **build_env(const RestConfig *rc, const char *info)
{
    Strvec extra = STRVEC_INIT;
    for (size_t i = 0; i < rc->exec.env.n; i++) strvec_push(&extra, rc->exec.env.v[i]);
    strvec_pushf(&extra, "KUBERNETES_EXEC_INFO=%s", info);
    size_t n = 0;
    for (char **e = environ; e && *e; e++) n++;
    char **env = xcalloc(n + extra.n + 1, sizeof *env);
    size_t k = 0;
    for (char **e = environ; e && *e; e++) {
        size_t nl = strcspn(*e, "=");
        bool replaced = false;
        for (size_t i = 0; i < extra.n; i++)
            if (strncmp(extra.v[i], *e, nl) == 0 && extra.v[i][nl] == '=') replaced = true;
        if (!replaced) env[k++] = xstrdup(*e);
    }
    for (size_t i = 0; i < extra.n; i++) {
        /* a name given twice in exec.env: the last one wins */
        size_t nl = strcspn(extra.v[i], "=");
        bool later = false;
        for (size_t j = i + 1; j < extra.n; j++)
            if (strncmp(extra.v[j], extra.v[i], nl) == 0 && extra.v[j][nl] == '=') later = true;
        if (!later) env[k++] = xstrdup(extra.v[i]);
    }
    env[k] = NULL;
    strvec_clear(&extra);
    return env;
}

static void free_env(char **env)
{
    for (char **e = env; *e; e++) free(*e);
    free(env);
}

/* a word of the plugin's output (kind, apiVersion) that may be shown in a message: short,
 * letters, digits and ". / -" only; anything else could be (part of) the credential or hold
 * control characters, and is not repeated; nor is a word holding the output's token (of 4
 * bytes or more: a shorter one is in every word) */
static const char *shown_word(const cJSON *v, const cJSON *token)
{
    if (!cJSON_IsString(v)) return NULL;
    const char *s = v->valuestring;
    size_t n = strlen(s);
    if (!n || n > 80) return NULL;
    if (cJSON_IsString(token) && strlen(token->valuestring) >= 4 && strstr(s, token->valuestring)) return NULL;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr("./-", s[i])) return NULL;
    return s;
}

int exec_credential_parse(const RestConfig *rc, const char *cmd, const char *out, size_t len,
                          ExecCredential *cred, Error *err)
{
    memset(cred, 0, sizeof *cred);
    cJSON *j = cJSON_ParseWithLength(out, len);
    int ret = -1;
    if (!cJSON_IsObject(j)) {
        exec_error(rc, err, "exec: executable %s returned invalid output: %s (an ExecCredential "
                   "JSON object of %s was expected)", cmd, len ? "not JSON" : "nothing on stdout",
                   rc->exec.api_version);
        goto out;
    }
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(j, "kind");
    const cJSON *api = cJSON_GetObjectItemCaseSensitive(j, "apiVersion");
    const cJSON *any_token = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "status"), "token");
    if (!cJSON_IsString(kind) || strcmp(kind->valuestring, "ExecCredential") != 0) {
        const char *k = shown_word(kind, any_token);
        exec_error(rc, err, "exec: executable %s returned invalid output: kind is %s%s%s, not ExecCredential",
                   cmd, k ? "\"" : "", k ? k : cJSON_IsString(kind) ? "not a word" : "missing", k ? "\"" : "");
        goto out;
    }
    if (!cJSON_IsString(api) || strcmp(api->valuestring, rc->exec.api_version) != 0) {
        const char *a = shown_word(api, any_token);
        exec_error(rc, err, "exec plugin is configured to use API version %s, plugin returned version %s",
                   rc->exec.api_version, a ? a : cJSON_IsString(api) ? "(not an API version)" : "(none)");
        goto out;
    }
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(j, "status");
    if (!cJSON_IsObject(status)) {
        exec_error(rc, err, "exec plugin didn't return a status field (executable %s)", cmd);
        goto out;
    }
    const cJSON *tok = cJSON_GetObjectItemCaseSensitive(status, "token");
    const cJSON *cert = cJSON_GetObjectItemCaseSensitive(status, "clientCertificateData");
    const cJSON *key = cJSON_GetObjectItemCaseSensitive(status, "clientKeyData");
    const cJSON *exp = cJSON_GetObjectItemCaseSensitive(status, "expirationTimestamp");
    bool has_tok = cJSON_IsString(tok) && *tok->valuestring;
    bool has_cert = cJSON_IsString(cert) && *cert->valuestring;
    bool has_key = cJSON_IsString(key) && *key->valuestring;
    if (has_cert != has_key) {
        exec_error(rc, err, "exec plugin returned only certificate or key, not both (executable %s)", cmd);
        goto out;
    }
    if (!has_tok && !has_cert) {
        exec_error(rc, err, "exec plugin didn't return a token or cert/key pair (executable %s)", cmd);
        goto out;
    }
    const char *why = has_tok ? http_header_value_problem(tok->valuestring, strlen(tok->valuestring)) : NULL;
    if (why) {
        exec_error(rc, err, "exec plugin's status.token %s and cannot be sent as an HTTP header (executable %s)",
                   why, cmd);
        goto out;
    }
    int64_t expiry = 0;
    if (exp && !cJSON_IsNull(exp)) {
        if (!cJSON_IsString(exp) || !util_time_parse_rfc3339(exp->valuestring, &expiry)) {
            exec_error(rc, err, "exec plugin returned an invalid status.expirationTimestamp (want RFC 3339, "
                       "e.g. 2024-05-14T17:30:41Z) (executable %s)", cmd);
            goto out;
        }
    }
    cred->token = has_tok ? xstrdup(tok->valuestring) : NULL;
    cred->client_cert_pem = has_cert ? xstrdup(cert->valuestring) : NULL;
    cred->client_key_pem = has_key ? xstrdup(key->valuestring) : NULL;
    cred->expiry = expiry;
    ret = 0;
out:
    cJSON_Delete(j);
    return ret;
}

int exec_credential_run(const RestConfig *rc, double timeout_s, ExecCredential *out, Error *err)
{
    memset(out, 0, sizeof *out);
    if (!rc->has_exec || !rc->exec.command) {
        error_set(err, "exec: no exec plugin configured");
        return -1;
    }
    const char *cmd = rc->exec.command;
    char *path = find_executable(cmd);
    if (!path) {
        char *hint = one_line(rc->exec.install_hint);
        exec_error(rc, err, "exec: executable %s not found%s%s", cmd, *hint ? "; " : "", hint);
        free(hint);
        return -1;
    }
    if (access(path, X_OK) != 0) {
        exec_error(rc, err, "exec: executable %s could not be started: %s", path, strerror(errno));
        free(path);
        return -1;
    }
    const char *mode = rc->exec.interactive_mode ? rc->exec.interactive_mode : "IfAvailable";
    bool tty = isatty(STDIN_FILENO);
    bool interactive = strcmp(mode, "Always") == 0 || (strcmp(mode, "IfAvailable") == 0 && tty);
    if (strcmp(mode, "Always") == 0 && !tty) {
        exec_error(rc, err, "exec plugin %s cannot support interactive mode: standard input is not a "
                   "terminal (interactiveMode: Always)", cmd);
        free(path);
        return -1;
    }
    if (timeout_s <= 0) timeout_s = EXEC_DEFAULT_TIMEOUT;

    char *info = exec_info_json(rc, interactive);
    char **env = build_env(rc, info);
    free(info);
    size_t argc = rc->exec.args.n;
    char **argv = xcalloc(argc + 2, sizeof *argv);
    argv[0] = (char *)cmd;
    for (size_t i = 0; i < argc; i++) argv[i + 1] = rc->exec.args.v[i];

    int outp[2], errp[2];
    if (cloexec_pipe(outp) != 0 || cloexec_pipe(errp) != 0) {
        exec_error(rc, err, "exec: cannot create a pipe for %s: %s", cmd, strerror(errno));
        free(argv); free_env(env); free(path);
        return -1;
    }
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        exec_error(rc, err, "exec: cannot start %s: %s", cmd, strerror(errno));
        close(outp[0]); close(outp[1]); close(errp[0]); close(errp[1]);
        free(argv); free_env(env); free(path);
        return -1;
    }
    if (pid == 0) {
        /* child: only async-signal-safe calls from here */
        if (!interactive) {
            setpgid(0, 0);                  /* so a timeout can kill what it spawned too */
            int devnull = open("/dev/null", O_RDONLY);
            if (devnull >= 0) { dup2(devnull, STDIN_FILENO); if (devnull != STDIN_FILENO) close(devnull); }
        }
        dup2(outp[1], STDOUT_FILENO);
        signal(SIGPIPE, SIG_DFL);
        execve(path, argv, env);
        int e = errno;
        ssize_t w = write(errp[1], &e, sizeof e);
        (void)w;
        _exit(127);
    }
    if (!interactive) setpgid(pid, pid);      /* both sides: no race with the kill below */
    close(outp[1]);
    close(errp[1]);
    free(argv);
    free_env(env);

    int child_errno = 0;
    ssize_t r;
    do r = read(errp[0], &child_errno, sizeof child_errno); while (r < 0 && errno == EINTR);
    close(errp[0]);
    int ret = -1, status = 0;
    Strbuf buf = STRBUF_INIT;
    if (r == (ssize_t)sizeof child_errno) {
        waitpid(pid, &status, 0);
        exec_error(rc, err, "exec: executable %s could not be started: %s", path, strerror(child_errno));
        close(outp[0]);
        goto out;
    }

    /* read until the plugin exits (not until its stdout closes: a child it left behind, a
     * credential helper's agent say, may hold stdout open for long), then take what it wrote
     * before it exited, which is in the pipe by then, without waiting for more */
    double deadline = now_mono() + timeout_s;
    bool timed_out = false, too_big = false, exited = false, eof = false;
    while (!eof && !too_big) {
        if (!exited) {
            pid_t w = waitpid(pid, &status, WNOHANG);
            if (w == pid) exited = true;
            else if (w < 0 && errno != EINTR) { exited = true; status = 0; }
        }
        if (exited) {
            int fl = fcntl(outp[0], F_GETFL);
            if (fl >= 0) fcntl(outp[0], F_SETFL, fl | O_NONBLOCK);
        } else {
            double left = deadline - now_mono();
            if (left <= 0) { timed_out = true; break; }
            struct pollfd pfd = { outp[0], POLLIN, 0 };
            int pr = poll(&pfd, 1, left > 0.05 ? 50 : (int)(left * 1000) + 1);
            if (pr <= 0) continue;            /* nothing yet (or EINTR): check the exit again */
        }
        char chunk[8192];
        ssize_t n = read(outp[0], chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;   /* exited, pipe drained */
        if (n <= 0) { eof = true; break; }    /* EOF: the plugin (and all) closed stdout */
        if (buf.len + (size_t)n > EXEC_OUTPUT_MAX) { too_big = true; break; }
        strbuf_add(&buf, chunk, (size_t)n);
    }
    close(outp[0]);
    /* stdout closed before the exit: wait for the exit, still within the deadline */
    while (!exited && !timed_out && !too_big) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) { exited = true; break; }
        if (w < 0 && errno != EINTR) { exited = true; status = 0; break; }
        if (now_mono() >= deadline) { timed_out = true; break; }
        struct timespec ts = { 0, 5 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    /* too much output is refused whether or not the plugin has exited by then (it may have
     * written its last bytes into the pipe and exited while the limit was being reached) */
    if (!exited || too_big) {
        if (!exited) {
            if (!interactive) kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
        }
        if (too_big)
            exec_error(rc, err, "exec: executable %s wrote more than %u bytes on stdout; it was stopped",
                       cmd, EXEC_OUTPUT_MAX);
        else
            exec_error(rc, err, "exec: executable %s did not finish within %g s and was stopped; "
                       "check that it can run without a prompt (or raise --request-timeout)", cmd, timeout_s);
        goto out;
    }
    if (WIFSIGNALED(status)) {
        exec_error(rc, err, "exec: executable %s was killed by signal %d", cmd, WTERMSIG(status));
        goto out;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        exec_error(rc, err, "exec: executable %s failed with exit code %d", cmd, WEXITSTATUS(status));
        goto out;
    }
    ret = exec_credential_parse(rc, cmd, buf.buf ? buf.buf : "", buf.len, out, err);
out:
    if (buf.buf) memset(buf.buf, 0, buf.cap);        /* it held the credential */
    strbuf_clear(&buf);
    free(path);
    return ret;
}

void exec_credential_clear(ExecCredential *c)
{
    if (!c) return;
    http_secret_free(c->token);
    free(c->client_cert_pem);
    http_secret_free(c->client_key_pem);
    memset(c, 0, sizeof *c);
}

/* ---- per-process cache ---- */

typedef struct { char *key; ExecCredential cred; } CacheEntry;
static CacheEntry *cache;
static size_t ncache, capcache;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

static char *cache_key(const RestConfig *rc)
{
    Strbuf sb = STRBUF_INIT;
    strbuf_addf(&sb, "%s\x1f%s\x1f%s", rc->exec.command, rc->exec.api_version, rc->server ? rc->server : "");
    for (size_t i = 0; i < rc->exec.args.n; i++) strbuf_addf(&sb, "\x1f" "a%s", rc->exec.args.v[i]);
    for (size_t i = 0; i < rc->exec.env.n; i++) strbuf_addf(&sb, "\x1f" "e%s", rc->exec.env.v[i]);
    return strbuf_detach(&sb);
}

int exec_credential_get(const RestConfig *rc, double timeout_s, bool refresh, int verbose,
                        const ExecCredential **out, Error *err)
{
    char *key = cache_key(rc);
    pthread_mutex_lock(&cache_lock);
    CacheEntry *e = NULL;
    for (size_t i = 0; i < ncache; i++)
        if (strcmp(cache[i].key, key) == 0) e = &cache[i];
    bool expired = e && e->cred.expiry && (int64_t)time(NULL) >= e->cred.expiry;
    int ret = 0;
    if (!e || refresh || expired) {
        ExecCredential fresh;
        log_raise_verbosity(verbose);
        log_verbose(1, "exec: running credential plugin %s for user \"%s\"%s", rc->exec.command,
                    rc->user_name ? rc->user_name : "", refresh ? " (the server answered 401)" :
                    expired ? " (the credential expired)" : "");
        if (exec_credential_run(rc, timeout_s, &fresh, err)) {
            ret = -1;
        } else {
            if (!e) {
                ARRAY_GROW(cache, ncache, capcache);
                e = &cache[ncache++];
                e->key = key;
                key = NULL;
            } else {
                exec_credential_clear(&e->cred);
            }
            e->cred = fresh;
        }
    }
    if (ret == 0) *out = &e->cred;
    pthread_mutex_unlock(&cache_lock);
    free(key);
    return ret;
}

void exec_credential_cache_clear(void)
{
    pthread_mutex_lock(&cache_lock);
    for (size_t i = 0; i < ncache; i++) { free(cache[i].key); exec_credential_clear(&cache[i].cred); }
    free(cache);
    cache = NULL;
    ncache = capcache = 0;
    pthread_mutex_unlock(&cache_lock);
}

/* watch.c — list-then-watch, one thread and one API client per kind (watch.h).
 *
 * The protocol (shared/reference/kubeconfig-and-api.md, and kube-apiserver's
 * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/watch.go): a watch answers 200 with a
 * chunked stream of JSON objects, one per line, {"type": ADDED|MODIFIED|DELETED|BOOKMARK|
 * ERROR, "object": ...}.  A BOOKMARK carries only metadata.resourceVersion: the point to resume
 * from.  An ERROR carries a Status; code 410 (reason Expired/Gone) means the resourceVersion
 * asked for is older than what the server keeps, and only a new list can follow.
 *
 * Lifetime of one watch, as client-go's Reflector (tools/cache/reflector.go) does it:
 *   - timeoutSeconds = 5 min x [1, 2) (Reflector.watch: minWatchTimeout * (rand + 1)): the
 *     server ends the stream then, and the watches of a cluster's clients do not renew together;
 *   - the stream may be quiet for long: the apiserver's watch cache sends a BOOKMARK to a
 *     watcher "roughly every minute" and 2 s before its deadline (apiserver storage/cacher
 *     cache_watcher.go, cacheWatcher.nextBookmarkTime; bookmarkFrequency 1 min), not at the
 *     start; so a stream is taken as stalled after 90 s without a byte (not libcurl's 60 s of
 *     the other requests, which a bookmark due at 60 s would race), and a stalled stream is
 *     renewed like an ended one (a server without a watch cache sends no bookmarks at all);
 *   - ended by the server, or cut, after it was up: renewed at once from the last
 *     resourceVersion seen (watchHandler returning nil; the StreamWatcher closing on EOF);
 *   - a "very short watch" (under 1 s with no event, watchHandler's check) is an error;
 *   - 410 Gone (an ERROR event or the answer's status) relists that kind only (isExpiredError);
 *     429 and a refused connection retry the watch after a backoff (isWatchErrorRetriable);
 *     other ERROR events relist the kind after a backoff (watch() returning to ListAndWatch);
 *   - 403/404 on a watch of a kind that was listed: not followed any more (the listed state
 *     stays; -v says so);
 *   - backoff: 0.8 s doubling to 30 s with jitter, reset after 2 min without trouble
 *     (NewReflectorWithOptions' wait.NewExponentialBackoffManager(800ms, 30s, 2min, 2.0, 1.0)).
 *
 * Threads: each kind's thread makes its requests and queues events; the caller's thread
 * takes them.  The Watcher is shared by reference count (the caller and each thread), so a
 * thread still inside a request when the caller stops can finish on its own.
 */
#include "sources/watch.h"
#include "watch_plan.h"
#include "sources/apiclient.h"
#include "sources/kubeconfig.h"
#include "util/error.h"
#include "util/util.h"
#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <pthread.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { QUEUE_MAX = 2048, MIN_WATCH_TIMEOUT = 300, WATCH_STALL_SECONDS = 90, STOP_GRACE_SECONDS = 3 };
#define BACKOFF_START 0.8
#define BACKOFF_CAP 30.0
#define BACKOFF_RESET 120.0
#define LINE_MAX_BYTES ((size_t)64 << 20)   /* one event may not exceed 64 MiB */

typedef enum { W_ENDED, W_GONE, W_ERROR_EVENT, W_RETRY, W_BAD, W_REFUSED, W_STOPPED } WatchEnd;

typedef struct {
    struct Watcher *w;
    ObjKind kind;
    WatchTarget t;                 /* path, selectors, rv, name filter (watch_plan.h) */
    /* the stream being read */
    Strbuf line;
    size_t scanned;                /* bytes of line known to hold no newline (a line's bytes are
                                    * looked at once, however many chunks it comes in) */
    long lines;                    /* lines of this stream, for messages */
    bool gone, error_event, bad, retry_event;
    bool streamed;                 /* the answer's body began (the watch was up) */
    long got;
    char problem[2100];
    pthread_t thread;
    bool started;
} KindWatch;

struct Watcher {
    pthread_mutex_t mu;
    pthread_cond_t more, space;
    WatchEvent *head, *tail;
    size_t queued;
    bool stopping;
    bool unbounded;                /* watch_parse_chunks: no reader, the queue is not bounded */
    int refs;
    int nkinds;
    KindWatch kinds[OBJ__COUNT];
    SourceConfig sc;
    WatchStats stats;
    bool lost[OBJ__COUNT];
    void (*notify)(void *ctx);
    void *notify_ctx;
    atomic_int cancel;             /* set by watcher_stop: open requests end (apiclient_set_cancel) */
    int running;                   /* threads not yet ended */
    pthread_cond_t ended;
};

void watch_events_free(WatchEvent *e)
{
    while (e) {
        WatchEvent *n = e->next;
        cJSON_Delete(e->obj);
        free(e);
        e = n;
    }
}

static double now_mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void watcher_unref(struct Watcher *w)
{
    pthread_mutex_lock(&w->mu);
    bool last = --w->refs == 0;
    pthread_mutex_unlock(&w->mu);
    if (!last) return;
    watch_events_free(w->head);
    for (int i = 0; i < w->nkinds; i++) {
        KindWatch *k = &w->kinds[i];
        watch_target_clear(&k->t);
        strbuf_clear(&k->line);
    }
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->more);
    pthread_cond_destroy(&w->space);
    pthread_cond_destroy(&w->ended);
    free(w);
}

static bool stopping(struct Watcher *w)
{
    pthread_mutex_lock(&w->mu);
    bool s = w->stopping;
    pthread_mutex_unlock(&w->mu);
    return s;
}

/* queues one event (takes obj); waits while the queue is full */
static void push(struct Watcher *w, ObjKind kind, WatchEventType type, cJSON *obj)
{
    WatchEvent *e = xcalloc(1, sizeof *e);
    e->kind = kind;
    e->type = type;
    e->obj = obj;
    pthread_mutex_lock(&w->mu);
    while (w->queued >= QUEUE_MAX && !w->stopping && !w->unbounded) pthread_cond_wait(&w->space, &w->mu);
    if (w->stopping) {
        pthread_mutex_unlock(&w->mu);
        watch_events_free(e);
        return;
    }
    bool was_empty = !w->head;
    if (w->tail) w->tail->next = e; else w->head = e;
    w->tail = e;
    w->queued++;
    pthread_cond_signal(&w->more);
    /* under the lock: once watcher_stop() returns, fn is never called again */
    if (was_empty && w->notify) w->notify(w->notify_ctx);
    pthread_mutex_unlock(&w->mu);
}

static void note(KindWatch *k, bool lost, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note(KindWatch *k, bool lost, const char *fmt, ...)
{
    struct Watcher *w = k->w;
    char msg[sizeof w->stats.last_problem];
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
    }
    pthread_mutex_lock(&w->mu);
    if (fmt) memcpy(w->stats.last_problem, msg, sizeof msg);
    w->lost[k->kind] = lost;
    pthread_mutex_unlock(&w->mu);
    if (fmt && w->sc.verbose >= 1) fprintf(stderr, "watch: %s\n", msg);
}

static void count(struct Watcher *w, long *field, long n)
{
    pthread_mutex_lock(&w->mu);
    *field += n;
    pthread_mutex_unlock(&w->mu);
}

/* ---- reading the stream ---- */

static const char *rv_of(const cJSON *obj)
{
    const cJSON *rv = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(obj, "metadata"),
                                                       "resourceVersion");
    return cJSON_IsString(rv) && rv->valuestring && *rv->valuestring ? rv->valuestring : NULL;
}

static const char *name_of(const cJSON *obj)
{
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(obj, "metadata"), "name");
    return cJSON_IsString(n) ? n->valuestring : NULL;
}

/* one line of the stream; non-zero stops reading */
static int on_line(KindWatch *k, const char *s, size_t len)
{
    while (len && (s[len - 1] == '\r' || s[len - 1] == ' ')) len--;
    if (!len) return 0;
    k->lines++;
    cJSON *ev = cJSON_ParseWithLength(s, len);
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(ev, "type");
    cJSON *obj = cJSON_GetObjectItemCaseSensitive(ev, "object");
    if (!cJSON_IsString(type) || !cJSON_IsObject(obj)) {
        snprintf(k->problem, sizeof k->problem, "event %ld of the stream: %s", k->lines,
                 !ev ? "not JSON" : "not a watch event (no type or object)");
        k->bad = true;
        cJSON_Delete(ev);
        return 1;
    }
    count(k->w, &k->w->stats.events, 1);
    k->got++;
    const char *t = type->valuestring;
    if (strcmp(t, "ERROR") == 0) {
        const cJSON *code = cJSON_GetObjectItemCaseSensitive(obj, "code");
        const cJSON *msg = cJSON_GetObjectItemCaseSensitive(obj, "message");
        int c = cJSON_IsNumber(code) ? code->valueint : 0;
        snprintf(k->problem, sizeof k->problem, "%s", cJSON_IsString(msg) ? msg->valuestring : "an ERROR event");
        if (c == 410) k->gone = true;
        else if (c == 429 || c == 500) k->retry_event = true;   /* the Reflector retries the watch */
        else k->error_event = true;
        cJSON_Delete(ev);
        return 1;
    }
    const char *rv = rv_of(obj);
    if (rv) { free(k->t.rv); k->t.rv = xstrdup(rv); }
    WatchEventType wt;
    if (strcmp(t, "ADDED") == 0 || strcmp(t, "MODIFIED") == 0) wt = WATCH_UPSERT;
    else if (strcmp(t, "DELETED") == 0) wt = WATCH_DELETE;
    else { cJSON_Delete(ev); return 0; }          /* BOOKMARK (and types to come): the rv only */
    if (!watch_target_keeps(&k->t, name_of(obj))) { cJSON_Delete(ev); return 0; }
    cJSON_DetachItemViaPointer(ev, obj);
    cJSON_Delete(ev);
    push(k->w, k->kind, wt, obj);
    return 0;
}

static int on_data(void *ctx, const char *data, size_t len, long code)
{
    KindWatch *k = ctx;
    (void)code;
    if (stopping(k->w)) return 1;
    if (k->line.len == 0 && k->got == 0) note(k, false, NULL);   /* the watch is established */
    k->streamed = true;
    strbuf_add(&k->line, data, len);
    size_t start = 0;
    for (;;) {
        size_t from = start > k->scanned ? start : k->scanned;
        const char *nl = memchr(k->line.buf + from, '\n', k->line.len - from);
        if (!nl) break;
        size_t n = (size_t)(nl - (k->line.buf + start));
        if (on_line(k, k->line.buf + start, n)) return 1;
        start += n + 1;
    }
    k->scanned = k->line.len;           /* no newline in what is left */
    if (k->line.len - start > LINE_MAX_BYTES) {
        snprintf(k->problem, sizeof k->problem, "event %ld of the stream: over %zu MiB without a line end",
                 k->lines + 1, LINE_MAX_BYTES >> 20);
        k->bad = true;
        return 1;
    }
    if (start) {
        /* what is left (the start of the next line, within this chunk) moves to the front:
         * a long line is never moved while it grows (start stays 0 then) */
        memmove(k->line.buf, k->line.buf + start, k->line.len - start);
        k->line.len -= start;
        k->line.buf[k->line.len] = '\0';
        k->scanned -= start;
    }
    return 0;
}

static WatchEnd watch_once(KindWatch *k, ApiClient *api)
{
    int seconds = (int)(MIN_WATCH_TIMEOUT * (1.0 + (double)rand() / ((double)RAND_MAX + 1.0)));
    char *erv = apiclient_query_escape(k->t.rv);
    char *q = xasprintf("%s%swatch=1&resourceVersion=%s&allowWatchBookmarks=true&timeoutSeconds=%d",
                        k->t.query ? k->t.query : "", k->t.query ? "&" : "", erv, seconds);
    free(erv);
    strbuf_reset(&k->line);
    k->scanned = 0;
    k->lines = 0;
    k->gone = k->error_event = k->bad = k->retry_event = k->streamed = false;
    k->got = 0;
    k->problem[0] = '\0';
    ApiRequestOptions ro = { .max_retries = 0, .timeout = seconds + 30.0, .long_running = true };     /* not cut at --request-timeout */
    Error err = { 0 };
    count(k->w, &k->w->stats.watches, 1);
    double began = now_mono();
    int rc = apiclient_get_stream(api, k->t.path, q, &ro, on_data, k, &err);
    free(q);
    if (stopping(k->w)) return W_STOPPED;
    if (rc == 0 && k->line.len && !k->gone && !k->error_event && !k->bad && !k->retry_event)
        on_line(k, k->line.buf, k->line.len);       /* a last event without its newline */
    if (k->gone) return W_GONE;
    if (k->error_event) return W_ERROR_EVENT;
    if (k->retry_event) return W_RETRY;
    if (k->bad) return W_BAD;           /* k->problem says what was wrong, not the cut it caused */
    if (rc == 0) return W_ENDED;
    if (err.code == 410) { snprintf(k->problem, sizeof k->problem, "%s", err.msg); return W_GONE; }
    snprintf(k->problem, sizeof k->problem, "%s", err.msg);
    if (err.code == 403 || err.code == 404) return W_REFUSED;
    /* cut after it was up, or quiet past the stall limit (a server that sends no bookmarks):
     * as the server ending it.  A connection that never answered is retried after a backoff. */
    if (!k->bad && !err.code && (k->streamed || now_mono() - began >= WATCH_STALL_SECONDS - 1)) return W_ENDED;
    return W_RETRY;
}

void watch_parse_chunks(ObjKind kind, const char *const *chunks, const size_t *lens, size_t n,
                        WatchParseResult *out)
{
    memset(out, 0, sizeof *out);
    struct Watcher *w = xcalloc(1, sizeof *w);
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->more, NULL);
    pthread_cond_init(&w->space, NULL);
    pthread_cond_init(&w->ended, NULL);
    w->refs = 1;
    w->unbounded = true;
    w->nkinds = 1;
    KindWatch *k = &w->kinds[0];
    k->w = w;
    k->kind = kind;
    k->t.kind = kind;
    k->t.rv = xstrdup("1");
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) rc = on_data(k, chunks[i], lens[i], 200);
    if (rc == 0 && k->line.len && !k->gone && !k->error_event && !k->bad && !k->retry_event)
        on_line(k, k->line.buf, k->line.len);
    out->end = k->gone ? 'G' : k->error_event ? 'X' : k->retry_event ? 'R' : k->bad ? 'B' : 'E';
    snprintf(out->problem, sizeof out->problem, "%.255s", k->problem);
    out->events = w->stats.events;
    for (WatchEvent *e = w->head; e; e = e->next) {
        if (e->type == WATCH_UPSERT) out->upserts++;
        else if (e->type == WATCH_DELETE) out->deletes++;
    }
    out->rv = xstrdup(k->t.rv);
    watcher_unref(w);
}

/* ---- relisting ---- */

static int on_list_item(void *ctx, const cJSON *item, Error *err)
{
    KindWatch *k = ctx;
    (void)err;
    if (watch_target_keeps(&k->t, name_of(item))) push(k->w, k->kind, WATCH_UPSERT, cJSON_Duplicate(item, 1));
    return stopping(k->w);
}

static int on_list_reset(void *ctx, Error *err)
{
    KindWatch *k = ctx;
    (void)err;
    push(k->w, k->kind, WATCH_RELIST_BEGIN, NULL);
    return 0;
}

static int relist(KindWatch *k, ApiClient *api, Error *err)
{
    static const char *const skip[] = { "metadata.managedFields", NULL };
    push(k->w, k->kind, WATCH_RELIST_BEGIN, NULL);
    count(k->w, &k->w->stats.lists, 1);
    if (apiclient_list_skip(api, k->t.path, k->t.query, on_list_item, on_list_reset, skip, k, err)) return -1;
    if (!apiclient_list_rv(api)) { error_set(err, "the list of %s has no resourceVersion", k->t.path); return -1; }
    free(k->t.rv);
    k->t.rv = xstrdup(apiclient_list_rv(api));
    push(k->w, k->kind, WATCH_RELIST_END, NULL);
    return 0;
}

/* ---- one kind's thread ---- */

static void nap(struct Watcher *w, double seconds)
{
    double end = now_mono() + seconds;
    while (!stopping(w)) {
        double left = end - now_mono();
        if (left <= 0) break;
        struct timespec ts = { 0, (long)(fmin(left, 0.1) * 1e9) };
        nanosleep(&ts, NULL);
    }
}

static void *kind_main(void *arg)
{
    KindWatch *k = arg;
    struct Watcher *w = k->w;
    const char *kind = obj_kind_name(k->kind);
    RestConfig rc;
    ApiClient *api = NULL;
    Error err = { 0 };
    if (loader_connect(&w->sc, &rc, &api, &err)) {
        note(k, true, "%s: %s", kind, err.msg);
        goto out;
    }
    restconfig_clear(&rc);
    apiclient_set_cancel(api, &w->cancel);
    apiclient_set_stall(api, WATCH_STALL_SECONDS);
    int attempt = 0;
    double last_trouble = 0;
    bool need_list = false;
    while (!stopping(w)) {
        if (need_list) {
            Error le = { 0 };
            if (relist(k, api, &le) == 0) {
                need_list = false;
                note(k, false, NULL);
            } else if (!stopping(w)) {
                note(k, true, "%s: relist failed: %s", kind, le.msg);
                goto backoff;
            }
            continue;
        }
        double began = now_mono();
        WatchEnd end = watch_once(k, api);
        switch (end) {
        case W_STOPPED: goto out;
        case W_ENDED:
            /* renewed from the last resourceVersion at once, unless it ended at once with
             * nothing (the Reflector's "very short watch": a server closing every watch is
             * not hammered) */
            if (now_mono() - began >= 1.0 || k->got) { note(k, false, NULL); continue; }
            note(k, true, "%s: the watch ended at once; retrying", kind);
            break;
        case W_GONE:
            note(k, true, "%s: watch expired (%s); listing %s again", kind, k->problem, kind);
            need_list = true;
            break;
        case W_ERROR_EVENT:
            note(k, true, "%s: the watch ended with an error (%s); listing %s again", kind, k->problem, kind);
            need_list = true;
            break;
        case W_RETRY:
            note(k, true, "%s: watch lost (%s); resuming", kind, k->problem);
            break;
        case W_BAD:
            note(k, true, "%s: %s; resuming the watch", kind, k->problem);
            break;
        case W_REFUSED:
            /* listed, but not to be watched (RBAC without "watch", a resource gone): what the
             * list read stays as it is */
            note(k, false, "%s: not followed any more (%s)", kind, k->problem);
            count(k->w, &k->w->stats.refused, 1);
            goto out;
        }
    backoff:;
        double t = now_mono();
        if (t - last_trouble > BACKOFF_RESET) attempt = 0;
        last_trouble = t;
        double base = fmin(BACKOFF_CAP, BACKOFF_START * pow(2, attempt));
        if (attempt < 16) attempt++;
        nap(w, base * (1.0 + (double)rand() / RAND_MAX));
    }
out:
    apiclient_free(api);
    pthread_mutex_lock(&w->mu);
    w->running--;
    pthread_cond_broadcast(&w->ended);
    pthread_mutex_unlock(&w->mu);
    watcher_unref(w);
    return NULL;
}

/* ---- the caller's side ---- */

Watcher *watcher_start(const SourceConfig *sc, const LoadRequest *rq, const Cluster *c, char *const *list_rv,
                       Error *err)
{
    struct Watcher *w = xcalloc(1, sizeof *w);
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->more, NULL);
    pthread_cond_init(&w->space, NULL);
    pthread_cond_init(&w->ended, NULL);
    w->sc = *sc;
    w->refs = 1;
    WatchTarget plan[OBJ__COUNT];
    int n = watch_plan(rq, c, list_rv, plan);
    for (int i = 0; i < n; i++) {
        KindWatch *k = &w->kinds[w->nkinds++];
        k->w = w;
        k->kind = plan[i].kind;
        k->t = plan[i];
    }
    if (!w->nkinds) {
        error_set(err, "nothing to watch: no list was read with a resourceVersion");
        watcher_unref(w);
        return NULL;
    }
    w->stats.kinds = w->nkinds;
    srand((unsigned)time(NULL) ^ (unsigned)(uintptr_t)w);
    /* the threads take no signals: they belong to the caller's thread */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int started = 0;
    for (int i = 0; i < w->nkinds; i++) {
        pthread_mutex_lock(&w->mu);
        w->refs++;
        w->running++;
        pthread_mutex_unlock(&w->mu);
        if (pthread_create(&w->kinds[i].thread, NULL, kind_main, &w->kinds[i]) != 0) {
            pthread_mutex_lock(&w->mu);
            w->refs--;
            w->running--;
            pthread_mutex_unlock(&w->mu);
            break;
        }
        w->kinds[i].started = true;
        started++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (started < w->nkinds) {
        error_set(err, "cannot start the watch threads");
        watcher_stop(w);
        return NULL;
    }
    return w;
}

WatchEvent *watcher_take(Watcher *w, double timeout)
{
    pthread_mutex_lock(&w->mu);
    if (!w->head && timeout > 0 && !w->stopping) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        double end = (double)ts.tv_sec + ts.tv_nsec / 1e9 + timeout;
        ts.tv_sec = (time_t)end;
        ts.tv_nsec = (long)((end - floor(end)) * 1e9);
        pthread_cond_timedwait(&w->more, &w->mu, &ts);
    }
    WatchEvent *e = w->head;
    w->head = w->tail = NULL;
    w->queued = 0;
    pthread_cond_broadcast(&w->space);
    pthread_mutex_unlock(&w->mu);
    return e;
}

void watcher_set_notify(Watcher *w, void (*fn)(void *ctx), void *ctx)
{
    pthread_mutex_lock(&w->mu);
    w->notify = fn;
    w->notify_ctx = ctx;
    pthread_mutex_unlock(&w->mu);
}

void watcher_wake(Watcher *w)
{
    pthread_mutex_lock(&w->mu);
    pthread_cond_broadcast(&w->more);
    pthread_mutex_unlock(&w->mu);
}

void watcher_stats(Watcher *w, WatchStats *out)
{
    pthread_mutex_lock(&w->mu);
    *out = w->stats;
    out->lost = 0;
    for (int i = 0; i < OBJ__COUNT; i++) out->lost += w->lost[i];
    pthread_mutex_unlock(&w->mu);
}

void watcher_stop(Watcher *w)
{
    if (!w) return;
    atomic_store(&w->cancel, 1);
    pthread_mutex_lock(&w->mu);
    w->stopping = true;
    w->notify = NULL;
    pthread_cond_broadcast(&w->space);
    pthread_cond_broadcast(&w->more);
    /* the open requests end within about a second (the cancel flag): wait for that, not
     * longer, so the threads free what they hold (TLS state included) before the process ends */
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += STOP_GRACE_SECONDS;
    while (w->running > 0 && pthread_cond_timedwait(&w->ended, &w->mu, &until) == 0) { }
    bool all_ended = w->running == 0;
    int n = w->nkinds;
    pthread_mutex_unlock(&w->mu);
    /* joined, a thread has also run its thread-exit handlers (OpenSSL's state): nothing of it
     * runs while the process ends.  One still busy is left to end alone. */
    pthread_t threads[OBJ__COUNT];
    bool started[OBJ__COUNT];
    for (int i = 0; i < n; i++) { threads[i] = w->kinds[i].thread; started[i] = w->kinds[i].started; }
    watcher_unref(w);                    /* the threads hold their own references */
    for (int i = 0; i < n; i++) {
        if (!started[i]) continue;
        if (all_ended) pthread_join(threads[i], NULL);
        else pthread_detach(threads[i]);
    }
}

/* apiclient.c — the read-only Kubernetes API client (reference §7-§10), on one reused libcurl
 * easy handle (keep-alive, gzip).
 *
 * One GET goes through request(), which runs the shared transport's request loop
 * (http_request, http.h: the one retry rule for 429, 5xx and cut connections, Retry-After,
 * the time budget, the -v trace).  This file gives it each attempt (api_attempt: credentials
 * attached — bearer token re-read from a token file, basic auth, exec plugin credentials,
 * impersonation headers; only over https, as client-go does), says which failures must not
 * be retried (a refused client certificate) and asks for one exec-plugin refresh on a 401.
 * Whatever is still wrong afterwards becomes one line a person can act on (apiclient_errors.c).
 * The handle setup (TLS, timeouts) and the redacted header log are the transport's; the
 * credentials auth.h's.
 *
 * Lists are read page by page (limit/continue).  A page is parsed in place by jsonscan.c, one
 * item at a time (an item's nodes live in an arena reset after the callback), so memory
 * follows the page size and no malloc is made per JSON value.  As soon as a page's metadata
 * gives the continue token, the next page is requested (a prefetch on a second transfer in the
 * transport's loop, http_loop_*, on the same keep-alive connection since this page is complete): the
 * server prepares it while this page is parsed.  The prefetch runs on a thread of its own
 * (receiving, TLS and the gzip decoding there, on another core, while this thread parses);
 * this thread leaves the loop alone until it has joined that thread (prefetch_join), and
 * where no thread can be made the transfer is pumped every few items instead.  A prefetched
 * answer is the first attempt of the next request(): retries, 410 and errors are handled
 * exactly as for any other.
 *
 * Logging (-v): one line per request (URL without userinfo, status, bytes, ms) and one per list
 * read (items, requests, bytes decoded and as sent: gzip); -v=3 adds
 * the headers with Authorization and cookies redacted.  Tokens, passwords and keys never
 * reach a message or a log line, and CURLOPT_VERBOSE is never set for that reason.
 */
#include "sources/apiclient.h"
#include "util/log.h"
#include "auth.h"
#include "util/error.h"
#include "http.h"
#include "internal.h"
#include "apiclient_int.h"
#include "sources/jsonscan.h"
#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#ifndef KGPU_VERSION
#define KGPU_VERSION "0.0.0"
#endif
#if defined(__x86_64__)
#define KGPU_ARCH "amd64"
#elif defined(__aarch64__)
#define KGPU_ARCH "arm64"
#else
#define KGPU_ARCH "unknown"
#endif
#define USER_AGENT "kubectl-gpu/v" KGPU_VERSION " (linux/" KGPU_ARCH ") kubernetes/unknown"


char *apiclient_core_path(const char *ns, const char *resource)
{
    if (!ns) return xasprintf("/api/v1/%s", resource);
    char *e = apiclient_query_escape(ns);
    char *p = xasprintf("/api/v1/namespaces/%s/%s", e, resource);
    free(e);
    return p;
}

char *apiclient_query_param(const char *param, const char *value)
{
    char *e = apiclient_query_escape(value);
    char *q = xasprintf("%s=%s", param, e);
    free(e);
    return q;
}

/* ---------------------------------------------------------------------------------------
 * Setup
 */

ApiClient *apiclient_new(const RestConfig *rc, const ApiClientOptions *opt, Error *err)
{
    if (!rc || !rc->server) { error_set(err, "no API server configured"); return NULL; }
    ApiClient *c = xcalloc(1, sizeof *c);
    restconfig_copy(&c->rc, rc);
    if (opt) c->opt = *opt;
    log_raise_verbosity(c->opt.verbose);
    auth_init(&c->auth, &c->rc, c->opt.request_timeout, c->opt.verbose);
    if (c->opt.page_size <= 0) c->opt.page_size = 500;
    c->shown_server = url_redact(rc->server);
    UrlParts u;
    if (apiclient_url_split(rc->server, &u) != 0) {
        error_set(err, "kubeconfig %s: server \"%s\" is not a valid URL", rc->origin ? rc->origin : "",
                  c->shown_server);
        apiclient_url_parts_release(&u);
        apiclient_free(c);
        return NULL;
    }
    const char *bo = u.v6 ? "[" : "", *bc = u.v6 ? "]" : "";
    if (rc->tls_server_name && restconfig_is_tls(rc)) {
        /* libcurl verifies (and sends as SNI) the URL's host name.  To verify
         * tls-server-name instead, the URL names it and CONNECT_TO sends the connection to
         * the real host; the Host header keeps the real host, as Go's client does. */
        c->base = xasprintf("https://%s:%s%s", rc->tls_server_name, u.port, u.rest);
        char *ct = xasprintf("%s:%s:%s%s%s:%s", rc->tls_server_name, u.port, bo, u.host, bc, u.port);
        c->connect_to = curl_slist_append(NULL, ct);
        free(ct);
        c->host_header = xasprintf("Host: %s%s%s:%s", bo, u.host, bc, u.port);
    } else {
        c->base = xasprintf("%s://%s%s%s:%s%s", u.scheme, bo, u.host, bc, u.port, u.rest);
    }
    apiclient_url_parts_release(&u);
    size_t bl = strlen(c->base);
    while (bl && c->base[bl - 1] == '/') c->base[--bl] = '\0';

    c->cur = &c->xf[0];
    c->pf.x = &c->xf[1];
    int x0 = http_xfer_init(&c->xf[0], BODY_MAX, c->opt.verbose);
    int x1 = http_xfer_init(&c->xf[1], BODY_MAX, c->opt.verbose);
    c->loop = http_loop_new();
    if (x0 || x1 || !c->loop) { error_set(err, "cannot initialise libcurl"); apiclient_free(c); return NULL; }
    c->arena = json_arena_new();
    return c;
}

static void prefetch_cancel(ApiClient *c);

void apiclient_idle(ApiClient *c)
{
    if (!c) return;
    prefetch_cancel(c);
    http_xfer_idle(&c->xf[0]);
    http_xfer_idle(&c->xf[1]);
    json_arena_free(c->arena);
    c->arena = json_arena_new();
}

void apiclient_free(ApiClient *c)
{
    if (!c) return;
    prefetch_cancel(c);
    http_xfer_release(&c->xf[0]);
    http_xfer_release(&c->xf[1]);
    http_loop_free(c->loop);
    json_arena_free(c->arena);
    restconfig_clear(&c->rc);
    free(c->list_rv);
    free(c->base); free(c->shown_server); free(c->host_header);
    curl_slist_free_all(c->connect_to);
    auth_release(&c->auth);
    free(c);
}

long apiclient_request_count(const ApiClient *c) { return c ? c->requests : 0; }
void apiclient_set_cancel(ApiClient *c, const atomic_int *flag) { c->cancel = flag; }
void apiclient_set_stall(ApiClient *c, long seconds) { c->stall = seconds > 0 ? seconds : 0; }

/* libcurl asks at least once a second: non-zero stops the transfer */
static int on_progress(void *ud, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
    const ApiClient *c = ud;
    (void)dt; (void)dn; (void)ut; (void)un;
    return c->cancel && atomic_load(c->cancel) ? 1 : 0;
}
const char *apiclient_list_rv(const ApiClient *c) { return c ? c->list_rv : NULL; }
const char *apiclient_server(const ApiClient *c) { return c ? c->shown_server : NULL; }
const char *apiclient_context(const ApiClient *c)
{
    return c && c->rc.context_name && *c->rc.context_name ? c->rc.context_name : "(none)";
}

/* ---------------------------------------------------------------------------------------
 * One request
 */

/* build the URL: base + path + ?query [&extra] [&timeout=] */
static char *build_url(ApiClient *c, const char *path, const char *query, const char *extra)
{
    Strbuf sb = STRBUF_INIT;
    strbuf_adds(&sb, c->base);
    if (path[0] != '/') strbuf_addch(&sb, '/');
    strbuf_adds(&sb, path);
    char sepc = strchr(path, '?') ? '&' : '?';
    if (query && *query) { strbuf_addch(&sb, sepc); strbuf_adds(&sb, query); sepc = '&'; }
    if (extra && *extra) { strbuf_addch(&sb, sepc); strbuf_adds(&sb, extra); sepc = '&'; }
    if (c->opt.request_timeout > 0) {
        double t = c->opt.request_timeout;
        if (t == floor(t)) strbuf_addf(&sb, "%ctimeout=%llds", sepc, (long long)t);
        else strbuf_addf(&sb, "%ctimeout=%lldms", sepc, (long long)llround(t * 1000));
    }
    return strbuf_detach(&sb);
}

/* the URL as shown: the real server (not the tls-server-name rewrite), no userinfo */
static char *shown_url(ApiClient *c, const char *url)
{
    if (!c->host_header) return url_redact(url);
    const char *path = url + strlen(c->base);
    char *srv = url_redact(c->rc.server);
    char *s = xasprintf("%s%s", srv, path);
    free(srv);
    return s;
}

/* which failures the transport's rule would retry must not be: the server refused our client
 * certificate (an alert, or TLS 1.3 closing the connection after the handshake) */
static bool api_may_retry(void *ctx, const HttpXfer *x, CURLcode cc)
{
    ApiClient *c = ctx;
    (void)x; (void)cc;
    if (apiclient_is_tls_alert(c)) return false;
    return !(c->no_answer && c->used_client_cert);
}

/* the credentials of one attempt; headers appended to *hl */
static int set_credentials(ApiClient *c, HttpXfer *x, struct curl_slist **hl, bool refresh_exec, Error *err)
{
    int rc = auth_apply(&c->auth, x->h, hl, refresh_exec, err);
    c->used_client_cert = c->auth.used_client_cert;
    return rc;
}

static void set_transport(ApiClient *c, HttpXfer *x)
{
    CURL *h = x->h;
    const RestConfig *rc = &c->rc;
    double t = c->timeout;
    HttpSetup hs = {
        .user_agent = USER_AGENT, .compress = !rc->disable_compression, .insecure = rc->insecure,
        .tls12 = true, .ca_data = rc->ca_data, .ca_file = rc->ca_file, .timeout = t,
        .connect_timeout = t > 0 && t < CONNECT_TIMEOUT ? t : CONNECT_TIMEOUT,
    };
    http_xfer_begin(x, &hs);
    curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    if (c->connect_to) curl_easy_setopt(h, CURLOPT_CONNECT_TO, c->connect_to);
    if (rc->proxy_url) curl_easy_setopt(h, CURLOPT_PROXY, rc->proxy_url);
    if (c->cancel) {
        curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
        curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
        curl_easy_setopt(h, CURLOPT_XFERINFODATA, c);
    }
    /* a body that stops flowing must not hang us, with or without --request-timeout */
    curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, c->stall ? c->stall : STALL_SECONDS);
}

/* One attempt's set-up on x: transport, headers and credentials (into *hl, which the caller
 * frees with http_headers_free), URL, the -v=3 log. */
static int attempt_setup(ApiClient *c, HttpXfer *x, const char *url, const char *shown, bool refresh,
                         struct curl_slist **hl, Error *err)
{
    set_transport(c, x);
    *hl = curl_slist_append(NULL, "Accept: application/json, */*");
    if (c->host_header) *hl = curl_slist_append(*hl, c->host_header);
    if (set_credentials(c, x, hl, refresh, err)) { http_headers_free(*hl); *hl = NULL; return -1; }
    curl_easy_setopt(x->h, CURLOPT_HTTPHEADER, *hl);
    curl_easy_setopt(x->h, CURLOPT_URL, url);
    if (log_enabled(LOG_HEADERS)) http_log_request("GET", shown, USER_AGENT, *hl);   /* Authorization: <redacted> */
    return 0;
}

/* the prefetch's thread: the whole transfer, then it leaves the loop */
static void *prefetch_main(void *arg)
{
    ApiClient *c = arg;
    c->pf.cc = http_loop_perform(c->loop, c->pf.x);
    return NULL;
}

/* libcurl asks the prefetch at least once a second and whenever the loop is woken: non-zero
 * stops it (the client's cancel flag, or prefetch_cancel) */
static int prefetch_progress(void *ud, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
    ApiClient *c = ud;
    (void)dt; (void)dn; (void)ut; (void)un;
    return atomic_load(&c->pf.stop) || (c->cancel && atomic_load(c->cancel)) ? 1 : 0;
}

/* Requests url (as build_url made it) now, on the prefetch's transfer and thread; request()
 * for the same URL takes the answer.  Nothing happens when credentials cannot be had: that
 * request says why. */
static void prefetch_start(ApiClient *c, const char *url)
{
    Prefetch *pf = &c->pf;
    prefetch_cancel(c);
    c->timeout = c->opt.request_timeout;          /* lists use the client's limits */
    c->max_retries = HTTP_MAX_RETRIES;
    char *shown = shown_url(c, url);
    struct curl_slist *hl = NULL;
    Error e = { 0 };
    int rc = attempt_setup(c, pf->x, url, shown, false, &hl, &e);
    free(shown);
    if (rc) return;
    curl_easy_setopt(pf->x->h, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(pf->x->h, CURLOPT_XFERINFOFUNCTION, prefetch_progress);
    curl_easy_setopt(pf->x->h, CURLOPT_XFERINFODATA, c);
    atomic_store(&pf->stop, 0);
    pf->t0 = http_now();
    pf->cc = CURLE_OK;
    if (pthread_create(&pf->thread, NULL, prefetch_main, c) != 0) {
        /* no thread: in this one, pumped while the page is parsed */
        if (http_loop_start(c->loop, pf->x)) { http_headers_free(hl); return; }
    } else {
        pf->running = true;
    }
    pf->hl = hl;
    pf->url = xstrdup(url);
    pf->active = true;
    c->requests++;
}

/* lets a prefetch in this thread read what has arrived (called while a page is parsed) */
static void prefetch_pump(ApiClient *c)
{
    if (c->pf.active && !c->pf.running && !c->pf.x->done) http_loop_pump(c->loop);
}

/* the prefetch's thread, if any, joined: the loop is this thread's again */
static void prefetch_join(ApiClient *c)
{
    if (!c->pf.running) return;
    pthread_join(c->pf.thread, NULL);
    c->pf.running = false;
}

static void prefetch_cancel(ApiClient *c)
{
    Prefetch *pf = &c->pf;
    if (!pf->active) return;
    if (pf->running) {
        atomic_store(&pf->stop, 1);
        http_loop_wakeup(c->loop);
        prefetch_join(c);
    }
    http_loop_stop(c->loop, pf->x);
    http_headers_free(pf->hl);
    pf->hl = NULL;
    free(pf->url);
    pf->url = NULL;
    pf->active = false;
}

/* the prefetch's answer becomes the current one: the two transfers change places */
static CURLcode prefetch_take(ApiClient *c, struct curl_slist **hl, double *t0)
{
    Prefetch *pf = &c->pf;
    CURLcode cc;
    if (pf->running) { prefetch_join(c); cc = pf->cc; }
    else cc = http_loop_wait(c->loop, pf->x);
    HttpXfer *x = c->cur;
    c->cur = pf->x;
    pf->x = x;
    *hl = pf->hl;
    *t0 = pf->t0;
    pf->hl = NULL;
    free(pf->url);
    pf->url = NULL;
    pf->active = false;
    return cc;
}

/* http_request's attempt: the prefetched answer when it is this URL's, else a new transfer */
static int api_attempt(void *ctx, HttpXfer **xp, int n, bool refresh, CURLcode *cc, double *t0, Error *err)
{
    ApiClient *c = ctx;
    struct curl_slist *hl = NULL;
    if (n == 0 && !refresh && c->pf.active && strcmp(c->pf.url, c->url) == 0) {
        *cc = prefetch_take(c, &hl, t0);        /* asked for already: its answer is this attempt's */
    } else {
        prefetch_join(c);                       /* the loop is used here: its thread ends first */
        if (attempt_setup(c, c->cur, c->url, c->shown, refresh, &hl, err)) return -1;
        *t0 = http_now();
        *cc = http_loop_perform(c->loop, c->cur);
        c->requests++;
    }
    *xp = c->cur;
    http_headers_free(hl);
    curl_easy_setopt(c->cur->h, CURLOPT_HTTPHEADER, NULL);
    long code = 0;
    curl_easy_getinfo(c->cur->h, CURLINFO_RESPONSE_CODE, &code);
    c->no_answer = code == 0;
    return 0;
}

/* a 401 with an exec plugin: the plugin's credential expired early, run it again (once) */
static bool api_wants_refresh(void *ctx, long code)
{
    ApiClient *c = ctx;
    return code == 401 && c->rc.has_exec && restconfig_is_tls(&c->rc) && !c->rc.token && !c->rc.token_file;
}

/* GET path: the transport's request loop with this client's attempts.
 * Returns 0 with *status and c->cur->body set, or -1 with err set. */
typedef struct { int max_retries; double timeout; bool replace; } RequestLimits;   /* see ApiRequestOptions */

static int request_ex(ApiClient *c, const char *path, const char *query, const char *extra,
                      const RequestLimits *lim, long *status, Error *err)
{
    c->max_retries = lim && lim->max_retries >= 0 && lim->max_retries < HTTP_MAX_RETRIES ? lim->max_retries
                                                                                          : HTTP_MAX_RETRIES;
    c->timeout = c->opt.request_timeout;
    if (lim && lim->replace) c->timeout = lim->timeout;
    else if (lim && lim->timeout > 0 && (c->timeout <= 0 || lim->timeout < c->timeout)) c->timeout = lim->timeout;
    c->retries_done = 0;
    char *url = build_url(c, path, query, extra);
    char *shown = shown_url(c, url);
    c->url = url;
    c->shown = shown;
    HttpRequest rq = { .method = "GET", .shown = shown, .verbose = c->opt.verbose,
                       .max_retries = c->max_retries, .timeout = c->timeout, .ctx = c,
                       .attempt = api_attempt, .may_retry = api_may_retry,
                       .wants_refresh = api_wants_refresh };
    HttpResult res;
    HttpXfer *x = c->cur;
    int rc = http_request(&rq, &x, &res, err);
    c->retries_done = res.retries;
    if (rc == 1) apiclient_transport_error(c, res.cc, path, url, err);
    else if (rc == 0) *status = res.status;
    c->url = c->shown = NULL;
    free(url);
    free(shown);
    return rc == 0 ? 0 : -1;
}

static int request(ApiClient *c, const char *path, const char *query, const char *extra,
                   long *status, Error *err)
{
    return request_ex(c, path, query, extra, NULL, status, err);
}


/* ---------------------------------------------------------------------------------------
 * Lists and single objects
 */

/* "limit=N[&continue=TOKEN]" */
static char *list_extra(ApiClient *c, const char *cont)
{
    if (!cont) return xasprintf("limit=%d", c->opt.page_size);
    char *ec = apiclient_query_escape(cont);
    char *extra = xasprintf("limit=%d&continue=%s", c->opt.page_size, ec);
    free(ec);
    return extra;
}

typedef struct {
    ApiClient *c;
    const char *path, *query, *cont;   /* cont: the token this page was asked with */
    ApiItemFn fn;
    void *ctx;
    Error *err;
    long n;
} PageWalk;

/* the page's metadata: ask for the next page now, unless the token repeats (an error below) */
static void page_meta(void *ctx, const char *next)
{
    PageWalk *w = ctx;
    if (!next || (w->cont && strcmp(next, w->cont) == 0)) return;
    char *extra = list_extra(w->c, next);
    char *url = build_url(w->c, w->path, w->query, extra);
    prefetch_start(w->c, url);
    free(url);
    free(extra);
}

static int page_item(void *ctx, const cJSON *item)
{
    PageWalk *w = ctx;
    if ((++w->n & 31) == 0) prefetch_pump(w->c);
    return w->fn && w->fn(w->ctx, item, w->err) ? 1 : 0;
}

int apiclient_list_skip(ApiClient *c, const char *path, const char *query, ApiItemFn fn,
                        ApiListResetFn reset, const char *const *skip, void *ctx, Error *err)
{
    int restarts = 0;
    /* for -v: what the list cost, over its pages (a restart included) */
    long requests0 = c->requests, items = 0;
    unsigned long long bytes = 0, wire = 0;
restart:;
    char *cont = NULL;
    int page = 0, ret = -1;
    for (;;) {
        page++;
        char *extra = list_extra(c, cont);
        long code = 0;
        int rc = request(c, path, query, extra, &code, err);
        free(extra);
        if (rc) goto out;
        bytes += c->cur->received;
        wire += c->cur->wire;
        if (code == 410 && cont) {
            if (reset && restarts == 0) {
                restarts++;
                log_verbose(1, "the list GET %s expired at page %d (410); reading it again", path, page);
                if (reset(ctx, err)) { if (!err->set) error_set(err, "list reset failed"); goto out; }
                free(cont);
                goto restart;
            }
            error_set(err, "the list GET %s expired while being read (410 Expired at page %d: the "
                      "continue token is too old); try again", path, page);
            err->code = 410;
            goto out;
        }
        if (code < 200 || code > 299) { apiclient_status_error(c, path, code, page, err); goto out; }
        PageWalk w = { c, path, query, cont, fn, ctx, err, 0 };
        JsonListInfo info;
        int stop = jsonscan_list_walk(c->cur->body.buf, c->cur->body.len, c->arena, skip, page_item, page_meta, &w, &info);
        if (c->cur->body.cap > ((size_t)64 << 20)) strbuf_clear(&c->cur->body);   /* don't sit on a huge page */
        if (stop) {
            if (!err->set) error_set(err, "GET %s: stopped at an item", path);
        } else if (info.syntax_error) {
            error_set(err, "invalid JSON in the response to GET %s (page %d)", path, page);
        } else if (info.items_not_array) {
            error_set(err, "invalid response to GET %s (page %d): \"items\" is not a list", path, page);
        } else if (!info.has_items && (!info.kind || !str_ends_with(info.kind, "List"))) {
            error_set(err, "invalid response to GET %s (page %d): not a list", path, page);
        } else if (info.bad_item >= 0) {
            error_set(err, "invalid response to GET %s (page %d): item %ld is not an object", path, page,
                      info.bad_item);
        } else if (info.cont && cont && strcmp(info.cont, cont) == 0) {
            error_set(err, "invalid response to GET %s (page %d): the server repeated the continue token", path, page);
        } else {
            items += info.items;
            if (page == 1) {
                free(c->list_rv);
                c->list_rv = info.rv;
                info.rv = NULL;
            }
            free(cont);
            cont = info.cont;
            info.cont = NULL;
            json_list_info_clear(&info);
            if (!cont) break;
            continue;
        }
        json_list_info_clear(&info);
        goto out;
    }
    ret = 0;
    log_verbose(LOG_DECISIONS, "list %s%s%s: %ld items, %ld requests, %.1f MB (%.1f MB on the wire)", path,
                query && *query ? "?" : "", query ? query : "", items, c->requests - requests0,
                (double)bytes / 1e6, (double)wire / 1e6);
out:
    prefetch_cancel(c);                 /* a list that ended early leaves no request behind */
    free(cont);
    /* the pages are parsed: give their buffers back (the next list may be small) */
    if (c->cur->body.cap > ((size_t)256 << 10)) strbuf_clear(&c->cur->body);
    if (c->pf.x->body.cap > ((size_t)256 << 10)) strbuf_clear(&c->pf.x->body);
    return ret;
}

int apiclient_list_ex(ApiClient *c, const char *path, const char *query,
                      ApiItemFn fn, ApiListResetFn reset, void *ctx, Error *err)
{
    return apiclient_list_skip(c, path, query, fn, reset, NULL, ctx, err);
}

int apiclient_list(ApiClient *c, const char *path, const char *query, ApiItemFn fn, void *ctx, Error *err)
{
    return apiclient_list_ex(c, path, query, fn, NULL, ctx, err);
}

int apiclient_get_json(ApiClient *c, const char *path, const char *query, cJSON **out, Error *err)
{
    *out = NULL;
    long code = 0;
    if (request(c, path, query, NULL, &code, err)) return -1;
    if (code < 200 || code > 299) { apiclient_status_error(c, path, code, 1, err); return -1; }
    cJSON *doc = cJSON_ParseWithLength(c->cur->body.buf ? c->cur->body.buf : "", c->cur->body.len);
    if (!doc) { error_set(err, "invalid JSON in the response to GET %s", path); return -1; }
    *out = doc;
    return 0;
}

int apiclient_get_raw(ApiClient *c, const char *path, const char *query, Strbuf *out, Error *err)
{
    return apiclient_get_raw_ex(c, path, query, NULL, out, err);
}

int apiclient_get_stream(ApiClient *c, const char *path, const char *query, const ApiRequestOptions *ro,
                         ApiSinkFn sink, void *ctx, Error *err)
{
    long code = 0;
    RequestLimits lim = { ro ? ro->max_retries : -1, ro ? ro->timeout : 0, ro && ro->long_running };
    prefetch_cancel(c);                  /* the streamed answer must come on the current handle */
    c->cur->sink = sink;
    c->cur->sink_ctx = ctx;
    int rc = request_ex(c, path, query, NULL, &lim, &code, err);
    c->cur->sink = NULL;
    c->cur->sink_ctx = NULL;
    if (rc) return -1;
    if (code < 200 || code > 299) { apiclient_status_error(c, path, code, 1, err); return -1; }
    return 0;
}

int apiclient_get_raw_ex(ApiClient *c, const char *path, const char *query, const ApiRequestOptions *ro,
                         Strbuf *out, Error *err)
{
    long code = 0;
    RequestLimits lim = { ro ? ro->max_retries : -1, ro ? ro->timeout : 0, ro && ro->long_running };
    if (request_ex(c, path, query, NULL, &lim, &code, err)) return -1;
    if (code < 200 || code > 299) { apiclient_status_error(c, path, code, 1, err); return -1; }
    strbuf_add(out, c->cur->body.buf ? c->cur->body.buf : "", c->cur->body.len);
    return 0;
}

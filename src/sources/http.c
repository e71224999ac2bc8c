/* http.c — the shared libcurl layer (http.h). */
#include "http.h"
#include "http_inflate.h"
#include "util/log.h"
#include "internal.h"
#include "util/error.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <time.h>

double http_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void http_sleep(double s)
{
    if (s <= 0) return;
    struct timespec ts = { (time_t)s, (long)((s - floor(s)) * 1e9) };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) { }
}

void http_secret_free(char *s)
{
    if (!s) return;
    volatile char *p = s;
    while (*p) *p++ = 0;
    free(s);
}

const char *http_header_value_problem(const char *v, size_t len)
{
    const char *ctl = NULL;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)v[i];
        if (c == '\r' || c == '\n') return "contains a line break (CR/LF)";
        if (c == 0) return "contains a NUL byte";
        if ((c < 0x20 && c != '\t') || c == 0x7f) ctl = "contains a control character";
    }
    return ctl;
}

void http_setup(CURL *h, const HttpSetup *s)
{
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    if (s->user_agent) curl_easy_setopt(h, CURLOPT_USERAGENT, s->user_agent);
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
#endif
    if (s->tls12) curl_easy_setopt(h, CURLOPT_SSLVERSION, (long)CURL_SSLVERSION_TLSv1_2);
    if (s->insecure) {
        curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);
        curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
    } else {
        curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
        curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
        if (s->ca_data) {
            struct curl_blob b = { (void *)s->ca_data, strlen(s->ca_data), CURL_BLOB_COPY };
            curl_easy_setopt(h, CURLOPT_CAINFO_BLOB, &b);
        } else if (s->ca_file) {
            curl_easy_setopt(h, CURLOPT_CAINFO, s->ca_file);
        } else {
            tls_use_system_ca(h);
        }
    }
    if (s->timeout > 0) curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)ceil(s->timeout * 1000));
    if (s->connect_timeout > 0)
        curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)(s->connect_timeout * 1000));
}

double http_backoff(const HttpRetry *r, int attempt)
{
    if (r->fixed_wait > 0) return r->fixed_wait;
    return fmin(r->wait_cap, r->base_wait * (double)(1 << attempt));
}

bool http_retry_status(const HttpRetry *r, long code, int attempt, double retry_after,
                       double budget, double *wait)
{
    bool is5xx = r->gateway_only ? (code == 502 || code == 503 || code == 504) : code >= 500;
    if (code != 429 && !is5xx) return false;
    if (attempt >= (code == 429 ? r->max_429 : r->max_5xx)) return false;
    double w = r->honour_retry_after && retry_after >= 0 ? fmin(retry_after, r->wait_cap)
                                                         : http_backoff(r, attempt);
    if (!(w < budget)) return false;
    *wait = w;
    return true;
}

bool http_retry_after(const char *data, size_t len, double *seconds)
{
    if (len <= 12 || strncasecmp(data, "Retry-After:", 12) != 0) return false;
    char v[32];
    size_t vl = len - 12 < sizeof v - 1 ? len - 12 : sizeof v - 1;
    memcpy(v, data + 12, vl);
    v[vl] = '\0';
    char *end;
    double s = strtod(v, &end);
    while (*end == ' ' || *end == '\r' || *end == '\n') end++;
    /* seconds only; an HTTP date is treated as "retry soon" */
    *seconds = (!*end && s >= 0 && s == s) ? s : 1;
    return true;
}

bool http_is_secret_header(const char *name, size_t len)
{
    static const char *const secret[] = { "authorization", "proxy-authorization", "cookie", "set-cookie" };
    for (size_t i = 0; i < sizeof secret / sizeof *secret; i++)
        if (strlen(secret[i]) == len && strncasecmp(name, secret[i], len) == 0) return true;
    return false;
}

void http_log_header(const char *dir, const char *line, size_t len)
{
    while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) len--;
    if (!len) return;
    const char *colon = memchr(line, ':', len);
    if (colon && http_is_secret_header(line, (size_t)(colon - line)))
        log_verbose(LOG_HEADERS, "%s %.*s: <redacted>", dir, (int)(colon - line), line);
    else
        log_verbose(LOG_HEADERS, "%s %.*s", dir, (int)len, line);
}

/* ---------------------------------------------------------------------------------------
 * The retry rule, one transfer, the request loop
 */

HttpRetry http_retry_rule(int max_5xx)
{
    if (max_5xx < 0 || max_5xx > HTTP_MAX_RETRIES) max_5xx = HTTP_MAX_RETRIES;
    return (HttpRetry){ .max_429 = HTTP_MAX_RETRIES, .max_5xx = max_5xx, .gateway_only = false,
                        .honour_retry_after = true, .base_wait = 0.5, .wait_cap = HTTP_RETRY_WAIT_CAP };
}

/* -v=8: the start of each answer's body, as kubectl's -v=8 (1 KiB; -v=9 10 KiB), decoded */
static void log_body(const HttpXfer *x, const char *data, size_t len)
{
    size_t limit = log_enabled(LOG_BODIES_MORE) ? 10240 : 1024;
    if (x->received >= limit) return;
    size_t n = len < limit - x->received ? len : limit - x->received;
    log_verbose(LOG_BODIES, "< body: %.*s%s", (int)n, data,
                n < len ? " ... (cut: -v=8 shows 1 KiB of a body, -v=9 10 KiB)" : "");
}

/* one piece of the answer's body as decoded: to the sink (a 2xx answer) or the buffer */
static int xfer_take(void *ud, const char *data, size_t len)
{
    HttpXfer *x = ud;
    if (x->body_max && x->received + len > x->body_max) { x->too_big = true; return 1; }
    if (log_enabled(LOG_BODIES)) log_body(x, data, len);
    x->received += len;
    if (x->sink) {
        long code = 0;
        curl_easy_getinfo(x->h, CURLINFO_RESPONSE_CODE, &code);
        if (code >= 200 && code <= 299) {
            x->sunk = true;
            return x->sink(x->sink_ctx, data, len, code) ? 1 : 0;
        }
    }
    strbuf_add(&x->body, data, len);
    return 0;
}

static size_t xfer_on_body(char *data, size_t size, size_t n, void *ud)
{
    HttpXfer *x = ud;
    size_t len = size * n;
    x->wire += len;
    if (!x->gzip) return xfer_take(x, data, len) ? 0 : len;
    if (!x->inflate) x->inflate = http_inflate_new();
    if (!x->gzip_fed) { http_inflate_reset(x->inflate); x->gzip_fed = true; }
    int rc;
    if (!x->sink && !log_enabled(LOG_BODIES)) {
        /* to the body: decoded in place there (xfer_take's bound, without its copy) */
        size_t before = x->body.len;
        rc = http_inflate_feed_into(x->inflate, data, len, &x->body,
                                    x->body_max ? x->body_max - x->received : SIZE_MAX);
        x->received += x->body.len - before;
        if (rc > 0) x->too_big = true;
    } else {
        rc = http_inflate_feed(x->inflate, data, len, xfer_take, x);
    }
    if (rc < 0) x->gzip_error = http_inflate_error(x->inflate);
    return rc ? 0 : len;
}

/* "Content-Encoding: gzip" (any case, spaces around) */
static bool content_encoding_gzip(const char *line, size_t len)
{
    static const char name[] = "content-encoding:";
    if (len < sizeof name - 1 || strncasecmp(line, name, sizeof name - 1) != 0) return false;
    const char *v = line + sizeof name - 1, *end = line + len;
    while (v < end && (*v == ' ' || *v == '\t')) v++;
    while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\t')) end--;
    return end - v == 4 && strncasecmp(v, "gzip", 4) == 0;
}

static size_t xfer_on_header(char *data, size_t size, size_t n, void *ud)
{
    HttpXfer *x = ud;
    size_t len = size * n;
    if (log_enabled(LOG_HEADERS)) http_log_header("<", data, len);
    if (len >= 5 && memcmp(data, "HTTP/", 5) == 0) x->gzip = false;   /* a new answer's headers */
    else if (content_encoding_gzip(data, len)) x->gzip = true;
    http_retry_after(data, len, &x->retry_after);
    return len;
}

int http_xfer_init(HttpXfer *x, size_t body_max, int verbose)
{
    memset(x, 0, sizeof *x);
    x->body_max = body_max;
    x->verbose = verbose;
    x->retry_after = -1;
    log_raise_verbosity(verbose);
    x->h = curl_easy_init();
    return x->h ? 0 : -1;
}

void http_xfer_idle(HttpXfer *x)
{
    http_inflate_free(x->inflate);
    x->inflate = NULL;
    x->gzip_fed = false;
    if (x->body.buf) memset(x->body.buf, 0, x->body.cap);   /* it may hold a secret */
    strbuf_clear(&x->body);
}

void http_xfer_release(HttpXfer *x)
{
    if (x->loop) http_loop_stop(x->loop, x);
    if (x->h) curl_easy_cleanup(x->h);
    x->h = NULL;
    http_xfer_idle(x);
}

void http_xfer_begin(HttpXfer *x, const HttpSetup *s)
{
    strbuf_reset(&x->body);
    x->received = 0;
    x->too_big = false;
    x->retry_after = -1;
    x->errbuf[0] = '\0';
    x->sunk = false;
    x->gzip = x->gzip_fed = false;
    x->gzip_error = NULL;
    x->wire = 0;
    curl_easy_reset(x->h);
    http_setup(x->h, s);
    if (s->compress) {
        /* gzip asked for, and decoded in xfer_on_body (http_inflate.h), not by libcurl */
        curl_easy_setopt(x->h, CURLOPT_ACCEPT_ENCODING, "gzip");
        curl_easy_setopt(x->h, CURLOPT_HTTP_CONTENT_DECODING, 0L);
    }
    curl_easy_setopt(x->h, CURLOPT_ERRORBUFFER, x->errbuf);
    curl_easy_setopt(x->h, CURLOPT_WRITEFUNCTION, xfer_on_body);
    curl_easy_setopt(x->h, CURLOPT_WRITEDATA, x);
    curl_easy_setopt(x->h, CURLOPT_HEADERFUNCTION, xfer_on_header);
    curl_easy_setopt(x->h, CURLOPT_HEADERDATA, x);
}

/* ---------------------------------------------------------------------------------------
 * The transfer loop
 */

struct HttpLoop {
    CURLM *multi;
};

HttpLoop *http_loop_new(void)
{
    CURLM *m = curl_multi_init();
    if (!m) return NULL;
    HttpLoop *l = xcalloc(1, sizeof *l);
    l->multi = m;
    return l;
}

void http_loop_free(HttpLoop *l)
{
    if (!l) return;
    curl_multi_cleanup(l->multi);
    free(l);
}

/* drives the multi once; marks each transfer that finished */
static void loop_step(HttpLoop *l)
{
    int running = 0, left = 0;
    curl_multi_perform(l->multi, &running);
    CURLMsg *m;
    while ((m = curl_multi_info_read(l->multi, &left))) {
        if (m->msg != CURLMSG_DONE) continue;
        HttpXfer *x = NULL;
        curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&x);
        if (!x) continue;
        x->done = true;
        x->result = m->data.result;
        if (x->gzip_fed && !x->too_big && (x->gzip_error || (x->result == CURLE_OK && !http_inflate_finished(x->inflate)))) {
            /* as libcurl's own decoding reports it */
            x->result = CURLE_BAD_CONTENT_ENCODING;
            snprintf(x->errbuf, sizeof x->errbuf, "%s", x->gzip_error ? x->gzip_error : "the gzip data stops before its end");
        }
    }
}

int http_loop_start(HttpLoop *l, HttpXfer *x)
{
    x->done = false;
    x->result = CURLE_OK;
    curl_easy_setopt(x->h, CURLOPT_PRIVATE, (char *)x);
    if (curl_multi_add_handle(l->multi, x->h) != CURLM_OK) return -1;
    x->loop = l;
    loop_step(l);                                  /* send it */
    return 0;
}

void http_loop_pump(HttpLoop *l) { loop_step(l); }

void http_loop_stop(HttpLoop *l, HttpXfer *x)
{
    if (x->loop != l) return;
    curl_multi_remove_handle(l->multi, x->h);
    x->loop = NULL;
}

CURLcode http_loop_wait(HttpLoop *l, HttpXfer *x)
{
    for (;;) {
        loop_step(l);
        if (x->done) break;
        curl_multi_poll(l->multi, NULL, 0, 1000, NULL);
    }
    http_loop_stop(l, x);
    return x->result;
}

void http_loop_wakeup(HttpLoop *l) { curl_multi_wakeup(l->multi); }

CURLcode http_loop_perform(HttpLoop *l, HttpXfer *x)
{
    if (http_loop_start(l, x)) return CURLE_FAILED_INIT;
    return http_loop_wait(l, x);
}

const char *http_reason(long status)
{
    switch (status) {
    case 200: return "OK"; case 400: return "Bad Request"; case 401: return "Unauthorized";
    case 403: return "Forbidden"; case 404: return "Not Found"; case 405: return "Method Not Allowed";
    case 409: return "Conflict"; case 410: return "Gone"; case 422: return "Unprocessable Entity";
    case 429: return "Too Many Requests"; case 500: return "Internal Server Error";
    case 502: return "Bad Gateway"; case 503: return "Service Unavailable"; case 504: return "Gateway Timeout";
    default: return "";
    }
}

void http_log_request(const char *method, const char *shown, const char *user_agent,
                      const struct curl_slist *headers)
{
    log_verbose(LOG_HEADERS, "> %s %s", method, shown);
    if (user_agent) log_verbose(LOG_HEADERS, "> User-Agent: %s", user_agent);
    for (const struct curl_slist *p = headers; p; p = p->next) http_log_header(">", p->data, strlen(p->data));
}

void http_headers_free(struct curl_slist *hl)
{
    for (struct curl_slist *p = hl; p; p = p->next)
        if (strncasecmp(p->data, "Authorization:", 14) == 0) { volatile char *q = p->data; while (*q) *q++ = 0; }
    curl_slist_free_all(hl);
}

/* a connection that broke before or while the answer came: the same request may well work */
static bool cut_connection(CURLcode cc)
{
    return cc == CURLE_PARTIAL_FILE || cc == CURLE_RECV_ERROR || cc == CURLE_GOT_NOTHING ||
           cc == CURLE_SEND_ERROR;
}

int http_request(const HttpRequest *rq, HttpXfer **xp, HttpResult *res, Error *err)
{
    const char *method = rq->method ? rq->method : "GET";
    HttpRetry rule = http_retry_rule(rq->max_retries);
    double start = http_now();
    bool refreshed = false, refresh = false;
    int attempt = 0;
    memset(res, 0, sizeof *res);
    log_raise_verbosity(rq->verbose);
    for (;;) {
        CURLcode cc = CURLE_OK;
        double t0 = http_now();
        if (rq->attempt(rq->ctx, xp, attempt, refresh, &cc, &t0, err)) { res->retries = attempt; return -1; }
        refresh = false;
        HttpXfer *x = *xp;
        long code = 0;
        curl_easy_getinfo(x->h, CURLINFO_RESPONSE_CODE, &code);
        res->cc = cc;
        res->status = cc == CURLE_OK ? code : 0;
        double ms = (http_now() - t0) * 1000;
        if (cc == CURLE_OK && x->gzip_fed)
            log_verbose(LOG_REQUESTS, "%s %s %ld %s, %zu bytes (%llu gzip), %.0f ms", method, rq->shown, code,
                        http_reason(code), x->received, x->wire, ms);
        else if (cc == CURLE_OK)
            log_verbose(LOG_REQUESTS, "%s %s %ld %s, %zu bytes, %.0f ms", method, rq->shown, code, http_reason(code),
                        x->received, ms);
        else
            log_verbose(LOG_REQUESTS, "%s %s failed after %.0f ms: %s", method, rq->shown, ms,
                        x->errbuf[0] ? x->errbuf : curl_easy_strerror(cc));
        double budget = rq->timeout > 0 ? rq->timeout - (http_now() - start) : 1e18;
        double wait;
        if (cc != CURLE_OK) {
            wait = http_backoff(&rule, attempt);
            if (cut_connection(cc) && !x->sunk && !x->too_big && attempt < rule.max_5xx && wait < budget &&
                (!rq->may_retry || rq->may_retry(rq->ctx, x, cc))) {
                log_verbose(1, "retrying %s %s in %.1f s", method, rq->shown, wait);
                http_sleep(wait);
                attempt++;
                continue;
            }
            res->retries = attempt;
            return 1;
        }
        if (!refreshed && rq->wants_refresh && rq->wants_refresh(rq->ctx, code)) {
            refreshed = refresh = true;            /* e.g. an exec credential that expired early */
            continue;
        }
        if (!x->sunk && http_retry_status(&rule, code, attempt, x->retry_after, budget, &wait)) {
            log_verbose(1, "retrying %s %s in %.1f s (%ld %s)", method, rq->shown, wait, code, http_reason(code));
            http_sleep(wait);
            attempt++;
            continue;
        }
        res->retries = attempt;
        return 0;
    }
}

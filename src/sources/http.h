/* http.h — the one HTTP transport of the sources (not a public contract): everything the
 * clients here (the Kubernetes API client, Prometheus, and any later one such as a watch) do
 * the same way.
 *
 *   - handle setup: no signals, user agent, http/https only, TLS verified against the given
 *     CA (inline PEM or file) or the system's (tls_use_system_ca), timeouts (http_setup);
 *   - one transfer (HttpXfer): an easy handle and where its answer goes: collected into a
 *     bounded buffer, or, for a 2xx answer with a sink, handed over chunk by chunk as it
 *     arrives (streaming: a long list, a Prometheus answer, a watch);
 *   - the one transfer loop (HttpLoop, a libcurl multi): every transfer of every client is
 *     performed there, alone (http_loop_perform) or beside others (the API client's prefetched
 *     next page: http_loop_start, then http_loop_pump while parsing, http_loop_wait);
 *   - the one request loop (http_request) and its one retry rule (http_retry_rule, below),
 *     with Retry-After, backoff, the caller's time budget and the -v trace;
 *   - tracing for -v: one line per attempt, and at -v=3 the headers with credentials redacted;
 *   - secrets wiped before they are freed (http_secret_free, internal.h).
 * Authentication (what credentials a request carries) lives beside it, in auth.h; what a
 * failure means to a person (which kubeconfig field to fix, which flag) stays with the client.
 *
 * THE RETRY RULE (both clients): an answer 429 is retried up to HTTP_MAX_RETRIES times; an
 * answer 5xx and a connection cut before any of the answer was consumed (the connection reset,
 * closed with nothing, or broken mid-body) up to the request's max_retries (HTTP_MAX_RETRIES
 * unless the request asks for fewer: a probe through the API server's proxy asks for none, a
 * direct Prometheus for one).  The wait before retry n (0-based) is the answer's Retry-After
 * (seconds; an HTTP date counts as 1 s) else 0.5 s * 2^n, capped at HTTP_RETRY_WAIT_CAP; a wait
 * that does not fit in what is left of the request's timeout is not made (the last answer
 * stands).  Nothing else is retried: refused connections, TLS and certificate failures and
 * timeouts would fail again the same way.
 */
#ifndef KGPU_SOURCES_HTTP_H
#define KGPU_SOURCES_HTTP_H
#include <stdbool.h>
#include <stddef.h>
#include <curl/curl.h>
#include "util/util.h"

struct Error;

/* monotonic clock in seconds; sleep that resumes after signals */
double http_now(void);
void http_sleep(double seconds);

/* TLS and the common options of one easy handle (after curl_easy_reset) */
typedef struct {
    const char *user_agent;
    bool compress;               /* send Accept-Encoding (gzip, ...) */
    bool insecure;               /* do not verify the server (kubeconfig insecure-skip-tls-verify) */
    bool tls12;                  /* refuse TLS below 1.2 */
    const char *ca_data;         /* PEM of the CA, else ... */
    const char *ca_file;         /* ... a CA file, else the system's CAs */
    double timeout;              /* whole transfer, seconds; <= 0 = none */
    double connect_timeout;      /* seconds; <= 0 = libcurl's default */
} HttpSetup;
void http_setup(CURL *h, const HttpSetup *s);

/* When to retry an answer, and after how long (the parts of a rule; every client uses the one
 * http_retry_rule() makes, and http_request applies it).  A 429 is retried up to max_429 times, a
 * 5xx (only 502/503/504 when gateway_only) up to max_5xx times.  The wait is Retry-After
 * (when honoured and sent, capped at wait_cap), else fixed_wait when set, else
 * base_wait * 2^attempt capped at wait_cap; it must fit in budget (seconds left).
 * Returns true with *wait set when the answer (HTTP status code, attempt = retries so far,
 * retry_after = seconds from the header or -1) is to be retried. */
typedef struct {
    int max_429, max_5xx;
    bool gateway_only;
    bool honour_retry_after;
    double fixed_wait, base_wait, wait_cap;
} HttpRetry;
bool http_retry_status(const HttpRetry *r, long code, int attempt, double retry_after,
                       double budget, double *wait);
/* the backoff wait (no Retry-After) of attempt n under r */
double http_backoff(const HttpRetry *r, int attempt);

/* a "Retry-After:" header line (as libcurl hands it, with CRLF): true with *seconds set
 * (an HTTP date counts as 1 s, "retry soon"); false for any other header */
bool http_retry_after(const char *line, size_t len, double *seconds);

/* -v tracing: one header line to stderr prefixed by dir (">" sent, "<" received), with the
 * value of Authorization, Proxy-Authorization, Cookie and Set-Cookie replaced by <redacted> */
void http_log_header(const char *dir, const char *line, size_t len);
bool http_is_secret_header(const char *name, size_t len);
/* ---- the one retry rule (see the top of this file) ---- */
enum { HTTP_MAX_RETRIES = 5 };
#define HTTP_RETRY_WAIT_CAP 10.0
/* the rule with max_5xx retries of 5xx answers and cut connections (< 0 or more than
 * HTTP_MAX_RETRIES: HTTP_MAX_RETRIES) */
HttpRetry http_retry_rule(int max_5xx);

/* ---- one transfer ---- */

/* Called with each piece of a 2xx answer's body as it arrives (code = the HTTP status);
 * non-zero aborts the transfer (it then fails with CURLE_WRITE_ERROR). */
typedef int (*HttpSinkFn)(void *ctx, const char *data, size_t len, long code);

typedef struct {
    CURL *h;
    Strbuf body;                 /* the answer, unless it went to sink */
    size_t body_max;             /* bytes one answer may have (sink or not); 0 = no limit */
    size_t received;             /* bytes of this answer's body so far */
    bool too_big;                /* stopped at body_max */
    double retry_after;          /* seconds from Retry-After, -1 when absent */
    char errbuf[CURL_ERROR_SIZE];
    int verbose;                 /* >= 3: received headers traced (redacted) */
    HttpSinkFn sink;             /* set by the caller for a streamed answer, else NULL */
    void *sink_ctx;
    bool sunk;                   /* part of this answer went to sink: it cannot be retried */
    /* a gzip answer is decoded here (http_inflate.h), not by libcurl: */
    bool gzip;                   /* this answer's Content-Encoding is gzip */
    bool gzip_fed;               /* part of it went through the decoder */
    const char *gzip_error;      /* why it could not be decoded, else NULL */
    struct HttpInflate *inflate; /* the decoder, made at the first gzip answer */
    unsigned long long wire;     /* bytes of this answer's body as sent (before decoding) */
    /* in the transfer loop (below): */
    struct HttpLoop *loop;       /* the loop it runs in now, else NULL */
    bool done;                   /* finished there, with result */
    CURLcode result;
} HttpXfer;

/* 0, or -1 when libcurl cannot make a handle */
int http_xfer_init(HttpXfer *x, size_t body_max, int verbose);
/* the handle and the answer (wiped: it may hold a secret); x can be init'ed again */
void http_xfer_release(HttpXfer *x);
/* between transfers: the inflater (made again by the next gzip answer) and the body's buffer
 * freed; the handle and its connection stay */
void http_xfer_idle(HttpXfer *x);
/* before an attempt: forgets the last answer, resets the handle, applies s and routes the
 * answer (body, headers, error text) into x; the caller then sets URL, method, headers */
void http_xfer_begin(HttpXfer *x, const HttpSetup *s);

/* ---- the transfer loop ---- */

/* Where transfers are performed: one libcurl multi handle (its connection cache keeps the
 * connections alive between requests).  A client makes one and runs every transfer in it,
 * one thread at a time (the API client runs its prefetch on a thread of its own while the
 * caller's thread leaves the loop alone). */
typedef struct HttpLoop HttpLoop;
/* NULL when libcurl cannot make one */
HttpLoop *http_loop_new(void);
/* its transfers stopped (http_loop_stop, http_xfer_release) or finished first; NULL is fine */
void http_loop_free(HttpLoop *l);
/* x (set up: http_xfer_begin, URL, ...) starts in l and is sent at once; 0, or -1 when libcurl
 * refuses it (x is then not in l) */
int http_loop_start(HttpLoop *l, HttpXfer *x);
/* moves every transfer in l on by what has arrived, without waiting */
void http_loop_pump(HttpLoop *l);
/* runs x (started in l) to its end, the others in l moving on meanwhile; x leaves l */
CURLcode http_loop_wait(HttpLoop *l, HttpXfer *x);
/* stops x (started in l) where it is; x leaves l */
void http_loop_stop(HttpLoop *l, HttpXfer *x);
/* start and wait: one transfer, performed (CURLE_FAILED_INIT when libcurl refuses it) */
CURLcode http_loop_perform(HttpLoop *l, HttpXfer *x);
/* wakes the loop's wait from another thread (curl_multi_wakeup: the one call on a loop that
 * may come from a thread other than the one running it) */
void http_loop_wakeup(HttpLoop *l);

/* ---- the request loop ---- */

/* One request, made of attempts.  The client's attempt hook sets up and performs one attempt
 * on *xp (credentials, URL, method, its own options; http_xfer_begin first); it may instead
 * point *xp at another transfer that already holds this attempt's answer (the API client's
 * prefetched next page).  refresh asks it to renew its credentials first. */
typedef struct {
    const char *method;          /* for the trace: "GET", "POST" */
    const char *shown;           /* the URL as traced: no userinfo, no secrets */
    int verbose;                 /* >= 1: one line per attempt and per retry */
    int max_retries;             /* 5xx and cut connections (the rule above); < 0 = default */
    double timeout;              /* seconds for the whole request, retries included; <= 0 none */
    void *ctx;
    /* 0 with *cc and *t0 (when the attempt started) set, or -1 with err set (e.g. no
     * credentials can be had): the request ends there */
    int (*attempt)(void *ctx, HttpXfer **xp, int n, bool refresh, CURLcode *cc, double *t0,
                   struct Error *err);
    /* optional: false when a failed transfer that the rule would retry must not be (the
     * server refused the client certificate) */
    bool (*may_retry)(void *ctx, const HttpXfer *x, CURLcode cc);
    /* optional: true when an answer with this status is worth one more attempt at once with
     * renewed credentials (a 401 and an exec plugin); asked once per request */
    bool (*wants_refresh)(void *ctx, long status);
} HttpRequest;

typedef struct {
    long status;                 /* the last answer's HTTP status (0: none) */
    CURLcode cc;                 /* the last attempt's libcurl result */
    int retries;                 /* retries made */
} HttpResult;

/* Runs the attempts under the retry rule.  Returns 0 when an HTTP answer ends the request
 * (any status: the caller judges it; its body in (*xp)->body unless it went to the sink),
 * 1 when the transfer failed (res->cc; the details in (*xp)->errbuf, too_big), -1 when the
 * attempt hook failed (err set). */
int http_request(const HttpRequest *rq, HttpXfer **xp, HttpResult *res, struct Error *err);

/* the reason phrase of a status ("Not Found"), "" when not one we name */
const char *http_reason(long status);
/* -v=3: the request line and the headers sent, credentials redacted */
void http_log_request(const char *method, const char *shown, const char *user_agent,
                      const struct curl_slist *headers);
/* the Authorization (and any other secret) header lines wiped, then the list freed */
void http_headers_free(struct curl_slist *hl);
#endif

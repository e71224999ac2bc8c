/* prometheus.c — Prometheus HTTP API client: instant and range queries, streamed answers.
 * The DCGM usage queries built on it are in prometheus_usage.c.
 *
 * Direct requests are POSTs of a urlencoded form (no URL length limit for long PromQL);
 * requests through the API server's service proxy are GETs with the same form as the query
 * string, sent by the API client (which owns the cluster credentials).  Both go through the
 * one transport (http.h): the same TLS set-up, retry rule, -v trace and redaction.
 */
#include "sources/prometheus.h"
#include "util/log.h"
#include "sources/apiclient.h"
#include "auth.h"
#include "util/error.h"
#include "http.h"
#include "internal.h"
#include "sources/jsonscan.h"
#include "util/strmap.h"
#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROM_MAX_BODY ((size_t)256 << 20)   /* a bigger answer is not a DCGM query result */

struct PromClient {
    char *url;              /* direct base URL, no trailing slash */
    char *shown;            /* for messages */
    char *token, *basic_auth;
    struct ApiClient *api;
    char *proxy_path;
    double timeout;
    int verbose;
    HttpXfer x;             /* direct requests: the transfer and the loop it runs in, */
    HttpLoop *loop;         /* made on first use */
    bool x_ready;
};

PromClient *prom_client_new(const PromConfig *cfg, Error *err)
{
    if (!cfg->url && !(cfg->api && cfg->proxy_path)) {
        error_set(err, "prometheus: no URL");
        return NULL;
    }
    if (cfg->url && !str_starts_with(cfg->url, "http://") && !str_starts_with(cfg->url, "https://")) {
        error_set(err, "not an http:// or https:// URL");
        return NULL;
    }
    /* both become a header (Authorization): a line break would add header lines of its own */
    const char *why = cfg->url && cfg->token ? http_header_value_problem(cfg->token, strlen(cfg->token)) : NULL;
    if (why) { error_set(err, "--prometheus-token %s and cannot be sent as an HTTP header", why); return NULL; }
    why = cfg->url && cfg->basic_auth ? http_header_value_problem(cfg->basic_auth, strlen(cfg->basic_auth)) : NULL;
    if (why) { error_set(err, "--prometheus-basic-auth %s and cannot be sent as an HTTP header", why); return NULL; }
    PromClient *c = xcalloc(1, sizeof *c);
    if (cfg->url) {
        c->url = xstrdup(cfg->url);
        size_t n = strlen(c->url);
        while (n > 0 && c->url[n - 1] == '/') c->url[--n] = '\0';
        c->shown = url_redact(c->url);
        c->token = cfg->token && *cfg->token ? xstrdup(cfg->token) : NULL;
        c->basic_auth = cfg->basic_auth && *cfg->basic_auth ? xstrdup(cfg->basic_auth) : NULL;
    } else {
        c->api = cfg->api;
        c->proxy_path = xstrdup(cfg->proxy_path);
        size_t n = strlen(c->proxy_path);
        while (n > 0 && c->proxy_path[n - 1] == '/') c->proxy_path[--n] = '\0';
        c->shown = xstrdup(c->proxy_path);
    }
    c->timeout = cfg->timeout > 0 ? cfg->timeout : 30;
    c->verbose = cfg->verbose;
    log_raise_verbosity(cfg->verbose);
    return c;
}

void prom_client_free(PromClient *c)
{
    if (!c) return;
    if (c->x_ready) http_xfer_release(&c->x);
    http_loop_free(c->loop);
    free(c->url); free(c->shown); free(c->proxy_path);
    if (c->token) { memset(c->token, 0, strlen(c->token)); free(c->token); }
    if (c->basic_auth) { memset(c->basic_auth, 0, strlen(c->basic_auth)); free(c->basic_auth); }
    free(c);
}

const char *prom_client_describe(const PromClient *c) { return c ? c->shown : ""; }

/* ---------------------------------------------------------------------------------------- */
/* response parsing                                                                          */

/* "[-]digits[.digits]" with at most 15 digits: the digits as an integer (exact below 2^53)
 * divided by a power of ten (exact up to 1e22) is one correctly rounded operation, the
 * double strtod gives (Clinger's fast path); anything else is left to strtod */
static bool parse_plain_decimal(const char *s, double *out)
{
    static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                    1e12, 1e13, 1e14, 1e15 };
    bool neg = *s == '-';
    if (neg) s++;
    uint64_t m = 0;
    int digits = 0, frac = 0;
    bool dot = false;
    for (; *s; s++) {
        if (*s >= '0' && *s <= '9') {
            if (++digits > 15) return false;
            m = m * 10 + (uint64_t)(*s - '0');
            frac += dot;
        } else if (*s == '.' && !dot && digits > 0) {
            dot = true;
        } else {
            return false;
        }
    }
    if (digits == 0 || (dot && frac == 0)) return false;
    double v = (double)m / pow10[frac];
    *out = neg ? -v : v;
    return true;
}

static bool parse_number(const char *s, double *out)
{
    if (parse_plain_decimal(s, out)) return true;
    char buf[80];
    size_t n = strlen(s);
    if (n == 0 || n >= sizeof buf) return false;
    memcpy(buf, s, n + 1);
    const char *dp = localeconv()->decimal_point;
    if (dp && dp[0] && dp[0] != '.' && !dp[1]) {
        char *dot = strchr(buf, '.');
        if (dot) *dot = dp[0];
    }
    char *end;
    *out = strtod(buf, &end);
    return *end == '\0';
}

/* [ <unix time>, "<value>" ] */
static bool parse_point(const cJSON *p, double *t, double *v)
{
    if (!cJSON_IsArray(p) || cJSON_GetArraySize(p) != 2) return false;
    const cJSON *ts = cJSON_GetArrayItem(p, 0), *val = cJSON_GetArrayItem(p, 1);
    if (!cJSON_IsNumber(ts) || !cJSON_IsString(val)) return false;
    *t = ts->valuedouble;
    return parse_number(val->valuestring, v);
}

static void push_messages(Strvec *out, const cJSON *arr, const char *kind)
{
    const cJSON *w;
    if (!out || !cJSON_IsArray(arr)) return;
    cJSON_ArrayForEach(w, arr)
        if (cJSON_IsString(w) && out->n < 50) strvec_pushf(out, "prometheus %s: %.300s", kind, w->valuestring);
}

static int emit_series(const cJSON *metric, const cJSON *points, bool single, PromSeriesFn fn,
                       void *ctx, PromLabel **lab, size_t *caplab, double **tv, size_t *captv)
{
    size_t nl = 0;
    const cJSON *m;
    if (cJSON_IsObject(metric)) {
        cJSON_ArrayForEach(m, metric) {
            if (!m->string || !cJSON_IsString(m)) continue;
            ARRAY_GROW(*lab, nl, *caplab);
            (*lab)[nl].name = m->string;
            (*lab)[nl].value = m->valuestring;
            nl++;
        }
    }
    size_t np = single ? 1 : (size_t)cJSON_GetArraySize(points);
    if (!*tv || 2 * np > *captv) {
        *captv = 2 * np + 2;
        *tv = xrealloc(*tv, *captv * sizeof **tv);
    }
    double *t = *tv, *v = *tv + np;
    size_t k = 0;
    if (single) {
        if (parse_point(points, &t[0], &v[0])) k = 1;
    } else {
        const cJSON *p;
        cJSON_ArrayForEach(p, points)
            if (parse_point(p, &t[k], &v[k])) k++;
    }
    if (k == 0) return 0;                          /* e.g. a native histogram: not ours */
    return fn(ctx, *lab, nl, t, v, k);
}

/* One answer, parsed as it arrives: the series of data.result are handed to fn one at a time
 * while the body is read (when the answer says "success" and its resultType before them, as
 * Prometheus writes it), so an answer of any size costs one series of memory; the rest of the
 * document is checked at the end exactly as a whole document would be (jsonscan.h JsonSplit).
 * An answer in another order is read whole, with the same result. */
typedef struct {
    JsonSplit *split;
    long http_code;                 /* 0 = not known / not checked */
    PromSeriesFn fn;
    void *ctx;
    bool vec;
    PromLabel *lab;
    size_t caplab, captv;
    double *tv;
} PromStream;

static bool stream_ready(void *ctx, const JsonSplit *s)
{
    PromStream *ps = ctx;
    const char *st = json_split_watched(s, 0), *rt = json_split_watched(s, 1);
    if (ps->http_code && (ps->http_code < 200 || ps->http_code > 299)) return false;
    if (!st || strcmp(st, "success") != 0 || !rt) return false;
    if (strcmp(rt, "vector") == 0) ps->vec = true;
    else if (strcmp(rt, "matrix") == 0) ps->vec = false;
    else return false;
    return true;
}

/* one element of data.result */
static int stream_series(PromStream *ps, const cJSON *s)
{
    const cJSON *metric = cJSON_GetObjectItemCaseSensitive(s, "metric");
    const cJSON *pts = cJSON_GetObjectItemCaseSensitive(s, ps->vec ? "value" : "values");
    if (!pts || (!ps->vec && !cJSON_IsArray(pts))) return 0;
    return emit_series(metric, pts, ps->vec, ps->fn, ps->ctx, &ps->lab, &ps->caplab, &ps->tv, &ps->captv) ? 1 : 0;
}

static int stream_elem(void *ctx, const cJSON *s) { return stream_series(ctx, s); }

static PromStream *prom_stream_new(PromSeriesFn fn, void *ctx, long http_code)
{
    static const char *const path[] = { "data", "result", NULL };
    static const char *const watch[] = { "status", "data.resultType", NULL };
    PromStream *ps = xcalloc(1, sizeof *ps);
    ps->fn = fn;
    ps->ctx = ctx;
    ps->http_code = http_code;
    ps->split = json_split_new(path, watch, stream_ready, stream_elem, ps);
    return ps;
}

static void prom_stream_feed(PromStream *ps, const char *data, size_t len)
{
    json_split_feed(ps->split, data, len);
}

/* apiclient_get_stream's sink */
static int stream_sink(void *ctx, const char *data, size_t len, long code)
{
    PromStream *ps = ctx;
    ps->http_code = code;
    prom_stream_feed(ps, data, len);
    return 0;
}

static void prom_stream_discard(PromStream *ps)
{
    json_split_free(ps->split);
    free(ps->lab);
    free(ps->tv);
    free(ps);
}

/* the checks and messages of a whole answer; frees ps */
static int prom_stream_finish(PromStream *ps, long http_code, Strvec *warnings, Error *err)
{
    size_t len, hlen;
    char *body = json_split_rest(ps->split, &len);
    const char *head = json_split_head(ps->split, &hlen);
    JsonArena *a = json_arena_new();
    const cJSON *root = json_split_bad(ps->split) || !len ? NULL : jsonscan_parse_inplace(body, len, a);
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(root, "status");
    int rc = 0;
    if (!root || !cJSON_IsObject(root) || !cJSON_IsString(status)) {
        /* not the Prometheus API: a proxy's or load balancer's page, or a truncated body */
        size_t n = 0;
        while (n < hlen && n < 160 && head[n] != '\n' && head[n] != '\r' && (unsigned char)head[n] >= 0x20)
            n++;
        if (http_code && (http_code < 200 || http_code > 299))
            error_set(err, "HTTP %ld%s%.*s", http_code, n ? ": " : "", (int)n, head);
        else
            error_set(err, "the answer is not a Prometheus API response%s%.*s", n ? ": " : "", (int)n, head);
        err->code = (int)http_code;
        rc = -1;
        goto out;
    }
    push_messages(warnings, cJSON_GetObjectItemCaseSensitive(root, "warnings"), "warning");
    if (strcmp(status->valuestring, "success") != 0) {
        const cJSON *et = cJSON_GetObjectItemCaseSensitive(root, "errorType");
        const cJSON *msg = cJSON_GetObjectItemCaseSensitive(root, "error");
        error_set(err, "%s%s%.600s", cJSON_IsString(et) ? et->valuestring : "error",
                  cJSON_IsString(msg) ? ": " : "", cJSON_IsString(msg) ? msg->valuestring : "");
        err->code = (int)http_code;
        rc = -1;
        goto out;
    }
    if (http_code && (http_code < 200 || http_code > 299)) {
        error_set(err, "HTTP %ld", http_code);
        err->code = (int)http_code;
        rc = -1;
        goto out;
    }
    const cJSON *data = cJSON_GetObjectItemCaseSensitive(root, "data");
    push_messages(warnings, cJSON_GetObjectItemCaseSensitive(data, "warnings"), "warning");
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(data, "resultType");
    const cJSON *result = cJSON_GetObjectItemCaseSensitive(data, "result");
    if (!cJSON_IsString(type) || !result) {
        error_set(err, "malformed response: no data.resultType / data.result");
        rc = -1;
        goto out;
    }
    const char *rt = type->valuestring;
    if (strcmp(rt, "vector") == 0 || strcmp(rt, "matrix") == 0) {
        /* the series not handed out while the answer arrived (all of them, in another order) */
        ps->vec = rt[0] == 'v';
        const cJSON *s;
        if (!cJSON_IsArray(result)) {
            error_set(err, "malformed response: data.result is not a list");
            rc = -1;
        } else {
            cJSON_ArrayForEach(s, result)
                if (stream_series(ps, s)) break;
        }
    } else if (strcmp(rt, "scalar") == 0) {
        emit_series(NULL, result, true, ps->fn, ps->ctx, &ps->lab, &ps->caplab, &ps->tv, &ps->captv);
    } else if (strcmp(rt, "string") != 0) {
        error_set(err, "unknown resultType \"%.40s\"", rt);
        rc = -1;
    }
out:
    json_arena_free(a);
    prom_stream_discard(ps);
    return rc;
}

int prometheus_parse_response(const char *body, size_t len, long http_code, PromSeriesFn fn,
                        void *ctx, Strvec *warnings, Error *err)
{
    PromStream *ps = prom_stream_new(fn, ctx, http_code);
    if (body && len) prom_stream_feed(ps, body, len);
    return prom_stream_finish(ps, http_code, warnings, err);
}

/* ---------------------------------------------------------------------------------------- */
/* HTTP                                                                                      */

/* the transfer of the direct requests, made on first use; NULL when libcurl cannot */
static HttpXfer *prom_xfer(PromClient *c)
{
    if (!c->x_ready) {
        if (http_xfer_init(&c->x, PROM_MAX_BODY, c->verbose)) { http_xfer_release(&c->x); return NULL; }
        c->loop = http_loop_new();
        if (!c->loop) { http_xfer_release(&c->x); return NULL; }
        c->x_ready = true;
    }
    return &c->x;
}

static void form_add(Strbuf *form, const char *key, const char *value)
{
    char *esc = curl_easy_escape(NULL, value, 0);
    strbuf_addf(form, "%s%s=%s", form->len ? "&" : "", key, esc ? esc : "");
    curl_free(esc);
}

static void form_add_num(Strbuf *form, const char *key, double v)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.3f", v);
    /* the form must use '.', whatever LC_NUMERIC says */
    for (char *p = buf; *p; p++) if (*p == ',') *p = '.';
    form_add(form, key, buf);
}

/* one direct request: a POST of the form, through the transport's request loop */
typedef struct { PromClient *c; const char *url, *shown, *form; } PromAttempt;

static int prom_attempt(void *ctx, HttpXfer **xp, int n, bool refresh, CURLcode *cc, double *t0, Error *err)
{
    PromAttempt *a = ctx;
    PromClient *c = a->c;
    HttpXfer *x = *xp;
    (void)n; (void)refresh; (void)err;
    HttpSetup hs = {
        .user_agent = "kubectl-gpu/" KGPU_VERSION, .compress = true, .timeout = c->timeout,
        .connect_timeout = c->timeout < 10 ? c->timeout : 10,
    };
    http_xfer_begin(x, &hs);
    struct curl_slist *hdrs = NULL;
    char *auth = NULL;
    hdrs = curl_slist_append(hdrs, "Accept: application/json");
    hdrs = curl_slist_append(hdrs, "Content-Type: application/x-www-form-urlencoded");
    auth_apply_simple(x->h, &hdrs, c->token, c->basic_auth, &auth);
    curl_easy_setopt(x->h, CURLOPT_URL, a->url);
    curl_easy_setopt(x->h, CURLOPT_POST, 1L);
    curl_easy_setopt(x->h, CURLOPT_POSTFIELDS, a->form);
    curl_easy_setopt(x->h, CURLOPT_POSTFIELDSIZE, (long)strlen(a->form));
    curl_easy_setopt(x->h, CURLOPT_HTTPHEADER, hdrs);
    if (log_enabled(LOG_HEADERS)) http_log_request("POST", a->shown, hs.user_agent, hdrs);
    *t0 = http_now();
    *cc = http_loop_perform(c->loop, x);
    /* forget the credentials on the handle before it is reused */
    auth_clear_simple(x->h);
    http_headers_free(hdrs);
    http_secret_free(auth);
    return 0;
}

/* Prometheus answered directly: the transport's retry rule (http.h), with one retry of a 5xx
 * or a cut connection (a query that failed on the server twice will fail again; 429 keeps
 * the rule's count, honouring Retry-After).  *code = the last answer's status; its body went
 * to ps (a 2xx as it arrived, any other afterwards, for the message). */
enum { PROM_MAX_RETRIES = 1 };

static int direct_request(PromClient *c, const char *endpoint, const char *form, PromStream *ps,
                          long *code, Error *err)
{
    HttpXfer *x = prom_xfer(c);
    if (!x) { error_set(err, "cannot initialise libcurl"); return -1; }
    char *url = xasprintf("%s%s", c->url, endpoint);
    char *shown = xasprintf("%s%s", c->shown, endpoint);
    PromAttempt a = { c, url, shown, form };
    HttpRequest rq = { .method = "POST", .shown = shown, .verbose = c->verbose,
                       .max_retries = PROM_MAX_RETRIES, .timeout = c->timeout, .ctx = &a,
                       .attempt = prom_attempt };
    HttpResult res;
    x->sink = stream_sink;
    x->sink_ctx = ps;
    int rc = http_request(&rq, &x, &res, err);
    x->sink = NULL;
    x->sink_ctx = NULL;
    free(url);
    free(shown);
    *code = res.status;
    if (rc == 1 && x->too_big) {
        error_set(err, "answer larger than %zu MiB", PROM_MAX_BODY >> 20);
        return -1;
    }
    if (rc == 1) {
        error_set(err, "%s", curl_easy_strerror(res.cc));
        return -1;
    }
    if (rc != 0) return -1;
    if (!x->sunk) {
        /* not a 2xx: its body (an error document or a proxy's page) is read for the message */
        ps->http_code = res.status;
        prom_stream_feed(ps, x->body.buf ? x->body.buf : "", x->body.len);
    }
    return 0;
}

static int run_query(PromClient *c, const char *endpoint, const Strbuf *form, PromSeriesFn fn,
                     void *ctx, Strvec *warnings, Error *err)
{
    long code = 200;
    int rc;
    error_clear(err);
    log_verbose(1, "prometheus: %s %s%s", c->api ? "GET" : "POST", c->shown, endpoint);
    /* the answer is parsed while it arrives (prom_stream_*) */
    PromStream *ps = prom_stream_new(fn, ctx, 0);
    if (c->api) {
        char *path = xasprintf("%s%s", c->proxy_path, endpoint);
        /* a 5xx through the service proxy is the proxy's verdict on the backend ("no
         * endpoints available", "error trying to reach service"): retrying it five times
         * with backoff would stall the command for seconds per candidate, so no retries
         * (429 from the API server itself is still honoured) */
        ApiRequestOptions ro = { .max_retries = 0, .timeout = c->timeout };
        /* the API client says what went wrong (403 services/proxy, 503 no endpoints, ...) */
        rc = apiclient_get_stream(c->api, path, form->buf ? form->buf : "", &ro, stream_sink, ps, err);
        free(path);
    } else {
        /* refused, timed out, TLS: the transport says why */
        rc = direct_request(c, endpoint, form->buf ? form->buf : "", ps, &code, err);
    }
    if (rc != 0) {
        prom_stream_discard(ps);
        return -1;
    }
    Error perr = { .set = false };
    rc = prom_stream_finish(ps, code, warnings, &perr);
    if (rc != 0) *err = perr;
    if (rc != 0 && !c->api && (err->code == 401 || err->code == 403))
        error_prefix(err, "%s (check --prometheus-token / --prometheus-basic-auth): ",
                     err->code == 401 ? "unauthorized" : "forbidden");
    return rc;
}

int prometheus_query(PromClient *c, const char *promql, double at, PromSeriesFn fn, void *ctx,
               Strvec *warnings, Error *err)
{
    Strbuf form = STRBUF_INIT;
    form_add(&form, "query", promql);
    if (at > 0) form_add_num(&form, "time", at);
    int rc = run_query(c, "/api/v1/query", &form, fn, ctx, warnings, err);
    strbuf_clear(&form);
    return rc;
}

int prometheus_query_range(PromClient *c, const char *promql, double start, double end, double step,
                     PromSeriesFn fn, void *ctx, Strvec *warnings, Error *err)
{
    if (!(end >= start) || !(step > 0) || (end - start) / step > 11000) {
        /* Prometheus refuses more than 11000 points per series */
        error_set(err, "bad range: start %.0f end %.0f step %g", start, end, step);
        return -1;
    }
    Strbuf form = STRBUF_INIT;
    form_add(&form, "query", promql);
    form_add_num(&form, "start", start);
    form_add_num(&form, "end", end);
    form_add_num(&form, "step", step);
    int rc = run_query(c, "/api/v1/query_range", &form, fn, ctx, warnings, err);
    strbuf_clear(&form);
    return rc;
}

/* ---------------------------------------------------------------------------------------- */
/* DCGM usage                                                                                */

/* Unit tests: the API client against a scripted HTTP server running in a thread of this test
 * (plain http on 127.0.0.1): pagination and keep-alive, headers and query, 410/429/5xx,
 * status errors with their messages, broken and slow answers, invalid JSON, timeouts.
 * TLS and credentials are covered by the live cases tests/cases/live/auth-*.case (fake API server). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include "sources/apiclient.h"
#include "util/error.h"
#include "sources/kubeconfig.h"
#include "sources/prometheus.h"
#include "util/util.h"

/* ---- the scripted server ---- */

typedef enum { R_NORMAL, R_CUT, R_SLOW_BODY, R_CLOSE } ReplyMode;
typedef struct {
    int status;
    const char *headers;         /* extra header lines, each ending in \r\n */
    const char *body;
    ReplyMode mode;
    double delay;                /* R_SLOW_BODY: seconds between headers and body */
    bool repeat;                 /* answer every further request with this reply */
} Reply;

static struct {
    int lfd, port;
    pthread_t thread;
    pthread_mutex_t lock;
    Reply replies[64];
    size_t body_lens[64];        /* bytes of reply i's body (binary: gzip); 0 = strlen (srv_body_len) */
    size_t nreplies, next;
    Strvec requests;             /* request line + headers of each request */
    int connections;
    int accepted, served;        /* since the start (never reset): served = accepted when the
                                  * thread is back in accept() */
    volatile bool stop;
} srv;

static void srv_script(const Reply *r, size_t n)
{
    pthread_mutex_lock(&srv.lock);
    memcpy(srv.replies, r, n * sizeof *r);
    srv.nreplies = n;
    srv.next = 0;
    memset(srv.body_lens, 0, sizeof srv.body_lens);
    strvec_clear(&srv.requests);
    srv.connections = 0;
    pthread_mutex_unlock(&srv.lock);
}

static const char *reason(int status)
{
    switch (status) {
    case 200: return "OK"; case 401: return "Unauthorized"; case 403: return "Forbidden";
    case 404: return "Not Found"; case 410: return "Gone"; case 429: return "Too Many Requests";
    case 500: return "Internal Server Error"; case 503: return "Service Unavailable";
    default: return "Status";
    }
}

static void send_all(int fd, const char *s, size_t n)
{
    while (n) {
        ssize_t w = send(fd, s, n, MSG_NOSIGNAL);
        if (w <= 0) return;
        s += w;
        n -= (size_t)w;
    }
}

static void serve_connection(int fd)
{
    Strbuf in = STRBUF_INIT;
    for (;;) {
        char *end;
        while (!(end = strstr(strbuf_str(&in), "\r\n\r\n"))) {
            char buf[4096];
            ssize_t n = recv(fd, buf, sizeof buf, 0);
            if (n <= 0 || srv.stop) { strbuf_clear(&in); return; }
            strbuf_add(&in, buf, (size_t)n);
        }
        size_t reqlen = (size_t)(end - in.buf) + 4;
        Reply r = { 500, NULL, "{}", R_NORMAL, 0, false };
        size_t body_len = 0;
        pthread_mutex_lock(&srv.lock);
        char *req = xstrndup(in.buf, reqlen);
        strvec_push(&srv.requests, req);
        free(req);
        if (srv.next < srv.nreplies) {
            r = srv.replies[srv.next];
            body_len = srv.body_lens[srv.next];
            if (!r.repeat) srv.next++;
        }
        pthread_mutex_unlock(&srv.lock);
        char *rest = xstrdup(in.buf + reqlen);
        strbuf_reset(&in);
        strbuf_adds(&in, rest);
        free(rest);
        if (r.mode == R_CLOSE) break;
        const char *body = r.body ? r.body : "";
        size_t blen = body_len ? body_len : strlen(body);
        char *head = xasprintf("HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n%s\r\n",
                               r.status, reason(r.status), r.mode == R_CUT ? blen + 1000 : blen,
                               r.headers ? r.headers : "");
        send_all(fd, head, strlen(head));
        free(head);
        if (r.mode == R_SLOW_BODY) {
            struct timespec ts = { (time_t)r.delay, (long)((r.delay - (time_t)r.delay) * 1e9) };
            nanosleep(&ts, NULL);
        }
        send_all(fd, body, blen);
        if (r.mode == R_CUT || r.mode == R_SLOW_BODY) break;
    }
    strbuf_clear(&in);
}

static void *server_main(void *arg)
{
    (void)arg;
    while (!srv.stop) {
        int fd = accept(srv.lfd, NULL, NULL);
        if (fd < 0) continue;
        pthread_mutex_lock(&srv.lock);
        srv.connections++;
        srv.accepted++;
        pthread_mutex_unlock(&srv.lock);
        serve_connection(fd);
        close(fd);
        pthread_mutex_lock(&srv.lock);
        srv.served++;
        pthread_mutex_unlock(&srv.lock);
    }
    return NULL;
}

/* waits (at most `bound` seconds) until every connection accepted so far has been served: the
 * thread is done with a slow reply and back in accept(); false when the bound passed */
static bool srv_wait_idle(double bound)
{
    for (int i = 0; i < (int)(bound * 100); i++) {
        pthread_mutex_lock(&srv.lock);
        bool idle = srv.served == srv.accepted;
        pthread_mutex_unlock(&srv.lock);
        if (idle) return true;
        struct timespec ts = { 0, 10 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    return false;
}

static int setup(void **state)
{
    (void)state;
    signal(SIGPIPE, SIG_IGN);
    pthread_mutex_init(&srv.lock, NULL);
    srv.lfd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = 0 };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(srv.lfd, (struct sockaddr *)&a, sizeof a) || listen(srv.lfd, 8)) return -1;
    socklen_t len = sizeof a;
    getsockname(srv.lfd, (struct sockaddr *)&a, &len);
    srv.port = ntohs(a.sin_port);
    return pthread_create(&srv.thread, NULL, server_main, NULL);
}

static int teardown(void **state)
{
    (void)state;
    srv.stop = true;
    shutdown(srv.lfd, SHUT_RDWR);
    /* wake accept() */
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)srv.port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connect(fd, (struct sockaddr *)&a, sizeof a);
    close(fd);
    pthread_join(srv.thread, NULL);
    close(srv.lfd);
    strvec_clear(&srv.requests);
    return 0;
}

/* ---- helpers ---- */

static ApiClient *client(double timeout, int page_size, const char *prefix)
{
    RestConfig rc;
    memset(&rc, 0, sizeof rc);
    rc.server = xasprintf("http://127.0.0.1:%d%s", srv.port, prefix ? prefix : "");
    rc.context_name = xstrdup("test-ctx");
    rc.impersonate_user = xstrdup("jane");
    strvec_push(&rc.impersonate_groups, "gpu-users");
    ApiClientOptions opt = { timeout, 0, page_size };
    Error err = { 0 };
    ApiClient *c = apiclient_new(&rc, &opt, &err);
    restconfig_clear(&rc);
    assert_non_null(c);
    return c;
}

static const char *request_at(size_t i)
{
    pthread_mutex_lock(&srv.lock);
    const char *r = i < srv.requests.n ? srv.requests.v[i] : "";
    pthread_mutex_unlock(&srv.lock);
    return r;
}

static void assert_contains(const char *hay, const char *needle)
{
    if (!strstr(hay, needle)) {
        fprintf(stderr, "in:\n  %s\nmissing:\n  %s\n", hay, needle);
        fail();
    }
}

typedef struct { Strvec names; int stop_at; int resets; } Collected;

static int collect(void *ctx, const cJSON *item, Error *err)
{
    Collected *c = ctx;
    const cJSON *n = cJSON_GetObjectItem(cJSON_GetObjectItem(item, "metadata"), "name");
    strvec_push(&c->names, cJSON_IsString(n) ? n->valuestring : "?");
    if (c->stop_at && (int)c->names.n == c->stop_at) { error_set(err, "stopped by the callback"); return -1; }
    return 0;
}

static int reset_collected(void *ctx, Error *err)
{
    (void)err;
    Collected *c = ctx;
    strvec_clear(&c->names);
    c->resets++;
    return 0;
}

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

#define PAGE(names, cont) "{\"kind\":\"PodList\",\"metadata\":{\"continue\":\"" cont "\"},\"items\":[" names "]}"
#define ITEM(n) "{\"metadata\":{\"name\":\"" n "\"}}"

/* ---- tests ---- */

static void test_pagination_and_headers(void **state)
{
    (void)state;
    Reply r[] = {
        { 200, NULL, PAGE(ITEM("a") "," ITEM("b"), "tok 1/+"), R_NORMAL, 0, false },
        { 200, NULL, PAGE(ITEM("c") "," ITEM("d"), "tok2"), R_NORMAL, 0, false },
        { 200, NULL, PAGE(ITEM("e"), ""), R_NORMAL, 0, false },
    };
    srv_script(r, 3);
    ApiClient *c = client(30, 2, "/prefix/");
    Collected col = { STRVEC_INIT, 0, 0 };
    Error err = { 0 };
    assert_int_equal(apiclient_list(c, "/api/v1/pods", "fieldSelector=status.phase%21%3DFailed", collect, &col, &err), 0);
    assert_int_equal(col.names.n, 5);
    assert_string_equal(col.names.v[0], "a");
    assert_string_equal(col.names.v[4], "e");
    assert_int_equal(apiclient_request_count(c), 3);
    assert_int_equal(srv.connections, 1);                  /* keep-alive: one connection */
    assert_contains(request_at(0), "GET /prefix/api/v1/pods?fieldSelector=status.phase%21%3DFailed&limit=2&timeout=30s HTTP/1.1\r\n");
    assert_contains(request_at(1), "GET /prefix/api/v1/pods?fieldSelector=status.phase%21%3DFailed&limit=2&continue=tok%201%2F%2B&timeout=30s HTTP/1.1\r\n");
    assert_contains(request_at(2), "&continue=tok2&");
    assert_contains(request_at(0), "User-Agent: kubectl-gpu/v" KGPU_VERSION " (linux/amd64) kubernetes/unknown\r\n");
    assert_contains(request_at(0), "Accept: application/json, */*\r\n");
    assert_contains(request_at(0), "Accept-Encoding: ");
    assert_contains(request_at(0), "gzip");
    assert_contains(request_at(0), "Impersonate-User: jane\r\n");
    assert_contains(request_at(0), "Impersonate-Group: gpu-users\r\n");
    /* no credentials over http */
    assert_null(strstr(request_at(0), "Authorization"));
    strvec_clear(&col.names);
    apiclient_free(c);

    /* disable-compression: no Accept-Encoding; fractional timeouts in ms */
    Reply one = { 200, NULL, PAGE("", ""), R_NORMAL, 0, false };
    srv_script(&one, 1);
    RestConfig rc;
    memset(&rc, 0, sizeof rc);
    rc.server = xasprintf("http://127.0.0.1:%d", srv.port);
    rc.disable_compression = true;
    ApiClientOptions opt = { 1.5, 0, 0 };
    c = apiclient_new(&rc, &opt, &err);
    restconfig_clear(&rc);
    assert_int_equal(apiclient_list(c, "/api/v1/nodes", NULL, collect, &col, &err), 0);
    assert_null(strstr(request_at(0), "Accept-Encoding"));
    assert_contains(request_at(0), "GET /api/v1/nodes?limit=500&timeout=1500ms HTTP/1.1");
    apiclient_free(c);
}

/* text as one gzip member (zlib's gzip writer, RFC 1952), malloc'd */
static unsigned char *gzip_text(const char *text, size_t *len)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    assert_int_equal(deflateInit2(&zs, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    size_t n = strlen(text), cap = deflateBound(&zs, (uLong)n) + 64;
    unsigned char *out = xmalloc(cap);
    zs.next_in = (Bytef *)text;
    zs.avail_in = (uInt)n;
    zs.next_out = out;
    zs.avail_out = (uInt)cap;
    assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
    *len = zs.total_out;
    deflateEnd(&zs);
    return out;
}

/* gzip answers (issue 35: decoded by http_inflate, not libcurl): pages decode to their items;
 * the request asks for gzip; a damaged or cut gzip body is a broken answer, never items */
static void test_gzip_answers(void **state)
{
    (void)state;
    size_t n1, n2;
    unsigned char *g1 = gzip_text(PAGE(ITEM("a") "," ITEM("b"), "t1"), &n1);
    unsigned char *g2 = gzip_text(PAGE(ITEM("c"), ""), &n2);
    const char *gz_hdr = "Content-Encoding: gzip\r\n";
    Reply r[] = {
        { 200, gz_hdr, (const char *)g1, R_NORMAL, 0, false },
        { 200, "content-encoding:  GZIP \r\n", (const char *)g2, R_NORMAL, 0, false },
    };
    srv_script(r, 2);
    srv.body_lens[0] = n1;
    srv.body_lens[1] = n2;
    ApiClient *c = client(0, 2, NULL);
    Collected col = { STRVEC_INIT, 0, 0 };
    Error err = { 0 };
    assert_int_equal(apiclient_list(c, "/api/v1/pods", NULL, collect, &col, &err), 0);
    assert_int_equal(col.names.n, 3);
    assert_string_equal(col.names.v[0], "a");
    assert_string_equal(col.names.v[2], "c");
    assert_contains(request_at(0), "Accept-Encoding: gzip\r\n");
    strvec_clear(&col.names);

    /* the client idled (top keeps it for the metrics: its inflaters, buffer and arena freed):
     * the same answers again decode to the same items */
    apiclient_idle(c);
    srv_script(r, 2);
    srv.body_lens[0] = n1;
    srv.body_lens[1] = n2;
    assert_int_equal(apiclient_list(c, "/api/v1/pods", NULL, collect, &col, &err), 0);
    assert_int_equal(col.names.n, 3);
    assert_string_equal(col.names.v[1], "b");
    assert_string_equal(col.names.v[2], "c");
    strvec_clear(&col.names);

    /* the CRC-32 in the trailer damaged (a copy: the server thread may still read g1): every
     * byte decodes, the check fails */
    unsigned char *damaged = xmalloc(n1);
    memcpy(damaged, g1, n1);
    damaged[n1 - 8] ^= 0x33;
    Reply bad = { 200, gz_hdr, (const char *)damaged, R_NORMAL, 0, false };
    srv_script(&bad, 1);
    srv.body_lens[0] = n1;
    assert_int_equal(apiclient_list(c, "/api/v1/pods", NULL, collect, &col, &err), -1);
    assert_contains(err.msg, "broke while reading GET /api/v1/pods");
    assert_contains(err.msg, "checksum");
    error_clear(&err);

    /* the gzip member cut before its trailer, the HTTP answer complete (Content-Length) */
    Reply cut = { 200, gz_hdr, (const char *)g1, R_NORMAL, 0, false };
    srv_script(&cut, 1);
    srv.body_lens[0] = n1 - 8;
    assert_int_equal(apiclient_list(c, "/api/v1/pods", NULL, collect, &col, &err), -1);
    assert_contains(err.msg, "the gzip data stops before its end");
    error_clear(&err);

    /* announced as gzip, sent as plain JSON */
    Reply plain = { 200, gz_hdr, PAGE(ITEM("x"), ""), R_NORMAL, 0, false };
    srv_script(&plain, 1);
    assert_int_equal(apiclient_list(c, "/api/v1/pods", NULL, collect, &col, &err), -1);
    assert_contains(err.msg, "not gzip data");
    error_clear(&err);
    assert_int_equal(col.names.n, 0);
    apiclient_free(c);
    free(g1);
    free(g2);
    free(damaged);
}

/* a list stopped by its callback while the next page, prefetched on its own thread, is still
 * coming (its body 3 s late): the prefetch is abandoned at once, not waited for */
static void test_prefetch_abandoned(void **state)
{
    (void)state;
    Reply r[] = {
        { 200, NULL, PAGE(ITEM("a") "," ITEM("b"), "t1"), R_NORMAL, 0, false },
        { 200, NULL, PAGE(ITEM("c"), ""), R_SLOW_BODY, 3, false },
    };
    srv_script(r, 2);
    ApiClient *c = client(0, 2, NULL);
    Collected col = { STRVEC_INIT, 1, 0 };               /* stop at the first item */
    Error err = { 0 };
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(apiclient_list(c, "/api/v1/pods", NULL, collect, &col, &err), -1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double took = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    assert_string_equal(err.msg, "stopped by the callback");
    assert_int_equal(apiclient_request_count(c), 2);     /* page 2 was asked for ... */
    if (took >= 1.5) fail_msg("the list took %.2f s to give up its prefetch", took);   /* ... not awaited */
    strvec_clear(&col.names);
    apiclient_free(c);
    /* the server answers one connection at a time: the next test starts once it is done with
     * the slow answer (one more list, answered after it) */
    Reply one = { 200, NULL, PAGE("", ""), R_NORMAL, 0, false };
    srv_script(&one, 1);
    c = client(0, 2, NULL);
    assert_int_equal(apiclient_list(c, "/api/v1/pods", NULL, collect, &col, &err), 0);
    apiclient_free(c);
}

static void test_expired_continue(void **state)
{
    (void)state;
    const char *expired = "{\"kind\":\"Status\",\"status\":\"Failure\",\"reason\":\"Expired\",\"code\":410,"
                          "\"message\":\"The provided continue parameter is too old\"}";
    Reply r[] = {
        { 200, NULL, PAGE(ITEM("a"), "t1"), R_NORMAL, 0, false },
        { 410, NULL, expired, R_NORMAL, 0, false },
    };
    /* without a reset function: an error the caller can recognise */
    srv_script(r, 2);
    ApiClient *c = client(0, 1, NULL);
    Collected col = { STRVEC_INIT, 0, 0 };
    Error err = { 0 };
    assert_int_equal(apiclient_list(c, "/api/v1/pods", NULL, collect, &col, &err), -1);
    assert_int_equal(err.code, 410);
    assert_string_equal(err.msg, "the list GET /api/v1/pods expired while being read (410 Expired at page 2: "
                        "the continue token is too old); try again");
    strvec_clear(&col.names);

    /* with one: reset, then the list from the first page again */
    Reply r2[] = {
        { 200, NULL, PAGE(ITEM("a"), "t1"), R_NORMAL, 0, false },
        { 410, NULL, expired, R_NORMAL, 0, false },
        { 200, NULL, PAGE(ITEM("a2"), "t2"), R_NORMAL, 0, false },
        { 200, NULL, PAGE(ITEM("b2"), ""), R_NORMAL, 0, false },
    };
    srv_script(r2, 4);
    error_clear(&err);
    assert_int_equal(apiclient_list_ex(c, "/api/v1/pods", NULL, collect, reset_collected, &col, &err), 0);
    assert_int_equal(col.resets, 1);
    assert_int_equal(col.names.n, 2);
    assert_string_equal(col.names.v[0], "a2");
    assert_string_equal(col.names.v[1], "b2");
    assert_null(strstr(request_at(2), "continue="));       /* restarted without a token */
    strvec_clear(&col.names);

    /* a second expiry is an error */
    Reply r3[] = {
        { 200, NULL, PAGE(ITEM("a"), "t1"), R_NORMAL, 0, false },
        { 410, NULL, expired, R_NORMAL, 0, false },
        { 200, NULL, PAGE(ITEM("a"), "t1"), R_NORMAL, 0, false },
        { 410, NULL, expired, R_NORMAL, 0, false },
    };
    srv_script(r3, 4);
    col.resets = 0;
    error_clear(&err);
    assert_int_equal(apiclient_list_ex(c, "/api/v1/pods", NULL, collect, reset_collected, &col, &err), -1);
    assert_int_equal(col.resets, 1);
    assert_int_equal(err.code, 410);
    strvec_clear(&col.names);
    apiclient_free(c);
}

static void test_retries(void **state)
{
    (void)state;
    Error err = { 0 };
    Collected col = { STRVEC_INIT, 0, 0 };
    /* 429 with Retry-After: 1 is waited out, then the answer counts */
    Reply r[] = {
        { 429, "Retry-After: 1\r\n", "Too many requests, please try again later.", R_NORMAL, 0, false },
        { 500, NULL, "{}", R_NORMAL, 0, false },
        { 200, NULL, PAGE(ITEM("a"), ""), R_NORMAL, 0, false },
    };
    srv_script(r, 3);
    ApiClient *c = client(0, 500, NULL);
    double t0 = mono();
    assert_int_equal(apiclient_list(c, "/api/v1/nodes", NULL, collect, &col, &err), 0);
    double took = mono() - t0;
    assert_true(took >= 1.4 && took < 5);               /* 1 s Retry-After + 0.5 s backoff */
    assert_int_equal(col.names.n, 1);
    assert_int_equal(apiclient_request_count(c), 3);
    strvec_clear(&col.names);
    apiclient_free(c);

    /* 503 forever: five retries, then one line saying so */
    Reply forever = { 503, "Retry-After: 0\r\n", "{\"kind\":\"Status\",\"reason\":\"ServiceUnavailable\",\"message\":\"etcd is down\"}",
                      R_NORMAL, 0, true };
    srv_script(&forever, 1);
    c = client(0, 500, NULL);
    error_clear(&err);
    assert_int_equal(apiclient_list(c, "/api/v1/nodes", NULL, collect, &col, &err), -1);
    assert_int_equal(apiclient_request_count(c), 6);
    assert_int_equal(err.code, 503);
    char *want = xasprintf("the API server http://127.0.0.1:%d kept answering GET /api/v1/nodes with 503 "
                           "ServiceUnavailable: etcd is down after 5 retries; try again later", srv.port);
    assert_string_equal(err.msg, want);
    free(want);
    apiclient_free(c);

    /* waits never pass the request timeout: a long Retry-After fails at once */
    Reply longwait = { 503, "Retry-After: 100\r\n", "{}", R_NORMAL, 0, true };
    srv_script(&longwait, 1);
    c = client(3, 500, NULL);
    error_clear(&err);
    t0 = mono();
    assert_int_equal(apiclient_list(c, "/api/v1/nodes", NULL, collect, &col, &err), -1);
    assert_true(mono() - t0 < 2);
    assert_int_equal(apiclient_request_count(c), 1);
    apiclient_free(c);
    strvec_clear(&col.names);
}

static void expect_status(int status, const char *body, const char *path, const char *want)
{
    Reply r = { status, NULL, body, R_NORMAL, 0, false };
    srv_script(&r, 1);
    ApiClient *c = client(0, 500, NULL);
    Collected col = { STRVEC_INIT, 0, 0 };
    Error err = { 0 };
    assert_int_equal(apiclient_list(c, path, NULL, collect, &col, &err), -1);
    assert_int_equal(err.code, status);
    if (strcmp(err.msg, want) != 0) {
        fprintf(stderr, "got:\n  %s\nwant:\n  %s\n", err.msg, want);
        fail();
    }
    strvec_clear(&col.names);
    apiclient_free(c);
}

static void test_status_errors(void **state)
{
    (void)state;
    expect_status(401, "{\"kind\":\"Status\",\"reason\":\"Unauthorized\",\"message\":\"Unauthorized\",\"code\":401}",
                  "/api/v1/nodes",
                  "the server rejected the credentials of context \"test-ctx\" (Unauthorized) (no credentials are "
                  "sent to an http:// server); check the token/certificate, or log in again");
    expect_status(403, "{\"kind\":\"Status\",\"reason\":\"Forbidden\",\"message\":\"pods is forbidden: User \\\"ci\\\" "
                  "cannot list resource \\\"pods\\\" in API group \\\"\\\" at the cluster scope\",\"code\":403}",
                  "/api/v1/pods",
                  "forbidden: pods is forbidden: User \"ci\" cannot list resource \"pods\" in API group \"\" at the cluster scope");
    expect_status(403, "", "/apis/apps/v1/daemonsets",
                  "forbidden: cannot list daemonsets (GET /apis/apps/v1/daemonsets)");
    expect_status(404, "{\"kind\":\"Status\",\"message\":\"the server could not find the requested resource\",\"reason\":\"NotFound\"}",
                  "/apis/nvidia.com/v1/clusterpolicies",
                  "not found: GET /apis/nvidia.com/v1/clusterpolicies: the server could not find the requested resource");
    expect_status(400, "{\"kind\":\"Status\",\"reason\":\"BadRequest\",\"message\":\"field label not supported: foo\"}",
                  "/api/v1/events",
                  "the API server refused GET /api/v1/events: 400 BadRequest: field label not supported: foo");
    /* a hostile message: control characters flattened, length bounded */
    expect_status(418, "{\"kind\":\"Status\",\"reason\":\"Teapot\",\"message\":\"line1\\nline2\\u001b[31m\"}",
                  "/x", "the API server refused GET /x: 418 Teapot: line1 line2 [31m");
}

static void test_invalid_pages(void **state)
{
    (void)state;
    Collected col = { STRVEC_INIT, 0, 0 };
    Error err = { 0 };
    Reply r[] = {
        { 200, NULL, PAGE(ITEM("a"), "t1"), R_NORMAL, 0, false },
        { 200, NULL, "{\"kind\":\"NodeList\",\"items\":[{\"metadata\":", R_NORMAL, 0, false },
    };
    srv_script(r, 2);
    ApiClient *c = client(0, 1, NULL);
    assert_int_equal(apiclient_list(c, "/api/v1/nodes", NULL, collect, &col, &err), -1);
    assert_string_equal(err.msg, "invalid JSON in the response to GET /api/v1/nodes (page 2)");
    strvec_clear(&col.names);

    Reply html = { 200, NULL, "<html><head><title>502 Bad Gateway</title></head></html>", R_NORMAL, 0, false };
    srv_script(&html, 1);
    error_clear(&err);
    assert_int_equal(apiclient_list(c, "/api/v1/nodes", NULL, collect, &col, &err), -1);
    assert_string_equal(err.msg, "invalid JSON in the response to GET /api/v1/nodes (page 1)");

    Reply notlist = { 200, NULL, "{\"kind\":\"NodeList\",\"items\":{\"a\":1}}", R_NORMAL, 0, false };
    srv_script(&notlist, 1);
    error_clear(&err);
    assert_int_equal(apiclient_list(c, "/api/v1/nodes", NULL, collect, &col, &err), -1);
    assert_string_equal(err.msg, "invalid response to GET /api/v1/nodes (page 1): \"items\" is not a list");

    Reply status_ok = { 200, NULL, "{\"kind\":\"Status\"}", R_NORMAL, 0, false };
    srv_script(&status_ok, 1);
    error_clear(&err);
    assert_int_equal(apiclient_list(c, "/api/v1/nodes", NULL, collect, &col, &err), -1);
    assert_string_equal(err.msg, "invalid response to GET /api/v1/nodes (page 1): not a list");

    Reply badItem = { 200, NULL, "{\"kind\":\"NodeList\",\"items\":[1]}", R_NORMAL, 0, false };
    srv_script(&badItem, 1);
    error_clear(&err);
    assert_int_equal(apiclient_list(c, "/api/v1/nodes", NULL, collect, &col, &err), -1);
    assert_string_equal(err.msg, "invalid response to GET /api/v1/nodes (page 1): item 0 is not an object");

    Reply loop[] = {
        { 200, NULL, PAGE(ITEM("a"), "same"), R_NORMAL, 0, false },
        { 200, NULL, PAGE(ITEM("b"), "same"), R_NORMAL, 0, false },
    };
    srv_script(loop, 2);
    error_clear(&err);
    assert_int_equal(apiclient_list(c, "/api/v1/nodes", NULL, collect, &col, &err), -1);
    assert_string_equal(err.msg, "invalid response to GET /api/v1/nodes (page 2): the server repeated the continue token");

    /* the callback stops the list with its own error */
    Reply two = { 200, NULL, PAGE(ITEM("a") "," ITEM("b") "," ITEM("c"), ""), R_NORMAL, 0, false };
    srv_script(&two, 1);
    strvec_clear(&col.names);
    col.stop_at = 2;
    error_clear(&err);
    assert_int_equal(apiclient_list(c, "/api/v1/nodes", NULL, collect, &col, &err), -1);
    assert_string_equal(err.msg, "stopped by the callback");
    assert_int_equal(col.names.n, 2);
    strvec_clear(&col.names);
    apiclient_free(c);
}

static void test_broken_and_slow(void **state)
{
    (void)state;
    Collected col = { STRVEC_INIT, 0, 0 };
    Error err = { 0 };
    /* a cut connection is retried */
    Reply r[] = {
        { 200, NULL, PAGE(ITEM("a"), ""), R_CUT, 0, false },
        { 200, NULL, PAGE(ITEM("a"), ""), R_NORMAL, 0, false },
    };
    srv_script(r, 2);
    ApiClient *c = client(0, 500, NULL);
    assert_int_equal(apiclient_list(c, "/api/v1/nodes", NULL, collect, &col, &err), 0);
    assert_int_equal(col.names.n, 1);
    assert_int_equal(apiclient_request_count(c), 2);
    strvec_clear(&col.names);
    apiclient_free(c);

    /* cut every time: retried within the request timeout, then one line */
    Reply cut = { 200, NULL, PAGE(ITEM("a"), ""), R_CUT, 0, true };
    srv_script(&cut, 1);
    c = client(2, 500, NULL);
    error_clear(&err);
    assert_int_equal(apiclient_list(c, "/api/v1/nodes", NULL, collect, &col, &err), -1);
    char *want = xasprintf("the connection to the API server http://127.0.0.1:%d broke while reading GET /api/v1/nodes: ", srv.port);
    assert_contains(err.msg, want);
    free(want);
    assert_int_equal(col.names.n, 0);
    apiclient_free(c);

    /* a body slower than --request-timeout */
    Reply slow = { 200, NULL, PAGE(ITEM("a"), ""), R_SLOW_BODY, 3, false };
    srv_script(&slow, 1);
    c = client(1, 500, NULL);
    error_clear(&err);
    double t0 = mono();
    assert_int_equal(apiclient_list(c, "/api/v1/nodes", NULL, collect, &col, &err), -1);
    assert_true(mono() - t0 < 2.5);
    want = xasprintf("GET /api/v1/nodes: no complete answer from the API server http://127.0.0.1:%d within 1s (--request-timeout)", srv.port);
    assert_string_equal(err.msg, want);
    free(want);
    apiclient_free(c);
    /* the server thread finishes its slow reply (3 s) before the next test connects */
    assert_true(srv_wait_idle(10));
}

static void test_unreachable(void **state)
{
    (void)state;
    /* a port nobody listens on: bind one, note it, close it */
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = 0 };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    socklen_t len = sizeof a;
    getsockname(fd, (struct sockaddr *)&a, &len);
    int port = ntohs(a.sin_port);
    close(fd);
    RestConfig rc;
    memset(&rc, 0, sizeof rc);
    rc.server = xasprintf("http://admin:pa55word@127.0.0.1:%d", port);
    ApiClientOptions opt = { 5, 0, 0 };
    Error err = { 0 };
    ApiClient *c = apiclient_new(&rc, &opt, &err);
    restconfig_clear(&rc);
    cJSON *out = NULL;
    assert_int_equal(apiclient_get_json(c, "/version", NULL, &out, &err), -1);
    char *want = xasprintf("cannot reach the API server http://127.0.0.1:%d: ", port);
    assert_contains(err.msg, want);
    assert_null(strstr(err.msg, "pa55word"));
    free(want);
    assert_string_equal(apiclient_server(c), strstr(apiclient_server(c), "http://127.0.0.1:"));
    apiclient_free(c);
}

static void test_get_json_and_raw(void **state)
{
    (void)state;
    Reply r[] = {
        { 200, NULL, "{\"major\":\"1\",\"minor\":\"31\"}", R_NORMAL, 0, false },
        { 200, NULL, "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"} 42\n", R_NORMAL, 0, false },
        { 404, NULL, "{\"kind\":\"Status\",\"message\":\"pods \\\"x\\\" not found\"}", R_NORMAL, 0, false },
    };
    srv_script(r, 3);
    ApiClient *c = client(0, 500, NULL);
    cJSON *out = NULL;
    Error err = { 0 };
    assert_int_equal(apiclient_get_json(c, "/version", NULL, &out, &err), 0);
    assert_string_equal(cJSON_GetObjectItem(out, "minor")->valuestring, "31");
    cJSON_Delete(out);
    Strbuf sb = STRBUF_INIT;
    assert_int_equal(apiclient_get_raw(c, "/api/v1/namespaces/gpu/pods/x:9400/proxy/metrics", NULL, &sb, &err), 0);
    assert_string_equal(strbuf_str(&sb), "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"} 42\n");
    strbuf_clear(&sb);
    assert_int_equal(apiclient_get_raw(c, "/api/v1/namespaces/gpu/pods/x", NULL, &sb, &err), -1);
    assert_string_equal(err.msg, "not found: GET /api/v1/namespaces/gpu/pods/x: pods \"x\" not found");
    assert_int_equal(err.code, 404);
    assert_string_equal(apiclient_context(c), "test-ctx");
    apiclient_free(c);
}

static void test_verbose_log(void **state)
{
    (void)state;
    Reply r = { 200, "Set-Cookie: session=abc123\r\nAudit-Id: 42\r\n", PAGE(ITEM("a"), ""), R_NORMAL, 0, false };
    srv_script(&r, 1);
    RestConfig rc;
    memset(&rc, 0, sizeof rc);
    rc.server = xasprintf("http://127.0.0.1:%d", srv.port);
    ApiClientOptions opt = { 0, 7, 0 };      /* kubectl's -v=7: requests and their headers */
    Error err = { 0 };
    ApiClient *c = apiclient_new(&rc, &opt, &err);
    restconfig_clear(&rc);
    char path[] = "/tmp/kgpu-apiclient-log-XXXXXX";
    int lfd = mkstemp(path);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    dup2(lfd, STDERR_FILENO);
    Collected col = { STRVEC_INIT, 0, 0 };
    int rc_ = apiclient_list(c, "/api/v1/nodes", NULL, collect, &col, &err);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    close(lfd);
    assert_int_equal(rc_, 0);
    char *log = util_read_file(path, NULL, NULL);
    unlink(path);
    char *want = xasprintf("GET http://127.0.0.1:%d/api/v1/nodes?limit=500 200 OK, ", srv.port);
    assert_contains(log, want);
    free(want);
    assert_contains(log, "> User-Agent: kubectl-gpu/v");
    assert_contains(log, "< Audit-Id: 42");
    assert_contains(log, "< Set-Cookie: <redacted>");
    assert_null(strstr(log, "abc123"));
    free(log);
    strvec_clear(&col.names);
    apiclient_free(c);
}

static void test_query_escape(void **state)
{
    (void)state;
    char *e = apiclient_query_escape("nvidia.com/gpu.present=true,pool in (a b)");
    assert_string_equal(e, "nvidia.com%2Fgpu.present%3Dtrue%2Cpool%20in%20%28a%20b%29");
    free(e);
}

/* Prometheus asked directly goes through the same transport as the API client: its requests
 * are performed in one transfer loop, whose connection cache keeps the connection alive (two
 * queries, one connection), and a 503 is retried by the shared rule (once for Prometheus). */
static int count_series(void *ctx, const PromLabel *labels, size_t nlabels, const double *ts,
                        const double *values, size_t n)
{
    (void)labels; (void)nlabels; (void)ts; (void)values; (void)n;
    (*(int *)ctx)++;
    return 0;
}

static void test_prometheus_same_transport(void **state)
{
    (void)state;
#define PROM_ONE "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":" \
    "[{\"metric\":{\"gpu\":\"0\"},\"value\":[1700000000,\"42\"]}]}}"
    Reply r[] = {
        { 200, NULL, PROM_ONE, R_NORMAL, 0, false },
        { 503, "Retry-After: 0\r\n", "{}", R_NORMAL, 0, false },
        { 200, NULL, PROM_ONE, R_NORMAL, 0, false },
    };
    srv_script(r, 3);
    char *url = xasprintf("http://127.0.0.1:%d", srv.port);
    PromConfig pc = { .url = url, .timeout = 10 };
    Error err = { 0 };
    PromClient *c = prom_client_new(&pc, &err);
    assert_non_null(c);
    int n = 0;
    assert_int_equal(prometheus_query(c, "DCGM_FI_DEV_GPU_UTIL", 0, count_series, &n, NULL, &err), 0);
    assert_int_equal(prometheus_query(c, "DCGM_FI_DEV_GPU_UTIL", 0, count_series, &n, NULL, &err), 0);
    assert_int_equal(n, 2);                                /* one series per answered query */
    pthread_mutex_lock(&srv.lock);
    size_t nreq = srv.requests.n;
    int conns = srv.connections;
    pthread_mutex_unlock(&srv.lock);
    assert_int_equal(nreq, 3);                             /* the 503 retried once */
    assert_int_equal(conns, 1);                            /* keep-alive across queries and the retry */
    assert_contains(request_at(0), "POST /api/v1/query HTTP/1.1\r\n");
    assert_contains(request_at(2), "POST /api/v1/query HTTP/1.1\r\n");
    prom_client_free(c);
    free(url);
#undef PROM_ONE
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pagination_and_headers), cmocka_unit_test(test_prometheus_same_transport), cmocka_unit_test(test_expired_continue),
        cmocka_unit_test(test_gzip_answers), cmocka_unit_test(test_prefetch_abandoned),
        cmocka_unit_test(test_retries), cmocka_unit_test(test_status_errors),
        cmocka_unit_test(test_invalid_pages), cmocka_unit_test(test_broken_and_slow),
        cmocka_unit_test(test_unreachable), cmocka_unit_test(test_get_json_and_raw),
        cmocka_unit_test(test_verbose_log), cmocka_unit_test(test_query_escape),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

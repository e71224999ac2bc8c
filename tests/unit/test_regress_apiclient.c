/* Regression tests: the API client's limits for optional probes (apiclient_get_raw_ex).
 * A Prometheus service without endpoints, or a DCGM exporter pod the proxy cannot reach, is
 * answered by the API server with 503 at once, and it stays so: retried five times with
 * backoff it stalled `status` for 15 s and more per probe.  A tiny HTTP server in a thread
 * answers every request with one scripted reply and counts the requests. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "sources/apiclient.h"
#include "sources/prometheus.h"
#include "util/error.h"
#include "sources/kubeconfig.h"
#include "util/util.h"

static struct {
    int lfd, port;
    pthread_mutex_t lock;
    char reply[4096];
    double stall;              /* seconds to wait before answering */
    int requests;
} srv = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void *serve(void *arg)
{
    (void)arg;
    for (;;) {
        int fd = accept(srv.lfd, NULL, NULL);
        if (fd < 0) continue;
        char buf[8192];
        size_t got = 0;
        for (;;) {                      /* requests on this connection (keep-alive) */
            ssize_t r = recv(fd, buf + got, sizeof buf - 1 - got, 0);
            if (r <= 0) break;
            got += (size_t)r;
            buf[got] = '\0';
            char *end = strstr(buf, "\r\n\r\n");
            if (!end) continue;
            pthread_mutex_lock(&srv.lock);
            srv.requests++;
            char reply[4096];
            memcpy(reply, srv.reply, sizeof reply);
            double stall = srv.stall;
            pthread_mutex_unlock(&srv.lock);
            if (stall > 0) {
                struct timespec ts = { (time_t)stall, (long)((stall - (time_t)stall) * 1e9) };
                nanosleep(&ts, NULL);
            }
            send(fd, reply, strlen(reply), MSG_NOSIGNAL);
            size_t used = (size_t)(end + 4 - buf);
            memmove(buf, buf + used, got - used);
            got -= used;
        }
        close(fd);
    }
    return NULL;
}

static int setup(void **state)
{
    (void)state;
    srv.lfd = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(srv.lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    if (bind(srv.lfd, (struct sockaddr *)&a, sizeof a) || listen(srv.lfd, 16)) return -1;
    socklen_t al = sizeof a;
    getsockname(srv.lfd, (struct sockaddr *)&a, &al);
    srv.port = ntohs(a.sin_port);
    pthread_t t;
    if (pthread_create(&t, NULL, serve, NULL)) return -1;
    pthread_detach(t);
    return 0;
}

static void script(int status, const char *reason, const char *extra_headers, const char *body, double stall)
{
    pthread_mutex_lock(&srv.lock);
    snprintf(srv.reply, sizeof srv.reply, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\n%s"
             "Content-Length: %zu\r\n\r\n%s", status, reason, extra_headers, strlen(body), body);
    srv.stall = stall;
    srv.requests = 0;
    pthread_mutex_unlock(&srv.lock);
}

static int requests(void)
{
    pthread_mutex_lock(&srv.lock);
    int n = srv.requests;
    pthread_mutex_unlock(&srv.lock);
    return n;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static ApiClient *client(double request_timeout, char *server, size_t n)
{
    snprintf(server, n, "http://127.0.0.1:%d", srv.port);
    RestConfig rc;
    memset(&rc, 0, sizeof rc);
    rc.server = server;
    rc.context_name = "test";
    ApiClientOptions opt = { request_timeout, 0, 500 };
    Error err = { .set = false };
    ApiClient *c = apiclient_new(&rc, &opt, &err);
    assert_non_null(c);
    return c;
}

#define NO_ENDPOINTS "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":" \
    "\"no endpoints available for service \\\"prometheus-k8s\\\"\",\"reason\":\"ServiceUnavailable\",\"code\":503}"

/* the bug: a proxied 503 was retried 5 times (0.5+1+2+4+8 s); an optional probe asks once */
static void test_probe_not_retried(void **state)
{
    (void)state;
    char server[64], want[512];
    ApiClient *c = client(0, server, sizeof server);
    script(503, "Service Unavailable", "", NO_ENDPOINTS, 0);
    Strbuf body = STRBUF_INIT;
    Error err = { .set = false };
    ApiRequestOptions ro = { .max_retries = 0, .timeout = 10 };
    double t0 = now();
    assert_int_equal(apiclient_get_raw_ex(c, "/api/v1/namespaces/monitoring/services/prometheus-k8s:web/proxy/api/v1/query",
                                          "query=up", &ro, &body, &err), -1);
    assert_true(now() - t0 < 1.0);
    assert_int_equal(requests(), 1);
    assert_int_equal(err.code, 503);
    snprintf(want, sizeof want, "the API server %s answered GET /api/v1/namespaces/monitoring/services/"
             "prometheus-k8s:web/proxy/api/v1/query with 503 ServiceUnavailable: no endpoints available for "
             "service \"prometheus-k8s\"", server);
    assert_string_equal(err.msg, want);
    assert_int_equal(body.len, 0);
    /* one retry when asked for one */
    error_clear(&err);
    ApiRequestOptions one = { .max_retries = 1, .timeout = 0 };
    script(503, "Service Unavailable", "Retry-After: 0\r\n", NO_ENDPOINTS, 0);
    assert_int_equal(apiclient_get_raw_ex(c, "/x", NULL, &one, &body, &err), -1);
    assert_int_equal(requests(), 2);
    assert_non_null(strstr(err.msg, "after 1 retry; try again later"));
    /* the default (and apiclient_get_raw) keeps its five retries */
    error_clear(&err);
    script(503, "Service Unavailable", "Retry-After: 0\r\n", NO_ENDPOINTS, 0);
    assert_int_equal(apiclient_get_raw(c, "/x", NULL, &body, &err), -1);
    assert_int_equal(requests(), 6);
    assert_non_null(strstr(err.msg, "after 5 retries; try again later"));
    /* 429 comes from the API server itself (flow control): still honoured and retried */
    error_clear(&err);
    script(429, "Too Many Requests", "Retry-After: 0\r\n", "Too many requests, please try again later.", 0);
    assert_int_equal(apiclient_get_raw_ex(c, "/x", NULL, &ro, &body, &err), -1);
    assert_int_equal(requests(), 6);
    /* a success is a success */
    error_clear(&err);
    script(200, "OK", "", "{\"status\":\"success\"}", 0);
    assert_int_equal(apiclient_get_raw_ex(c, "/x", NULL, &ro, &body, &err), 0);
    assert_string_equal(strbuf_str(&body), "{\"status\":\"success\"}");
    strbuf_clear(&body);
    apiclient_free(c);
}

/* the per-request bound narrows the client's --request-timeout, and the message says which */
static void test_probe_timeout(void **state)
{
    (void)state;
    char server[64], want[512];
    ApiClient *c = client(30, server, sizeof server);
    script(200, "OK", "", "{}", 5);
    Strbuf body = STRBUF_INIT;
    Error err = { .set = false };
    ApiRequestOptions ro = { .max_retries = 0, .timeout = 1 };
    double t0 = now();
    assert_int_equal(apiclient_get_raw_ex(c, "/slow", NULL, &ro, &body, &err), -1);
    assert_true(now() - t0 < 3.0);
    snprintf(want, sizeof want, "GET /slow: no complete answer from the API server %s within 1s", server);
    assert_string_equal(err.msg, want);
    strbuf_clear(&body);
    apiclient_free(c);
}

/* a Prometheus error behind the service proxy is passed on with its own words */
static void test_prometheus_error_body(void **state)
{
    (void)state;
    char server[64];
    ApiClient *c = client(0, server, sizeof server);
    script(422, "Unprocessable Entity", "",
           "{\"status\":\"error\",\"errorType\":\"execution\",\"error\":\"many-to-many matching not allowed\"}", 0);
    Strbuf body = STRBUF_INIT;
    Error err = { .set = false };
    ApiRequestOptions ro = { .max_retries = 0, .timeout = 0 };
    assert_int_equal(apiclient_get_raw_ex(c, "/p", NULL, &ro, &body, &err), -1);
    assert_string_equal(err.msg, "the API server refused GET /p: 422 execution: many-to-many matching not allowed");
    strbuf_clear(&body);
    apiclient_free(c);
}

static int count_series(void *ctx, const PromLabel *l, size_t nl, const double *ts, const double *v, size_t n)
{
    (void)l; (void)nl; (void)ts; (void)v; (void)n;
    (*(int *)ctx)++;
    return 0;
}

/* One retry rule for both clients (src/sources/http.h): a Prometheus asked directly follows
 * the API client's rule — 429 retried up to 5 times honouring Retry-After, a 5xx (any, not
 * only 502/503/504) retried as often as the request allows (once for Prometheus). */
static void test_prometheus_same_retry_rule(void **state)
{
    (void)state;
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d", srv.port);
    PromConfig cfg = { .url = url, .timeout = 20 };
    Error err = { .set = false };
    PromClient *p = prom_client_new(&cfg, &err);
    assert_non_null(p);
    int series = 0;
    script(429, "Too Many Requests", "Retry-After: 0\r\n", "{\"status\":\"error\",\"errorType\":\"busy\",\"error\":\"slow down\"}", 0);
    double t0 = now();
    assert_int_equal(prometheus_query(p, "up", 0, count_series, &series, NULL, &err), -1);
    assert_int_equal(requests(), 6);                      /* 1 + 5 retries, as the API client */
    assert_true(now() - t0 < 3);                          /* Retry-After: 0 was honoured */
    assert_non_null(strstr(err.msg, "slow down"));
    script(500, "Internal Server Error", "", "{\"status\":\"error\",\"errorType\":\"internal\",\"error\":\"boom\"}", 0);
    err = (Error){ .set = false };
    assert_int_equal(prometheus_query(p, "up", 0, count_series, &series, NULL, &err), -1);
    assert_int_equal(requests(), 2);                      /* one retry of a 5xx */
    assert_string_equal(err.msg, "internal: boom");
    script(200, "OK", "", "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
           "[{\"metric\":{\"gpu\":\"0\"},\"value\":[1700000000,\"42\"]}]}}", 0);
    err = (Error){ .set = false };
    assert_int_equal(prometheus_query(p, "up", 0, count_series, &series, NULL, &err), 0);
    assert_int_equal(requests(), 1);
    assert_int_equal(series, 1);
    prom_client_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_probe_not_retried), cmocka_unit_test(test_probe_timeout),
        cmocka_unit_test(test_prometheus_error_body), cmocka_unit_test(test_prometheus_same_retry_rule),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}

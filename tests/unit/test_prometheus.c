/* Unit tests: Prometheus API responses (src/sources/prometheus.c) and the metrics source
 * order without a network (src/sources/metrics.c).
 *
 * Also a driver for tests/integration/test_metrics_prometheus.sh (not run by the unit phase):
 *   test_prometheus --dump [--prometheus URL] [--token T] [--basic U:P] [--kubeconfig K]
 *                   [--snapshot F] [--window SECONDS] [--percentile P] [--workloads]
 *                   [--no-metrics] [--range QUERY START END STEP] [--query QUERY]
 * prints the UsageData (and workloads) metrics_collect gathers as JSON on stdout, or with
 * --range/--query the series of one query (direct --prometheus only).  $KUBECTL_GPU_NOW fixes
 * the evaluation time. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sources/apiclient.h"
#include "util/error.h"
#include "sources/loader.h"
#include "sources/metrics.h"
#include "sources/prometheus.h"
#include "util/util.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct {
    int series;
    size_t points;
    char first_labels[512];
    double last_value;
    double first_ts;
} Seen;

static int see(void *ctx, const PromLabel *l, size_t n, const double *ts, const double *v, size_t np)
{
    Seen *s = ctx;
    if (s->series == 0) {
        size_t off = 0;
        for (size_t i = 0; i < n && off < sizeof s->first_labels - 1; i++)
            off += (size_t)snprintf(s->first_labels + off, sizeof s->first_labels - off, "%s%s=%s",
                                    i ? "," : "", l[i].name, l[i].value);
        s->first_ts = ts[0];
    }
    s->series++;
    s->points += np;
    s->last_value = v[np - 1];
    return 0;
}

static int parse(const char *body, long code, Seen *s, Strvec *w, Error *err)
{
    memset(s, 0, sizeof *s);
    error_clear(err);
    return prometheus_parse_response(body, strlen(body), code, see, s, w, err);
}

static void test_vector_matrix_scalar(void **state)
{
    (void)state;
    Seen s;
    Strvec w = STRVEC_INIT;
    Error err = { .set = false };
    assert_int_equal(parse("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
                           "{\"metric\":{\"__name__\":\"up\",\"job\":\"a\"},\"value\":[1715700030.5,\"1\"]},"
                           "{\"metric\":{\"job\":\"b\"},\"value\":[1715700030.5,\"NaN\"]},"
                           "{\"metric\":{\"job\":\"c\"},\"value\":[1715700030.5,\"+Inf\"]},"
                           "{\"metric\":{\"job\":\"d\"},\"value\":[1715700030.5,\"2.5e3\"]}]}}",
                           200, &s, &w, &err), 0);
    assert_int_equal(s.series, 4);
    assert_string_equal(s.first_labels, "__name__=up,job=a");
    assert_true(s.first_ts == 1715700030.5);
    assert_true(s.last_value == 2500);
    assert_int_equal(w.n, 0);

    assert_int_equal(parse("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":["
                           "{\"metric\":{\"a\":\"1\"},\"values\":[[1,\"1\"],[2,\"2\"],[3,\"3\"]]},"
                           "{\"metric\":{\"a\":\"2\"},\"values\":[[1,\"4\"],[2,\"x\"],[3,\"6\"]]}]},"
                           "\"warnings\":[\"PromQL info: something\"]}", 200, &s, &w, &err), 0);
    assert_int_equal(s.series, 2);
    assert_int_equal(s.points, 5);            /* the bad point "x" is dropped */
    assert_true(s.last_value == 6);
    assert_int_equal(w.n, 1);
    assert_string_equal(w.v[0], "prometheus warning: PromQL info: something");

    assert_int_equal(parse("{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":[5,\"42\"]}}",
                           200, &s, &w, &err), 0);
    assert_int_equal(s.series, 1);
    assert_true(s.last_value == 42);
    assert_int_equal(parse("{\"status\":\"success\",\"data\":{\"resultType\":\"string\",\"result\":[5,\"x\"]}}",
                           200, &s, &w, &err), 0);
    assert_int_equal(s.series, 0);
    /* empty vector */
    assert_int_equal(parse("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}",
                           200, &s, &w, &err), 0);
    assert_int_equal(s.series, 0);
    strvec_clear(&w);
}

/* values are read as strtod reads them, to the bit: plain decimals of up to 15 digits take a
 * shorter way (prometheus.c parse_plain_decimal), the rest strtod's */
typedef struct { double *v; size_t n; } Values;

static int collect_values(void *ctx, const PromLabel *l, size_t n, const double *ts, const double *v, size_t np)
{
    (void)l; (void)n; (void)ts;
    Values *x = ctx;
    x->v[x->n++] = v[np - 1];
    return 0;
}

static void test_values_like_strtod(void **state)
{
    (void)state;
    enum { N = 20000 };
    static char text[N][32];
    srand(35);
    Strbuf body = STRBUF_INIT;
    strbuf_adds(&body, "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[");
    for (int i = 0; i < N; i++) {
        int nd = 1 + rand() % 18, dot = rand() % (nd + 1);     /* dot == nd: no dot */
        char *w = text[i];
        if (rand() % 4 == 0) *w++ = '-';
        for (int d = 0; d < nd; d++) {
            if (d == dot && d > 0) *w++ = '.';
            *w++ = (char)('0' + (d == 0 && rand() % 3 ? 1 + rand() % 9 : rand() % 10));
        }
        *w = '\0';
        if (i < 6) strcpy(text[i], (const char *[]){ "0", "-0", "0.1", "100", "1e3", "123456789012345.6" }[i]);
        strbuf_addf(&body, "%s{\"metric\":{},\"value\":[1,\"%s\"]}", i ? "," : "", text[i]);
    }
    strbuf_adds(&body, "]}}");
    Values x = { xcalloc(N, sizeof(double)), 0 };
    Error err = { .set = false };
    assert_int_equal(prometheus_parse_response(body.buf, body.len, 200, collect_values, &x, NULL, &err), 0);
    assert_int_equal(x.n, N);
    for (int i = 0; i < N; i++) {
        double want = strtod(text[i], NULL);
        if (memcmp(&want, &x.v[i], sizeof want) != 0) fail_msg("%s: %.17g, strtod %.17g", text[i], x.v[i], want);
    }
    free(x.v);
    strbuf_clear(&body);
}

static void test_errors(void **state)
{
    (void)state;
    Seen s;
    Strvec w = STRVEC_INIT;
    Error err = { .set = false };
    assert_int_equal(parse("{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter "
                           "\\\"query\\\": 1:5: parse error\",\"warnings\":[\"w1\"]}", 400, &s, &w, &err), -1);
    assert_string_equal(err.msg, "bad_data: invalid parameter \"query\": 1:5: parse error");
    assert_int_equal(err.code, 400);
    assert_int_equal(w.n, 1);
    assert_int_equal(parse("{\"status\":\"error\",\"errorType\":\"timeout\",\"error\":\"query timed out\"}",
                           503, &s, &w, &err), -1);
    assert_string_equal(err.msg, "timeout: query timed out");
    assert_int_equal(parse("<html><body>502 Bad Gateway</body></html>", 502, &s, &w, &err), -1);
    assert_string_equal(err.msg, "HTTP 502: <html><body>502 Bad Gateway</body></html>");
    assert_int_equal(parse("Unauthorized\n", 401, &s, &w, &err), -1);
    assert_string_equal(err.msg, "HTTP 401: Unauthorized");
    assert_int_equal(parse("{\"kind\":\"Status\",\"status\":\"Failure\"}", 200, &s, &w, &err), -1);
    assert_int_equal(parse("{\"status\":\"success\"}", 200, &s, &w, &err), -1);
    assert_non_null(strstr(err.msg, "malformed"));
    assert_int_equal(parse("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":{}}}", 200, &s, &w, &err), -1);
    assert_int_equal(parse("{\"status\":\"success\",\"data\":{\"resultType\":\"histogram\",\"result\":[]}}", 200, &s, &w, &err), -1);
    assert_int_equal(parse("{\"status\":\"succ", 200, &s, &w, &err), -1);
    assert_non_null(strstr(err.msg, "not a Prometheus API response"));
    assert_int_equal(parse("", 200, &s, &w, &err), -1);
    /* hostile shapes: wrong types everywhere, never a crash */
    const char *odd[] = {
        "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[1,\"x\",null,{\"metric\":5,\"value\":[1]}]}}",
        "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{\"a\":1},\"values\":[[\"t\",\"1\"],[1,2],[]]}]}}",
        "{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":\"x\"}}",
        "{\"status\":5,\"data\":[]}", "[]", "null",
        "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},\"value\":[1,\"1\"]}]},\"warnings\":[1,2,\"ok\"]}",
    };
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) parse(odd[i], 200, &s, &w, &err);
    strvec_clear(&w);
}

static void test_queries(void **state)
{
    (void)state;
    char *q = prometheus_usage_query(3600);
    assert_non_null(strstr(q, "max_over_time(DCGM_FI_DEV_GPU_UTIL[3600s])"));
    assert_non_null(strstr(q, "max_over_time(DCGM_FI_PROF_GR_ENGINE_ACTIVE[3600s])"));
    /* health over the same window: an XID seen at any time, ECC double-bit errors added in it */
    assert_non_null(strstr(q, "max_over_time(DCGM_FI_DEV_XID_ERRORS[3600s])"));
    assert_non_null(strstr(q, "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL|DCGM_FI_DEV_ECC_DBE_AGG_TOTAL\"}[3600s]"));
    assert_non_null(strstr(q, "DCGM_FI_DEV_GPU_TEMP|DCGM_FI_DEV_POWER_USAGE"));
    assert_non_null(strstr(q, "exported_pod"));
    assert_non_null(strstr(q, "hostname"));
    free(q);
    q = prometheus_usage_query(0.2);       /* never a zero-length range */
    assert_non_null(strstr(q, "[1s]"));
    free(q);
}

static void test_client_config(void **state)
{
    (void)state;
    Error err = { .set = false };
    PromConfig pc = { .url = "ftp://user:secret@x" };
    assert_null(prom_client_new(&pc, &err));
    assert_null(strstr(err.msg, "secret"));
    pc.url = "http://user:secret@prom.example:9090/";
    PromClient *c = prom_client_new(&pc, &err);
    assert_non_null(c);
    assert_null(strstr(prom_client_describe(c), "secret"));
    prom_client_free(c);
    PromConfig none = { 0 };
    assert_null(prom_client_new(&none, &err));
}

static void test_collect_offline(void **state)
{
    (void)state;
    SourceConfig g;
    memset(&g, 0, sizeof g);
    UsageData d;
    WorkloadUsage *w = (WorkloadUsage *)1;
    size_t nw = 99;
    g.no_metrics = true;
    metrics_collect(&d, &g, NULL, NULL, NULL, &w, &nw);
    assert_string_equal(d.source, "none");
    assert_string_equal(d.detail, "disabled by --no-metrics");
    assert_null(w);
    assert_int_equal(nw, 0);
    assert_true(d.window_s == 3600 && d.idle_threshold == 5);
    usage_clear(&d);

    g.no_metrics = false;
    g.snapshot = "x.json";
    metrics_collect(&d, &g, NULL, NULL, NULL, NULL, NULL);
    assert_string_equal(d.source, "none");
    assert_non_null(strstr(d.detail, "--prometheus"));
    usage_clear(&d);

    /* a Prometheus that is not there: none, and the reason names it */
    g.prometheus = "http://127.0.0.1:1";
    MetricsQuery q = { 600, 10, 90, false, false, false };
    metrics_collect(&d, &g, NULL, NULL, &q, NULL, NULL);
    assert_string_equal(d.source, "none");
    assert_non_null(strstr(d.detail, "--prometheus http://127.0.0.1:1: "));
    assert_true(d.window_s == 600 && d.idle_threshold == 10);
    assert_int_equal(d.ngpus, 0);
    usage_clear(&d);

    g.prometheus = "127.0.0.1:9090";
    metrics_collect(&d, &g, NULL, NULL, NULL, NULL, NULL);
    assert_string_equal(d.source, "none");
    assert_non_null(strstr(d.detail, "not an http"));
    usage_clear(&d);
    usage_clear(NULL);
    workload_usage_free(NULL, 0);
}

/* ---------------------------------------------------------------------------------------- */
/* The series (prometheus_series.c) from a stand-in that answers each field's query_range    */

#define SER_END 1000000.0           /* the window's end; 60 points of 60 s before it */
#define SER_START (SER_END - 59 * 60)

static struct { int lfd; pthread_t thread; char *util, *gr, *mem; int answered; char order[8]; } ser;

/* a matrix of series: each "labels|k=v,k=v,..." (point k's value v) */
static char *ser_matrix(const char *const *series, size_t n, const char *field)
{
    Strbuf b = STRBUF_INIT;
    strbuf_adds(&b, "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[");
    for (size_t i = 0; i < n; i++) {
        const char *bar = strchr(series[i], '|');
        strbuf_addf(&b, "%s{\"metric\":{%.*s,\"kgpu_field\":\"%s\"},\"values\":[", i ? "," : "",
                    (int)(bar - series[i]), series[i], field);
        const char *p = bar + 1;
        for (int first = 1; *p; first = 0) {
            int k, used = 0;
            double v;
            if (sscanf(p, "%d=%lf%n", &k, &v, &used) != 2) break;
            strbuf_addf(&b, "%s[%.3f,\"%g\"]", first ? "" : ",", SER_START + k * 60.0, v);
            p += used;
            if (*p == ',') p++;
        }
        strbuf_adds(&b, "]}");
    }
    strbuf_adds(&b, "]}}");
    return strbuf_detach(&b);
}

static void *ser_server(void *arg)
{
    (void)arg;
    for (;;) {
        int fd = accept(ser.lfd, NULL, NULL);
        if (fd < 0) return NULL;
        for (;;) {                                  /* keep-alive: requests until closed */
            Strbuf in = STRBUF_INIT;
            char buf[4096];
            ssize_t r;
            char *hend = NULL;
            while (!(hend = strstr(strbuf_str(&in), "\r\n\r\n")) && (r = recv(fd, buf, sizeof buf, 0)) > 0)
                strbuf_add(&in, buf, (size_t)r);
            if (!hend) { strbuf_clear(&in); break; }
            const char *cl = strstr(in.buf, "Content-Length:");      /* as curl spells it */
            size_t want = (size_t)(hend - in.buf) + 4 + (cl ? strtoul(cl + 15, NULL, 10) : 0);
            while (in.len < want && (r = recv(fd, buf, sizeof buf, 0)) > 0) strbuf_add(&in, buf, (size_t)r);
            static const char *const none = "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}";
            char which = strstr(in.buf, "DCGM_FI_DEV_FB_USED") ? 'm' : strstr(in.buf, "DCGM_FI_DEV_GPU_UTIL") ? 'u'
                       : strstr(in.buf, "DCGM_FI_PROF_GR_ENGINE_ACTIVE") ? 'g' : '?';
            const char *body = which == 'm' ? ser.mem : which == 'u' ? ser.util : which == 'g' && ser.gr ? ser.gr : none;
            size_t no = strlen(ser.order);
            if (no + 1 < sizeof ser.order) { ser.order[no] = which; ser.order[no + 1] = '\0'; }
            char *head = xasprintf("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n\r\n",
                                   strlen(body));
            send(fd, head, strlen(head), MSG_NOSIGNAL);
            send(fd, body, strlen(body), MSG_NOSIGNAL);
            free(head);
            strbuf_clear(&in);
            ser.answered++;
        }
        close(fd);
    }
}

/* the series server on a loopback port, and a client of it (*url: its address, to free) */
static PromClient *ser_start(char **url)
{
    ser.lfd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(ser.lfd >= 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t al = sizeof a;
    assert_int_equal(bind(ser.lfd, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(ser.lfd, 4), 0);
    assert_int_equal(getsockname(ser.lfd, (struct sockaddr *)&a, &al), 0);
    assert_int_equal(pthread_create(&ser.thread, NULL, ser_server, NULL), 0);
    *url = xasprintf("http://127.0.0.1:%d", ntohs(a.sin_port));
    PromConfig pc = { .url = *url, .timeout = 10 };
    Error err = { .set = false };
    PromClient *c = prom_client_new(&pc, &err);
    assert_non_null(c);
    return c;
}

static void ser_stop(PromClient *c, char *url)
{
    prom_client_free(c);
    shutdown(ser.lfd, SHUT_RDWR);
    close(ser.lfd);
    pthread_join(ser.thread, NULL);
    free(url);
}

/* one T4 device on n1 (holders as given) and the record of pod ml/p2 on it, the pool sealed */
static void device_and_pod_records(UsageData *d, int holders)
{
    memset(d, 0, sizeof *d);
    d->idle_threshold = 5;
    d->ngpus = 1;
    d->gpus = xcalloc(1, sizeof *d->gpus);
    d->gpus[0].node = usage_intern(d, "n1");
    d->gpus[0].uuid = usage_intern(d, "GPU-a");
    d->gpus[0].model = usage_intern(d, "T4");
    d->gpus[0].mig_instance = -1;
    d->gpus[0].holders = holders;
    d->npods = 1;
    d->pods = xcalloc(1, sizeof *d->pods);
    d->pods[0] = d->gpus[0];
    d->pods[0].ns = usage_intern(d, "ml");
    d->pods[0].pod = usage_intern(d, "p2");
    usage_intern_done(d);
}

/* One device three pods hold (time-slicing), each pod's series a value per point: equal
 * values are the device's, repeated per pod; differing ones a per-process split, summed (the
 * rule of dcgm.h, prometheus_series.c combine): utilization 10,10,10 -> 10; 10,10,20 -> 40
 * (two equal, then a third: 10 x 2 + 20); 10,20,30 -> 60; 20,10,10 -> 40; 10,20,20 -> 50
 * (the third equal to the second, but the point's values differ already); memory 1000 x 3 ->
 * 1000; 1000,2000,2000 -> 5000.  A second device has memory series only (seen first in
 * memory's query, after utilization's rows are packed): its utilization row has no sample.
 * The held records name the device and pods by the records' strings (no second copy).
 * Fails when the third value is added without the count of equal ones before it, and when
 * the names are interned again. */
static void test_series_holders(void **state)
{
    (void)state;
    static const char *const util[] = {
        "\"Hostname\":\"n1\",\"gpu\":\"0\",\"UUID\":\"GPU-a\",\"modelName\":\"T4\",\"namespace\":\"ml\",\"pod\":\"p1\"|0=10,1=10,2=10,3=20,4=10",
        "\"Hostname\":\"n1\",\"gpu\":\"0\",\"UUID\":\"GPU-a\",\"modelName\":\"T4\",\"namespace\":\"ml\",\"pod\":\"p2\"|0=10,1=10,2=20,3=10,4=20",
        "\"Hostname\":\"n1\",\"gpu\":\"0\",\"UUID\":\"GPU-a\",\"modelName\":\"T4\",\"namespace\":\"ml\",\"pod\":\"p3\"|0=10,1=20,2=30,3=10,4=20",
    };
    static const char *const mem[] = {
        "\"Hostname\":\"n1\",\"gpu\":\"0\",\"UUID\":\"GPU-a\",\"modelName\":\"T4\",\"namespace\":\"ml\",\"pod\":\"p1\"|0=1000,1=1000",
        "\"Hostname\":\"n1\",\"gpu\":\"0\",\"UUID\":\"GPU-a\",\"modelName\":\"T4\",\"namespace\":\"ml\",\"pod\":\"p2\"|0=1000,1=2000",
        "\"Hostname\":\"n1\",\"gpu\":\"0\",\"UUID\":\"GPU-a\",\"modelName\":\"T4\",\"namespace\":\"ml\",\"pod\":\"p3\"|0=1000,1=2000",
        "\"Hostname\":\"n2\",\"gpu\":\"1\",\"UUID\":\"GPU-b\",\"modelName\":\"T4\"|5=500",
    };
    ser.util = ser_matrix(util, 3, "util");
    ser.mem = ser_matrix(mem, 4, "mem");
    char *url;
    PromClient *c = ser_start(&url);
    Error err = { .set = false };
    /* the device's record, as the instant values make it before the series (its pool sealed):
     * the rows and held records take its names, not copies */
    UsageData d;
    device_and_pod_records(&d, 3);
    assert_int_equal(prometheus_collect_series(c, 3600, SER_END, true, &d, &err), 0);
    assert_int_equal(d.gpus[0].series, 1);
    assert_int_equal(d.pods[0].series, 1);
    assert_int_equal(ser.answered, 3);
    assert_int_equal(d.nseries, 2);
    assert_int_equal(d.series_points, 60);
    static const float want_util[5] = { 10, 40, 60, 40, 50 };
    for (size_t k = 0; k < 60; k++) {
        float u = usage_series_get(&d, USAGE_SERIES_UTIL, 0, k), m = usage_series_get(&d, USAGE_SERIES_MEM, 0, k);
        if (k < 5) assert_true(u == want_util[k]);
        else assert_true(isnan(u));
        if (k == 0) assert_true(m == 1000);
        else if (k == 1) assert_true(m == 5000);
        else assert_true(isnan(m));
        assert_true(isnan(usage_series_get(&d, USAGE_SERIES_UTIL, 1, k)));
        float m2 = usage_series_get(&d, USAGE_SERIES_MEM, 1, k);
        assert_true(k == 5 ? m2 == 500 : isnan(m2));
    }
    assert_int_equal(d.nheld, 3);                 /* the three pods on GPU-a */
    for (size_t i = 0; i < 3; i++) {
        assert_true(d.held[i].held_s == 5 * 60);
        assert_ptr_equal(d.held[i].node, d.gpus[0].node);
        assert_ptr_equal(d.held[i].uuid, d.gpus[0].uuid);
        assert_ptr_equal(d.held[i].model, d.gpus[0].model);
        assert_string_equal(d.held[i].ns, "ml");
    }
    /* sorted by pod: p1, p2, p3; p2 has a per-pod record, whose names it takes */
    assert_ptr_equal(d.held[1].ns, d.pods[0].ns);
    assert_ptr_equal(d.held[1].pod, d.pods[0].pod);
    assert_string_equal(d.held[2].pod, "p3");
    /* without the held records (top's, MetricsQuery.no_held): the same rows, point for point,
     * and the records linked to them as before; no held record (fails if a held record is
     * made, or if skipping the pods' bookkeeping changes a row) */
    UsageData e;
    device_and_pod_records(&e, 0);
    assert_int_equal(prometheus_collect_series(c, 3600, SER_END, false, &e, &err), 0);
    assert_int_equal(ser.answered, 6);
    assert_int_equal(e.nheld, 0);
    assert_null(e.held);
    assert_int_equal(e.gpus[0].series, 1);
    assert_int_equal(e.pods[0].series, 1);
    assert_int_equal(e.nseries, d.nseries);
    assert_int_equal(e.series_points, d.series_points);
    for (size_t row = 0; row < d.nseries; row++)
        for (size_t k = 0; k < 60; k++)
            for (int f = 0; f < 2; f++) {
                float x = usage_series_get(&d, (UsageSeriesField)f, row, k);
                float y = usage_series_get(&e, (UsageSeriesField)f, row, k);
                assert_true(isnan(x) ? isnan(y) : x == y);
            }
    usage_clear(&e);
    usage_clear(&d);
    ser_stop(c, url);
    free(ser.util);
    free(ser.mem);
}

/* A device with GR_ENGINE_ACTIVE and GPU_UTIL (a DCGM exporter with profiling metrics serves
 * both on H100/A100): GR_ENGINE_ACTIVE's query goes first, so its row is the device's and no
 * GPU_UTIL row is put for it (the rule of prometheus_series.c: GR x 100 when the device
 * reports it); GPU_UTIL's points still count as the pod holding the device.  By hand: GPU-a
 * utilization 25, 50 (GR 0.25, 0.5; GPU_UTIL's 50, 2, 3 dropped, point 2 without GR: no
 * sample); GPU-b has no GR: 7, 1.  Held: p1 on GPU-a at points 0-2 (GPU_UTIL's three; GR and
 * memory add none) = 180 s, idle by GR's values (25, 50 >= 5) = 0 s; p2 on GPU-b at points
 * 0-1 = 120 s, idle by GPU_UTIL's (7, 1) = 60 s.  Fails when GPU_UTIL is asked first (the
 * order) or when its points stop counting for the held records (p1 120 s). */
static void test_series_gr_first(void **state)
{
    (void)state;
    static const char *const util[] = {
        "\"Hostname\":\"n1\",\"gpu\":\"0\",\"UUID\":\"GPU-a\",\"modelName\":\"H100\",\"namespace\":\"ml\",\"pod\":\"p1\"|0=50,1=2,2=3",
        "\"Hostname\":\"n2\",\"gpu\":\"0\",\"UUID\":\"GPU-b\",\"modelName\":\"T4\",\"namespace\":\"ml\",\"pod\":\"p2\"|0=7,1=1",
    };
    static const char *const gr[] = {
        "\"Hostname\":\"n1\",\"gpu\":\"0\",\"UUID\":\"GPU-a\",\"modelName\":\"H100\",\"namespace\":\"ml\",\"pod\":\"p1\"|0=0.25,1=0.5",
    };
    static const char *const mem[] = {
        "\"Hostname\":\"n1\",\"gpu\":\"0\",\"UUID\":\"GPU-a\",\"modelName\":\"H100\",\"namespace\":\"ml\",\"pod\":\"p1\"|0=1000",
    };
    ser.util = ser_matrix(util, 2, "util");
    ser.gr = ser_matrix(gr, 1, "gr");
    ser.mem = ser_matrix(mem, 1, "mem");
    ser.answered = 0;
    ser.order[0] = '\0';
    char *url;
    PromClient *c = ser_start(&url);
    Error err = { .set = false };
    UsageData d;
    memset(&d, 0, sizeof d);
    d.idle_threshold = 5;
    assert_int_equal(prometheus_collect_series(c, 3600, SER_END, true, &d, &err), 0);
    assert_string_equal(ser.order, "gum");
    assert_int_equal(d.nseries, 2);
    /* rows in the order the devices are first seen: GPU-a in GR's answer, GPU-b in GPU_UTIL's */
    for (size_t k = 0; k < 60; k++) {
        float ua = usage_series_get(&d, USAGE_SERIES_UTIL, 0, k), ub = usage_series_get(&d, USAGE_SERIES_UTIL, 1, k);
        if (k == 0) assert_true(ua == 25 && ub == 7);
        else if (k == 1) assert_true(ua == 50 && ub == 1);
        else assert_true(isnan(ua) && isnan(ub));
        float ma = usage_series_get(&d, USAGE_SERIES_MEM, 0, k);
        assert_true(k == 0 ? ma == 1000 : isnan(ma));
    }
    assert_int_equal(d.nheld, 2);                 /* sorted by pod: p1, p2 */
    assert_string_equal(d.held[0].pod, "p1");
    assert_string_equal(d.held[0].uuid, "GPU-a");
    assert_true(d.held[0].held_s == 180);
    assert_true(d.held[0].idle_s == 0);
    assert_string_equal(d.held[1].pod, "p2");
    assert_true(d.held[1].held_s == 120);
    assert_true(d.held[1].idle_s == 60);
    usage_clear(&d);
    ser_stop(c, url);
    free(ser.util);
    free(ser.gr);
    free(ser.mem);
    ser.util = ser.gr = ser.mem = NULL;
}

/* ---------------------------------------------------------------------------------------- */
/* --dump driver                                                                             */

static cJSON *num_or_null(double v) { return isnan(v) ? cJSON_CreateNull() : cJSON_CreateNumber(v); }

static cJSON *usage_json(const GpuUsage *u)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "node", u->node);
    cJSON_AddNumberToObject(o, "gpu", u->gpu);
    cJSON_AddNumberToObject(o, "migInstance", u->mig_instance);
    if (u->mig_profile) cJSON_AddStringToObject(o, "migProfile", u->mig_profile);
    else cJSON_AddNullToObject(o, "migProfile");
    if (u->uuid) cJSON_AddStringToObject(o, "uuid", u->uuid);
    if (u->model) cJSON_AddStringToObject(o, "model", u->model);
    if (u->ns) cJSON_AddStringToObject(o, "namespace", u->ns);
    if (u->pod) cJSON_AddStringToObject(o, "pod", u->pod);
    if (u->container) cJSON_AddStringToObject(o, "container", u->container);
    cJSON_AddItemToObject(o, "memoryUsedMiB", num_or_null(u->mem_used_mib));
    cJSON_AddItemToObject(o, "memoryTotalMiB", num_or_null(u->mem_total_mib));
    cJSON_AddItemToObject(o, "utilization", num_or_null(u->util));
    cJSON_AddItemToObject(o, "utilizationMax", num_or_null(u->util_max));
    cJSON_AddNumberToObject(o, "holders", u->holders);
    return o;
}

static int print_series(void *ctx, const PromLabel *l, size_t n, const double *ts, const double *v, size_t np)
{
    cJSON *arr = ctx, *s = cJSON_CreateObject(), *m = cJSON_CreateObject(), *pts = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++) cJSON_AddStringToObject(m, l[i].name, l[i].value);
    for (size_t i = 0; i < np; i++) {
        cJSON *p = cJSON_CreateArray();
        cJSON_AddItemToArray(p, cJSON_CreateNumber(ts[i]));
        cJSON_AddItemToArray(p, num_or_null(v[i]));
        cJSON_AddItemToArray(pts, p);
    }
    cJSON_AddItemToObject(s, "metric", m);
    cJSON_AddItemToObject(s, "points", pts);
    cJSON_AddItemToArray(arr, s);
    return 0;
}

static int dump(int argc, char **argv)
{
    static SourceConfig g;
    MetricsQuery q = { 3600, 5, 95, false, false, false };
    const char *range[4] = { NULL }, *query = NULL;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--prometheus") == 0 && v) { g.prometheus = v; i++; }
        else if (strcmp(a, "--token") == 0 && v) { g.prometheus_token = v; i++; }
        else if (strcmp(a, "--basic") == 0 && v) { g.prometheus_basic_auth = v; i++; }
        else if (strcmp(a, "--kubeconfig") == 0 && v) { g.kubeconfig = v; i++; }
        else if (strcmp(a, "--snapshot") == 0 && v) { g.snapshot = v; i++; }
        else if (strcmp(a, "--window") == 0 && v) { q.window_s = atof(v); i++; }
        else if (strcmp(a, "--percentile") == 0 && v) { q.percentile = atof(v); i++; }
        else if (strcmp(a, "--workloads") == 0) q.want_workloads = true;
        else if (strcmp(a, "--no-metrics") == 0) g.no_metrics = true;
        else if (strcmp(a, "--query") == 0 && v) { query = v; i++; }
        else if (strcmp(a, "--range") == 0 && i + 4 < argc) {
            for (int k = 0; k < 4; k++) range[k] = argv[i + 1 + k];
            i += 4;
        } else { fprintf(stderr, "dump: bad argument %s\n", a); return 2; }
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    int rc = 0;
    Error err = { .set = false };
    if (range[0] || query) {
        PromConfig pc = { .url = g.prometheus, .token = g.prometheus_token, .basic_auth = g.prometheus_basic_auth };
        PromClient *c = prom_client_new(&pc, &err);
        cJSON *arr = cJSON_CreateArray();
        Strvec w = STRVEC_INIT;
        const char *at = getenv("KUBECTL_GPU_NOW");
        if (!c) rc = -1;
        else if (range[0])
            rc = prometheus_query_range(c, range[0], atof(range[1]), atof(range[2]), atof(range[3]), print_series, arr, &w, &err);
        else
            rc = prometheus_query(c, query, at ? atof(at) : 0, print_series, arr, &w, &err);
        cJSON *out = cJSON_CreateObject();
        cJSON_AddItemToObject(out, "series", arr);
        if (rc) cJSON_AddStringToObject(out, "error", err.msg);
        cJSON *wa = cJSON_AddArrayToObject(out, "warnings");
        for (size_t i = 0; i < w.n; i++) cJSON_AddItemToArray(wa, cJSON_CreateString(w.v[i]));
        char *s = cJSON_Print(out);
        puts(s);
        free(s);
        cJSON_Delete(out);
        strvec_clear(&w);
        prom_client_free(c);
        curl_global_cleanup();
        return rc ? 1 : 0;
    }
    Cluster c;
    cluster_init(&c);
    ApiClient *api = NULL;
    if (g.kubeconfig || g.snapshot) {
        LoadRequest rq = { .nodes = true, .pods = true, .services = true };
        if (loader_cluster_load(&c, &g, &rq, g.snapshot ? NULL : &api, &err) != 0) {
            fprintf(stderr, "dump: %s\n", err.msg);
            cluster_release(&c);
            return 1;
        }
    }
    UsageData d;
    WorkloadUsage *w = NULL;
    size_t nw = 0;
    metrics_collect(&d, &g, api, &c, &q, &w, &nw);
    cJSON *out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "source", d.source);
    cJSON_AddStringToObject(out, "detail", d.detail);
    cJSON_AddBoolToObject(out, "windowed", d.windowed);
    cJSON_AddNumberToObject(out, "evaluatedAt", d.evaluated_at);
    cJSON *gpus = cJSON_AddArrayToObject(out, "devices");
    for (size_t i = 0; i < d.ngpus; i++) {
        cJSON *o = usage_json(&d.gpus[i]);
        cJSON_AddBoolToObject(o, "idleAllocated", usage_is_idle_allocated(&d, &d.gpus[i]));
        cJSON *pa = cJSON_AddArrayToObject(o, "pods");
        const GpuUsage *pp[64];
        size_t np = usage_device_pods(&d, &d.gpus[i], pp, 64);
        for (size_t k = 0; k < np && k < 64; k++) cJSON_AddItemToArray(pa, usage_json(pp[k]));
        cJSON_AddItemToArray(gpus, o);
    }
    /* per pod, through the join the status command uses */
    cJSON *pods = cJSON_AddArrayToObject(out, "pods");
    for (size_t i = 0; i < d.npods; i++) {
        bool dup = false;
        for (size_t k = 0; k < i; k++)
            if (str_eq(d.pods[k].ns, d.pods[i].ns) && str_eq(d.pods[k].pod, d.pods[i].pod)) dup = true;
        if (dup) continue;
        double mem, util;
        usage_for_pod(&d, d.pods[i].ns, d.pods[i].pod, &mem, &util);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "namespace", d.pods[i].ns ? d.pods[i].ns : "");
        cJSON_AddStringToObject(o, "pod", d.pods[i].pod);
        cJSON_AddItemToObject(o, "memoryUsedMiB", num_or_null(mem));
        cJSON_AddItemToObject(o, "utilization", num_or_null(util));
        cJSON_AddItemToArray(pods, o);
    }
    cJSON *wa = cJSON_AddArrayToObject(out, "workloads");
    for (size_t i = 0; i < nw; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "namespace", w[i].ns ? w[i].ns : "");
        cJSON_AddStringToObject(o, "pod", w[i].pod);
        cJSON_AddStringToObject(o, "container", w[i].container ? w[i].container : "");
        cJSON_AddNumberToObject(o, "devices", w[i].devices);
        cJSON_AddItemToObject(o, "memoryPercentileMiB", num_or_null(w[i].mem_pct_mib));
        cJSON_AddItemToObject(o, "memoryPeakMiB", num_or_null(w[i].mem_peak_mib));
        cJSON_AddItemToObject(o, "utilizationPercentile", num_or_null(w[i].util_pct));
        cJSON_AddItemToObject(o, "utilizationPeak", num_or_null(w[i].util_peak));
        cJSON_AddNumberToObject(o, "samples", w[i].samples);
        cJSON_AddItemToArray(wa, o);
    }
    cJSON *warn = cJSON_AddArrayToObject(out, "warnings");
    for (size_t i = 0; i < d.warnings.n; i++) cJSON_AddItemToArray(warn, cJSON_CreateString(d.warnings.v[i]));
    char *s = cJSON_Print(out);
    puts(s);
    free(s);
    cJSON_Delete(out);
    workload_usage_free(w, nw);
    usage_clear(&d);
    apiclient_free(api);
    cluster_release(&c);
    curl_global_cleanup();
    return rc;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--dump") == 0) return dump(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vector_matrix_scalar), cmocka_unit_test(test_values_like_strtod),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_queries),
        cmocka_unit_test(test_client_config),
        cmocka_unit_test(test_collect_offline),
        cmocka_unit_test(test_series_holders),
        cmocka_unit_test(test_series_gr_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

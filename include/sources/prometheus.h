/* prometheus.h — Prometheus HTTP API client (instant and range queries) and the PromQL that
 * reads DCGM usage for status (per device) and plan (per workload).
 *
 * Two ways to reach a server:
 *   direct    (--prometheus URL): POST application/x-www-form-urlencoded to URL/api/v1/query
 *             and URL/api/v1/query_range, with a bearer token (--prometheus-token,
 *             $KUBECTL_GPU_PROMETHEUS_TOKEN) or basic auth (--prometheus-basic-auth
 *             USER:PASSWORD, $KUBECTL_GPU_PROMETHEUS_BASIC_AUTH).  TLS is verified.
 *   proxied   through the API server's service proxy (a Prometheus found in the cluster):
 *             GET PROXY_PATH/api/v1/query?query=... with the API client's credentials, since
 *             the tool sends only GETs to the API server.
 * Server errors ({"status":"error","errorType":..,"error":..}) become one error line;
 * server warnings are appended to the caller's Strvec.  Credentials never appear in messages.
 *
 * Query evaluation time: the server's "now", unless $KUBECTL_GPU_NOW (epoch seconds) is set —
 * a hidden knob for deterministic tests against backfilled data (see metrics.h).
 */
#ifndef KGPU_PROMETHEUS_H
#define KGPU_PROMETHEUS_H
#include <stdbool.h>
#include <stddef.h>
#include "sources/dcgm.h"
#include "model/usage.h"
#include "util/util.h"

struct ApiClient;
struct Error;

typedef struct {
    const char *url;             /* direct: http(s)://host:port[/prefix]; NULL when proxied */
    struct ApiClient *api;       /* proxied: the API client (borrowed) ... */
    const char *proxy_path;      /* ... and "/api/v1/namespaces/NS/services/NAME:PORT/proxy" */
    const char *token;           /* bearer token (direct only), may be NULL */
    const char *basic_auth;      /* "user:password" (direct only), may be NULL */
    double timeout;              /* seconds per request; 0 = 30 */
    int verbose;                 /* -v: log each query (never credentials) to stderr */
} PromConfig;

typedef struct PromClient PromClient;
/* copies what it needs from cfg; NULL with err set on a bad URL */
PromClient *prom_client_new(const PromConfig *cfg, struct Error *err);
void prom_client_free(PromClient *c);
/* where it talks to, without credentials ("http://prom:9090" or "service NS/NAME:PORT") */
const char *prom_client_describe(const PromClient *c);

/* one series of a result: labels (borrowed), and n points (ts in epoch seconds).  A vector
 * sample is a series with one point; a scalar is a series without labels.  A non-zero return
 * stops the handing out: the rest of the answer is still read and checked. */
typedef int (*PromSeriesFn)(void *ctx, const PromLabel *labels, size_t nlabels,
                            const double *ts, const double *values, size_t n);

/* at = evaluation time (epoch seconds), 0 = the server's now.  Return 0, or -1 with err set
 * (err->code = HTTP status when the server answered). */
int prometheus_query(PromClient *c, const char *promql, double at, PromSeriesFn fn, void *ctx,
               Strvec *warnings, struct Error *err);
int prometheus_query_range(PromClient *c, const char *promql, double start, double end, double step,
                     PromSeriesFn fn, void *ctx, Strvec *warnings, struct Error *err);

/* Parses one /api/v1/query[_range] response body (exposed for tests).  http_code is the HTTP
 * status (0 when unknown); a body of status "error" or a non-2xx code gives -1. */
int prometheus_parse_response(const char *body, size_t len, long http_code, PromSeriesFn fn,
                        void *ctx, Strvec *warnings, struct Error *err);

/* Usage for status: per device the last FB_USED/FB_FREE/FB_RESERVED/GPU_UTIL/GR_ENGINE_ACTIVE
 * and the maximum of utilization over q->window_s, aggregated by the server; appended to d
 * (d->windowed set).  With q->want_workloads, also per workload (namespace, pod, container)
 * the q->percentile quantile and the maximum of FB_USED and of utilization over q->window_s
 * into *workloads (caller frees with workload_usage_free).  at as for prometheus_query.
 * Returns the number of DCGM series seen (0 = Prometheus has no DCGM data), or -1. */
long prometheus_collect_usage(PromClient *c, const MetricsQuery *q, double at, UsageData *d,
                        WorkloadUsage **workloads, size_t *nworkloads, struct Error *err);
/* The same, for the devices only, as a refill of shown's records when the answer names the
 * same devices and pods (d->refill set, no records; metrics_collect_refill), else as above.
 * With q->want_series, the series alone for shown's records (d->refill without numbers). */
long prometheus_collect_usage_refill(PromClient *c, const MetricsQuery *q, double at, UsageData *d,
                                     const UsageData *shown, struct Error *err);

/* the PromQL prometheus_collect_usage sends for the per-device values (for -v and tests);
 * caller frees */
char *prometheus_usage_query(double window_s);

/* The downsampled series (prometheus_series.c): a query_range per field over window_s ending at end
 * (epoch seconds), about 60 points, each the highest value in its step (max_over_time);
 * fills d->series_* and, with held, d->held (usage.h) and links d's gpus and pods records to
 * their rows, so call it after the device records are in d.  0, or -1 with err set (d's
 * series empty). */
int prometheus_collect_series(PromClient *c, double window_s, double end, bool held, UsageData *d,
                              struct Error *err);
/* The same for a refill (d->refill, usage.h): the series and held records into d, which has
 * no records, and the refill's records linked to the rows in d->refill->series (series_new
 * set, success or not); held records' strings are the refill's records' where they are the
 * same, d's own otherwise.  Without d->refill, prometheus_collect_series. */
int prometheus_collect_series_refill(PromClient *c, double window_s, double end, bool held, UsageData *d,
                                     struct Error *err);
/* the points and step (seconds, whole milliseconds) of a window's series */
size_t prometheus_series_points(double window_s, double *step_s);
/* the PromQL of one field's series (0 GPU_UTIL, 1 GR_ENGINE_ACTIVE, 2 FB_USED) for that step;
 * caller frees */
char *prometheus_series_query(double step_s, int field);
#endif

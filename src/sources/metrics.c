/* metrics.c — chooses the metrics source and joins usage to nodes, GPUs and pods.
 *
 * Source order (product.md, Metrics): --prometheus URL; else a Prometheus service of the
 * cluster reached through the API server's service proxy; else the DCGM exporter pods scraped
 * through the pod proxy (instant values only); else none.  Every source that was tried and
 * failed leaves its reason, so "none" always says why.  Nothing here fails the command.
 *
 * Hidden test knob: $KUBECTL_GPU_NOW (epoch seconds) fixes the Prometheus evaluation time, so
 * tests can query backfilled data at a known instant.  Not for users; not in --help.
 */
#include "sources/metrics.h"
#include "util/log.h"
#include "sources/apiclient.h"
#include "sources/dcgm.h"
#include "util/error.h"
#include "internal.h"
#include "sources/prometheus.h"
#include "sources/snapshot_format.h"
#include "util/strmap.h"
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_PROM_SERVICES 3        /* in-cluster Prometheus candidates tried */
#define MAX_SCRAPE_FAILURES 5      /* consecutive exporter scrape failures before giving up */
#define SCRAPE_TIMEOUT 10.0        /* seconds per exporter scrape through the pod proxy */

static double eval_time(void)
{
    const char *s = getenv("KUBECTL_GPU_NOW");
    if (s && *s) {
        char *end;
        double v = strtod(s, &end);
        if (*end == '\0' && v > 0 && v < 1e11) return v;
    }
    return 0;
}

static void set_source(UsageData *d, const char *source, char *detail /* consumed */)
{
    free(d->source);
    free(d->detail);
    d->source = xstrdup(source);
    d->detail = detail;
}

static void drop_usage(UsageData *d)
{
    /* keep source/detail/warnings, drop partial usage of a failed source */
    Strvec w = d->warnings;
    char *src = d->source, *det = d->detail;
    double win = d->window_s, thr = d->idle_threshold;
    d->warnings = (Strvec)STRVEC_INIT;
    d->source = d->detail = NULL;
    usage_clear(d);
    d->warnings = w; d->source = src; d->detail = det;
    d->window_s = win; d->idle_threshold = thr;
}

/* Prometheus: >0 ok, 0 reachable but no DCGM series, -1 error (why set) */
static long try_prometheus(UsageData *d, const PromConfig *pc, const MetricsQuery *q, double at,
                           WorkloadUsage **workloads, size_t *nworkloads, const UsageData *refill,
                           char **shown, Error *why)
{
    PromClient *pcl = prom_client_new(pc, why);
    if (shown) *shown = pcl ? xstrdup(prom_client_describe(pcl)) : url_redact(pc->url ? pc->url : "");
    if (!pcl) return -1;
    long n = refill ? prometheus_collect_usage_refill(pcl, q, at, d, refill, why)
                    : prometheus_collect_usage(pcl, q, at, d, workloads, nworkloads, why);
    prom_client_free(pcl);
    if (n <= 0) drop_usage(d);
    return n;
}

/* ---- Prometheus services of the cluster ---- */

static int service_rank(const Service *s)
{
    const char *app = kv_get(&s->labels, "app");
    if (str_ends_with(s->name, "kube-prometheus-prometheus") ||
        str_ends_with(s->name, "kube-prometheus-stack-prometheus") ||
        (app && strcmp(app, "kube-prometheus-stack-prometheus") == 0))
        return 1;
    if (strcmp(s->name, "prometheus-k8s") == 0) return 2;
    if (strcmp(s->name, "prometheus-operated") == 0) return 3;
    if (str_ends_with(s->name, "prometheus-server")) return 4;
    return 0;
}

/* the port to proxy to: named web / http-web, else 9090, else the only one; "" = default */
static char *service_port(const Service *s)
{
    for (size_t i = 0; i < s->nports; i++)
        if (str_eq(s->ports[i].name, "web") || str_eq(s->ports[i].name, "http-web"))
            return xstrdup(s->ports[i].name);
    for (size_t i = 0; i < s->nports; i++)
        if (s->ports[i].port == 9090)
            return s->ports[i].name && *s->ports[i].name ? xstrdup(s->ports[i].name) : xstrdup("9090");
    for (size_t i = 0; i < s->nports; i++)
        if (str_eq(s->ports[i].name, "http"))
            return xstrdup("http");
    if (s->nports >= 1)
        return s->ports[0].name && *s->ports[0].name ? xstrdup(s->ports[0].name)
                                                     : xasprintf("%d", s->ports[0].port);
    return xstrdup("");
}

static int cand_cmp(const void *pa, const void *pb)
{
    const Service *a = *(const Service *const *)pa, *b = *(const Service *const *)pb;
    int ra = service_rank(a), rb = service_rank(b);
    if (ra != rb) return ra - rb;
    int c = strcmp(a->ns, b->ns);
    return c ? c : strcmp(a->name, b->name);
}

/* ---- DCGM exporter pods ---- */

typedef struct { char *ns, *name, *node, *port; } ExporterPod;
typedef struct { ExporterPod *p; size_t n, cap; const Cluster *c; } ExporterList;

static int collect_exporter(void *ctx, const cJSON *item, Error *err)
{
    (void)err;
    ExporterList *l = ctx;
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(item, "metadata");
    const cJSON *spec = cJSON_GetObjectItemCaseSensitive(item, "spec");
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(item, "status");
    const cJSON *ns = cJSON_GetObjectItemCaseSensitive(meta, "namespace");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(meta, "name");
    const cJSON *node = cJSON_GetObjectItemCaseSensitive(spec, "nodeName");
    const cJSON *phase = cJSON_GetObjectItemCaseSensitive(status, "phase");
    if (!cJSON_IsString(ns) || !cJSON_IsString(name) || !cJSON_IsString(node) || !*node->valuestring)
        return 0;
    if (cJSON_IsString(phase) && strcmp(phase->valuestring, "Running") != 0) return 0;
    /* only the nodes this command looks at (e.g. -l) */
    if (l->c && l->c->nnodes && !cluster_find_node(l->c, node->valuestring)) return 0;
    if (l->n >= 100000) return 0;
    char *port = NULL;
    const cJSON *ctrs = cJSON_GetObjectItemCaseSensitive(spec, "containers"), *ct, *pt;
    cJSON_ArrayForEach(ct, ctrs) {
        cJSON_ArrayForEach(pt, cJSON_GetObjectItemCaseSensitive(ct, "ports")) {
            const cJSON *pn = cJSON_GetObjectItemCaseSensitive(pt, "name");
            const cJSON *cp = cJSON_GetObjectItemCaseSensitive(pt, "containerPort");
            if (!port && cJSON_IsString(pn) && strcmp(pn->valuestring, "metrics") == 0 &&
                cJSON_IsNumber(cp) && cp->valueint > 0 && cp->valueint < 65536)
                port = xasprintf("%d", cp->valueint);
        }
    }
    ARRAY_GROW(l->p, l->n, l->cap);
    ExporterPod *e = &l->p[l->n++];
    e->ns = xstrdup(ns->valuestring);
    e->name = xstrdup(name->valuestring);
    e->node = xstrdup(node->valuestring);
    e->port = port ? port : xstrdup("9400");
    return 0;
}

static void exporters_release(ExporterList *l)
{
    for (size_t i = 0; i < l->n; i++) { free(l->p[i].ns); free(l->p[i].name); free(l->p[i].node); free(l->p[i].port); }
    free(l->p);
}

/* >0 devices found, 0 nothing usable, -1 error; why says what happened when <= 0 */
static long try_dcgm_pods(UsageData *d, struct ApiClient *api, const Cluster *c, int verbose,
                          Strbuf *why, size_t *scraped, size_t *total)
{
    static const char *const selectors[] = {
        "labelSelector=app%3Dnvidia-dcgm-exporter",            /* GPU Operator */
        "labelSelector=app.kubernetes.io%2Fname%3Ddcgm-exporter", /* dcgm-exporter Helm chart */
    };
    ExporterList l = { NULL, 0, 0, c };
    Error err = { .set = false };
    for (size_t s = 0; s < 2 && l.n == 0; s++) {
        if (apiclient_list(api, "/api/v1/pods", selectors[s], collect_exporter, &l, &err) != 0) {
            strbuf_addf(why, "DCGM exporter pods not listed: %s", err.msg);
            exporters_release(&l);
            return -1;
        }
    }
    *total = l.n;
    if (l.n == 0) {
        strbuf_adds(why, "no running DCGM exporter pods found");
        exporters_release(&l);
        return 0;
    }
    int fails = 0;
    char first_err[sizeof err.msg] = "";
    for (size_t i = 0; i < l.n && fails < MAX_SCRAPE_FAILURES; i++) {
        ExporterPod *e = &l.p[i];
        char *path = xasprintf("/api/v1/namespaces/%s/pods/%s:%s/proxy/metrics", e->ns, e->name, e->port);
        Strbuf body = STRBUF_INIT;
        error_clear(&err);
        if (verbose) log_verbose(1, "metrics: scraping DCGM exporter pod %s/%s on %s", e->ns, e->name, e->node);
        /* an exporter the pod proxy cannot reach answers 503 at once and stays so: no
         * retries, and a short bound per scrape (an exporter answers in well under a second) */
        ApiRequestOptions ro = { .max_retries = 0, .timeout = SCRAPE_TIMEOUT };
        if (apiclient_get_raw_ex(api, path, NULL, &ro, &body, &err) != 0) {
            if (!first_err[0]) memcpy(first_err, err.msg, sizeof first_err);
            strvec_pushf(&d->warnings, "metrics: DCGM exporter pod %s/%s on node %s: %s", e->ns, e->name,
                         e->node, err.msg);
            fails++;
            /* forbidden applies to every pod: do not ask again */
            if (err.code == 401 || err.code == 403) fails = MAX_SCRAPE_FAILURES;
        } else {
            PromTextStats st;
            size_t before = d->ngpus;
            dcgm_parse_text(body.buf, body.len, e->node, d, &st);
            if (st.skipped)
                strvec_pushf(&d->warnings, "metrics: DCGM exporter pod %s/%s: %zu malformed line%s skipped "
                             "(first at line %zu)", e->ns, e->name, st.skipped, st.skipped == 1 ? "" : "s",
                             st.first_bad_line);
            if (d->ngpus == before)
                strvec_pushf(&d->warnings, "metrics: DCGM exporter pod %s/%s reported no GPU memory or "
                             "utilization series", e->ns, e->name);
            (*scraped)++;
            fails = 0;
        }
        strbuf_clear(&body);
        free(path);
    }
    exporters_release(&l);
    if (*scraped == 0) {
        strbuf_addf(why, "DCGM exporter pods not reachable: %s", first_err);
        return -1;
    }
    if (d->ngpus == 0) {
        strbuf_adds(why, "DCGM exporter pods have no GPU memory or utilization series");
        return 0;
    }
    return (long)d->ngpus;
}

static void collect(UsageData *data, const SourceConfig *sc, struct ApiClient *api,
                    const Cluster *c, const MetricsQuery *q, WorkloadUsage **workloads,
                    size_t *nworkloads, const UsageData *refill)
{
    memset(data, 0, sizeof *data);
    MetricsQuery mq = { 3600, 5, 95, false, false, false };
    if (q) mq = *q;
    if (!(mq.window_s > 0)) mq.window_s = 3600;
    if (!(mq.idle_threshold > 0)) mq.idle_threshold = 5;
    if (!(mq.percentile > 0 && mq.percentile <= 100)) mq.percentile = 95;
    data->window_s = mq.window_s;
    data->idle_threshold = mq.idle_threshold;
    if (workloads) *workloads = NULL;
    if (nworkloads) *nworkloads = 0;
    double at = eval_time();
    data->evaluated_at = at > 0 ? at : (double)time(NULL);
    int verbose = sc ? sc->verbose : 0;

    if (sc && sc->no_metrics) {
        set_source(data, "none", xstrdup("disabled by --no-metrics"));
        return;
    }
    Error err = { .set = false };
    if (sc && sc->prometheus) {
        PromConfig pc = { .url = sc->prometheus, .token = sc->prometheus_token,
                          .basic_auth = sc->prometheus_basic_auth, .timeout = sc->request_timeout,
                          .verbose = verbose };
        char *shown = NULL;
        long n = try_prometheus(data, &pc, &mq, at, workloads, nworkloads, refill, &shown, &err);
        if (n > 0)
            set_source(data, "prometheus", xasprintf("Prometheus %s", shown));
        else if (n == 0)
            set_source(data, "none", xasprintf("--prometheus %s has no DCGM series (DCGM_FI_DEV_FB_USED, "
                                               "DCGM_FI_DEV_GPU_UTIL ...); is the DCGM exporter scraped?", shown));
        else
            set_source(data, "none", xasprintf("--prometheus %s: %s", shown, err.msg));
        free(shown);
        return;
    }
    if (!api) {
        /* a snapshot taken with metrics reachable holds what the commands read */
        if (sc && sc->snapshot && snapshot_usage_fill(c, &mq, data, workloads, nworkloads)) return;
        set_source(data, "none", xstrdup(sc && sc->snapshot
            ? "offline (--snapshot): metrics only with --prometheus URL"
            : "no API server connection to find metrics through"));
        return;
    }

    Strbuf why = STRBUF_INIT;
    strbuf_adds(&why, "no --prometheus given");

    /* 1. a Prometheus of the cluster, through the service proxy */
    const Service **cand = NULL;
    size_t ncand = 0;
    if (c && c->nservices) {
        cand = xcalloc(c->nservices, sizeof *cand);
        for (size_t i = 0; i < c->nservices; i++)
            if (service_rank(&c->services[i])) cand[ncand++] = &c->services[i];
        qsort(cand, ncand, sizeof *cand, cand_cmp);
    }
    if (ncand == 0) strbuf_adds(&why, ", no Prometheus service found");
    for (size_t i = 0; i < ncand && i < MAX_PROM_SERVICES; i++) {
        const Service *s = cand[i];
        char *port = service_port(s);
        char *path = xasprintf("/api/v1/namespaces/%s/services/%s%s%s/proxy", s->ns, s->name,
                               *port ? ":" : "", port);
        if (verbose) log_verbose(1, "metrics: trying Prometheus service %s/%s:%s through the API server",
                             s->ns, s->name, port);
        PromConfig pc = { .api = api, .proxy_path = path, .timeout = sc ? sc->request_timeout : 0,
                          .verbose = verbose };
        error_clear(&err);
        long n = try_prometheus(data, &pc, &mq, at, workloads, nworkloads, refill, NULL, &err);
        if (n > 0) {
            set_source(data, "prometheus", xasprintf("Prometheus service %s/%s:%s through the API server's "
                                                      "service proxy", s->ns, s->name, port));
            free(port); free(path); free(cand);
            strbuf_clear(&why);
            return;
        }
        if (n == 0) strbuf_addf(&why, ", Prometheus %s/%s has no DCGM series", s->ns, s->name);
        else strbuf_addf(&why, ", Prometheus %s/%s: %s", s->ns, s->name, err.msg);
        free(port); free(path);
    }
    free(cand);

    /* 2. the DCGM exporter pods, through the pod proxy */
    size_t scraped = 0, total = 0;
    Strbuf dwhy = STRBUF_INIT;
    long n = try_dcgm_pods(data, api, c, verbose, &dwhy, &scraped, &total);
    if (n > 0) {
        set_source(data, "dcgm", xasprintf("DCGM exporter pods through the API server's pod proxy "
                                           "(%zu of %zu scraped; instant values only; %s)", scraped,
                                           total, strbuf_str(&why)));
    } else {
        drop_usage(data);
        strbuf_addf(&why, ", %s", strbuf_str(&dwhy));
        set_source(data, "none", strbuf_detach(&why));
    }
    strbuf_clear(&dwhy);
    strbuf_clear(&why);
}

void metrics_collect(UsageData *data, const SourceConfig *sc, struct ApiClient *api,
                     const Cluster *c, const MetricsQuery *q, WorkloadUsage **workloads,
                     size_t *nworkloads)
{
    collect(data, sc, api, c, q, workloads, nworkloads, NULL);
}

void metrics_collect_refill(UsageData *data, const SourceConfig *sc, struct ApiClient *api,
                            const Cluster *c, const MetricsQuery *q, const UsageData *shown)
{
    /* only records made from Prometheus's answer (a scrape's are made another way) */
    bool can = shown && !shown->records_share && (shown->ngpus || shown->npods) && shown->windowed &&
               shown->source && strcmp(shown->source, "prometheus") == 0 && !shown->strings_share &&
               !(q && q->want_workloads);
    collect(data, sc, api, c, q, NULL, NULL, can ? shown : NULL);
}

/* snapshot_write.c — writing what `kubectl gpu snapshot` dumps (snapshot_write.h).
 *
 * Items are written as they arrive, page by page (the cluster is never held in memory),
 * reduced to the fields the model reads (snapshot_reduce: no annotations, managedFields, env
 * values, commands; pods and nodes printed as reduced without building the reduced object,
 * snapshot_reduce_write), to a staging file that becomes the output only when every list was read:
 * a failed snapshot leaves no half-written List behind.  A regular FILE is replaced atomically
 * (0600); a FIFO or a character device is written into, never replaced (util/outfile.h); "-"
 * is stdout.  If a continue token expires meanwhile, the snapshot starts over once.  FILE is
 * gzip-compressed unless its name ends in ".json"; stdout gets plain JSON.
 *
 * With metrics reachable (as status finds them: --prometheus, a Prometheus of the cluster, the
 * DCGM exporter pods), the device usage over status's idle window and the workload profiles
 * over plan's default window are stored as items of apiVersion kubectl-gpu/v1.  The List's
 * annotations record the time, the context name and server (never credentials), the tool and
 * format versions, and the warnings met.
 */
#include "sources/snapshot_write.h"
#include "sources/apiclient.h"
#include "sources/kubeconfig.h"
#include "sources/metrics.h"
#include "sources/snapshot_format.h"
#include "sources/gzpipe.h"
#include "util/error.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/util.h"
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    GzPipe *gz;                 /* compressed on its own thread (gzpipe.h) */
    size_t items;
    bool write_failed;
    Cluster side;               /* the nodes and services, to find the metrics by */
    bool side_unused;           /* --no-metrics: no metrics to find, the nodes not read twice */
    size_t usage_devices, usage_workloads;
    char *pbuf; size_t pcap;    /* reused for printing each item */
    char *ibuf; size_t icap;    /* reused for each pod's and node's text (snapshot_reduce_write) */
    char *no_usage;             /* why no usage was stored */
    Strvec warnings;            /* the lists' warnings, of the last pass */
} SnapWriter;

static void out_text(SnapWriter *w, const char *text)
{
    size_t n = strlen(text);
    if (n) gzpipe_write(w->gz, text, n);
}

static void out_item(SnapWriter *w, cJSON *obj)
{
    out_text(w, w->items ? ",\n    " : "\n    ");
    w->items++;
    if (!w->pbuf) { w->pcap = 64 << 10; w->pbuf = xmalloc(w->pcap); }
    if (cJSON_PrintPreallocated(obj, w->pbuf, (int)w->pcap, 0)) { out_text(w, w->pbuf); return; }
    char *text = cJSON_PrintUnformatted(obj);          /* larger than the buffer: once more */
    if (!text) { w->write_failed = true; return; }
    out_text(w, text);
    size_t n = strlen(text) + 64;
    if (n > w->pcap && n < ((size_t)64 << 20)) { free(w->pbuf); w->pcap = 2 * n; w->pbuf = xmalloc(w->pcap); }
    free(text);
}

static void sink(void *ctx, const char *data, size_t n)
{
    SnapWriter *w = ctx;
    if (n) gzpipe_write(w->gz, data, n);
}

static int write_item(void *ctx, ObjKind kind, const cJSON *item, Error *err)
{
    SnapWriter *w = ctx;
    if (kind == OBJ_POD || kind == OBJ_NODE) {
        /* most of the snapshot: printed as reduced, without building the reduced object */
        out_text(w, w->items ? ",\n    " : "\n    ");
        w->items++;
        if (!snapshot_reduce_write(kind, item, &w->ibuf, &w->icap, sink, w)) w->write_failed = true;
        if (kind == OBJ_NODE && !w->side_unused) {
            Error e = { 0 };
            (void)cluster_ingest(&w->side, kind, item, &e);     /* a bad one is warned about by status */
        }
        return 0;
    }
    cJSON *obj = snapshot_reduce(kind, item);
    if (!obj) { error_set(err, "out of memory copying a %s", obj_kind_name(kind)); return -1; }
    out_item(w, obj);
    cJSON_Delete(obj);
    if ((kind == OBJ_NODE || kind == OBJ_SERVICE) && !w->side_unused) {
        Error e = { 0 };
        (void)cluster_ingest(&w->side, kind, item, &e);     /* a bad one is warned about by status */
    }
    return 0;
}

static void emit_record(void *ctx, cJSON *rec)
{
    out_item(ctx, rec);
}

/* the usage the commands read, as status (and top) and plan ask for it by default */
static void write_usage(SnapWriter *w, ApiClient *api, const SourceConfig *sc)
{
    cluster_finalize(&w->side);
    UsageData d;
    MetricsQuery dq = { 3600, 5, 95, false, true, false };
    metrics_collect(&d, sc, api, &w->side, &dq, NULL, NULL);
    log_verbose(1, "snapshot: metrics for status: %s (%s)", d.source, d.detail);
    free(w->no_usage);
    w->no_usage = str_eq(d.source, "none") ? xstrdup(d.detail ? d.detail : "") : NULL;
    if (!str_eq(d.source, "none")) {
        snapshot_usage_records("devices", &d, &dq, NULL, 0, emit_record, w);
        w->usage_devices = d.ngpus;
    }
    bool windowed = str_eq(d.source, "prometheus");
    usage_clear(&d);
    if (!windowed) return;      /* workload profiles come from Prometheus only (metrics.h) */
    /* plan: its default window and percentile (cmd_plan.c) */
    WorkloadUsage *wu = NULL;
    size_t nwu = 0;
    MetricsQuery wq = { 7 * 86400, 5, 95, true, false, false };
    metrics_collect(&d, sc, api, &w->side, &wq, &wu, &nwu);
    if (str_eq(d.source, "prometheus")) {
        snapshot_usage_records("workloads", &d, &wq, wu, nwu, emit_record, w);
        w->usage_workloads = nwu;
    }
    workload_usage_free(wu, nwu);
    usage_clear(&d);
}

static void rfc3339_utc(time_t t, char *buf, size_t n)
{
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* one full pass: every list into w->f, then the List's metadata */
static int write_snapshot(SnapWriter *w, ApiClient *api, const RestConfig *rc, const LoadRequest *rq,
                          const SourceConfig *sc, Error *err)
{
    char when[32];
    rfc3339_utc(time(NULL), when, sizeof when);
    out_text(w, "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"List\",\n  \"items\": [");
    Strvec warnings = STRVEC_INIT;
    strvec_clear(&w->warnings);
    bool checked = false;
    int rc_ = loader_list_live(api, rq, write_item, w, &warnings, &checked, err);
    if (rc_) { strvec_clear(&warnings); return -1; }
    write_usage(w, api, sc);
    out_text(w, "\n  ],\n");
    cJSON *meta = cJSON_CreateObject();
    cJSON *ann = cJSON_AddObjectToObject(meta, "annotations");
    cJSON_AddStringToObject(ann, SNAPSHOT_ANN_TIME, when);
    cJSON_AddStringToObject(ann, SNAPSHOT_ANN_CONTEXT, rc->context_name ? rc->context_name : "");
    cJSON_AddStringToObject(ann, SNAPSHOT_ANN_SERVER, apiclient_server(api));
    cJSON_AddStringToObject(ann, SNAPSHOT_ANN_VERSION, KGPU_VERSION);
    cJSON_AddStringToObject(ann, SNAPSHOT_ANN_FORMAT, SNAPSHOT_FORMAT_VERSION);
    if (checked) cJSON_AddStringToObject(ann, SNAPSHOT_ANN_CP_CHECKED, "true");
    if (warnings.n) {
        Strbuf sb = STRBUF_INIT;
        for (size_t i = 0; i < warnings.n; i++) strbuf_addf(&sb, "%s%s", i ? "\n" : "", warnings.v[i]);
        cJSON_AddStringToObject(ann, SNAPSHOT_ANN_WARNINGS, strbuf_str(&sb));
        strbuf_clear(&sb);
    }
    char *text = cJSON_PrintUnformatted(meta);
    out_text(w, "  \"metadata\": ");
    out_text(w, text ? text : "{}");
    out_text(w, "\n}\n");
    free(text);
    cJSON_Delete(meta);
    w->warnings = warnings;
    return 0;
}

int snapshot_write(const SourceConfig *sc, const LoadRequest *rq, const char *path, SnapshotWritten *out,
                   Error *out_err)
{
    memset(out, 0, sizeof *out);
    Error err = { 0 };
    RestConfig rc;
    ApiClient *api;
    if (loader_connect(sc, &rc, &api, out_err)) return -1;
    int ret = -1;
    Outfile of;
    bool compress = !outfile_is_stdout(path) && !str_ends_with(path, ".json");
    SnapWriter w = { 0 };
    cluster_init(&w.side);
    w.side_unused = sc->no_metrics;             /* metrics_collect reads nothing then */
    if (outfile_open(&of, path, out_err)) goto out;
    int fd = outfile_fd(&of);
    for (int attempt = 0;; attempt++) {
        error_clear(&err);
        if (w.gz) gzpipe_close(w.gz);
        w.gz = gzpipe_open(fd, compress);
        if (!w.gz) { error_set(out_err, "cannot write the snapshot: %s", strerror(errno)); goto out; }
        w.items = 0;
        w.write_failed = false;
        if (write_snapshot(&w, api, &rc, rq, sc, &err) == 0) break;
        if (err.code == 410 && attempt == 0) {
            /* a continue token expired: start over so the dump is one consistent read */
            log_verbose(1, "a list expired while being read; starting the snapshot again");
            cluster_release(&w.side);
            cluster_init(&w.side);
            continue;
        }
        *out_err = err;
        goto out;
    }
    int zrc = gzpipe_close(w.gz);
    w.gz = NULL;
    if (zrc != 0 || w.write_failed) {
        error_set(out_err, "writing the snapshot failed: %s", strerror(errno));
        goto out;
    }
    if (outfile_commit(&of, out_err)) goto out;
    out->objects = w.items - w.usage_devices;
    out->usage_devices = w.usage_devices;
    out->usage_workloads = w.usage_workloads;
    out->no_usage = w.no_usage;
    w.no_usage = NULL;
    ret = 0;
out:
    out->warnings = w.warnings;
    if (w.gz) gzpipe_close(w.gz);
    cluster_release(&w.side);
    free(w.pbuf);
    free(w.ibuf);
    free(w.no_usage);
    outfile_release(&of);
    apiclient_free(api);
    restconfig_clear(&rc);
    exec_credential_cache_clear();
    return ret;
}

void snapshot_written_release(SnapshotWritten *sw)
{
    strvec_clear(&sw->warnings);
    free(sw->no_usage);
    sw->no_usage = NULL;
}

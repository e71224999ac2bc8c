/* cmd_status.c — `kubectl gpu status [NODE...]`: the cluster's GPUs, who holds them, what is
 * wrong, how busy they are.
 *
 * Loads nodes, pods (all namespaces: allocation depends on every pod), the GPU DaemonSets, the
 * ClusterPolicy and (for finding Prometheus) services; collects metrics unless --no-metrics;
 * builds one GpuStatus (analysis/allocation.c) and hands it to its one presentation
 * (cmd/status_present.c, render/status.c: table, wide table, JSON, YAML).
 */
#include "analysis/allocation.h"
#include "cmd/cmd_common.h"
#include "cmd/commands.h"
#include "cmd/fleet.h"
#include "util/error.h"
#include "sources/loader.h"
#include "cmd/watch_loop.h"
#include "sources/metrics.h"
#include "render/status.h"
#include "cmd/status_present.h"
#include "render/custom_columns.h"
#include <cjson/cJSON.h>
#include <stdio.h>

static const char *status_output;
static double status_window = 3600;
static double status_idle_threshold = 5;
static bool status_watch;
static bool status_no_headers;
static bool status_require_metrics;
static const char *status_by;
static const char *status_price;
static const char *const status_bys[] = { "namespace", "node", "product", "workload", NULL };
static const char *status_sort_by;
static const char *const status_formats[] = { "table", "wide", "json", "yaml", "name", "custom-columns=",
                                               "custom-columns-file=",
    "jsonpath=", "jsonpath-file=", "go-template=", "go-template-file=", NULL };
static const Option status_opts[] = {
    { OPT_STRING, 'o', "output", &status_output, "FORMAT", "output format", status_formats, NULL },
    { OPT_BOOL, 0, "no-headers", &status_no_headers, NULL,
      "the node table's rows only, no other section (also with custom-columns)", NULL, NULL },
    { OPT_STRING, 0, "sort-by", &status_sort_by, "FIELD",
      "sort the nodes by .metadata.name, .product, .physicalGPUs, .allocated, .utilization, ... "
      "(TAB lists them) or any JSONPath into a node of -o json",
      NULL, "sort:status" },
    { OPT_DURATION, 0, "window", &status_window, "DURATION",
      "how long a held GPU must stay idle to be called idle (default 1h)", NULL, NULL },
    { OPT_DOUBLE, 0, "idle-threshold", &status_idle_threshold, "PERCENT",
      "utilization under which a held GPU is idle (default 5)", NULL, NULL },
    { OPT_STRING, 0, "by", &status_by, "GROUP",
      "per group: pods, GPUs held, idle and (node, product) free, GPU-hours, cost", status_bys, NULL },
    { OPT_STRING, 0, "price", &status_price, "MODEL=USD_PER_HOUR,...",
      "price of a GPU-hour per product, e.g. A100-SXM4-80GB=2.5",
      NULL, NULL },
    { OPT_BOOL, 0, "require-metrics", &status_require_metrics, NULL,
      "exit 1 when no metrics source answers", NULL, NULL },
    { OPT_BOOL, 'w', "watch", &status_watch, NULL,
      "print the table again each time it changes (Ctrl-C stops)", NULL, NULL },
    OPT_END_MARK
};

/* ------------------------------------------------------------------ run */

/* one picture; status -w: one per change (watch_loop.h), the metrics collected once, at the start */
typedef struct {
    StatusPresent p;
    const GlobalOptions *g;
    UsageData usage;
    bool have_usage;
    Error *err;
} StatusWatch;

static int status_show(void *ctx, Cluster *c, struct ApiClient *api, bool first)
{
    StatusWatch *sw = ctx;
    if (first && cmd_price_check(c, status_price, sw->err) < 0) return -2;   /* a MODEL no node has */
    if (first) {
        MetricsQuery q = { status_window, status_idle_threshold, 95, false, status_by || status_price, false };
        metrics_collect(&sw->usage, &sw->g->source, api, c, &q, NULL, NULL);
        sw->have_usage = true;
        if (cmd_metrics_outcome(sw->usage.source, sw->usage.detail, sw->g, status_require_metrics, sw->err) < 0)
            return -1;
    }
    return status_present(c, &sw->usage, &sw->p, first, sw->err);
}

static int run_status_format(int argc, char **argv, GlobalOptions *g, OutputFormat fmt, CustomColumns *columns,
                             Error *err);

/* ---- top's fleet screen: one context followed, its summary a line of JSON per change ---- */

typedef struct {
    StatusWatch sw;
    WatchTickFn tick;
    void *tick_ctx;
} StatusSummaryWatch;

/* {"summary": {"gpuNodes", "physicalGPUs", "pendingGPUPods", "physical": {...}}}: the keys of
 * the GPUStatus document's summary that the fleet screen shows, on one line */
static int status_summary_show(void *ctx, Cluster *c, struct ApiClient *api, bool first)
{
    StatusWatch *sw = &((StatusSummaryWatch *)ctx)->sw;
    if (first) {
        MetricsQuery q = { status_window, status_idle_threshold, 95, false, false, false };
        metrics_collect(&sw->usage, &sw->g->source, api, c, &q, NULL, NULL);
        sw->have_usage = true;
    }
    GpuStatus st;
    status_build(&st, c, &sw->usage, &sw->p.filter);
    cJSON *doc = cJSON_CreateObject();
    cJSON *s = cJSON_AddObjectToObject(doc, "summary");
    cJSON_AddNumberToObject(s, "gpuNodes", st.gpu_nodes);
    cJSON_AddNumberToObject(s, "physicalGPUs", st.physical_gpus);
    cJSON_AddNumberToObject(s, "pendingGPUPods", st.pending_gpu_pods);
    cJSON_AddNumberToObject(s, "waitingWorkloads", st.waiting_workloads);
    status_physical_json(s, &st);
    status_clear(&st);
    char *line = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    int rc = line && printf("%s\n", line) >= 0 ? 0 : -1;
    cJSON_free(line);
    return rc;
}

static void status_summary_tick(void *ctx, const WatchStats *stats)
{
    StatusSummaryWatch *w = ctx;
    if (w->tick) w->tick(w->tick_ctx, stats);
}

static int status_watch_summary(GlobalOptions *g, WatchTickFn tick, void *tick_ctx, Error *err)
{
    StatusSummaryWatch w = { .sw = { .g = g, .err = err }, .tick = tick, .tick_ctx = tick_ctx };
    w.sw.p.fmt = RENDER_JSON;
    w.sw.p.filter.pods_ns = g->namespace_explicit && !g->all_namespaces ? g->namespace_ : NULL;
    w.sw.p.filter.node_selector = g->selector;
    LoadRequest rq = { .nodes = true, .pods = true, .daemonsets = true, .clusterpolicy = true, .configmaps = true,
                       .services = !g->no_metrics && !g->prometheus, .node_selector = g->selector };
    WatchLoopExtra x = { status_summary_tick };
    int rc = watch_loop_run_ex(g, "status", &rq, status_summary_show, &w, &x, err);
    if (w.sw.have_usage) usage_clear(&w.sw.usage);
    return rc;
}

static int run_status(int argc, char **argv, GlobalOptions *g, Error *err);
const FleetCommand cmd_status_fleet = { "status", FLEET_STATUS, &status_output, &status_no_headers, run_status,
                                        status_watch_summary };

static int run_status(int argc, char **argv, GlobalOptions *g, Error *err)
{
    if (fleet_wanted(g)) {                     /* --contexts, --all-contexts: cmd/fleet.h */
        if (status_watch || status_by) {
            error_set(err, "%s: not with --contexts or --all-contexts", status_watch ? "-w" : "--by");
            return EXIT_USAGE;
        }
        return fleet_run(&cmd_status_fleet, argc, argv, g, err);
    }
    static const OutputFormat allowed[] = { OUT_TABLE, OUT_WIDE, OUT_JSON, OUT_YAML, OUT_NAME, OUT_COLUMNS };
    OutputFormat fmt;
    if (output_format_parse(status_output, allowed, 6, &fmt, "status") < 0) return EXIT_USAGE;
    CustomColumns *columns = NULL;             /* -o custom-columns: parsed before the load */
    if (fmt == OUT_COLUMNS) {
        if (status_by) {
            error_set(err, "-o %s: not with --by (custom columns are of the node list)", status_output);
            return EXIT_USAGE;
        }
        if (!(columns = custom_columns_new(status_output, err))) return EXIT_USAGE;
    }
    int rc = run_status_format(argc, argv, g, fmt, columns, err);
    custom_columns_free(columns);
    return rc;
}

static int run_status_format(int argc, char **argv, GlobalOptions *g, OutputFormat fmt, CustomColumns *columns,
                             Error *err)
{
    PriceList prices;
    if (price_list_parse(&prices, status_price, err) < 0) return EXIT_USAGE;
    price_list_clear(&prices);                  /* parsed again after the load: checked before it */
    if (status_sort_by && !status_sort_field_known(status_sort_by)) {
        error_set(err, "--sort-by: unknown field \"%s\" (status sorts by %s)", status_sort_by, status_sort_fields_help);
        return EXIT_USAGE;
    }
    if (!(status_idle_threshold <= 100)) {
        error_set(err, "--idle-threshold must be a percentage between 0 and 100");
        return EXIT_USAGE;
    }
    if (!(status_window > 0)) {
        error_set(err, "--window must be longer than 0s");
        return EXIT_USAGE;
    }
    StatusPresent p = { cmd_render_format(fmt),
                        { argc > 0 ? (const char *const *)argv : NULL, (size_t)argc,
                          g->namespace_explicit && !g->all_namespaces ? g->namespace_ : NULL, g->selector },
                        status_no_headers, status_sort_by, status_by, status_price, g->color, columns };
    LoadRequest rq = { .nodes = true, .pods = true, .daemonsets = true, .clusterpolicy = true, .configmaps = true,
                       .services = !g->no_metrics && !g->prometheus, .node_selector = g->selector,
                       .quota_events = true, .queues = true };      /* the note on owners a quota refused, when there are */
    if (status_watch) {
        StatusWatch sw = { p, g, { 0 }, false, err };
        int wrc = watch_loop_run(g, "status", &rq, status_show, &sw, err);
        if (sw.have_usage) usage_clear(&sw.usage);
        return wrc;
    }
    CmdCluster cc;
    if (cmd_load_cluster(&cc, g, &rq, true, err) < 0) return EXIT_FAIL;
    cluster_seal_strings(&cc.cluster);                  /* read once: its pool's tables go */
    StatusWatch one = { p, g, { 0 }, false, err };        /* the first picture is the only one */
    int rc = status_nodes_exist(&cc.cluster, &p.filter, err) < 0 ? -1 : status_show(&one, &cc.cluster, cc.api, true);
    if (one.have_usage) usage_clear(&one.usage);
    cmd_cluster_release(&cc);
    return rc == -2 ? EXIT_USAGE : rc ? EXIT_FAIL : EXIT_OK;
}

const Command cmd_status = {
    .name = "status",
    .summary = "Show the cluster's GPUs: inventory, allocation, problems, usage",
    .usage = "kubectl gpu status [NODE...] [-o table|wide|json|yaml|name] [--no-headers] [--sort-by FIELD]\n"
             "       [-o custom-columns=HEADER:PATH,...|custom-columns-file=FILE] [-w] [--window 1h]\n"
             "       [--idle-threshold 5]",
    .description =
        "Shows every GPU node: product (GFD nvidia.com/gpu.product), physical GPUs, memory per GPU,\n"
        "MIG strategy, sharing (time-slicing or MPS replicas; slots are not GPUs), and allocated vs\n"
        "allocatable for every GPU resource it advertises (nvidia.com/gpu, nvidia.com/gpu.shared,\n"
        "nvidia.com/mig-*).  \"Allocated\" is what the scheduler counts: the effective requests of\n"
        "the pods bound to the node that are neither Succeeded nor Failed.  Above the nodes: totals\n"
        "per resource and the number of Pending GPU pods; below: node problems (NotReady, cordoned,\n"
        "no device plugin, unhealthy GPUs, missing GFD labels, invalid or failed MIG configuration)\n"
        "and the health of the GPU Operator's DaemonSets.  With metrics (DCGM, through Prometheus or\n"
        "the exporter pods) it adds memory used and utilization, and counts GPUs that are allocated\n"
        "but stayed under --idle-threshold percent for --window.  NODE names and -l select nodes.\n"
        "Facts come from GFD labels of any version, then advertised resources, then the device-plugin\n"
        "ConfigMap the ClusterPolicy names; GPUs that cannot be counted show ? and stay out of the\n"
        "total, counts from advertised units alone are marked *, and the sources are listed.\n"
        "-o wide adds the MIG config, per-resource detail, the pods holding GPUs and every device.\n"
        "As with kubectl get: -o name prints node/NAME per GPU node, --no-headers prints the node\n"
        "table's rows alone, and --sort-by orders the nodes (table, name, JSON and YAML) by a field;\n"
        "-o custom-columns=HEADER:PATH,... (or custom-columns-file=FILE: a line of headers, a line of\n"
        "paths) prints one row per node of -o json, each PATH a JSONPath into it such as .name,\n"
        ".pods[*].name or .resources.nvidia\\.com/gpu.allocated (not with --by).\n"
        "-w lists once, then watches and prints a new table each time it changes (Ctrl-C stops).",
    .examples = "  kubectl gpu status\n  kubectl gpu status -o wide dgx-a100-01 h100-02\n"
                "  kubectl gpu status --prometheus http://prometheus.monitoring:9090 --by namespace\n"
                "  kubectl gpu status --sort-by=.physicalGPUs --no-headers -w\n"
                "  kubectl gpu status -o custom-columns=NODE:.name,GPUS:.physicalGPUs,HELD:.pods[*].name\n",
    .options = status_opts,
    .min_args = 0, .max_args = -1,
    .run = run_status,
};

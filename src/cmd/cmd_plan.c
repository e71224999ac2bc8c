/* cmd_plan.c — `kubectl gpu plan`: turn observed GPU usage into a sharing configuration (MIG
 * layouts, time-slicing / MPS replicas) and the manifests and script that apply it.
 *
 * Loads the selected nodes and every pod (the workloads), the GPU DaemonSets (the operator's
 * namespace) and the ClusterPolicy; collects per-workload usage over --window at --percentile
 * (metrics_collect with want_workloads; requests stand in without metrics, and every output
 * says so); builds one PlanRun (analysis/plan_run.c: the plan and its manifests) and renders
 * it as the text report, JSON (the contract's keys), YAML (only the manifests, multi-document)
 * or a reviewed bash script.  Nothing is written to the cluster.
 */
#include "analysis/groups.h"
#include "analysis/plan.h"
#include "analysis/plan_run.h"
#include "cmd/cmd_common.h"
#include "cmd/commands.h"
#include "render/plan_report.h"
#include "render/custom_columns.h"
#include "sources/apiclient.h"
#include "sources/loader.h"
#include "sources/metrics.h"
#include "util/error.h"
#include <stdio.h>

static const char *plan_output;
static const char *plan_window = "7d";
static double plan_percentile = 95;
static double plan_headroom = 10;
static const char *plan_strategy = "auto";
static bool plan_quotas;
static bool plan_require_metrics;
static const char *plan_price;
static const char *const plan_formats[] = { "text", "yaml", "json", "script", "custom-columns=",
                                             "custom-columns-file=",
    "jsonpath=", "jsonpath-file=", "go-template=", "go-template-file=", NULL };
static bool plan_no_headers;
static const char *const plan_strategies[] = { "auto", "mig", "time-slicing", "mps", NULL };
static const Option plan_opts[] = {
    { OPT_STRING, 'o', "output", &plan_output, "FORMAT",
      "text (the report), yaml (only the manifests), json, script (applies them), or custom columns of "
      "the groups", plan_formats, NULL },
    { OPT_BOOL, 0, "no-headers", &plan_no_headers, NULL, "with -o custom-columns: the rows without the header line",
      NULL, NULL },
    { OPT_STRING, 0, "window", &plan_window, "DURATION", "usage window (default 7d)", NULL, NULL },
    { OPT_DOUBLE, 0, "percentile", &plan_percentile, "P",
      "percentile of memory and utilization that sizes a workload, 1-100 (default 95)", NULL, NULL },
    { OPT_DOUBLE, 0, "headroom", &plan_headroom, "PERCENT",
      "added to the percentile before sizing, 0-100 (default 10)", NULL, NULL },
    { OPT_STRING, 0, "strategy", &plan_strategy, "STRATEGY",
      "auto (fewest GPUs, ties to stronger isolation), mig, time-slicing or mps", plan_strategies, NULL },
    { OPT_BOOL, 0, "quotas", &plan_quotas, NULL,
      "also emit a ResourceQuota per changed namespace (running + pending + rolling-update surge)", NULL, NULL },
    { OPT_STRING, 0, "price", &plan_price, "MODEL=USD_PER_HOUR,...",
      "price of a GPU-hour per product (e.g. A100-SXM4-80GB=2.5): the savings in money", NULL, NULL },
    { OPT_BOOL, 0, "require-metrics", &plan_require_metrics, NULL,
      "exit 1 when no metrics source answers", NULL, NULL },
    OPT_END_MARK
};

/* ------------------------------------------------------------------ run */

static int usage_err(Error *err, const char *msg)
{
    error_set(err, "%s", msg);
    return EXIT_USAGE;
}

static int run_plan_format(GlobalOptions *g, OutputFormat fmt, CustomColumns *columns, Error *err);

static int run_plan(int argc, char **argv, GlobalOptions *g, Error *err)
{
    (void)argc; (void)argv;
    static const OutputFormat allowed[] = { OUT_TEXT, OUT_YAML, OUT_JSON, OUT_SCRIPT, OUT_COLUMNS };
    OutputFormat fmt;
    if (output_format_parse(plan_output, allowed, 5, &fmt, "plan") < 0) return EXIT_USAGE;
    if (fmt == OUT_DEFAULT) fmt = OUT_TEXT;
    CustomColumns *columns = NULL;             /* -o custom-columns: parsed before the load */
    if (fmt == OUT_COLUMNS && !(columns = custom_columns_new(plan_output, err))) return EXIT_USAGE;
    int rc = run_plan_format(g, fmt, columns, err);
    custom_columns_free(columns);
    return rc;
}

static int run_plan_format(GlobalOptions *g, OutputFormat fmt, CustomColumns *columns, Error *err)
{
    double window_s = 0;
    if (!plan_window || !util_duration_parse(plan_window, &window_s) || !(window_s >= 60))
        return usage_err(err, "--window must be a duration of at least 1m (e.g. 7d, 24h, 90m)");
    if (!(plan_percentile >= 1 && plan_percentile <= 100))
        return usage_err(err, "--percentile must be between 1 and 100");
    if (!(plan_headroom >= 0 && plan_headroom <= 100))
        return usage_err(err, "--headroom must be a percentage between 0 and 100");
    PlanChoice choice;
    if (!plan_choice_parse(plan_strategy, &choice))
        return usage_err(err, "--strategy must be auto, mig, time-slicing or mps");

    if (g->namespace_explicit && !g->all_namespaces)   /* nodes are shared: say -n changes nothing */
        fprintf(stderr, "warning: -n %s is not applied: plan packs the workloads of every namespace on the "
                        "selected nodes (select nodes with -l)\n", g->namespace_);
    CmdCluster cc;
    LoadRequest rq = { .nodes = true, .pods = true, .daemonsets = true, .clusterpolicy = true, .configmaps = true,
                       .services = !g->no_metrics && !g->prometheus, .node_selector = g->selector };
    PriceList prices;
    if (price_list_parse(&prices, plan_price, err) < 0) return EXIT_USAGE;
    if (cmd_load_cluster(&cc, g, &rq, true, err) < 0) { price_list_clear(&prices); return EXIT_FAIL; }
    cluster_seal_strings(&cc.cluster);                  /* read once: its pool's tables go */
    Cluster *c = &cc.cluster;
    if (cmd_price_check(c, plan_price, err) < 0) {       /* a MODEL no node has: as a bad -o */
        cmd_cluster_release(&cc);
        price_list_clear(&prices);
        return EXIT_USAGE;
    }

    /* usage per workload over the window */
    UsageData usage;
    WorkloadUsage *wu = NULL;
    size_t nwu = 0;
    MetricsQuery q = { window_s, 5, plan_percentile, true, false, false };
    metrics_collect(&usage, &g->source, cc.api, c, &q, &wu, &nwu);
    if (cc.api) apiclient_free(cc.api);      /* the plan reads nothing more: its connection and */
    cc.api = NULL;                           /* transfer buffers go before the plan is made */
    if (cmd_metrics_outcome(usage.source, usage.detail, g, plan_require_metrics, err) < 0) {
        workload_usage_free(wu, nwu);
        usage_clear(&usage);
        cmd_cluster_release(&cc);
        price_list_clear(&prices);
        return EXIT_FAIL;
    }
    PlanRunOptions o = { plan_window, window_s, plan_percentile, plan_headroom, choice, plan_strategy, plan_quotas,
                         plan_price ? &prices : NULL, g->selector, plan_yaml_text };
    PlanRun run;
    int rc = plan_run_build(&run, c, &usage, wu, nwu, &o, err) < 0 ? EXIT_FAIL : EXIT_OK;
    if (rc == EXIT_OK && (columns ? plan_print_columns(&run, columns, plan_no_headers, err)
                                  : plan_render(&run, cmd_render_format(fmt), g->color)))
        rc = EXIT_FAIL;
    plan_run_release(&run);
    cmd_cluster_release(&cc);
    price_list_clear(&prices);
    return rc;
}

const Command cmd_plan = {
    .name = "plan",
    .summary = "Recommend MIG layouts or time-slicing/MPS replicas from observed usage, with manifests",
    .usage = "kubectl gpu plan [-l SEL] [--window 7d] [--percentile 95] [--headroom 10] [--quotas] "
             "[--strategy auto|mig|time-slicing|mps] [-o text|yaml|json|script]\n"
             "       [-o custom-columns=HEADER:PATH,...|custom-columns-file=FILE] [--no-headers]",
    .description =
        "Groups the GPU nodes (-l selects them) by product and profiles every GPU workload running\n"
        "there — pods grouped by owner (Deployment, StatefulSet, Job, or the bare pod), so restarted\n"
        "pods count once — from DCGM metrics through Prometheus: the --percentile of memory and\n"
        "utilization over --window, grown by --headroom percent.  Per group it recommends the\n"
        "strategy that needs the fewest GPUs: a MIG layout (valid for the model's profiles and\n"
        "placement rules, packed onto the fewest GPUs), or a time-slicing / MPS replica count that\n"
        "is safe for the worst co-located workloads; ties go to MIG, then time-slicing (MPS only with\n"
        "measured peaks inside its per-client limit), and a group where nothing frees a GPU is left\n"
        "alone.  It starts from what the cluster runs (the ClusterPolicy's MIG strategy and\n"
        "ConfigMaps, node labels, the device plugin's version): the emitted ConfigMaps are the ones in\n"
        "use plus the plan's configs, MPS is never proposed with the mixed strategy (nor mixed while\n"
        "any node runs MPS), a shared node counts all its GPUs unless packed allocation (device\n"
        "plugin v0.20+) is set, only MIG layout changes drain.  The isolation trade-off, the risks,\n"
        "the changes in order (Changes), the pending pods that would fit (what-if) and the new\n"
        "request of every workload are stated.\n"
        "Without metrics the requests stand in, and every output says so.  -n is not applied (the\n"
        "nodes' GPUs are shared by every namespace; a warning says so): select nodes with -l.\n"
        "-o yaml prints only the manifests (device-plugin ConfigMap, mig-parted ConfigMap, and with\n"
        "--quotas ResourceQuotas), each accepted by 'kubectl apply -f -'; -o script prints a bash\n"
        "script, pinned to this context and API server (run it with --context NAME to override),\n"
        "that applies them and reconfigures node by node, for you to review and run.  The plan itself\n"
        "never changes the cluster.  -o custom-columns=HEADER:PATH,... (or custom-columns-file=FILE)\n"
        "prints one row per group of -o json (.product, .strategy, .gpusAfter, .workloads[*].name).",
    .examples = "  kubectl gpu plan\n  kubectl gpu plan -l nvidia.com/gpu.product=NVIDIA-A100-SXM4-80GB --window 14d\n"
                "  kubectl gpu plan --strategy time-slicing -o json\n  kubectl gpu plan -o yaml | kubectl apply --dry-run=server -f -\n"
                "  kubectl gpu plan -o script > plan.sh && less plan.sh && bash plan.sh\n",
    .options = plan_opts,
    .min_args = 0, .max_args = 0,
    .run = run_plan,
};


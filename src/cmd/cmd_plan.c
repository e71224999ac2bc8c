/* cmd_plan.c — `kubectl gpu plan`: turn observed GPU usage into a sharing configuration (MIG
 * layouts, time-slicing / MPS replicas) and the manifests and script that apply it.
 *
 * Loads the selected nodes and every pod (the workloads), the GPU DaemonSets (the operator's
 * namespace) and the ClusterPolicy; collects per-workload usage over --window at --percentile
 * (metrics_collect with want_workloads; requests stand in without metrics, and every output
 * says so); builds one PlanResult (analysis/plan.c) and its manifests (analysis/manifests.c),
 * and renders them as the text report, JSON (the contract's keys), YAML (only the manifests,
 * multi-document) or a reviewed bash script.  Nothing is written to the cluster.
 */
#include "analysis/allocation.h"
#include "sources/apiclient.h"
#include "cmd/cmd_common.h"
#include "cmd/commands.h"
#include "util/error.h"
#include "sources/loader.h"
#include "analysis/manifests.h"
#include "analysis/groups.h"
#include "sources/metrics.h"
#include "analysis/plan.h"
#include "analysis/plan_warnings.h"
#include "render/plan_report.h"
#include "render/custom_columns.h"
#include "render/render.h"
#include "util/strmap.h"
#include "render/table.h"
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *plan_output;
static const char *plan_window = "7d";
static double plan_percentile = 95;
static double plan_headroom = 10;
static const char *plan_strategy = "auto";
static bool plan_quotas;
static bool plan_require_metrics;
static const char *plan_price;
static const char *const plan_formats[] = { "text", "yaml", "json", "script", "custom-columns=",
                                             "custom-columns-file=", NULL };
static bool plan_no_headers;
static CustomColumns *plan_columns;        /* -o custom-columns: parsed before the load */
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
      "price per GPU-hour per product (GFD name or short, e.g. A100-SXM4-80GB=2.5): the savings in money", NULL, NULL },
    { OPT_BOOL, 0, "require-metrics", &plan_require_metrics, NULL,
      "exit 1 when no metrics source answers (else a --prometheus that fails is a warning)", NULL, NULL },
    OPT_END_MARK
};

/* ------------------------------------------------------------------ run */

static int usage_err(Error *err, const char *msg)
{
    error_set(err, "%s", msg);
    return EXIT_USAGE;
}

static int run_plan_format(GlobalOptions *g, OutputFormat fmt, Error *err);

static int run_plan(int argc, char **argv, GlobalOptions *g, Error *err)
{
    (void)argc; (void)argv;
    static const OutputFormat allowed[] = { OUT_TEXT, OUT_YAML, OUT_JSON, OUT_SCRIPT, OUT_COLUMNS };
    OutputFormat fmt;
    if (output_format_parse(plan_output, allowed, 5, &fmt, "plan") < 0) return EXIT_USAGE;
    if (fmt == OUT_DEFAULT) fmt = OUT_TEXT;
    custom_columns_free(plan_columns);
    plan_columns = NULL;
    if (fmt == OUT_COLUMNS && !(plan_columns = custom_columns_new(plan_output, err))) return EXIT_USAGE;
    int rc = run_plan_format(g, fmt, err);
    custom_columns_free(plan_columns);
    plan_columns = NULL;
    return rc;
}

static int run_plan_format(GlobalOptions *g, OutputFormat fmt, Error *err)
{
    double window_s = 0;
    if (!plan_window || !duration_parse(plan_window, &window_s) || !(window_s >= 60))
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
    if (cmd_load_cluster(&cc, g, &rq, true, err) < 0) { price_list_free(&prices); return EXIT_FAIL; }
    Cluster *c = &cc.cluster;
    ApiClient *api = cc.api;

    PlanRun run;
    memset(&run, 0, sizeof run);
    run.window = plan_window;
    run.window_s = window_s;
    run.percentile = plan_percentile;
    run.headroom = plan_headroom;
    run.context = xstrdup(c->context);
    run.server = xstrdup(c->server);
    run.quotas = plan_quotas;
    run.prices = plan_price ? &prices : NULL;
    plan_current_init(&run.cur, c);
    for (size_t i = 0; i < c->warnings.n; i++) strvec_push(&run.warnings, c->warnings.v[i]);

    /* the operator's namespace, as `status` finds it */
    GpuStatus st;
    status_build(&st, c, NULL, NULL);
    run.operator_ns = xstrdup(c->cp.operator_ns ? c->cp.operator_ns : st.operator_ns ? st.operator_ns : "gpu-operator");
    status_free(&st);
    run.clusterpolicy = xstrdup(c->clusterpolicy_name);

    /* usage per workload over the window */
    UsageData usage;
    WorkloadUsage *wu = NULL;
    size_t nwu = 0;
    MetricsQuery q = { window_s, 5, plan_percentile, true };
    metrics_collect(&usage, &g->source, api, c, &q, &wu, &nwu);
    bool metrics_missing = cmd_metrics_outcome(usage.source, usage.detail, g, plan_require_metrics, err) < 0;
    run.metrics_source = xstrdup(usage.source ? usage.source : "none");
    run.metrics_detail = xstrdup(usage.detail ? usage.detail : "");
    for (size_t i = 0; i < usage.warnings.n; i++) strvec_push(&run.warnings, usage.warnings.v[i]);
    bool metrics = str_eq(usage.source, "prometheus") && usage.windowed && nwu > 0;
    if (metrics) {
        run.usage_line = xasprintf("%s; per workload the p%g and the peak of GPU memory and utilization "
                                   "over %s, the largest of its pods", run.metrics_detail, plan_percentile, plan_window);
    } else {
        const char *why = str_eq(usage.source, "none") ? run.metrics_detail
                        : str_eq(usage.source, "dcgm") ? "the DCGM exporters give instant values only, not a window"
                        : "the metrics have no per-pod GPU series over the window (is the DCGM exporter's pod mapping on?)";
        run.from_requests = true;
        run.usage_line = xasprintf("no usage metrics (%s). Requests stand in: a whole GPU counts as all its "
                                   "memory and compute, a MIG device as its profile, a shared replica as "
                                   "1/replicas of the GPU — the plan can repack what is held but not shrink it",
                                   why);
    }

    const Node **nodes = xcalloc(c->nnodes ? c->nnodes : 1, sizeof *nodes);
    size_t nn = 0;
    for (size_t i = 0; i < c->nnodes; i++) if (node_is_gpu_node(&c->nodes[i])) nodes[nn++] = &c->nodes[i];
    nn = plan_leave_out_dra(c, nodes, nn, &run.warnings);
    plan_input_build(&run.in, c, nodes, nn, wu, nwu, metrics);
    workloads_free(wu, nwu);
    usage_free(&usage);
    for (size_t i = 0; i < run.in.warnings.n; i++) strvec_push(&run.warnings, run.in.warnings.v[i]);
    if (run.in.pods_elsewhere && !(g->selector && *g->selector))
        strvec_pushf(&run.warnings, "%zu GPU pod%s on nodes without GPU labels not planned", run.in.pods_elsewhere,
                     run.in.pods_elsewhere == 1 ? "" : "s");
    run.node_pods = strmap_new();
    for (size_t i = 0; i < run.in.n; i++) {
        uintptr_t v = (uintptr_t)strmap_get(run.node_pods, run.in.w[i].node);
        strmap_put(run.node_pods, run.in.w[i].node, (void *)(v ? v + 1 : 2));
    }

    PlanOptions po = { .choice = choice, .headroom_pct = plan_headroom, .cur = &run.cur,
                       .cluster_nodes = c->nodes, .ncluster_nodes = c->nnodes };
    /* -l hides the other nodes, which a cluster-wide MIG strategy change reaches too: an MPS
     * config in the device-plugin ConfigMap in use may run on them */
    Strbuf unseen = STRBUF_INIT;
    for (size_t i = 0; g->selector && *g->selector && run.cur.dp_map && i < c->ndpconfigs; i++)
        if (c->dpconfigs[i].strategy == SHARING_MPS && str_eq(c->dpconfigs[i].name, run.cur.dp_map))
            strbuf_addf(&unseen, "%s%s", unseen.len ? ", " : "", c->dpconfigs[i].key);
    char *unseen_mps = unseen.len ? xasprintf("nodes outside -l %s that run the MPS config%s %s of ConfigMap %s",
                                              g->selector, strchr(strbuf_str(&unseen), ',') ? "s" : "",
                                              strbuf_str(&unseen), run.cur.dp_map) : NULL;
    strbuf_free(&unseen);
    po.unseen_mps = unseen_mps;
    plan_build(nodes, nn, run.in.w, run.in.n, &po, &run.r);
    free(unseen_mps);
    free(nodes);
    for (size_t i = 0; i < run.r.warnings.n; i++) strvec_push(&run.warnings, run.r.warnings.v[i]);
    if (nn == 0)
        strvec_push(&run.warnings, g->selector && *g->selector ? "no GPU nodes match the selector"
                                                                : "the cluster has no GPU nodes");

    char *plan_ann = xasprintf("window=%s percentile=%g headroom=%g strategy=%s gpusBefore=%d gpusAfter=%d",
                               plan_window, plan_percentile, plan_headroom, plan_strategy,
                               run.r.gpus_before, run.r.gpus_after);
    char *usage_ann = run.from_requests ? xstrdup("requests (no usage metrics: the plan only repacks what is held)")
                                        : xasprintf("metrics: %s", run.metrics_detail);
    ManifestOptions mo = { .operator_namespace = run.operator_ns, .cur = &run.cur, .quotas = plan_quotas,
                           .plan_annotation = plan_ann,
                           .usage_annotation = usage_ann, .yaml_text = plan_yaml_text };
    int rc = metrics_missing ? EXIT_FAIL : EXIT_OK;
    if (rc == EXIT_OK && manifests_build(&run.r, run.in.w, c, &mo, &run.m) != 0) {
        error_set(err, "could not render the device-plugin / mig-parted config files as YAML");
        rc = EXIT_FAIL;
    }
    free(plan_ann);
    free(usage_ann);
    if (rc == EXIT_OK) {
        for (size_t i = 0; i < run.m.warnings.n; i++) strvec_push(&run.warnings, run.m.warnings.v[i]);
        if (run.m.blocked) strvec_pushf(&run.warnings, "NOT SAFE TO APPLY: %s", run.m.blocked);
        plan_actions_build(&run.actions, &run.r, &run.m, &run.cur, run.node_pods);
        bool cp_needed = false;
        for (size_t i = 0; i < run.actions.n; i++) cp_needed |= run.actions.v[i].kind == ACT_CONFIGMAP;
        if (cp_needed && !run.cur.clusterpolicy)
            strvec_push(&run.warnings, "no ClusterPolicy found: point the device plugin (Helm value config.name) and "
                                       "the MIG manager at the emitted ConfigMaps yourself");
        plan_mig_single_warnings(c, &run.r, run.in.w, run.in.n, &run.warnings);
        plan_whatif(&run.whatif, c, &run.r, run.in.w);
        run.whatif_done = true;
    }

    if (rc == EXIT_OK && fmt == OUT_COLUMNS) {
        if (plan_print_columns(&run, plan_columns, plan_no_headers)) rc = EXIT_FAIL;
    } else if (rc == EXIT_OK && plan_render(&run, cmd_render_format(fmt), g->color)) {
        rc = EXIT_FAIL;
    }
    plan_run_release(&run);
    cmd_cluster_release(&cc);
    price_list_free(&prices);
    return rc;
}

const Command command_plan = {
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


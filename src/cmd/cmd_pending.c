/* cmd_pending.c — `kubectl gpu pending`: every Pending pod that requests a GPU, with its verdict.
 *
 * Flags, the load (nodes, pods of every namespace, events, quotas: free GPUs on a node depend
 * on the pods of every namespace; -n/-A only choose which pending pods are listed) and the one
 * presentation, render/pending.c; -w through the watch loop.
 */
#include "cmd/cmd_common.h"
#include "cmd/commands.h"
#include "cmd/fleet.h"
#include "cmd/watch_loop.h"
#include "render/custom_columns.h"
#include "render/pending.h"
#include "render/pending_view.h"
#include "analysis/explain.h"
#include "sources/loader.h"
#include "util/error.h"
#include <stdlib.h>
#include <string.h>

static const char *pending_output;
static bool pending_all_nodes;
static bool pending_watch;
static bool pending_watch_events;
static bool pending_no_headers;
static const char *pending_sort_by;
static const char *const pending_formats[] = { "table", "wide", "json", "yaml", "name", "custom-columns=",
                                                "custom-columns-file=",
    "jsonpath=", "jsonpath-file=", "go-template=", "go-template-file=", NULL };
static const Option pending_opts[] = {
    { OPT_STRING, 'o', "output", &pending_output, "FORMAT", "output format", pending_formats, NULL },
    { OPT_BOOL, 0, "all-nodes", &pending_all_nodes, NULL,
      "list every node per pod in -o json/yaml, not only the nodes nearest to holding it", NULL, NULL },
    { OPT_BOOL, 0, "no-headers", &pending_no_headers, NULL, "print the table's rows without the header line", NULL, NULL },
    { OPT_STRING, 0, "sort-by", &pending_sort_by, "FIELD",
      "sort the pods by .metadata.namespace, .metadata.name, .metadata.creationTimestamp (oldest first), "
      ".spec.priority, .verdict, or any JSONPath into a pod of -o json", NULL, "sort:pending" },
    { OPT_BOOL, 'w', "watch", &pending_watch, NULL,
      "after the first table, print the rows that change: added, changed, gone (list then watch; Ctrl-C stops)",
      NULL, NULL },
    { OPT_BOOL, 0, "output-watch-events", &pending_watch_events, NULL,
      "with -w, an EVENT column first: ADDED, MODIFIED or DELETED (as kubectl get)", NULL, NULL },
    OPT_END_MARK
};

/* The analysis each output needs, chosen here and handed to render/pending.h: JSON/YAML and
 * custom columns unsorted and unfiltered are written a pod at a time as they are explained;
 * the table (sorted by a named field or not at all) needs only the rows (no fixes, slimmed);
 * the rest the full explanations.  0, -1 (output or a custom column's path, err set), -2 with
 * err set on a bad -l or a --sort-by path no pod has a value at. */
/* pending GPU pods outside ns (none listed in ns: said with the -A that lists them) */
static size_t pending_elsewhere(const Cluster *c, const char *ns)
{
    size_t n = 0;
    for (size_t i = 0; ns && i < c->npods; i++)
        if (pod_is_pending_unbound(&c->pods[i]) && strcmp(c->pods[i].ns, ns) != 0) n++;
    return n;
}

static int pending_show_view(const Cluster *c, const PendingView *cv, Error *out_err)
{
    PendingView view = *cv;
    view.elsewhere = pending_elsewhere(c, cv->ns);
    const PendingView *v = &view;
    const char *ns = v->ns;
    RenderFormat fmt = v->fmt;
    size_t max_nodes = pending_max_nodes(v);
    bool selected = v->selector && *v->selector;
    bool doc = !v->columns && (fmt == RENDER_JSON || fmt == RENDER_YAML);
    if (doc && !v->sort_by && !selected) {                   /* streamed */
        PendingStream *s = pending_stream_begin(ns, NULL, max_nodes, fmt == RENDER_YAML);
        if (!s) return -1;
        explain_pending_each(c, ns, pending_stream_pod, s);
        return pending_stream_end(s, &c->warnings);
    }
    if (v->columns && !v->sort_by && !selected) {            /* a row per pod as it is explained */
        PendingColumns pc = { .cc = v->columns, .max_nodes = max_nodes };
        explain_pending_each(c, ns, pending_columns_add, &pc);
        if (pc.err.set) { *out_err = pc.err; return -1; }
        return pending_columns_print(&pc, ns, v->elsewhere, v->no_headers);
    }
    ExplanationList l = { 0 };
    bool table = !v->columns && (fmt == RENDER_TEXT || fmt == RENDER_WIDE || fmt == RENDER_NAME);
    if (table && !pending_sort_is_path(v->sort_by)) explain_pending_rows(c, ns, &l);
    else explain_pending(c, ns, &l);
    int rc = 0;
    Error err = { 0 };
    if (pending_sort(&l, v->sort_by, max_nodes) < 0) {
        error_set(out_err, "--sort-by: unknown field \"%s\": no pod of -o json has a value there (pending sorts by "
                  "%s, or any JSONPath into a pod)", v->sort_by, pending_sort_fields_help);
        rc = -2;
    } else if (pending_filter_labels(&l, v->selector, &err) < 0) {
        error_set(out_err, "-l: %s", err.msg);
        rc = -2;
    } else {
        rc = pending_render(&l, &c->warnings, v, out_err);
    }
    explanation_list_clear(&l);
    return rc;
}

/* pending -w: one picture per change (watch_loop.h) */
typedef struct { PendingView view; Error *err; } PendingWatch;

static int pending_show(void *ctx, Cluster *c, struct ApiClient *api, bool first)
{
    PendingWatch *pw = ctx;
    (void)api;
    pw->view.warnings = first;
    return pending_show_view(c, &pw->view, pw->err);
}

static int run_pending(int argc, char **argv, GlobalOptions *g, Error *out_err);
static const FleetCommand pending_fleet = { "pending", FLEET_PENDING, &pending_output, &pending_no_headers,
                                            run_pending, NULL };

static int run_pending(int argc, char **argv, GlobalOptions *g, Error *out_err)
{
    if (fleet_wanted(g)) {                     /* --contexts, --all-contexts: cmd/fleet.h */
        if (pending_watch) {
            error_set(out_err, "-w: not with --contexts or --all-contexts");
            return EXIT_USAGE;
        }
        return fleet_run(&pending_fleet, argc, argv, g, out_err);
    }
    static const OutputFormat allowed[] = { OUT_TABLE, OUT_WIDE, OUT_JSON, OUT_YAML, OUT_NAME, OUT_COLUMNS };
    OutputFormat fmt;
    if (output_format_parse(pending_output, allowed, 6, &fmt, "pending") < 0) return EXIT_USAGE;
    CustomColumns *columns = NULL;             /* -o custom-columns: parsed before the load */
    if (fmt == OUT_COLUMNS && !(columns = custom_columns_new(pending_output, out_err))) return EXIT_USAGE;
    if (pending_sort_by && !pending_sort_field_known(pending_sort_by)) {
        error_set(out_err, "--sort-by: unknown field \"%s\" (pending sorts by %s)", pending_sort_by,
                  pending_sort_fields_help);
        custom_columns_free(columns);
        return EXIT_USAGE;
    }

    char *ns = NULL;
    if (!g->all_namespaces) {
        ns = loader_default_namespace(&g->source, out_err);
        if (!ns) { custom_columns_free(columns); return EXIT_FAIL; }
    }
    PendingView view = { ns, cmd_render_format(fmt), pending_all_nodes, pending_no_headers, g->color,
                         pending_sort_by, g->selector, true, columns, 0 };
    /* the ClusterPolicy and device-plugin ConfigMap: a node without a device plugin is judged by
     * what its plugin, as configured, would advertise (explain_node.c) */
    LoadRequest rq = { .nodes = true, .pods = true, .events = true, .quotas = true, .clusterpolicy = true,
                       .configmaps = true,
                       .pods_forbidden_ns = g->namespace_explicit && !g->all_namespaces ? g->namespace_ : NULL,
                       .queues = true };
    int rc;
    if (pending_watch) {
        PendingWatch pw = { view, out_err };
        rc = watch_loop_run_rows(g, "pending", &rq, pending_show, &pw, pending_watch_events, out_err);
    } else {
        CmdCluster cc;
        if (cmd_load_cluster(&cc, g, &rq, false, out_err) < 0) {
            rc = EXIT_FAIL;
        } else {
            cluster_seal_strings(&cc.cluster);          /* read once: its pool's tables go */
            int prc = pending_show_view(&cc.cluster, &view, out_err);
            cmd_cluster_release(&cc);
            rc = prc == -2 ? EXIT_USAGE : prc ? EXIT_FAIL : EXIT_OK;
        }
    }
    free(ns);
    custom_columns_free(columns);
    return rc;
}

const Command cmd_pending = {
    .name = "pending",
    .summary = "List Pending GPU pods and why each one waits",
    .usage = "kubectl gpu pending [-n NS|-A] [-o table|wide|json|yaml|name] [--no-headers] [--sort-by FIELD]\n"
             "       [-o custom-columns=HEADER:PATH,...|custom-columns-file=FILE] [-w [--output-watch-events]]\n"
             "       [--all-nodes]",
    .description =
        "Lists every Pending pod that requests a GPU resource (nvidia.com/gpu, nvidia.com/gpu.shared,\n"
        "nvidia.com/mig-*, ...) or asks for GPUs through DRA ResourceClaims (GPUS then shows the\n"
        "device classes and counts), with a verdict: Insufficient, Fragmented, Taint, Selector,\n"
        "ResourceName, NoDevicePlugin, TooLarge, NotReady, Unschedulable, Quota, Gated or Unknown, and\n"
        "a one-line reason.  Pods that could not be created because a ResourceQuota refused them are\n"
        "listed under their owner as KIND/NAME (not created) with verdict Quota; 'kubectl gpu explain\n"
        "KIND/NAME' takes that name.  These rows are owners, not pods: the pending count of 'kubectl gpu\n"
        "status' counts pods and names the owners beside it.  Work waiting in a Kueue, Volcano or KAI\n"
        "queue is one row per workload (KIND Workload or PodGroup, NAME its owner, QUEUE its queue)\n"
        "with verdict Queued, QueueQuota, QueueInactive or Gang; its pods are not listed again (man\n"
        "page: BATCH QUEUES).  The verdict is recomputed from the cluster's nodes and pods; when the\n"
        "scheduler's own message disagrees, the reason says so.\n"
        "Pods already bound to a node (Pending while their containers start) are not listed.  On a\n"
        "terminal REASON is cut to the width; -o wide prints it whole and adds PRIORITY and whether\n"
        "the scheduler's message agrees.  Identical waiting pods (the same owner, requests, verdict\n"
        "and reason, as a Job's queue) are one row, NAME KIND/OWNER (N pods) and AGE the oldest's;\n"
        "-o wide, json and yaml list every pod.  Per pod, -o json and yaml list the 10 nodes nearest\n"
        "to holding it (those that could hold it first) and nodeCounts, how many nodes fit now, admit\n"
        "the pod and could hold it, are excluded by its constraints, or could never hold it;\n"
        "--all-nodes lists every node.  Use 'kubectl gpu explain POD' for the details and fixes.\n"
        "-w lists once, then watches and, as 'kubectl get -w', prints the rows that changed, were\n"
        "added or went (their last state); --output-watch-events adds kubectl's EVENT column\n"
        "(ADDED, MODIFIED, DELETED).  Ctrl-C stops.\n"
        "As with kubectl get: -o name prints pod/NAME per pod (kind/NAME for an owner whose pods\n"
        "were not created, workload/NAME or podgroup/NAME for a queue's workload; with -A\n"
        "pod/NS/NAME, which explain takes back), --no-headers drops the header line, --sort-by\n"
        "orders the pods, and\n"
        "-o custom-columns=HEADER:PATH,... (or custom-columns-file=FILE) prints one row per pod of\n"
        "-o json, each PATH a JSONPath into it such as .name, .verdict or .nodes[*].name.\n"
        "Exits 0 whether or not pods wait; when none is listed, stderr says so (and how many wait in\n"
        "other namespaces), as kubectl's \"No resources found\".",
    .examples = "  kubectl gpu pending\n  kubectl gpu pending -A\n  kubectl gpu pending -A -o wide\n  kubectl gpu pending -A -o json\n"
                "  kubectl gpu pending -A -o custom-columns=NAMESPACE:.namespace,POD:.name,VERDICT:.verdict\n"
                "  kubectl gpu pending --snapshot cluster.json -A\n",
    .options = pending_opts,
    .min_args = 0, .max_args = 0,
    .run = run_pending,
};

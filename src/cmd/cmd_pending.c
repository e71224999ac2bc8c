/* cmd_pending.c — `kubectl gpu pending`: every Pending pod that requests a GPU, with its verdict.
 *
 * One ExplanationList (analysis/explain.c) is rendered as a table, or as YAML through one
 * cJSON tree.  JSON is written one pod at a time (explain_pending_each) through the JSON
 * writer (render/json_writer.h), in exactly the text render_json gives the whole document:
 * a queue's explanations together would not fit in memory at once, and a large cluster's list would not fit in memory at once.  All pods are loaded whatever -n says:
 * free GPUs on a node depend on the pods of every namespace; -n/-A only choose which pending
 * pods are listed.
 */
#include "cmd/commands.h"
#include "util/error.h"
#include "analysis/explain.h"
#include "render/render_explain.h"
#include "sources/loader.h"
#include "cmd/watch_loop.h"
#include "render/render.h"
#include "render/json_writer.h"
#include "util/strmap.h"
#include "render/table.h"
#include "cmd/pending_view.h"
#include "render/custom_columns.h"
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

static const char *pending_output;
static bool pending_all_nodes;
static bool pending_watch;
static bool pending_no_headers;
static const char *pending_sort_by;
static const char *const pending_formats[] = { "table", "wide", "json", "yaml", "name", "custom-columns=",
                                                "custom-columns-file=", NULL };
static CustomColumns *pending_columns;     /* -o custom-columns: parsed before the load */
static const Option pending_opts[] = {
    { OPT_STRING, 'o', "output", &pending_output, "FORMAT", "output format", pending_formats, NULL },
    { OPT_BOOL, 0, "all-nodes", &pending_all_nodes, NULL,
      "list every node per pod in -o json/yaml, not only the nodes nearest to holding it", NULL, NULL },
    { OPT_BOOL, 0, "no-headers", &pending_no_headers, NULL, "print the table's rows without the header line", NULL, NULL },
    { OPT_STRING, 0, "sort-by", &pending_sort_by, "FIELD",
      "sort the pods by .metadata.namespace, .metadata.name, .metadata.creationTimestamp (oldest first), "
      ".spec.priority, .verdict, or any JSONPath into a pod of -o json", NULL, NULL },
    { OPT_BOOL, 'w', "watch", &pending_watch, NULL,
      "after the first table, print a new one each time it changes (list then watch; Ctrl-C stops)",
      NULL, NULL },
    OPT_END_MARK
};

/* Rows of `pending`.  Owners whose pods a ResourceQuota refused are rows too ("KIND/NAME (not
 * created)"); `status` counts pods only and names those owners beside its count.  On a terminal
 * REASON is cut to the width with an ellipsis; -o wide or a pipe prints it whole, and wide adds
 * PRIORITY and whether the scheduler's message agrees. */
/* Identical waiting pods — the same owner, the same requests, the same verdict and reason —
 * are one row of the narrow table (a Job's queue of 1,500 pods is one line): NAME is
 * "KIND/OWNER (N pods)", AGE the oldest pod's.  A row stands where its first pod (by name)
 * would; pods without an owner and owners not created are never grouped.  -o wide and the
 * JSON/YAML list every pod. */
/* groups[i]: how many pods row i stands for (0: folded into an earlier row); *oldest: the
 * group's largest age */
static size_t group_rows(const ExplanationList *l, size_t *count, int64_t *oldest)
{
    StrMap *m = strmap_new();
    size_t rows = 0;
    for (size_t i = 0; i < l->n; i++) {
        char *key = explanation_group_key(&l->items[i]);
        size_t first = key ? (size_t)(uintptr_t)strmap_get(m, key) : 0;
        if (first) {
            count[first - 1]++;
            if (l->items[i].age > oldest[first - 1]) oldest[first - 1] = l->items[i].age;
            count[i] = 0;
        } else {
            if (key) strmap_put(m, key, (void *)(uintptr_t)(i + 1));
            count[i] = 1;
            oldest[i] = l->items[i].age;
            rows++;
        }
        free(key);
    }
    strmap_free(m, NULL);
    return rows;
}

static void print_table(const ExplanationList *l, const char *ns, bool wide, bool color)
{
    if (l->n == 0) {
        if (ns) printf("No pending GPU pods in namespace %s.\n", ns);
        else printf("No pending GPU pods.\n");
        return;
    }
    size_t *count = xcalloc(l->n, sizeof *count);
    int64_t *oldest = xcalloc(l->n, sizeof *oldest);
    if (wide) {
        for (size_t i = 0; i < l->n; i++) { count[i] = 1; oldest[i] = l->items[i].age; }
    } else {
        group_rows(l, count, oldest);
    }
    static const char *const headers[] = { "NAMESPACE", "NAME", "GPUS", "AGE", "VERDICT", "PRIORITY", "SCHEDULER", "REASON" };
    static const char *const narrow[] = { "NAMESPACE", "NAME", "GPUS", "AGE", "VERDICT", "REASON" };
    size_t ncols = wide ? 8 : 6;
    char **cells = xcalloc(l->n * ncols, sizeof *cells);
    for (size_t i = 0; i < l->n; i++) {
        const Explanation *e = &l->items[i];
        if (!count[i]) continue;
        char **row = &cells[i * ncols];
        size_t k = 0;
        row[k++] = xstrdup(e->ns);
        row[k++] = !e->created ? xasprintf("%s/%s (not created)", e->owner_kind ? e->owner_kind : "owner", e->name)
                   : count[i] > 1 ? xasprintf("%s/%s (%zu pods)", e->owner_kind, e->owner_name, count[i])
                   : xstrdup(e->name);
        row[k++] = explanation_gpus(e);
        char age[16] = "<unknown>";
        if (oldest[i] >= 0) format_age(oldest[i], age, sizeof age);
        row[k++] = xstrdup(age);
        row[k++] = xstrdup(verdict_name(e->verdict));
        if (wide) {
            row[k++] = e->pod ? xasprintf("%d", e->pod->priority) : xstrdup("-");
            row[k++] = xstrdup(!e->sched_text ? "-" : e->agrees ? "agrees" : "disagrees");
        }
        row[k++] = xasprintf("%s%s", e->summary ? e->summary : "", !wide && !e->agrees ? " [scheduler disagrees]" : "");
    }
    Table *t = table_new(wide ? headers : narrow, ncols);
    table_keep_whole(t, wide);
    table_cut_first(t, ncols - 1, 12);          /* on a terminal REASON gives way first */
    for (size_t i = 0; i < l->n; i++) {
        const Explanation *e = &l->items[i];
        if (!count[i]) continue;
        table_add_row(t);
        for (size_t c = 0; c < ncols; c++) {
            if (c == 4) table_cell_color(t, e->verdict == V_GATED || e->verdict == V_UNKNOWN ? C_YELLOW : C_RED, cells[i * ncols + c]);
            else table_cell(t, cells[i * ncols + c]);
            free(cells[i * ncols + c]);
        }
    }
    free(cells);
    free(count);
    free(oldest);
    table_print_rows(t, stdout, color, !pending_no_headers);
    table_free(t);
}

/* Per pod, "nodes" lists the PENDING_NODES nodes nearest to holding it (those that could hold
 * it first; analysis explanation_nodes_that_matter) and "nodeCounts" how many nodes there are
 * of each kind: a queue of 1,500 pods on 1,000 nodes is a few MB, not GB of every node's
 * reasons repeated per pod.  --all-nodes lists every node, as explain -o json does. */
#define PENDING_NODES 10
static size_t pending_max_nodes(void) { return pending_all_nodes ? 0 : PENDING_NODES; }

/* the "nodes" of the pods of one intent (explain_intent.c) are the same text: rendered once,
 * at the depth of a pod's key, and written into each of those pods as raw JSON.  The texts of
 * the last NODES_TEXTS intents are kept (each holding its evaluation, so that no other takes
 * its address): the pods of a few intents come interleaved, by name. */
#define NODES_TEXTS 8
typedef struct { ExplainShared *shared; char *text; size_t listed; } NodesText;
typedef struct { JsonWriter *jw; NodesText texts[NODES_TEXTS]; size_t next; } PodsOut;

static char *render_text(const cJSON *v, int depth)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    int rc = render_json_value(f, v, depth);
    if (fclose(f) != 0 || rc) { free(buf); return NULL; }
    return buf;
}

static int write_pod(void *ctx, Explanation *e)
{
    PodsOut *po = ctx;
    const char *text = NULL;
    size_t listed = 0;
    for (size_t i = 0; e->shared && i < NODES_TEXTS && !text; i++)
        if (po->texts[i].shared == e->shared) { text = po->texts[i].text; listed = po->texts[i].listed; }
    if (e->shared && !text) {
        NodesText *t = &po->texts[po->next++ % NODES_TEXTS];
        free(t->text);
        explain_shared_unref(t->shared);
        t->shared = explain_shared_ref(e->shared);
        cJSON *nodes = explanation_nodes_json_max(e, pending_max_nodes());
        t->listed = listed = (size_t)cJSON_GetArraySize(nodes);
        t->text = render_text(nodes, 3);      /* a key of a pod in the "pods" array */
        cJSON_Delete(nodes);
        text = t->text;
    }
    cJSON *j;
    if (text) {
        size_t n = e->nnodes;
        e->nnodes = 0;
        j = explanation_to_json_max(e, false, pending_max_nodes());
        e->nnodes = n;
        cJSON_ReplaceItemInObject(j, "nodeCounts", explanation_node_counts_json(e, listed));
        cJSON *raw = cJSON_CreateNull();
        raw->type = cJSON_Raw | cJSON_IsReference;   /* borrowed: cJSON_Delete leaves it */
        raw->valuestring = (char *)text;
        cJSON_ReplaceItemInObject(j, "nodes", raw);
    } else {
        j = explanation_to_json_max(e, false, pending_max_nodes());
    }
    jw_value(po->jw, NULL, j);                   /* an element of the "pods" array */
    cJSON_Delete(j);
    return po->jw->failed ? -1 : 0;
}

/* {"kind", "namespace", "pods": [...], "warnings"} with the pods written as they are explained */
static int print_json(const Cluster *c, const char *ns)
{
    JsonWriter *jw = malloc(sizeof *jw);
    if (!jw) return -1;
    jw_init(jw, stdout);
    jw_object_begin(jw, NULL);
    jw_string(jw, "apiVersion", KGPU_API_VERSION);
    jw_string(jw, "kind", "GPUPending");
    jw_string(jw, "namespace", ns);              /* null with -A */
    jw_array_begin(jw, "pods");
    PodsOut po;
    memset(&po, 0, sizeof po);
    po.jw = jw;
    explain_pending_each(c, ns, write_pod, &po);
    for (size_t i = 0; i < NODES_TEXTS; i++) { free(po.texts[i].text); explain_shared_unref(po.texts[i].shared); }
    jw_end(jw);
    jw_array_begin(jw, "warnings");
    for (size_t i = 0; i < c->warnings.n; i++) jw_string(jw, NULL, c->warnings.v[i]);
    jw_end(jw);
    jw_end(jw);
    int rc = jw_release(jw);
    free(jw);
    return rc;
}

/* the list in fmt; warnings: print the cluster's warnings on stderr (tables).  0, -1 when the
 * output could not be written, -2 with err set on a bad -l. */
static int pending_print(Cluster *c, const char *ns, OutputFormat fmt, const GlobalOptions *g, bool warnings,
                         Error *out_err)
{
    bool selected = g->selector && *g->selector;
    if (fmt == OUT_JSON && !pending_sort_by && !selected) return print_json(c, ns);   /* streamed */
    if (fmt == OUT_COLUMNS && !pending_sort_by && !selected)
        return pending_print_columns(c, ns, NULL, pending_columns, pending_no_headers, pending_max_nodes());
    ExplanationList l = { NULL, 0, 0 };
    bool table = fmt == OUT_TABLE || fmt == OUT_WIDE || fmt == OUT_NAME;
    if (table && !pending_sort_is_path(pending_sort_by)) explain_pending_rows(c, ns, &l);
    else explain_pending(c, ns, &l);
    Error err = { 0 };
    if (pending_sort(&l, pending_sort_by, pending_max_nodes()) < 0) {
        error_set(out_err, "--sort-by: unknown field \"%s\": no pod of -o json has a value there (pending sorts by "
                  "%s, or any JSONPath into a pod)", pending_sort_by, pending_sort_fields_help);
        explanation_list_free(&l);
        return -2;
    }
    if (pending_filter_labels(&l, g->selector, &err) < 0) {
        error_set(out_err, "-l: %s", err.msg);
        explanation_list_free(&l);
        return -2;
    }
    int rc = 0;
    if (table && warnings)
        for (size_t i = 0; i < c->warnings.n; i++) fprintf(stderr, "warning: %s\n", c->warnings.v[i]);
    if (fmt == OUT_COLUMNS) {
        rc = pending_print_columns(c, ns, &l, pending_columns, pending_no_headers, pending_max_nodes());
    } else if (fmt == OUT_NAME) {
        rc = pending_print_names(&l);
    } else if (table) {
        if (selected && warnings)                  /* what -l left out */
            fprintf(stderr, "Showing pods matching -l %s only.\n", g->selector);
        print_table(&l, ns, fmt == OUT_WIDE, g->color);
    } else {
        cJSON *doc = cJSON_CreateObject();
        cJSON_AddStringToObject(doc, "apiVersion", KGPU_API_VERSION);
        cJSON_AddStringToObject(doc, "kind", "GPUPending");
        if (ns) cJSON_AddStringToObject(doc, "namespace", ns);
        else cJSON_AddNullToObject(doc, "namespace");
        if (selected) cJSON_AddStringToObject(doc, "selector", g->selector);
        cJSON *pods = cJSON_AddArrayToObject(doc, "pods");
        for (size_t i = 0; i < l.n; i++)
            cJSON_AddItemToArray(pods, explanation_to_json_max(&l.items[i], false, pending_max_nodes()));
        cJSON *w = cJSON_AddArrayToObject(doc, "warnings");
        for (size_t i = 0; i < c->warnings.n; i++) cJSON_AddItemToArray(w, cJSON_CreateString(c->warnings.v[i]));
        rc = fmt == OUT_JSON ? render_json(stdout, doc) : render_yaml(stdout, doc, false);
        cJSON_Delete(doc);
    }
    explanation_list_free(&l);
    return rc;
}

/* pending -w: one picture per change (watch_loop.h) */
typedef struct { OutputFormat fmt; const char *ns; const GlobalOptions *g; Error *err; } PendingWatch;

static int pending_show(void *ctx, Cluster *c, struct ApiClient *api, bool first)
{
    PendingWatch *pw = ctx;
    (void)api;
    return pending_print(c, pw->ns, pw->fmt, pw->g, first, pw->err);
}

static int run_pending_format(GlobalOptions *g, OutputFormat fmt, Error *out_err);

static int run_pending(int argc, char **argv, GlobalOptions *g, Error *out_err)
{
    (void)argc; (void)argv;
    static const OutputFormat allowed[] = { OUT_TABLE, OUT_WIDE, OUT_JSON, OUT_YAML, OUT_NAME, OUT_COLUMNS };
    OutputFormat fmt;
    if (output_format_parse(pending_output, allowed, 6, &fmt, "pending") < 0) return EXIT_USAGE;
    custom_columns_free(pending_columns);
    pending_columns = NULL;
    if (fmt == OUT_COLUMNS && !(pending_columns = custom_columns_new(pending_output, out_err))) return EXIT_USAGE;
    int rc = run_pending_format(g, fmt, out_err);
    custom_columns_free(pending_columns);
    pending_columns = NULL;
    return rc;
}

static int run_pending_format(GlobalOptions *g, OutputFormat fmt, Error *out_err)
{
    if (pending_sort_by && !pending_sort_field_known(pending_sort_by)) {
        error_set(out_err, "--sort-by: unknown field \"%s\" (pending sorts by %s)", pending_sort_by,
                  pending_sort_fields_help);
        return EXIT_USAGE;
    }

    Error err = { 0 };
    char *ns = NULL;
    if (!g->all_namespaces) {
        ns = loader_default_namespace(&g->source, &err);
        if (!ns) { *out_err = err; return EXIT_FAIL; }
    }
    LoadRequest rq = { .nodes = true, .pods = true, .events = true, .quotas = true };
    if (pending_watch) {
        PendingWatch pw = { fmt, ns, g, out_err };
        int wrc = watch_loop_run(g, "pending", &rq, pending_show, &pw);
        free(ns);
        return wrc;
    }
    Cluster c;
    cluster_init(&c);
    if (cluster_load(&c, &g->source, &rq, NULL, &err) < 0) {
        *out_err = err;
        cluster_free(&c);
        free(ns);
        return EXIT_FAIL;
    }
    int rc = pending_print(&c, ns, fmt, g, true, out_err);
    cluster_free(&c);
    free(ns);
    return rc == -2 ? EXIT_USAGE : rc ? EXIT_FAIL : EXIT_OK;
}

const Command command_pending = {
    .name = "pending",
    .summary = "List Pending GPU pods and why each one waits",
    .usage = "kubectl gpu pending [-n NS|-A] [-o table|wide|json|yaml|name] [--no-headers] [--sort-by FIELD]\n"
             "       [-o custom-columns=HEADER:PATH,...|custom-columns-file=FILE] [-w] [--all-nodes]",
    .description =
        "Lists every Pending pod that requests a GPU resource (nvidia.com/gpu, nvidia.com/gpu.shared,\n"
        "nvidia.com/mig-*, ...) or asks for GPUs through DRA ResourceClaims (GPUS then shows the\n"
        "device classes and counts), with a verdict: Insufficient, Fragmented, Taint, Selector,\n"
        "ResourceName, NoDevicePlugin, TooLarge, NotReady, Unschedulable, Quota, Gated or Unknown, and\n"
        "a one-line reason.  Pods that could not be created because a ResourceQuota refused them are\n"
        "listed under their owner as KIND/NAME (not created) with verdict Quota; 'kubectl gpu explain\n"
        "KIND/NAME' takes that name.  These rows are owners, not pods: the pending count of 'kubectl gpu\n"
        "status' counts pods and names the owners beside it.  The verdict is recomputed from the\n"
        "cluster's nodes and pods; when the scheduler's own message disagrees, the reason says so.\n"
        "Pods already bound to a node (Pending while their containers start) are not listed.  On a\n"
        "terminal REASON is cut to the width; -o wide prints it whole and adds PRIORITY and whether\n"
        "the scheduler's message agrees.  Identical waiting pods (the same owner, requests, verdict\n"
        "and reason, as a Job's queue) are one row, NAME KIND/OWNER (N pods) and AGE the oldest's;\n"
        "-o wide, json and yaml list every pod.  Per pod, -o json and yaml list the 10 nodes nearest\n"
        "to holding it (those that could hold it first) and nodeCounts, how many nodes fit now, admit\n"
        "the pod and could hold it, are excluded by its constraints, or could never hold it;\n"
        "--all-nodes lists every node.  Use 'kubectl gpu explain POD' for the details and fixes.\n"
        "-w lists once, then watches and prints a new table each time it changes, as 'kubectl get\n"
        "-w' does (Ctrl-C stops).\n"
        "As with kubectl get: -o name prints pod/NS/NAME per pod (kind/NS/NAME for an owner whose\n"
        "pods were not created), --no-headers drops the header line, --sort-by orders the pods, and\n"
        "-o custom-columns=HEADER:PATH,... (or custom-columns-file=FILE) prints one row per pod of\n"
        "-o json, each PATH a JSONPath into it such as .name, .verdict or .nodes[*].name.\n"
        "Exits 0 whether or not pods wait.",
    .examples = "  kubectl gpu pending\n  kubectl gpu pending -A\n  kubectl gpu pending -A -o wide\n  kubectl gpu pending -A -o json\n"
                "  kubectl gpu pending -A -o custom-columns=NAMESPACE:.namespace,POD:.name,VERDICT:.verdict\n"
                "  kubectl gpu pending --snapshot cluster.json -A\n",
    .options = pending_opts,
    .min_args = 0, .max_args = 0,
    .run = run_pending,
};

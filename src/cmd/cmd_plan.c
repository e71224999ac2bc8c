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
#include "allocation.h"
#include "apiclient.h"
#include "commands.h"
#include "error.h"
#include "loader.h"
#include "manifests.h"
#include "metrics.h"
#include "plan.h"
#include "render.h"
#include "strmap.h"
#include "table.h"
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
static const char *const plan_formats[] = { "text", "yaml", "json", "script", NULL };
static const char *const plan_strategies[] = { "auto", "mig", "time-slicing", "mps", NULL };
static const Option plan_opts[] = {
    { OPT_STRING, 'o', "output", &plan_output, "FORMAT",
      "text (the report), yaml (only the manifests), json, or script (applies them)", plan_formats, NULL },
    { OPT_STRING, 0, "window", &plan_window, "DURATION", "usage window (default 7d)", NULL, NULL },
    { OPT_DOUBLE, 0, "percentile", &plan_percentile, "P",
      "percentile of memory and utilization that sizes a workload, 1-100 (default 95)", NULL, NULL },
    { OPT_DOUBLE, 0, "headroom", &plan_headroom, "PERCENT",
      "added to the percentile before sizing, 0-100 (default 10)", NULL, NULL },
    { OPT_STRING, 0, "strategy", &plan_strategy, "STRATEGY",
      "auto (fewest GPUs, ties to stronger isolation), mig, time-slicing or mps", plan_strategies, NULL },
    OPT_END_MARK
};

/* everything a renderer needs, built once */
typedef struct {
    const char *window;
    double window_s, percentile, headroom;
    PlanInput in;
    PlanResult r;
    Manifests m;
    char *usage_line;                 /* where usage came from, one sentence */
    bool from_requests;
    char *metrics_source, *metrics_detail;
    char *operator_ns;
    char *clusterpolicy;              /* NULL when the cluster has none */
    char *context;
    Strvec warnings;
    StrMap *node_pods;                /* node -> GPU pods on it now (count + 1) */
} PlanRun;

/* ------------------------------------------------------------------ helpers */

static char *yaml_text(const cJSON *doc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    int rc = render_yaml(f, doc, false);
    if (fclose(f) != 0 || rc != 0) { free(buf); return NULL; }
    return buf;
}

static char *yaml_stream_text(const Manifests *m)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    int rc = m->n ? render_yaml_stream(f, (const cJSON *const *)m->docs, m->n) : 0;
    if (fclose(f) != 0 || rc != 0) { free(buf); return NULL; }
    return buf;
}

static void fmt_mib(char *out, size_t n, int64_t v)
{
    if (v < 0) snprintf(out, n, "-");
    else snprintf(out, n, "%" PRId64, v);
}

static void fmt_pct(char *out, size_t n, double v)
{
    if (v != v) snprintf(out, n, "-");
    else snprintf(out, n, "%.0f", v);
}

static const char *strategy_word(PlanStrategy s)
{
    switch (s) {
    case PLAN_MIG: return "MIG";
    case PLAN_TIME_SLICING: return "time-slicing";
    case PLAN_MPS: return "MPS";
    case PLAN_NONE: break;
    }
    return "none (leave as it is)";
}

/* "3g.40gb + 4x 1g.10gb" */
static char *layout_text(const MigGpuModel *m, const MigLayout *l)
{
    Strbuf sb = STRBUF_INIT;
    for (size_t pass = 0; pass < 8; pass++) {      /* larger profiles first: by compute slices */
        int comp = 7 - (int)pass;
        for (size_t q = 0; q < m->nprofiles; q++) {
            if (!l->counts[q] || m->profiles[q].compute != comp) continue;
            if (sb.len) strbuf_adds(&sb, " + ");
            if (l->counts[q] > 1) strbuf_addf(&sb, "%dx ", l->counts[q]);
            strbuf_adds(&sb, m->profiles[q].name);
        }
    }
    return strbuf_detach(&sb);
}

static char *resources_text(const ResourceList *l)
{
    Strbuf sb = STRBUF_INIT;
    for (size_t i = 0; i < l->n; i++)
        strbuf_addf(&sb, "%s%s: %lld", i ? ", " : "", l->items[i].name, (long long)(l->items[i].milli / 1000));
    if (!sb.len) strbuf_adds(&sb, "-");
    return strbuf_detach(&sb);
}

/* "0-1", "0,2,5-7" */
static char *index_ranges(const PlanNode *pn, int layout)
{
    Strbuf sb = STRBUF_INIT;
    for (int i = 0; i < pn->gpus; i++) {
        if (pn->gpu_layout[i] != layout) continue;
        int j = i;
        while (j + 1 < pn->gpus && pn->gpu_layout[j + 1] == layout) j++;
        if (sb.len) strbuf_addch(&sb, ',');
        if (j > i) strbuf_addf(&sb, "%d-%d", i, j);
        else strbuf_addf(&sb, "%d", i);
        i = j;
    }
    return strbuf_detach(&sb);
}

static const PlanWorkload *gw_workload(const PlanRun *run, const PlanGroup *g, const PlanGroupWorkload *gw)
{
    return &run->in.w[g->assign[gw->first].workload];
}

/* ------------------------------------------------------------------ text */

static void print_group(const PlanRun *run, const PlanGroup *g, bool color)
{
    const char *b = color_start(C_BOLD, color), *e = color_end(C_BOLD, color);
    printf("%s%s%s — %zu node%s (", b, g->product, e, g->nodes.n, g->nodes.n == 1 ? "" : "s");
    for (size_t i = 0; i < g->nodes.n && i < 6; i++) printf("%s%s", i ? ", " : "", g->nodes.v[i]);
    if (g->nodes.n > 6) printf(", +%zu more", g->nodes.n - 6);
    printf("), %d GPU%s", g->physical_gpus, g->physical_gpus == 1 ? "" : "s");
    if (g->gpu_memory_mib > 0) printf(" of %" PRId64 " MiB", g->gpu_memory_mib);
    printf("\n");
    int freed = g->gpus_before - g->gpus_after;
    printf("  GPUs: %d held now -> %d after the plan (%s%d freed%s)\n", g->gpus_before, g->gpus_after,
           freed > 0 ? color_start(C_GREEN, color) : "", freed, freed > 0 ? color_end(C_GREEN, color) : "");
    printf("  Strategy: %s", strategy_word(g->strategy));
    if (g->strategy == PLAN_MIG) printf(" (mixed strategy)");
    if (g->strategy == PLAN_TIME_SLICING || g->strategy == PLAN_MPS)
        printf(", %d replicas per GPU, shared GPUs advertised as nvidia.com/gpu.shared", g->replicas);
    Strbuf cand = STRBUF_INIT;
    if (g->after_mig >= 0) strbuf_addf(&cand, "MIG %d", g->after_mig);
    if (g->after_time_slicing >= 0) strbuf_addf(&cand, "%stime-slicing %d", cand.len ? ", " : "", g->after_time_slicing);
    if (g->after_mps >= 0) strbuf_addf(&cand, "%sMPS %d", cand.len ? ", " : "", g->after_mps);
    if (cand.len) printf("; GPUs needed by each: %s", strbuf_str(&cand));
    strbuf_free(&cand);
    printf("\n");
    if (g->strategy != PLAN_NONE) printf("  Isolation: %s\n", g->tradeoff);

    if (g->strategy == PLAN_MIG && g->model) {
        printf("  MIG layout per GPU:\n");
        for (size_t i = 0; i < g->mig.ngroups; i++) {
            char *t = layout_text(g->model, &g->mig.groups[i].layout);
            printf("    %d GPU%s: %s\n", g->mig.groups[i].gpus, g->mig.groups[i].gpus == 1 ? "" : "s", t);
            free(t);
        }
        int whole = g->gpus_after - g->mig.gpus;
        if (whole > 0) printf("    %d GPU%s: whole (MIG disabled)\n", whole, whole == 1 ? "" : "s");
    }
    if (g->strategy != PLAN_NONE) {
        printf("  Nodes (labels the script sets, resources they advertise after):\n");
        for (size_t j = 0; j < g->nplan_nodes; j++) {
            const PlanNode *pn = &g->plan_nodes[j];
            Strbuf sb = STRBUF_INIT;
            if (g->strategy == PLAN_MIG) {
                if (pn->mig_gpus) {
                    for (int lay = 0; lay < (int)g->mig.ngroups; lay++) {
                        char *ix = index_ranges(pn, lay);
                        if (*ix) {
                            char *t = layout_text(g->model, &g->mig.groups[lay].layout);
                            strbuf_addf(&sb, "%sGPU %s: %s", sb.len ? "; " : "", ix, t);
                            free(t);
                        }
                        free(ix);
                    }
                }
                char *ix = index_ranges(pn, -1);
                if (*ix) strbuf_addf(&sb, "%sGPU %s: whole", sb.len ? "; " : "", ix);
                free(ix);
            } else {
                strbuf_addf(&sb, "%d GPU%s %s", pn->gpus, pn->gpus == 1 ? "" : "s",
                            pn->shared ? "shared" : "whole");
            }
            if (pn->gpus <= 0) {
                printf("    %s: GPU count unknown, left as it is\n", pn->name);
                strbuf_free(&sb);
                continue;
            }
            char *res = resources_text(&pn->expected);
            printf("    %s: %s\n      mig.config=%s device-plugin.config=%s -> %s\n", pn->name, strbuf_str(&sb),
                   pn->mig_config ? pn->mig_config : "(unchanged)",
                   pn->device_plugin_config ? pn->device_plugin_config : "(unchanged)", res);
            free(res);
            strbuf_free(&sb);
        }
    }
    if (g->nworkloads) {
        printf("  Workloads (memory MiB and utilization %%: p%g / peak):\n", run->percentile);
        static const char *const headers[] = { "NAMESPACE", "WORKLOAD", "KIND", "PODS", "MEMORY", "UTIL",
                                               "ASSIGNED", "REQUEST INSTEAD" };
        Table *t = table_new(headers, 8);
        for (size_t i = 0; i < g->nworkloads; i++) {
            const PlanGroupWorkload *gw = &g->workloads[i];
            const PlanAssignment *a = &g->assign[gw->first];
            const PlanWorkload *w = gw_workload(run, g, gw);
            char m1[32], m2[32], u1[16], u2[16], lab[64];
            table_add_row(t);
            table_cell(t, w->ns ? w->ns : "");
            table_cell(t, w->name ? w->name : "");
            table_cell(t, w->kind ? w->kind : "Pod");
            table_cellf(t, "%d", gw->pods);
            fmt_mib(m1, sizeof m1, w->has_usage ? w->memory_mib : -1);
            fmt_mib(m2, sizeof m2, w->peak_memory_mib);
            fmt_pct(u1, sizeof u1, w->has_usage ? w->utilization : NAN);
            fmt_pct(u2, sizeof u2, w->peak_utilization);
            if (w->from_requests) table_cellf(t, "%s (request)", m1);
            else table_cellf(t, "%s / %s", m1, m2);
            if (w->from_requests) table_cellf(t, "%s (request)", u1);
            else table_cellf(t, "%s / %s", u1, u2);
            const char *label = plan_assignment_label(a, lab, sizeof lab);
            if (a->unchanged) table_cellf(t, "%s (unchanged)", label);
            else if (a->why && a->kind == PLAN_ASSIGN_WHOLE) table_cellf(t, "%s (%s)", label, a->why);
            else table_cell(t, label);
            if (a->unchanged) table_cell(t, "-");
            else table_cellf(t, "%s: %d", gw->request_resource, gw->request_count);
        }
        char *tb = NULL;
        size_t tl = 0;
        FILE *f = open_memstream(&tb, &tl);
        if (f) {
            table_print(t, f, color);
            fclose(f);
            for (char *line = tb, *nl; line && *line; line = nl ? nl + 1 : NULL) {
                nl = strchr(line, '\n');
                printf("    %.*s\n", nl ? (int)(nl - line) : (int)strlen(line), line);
            }
            free(tb);
        }
        table_free(t);
    }
    if (g->risks.n) {
        printf("  Risks:\n");
        for (size_t i = 0; i < g->risks.n; i++) printf("    - %s\n", g->risks.v[i]);
    }
    if (g->notes.n) {
        printf("  Notes:\n");
        for (size_t i = 0; i < g->notes.n; i++) printf("    - %s\n", g->notes.v[i]);
    }
}

static void print_text(const PlanRun *run, bool color)
{
    const char *b = color_start(C_BOLD, color), *e = color_end(C_BOLD, color);
    size_t nodes = 0;
    for (size_t i = 0; i < run->r.ngroups; i++) nodes += run->r.groups[i].nodes.n;
    printf("%sGPU plan%s: %zu GPU node%s in %zu group%s; usage p%g over %s, headroom %g%%\n", b, e, nodes,
           nodes == 1 ? "" : "s", run->r.ngroups, run->r.ngroups == 1 ? "" : "s", run->percentile, run->window,
           run->headroom);
    if (run->from_requests)
        printf("%sUsage: NOT MEASURED%s — %s\n", color_start(C_YELLOW, color), color_end(C_YELLOW, color), run->usage_line);
    else
        printf("Usage: %s\n", run->usage_line);
    for (size_t i = 0; i < run->r.ngroups; i++) {
        printf("\n");
        print_group(run, &run->r.groups[i], color);
    }
    if (run->warnings.n) {
        printf("\nWarnings:\n");
        for (size_t i = 0; i < run->warnings.n; i++) printf("  - %s\n", run->warnings.v[i]);
    }
    int freed = run->r.gpus_before - run->r.gpus_after;
    printf("\n%sSummary%s: GPUs before %d, after %d, freed %d.\n", b, e, run->r.gpus_before, run->r.gpus_after, freed);
    if (run->m.n)
        printf("Apply: kubectl gpu plan -o script > plan.sh, review it, then run it (-o yaml prints only the "
               "manifests).  This command changed nothing.\n");
    else
        printf("Nothing to apply.\n");
}

/* ------------------------------------------------------------------ JSON */

static void add_num_or_null(cJSON *o, const char *k, double v)
{
    if (v != v) cJSON_AddNullToObject(o, k);
    else cJSON_AddNumberToObject(o, k, v);
}

static cJSON *plan_json(const PlanRun *run)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "kind", "GPUPlan");
    cJSON_AddStringToObject(doc, "window", run->window);
    cJSON_AddNumberToObject(doc, "percentile", run->percentile);
    cJSON_AddNumberToObject(doc, "headroom", run->headroom);
    cJSON *s = cJSON_AddObjectToObject(doc, "summary");
    cJSON_AddNumberToObject(s, "gpusBefore", run->r.gpus_before);
    cJSON_AddNumberToObject(s, "gpusAfter", run->r.gpus_after);
    cJSON_AddNumberToObject(s, "gpusFreed", run->r.gpus_before - run->r.gpus_after);
    cJSON *mt = cJSON_AddObjectToObject(doc, "metrics");
    cJSON_AddStringToObject(mt, "source", run->metrics_source);
    cJSON_AddStringToObject(mt, "detail", run->metrics_detail);
    cJSON_AddStringToObject(mt, "usage", run->from_requests ? "requests" : "metrics");
    cJSON_AddStringToObject(mt, "note", run->usage_line);
    cJSON *groups = cJSON_AddArrayToObject(doc, "groups");
    for (size_t i = 0; i < run->r.ngroups; i++) {
        const PlanGroup *g = &run->r.groups[i];
        cJSON *go = cJSON_CreateObject();
        cJSON_AddStringToObject(go, "product", g->product);
        cJSON *nodes = cJSON_AddArrayToObject(go, "nodes");
        for (size_t j = 0; j < g->nodes.n; j++) cJSON_AddItemToArray(nodes, cJSON_CreateString(g->nodes.v[j]));
        cJSON_AddStringToObject(go, "strategy", plan_strategy_name(g->strategy));
        cJSON_AddNumberToObject(go, "gpusBefore", g->gpus_before);
        cJSON_AddNumberToObject(go, "gpusAfter", g->gpus_after);
        cJSON_AddNumberToObject(go, "physicalGPUs", g->physical_gpus);
        if (g->strategy == PLAN_TIME_SLICING || g->strategy == PLAN_MPS) cJSON_AddNumberToObject(go, "replicas", g->replicas);
        else cJSON_AddNullToObject(go, "replicas");
        cJSON *ml = cJSON_AddArrayToObject(go, "migLayouts");
        for (size_t k = 0; g->strategy == PLAN_MIG && g->model && k < g->mig.ngroups; k++) {
            cJSON *lo = cJSON_CreateObject();
            cJSON_AddNumberToObject(lo, "gpus", g->mig.groups[k].gpus);
            cJSON *pr = cJSON_AddObjectToObject(lo, "profiles");
            for (size_t q = 0; q < g->model->nprofiles; q++)
                if (g->mig.groups[k].layout.counts[q])
                    cJSON_AddNumberToObject(pr, g->model->profiles[q].name, g->mig.groups[k].layout.counts[q]);
            cJSON_AddItemToArray(ml, lo);
        }
        if (g->strategy == PLAN_MIG) {
            cJSON_AddNumberToObject(go, "wholeGPUs", g->gpus_after - g->mig.gpus);
            cJSON_AddBoolToObject(go, "migPackingOptimal", g->mig.optimal);
            cJSON_AddNumberToObject(go, "migLowerBound", g->mig.lower_bound);
        }
        cJSON *cand = cJSON_AddObjectToObject(go, "candidates");
        if (g->after_mig >= 0) cJSON_AddNumberToObject(cand, "mig", g->after_mig); else cJSON_AddNullToObject(cand, "mig");
        if (g->after_time_slicing >= 0) cJSON_AddNumberToObject(cand, "time-slicing", g->after_time_slicing);
        else cJSON_AddNullToObject(cand, "time-slicing");
        if (g->after_mps >= 0) cJSON_AddNumberToObject(cand, "mps", g->after_mps); else cJSON_AddNullToObject(cand, "mps");
        cJSON_AddStringToObject(go, "tradeoff", g->tradeoff);
        cJSON *wls = cJSON_AddArrayToObject(go, "workloads");
        for (size_t k = 0; k < g->nworkloads; k++) {
            const PlanGroupWorkload *gw = &g->workloads[k];
            const PlanAssignment *a = &g->assign[gw->first];
            const PlanWorkload *w = gw_workload(run, g, gw);
            char lab[64];
            cJSON *wo = cJSON_CreateObject();
            cJSON_AddStringToObject(wo, "namespace", w->ns ? w->ns : "");
            cJSON_AddStringToObject(wo, "name", w->name ? w->name : "");
            cJSON_AddStringToObject(wo, "kind", w->kind ? w->kind : "Pod");
            cJSON_AddNumberToObject(wo, "pods", gw->pods);
            add_num_or_null(wo, "observedMemoryMiB", w->has_usage ? (double)w->memory_mib : NAN);
            add_num_or_null(wo, "observedUtilization", w->has_usage ? w->utilization : NAN);
            add_num_or_null(wo, "peakMemoryMiB", w->peak_memory_mib >= 0 ? (double)w->peak_memory_mib : NAN);
            add_num_or_null(wo, "peakUtilization", w->peak_utilization);
            cJSON_AddStringToObject(wo, "usageSource", !w->has_usage ? "none" : w->from_requests ? "requests" : "metrics");
            cJSON_AddStringToObject(wo, "assigned", plan_assignment_label(a, lab, sizeof lab));
            cJSON_AddBoolToObject(wo, "unchanged", a->unchanged);
            cJSON *rq = cJSON_AddObjectToObject(wo, "request");
            cJSON_AddNumberToObject(rq, gw->request_resource, gw->request_count);
            if (a->why) cJSON_AddStringToObject(wo, "reason", a->why);
            cJSON *wn = cJSON_AddArrayToObject(wo, "nodes");
            for (size_t j = 0; j < gw->nodes.n; j++) cJSON_AddItemToArray(wn, cJSON_CreateString(gw->nodes.v[j]));
            cJSON_AddItemToArray(wls, wo);
        }
        cJSON *np = cJSON_AddArrayToObject(go, "nodePlan");
        for (size_t j = 0; g->strategy != PLAN_NONE && j < g->nplan_nodes; j++) {
            const PlanNode *pn = &g->plan_nodes[j];
            cJSON *no = cJSON_CreateObject();
            cJSON_AddStringToObject(no, "name", pn->name);
            cJSON_AddNumberToObject(no, "gpus", pn->gpus);
            cJSON_AddNumberToObject(no, "migGPUs", pn->mig_gpus);
            cJSON_AddBoolToObject(no, "shared", pn->shared);
            if (pn->mig_config) cJSON_AddStringToObject(no, "migConfig", pn->mig_config);
            else cJSON_AddNullToObject(no, "migConfig");
            if (pn->device_plugin_config) cJSON_AddStringToObject(no, "devicePluginConfig", pn->device_plugin_config);
            else cJSON_AddNullToObject(no, "devicePluginConfig");
            cJSON *res = cJSON_AddObjectToObject(no, "resources");
            for (size_t q = 0; q < pn->expected.n; q++)
                cJSON_AddNumberToObject(res, pn->expected.items[q].name, (double)(pn->expected.items[q].milli / 1000));
            cJSON_AddItemToArray(np, no);
        }
        cJSON *rk = cJSON_AddArrayToObject(go, "risks");
        for (size_t j = 0; j < g->risks.n; j++) cJSON_AddItemToArray(rk, cJSON_CreateString(g->risks.v[j]));
        cJSON *nt = cJSON_AddArrayToObject(go, "notes");
        for (size_t j = 0; j < g->notes.n; j++) cJSON_AddItemToArray(nt, cJSON_CreateString(g->notes.v[j]));
        cJSON_AddItemToArray(groups, go);
    }
    cJSON *mf = cJSON_AddArrayToObject(doc, "manifests");
    for (size_t i = 0; i < run->m.n; i++) cJSON_AddItemToArray(mf, cJSON_Duplicate(run->m.docs[i], true));
    cJSON *w = cJSON_AddArrayToObject(doc, "warnings");
    for (size_t i = 0; i < run->warnings.n; i++) cJSON_AddItemToArray(w, cJSON_CreateString(run->warnings.v[i]));
    return doc;
}

/* ------------------------------------------------------------------ script */

/* single-quoted for bash */
static void sq(Strbuf *sb, const char *s)
{
    strbuf_addch(sb, '\'');
    for (; *s; s++) {
        if (*s == '\'') strbuf_adds(sb, "'\\''");
        else strbuf_addch(sb, *s);
    }
    strbuf_addch(sb, '\'');
}

typedef struct { const PlanGroup *g; const PlanNode *pn; int pods; } NodeStep;

static int step_cmp(const void *a, const void *b)
{
    const NodeStep *x = a, *y = b;
    if (x->pods != y->pods) return x->pods - y->pods;
    return strcmp(x->pn->name, y->pn->name);
}

static const char script_functions[] =
    "log() { printf '%s %s\\n' \"$(date +%H:%M:%S)\" \"$*\" >&2; }\n"
    "die() { log \"ERROR: $*\"; exit 1; }\n"
    "\n"
    "# namespace/name of the pods on node $1 that hold GPUs (limits name an nvidia.com/ resource)\n"
    "gpu_pods_on() {\n"
    "  \"$KUBECTL\" get pods -A --field-selector \"spec.nodeName=$1,status.phase!=Succeeded,status.phase!=Failed\" \\\n"
    "    -o jsonpath='{range .items[*]}{.metadata.namespace}/{.metadata.name}{\" \"}{.spec.containers[*].resources.limits}{.spec.initContainers[*].resources.limits}{\"\\n\"}{end}' \\\n"
    "    | awk '/nvidia\\.com\\// {print $1}'\n"
    "}\n"
    "\n"
    "node_label() {   # NODE KEY (dots of KEY escaped for jsonpath)\n"
    "  \"$KUBECTL\" get node \"$1\" -o jsonpath=\"{.metadata.labels.${2//./\\\\.}}\"\n"
    "}\n"
    "\n"
    "node_allocatable() {   # NODE RESOURCE\n"
    "  \"$KUBECTL\" get node \"$1\" -o jsonpath=\"{.status.allocatable.${2//./\\\\.}}\"\n"
    "}\n"
    "\n"
    "# cordon, remembering that this script did it (an annotation), so a re-run after a failure\n"
    "# uncordons only nodes it cordoned itself\n"
    "cordon_node() {\n"
    "  if [ \"$(\"$KUBECTL\" get node \"$1\" -o jsonpath='{.spec.unschedulable}')\" != true ]; then\n"
    "    \"$KUBECTL\" annotate node \"$1\" kubectl-gpu/cordoned-by-plan=true --overwrite >/dev/null\n"
    "    \"$KUBECTL\" cordon \"$1\"\n"
    "  fi\n"
    "}\n"
    "\n"
    "uncordon_node() {\n"
    "  if [ \"$(\"$KUBECTL\" get node \"$1\" -o jsonpath='{.metadata.annotations.kubectl-gpu/cordoned-by-plan}')\" = true ]; then\n"
    "    \"$KUBECTL\" uncordon \"$1\"\n"
    "    \"$KUBECTL\" annotate node \"$1\" kubectl-gpu/cordoned-by-plan- >/dev/null\n"
    "  fi\n"
    "}\n"
    "\n"
    "# wait (at most DRAIN_TIMEOUT s) until no pod on the node holds a GPU; with EVICT=yes delete them\n"
    "wait_drained() {\n"
    "  local node=$1 deadline=$((SECONDS + DRAIN_TIMEOUT)) pods p\n"
    "  while :; do\n"
    "    pods=$(gpu_pods_on \"$node\")\n"
    "    [ -z \"$pods\" ] && return 0\n"
    "    if [ \"$EVICT\" = yes ]; then\n"
    "      for p in $pods; do \"$KUBECTL\" delete pod -n \"${p%%/*}\" \"${p#*/}\" --wait=false || true; done\n"
    "    fi\n"
    "    [ \"$SECONDS\" -ge \"$deadline\" ] && die \"GPU pods still on $node after ${DRAIN_TIMEOUT}s:\" $pods \\\n"
    "      \"(move them, e.g. by rolling out their new requests, or re-run with EVICT=yes)\"\n"
    "    log \"waiting for the GPU pods on $node to leave:\" $pods\n"
    "    sleep \"$POLL\"\n"
    "  done\n"
    "}\n"
    "\n"
    "wait_mig_success() {   # NODE: the MIG manager reports nvidia.com/mig.config.state\n"
    "  local node=$1 deadline=$((SECONDS + CONFIG_TIMEOUT)) state\n"
    "  while :; do\n"
    "    state=$(node_label \"$node\" nvidia.com/mig.config.state)\n"
    "    case \"$state\" in\n"
    "      success) return 0 ;;\n"
    "      failed) die \"MIG reconfiguration failed on $node; see: $KUBECTL logs -n $OPERATOR_NAMESPACE -l app=nvidia-mig-manager -c nvidia-mig-manager\" ;;\n"
    "    esac\n"
    "    [ \"$SECONDS\" -ge \"$deadline\" ] && die \"$node: nvidia.com/mig.config.state is '${state}' after ${CONFIG_TIMEOUT}s\"\n"
    "    log \"$node: MIG reconfiguration ${state:-not started yet}\"\n"
    "    sleep \"$POLL\"\n"
    "  done\n"
    "}\n"
    "\n"
    "wait_allocatable() {   # NODE RESOURCE COUNT: the device plugin advertises the new resources\n"
    "  local node=$1 res=$2 want=$3 deadline=$((SECONDS + CONFIG_TIMEOUT)) have\n"
    "  while :; do\n"
    "    have=$(node_allocatable \"$node\" \"$res\")\n"
    "    [ \"${have:-0}\" = \"$want\" ] && return 0\n"
    "    [ \"$SECONDS\" -ge \"$deadline\" ] && die \"$node advertises $res: ${have:-0}, expected $want after ${CONFIG_TIMEOUT}s\"\n"
    "    log \"$node: waiting for $res: $want (now ${have:-0})\"\n"
    "    sleep \"$POLL\"\n"
    "  done\n"
    "}\n"
    "\n"
    "# reconfigure_node NODE MIG_CONFIG DEVICE_PLUGIN_CONFIG RESOURCE=COUNT...\n"
    "# (an empty config leaves that label alone).  Skips a node that is already done.\n"
    "reconfigure_node() {\n"
    "  local node=$1 mig=$2 dp=$3 r done=yes; shift 3\n"
    "  [ -n \"$mig\" ] && { [ \"$(node_label \"$node\" nvidia.com/mig.config)\" = \"$mig\" ] &&\n"
    "    [ \"$(node_label \"$node\" nvidia.com/mig.config.state)\" = success ] || done=no; }\n"
    "  [ -n \"$dp\" ] && { [ \"$(node_label \"$node\" nvidia.com/device-plugin.config)\" = \"$dp\" ] || done=no; }\n"
    "  for r in \"$@\"; do [ \"$(node_allocatable \"$node\" \"${r%%=*}\")\" = \"${r#*=}\" ] || done=no; done\n"
    "  if [ \"$done\" = yes ]; then\n"
    "    log \"$node: already configured\"\n"
    "    uncordon_node \"$node\"\n"
    "    return 0\n"
    "  fi\n"
    "  log \"$node: reconfiguring (mig.config=${mig:-unchanged}, device-plugin.config=${dp:-unchanged})\"\n"
    "  cordon_node \"$node\"\n"
    "  wait_drained \"$node\"\n"
    "  if [ -n \"$mig\" ]; then\n"
    "    if [ \"$(node_label \"$node\" nvidia.com/mig.config)\" != \"$mig\" ]; then\n"
    "      # drop the old state first, so a stale 'success' is not read as the new one\n"
    "      \"$KUBECTL\" label node \"$node\" nvidia.com/mig.config.state- >/dev/null 2>&1 || true\n"
    "      \"$KUBECTL\" label node \"$node\" \"nvidia.com/mig.config=$mig\" --overwrite\n"
    "    fi\n"
    "    wait_mig_success \"$node\"\n"
    "  fi\n"
    "  [ -n \"$dp\" ] && \"$KUBECTL\" label node \"$node\" \"nvidia.com/device-plugin.config=$dp\" --overwrite\n"
    "  for r in \"$@\"; do wait_allocatable \"$node\" \"${r%%=*}\" \"${r#*=}\"; done\n"
    "  uncordon_node \"$node\"\n"
    "  log \"$node: done\"\n"
    "}\n";

static char *plan_script(const PlanRun *run, const char *yaml)
{
    Strbuf sb = STRBUF_INIT;
    strbuf_adds(&sb, "#!/usr/bin/env bash\n");
    strbuf_addf(&sb, "# Generated by `kubectl gpu plan -o script` (kubectl-gpu %s)%s%s.\n", KGPU_VERSION,
                run->context ? " for context " : "", run->context ? run->context : "");
    strbuf_adds(&sb, "# REVIEW IT BEFORE RUNNING: it changes the cluster (kubectl-gpu itself never does).\n#\n");
    strbuf_addf(&sb, "# Plan: usage p%g over %s, headroom %g%%: GPUs before %d, after %d, freed %d.\n",
                run->percentile, run->window, run->headroom, run->r.gpus_before, run->r.gpus_after,
                run->r.gpus_before - run->r.gpus_after);
    strbuf_addf(&sb, "# Usage: %s%s\n", run->from_requests ? "NOT MEASURED — " : "", run->usage_line);
    strbuf_adds(&sb,
        "#\n# What it does, safe to re-run (each step checks before it acts):\n"
        "#   1. applies the manifests below (device-plugin and mig-parted ConfigMaps, ResourceQuotas);\n"
        "#   2. points the GPU Operator's ClusterPolicy at the ConfigMaps;\n"
        "#   3. node by node (nodes holding the fewest GPU pods first, so capacity comes up before\n"
        "#      workloads need it): cordon, wait until no GPU pod is left (EVICT=yes deletes them),\n"
        "#      set nvidia.com/mig.config and wait for nvidia.com/mig.config.state=success, set\n"
        "#      nvidia.com/device-plugin.config, wait for the new resources, uncordon.\n"
        "#\n# The workloads must ask for their new resources (roll them out before or during step 3;\n"
        "# pods that still ask for the old ones stay Pending once their node is reconfigured):\n");
    for (size_t i = 0; i < run->r.ngroups; i++) {
        const PlanGroup *g = &run->r.groups[i];
        if (g->strategy == PLAN_NONE) continue;
        for (size_t k = 0; k < g->nworkloads; k++) {
            const PlanGroupWorkload *gw = &g->workloads[k];
            const PlanWorkload *w = gw_workload(run, g, gw);
            strbuf_addf(&sb, "#   %s/%s (%s, %d pod%s): %s: %d\n", w->ns ? w->ns : "", w->name ? w->name : "",
                        w->kind ? w->kind : "Pod", gw->pods, gw->pods == 1 ? "" : "s", gw->request_resource,
                        gw->request_count);
        }
    }
    strbuf_adds(&sb,
        "#\n# Knobs: KUBECTL (kubectl binary and flags, e.g. \"kubectl --context prod\"), EVICT=yes,\n"
        "# DRAIN_TIMEOUT and CONFIG_TIMEOUT (seconds), POLL (seconds between checks).\n"
        "set -euo pipefail\n\n");
    strbuf_adds(&sb, "KUBECTL=${KUBECTL:-kubectl}\nOPERATOR_NAMESPACE=");
    sq(&sb, run->operator_ns);
    strbuf_adds(&sb, "\nEVICT=${EVICT:-no}\nDRAIN_TIMEOUT=${DRAIN_TIMEOUT:-1800}\nCONFIG_TIMEOUT=${CONFIG_TIMEOUT:-1200}\n"
                     "POLL=${POLL:-10}\n\n");
    strbuf_adds(&sb, script_functions);

    strbuf_adds(&sb, "\n# ---- 1. manifests ------------------------------------------------------------\n");
    strbuf_adds(&sb, "applied=$(\"$KUBECTL\" apply -f - <<'KGPU_MANIFESTS'\n");
    strbuf_adds(&sb, yaml ? yaml : "");
    if (yaml && *yaml && yaml[strlen(yaml) - 1] != '\n') strbuf_addch(&sb, '\n');
    strbuf_adds(&sb, "KGPU_MANIFESTS\n)\nprintf '%s\\n' \"$applied\" >&2\n");
    if (run->m.device_plugin) {
        strbuf_adds(&sb, "# the operator does not watch the ConfigMap's content: restart the plugin when it changed\n"
                         "if grep -q '^configmap/" MANIFESTS_DEVICE_PLUGIN_CONFIGMAP " configured' <<<\"$applied\"; then\n"
                         "  \"$KUBECTL\" rollout restart -n \"$OPERATOR_NAMESPACE\" daemonset/nvidia-device-plugin-daemonset || "
                         "log \"restart the device plugin DaemonSet by hand\"\nfi\n");
    }

    strbuf_adds(&sb, "\n# ---- 2. the GPU Operator uses these ConfigMaps ----------------------------------\n");
    if (run->m.device_plugin || run->m.mig_parted) {
        cJSON *patch = cJSON_CreateObject();
        cJSON *spec = cJSON_AddObjectToObject(patch, "spec");
        if (run->m.device_plugin) {
            cJSON *cfg = cJSON_AddObjectToObject(cJSON_AddObjectToObject(spec, "devicePlugin"), "config");
            cJSON_AddStringToObject(cfg, "name", MANIFESTS_DEVICE_PLUGIN_CONFIGMAP);
        }
        if (run->m.mig_parted) {
            cJSON *cfg = cJSON_AddObjectToObject(cJSON_AddObjectToObject(spec, "migManager"), "config");
            cJSON_AddStringToObject(cfg, "name", MANIFESTS_MIG_PARTED_CONFIGMAP);
            /* the operator passes MIG_STRATEGY from here; it overrides the config files' flag */
            cJSON_AddStringToObject(cJSON_AddObjectToObject(spec, "mig"), "strategy", "mixed");
        }
        char *p = cJSON_PrintUnformatted(patch);
        cJSON_Delete(patch);
        strbuf_adds(&sb, "# Note: this replaces any device-plugin / mig-parted ConfigMap the ClusterPolicy named before;\n"
                         "# nodes outside this plan that relied on it fall back to the operator's defaults.\n");
        if (run->m.mig_parted)
            strbuf_adds(&sb, "# MIG strategy 'mixed' is cluster-wide: nodes outside the plan running 'single' will\n"
                             "# advertise nvidia.com/mig-<profile> instead of nvidia.com/gpu.\n");
        if (run->clusterpolicy) {
            strbuf_adds(&sb, "\"$KUBECTL\" patch clusterpolicies.nvidia.com/");
            sq(&sb, run->clusterpolicy);
            strbuf_adds(&sb, " --type merge -p ");
            sq(&sb, p);
            strbuf_adds(&sb, "\n");
        } else {
            strbuf_adds(&sb, "# No ClusterPolicy was found (device plugin installed without the GPU Operator?).\n"
                             "# Point the device plugin at the ConfigMap yourself, e.g. Helm value config.name="
                             MANIFESTS_DEVICE_PLUGIN_CONFIGMAP ",\n# and the MIG manager at "
                             MANIFESTS_MIG_PARTED_CONFIGMAP "; the ClusterPolicy patch would have been:\n# ");
            strbuf_adds(&sb, p);
            strbuf_adds(&sb, "\n");
        }
        free(p);
    } else {
        strbuf_adds(&sb, "# (no ConfigMap to point at: nothing changes on the nodes)\n");
    }

    strbuf_adds(&sb, "\n# ---- 3. nodes ----------------------------------------------------------------\n");
    NodeStep *steps = NULL;
    size_t ns = 0, cap = 0;
    for (size_t i = 0; i < run->r.ngroups; i++) {
        const PlanGroup *g = &run->r.groups[i];
        if (g->strategy == PLAN_NONE) continue;
        for (size_t j = 0; j < g->nplan_nodes; j++) {
            if (!g->plan_nodes[j].mig_config && !g->plan_nodes[j].device_plugin_config) continue;
            ARRAY_GROW(steps, ns, cap);
            uintptr_t pods = (uintptr_t)strmap_get(run->node_pods, g->plan_nodes[j].name);
            steps[ns++] = (NodeStep){ g, &g->plan_nodes[j], pods ? (int)(pods - 1) : 0 };
        }
    }
    if (ns > 1) qsort(steps, ns, sizeof *steps, step_cmp);
    for (size_t i = 0; i < ns; i++) {
        const PlanNode *pn = steps[i].pn;
        strbuf_addf(&sb, "# %s (%s, %d GPU pod%s now)\n", pn->name, steps[i].g->product, steps[i].pods,
                    steps[i].pods == 1 ? "" : "s");
        strbuf_adds(&sb, "reconfigure_node ");
        sq(&sb, pn->name);
        strbuf_addch(&sb, ' ');
        sq(&sb, pn->mig_config ? pn->mig_config : "");
        strbuf_addch(&sb, ' ');
        sq(&sb, pn->device_plugin_config ? pn->device_plugin_config : "");
        for (size_t q = 0; q < pn->expected.n; q++) {
            char *kv = xasprintf("%s=%lld", pn->expected.items[q].name, (long long)(pn->expected.items[q].milli / 1000));
            strbuf_addch(&sb, ' ');
            sq(&sb, kv);
            free(kv);
        }
        strbuf_addch(&sb, '\n');
    }
    free(steps);
    strbuf_adds(&sb, "\nlog \"plan applied\"\n");
    return strbuf_detach(&sb);
}

/* ------------------------------------------------------------------ run */

static void run_free(PlanRun *run)
{
    manifests_free(&run->m);
    plan_result_free(&run->r);
    plan_input_free(&run->in);
    free(run->usage_line);
    free(run->metrics_source);
    free(run->metrics_detail);
    free(run->operator_ns);
    free(run->clusterpolicy);
    free(run->context);
    strvec_free(&run->warnings);
    if (run->node_pods) strmap_free(run->node_pods, NULL);
}

static int usage_err(const char *msg)
{
    fprintf(stderr, "error: %s\nSee 'kubectl gpu plan --help' for usage.\n", msg);
    return EXIT_USAGE;
}

static int run_plan(int argc, char **argv, GlobalOptions *g)
{
    (void)argc; (void)argv;
    static const OutputFormat allowed[] = { OUT_TEXT, OUT_YAML, OUT_JSON, OUT_SCRIPT };
    OutputFormat fmt;
    if (output_format_parse(plan_output, allowed, 4, &fmt, "plan") < 0) return EXIT_USAGE;
    if (fmt == OUT_DEFAULT) fmt = OUT_TEXT;
    double window_s = 0;
    if (!plan_window || !duration_parse(plan_window, &window_s) || !(window_s >= 60))
        return usage_err("--window must be a duration of at least 1m (e.g. 7d, 24h, 90m)");
    if (!(plan_percentile >= 1 && plan_percentile <= 100))
        return usage_err("--percentile must be between 1 and 100");
    if (!(plan_headroom >= 0 && plan_headroom <= 100))
        return usage_err("--headroom must be a percentage between 0 and 100");
    PlanChoice choice;
    if (!plan_choice_parse(plan_strategy, &choice))
        return usage_err("--strategy must be auto, mig, time-slicing or mps");

    Error err = { 0 };
    Cluster c;
    cluster_init(&c);
    LoadRequest rq = { .nodes = true, .pods = true, .daemonsets = true, .clusterpolicy = true,
                       .services = !g->no_metrics && !g->prometheus, .node_selector = g->selector };
    ApiClient *api = NULL;
    if (cluster_load(&c, g, &rq, &api, &err) < 0) {
        fprintf(stderr, "error: %s\n", err.msg);
        cluster_free(&c);
        return EXIT_FAIL;
    }

    PlanRun run;
    memset(&run, 0, sizeof run);
    run.window = plan_window;
    run.window_s = window_s;
    run.percentile = plan_percentile;
    run.headroom = plan_headroom;
    run.context = xstrdup(c.context);
    for (size_t i = 0; i < c.warnings.n; i++) strvec_push(&run.warnings, c.warnings.v[i]);

    /* the operator's namespace, as `status` finds it */
    GpuStatus st;
    status_build(&st, &c, NULL, NULL);
    run.operator_ns = xstrdup(st.operator_ns ? st.operator_ns : "gpu-operator");
    status_free(&st);
    run.clusterpolicy = xstrdup(c.clusterpolicy_name);

    /* usage per workload over the window */
    UsageData usage;
    WorkloadUsage *wu = NULL;
    size_t nwu = 0;
    MetricsQuery q = { window_s, 5, plan_percentile, true };
    metrics_collect(&usage, g, api, &c, &q, &wu, &nwu);
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

    const Node **nodes = xcalloc(c.nnodes ? c.nnodes : 1, sizeof *nodes);
    size_t nn = 0;
    for (size_t i = 0; i < c.nnodes; i++) if (node_is_gpu_node(&c.nodes[i])) nodes[nn++] = &c.nodes[i];
    plan_input_build(&run.in, &c, nodes, nn, wu, nwu, metrics);
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

    PlanOptions po = { .choice = choice, .headroom_pct = plan_headroom };
    plan_build(nodes, nn, run.in.w, run.in.n, &po, &run.r);
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
    ManifestOptions mo = { .operator_namespace = run.operator_ns, .plan_annotation = plan_ann,
                           .usage_annotation = usage_ann, .yaml_text = yaml_text };
    int rc = EXIT_OK;
    if (manifests_build(&run.r, run.in.w, &c, &mo, &run.m) != 0) {
        fprintf(stderr, "error: could not render the device-plugin / mig-parted config files as YAML\n");
        rc = EXIT_FAIL;
    }
    free(plan_ann);
    free(usage_ann);

    if (rc == EXIT_OK) {
        if (fmt == OUT_JSON) {
            cJSON *doc = plan_json(&run);
            if (render_json(stdout, doc)) rc = EXIT_FAIL;
            cJSON_Delete(doc);
        } else if (fmt == OUT_YAML || fmt == OUT_SCRIPT) {
            /* stdout is only manifests / the script: the usage caveat goes to stderr too */
            if (run.from_requests) fprintf(stderr, "warning: %s\n", run.usage_line);
            for (size_t i = 0; i < run.warnings.n; i++) fprintf(stderr, "warning: %s\n", run.warnings.v[i]);
            char *yaml = yaml_stream_text(&run.m);
            if (!yaml) rc = EXIT_FAIL;
            else if (fmt == OUT_YAML) fputs(yaml, stdout);
            else {
                char *script = plan_script(&run, yaml);
                fputs(script, stdout);
                free(script);
            }
            free(yaml);
        } else {
            print_text(&run, g->color);
        }
        if (fflush(stdout) != 0) rc = EXIT_FAIL;
    }
    run_free(&run);
    if (api) apiclient_free(api);
    cluster_free(&c);
    return rc;
}

const Command command_plan = {
    .name = "plan",
    .summary = "Recommend MIG layouts or time-slicing/MPS replicas from observed usage, with manifests",
    .usage = "kubectl gpu plan [-l SEL] [--window 7d] [--percentile 95] [--headroom 10] "
             "[--strategy auto|mig|time-slicing|mps] [-o text|yaml|json|script]",
    .description =
        "Groups the GPU nodes (-l selects them) by product and profiles every GPU workload running\n"
        "there — pods grouped by owner (Deployment, StatefulSet, Job, or the bare pod), so restarted\n"
        "pods count once — from DCGM metrics through Prometheus: the --percentile of memory and\n"
        "utilization over --window, grown by --headroom percent.  Per group it recommends the\n"
        "strategy that needs the fewest GPUs: a MIG layout (valid for the model's profiles and\n"
        "placement rules, packed onto the fewest GPUs), or a time-slicing / MPS replica count that\n"
        "is safe for the worst co-located workloads; ties go to the stronger isolation, and a group\n"
        "where nothing frees a GPU is left alone.  The isolation trade-off, the risks (little data,\n"
        "workloads that fit nothing, peaks above a slice) and the new request of every workload are\n"
        "stated.  Without metrics the requests stand in, and every output says so.\n"
        "-o yaml prints only the manifests (device-plugin ConfigMap, mig-parted ConfigMap,\n"
        "ResourceQuotas), each accepted by 'kubectl apply -f -'; -o script prints a bash script that\n"
        "applies them and reconfigures node by node (cordon, drain GPU pods, label, wait, uncordon)\n"
        "for you to review and run.  The plan itself never changes the cluster.",
    .examples = "  kubectl gpu plan\n  kubectl gpu plan -l nvidia.com/gpu.product=NVIDIA-A100-SXM4-80GB --window 14d\n"
                "  kubectl gpu plan --strategy time-slicing -o json\n  kubectl gpu plan -o yaml | kubectl apply --dry-run=server -f -\n"
                "  kubectl gpu plan -o script > plan.sh && less plan.sh && bash plan.sh\n",
    .options = plan_opts,
    .min_args = 0, .max_args = 0,
    .run = run_plan,
};

/* plan_report.c — `kubectl gpu plan`'s text report and JSON document, from one PlanRun
 * (plan_report.h). */
#include "render/plan_report.h"
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render/json_writer.h"
#include "render/render.h"
#include "analysis/groups.h"
#include "analysis/allocation.h"
#include "render/text.h"
#include "render/table.h"

/* --price: what a group's freed GPUs cost per hour (NAN without a price for its product) */
static double group_savings(const PlanRun *run, const PlanGroup *g)
{
    int freed = g->gpus_before - g->gpus_after;
    if (freed == 0) return 0;
    char *short_name = allocation_product_short_name(g->product);
    double p = price_list_for_product(run->prices, g->product, short_name);
    free(short_name);
    return p * freed;
}

static double total_savings(const PlanRun *run)
{
    double sum = 0;
    for (size_t i = 0; i < run->r.ngroups; i++) sum += group_savings(run, &run->r.groups[i]);
    return sum;
}

/* ------------------------------------------------------------------ helpers */

char *plan_yaml_text(const cJSON *doc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    int rc = yaml_render(f, doc, false);
    if (fclose(f) != 0 || rc != 0) { free(buf); return NULL; }
    return buf;
}

char *plan_yaml_stream_text(const Manifests *m)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    int rc = m->n ? yaml_render_stream(f, (const cJSON *const *)m->docs, m->n) : 0;
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
    text_printf(stdout, "%s%s%s — %zu node%s (", b, g->product, e, g->nodes.n, g->nodes.n == 1 ? "" : "s");
    for (size_t i = 0; i < g->nodes.n && i < 6; i++) text_printf(stdout, "%s%s", i ? ", " : "", g->nodes.v[i]);
    if (g->nodes.n > 6) text_printf(stdout, ", +%zu more", g->nodes.n - 6);
    text_printf(stdout, "), %d GPU%s", g->physical_gpus, g->physical_gpus == 1 ? "" : "s");
    if (g->gpu_memory_mib > 0) text_printf(stdout, " of %" PRId64 " MiB", g->gpu_memory_mib);
    text_printf(stdout, "\n");
    int freed = g->gpus_before - g->gpus_after;
    text_printf(stdout, "  GPUs: %d held now -> %d after the plan (%s%d freed%s)\n", g->gpus_before, g->gpus_after,
           freed > 0 ? color_start(C_GREEN, color) : "", freed, freed > 0 ? color_end(C_GREEN, color) : "");
    text_printf(stdout, "  Strategy: %s", strategy_word(g->strategy));
    if (g->strategy == PLAN_MIG) text_printf(stdout, " (mixed strategy)");
    if (g->strategy == PLAN_TIME_SLICING || g->strategy == PLAN_MPS)
        text_printf(stdout, ", %d replicas per GPU, shared GPUs advertised as nvidia.com/gpu.shared", g->replicas);
    Strbuf cand = STRBUF_INIT;
    if (g->after_mig >= 0) strbuf_addf(&cand, "MIG %d", g->after_mig);
    if (g->after_time_slicing >= 0) strbuf_addf(&cand, "%stime-slicing %d", cand.len ? ", " : "", g->after_time_slicing);
    if (g->after_mps >= 0) strbuf_addf(&cand, "%sMPS %d", cand.len ? ", " : "", g->after_mps);
    if (cand.len) text_printf(stdout, "; GPUs needed by each: %s", strbuf_str(&cand));
    strbuf_clear(&cand);
    text_printf(stdout, "\n");
    if (g->strategy != PLAN_NONE) text_printf(stdout, "  Isolation: %s\n", g->tradeoff);

    if (g->strategy == PLAN_MIG && g->model) {
        text_printf(stdout, "  MIG layout per GPU:\n");
        for (size_t i = 0; i < g->mig.ngroups; i++) {
            char *t = layout_text(g->model, &g->mig.groups[i].layout);
            text_printf(stdout, "    %d GPU%s: %s\n", g->mig.groups[i].gpus, g->mig.groups[i].gpus == 1 ? "" : "s", t);
            free(t);
        }
        int whole = g->gpus_after - g->mig.gpus;
        if (whole > 0) text_printf(stdout, "    %d GPU%s: whole (MIG disabled)\n", whole, whole == 1 ? "" : "s");
    }
    if (g->strategy != PLAN_NONE) {
        text_printf(stdout, "  Nodes (labels the script sets, resources they advertise after):\n");
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
                text_printf(stdout, "    %s: GPU count unknown, left as it is\n", pn->name);
                strbuf_clear(&sb);
                continue;
            }
            char *res = resources_text(&pn->expected);
            if (pn->unhealthy > 0 && pn->expected.n) {
                char *all = resources_text(&pn->expected_max);
                char *both = xasprintf("%s (%d GPU%s unhealthy now; %s while all report healthy)", res, pn->unhealthy,
                                       pn->unhealthy == 1 ? "" : "s", all);
                free(res); free(all);
                res = both;
            }
            text_printf(stdout, "    %s: %s\n      mig.config=%s device-plugin.config=%s -> %s\n      %s\n", pn->name,
                   strbuf_str(&sb), pn->mig_config ? pn->mig_config : "(unchanged)",
                   pn->device_plugin_config ? pn->device_plugin_config : "(unchanged)", res,
                   pn->drain ? "MIG layout changes: cordon and drain"
                   : pn->mig_change || pn->dp_change ? "relabel only, no drain" : "already configured: no change");
            free(res);
            strbuf_clear(&sb);
        }
    }
    if (g->nworkloads) {
        text_printf(stdout, "  Workloads (memory MiB and utilization %%: p%g / peak):\n", run->percentile);
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
            else if (a->why && a->kind == PLAN_ASSIGN_WHOLE) table_cellf(t, "%s (%s)", label, plan_assignment_why(a));
            else table_cell(t, label);
            if (a->unchanged) table_cell(t, "-");
            else table_cellf(t, "%s: %d", gw->request_resource, gw->request_count);
        }
        table_indent(t, 4);                     /* fitted to the terminal beside the indentation */
        table_print(t, stdout, color);
        table_free(t);
    }
    if (g->risks.n) {
        text_printf(stdout, "  Risks:\n");
        for (size_t i = 0; i < g->risks.n; i++) text_printf(stdout, "    - %s\n", g->risks.v[i]);
    }
    if (g->notes.n) {
        text_printf(stdout, "  Notes:\n");
        for (size_t i = 0; i < g->notes.n; i++) text_printf(stdout, "    - %s\n", g->notes.v[i]);
    }
}

void plan_report_text(const PlanRun *run, bool color)
{
    const char *b = color_start(C_BOLD, color), *e = color_end(C_BOLD, color);
    size_t nodes = 0;
    for (size_t i = 0; i < run->r.ngroups; i++) nodes += run->r.groups[i].nodes.n;
    text_printf(stdout, "%sGPU plan%s: %zu GPU node%s in %zu group%s; usage p%g over %s, headroom %g%%\n", b, e, nodes,
           nodes == 1 ? "" : "s", run->r.ngroups, run->r.ngroups == 1 ? "" : "s", run->percentile, run->window,
           run->headroom);
    if (run->from_requests)
        text_printf(stdout, "%sUsage: NOT MEASURED%s — %s\n", color_start(C_YELLOW, color), color_end(C_YELLOW, color), run->usage_line);
    else
        text_printf(stdout, "Usage: %s\n", run->usage_line);
    for (size_t i = 0; i < run->r.ngroups; i++) {
        text_printf(stdout, "\n");
        print_group(run, &run->r.groups[i], color);
    }
    if (run->warnings.n) {
        text_printf(stdout, "\nWarnings:\n");
        for (size_t i = 0; i < run->warnings.n; i++) text_printf(stdout, "  - %s\n", run->warnings.v[i]);
    }
    text_printf(stdout, "\n%sApplied by%s:\n", b, e);
    for (size_t i = 0; i < run->applied.n; i++) text_printf(stdout, "  - %s\n", run->applied.v[i]);
    text_printf(stdout, "\n%sChanges%s (in the order the script applies them):\n", b, e);
    if (!run->actions.n) text_printf(stdout, "  none\n");
    for (size_t i = 0; i < run->actions.changes.n; i++) text_printf(stdout, "  - %s\n", run->actions.changes.v[i]);
    for (size_t i = 0; i < run->actions.n; i++) {
        const PlanAction *x = &run->actions.v[i];
        if (x->kind == ACT_NODE_LABEL) text_printf(stdout, "  - node %s: %s\n", x->target, x->detail);
        else if (x->kind == ACT_ROLLOUT_RESTART) text_printf(stdout, "  - DaemonSet %s restarted: %s\n", x->target, x->detail);
        else if (x->kind == ACT_NODEPOOL) text_printf(stdout, "    run by hand: %s\n", x->command);
    }
    if (run->cur.clusterpolicy)
        text_printf(stdout, "  Now: ClusterPolicy %s, MIG strategy %s, device-plugin ConfigMap %s (default %s), mig-parted ConfigMap %s; "
               "device plugin %s\n", run->cur.clusterpolicy, run->cur.mig_strategy ? run->cur.mig_strategy : "(unset)",
               run->cur.dp_map ? run->cur.dp_map : "(none)", run->cur.dp_default ? run->cur.dp_default : "(none)",
               run->cur.mig_map ? run->cur.mig_map : "default-mig-parted-config", run->cur.dp_version_text);
    else
        text_printf(stdout, "  Now: no ClusterPolicy (GPU Operator not found); device plugin %s\n", run->cur.dp_version_text);
    if (!run->quotas) text_printf(stdout, "  Quotas: none emitted (--quotas sizes one per changed namespace)\n");
    if (run->whatif_done) {
        text_printf(stdout, "\nWhat if: %zu GPU pod%s pending now would schedule under the plan's layout%s", run->whatif.n,
               run->whatif.n == 1 ? "" : "s", run->whatif.n ? ": " : "");
        for (size_t i = 0; i < run->whatif.n && i < 10; i++) text_printf(stdout, "%s%s", i ? ", " : "", run->whatif.v[i]);
        if (run->whatif.n > 10) text_printf(stdout, ", +%zu more", run->whatif.n - 10);
        text_printf(stdout, "\n");
    }
    int freed = run->r.gpus_before - run->r.gpus_after;
    text_printf(stdout, "\n%sSummary%s: GPUs before %d, after %d, freed %d.\n", b, e, run->r.gpus_before, run->r.gpus_after, freed);
    if (run->prices) {
        double sv = total_savings(run);
        if (sv != sv) text_printf(stdout, "Savings: unknown (--price names no price for a product whose GPUs are freed)\n");
        else text_printf(stdout, "Savings: %.2f USD per hour, %.0f USD per month of 730 hours (--price)\n", sv, sv * 730);
    }
    if (run->m.blocked)
        text_printf(stdout, "NOT SAFE TO APPLY: %s.  The script refuses to run.\n", run->m.blocked);
    else if (run->actions.n)
        text_printf(stdout, "Apply: kubectl gpu plan -o script > plan.sh, review it, then run it (-o yaml prints only the "
               "manifests).  This command changed nothing.\n");
    else
        text_printf(stdout, "Nothing to apply.\n");
}

/* ------------------------------------------------------------------ JSON */

static void add_num_or_null(cJSON *o, const char *k, double v)
{
    if (v != v) cJSON_AddNullToObject(o, k);
    else cJSON_AddNumberToObject(o, k, v);
}

static void add_str_or_null(cJSON *o, const char *k, const char *v)
{
    if (v) cJSON_AddStringToObject(o, k, v);
    else cJSON_AddNullToObject(o, k);
}

/* "actuators": who carries the plan out (model/actuators.h) */
static void actuators_json(cJSON *o, const Actuators *a)
{
    cJSON *dp = cJSON_AddObjectToObject(o, "devicePlugin");
    cJSON_AddStringToObject(dp, "installedBy", actuators_by_name(a->dp.by));
    add_str_or_null(dp, "namespace", a->dp.ns);
    add_str_or_null(dp, "daemonSet", a->dp.daemonset);
    add_str_or_null(dp, "configMap", a->dp.configmap);
    cJSON_AddBoolToObject(dp, "configManager", a->dp.config_manager);
    add_str_or_null(dp, "defaultConfig", a->dp.default_config);
    add_str_or_null(dp, "version", a->dp.version);
    add_str_or_null(dp, "helmRelease", a->dp.helm_release);
    cJSON *mm = cJSON_AddObjectToObject(o, "migManager");
    cJSON_AddStringToObject(mm, "installedBy", actuators_by_name(a->mig.by));
    add_str_or_null(mm, "namespace", a->mig.ns);
    add_str_or_null(mm, "daemonSet", a->mig.daemonset);
    cJSON *dra = cJSON_AddObjectToObject(o, "dra");
    add_str_or_null(dra, "driver", a->dra_driver);
}

/* one element of a group's "workloads" */
static void workload_write(JsonWriter *jw, const PlanRun *run, const PlanGroup *g, size_t k)
{
    const PlanGroupWorkload *gw = &g->workloads[k];
    const PlanAssignment *a = &g->assign[gw->first];
    const PlanWorkload *w = gw_workload(run, g, gw);
    char lab[64];
    jw_object_begin(jw, NULL);
    jw_string(jw, "namespace", w->ns ? w->ns : "");
    jw_string(jw, "name", w->name ? w->name : "");
    jw_string(jw, "kind", w->kind ? w->kind : "Pod");
    jw_number(jw, "pods", gw->pods);
    jw_number(jw, "observedMemoryMiB", w->has_usage ? (double)w->memory_mib : NAN);    /* NaN: null */
    jw_number(jw, "observedUtilization", w->has_usage ? w->utilization : NAN);
    jw_number(jw, "peakMemoryMiB", w->peak_memory_mib >= 0 ? (double)w->peak_memory_mib : NAN);
    jw_number(jw, "peakUtilization", w->peak_utilization);
    jw_string(jw, "usageSource", !w->has_usage ? "none" : w->from_requests ? "requests" : "metrics");
    jw_string(jw, "assigned", plan_assignment_label(a, lab, sizeof lab));
    jw_bool(jw, "unchanged", a->unchanged);
    jw_object_begin(jw, "request");
    jw_number(jw, gw->request_resource, gw->request_count);
    jw_end(jw);
    if (a->why) jw_string(jw, "reason", plan_assignment_why(a));
    jw_array_begin(jw, "nodes");
    for (size_t j = 0; j < gw->nnodes; j++) jw_string(jw, NULL, gw->nodes[j]);
    jw_end(jw);
    jw_end(jw);
}

/* one element of a group's "nodePlan" */
static void plan_node_write(JsonWriter *jw, const PlanGroup *g, size_t j)
{
    const PlanNode *pn = &g->plan_nodes[j];
    jw_object_begin(jw, NULL);
    jw_string(jw, "name", pn->name);
    jw_number(jw, "gpus", pn->gpus);
    jw_number(jw, "migGPUs", pn->mig_gpus);
    jw_bool(jw, "shared", pn->shared);
    jw_string(jw, "migConfig", pn->mig_config);                     /* NULL: null */
    jw_string(jw, "devicePluginConfig", pn->device_plugin_config);
    jw_bool(jw, "drain", pn->drain);
    jw_bool(jw, "changes", pn->mig_change || pn->dp_change);
    jw_object_begin(jw, "resources");
    for (size_t q = 0; q < pn->expected.n; q++)
        jw_number(jw, pn->expected.items[q].name, (double)(pn->expected.items[q].milli / 1000));
    jw_end(jw);
    jw_number(jw, "unhealthyGPUs", pn->unhealthy);
    if (pn->unhealthy > 0) {
        jw_object_begin(jw, "resourcesAllHealthy");
        for (size_t q = 0; q < pn->expected_max.n; q++)
            jw_number(jw, pn->expected_max.items[q].name, (double)(pn->expected_max.items[q].milli / 1000));
        jw_end(jw);
    }
    jw_end(jw);
}

/* the same as trees, for the whole document (plan_report_json) */
static cJSON *workload_json(const PlanRun *run, const PlanGroup *g, size_t k)
{
    JsonWriter *jw = jw_tree_new();
    if (jw) workload_write(jw, run, g, k);
    return jw_tree_finish(jw);
}

static cJSON *plan_node_json(const PlanGroup *g, size_t j)
{
    JsonWriter *jw = jw_tree_new();
    if (jw) plan_node_write(jw, g, j);
    return jw_tree_finish(jw);
}

/* the document; without full, each group's "workloads" and "nodePlan" and the "manifests" are
 * left empty (the streaming writer below fills them one element at a time); without lists, the
 * groups' "nodes" and the "warnings" too (the writer writes them from the run: 5,000 node names
 * as cJSON strings were 0.5 MB at plan's peak) */
static cJSON *plan_doc(const PlanRun *run, bool full, bool lists)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "apiVersion", KGPU_API_VERSION);
    cJSON_AddStringToObject(doc, "kind", "GPUPlan");
    cJSON_AddStringToObject(doc, "window", run->window);
    cJSON_AddNumberToObject(doc, "percentile", run->percentile);
    cJSON_AddNumberToObject(doc, "headroom", run->headroom);
    cJSON *s = cJSON_AddObjectToObject(doc, "summary");
    cJSON_AddNumberToObject(s, "gpusBefore", run->r.gpus_before);
    cJSON_AddNumberToObject(s, "gpusAfter", run->r.gpus_after);
    cJSON_AddNumberToObject(s, "gpusFreed", run->r.gpus_before - run->r.gpus_after);
    if (run->prices) add_num_or_null(s, "savingsPerHour", round(total_savings(run) * 100) / 100);
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
        for (size_t j = 0; lists && j < g->nodes.n; j++) cJSON_AddItemToArray(nodes, cJSON_CreateString(g->nodes.v[j]));
        cJSON_AddStringToObject(go, "strategy", plan_strategy_name(g->strategy));
        cJSON_AddNumberToObject(go, "gpusBefore", g->gpus_before);
        cJSON_AddNumberToObject(go, "gpusAfter", g->gpus_after);
        if (run->prices) add_num_or_null(go, "savingsPerHour", round(group_savings(run, g) * 100) / 100);
        cJSON_AddNumberToObject(go, "physicalGPUs", g->physical_gpus);
        if (g->strategy == PLAN_TIME_SLICING || g->strategy == PLAN_MPS) {
            cJSON_AddNumberToObject(go, "replicas", g->replicas);
            cJSON_AddStringToObject(go, "allocationPolicy", g->packed ? "packed" : "distributed");
            cJSON_AddNumberToObject(go, "poolGPUs", g->pool_gpus);
            cJSON_AddNumberToObject(go, "freeSharedSlots", g->shared_slots_free);
        } else {
            cJSON_AddNullToObject(go, "replicas");
        }
        cJSON *nf = cJSON_AddArrayToObject(go, "nodesFreed");
        for (size_t j = 0; j < g->nodes_freed.n; j++) cJSON_AddItemToArray(nf, cJSON_CreateString(g->nodes_freed.v[j]));
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
        for (size_t k = 0; full && k < g->nworkloads; k++) cJSON_AddItemToArray(wls, workload_json(run, g, k));
        cJSON *np = cJSON_AddArrayToObject(go, "nodePlan");
        for (size_t j = 0; full && g->strategy != PLAN_NONE && j < g->nplan_nodes; j++)
            cJSON_AddItemToArray(np, plan_node_json(g, j));
        cJSON *rk = cJSON_AddArrayToObject(go, "risks");
        for (size_t j = 0; j < g->risks.n; j++) cJSON_AddItemToArray(rk, cJSON_CreateString(g->risks.v[j]));
        cJSON *nt = cJSON_AddArrayToObject(go, "notes");
        for (size_t j = 0; j < g->notes.n; j++) cJSON_AddItemToArray(nt, cJSON_CreateString(g->notes.v[j]));
        cJSON_AddItemToArray(groups, go);
    }
    cJSON *mf = cJSON_AddArrayToObject(doc, "manifests");
    for (size_t i = 0; full && i < run->m.n; i++) cJSON_AddItemToArray(mf, cJSON_Duplicate(run->m.docs[i], true));
    cJSON *acts = cJSON_AddArrayToObject(doc, "actions");
    for (size_t i = 0; i < run->actions.n; i++) {
        const PlanAction *x = &run->actions.v[i];
        cJSON *ao = cJSON_CreateObject();
        cJSON_AddStringToObject(ao, "kind", plan_action_kind_name(x->kind));
        cJSON_AddStringToObject(ao, "target", x->target);
        cJSON_AddBoolToObject(ao, "drain", x->drain);
        cJSON_AddStringToObject(ao, "detail", x->detail ? x->detail : "");
        if (x->patch) cJSON_AddStringToObject(ao, "patch", x->patch);
        if (x->command) cJSON_AddStringToObject(ao, "command", x->command);
        cJSON_AddItemToArray(acts, ao);
    }
    cJSON *wi = cJSON_AddObjectToObject(doc, "whatIf");
    cJSON *wf = cJSON_AddArrayToObject(wi, "pendingThatWouldFit");
    for (size_t i = 0; i < run->whatif.n; i++) cJSON_AddItemToArray(wf, cJSON_CreateString(run->whatif.v[i]));
    cJSON *cu = cJSON_AddObjectToObject(doc, "current");
    if (run->cur.clusterpolicy) cJSON_AddStringToObject(cu, "clusterPolicy", run->cur.clusterpolicy);
    else cJSON_AddNullToObject(cu, "clusterPolicy");
    if (run->cur.mig_strategy) cJSON_AddStringToObject(cu, "migStrategy", run->cur.mig_strategy);
    else cJSON_AddNullToObject(cu, "migStrategy");
    if (run->r.mig_strategy_after) cJSON_AddStringToObject(cu, "migStrategyAfter", run->r.mig_strategy_after);
    else cJSON_AddNullToObject(cu, "migStrategyAfter");
    cJSON_AddStringToObject(cu, "devicePluginVersion", run->cur.dp_version_text);
    actuators_json(cJSON_AddObjectToObject(doc, "actuators"), &run->act);
    if (run->m.blocked) cJSON_AddStringToObject(doc, "notSafeToApply", run->m.blocked);
    cJSON *w = cJSON_AddArrayToObject(doc, "warnings");
    for (size_t i = 0; lists && i < run->warnings.n; i++) cJSON_AddItemToArray(w, cJSON_CreateString(run->warnings.v[i]));
    return doc;
}

cJSON *plan_report_json(const PlanRun *run) { return plan_doc(run, true, true); }

int plan_report_each_group_json(const PlanRun *run, int (*fn)(void *ctx, const cJSON *group), void *ctx)
{
    cJSON *frame = plan_doc(run, false, true);
    size_t i = 0;
    int rc = 0;
    for (cJSON *go = cJSON_GetObjectItemCaseSensitive(frame, "groups")->child; go && rc == 0; go = go->next, i++) {
        const PlanGroup *g = &run->r.groups[i];
        cJSON *wls = cJSON_CreateArray(), *np = cJSON_CreateArray();
        for (size_t k = 0; k < g->nworkloads; k++) cJSON_AddItemToArray(wls, workload_json(run, g, k));
        for (size_t j = 0; g->strategy != PLAN_NONE && j < g->nplan_nodes; j++) cJSON_AddItemToArray(np, plan_node_json(g, j));
        cJSON_ReplaceItemInObject(go, "workloads", wls);
        cJSON_ReplaceItemInObject(go, "nodePlan", np);
        rc = fn(ctx, go);
        cJSON_ReplaceItemInObject(go, "workloads", cJSON_CreateArray());   /* let them go */
        cJSON_ReplaceItemInObject(go, "nodePlan", cJSON_CreateArray());
    }
    cJSON_Delete(frame);
    return rc;
}

/* JSON through the writer: the frame's members in order, each group's workloads and node plan
 * one element at a time (at 5,000 GPU nodes the whole tree was several times the model) */
int plan_report_write_json(const PlanRun *run, FILE *f)
{
    cJSON *frame = plan_doc(run, false, false);
    JsonWriter *jw = malloc(sizeof *jw);
    if (!jw) { cJSON_Delete(frame); return -1; }
    jw_init(jw, f);
    jw_object_begin(jw, NULL);
    for (const cJSON *m = frame->child; m; m = m->next) {
        if (strcmp(m->string, "manifests") == 0) {          /* the documents themselves, not copies */
            jw_array_begin(jw, "manifests");
            for (size_t i = 0; i < run->m.n; i++) jw_value(jw, NULL, run->m.docs[i]);
            jw_end(jw);
            continue;
        }
        if (strcmp(m->string, "warnings") == 0) {
            jw_array_begin(jw, "warnings");
            for (size_t i = 0; i < run->warnings.n; i++) jw_string(jw, NULL, run->warnings.v[i]);
            jw_end(jw);
            continue;
        }
        if (strcmp(m->string, "groups") != 0) { jw_value(jw, m->string, m); continue; }
        jw_array_begin(jw, "groups");
        size_t i = 0;
        for (const cJSON *go = m->child; go; go = go->next, i++) {
            const PlanGroup *g = &run->r.groups[i];
            jw_object_begin(jw, NULL);
            for (const cJSON *gm = go->child; gm; gm = gm->next) {
                if (strcmp(gm->string, "nodes") == 0) {
                    jw_array_begin(jw, "nodes");
                    for (size_t j = 0; j < g->nodes.n; j++) jw_string(jw, NULL, g->nodes.v[j]);
                    jw_end(jw);
                } else if (strcmp(gm->string, "workloads") == 0) {
                    jw_array_begin(jw, "workloads");
                    for (size_t k = 0; k < g->nworkloads; k++) workload_write(jw, run, g, k);
                    jw_end(jw);
                } else if (strcmp(gm->string, "nodePlan") == 0) {
                    jw_array_begin(jw, "nodePlan");
                    for (size_t j = 0; g->strategy != PLAN_NONE && j < g->nplan_nodes; j++) plan_node_write(jw, g, j);
                    jw_end(jw);
                } else {
                    jw_value(jw, gm->string, gm);
                }
            }
            jw_end(jw);
        }
        jw_end(jw);
    }
    jw_end(jw);
    int rc = jw_release(jw);
    free(jw);
    cJSON_Delete(frame);
    return rc;
}

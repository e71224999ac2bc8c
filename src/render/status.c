/* status.c — the one presentation of `kubectl gpu status` (render/status.h): the table
 * (summary, resources, nodes, problems, operator, metrics), the wide table (plus MIG config,
 * per-resource detail, the pods holding GPUs and, with metrics, every device), and JSON/YAML
 * through one cJSON tree, all from one GpuStatus (analysis/allocation.c).
 */
#include "render/status.h"
#include "analysis/explain_queue.h"
#include "analysis/physical.h"
#include "render/status_dra.h"
#include "render/render.h"
#include "render/json_writer.h"
#include "render/text.h"
#include "render/table.h"
#include "util/error.h"
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "nvidia.com/mig-1g.10gb" -> "mig-1g.10gb", "nvidia.com/gpu" -> "gpu" */
static const char *short_resource(const char *name)
{
    return str_starts_with(name, "nvidia.com/") ? name + strlen("nvidia.com/") : name;
}

static void fmt_gib(char *out, size_t n, int64_t mib)
{
    if (mib <= 0) snprintf(out, n, "-");
    else snprintf(out, n, "%.0fGi", (double)mib / 1024.0);
}

/* a percent of a device: "-" unknown, "?" for what cannot be one (inf, < 0, > 100): never "inf%" */
static void fmt_pct(char *out, size_t n, double v)
{
    if (isnan(v)) snprintf(out, n, "-");
    else if (!isfinite(v) || v < 0 || v > 100.5) snprintf(out, n, "?");
    else snprintf(out, n, "%.0f%%", v);
}

static Color status_color(const NodeStatus *n)
{
    if (!n->ready) return C_RED;
    for (size_t i = 0; i < n->nproblems; i++) {
        ProblemCode c = n->problems[i].code;
        if (c == PROBLEM_NO_DEVICE_PLUGIN || c == PROBLEM_MIG_INVALID || c == PROBLEM_MIG_CONFIG_FAILED) return C_RED;
    }
    return n->nproblems ? C_YELLOW : C_GREEN;
}

/* ------------------------------------------------------------------ table */

static void print_summary(const GpuStatus *st, bool color)
{
    const char *b = color_start(C_BOLD, color), *e = color_end(C_BOLD, color);
    text_printf(stdout, "%sNodes:%s %d (%d with GPUs)   %sGPUs:%s %d physical", b, e, st->nodes, st->gpu_nodes, b, e,
           st->physical_gpus);
    if (st->unknown_gpu_nodes)       /* not counted: a guess would read as a fact */
        text_printf(stdout, " (+%d node%s unknown)", st->unknown_gpu_nodes, st->unknown_gpu_nodes == 1 ? "" : "s");
    if (st->has_metrics) {
        char win[32];
        status_fmt_window(win, sizeof win, st->window_s);
        int idle = physical_idle_total(st);      /* physical GPUs, as the physical line counts them */
        text_printf(stdout, ", %s%d allocated but idle%s (under %g%% for %s)",
               idle ? color_start(C_YELLOW, color) : "", idle, idle ? color_end(C_YELLOW, color) : "",
               st->idle_threshold, win);
    }
    text_printf(stdout, "\n");
    status_print_physical(st, color);
    if (st->node_selector || st->nodes_named || st->pods_ns) {     /* what was left out */
        text_printf(stdout, "Showing:");
        if (st->nodes_named) text_printf(stdout, " the nodes named");
        if (st->node_selector) text_printf(stdout, "%s nodes matching -l %s", st->nodes_named ? "," : "", st->node_selector);
        if (st->pods_ns)
            text_printf(stdout, "%s pods of namespace %s only (allocation counts every namespace)",
                        st->nodes_named || st->node_selector ? ";" : "", st->pods_ns);
        text_printf(stdout, "\n");
    }
    if (st->ntotals) {
        text_printf(stdout, "\n");
        static const char *const headers[] = { "RESOURCE", "ALLOCATABLE", "ALLOCATED" };
        Table *t = table_new(headers, 3);
        for (size_t c = 0; c < 3; c++) table_keep_col(t, c);
        for (size_t i = 0; i < st->ntotals; i++) {
            table_add_row(t);
            table_cell_brief(t, st->totals[i].name, short_resource(st->totals[i].name));
            table_cellf(t, "%lld", (long long)st->totals[i].allocatable);
            table_cellf(t, "%lld", (long long)st->totals[i].allocated);
        }
        table_print(t, stdout, color);
        table_free(t);
    }
    if (st->pending_gpu_pods || st->pending_not_created)
        text_printf(stdout, "\n%s%d GPU pod%s pending%s — run 'kubectl gpu pending %s%s'\n",
               color_start(C_YELLOW, color), st->pending_gpu_pods, st->pending_gpu_pods == 1 ? "" : "s",
               color_end(C_YELLOW, color), st->pods_ns ? "-n " : "-A", st->pods_ns ? st->pods_ns : "");
    if (st->pending_not_created)             /* the note only when such owners exist */
        text_printf(stdout, "(pods only; pending also lists owners whose pods a quota refused)\n");
}

static char *resources_cell(const NodeStatus *n)
{
    Strbuf sb = STRBUF_INIT;
    for (size_t i = 0; i < n->nres; i++)
        strbuf_addf(&sb, "%s%s %lld/%lld", i ? ", " : "", short_resource(n->res[i].name),
                    (long long)n->res[i].allocated, (long long)n->res[i].allocatable);
    if (!n->nres) strbuf_adds(&sb, "-");
    return strbuf_detach(&sb);
}

char *status_node_brief(const NodeStatus *n)
{
    Strbuf sb = STRBUF_INIT;
    if (!n->ready) strbuf_adds(&sb, "NotReady");
    if (!n->schedulable) strbuf_addf(&sb, "%s%s", sb.len ? "," : "", problem_code_name(PROBLEM_CORDONED));
    for (size_t i = 0; i < n->nproblems; i++) {
        ProblemCode c = n->problems[i].code;
        if (c == PROBLEM_NOT_READY || c == PROBLEM_CORDONED) continue;   /* said above */
        strbuf_addf(&sb, "%s%s", sb.len ? "," : "", problem_code_name(c));
    }
    if (!sb.len) strbuf_adds(&sb, "Ready");
    return strbuf_detach(&sb);
}

static void print_nodes(const GpuStatus *st, bool wide, bool color, const size_t *order, bool with_headers)
{
    const char *headers[12];
    size_t nh = 0;
    headers[nh++] = "NAME"; headers[nh++] = "PRODUCT"; headers[nh++] = "GPUS"; headers[nh++] = "MEMORY";
    headers[nh++] = "MODE"; headers[nh++] = "ALLOC";
    if (st->has_metrics) { headers[nh++] = "MEM-USED"; headers[nh++] = "UTIL"; headers[nh++] = "IDLE"; }
    headers[nh++] = "STATUS";
    if (wide) { headers[nh++] = "MIG-CONFIG"; headers[nh++] = "RESOURCES"; }
    Table *t = table_new(headers, nh);
    table_keep_whole(t, wide);
    for (size_t c = 2; c < nh; c++) table_keep_col(t, c);    /* only NAME and PRODUCT are cut */
    for (size_t i = 0; i < st->ngpu_node_list; i++) {
        const NodeStatus *n = &st->gpu_node_list[order[i]];
        char buf[64];
        table_add_row(t);
        table_cell(t, n->name);
        table_cell(t, n->short_product);
        char *gpus = node_status_gpus_cell(n);
        table_cell(t, gpus);
        free(gpus);
        fmt_gib(buf, sizeof buf, n->memory_per_gpu_mib);
        table_cell(t, buf);
        char *mode = node_status_mode(n);     /* MIG and sharing in one column: 80 columns */
        table_cell_color(t, str_starts_with(mode, "MIG INVALID") ? C_RED : C_NONE, mode);
        free(mode);
        if (n->nres) table_cellf(t, "%lld/%lld", (long long)node_status_allocated(n),
                                 (long long)node_status_allocatable(n));
        else if (n->dra.devices) table_cellf(t, "%d/%d", n->dra.allocated, n->dra.devices);   /* DRA devices */
        else table_cell(t, "-");
        if (st->has_metrics) {
            if (!isnan(n->mem_used_mib) && !isnan(n->mem_total_mib) && n->mem_total_mib > 0)
                fmt_pct(buf, sizeof buf, 100.0 * n->mem_used_mib / n->mem_total_mib);
            else
                snprintf(buf, sizeof buf, "-");
            table_cell(t, buf);
            fmt_pct(buf, sizeof buf, n->util);
            table_cell(t, buf);
            int idle = physical_idle_node(n);     /* GPUs held, under --idle-threshold for --window */
            snprintf(buf, sizeof buf, "%d", idle);
            table_cell_color(t, idle ? C_YELLOW : C_NONE, buf);
        }
        char *word = node_status_word(n), *brief = status_node_brief(n);
        table_cell_brief_color(t, status_color(n), word, brief);
        free(word);
        free(brief);
        if (wide) {
            if (n->mig_config)
                table_cellf(t, "%s%s%s%s", n->mig_config, n->mig_config_state ? " (" : "",
                            n->mig_config_state ? n->mig_config_state : "", n->mig_config_state ? ")" : "");
            else
                table_cell(t, "-");
            char *rc = resources_cell(n);
            table_cell(t, rc);
            free(rc);
        }
    }
    table_print_rows(t, stdout, color, with_headers);
    table_free(t);
}

static void print_pods(const GpuStatus *st, bool color)
{
    const char *headers[7];
    size_t nh = 0;
    headers[nh++] = "NODE"; headers[nh++] = "NAMESPACE"; headers[nh++] = "POD"; headers[nh++] = "GPU-RESOURCES";
    headers[nh++] = "PHASE";
    if (st->has_metrics) { headers[nh++] = "MEM-USED"; headers[nh++] = "UTIL"; }
    Table *t = table_new(headers, nh);
    table_keep_whole(t, true);
    for (size_t i = 0; i < st->ngpu_node_list; i++) {
        const NodeStatus *n = &st->gpu_node_list[i];
        for (size_t j = 0; j < n->npods; j++) {
            const HolderPod *p = &n->pods[j];
            table_add_row(t);
            table_cell(t, n->name);
            table_cell(t, p->ns);
            table_cell(t, p->name);
            Strbuf sb = STRBUF_INIT;
            for (size_t k = 0; k < p->nres; k++)
                strbuf_addf(&sb, "%s%s %lld", k ? ", " : "", short_resource(p->res[k].name), (long long)p->res[k].count);
            table_cell(t, strbuf_str(&sb));
            strbuf_clear(&sb);
            table_cell(t, node_status_holder_phase(p));
            if (st->has_metrics) {
                char buf[32];
                HolderUsage u = node_status_holder_usage(n, p);
                if (isnan(u.mem_used_mib)) snprintf(buf, sizeof buf, "-");
                else snprintf(buf, sizeof buf, "%.0fMi", u.mem_used_mib);
                table_cell(t, buf);
                fmt_pct(buf, sizeof buf, u.util);
                table_cell(t, buf);
            }
        }
    }
    if (table_rows(t)) {
        text_printf(stdout, "\n");
        table_print(t, stdout, color);
    }
    table_free(t);
}

/* what a device row says about a device's health and its readings: "unhealthy: XID 79 (DCGM)",
 * "not on the node" (metrics mismatch), "out of range"; NULL when nothing */
static const char *device_note(const GpuDevice *g, char *buf, size_t n)
{
    if (g->beyond_node) return "not a GPU of the node";
    if (g->unhealthy) { snprintf(buf, n, "unhealthy: %s", g->unhealthy); return buf; }
    if (g->util_out_of_range || g->mem_out_of_range) return "reading out of range";
    return NULL;
}

static void print_devices(const GpuStatus *st, bool color)
{
    /* TEMP and POWER when DCGM serves them, HEALTH when some device has something to say */
    bool thermals = false, notes = false;
    for (size_t i = 0; i < st->ngpu_node_list; i++)
        for (size_t j = 0; j < st->gpu_node_list[i].ngpus; j++) {
            const GpuDevice *g = &st->gpu_node_list[i].gpus[j];
            char nb[256];
            if (!isnan(g->temp_c) || !isnan(g->power_w)) thermals = true;
            if (device_note(g, nb, sizeof nb)) notes = true;
        }
    const char *headers[11] = { "NODE", "GPU", "UUID", "MEM-USED", "MEM-TOTAL", "UTIL" };
    size_t nh = 6;
    if (thermals) { headers[nh++] = "TEMP"; headers[nh++] = "POWER"; }
    headers[nh++] = "POD"; headers[nh++] = "IDLE";
    if (notes) headers[nh++] = "HEALTH";
    Table *t = table_new(headers, nh);
    table_keep_whole(t, true);
    for (size_t i = 0; i < st->ngpu_node_list; i++) {
        const NodeStatus *n = &st->gpu_node_list[i];
        for (size_t j = 0; j < n->ngpus; j++) {
            const GpuDevice *g = &n->gpus[j];
            char buf[64];
            table_add_row(t);
            table_cell(t, n->name);
            if (g->mig_profile) table_cellf(t, "%d/%s#%d", g->index, g->mig_profile, g->mig_instance);
            else table_cellf(t, "%d", g->index);
            table_cell(t, g->uuid ? g->uuid : "-");
            if (isnan(g->mem_used_mib)) snprintf(buf, sizeof buf, "-");
            else snprintf(buf, sizeof buf, "%.0fMi", g->mem_used_mib);
            table_cell(t, buf);
            if (isnan(g->mem_total_mib)) snprintf(buf, sizeof buf, "-");
            else snprintf(buf, sizeof buf, "%.0fMi", g->mem_total_mib);
            table_cell(t, buf);
            if (g->util_out_of_range) snprintf(buf, sizeof buf, "?");
            else fmt_pct(buf, sizeof buf, g->util);
            table_cell(t, buf);
            if (thermals) {
                if (isnan(g->temp_c)) table_cell(t, "-"); else table_cellf(t, "%.0fC", g->temp_c);
                if (isnan(g->power_w)) table_cell(t, "-"); else table_cellf(t, "%.0fW", g->power_w);
            }
            if (g->pod) table_cellf(t, "%s/%s", g->pod_ns ? g->pod_ns : "", g->pod);
            else if (g->holders > 1) table_cellf(t, "(%d pods)", g->holders);
            else table_cell(t, "-");
            table_cell_color(t, g->idle_allocated ? C_YELLOW : C_NONE, g->idle_allocated ? "idle" : "-");
            if (notes) {
                char nb[256];
                const char *note = device_note(g, nb, sizeof nb);
                table_cell_color(t, note ? C_RED : C_NONE, note ? note : "-");
            }
        }
    }
    if (table_rows(t)) {
        text_printf(stdout, "\n");
        table_print(t, stdout, color);
    }
    table_free(t);
}

/* The facts of the node table that do not come from current GFD labels, and why a count is
 * "?" or marked "*": one row per such fact (memory only when its label was not in MiB, MIG
 * only when resources alone show it). */
static void print_inventory_notes(const GpuStatus *st, bool wide, bool color)
{
    static const char *const headers[] = { "NODE", "FACT", "SOURCE", "DETAIL" };
    Table *t = table_new(headers, 4);
    table_keep_whole(t, wide);
    for (size_t i = 0; i < st->ngpu_node_list; i++) {
        const NodeStatus *n = &st->gpu_node_list[i];
        const NodeInventory *v = n->inv;
        struct { const char *fact; FactSource src; const char *detail; bool show; } rows[] = {
            { "GPUs", v->physical < 0 ? FACT_NONE : v->physical_src, v->physical_detail,
              v->physical < 0 || v->physical_src != FACT_GFD },
            { "MIG", v->mig_src, v->mig_detail, v->mig_src == FACT_RESOURCES },
            { "sharing", v->sharing_src, v->sharing_detail, v->sharing_src != FACT_GFD && *v->sharing_detail },
            { "memory", v->memory_src, v->memory_detail, v->memory_src == FACT_LABELS },
        };
        for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
            if (!rows[r].show || !*rows[r].detail) continue;
            table_add_row(t);
            table_cell(t, n->name);
            table_cell(t, rows[r].fact);
            table_cell(t, rows[r].src == FACT_NONE ? "unknown" : inventory_fact_source_name(rows[r].src));
            table_cell(t, rows[r].detail);
        }
    }
    if (table_rows(t)) {
        text_printf(stdout, "\n");
        table_print(t, stdout, color);
        if (st->resource_counted_nodes)
            text_printf(stdout, "* counted from advertised resources alone: time-slicing or MPS replicas there would read as GPUs\n");
    }
    table_free(t);
}

static void print_problems(const GpuStatus *st, bool wide, bool color)
{
    static const char *const headers[] = { "NODE", "PROBLEM", "DETAIL" };
    Table *t = table_new(headers, 3);
    table_keep_whole(t, wide);
    for (size_t i = 0; i < st->ngpu_node_list; i++) {
        const NodeStatus *n = &st->gpu_node_list[i];
        for (size_t j = 0; j < n->nproblems; j++) {
            table_add_row(t);
            table_cell(t, n->name);
            table_cell_color(t, C_YELLOW, problem_code_name(n->problems[j].code));
            table_cell(t, n->problems[j].message);
        }
    }
    if (table_rows(t)) {
        text_printf(stdout, "\n");
        table_print(t, stdout, color);
    }
    table_free(t);
}

static void gpus(char *out, size_t n, int64_t milli)
{
    if (milli % 1000) snprintf(out, n, "%.1f", (double)milli / 1000.0);
    else snprintf(out, n, "%lld", (long long)(milli / 1000));
}

/* Queues: per ClusterQueue (Kueue) / Queue (Volcano, KAI), GPUs (explain_queue.h) */
static Table *queues_table(const GpuStatus *st)
{
    static const char *const hdr[] = { "SYSTEM", "QUEUE", "COHORT", "NOMINAL", "BORROWED", "USED", "PENDING", "WORKLOADS" };
    Table *t = table_new(hdr, 8);
    for (size_t i = 0; i < st->nqueues; i++) {
        const QueueSummary *q = &st->queues[i];
        char a[32], b[32], c[32], d[32], w[32];
        gpus(a, sizeof a, q->nominal); gpus(b, sizeof b, q->borrowed); gpus(c, sizeof c, q->used);
        gpus(d, sizeof d, q->pending);
        snprintf(w, sizeof w, "%zu", q->pending_workloads);
        table_add_row(t);
        table_cell(t, queue_system_name(q->system));
        if (q->active) table_cell(t, q->name);
        else {
            char *n = xasprintf("%s (inactive)", q->name);
            table_cell_color(t, C_RED, n);
            free(n);
        }
        table_cell(t, q->cohort ? q->cohort : "-");
        table_cell(t, a); table_cell(t, b); table_cell(t, c);
        table_cell_color(t, q->pending ? C_YELLOW : C_NONE, d);
        table_cell(t, w);
    }
    return t;
}

static void print_queues(const GpuStatus *st, bool color)
{
    if (!st->nqueues) return;
    Table *t = queues_table(st);
    text_printf(stdout, "\nQueues (GPUs):\n");
    table_print(t, stdout, color);
    table_free(t);
}

void status_queues_doc(TextDoc *d, const GpuStatus *st, size_t width)
{
    if (!st->nqueues) {
        text_add(d, TA_DIM, "No Kueue ClusterQueue, Volcano Queue or KAI Queue was read.");
        return;
    }
    text_add(d, TA_STRONG, "GPUs per queue");
    text_newline(d);
    Table *t = queues_table(st);
    table_doc(t, d, width);
    table_free(t);
}

static void print_operator(const GpuStatus *st, bool wide, bool color)
{
    text_printf(stdout, "\n");
    size_t notready = 0;
    for (size_t i = 0; i < st->ncomponents; i++)
        if (st->components[i].ready < st->components[i].desired) notready++;
    if (st->operator_kind == OPERATOR_NONE) {
        text_printf(stdout, st->daemonsets_unreadable ? "GPU Operator: unknown (DaemonSets could not be listed)\n"
                                         : "GPU Operator: not found, nor a device plugin DaemonSet\n");
        return;
    }
    text_printf(stdout, "%s (%s):", st->operator_kind == OPERATOR_GPU_OPERATOR ? "GPU Operator" : "Device plugin without GPU Operator",
           st->operator_ns);
    if (st->clusterpolicy_name) {
        bool ok = str_eq(st->clusterpolicy_state, "ready");
        text_printf(stdout, " ClusterPolicy %s is %s%s%s;", st->clusterpolicy_name, color_start(ok ? C_GREEN : C_RED, color),
               st->clusterpolicy_state ? st->clusterpolicy_state : "without state", color_end(C_RED, color));
    } else if (st->operator_kind == OPERATOR_GPU_OPERATOR && st->clusterpolicy_checked) {
        text_printf(stdout, " no ClusterPolicy;");
    }
    text_printf(stdout, " %zu of %zu DaemonSets fully ready\n", st->ncomponents - notready, st->ncomponents);
    if (!st->ncomponents || (!wide && !notready)) return;
    static const char *const headers[] = { "DAEMONSET", "NAMESPACE", "DESIRED", "READY" };
    Table *t = table_new(headers, 4);
    table_keep_whole(t, wide);
    for (size_t i = 0; i < st->ncomponents; i++) {
        const ComponentStatus *cs = &st->components[i];
        bool ok = cs->ready >= cs->desired;
        if (ok && !wide) continue;
        table_add_row(t);
        table_cell(t, cs->name);
        table_cell(t, cs->ns);
        table_cellf(t, "%d", cs->desired);
        char buf[24];
        snprintf(buf, sizeof buf, "%d", cs->ready);
        table_cell_color(t, ok ? C_NONE : C_RED, buf);
    }
    table_print(t, stdout, color);
    table_free(t);
}

static void print_table_view(const GpuStatus *st, bool wide, bool color, const TableView *view)
{
    size_t *order = status_node_order(st, view ? view->sort_by : NULL);
    if (view && view->no_headers) {            /* rows for a script: the node table alone */
        if (st->ngpu_node_list) print_nodes(st, wide, color, order, false);
        free(order);
        return;
    }
    print_summary(st, color);
    text_printf(stdout, "\n");
    if (st->ngpu_node_list == 0) text_printf(stdout, "No GPU nodes.\n");
    else print_nodes(st, wide, color, order, true);
    free(order);
    if (wide) {
        print_pods(st, color);
        if (st->has_metrics) print_devices(st, color);
    }
    status_dra_print(st, wide, color);
    print_inventory_notes(st, wide, color);
    print_problems(st, wide, color);
    print_queues(st, color);
    print_operator(st, wide, color);
    text_printf(stdout, "\nMetrics: %s (%s)\n", st->metrics_source, st->metrics_detail);
}

void status_print_table(const GpuStatus *st, bool wide, bool color) { print_table_view(st, wide, color, NULL); }

/* ------------------------------------------------------------------ JSON / YAML */

/* key: v, or key: null when v is NULL */
static void status_json_str_or_null(cJSON *o, const char *key, const char *v)
{
    if (v) cJSON_AddStringToObject(o, key, v);
    else cJSON_AddNullToObject(o, key);
}

/* the document, the nodes in order; order NULL leaves "nodes" an empty array (streamed by
 * status_render) */
static cJSON *status_doc(const GpuStatus *st, const size_t *order)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "apiVersion", KGPU_API_VERSION);
    cJSON_AddStringToObject(doc, "kind", "GPUStatus");
    cJSON *s = cJSON_AddObjectToObject(doc, "summary");
    cJSON_AddNumberToObject(s, "nodes", st->nodes);
    cJSON_AddNumberToObject(s, "gpuNodes", st->gpu_nodes);
    cJSON_AddNumberToObject(s, "physicalGPUs", st->physical_gpus);
    cJSON_AddNumberToObject(s, "pendingGPUPods", st->pending_gpu_pods);
    cJSON_AddNumberToObject(s, "waitingWorkloads", st->waiting_workloads);
    if (st->has_metrics) cJSON_AddNumberToObject(s, "idleAllocatedGPUs", physical_idle_total(st));
    else cJSON_AddNullToObject(s, "idleAllocatedGPUs");
    status_physical_json(s, st);
    cJSON *res = cJSON_AddObjectToObject(s, "resources");
    for (size_t i = 0; i < st->ntotals; i++) {
        cJSON *r = cJSON_AddObjectToObject(res, st->totals[i].name);
        cJSON_AddNumberToObject(r, "allocatable", (double)st->totals[i].allocatable);
        cJSON_AddNumberToObject(r, "allocated", (double)st->totals[i].allocated);
    }
    cJSON_AddNumberToObject(s, "gpuNodesUnknown", st->unknown_gpu_nodes);   /* not in physicalGPUs */
    cJSON_AddNumberToObject(s, "gpuNodesCountedFromResources", st->resource_counted_nodes);
    status_dra_summary_json(s, st);
    cJSON *nodes = cJSON_AddArrayToObject(doc, "nodes");
    for (size_t i = 0; order && i < st->ngpu_node_list; i++)
        cJSON_AddItemToArray(nodes, status_node_json(st, order[i]));
    if (st->nqueues) {                          /* product.md, third round: GPUs per queue */
        cJSON *qs = cJSON_AddArrayToObject(doc, "queues");
        for (size_t i = 0; i < st->nqueues; i++) {
            const QueueSummary *q = &st->queues[i];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "system", queue_system_name(q->system));
            cJSON_AddStringToObject(o, "name", q->name);
            status_json_str_or_null(o, "cohort", q->cohort);
            cJSON_AddNumberToObject(o, "nominal", (double)q->nominal / 1000.0);
            cJSON_AddNumberToObject(o, "borrowed", (double)q->borrowed / 1000.0);
            cJSON_AddNumberToObject(o, "used", (double)q->used / 1000.0);
            cJSON_AddNumberToObject(o, "pending", (double)q->pending / 1000.0);
            cJSON_AddNumberToObject(o, "pendingWorkloads", (double)q->pending_workloads);
            cJSON_AddBoolToObject(o, "active", q->active);
            cJSON_AddItemToArray(qs, o);
        }
    }
    cJSON *op = cJSON_AddObjectToObject(doc, "operator");
    status_json_str_or_null(op, "namespace", st->operator_ns);
    cJSON_AddStringToObject(op, "type", st->operator_kind == OPERATOR_GPU_OPERATOR ? "gpu-operator"
                                        : st->operator_kind == OPERATOR_DEVICE_PLUGIN ? "device-plugin" : "none");
    cJSON_AddBoolToObject(op, "daemonSetsReadable", !st->daemonsets_unreadable);
    cJSON *comps = cJSON_AddArrayToObject(op, "components");
    for (size_t i = 0; i < st->ncomponents; i++) {
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "name", st->components[i].name);
        cJSON_AddStringToObject(c, "namespace", st->components[i].ns);
        cJSON_AddNumberToObject(c, "desired", st->components[i].desired);
        cJSON_AddNumberToObject(c, "ready", st->components[i].ready);
        cJSON_AddItemToArray(comps, c);
    }
    if (st->clusterpolicy_name) {
        cJSON *cp = cJSON_AddObjectToObject(op, "clusterPolicy");
        cJSON_AddStringToObject(cp, "name", st->clusterpolicy_name);
        status_json_str_or_null(cp, "state", st->clusterpolicy_state);
    } else {
        cJSON_AddNullToObject(op, "clusterPolicy");
    }
    cJSON *m = cJSON_AddObjectToObject(doc, "metrics");
    cJSON_AddStringToObject(m, "source", st->metrics_source);
    cJSON_AddStringToObject(m, "detail", st->metrics_detail);
    if (st->has_metrics) {
        cJSON_AddNumberToObject(m, "idleThreshold", st->idle_threshold);
        cJSON_AddNumberToObject(m, "windowSeconds", st->window_s);
    }
    cJSON *fl = cJSON_AddObjectToObject(doc, "filter");     /* what -n, -l and NODE arguments left out */
    status_json_str_or_null(fl, "namespace", st->pods_ns);
    status_json_str_or_null(fl, "selector", st->node_selector);
    cJSON_AddBoolToObject(fl, "nodesNamed", st->nodes_named);
    cJSON *w = cJSON_AddArrayToObject(doc, "warnings");
    for (size_t i = 0; i < st->warnings.n; i++) cJSON_AddItemToArray(w, cJSON_CreateString(st->warnings.v[i]));
    return doc;
}

static cJSON *status_doc_sorted(const GpuStatus *st, const char *sort_by)
{
    size_t *order = status_node_order(st, sort_by);
    cJSON *doc = status_doc(st, order);
    free(order);
    return doc;
}

cJSON *status_to_json(const GpuStatus *st) { return status_doc_sorted(st, NULL); }

/* JSON or YAML through the writer: the frame's members in order, the nodes one at a time */
static int status_write(const GpuStatus *st, const char *sort_by, bool yaml)
{
    cJSON *frame = status_doc(st, NULL);
    JsonWriter *jw = malloc(sizeof *jw);
    if (!jw) { cJSON_Delete(frame); return -1; }
    if (yaml) jw_init_yaml(jw, stdout, false);
    else jw_init(jw, stdout);
    jw_object_begin(jw, NULL);
    for (const cJSON *m = frame->child; m; m = m->next) {
        if (strcmp(m->string, "nodes") != 0) { jw_value(jw, m->string, m); continue; }
        jw_array_begin(jw, "nodes");
        size_t *order = status_node_order(st, sort_by);
        for (size_t i = 0; i < st->ngpu_node_list && !jw->failed; i++) status_node_write(jw, st, order[i]);
        free(order);
        jw_end(jw);
    }
    jw_end(jw);
    int rc = jw_release(jw);
    free(jw);
    cJSON_Delete(frame);
    return rc;
}

int status_render_view(const GpuStatus *st, RenderFormat fmt, bool color, const TableView *view, Error *err)
{
    const char *sort_by = view ? view->sort_by : NULL;
    if (fmt == RENDER_JSON || fmt == RENDER_YAML) return status_write(st, sort_by, fmt == RENDER_YAML);
    for (size_t i = 0; i < st->warnings.n; i++) text_printf(stderr, "warning: %s\n", st->warnings.v[i]);
    if (view && view->columns) return status_print_columns(st, view, err);
    if (fmt == RENDER_NAME) return status_print_names(st, sort_by);
    print_table_view(st, fmt == RENDER_WIDE, color, view);
    return 0;
}

int status_render(const GpuStatus *st, RenderFormat fmt, bool color) { return status_render_view(st, fmt, color, NULL, NULL); }

/* status_groups.c — `status --by`: the groups (analysis/groups.h) as a table, JSON or YAML. */
#include "render/status.h"
#include "render/json_writer.h"
#include "render/table.h"
#include "render/text.h"
#include "util/util.h"
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double round2(double v) { return round(v * 100) / 100; }

/* two decimals; null when unknown */
static void add_num2(cJSON *o, const char *k, double v)
{
    if (isnan(v)) cJSON_AddNullToObject(o, k);
    else cJSON_AddNumberToObject(o, k, round2(v));
}

static void cell2(Table *t, double v)
{
    if (isnan(v)) table_cell(t, "?");
    else table_cellf(t, "%.2f", v);
}

static cJSON *groups_doc(const StatusGroups *g, const GpuStatus *st)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "apiVersion", KGPU_API_VERSION);
    cJSON_AddStringToObject(doc, "kind", "GPUStatusByGroup");
    cJSON_AddStringToObject(doc, "by", group_by_name(g->by));
    if (g->has_hours) cJSON_AddNumberToObject(doc, "windowSeconds", g->window_s);
    cJSON *arr = cJSON_AddArrayToObject(doc, "groups");
    for (size_t i = 0; i < g->n; i++) {
        const StatusGroup *sg = &g->v[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", sg->name);
        cJSON *res = cJSON_AddObjectToObject(o, "resources");
        for (size_t r = 0; r < sg->nres; r++)
            cJSON_AddNumberToObject(cJSON_AddObjectToObject(res, sg->res[r].name), "allocated", (double)sg->res[r].count);
        for (size_t r = 0; r < sg->ncap; r++) {      /* --by node|product: what the nodes offer */
            const GroupCapacity *gc = &sg->cap[r];
            cJSON *ro = cJSON_GetObjectItemCaseSensitive(res, gc->name);
            if (!ro) {
                ro = cJSON_AddObjectToObject(res, gc->name);
                cJSON_AddNumberToObject(ro, "allocated", (double)gc->allocated);
            }
            cJSON_AddNumberToObject(ro, "allocatable", (double)gc->allocatable);
            cJSON_AddNumberToObject(ro, "free", (double)gc->free);
            cJSON_AddNumberToObject(ro, "largestFreeOnNode", (double)gc->largest_free);
        }
        if (g->by == GROUP_NODE || g->by == GROUP_PRODUCT) cJSON_AddNumberToObject(o, "nodes", sg->nodes);
        cJSON_AddNumberToObject(o, "pods", sg->pods);
        cJSON_AddNumberToObject(o, "physicalGPUs", round2(sg->physical));
        if (g->has_metrics) cJSON_AddNumberToObject(o, "idleGPUs", sg->idle);
        if (g->has_hours) {
            add_num2(o, "gpuHours", sg->gpu_hours);
            add_num2(o, "idleGPUHours", sg->idle_gpu_hours);
        }
        if (g->has_prices) {
            add_num2(o, "costPerHour", sg->cost_per_hour);
            if (g->has_hours) {
                add_num2(o, "cost", sg->cost);            /* over the window */
                add_num2(o, "idleCost", sg->idle_cost);
            }
        }
        cJSON_AddItemToArray(arr, o);
    }
    cJSON *w = cJSON_AddArrayToObject(doc, "warnings");
    for (size_t i = 0; i < st->warnings.n; i++) cJSON_AddItemToArray(w, cJSON_CreateString(st->warnings.v[i]));
    return doc;
}

static const char *short_name(const char *n)
{
    return str_starts_with(n, "nvidia.com/") ? n + strlen("nvidia.com/") : n;
}

static int64_t held_units(const StatusGroup *sg, const char *name, int64_t otherwise)
{
    for (size_t r = 0; r < sg->nres; r++) if (str_eq(sg->res[r].name, name)) return sg->res[r].count;
    return otherwise;
}

/* --by node|product: "gpu 11/20, mig-1g.10gb 3/16" (allocated/allocatable, as the node table's
 * ALLOC) and "gpu 9 (8 on one node)" (free on Ready schedulable nodes; the most on one node
 * when the free units are spread) */
static char *capacity_text(const StatusGroup *sg, bool free_units)
{
    Strbuf sb = STRBUF_INIT;
    for (size_t r = 0; r < sg->ncap; r++) {
        const GroupCapacity *gc = &sg->cap[r];
        const char *sep = r ? ", " : "";
        if (!free_units)
            strbuf_addf(&sb, "%s%s %lld/%lld", sep, short_name(gc->name), (long long)held_units(sg, gc->name, gc->allocated),
                        (long long)gc->allocatable);
        else if (gc->largest_free < gc->free)
            strbuf_addf(&sb, "%s%s %lld (%lld on one node)", sep, short_name(gc->name), (long long)gc->free,
                        (long long)gc->largest_free);
        else
            strbuf_addf(&sb, "%s%s %lld", sep, short_name(gc->name), (long long)gc->free);
    }
    if (!sg->ncap) strbuf_adds(&sb, "-");
    return strbuf_detach(&sb);
}

static char *resources_text(const StatusGroup *sg)
{
    Strbuf sb = STRBUF_INIT;
    for (size_t r = 0; r < sg->nres; r++) {
        const char *n = sg->res[r].name;
        if (str_starts_with(n, "nvidia.com/")) n += strlen("nvidia.com/");
        strbuf_addf(&sb, "%s%s %lld", r ? ", " : "", n, (long long)sg->res[r].count);
    }
    if (!sg->nres) strbuf_adds(&sb, "-");
    return strbuf_detach(&sb);
}

int status_groups_render(const StatusGroups *g, const GpuStatus *st, RenderFormat fmt, bool color, bool no_headers)
{
    if (fmt == RENDER_JSON || fmt == RENDER_YAML) {
        cJSON *doc = groups_doc(g, st);
        int rc = fmt == RENDER_JSON ? json_render(stdout, doc) : yaml_render(stdout, doc, false);
        cJSON_Delete(doc);
        return rc;
    }
    for (size_t i = 0; i < st->warnings.n; i++) text_printf(stderr, "warning: %s\n", st->warnings.v[i]);
    if (fmt == RENDER_NAME) {
        for (size_t i = 0; i < g->n; i++)
            text_printf(stdout, "%s/%s\n", g->by == GROUP_NODE ? "node" : group_by_name(g->by), g->v[i].name);
        return 0;
    }
    bool nodes = g->by == GROUP_NODE || g->by == GROUP_PRODUCT;   /* groups of nodes: what they offer */
    const char *headers[13];
    size_t nh = 0;
    headers[nh++] = g->by == GROUP_NAMESPACE ? "NAMESPACE" : g->by == GROUP_NODE ? "NODE"
                  : g->by == GROUP_WORKLOAD ? "WORKLOAD" : "PRODUCT";
    if (g->by == GROUP_PRODUCT) headers[nh++] = "NODES";
    headers[nh++] = "PODS";
    headers[nh++] = "PHYSICAL";
    if (g->has_metrics) headers[nh++] = "IDLE";
    if (g->has_hours) { headers[nh++] = "GPU-HOURS"; headers[nh++] = "IDLE-GPU-HOURS"; }
    if (g->has_prices) headers[nh++] = "USD/H";
    if (g->has_prices && g->has_hours) { headers[nh++] = "COST"; headers[nh++] = "IDLE-COST"; }
    headers[nh++] = "ALLOCATED";
    if (nodes) headers[nh++] = "FREE";
    Table *t = table_new(headers, nh);
    for (size_t c = 1; c < nh; c++) table_keep_col(t, c);        /* counts: never cut */
    for (size_t i = 0; i < g->n; i++) {
        const StatusGroup *sg = &g->v[i];
        table_add_row(t);
        table_cell(t, sg->name);
        if (g->by == GROUP_PRODUCT) table_cellf(t, "%d", sg->nodes);
        table_cellf(t, "%d", sg->pods);
        table_cellf(t, "%.2f", sg->physical);
        if (g->has_metrics) {
            char buf[24];
            snprintf(buf, sizeof buf, "%d", sg->idle);
            table_cell_color(t, sg->idle ? C_YELLOW : C_NONE, buf);
        }
        if (g->has_hours) { cell2(t, sg->gpu_hours); cell2(t, sg->idle_gpu_hours); }
        if (g->has_prices) cell2(t, sg->cost_per_hour);
        if (g->has_prices && g->has_hours) { cell2(t, sg->cost); cell2(t, sg->idle_cost); }
        char *rt = nodes ? capacity_text(sg, false) : resources_text(sg);
        table_cell(t, rt);
        free(rt);
        if (nodes) {
            char *ft = capacity_text(sg, true);
            table_cell(t, ft);
            free(ft);
        }
    }
    if (g->n == 0) text_printf(stdout, "No GPUs held.\n");
    else {
        if (g->has_hours && !no_headers) {
            char win[32];
            status_fmt_window(win, sizeof win, g->window_s);
            text_printf(stdout, "GPU-hours: physical GPUs held over the last %s; idle: under %g%% utilization\n",
                        win, st->idle_threshold);
            if (g->has_prices)
                text_printf(stdout, "COST, IDLE-COST: USD over the last %s; USD/H: per hour as held now\n", win);
        }
        table_print_rows(t, stdout, color, !no_headers);
    }
    table_free(t);
    return 0;
}

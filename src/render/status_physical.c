/* status_physical.c — physical GPUs in use, idle, free and unavailable (analysis/physical.h)
 * in the status summary, a node's JSON and the summary's text line, and the --window as typed:
 * below status.c, status_node.c and status_groups.c, which use them. */
#include "render/status.h"
#include "analysis/physical.h"
#include "render/json_writer.h"
#include "render/table.h"
#include "render/text.h"
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>

/* "1h", "90m", "7d": the --window as typed (util_format_age would say "60m") */
void status_fmt_window(char *out, size_t n, double seconds)
{
    long long s = (long long)seconds;
    if (s > 0 && s % 86400 == 0) snprintf(out, n, "%lldd", s / 86400);
    else if (s > 0 && s % 3600 == 0) snprintf(out, n, "%lldh", s / 3600);
    else if (s > 0 && s % 60 == 0) snprintf(out, n, "%lldm", s / 60);
    else snprintf(out, n, "%llds", s);
}

/* the "physical" object as member key of the open object (key NULL: the document) */
static void physical_write(JsonWriter *jw, const char *key, PhysicalUse u, bool metrics, int idle)
{
    jw_object_begin(jw, key);
    jw_number(jw, "inUse", u.in_use);
    if (metrics) jw_number(jw, "idleAllocated", idle < u.in_use ? idle : u.in_use);
    else jw_null(jw, "idleAllocated");
    jw_number(jw, "free", u.free_);
    jw_number(jw, "unavailable", u.unavailable);
    jw_number(jw, "inUseMin", u.in_use_min);      /* MIG parents unknown: a range */
    jw_number(jw, "inUseMax", u.in_use_max);
    jw_end(jw);
}

static void add_num2(cJSON *o, const char *k, double v)
{
    if (isnan(v)) cJSON_AddNullToObject(o, k);
    else cJSON_AddNumberToObject(o, k, round(v * 100) / 100);
}

/* idle GPUs of the nodes whose GPUs are counted: a part of the physical line's "in use" */
static int idle_counted(const GpuStatus *st)
{
    int t = 0;
    for (size_t i = 0; i < st->ngpu_node_list; i++)
        if (st->gpu_node_list[i].inv->physical >= 0) t += physical_idle_node(&st->gpu_node_list[i]);
    return t;
}

void status_physical_json(cJSON *summary, const GpuStatus *st)
{
    JsonWriter *jw = jw_tree_new();
    if (jw) physical_write(jw, NULL, physical_use_total(st), st->has_metrics, idle_counted(st));
    cJSON *phys = jw_tree_finish(jw);
    if (phys) cJSON_AddItemToObject(summary, "physical", phys);
    if (st->has_cost && !st->has_hours)      /* --price, but no series to count hours from */
        cJSON_AddNullToObject(summary, "hours");
    if (st->has_hours) {            /* status --price: over the window */
        cJSON *h = cJSON_AddObjectToObject(summary, "hours");
        cJSON_AddNumberToObject(h, "windowSeconds", st->window_s);
        add_num2(h, "gpuHours", st->gpu_hours);
        add_num2(h, "idleGPUHours", st->idle_gpu_hours);
        if (st->has_cost) add_num2(h, "idleCost", st->idle_cost);
    }
}

void status_node_physical_write(JsonWriter *jw, const NodeStatus *n, bool metrics)
{
    physical_write(jw, "physical", physical_use_node(n), metrics, physical_idle_node(n));
}

void status_print_physical(const GpuStatus *st, bool color)
{
    PhysicalUse u = physical_use_total(st);
    if (!st->physical_gpus) return;
    const char *b = color_start(C_BOLD, color), *e = color_end(C_BOLD, color);
    text_printf(stdout, "%sPhysical GPUs:%s %d in use", b, e, u.in_use);
    if (st->has_metrics) {                       /* idle is a part of in use */
        int idle = idle_counted(st);
        text_printf(stdout, " (%s%d idle%s)", idle ? color_start(C_YELLOW, color) : "", idle,
                    idle ? color_end(C_YELLOW, color) : "");
    }
    text_printf(stdout, ", %d free, %s%d unavailable%s\n", u.free_, u.unavailable ? color_start(C_RED, color) : "",
                u.unavailable, u.unavailable ? color_end(C_RED, color) : "");
    if (u.in_use_min != u.in_use_max)            /* 80 columns: the range on its own line */
        text_printf(stdout, "  (at least %d in use: MIG slices and replicas do not name their GPU)\n", u.in_use_min);
    if (st->has_cost && !st->has_hours)
        text_printf(stdout, "%sGPU-hours:%s not measured: --price needs the DCGM history of Prometheus (metrics: %s)\n",
                    b, e, st->metrics_source ? st->metrics_source : "none");
    if (st->has_hours) {
        char win[32], held[32], idle[32], cost[48] = "";
        status_fmt_window(win, sizeof win, st->window_s);
        snprintf(held, sizeof held, "%.2f", st->gpu_hours);
        if (isnan(st->idle_gpu_hours)) snprintf(idle, sizeof idle, "?");
        else snprintf(idle, sizeof idle, "%.2f", st->idle_gpu_hours);
        if (st->has_cost && isnan(st->idle_cost)) snprintf(cost, sizeof cost, " = ? USD (a product has no --price)");
        else if (st->has_cost) snprintf(cost, sizeof cost, " = %.2f USD", st->idle_cost);
        text_printf(stdout, "%sGPU-hours (last %s):%s %s held, %s%s idle%s%s\n", b, win, e, held,
                    st->idle_gpu_hours > 0 ? color_start(C_YELLOW, color) : "", idle,
                    st->idle_gpu_hours > 0 ? color_end(C_YELLOW, color) : "", cost);
    }
}

/* status_view.c — kubectl's --sort-by and -o name for status's node table.
 *
 * --sort-by takes the field paths of a node in `status -o json` that the table shows (kubectl
 * sorts `get` output by a JSONPath into the object; .metadata.name is accepted for the name as
 * kubectl users type it).  Ascending, as kubectl; ties and unknown values keep the table's
 * order (by name), unknown values last.
 */
#include "render/status.h"
#include "analysis/physical.h"
#include "render/table.h"
#include <cjson/cJSON.h>
#include "render/text.h"
#include "util/sort.h"
#include "util/util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { F_NAME, F_PRODUCT, F_PHYSICAL, F_MEM_PER_GPU, F_MEM, F_ALLOCATED, F_ALLOCATABLE, F_MEM_USED,
               F_UTIL, F_READY } SortField;

static const struct { const char *path; SortField f; } fields[] = {
    { ".metadata.name", F_NAME },     { ".name", F_NAME },
    { ".product", F_PRODUCT },        { ".physicalGPUs", F_PHYSICAL },
    { ".gpuMemoryPerGPUMiB", F_MEM_PER_GPU }, { ".gpuMemoryMiB", F_MEM },
    { ".allocated", F_ALLOCATED },    { ".allocatable", F_ALLOCATABLE },
    { ".memoryUsedMiB", F_MEM_USED }, { ".utilization", F_UTIL },
    { ".ready", F_READY },
};

const char status_sort_fields_help[] =
    ".metadata.name, .product, .physicalGPUs, .gpuMemoryPerGPUMiB, .gpuMemoryMiB, .allocated, .allocatable, "
    ".memoryUsedMiB, .utilization, .ready";

static int field_of(const char *path)
{
    if (!path) return -1;
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
        if (strcmp(fields[i].path, path) == 0) return (int)fields[i].f;
    /* kubectl also takes "{.name}" */
    size_t n = strlen(path);
    if (n > 2 && path[0] == '{' && path[n - 1] == '}') {
        char inner[64];
        if (n - 2 >= sizeof inner) return -1;
        memcpy(inner, path + 1, n - 2);
        inner[n - 2] = '\0';
        return field_of(inner);
    }
    return -1;
}

bool status_sort_field_known(const char *path) { return field_of(path) >= 0; }

/* the field's number for a node; NAN when unknown */
static double number_of(const NodeStatus *n, SortField f)
{
    switch (f) {
    case F_PHYSICAL: return n->inv->physical >= 0 ? n->inv->physical : NAN;
    case F_MEM_PER_GPU: return n->memory_per_gpu_mib > 0 ? (double)n->memory_per_gpu_mib : NAN;
    case F_MEM: return n->memory_mib > 0 ? (double)n->memory_mib : NAN;
    case F_ALLOCATED: return (double)node_status_allocated(n);
    case F_ALLOCATABLE: return (double)node_status_allocatable(n);
    case F_MEM_USED: return n->mem_used_mib;
    case F_UTIL: return n->util;
    case F_READY: return n->ready ? 1 : 0;
    default: return NAN;
    }
}

typedef struct { const GpuStatus *st; SortField f; } Ctx;

static int cmp_nodes(const void *a, const void *b, void *vctx)
{
    const Ctx *ctx = vctx;
    size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
    const NodeStatus *x = &ctx->st->gpu_node_list[ia], *y = &ctx->st->gpu_node_list[ib];
    int c = 0;
    if (ctx->f == F_NAME || ctx->f == F_PRODUCT) {
        const char *sx = ctx->f == F_NAME ? x->name : x->product, *sy = ctx->f == F_NAME ? y->name : y->product;
        if (!sx || !sy) c = (!sx) - (!sy);
        else c = strcmp(sx, sy);
    } else {
        double dx = number_of(x, ctx->f), dy = number_of(y, ctx->f);
        if (isnan(dx) || isnan(dy)) c = isnan(dx) - isnan(dy);
        else c = dx < dy ? -1 : dx > dy;
    }
    if (c) return c;
    return ia < ib ? -1 : ia > ib;
}

size_t *status_node_order(const GpuStatus *st, const char *sort_by)
{
    size_t *order = xcalloc(st->ngpu_node_list ? st->ngpu_node_list : 1, sizeof *order);
    for (size_t i = 0; i < st->ngpu_node_list; i++) order[i] = i;
    int f = field_of(sort_by);
    if (f >= 0) {
        Ctx ctx = { st, (SortField)f };
        sort_r(order, st->ngpu_node_list, sizeof *order, cmp_nodes, &ctx);
    }
    return order;
}

int status_print_names(const GpuStatus *st, const char *sort_by)
{
    size_t *order = status_node_order(st, sort_by);
    for (size_t i = 0; i < st->ngpu_node_list; i++) text_printf(stdout, "node/%s\n", st->gpu_node_list[order[i]].name);
    free(order);
    return ferror(stdout) ? -1 : 0;
}

/* ---- physical GPUs (analysis/physical.h) ---- */

static void physical_members(cJSON *o, PhysicalUse u, bool metrics, int idle)
{
    cJSON_AddNumberToObject(o, "inUse", u.in_use);
    if (metrics) cJSON_AddNumberToObject(o, "idleAllocated", idle < u.in_use ? idle : u.in_use);
    else cJSON_AddNullToObject(o, "idleAllocated");
    cJSON_AddNumberToObject(o, "free", u.free_);
    cJSON_AddNumberToObject(o, "unavailable", u.unavailable);
    cJSON_AddNumberToObject(o, "inUseMin", u.in_use_min);      /* MIG parents unknown: a range */
    cJSON_AddNumberToObject(o, "inUseMax", u.in_use_max);
}

void status_physical_json(cJSON *summary, const GpuStatus *st)
{
    physical_members(cJSON_AddObjectToObject(summary, "physical"), physical_use_total(st), st->has_metrics,
                     st->idle_allocated_gpus);
}

void status_node_physical_json(cJSON *node, const NodeStatus *n, bool metrics)
{
    physical_members(cJSON_AddObjectToObject(node, "physical"), physical_use_node(n), metrics, n->idle_allocated);
}

void status_print_physical(const GpuStatus *st, bool color)
{
    PhysicalUse u = physical_use_total(st);
    if (!st->physical_gpus) return;
    const char *b = color_start(C_BOLD, color), *e = color_end(C_BOLD, color);
    text_printf(stdout, "%sPhysical GPUs:%s %d in use", b, e, u.in_use);
    if (st->has_metrics) {                       /* idle is a part of in use */
        int idle = st->idle_allocated_gpus < u.in_use ? st->idle_allocated_gpus : u.in_use;
        text_printf(stdout, " (%s%d idle%s)", idle ? color_start(C_YELLOW, color) : "", idle,
                    idle ? color_end(C_YELLOW, color) : "");
    }
    text_printf(stdout, ", %d free, %s%d unavailable%s\n", u.free_, u.unavailable ? color_start(C_RED, color) : "",
                u.unavailable, u.unavailable ? color_end(C_RED, color) : "");
    if (u.in_use_min != u.in_use_max)            /* 80 columns: the range on its own line */
        text_printf(stdout, "  (at least %d in use: MIG slices and replicas do not name their GPU)\n", u.in_use_min);
}

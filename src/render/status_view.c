/* status_view.c — kubectl's --sort-by and -o name for status's node table.
 *
 * --sort-by takes the field paths of a node in `status -o json` that the table shows (kubectl
 * sorts `get` output by a JSONPath into the object; .metadata.name is accepted for the name as
 * kubectl users type it).  Ascending, as kubectl; ties and unknown values keep the table's
 * order (by name), unknown values last.
 */
#include "render/status.h"
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
    case F_PHYSICAL: return n->inv.physical >= 0 ? n->inv.physical : NAN;
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

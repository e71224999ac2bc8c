/* status_view.c — kubectl's --sort-by and -o name for status's node table.
 *
 * --sort-by takes the field paths of a node in `status -o json` that the table shows (kubectl
 * sorts `get` output by a JSONPath into the object; .metadata.name is accepted for the name as
 * kubectl users type it), and any other JSONPath into a node of -o json (render/jsonpath.h),
 * sorted by its first value.  Ascending, as kubectl; ties and unknown values keep the table's
 * order (by name), unknown values last.
 */
#include "render/status.h"
#include "analysis/physical.h"
#include "render/table.h"
#include "render/custom_columns.h"
#include "render/jsonpath.h"
#include "render/sort_field.h"
#include "util/error.h"
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

static const SortFieldName fields[] = {
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

#define NFIELDS (sizeof fields / sizeof *fields)
static int field_of(const char *path) { return sort_field_lookup(fields, NFIELDS, path); }
static JsonPath *sort_path(const char *path) { return sort_field_jsonpath(fields, NFIELDS, path); }

bool status_sort_field_known(const char *path) { return sort_field_known(fields, NFIELDS, path); }

/* per node, a copy of the first value at p in its -o json (NULL: none) */
static cJSON **path_keys(const GpuStatus *st, const JsonPath *p)
{
    cJSON **keys = xcalloc(st->ngpu_node_list ? st->ngpu_node_list : 1, sizeof *keys);
    for (size_t i = 0; i < st->ngpu_node_list; i++) {
        cJSON *n = status_node_json(st, i);
        const cJSON *v = jsonpath_first(p, n);
        keys[i] = v ? cJSON_Duplicate(v, true) : NULL;
        cJSON_Delete(n);
    }
    return keys;
}

static void free_keys(cJSON **keys, size_t n)
{
    for (size_t i = 0; i < n; i++) cJSON_Delete(keys[i]);
    free(keys);
}

bool status_sort_path_missing(const GpuStatus *st, const char *sort_by)
{
    JsonPath *p = sort_path(sort_by);
    if (!p || !st->ngpu_node_list) { jsonpath_free(p); return false; }
    cJSON **keys = path_keys(st, p);
    bool any = false;
    for (size_t i = 0; i < st->ngpu_node_list; i++) any |= keys[i] != NULL;
    free_keys(keys, st->ngpu_node_list);
    jsonpath_free(p);
    return !any;
}

static int cmp_keys(const void *a, const void *b, void *vkeys)
{
    cJSON *const *keys = vkeys;
    size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
    int c = jsonpath_value_compare(keys[ia], keys[ib]);
    if (c) return c;
    return ia < ib ? -1 : ia > ib;
}

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
    } else {
        JsonPath *p = sort_path(sort_by);
        if (p) {                                   /* one small key per node, not the nodes' JSON */
            cJSON **keys = path_keys(st, p);
            sort_r(order, st->ngpu_node_list, sizeof *order, cmp_keys, keys);
            free_keys(keys, st->ngpu_node_list);
            jsonpath_free(p);
        }
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

/* ---- -o custom-columns: a row per node of -o json, in --sort-by order, one tree at a time ---- */

int status_print_columns(const GpuStatus *st, const TableView *view, Error *err)
{
    size_t *order = status_node_order(st, view->sort_by);
    int rc = 0;
    for (size_t i = 0; i < st->ngpu_node_list && rc == 0; i++) {
        cJSON *n = status_node_json(st, order[i]);
        rc = n ? custom_columns_add(view->columns, n, err) : (error_set(err, "out of memory"), -1);
        cJSON_Delete(n);
    }
    free(order);
    if (rc < 0) return -1;
    if (!custom_columns_rows(view->columns)) text_printf(stderr, "No GPU nodes.\n");
    return custom_columns_print(view->columns, stdout, view->no_headers);
}

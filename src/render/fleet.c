/* fleet.c — a fleet's status or pending GPU pods over several contexts (render/fleet.h).
 *
 * Reads only what each context's own document says (its summary, nodes, pods): the figures of
 * a context here are those `kubectl gpu status --context X -o json` prints, added up.
 */
#include "render/fleet.h"
#include "analysis/allocation.h"
#include "render/json_writer.h"
#include "render/table.h"
#include "render/text.h"
#include "util/util.h"
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a sum over the contexts that answered; unknown once one of them could not say */
typedef struct { double v; bool unknown; } FleetSum;

typedef struct {
    char *product;               /* short name, as the status table prints it */
    double free, most_on_node;
    double in_context;           /* free in the context being read */
    Strbuf where;                /* "ctx-a (6), ctx-b (2)" */
} ProductFree;

struct FleetRender {
    FleetKind kind;
    RenderFormat fmt;
    bool color, no_headers;
    JsonWriter *jw;              /* JSON/YAML: open from new to finish */
    Table *contexts_t, *rows_t;  /* table: per context, per node (pod) */
    ProductFree *products; size_t nproducts, capproducts;
    size_t ncontexts, answered;
    FleetSum physical, in_use, idle, free_, unavailable, pending, waiting;
    bool any_waiting;            /* some context reported waiting workloads (queues) */
    size_t not_created;          /* pending: owners listed whose pods a quota refused */
};

static const char *const status_ctx_headers[] = { "CONTEXT", "GPU NODES", "GPUS", "IN USE", "IDLE", "FREE",
                                                  "UNAVAILABLE", "PENDING", "WAITING" };
static const char *const status_node_headers[] = { "CONTEXT", "NAME", "PRODUCT", "GPUS", "IN USE", "FREE", "STATUS" };
static const char *const pending_headers[] = { "CONTEXT", "NAMESPACE", "NAME", "GPUS", "AGE", "VERDICT", "REASON" };

FleetRender *fleet_render_new(FleetKind kind, RenderFormat fmt, bool color, bool no_headers)
{
    FleetRender *r = xcalloc(1, sizeof *r);
    r->kind = kind;
    r->fmt = fmt;
    r->color = color;
    r->no_headers = no_headers;
    if (fmt == RENDER_JSON || fmt == RENDER_YAML) {
        r->jw = xmalloc(sizeof *r->jw);
        if (fmt == RENDER_YAML) jw_init_yaml(r->jw, stdout, false);
        else jw_init(r->jw, stdout);
        jw_object_begin(r->jw, NULL);
        jw_string(r->jw, "apiVersion", KGPU_API_VERSION);
        jw_string(r->jw, "kind", kind == FLEET_STATUS ? "GPUFleetStatus" : "GPUFleetPending");
        jw_array_begin(r->jw, "contexts");
    } else if (kind == FLEET_STATUS) {
        r->contexts_t = table_new(status_ctx_headers, sizeof status_ctx_headers / sizeof *status_ctx_headers);
        r->rows_t = table_new(status_node_headers, sizeof status_node_headers / sizeof *status_node_headers);
    } else {
        r->rows_t = table_new(pending_headers, sizeof pending_headers / sizeof *pending_headers);
    }
    return r;
}

/* ---- reading a context's document ---- */

static const cJSON *field(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* a count of the document: *v, true; null or absent: false */
static bool number_at(const cJSON *o, const char *key, double *v)
{
    const cJSON *x = field(o, key);
    if (!cJSON_IsNumber(x)) return false;
    *v = x->valuedouble;
    return true;
}

static void sum_add(FleetSum *s, const cJSON *o, const char *key)
{
    double v;
    if (number_at(o, key, &v)) s->v += v;
    else s->unknown = true;
}

static void sum_cell(Table *t, FleetSum s)
{
    if (s.unknown) table_cell(t, "?");
    else table_cellf(t, "%.0f", s.v);
}

static void number_cell(Table *t, const cJSON *o, const char *key, const char *none)
{
    double v;
    if (number_at(o, key, &v)) table_cellf(t, "%.0f", v);
    else table_cell(t, none);
}

static ProductFree *product_slot(FleetRender *r, const char *short_name)
{
    for (size_t i = 0; i < r->nproducts; i++)
        if (str_eq(r->products[i].product, short_name)) return &r->products[i];
    ARRAY_GROW(r->products, r->nproducts, r->capproducts);
    ProductFree *p = &r->products[r->nproducts++];
    memset(p, 0, sizeof *p);
    p->product = xstrdup(short_name);
    return p;
}

/* "Ready,SchedulingDisabled,NoDevicePlugin": the status table's word (node_status_word) from
 * the node's -o json fields: ready, schedulable, then each problem's code but the two said */
static char *node_word(const cJSON *n)
{
    Strbuf sb = STRBUF_INIT;
    strbuf_adds(&sb, cJSON_IsTrue(field(n, "ready")) ? "Ready" : "NotReady");
    if (cJSON_IsFalse(field(n, "schedulable"))) strbuf_adds(&sb, ",SchedulingDisabled");
    const cJSON *p;
    cJSON_ArrayForEach(p, field(n, "problems")) {
        const char *code = cJSON_GetStringValue(field(p, "code"));
        if (!code || str_eq(code, "NotReady") || str_eq(code, "Cordoned")) continue;
        strbuf_addf(&sb, ",%s", code);
    }
    return strbuf_detach(&sb);
}

static void status_context(FleetRender *r, const char *context, const cJSON *doc)
{
    const cJSON *sum = field(doc, "summary"), *phys = field(sum, "physical");
    sum_add(&r->physical, sum, "physicalGPUs");
    sum_add(&r->in_use, phys, "inUse");
    sum_add(&r->idle, phys, "idleAllocated");
    sum_add(&r->free_, phys, "free");
    sum_add(&r->unavailable, phys, "unavailable");
    sum_add(&r->pending, sum, "pendingGPUPods");
    double w;                    /* queues (Kueue, Volcano): only where the context reports them */
    if (number_at(sum, "waitingWorkloads", &w)) { r->waiting.v += w; r->any_waiting = true; }
    Table *t = r->contexts_t;
    if (t) {
        table_add_row(t);
        table_cell(t, context);
        number_cell(t, sum, "gpuNodes", "?");
        number_cell(t, sum, "physicalGPUs", "?");
        number_cell(t, phys, "inUse", "?");
        number_cell(t, phys, "idleAllocated", "?");
        number_cell(t, phys, "free", "?");
        number_cell(t, phys, "unavailable", "?");
        number_cell(t, sum, "pendingGPUPods", "?");
        number_cell(t, sum, "waitingWorkloads", "-");
    }

    const cJSON *n;
    cJSON_ArrayForEach(n, field(doc, "nodes")) {
        const cJSON *np = field(n, "physical");
        char *product = allocation_product_short_name(cJSON_GetStringValue(field(n, "product")));
        double free_gpus;
        if (number_at(np, "free", &free_gpus) && free_gpus > 0) {
            ProductFree *p = product_slot(r, product);
            p->free += free_gpus;
            p->in_context += free_gpus;
            if (free_gpus > p->most_on_node) p->most_on_node = free_gpus;
        }
        if (!r->rows_t) {
            free(product);
            continue;
        }
        char *word = node_word(n);
        table_add_row(r->rows_t);
        table_cell(r->rows_t, context);
        table_cell(r->rows_t, cJSON_GetStringValue(field(n, "name")));
        table_cell(r->rows_t, product);
        number_cell(r->rows_t, n, "physicalGPUs", "?");
        number_cell(r->rows_t, np, "inUse", "?");
        number_cell(r->rows_t, np, "free", "?");
        table_cell_color(r->rows_t, strchr(word, ',') || !str_starts_with(word, "Ready") ? C_YELLOW : C_NONE, word);
        free(word);
        free(product);
    }
    for (size_t i = 0; i < r->nproducts; i++) {        /* where each product's free GPUs are */
        ProductFree *p = &r->products[i];
        if (p->in_context > 0)
            strbuf_addf(&p->where, "%s%s (%.0f)", p->where.len ? ", " : "", context, p->in_context);
        p->in_context = 0;
    }
}

/* "nvidia.com/gpu:8", "nvidia.com/gpu:1,nvidia.com/mig-1g.10gb:2": the pod's requests */
static char *requests_word(const cJSON *pod)
{
    Strbuf sb = STRBUF_INIT;
    const cJSON *q;
    cJSON_ArrayForEach(q, field(pod, "requests")) {
        if (!q->string) continue;
        if (cJSON_IsNumber(q)) strbuf_addf(&sb, "%s%s:%g", sb.len ? "," : "", q->string, q->valuedouble);
        else if (cJSON_IsString(q)) strbuf_addf(&sb, "%s%s:%s", sb.len ? "," : "", q->string, q->valuestring);
    }
    return sb.len ? strbuf_detach(&sb) : (strbuf_clear(&sb), xstrdup("-"));
}

static void pending_context(FleetRender *r, const char *context, const cJSON *doc)
{
    const cJSON *pod;
    cJSON_ArrayForEach(pod, field(doc, "pods")) {
        if (cJSON_IsFalse(field(pod, "created"))) r->not_created++;   /* an owner whose pods a quota refused */
        else r->pending.v += 1;
        if (!r->rows_t) continue;
        Table *t = r->rows_t;
        table_add_row(t);
        table_cell(t, context);
        table_cell(t, cJSON_GetStringValue(field(pod, "namespace")));
        const cJSON *owner = field(pod, "owner");
        if (cJSON_IsFalse(field(pod, "created")) && owner)       /* a quota refused its pods */
            table_cellf(t, "%s/%s (not created)", cJSON_GetStringValue(field(owner, "kind")),
                        cJSON_GetStringValue(field(owner, "name")));
        else
            table_cell(t, cJSON_GetStringValue(field(pod, "name")));
        char *req = requests_word(pod);
        table_cell(t, req);
        free(req);
        double age;
        char agebuf[32] = "-";
        if (number_at(pod, "ageSeconds", &age)) util_format_age((int64_t)age, agebuf, sizeof agebuf);
        table_cell(t, agebuf);
        table_cell(t, cJSON_GetStringValue(field(pod, "verdict")));
        table_cell(t, cJSON_GetStringValue(field(pod, "reason")));
    }
}

void fleet_render_context(FleetRender *r, const char *context, const char *error, const cJSON *doc)
{
    r->ncontexts++;
    if (doc) r->answered++;
    if (r->jw) {
        jw_object_begin(r->jw, NULL);
        jw_string(r->jw, "context", context);
        jw_string(r->jw, "error", doc ? NULL : error);
        if (doc) jw_value(r->jw, r->kind == FLEET_STATUS ? "status" : "pending", doc);
        else jw_null(r->jw, r->kind == FLEET_STATUS ? "status" : "pending");
        jw_end(r->jw);
    }
    if (!doc) return;
    if (r->kind == FLEET_STATUS) status_context(r, context, doc);
    else pending_context(r, context, doc);
}

/* ---- the end: summary, tables ---- */

static void jw_sum(JsonWriter *jw, const char *key, FleetSum s, bool any)
{
    if (s.unknown || !any) jw_null(jw, key);
    else jw_number(jw, key, s.v);
}

static int product_cmp(const void *a, const void *b)
{
    const ProductFree *x = a, *y = b;
    if (x->free != y->free) return x->free > y->free ? -1 : 1;
    return strcmp(x->product, y->product);
}

static int finish_json(FleetRender *r)
{
    JsonWriter *jw = r->jw;
    bool any = r->answered > 0;
    jw_end(jw);                                  /* contexts */
    jw_object_begin(jw, "summary");
    jw_number(jw, "contexts", (double)r->ncontexts);
    jw_number(jw, "answered", (double)r->answered);
    if (r->kind == FLEET_STATUS) {
        jw_sum(jw, "physicalGPUs", r->physical, any);
        jw_object_begin(jw, "physical");
        jw_sum(jw, "inUse", r->in_use, any);
        jw_sum(jw, "idleAllocated", r->idle, any);
        jw_sum(jw, "free", r->free_, any);
        jw_sum(jw, "unavailable", r->unavailable, any);
        jw_end(jw);
        jw_sum(jw, "pendingGPUPods", r->pending, any);
        jw_sum(jw, "waitingWorkloads", r->waiting, r->any_waiting);
        jw_object_begin(jw, "freeGPUsByProduct");      /* physical GPUs free now, by product */
        for (size_t i = 0; i < r->nproducts; i++) {
            jw_object_begin(jw, r->products[i].product);
            jw_number(jw, "free", r->products[i].free);
            jw_number(jw, "mostOnOneNode", r->products[i].most_on_node);
            jw_end(jw);
        }
        jw_end(jw);
    } else {
        jw_number(jw, "pendingGPUPods", r->pending.v);
        jw_number(jw, "ownersNotCreated", (double)r->not_created);
    }
    jw_end(jw);                                  /* summary */
    jw_end(jw);                                  /* the document */
    int rc = jw_release(jw);
    free(jw);
    r->jw = NULL;
    return rc;
}

static void finish_status_table(FleetRender *r, FILE *f)
{
    Table *t = r->contexts_t;
    table_add_row(t);
    table_cell_color(t, C_BOLD, "TOTAL");
    table_cell(t, "");
    sum_cell(t, r->physical);
    sum_cell(t, r->in_use);
    sum_cell(t, r->idle);
    sum_cell(t, r->free_);
    sum_cell(t, r->unavailable);
    sum_cell(t, r->pending);
    if (r->any_waiting) table_cellf(t, "%.0f", r->waiting.v);
    else table_cell(t, "-");
    fprintf(f, "Fleet: %zu of %zu context(s) answered\n", r->answered, r->ncontexts);
    table_print(t, f, r->color);
    if (r->idle.unknown) fputs("(IDLE ?: no metrics in that context)\n", f);
    fputc('\n', f);
    if (r->nproducts) {
        qsort(r->products, r->nproducts, sizeof *r->products, product_cmp);
        static const char *const h[] = { "PRODUCT", "FREE GPUS", "MOST ON ONE NODE", "WHERE" };
        Table *p = table_new(h, 4);
        for (size_t i = 0; i < r->nproducts; i++) {
            table_add_row(p);
            table_cell(p, r->products[i].product);
            table_cellf(p, "%.0f", r->products[i].free);
            table_cellf(p, "%.0f", r->products[i].most_on_node);
            table_cell(p, strbuf_str(&r->products[i].where));
        }
        table_print(p, f, r->color);
        table_free(p);
    } else {
        fputs("No physical GPU is free in the fleet.\n", f);
    }
    fputc('\n', f);
}

int fleet_render_finish(FleetRender *r)
{
    int rc = 0;
    if (r->jw) {
        rc = finish_json(r);
    } else if (r->answered) {
        FILE *f = stdout;
        if (r->fmt == RENDER_WIDE) table_keep_whole(r->rows_t, true);
        if (r->kind == FLEET_STATUS && !r->no_headers) finish_status_table(r, f);
        else if (!r->no_headers)
            fprintf(f, "Fleet: %zu of %zu context(s) answered; %.0f pending GPU pod(s)%s\n\n", r->answered,
                    r->ncontexts, r->pending.v, r->not_created ? " and owners whose pods were not created" : "");
        if (table_rows(r->rows_t)) table_print_rows(r->rows_t, f, r->color, !r->no_headers);
        else if (!r->no_headers)
            fputs(r->kind == FLEET_STATUS ? "No GPU nodes.\n" : "No pending GPU pods.\n", f);
        fflush(f);
        rc = ferror(f) ? -1 : 0;
    }
    if (r->contexts_t) table_free(r->contexts_t);
    if (r->rows_t) table_free(r->rows_t);
    for (size_t i = 0; i < r->nproducts; i++) {
        free(r->products[i].product);
        strbuf_clear(&r->products[i].where);
    }
    free(r->products);
    free(r);
    return rc;
}

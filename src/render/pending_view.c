/* pending_view.c — kubectl's --sort-by and -o name for `kubectl gpu pending`.
 *
 * --sort-by takes the paths kubectl users type for pods (.metadata.name, .metadata.namespace,
 * .metadata.creationTimestamp, .spec.priority) and the keys of a pod in `pending -o json`
 * (.namespace, .name, .verdict), and any other JSONPath into a pod of -o json (render/jsonpath.h),
 * sorted by its first value.  Ascending, as kubectl (creationTimestamp: oldest first);
 * ties keep the list's order, unknown values last.
 */
#include "render/pending_view.h"
#include "analysis/explain_queue.h"
#include "render/custom_columns.h"
#include "render/jsonpath.h"
#include "render/sort_field.h"
#include "render/render_explain.h"
#include <cjson/cJSON.h>
#include "render/text.h"
#include "model/labels.h"
#include "util/error.h"
#include "util/sort.h"
#include "util/util.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { F_NAMESPACE, F_NAME, F_CREATED, F_PRIORITY, F_VERDICT } Field;

static const SortFieldName fields[] = {
    { ".metadata.namespace", F_NAMESPACE }, { ".namespace", F_NAMESPACE },
    { ".metadata.name", F_NAME },           { ".name", F_NAME },
    { ".metadata.creationTimestamp", F_CREATED },
    { ".spec.priority", F_PRIORITY },       { ".verdict", F_VERDICT },
};

const char pending_sort_fields_help[] =
    ".metadata.namespace, .metadata.name, .metadata.creationTimestamp, .spec.priority, .verdict";

#define NFIELDS (sizeof fields / sizeof *fields)
static int field_of(const char *path) { return sort_field_lookup(fields, NFIELDS, path); }
static JsonPath *sort_path(const char *path) { return sort_field_jsonpath(fields, NFIELDS, path); }

bool pending_sort_field_known(const char *path) { return sort_field_known(fields, NFIELDS, path); }

bool pending_sort_is_path(const char *path) { return path && field_of(path) < 0; }

typedef struct { const ExplanationList *l; Field f; } Ctx;

static int cmp_items(const void *a, const void *b, void *vctx)
{
    const Ctx *ctx = vctx;
    size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
    const Explanation *x = &ctx->l->items[ia], *y = &ctx->l->items[ib];
    int c = 0;
    switch (ctx->f) {
    case F_NAMESPACE: c = strcmp(x->ns ? x->ns : "", y->ns ? y->ns : ""); break;
    case F_NAME: c = strcmp(x->name ? x->name : "", y->name ? y->name : ""); break;
    case F_VERDICT: c = strcmp(verdict_name(x->verdict), verdict_name(y->verdict)); break;
    case F_CREATED:                          /* the older first; unknown ages (-1) last */
        if ((x->age < 0) != (y->age < 0)) c = x->age < 0 ? 1 : -1;
        else c = x->age > y->age ? -1 : x->age < y->age;
        break;
    case F_PRIORITY: {
        bool kx = x->pod != NULL, ky = y->pod != NULL;
        if (kx != ky) c = kx ? -1 : 1;
        else if (kx) c = x->pod->priority < y->pod->priority ? -1 : x->pod->priority > y->pod->priority;
        break;
    }
    }
    if (c) return c;
    return ia < ib ? -1 : ia > ib;
}

static int cmp_keys(const void *a, const void *b, void *vkeys)
{
    cJSON *const *keys = vkeys;
    size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
    int c = jsonpath_value_compare(keys[ia], keys[ib]);
    if (c) return c;
    return ia < ib ? -1 : ia > ib;
}

int pending_sort(ExplanationList *l, const char *sort_by, size_t max_nodes)
{
    int f = field_of(sort_by);
    JsonPath *p = f < 0 ? sort_path(sort_by) : NULL;
    if (f < 0 && !p) return 0;
    cJSON **keys = NULL;
    bool any = false;
    if (p) {                                 /* one small key per pod, not the pods' JSON */
        keys = xcalloc(l->n ? l->n : 1, sizeof *keys);
        for (size_t i = 0; i < l->n; i++) {
            cJSON *j = explain_to_json_max(&l->items[i], false, max_nodes);
            const cJSON *v = jsonpath_first(p, j);
            keys[i] = v ? cJSON_Duplicate(v, true) : NULL;
            any |= v != NULL;
            cJSON_Delete(j);
        }
        jsonpath_free(p);
    }
    int rc = keys && l->n && !any ? -1 : 0;  /* kubectl: no object has the field: an error */
    size_t *order = xcalloc(l->n ? l->n : 1, sizeof *order);
    for (size_t i = 0; i < l->n; i++) order[i] = i;
    Ctx ctx = { l, (Field)f };
    if (keys) sort_r(order, l->n, sizeof *order, cmp_keys, keys);
    else sort_r(order, l->n, sizeof *order, cmp_items, &ctx);
    for (size_t i = 0; keys && i < l->n; i++) cJSON_Delete(keys[i]);
    free(keys);
    Explanation *sorted = xcalloc(l->n, sizeof *sorted);
    for (size_t i = 0; i < l->n; i++) sorted[i] = l->items[order[i]];
    if (l->n) memcpy(l->items, sorted, l->n * sizeof *sorted);
    free(sorted);
    free(order);
    return rc;
}

int pending_print_names(const ExplanationList *l, bool with_ns)
{
    for (size_t i = 0; i < l->n; i++) {
        const Explanation *e = &l->items[i];
        if (e->queue) {                      /* what 'explain' takes: workload/NAME, podgroup/NAME */
            text_printf(stdout, "%s/%s%s%s\n", e->queue->system == QSYS_KUEUE ? "workload" : "podgroup",
                        with_ns ? e->ns : "", with_ns ? "/" : "", e->name);
        } else if (e->created) {
            text_printf(stdout, "pod/%s%s%s\n", with_ns ? e->ns : "", with_ns ? "/" : "", e->name);
        } else {                             /* kubectl's lower-case kind: job/NS/NAME */
            char kind[64];
            const char *k = e->owner_kind ? e->owner_kind : "owner";
            size_t j = 0;
            for (; k[j] && j + 1 < sizeof kind; j++) kind[j] = (char)tolower((unsigned char)k[j]);
            kind[j] = '\0';
            text_printf(stdout, "%s/%s%s%s\n", kind, with_ns ? e->ns : "", with_ns ? "/" : "", e->name);
        }
    }
    return ferror(stdout) ? -1 : 0;
}

int pending_filter_labels(ExplanationList *l, const char *sel, Error *err)
{
    if (!sel || !*sel) return 0;
    LabelSelector ls = LABEL_SELECTOR_INIT;
    if (label_selector_parse(&ls, sel, err) < 0) return -1;
    size_t k = 0;
    for (size_t i = 0; i < l->n; i++) {
        Explanation *e = &l->items[i];
        if (e->pod && label_selector_matches(&ls, &e->pod->labels)) l->items[k++] = *e;
        else explanation_clear(e);
    }
    l->n = k;
    label_selector_clear(&ls);
    return 0;
}

/* ---- -o custom-columns: one row per pod of -o json ---- */

int pending_columns_add(void *vpc, Explanation *e)
{
    PendingColumns *pc = vpc;
    cJSON *j = explain_to_json_max(e, false, pc->max_nodes);   /* the item -o json lists */
    int rc = custom_columns_add(pc->cc, j, &pc->err);
    cJSON_Delete(j);
    return rc;
}

void pending_say_none(const char *ns, size_t elsewhere)
{
    if (!ns) text_printf(stderr, "No pending GPU pods.\n");
    else if (!elsewhere) text_printf(stderr, "No pending GPU pods in namespace %s.\n", ns);
    else text_printf(stderr, "No pending GPU pods in namespace %s; %zu in other namespaces (list them with -A).\n", ns,
                     elsewhere);
}

int pending_columns_print(PendingColumns *pc, const char *ns, size_t elsewhere, bool no_headers)
{
    if (!custom_columns_rows(pc->cc)) pending_say_none(ns, elsewhere);   /* kubectl: "No resources found" */
    return custom_columns_print(pc->cc, stdout, no_headers);
}

/* pending_view.h — kubectl's --sort-by and -o name for `kubectl gpu pending`. */
#ifndef KGPU_RENDER_PENDING_VIEW_H
#define KGPU_RENDER_PENDING_VIEW_H
#include <stdbool.h>
#include <stddef.h>
#include "analysis/explain.h"
#include "util/error.h"

/* the --sort-by fields, for --help and the error */
extern const char pending_sort_fields_help[];
bool pending_sort_field_known(const char *path);
/* the path is a JSONPath, not one of the named fields: the pods need their full explanation */
bool pending_sort_is_path(const char *path);
/* orders l->items by the field, or by the first value of a JSONPath into each pod as -o json
 * lists it (nodes cut to max_nodes, 0 = all) (stable: ties keep the list's order, no value
 * last); NULL leaves it.  -1 when no pod has a value at the path (kubectl's error; the list
 * is still ordered) */
int pending_sort(ExplanationList *l, const char *sort_by, size_t max_nodes);
/* -l for pending: keeps the pods whose labels match sel (owners not created have no labels and
 * are dropped); -1 with err set when sel does not parse */
struct Error;
int pending_filter_labels(ExplanationList *l, const char *sel, struct Error *err);
/* -o custom-columns: one row per pod of -o json (the same objects, nodes cut to max_nodes, 0 =
 * all), added a pod at a time (pending_columns_add is an ExplanationFn: the command may hand
 * it each pod as it is explained, nothing kept but the cells), then printed */
struct CustomColumns;
typedef struct { struct CustomColumns *cc; size_t max_nodes; struct Error err; } PendingColumns;
/* 0, or -1 with pc->err set when a path could not be evaluated */
int pending_columns_add(void *pc, Explanation *e);
/* the rows (with "No pending GPU pods" on stderr when there are none); 0, -1 on a write error */
int pending_columns_print(PendingColumns *pc, const char *ns, size_t elsewhere, bool no_headers);
/* kubectl's "No resources found in NS namespace." for pending, on stderr (stdout stays empty for
 * pipes): "No pending GPU pods in namespace NS." and, when other namespaces have some, how
 * many and the -A that lists them */
void pending_say_none(const char *ns, size_t elsewhere);
/* -o name: kubectl's pod/NAME per pod in one namespace; with -A (with_ns) pod/NS/NAME, which
 * explain takes back as it is; an owner whose pods a quota refused as kind/NAME, kind/NS/NAME */
int pending_print_names(const ExplanationList *l, bool with_ns);
#endif

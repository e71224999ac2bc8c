/* pending_view.h — kubectl's --sort-by and -o name for `kubectl gpu pending`. */
#ifndef KGPU_RENDER_PENDING_VIEW_H
#define KGPU_RENDER_PENDING_VIEW_H
#include <stdbool.h>
#include "analysis/explain.h"

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
 * all); l NULL explains c's pending pods of ns one at a time (nothing kept but the cells).
 * 0, or -1 when writing failed or (err set) a path could not be evaluated */
struct CustomColumns;
struct Cluster;
int pending_print_columns(const struct Cluster *c, const char *ns, ExplanationList *l, struct CustomColumns *cc,
                          bool no_headers, size_t max_nodes, struct Error *err);
/* -o name: pod/NS/NAME per pod; an owner whose pods a quota refused as kind/NS/NAME */
int pending_print_names(const ExplanationList *l);
#endif

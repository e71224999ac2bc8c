/* pending_view.h — kubectl's --sort-by and -o name for `kubectl gpu pending`. */
#ifndef KGPU_RENDER_PENDING_VIEW_H
#define KGPU_RENDER_PENDING_VIEW_H
#include <stdbool.h>
#include "analysis/explain.h"

/* the --sort-by fields, for --help and the error */
extern const char pending_sort_fields_help[];
bool pending_sort_field_known(const char *path);
/* orders l->items by the field (stable: ties keep the list's order); NULL leaves it */
void pending_sort(ExplanationList *l, const char *sort_by);
/* -l for pending: keeps the pods whose labels match sel (owners not created have no labels and
 * are dropped); -1 with err set when sel does not parse */
struct Error;
int pending_filter_labels(ExplanationList *l, const char *sel, struct Error *err);
/* -o name: pod/NS/NAME per pod; an owner whose pods a quota refused as kind/NS/NAME */
int pending_print_names(const ExplanationList *l);
#endif

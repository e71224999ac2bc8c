/* pending_view.h — kubectl's --sort-by and -o name for `kubectl gpu pending`. */
#ifndef KGPU_CMD_PENDING_VIEW_H
#define KGPU_CMD_PENDING_VIEW_H
#include <stdbool.h>
#include "analysis/explain.h"

/* the --sort-by fields, for --help and the error */
extern const char pending_sort_fields_help[];
bool pending_sort_field_known(const char *path);
/* orders l->items by the field (stable: ties keep the list's order); NULL leaves it */
void pending_sort(ExplanationList *l, const char *sort_by);
/* -o name: pod/NS/NAME per pod; an owner whose pods a quota refused as kind/NS/NAME */
int pending_print_names(const ExplanationList *l);
#endif

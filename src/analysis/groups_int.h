/* groups_int.h — between groups.c, groups_hours.c and the helpers below both, groups_base.c
 * (private to src/analysis). */
#ifndef KGPU_GROUPS_INT_H
#define KGPU_GROUPS_INT_H
#include "analysis/groups.h"

/* groups_base.c: the group of that name, made (zeroed) when new */
StatusGroup *status_group_for(StatusGroups *g, const char *name, size_t *cap);
/* groups_hours.c: GPU-hours, idle GPU-hours and their cost from u->held into g's groups (made as needed) */
void status_groups_add_hours(StatusGroups *g, const GpuStatus *st, const struct Cluster *c,
                             const UsageData *u, const PriceList *prices, size_t *cap);
#endif

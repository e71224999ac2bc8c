/* groups.h — `status --by namespace|node|product`: allocation, physical GPUs, idle GPUs and
 * cost per group, like kube-view-allocations' grouping.
 *
 * Built from a GpuStatus (its holder pods and, with metrics, its devices).  A pod's physical
 * GPUs are the sum of its units' shares (physical.h physical_share: a MIG 3g.40gb on an A100
 * is 3/7, a time-sliced replica 1/replicas).  Idle: devices held but under the idle threshold,
 * counted to the group of the pod (namespace) or node holding them.  Cost per hour: a group's
 * physical GPUs times the price of their product (--price MODEL=USD_PER_HOUR, MODEL the GFD
 * product with or without "NVIDIA-" or the table's short name).
 */
#ifndef KGPU_ANALYSIS_GROUPS_H
#define KGPU_ANALYSIS_GROUPS_H
#include <stdbool.h>
#include "analysis/allocation.h"

typedef enum { GROUP_NAMESPACE, GROUP_NODE, GROUP_PRODUCT } GroupBy;

typedef struct {
    char *name;
    ResourceCount *res; size_t nres;   /* allocated units per GPU resource, by name */
    double physical;                   /* physical GPUs held (shares summed) */
    int idle;                          /* idle devices (with metrics), else 0 */
    double cost_per_hour;              /* NAN when some holding has no price, or no --price */
    int pods;
} StatusGroup;

typedef struct {
    GroupBy by;
    StatusGroup *v; size_t n;          /* by name */
    bool has_metrics, has_prices;
} StatusGroups;

typedef struct { char *model; double usd_per_hour; } Price;
typedef struct PriceList { Price *v; size_t n; } PriceList;

/* "A100-SXM4-80GB=2.5,H100-80GB-HBM3=4.1": 0, or -1 with err set */
struct Error;
int price_list_parse(PriceList *pl, const char *s, struct Error *err);
void price_list_free(PriceList *pl);
/* the price of a GPU product: its GFD name, the same without "NVIDIA-", or its short name as
 * the tables show it (any may be NULL); NAN when the list has none */
double price_for_product(const PriceList *pl, const char *gfd_product, const char *short_name);
/* "namespace" | "node" | "product" -> by; false when none */
bool group_by_parse(const char *s, GroupBy *by);
const char *group_by_name(GroupBy by);

void status_groups_build(StatusGroups *g, const GpuStatus *st, GroupBy by, const PriceList *prices);
void status_groups_free(StatusGroups *g);
#endif

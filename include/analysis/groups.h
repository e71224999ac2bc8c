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

typedef enum { GROUP_NAMESPACE, GROUP_NODE, GROUP_PRODUCT, GROUP_WORKLOAD } GroupBy;

/* what a group of nodes (--by node, --by product) offers of one resource */
typedef struct {
    char *name;                        /* "nvidia.com/gpu", "nvidia.com/mig-1g.10gb", ... */
    int64_t allocatable, allocated;    /* over the group's nodes, as the node table's ALLOC */
    int64_t free;                      /* allocatable - allocated on the Ready, schedulable nodes
                                        * (a cordoned or NotReady node's units take no new pod) */
    int64_t largest_free;              /* the most free on one node: the largest pod that fits */
} GroupCapacity;

typedef struct {
    char *name;
    ResourceCount *res; size_t nres;   /* allocated units per GPU resource, by name */
    GroupCapacity *cap; size_t ncap;   /* --by node|product: per resource, by name; else none */
    int nodes;                         /* --by node|product: GPU nodes in the group */
    double physical;                   /* physical GPUs held (shares summed) */
    int idle;                          /* idle devices (with metrics), else 0 */
    double cost_per_hour;              /* NAN when some holding has no price, or no --price */
    int pods;
    /* over the window, from the held times of the Prometheus series (groups_hours.c): */
    double gpu_hours;                  /* physical GPU-hours held (a MIG device its slices'
                                        * part, a time-shared interval divided among holders) */
    double idle_gpu_hours;             /* of those, under the idle threshold; NAN when unknown */
    double cost, idle_cost;            /* those hours in money (--price); NAN when a product has
                                        * no price.  All four NAN for a group holding GPUs now
                                        * that no series names (not measured) */
    int held_records;                  /* the held times summed into it */
} StatusGroup;

typedef struct {
    GroupBy by;
    StatusGroup *v; size_t n;          /* by name */
    bool has_metrics, has_prices;
    bool has_hours;                    /* the metrics have held times (Prometheus series) */
    double window_s;                   /* the window the hours are over */
} StatusGroups;

typedef struct { char *model; double usd_per_hour; } Price;
typedef struct PriceList { Price *v; size_t n; } PriceList;

/* "A100-SXM4-80GB=2.5,H100-80GB-HBM3=4.1": 0, or -1 with err set */
struct Error;
int price_list_parse(PriceList *pl, const char *s, struct Error *err);
void price_list_clear(PriceList *pl);
/* the price of a GPU product: its GFD name, the same without "NVIDIA-", or its short name as
 * the tables show it (any may be NULL); NAN when the list has none */
double price_list_for_product(const PriceList *pl, const char *gfd_product, const char *short_name);
/* "namespace" | "node" | "product" | "workload" -> by; false when none */
bool group_by_parse(const char *s, GroupBy *by);
const char *group_by_name(GroupBy by);

void status_groups_build(StatusGroups *g, const GpuStatus *st, GroupBy by, const PriceList *prices);
/* the same with the cluster (workloads: a pod's owner as the plan resolves it, plan.h
 * plan_pod_workload) and the usage (GPU-hours and idle GPU-hours over the window of every pod
 * that held a GPU in it, gone ones included, from UsageData.held); either may be NULL */
struct Cluster;
void status_groups_build_for(StatusGroups *g, const GpuStatus *st, const struct Cluster *c,
                             const UsageData *u, GroupBy by, const PriceList *prices);
/* the workload group of a pod: "NAMESPACE/KIND/NAME" (a pod without an owner: KIND Pod);
 * a pod that is gone (c has no such pod): the workload among known the pod's name follows
 * (NAME-...), else Pod/NAME.  Caller frees */
char *group_workload_of(const struct Cluster *c, const char *ns, const char *pod);

/* status --price without --by: the summary's GPU-hours held and idle over the window, and the
 * idle ones in money (st->has_hours, gpu_hours, idle_gpu_hours, idle_cost), over the nodes and
 * namespace st shows; without held times in u only st->has_cost is set (asked, not measured) */
void status_hours_fill(GpuStatus *st, const UsageData *u, const PriceList *prices);
void status_groups_clear(StatusGroups *g);
#endif

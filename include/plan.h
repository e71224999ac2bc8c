/* plan.h — kubectl gpu plan: for each product group of GPU nodes, the sharing strategy (MIG
 * layout, time-slicing or MPS replicas) that holds the observed workloads on the fewest GPUs.
 *
 * Inputs are plain data: the selected GPU nodes (model/node.h) and one PlanWorkload per GPU
 * workload with its observed usage, so the plan knows nothing of metrics sources or the API.
 * Per group (nodes with the same base GFD product):
 *   MIG           each workload gets the smallest profile holding memory x (1 + headroom) and
 *                 its utilization (mig_choose_profile); the instances are packed (mig_pack);
 *                 workloads fitting no profile, asking for several GPUs or without usage data
 *                 keep whole GPUs (MIG disabled on those GPUs, mixed strategy).
 *   time-slicing  safe replica count and GPUs after (sharing_plan).
 *   MPS           the same under MPS rules.
 * auto picks the fewest GPUs after; ties go to the stronger isolation (MIG, then MPS, then
 * time-slicing); when nothing frees a GPU the group's strategy is "none".  An explicit
 * strategy is evaluated alone (and is "none" when the GPUs cannot do it, e.g. MIG on an L4).
 *
 * "gpusBefore" = physical GPUs the workloads hold now, per node ceil(sum of the shares they
 * hold) capped at the node's GPUs: a whole GPU is 1, a time-sliced replica 1/replicas, a MIG
 * instance its share of the GPU (largest of compute and memory fractions).
 *
 * Ownership: PlanWorkload strings are borrowed and must outlive the PlanResult; PlanResult
 * owns everything else; plan_result_free releases it.
 */
#ifndef KGPU_PLAN_H
#define KGPU_PLAN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mig.h"
#include "node.h"
#include "sharing.h"
#include "util.h"

typedef enum { PLAN_CHOICE_AUTO, PLAN_CHOICE_MIG, PLAN_CHOICE_TIME_SLICING, PLAN_CHOICE_MPS } PlanChoice;
bool plan_choice_parse(const char *s, PlanChoice *out);     /* auto|mig|time-slicing|mps */

typedef enum { PLAN_NONE, PLAN_MIG, PLAN_TIME_SLICING, PLAN_MPS } PlanStrategy;
const char *plan_strategy_name(PlanStrategy s);             /* none|mig|time-slicing|mps */

typedef struct {
    const char *ns, *name;
    const char *owner_kind, *owner_name;   /* may be NULL */
    const char *node;                 /* node it runs on */
    const char *resource;             /* GPU resource it requests: nvidia.com/gpu,
                                         nvidia.com/gpu.shared, nvidia.com/mig-1g.10gb ... */
    int count;                        /* how many of that resource */
    bool has_usage;
    int64_t memory_mib;               /* observed percentile, per device (largest) */
    double utilization;               /* observed percentile, % of the device it runs on; for a
                                         MIG instance the plan scales it to the whole GPU */
} PlanWorkload;

typedef enum { PLAN_ASSIGN_WHOLE, PLAN_ASSIGN_MIG, PLAN_ASSIGN_SHARED } PlanAssignKind;

typedef struct {
    size_t workload;                  /* index into the input array */
    PlanAssignKind kind;
    const MigProfile *profile;        /* PLAN_ASSIGN_MIG */
    int gpus;                         /* PLAN_ASSIGN_WHOLE: whole GPUs */
    const char *why;                  /* static reason for WHOLE, or NULL */
    int64_t sized_memory_mib;         /* memory x (1 + headroom), -1 without usage */
    double gpu_utilization;           /* utilization as % of a whole GPU, NAN without usage */
} PlanAssignment;

typedef struct {
    char *product;                    /* base GFD product ("NVIDIA-A100-SXM4-80GB") */
    const MigGpuModel *model;         /* NULL: not MIG-capable / unknown */
    Strvec nodes;                     /* sorted */
    int physical_gpus;                /* in the group's nodes */
    int64_t gpu_memory_mib;           /* per GPU */
    int cc_major, cc_minor;           /* compute capability, 0.0 unknown */
    PlanStrategy strategy;
    int gpus_before, gpus_after;
    int after_mig, after_time_slicing, after_mps;   /* each candidate; -1 = not possible */
    int replicas;                     /* time-slicing / MPS */
    MigPacking mig;                   /* strategy MIG: the layouts */
    SharePlan share;                  /* strategy time-slicing / MPS */
    PlanAssignment *assign; size_t nassign;   /* the group's workloads */
    const char *tradeoff;             /* the isolation trade-off of the strategy, static */
    Strvec notes;                     /* why this strategy, limits met */
} PlanGroup;

typedef struct {
    PlanChoice choice;
    double headroom_pct;              /* --headroom */
} PlanOptions;

typedef struct {
    PlanGroup *groups; size_t ngroups;    /* sorted by product */
    int gpus_before, gpus_after;
    Strvec warnings;                  /* workloads on unselected nodes, ... */
} PlanResult;

int plan_build(const Node *const *nodes, size_t nnodes, const PlanWorkload *w, size_t nw,
               const PlanOptions *o, PlanResult *out);
void plan_result_free(PlanResult *r);
/* "mig-2g.20gb" | "shared" | "whole" (the contract's "assigned"); buf >= 64 bytes */
const char *plan_assignment_label(const PlanAssignment *a, char *buf, size_t len);
#endif

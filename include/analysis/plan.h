/* plan.h — kubectl gpu plan: for each product group of GPU nodes, the sharing strategy (MIG
 * layout, time-slicing or MPS replicas) that holds the observed workloads on the fewest GPUs,
 * and how to lay it onto the group's nodes.
 *
 * Two steps.
 *  1. plan_input_build: the cluster's GPU pods that hold resources on the planned nodes, one
 *     PlanWorkload per pod, tagged with its workload (owner): a ReplicaSet whose name ends with
 *     the pod's pod-template-hash is its Deployment; StatefulSet, Job and other controllers by
 *     name; a bare pod by its own name.  Usage per workload = the maximum over its pods
 *     (metrics_collect's WorkloadUsage, also of pods that have since been replaced: a pod that
 *     no longer exists joins the workload whose pods its name follows, e.g. "web-5d8f7-x2x9k"
 *     -> Deployment "web").  Without metrics the request stands in: a whole GPU = its memory and
 *     100 %, a MIG device = its profile's memory and compute, a shared replica = 1/replicas.
 *  2. plan_build: per group (nodes with the same base GFD product):
 *   MIG           each pod gets the smallest profile holding memory x (1 + headroom) and its
 *                 utilization (mig_choose_profile); the instances are packed (mig_pack);
 *                 pods fitting no profile, asking for several GPUs or without usage data keep
 *                 whole GPUs (MIG disabled on those GPUs, mixed strategy).
 *   time-slicing  safe replica count and GPUs after (sharing_plan).
 *   MPS           the same under MPS rules.
 *   auto picks the fewest GPUs after; ties go to MIG (hardware isolation), then time-slicing;
 *   MPS wins a tie with time-slicing only when measured usage (metrics, not requests) shows
 *   every shared workload's peak inside MPS's per-client memory limit and the device plugin
 *   is v0.15.0+; when nothing frees a GPU the group's strategy is "none" (nothing changes).
 *   MPS is never proposed where the device plugin refuses it: with the mixed MIG strategy
 *   (the ClusterPolicy's, which the operator passes as MIG_STRATEGY and which overrides the
 *   config file — k8s-device-plugin cmd/nvidia-device-plugin/main.go "mixed is not supported
 *   with MPS"; the plan makes it mixed when a group gets MIG), on MIG devices, or on a plugin
 *   older than v0.15.0 or of unknown version.
 *   Sharing is per node (the device plugin applies one config to every GPU of the node), so a
 *   node that becomes a shared pool counts all its GPUs after the plan unless the plan sets
 *   sharedDevicesAllocationPolicy: packed (device plugin v0.20.0+), which fills GPU by GPU:
 *   then only ceil(shared workloads / replicas) count.  Pools are the fewest nodes (most GPUs
 *   first), so shared workloads consolidate and whole nodes may be freed.
 *   An explicit strategy is evaluated alone (and is "none" when the GPUs cannot do it).
 *   The pods of one workload always get the same assignment (one pod template, one request).
 *   Then the rollout: which node gets which MIG geometry per GPU index / sharing config, the
 *   config names (mig-parted and device-plugin) and the resources each node advertises after.
 *
 * Sizing: memory x (1 + headroom/100) and utilization x (1 + headroom/100); usage taken from
 * requests is used as it is (the request already is the allocation).
 *
 * "gpusBefore" = physical GPUs the workloads hold now, per node ceil(sum of the shares they
 * hold) capped at the node's GPUs: a whole GPU is 1, a time-sliced replica 1/replicas, a MIG
 * instance its share of the GPU (largest of compute and memory fractions).
 * "gpusAfter" = GPUs they need under the plan (MIG GPUs + whole GPUs, or shared + whole).
 *
 * Ownership: PlanWorkload strings are borrowed (plan_input_build's from the Cluster, which must
 * outlive the PlanInput as pod_obj says, or, a Deployment's name cut from its ReplicaSet's,
 * owned by the PlanInput, which must outlive the PlanResult); PlanResult owns everything else;
 * plan_result_clear releases it.
 */
#ifndef KGPU_PLAN_H
#define KGPU_PLAN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/cluster.h"
#include "model/usage.h"
#include "analysis/mig.h"
#include "model/node.h"
#include "model/resources.h"
#include "analysis/sharing.h"
#include "util/util.h"

typedef enum { PLAN_CHOICE_AUTO, PLAN_CHOICE_MIG, PLAN_CHOICE_TIME_SLICING, PLAN_CHOICE_MPS } PlanChoice;
bool plan_choice_parse(const char *s, PlanChoice *out);     /* auto|mig|time-slicing|mps */

typedef enum { PLAN_NONE, PLAN_MIG, PLAN_TIME_SLICING, PLAN_MPS } PlanStrategy;
const char *plan_strategy_name(PlanStrategy s);             /* none|mig|time-slicing|mps */

/* one pod of a workload */
typedef struct {
    const char *ns, *name;            /* the workload: Deployment, StatefulSet, Job, ... or bare pod */
    const char *kind;                 /* "Deployment", "StatefulSet", "Job", ...; NULL = "Pod" */
    const Pod *pod_obj;               /* the Cluster's pod (borrowed), NULL when not known: its
                                         name (plan_workload_pod), and its nodeSelector, affinity
                                         and tolerations limit where the plan places it
                                         (explain_pod_admits) */
    const char *node;                 /* node it runs on */
    const char *resource;             /* GPU resource it requests: nvidia.com/gpu,
                                         nvidia.com/gpu.shared, nvidia.com/mig-1g.10gb ... */
    int count;                        /* how many of that resource */
    bool has_usage;
    bool from_requests;               /* usage stands in from the request (no metrics) */
    bool utilization_unknown;         /* no utilization series: 100 % assumed */
    int64_t memory_mib;               /* observed percentile, per device (largest) */
    double utilization;               /* observed percentile, % of the device it runs on; for a
                                         MIG instance the plan scales it to the whole GPU */
    int64_t peak_memory_mib;          /* observed peak, -1 unknown */
    double peak_utilization;          /* observed peak, NAN unknown */
    double coverage;                  /* share of the window with data (0..1), NAN unknown */
} PlanWorkload;

/* the pod's name: pod_obj's, else (a pod not known) the workload's */
static inline const char *plan_workload_pod(const PlanWorkload *w)
{
    return w->pod_obj ? w->pod_obj->name : w->name;
}

/* ---- what the cluster runs now (the GPU Operator's settings), read by plan_current_init ---- */

typedef struct {
    const char *clusterpolicy;        /* its name; NULL = no ClusterPolicy (no GPU Operator) */
    const char *operator_ns;          /* status.namespace, else the device plugin's, else gpu-operator */
    const char *mig_strategy;         /* spec.mig.strategy; NULL = unset: the operator passes no
                                         MIG_STRATEGY and each node's config file decides */
    const char *dp_map, *dp_default;  /* spec.devicePlugin.config.{name,default}; NULL = unset */
    const ConfigMap *dp_configmap;    /* dp_map's content; NULL = unset or not readable */
    const char *mig_map;              /* spec.migManager.config.name; NULL = the operator's own
                                         default-mig-parted-config */
    const char *mig_default;          /* spec.migManager.config.default */
    const ConfigMap *mig_configmap;   /* the mig-parted ConfigMap in use (custom or the
                                         operator's default), NULL = not readable */
    int dp_version[3];                /* the device plugin's version (image tag or
                                         spec.devicePlugin.version) */
    bool dp_version_known;
    char dp_version_text[64];         /* "v0.17.0", or why unknown */
} PlanCurrent;

/* fills *cur from the cluster (borrowed: cur points into c) */
void plan_current_init(PlanCurrent *cur, const Cluster *c);
/* device plugin at least vMAJOR.MINOR.0 */
bool plan_dp_at_least(const PlanCurrent *cur, int major, int minor);
/* "v0.17.0" -> {0,17,0}; false when the text has no version */
bool plan_parse_version(const char *s, int out[3]);

typedef enum { PLAN_ASSIGN_WHOLE, PLAN_ASSIGN_MIG, PLAN_ASSIGN_SHARED } PlanAssignKind;

/* why a pod keeps whole GPUs (or its MIG profile): plan_assignment_why's words */
typedef enum {
    PLAN_WHY_NONE, PLAN_WHY_NO_USAGE_KEEPS_MIG, PLAN_WHY_NO_USAGE, PLAN_WHY_SEVERAL_GPUS,
    PLAN_WHY_FITS_NO_MIG, PLAN_WHY_TOO_LARGE_TO_SHARE
} PlanWhy;

typedef struct {                      /* fields ordered for size, 40 bytes: one per planned
                                         pod (51,647 on the full training cluster) */
    const MigProfile *profile;        /* PLAN_ASSIGN_MIG */
    int64_t sized_memory_mib;         /* memory x (1 + headroom), -1 without usage */
    double sized_utilization;         /* utilization as % of a whole GPU (plan_gpu_util: a MIG
                                         instance's scaled to the GPU) x (1 + headroom), NAN
                                         without usage */
    uint32_t workload;                /* index into the input array */
    int instances;                    /* PLAN_ASSIGN_MIG: instances of profile (its device count) */
    int gpus;                         /* PLAN_ASSIGN_WHOLE: whole GPUs */
    uint8_t kind;                     /* PlanAssignKind */
    bool unchanged;                   /* group strategy none: keeps its current request */
    uint8_t why;                      /* PlanWhy: the reason for WHOLE (plan_assignment_why) */
} PlanAssignment;

/* one workload of a group: its pods there share one assignment */
typedef struct {                      /* fields ordered for size, 32 bytes: one per workload
                                         (51,647 on the full training cluster) */
    const char *request_resource;     /* what each pod requests under the plan (the group's pool) */
    const char *const *nodes;         /* where they run now, sorted: nnodes of the cluster's names
                                         (borrowed: the cluster outlives the plan's rendering),
                                         a slice of the group's workload_nodes, or for a workload
                                         of one pod its input row's node field */
    uint32_t first;                   /* index into the group's assign[] of its first pod */
    uint32_t nnodes;
    int pods;                         /* its pods in this group */
    int request_count;
} PlanGroupWorkload;

/* one node of a group after the plan */
typedef struct {
    const char *name;                 /* borrowed from PlanGroup.nodes */
    int gpus;                         /* physical GPUs */
    int *gpu_layout;                  /* per GPU index: index into mig.groups, -1 = MIG disabled */
    bool shared;                      /* time-slicing / MPS config on this node */
    int whole_used;                   /* GPUs taken by whole-GPU pods placed here by the plan */
    int mig_gpus;                     /* GPUs with a MIG geometry */
    const char *mig_config;           /* nvidia.com/mig.config value, NULL = leave as is */
    const char *device_plugin_config; /* nvidia.com/device-plugin.config value, NULL = as is */
    const char *mig_config_now;       /* the node's labels now (borrowed from the Node) */
    const char *device_plugin_config_now;
    bool mig_change;                  /* mig_config differs from what the node runs (or its
                                         state is not success): mig-manager reconfigures */
    bool dp_change;                   /* device_plugin_config differs from the label now */
    bool drain;                       /* mig_change (the GPUs are reset, no pod may use them), or
                                         whole_after_shared */
    bool whole_after_shared;          /* time-sliced / MPS now, whole GPUs (or MIG) after: the old
                                         replica pods must leave first (plan_rollout.c) */
    ResourceList expected;            /* GPU resources advertised after (count, milli units),
                                         with the node's unhealthy GPUs still unhealthy */
    int unhealthy;                    /* GPUs the device plugin reports Unhealthy now */
    ResourceList expected_max;        /* with every GPU healthy: a restarted plugin starts every
                                         device Healthy until the fault recurs (k8s-device-plugin
                                         internal/rm/devices.go:92, internal/plugin/server.go:277) */
} PlanNode;

typedef struct {
    char *product;                    /* base GFD product ("NVIDIA-A100-SXM4-80GB") */
    char *key;                        /* short name for config names: "a100-sxm4-80gb" */
    const MigGpuModel *model;         /* NULL: not MIG-capable / unknown (mig_unable says which) */
    char *mig_unable;                 /* why MIG cannot be planned on the group's nodes, NULL = it can */
    Strvec nodes;                     /* sorted */
    int physical_gpus;                /* healthy ones in the group's nodes (health_good_gpus) */
    int64_t gpu_memory_mib;           /* per GPU */
    int cc_major, cc_minor;           /* compute capability, 0.0 unknown */
    PlanStrategy strategy;
    int gpus_before, gpus_after;
    int after_mig, after_time_slicing, after_mps;   /* each candidate; -1 = not possible */
    int replicas;                     /* time-slicing / MPS */
    bool packed;                      /* sharedDevicesAllocationPolicy: packed (plugin >= v0.20) */
    int pool_gpus;                    /* GPUs of the nodes that become shared pools */
    int shared_slots_free;            /* replicas of the pools no planned workload takes */
    Strvec nodes_freed;               /* nodes no GPU workload is left on (consolidation) */
    MigPacking mig;                   /* strategy MIG: the layouts */
    SharePlan share;                  /* strategy time-slicing / MPS */
    PlanAssignment *assign; size_t nassign;   /* the group's pods */
    PlanGroupWorkload *workloads; size_t nworkloads;   /* by namespace, name */
    const char **workload_nodes;      /* the node lists of the workloads of several pods, one
                                         array (a slice each, as long as its pods: 51,647
                                         workloads on the full training cluster made as many
                                         lists and name copies, 3 MB); NULL when there are none */
    PlanNode *plan_nodes; size_t nplan_nodes;   /* parallel to nodes */
    Strvec config_names;              /* owned strings the PlanNodes point to */
    char *device_plugin_config;       /* config (key) of shared / MIG nodes, NULL for none */
    char *device_plugin_whole_config; /* config of nodes kept whole in a sharing group */
    const char *tradeoff;             /* the isolation trade-off of the strategy, static */
    Strvec notes;                     /* why this strategy, limits met */
    Strvec risks;                     /* little data, fits nothing, peaks, optimality gap */
    struct StrPool *strings;          /* the workloads' request_resource, one copy each (51,647
                                         workloads on the full training cluster, a few names) */
} PlanGroup;

typedef struct {
    PlanChoice choice;
    double headroom_pct;              /* --headroom */
    const PlanCurrent *cur;           /* what runs now; NULL = nothing known (no operator) */
    const Node *cluster_nodes;        /* every node of the cluster (a cluster-wide change reaches */
    size_t ncluster_nodes;            /* the unselected too); NULL = only the planned nodes */
    const char *unseen_mps;           /* MPS that unseen (unselected) nodes may run, in words; NULL none */
    const char *mig_block;            /* why nothing would carry out a MIG layout here (no MIG
                                         manager, ...): MIG is not planned; NULL = it can be */
} PlanOptions;

typedef struct {
    PlanGroup *groups; size_t ngroups;    /* sorted by product */
    int gpus_before, gpus_after;
    Strvec warnings;                  /* workloads on unselected nodes, ... */
    const char *mig_strategy_after;   /* ClusterPolicy spec.mig.strategy after the plan (NULL unset) */
    bool mig_strategy_change;         /* the plan patches it (to mixed) */
} PlanResult;

int plan_build(const Node *const *nodes, size_t nnodes, const PlanWorkload *w, size_t nw,
               const PlanOptions *o, PlanResult *out);
void plan_result_clear(PlanResult *r);
/* the reason a pod keeps whole GPUs or its MIG profile, in words (static), NULL for none */
const char *plan_assignment_why(const PlanAssignment *a);
/* "mig-2g.20gb" | "shared" | "whole" (the contract's "assigned"); buf >= 64 bytes */
const char *plan_assignment_label(const PlanAssignment *a, char *buf, size_t len);
/* "a100-sxm4-80gb" from "NVIDIA-A100-SXM4-80GB": lower case, no NVIDIA- prefix, only
 * [a-z0-9-], at most 40 characters; caller frees */
char *plan_group_key(const char *product);

/* What-if: the GPU pods Pending now (unbound) that would schedule on the nodes the plan changes,
 * asking for their workload's planned request (their own when the workload is not planned):
 * the same per-node filters as `explain` (explain_node: cordon, readiness, taints, selectors,
 * affinity) with the node's resources after the plan, against what the group's planned
 * workloads leave over.  Appends "ns/name" to *out, in cluster order. */
void plan_whatif(Strvec *out, const Cluster *c, const PlanResult *r, const PlanWorkload *w);

/* Nodes whose GPUs the DRA driver publishes are not planned (plan_dra.c): removed from nodes
 * (order kept), one warning naming them and why.  Returns the new count. */
size_t plan_leave_out_dra(const Cluster *c, const Node **nodes, size_t n, Strvec *warnings);

/* ---- step 1: the workloads of a cluster ---- */

typedef struct {
    PlanWorkload *w; size_t n;
    bool from_requests;               /* no per-workload metrics: requests stand in */
    size_t pods_elsewhere;            /* GPU pods on nodes outside the planned ones */
    Strvec warnings;
    /* private: */
    Strvec owned;
    struct StrArena *strings;         /* the strings plan_input_build owns, one copy each */
} PlanInput;

#define PLAN_LITTLE_DATA 0.25         /* coverage under this: "little data" */

/* GPU pods holding resources on `nodes` (the planned GPU nodes, borrowed) with their usage.
 * metrics = false: requests stand in for usage (u ignored).  With metrics, a pod whose
 * workload has no series has no usage data. */
void plan_input_build(PlanInput *in, const Cluster *c, const Node *const *nodes, size_t nnodes,
                      const WorkloadUsage *u, size_t nu, bool metrics);
void plan_input_clear(PlanInput *in);
/* the workload a pod belongs to (kind and name; name borrowed from the pod or allocated into
 * *tofree, which the caller frees) */
void plan_pod_workload(const Pod *p, const char **kind, const char **name, char **tofree);
#endif

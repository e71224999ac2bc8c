/* allocation.h — who holds which GPUs: the result of `kubectl gpu status`.
 *
 * status_build() reduces a finalized Cluster (and, when there are metrics, the UsageData) to one
 * GpuStatus: the summary, one NodeStatus per GPU node (product, physical GPUs, memory, MIG and
 * sharing facts, capacity / allocatable / allocated per GPU resource name, the pods holding
 * GPUs, problems), the GPU Operator's health and where metrics came from.  The command renders
 * that one structure as a table, JSON or YAML; nothing is computed while rendering.
 *
 * "Allocated" is the scheduler's: the sum of the effective requests (pod.h) of the pods bound to
 * the node whose phase is neither Succeeded nor Failed (scheduler-messages.md §11).  Counts of
 * extended resources are whole units.
 *
 * Ownership: GpuStatus owns its arrays and the strings it makes; it borrows the Cluster's
 * strings (node names and GFD facts, pods' namespaces and names, resource names: the cluster's
 * pool, model/cluster.h) and the UsageData's (its GpuDevice rows' names and UUIDs, never
 * changed once filled): the Cluster and the UsageData given to status_build must outlive the
 * GpuStatus, unchanged (status_clear first).  status_clear releases the rest.  (At 5,000 GPU
 * nodes with 51,819 holders, copies of those strings were 3 MB of the status's 9 MB.)
 */
#ifndef KGPU_ALLOCATION_H
#define KGPU_ALLOCATION_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "analysis/health.h"
#include "model/cluster.h"
#include "model/usage.h"
#include "model/node.h"
#include "util/util.h"

/* A node problem.  Codes are stable (JSON "problems[].code"). */
typedef enum {
    PROBLEM_NOT_READY,           /* Ready condition not True */
    PROBLEM_CORDONED,            /* spec.unschedulable */
    PROBLEM_NO_DEVICE_PLUGIN,    /* GPU labels, but no GPU resource with capacity > 0 */
    PROBLEM_MIG_INVALID,         /* product ...-MIG-INVALID (single strategy, bad layout) */
    PROBLEM_MIG_CONFIG_FAILED,   /* nvidia.com/mig.config.state=failed */
    PROBLEM_MIG_CONFIG_PENDING,  /* nvidia.com/mig.config.state=pending|rebooting */
    PROBLEM_UNHEALTHY,           /* allocatable < capacity for a GPU resource */
    PROBLEM_GPU_HEALTH,          /* a GPU health signal: agent condition or taint, DCGM XID / DBE ECC
                                    (analysis/health.h) */
    PROBLEM_MISSING_GFD,         /* GPU resource advertised, no GFD labels */
    PROBLEM__COUNT
} ProblemCode;                   /* listed per node in this order */
const char *problem_code_name(ProblemCode p);   /* "NotReady", "Cordoned", "NoDevicePlugin", ... */

typedef struct { ProblemCode code; char *message; } NodeProblem;

typedef struct {
    const char *name;            /* "nvidia.com/gpu", "nvidia.com/mig-1g.10gb", ...: the Cluster's */
    int64_t capacity, allocatable, allocated;
} ResourceAlloc;

typedef struct {
    char *name;
    int64_t count;
} ResourceCount;

/* a GPU resource a holder holds: its name is the Cluster's */
typedef struct {
    const char *name;
    int64_t count;
} HolderRes;

/* a pod holding GPUs on a node: 51,819 of them on the full training cluster, so the strings are
 * the Cluster's, the resources a slice of one array of the status's and the usage in another
 * made only with metrics (32 bytes a holder; 64 with copies of the strings before) */
typedef struct {
    const char *ns, *name;       /* the Cluster's */
    const HolderRes *res;        /* the GPU resources it holds on this node (nres of them): the
                                    status's pooled copy, shared by holders that hold the same */
    uint32_t nres;
    uint8_t phase;               /* PodPhase (model/pod.h): node_status_holder_phase names it */
    bool has_usage;              /* metrics know this pod (node_status_holder_usage) */
} HolderPod;

/* what metrics say a holder uses: NAN when unknown */
typedef struct { double mem_used_mib, util; } HolderUsage;

/* one device of the metrics (whole GPU or MIG instance): 51,424 of them at 5,000 GPU nodes,
 * so the fields are ordered to leave no padding and the strings are the UsageData's */
typedef struct {
    const char *uuid;            /* borrowed from the UsageData (see Ownership above) */
    const char *mig_profile;     /* NULL for a whole GPU; borrowed */
    const char *pod_ns, *pod;    /* the pod holding it, NULL when none or shared by several; borrowed */
    const char *unhealthy;       /* why health.h calls this GPU unhealthy (the NodeStatus's
                                    health owns it), NULL when healthy */
    double mem_used_mib, mem_total_mib, util;   /* NAN when unknown */
    double temp_c, power_w;      /* DCGM temperature (C) and power (W); NAN unknown */
    int index;                   /* GPU index on the node */
    int mig_instance;            /* -1 for a whole GPU */
    int holders;                 /* pods whose series name this device */
    bool idle_allocated;         /* held, and utilization stayed under the threshold */
    bool util_out_of_range;      /* the exporter's utilization was outside 0-100: util is NAN */
    bool mem_out_of_range;       /* memory used above the device's total: mem_used_mib is NAN */
    bool beyond_node;            /* a GPU index the node does not have (metrics mismatch) */
} GpuDevice;

/* A device NVIDIA's DRA driver publishes on the node (ResourceSlices, model/dra.h). */
typedef struct {
    char *name;                  /* "gpu-0", "gpu-0-mig-3g20gb-9-4" */
    char *type;                  /* "gpu" | "mig" | "vfio" | NULL */
    char *product, *profile;     /* productName; MIG profile ("3g.20gb") or NULL */
    char *uuid, *parent_uuid;
    int64_t memory_mib;          /* capacity "memory", 0 unknown */
    char *claim;                 /* "ns/name" of the claim it is allocated to, NULL when free */
    Strvec pods;                 /* "ns/name" of the pods the claim is reserved for */
    bool blocked;                /* free itself, but its GPU is held whole or its memory slices are */
} DraDeviceStatus;

typedef struct {
    int gpus;                    /* physical GPUs behind the devices (uuid / parentUUID) */
    int devices, mig_devices, allocated;   /* allocated: devices held by a claim */
    DraDeviceStatus *devs; size_t ndevs;   /* by name */
} NodeDraStatus;

typedef struct {
    const char *name;            /* the Cluster's, as the GFD facts below */
    const char *product;         /* GFD nvidia.com/gpu.product verbatim, NULL without GFD */
    const char *base_product;    /* without -MIG-* / -SHARED, NULL without GFD */
    const char *short_product;   /* for tables: "A100-SXM4-80GB", "T4"; "-" when unknown */
    int physical_gpus;           /* 0 = unknown (inv.physical says -1 and why) */
    const NodeInventory *inv;    /* every inventory fact with its source (node.h); the status's
                                    copy, shared by the nodes whose facts are the same */
    int64_t memory_mib;          /* all physical GPUs together, 0 = unknown */
    int64_t memory_per_gpu_mib;  /* one physical GPU, 0 = unknown */
    MigStrategy mig_strategy;    /* nvidia.com/mig.strategy (none when absent); mixed when only
                                    advertised nvidia.com/mig-* resources show MIG */
    bool mig_enabled;            /* MIG devices are in use (labels or mig-* resources) */
    const char *mig_single_profile;   /* single strategy: "1g.10gb" */
    const char *mig_config, *mig_config_state;
    SharingStrategy sharing;     /* also from old GFD labels / the device-plugin config */
    int replicas;                /* 1 when not shared, 0 when shared with unknown replicas */
    bool ready, schedulable;
    ResourceAlloc *res; size_t nres;    /* GPU resources, sorted by name; all-zero ones omitted */
    HolderPod *pods; size_t npods;      /* pods holding GPUs, sorted by namespace/name */
    HolderUsage *pod_usage;             /* with metrics: parallel to pods (node_status_holder_usage); NULL without */
    GpuDevice *gpus; size_t ngpus;      /* with metrics */
    int idle_allocated;          /* physical GPUs held whose every device is idle (with
                                    metrics, else 0): a MIG GPU is idle only when all its
                                    instances are; devices beyond the node's GPUs not counted */
    int metrics_beyond;          /* DCGM devices whose GPU index the node does not have */
    NodeHealth health;           /* unhealthy GPUs and the signals saying so (health.h) */
    double mem_used_mib, mem_total_mib;   /* with metrics: sums over the devices; NAN unknown */
    double util;                 /* with metrics: mean over devices that report it; NAN unknown */
    NodeProblem *problems; size_t nproblems;
    NodeDraStatus dra;           /* GPUs published through DRA (allocation_dra.c); zero when none */
} NodeStatus;

typedef struct {
    char *ns, *name;
    int desired, ready;
} ComponentStatus;

typedef enum { OPERATOR_NONE, OPERATOR_GPU_OPERATOR, OPERATOR_DEVICE_PLUGIN } OperatorKind;

typedef struct {
    int64_t allocatable, allocated;
    char *name;
} ResourceTotal;

typedef struct {
    /* summary */
    int nodes, gpu_nodes, physical_gpus, pending_gpu_pods;
    int waiting_workloads;       /* batch workloads that wait in a queue (Kueue Workloads not
                                  * admitted, Volcano/KAI PodGroups not scheduled), GPU ones:
                                  * the Workload/PodGroup rows of 'pending -A'; 0 without queues */
    int pending_not_created;     /* owners whose pods a ResourceQuota refused ('pending' lists
                                  * them); set by the command (explain_pending_counts), else 0 */
    int unknown_gpu_nodes;       /* GPU nodes whose physical GPUs cannot be counted (not in the total) */
    int resource_counted_nodes;  /* GPU nodes counted from advertised resources alone (physical_unsure) */
    int idle_allocated_gpus;     /* -1 without metrics */
    ResourceTotal *totals; size_t ntotals;   /* sorted by name */
    NodeStatus *gpu_node_list; size_t ngpu_node_list;   /* sorted by name */
    /* GPU Operator / device plugin */
    OperatorKind operator_kind;
    char *operator_ns;           /* NULL when none found */
    bool daemonsets_unreadable;  /* the DaemonSet list was refused (a loader warning says so) */
    ComponentStatus *components; size_t ncomponents;   /* operator namespace first, by name */
    char *clusterpolicy_name, *clusterpolicy_state;
    bool clusterpolicy_checked;
    /* metrics */
    bool has_metrics;
    char *metrics_source, *metrics_detail;
    double idle_threshold, window_s;
    Strvec warnings;             /* loader and metrics warnings */
    /* DRA (allocation_dra.c): devices of the GPU driver on the nodes shown, and claims */
    int dra_gpus, dra_devices, dra_allocated;   /* physical GPUs, devices, devices held */
    int dra_claims, dra_claims_allocated, dra_claims_pending;   /* GPU claims (all namespaces) */
    char *pods_ns;               /* the filter's pods_ns (pods of other namespaces not listed) */
    char *node_selector;         /* the filter's node_selector, NULL when none */
    bool nodes_named;            /* NODE arguments chose the nodes */
    /* private: every node's holders in one array (gpu_node_list[i].pods is a slice of it),
     * their resources the pool's (strings): one copy of each distinct list */
    HolderPod *holders;
    HolderUsage *holder_usage;   /* with metrics: parallel to holders */
    /* status --price (groups.h status_hours_fill): over window_s, physical GPU-hours held and
     * idle (NAN: a device without utilization), and the idle ones in money (NAN: a product
     * without a price); has_cost without has_hours: asked for, but the metrics have no series */
    bool has_hours, has_cost;
    double gpu_hours, idle_gpu_hours, idle_cost;
    struct StrPool *strings;     /* one copy of each distinct NodeInventory and of each string
                                    the status makes (short product names...; util/strpool.h) */
    /* batch queues (explain_queue.h explain_queue_summaries): one per ClusterQueue / Queue */
    struct QueueSummary *queues; size_t nqueues;
} GpuStatus;

typedef struct {
    const char *const *nodes;    /* only these node names (NULL = all nodes); must exist */
    size_t nnodes;
    const char *pods_ns;         /* -n: list (and count as pending) only this namespace's pods;
                                    allocation still counts every namespace's.  NULL = all */
    const char *node_selector;   /* -l as given (the loader read only the matching nodes): said */
} StatusFilter;

/* Builds the status of a finalized cluster.  usage may be NULL (no metrics collected); when it
 * is given and its source is not "none", per-GPU and per-pod usage are joined.  filter may be
 * NULL.  Never fails. */
void status_build(GpuStatus *st, const Cluster *c, const UsageData *usage, const StatusFilter *filter);
void status_clear(GpuStatus *st);
/* The namespace of the GPU stack as status_build finds it (GpuStatus.operator_ns, borrowed from
 * c; NULL when none) and its kind (may be NULL), from the DaemonSets alone: for readers that
 * need only that (plan), without building the status. */
const char *status_operator_namespace(const Cluster *c, OperatorKind *kind);

/* ---- DRA (allocation_dra.c), used by status_build ----
 * n has devices of the GPU driver in its ResourceSlices */
bool status_node_has_dra(const Cluster *c, const Node *n);
/* fills ns->dra from the cluster's DRA devices on the node and reconciles the node's facts:
 * physical GPUs = the larger of the device-plugin/GFD count and the DRA count (the same GPUs,
 * never added), product and memory from the devices when GFD says nothing, and no
 * NoDevicePlugin problem when the DRA driver publishes the node's GPUs (a changed inventory
 * is interned into pool, the status's strings, as status_build's are, and so are the product
 * names it makes) */
void status_node_dra(NodeStatus *ns, const Cluster *c, const Node *n, StrPool *pool);
void node_dra_status_clear(NodeDraStatus *d);
/* the summary's DRA counts, from the nodes shown and the claims */
void status_dra_totals(GpuStatus *st, const Cluster *c);

/* "Running", "Pending", "Unknown": the phase of a holder of n */
const char *node_status_holder_phase(const HolderPod *p);
/* the memory used and utilization of p, a holder of n (NAN, NAN without metrics) */
HolderUsage node_status_holder_usage(const NodeStatus *n, const HolderPod *p);

/* sums for a table row: allocated and allocatable over all GPU resources of the node */
int64_t node_status_allocated(const NodeStatus *n);
int64_t node_status_allocatable(const NodeStatus *n);
/* GPUS cell: "8", "?" (cannot be counted), "2*" (from advertised resources alone); caller frees */
char *node_status_gpus_cell(const NodeStatus *n);
/* "Ready", "NotReady,SchedulingDisabled,NoDevicePlugin" (kubectl words, then problem codes);
 * caller frees */
char *node_status_word(const NodeStatus *n);
/* how the node's GPUs are cut, for a MODE column: "mig mixed", "mig single", "ts x4",
 * "mps x8", "mig mixed,ts x2", "MIG INVALID" (bad single-strategy layout), "ts x?" / "shared x?"
 * (replicas unknown), "?" (nothing says whether it shares), "-"; caller frees */
char *node_status_mode(const NodeStatus *n);
/* "NVIDIA-A100-SXM4-80GB-MIG-1g.10gb" -> "A100-SXM4-80GB"; caller frees */
char *allocation_product_short_name(const char *gfd_product);
#endif

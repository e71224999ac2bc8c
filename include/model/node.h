/* node.h — a Node reduced to what kubectl-gpu uses, and the GPU facts read from its
 * GPU Feature Discovery / GPU Operator labels (see shared/reference/gfd-labels.md).
 *
 * Ownership: a Node is decoded straight into a string pool (util/strpool.h; a Cluster's, or
 * the caller's): every `const char *` field (GpuFacts' and the taints' too) is the pool's copy,
 * shared, read-only, living as long as the pool, the labels' keys and values too.  The Node
 * owns its arrays (labels, taints, capacity, allocatable, gpu.mig); the strings of capacity and
 * allocatable are its own until a Cluster moves them into its pool (cluster.c).  node_clear frees what the Node owns
 * (not the struct itself, not the pool's strings) and zeroes it.
 */
#ifndef KGPU_NODE_H
#define KGPU_NODE_H
#include <stdbool.h>
#include <stdint.h>
#include "model/cloud_gpus.h"
#include "model/labels.h"
#include "model/resources.h"
#include "util/strpool.h"

/* The annotation node.c reads (HAMi's device registration), and the list of those read for the
 * readers that keep only those (jsonscan.h's "key.sub:m1,m2") */
#define NODE_ANN_HAMI_REGISTER "hami.io/node-nvidia-register"
#define NODE_ANNOTATIONS_READ NODE_ANN_HAMI_REGISTER

typedef struct { const char *key, *value, *effect; } Taint;   /* effect: NoSchedule|PreferNoSchedule|NoExecute */
struct cJSON;
/* one taint object (a node's spec.taints[], a Kueue ResourceFlavor's nodeTaints[]) into *out,
 * strings in pool; false when its key or effect is missing (nothing written) */
bool node_taint_from_json(const struct cJSON *t, StrPool *pool, Taint *out);

typedef enum { MIG_NONE = 0, MIG_SINGLE, MIG_MIXED } MigStrategy;
typedef enum { SHARING_NONE = 0, SHARING_TIME_SLICING, SHARING_MPS } SharingStrategy;

typedef struct {
    const char *profile;   /* "1g.10gb" (label form; "+" already "." ) */
    int count;             /* nvidia.com/mig-<P>.count */
    int64_t memory_mib;    /* nvidia.com/mig-<P>.memory */
    int replicas;          /* nvidia.com/mig-<P>.replicas (1 when unset) */
    int slices_gi;         /* nvidia.com/mig-<P>.slices.gi, 0 when unset */
} MigDeviceFacts;

/* One GPU as HAMi's device plugin registers it (annotation hami.io/node-nvidia-register). */
typedef struct {
    const char *uuid, *type;     /* type: "NVIDIA-Tesla V100-PCIE-32GB" (NVIDIA- + the NVML name) */
    int index;                   /* GPU index (registrations before the index field: position) */
    int count;                   /* vGPUs it is split into (pods sharing it at most) */
    int64_t devmem_mib;          /* memory HAMi schedules (MiB) */
    int devcore;                 /* cores HAMi schedules, percent (100 = the whole GPU) */
    bool healthy;
} HamiDevice;

typedef struct {
    bool has_gfd;          /* any nvidia.com/gpu.product / gpu.count label */
    bool present;          /* nvidia.com/gpu.present=true or pci-10de.present=true */
    const char *product;   /* GFD product, verbatim (may carry -MIG-<p> / -SHARED / -MIG-INVALID) */
    const char *base_product;    /* product with -MIG-*, -SHARED suffixes stripped */
    int count;             /* nvidia.com/gpu.count */
    int64_t memory_mib;    /* nvidia.com/gpu.memory in MiB (a value in bytes, as some setups
                              write it, e.g. 16106127360, is converted; see memory_in_bytes) */
    bool memory_in_bytes;  /* the label held bytes (or a quantity such as "16Gi"), not MiB */
    const char *family;    /* nvidia.com/gpu.family */
    MigStrategy mig_strategy;    /* nvidia.com/mig.strategy (absent -> none) */
    bool mig_capable;            /* nvidia.com/mig.capable */
    const char *mig_config;            /* nvidia.com/mig.config */
    const char *mig_config_state;      /* nvidia.com/mig.config.state */
    SharingStrategy sharing;     /* nvidia.com/gpu.sharing-strategy; before device plugin v0.15
                                    (GFD v0.6-v0.8 / plugin v0.12-v0.14) no such label: then
                                    time-slicing when gpu.replicas > 1 or the product ends -SHARED */
    bool sharing_old_labels;     /* sharing read from those older labels (no sharing-strategy) */
    bool has_sharing_labels;     /* sharing-strategy or gpu.replicas label present (GFD >= v0.6) */
    int replicas;                /* nvidia.com/gpu.replicas (1 when unset) */
    const char *device_plugin_config;  /* nvidia.com/device-plugin.config */
    const char *mig_single_profile;    /* single strategy: the "-MIG-<p>" part of product */
    MigDeviceFacts *mig;         /* mixed strategy: one per nvidia.com/mig-<P>.count label */
    size_t nmig;
    const char *driver_version;        /* nvidia.com/cuda.driver-version.full */
    /* cloud node labels, for nodes without GFD (node.c names the keys) */
    int cloud_count;             /* karpenter.k8s.aws/instance-gpu-count (NVIDIA), 0 unset */
    int64_t cloud_memory_mib;    /* karpenter.k8s.aws/instance-gpu-memory (MiB), 0 unset */
    SharingStrategy cloud_sharing;   /* cloud.google.com/gke-gpu-sharing-strategy */
    int cloud_replicas;          /* cloud.google.com/gke-max-shared-clients-per-gpu, 0 unset */
    const char *cloud_partition;       /* cloud.google.com/gke-gpu-partition-size (GKE MIG), NULL unset */
    /* where product came from: GFD's gpu.product, or (no GFD product) a cloud label read by
     * cloud_gpus.c; product/base_product then hold the GFD spelling of the cloud's GPU */
    HamiDevice *hami; size_t nhami;   /* HAMi registration (node_from_json), 0 when none */
    ProductSource product_src;
    const char *product_label;         /* the label key that named it (static), NULL for GFD */
    const char *present_label;         /* the label key that made `present` true (static), or NULL */
} GpuFacts;

/* A node condition a GPU health agent set and that says something is wrong (status True):
 * NVIDIA NVSentinel's GpuXidError, GpuMemWatch, GpuThermalWatch, ... (type = its check name;
 * message "ErrorCode:<code> GPU:<index> ... Recommended Action=<A>;" per fault) and SysLogs*,
 * NVSwitch*, DCGMError; node-problem-detector GPU conditions (any type naming "gpu").
 * Strings are the pool's. */
typedef struct { const char *type, *reason, *message; } HealthCondition;

typedef struct Node {
    const char *name;
    KVList labels;             /* all labels (kept for GPU nodes only; see cluster.h) */
    Taint *taints; size_t ntaints;
    bool ready;                /* Ready condition True */
    const char *not_ready_reason;    /* Ready condition reason/message when not ready */
    bool unschedulable;        /* spec.unschedulable (cordoned) */
    HealthCondition *health; size_t nhealth;   /* GPU health conditions that are True */
    ResourceList capacity, allocatable;
    int64_t creation;          /* epoch seconds */
    GpuFacts gpu;
} Node;

struct cJSON;
struct Error;
/* fill *n from a Node object; keep_labels=false drops the label map after GPU facts are read.
 * -1 (nothing to free) without a usable metadata.name; wrong-typed fields get defaults.
 * Allocatable defaults to capacity when status.allocatable is absent. */
int node_from_json(Node *n, const struct cJSON *obj, bool keep_labels, StrPool *pool,
                   struct Error *err);
void node_clear(Node *n);
void gpu_facts_from_labels(GpuFacts *g, const KVList *labels, StrPool *pool);
void gpu_facts_clear(GpuFacts *g);

/* node advertises any GPU resource in capacity or allocatable (even 0) */
bool node_advertises_gpu(const Node *n);
/* node is a "GPU node": GFD/present labels, or a GPU resource with capacity > 0 */
bool node_is_gpu_node(const Node *n);
/* physical GPUs as inventory_node counts them without a device-plugin config, 0 when they
 * cannot be counted (inventory_node says -1 and why).  Replicas and MIG devices are never
 * counted; a node advertising mig-* resources without a GFD gpu.count is 0 (unknown). */
int inventory_physical_gpus(const Node *n);
/* total GPU memory MiB of the node's physical GPUs (inventory_node, no config), 0 if unknown */
int64_t inventory_gpu_memory_mib(const Node *n);

/* ---- the node's GPU inventory from every signal (src/model/inventory.c) ----
 *
 * Each fact comes from the best signal present, in this order:
 *   1. GPU Feature Discovery labels of the current device plugin (v0.15+);
 *   2. older GFD labels (GFD v0.2-v0.8, device plugin v0.12-v0.14: no sharing-strategy, -SHARED
 *      product suffix, gpu.replicas), labels in other units (memory in bytes), cloud labels
 *      (Karpenter karpenter.k8s.aws/instance-gpu-*, GKE cloud.google.com/gke-*);
 *   3. the resources the node advertises (nvidia.com/gpu, nvidia.com/gpu.shared,
 *      nvidia.com/mig-*, their capacities);
 *   4. the device-plugin config the node runs (ConfigMap named by the ClusterPolicy, key from
 *      the node's nvidia.com/device-plugin.config label or the policy's default);
 *   5. what follows from the others (advertised units / replicas, the MIG table's memory).
 * The product (the GPU model) has its own order, said in JSON sources.product (ProductSource):
 *   GFD nvidia.com/gpu.product > HAMi's registration (annotation hami.io/node-nvidia-register,
 *   NVML's name on the node) > GKE cloud.google.com/gke-accelerator > EKS
 *   k8s.amazonaws.com/accelerator > Karpenter karpenter.k8s.aws/instance-gpu-name > the AWS /
 *   Azure instance type (node.kubernetes.io/instance-type) > the DRA driver's productName
 *   (status, allocation_dra.c) > none.  AKS's kubernetes.azure.com/accelerator=nvidia (and a
 *   plain accelerator=nvidia) names no model: the node is a GPU node, its product unknown.
 * FactSource says which one gave a fact; FACT_GFD is the only one JSON leaves unsaid. */
typedef enum { FACT_NONE = 0, FACT_GFD, FACT_LABELS, FACT_RESOURCES, FACT_INFERRED } FactSource;
/* "labels" (FACT_GFD and FACT_LABELS), "resources", "inferred", "none" */
const char *inventory_fact_source_name(FactSource s);

/* The sharing part of a node's device-plugin config (cluster.c reads it from the ConfigMap);
 * strings borrowed. */
typedef struct {
    SharingStrategy strategy;    /* sharing.timeSlicing or sharing.mps for nvidia.com/gpu */
    int replicas;                /* its replicas (>= 2), 1 when the config shares nothing */
    bool renamed;                /* renameByDefault: advertised as nvidia.com/gpu.shared */
    const char *where;           /* "ConfigMap gpu-operator/time-slicing-config, key tesla-t4" */
} SharingConfig;

/* "sharing" beyond the enum: SHARING_NONE with a known shared resource reads "shared" */
typedef enum { INV_SHARING_KNOWN = 0, INV_SHARING_SHARED_UNKNOWN, INV_SHARING_UNKNOWN } InvSharingKnown;

#define INV_DETAIL_MAX 200
typedef struct {
    int physical;                /* physical GPUs, -1 = cannot be counted */
    FactSource physical_src;     /* FACT_RESOURCES: counted from advertised units alone */
    bool physical_unsure;        /* from nvidia.com/gpu capacity with no sharing signal at all:
                                    replicas, if any, would be counted as GPUs */
    int whole_gpus;              /* GPUs advertised whole (nvidia.com/gpu[.shared] / replicas),
                                    -1 unknown */
    int mig_devices;             /* MIG devices (labels or advertised mig-* units / replicas) */
    bool mig_enabled;            /* MIG devices exist (labels or mig-* resources) */
    MigStrategy mig_strategy;    /* none | single | mixed (mixed when only resources show MIG) */
    FactSource mig_src;
    SharingStrategy sharing;
    InvSharingKnown sharing_known;
    int replicas;                /* per GPU; 1 not shared; 0 = unknown */
    FactSource sharing_src;
    int64_t memory_per_gpu_mib;  /* 0 unknown */
    FactSource memory_src;
    ProductSource product_src;   /* GFD, a cloud's label, the DRA driver (status), or none */
    char product_detail[INV_DETAIL_MAX];   /* "cloud.google.com/gke-accelerator=nvidia-l4" */
    char physical_detail[INV_DETAIL_MAX], sharing_detail[INV_DETAIL_MAX],
         memory_detail[INV_DETAIL_MAX], mig_detail[INV_DETAIL_MAX];   /* "" when from FACT_GFD */
} NodeInventory;

/* cfg may be NULL (no device-plugin config known).  Never fails. */
void inventory_node(const Node *n, const SharingConfig *cfg, NodeInventory *inv);
/* "none" | "time-slicing" | "mps" | "shared" (strategy unknown) | "unknown" */
const char *inventory_sharing_name(const NodeInventory *inv);

const char *mig_strategy_name(MigStrategy s);       /* "none" | "single" | "mixed" */
const char *sharing_strategy_name(SharingStrategy s); /* "none" | "time-slicing" | "mps" */
#endif

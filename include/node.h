/* node.h — a Node reduced to what kubectl-gpu uses, and the GPU facts read from its
 * GPU Feature Discovery / GPU Operator labels (see shared/reference/gfd-labels.md).
 *
 * Node owns all its strings and lists; node_free releases them (not the struct itself).
 */
#ifndef KGPU_NODE_H
#define KGPU_NODE_H
#include <stdbool.h>
#include <stdint.h>
#include "labels.h"
#include "resources.h"

typedef struct { char *key, *value, *effect; } Taint;   /* effect: NoSchedule|PreferNoSchedule|NoExecute */

typedef enum { MIG_NONE = 0, MIG_SINGLE, MIG_MIXED } MigStrategy;
typedef enum { SHARING_NONE = 0, SHARING_TIME_SLICING, SHARING_MPS } SharingStrategy;

typedef struct {
    char *profile;         /* "1g.10gb" (label form; "+" already "." ) */
    int count;             /* nvidia.com/mig-<P>.count */
    int64_t memory_mib;    /* nvidia.com/mig-<P>.memory */
    int replicas;          /* nvidia.com/mig-<P>.replicas (1 when unset) */
    int slices_gi;         /* nvidia.com/mig-<P>.slices.gi, 0 when unset */
} MigDeviceFacts;

typedef struct {
    bool has_gfd;          /* any nvidia.com/gpu.product / gpu.count label */
    bool present;          /* nvidia.com/gpu.present=true or pci-10de.present=true */
    char *product;         /* GFD product, verbatim (may carry -MIG-<p> / -SHARED / -MIG-INVALID) */
    char *base_product;    /* product with -MIG-*, -SHARED suffixes stripped */
    int count;             /* nvidia.com/gpu.count */
    int64_t memory_mib;    /* nvidia.com/gpu.memory */
    char *family;          /* nvidia.com/gpu.family */
    MigStrategy mig_strategy;    /* nvidia.com/mig.strategy (absent -> none) */
    bool mig_capable;            /* nvidia.com/mig.capable */
    char *mig_config;            /* nvidia.com/mig.config */
    char *mig_config_state;      /* nvidia.com/mig.config.state */
    SharingStrategy sharing;     /* nvidia.com/gpu.sharing-strategy */
    int replicas;                /* nvidia.com/gpu.replicas (1 when unset) */
    char *device_plugin_config;  /* nvidia.com/device-plugin.config */
    char *mig_single_profile;    /* single strategy: the "-MIG-<p>" part of product */
    MigDeviceFacts *mig;         /* mixed strategy: one per nvidia.com/mig-<P>.count label */
    size_t nmig;
    char *driver_version;        /* nvidia.com/cuda.driver-version.full */
} GpuFacts;

typedef struct Node {
    char *name;
    KVList labels;             /* all labels (kept for GPU nodes only; see cluster.h) */
    Taint *taints; size_t ntaints;
    bool ready;                /* Ready condition True */
    char *not_ready_reason;    /* Ready condition reason/message when not ready */
    bool unschedulable;        /* spec.unschedulable (cordoned) */
    ResourceList capacity, allocatable;
    int64_t creation;          /* epoch seconds */
    GpuFacts gpu;
} Node;

struct cJSON;
struct Error;
/* fill *n from a Node object; keep_labels=false drops the label map after GPU facts are read.
 * -1 (nothing to free) without a usable metadata.name; wrong-typed fields get defaults.
 * Allocatable defaults to capacity when status.allocatable is absent. */
int node_from_json(Node *n, const struct cJSON *obj, bool keep_labels, struct Error *err);
void node_free(Node *n);
void gpu_facts_from_labels(GpuFacts *g, const KVList *labels);
void gpu_facts_free(GpuFacts *g);

/* node advertises any GPU resource in capacity or allocatable (even 0) */
bool node_advertises_gpu(const Node *n);
/* node is a "GPU node": GFD/present labels, or a GPU resource with capacity > 0 */
bool node_is_gpu_node(const Node *n);
/* physical GPUs: GFD gpu.count under strategy none/mixed; under single, gpu.count counts MIG
 * devices, so ceil(count / max instances of the profile per GPU) from mig_tables.h, 0 when the
 * model/profile is unknown or the product is -MIG-INVALID; without GFD labels the capacity of
 * nvidia.com/gpu divided by replicas, else the sum of the other non-MIG GPU resources.
 * Documented in node.c. */
int node_physical_gpus(const Node *n);
/* total GPU memory MiB of the node's physical GPUs (single: model memory from the MIG table),
 * 0 if unknown */
int64_t node_gpu_memory_mib(const Node *n);
const char *mig_strategy_name(MigStrategy s);       /* "none" | "single" | "mixed" */
const char *sharing_strategy_name(SharingStrategy s); /* "none" | "time-slicing" | "mps" */
#endif

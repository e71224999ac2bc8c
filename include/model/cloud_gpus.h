/* cloud_gpus.h — the GPU a managed cloud's node labels describe, for nodes without GPU Feature
 * Discovery (GKE, EKS and Karpenter, AKS), as data: one table per label, no if-chains.
 *
 * What each label says (sources cited in cloud_gpus.c):
 *   GKE   cloud.google.com/gke-accelerator=nvidia-tesla-t4 | nvidia-l4 | nvidia-a100-80gb ...
 *   EKS   k8s.amazonaws.com/accelerator (the same GKE-style names, as eksctl / the cluster
 *         autoscaler docs set it), node.kubernetes.io/instance-type=p4d.24xlarge ...
 *   Karpenter karpenter.k8s.aws/instance-gpu-name=t4|a10g|l4|a100... with instance-gpu-memory
 *         (EKS Auto Mode writes the same as eks.amazonaws.com/instance-gpu-*)
 *   AKS   kubernetes.azure.com/accelerator=nvidia (only that: a GPU node), and the VM size in
 *         node.kubernetes.io/instance-type=Standard_NC24ads_A100_v4 ...
 *   any   accelerator=nvidia-tesla-p100 (kubernetes.io docs, "Scheduling GPUs": label nodes
 *         with their accelerator, GKE's names) or accelerator=nvidia (AKS's GPU guide)
 * Products are spelled as GFD spells nvidia.com/gpu.product ("Tesla-T4", "NVIDIA-A100-SXM4-40GB"),
 * so the MIG tables (mig_tables.h) and the rest of the tool read them alike.
 * All data is static; nothing here is freed.
 */
#ifndef KGPU_CLOUD_GPUS_H
#define KGPU_CLOUD_GPUS_H
#include <stdbool.h>
#include <stdint.h>
#include "model/labels.h"

/* which signal named the product (JSON sources.product) */
typedef enum {
    PRODUCT_SRC_NONE = 0, PRODUCT_SRC_GFD, PRODUCT_SRC_GKE, PRODUCT_SRC_EKS, PRODUCT_SRC_KARPENTER,
    PRODUCT_SRC_AKS, PRODUCT_SRC_HAMI, PRODUCT_SRC_DRA, PRODUCT_SRC_LABEL
} ProductSource;
/* "gfd" | "gke" | "eks" | "karpenter" | "aks" | "hami" | "dra" | "label" (the plain `accelerator`
 * label the Kubernetes GPU scheduling docs have users set) | "none" */
const char *cloud_product_source_name(ProductSource s);

typedef struct {
    ProductSource src;       /* PRODUCT_SRC_NONE: the labels name no GPU we know */
    const char *label;       /* the label key read ("cloud.google.com/gke-accelerator"), static */
    const char *product;     /* GFD spelling, static; NULL when the label names an unknown GPU */
    int count;               /* GPUs per node (instance-type tables), 0 unknown */
    int64_t memory_mib;      /* per GPU, nominal (the cloud's GB x 1024), 0 unknown */
    bool nvidia;             /* the labels say the node has NVIDIA GPUs (even when unnamed) */
} CloudGpu;

/* The first of: GKE accelerator, EKS accelerator, Karpenter GPU name, instance type (AWS and
 * Azure VM sizes), AKS accelerator=nvidia / accelerator=nvidia.  Zeroed when none applies. */
void cloud_gpu_from_labels(const KVList *labels, CloudGpu *out);
#endif

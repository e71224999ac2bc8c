/* cloud_gpus.c — GPUs named by managed clouds' node labels (cloud_gpus.h), as tables.
 *
 * Sources (public documentation, read 2026-11):
 *   GKE accelerator names and the GPU each is: https://cloud.google.com/kubernetes-engine/docs/how-to/gpus
 *     ("--accelerator type=nvidia-tesla-t4 | nvidia-l4 | nvidia-tesla-a100 | nvidia-a100-80gb |
 *     nvidia-h100-80gb | nvidia-h100-mega-80gb | nvidia-h200-141gb | nvidia-b200 ...") and
 *     https://cloud.google.com/compute/docs/gpus (nvidia-tesla-a100 = A100 40GB on A2 standard,
 *     nvidia-a100-80gb = A100 80GB on A2 ultra, both SXM4; H100 80GB HBM3 on A3; GPU memory).
 *     A real node: kubernetes/kubernetes#55005 (gke-accelerator: nvidia-tesla-k80).
 *   EKS instance types: https://aws.amazon.com/ec2/instance-types/ (Accelerated Computing: p3,
 *     p3dn, p4d, p4de, p5, p5e, p5en, g4dn, g5, g6, g6e, with GPUs per size and GPU memory).
 *   Karpenter labels: https://karpenter.sh/docs/reference/instance-types/ (instance-gpu-name
 *     t4 | a10g | l4 | l40s | a100 | h100 | v100 ..., instance-gpu-memory in MiB); EKS Auto Mode's
 *     eks.amazonaws.com/instance-gpu-* are the same (https://docs.aws.amazon.com/eks/latest/userguide/
 *     create-node-pool.html, awsdocs/amazon-eks-user-guide#914).
 *   The plain `accelerator` label: https://kubernetes.io/docs/tasks/manage-gpus/scheduling-gpus/
 *     ("kubectl label nodes <node-with-k80> accelerator=nvidia-tesla-k80").
 *   AKS: https://learn.microsoft.com/azure/aks/gpu-cluster (kubernetes.azure.com/accelerator=nvidia
 *     on GPU node pools) and the GPU VM sizes of
 *     https://learn.microsoft.com/azure/virtual-machines/sizes/overview (NCasT4_v3, NC_A100_v4,
 *     NDasrA100_v4, NDm_A100_v4, ND_H100_v5, NCads_H100_v5, NCv3; the retired NC series, K80:
 *     https://learn.microsoft.com/azure/virtual-machines/nc-series).  A real AKS-engine node of
 *     that size: Azure/ACS#116 (beta.kubernetes.io/instance-type=Standard_NC6, "shows 0 GPUs").
 * Memory is the cloud's nominal GB x 1024 (what a user sizes a workload by); GFD's measured
 * figure, when present, wins (inventory.c).
 */
#include "model/cloud_gpus.h"
#include <string.h>
#include <strings.h>
#include "util/util.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

const char *cloud_product_source_name(ProductSource s)
{
    switch (s) {
    case PRODUCT_SRC_GFD: return "gfd";
    case PRODUCT_SRC_GKE: return "gke";
    case PRODUCT_SRC_EKS: return "eks";
    case PRODUCT_SRC_KARPENTER: return "karpenter";
    case PRODUCT_SRC_AKS: return "aks";
    case PRODUCT_SRC_HAMI: return "hami";
    case PRODUCT_SRC_DRA: return "dra";
    case PRODUCT_SRC_LABEL: return "label";
    case PRODUCT_SRC_NONE: break;
    }
    return "none";
}

#define GIB(x) ((int64_t)(x) * 1024)

/* GKE accelerator names (also used by EKS's k8s.amazonaws.com/accelerator) */
typedef struct { const char *name, *product; int64_t memory_mib; } NamedGpu;
static const NamedGpu gke_names[] = {
    { "nvidia-tesla-k80", "Tesla-K80", GIB(12) },
    { "nvidia-tesla-p4", "Tesla-P4", GIB(8) },
    { "nvidia-tesla-p100", "Tesla-P100-PCIE-16GB", GIB(16) },
    { "nvidia-tesla-v100", "Tesla-V100-SXM2-16GB", GIB(16) },
    { "nvidia-tesla-t4", "Tesla-T4", GIB(16) },
    { "nvidia-l4", "NVIDIA-L4", GIB(24) },
    { "nvidia-tesla-a100", "NVIDIA-A100-SXM4-40GB", GIB(40) },
    { "nvidia-a100-80gb", "NVIDIA-A100-SXM4-80GB", GIB(80) },
    { "nvidia-h100-80gb", "NVIDIA-H100-80GB-HBM3", GIB(80) },
    { "nvidia-h100-mega-80gb", "NVIDIA-H100-80GB-HBM3", GIB(80) },
    { "nvidia-h200-141gb", "NVIDIA-H200", GIB(141) },
    { "nvidia-b200", "NVIDIA-B200", 0 },
    { "nvidia-gb200", "NVIDIA-GB200", 0 },
};

/* Karpenter instance-gpu-name; where one name covers two memory sizes, the memory label picks */
typedef struct { const char *name; int64_t min_memory_mib; const char *product; int64_t memory_mib; } KarpenterGpu;
static const KarpenterGpu karpenter_names[] = {
    { "k80", 0, "Tesla-K80", GIB(12) },
    { "m60", 0, "Tesla-M60", GIB(8) },
    { "t4", 0, "Tesla-T4", GIB(16) },
    { "v100", GIB(32), "Tesla-V100-SXM2-32GB", GIB(32) },
    { "v100", 0, "Tesla-V100-SXM2-16GB", GIB(16) },
    { "a10g", 0, "NVIDIA-A10G", GIB(24) },
    { "l4", 0, "NVIDIA-L4", GIB(24) },
    { "l40s", 0, "NVIDIA-L40S", GIB(48) },
    { "a100", GIB(80), "NVIDIA-A100-SXM4-80GB", GIB(80) },
    { "a100", 0, "NVIDIA-A100-SXM4-40GB", GIB(40) },
    { "h100", 0, "NVIDIA-H100-80GB-HBM3", GIB(80) },
    { "h200", 0, "NVIDIA-H200", GIB(141) },
};

/* instance types: a family ("g5.") with the GPUs of its sizes; sizes not listed have `count` */
typedef struct { const char *size; int count; } SizeCount;
typedef struct {
    const char *family;          /* prefix of node.kubernetes.io/instance-type, or a whole VM size */
    bool exact;                  /* the family is the whole instance type */
    const char *product; int64_t memory_mib; int count;
    SizeCount sizes[4];
    ProductSource src;
} InstanceGpus;
static const InstanceGpus instance_types[] = {
    /* AWS (families end in "."): GPUs per size from the instance-type pages */
    { "p3.", false, "Tesla-V100-SXM2-16GB", GIB(16), 1, { { "8xlarge", 4 }, { "16xlarge", 8 } }, PRODUCT_SRC_EKS },
    { "p3dn.", false, "Tesla-V100-SXM2-32GB", GIB(32), 8, { { NULL, 0 } }, PRODUCT_SRC_EKS },
    { "p4d.", false, "NVIDIA-A100-SXM4-40GB", GIB(40), 8, { { NULL, 0 } }, PRODUCT_SRC_EKS },
    { "p4de.", false, "NVIDIA-A100-SXM4-80GB", GIB(80), 8, { { NULL, 0 } }, PRODUCT_SRC_EKS },
    { "p5.", false, "NVIDIA-H100-80GB-HBM3", GIB(80), 8, { { "4xlarge", 1 } }, PRODUCT_SRC_EKS },
    { "p5e.", false, "NVIDIA-H200", GIB(141), 8, { { NULL, 0 } }, PRODUCT_SRC_EKS },
    { "p5en.", false, "NVIDIA-H200", GIB(141), 8, { { NULL, 0 } }, PRODUCT_SRC_EKS },
    { "g4dn.", false, "Tesla-T4", GIB(16), 1, { { "12xlarge", 4 }, { "metal", 8 } }, PRODUCT_SRC_EKS },
    { "g5.", false, "NVIDIA-A10G", GIB(24), 1, { { "12xlarge", 4 }, { "24xlarge", 4 }, { "48xlarge", 8 } }, PRODUCT_SRC_EKS },
    { "g6.", false, "NVIDIA-L4", GIB(24), 1, { { "12xlarge", 4 }, { "24xlarge", 4 }, { "48xlarge", 8 } }, PRODUCT_SRC_EKS },
    { "g6e.", false, "NVIDIA-L40S", GIB(48), 1, { { "12xlarge", 4 }, { "24xlarge", 4 }, { "48xlarge", 8 } }, PRODUCT_SRC_EKS },
    /* Azure VM sizes (whole names); the retired NC series: one "GPU" is half a K80 card */
    { "Standard_NC6", true, "Tesla-K80", GIB(12), 1, { { NULL, 0 } }, PRODUCT_SRC_AKS },
    { "Standard_NC12", true, "Tesla-K80", GIB(12), 2, { { NULL, 0 } }, PRODUCT_SRC_AKS },
    { "Standard_NC24", true, "Tesla-K80", GIB(12), 4, { { NULL, 0 } }, PRODUCT_SRC_AKS },
    { "Standard_NC4as_T4_v3", true, "Tesla-T4", GIB(16), 1, { { NULL, 0 } }, PRODUCT_SRC_AKS },
    { "Standard_NC8as_T4_v3", true, "Tesla-T4", GIB(16), 1, { { NULL, 0 } }, PRODUCT_SRC_AKS },
    { "Standard_NC16as_T4_v3", true, "Tesla-T4", GIB(16), 1, { { NULL, 0 } }, PRODUCT_SRC_AKS },
    { "Standard_NC64as_T4_v3", true, "Tesla-T4", GIB(16), 4, { { NULL, 0 } }, PRODUCT_SRC_AKS },
    { "Standard_NC6s_v3", true, "Tesla-V100-PCIE-16GB", GIB(16), 1, { { NULL, 0 } }, PRODUCT_SRC_AKS },
    { "Standard_NC12s_v3", true, "Tesla-V100-PCIE-16GB", GIB(16), 2, { { NULL, 0 } }, PRODUCT_SRC_AKS },
    { "Standard_NC24s_v3", true, "Tesla-V100-PCIE-16GB", GIB(16), 4, { { NULL, 0 } }, PRODUCT_SRC_AKS },
    { "Standard_NC24ads_A100_v4", true, "NVIDIA-A100-80GB-PCIe", GIB(80), 1, { { NULL, 0 } }, PRODUCT_SRC_AKS },
    { "Standard_NC48ads_A100_v4", true, "NVIDIA-A100-80GB-PCIe", GIB(80), 2, { { NULL, 0 } }, PRODUCT_SRC_AKS },
    { "Standard_NC96ads_A100_v4", true, "NVIDIA-A100-80GB-PCIe", GIB(80), 4, { { NULL, 0 } }, PRODUCT_SRC_AKS },
    { "Standard_ND96asr_v4", true, "NVIDIA-A100-SXM4-40GB", GIB(40), 8, { { NULL, 0 } }, PRODUCT_SRC_AKS },
    { "Standard_ND96amsr_A100_v4", true, "NVIDIA-A100-SXM4-80GB", GIB(80), 8, { { NULL, 0 } }, PRODUCT_SRC_AKS },
    { "Standard_ND96isr_H100_v5", true, "NVIDIA-H100-80GB-HBM3", GIB(80), 8, { { NULL, 0 } }, PRODUCT_SRC_AKS },
    { "Standard_NC40ads_H100_v5", true, "NVIDIA-H100-NVL", GIB(94), 1, { { NULL, 0 } }, PRODUCT_SRC_AKS },
    { "Standard_NC80adis_H100_v5", true, "NVIDIA-H100-NVL", GIB(94), 2, { { NULL, 0 } }, PRODUCT_SRC_AKS },
};

static bool from_gke_name(const char *v, CloudGpu *out)
{
    for (size_t i = 0; i < NELEM(gke_names); i++)
        if (strcmp(gke_names[i].name, v) == 0) {
            out->product = gke_names[i].product;
            out->memory_mib = gke_names[i].memory_mib;
            return true;
        }
    return false;
}

static int64_t label_mib(const KVList *l, const char *key)
{
    int64_t v;
    const char *s = kv_get(l, key);
    return s && str_to_int64(s, &v) && v > 0 && v < ((int64_t)1 << 32) ? v : 0;
}

static int label_count(const KVList *l, const char *key)
{
    int64_t v;
    const char *s = kv_get(l, key);
    return s && str_to_int64(s, &v) && v > 0 && v <= 64 ? (int)v : 0;
}

static bool from_instance_type(const char *t, CloudGpu *out)
{
    for (size_t i = 0; i < NELEM(instance_types); i++) {
        const InstanceGpus *x = &instance_types[i];
        if (x->exact ? strcasecmp(t, x->family) != 0 : !str_starts_with(t, x->family)) continue;
        out->src = x->src;
        out->product = x->product;
        out->memory_mib = x->memory_mib;
        out->count = x->count;
        const char *size = x->exact ? "" : t + strlen(x->family);
        for (size_t k = 0; k < NELEM(x->sizes) && x->sizes[k].size; k++)
            if (strcmp(x->sizes[k].size, size) == 0) out->count = x->sizes[k].count;
        return true;
    }
    return false;
}

void cloud_gpu_from_labels(const KVList *labels, CloudGpu *out)
{
    memset(out, 0, sizeof *out);
    if (!labels) return;
    const char *v;
    if ((v = kv_get(labels, "cloud.google.com/gke-accelerator")) && *v) {
        out->src = PRODUCT_SRC_GKE;
        out->label = "cloud.google.com/gke-accelerator";
        out->nvidia = str_starts_with(v, "nvidia-");
        if (out->nvidia) from_gke_name(v, out);
        return;
    }
    if ((v = kv_get(labels, "k8s.amazonaws.com/accelerator")) && *v) {
        out->src = PRODUCT_SRC_EKS;
        out->label = "k8s.amazonaws.com/accelerator";
        out->nvidia = str_starts_with(v, "nvidia-");
        if (out->nvidia) from_gke_name(v, out);
        if (out->product) return;
    }
    /* the label names spelled out (a node's reading formatted them with snprintf: 12 M
     * instructions at 5,000 GPU nodes) */
    static const struct { const char *maker, *name, *memory, *count; ProductSource src; } gpu_label_sets[] = {
        { "karpenter.k8s.aws/instance-gpu-manufacturer", "karpenter.k8s.aws/instance-gpu-name",
          "karpenter.k8s.aws/instance-gpu-memory", "karpenter.k8s.aws/instance-gpu-count", PRODUCT_SRC_KARPENTER },
        { "eks.amazonaws.com/instance-gpu-manufacturer", "eks.amazonaws.com/instance-gpu-name",      /* EKS Auto Mode */
          "eks.amazonaws.com/instance-gpu-memory", "eks.amazonaws.com/instance-gpu-count", PRODUCT_SRC_EKS },
    };
    for (size_t s = 0; s < NELEM(gpu_label_sets); s++) {
        const char *maker = kv_get(labels, gpu_label_sets[s].maker);
        if (!(v = kv_get(labels, gpu_label_sets[s].name)) || !*v || (maker && !str_eq(maker, "nvidia"))) continue;
        int64_t mem = label_mib(labels, gpu_label_sets[s].memory);
        for (size_t i = 0; i < NELEM(karpenter_names); i++) {
            const KarpenterGpu *k = &karpenter_names[i];
            if (strcmp(k->name, v) != 0 || mem < k->min_memory_mib) continue;
            out->src = gpu_label_sets[s].src;
            out->label = gpu_label_sets[s].name;
            out->product = k->product;
            out->memory_mib = mem ? mem : k->memory_mib;
            out->count = label_count(labels, gpu_label_sets[s].count);
            out->nvidia = true;
            return;
        }
    }
    const char *it = kv_get(labels, "node.kubernetes.io/instance-type");
    if (!it) it = kv_get(labels, "beta.kubernetes.io/instance-type");
    if (it && from_instance_type(it, out)) {
        out->label = kv_get(labels, "node.kubernetes.io/instance-type") ? "node.kubernetes.io/instance-type"
                                                                         : "beta.kubernetes.io/instance-type";
        out->nvidia = true;
        return;
    }
    if (out->src == PRODUCT_SRC_EKS) return;               /* an EKS accelerator we cannot name */
    if (str_eq(kv_get(labels, "kubernetes.azure.com/accelerator"), "nvidia")) {
        out->src = PRODUCT_SRC_AKS;
        out->label = "kubernetes.azure.com/accelerator";
        out->nvidia = true;
    } else if ((v = kv_get(labels, "accelerator")) && (str_eq(v, "nvidia") || str_starts_with(v, "nvidia-"))) {
        /* the plain label users set: "nvidia" (AKS's GPU guide) or a GKE-style name (the
         * Kubernetes docs' example) */
        out->src = PRODUCT_SRC_LABEL;
        out->label = "accelerator";
        out->nvidia = true;
        from_gke_name(v, out);
    }
}

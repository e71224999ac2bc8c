/* inventory.c — a node's GPU inventory from every signal present (node.h, inventory_node).
 *
 * Signals, best first (README "Where the numbers come from"; man page, status):
 *   1. GFD labels of the current device plugin (v0.15+): nvidia.com/gpu.count, gpu.memory,
 *      gpu.product, mig.strategy, mig-<P>.count, gpu.sharing-strategy, gpu.replicas.
 *   2. Older GFD labels (node.c normalises them): time-slicing from gpu.replicas > 1 or a
 *      -SHARED product without a sharing-strategy label; memory written in bytes; and, for
 *      nodes without GFD, cloud labels (Karpenter instance-gpu-count/memory, GKE time-sharing
 *      clients per GPU and MIG partition size).
 *   3. Advertised resources: nvidia.com/gpu and nvidia.com/gpu.shared units (replicas per GPU
 *      when shared), nvidia.com/mig-<P>[.shared] units (MIG devices x their replicas).
 *   4. The device-plugin config the node runs (SharingConfig, from the ConfigMap the
 *      ClusterPolicy names): sharing strategy and replicas.
 *   5. What follows: physical = advertised units / replicas; GFD gpu.count < advertised
 *      nvidia.com/gpu with no sharing label at all (GFD before v0.6) = time-slicing with
 *      advertised / count replicas; the GPU's memory from the MIG table for a MIG product.
 *
 * Physical GPUs:
 *   - GFD gpu.count under MIG strategy none or mixed (mixed counts MIG-enabled parents too);
 *     under single with MIG on, count is MIG devices: ceil(count / max instances of the
 *     profile per GPU) from the MIG table; without a product label (profile from an applied
 *     mig.config all-<P>, node.c), from every table with P when they agree, and advertised
 *     nvidia.com/gpu when no gpu.count; -MIG-INVALID or an unknown model: cannot count.
 *   - else from resources: (nvidia.com/gpu + nvidia.com/gpu.shared units) / replicas, when the
 *     replicas are known (labels or config) or nothing says the node shares (then the count is
 *     flagged physical_unsure: a time-sliced node without labels or config would be counted by
 *     its replicas); plus amd.com/gpu and gpu.intel.com i915/xe units.
 *   - MIG devices advertised without a GFD count: how many GPUs carry them is unknown, so the
 *     node cannot be counted (its whole GPUs are still reported in whole_gpus).
 *   - .shared units with unknown replicas: cannot count.  Replicas are never GPUs.
 */
#include "model/node.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/mig_capability.h"
#include "model/mig_tables.h"
#include "model/quantity.h"
#include "util/util.h"

const char *inventory_fact_source_name(FactSource s)
{
    switch (s) {
    case FACT_GFD: case FACT_LABELS: return "labels";
    case FACT_RESOURCES: return "resources";
    case FACT_INFERRED: return "inferred";
    case FACT_NONE: break;
    }
    return "none";
}

static int64_t cap_units(const Node *n, const char *name)
{
    int64_t u = quantity_units_ceil(rlist_get(&n->capacity, name));
    return u < 0 ? 0 : u > 1000000 ? 1000000 : u;
}

static int ceil_div(int64_t a, int64_t b) { return b > 0 ? (int)((a + b - 1) / b) : 0; }

/* the MIG-<P>.replicas label of a profile, 1 when unset */
static int mig_label_replicas(const GpuFacts *g, const char *profile)
{
    for (size_t i = 0; i < g->nmig; i++)
        if (str_eq(g->mig[i].profile, profile)) return g->mig[i].replicas > 1 ? g->mig[i].replicas : 1;
    return 1;
}

static void inv_mig(const Node *n, NodeInventory *inv)
{
    const GpuFacts *g = &n->gpu;
    int64_t adv_devices = 0, adv_units = 0;
    for (size_t i = 0; i < n->capacity.n; i++) {
        const char *name = n->capacity.items[i].name;
        if (!resources_is_mig(name)) continue;
        int64_t u = quantity_units_ceil(n->capacity.items[i].milli);
        if (u <= 0) continue;
        char *prof = resources_mig_profile(name);
        adv_units += u;
        adv_devices += ceil_div(u, mig_label_replicas(g, prof));
        free(prof);
    }
    inv->mig_strategy = g->mig_strategy;
    inv->mig_src = g->has_gfd || kv_get(&n->labels, "nvidia.com/mig.strategy") ? FACT_GFD : FACT_NONE;
    if (g->cloud_partition && !g->has_gfd) {
        /* GKE MIG: the partitions are advertised as nvidia.com/gpu (node.c: MIG single) */
        inv->mig_enabled = true;
        inv->mig_strategy = MIG_SINGLE;
        inv->mig_devices = cap_units(n, "nvidia.com/gpu");
        inv->mig_src = FACT_LABELS;
        snprintf(inv->mig_detail, sizeof inv->mig_detail,
                 "GKE label cloud.google.com/gke-gpu-partition-size=%s: nvidia.com/gpu counts MIG partitions",
                 g->cloud_partition);
        return;
    }
    if (g->mig_strategy == MIG_SINGLE && g->mig_single_profile) {
        inv->mig_enabled = true;
        inv->mig_devices = g->count > 0 ? g->count : (int)cap_units(n, "nvidia.com/gpu");
        return;
    }
    int64_t labelled = 0;
    for (size_t i = 0; i < g->nmig; i++) labelled += g->mig[i].count;
    if (g->mig_strategy == MIG_MIXED && labelled > 0) {
        inv->mig_enabled = true;
        inv->mig_devices = labelled > 1000000 ? 1000000 : (int)labelled;
        return;
    }
    if (adv_units > 0) {
        /* only the mixed strategy advertises nvidia.com/mig-*; the labels are missing or stale */
        inv->mig_enabled = true;
        inv->mig_strategy = MIG_MIXED;
        inv->mig_devices = adv_devices > 1000000 ? 1000000 : (int)adv_devices;
        inv->mig_src = FACT_RESOURCES;
        snprintf(inv->mig_detail, sizeof inv->mig_detail,
                 "%lld MIG device(s) advertised as nvidia.com/mig-* without GFD MIG labels",
                 (long long)adv_devices);
    }
}

static void inv_sharing(const Node *n, const SharingConfig *cfg, NodeInventory *inv, int64_t whole_units,
                        int64_t shared_units)
{
    const GpuFacts *g = &n->gpu;
    inv->replicas = 1;
    if (g->sharing != SHARING_NONE) {
        inv->sharing = g->sharing;
        inv->replicas = g->replicas > 1 ? g->replicas : 0;
        inv->sharing_src = g->sharing_old_labels ? FACT_LABELS : FACT_GFD;
        if (g->sharing_old_labels)
            snprintf(inv->sharing_detail, sizeof inv->sharing_detail,
                     "GFD labels older than device plugin v0.15 (no nvidia.com/gpu.sharing-strategy): %s",
                     g->replicas > 1 ? "nvidia.com/gpu.replicas > 1" : "product ends in -SHARED");
        if (!inv->replicas && cfg && cfg->replicas > 1) {
            inv->replicas = cfg->replicas;
            inv->sharing_src = FACT_INFERRED;
            snprintf(inv->sharing_detail, sizeof inv->sharing_detail, "replicas from %s", cfg->where);
        }
        return;
    }
    if (g->nhami && g->hami[0].count > 1) {
        /* HAMi's device plugin advertises each GPU as `count` vGPUs (nvidia.com/gpu), shared in
         * time with memory and cores capped per pod by HAMi-core; GFD, if present, does not know */
        inv->sharing = SHARING_TIME_SLICING;
        inv->replicas = g->hami[0].count;
        inv->sharing_src = FACT_LABELS;
        snprintf(inv->sharing_detail, sizeof inv->sharing_detail, "HAMi vGPUs: %d per GPU (hami.io/node-nvidia-register), "
                 "memory and cores limited per pod (nvidia.com/gpumem MiB, nvidia.com/gpucores %%)", g->hami[0].count);
        return;
    }
    if (g->has_sharing_labels) { inv->sharing_src = FACT_GFD; return; }   /* the labels say: none */
    if (g->cloud_sharing != SHARING_NONE) {
        inv->sharing = g->cloud_sharing;
        inv->replicas = g->cloud_replicas > 1 ? g->cloud_replicas : 0;
        inv->sharing_src = FACT_LABELS;
        snprintf(inv->sharing_detail, sizeof inv->sharing_detail,
                 "GKE labels cloud.google.com/gke-gpu-sharing-strategy / gke-max-shared-clients-per-gpu");
        return;
    }
    if (kv_get(&n->labels, "cloud.google.com/gke-accelerator") && !cfg) {
        /* GKE writes gke-gpu-sharing-strategy only on node pools that share their GPUs */
        inv->sharing_src = FACT_LABELS;
        snprintf(inv->sharing_detail, sizeof inv->sharing_detail,
                 "GKE node without cloud.google.com/gke-gpu-sharing-strategy: GPUs not shared");
        return;
    }
    if (cfg) {
        inv->sharing = cfg->strategy;
        inv->replicas = cfg->strategy != SHARING_NONE && cfg->replicas > 1 ? cfg->replicas : 1;
        inv->sharing_src = FACT_INFERRED;
        snprintf(inv->sharing_detail, sizeof inv->sharing_detail, "from %s", cfg->where);
        return;
    }
    bool single_on = (g->mig_strategy == MIG_SINGLE && g->mig_single_profile) || g->cloud_partition;
    int count = g->has_gfd && g->count > 0 ? g->count : g->cloud_count;
    int64_t units = whole_units + shared_units;
    if (count > 0 && !single_on && units > count && units % count == 0) {
        /* no sharing label (GFD before v0.6, or no GFD): the plugin advertises GPUs x replicas */
        inv->sharing = SHARING_TIME_SLICING;
        inv->replicas = (int)(units / count);
        inv->sharing_src = FACT_INFERRED;
        snprintf(inv->sharing_detail, sizeof inv->sharing_detail,
                 "%lld units advertised = %d GPUs (%s) x %d: time-sliced (no sharing labels)", (long long)units, count,
                 g->has_gfd && g->count > 0 ? "GFD gpu.count"
                 : kv_get(&n->labels, "karpenter.k8s.aws/instance-gpu-count") ? "karpenter.k8s.aws/instance-gpu-count"
                 : "the instance type's GPUs", inv->replicas);
        return;
    }
    if (shared_units > 0) {
        inv->sharing_known = INV_SHARING_SHARED_UNKNOWN;
        inv->replicas = 0;
        inv->sharing_src = FACT_RESOURCES;
        snprintf(inv->sharing_detail, sizeof inv->sharing_detail,
                 "nvidia.com/gpu.shared advertised: shared, strategy and replicas unknown (no GFD sharing labels, "
                 "no device-plugin config)");
        return;
    }
    if (count > 0 && units <= count) { inv->sharing_src = g->has_gfd ? FACT_GFD : FACT_LABELS; return; }
    if (g->has_gfd) { inv->sharing_src = FACT_GFD; return; }   /* GFD before v0.6: no sharing then */
    inv->sharing_known = INV_SHARING_UNKNOWN;
    inv->replicas = 0;
    inv->sharing_src = FACT_NONE;
}

static void inv_memory(const Node *n, NodeInventory *inv)
{
    const GpuFacts *g = &n->gpu;
    const MigGpuModel *m = g->base_product ? mig_model_for_product(g->base_product) : NULL;
    if (inv->mig_strategy == MIG_SINGLE && g->mig_single_profile) {
        /* under single the label holds the MIG device's memory */
        if (m) {
            inv->memory_per_gpu_mib = m->memory_mib;
            inv->memory_src = FACT_INFERRED;
            snprintf(inv->memory_detail, sizeof inv->memory_detail,
                     "MIG single strategy labels the MIG device's memory; the %s's from the MIG table", m->display);
        }
        return;
    }
    if (g->memory_mib > 0) {
        inv->memory_per_gpu_mib = g->memory_mib;
        inv->memory_src = g->memory_in_bytes ? FACT_LABELS : FACT_GFD;
        if (g->memory_in_bytes)
            snprintf(inv->memory_detail, sizeof inv->memory_detail,
                     "nvidia.com/gpu.memory=%s is not MiB; read as bytes", kv_get(&n->labels, "nvidia.com/gpu.memory")
                     ? kv_get(&n->labels, "nvidia.com/gpu.memory") : "?");
        return;
    }
    if (g->nhami && g->hami[0].devmem_mib > 0) {
        inv->memory_per_gpu_mib = g->hami[0].devmem_mib;
        inv->memory_src = FACT_LABELS;
        snprintf(inv->memory_detail, sizeof inv->memory_detail, "HAMi registration: devmem %lld MiB",
                 (long long)g->hami[0].devmem_mib);
        return;
    }
    if (m) {
        inv->memory_per_gpu_mib = m->memory_mib;
        inv->memory_src = FACT_INFERRED;
        snprintf(inv->memory_detail, sizeof inv->memory_detail, "no nvidia.com/gpu.memory label; the %s's from the "
                 "MIG table", m->display);
        return;
    }
    if (g->cloud_memory_mib > 0) {
        inv->memory_per_gpu_mib = g->cloud_memory_mib;
        inv->memory_src = FACT_LABELS;
        snprintf(inv->memory_detail, sizeof inv->memory_detail, "%s",
                 kv_get(&n->labels, "karpenter.k8s.aws/instance-gpu-memory")
                 ? "Karpenter label karpenter.k8s.aws/instance-gpu-memory"
                 : "the nominal memory of the GPU the cloud's labels name");
    }
}

static void inv_physical(const Node *n, NodeInventory *inv, int64_t whole_units, int64_t shared_units,
                         bool replicas_from_config)
{
    const GpuFacts *g = &n->gpu;
    int64_t other = cap_units(n, "amd.com/gpu") + cap_units(n, "gpu.intel.com/i915") + cap_units(n, "gpu.intel.com/xe");
    bool single_on = inv->mig_strategy == MIG_SINGLE && (g->mig_single_profile || g->cloud_partition);
    /* whole GPUs from resources */
    if (single_on) inv->whole_gpus = 0;                       /* nvidia.com/gpu are MIG devices */
    else if (whole_units + shared_units == 0) inv->whole_gpus = 0;
    else if (inv->replicas > 0) inv->whole_gpus = ceil_div(whole_units, inv->replicas) + ceil_div(shared_units, inv->replicas);
    else if (inv->sharing_known == INV_SHARING_UNKNOWN && shared_units == 0) {
        inv->whole_gpus = (int)whole_units;
        inv->physical_unsure = true;
    } else inv->whole_gpus = -1;
    if (inv->whole_gpus >= 0) inv->whole_gpus += (int)other;

    if (g->mig_single_profile && single_on && !g->cloud_partition) {     /* GKE's partitions: below */
        /* slices / slices per GPU; without a product, from every MIG table that has the
         * profile when they agree (mig_capability.h) */
        const MigGpuModel *m = g->base_product ? mig_model_for_product(g->base_product) : NULL;
        int per = m || !g->base_product ? mig_profile_per_gpu(m, g->mig_single_profile) : -1;   /* a named GPU
                                                                                                 without a table: unknown */
        int count = g->count > 0 ? g->count : (int)cap_units(n, "nvidia.com/gpu");
        if (per > 0 && count > 0) {
            inv->physical = ceil_div(count, per);
            bool gfd = g->product_src == PRODUCT_SRC_GFD;     /* a cloud's product is not GFD's */
            inv->physical_src = gfd ? FACT_GFD : FACT_INFERRED;
            if (!gfd)
                snprintf(inv->physical_detail, sizeof inv->physical_detail,
                         "MIG single strategy, no GFD product: %d x %s (nvidia.com/mig.config=%s), %d per GPU", count,
                         g->mig_single_profile, g->mig_config ? g->mig_config : "?", per);
        } else {
            snprintf(inv->physical_detail, sizeof inv->physical_detail,
                     "MIG single strategy: %d x %s on %s; GPUs per device unknown for %s", count,
                     g->mig_single_profile, g->base_product ? g->base_product : "an unknown product",
                     g->base_product ? "this model" : "it (GPU models differ)");
        }
        return;
    }
    if (g->product && str_ends_with(g->product, "-MIG-INVALID")) {
        snprintf(inv->physical_detail, sizeof inv->physical_detail,
                 "GFD product %s: an invalid MIG layout, GFD counts 0 GPUs", g->product);
        return;
    }
    if (g->has_gfd && g->count > 0) {
        inv->physical = g->count;
        inv->physical_src = FACT_GFD;
        inv->physical_unsure = false;
        return;
    }
    if (g->nhami > 0) {
        inv->physical = (int)g->nhami;
        inv->physical_src = FACT_LABELS;
        inv->physical_unsure = false;
        snprintf(inv->physical_detail, sizeof inv->physical_detail,
                 "HAMi registration (annotation hami.io/node-nvidia-register): %zu GPU(s)", g->nhami);
        return;
    }
    if (g->cloud_count > 0) {
        inv->physical = g->cloud_count;
        inv->physical_src = FACT_LABELS;
        inv->physical_unsure = false;
        snprintf(inv->physical_detail, sizeof inv->physical_detail, "no GFD labels: %s",
                 kv_get(&n->labels, "karpenter.k8s.aws/instance-gpu-count")
                 ? "Karpenter label karpenter.k8s.aws/instance-gpu-count"
                 : "the GPUs of the instance type (node.kubernetes.io/instance-type)");
        return;
    }
    if (single_on && g->cloud_partition && g->base_product) {
        /* GKE MIG: nvidia.com/gpu counts partitions (x clients when time-shared); the partition
         * size and the GPU model say how many fit on one GPU */
        const MigGpuModel *m = mig_model_for_product(g->base_product);
        const MigProfile *p = m ? mig_model_profile(m, g->cloud_partition) : NULL;
        int per = g->cloud_replicas > 1 ? g->cloud_replicas : 1;
        if (p && p->max_instances > 0 && whole_units > 0) {
            inv->physical = ceil_div(ceil_div(whole_units, per), p->max_instances);
            inv->physical_src = FACT_INFERRED;
            snprintf(inv->physical_detail, sizeof inv->physical_detail,
                     "GKE MIG: %lld partition(s) of %s, at most %d per %s", (long long)ceil_div(whole_units, per),
                     g->cloud_partition, p->max_instances, m->display);
            return;
        }
    }
    if (inv->mig_enabled) {
        if (inv->whole_gpus >= 0)
            snprintf(inv->physical_detail, sizeof inv->physical_detail,
                     "%d whole GPU(s) and %d MIG device(s) advertised; how many GPUs carry the MIG devices is "
                     "unknown without GFD nvidia.com/gpu.count", inv->whole_gpus, inv->mig_devices);
        else
            snprintf(inv->physical_detail, sizeof inv->physical_detail,
                     "%d MIG device(s) and shared GPUs advertised; GPUs unknown without GFD nvidia.com/gpu.count",
                     inv->mig_devices);
        return;
    }
    if (inv->whole_gpus > 0) {
        inv->physical = inv->whole_gpus;
        inv->physical_src = replicas_from_config ? FACT_INFERRED : FACT_RESOURCES;
        if (inv->physical_unsure)
            snprintf(inv->physical_detail, sizeof inv->physical_detail,
                     "counted from advertised resources only (%lld unit(s)): no GFD labels or device-plugin config say "
                     "whether they are time-slicing/MPS replicas", (long long)(whole_units + other));
        else
            snprintf(inv->physical_detail, sizeof inv->physical_detail,
                     "counted from advertised resources: %lld unit(s) / %d replica(s) per GPU",
                     (long long)(whole_units + shared_units), inv->replicas);
        return;
    }
    inv->physical_unsure = false;
    if (inv->whole_gpus < 0)
        snprintf(inv->physical_detail, sizeof inv->physical_detail,
                 "%lld shared unit(s) advertised with unknown replicas per GPU and no GFD nvidia.com/gpu.count",
                 (long long)(whole_units + shared_units));
    else
        snprintf(inv->physical_detail, sizeof inv->physical_detail,
                 "no GFD nvidia.com/gpu.count and no GPU resource advertised");
}

void inventory_node(const Node *n, const SharingConfig *cfg, NodeInventory *inv)
{
    memset(inv, 0, sizeof *inv);
    inv->physical = -1;
    inv->whole_gpus = -1;
    int64_t whole_units = cap_units(n, "nvidia.com/gpu"), shared_units = cap_units(n, "nvidia.com/gpu.shared");
    inv_mig(n, inv);
    inv_sharing(n, cfg, inv, whole_units, shared_units);
    bool from_config = inv->sharing_src == FACT_INFERRED && cfg && inv->replicas == cfg->replicas;
    inv_physical(n, inv, whole_units, shared_units, from_config);
    inv_memory(n, inv);
    inv->product_src = n->gpu.product ? n->gpu.product_src : PRODUCT_SRC_NONE;
    if (n->gpu.product_label)
        snprintf(inv->product_detail, sizeof inv->product_detail, "%s=%s", n->gpu.product_label,
                 kv_get(&n->labels, n->gpu.product_label) ? kv_get(&n->labels, n->gpu.product_label) : "?");
}

const char *inventory_sharing_name(const NodeInventory *inv)
{
    if (inv->sharing_known == INV_SHARING_SHARED_UNKNOWN) return "shared";
    if (inv->sharing_known == INV_SHARING_UNKNOWN) return "unknown";
    return sharing_strategy_name(inv->sharing);
}

int inventory_physical_gpus(const Node *n)
{
    NodeInventory inv;
    inventory_node(n, NULL, &inv);
    return inv.physical > 0 ? inv.physical : 0;
}

int64_t inventory_gpu_memory_mib(const Node *n)
{
    NodeInventory inv;
    inventory_node(n, NULL, &inv);
    return inv.physical > 0 ? (int64_t)inv.physical * inv.memory_per_gpu_mib : 0;
}

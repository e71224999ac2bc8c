/* Unit tests: node_from_json, GFD facts (none / single / mixed / shared / invalid), physical GPU
 * counts and GPU memory, hostile input.  Fixtures: tests/fixtures/model/node-*.json. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "util/error.h"
#include "model_fixture.h"
#include "model/node.h"
#include "util/strpool.h"

/* the pool the objects decode into (node.h / pod.h: their strings are its copies) */
static StrPool *pool;
static int pool_setup(void **state) { (void)state; pool = strpool_new(); return 0; }
static int pool_teardown(void **state) { (void)state; strpool_free(pool); pool = NULL; return 0; }

static void load_node(Node *n, const char *fixture, bool keep_labels)
{
    cJSON *j = load_fixture(fixture);
    assert_non_null(j);
    Error e = { 0 };
    if (node_from_json(n, j, keep_labels, pool, &e) < 0) fail_msg("%s: %s", fixture, e.msg);
    cJSON_Delete(j);
}

static int parse_inline(Node *n, const char *json, Error *e)
{
    cJSON *j = cJSON_Parse(json);
    if (!j) fail_msg("bad test JSON: %s", json);
    int rc = node_from_json(n, j, true, pool, e);
    cJSON_Delete(j);
    return rc;
}

static void test_h100_mixed(void **state)
{
    (void)state;
    Node n;
    load_node(&n, "tests/fixtures/model/node-h100-mixed.json", true);
    assert_string_equal(n.name, "gpu-h100-1");
    assert_int_equal(n.creation, 1715707841);
    assert_true(n.ready);
    assert_null(n.not_ready_reason);
    assert_false(n.unschedulable);
    assert_int_equal(n.ntaints, 1);                      /* the taint without effect is skipped */
    assert_string_equal(n.taints[0].key, "nvidia.com/gpu");
    assert_string_equal(n.taints[0].value, "present");
    assert_string_equal(n.taints[0].effect, "NoSchedule");
    assert_int_equal(rlist_get(&n.capacity, "cpu"), 96000);
    assert_int_equal(rlist_get(&n.allocatable, "cpu"), 95500);
    assert_int_equal(rlist_get(&n.allocatable, "nvidia.com/mig-1g.10gb"), 2000);
    assert_int_equal(n.labels.n, 28);                    /* every label in the fixture */
    assert_string_equal(kv_get(&n.labels, "kubernetes.io/hostname"), "gpu-h100-1");

    const GpuFacts *g = &n.gpu;
    assert_true(g->has_gfd);
    assert_true(g->present);
    assert_string_equal(g->product, "NVIDIA-H100-80GB-HBM3");
    assert_string_equal(g->base_product, "NVIDIA-H100-80GB-HBM3");
    assert_int_equal(g->count, 1);
    assert_int_equal(g->memory_mib, 81559);
    assert_string_equal(g->family, "hopper");
    assert_int_equal(g->mig_strategy, MIG_MIXED);
    assert_true(g->mig_capable);
    assert_string_equal(g->mig_config, "all-balanced");
    assert_string_equal(g->mig_config_state, "success");
    assert_int_equal(g->sharing, SHARING_NONE);
    assert_int_equal(g->replicas, 0);                    /* "0" is kept, not defaulted */
    assert_string_equal(g->driver_version, "550.54.15");
    assert_null(g->mig_single_profile);
    assert_null(g->device_plugin_config);
    assert_int_equal(g->nmig, 3);
    assert_string_equal(g->mig[0].profile, "1g.10gb");
    assert_int_equal(g->mig[0].count, 2);
    assert_int_equal(g->mig[0].memory_mib, 9984);
    assert_int_equal(g->mig[0].replicas, 1);
    assert_int_equal(g->mig[0].slices_gi, 1);
    assert_string_equal(g->mig[1].profile, "2g.20gb");
    assert_int_equal(g->mig[1].count, 1);
    assert_int_equal(g->mig[1].memory_mib, 20096);
    assert_int_equal(g->mig[1].replicas, 1);             /* label absent -> 1 */
    assert_int_equal(g->mig[1].slices_gi, 2);
    assert_string_equal(g->mig[2].profile, "3g.40gb");
    assert_int_equal(g->mig[2].slices_gi, 3);

    assert_true(node_advertises_gpu(&n));
    assert_true(node_is_gpu_node(&n));
    assert_int_equal(inventory_physical_gpus(&n), 1);
    assert_int_equal(inventory_gpu_memory_mib(&n), 81559);
    assert_string_equal(mig_strategy_name(g->mig_strategy), "mixed");
    node_clear(&n);

    load_node(&n, "tests/fixtures/model/node-h100-mixed.json", false);
    assert_int_equal(n.labels.n, 0);                     /* dropped, but the facts were read */
    assert_int_equal(n.gpu.nmig, 3);
    assert_int_equal(inventory_physical_gpus(&n), 1);
    node_clear(&n);
}

static void test_a100_single(void **state)
{
    (void)state;
    Node n;
    load_node(&n, "tests/fixtures/model/node-a100-single.json", true);
    assert_true(n.unschedulable);
    assert_false(n.ready);
    assert_string_equal(n.not_ready_reason, "KubeletNotReady: container runtime network not ready");
    assert_int_equal(n.gpu.mig_strategy, MIG_SINGLE);
    assert_string_equal(n.gpu.product, "NVIDIA-A100-80GB-PCIe-MIG-1g.10gb");
    assert_string_equal(n.gpu.base_product, "NVIDIA-A100-80GB-PCIe");
    assert_string_equal(n.gpu.mig_single_profile, "1g.10gb");
    assert_int_equal(n.gpu.count, 14);
    assert_int_equal(n.gpu.memory_mib, 9728);            /* the MIG device's memory */
    assert_int_equal(n.gpu.nmig, 0);
    /* 14 MIG devices of 1g.10gb, 7 per A100 -> 2 physical GPUs of 81920 MiB */
    assert_int_equal(inventory_physical_gpus(&n), 2);
    assert_int_equal(inventory_gpu_memory_mib(&n), 2 * 81920);
    assert_string_equal(mig_strategy_name(n.gpu.mig_strategy), "single");
    node_clear(&n);
}

static void test_timeslice_shared(void **state)
{
    (void)state;
    Node n;
    load_node(&n, "tests/fixtures/model/node-timeslice.json", true);
    assert_true(n.ready);
    assert_string_equal(n.gpu.product, "Tesla-T4-SHARED");
    assert_string_equal(n.gpu.base_product, "Tesla-T4");
    assert_int_equal(n.gpu.sharing, SHARING_TIME_SLICING);
    assert_int_equal(n.gpu.replicas, 4);
    assert_string_equal(n.gpu.device_plugin_config, "t4-ts4");
    assert_false(n.gpu.present);                         /* no present label in this fixture */
    assert_true(n.gpu.has_gfd);
    assert_int_equal(rlist_get(&n.allocatable, "nvidia.com/gpu"), 8000);   /* from capacity */
    assert_int_equal(inventory_physical_gpus(&n), 2);
    assert_int_equal(inventory_gpu_memory_mib(&n), 2 * 15360);
    assert_string_equal(sharing_strategy_name(n.gpu.sharing), "time-slicing");
    node_clear(&n);
}

static void test_cpu_node(void **state)
{
    (void)state;
    Node n;
    load_node(&n, "tests/fixtures/model/node-cpu.json", true);
    assert_false(node_is_gpu_node(&n));
    assert_false(node_advertises_gpu(&n));
    assert_false(n.ready);
    assert_string_equal(n.not_ready_reason, "NodeStatusUnknown: Kubelet stopped posting node status.");
    assert_int_equal(n.ntaints, 1);
    assert_null(n.taints[0].value);
    assert_string_equal(n.taints[0].effect, "NoExecute");
    assert_int_equal(inventory_physical_gpus(&n), 0);
    assert_int_equal(inventory_gpu_memory_mib(&n), 0);
    assert_false(n.gpu.has_gfd);
    assert_int_equal(n.gpu.replicas, 1);
    node_clear(&n);
}

static void test_without_gfd(void **state)
{
    (void)state;
    Node n;
    Error e = { 0 };
    assert_int_equal(parse_inline(&n, "{\"metadata\":{\"name\":\"n1\"},\"status\":{\"capacity\":"
                                      "{\"nvidia.com/gpu\":\"4\"}}}", &e), 0);
    assert_true(node_is_gpu_node(&n));
    assert_int_equal(inventory_physical_gpus(&n), 4);
    assert_int_equal(inventory_gpu_memory_mib(&n), 0);        /* unknown without labels */
    assert_false(n.ready);
    assert_string_equal(n.not_ready_reason, "no Ready condition reported");
    node_clear(&n);
    /* renamed shared resource + replicas label, no product/count: 8 / 4 = 2 */
    assert_int_equal(parse_inline(&n, "{\"metadata\":{\"name\":\"n2\",\"labels\":{\"nvidia.com/gpu.replicas\":\"4\"}},"
                                      "\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"0\",\"nvidia.com/gpu.shared\":\"8\"}}}", &e), 0);
    assert_false(n.gpu.has_gfd);
    assert_int_equal(inventory_physical_gpus(&n), 2);
    node_clear(&n);
    /* 2 whole GPUs and 7 MIG devices without labels: how many GPUs carry the MIG devices is
     * unknown, so the node cannot be counted (not "2 GPUs"); both parts are reported */
    assert_int_equal(parse_inline(&n, "{\"metadata\":{\"name\":\"n3\"},\"status\":{\"capacity\":"
                                      "{\"amd.com/gpu\":\"2\",\"nvidia.com/mig-1g.10gb\":\"7\"}}}", &e), 0);
    assert_int_equal(inventory_physical_gpus(&n), 0);
    NodeInventory inv;
    inventory_node(&n, NULL, &inv);
    assert_int_equal(inv.physical, -1);
    assert_int_equal(inv.whole_gpus, 2);
    assert_int_equal(inv.mig_devices, 7);
    assert_true(inv.mig_enabled);
    assert_int_equal(inv.mig_src, FACT_RESOURCES);
    node_clear(&n);
    /* a GPU resource advertised at 0 and nothing else: advertises, but not a GPU node */
    assert_int_equal(parse_inline(&n, "{\"metadata\":{\"name\":\"n4\"},\"status\":{\"allocatable\":"
                                      "{\"nvidia.com/gpu\":\"0\"}}}", &e), 0);
    assert_true(node_advertises_gpu(&n));
    assert_false(node_is_gpu_node(&n));
    node_clear(&n);
    /* GFD without capacity (device plugin missing): still a GPU node with a count */
    assert_int_equal(parse_inline(&n, "{\"metadata\":{\"name\":\"n5\",\"labels\":{\"nvidia.com/gpu.present\":\"true\","
                                      "\"nvidia.com/gpu.product\":\"NVIDIA-L4\",\"nvidia.com/gpu.count\":\"1\","
                                      "\"nvidia.com/gpu.memory\":\"23034\"}}}", &e), 0);
    assert_true(node_is_gpu_node(&n));
    assert_false(node_advertises_gpu(&n));
    assert_int_equal(inventory_physical_gpus(&n), 1);
    assert_int_equal(inventory_gpu_memory_mib(&n), 23034);
    node_clear(&n);
    /* NFD PCI label alone marks a GPU node */
    assert_int_equal(parse_inline(&n, "{\"metadata\":{\"name\":\"n6\",\"labels\":"
                                      "{\"feature.node.kubernetes.io/pci-10de.present\":\"true\"}}}", &e), 0);
    assert_true(n.gpu.present);
    assert_true(node_is_gpu_node(&n));
    node_clear(&n);
}

static void single_case(const char *product, const char *count, int want_gpus, int64_t want_mem,
                        const char *want_profile)
{
    char *json = xasprintf("{\"metadata\":{\"name\":\"s\",\"labels\":{\"nvidia.com/mig.strategy\":\"single\","
                           "\"nvidia.com/gpu.product\":\"%s\",\"nvidia.com/gpu.count\":\"%s\"}}}", product, count);
    Node n;
    Error e = { 0 };
    assert_int_equal(parse_inline(&n, json, &e), 0);
    if (inventory_physical_gpus(&n) != want_gpus)
        fail_msg("%s x%s: %d GPUs, want %d", product, count, inventory_physical_gpus(&n), want_gpus);
    assert_int_equal(inventory_gpu_memory_mib(&n), want_mem);
    if (want_profile) assert_string_equal(n.gpu.mig_single_profile, want_profile);
    else assert_null(n.gpu.mig_single_profile);
    node_clear(&n);
    free(json);
}

static void test_single_variants(void **state)
{
    (void)state;
    /* 3g.40gb: 2 per H100; 4 devices -> 2 GPUs; -SHARED is stripped first */
    single_case("NVIDIA-H100-80GB-HBM3-MIG-3g.40gb-SHARED", "4", 2, 2 * 81559, "3g.40gb");
    /* 2g.20gb: 3 per H100; 4 devices cannot fit on one GPU -> 2 (rounded up) */
    single_case("NVIDIA-H100-80GB-HBM3-MIG-2g.20gb", "4", 2, 2 * 81559, "2g.20gb");
    /* invalid single configuration: count 0, no profile, unknown */
    single_case("NVIDIA-A100-SXM4-80GB-MIG-INVALID", "0", 0, 0, NULL);
    /* no MIG table for the model: unknown rather than a guess */
    single_case("Tesla-V100-SXM2-16GB-MIG-1g.5gb", "7", 0, 0, "1g.5gb");
    /* profile not in the model's table */
    single_case("NVIDIA-A100-SXM4-80GB-MIG-9g.99gb", "7", 0, 0, "9g.99gb");
    /* the operator labels every GPU node mig.strategy=single, also with MIG off: no -MIG- in
     * the product means gpu.count is the number of whole GPUs (no memory label here: the
     * model's memory from the MIG table, 81559 MiB for H100 80GB HBM3) */
    single_case("NVIDIA-H100-80GB-HBM3", "8", 8, 8 * 81559, NULL);
}

/* one node from inline JSON, its inventory without / with a device-plugin config */
static void inv_of(const char *json, const SharingConfig *cfg, NodeInventory *inv)
{
    Node n;
    Error e = { 0 };
    if (parse_inline(&n, json, &e) < 0) fail_msg("%s", e.msg);
    inventory_node(&n, cfg, inv);
    node_clear(&n);
}

/* GFD labels of device plugin v0.12-v0.14 / GFD v0.6-v0.8: no sharing-strategy label; the
 * -SHARED suffix and gpu.replicas say time-slicing (gpu-feature-discovery v0.6.0
 * internal/lm/resource.go productLabel/replicasLabel; k8s-device-plugin 40e6089b7 added
 * sharing-strategy in v0.15.0).  Memory in bytes (OpenShift docs' g4dn example). */
static void test_old_labels(void **state)
{
    (void)state;
    NodeInventory v;
    inv_of("{\"metadata\":{\"name\":\"t4\",\"labels\":{\"nvidia.com/gpu.product\":\"Tesla-T4-SHARED\","
           "\"nvidia.com/gpu.count\":\"1\",\"nvidia.com/gpu.replicas\":\"8\",\"nvidia.com/gpu.memory\":\"16106127360\"}},"
           "\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"8\"}}}", NULL, &v);
    assert_int_equal(v.physical, 1);                      /* gpu.count, never the 8 replicas */
    assert_int_equal(v.sharing, SHARING_TIME_SLICING);
    assert_int_equal(v.replicas, 8);
    assert_int_equal(v.sharing_src, FACT_LABELS);         /* old labels: said in JSON */
    assert_int_equal(v.memory_per_gpu_mib, 15360);        /* 16106127360 >> 20 */
    assert_int_equal(v.memory_src, FACT_LABELS);
    /* -SHARED without a replicas label: shared, replicas unknown until a config says */
    inv_of("{\"metadata\":{\"name\":\"x\",\"labels\":{\"nvidia.com/gpu.product\":\"Tesla-T4-SHARED\","
           "\"nvidia.com/gpu.count\":\"2\"}},\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"6\"}}}", NULL, &v);
    assert_int_equal(v.physical, 2);
    assert_int_equal(v.sharing, SHARING_TIME_SLICING);
    assert_int_equal(v.replicas, 0);
    SharingConfig cfg = { SHARING_TIME_SLICING, 3, false, "ConfigMap gpu-operator/ts, key t4" };
    inv_of("{\"metadata\":{\"name\":\"x\",\"labels\":{\"nvidia.com/gpu.product\":\"Tesla-T4-SHARED\","
           "\"nvidia.com/gpu.count\":\"2\"}},\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"6\"}}}", &cfg, &v);
    assert_int_equal(v.replicas, 3);
    assert_int_equal(v.sharing_src, FACT_INFERRED);
    /* GFD before v0.6: no sharing labels at all; 8 advertised over gpu.count 2 = x4 inferred */
    inv_of("{\"metadata\":{\"name\":\"x\",\"labels\":{\"nvidia.com/gpu.product\":\"Tesla-T4\","
           "\"nvidia.com/gpu.count\":\"2\"}},\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"8\"}}}", NULL, &v);
    assert_int_equal(v.physical, 2);
    assert_int_equal(v.replicas, 4);
    assert_int_equal(v.sharing_src, FACT_INFERRED);
    /* memory as a quantity, and MiB left alone */
    inv_of("{\"metadata\":{\"name\":\"x\",\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-L4\","
           "\"nvidia.com/gpu.count\":\"1\",\"nvidia.com/gpu.memory\":\"24Gi\"}}}", NULL, &v);
    assert_int_equal(v.memory_per_gpu_mib, 24576);
    inv_of("{\"metadata\":{\"name\":\"x\",\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-L4\","
           "\"nvidia.com/gpu.count\":\"1\",\"nvidia.com/gpu.memory\":\"23034\"}}}", NULL, &v);
    assert_int_equal(v.memory_per_gpu_mib, 23034);
    assert_int_equal(v.memory_src, FACT_GFD);
}

/* Replicas are never GPUs: advertised units alone count only when nothing says they are
 * shared, and then the count is flagged */
static void test_resources_only(void **state)
{
    (void)state;
    NodeInventory v;
    /* Bottlerocket P5 (bottlerocket#4418): 128 x nvidia.com/gpu.shared, no labels */
    inv_of("{\"metadata\":{\"name\":\"p5\"},\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"0\","
           "\"nvidia.com/gpu.shared\":\"128\"}}}", NULL, &v);
    assert_int_equal(v.physical, -1);
    assert_int_equal(v.sharing_known, INV_SHARING_SHARED_UNKNOWN);
    assert_string_equal(inventory_sharing_name(&v), "shared");
    /* the same with the config the node runs (x16): 128 / 16 = 8, inferred */
    SharingConfig cfg = { SHARING_TIME_SLICING, 16, true, "ConfigMap x/y, key z" };
    inv_of("{\"metadata\":{\"name\":\"p5\"},\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"0\","
           "\"nvidia.com/gpu.shared\":\"128\"}}}", &cfg, &v);
    assert_int_equal(v.physical, 8);
    assert_int_equal(v.physical_src, FACT_INFERRED);
    assert_false(v.physical_unsure);
    /* 12 x nvidia.com/gpu and nothing else: 12, flagged unsure */
    inv_of("{\"metadata\":{\"name\":\"x\"},\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"12\"}}}", NULL, &v);
    assert_int_equal(v.physical, 12);
    assert_true(v.physical_unsure);
    assert_int_equal(v.physical_src, FACT_RESOURCES);
    assert_string_equal(inventory_sharing_name(&v), "unknown");
    /* 2 whole GPUs and 10 MIG devices with GFD gpu.count 4 under mixed: 4 GPUs, 10 devices */
    inv_of("{\"metadata\":{\"name\":\"x\",\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-A100-SXM4-80GB\","
           "\"nvidia.com/gpu.count\":\"4\",\"nvidia.com/mig.strategy\":\"mixed\"}},\"status\":{\"capacity\":"
           "{\"nvidia.com/gpu\":\"2\",\"nvidia.com/mig-3g.40gb\":\"4\",\"nvidia.com/mig-1g.10gb\":\"6\"}}}", NULL, &v);
    assert_int_equal(v.physical, 4);
    assert_int_equal(v.whole_gpus, 2);
    assert_int_equal(v.mig_devices, 10);
    assert_true(v.mig_enabled);
    assert_int_equal(v.mig_src, FACT_RESOURCES);        /* no mig-<P>.count labels: from resources */
}

/* Cloud labels on nodes without GFD: Karpenter's instance GPUs, GKE time-sharing and MIG */
static void test_cloud_labels(void **state)
{
    (void)state;
    NodeInventory v;
    inv_of("{\"metadata\":{\"name\":\"k\",\"labels\":{\"karpenter.k8s.aws/instance-gpu-manufacturer\":\"nvidia\","
           "\"karpenter.k8s.aws/instance-gpu-count\":\"4\",\"karpenter.k8s.aws/instance-gpu-memory\":\"24576\"}},"
           "\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"16\"}}}", NULL, &v);
    assert_int_equal(v.physical, 4);
    assert_int_equal(v.physical_src, FACT_LABELS);
    assert_int_equal(v.replicas, 4);                    /* 16 / 4 */
    assert_int_equal(v.memory_per_gpu_mib, 24576);
    inv_of("{\"metadata\":{\"name\":\"g\",\"labels\":{\"cloud.google.com/gke-accelerator\":\"nvidia-l4\","
           "\"cloud.google.com/gke-gpu-sharing-strategy\":\"time-sharing\","
           "\"cloud.google.com/gke-max-shared-clients-per-gpu\":\"3\"}},"
           "\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"6\"}}}", NULL, &v);
    assert_int_equal(v.physical, 2);
    assert_int_equal(v.sharing, SHARING_TIME_SLICING);
    assert_int_equal(v.sharing_src, FACT_LABELS);
    inv_of("{\"metadata\":{\"name\":\"g\",\"labels\":{\"cloud.google.com/gke-accelerator\":\"nvidia-tesla-a100\","
           "\"cloud.google.com/gke-gpu-partition-size\":\"1g.5gb\"}},"
           "\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"7\"}}}", NULL, &v);
    /* partitions, not GPUs: 7 x 1g.5gb fit one A100 40GB (the GKE accelerator names the model,
     * the MIG table the partitions per GPU) -> 1 GPU */
    assert_int_equal(v.physical, 1);
    assert_int_equal(v.physical_src, FACT_INFERRED);
    assert_true(v.mig_enabled);
    assert_int_equal(v.mig_devices, 7);
    assert_int_equal(v.product_src, PRODUCT_SRC_GKE);
    /* the same with an accelerator no table knows: the partitions cannot be turned into GPUs */
    inv_of("{\"metadata\":{\"name\":\"g\",\"labels\":{\"cloud.google.com/gke-accelerator\":\"nvidia-future-x\","
           "\"cloud.google.com/gke-gpu-partition-size\":\"1g.5gb\"}},"
           "\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"7\"}}}", NULL, &v);
    assert_int_equal(v.physical, -1);
    assert_int_equal(v.product_src, PRODUCT_SRC_NONE);
}

/* cloud_gpus.c's tables, one row each (values from the pages cited there) */
static void test_cloud_products(void **state)
{
    (void)state;
    static const struct { const char *key, *value; const char *product; int count; ProductSource src; } rows[] = {
        { "cloud.google.com/gke-accelerator", "nvidia-tesla-t4", "Tesla-T4", 0, PRODUCT_SRC_GKE },
        { "cloud.google.com/gke-accelerator", "nvidia-tesla-a100", "NVIDIA-A100-SXM4-40GB", 0, PRODUCT_SRC_GKE },
        { "cloud.google.com/gke-accelerator", "nvidia-a100-80gb", "NVIDIA-A100-SXM4-80GB", 0, PRODUCT_SRC_GKE },
        { "cloud.google.com/gke-accelerator", "nvidia-h100-mega-80gb", "NVIDIA-H100-80GB-HBM3", 0, PRODUCT_SRC_GKE },
        { "k8s.amazonaws.com/accelerator", "nvidia-tesla-v100", "Tesla-V100-SXM2-16GB", 0, PRODUCT_SRC_EKS },
        { "node.kubernetes.io/instance-type", "p4d.24xlarge", "NVIDIA-A100-SXM4-40GB", 8, PRODUCT_SRC_EKS },
        { "node.kubernetes.io/instance-type", "p5.48xlarge", "NVIDIA-H100-80GB-HBM3", 8, PRODUCT_SRC_EKS },
        { "node.kubernetes.io/instance-type", "g5.xlarge", "NVIDIA-A10G", 1, PRODUCT_SRC_EKS },
        { "node.kubernetes.io/instance-type", "g5.48xlarge", "NVIDIA-A10G", 8, PRODUCT_SRC_EKS },
        { "node.kubernetes.io/instance-type", "g6.12xlarge", "NVIDIA-L4", 4, PRODUCT_SRC_EKS },
        { "node.kubernetes.io/instance-type", "g4dn.metal", "Tesla-T4", 8, PRODUCT_SRC_EKS },
        { "node.kubernetes.io/instance-type", "Standard_ND96asr_v4", "NVIDIA-A100-SXM4-40GB", 8, PRODUCT_SRC_AKS },
        { "node.kubernetes.io/instance-type", "Standard_NC24ads_A100_v4", "NVIDIA-A100-80GB-PCIe", 1, PRODUCT_SRC_AKS },
        { "node.kubernetes.io/instance-type", "m6i.large", NULL, 0, PRODUCT_SRC_NONE },
        { "kubernetes.azure.com/accelerator", "nvidia", NULL, 0, PRODUCT_SRC_AKS },
        { "accelerator", "nvidia", NULL, 0, PRODUCT_SRC_LABEL },
        { "accelerator", "nvidia-tesla-p100", "Tesla-P100-PCIE-16GB", 0, PRODUCT_SRC_LABEL },
        { "accelerator", "tpu-v4", NULL, 0, PRODUCT_SRC_NONE },
        { "eks.amazonaws.com/instance-gpu-name", "l4", "NVIDIA-L4", 0, PRODUCT_SRC_EKS },
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        KVList l = KVLIST_INIT;
        kv_set(&l, rows[i].key, rows[i].value);
        CloudGpu cg;
        cloud_gpu_from_labels(&l, &cg);
        if (rows[i].product) assert_string_equal(cg.product, rows[i].product);
        else assert_null(cg.product);
        assert_int_equal(cg.count, rows[i].count);
        assert_int_equal(cg.src, rows[i].src);
        assert_int_equal(cg.nvidia, rows[i].src != PRODUCT_SRC_NONE);
        kv_clear(&l);
    }
    /* Karpenter: the memory label picks the A100 40GB or 80GB */
    KVList l = KVLIST_INIT;
    kv_set(&l, "karpenter.k8s.aws/instance-gpu-name", "a100");
    kv_set(&l, "karpenter.k8s.aws/instance-gpu-memory", "81920");
    kv_set(&l, "karpenter.k8s.aws/instance-gpu-count", "8");
    CloudGpu cg;
    cloud_gpu_from_labels(&l, &cg);
    assert_string_equal(cg.product, "NVIDIA-A100-SXM4-80GB");
    assert_int_equal(cg.count, 8);
    kv_set(&l, "karpenter.k8s.aws/instance-gpu-memory", "40960");
    cloud_gpu_from_labels(&l, &cg);
    assert_string_equal(cg.product, "NVIDIA-A100-SXM4-40GB");
    kv_clear(&l);
    /* GFD's product wins over every cloud label (node.h's order) */
    Node n;
    Error e = { 0 };
    assert_int_equal(parse_inline(&n, "{\"metadata\":{\"name\":\"x\",\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-L4\","
                                  "\"cloud.google.com/gke-accelerator\":\"nvidia-tesla-t4\"}}}", &e), 0);
    assert_string_equal(n.gpu.product, "NVIDIA-L4");
    assert_int_equal(n.gpu.product_src, PRODUCT_SRC_GFD);
    node_clear(&n);
}

/* HAMi's registration in both forms (Project-HAMi/HAMi pkg/device/devices.go at 4707fb02:
 * MarshalNodeDevices JSON with omitempty; DecodeNodeDevices' 7- or 9-field text) */
static void test_hami_register(void **state)
{
    (void)state;
    Node n;
    Error e = { 0 };
    assert_int_equal(parse_inline(&n, "{\"metadata\":{\"name\":\"h\",\"annotations\":{\"hami.io/node-nvidia-register\":"
        "\"[{\\\"id\\\":\\\"GPU-a\\\",\\\"count\\\":10,\\\"devmem\\\":32768,\\\"devcore\\\":100,"
        "\\\"type\\\":\\\"NVIDIA-Tesla V100-PCIE-32GB\\\",\\\"health\\\":true},"
        "{\\\"id\\\":\\\"GPU-b\\\",\\\"index\\\":1,\\\"count\\\":10,\\\"devmem\\\":32768,"
        "\\\"devcore\\\":100,\\\"type\\\":\\\"NVIDIA-Tesla V100-PCIE-32GB\\\"}]\"}},"
        "\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"20\"}}}", &e), 0);
    assert_int_equal(n.gpu.nhami, 2);
    assert_string_equal(n.gpu.hami[0].uuid, "GPU-a");
    assert_int_equal(n.gpu.hami[0].index, 0);
    assert_int_equal(n.gpu.hami[1].index, 1);
    assert_true(n.gpu.hami[0].healthy);
    assert_false(n.gpu.hami[1].healthy);              /* omitempty: a false health is absent */
    assert_string_equal(n.gpu.product, "Tesla-V100-PCIE-32GB");
    assert_int_equal(n.gpu.product_src, PRODUCT_SRC_HAMI);
    NodeInventory v;
    inventory_node(&n, NULL, &v);
    assert_int_equal(v.physical, 2);                  /* not the 20 vGPUs advertised */
    assert_int_equal(v.replicas, 10);
    assert_int_equal(v.memory_per_gpu_mib, 32768);
    node_clear(&n);
    assert_int_equal(parse_inline(&n, "{\"metadata\":{\"name\":\"h\",\"annotations\":{\"hami.io/node-nvidia-register\":"
        "\"GPU-a,10,32768,100,NVIDIA-Tesla V100-PCIE-32GB,0,true:GPU-b,10,32768,100,NVIDIA-Tesla V100-PCIE-32GB,0,false,1,hami-core:"
        "broken,1:\"}}}", &e), 0);
    assert_int_equal(n.gpu.nhami, 2);                 /* the 2-field segment is skipped */
    assert_true(n.gpu.hami[0].healthy);
    assert_false(n.gpu.hami[1].healthy);
    assert_int_equal(n.gpu.hami[1].index, 1);
    assert_int_equal(n.gpu.hami[1].devmem_mib, 32768);
    node_clear(&n);
    /* hostile: not JSON, not the text form -> nothing registered, no crash */
    assert_int_equal(parse_inline(&n, "{\"metadata\":{\"name\":\"h\",\"annotations\":{\"hami.io/node-nvidia-register\":"
        "\"[{\\\"id\\\":\"}}}", &e), 0);
    assert_int_equal(n.gpu.nhami, 0);
    node_clear(&n);
}

/* GPU health agents' conditions: True ones kept, False ones and other types not */
static void test_health_conditions(void **state)
{
    (void)state;
    Node n;
    Error e = { 0 };
    assert_int_equal(parse_inline(&n, "{\"metadata\":{\"name\":\"c\"},\"status\":{\"conditions\":["
        "{\"type\":\"Ready\",\"status\":\"True\"},"
        "{\"type\":\"GpuXidError\",\"status\":\"True\",\"reason\":\"GpuXidErrorIsNotHealthy\",\"message\":\"ErrorCode:79 GPU:1 Recommended Action=RESTART_VM;\"},"
        "{\"type\":\"GpuThermalWatch\",\"status\":\"False\",\"reason\":\"GpuThermalWatchIsHealthy\"},"
        "{\"type\":\"SysLogsXIDError\",\"status\":\"True\"},"
        "{\"type\":\"MemoryPressure\",\"status\":\"True\"}]}}", &e), 0);
    assert_int_equal(n.nhealth, 2);
    assert_string_equal(n.health[0].type, "GpuXidError");
    assert_string_equal(n.health[1].type, "SysLogsXIDError");
    assert_true(n.ready);
    node_clear(&n);
}

static void test_label_edge_cases(void **state)
{
    (void)state;
    KVList l = KVLIST_INIT;
    kv_set(&l, "nvidia.com/gpu.count", "-3");
    kv_set(&l, "nvidia.com/gpu.memory", "lots");
    kv_set(&l, "nvidia.com/gpu.replicas", "x");
    kv_set(&l, "nvidia.com/mig.strategy", "weird");
    kv_set(&l, "nvidia.com/gpu.sharing-strategy", "mps");
    kv_set(&l, "nvidia.com/mig-.count", "3");            /* no profile: ignored */
    kv_set(&l, "nvidia.com/mig-1g.10gb.me.count", "1");  /* profile names contain dots */
    kv_set(&l, "nvidia.com/mig-1g.10gb.me.replicas", "0");
    GpuFacts g;
    gpu_facts_from_labels(&g, &l, pool);
    assert_true(g.has_gfd);
    assert_null(g.product);
    assert_null(g.base_product);
    assert_int_equal(g.count, 0);
    assert_int_equal(g.memory_mib, 0);
    assert_int_equal(g.replicas, 1);
    assert_int_equal(g.mig_strategy, MIG_NONE);
    assert_int_equal(g.sharing, SHARING_MPS);
    assert_int_equal(g.nmig, 1);
    assert_string_equal(g.mig[0].profile, "1g.10gb.me");
    assert_int_equal(g.mig[0].replicas, 0);
    assert_int_equal(g.mig[0].memory_mib, 0);
    assert_string_equal(sharing_strategy_name(g.sharing), "mps");
    assert_string_equal(mig_strategy_name(g.mig_strategy), "none");
    gpu_facts_clear(&g);
    gpu_facts_from_labels(&g, NULL, pool);
    assert_false(g.has_gfd);
    gpu_facts_clear(&g);
    kv_clear(&l);
}

static void test_hostile(void **state)
{
    (void)state;
    Node n;
    Error e = { 0 };
    assert_int_equal(parse_inline(&n, "[]", &e), -1);
    assert_int_equal(parse_inline(&n, "{}", &e), -1);
    assert_non_null(strstr(e.msg, "metadata.name"));
    assert_int_equal(parse_inline(&n, "{\"metadata\":{\"name\":42}}", &e), -1);
    assert_int_equal(parse_inline(&n, "{\"metadata\":{\"name\":\"\"}}", &e), -1);
    char *longname = xcalloc(1, 400);
    memset(longname, 'a', 399);
    char *json = xasprintf("{\"metadata\":{\"name\":\"%s\"}}", longname);
    assert_int_equal(parse_inline(&n, json, &e), -1);
    free(json); free(longname);
    /* every field of the wrong type: parsed with defaults, no crash */
    assert_int_equal(parse_inline(&n, "{\"metadata\":{\"name\":\"h\",\"labels\":[1,2],\"creationTimestamp\":5},"
                                      "\"spec\":{\"taints\":{\"a\":1},\"unschedulable\":\"yes\"},"
                                      "\"status\":{\"conditions\":\"Ready\",\"capacity\":[\"1\"],"
                                      "\"allocatable\":{\"nvidia.com/gpu\":\"lots\",\"cpu\":{}}}}", &e), 0);
    assert_string_equal(n.name, "h");
    assert_int_equal(n.labels.n, 0);
    assert_int_equal(n.ntaints, 0);
    assert_false(n.unschedulable);
    assert_false(n.ready);
    assert_int_equal(n.allocatable.n, 0);
    assert_int_equal(n.creation, 0);
    node_clear(&n);
    /* taints array with junk elements */
    assert_int_equal(parse_inline(&n, "{\"metadata\":{\"name\":\"t\"},\"spec\":{\"taints\":[1,null,"
                                      "{\"key\":\"k\",\"effect\":\"NoSchedule\",\"value\":7}]}}", &e), 0);
    assert_int_equal(n.ntaints, 1);
    assert_null(n.taints[0].value);
    node_clear(&n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_h100_mixed), cmocka_unit_test(test_a100_single),
        cmocka_unit_test(test_timeslice_shared), cmocka_unit_test(test_cpu_node),
        cmocka_unit_test(test_without_gfd), cmocka_unit_test(test_single_variants),
        cmocka_unit_test(test_label_edge_cases), cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_old_labels), cmocka_unit_test(test_resources_only),
        cmocka_unit_test(test_cloud_labels), cmocka_unit_test(test_cloud_products),
        cmocka_unit_test(test_hami_register), cmocka_unit_test(test_health_conditions),
    };
    return cmocka_run_group_tests(tests, pool_setup, pool_teardown);
}

/* Unit tests: a plan fitted to cloud node pools (analysis/plan_actuate.h): the node-pool command
 * with the cloud's own settings instead of labels, and the clouds' documented limits.
 *   GKE: a node pool's GPUs are all partitioned into one size, gpu-partition-size
 *        (cloud.google.com/kubernetes-engine/docs/how-to/gpus-multi); time-sharing / MPS with
 *        max-shared-clients-per-gpu, at most 48 (.../docs/how-to/timesharing-gpus).
 *   AKS: --gpu-instance-profile MIG1g, MIG2g, MIG3g, MIG4g, MIG7g, on A100 node pools only, one
 *        profile for every GPU (learn.microsoft.com/azure/aks/gpu-multi-instance).
 *   EKS: no MIG or sharing setting. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/plan.h"
#include "analysis/plan_actions.h"
#include "analysis/plan_actuate.h"
#include "model/actuators.h"
#include "node_builder.h"
#include "util/error.h"
#include <cjson/cJSON.h>

static PlanWorkload wl(const char *name, const char *node, int64_t mem, double util)
{
    PlanWorkload w = { .ns = "ml", .name = name, .node = node, .resource = "nvidia.com/gpu", .count = 1,
                       .has_usage = true, .memory_mib = mem, .utilization = util,
                       .peak_memory_mib = -1, .peak_utilization = NAN, .coverage = NAN };
    return w;
}

static const PlanCurrent cur20 = { .dp_version = { 0, 20, 0 }, .dp_version_known = true,
                                   .dp_version_text = "v0.20.0", .operator_ns = "gpu-operator" };

typedef struct {
    Node n[2];
    Cluster c;
    PlanWorkload w[16];
    size_t nw;
} Fleet;

/* two nodes of 1 A100 80GB in pool "a100" of the given cloud, 7 small pods each: with MIG
 * every pod takes a 1g.10gb (8000 MiB x 1.1 = 8800 <= 9728, 5 % of 1/7), 7 per GPU:
 * the layout is 7 x 1g.10gb on every GPU, one profile */
static void fleet(Fleet *f, const char *pool_key, const char *extra_key, const char *extra_val)
{
    memset(f, 0, sizeof *f);
    static char names[14][16];
    for (int i = 0; i < 2; i++) {
        f->n[i] = test_gpu_node(i ? "node-b" : "node-a", "NVIDIA-A100-SXM4-80GB", 1, 81920, 8, 0);
        kv_set(&f->n[i].labels, pool_key, "a100");
        if (extra_key) kv_set(&f->n[i].labels, extra_key, extra_val);
        kv_set(&f->n[i].labels, "node.kubernetes.io/instance-type", "a2-ultragpu-1g");
    }
    for (int i = 0; i < 14; i++) {
        snprintf(names[i], sizeof names[i], "p-%d", i);
        f->w[f->nw++] = wl(names[i], i < 7 ? "node-a" : "node-b", 8000, 5);
    }
    f->c.nodes = f->n;
    f->c.nnodes = 2;
}

static void fleet_free(Fleet *f)
{
    for (int i = 0; i < 2; i++) kv_clear(&f->n[i].labels);
}

static void run(Fleet *f, const Actuators *a, PlanChoice choice, PlanResult *r, PlanActions *acts, Strvec *applied,
                Strvec *warnings)
{
    const Node *nodes[] = { &f->n[0], &f->n[1] };
    PlanOptions o = { .choice = choice, .headroom_pct = 10, .cur = &cur20, .mig_block = plan_actuate_mig_block(a) };
    assert_int_equal(plan_build(nodes, 2, f->w, f->nw, &o, r), 0);
    Manifests m;
    memset(&m, 0, sizeof m);
    plan_actuate_nodes(r, a, &f->c);
    plan_actions_build(acts, r, &m, &cur20, NULL, NULL, NULL, 0);
    assert_int_equal(acts->n, 0);             /* no node label for a cloud pool */
    plan_actuate_actions(acts, r, &m, a, &f->c, applied, warnings);
}

static void test_gke_partition(void **state)
{
    (void)state;
    Fleet f;
    fleet(&f, "cloud.google.com/gke-nodepool", "cloud.google.com/gke-accelerator", "nvidia-a100-80gb");
    Actuators a = { .dp = { .by = ACTUATOR_GKE }, .mig = { .by = ACTUATOR_CLOUD }, .cloud = ACTUATOR_GKE };
    PlanResult r;
    PlanActions acts;
    Strvec applied = STRVEC_INIT, warnings = STRVEC_INIT;
    run(&f, &a, PLAN_CHOICE_MIG, &r, &acts, &applied, &warnings);
    assert_int_equal(r.groups[0].strategy, PLAN_MIG);
    assert_int_equal(acts.n, 1);
    assert_int_equal(acts.v[0].kind, ACT_NODEPOOL);
    assert_string_equal(acts.v[0].command,
                        "gcloud container node-pools create a100-kgpu-mig --cluster=CLUSTER --location=LOCATION "
                        "--machine-type=a2-ultragpu-1g --num-nodes=2 --accelerator=type=nvidia-a100-80gb,count=1,"
                        "gpu-partition-size=1g.10gb");
    plan_actions_clear(&acts); plan_result_clear(&r); strvec_clear(&applied); strvec_clear(&warnings);

    /* time-sharing: the 14 pods (8800 MiB, 5.5 %) fit 9 to a GPU by memory (9 x 8800 = 79200 of
     * 81920): replicas 9 <= 48, so the setting is kept as planned */
    run(&f, &a, PLAN_CHOICE_TIME_SLICING, &r, &acts, &applied, &warnings);
    assert_int_equal(acts.n, 1);
    char want[64];
    snprintf(want, sizeof want, "gpu-sharing-strategy=time-sharing,max-shared-clients-per-gpu=%d", r.groups[0].replicas);
    assert_non_null(strstr(acts.v[0].command, want));
    assert_true(r.groups[0].replicas <= PLAN_GKE_MAX_SHARED_CLIENTS);
    plan_actions_clear(&acts); plan_result_clear(&r); strvec_clear(&applied); strvec_clear(&warnings);

    /* many tiny pods: more replicas than GKE allows are capped at 48, and said */
    static char tiny[120][16];
    f.nw = 0;
    for (int i = 0; i < 120; i++) {
        snprintf(tiny[i], sizeof tiny[i], "t-%d", i);
    }
    PlanWorkload many[120];
    for (int i = 0; i < 120; i++) many[i] = wl(tiny[i], i < 60 ? "node-a" : "node-b", 300, 0.5);
    const Node *nodes[] = { &f.n[0], &f.n[1] };
    PlanOptions o = { .choice = PLAN_CHOICE_TIME_SLICING, .headroom_pct = 10, .cur = &cur20 };
    assert_int_equal(plan_build(nodes, 2, many, 120, &o, &r), 0);
    Manifests m;
    memset(&m, 0, sizeof m);
    plan_actuate_nodes(&r, &a, &f.c);
    plan_actions_build(&acts, &r, &m, &cur20, NULL, NULL, NULL, 0);
    plan_actuate_actions(&acts, &r, &m, &a, &f.c, &applied, &warnings);
    if (r.groups[0].replicas > PLAN_GKE_MAX_SHARED_CLIENTS) {
        assert_int_equal(acts.n, 1);
        assert_non_null(strstr(acts.v[0].command, "max-shared-clients-per-gpu=48"));
        assert_non_null(strstr(warnings.v[warnings.n - 1], "GKE allows at most 48 shared clients per GPU"));
        /* 120 workloads at 48 per GPU need ceil(120 / 48) = 3 GPUs: 3 nodes of 1 GPU */
        assert_non_null(strstr(acts.v[0].command, "--num-nodes=3 "));
        assert_int_equal(r.gpus_after, 3);
    } else {
        fail_msg("the plan gave %d replicas: the cap is not exercised", r.groups[0].replicas);
    }
    plan_actions_clear(&acts); plan_result_clear(&r); strvec_clear(&applied); strvec_clear(&warnings);
    fleet_free(&f);
}

static void test_aks_profile_and_eks(void **state)
{
    (void)state;
    Fleet f;
    fleet(&f, "kubernetes.azure.com/agentpool", "kubernetes.azure.com/accelerator", "nvidia");
    Actuators a = { .dp = { .by = ACTUATOR_AKS }, .mig = { .by = ACTUATOR_CLOUD }, .cloud = ACTUATOR_AKS };
    PlanResult r;
    PlanActions acts;
    Strvec applied = STRVEC_INIT, warnings = STRVEC_INIT;
    run(&f, &a, PLAN_CHOICE_MIG, &r, &acts, &applied, &warnings);
    assert_int_equal(acts.n, 1);
    assert_non_null(strstr(acts.v[0].command, "az aks nodepool add "));
    assert_non_null(strstr(acts.v[0].command, "--node-count 2 --gpu-instance-profile MIG1g"));
    plan_actions_clear(&acts); plan_result_clear(&r); strvec_clear(&applied); strvec_clear(&warnings);
    /* AKS has no time-slicing setting: nothing, said, and the GPUs stay */
    run(&f, &a, PLAN_CHOICE_TIME_SLICING, &r, &acts, &applied, &warnings);
    assert_int_equal(acts.n, 0);
    assert_int_equal(warnings.n, 1);
    assert_non_null(strstr(warnings.v[0], "AKS node pools have no time-slicing setting"));
    assert_int_equal(r.gpus_after, r.gpus_before);
    plan_actions_clear(&acts); plan_result_clear(&r); strvec_clear(&applied); strvec_clear(&warnings);
    fleet_free(&f);

    /* EKS: MIG is not planned at all (no setting, no MIG manager) */
    fleet(&f, "eks.amazonaws.com/nodegroup", NULL, NULL);
    Actuators e = { .dp = { .by = ACTUATOR_EKS }, .mig = { .by = ACTUATOR_NONE }, .cloud = ACTUATOR_EKS };
    run(&f, &e, PLAN_CHOICE_MIG, &r, &acts, &applied, &warnings);
    assert_int_equal(r.groups[0].strategy, PLAN_NONE);
    assert_int_equal(acts.n, 0);
    plan_actions_clear(&acts); plan_result_clear(&r); strvec_clear(&applied); strvec_clear(&warnings);
    fleet_free(&f);
}

/* issue 27 item 3: a node set to the planned layout by hand (2 x 3g.40gb on each of its 8
 * GPUs, no nvidia.com/mig.config label) gets the label but is not drained: mig-manager finds
 * the config applied (mig-parted pkg/mig/reconfigure/reconfigure.go:141-145) */
static void test_same_layout_not_drained(void **state)
{
    (void)state;
    Node n = test_gpu_node("a100-same", "NVIDIA-A100-SXM4-80GB", 8, 81920, 8, 0);
    MigDeviceFacts md = { .profile = "3g.40gb", .count = 16, .memory_mib = 40192, .replicas = 1 };
    n.gpu.mig = &md; n.gpu.nmig = 1; n.gpu.mig_strategy = MIG_MIXED;
    rlist_set(&n.allocatable, "nvidia.com/mig-3g.40gb", 16000);
    static char names[16][16];
    PlanWorkload w[16];
    for (int i = 0; i < 16; i++) {
        snprintf(names[i], sizeof names[i], "llm-%d", i);
        w[i] = (PlanWorkload){ .ns = "ml", .name = names[i], .node = "a100-same", .resource = "nvidia.com/mig-3g.40gb",
                               .count = 1, .has_usage = false, .peak_memory_mib = -1, .peak_utilization = NAN,
                               .coverage = NAN };
    }
    const Node *nodes[] = { &n };
    Cluster c;
    memset(&c, 0, sizeof c);
    c.nodes = &n; c.nnodes = 1;
    PlanOptions o = { .choice = PLAN_CHOICE_MIG, .headroom_pct = 10, .cur = &cur20 };
    PlanResult r;
    assert_int_equal(plan_build(nodes, 1, w, 16, &o, &r), 0);
    assert_int_equal(r.groups[0].strategy, PLAN_MIG);
    PlanNode *pn = &r.groups[0].plan_nodes[0];
    assert_true(pn->mig_change);
    assert_true(pn->drain);                       /* as the rollout decides it */
    Actuators a = { .dp = { .by = ACTUATOR_GPU_OPERATOR }, .mig = { .by = ACTUATOR_GPU_OPERATOR } };
    plan_actuate_nodes(&r, &a, &c);
    assert_true(pn->mig_change);                  /* the label is still set ... */
    assert_false(pn->drain);                      /* ... without a drain */
    /* one 3g.40gb fewer on the node: another layout, drained */
    plan_result_clear(&r);
    md.count = 15;
    assert_int_equal(plan_build(nodes, 1, w, 16, &o, &r), 0);
    plan_actuate_nodes(&r, &a, &c);
    assert_true(r.groups[0].plan_nodes[0].drain);
    plan_result_clear(&r);
    rlist_clear(&n.allocatable);
    kv_clear(&n.labels);
}

/* the Helm chart's plugin: its own map and DEFAULT_CONFIG stand for the ClusterPolicy's; with
 * DEFAULT_CONFIG empty the fallbacks pick "default" (cmd/config-manager/main.go:367-376 at
 * v0.17.0); MIG_STRATEGY=mixed (values.migStrategy) overrides every config file, and the plugin
 * refuses MPS with it */
static void test_helm_current(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    const char *objs[] = {
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":\"dp\",\"namespace\":\"gpu\","
        "\"labels\":{\"app.kubernetes.io/managed-by\":\"Helm\",\"helm.sh/chart\":\"nvidia-device-plugin-0.17.0\"}},"
        "\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"nvidia-device-plugin-sidecar\","
        "\"image\":\"nvcr.io/nvidia/k8s-device-plugin:v0.17.0\",\"command\":[\"config-manager\"],"
        "\"env\":[{\"name\":\"DEFAULT_CONFIG\",\"value\":\"\"},{\"name\":\"FALLBACK_STRATEGIES\",\"value\":\"named,single\"}],"
        "\"volumeMounts\":[{\"name\":\"available-configs\",\"mountPath\":\"/available-configs\"}]},"
        "{\"name\":\"nvidia-device-plugin-ctr\",\"image\":\"nvcr.io/nvidia/k8s-device-plugin:v0.17.0\","
        "\"env\":[{\"name\":\"MIG_STRATEGY\",\"value\":\"mixed\"}]}],"
        "\"volumes\":[{\"name\":\"available-configs\",\"configMap\":{\"name\":\"dp-configs\"}}]}}}}",
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"dp-configs\",\"namespace\":\"gpu\"},"
        "\"data\":{\"default\":\"version: v1\\n\",\"ts\":\"version: v1\\n\"}}",
    };
    for (size_t i = 0; i < 2; i++) {
        cJSON *j = cJSON_Parse(objs[i]);
        assert_non_null(j);
        Error e = { 0 };
        assert_int_equal(cluster_ingest(&c, OBJ__COUNT, j, &e), 0);
        cJSON_Delete(j);
    }
    Actuators a;
    actuators_detect(&a, &c);
    assert_int_equal(a.dp.by, ACTUATOR_HELM);
    PlanCurrent cur;
    memset(&cur, 0, sizeof cur);
    plan_actuate_current(&cur, &a, &c);
    assert_string_equal(cur.dp_map, "dp-configs");
    assert_non_null(cur.dp_configmap);
    assert_string_equal(cur.dp_default, "default");
    assert_string_equal(cur.operator_ns, "gpu");
    assert_string_equal(cur.mig_strategy, "mixed");
    assert_true(cur.dp_version_known);
    cluster_release(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gke_partition), cmocka_unit_test(test_aks_profile_and_eks),
        cmocka_unit_test(test_same_layout_not_drained), cmocka_unit_test(test_helm_current),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Unit tests: what a plan does to nodes beyond the ones it relabels (issue 13 follow-up).
 *  - The ClusterPolicy's mig.strategy reaches every node's device plugin as MIG_STRATEGY, which
 *    overrides the config file (gpu-operator controllers/object_controls.go:2787-2794), and the
 *    plugin refuses MPS with mixed (k8s-device-plugin cmd/nvidia-device-plugin/main.go:228-229):
 *    a MIG layout that needs single -> mixed is not planned while any node the plan does not move
 *    off MPS runs it, selected by -l or not.
 *  - Unhealthy GPUs: a restarted plugin starts every device Healthy (internal/rm/devices.go:92)
 *    and marks a faulty one Unhealthy when the fault recurs (internal/plugin/server.go:277-278):
 *    a relabelled node is expected at its count without its unhealthy GPUs (the most any of them
 *    could carry), up to the count with all healthy.
 */
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
#include "model/resources.h"
#include "node_builder.h"

/* a whole-GPU node advertising its GPUs as nvidia.com/gpu */
static Node mknode(const char *name, const char *product, int gpus, int64_t mem, int ccmaj)
{
    Node n = test_gpu_node(name, product, gpus, mem, ccmaj, 0);
    rlist_set(&n.capacity, "nvidia.com/gpu", (int64_t)gpus * 1000);
    rlist_set(&n.allocatable, "nvidia.com/gpu", (int64_t)gpus * 1000);
    return n;
}

static void tnode_free(Node *n)
{
    kv_clear(&n->labels);
    rlist_clear(&n->capacity);
    rlist_clear(&n->allocatable);
}

/* an L4 node running MPS now (GFD: gpu.sharing-strategy=mps, replicas 8), no workload planned */
static Node mps_node(void)
{
    Node n = mknode("l4-01", "NVIDIA-L4", 4, 23034, 8);
    n.gpu.sharing = SHARING_MPS;
    n.gpu.replicas = 8;
    rlist_set(&n.capacity, "nvidia.com/gpu", 32000);
    rlist_set(&n.allocatable, "nvidia.com/gpu", 32000);
    return n;
}

static PlanWorkload wl(const char *name, const char *node, int64_t mem)
{
    PlanWorkload w = { .ns = "ml", .name = name, .node = node, .resource = "nvidia.com/gpu", .count = 1,
                       .has_usage = true, .memory_mib = mem, .utilization = 5,
                       .peak_memory_mib = -1, .peak_utilization = NAN, .coverage = NAN };
    return w;
}

static const PlanGroup *group(const PlanResult *r, const char *product)
{
    for (size_t i = 0; i < r->ngroups; i++)
        if (strcmp(r->groups[i].product, product) == 0) return &r->groups[i];
    fail_msg("no group %s", product);
    return NULL;
}

static bool warned(const PlanResult *r, const char *part)
{
    for (size_t i = 0; i < r->warnings.n; i++)
        if (strstr(r->warnings.v[i], part)) return true;
    return false;
}

static const PlanCurrent single20 = { .dp_version = { 0, 20, 0 }, .dp_version_known = true,
                                      .dp_version_text = "v0.20.0", .operator_ns = "gpu-operator",
                                      .mig_strategy = "single" };

/* two 5000 MiB workloads on two whole A100s: MIG puts both on one GPU (2x 1g.10gb, 9728 MiB
 * each >= 5000 + 10 %), 2 -> 1 GPUs, which needs mixed under a ClusterPolicy that says single */
static void test_mps_node_blocks_mixed(void **state)
{
    (void)state;
    Node a100 = mknode("a100", "NVIDIA-A100-SXM4-80GB", 8, 81920, 8);
    Node l4 = mps_node();
    PlanWorkload w[2] = { wl("s1", "a100", 5000), wl("s2", "a100", 5000) };
    PlanOptions o = { .choice = PLAN_CHOICE_AUTO, .headroom_pct = 10, .cur = &single20 };
    PlanResult r;

    /* control: without the MPS node the MIG layout is planned and the strategy switches */
    const Node *only[] = { &a100 };
    assert_int_equal(plan_build(only, 1, w, 2, &o, &r), 0);
    assert_int_equal(group(&r, "NVIDIA-A100-SXM4-80GB")->strategy, PLAN_MIG);
    assert_true(r.mig_strategy_change);
    plan_result_clear(&r);

    /* the MPS node among the planned nodes: no MIG, no switch, a warning naming it */
    const Node *both[] = { &a100, &l4 };
    assert_int_equal(plan_build(both, 2, w, 2, &o, &r), 0);
    const PlanGroup *g = group(&r, "NVIDIA-A100-SXM4-80GB");
    assert_int_not_equal(g->strategy, PLAN_MIG);
    assert_int_equal(g->after_mig, -1);
    assert_false(r.mig_strategy_change);
    /* chosen again without MIG: time-slicing puts both on one GPU under the single strategy */
    assert_int_equal(g->strategy, PLAN_TIME_SLICING);
    assert_true(warned(&r, "stops MPS on l4-01"));
    assert_true(warned(&r, "MIG would need 1 GPU, now time-slicing: 1"));
    plan_result_clear(&r);

    /* the MPS node outside the selection (-l): the cluster's nodes still reach the rule */
    Node all[] = { a100, l4 };
    o.cluster_nodes = all; o.ncluster_nodes = 2;
    assert_int_equal(plan_build(only, 1, w, 2, &o, &r), 0);
    assert_false(r.mig_strategy_change);
    assert_true(warned(&r, "stops MPS on l4-01"));
    plan_result_clear(&r);

    /* nodes unseen, but the device-plugin ConfigMap in use holds an MPS config */
    o.cluster_nodes = NULL; o.ncluster_nodes = 0;
    o.unseen_mps = "nodes outside -l x=y that run the MPS config l4-mps8 of ConfigMap dp";
    assert_int_equal(plan_build(only, 1, w, 2, &o, &r), 0);
    assert_false(r.mig_strategy_change);
    assert_true(warned(&r, "l4-mps8"));
    plan_result_clear(&r);

    /* already mixed: nothing switches, MIG is planned (MPS there is broken already, not by the plan) */
    PlanCurrent mixed = single20;
    mixed.mig_strategy = "mixed";
    o.cur = &mixed; o.unseen_mps = NULL;
    assert_int_equal(plan_build(both, 2, w, 2, &o, &r), 0);
    assert_int_equal(group(&r, "NVIDIA-A100-SXM4-80GB")->strategy, PLAN_MIG);
    assert_false(r.mig_strategy_change);
    plan_result_clear(&r);
    tnode_free(&a100); tnode_free(&l4);
}

static const PlanNode *plan_node(const PlanGroup *g, const char *name)
{
    for (size_t j = 0; j < g->nplan_nodes; j++)
        if (strcmp(g->plan_nodes[j].name, name) == 0) return &g->plan_nodes[j];
    fail_msg("no node %s", name);
    return NULL;
}

static int64_t units(const ResourceList *l, const char *res) { return rlist_get(l, res) / 1000; }

/* the A100 above with 1 of its 8 GPUs unhealthy (allocatable 7): the plan gives GPU 0 two
 * 1g.10gb and keeps 7 whole.  Unhealthy could be any GPU: nvidia.com/gpu 7 - 1 = 6 .. 7,
 * nvidia.com/mig-1g.10gb 2 - 2 = 0 .. 2 */
static void test_unhealthy_mig_node(void **state)
{
    (void)state;
    Node a100 = mknode("a100", "NVIDIA-A100-SXM4-80GB", 8, 81920, 8);
    rlist_set(&a100.allocatable, "nvidia.com/gpu", 7000);
    PlanWorkload w[2] = { wl("s1", "a100", 5000), wl("s2", "a100", 5000) };
    PlanOptions o = { .choice = PLAN_CHOICE_AUTO, .headroom_pct = 10, .cur = &single20 };
    PlanResult r;
    const Node *nodes[] = { &a100 };
    assert_int_equal(plan_build(nodes, 1, w, 2, &o, &r), 0);
    const PlanNode *pn = plan_node(group(&r, "NVIDIA-A100-SXM4-80GB"), "a100");
    assert_int_equal(pn->unhealthy, 1);
    assert_int_equal(units(&pn->expected_max, "nvidia.com/gpu"), 7);
    assert_int_equal(units(&pn->expected, "nvidia.com/gpu"), 6);
    assert_int_equal(units(&pn->expected_max, "nvidia.com/mig-1g.10gb"), 2);
    assert_int_equal(units(&pn->expected, "nvidia.com/mig-1g.10gb"), 0);
    plan_result_clear(&r);
    /* all healthy: one count, no range */
    rlist_set(&a100.allocatable, "nvidia.com/gpu", 8000);
    assert_int_equal(plan_build(nodes, 1, w, 2, &o, &r), 0);
    pn = plan_node(group(&r, "NVIDIA-A100-SXM4-80GB"), "a100");
    assert_int_equal(pn->unhealthy, 0);
    assert_int_equal(units(&pn->expected, "nvidia.com/gpu"), units(&pn->expected_max, "nvidia.com/gpu"));
    plan_result_clear(&r);
    tnode_free(&a100);
}

/* 8 small workloads on two 4-GPU T4s, each with 1 unhealthy GPU (allocatable 3): time-slicing,
 * 8 replicas, one pool node.  Pool: nvidia.com/gpu.shared (4 - 1) x 8 = 24 .. 32; the node kept
 * whole: nvidia.com/gpu 3 .. 4 */
static void test_unhealthy_shared_node(void **state)
{
    (void)state;
    Node a = mknode("t4-a", "Tesla-T4", 4, 15360, 7), b = mknode("t4-b", "Tesla-T4", 4, 15360, 7);
    rlist_set(&a.allocatable, "nvidia.com/gpu", 3000);
    rlist_set(&b.allocatable, "nvidia.com/gpu", 3000);
    PlanWorkload w[8];
    static const char *names[] = { "w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7" };
    for (int i = 0; i < 8; i++) w[i] = wl(names[i], i < 4 ? "t4-a" : "t4-b", 1000);
    PlanCurrent cur = single20;
    cur.mig_strategy = NULL;
    PlanOptions o = { .choice = PLAN_CHOICE_TIME_SLICING, .headroom_pct = 10, .cur = &cur };
    PlanResult r;
    const Node *nodes[] = { &a, &b };
    assert_int_equal(plan_build(nodes, 2, w, 8, &o, &r), 0);
    const PlanGroup *g = group(&r, "Tesla-T4");
    assert_int_equal(g->strategy, PLAN_TIME_SLICING);
    int shared = 0;
    for (size_t j = 0; j < g->nplan_nodes; j++) {
        const PlanNode *pn = &g->plan_nodes[j];
        assert_int_equal(pn->unhealthy, 1);
        if (pn->shared) {
            shared++;
            assert_int_equal(units(&pn->expected_max, "nvidia.com/gpu.shared"), 4 * g->replicas);
            assert_int_equal(units(&pn->expected, "nvidia.com/gpu.shared"), 3 * g->replicas);
        } else {
            assert_int_equal(units(&pn->expected_max, "nvidia.com/gpu"), 4);
            assert_int_equal(units(&pn->expected, "nvidia.com/gpu"), 3);
        }
    }
    assert_int_equal(shared, 1);
    plan_result_clear(&r);
    tnode_free(&a); tnode_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mps_node_blocks_mixed),
        cmocka_unit_test(test_unhealthy_mig_node),
        cmocka_unit_test(test_unhealthy_shared_node),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

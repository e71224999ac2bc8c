/* Physical GPUs in use / free / unavailable per node (analysis/physical.h), against the
 * upstream device plugin's allocation (NVIDIA/k8s-device-plugin @1b826acc):
 *  - replicated resources go through greedyAlloc with the "distributed" comparator by default,
 *    which prefers the GPU with the fewest allocated replicas (internal/rm/allocate.go:48,
 *    internal/rm/nvml_manager.go:120-124): k replicas on G GPUs land on min(k, G) GPUs;
 *    "packed" (allocate.go:53) would give ceil(k/R), the lower bound;
 *  - MIG devices are separate device IDs with no parent grouping in that loop, so only a
 *    range is known: ceil(slices / slices per GPU) .. min(devices, GPUs).
 * inUse + free + unavailable = physical GPUs on every node. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "analysis/physical.h"

static NodeStatus node(int phys, ResourceAlloc *res, size_t nres)
{
    static NodeInventory invs[64];          /* NodeStatus points at its inventory */
    static size_t ninv;
    NodeInventory *inv = &invs[ninv++ % 64];
    memset(inv, 0, sizeof *inv);
    inv->physical = phys;
    NodeStatus n;
    memset(&n, 0, sizeof n);
    n.name = "n";
    n.inv = inv;
    n.ready = n.schedulable = true;
    n.replicas = 1;
    n.res = res;
    n.nres = nres;
    return n;
}

static void check_sum(PhysicalUse u, int phys)
{
    assert_int_equal(u.in_use + u.free_ + u.unavailable, phys);
    assert_true(u.in_use_min <= u.in_use && u.in_use <= u.in_use_max);
}

static void test_whole(void **state)
{
    (void)state;
    ResourceAlloc r[] = { { "nvidia.com/gpu", 8, 7, 5 } };    /* one unhealthy GPU */
    NodeStatus n = node(8, r, 1);
    PhysicalUse u = physical_use_node(&n);
    assert_int_equal(u.in_use, 5);
    assert_int_equal(u.in_use_min, 5);
    assert_int_equal(u.unavailable, 1);
    assert_int_equal(u.free_, 2);
    check_sum(u, 8);
}

static void test_replicas_distributed(void **state)
{
    (void)state;
    /* 4 GPUs x 4 time-slicing replicas, 5 replicas held: distributed puts them on 4 GPUs,
     * packed would use 2 */
    ResourceAlloc r[] = { { "nvidia.com/gpu.shared", 16, 16, 5 } };
    NodeStatus n = node(4, r, 1);
    n.sharing = SHARING_TIME_SLICING;
    n.replicas = 4;
    PhysicalUse u = physical_use_node(&n);
    assert_int_equal(u.in_use, 4);
    assert_int_equal(u.in_use_min, 2);
    assert_int_equal(u.free_, 0);
    check_sum(u, 4);
    /* 3 replicas on 8 GPUs (MPS x8): 3 GPUs in use, at least 1 */
    ResourceAlloc m[] = { { "nvidia.com/gpu", 64, 64, 3 } };
    n = node(8, m, 1);
    n.sharing = SHARING_MPS;
    n.replicas = 8;
    u = physical_use_node(&n);
    assert_int_equal(u.in_use, 3);
    assert_int_equal(u.in_use_min, 1);
    assert_int_equal(u.free_, 5);
    check_sum(u, 8);
    /* an unhealthy GPU takes all its replicas: 4 of 16 replicas not allocatable = 1 GPU */
    ResourceAlloc h[] = { { "nvidia.com/gpu", 16, 12, 12 } };
    n = node(4, h, 1);
    n.sharing = SHARING_TIME_SLICING;
    n.replicas = 4;
    u = physical_use_node(&n);
    assert_int_equal(u.unavailable, 1);
    assert_int_equal(u.in_use, 3);
    check_sum(u, 4);
}

static void test_mig_range(void **state)
{
    (void)state;
    /* A100 80GB mixed: 3 x 1g + 1 x 2g + 1 x 3g = 8 compute slices: at least 2 GPUs (7 slices
     * each), at most 5 (one device per GPU) */
    ResourceAlloc r[] = { { "nvidia.com/mig-1g.10gb", 16, 16, 3 }, { "nvidia.com/mig-2g.20gb", 8, 8, 1 },
                          { "nvidia.com/mig-3g.40gb", 8, 8, 1 } };
    NodeStatus n = node(8, r, 3);
    n.product = n.base_product = "NVIDIA-A100-SXM4-80GB";
    n.mig_strategy = MIG_MIXED;
    n.mig_enabled = true;
    PhysicalUse u = physical_use_node(&n);
    assert_int_equal(u.in_use_min, 2);
    assert_int_equal(u.in_use_max, 5);
    assert_int_equal(u.in_use, 5);
    assert_int_equal(u.free_, 3);
    check_sum(u, 8);
    /* single strategy: nvidia.com/gpu are 1g.10gb devices */
    ResourceAlloc s[] = { { "nvidia.com/gpu", 56, 56, 15 } };
    n = node(8, s, 1);
    n.product = "NVIDIA-A100-SXM4-80GB-MIG-1g.10gb";
    n.base_product = "NVIDIA-A100-SXM4-80GB";
    n.mig_strategy = MIG_SINGLE;
    n.mig_enabled = true;
    n.mig_single_profile = "1g.10gb";
    u = physical_use_node(&n);
    assert_int_equal(u.in_use_min, 3);           /* ceil(15 / 7) */
    assert_int_equal(u.in_use_max, 8);           /* min(15, 8) */
    check_sum(u, 8);
}

static void test_unavailable_node(void **state)
{
    (void)state;
    ResourceAlloc r[] = { { "nvidia.com/gpu", 4, 4, 4 } };
    NodeStatus n = node(4, r, 1);
    n.ready = false;                             /* NotReady: none of its GPUs counts as usable */
    PhysicalUse u = physical_use_node(&n);
    assert_int_equal(u.unavailable, 4);
    assert_int_equal(u.in_use, 0);
    check_sum(u, 4);
    NodeProblem p = { PROBLEM_NO_DEVICE_PLUGIN, "x" };
    n = node(2, NULL, 0);
    n.problems = &p;
    n.nproblems = 1;
    u = physical_use_node(&n);
    assert_int_equal(u.unavailable, 2);
    check_sum(u, 2);
    n = node(-1, r, 1);                          /* cannot be counted: outside the totals */
    u = physical_use_node(&n);
    assert_int_equal(u.in_use + u.free_ + u.unavailable, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole), cmocka_unit_test(test_replicas_distributed),
        cmocka_unit_test(test_mig_range), cmocka_unit_test(test_unavailable_node),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

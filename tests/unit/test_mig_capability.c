/* MIG capability of a node (model/mig_capability.h): from MIG devices on the node, GFD's
 * nvidia.com/mig.capable, the MIG tables; never from memory size; unknown said as unknown.
 * GFD writes mig.capable=true when any GPU of the node supports MIG (k8s-device-plugin v0.17.0
 * internal/lm/nvml.go newMigCapabilityLabeler). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "model/mig_capability.h"
#include "node_builder.h"

static void set_label(Node *n, const char *k, const char *v) { kv_set(&n->labels, k, v); }

/* a GPU with 48 GB and mig.capable=false (L40S) is no: memory is never a signal */
static void test_label_false_wins_over_memory(void **state)
{
    (void)state;
    Node n = test_gpu_node("l40s", "NVIDIA-L40S", 4, 46068, 8, 9);
    set_label(&n, "nvidia.com/mig.capable", "false");
    MigCapability c = mig_capability(&n);
    assert_int_equal(c.capable, MIG_CAP_NO);
    assert_string_equal(c.source, "GFD label nvidia.com/mig.capable=false");
    kv_clear(&n.labels);
}

/* no label: the tables decide.  A100 has a table (yes); T4, L4 have none (no) */
static void test_tables(void **state)
{
    (void)state;
    Node a = test_gpu_node("a", "NVIDIA-A100-SXM4-80GB", 8, 81920, 8, 0);
    MigCapability c = mig_capability(&a);
    assert_int_equal(c.capable, MIG_CAP_YES);
    assert_non_null(c.model);
    assert_string_equal(c.model->key, "a100-80gb");
    Node t = test_gpu_node("t", "Tesla-T4", 1, 15360, 7, 5);
    assert_int_equal(mig_capability(&t).capable, MIG_CAP_NO);
    Node l = test_gpu_node("l", "NVIDIA-L4", 1, 23034, 8, 9);
    assert_int_equal(mig_capability(&l).capable, MIG_CAP_NO);
    kv_clear(&a.labels); kv_clear(&t.labels); kv_clear(&l.labels);
}

/* neither product nor label nor MIG devices: unknown, not no */
static void test_unknown(void **state)
{
    (void)state;
    Node n;
    memset(&n, 0, sizeof n);
    n.name = "bare";
    n.gpu.present = true;
    n.gpu.memory_mib = 81920;                  /* memory alone says nothing */
    MigCapability c = mig_capability(&n);
    assert_int_equal(c.capable, MIG_CAP_UNKNOWN);
    assert_null(c.source);
    assert_string_equal(mig_capable_name(c.capable), "unknown");
}

/* MIG devices on the node outrank the label (they exist, so the GPUs can hold them) */
static void test_mig_devices_first(void **state)
{
    (void)state;
    Node n;
    memset(&n, 0, sizeof n);
    n.name = "m";
    rlist_set(&n.capacity, "nvidia.com/mig-1g.10gb", 7000);
    set_label(&n, "nvidia.com/mig.capable", "false");
    assert_int_equal(mig_capability(&n).capable, MIG_CAP_YES);
    rlist_clear(&n.capacity);
    kv_clear(&n.labels);
}

/* devices per GPU: the model's table; without a model, every table that has the profile when
 * they agree (mig-profiles.md: 3g.40gb is 2 per GPU on A100 80GB and H100 80GB; 1g.10gb is 7
 * there but 4 on A100 40GB, whose 1g.10gb takes 2 memory slices) */
static void test_per_gpu(void **state)
{
    (void)state;
    const MigGpuModel *h100 = mig_model_for_product("NVIDIA-H100-80GB-HBM3");
    assert_int_equal(mig_profile_per_gpu(h100, "1g.10gb"), 7);
    assert_int_equal(mig_profile_per_gpu(h100, "nvidia.com/mig-3g.40gb"), 2);
    assert_int_equal(mig_profile_per_gpu(NULL, "3g.40gb"), 2);
    assert_int_equal(mig_profile_per_gpu(NULL, "1g.18gb"), 7);     /* H200 only */
    assert_int_equal(mig_profile_per_gpu(NULL, "1g.10gb"), -1);    /* 7 vs 4: ambiguous */
    assert_int_equal(mig_profile_per_gpu(NULL, "9g.1tb"), -1);
    assert_int_equal(mig_profile_per_gpu(h100, "1g.5gb"), -1);      /* not an H100 profile */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_label_false_wins_over_memory),
        cmocka_unit_test(test_tables),
        cmocka_unit_test(test_unknown),
        cmocka_unit_test(test_mig_devices_first),
        cmocka_unit_test(test_per_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

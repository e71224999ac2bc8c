/* Unit tests: analysis/health.c — a node's unhealthy GPUs from every signal.  The condition
 * messages are NVIDIA NVSentinel's (platform connector's K8s node-condition format, as its
 * TestK8sNodeConditions and NVIDIA/NVSentinel#911 show them: "ErrorCode:<code> GPU:<index> ...
 * Recommended Action=<A>;" per fault); the taint keys are its fault-quarantine examples
 * (docs/INTEGRATIONS.md). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "analysis/health.h"
#include "util/error.h"
#include "util/strpool.h"
#include "util/util.h"

static StrPool *pool;
static int pool_setup(void **state) { (void)state; pool = strpool_new(); return 0; }
static int pool_teardown(void **state) { (void)state; strpool_free(pool); pool = NULL; return 0; }

static void parse(Node *n, const char *json)
{
    cJSON *j = cJSON_Parse(json);
    if (!j) fail_msg("bad test JSON: %s", json);
    Error e = { 0 };
    assert_int_equal(node_from_json(n, j, true, pool, &e), 0);
    cJSON_Delete(j);
}

#define GFD8 "\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\",\"nvidia.com/gpu.count\":\"8\"}"

static void test_nvsentinel_condition(void **state)
{
    (void)state;
    Node n;
    /* two faults in one condition (GPU 4 by XID 31 in the text, GPU 6 by a GpuXidError code), a
     * GPU index the node does not have (9), and one without a GPU */
    parse(&n, "{\"metadata\":{\"name\":\"a\"," GFD8 "},\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"8\"},"
              "\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"},"
              "{\"type\":\"GpuMemWatch\",\"status\":\"True\",\"reason\":\"GpuMemWatchIsNotHealthy\",\"message\":"
              "\"ErrorCode:DCGM_FR_XID_ERROR GPU:4 PCI:0000:c4:00.0 Detected XID 31 for GPU 4 Recommended Action=NONE;"
              "ErrorCode:DCGM_FR_X GPU:9 Recommended Action=NONE;ErrorCode:DCGM_FR_Y Recommended Action=NONE;\"},"
              "{\"type\":\"GpuXidError\",\"status\":\"True\",\"message\":\"ErrorCode:79 GPU:6 Recommended Action=RESTART_VM;\"}]}}");
    NodeInventory inv;
    inventory_node(&n, NULL, &inv);
    NodeHealth h;
    health_node(&n, &inv, NULL, &h);
    assert_int_equal(h.ngpus, 2);                       /* 4 and 6; 9 is not a GPU of an 8-GPU node */
    assert_int_equal(h.gpus[0].index, 4);
    assert_string_equal(h.gpus[0].why, "XID 31 (GpuMemWatch)");
    assert_int_equal(h.gpus[1].index, 6);
    assert_string_equal(h.gpus[1].why, "XID 79 (GpuXidError)");
    assert_int_equal(h.unhealthy_unnamed, 0);
    assert_int_equal(health_count(&h), 2);
    assert_int_equal(h.signals.n, 2);
    assert_non_null(health_gpu(&h, 6));
    assert_null(health_gpu(&h, 5));
    health_clear(&h);
    node_clear(&n);
}

static void test_plugin_shortfall_and_taint(void **state)
{
    (void)state;
    Node n;
    /* allocatable 5 of 8 and one GPU named by a condition: 3 unhealthy in all (1 named, 2 not),
     * as the plugin's count includes the named one; the NVSentinel taint marks the node;
     * nvidia.com/gpu=present is the GPU-node taint, not a health one */
    parse(&n, "{\"metadata\":{\"name\":\"b\"," GFD8 "},\"spec\":{\"taints\":["
              "{\"key\":\"nvidia.com/gpu-xid-error\",\"value\":\"true\",\"effect\":\"NoSchedule\"},"
              "{\"key\":\"nvidia.com/gpu\",\"value\":\"present\",\"effect\":\"NoSchedule\"}]},"
              "\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"8\"},\"allocatable\":{\"nvidia.com/gpu\":\"5\"},"
              "\"conditions\":[{\"type\":\"GpuXidError\",\"status\":\"True\",\"message\":\"ErrorCode:48 GPU:2;\"}]}}");
    NodeInventory inv;
    inventory_node(&n, NULL, &inv);
    NodeHealth h;
    health_node(&n, &inv, NULL, &h);
    assert_int_equal(h.ngpus, 1);
    assert_int_equal(h.unhealthy_unnamed, 2);
    assert_int_equal(health_count(&h), 3);
    assert_true(h.node_tainted);
    assert_true(health_taint(&n.taints[0]));
    assert_false(health_taint(&n.taints[1]));
    assert_int_equal(health_good_gpus(&n), 8 - 3);     /* the capacity a plan may count on */
    health_clear(&h);
    node_clear(&n);
}

static void test_dcgm_signals(void **state)
{
    (void)state;
    Node n;
    parse(&n, "{\"metadata\":{\"name\":\"c\"," GFD8 "},\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"8\"}}}");
    UsageData u;
    memset(&u, 0, sizeof u);
    u.source = xstrdup("prometheus");
    GpuUsage *g = xcalloc(3, sizeof *g);
    for (int i = 0; i < 3; i++) {
        g[i].node = usage_intern(&u, "c"); g[i].gpu = i; g[i].mig_instance = -1;
        g[i].mem_used_mib = g[i].mem_total_mib = g[i].util = g[i].util_max = NAN;
        g[i].temp_c = g[i].power_w = NAN;
    }
    g[0].xid = 79; g[0].ecc_dbe = 0;          /* XID 79: fallen off the bus */
    g[1].xid = 0; g[1].ecc_dbe = 3;           /* double-bit ECC */
    g[2].xid = NAN; g[2].ecc_dbe = NAN;       /* not served: healthy as far as DCGM says */
    u.gpus = g; u.ngpus = 3;
    usage_intern_done(&u);
    NodeInventory inv;
    inventory_node(&n, NULL, &inv);
    NodeHealth h;
    health_node(&n, &inv, &u, &h);
    assert_int_equal(h.ngpus, 2);
    assert_string_equal(h.gpus[0].why, "XID 79 (DCGM)");
    assert_string_equal(h.gpus[1].why, "3 double-bit ECC error(s) (DCGM)");
    health_clear(&h);
    usage_clear(&u);
    node_clear(&n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nvsentinel_condition), cmocka_unit_test(test_plugin_shortfall_and_taint),
        cmocka_unit_test(test_dcgm_signals),
    };
    return cmocka_run_group_tests(tests, pool_setup, pool_teardown);
}

/* Unit tests: model/dra.c and dra_cel.c — ResourceSlice/ResourceClaim/DeviceClass reduction
 * (v1 and v1beta1 shapes), pool generations, claims joined to devices, a GPU held whole or by
 * overlapping MIG memory slices, pods whose claims ask for GPUs, and the CEL selector forms.
 *
 * Device shapes follow NVIDIA's DRA driver (github.com/NVIDIA/k8s-dra-driver-gpu):
 * cmd/gpu-kubelet-plugin/deviceinfo.go GpuInfo.Attributes / GetDevice (type, uuid,
 * productName, ... ; capacity memory), mig.go CommonAttributesMig / CommonCapacitiesMig
 * (type mig, parentUUID, profile; multiprocessors, memory) and MigDeviceInfo.GetDevice
 * (memorySliceN capacities for the placement); device names gpu-<minor> and
 * gpu-<minor>-mig-<profile without dots>-<profile id>-<placement start> (mig.go ToCanonicalName).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "model/cluster.h"
#include "model/dra.h"
#include "util/error.h"

static int ingest(Cluster *c, ObjKind k, const char *json)
{
    cJSON *j = cJSON_Parse(json);
    if (!j) fail_msg("bad test JSON: %s", json);
    Error e = { 0 };
    int rc = cluster_ingest(c, k, j, &e);
    cJSON_Delete(j);
    return rc;
}

#define GPU_CLASS "{\"metadata\":{\"name\":\"gpu.nvidia.com\"},\"spec\":{\"selectors\":[{\"cel\":{\"expression\":" \
    "\"device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'\"}}]}}"
#define MIG_CLASS "{\"metadata\":{\"name\":\"mig.nvidia.com\"},\"spec\":{\"selectors\":[{\"cel\":{\"expression\":" \
    "\"device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'mig'\"}}]}}"

/* node n1: gpu-0 whole (A100 40GB), GPU 1 as two 3g.20gb MIG devices (slices 0-3, 4-7) and a
 * 7g.40gb (slices 0-7) the partitionable-devices mode also publishes */
static const char *slice_v1 =
    "{\"metadata\":{\"name\":\"n1-gpu.nvidia.com-abcde\"},\"spec\":{\"driver\":\"gpu.nvidia.com\",\"nodeName\":\"n1\","
    "\"pool\":{\"name\":\"n1\",\"generation\":3,\"resourceSliceCount\":1},\"devices\":["
    "{\"name\":\"gpu-0\",\"attributes\":{\"type\":{\"string\":\"gpu\"},\"uuid\":{\"string\":\"GPU-aaa\"},"
    "\"productName\":{\"string\":\"NVIDIA A100-SXM4-40GB\"},\"driverVersion\":{\"version\":\"570.124.6\"},"
    "\"resource.kubernetes.io/pciBusID\":{\"string\":\"0000:07:00.0\"}},\"capacity\":{\"memory\":{\"value\":\"40Gi\"}}},"
    "{\"name\":\"gpu-1-mig-3g20gb-9-0\",\"attributes\":{\"type\":{\"string\":\"mig\"},\"parentUUID\":{\"string\":\"GPU-bbb\"},"
    "\"uuid\":{\"string\":\"MIG-1\"},\"profile\":{\"string\":\"3g.20gb\"},\"productName\":{\"string\":\"NVIDIA A100-SXM4-40GB\"}},"
    "\"capacity\":{\"memory\":{\"value\":\"19968Mi\"},\"multiprocessors\":{\"value\":\"42\"},"
    "\"memorySlice0\":{\"value\":\"1\"},\"memorySlice1\":{\"value\":\"1\"},\"memorySlice2\":{\"value\":\"1\"},\"memorySlice3\":{\"value\":\"1\"}}},"
    "{\"name\":\"gpu-1-mig-3g20gb-9-4\",\"attributes\":{\"type\":{\"string\":\"mig\"},\"parentUUID\":{\"string\":\"GPU-bbb\"},"
    "\"uuid\":{\"string\":\"MIG-2\"},\"profile\":{\"string\":\"3g.20gb\"}},"
    "\"capacity\":{\"memory\":{\"value\":\"19968Mi\"},"
    "\"memorySlice4\":{\"value\":\"1\"},\"memorySlice5\":{\"value\":\"1\"},\"memorySlice6\":{\"value\":\"1\"},\"memorySlice7\":{\"value\":\"1\"}}},"
    "{\"name\":\"gpu-1-mig-7g40gb-0-0\",\"attributes\":{\"type\":{\"string\":\"mig\"},\"parentUUID\":{\"string\":\"GPU-bbb\"},"
    "\"profile\":{\"string\":\"7g.40gb\"}},\"capacity\":{\"memory\":{\"value\":\"40192Mi\"},"
    "\"memorySlice0\":{\"value\":\"1\"},\"memorySlice7\":{\"value\":\"1\"}}}]}}";

static const DraDevice *dev(const Cluster *c, const char *name)
{
    for (size_t i = 0; i < c->dra->ndevices; i++)
        if (!c->dra->devices[i].stale && str_eq(c->dra->devices[i].name, name)) return &c->dra->devices[i];
    fail_msg("no device %s", name);
    return NULL;
}

static void test_slice_reduction(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    assert_int_equal(ingest(&c, OBJ_RESOURCESLICE, slice_v1), 0);
    /* another driver's slice and a network-attached one are not GPUs of a node */
    assert_int_equal(ingest(&c, OBJ_RESOURCESLICE, "{\"metadata\":{\"name\":\"x\"},\"spec\":{\"driver\":\"dra.net\","
                                                   "\"nodeName\":\"n1\",\"devices\":[{\"name\":\"eth1\"}]}}"), 0);
    assert_int_equal(ingest(&c, OBJ_RESOURCESLICE, "{\"metadata\":{\"name\":\"y\"},\"spec\":{\"driver\":\"gpu.nvidia.com\","
                                                   "\"allNodes\":true,\"devices\":[{\"name\":\"gpu-9\"}]}}"), 0);
    assert_int_equal(ingest(&c, OBJ_RESOURCESLICE, "{\"spec\":{}}"), -1);      /* no name */
    cluster_finalize(&c);
    assert_int_equal(c.dra->ndevices, 4);
    const DraDevice *g = dev(&c, "gpu-0");
    assert_string_equal(g->type, "gpu");
    assert_string_equal(g->product, "NVIDIA A100-SXM4-40GB");
    assert_int_equal(g->memory_bytes, 40LL << 30);
    assert_string_equal(kv_get(&g->attrs, "gpu.nvidia.com/driverVersion"), "570.124.6");
    assert_string_equal(kv_get(&g->attrs, "resource.kubernetes.io/pciBusID"), "0000:07:00.0");   /* qualified: kept */
    const DraDevice *m = dev(&c, "gpu-1-mig-3g20gb-9-0");
    assert_string_equal(m->profile, "3g.20gb");
    assert_string_equal(dra_device_gpu_key(m), "GPU-bbb");
    assert_int_equal(m->memory_bytes, 19968LL << 20);
    cluster_release(&c);
}

/* the scheduler uses the newest generation of a pool only */
static void test_pool_generation(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    assert_int_equal(ingest(&c, OBJ_RESOURCESLICE, slice_v1), 0);
    assert_int_equal(ingest(&c, OBJ_RESOURCESLICE, "{\"metadata\":{\"name\":\"old\"},\"spec\":{\"driver\":\"gpu.nvidia.com\","
                                                   "\"nodeName\":\"n1\",\"pool\":{\"name\":\"n1\",\"generation\":2},"
                                                   "\"devices\":[{\"name\":\"gpu-5\"}]}}"), 0);
    cluster_finalize(&c);
    size_t live = 0;
    for (size_t i = 0; i < c.dra->ndevices; i++) live += !c.dra->devices[i].stale;
    assert_int_equal(live, 4);
    cluster_release(&c);
}

/* v1beta1 (Kubernetes 1.32): device fields under "basic", request fields on the request */
static void test_v1beta1_shapes(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    assert_int_equal(ingest(&c, OBJ_RESOURCESLICE,
        "{\"metadata\":{\"name\":\"s\"},\"spec\":{\"driver\":\"gpu.nvidia.com\",\"nodeName\":\"n2\","
        "\"pool\":{\"name\":\"n2\",\"generation\":1},\"devices\":[{\"name\":\"gpu-0\",\"basic\":{\"attributes\":"
        "{\"type\":{\"string\":\"gpu\"},\"uuid\":{\"string\":\"GPU-ccc\"},\"productName\":{\"string\":\"Tesla T4\"}},"
        "\"capacity\":{\"memory\":{\"value\":\"15360Mi\"}}}}]}}"), 0);
    assert_int_equal(ingest(&c, OBJ_RESOURCECLAIM,
        "{\"metadata\":{\"namespace\":\"a\",\"name\":\"cl\"},\"spec\":{\"devices\":{\"requests\":[{\"name\":\"g\","
        "\"deviceClassName\":\"gpu.nvidia.com\",\"allocationMode\":\"ExactCount\",\"count\":2}]}}}"), 0);
    cluster_finalize(&c);
    assert_string_equal(dev(&c, "gpu-0")->product, "Tesla T4");
    assert_int_equal(dev(&c, "gpu-0")->memory_bytes, 15360LL << 20);
    DraClaim *cl = dra_find_claim(c.dra, "a", "cl");
    assert_non_null(cl);
    assert_int_equal(cl->nrequests, 1);
    assert_string_equal(cl->requests[0].alts[0].device_class, "gpu.nvidia.com");
    assert_int_equal(cl->requests[0].alts[0].count, 2);
    assert_true(cl->gpu);                    /* NVIDIA's class name, even without the class object */
    cluster_release(&c);
}

static const char *claim_on(const char *name, const char *device, const char *pods)
{
    static char buf[1024];
    snprintf(buf, sizeof buf,
             "{\"metadata\":{\"namespace\":\"ml\",\"name\":\"%s\"},\"spec\":{\"devices\":{\"requests\":[{\"name\":\"r\","
             "\"exactly\":{\"deviceClassName\":\"mig.nvidia.com\",\"allocationMode\":\"ExactCount\",\"count\":1}}]}},"
             "\"status\":{\"allocation\":{\"devices\":{\"results\":[{\"request\":\"r\",\"driver\":\"gpu.nvidia.com\","
             "\"pool\":\"n1\",\"device\":\"%s\"}]}},\"reservedFor\":[%s]}}", name, device, pods);
    return buf;
}

static void test_allocation_and_busy(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    assert_int_equal(ingest(&c, OBJ_RESOURCESLICE, slice_v1), 0);
    assert_int_equal(ingest(&c, OBJ_DEVICECLASS, MIG_CLASS), 0);
    assert_int_equal(ingest(&c, OBJ_RESOURCECLAIM, claim_on("c1", "gpu-1-mig-3g20gb-9-0",
                                                            "{\"resource\":\"pods\",\"name\":\"p1\",\"uid\":\"u\"}")), 0);
    cluster_finalize(&c);
    const DraClaim *cl = dra_find_claim(c.dra, "ml", "c1");
    assert_true(cl->allocated && cl->gpu);
    assert_string_equal(cl->node, "n1");
    assert_int_equal(cl->reserved_for.n, 1);
    assert_string_equal(cl->reserved_for.v[0], "p1");
    /* held itself; the 7g.40gb shares memory slice 0 with it; the other 3g.20gb does not;
     * the whole GPU 0 is another GPU */
    assert_true(dra_device_busy(c.dra, dev(&c, "gpu-1-mig-3g20gb-9-0")));
    assert_true(dra_device_busy(c.dra, dev(&c, "gpu-1-mig-7g40gb-0-0")));
    assert_false(dra_device_busy(c.dra, dev(&c, "gpu-1-mig-3g20gb-9-4")));
    assert_false(dra_device_busy(c.dra, dev(&c, "gpu-0")));
    cluster_release(&c);
}

static void test_pod_claims(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    assert_int_equal(ingest(&c, OBJ_DEVICECLASS, GPU_CLASS), 0);
    assert_int_equal(ingest(&c, OBJ_DEVICECLASS, "{\"metadata\":{\"name\":\"nic\"},\"spec\":{\"selectors\":[{\"cel\":"
                                                 "{\"expression\":\"device.driver == 'dra.net'\"}}]}}"), 0);
    assert_int_equal(ingest(&c, OBJ_RESOURCECLAIMTEMPLATE,
        "{\"metadata\":{\"namespace\":\"ml\",\"name\":\"t\"},\"spec\":{\"spec\":{\"devices\":{\"requests\":[{\"name\":\"g\","
        "\"exactly\":{\"deviceClassName\":\"gpu.nvidia.com\"}}]}}}}"), 0);
    assert_int_equal(ingest(&c, OBJ_RESOURCECLAIM,
        "{\"metadata\":{\"namespace\":\"ml\",\"name\":\"nic-claim\"},\"spec\":{\"devices\":{\"requests\":[{\"name\":\"n\","
        "\"exactly\":{\"deviceClassName\":\"nic\"}}]}}}"), 0);
    /* a pod whose claim is still to be made from the template (kept although it requests no GPU) */
    assert_int_equal(ingest(&c, OBJ_POD,
        "{\"metadata\":{\"namespace\":\"ml\",\"name\":\"p\"},\"spec\":{\"containers\":[{\"name\":\"c\"}],"
        "\"resourceClaims\":[{\"name\":\"gpu\",\"resourceClaimTemplateName\":\"t\"}]},\"status\":{\"phase\":\"Pending\"}}"), 0);
    assert_int_equal(ingest(&c, OBJ_POD,
        "{\"metadata\":{\"namespace\":\"ml\",\"name\":\"q\"},\"spec\":{\"containers\":[{\"name\":\"c\"}],"
        "\"resourceClaims\":[{\"name\":\"net\",\"resourceClaimName\":\"nic-claim\"}]},\"status\":{\"phase\":\"Pending\"}}"), 0);
    assert_int_equal(ingest(&c, OBJ_POD,
        "{\"metadata\":{\"namespace\":\"ml\",\"name\":\"r\"},\"spec\":{\"containers\":[{\"name\":\"c\"}],"
        "\"resourceClaims\":[{\"name\":\"gpu\",\"resourceClaimTemplateName\":\"t\"}]},\"status\":{\"phase\":\"Pending\","
        "\"resourceClaimStatuses\":[{\"name\":\"gpu\",\"resourceClaimName\":\"r-gpu-x1\"}]}}"), 0);
    cluster_finalize(&c);
    const Pod *p = cluster_find_pod(&c, "ml", "p"), *q = cluster_find_pod(&c, "ml", "q"), *r = cluster_find_pod(&c, "ml", "r");
    assert_non_null(p); assert_non_null(q); assert_non_null(r);
    assert_true(dra_pod_wants_gpu(c.dra, p));
    assert_false(dra_pod_wants_gpu(c.dra, q));     /* a NIC */
    assert_string_equal(r->claims[0].claim, "r-gpu-x1");
    assert_false(dra_pod_wants_gpu(c.dra, r));     /* its claim is not there to say */
    cluster_release(&c);
}

static void test_cel(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    assert_int_equal(ingest(&c, OBJ_RESOURCESLICE, slice_v1), 0);
    cluster_finalize(&c);
    const DraDevice *g = dev(&c, "gpu-0"), *m = dev(&c, "gpu-1-mig-3g20gb-9-0");
    static const struct { const char *expr; DraMatch on_gpu, on_mig; } cases[] = {
        { "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'", DRA_MATCH_YES, DRA_MATCH_NO },
        { "device.driver == \"gpu.nvidia.com\" && device.attributes[\"gpu.nvidia.com\"].type == \"mig\"", DRA_MATCH_NO, DRA_MATCH_YES },
        { "device.attributes['gpu.nvidia.com'].productName == 'NVIDIA A100-SXM4-40GB'", DRA_MATCH_YES, DRA_MATCH_YES },
        { "device.attributes['gpu.nvidia.com'].productName.startsWith('NVIDIA H100')", DRA_MATCH_NO, DRA_MATCH_NO },
        { "device.attributes['gpu.nvidia.com'].profile != '1g.5gb'", DRA_MATCH_NO, DRA_MATCH_YES },   /* absent: no */
        { "device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('20Gi')) >= 0", DRA_MATCH_YES, DRA_MATCH_NO },
        { "device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('19968Mi')) == 0", DRA_MATCH_NO, DRA_MATCH_YES },
        { "(device.driver == 'gpu.nvidia.com')", DRA_MATCH_YES, DRA_MATCH_YES },
        { "device.attributes['gpu.nvidia.com'].type == 'gpu' || device.attributes['gpu.nvidia.com'].type == 'mig'",
          DRA_MATCH_UNKNOWN, DRA_MATCH_UNKNOWN },
        { "device.attributes['gpu.nvidia.com'].driverVersion.isGreaterThan(semver('550.0.0'))", DRA_MATCH_UNKNOWN, DRA_MATCH_UNKNOWN },
        /* false && (a form not read) is false */
        { "device.driver == 'other' && size(device.attributes) > 2", DRA_MATCH_NO, DRA_MATCH_NO },
        { "device.driver == 'gpu.nvidia.com' && 'x' in device.attributes", DRA_MATCH_UNKNOWN, DRA_MATCH_UNKNOWN },
        { "device.attributes['gpu.nvidia.com'].type == 'gpu", DRA_MATCH_UNKNOWN, DRA_MATCH_UNKNOWN },   /* unterminated */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (dra_cel_match(g, cases[i].expr) != cases[i].on_gpu) fail_msg("gpu: %s", cases[i].expr);
        if (dra_cel_match(m, cases[i].expr) != cases[i].on_mig) fail_msg("mig: %s", cases[i].expr);
    }
    cluster_release(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slice_reduction), cmocka_unit_test(test_pool_generation),
        cmocka_unit_test(test_v1beta1_shapes), cmocka_unit_test(test_allocation_and_busy),
        cmocka_unit_test(test_pod_claims), cmocka_unit_test(test_cel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

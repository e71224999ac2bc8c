/* Unit tests: ResourceList operations, JSON parsing, GPU resource names. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "model/resources.h"

static void test_set_add_get(void **state)
{
    (void)state;
    ResourceList l = RESOURCE_LIST_INIT;
    assert_int_equal(rlist_get(&l, "cpu"), 0);
    assert_false(rlist_has(&l, "cpu"));
    rlist_set(&l, "cpu", 500);
    rlist_add(&l, "cpu", 1500);
    rlist_add(&l, "nvidia.com/gpu", 2000);
    assert_int_equal(rlist_get(&l, "cpu"), 2000);
    assert_int_equal(rlist_get(&l, "nvidia.com/gpu"), 2000);
    assert_int_equal(l.n, 2);
    rlist_set(&l, "cpu", 7);
    assert_int_equal(rlist_get(&l, "cpu"), 7);
    rlist_add(&l, "big", INT64_MAX);
    rlist_add(&l, "big", INT64_MAX);                     /* saturates, no UB */
    assert_int_equal(rlist_get(&l, "big"), INT64_MAX);
    rlist_clear(&l);
    assert_int_equal(l.n, 0);
    assert_null(l.items);
}

static void test_max_sum_copy_sort(void **state)
{
    (void)state;
    ResourceList a = RESOURCE_LIST_INIT, b = RESOURCE_LIST_INIT, c = RESOURCE_LIST_INIT;
    rlist_set(&a, "cpu", 1000); rlist_set(&a, "memory", 50);
    rlist_set(&b, "cpu", 3000); rlist_set(&b, "memory", 10); rlist_set(&b, "nvidia.com/gpu", 4000);
    rlist_copy(&c, &a);
    rlist_max_into(&a, &b);
    assert_int_equal(rlist_get(&a, "cpu"), 3000);
    assert_int_equal(rlist_get(&a, "memory"), 50);
    assert_int_equal(rlist_get(&a, "nvidia.com/gpu"), 4000);
    rlist_add_all(&c, &b);
    assert_int_equal(rlist_get(&c, "cpu"), 4000);
    assert_int_equal(rlist_get(&c, "memory"), 60);
    assert_int_equal(rlist_get(&c, "nvidia.com/gpu"), 4000);
    rlist_copy(&c, &b);                                  /* cleared first */
    assert_int_equal(rlist_get(&c, "cpu"), 3000);
    assert_int_equal(c.n, 3);
    rlist_set(&c, "amd.com/gpu", 1);
    rlist_sort(&c);
    assert_string_equal(c.items[0].name, "amd.com/gpu");
    assert_string_equal(c.items[1].name, "cpu");
    assert_string_equal(c.items[2].name, "memory");
    assert_string_equal(c.items[3].name, "nvidia.com/gpu");
    rlist_clear(&a); rlist_clear(&b); rlist_clear(&c);
}

static void test_from_json(void **state)
{
    (void)state;
    cJSON *j = cJSON_Parse("{\"cpu\":\"500m\",\"memory\":\"16Gi\",\"nvidia.com/gpu\":\"1\","
                           "\"pods\":110,\"frac\":0.1,\"bad\":\"5Gii\",\"obj\":{},\"nul\":null}");
    ResourceList l = RESOURCE_LIST_INIT;
    const char *bad = NULL;
    assert_int_equal(rlist_from_json(&l, j, &bad), 5);
    assert_string_equal(bad, "bad");
    assert_int_equal(rlist_get(&l, "cpu"), 500);
    assert_int_equal(rlist_get(&l, "memory"), 16LL * 1073741824 * 1000);
    assert_int_equal(rlist_get(&l, "nvidia.com/gpu"), 1000);
    assert_int_equal(rlist_get(&l, "pods"), 110000);     /* bare JSON number accepted */
    assert_int_equal(rlist_get(&l, "frac"), 100);
    assert_false(rlist_has(&l, "bad"));
    assert_false(rlist_has(&l, "obj"));
    rlist_clear(&l);
    cJSON_Delete(j);
    /* not an object: nothing, no crash */
    j = cJSON_Parse("[\"1\"]");
    assert_int_equal(rlist_from_json(&l, j, &bad), 0);
    assert_null(bad);
    assert_int_equal(rlist_from_json(&l, NULL, NULL), 0);
    cJSON_Delete(j);
}

/* requests defaulted from limits (pod.c resources_requests, after the API server's
 * SetDefaults_Pod): a limit counts only where the first `given` entries do not name it; a
 * repeated name in the JSON keeps its first place and its last value, as rlist_from_json does */
static void test_default_from_json(void **state)
{
    (void)state;
    ResourceList l = RESOURCE_LIST_INIT;
    rlist_set(&l, "cpu", 250);
    rlist_set(&l, "memory", 1000);
    cJSON *j = cJSON_Parse("{\"cpu\":\"2\",\"nvidia.com/gpu\":\"1\",\"bad\":\"x\",\"neg\":\"-1\","
                           "\"memory\":\"5\",\"ephemeral-storage\":\"1\",\"nvidia.com/gpu\":\"2\"}");
    assert_int_equal(rlist_default_from_json(&l, j, 1), 4);   /* gpu twice, memory, storage */
    assert_int_equal(l.n, 4);
    assert_int_equal(rlist_get(&l, "cpu"), 250);               /* given: the limit does not count */
    assert_int_equal(rlist_get(&l, "memory"), 5000);           /* not among the given one: set */
    assert_string_equal(l.items[2].name, "nvidia.com/gpu");    /* first place ... */
    assert_int_equal(l.items[2].milli, 2000);                  /* ... last value */
    assert_string_equal(l.items[3].name, "ephemeral-storage");
    assert_false(rlist_has(&l, "bad"));
    assert_false(rlist_has(&l, "neg"));
    /* given above the count is the count; not an object adds nothing */
    assert_int_equal(rlist_default_from_json(&l, j, 99), 0);
    assert_int_equal(rlist_default_from_json(&l, NULL, 0), 0);
    rlist_clear(&l);
    cJSON_Delete(j);
}

static void test_gpu_names(void **state)
{
    (void)state;
    const char *gpu[] = { "nvidia.com/gpu", "nvidia.com/gpu.shared", "nvidia.com/mig-1g.10gb",
                          "nvidia.com/mig-3g.40gb.shared", "nvidia.com/mig-1g.10gb.me", "amd.com/gpu",
                          "gpu.intel.com/i915", "gpu.intel.com/xe" };
    const char *not_gpu[] = { "cpu", "memory", "pods", "hugepages-2Mi", "ephemeral-storage",
                              "habana.ai/gaudi", "nvidia.com/mig-", "nvidia.com/gpus",
                              "gpu.intel.com/millicores", "example.com/gpu", "nvidia.com/gpu.sharedx" };
    for (size_t i = 0; i < sizeof gpu / sizeof *gpu; i++)
        if (!resources_is_gpu(gpu[i])) fail_msg("%s should be a GPU", gpu[i]);
    for (size_t i = 0; i < sizeof not_gpu / sizeof *not_gpu; i++)
        if (resources_is_gpu(not_gpu[i])) fail_msg("%s should not be a GPU", not_gpu[i]);
    assert_false(resources_is_gpu(NULL));
    assert_true(resources_is_mig("nvidia.com/mig-2g.20gb"));
    assert_false(resources_is_mig("nvidia.com/gpu"));
    assert_true(resources_is_shared("nvidia.com/gpu.shared"));
    assert_false(resources_is_shared("nvidia.com/gpu"));
    char *p = resources_mig_profile("nvidia.com/mig-2g.20gb");
    assert_string_equal(p, "2g.20gb"); free(p);
    p = resources_mig_profile("nvidia.com/mig-1g.10gb.me.shared");
    assert_string_equal(p, "1g.10gb.me"); free(p);
    assert_null(resources_mig_profile("nvidia.com/gpu"));

    ResourceList l = RESOURCE_LIST_INIT;
    rlist_set(&l, "cpu", 1000);
    rlist_set(&l, "nvidia.com/gpu", 0);
    assert_false(rlist_has_gpu(&l));                     /* zero does not count */
    rlist_set(&l, "nvidia.com/mig-1g.10gb", 1000);
    assert_true(rlist_has_gpu(&l));
    rlist_clear(&l);
}

/* The common names are the binary's copy (resources.h): an entry equal to one holds it, whatever
 * copy it was added from, and is found by any copy; other names, including near misses, are the
 * list's own.  rlist_clear frees only those (ASan would report freeing a static name). */
static void test_static_names(void **state)
{
    (void)state;
    static const char *const common[] = { "cpu", "memory", "pods", "ephemeral-storage", "nvidia.com/gpu",
                                          "nvidia.com/gpu.shared", "amd.com/gpu", "hugepages-2Mi", "hugepages-1Gi" };
    static const char *const other[] = { "", "c", "h", "n", "hugepages-", "hugepages-2Gi", "hugepages-1Mi",
                                         "nvidia.com/gp", "nvidia.com/gpux", "nvidia.com/gpu.share",
                                         "nvidia.com/mig-1g.10gb", "cpus", "memory2", "example.com/foo",
                                         "amd.com/gpu.shared", "pod", "ephemeral" };
    ResourceList l = RESOURCE_LIST_INIT, m = RESOURCE_LIST_INIT;
    for (size_t i = 0; i < sizeof common / sizeof common[0]; i++) {
        char *heap = strdup(common[i]);
        rlist_add(&l, heap, (int64_t)i + 1);
        free(heap);                                    /* the entry does not hold this copy */
        assert_true(resources_name_static(l.items[l.n - 1].name));
        assert_string_equal(l.items[l.n - 1].name, common[i]);
    }
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        char *heap = strdup(other[i]);
        rlist_add(&l, heap, 100);
        assert_false(resources_name_static(l.items[l.n - 1].name));
        assert_ptr_not_equal(l.items[l.n - 1].name, heap);     /* its own copy */
        free(heap);
        assert_string_equal(l.items[l.n - 1].name, other[i]);
    }
    assert_int_equal(l.n, sizeof common / sizeof common[0] + sizeof other / sizeof other[0]);
    /* found by a static pointer (another list's entry) and by any other copy */
    rlist_add_all(&m, &l);
    rlist_add_all(&m, &l);
    assert_int_equal(m.n, l.n);
    for (size_t i = 0; i < l.n; i++) {
        char *heap = strdup(l.items[i].name);
        assert_int_equal(rlist_get(&m, heap), 2 * l.items[i].milli);
        assert_int_equal(rlist_get(&m, l.items[i].name), 2 * l.items[i].milli);
        free(heap);
    }
    assert_int_equal(rlist_get(&m, "hugepages-2Mi"), 2 * 8);
    assert_int_equal(rlist_get(&m, "nvidia.com/gpu.shared"), 2 * 6);
    assert_false(rlist_has(&m, "nvidia.com/gpu.sharedx"));
    rlist_copy(&l, &m);
    assert_int_equal(rlist_get(&l, "cpu"), 2);
    rlist_clear(&l);
    rlist_clear(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_set_add_get), cmocka_unit_test(test_max_sum_copy_sort),
        cmocka_unit_test(test_from_json), cmocka_unit_test(test_gpu_names),
        cmocka_unit_test(test_default_from_json), cmocka_unit_test(test_static_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_usage_workloads.c — DCGM usage folded per workload (model/usage_workloads.h): the keyed
 * table, the largest-of fold with NAN as unknown, and one container's devices folded into one
 * record (the graphics engine's activity before GPU_UTIL, GPU_UTIL ignored on a MIG instance). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/usage_workloads.h"

static void test_keys(void **state)
{
    (void)state;
    UsageKeys k;
    usage_keys_init(&k);
    bool made;
    assert_int_equal(usage_keys_at(&k, "ns", "a", NULL, NULL, &made), 0);
    assert_true(made);
    assert_int_equal(usage_keys_at(&k, "ns", "b", NULL, NULL, &made), 1);
    assert_true(made);
    assert_int_equal(usage_keys_at(&k, "ns", "a", NULL, NULL, &made), 0);   /* the same key again */
    assert_false(made);
    /* NULL reads as "": the same key as "" */
    assert_int_equal(usage_keys_at(&k, NULL, "a", "", NULL, &made), 2);
    assert_int_equal(usage_keys_at(&k, "", "a", NULL, "", &made), 2);
    assert_false(made);
    /* the parts stay apart: ("ns", "ab") is not ("nsa", "b") */
    assert_int_equal(usage_keys_at(&k, "ns", "ab", NULL, NULL, &made), 3);
    assert_int_equal(usage_keys_at(&k, "nsa", "b", NULL, NULL, &made), 4);
    usage_keys_release(&k);
}

/* many keys (the table grows from 16 slots many times), keys of every length around the
 * eight-byte steps of the hash and past the 512-byte stack buffer: each keeps the index it
 * was given, in the order of first sight */
static void test_keys_many(void **state)
{
    (void)state;
    UsageKeys k;
    usage_keys_init(&k);
    bool made;
    char pod[32], big[1200];
    for (int i = 0; i < 20000; i++) {
        snprintf(pod, sizeof pod, "pod-%d", i);
        assert_int_equal(usage_keys_at(&k, "ns", pod, "c", i % 2 ? "dev" : NULL, &made), (size_t)i);
        assert_true(made);
    }
    size_t n = 20000;
    for (size_t len = 0; len < sizeof big - 1; len += len < 40 ? 1 : 97) {
        memset(big, 'x', len);
        big[len] = '\0';
        assert_int_equal(usage_keys_at(&k, big, NULL, NULL, NULL, &made), n);
        assert_true(made);
        n++;
    }
    for (int i = 19999; i >= 0; i--) {
        snprintf(pod, sizeof pod, "pod-%d", i);
        assert_int_equal(usage_keys_at(&k, "ns", pod, "c", i % 2 ? "dev" : NULL, &made), (size_t)i);
        assert_false(made);
        /* the same pod with the other device is another key */
        assert_int_equal(usage_keys_at(&k, "ns", pod, "c", i % 2 ? NULL : "dev", &made), n);
        assert_true(made);
        n++;
    }
    size_t m = 20000;
    for (size_t len = 0; len < sizeof big - 1; len += len < 40 ? 1 : 97) {
        memset(big, 'x', len);
        big[len] = '\0';
        assert_int_equal(usage_keys_at(&k, big, NULL, NULL, NULL, &made), m++);
        assert_false(made);
    }
    usage_keys_release(&k);
}

static void test_fold(void **state)
{
    (void)state;
    assert_true(isnan(usage_max_nan(NAN, NAN)));
    assert_true(usage_max_nan(NAN, 3) == 3);
    assert_true(usage_max_nan(5, NAN) == 5);
    assert_true(usage_max_nan(2, 7) == 7);
    WorkloadUsage into = { 0 }, a = { 0 }, b = { 0 };
    workload_usage_stats_init(&into);
    workload_usage_stats_init(&a);
    workload_usage_stats_init(&b);
    a.mem_pct_mib = 100; a.util_pct = 40; a.samples = 30; a.devices = 2;
    b.mem_pct_mib = 250; b.mem_peak_mib = 300; b.samples = 10;       /* devices 0: one */
    workload_usage_fold(&into, &a);
    workload_usage_fold(&into, &b);
    assert_true(into.mem_pct_mib == 250);    /* max(100, 250) */
    assert_true(into.mem_peak_mib == 300);   /* a's unknown loses */
    assert_true(into.util_pct == 40);        /* b's unknown loses */
    assert_true(isnan(into.util_peak));      /* unknown in both */
    assert_true(into.samples == 30);         /* the most, not the sum */
    assert_int_equal(into.devices, 3);       /* 2 + 1 */
}

static void test_devices(void **state)
{
    (void)state;
    UsageWlDevices t;
    usage_wl_devices_init(&t);
    /* ns1/p/c on two whole GPUs: g0 reports the graphics engine (fractions), g1 only GPU_UTIL */
    usage_wl_devices_add(&t, "ns1", "p", "c", "n\x1fg0", -1, USAGE_WL_GR_PCT, 0.5);
    usage_wl_devices_add(&t, "ns1", "p", "c", "n\x1fg0", -1, USAGE_WL_UTIL_PCT, 90);   /* loses to GR */
    usage_wl_devices_add(&t, "ns1", "p", "c", "n\x1fg0", -1, USAGE_WL_MEM_PCT, 1000);
    usage_wl_devices_add(&t, "ns1", "p", "c", "n\x1fg0", -1, USAGE_WL_SAMPLES, 60);
    usage_wl_devices_add(&t, "ns1", "p", "c", "n\x1fg1", -1, USAGE_WL_UTIL_PCT, 30);
    usage_wl_devices_add(&t, "ns1", "p", "c", "n\x1fg1", -1, USAGE_WL_UTIL_MAX, 80);
    usage_wl_devices_add(&t, "ns1", "p", "c", "n\x1fg1", -1, USAGE_WL_MEM_PCT, 2000);
    usage_wl_devices_add(&t, "ns1", "p", "c", "n\x1fg1", -1, USAGE_WL_SAMPLES, 45);
    /* ns0/q on a MIG instance: GPU_UTIL means nothing there */
    usage_wl_devices_add(&t, "ns0", "q", NULL, "n\x1fg2\x1f" "3", 3, USAGE_WL_UTIL_PCT, 70);
    usage_wl_devices_add(&t, "ns0", "q", NULL, "n\x1fg2\x1f" "3", 3, USAGE_WL_MEM_MAX, 512);
    assert_int_equal(t.n, 3);
    WorkloadUsage *w;
    size_t n;
    usage_wl_devices_fold(&t, &w, &n);
    usage_wl_devices_release(&t);
    assert_int_equal(n, 2);
    /* sorted by namespace: ns0 first */
    assert_string_equal(w[0].ns, "ns0");
    assert_string_equal(w[0].pod, "q");
    assert_null(w[0].container);
    assert_true(isnan(w[0].util_pct));
    assert_true(isnan(w[0].mem_pct_mib));
    assert_true(w[0].mem_peak_mib == 512);
    assert_int_equal(w[0].devices, 1);
    assert_string_equal(w[1].container, "c");
    assert_int_equal(w[1].devices, 2);
    assert_true(w[1].util_pct == 50);        /* max(0.5 * 100 from GR on g0, 30 on g1) */
    assert_true(w[1].util_peak == 80);       /* g0 has GR but no GR max: unknown; g1's 80 */
    assert_true(w[1].mem_pct_mib == 2000);   /* per device, the largest, not 3000 */
    assert_true(w[1].samples == 60);
    workload_usage_free(w, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_keys), cmocka_unit_test(test_keys_many), cmocka_unit_test(test_fold),
                                        cmocka_unit_test(test_devices) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

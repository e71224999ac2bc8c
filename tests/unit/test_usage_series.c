/* test_usage_series.c — the usage series' joins (model/usage.h): a device's rows, how long a
 * device and a pod have been idle, moving series to a refreshed UsageData and sharing them
 * and the pool of interned strings between copies (top). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/usage.h"

static GpuUsage rec(const char *node, int gpu, int gi, const char *uuid, const char *ns, const char *pod, int series)
{
    GpuUsage u;
    memset(&u, 0, sizeof u);
    u.node = xstrdup(node);
    u.gpu = gpu;
    u.mig_instance = gi;
    u.uuid = uuid ? xstrdup(uuid) : NULL;
    u.ns = ns ? xstrdup(ns) : NULL;
    u.pod = pod ? xstrdup(pod) : NULL;
    u.mem_used_mib = u.mem_total_mib = u.util = u.util_max = NAN;
    u.series = series;
    return u;
}

/* two devices of 4 points, step 60: n1/0 idle for the last 2 points (a gap before), n1/1 busy */
static void fill(UsageData *d)
{
    memset(d, 0, sizeof *d);
    d->idle_threshold = 5;
    d->series_points = 4;
    d->nseries = 2;
    d->series_step = 60;
    d->series_util = xcalloc(8, sizeof(float));
    d->series_mem = xcalloc(8, sizeof(float));
    const float u[8] = { 1, NAN, 4.9f, 0, 50, 60, 70, 80 };
    memcpy(d->series_util, u, sizeof u);
    d->ngpus = 2;
    d->gpus = xcalloc(2, sizeof *d->gpus);
    d->gpus[0] = rec("n1", 0, -1, "GPU-a", "ml", "p", 1);
    d->gpus[1] = rec("n1", 1, -1, "GPU-b", "ml", "q", 2);
    d->npods = 3;
    d->pods = xcalloc(3, sizeof *d->pods);
    d->pods[0] = rec("n1", 0, -1, "GPU-a", "ml", "p", 1);
    d->pods[1] = rec("n1", 1, -1, "GPU-b", "ml", "q", 2);
    d->pods[2] = rec("n1", 1, -1, "GPU-b", "ml", "p", 2);
}

static void test_idle_for(void **state)
{
    (void)state;
    UsageData d;
    fill(&d);
    assert_true(usage_idle_for(&d, &d.gpus[0]) == 120);      /* 4.9 and 0; NAN ends the run */
    assert_true(usage_idle_for(&d, &d.gpus[1]) == 0);
    GpuUsage none = rec("n9", 0, -1, NULL, NULL, NULL, 0);
    assert_true(isnan(usage_idle_for(&d, &none)));
    assert_null(usage_util_series(&d, &none));
    assert_ptr_equal(usage_mem_series(&d, &d.gpus[1]), d.series_mem + 4);
    /* a pod: the shortest over its devices (p holds an idle and a busy one) */
    assert_true(usage_pod_idle_for(&d, "ml", "p") == 0);
    assert_true(usage_pod_idle_for(&d, "ml", "q") == 0);
    assert_true(isnan(usage_pod_idle_for(&d, "ml", "zzz")));
    d.series_util[7] = 1;                                      /* n1/1's last point goes idle */
    assert_true(usage_pod_idle_for(&d, "ml", "p") == 60);
    /* the newest interval empty (scrape not in yet): left out, the run before it counts */
    d.series_util[3] = NAN;
    assert_true(usage_idle_for(&d, &d.gpus[0]) == 60);
    d.series_util[2] = NAN;                                    /* two empty: the 1 at point 0 */
    assert_true(usage_idle_for(&d, &d.gpus[0]) == 0);         /* point 1 (NAN) ends the run */
    d.series_util[1] = NAN;
    assert_true(usage_idle_for(&d, &d.gpus[0]) == 0);         /* at most two are left out */
    free(none.node);
    usage_clear(&d);
}

static void test_take_series(void **state)
{
    (void)state;
    UsageData src, dst;
    fill(&src);
    src.nheld = 1;
    src.held = xcalloc(1, sizeof *src.held);
    src.held[0] = (UsageHeld){ .node = xstrdup("n1"), .ns = xstrdup("ml"), .pod = xstrdup("gone"), .held_s = 60,
                               .idle_s = 0, .share_s = 30, .idle_share_s = 0, .mig_instance = -1 };
    /* the refresh: the devices in another order, one new, no series */
    memset(&dst, 0, sizeof dst);
    dst.ngpus = 3;
    dst.gpus = xcalloc(3, sizeof *dst.gpus);
    dst.gpus[0] = rec("n1", 1, -1, "GPU-b", NULL, NULL, 0);
    dst.gpus[1] = rec("n2", 0, -1, "GPU-c", NULL, NULL, 0);
    dst.gpus[2] = rec("n1", 0, -1, "GPU-a", NULL, NULL, 0);
    dst.npods = 1;
    dst.pods = xcalloc(1, sizeof *dst.pods);
    dst.pods[0] = rec("n1", 0, -1, "GPU-a", "ml", "p", 0);
    usage_take_series(&dst, &src);
    assert_int_equal(dst.nseries, 2);
    assert_int_equal(dst.series_points, 4);
    assert_int_equal(dst.gpus[0].series, 2);
    assert_int_equal(dst.gpus[1].series, 0);
    assert_int_equal(dst.gpus[2].series, 1);
    assert_int_equal(dst.pods[0].series, 1);
    assert_true(usage_util_series(&dst, &dst.gpus[0])[0] == 50);
    assert_int_equal(src.nseries, 0);
    assert_int_equal(src.gpus[0].series, 0);
    assert_int_equal(dst.nheld, 1);
    assert_string_equal(dst.held[0].pod, "gone");
    usage_clear(&src);                                          /* dst's copies outlive it */
    assert_string_equal(dst.held[0].node, "n1");
    usage_clear(&dst);
}

/* copies share the series (never changed once filled): each copy outlives the others */
static void test_copy_shares(void **state)
{
    (void)state;
    UsageData a, b, c, r;
    fill(&a);
    usage_copy(&b, &a);
    assert_ptr_equal(b.series_util, a.series_util);
    assert_int_equal(b.nseries, 2);
    usage_clear(&a);
    assert_true(usage_util_series(&b, &b.gpus[0])[2] == 4.9f);
    usage_copy(&c, &b);
    /* a refresh takes c's series over (as top does), then c and b go */
    memset(&r, 0, sizeof r);
    r.ngpus = 1;
    r.gpus = xcalloc(1, sizeof *r.gpus);
    r.gpus[0] = rec("n1", 1, -1, "GPU-b", NULL, NULL, 0);
    usage_take_series(&r, &c);
    assert_null(usage_util_series(&c, &c.gpus[0]));          /* c has none now */
    assert_true(usage_util_series(&b, &b.gpus[0])[2] == 4.9f);  /* the records c shares: unchanged */
    usage_clear(&c);
    usage_clear(&b);
    assert_true(usage_util_series(&r, &r.gpus[0])[3] == 80);
    usage_clear(&r);
}

/* copies share the records and the pool of interned strings (read-only from then on), own
 * strings and pooled ones alike; each copy outlives the others (ASan: no use after free, no
 * double free, no leak) */
static void test_copy_shares_strings(void **state)
{
    (void)state;
    UsageData a, b, c;
    memset(&a, 0, sizeof a);
    a.ngpus = 2;
    a.gpus = xcalloc(2, sizeof *a.gpus);
    for (int i = 0; i < 2; i++) {
        a.gpus[i].node = usage_intern(&a, "gpu-node-1");
        a.gpus[i].uuid = usage_intern(&a, i ? "GPU-b" : "GPU-a");
        a.gpus[i].gpu = i;
        a.gpus[i].mig_instance = -1;
    }
    a.gpus[1].pod = xstrdup("own-string");               /* a field's own malloc'd string */
    a.nheld = 1;
    a.held = xcalloc(1, sizeof *a.held);
    a.held[0] = (UsageHeld){ .node = usage_intern(&a, "gpu-node-1"), .pod = usage_intern(&a, "p"),
                             .mig_instance = -1 };
    usage_intern_done(&a);
    usage_copy(&b, &a);
    assert_ptr_equal(b.gpus, a.gpus);                     /* shared, not copied */
    assert_ptr_equal(b.held, a.held);
    assert_int_equal(b.ngpus, 2);
    assert_int_equal(b.nheld, 1);
    assert_ptr_equal(b.gpus[0].node, a.gpus[0].node);
    /* a shared pool is not written: interning gives an own copy */
    char *x = usage_intern(&b, "gpu-node-1");
    assert_ptr_not_equal(x, a.gpus[0].node);
    free(x);
    usage_clear(&a);
    assert_string_equal(b.gpus[1].uuid, "GPU-b");
    assert_string_equal(b.gpus[1].pod, "own-string");
    usage_copy(&c, &b);
    usage_clear(&b);
    assert_string_equal(c.gpus[0].node, "gpu-node-1");
    assert_string_equal(c.held[0].node, "gpu-node-1");
    assert_string_equal(c.gpus[1].pod, "own-string");
    size_t n = usage_node_gpus(&c, "gpu-node-1", NULL, 0);
    assert_int_equal(n, 2);
    usage_clear(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_idle_for), cmocka_unit_test(test_take_series),
                                        cmocka_unit_test(test_copy_shares),
                                        cmocka_unit_test(test_copy_shares_strings) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

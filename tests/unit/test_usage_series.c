/* test_usage_series.c — the usage series' joins (model/usage.h): a device's rows, how long a
 * device and a pod have been idle, moving series to a refreshed UsageData and sharing them
 * and the pool of interned strings between copies (top); the points' 16-bit storage
 * (usage_series.c): what reads back, and the idle threshold's side kept. */
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
    usage_series_resize(d, 2);
    const float u[8] = { 1, NAN, 4.9f, 0, 50, 60, 70, 80 }, m[8] = { 0, 1000, 2000, 3000, 4000, 5000, 6000, 7000 };
    for (size_t r = 0; r < 2; r++) {
        usage_series_put_row(d, USAGE_SERIES_UTIL, r, u + 4 * r);
        usage_series_put_row(d, USAGE_SERIES_MEM, r, m + 4 * r);
    }
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
    float v[USAGE_SERIES_MAX];
    v[0] = -1;
    assert_false(usage_util_series(&d, &none, v));
    assert_true(v[0] == -1);                                  /* untouched */
    assert_true(usage_mem_series(&d, &d.gpus[1], v));         /* row 2: points 4-7 */
    assert_true(v[0] == 4000 && v[3] == 7000);
    assert_true(usage_util_series(&d, &d.gpus[0], v));
    assert_true(v[0] == 1 && isnan(v[1]) && v[2] == 4.9f && v[3] == 0);
    /* a pod: the shortest over its devices (p holds an idle and a busy one) */
    assert_true(usage_pod_idle_for(&d, "ml", "p") == 0);
    assert_true(usage_pod_idle_for(&d, "ml", "q") == 0);
    assert_true(isnan(usage_pod_idle_for(&d, "ml", "zzz")));
    const float busy_then_idle[4] = { 50, 60, 70, 1 };         /* n1/1's last point goes idle */
    usage_series_put_row(&d, USAGE_SERIES_UTIL, 1, busy_then_idle);
    assert_true(usage_pod_idle_for(&d, "ml", "p") == 60);
    /* the newest interval empty (scrape not in yet): left out, the run before it counts */
    float r0[4] = { 1, NAN, 4.9f, NAN };
    usage_series_put_row(&d, USAGE_SERIES_UTIL, 0, r0);
    assert_true(usage_idle_for(&d, &d.gpus[0]) == 60);
    r0[2] = NAN;                                               /* two empty: the 1 at point 0 */
    usage_series_put_row(&d, USAGE_SERIES_UTIL, 0, r0);
    assert_true(usage_idle_for(&d, &d.gpus[0]) == 0);         /* point 1 (NAN) ends the run */
    r0[1] = NAN;
    usage_series_put_row(&d, USAGE_SERIES_UTIL, 0, r0);
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
    float v[USAGE_SERIES_MAX];
    assert_true(usage_util_series(&dst, &dst.gpus[0], v) && v[0] == 50);
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
    float v[USAGE_SERIES_MAX];
    fill(&a);
    usage_copy(&b, &a);
    assert_ptr_equal(b.series_util, a.series_util);
    assert_ptr_equal(b.series_grid, a.series_grid);
    assert_int_equal(b.nseries, 2);
    usage_clear(&a);
    assert_true(usage_util_series(&b, &b.gpus[0], v) && v[2] == 4.9f);
    usage_copy(&c, &b);
    /* a refresh takes c's series over (as top does), then c and b go */
    memset(&r, 0, sizeof r);
    r.ngpus = 1;
    r.gpus = xcalloc(1, sizeof *r.gpus);
    r.gpus[0] = rec("n1", 1, -1, "GPU-b", NULL, NULL, 0);
    usage_take_series(&r, &c);
    assert_false(usage_util_series(&c, &c.gpus[0], v));      /* c has none now */
    assert_true(usage_util_series(&b, &b.gpus[0], v) && v[2] == 4.9f);  /* the records c shares: unchanged */
    usage_clear(&c);
    usage_clear(&b);
    assert_true(usage_util_series(&r, &r.gpus[0], v) && v[3] == 80);
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

/* one row of n points at threshold thr */
static void one_row(UsageData *d, size_t n, double thr)
{
    memset(d, 0, sizeof *d);
    d->idle_threshold = thr;
    d->series_points = n;
    d->nseries = 1;
    usage_series_resize(d, 1);
}

/* a row put and read back */
static void put_get(UsageData *d, UsageSeriesField f, const float *v, float *got)
{
    usage_series_put_row(d, f, 0, v);
    for (size_t k = 0; k < d->series_points; k++) got[k] = usage_series_get(d, f, 0, k);
}

/* What the exporters serve reads back as the float the float arrays held before: memory in
 * whole MiB spread over up to 65,534 MiB (DCGM_FI_DEV_FB_USED is whole MiB), utilization in
 * whole percent (GPU_UTIL), GR_ENGINE_ACTIVE's ratio x 100 (prometheus_series.c stores
 * (float)(ratio * 100)) with two decimals over 0-100 % or four over up to 6.5 %. */
static void test_codes_exact(void **state)
{
    (void)state;
    UsageData d;
    float v[60], got[60];
    one_row(&d, 60, 5);
    for (int start = 0; start <= 140000; start += 60) {          /* 0-140,000 MiB, 60 at a time */
        for (int k = 0; k < 60; k++) v[k] = (float)(start + k);
        v[7] = (float)(start + 65534 > 140000 ? start : start + 65534);   /* the row's spread */
        put_get(&d, USAGE_SERIES_MEM, v, got);
        assert_memory_equal(got, v, sizeof v);
    }
    for (int start = 0; start <= 10000; start += 60) {           /* 0-100 % in hundredths */
        for (int k = 0; k < 60; k++) v[k] = (float)((double)((start + k) % 10001) / 10000 * 100);
        v[3] = 100;
        v[4] = 0;
        put_get(&d, USAGE_SERIES_UTIL, v, got);
        assert_memory_equal(got, v, sizeof v);
        for (int k = 0; k < 60; k++) v[k] = (float)((start / 60 + k) % 101);   /* whole percents */
        put_get(&d, USAGE_SERIES_UTIL, v, got);
        assert_memory_equal(got, v, sizeof v);
    }
    for (int start = 0; start < 65000; start += 60) {            /* four decimals over 6.5 % */
        for (int k = 0; k < 60; k++) v[k] = (float)((double)(start + k) / 1000000 * 100 + 30);
        put_get(&d, USAGE_SERIES_UTIL, v, got);
        assert_memory_equal(got, v, sizeof v);
    }
    /* no sample reads back as none */
    v[5] = NAN;
    v[6] = INFINITY;
    put_get(&d, USAGE_SERIES_UTIL, v, got);
    assert_true(isnan(got[5]) && isnan(got[6]) && got[4] == v[4]);
    for (int k = 0; k < 60; k++) v[k] = NAN;
    put_get(&d, USAGE_SERIES_MEM, v, got);
    for (int k = 0; k < 60; k++) assert_true(isnan(got[k]));
    usage_clear(&d);
}

/* Values off every grid read back within half a step: utilization with six decimals over
 * 0-100 % (step 16 ten-thousandths: 1,000,000 / 65,534 = 15.26, rounded up), within 0.0008 %; memory
 * spread over 0-131,072 MiB (step 3: 131,072 / 65,534 = 2.00003, rounded up), within 1.5 MiB */
static void test_codes_near(void **state)
{
    (void)state;
    UsageData d;
    float v[60], got[60];
    one_row(&d, 60, 5);
    unsigned seed = 7;
    for (int t = 0; t < 500; t++) {
        for (int k = 0; k < 60; k++) {
            seed = seed * 1103515245u + 12345u;
            v[k] = (float)((double)(seed >> 8 & 0xFFFFF) / 0xFFFFF * 100);
        }
        v[0] = 0;
        v[1] = 100;
        put_get(&d, USAGE_SERIES_UTIL, v, got);
        for (int k = 0; k < 60; k++) assert_true(fabs((double)got[k] - (double)v[k]) <= 0.0008 + 1e-5);
        for (int k = 0; k < 60; k++) v[k] = (float)(seed % 131073 + (unsigned)k);
        v[0] = 0;
        v[1] = 131072;
        put_get(&d, USAGE_SERIES_MEM, v, got);
        for (int k = 0; k < 60; k++) assert_true(fabs((double)got[k] - (double)v[k]) <= 1.5);
    }
    usage_clear(&d);
}

/* A utilization point reads back on the side of the idle threshold its float was on, whatever
 * the threshold: the idle answers (usage_idle_for compares the points with it) are the
 * floats'.  The values are drawn around the threshold, off every grid, over 0-100 % (step
 * 0.0016 %: within half a step, or a step when moved back to the float's side). */
static void test_codes_threshold(void **state)
{
    (void)state;
    UsageData d;
    float v[60], got[60];
    unsigned seed = 12345;
    for (int t = 0; t < 300; t++) {
        seed = seed * 1103515245u + 12345u;
        double thr = (double)(seed >> 8 & 0xFFFF) / 65536.0 * 100;
        one_row(&d, 60, thr);
        for (int k = 0; k < 60; k++) {
            seed = seed * 1103515245u + 12345u;
            double r = (double)(seed >> 8 & 0xFFFF) / 65536.0;
            v[k] = (float)(k % 2 ? thr + (r - 0.5) * 0.001 : r * 100);
            if (v[k] < 0) v[k] = 0;
        }
        put_get(&d, USAGE_SERIES_UTIL, v, got);
        for (int k = 0; k < 60; k++) {
            assert_true(((double)got[k] < thr) == ((double)v[k] < thr));
            assert_true(fabs((double)got[k] - (double)v[k]) <= 0.0016 + 1e-5);
        }
        usage_clear(&d);
    }
}

/* A row off every grid, read back and put again (a snapshot written and read): it reads back
 * the same the second time, so offline answers are the live ones */
static void test_codes_again(void **state)
{
    (void)state;
    UsageData d;
    float v[60], once[60], twice[60];
    unsigned seed = 4242;
    for (int t = 0; t < 300; t++) {
        one_row(&d, 60, 5);
        double top = t % 3 == 0 ? 100 : t % 3 == 1 ? 40 : 8;
        for (int k = 0; k < 60; k++) {
            seed = seed * 1103515245u + 12345u;
            v[k] = (float)((double)(seed >> 8 & 0xFFFFF) / 0xFFFFF * top);
        }
        v[9] = NAN;
        put_get(&d, USAGE_SERIES_UTIL, v, once);
        put_get(&d, USAGE_SERIES_UTIL, once, twice);
        assert_memory_equal(once, twice, sizeof once);
        for (int k = 0; k < 60; k++) v[k] = (float)(seed % 200000 + (unsigned)k * 977);
        put_get(&d, USAGE_SERIES_MEM, v, once);
        put_get(&d, USAGE_SERIES_MEM, once, twice);
        assert_memory_equal(once, twice, sizeof once);
        usage_clear(&d);
    }
    /* a spread just over 65,534 x 16 ten-thousandths (0 to 104.8545 %): step 17; read back,
     * the top is 104.8543 (61,679 steps) and the spread just under: step 16 would hold it,
     * but 17 holds it exactly */
    one_row(&d, 60, 5);
    for (int k = 0; k < 60; k++) v[k] = (float)(k * 1.7);
    v[0] = 0;
    v[1] = 104.8545f;
    put_get(&d, USAGE_SERIES_UTIL, v, once);
    assert_true(fabs((double)once[1] - 104.8543) < 1e-5);
    put_get(&d, USAGE_SERIES_UTIL, once, twice);
    assert_memory_equal(once, twice, sizeof once);
    usage_clear(&d);
}

/* usage_series_pack: every point of every row reads back as before, whatever the number of
 * distinct values in the row (one, none at all, 2, 3, 4 with a missing point, 5, 11, 16, 17,
 * 28, 29, 60), and the rows take, by hand (1 count + the values + the points' indexes in
 * 0, 1, 2, 4 or 8 bits, as 16-bit words; 60 points; or 2 words, the lowest code and a width,
 * + each point's code less the lowest in that width, whichever is smaller): util 2 + 7 + 12 +
 * 40 (60 values 1.5 % apart on the coarsest exact grid, 0.1 %: codes 15 apart, 885 wide, 10
 * bits: 2 + 38) + 36 (29 values: 420 wide, 9 bits: 2 + 34; as indexes 60) + 32 (16 values
 * in 4 bits; 225 wide would be 8 bits, 32 words too) = 129, memory 2 (all missing) + 27 + 48 +
 * 59 + 13 + 21 = 170 (as indexes: 27,000 MiB wide is 15 bits, 59 words, no fewer): 299 of
 * 720.  A second pack changes nothing; the copies (usage_copy) read the packed rows. */
static void test_pack(void **state)
{
    (void)state;
    UsageData d;
    memset(&d, 0, sizeof d);
    d.idle_threshold = 5;
    d.series_points = 60;
    d.nseries = 6;
    usage_series_resize(&d, 6);
    static const int ud[6] = { 1, 2, 3, 60, 29, 16 }, md[6] = { 0, 11, 17, 28, 4, 5 };
    float u[6][60], m[6][60], before[2][6][60];
    for (int r = 0; r < 6; r++)
        for (int k = 0; k < 60; k++) {
            u[r][k] = r == 1 ? (float)(k % 2 ? 100 : 0) : (float)(7 + (k % ud[r]) * 1.5);
            m[r][k] = md[r] == 0 ? NAN : md[r] == 4 && k % 4 == 0 ? NAN : (float)(1000 * (k % md[r]) + 123);
        }
    for (int r = 0; r < 6; r++) {
        usage_series_put_row(&d, USAGE_SERIES_UTIL, (size_t)r, u[r]);
        usage_series_put_row(&d, USAGE_SERIES_MEM, (size_t)r, m[r]);
    }
    assert_int_equal(usage_series_codes(&d), 720);
    for (int r = 0; r < 6; r++)
        for (int k = 0; k < 60; k++) {
            before[0][r][k] = usage_series_get(&d, USAGE_SERIES_UTIL, (size_t)r, (size_t)k);
            before[1][r][k] = usage_series_get(&d, USAGE_SERIES_MEM, (size_t)r, (size_t)k);
        }
    usage_series_pack(&d);
    assert_int_equal(usage_series_codes(&d), 299);
    for (int again = 0; again < 2; again++) {
        for (int r = 0; r < 6; r++)
            for (int k = 0; k < 60; k++) {
                float a = usage_series_get(&d, USAGE_SERIES_UTIL, (size_t)r, (size_t)k);
                float b = usage_series_get(&d, USAGE_SERIES_MEM, (size_t)r, (size_t)k);
                assert_memory_equal(&a, &before[0][r][k], sizeof a);
                assert_memory_equal(&b, &before[1][r][k], sizeof b);
                assert_true(a == u[r][k]);              /* exact values: as put */
                assert_true(isnan(m[r][k]) ? isnan(b) : b == m[r][k]);
            }
        usage_series_pack(&d);
        assert_int_equal(usage_series_codes(&d), 299);
    }
    d.ngpus = 1;
    d.gpus = xcalloc(1, sizeof *d.gpus);
    d.gpus[0] = rec("n1", 0, -1, "GPU-a", NULL, NULL, 6);
    UsageData c;
    usage_copy(&c, &d);
    float got[USAGE_SERIES_MAX];
    assert_true(usage_util_series(&c, &c.gpus[0], got));
    assert_memory_equal(got, before[0][5], sizeof before[0][5]);
    assert_true(usage_mem_series(&c, &c.gpus[0], got));
    assert_memory_equal(got, before[1][5], sizeof before[1][5]);
    usage_clear(&c);
    usage_clear(&d);
}

/* A build row by row (prometheus_series.c: usage_series_append): each row packed at the end of
 * its field's codes and read back at once; a row put again replaces the first (memory's row
 * 0: 11 values, then 60); a row no standard grid holds exactly is refused with exact_only and
 * put without it (within half a step); usage_series_append_done drops the words left behind.
 * The words, by hand: util 2 (7 everywhere) + 7 (0 and 100 in 1 bit) + 60 (60 values, 16 bits
 * wide) + 2 (none) = 71; memory 32 (0 to 177 MiB: 2 + 60 points in 8 bits) + 27 (11 values in
 * 4 bits) + 2 + 2 = 63, and 27 more for the first row 0 before append_done. */
static void test_append(void **state)
{
    (void)state;
    UsageData d;
    memset(&d, 0, sizeof d);
    d.idle_threshold = 5;
    d.series_points = 60;
    usage_series_resize_fields(&d, 0, 4);               /* the grid alone */
    assert_null(d.series_util);
    assert_null(d.series_mem);
    float u[4][60], m[4][60], first[60];
    for (int k = 0; k < 60; k++) {
        u[0][k] = 7;
        u[1][k] = k % 2 ? 100 : 0;
        u[2][k] = (float)(k * 1.23456789);
        u[3][k] = NAN;
        first[k] = (float)(1000 * (k % 11) + 1);
        m[0][k] = (float)(k * 3);
        m[1][k] = (float)(1000 * (k % 11) + 7);
        m[2][k] = 80000;
        m[3][k] = NAN;
    }
    UsageSeriesAppend st = { { 0, 0 }, { 0, 0 }, false };
    assert_true(usage_series_append(&d, &st, USAGE_SERIES_MEM, 0, first, true));
    for (size_t k = 0; k < 60; k++) assert_true(usage_series_get(&d, USAGE_SERIES_MEM, 0, k) == first[k]);
    for (size_t r = 0; r < 4; r++) {
        bool exact = r != 2;
        assert_true(usage_series_append(&d, &st, USAGE_SERIES_UTIL, r, u[r], true) == exact);
        if (!exact) assert_true(usage_series_append(&d, &st, USAGE_SERIES_UTIL, r, u[r], false));
        assert_true(usage_series_append(&d, &st, USAGE_SERIES_MEM, r, m[r], true));
    }
    assert_int_equal(st.used[USAGE_SERIES_UTIL], 71);
    assert_int_equal(st.used[USAGE_SERIES_MEM], 63 + 27);
    d.nseries = 4;
    for (int done = 0; done < 2; done++) {
        for (size_t r = 0; r < 4; r++)
            for (size_t k = 0; k < 60; k++) {
                float a = usage_series_get(&d, USAGE_SERIES_UTIL, r, k), b = usage_series_get(&d, USAGE_SERIES_MEM, r, k);
                if (r == 2) assert_true(fabs((double)a - (double)u[r][k]) <= 0.001);
                else assert_true(isnan(u[r][k]) ? isnan(a) : a == u[r][k]);
                assert_true(isnan(m[r][k]) ? isnan(b) : b == m[r][k]);
            }
        if (!done) usage_series_append_done(&d, &st, 4);
    }
    assert_int_equal(usage_series_codes(&d), 71 + 63);
    assert_int_equal(st.used[USAGE_SERIES_MEM], 63);
    usage_series_pack(&d);                              /* packed already: left as it is */
    assert_int_equal(usage_series_codes(&d), 71 + 63);
    usage_clear(&d);
}

/* usage_series_append_done moves the rows down in place in the order they lie, not in the
 * rows' order: row 0 put as one value (2 words), row 1 (11 values: 27 words), row 0 again (60
 * values 0 to 177 MiB: 2 + 60 points in 8 bits = 32 words, after row 1).  Moved in the rows'
 * order, row 0 would overwrite row 1 before it moved.  Words by hand: 2 + 27 + 32 = 61 before,
 * 27 + 32 = 59 after. */
static void test_append_done_order(void **state)
{
    (void)state;
    UsageData d;
    memset(&d, 0, sizeof d);
    d.series_points = 60;
    usage_series_resize_fields(&d, 0, 2);
    float one[60], r1[60], r0[60];
    for (int k = 0; k < 60; k++) {
        one[k] = 7;
        r1[k] = (float)(1000 * (k % 11) + 7);
        r0[k] = (float)(k * 3);
    }
    UsageSeriesAppend st = { { 0, 0 }, { 0, 0 }, false };
    assert_true(usage_series_append(&d, &st, USAGE_SERIES_MEM, 0, one, true));
    assert_true(usage_series_append(&d, &st, USAGE_SERIES_MEM, 1, r1, true));
    assert_true(usage_series_append(&d, &st, USAGE_SERIES_MEM, 0, r0, true));
    assert_int_equal(st.used[USAGE_SERIES_MEM], 61);
    d.nseries = 2;
    usage_series_append_done(&d, &st, 2);
    assert_int_equal(st.used[USAGE_SERIES_MEM], 59);
    for (size_t k = 0; k < 60; k++) {
        assert_true(usage_series_get(&d, USAGE_SERIES_MEM, 0, k) == r0[k]);
        assert_true(usage_series_get(&d, USAGE_SERIES_MEM, 1, k) == r1[k]);
    }
    usage_clear(&d);
}

/* A row of many distinct values close together packed as offsets from its lowest code (the
 * span), each point in as few bits as the widest offset needs below all ones (no sample):
 * memory 1000 + (13 k mod w) MiB, k < 60, is 60 distinct values from 0 (k = 0) to w - 1 MiB
 * above 1000 (k = 39 for w = 127, k = 59 for 128), too many for indexes.  By hand: w = 127,
 * offsets up to 126, 7 bits: 2 + 27 words (points straddle words); w = 128, 127 is all ones
 * of 7 bits, so 8: 2 + 30 words; with or without point 30 missing.  Every point reads back as
 * put.  Fails when a value shares all ones with no sample, or when a point across two words
 * is read from one. */
static void test_pack_span(void **state)
{
    (void)state;
    for (int t = 0; t < 4; t++) {
        int w = t < 2 ? 127 : 128, missing = t % 2;
        UsageData d;
        memset(&d, 0, sizeof d);
        d.idle_threshold = 5;
        d.series_points = 60;
        usage_series_resize_fields(&d, 0, 1);
        float v[60];
        for (int k = 0; k < 60; k++) v[k] = (float)(1000 + (13 * k) % w);
        if (missing) v[30] = NAN;
        UsageSeriesAppend st = { { 0, 0 }, { 0, 0 }, false };
        assert_true(usage_series_append(&d, &st, USAGE_SERIES_MEM, 0, v, true));
        assert_int_equal(st.used[USAGE_SERIES_MEM], w == 127 ? 2 + 27 : 2 + 30);
        for (size_t k = 0; k < 60; k++) {
            float b = usage_series_get(&d, USAGE_SERIES_MEM, 0, k);
            assert_true(isnan(v[k]) ? isnan(b) : b == v[k]);
        }
        usage_clear(&d);
    }
}

/* usage_series_append_reserve (a re-fetch's rows: the room of the set they replace at once):
 * rows appended within the reserve take no new room (the array stays where it is); past it,
 * the field grows by a sixteenth and 1,024 words when st.reserved says so (100 + 6 + 1,024 =
 * 1,130), by a quarter without (100 + 25 + 1,024 = 1,149).  Rows of 0 to 177 MiB, 32 words
 * each (test_append): three fill 96 of 100, the fourth goes past. */
static void test_append_reserve(void **state)
{
    (void)state;
    for (int reserved = 0; reserved < 2; reserved++) {
        UsageData d;
        memset(&d, 0, sizeof d);
        d.series_points = 60;
        usage_series_resize_fields(&d, 0, 4);
        float v[60];
        for (int k = 0; k < 60; k++) v[k] = (float)(k * 3);
        UsageSeriesAppend st = { { 0, 0 }, { 0, 0 }, false };
        usage_series_append_reserve(&d, &st, USAGE_SERIES_MEM, 100);
        st.reserved = reserved;
        assert_int_equal(st.cap[USAGE_SERIES_MEM], 100);
        const uint16_t *at = d.series_mem;
        for (size_t r = 0; r < 3; r++) assert_true(usage_series_append(&d, &st, USAGE_SERIES_MEM, r, v, true));
        assert_int_equal(st.used[USAGE_SERIES_MEM], 96);
        assert_int_equal(st.cap[USAGE_SERIES_MEM], 100);
        assert_ptr_equal(d.series_mem, at);
        assert_true(usage_series_append(&d, &st, USAGE_SERIES_MEM, 3, v, true));
        assert_int_equal(st.cap[USAGE_SERIES_MEM], reserved ? 1130 : 1149);
        for (size_t r = 0; r < 4; r++)
            for (size_t k = 0; k < 60; k++) assert_true(usage_series_get(&d, USAGE_SERIES_MEM, r, k) == v[k]);
        usage_clear(&d);
    }
}

/* usage_exact_narrow / usage_exact_value (a refill's numbers in 4 bytes, issue 35): a double
 * goes narrow only when its float is it bit for bit, and every value reads back as the same
 * bits either way.  By hand: 2^24 and 0.75 are floats, 2^24 + 1 needs 25 bits, 0.1 and 0.7345
 * are not binary fractions a float ends on the double's last bit, -0.0 keeps its sign, NAN
 * and the infinities and 1e39 (beyond a float) are wide. */
static void test_exact_codes(void **state)
{
    (void)state;
    const struct { double x; bool narrow; } cases[] = {
        { 0, true }, { -0.0, true }, { 1, true }, { 100, true }, { 81920, true }, { 16777216, true },
        { 0.75, true }, { -3.5, true }, { 16777217, false }, { 0.1, false }, { 0.7345, false },
        { 73.45, false }, { 1e39, false }, { NAN, false }, { INFINITY, false }, { -INFINITY, false },
        { 5e-324, false },
    };
    double wides[sizeof cases / sizeof cases[0]];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t code = 0;
        bool narrow = usage_exact_narrow(cases[i].x, &code);
        assert_int_equal(narrow, cases[i].narrow);
        if (!narrow) { wides[i] = cases[i].x; code = (uint32_t)i; }
        double back = usage_exact_value(code, !narrow, wides);
        assert_memory_equal(&back, &cases[i].x, sizeof back);
    }
}

/* usage_refill_apply (top's metrics refresh, issue 35): the numbers go into the shown records
 * in place; with series fetched again, the shown records name the new rows (as the refill's
 * list says), the new held records replace the old ones, their strings either the shown pool's
 * or the refill's pool, which the shown usage then keeps (ASan: each freed once); a failed
 * series fetch leaves the records without series, as a new set of records would be; the
 * series alone (no numbers) leave the numbers, source and evaluation time as they were and
 * add their warnings. */
static void test_refill_apply(void **state)
{
    (void)state;
    for (int mode = 0; mode < 3; mode++) {
        bool failed = mode == 1, alone = mode == 2;
        UsageData shown, next;
        fill(&shown);
        shown.nheld = 1;
        shown.held = xcalloc(1, sizeof *shown.held);
        shown.held[0].node = usage_intern(&shown, "n1");
        shown.held[0].pod = xstrdup("old");                   /* an own string */
        shown.source = xstrdup("prometheus");
        shown.evaluated_at = 50;
        strvec_push(&shown.warnings, "before");
        memset(&next, 0, sizeof next);
        next.source = xstrdup("prometheus");
        next.evaluated_at = 99;
        strvec_push(&next.warnings, "w");
        UsageRefill *r = xcalloc(1, sizeof *r);
        r->of = &shown;
        r->ngpus = 2;
        r->npods = 3;
        /* the numbers as codes: whole numbers as their floats' bits, NAN and 0.1 (no float
         * is exactly 0.1) as indexes into the wide values */
        r->gnums = xcalloc(2, sizeof *r->gnums);
        r->pnums = xcalloc(3, sizeof *r->pnums);
        r->nwide = 2;
        r->wide = xcalloc(2, sizeof *r->wide);
        r->wide[0] = NAN;
        r->wide[1] = 0.1;
        for (int i = 0; i < 5; i++) {
            UsageNumbersPacked *p = i < 2 ? &r->gnums[i] : &r->pnums[i - 2];
            const float x[4] = { (float)(100 + i), (float)(200 + i), (float)(10 + i), (float)(20 + i) };
            for (int k = 0; k < 4; k++) memcpy(&p->v[k], &x[k], sizeof x[k]);
            p->v[4] = p->v[6] = p->v[7] = 0;                /* wide[0]: NAN */
            p->v[5] = 1;                                    /* wide[1]: 0.1 */
            p->wide = 0xf0;
        }
        if (alone) {
            free(r->gnums); free(r->pnums); free(r->wide);
            r->gnums = r->pnums = NULL; r->wide = NULL; r->nwide = 0;
        }
        r->series_new = true;
        if (!failed) {
            /* the new rows: device 0 is row 2 (its values 10, 11, 12, 13), device 1 row 1 */
            next.series_points = 4;
            next.nseries = 2;
            next.series_step = 60;
            usage_series_resize(&next, 2);
            const float u[8] = { 90, 91, 92, 93, 10, 11, 12, 13 }, m[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
            for (size_t row = 0; row < 2; row++) {
                usage_series_put_row(&next, USAGE_SERIES_UTIL, row, u + 4 * row);
                usage_series_put_row(&next, USAGE_SERIES_MEM, row, m + 4 * row);
            }
            r->series = xcalloc(5, sizeof *r->series);
            const uint32_t rows[5] = { 2, 1, 2, 1, 1 };
            memcpy(r->series, rows, sizeof rows);
            next.nheld = 2;
            next.held = xcalloc(2, sizeof *next.held);
            next.held[0].node = shown.held[0].node;           /* the shown pool's */
            next.held[0].pod = usage_intern(&next, "p");
            next.held[1].node = usage_intern(&next, "n2");    /* a device shown has no record of */
            next.held[1].pod = usage_intern(&next, "gone");
        }
        next.refill = r;
        assert_true(usage_refill_apply(&shown, &next));
        assert_null(next.refill);
        assert_null(next.held);
        if (alone) {
            assert_true(shown.evaluated_at == 50);
            assert_true(isnan(shown.gpus[1].mem_used_mib));   /* as fill made it */
            assert_int_equal(shown.warnings.n, 2);
            assert_string_equal(shown.warnings.v[0], "before");
            assert_string_equal(shown.warnings.v[1], "w");
        } else {
            assert_true(shown.evaluated_at == 99);
            assert_true(shown.gpus[1].mem_used_mib == 101);
            assert_true(shown.pods[2].util == 14);
            assert_true(isnan(shown.pods[2].temp_c));
            assert_true(shown.pods[2].power_w == 0.1);
            assert_true(shown.gpus[0].mem_total_mib == 200);
            assert_int_equal(shown.warnings.n, 1);
            assert_string_equal(shown.warnings.v[0], "w");
        }
        float got[USAGE_SERIES_MAX];
        if (failed) {
            assert_int_equal(shown.nseries, 0);
            assert_int_equal(shown.gpus[0].series, 0);
            assert_int_equal(shown.nheld, 0);
            assert_false(usage_util_series(&shown, &shown.gpus[0], got));
        } else {
            assert_int_equal(shown.gpus[0].series, 2);
            assert_int_equal(shown.pods[1].series, 1);
            assert_true(usage_util_series(&shown, &shown.gpus[0], got));
            assert_true(got[0] == 10 && got[3] == 13);
            assert_true(usage_util_series(&shown, &shown.pods[1], got));
            assert_true(got[0] == 90);
            assert_int_equal(shown.nheld, 2);
            assert_string_equal(shown.held[1].node, "n2");
            assert_string_equal(shown.held[1].pod, "gone");
            assert_string_equal(shown.held[0].node, "n1");
        }
        /* not for these records: nothing done */
        UsageData other;
        memset(&other, 0, sizeof other);
        other.refill = xcalloc(1, sizeof *other.refill);
        other.refill->of = &next;
        assert_false(usage_refill_apply(&shown, &other));
        usage_clear(&other);
        usage_clear(&next);
        usage_clear(&shown);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_idle_for), cmocka_unit_test(test_take_series),
                                        cmocka_unit_test(test_copy_shares),
                                        cmocka_unit_test(test_copy_shares_strings),
                                        cmocka_unit_test(test_codes_exact), cmocka_unit_test(test_codes_near),
                                        cmocka_unit_test(test_codes_threshold), 
                                        cmocka_unit_test(test_codes_again), cmocka_unit_test(test_pack),
                                        cmocka_unit_test(test_append),
                                        cmocka_unit_test(test_refill_apply),
                                        cmocka_unit_test(test_exact_codes),
                                        cmocka_unit_test(test_append_done_order),
                                        cmocka_unit_test(test_pack_span),
                                        cmocka_unit_test(test_append_reserve) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

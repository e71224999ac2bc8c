/* Unit tests: Prometheus text parser and DCGM series -> GpuUsage (src/sources/dcgm.c), and the
 * usage joins of metrics.c.  Expected numbers are the values written in the fixtures
 * tests/fixtures/dcgm/ (each fixture's header comment states them). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sources/dcgm.h"
#include "sources/metrics.h"
#include "util/util.h"

static char *load_fixture(const char *name, size_t *len)
{
    const char *root = getenv("KGPU_ROOT");
    char *path = xasprintf("%s/tests/fixtures/dcgm/%s", root ? root : ".", name);
    char *err = NULL;
    char *text = util_read_file(path, len, &err);
    if (!text) fail_msg("%s: %s", path, err ? err : "?");
    free(path);
    return text;
}

static void parse_fixture(const char *name, const char *default_node, UsageData *d, PromTextStats *st)
{
    size_t len;
    char *text = load_fixture(name, &len);
    memset(d, 0, sizeof *d);
    d->idle_threshold = 5;
    dcgm_parse_text(text, len, default_node, d, st);
    free(text);
}

static const GpuUsage *find_dev(const UsageData *d, const char *node, int gpu, int gi)
{
    for (size_t i = 0; i < d->ngpus; i++)
        if (str_eq(d->gpus[i].node, node) && d->gpus[i].gpu == gpu && d->gpus[i].mig_instance == gi)
            return &d->gpus[i];
    return NULL;
}

#define assert_near(a, b) do { double a_ = (a), b_ = (b); \
    if (!(fabs(a_ - b_) < 1e-6)) fail_msg("%s = %g, want %g", #a, a_, b_); } while (0)

/* ---------------------------------------------------------------------------------------- */

typedef struct { int n; char metric[64]; char labels[8][2][64]; size_t nl; double v; int64_t ts; } Capture;

static int capture_one(void *ctx, const char *metric, const PromLabel *l, size_t n, double v, int64_t ts)
{
    Capture *c = ctx;
    c->n++;
    snprintf(c->metric, sizeof c->metric, "%s", metric);
    c->nl = n < 8 ? n : 8;
    for (size_t i = 0; i < c->nl; i++) {
        snprintf(c->labels[i][0], 64, "%s", l[i].name);
        snprintf(c->labels[i][1], 64, "%s", l[i].value);
    }
    c->v = v;
    c->ts = ts;
    return 0;
}

static void parse_line(const char *line, Capture *c, PromTextStats *st)
{
    memset(c, 0, sizeof *c);
    dcgm_promtext_parse(line, strlen(line), capture_one, c, st);
}

static void test_text_basics(void **state)
{
    (void)state;
    Capture c;
    PromTextStats st;
    parse_line("m{a=\"x \\\"y\\\" \\\\ z\\nw\",b=\"\"} 1.5 1715707841000\n", &c, &st);
    assert_int_equal(c.n, 1);
    assert_int_equal(st.samples, 1);
    assert_int_equal(st.skipped, 0);
    assert_string_equal(c.metric, "m");
    assert_int_equal(c.nl, 2);
    assert_string_equal(c.labels[0][0], "a");
    assert_string_equal(c.labels[0][1], "x \"y\" \\ z\nw");
    assert_string_equal(c.labels[1][1], "");
    assert_near(c.v, 1.5);
    assert_true(c.ts == 1715707841000LL);

    parse_line("up 1", &c, &st);                       /* no labels, no newline, no timestamp */
    assert_int_equal(c.n, 1);
    assert_int_equal(c.nl, 0);
    assert_true(c.ts == PROM_NO_TIMESTAMP);

    parse_line("m{} NaN\n", &c, &st);
    assert_int_equal(c.n, 1);
    assert_true(isnan(c.v));
    parse_line("m +Inf\n", &c, &st);
    assert_true(isinf(c.v) && c.v > 0);
    parse_line("m -Inf\n", &c, &st);
    assert_true(isinf(c.v) && c.v < 0);
    parse_line("m 2.5 1715707841.250\n", &c, &st);  /* OpenMetrics: seconds with a fraction */
    assert_true(c.ts == 1715707841250LL);

    parse_line("# HELP m x\n# TYPE m gauge\n\n   \n# EOF\n", &c, &st);
    assert_int_equal(c.n, 0);
    assert_int_equal(st.lines, 5);
    assert_int_equal(st.skipped, 0);

    const char *bad[] = { "m{a=\"x} 1", "m{a=\"\\t\"} 1", "m{a=x} 1", "m{} ", "m{}1", "m 1 2 3",
                          "{a=\"b\"} 1", "m{a=\"b\"", "m{,} 1", "m 0x", "m 1e400000000000000000000000000000000000000000000000000000000000000000000000000000000000" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        parse_line(bad[i], &c, &st);
        if (c.n != 0 || st.skipped != 1) fail_msg("accepted malformed line [%s]", bad[i]);
    }
    /* an embedded NUL inside a label value is malformed, and the parser stops at len */
    char nul[] = "m{a=\"x\0y\"} 1\nm 2";
    memset(&c, 0, sizeof c);
    dcgm_promtext_parse(nul, sizeof nul - 1, capture_one, &c, &st);
    assert_int_equal(st.skipped, 1);
    assert_int_equal(c.n, 1);
    assert_near(c.v, 2);
}

static int stop_after_first(void *ctx, const char *m, const PromLabel *l, size_t n, double v, int64_t ts)
{
    (void)m; (void)l; (void)n; (void)v; (void)ts;
    (*(int *)ctx)++;
    return 7;
}

static void test_text_stop(void **state)
{
    (void)state;
    int calls = 0;
    const char *t = "a 1\nb 2\nc 3\n";
    assert_int_equal(dcgm_promtext_parse(t, strlen(t), stop_after_first, &calls, NULL), 7);
    assert_int_equal(calls, 1);
}

/* ---------------------------------------------------------------------------------------- */

static void test_whole_gpus(void **state)
{
    (void)state;
    UsageData d;
    PromTextStats st;
    parse_fixture("whole-gpus.txt", NULL, &d, &st);
    assert_int_equal(st.skipped, 0);
    assert_int_equal(st.samples, 14);
    assert_int_equal(d.ngpus, 2);
    const GpuUsage *g0 = find_dev(&d, "gpu-a100-1", 0, -1), *g1 = find_dev(&d, "gpu-a100-1", 1, -1);
    assert_non_null(g0);
    assert_non_null(g1);
    assert_string_equal(g0->uuid, "GPU-aaaaaaaa-0000-4000-8000-000000000000");
    assert_string_equal(g0->model, "NVIDIA A100-SXM4-80GB");
    assert_null(g0->mig_profile);
    assert_near(g0->mem_used_mib, 51200);
    assert_near(g0->mem_total_mib, 51200 + 30208 + 512);
    assert_near(g0->util, 70.5);          /* GR_ENGINE_ACTIVE 0.705 wins over GPU_UTIL 63 */
    assert_true(isnan(g0->util_max));     /* a scrape has no window */
    assert_string_equal(g0->ns, "team-a");
    assert_string_equal(g0->pod, "train-0");
    assert_string_equal(g0->container, "trainer");
    assert_int_equal(g0->holders, 1);
    assert_near(g1->mem_used_mib, 323);
    assert_near(g1->mem_total_mib, 323 + 81085 + 512);
    assert_near(g1->util, 0);
    assert_null(g1->pod);
    assert_int_equal(g1->holders, 0);
    assert_int_equal(d.npods, 1);
    assert_string_equal(d.pods[0].pod, "train-0");
    assert_near(d.pods[0].mem_used_mib, 51200);

    const GpuUsage *out[4];
    assert_int_equal(usage_node_gpus(&d, "gpu-a100-1", out, 4), 2);
    assert_ptr_equal(out[0], g0);
    assert_int_equal(usage_node_gpus(&d, "other", out, 4), 0);
    double mem, util;
    assert_true(usage_for_pod(&d, "team-a", "train-0", &mem, &util));
    assert_near(mem, 51200);
    assert_near(util, 70.5);
    assert_false(usage_for_pod(&d, "team-a", "nope", &mem, &util));
    assert_true(isnan(mem));
    /* without a window (scrape) nothing can be called idle */
    assert_false(usage_is_idle_allocated(&d, g0));
    assert_false(usage_is_idle_allocated(&d, g1));
    usage_clear(&d);
}

/* health and thermals (shared/reference/dcgm-exporter.md field table): temperature and power as
 * read, the XID code, double-bit ECC from the volatile total, DCGM 4.x's power name, and DCGM's
 * blank sentinel for a field without a sensor (near 2^63) ignored */
static void test_health_fields(void **state)
{
    (void)state;
    static const char text[] =
        "DCGM_FI_DEV_FB_USED{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\"} 100\n"
        "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\"} 67\n"
        "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\"} 301.5\n"
        "DCGM_FI_DEV_XID_ERRORS{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\",err_code=\"79\"} 79\n"
        "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\"} 2\n"
        "DCGM_FI_DEV_FB_USED{gpu=\"1\",UUID=\"GPU-b\",Hostname=\"n1\"} 100\n"
        "DCGM_FI_DEV_BOARD_POWER_WATTS{gpu=\"1\",UUID=\"GPU-b\",Hostname=\"n1\"} 55\n"
        "DCGM_FI_DEV_GPU_TEMP{gpu=\"1\",UUID=\"GPU-b\",Hostname=\"n1\"} 9223372036854775794\n";
    UsageData d;
    memset(&d, 0, sizeof d);
    PromTextStats st;
    memset(&st, 0, sizeof st);
    dcgm_parse_text(text, sizeof text - 1, NULL, &d, &st);
    const GpuUsage *g0 = find_dev(&d, "n1", 0, -1), *g1 = find_dev(&d, "n1", 1, -1);
    assert_non_null(g0);
    assert_non_null(g1);
    assert_near(g0->temp_c, 67);
    assert_near(g0->power_w, 301.5);
    assert_near(g0->xid, 79);
    assert_near(g0->ecc_dbe, 2);
    assert_near(g1->power_w, 55);
    assert_true(isnan(g1->temp_c));
    assert_true(isnan(g1->xid));
    usage_clear(&d);
}

static void test_mig_mixed(void **state)
{
    (void)state;
    UsageData d;
    PromTextStats st;
    parse_fixture("mig-mixed.txt", NULL, &d, &st);
    assert_int_equal(st.skipped, 0);
    /* GPU 0: three instances (its GPU-level series dropped), GPU 1 whole */
    assert_int_equal(d.ngpus, 4);
    assert_null(find_dev(&d, "gpu-mig-1", 0, -1));
    const GpuUsage *gi1 = find_dev(&d, "gpu-mig-1", 0, 1), *gi9 = find_dev(&d, "gpu-mig-1", 0, 9),
                   *gi10 = find_dev(&d, "gpu-mig-1", 0, 10), *g1 = find_dev(&d, "gpu-mig-1", 1, -1);
    assert_non_null(gi1); assert_non_null(gi9); assert_non_null(gi10); assert_non_null(g1);
    assert_string_equal(gi1->mig_profile, "3g.20gb");
    assert_string_equal(gi9->mig_profile, "1g.5gb");
    assert_near(gi1->mem_used_mib, 13);
    assert_near(gi1->mem_total_mib, 13 + 19955);
    assert_near(gi1->util, 0);
    assert_null(gi1->pod);
    assert_near(gi9->mem_used_mib, 3000);
    assert_near(gi9->mem_total_mib, 3000 + 1952);
    assert_near(gi9->util, 41.2);         /* GR_ENGINE_ACTIVE x 100, not GPU_UTIL's 0 */
    assert_string_equal(gi9->pod, "infer-0");
    assert_near(gi10->util, 2);
    assert_string_equal(gi10->ns, "team-c");
    assert_near(g1->mem_used_mib, 20000);
    assert_near(g1->mem_total_mib, 40960);
    assert_near(g1->util, 88);            /* no profiling metrics: GPU_UTIL */
    assert_string_equal(g1->pod, "train-1");
    /* sorted: gpu 0 instances by GPU_I_ID, then gpu 1 */
    const GpuUsage *out[8];
    assert_int_equal(usage_node_gpus(&d, "gpu-mig-1", out, 8), 4);
    assert_int_equal(out[0]->mig_instance, 1);
    assert_int_equal(out[1]->mig_instance, 9);
    assert_int_equal(out[2]->mig_instance, 10);
    assert_int_equal(out[3]->gpu, 1);
    assert_int_equal(usage_node_gpus(&d, "gpu-mig-1", out, 2), 4);   /* count beyond max */
    assert_int_equal(d.npods, 3);
    usage_clear(&d);
}

static void test_time_sliced(void **state)
{
    (void)state;
    UsageData d;
    PromTextStats st;
    parse_fixture("time-sliced.txt", NULL, &d, &st);
    assert_int_equal(st.skipped, 0);
    assert_int_equal(d.ngpus, 3);
    assert_int_equal(d.npods, 5);
    const GpuUsage *g0 = find_dev(&d, "gpu-ts-1", 0, -1), *g1 = find_dev(&d, "gpu-ts-1", 1, -1),
                   *g2 = find_dev(&d, "gpu-ts-1", 2, -1);
    /* repeated per pod: the device value once */
    assert_int_equal(g0->holders, 2);
    assert_null(g0->pod);
    assert_near(g0->mem_used_mib, 6000);
    assert_near(g0->mem_total_mib, 6000 + 9100 + 260);
    assert_near(g0->util, 40);
    /* split per process: the sum */
    assert_int_equal(g1->holders, 2);
    assert_near(g1->mem_used_mib, 3000 + 5000);
    assert_near(g1->mem_total_mib, 8000 + 7100);
    assert_near(g1->util, 10 + 25);
    /* exported_* labels name the workload, not the exporter pod */
    assert_int_equal(g2->holders, 1);
    assert_string_equal(g2->ns, "team-c");
    assert_string_equal(g2->pod, "batch-9");
    assert_string_equal(g2->container, "worker");

    const GpuUsage *out[4];
    assert_int_equal(usage_device_pods(&d, g1, out, 4), 2);
    assert_string_equal(out[0]->pod, "svc-1");
    assert_near(out[0]->mem_used_mib, 3000);
    assert_near(out[1]->util, 25);
    assert_int_equal(out[1]->holders, 2);
    double mem, util;
    assert_true(usage_for_pod(&d, "team-b", "nb-2", &mem, &util));
    assert_near(mem, 6000);
    assert_near(util, 40);
    assert_int_equal(usage_pod_devices(&d, "team-a", "svc-2", out, 4), 1);
    assert_false(usage_for_pod(&d, "gpu-operator", "nvidia-dcgm-exporter-x7k2p", &mem, &util));
    usage_clear(&d);
}

static void test_malformed(void **state)
{
    (void)state;
    UsageData d;
    PromTextStats st;
    parse_fixture("malformed.txt", NULL, &d, &st);
    assert_int_equal(st.skipped, 11);
    assert_int_equal(st.samples, 10);
    assert_int_equal(st.first_bad_line, 8);
    /* gpu 0 (NaN util), gpu 5 (exemplar), gpu 6 (no final newline); gpu 1 only had +/-Inf,
     * gpu 3 a bad GPU_I_ID, gpu 4 no node */
    assert_int_equal(d.ngpus, 3);
    const GpuUsage *g0 = find_dev(&d, "gpu-bad-1", 0, -1);
    assert_non_null(g0);
    assert_string_equal(g0->model, "NVIDIA \"Weird\" GPU \\ with\nnewline");
    assert_near(g0->mem_used_mib, 100);
    assert_near(g0->mem_total_mib, 1000);
    assert_true(isnan(g0->util));
    assert_null(find_dev(&d, "gpu-bad-1", 1, -1));
    const GpuUsage *g5 = find_dev(&d, "gpu-bad-1", 5, -1);
    assert_near(g5->mem_used_mib, 1500);
    assert_near(g5->mem_total_mib, 4000);
    const GpuUsage *g6 = find_dev(&d, "gpu-bad-1", 6, -1);
    assert_near(g6->mem_used_mib, 4);
    assert_true(isnan(g6->mem_total_mib));
    usage_clear(&d);

    /* the scraped pod's node stands in for a missing Hostname label */
    parse_fixture("malformed.txt", "node-of-the-pod", &d, &st);
    assert_int_equal(d.ngpus, 4);
    const GpuUsage *g4 = find_dev(&d, "node-of-the-pod", 4, -1);
    assert_non_null(g4);
    assert_near(g4->mem_used_mib, 77);
    usage_clear(&d);
}

/* every prefix of every fixture, and bytes flipped: never a crash, never a leak (ASan) */
static void test_truncations(void **state)
{
    (void)state;
    const char *names[] = { "whole-gpus.txt", "mig-mixed.txt", "time-sliced.txt", "malformed.txt" };
    for (size_t f = 0; f < 4; f++) {
        size_t len;
        char *text = load_fixture(names[f], &len);
        for (size_t cut = 0; cut <= len; cut += 7) {
            char *part = xmalloc(cut ? cut : 1);
            memcpy(part, text, cut);        /* not NUL-terminated on purpose */
            UsageData d;
            memset(&d, 0, sizeof d);
            dcgm_parse_text(part, cut, NULL, &d, NULL);
            usage_clear(&d);
            free(part);
        }
        unsigned seed = 12345;
        for (int round = 0; round < 200; round++) {
            char *copy = xmalloc(len);
            memcpy(copy, text, len);
            for (int k = 0; k < 8; k++) {
                seed = seed * 1103515245u + 12345u;
                copy[(seed >> 8) % len] = (char)(seed >> 16);
            }
            UsageData d;
            memset(&d, 0, sizeof d);
            dcgm_parse_text(copy, len, "n", &d, NULL);
            for (size_t i = 0; i < d.ngpus; i++) assert_non_null(d.gpus[i].node);
            usage_clear(&d);
            free(copy);
        }
        free(text);
    }
}

/* accumulate as the Prometheus path does: instant values and window maxima of one device */
static void test_accum_window(void **state)
{
    (void)state;
    PromLabel busy[] = { { "Hostname", "n1" }, { "gpu", "0" }, { "UUID", "GPU-1" },
                         { "namespace", "a" }, { "pod", "p" }, { "container", "c" } };
    PromLabel idle[] = { { "Hostname", "n1" }, { "gpu", "1" }, { "UUID", "GPU-2" },
                         { "namespace", "a" }, { "pod", "q" }, { "container", "c" } };
    PromLabel gone[] = { { "Hostname", "n1" }, { "gpu", "1" }, { "UUID", "GPU-2" },
                         { "namespace", "a" }, { "pod", "old" }, { "container", "c" } };
    PromLabel freegpu[] = { { "Hostname", "n1" }, { "gpu", "2" }, { "UUID", "GPU-3" } };
    DcgmAccum *a = dcgm_accum_new();
    assert_true(dcgm_accum_add(a, DCGM_FB_USED, busy, 6, 1000, NULL));
    assert_true(dcgm_accum_add(a, DCGM_FB_FREE, busy, 6, 3000, NULL));
    assert_true(dcgm_accum_add(a, DCGM_GPU_UTIL, busy, 6, 20, NULL));
    assert_true(dcgm_accum_add(a, DCGM_GPU_UTIL_MAX, busy, 6, 97, NULL));
    assert_true(dcgm_accum_add(a, DCGM_FB_USED, idle, 6, 500, NULL));
    assert_true(dcgm_accum_add(a, DCGM_GPU_UTIL, idle, 6, 0, NULL));
    assert_true(dcgm_accum_add(a, DCGM_GPU_UTIL_MAX, idle, 6, 3, NULL));
    /* a pod that held GPU-2 earlier in the window: only a window value, no current value */
    assert_true(dcgm_accum_add(a, DCGM_GPU_UTIL_MAX, gone, 6, 90, NULL));
    assert_true(dcgm_accum_add(a, DCGM_FB_USED, freegpu, 3, 0, NULL));
    assert_true(dcgm_accum_add(a, DCGM_GPU_UTIL_MAX, freegpu, 3, 0, NULL));
    assert_false(dcgm_accum_add(a, DCGM_FB_USED, freegpu, 3, NAN, NULL));
    assert_false(dcgm_accum_add(a, DCGM_FB_USED, freegpu, 3, -1, NULL));
    UsageData d;
    memset(&d, 0, sizeof d);
    d.idle_threshold = 5;
    d.windowed = true;
    dcgm_accum_finish(a, &d);
    dcgm_accum_free(a);
    assert_int_equal(d.ngpus, 3);
    assert_int_equal(d.npods, 2);
    assert_near(d.gpus[0].util_max, 97);
    assert_near(d.gpus[1].util_max, 3);
    assert_int_equal(d.gpus[1].holders, 1);
    assert_false(usage_is_idle_allocated(&d, &d.gpus[0]));
    assert_true(usage_is_idle_allocated(&d, &d.gpus[1]));
    assert_true(usage_is_idle_allocated(&d, &d.pods[1]));
    assert_false(usage_is_idle_allocated(&d, &d.gpus[2]));   /* idle but nobody holds it */
    d.idle_threshold = 2;
    assert_false(usage_is_idle_allocated(&d, &d.gpus[1]));
    usage_clear(&d);
}

/* dcgm_accum_new_into: the series' strings go into the records' pool as they arrive, and the
 * records read the same as from an accumulator with its own strings, an over-long (64 KiB,
 * not pooled) pod name included (ASan: each such copy freed once); the records' strings are
 * the pool's one copy of each, shared by the device and its pod record. */
static void test_accum_into(void **state)
{
    (void)state;
    char *longpod = xcalloc(70000, 1);
    memset(longpod, 'p', 69999);
    PromLabel gpu0[] = { { "Hostname", "n1" }, { "gpu", "0" }, { "UUID", "GPU-1" }, { "modelName", "H100" },
                         { "namespace", "a" }, { "pod", longpod }, { "container", "c" } };
    PromLabel mig[] = { { "Hostname", "n1" }, { "gpu", "1" }, { "UUID", "GPU-2" }, { "GPU_I_ID", "3" },
                        { "GPU_I_PROFILE", "1g.10gb" }, { "namespace", "a" }, { "pod", "q" } };
    PromLabel parent[] = { { "Hostname", "n1" }, { "gpu", "1" }, { "UUID", "GPU-2" }, { "pod", "dropped" } };
    UsageData d[2];
    for (int k = 0; k < 2; k++) {
        memset(&d[k], 0, sizeof d[k]);
        DcgmAccum *a = k ? dcgm_accum_new_into(&d[k]) : dcgm_accum_new();
        assert_true(dcgm_accum_add(a, DCGM_FB_USED, gpu0, 7, 1000, NULL));
        assert_true(dcgm_accum_add(a, DCGM_FB_FREE, gpu0, 7, 3000, NULL));
        assert_true(dcgm_accum_add(a, DCGM_POWER_USAGE, gpu0, 7, 245.25, NULL));
        assert_true(dcgm_accum_add(a, DCGM_FB_USED, mig, 7, 500, NULL));
        assert_true(dcgm_accum_add(a, DCGM_GR_ENGINE_ACTIVE, mig, 7, 0.5, NULL));
        assert_true(dcgm_accum_add(a, DCGM_FB_USED, parent, 4, 9, NULL));   /* a MIG parent's: dropped */
        dcgm_accum_finish(a, &d[k]);
        dcgm_accum_free(a);
    }
    assert_int_equal(d[1].ngpus, 2);
    assert_int_equal(d[1].npods, 2);
    for (int pass = 0; pass < 2; pass++) {
        const GpuUsage *r0 = pass ? d[0].pods : d[0].gpus, *r1 = pass ? d[1].pods : d[1].gpus;
        size_t n = pass ? d[0].npods : d[0].ngpus;
        assert_int_equal(n, pass ? d[1].npods : d[1].ngpus);
        for (size_t i = 0; i < n; i++) {
            assert_string_equal(r0[i].node, r1[i].node);
            assert_string_equal(r0[i].uuid, r1[i].uuid);
            assert_string_equal(r0[i].model ? r0[i].model : "-", r1[i].model ? r1[i].model : "-");
            assert_string_equal(r0[i].pod ? r0[i].pod : "-", r1[i].pod ? r1[i].pod : "-");
            assert_int_equal(r0[i].mig_instance, r1[i].mig_instance);
            assert_near(r0[i].mem_used_mib, r1[i].mem_used_mib);
            assert_true(isnan(r0[i].util) ? isnan(r1[i].util) : r0[i].util == r1[i].util);
            assert_true(isnan(r0[i].power_w) ? isnan(r1[i].power_w) : r0[i].power_w == r1[i].power_w);
        }
    }
    assert_string_equal(d[1].gpus[0].pod, longpod);
    assert_near(d[1].gpus[1].util, 50);
    assert_ptr_equal(d[1].gpus[1].uuid, d[1].pods[1].uuid);   /* one copy */
    usage_clear(&d[0]);
    usage_clear(&d[1]);
    free(longpod);
}

/* the same double, NAN included (bit-exact answers: refilled numbers must be what a new set of
 * records would hold) */
#define assert_same(a, b) do { double a_ = (a), b_ = (b); \
    if (!(isnan(a_) ? isnan(b_) : a_ == b_)) fail_msg("%s = %.17g, want %.17g", #a, a_, b_); } while (0)

/* one device of node n1 (GPU-1, gpu 0) held by up to three pods of namespace ns (pods "a",
 * "b", "c", container "w"); fields of each added in the order given */
typedef struct { const char *pod; double used, free_mib, util, util_max; } HolderVals;

/* true when every value was taken */
static bool add_holders(DcgmAccum *a, const HolderVals *h, size_t n, const char *model)
{
    bool all = true;
    for (size_t i = 0; i < n; i++) {
        PromLabel l[] = { { "Hostname", "n1" }, { "gpu", "0" }, { "UUID", "GPU-1" }, { "modelName", model },
                          { "namespace", "ns" }, { "pod", h[i].pod }, { "container", "w" } };
        all &= dcgm_accum_add(a, DCGM_FB_USED, l, 7, h[i].used, NULL);
        all &= dcgm_accum_add(a, DCGM_FB_FREE, l, 7, h[i].free_mib, NULL);
        all &= dcgm_accum_add(a, DCGM_GPU_UTIL, l, 7, h[i].util, NULL);
        all &= dcgm_accum_add(a, DCGM_GPU_UTIL_MAX, l, 7, h[i].util_max, NULL);
    }
    return all;
}

static void build_holders(UsageData *d, const HolderVals *h, size_t n)
{
    memset(d, 0, sizeof *d);
    DcgmAccum *a = dcgm_accum_new_into(d);
    assert_true(add_holders(a, h, n, "H100"));
    dcgm_accum_finish(a, d);
    dcgm_accum_free(a);
}

/* A device three pods hold (time-slicing), values differing: the device's memory and
 * utilization are the sum (a per-process split), taken in the records' order (pods a, b, c)
 * whatever order the series came in; equal values are the device's value once, whichever
 * pod differs.  0.1 + 0.2 + 0.3: in the order a, b, c it is 0.6000000000000001, in the
 * order c, b, a (the order added) 0.6. */
static void test_three_holders(void **state)
{
    (void)state;
    struct { HolderVals h[3]; double used, util, util_max; } cases[] = {
        /* series added c, b, a */
        { { { "c", 0.3, 100, 30, 31 }, { "b", 0.2, 200, 20, 21 }, { "a", 0.1, 300, 10, 11 } },
          (0.1 + 0.2) + 0.3, (10.0 + 20) + 30, (11.0 + 21) + 31 },
        /* two equal, the third differs (first, middle, last): a split all the same */
        { { { "a", 5, 1, 40, 50 }, { "b", 5, 1, 40, 50 }, { "c", 7, 1, 40, 50 } }, 17, 40, 50 },
        { { { "a", 7, 1, 40, 50 }, { "b", 5, 1, 40, 50 }, { "c", 5, 1, 40, 50 } }, 17, 40, 50 },
        { { { "a", 5, 1, 40, 50 }, { "b", 7, 1, 41, 50 }, { "c", 5, 1, 40, 50 } }, 17, 121, 50 },
        /* all equal: the device's value repeated per pod */
        { { { "b", 6, 1, 40, 50 }, { "a", 6, 1, 40, 50 }, { "c", 6, 1, 40, 50 } }, 6, 40, 50 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        UsageData d;
        build_holders(&d, cases[c].h, 3);
        assert_int_equal(d.ngpus, 1);
        assert_int_equal(d.npods, 3);
        const GpuUsage *g = &d.gpus[0];
        assert_int_equal(g->holders, 3);
        assert_null(g->pod);                       /* several holders: the device names none */
        assert_same(g->mem_used_mib, cases[c].used);
        assert_same(g->util, cases[c].util);
        assert_same(g->util_max, cases[c].util_max);
        double free_max = 0;
        for (int i = 0; i < 3; i++) if (cases[c].h[i].free_mib > free_max) free_max = cases[c].h[i].free_mib;
        assert_same(g->mem_total_mib, cases[c].used + free_max);   /* used + the largest free */
        /* the pods' records: their own values, in the order a, b, c */
        for (int i = 0; i < 3; i++) {
            const GpuUsage *p = &d.pods[i];
            const HolderVals *want = NULL;
            for (int k = 0; k < 3; k++) if (strcmp(cases[c].h[k].pod, p->pod) == 0) want = &cases[c].h[k];
            assert_non_null(want);
            assert_int_equal(p->pod[0], 'a' + i);
            assert_int_equal(p->holders, 3);
            assert_same(p->mem_used_mib, want->used);
            assert_same(p->util, want->util);
            assert_same(p->util_max, want->util_max);
            assert_same(p->mem_total_mib, g->mem_total_mib);
        }
        usage_clear(&d);
    }
}

/* A refill (dcgm_accum_new_refill, usage_refill_apply): new values for the same devices and
 * pods leave in the shown records exactly the numbers a new set of records would hold (and
 * their strings where they were); a series for another pod, a pod without its series, another
 * model, fail it (the records would differ); a GPU-level series beside MIG instances is left
 * out as the records leave it out. */
static void test_refill(void **state)
{
    (void)state;
    HolderVals first[3] = { { "a", 1, 10, 1, 2 }, { "b", 2, 10, 3, 4 }, { "c", 3, 10, 5, 6 } };
    HolderVals next[3] = { { "c", 0.3, 100, 30, 31 }, { "a", 0.1, 300, 10, 11 }, { "b", 0.2, 200, 20, 22 } };
    PromLabel mig[] = { { "Hostname", "n1" }, { "gpu", "1" }, { "UUID", "GPU-2" }, { "GPU_I_ID", "3" },
                        { "GPU_I_PROFILE", "1g.10gb" }, { "modelName", "A100" } };
    PromLabel parent[] = { { "Hostname", "n1" }, { "gpu", "1" }, { "UUID", "GPU-2" }, { "modelName", "A100" } };

    UsageData shown, fresh, nd;
    build_holders(&shown, first, 3);
    {   /* the MIG instance beside them, in both */
        DcgmAccum *a = dcgm_accum_new_into(&shown);
        assert_true(dcgm_accum_add(a, DCGM_FB_USED, mig, 6, 100, NULL));
        dcgm_accum_finish(a, &shown);
        dcgm_accum_free(a);
    }
    shown.source = xstrdup("prometheus");
    shown.windowed = true;
    const char *pod_a = shown.pods[0].pod;
    /* what the next values make as records */
    memset(&fresh, 0, sizeof fresh);
    DcgmAccum *a = dcgm_accum_new_into(&fresh);
    assert_true(add_holders(a, next, 3, "H100"));
    assert_true(dcgm_accum_add(a, DCGM_FB_USED, mig, 6, 150, NULL));
    assert_true(dcgm_accum_add(a, DCGM_GR_ENGINE_ACTIVE, mig, 6, 0.25, NULL));
    assert_true(dcgm_accum_add(a, DCGM_FB_USED, parent, 4, 9, NULL));
    dcgm_accum_finish(a, &fresh);
    dcgm_accum_free(a);
    assert_int_equal(fresh.ngpus, 2);
    /* the same as a refill of shown (MIG instance's series first, the parent's too) */
    memset(&nd, 0, sizeof nd);
    a = dcgm_accum_new_refill(&shown);
    assert_true(dcgm_accum_add(a, DCGM_GR_ENGINE_ACTIVE, mig, 6, 0.25, NULL));
    assert_true(dcgm_accum_add(a, DCGM_FB_USED, parent, 4, 9, NULL));
    assert_true(dcgm_accum_add(a, DCGM_FB_USED, mig, 6, 150, NULL));
    assert_true(add_holders(a, next, 3, "H100"));
    assert_false(dcgm_accum_refill_failed(a));
    assert_true(dcgm_accum_finish_refill(a, &nd));
    dcgm_accum_free(a);
    assert_int_equal(nd.ngpus, 0);                 /* no records of its own */
    nd.source = xstrdup("prometheus");
    nd.evaluated_at = 1234;
    strvec_push(&nd.warnings, "w");
    assert_true(usage_refill_apply(&shown, &nd));
    assert_null(nd.refill);
    assert_int_equal(shown.warnings.n, 1);
    assert_true(shown.evaluated_at == 1234);
    assert_ptr_equal(shown.pods[0].pod, pod_a);    /* the records stay; their numbers change */
    for (int pass = 0; pass < 2; pass++) {
        const GpuUsage *r = pass ? shown.pods : shown.gpus, *w = pass ? fresh.pods : fresh.gpus;
        size_t n = pass ? shown.npods : shown.ngpus;
        assert_int_equal(n, pass ? fresh.npods : fresh.ngpus);
        for (size_t i = 0; i < n; i++) {
            assert_string_equal(r[i].pod ? r[i].pod : "-", w[i].pod ? w[i].pod : "-");
            assert_int_equal(r[i].holders, w[i].holders);
            assert_same(r[i].mem_used_mib, w[i].mem_used_mib);
            assert_same(r[i].mem_total_mib, w[i].mem_total_mib);
            assert_same(r[i].util, w[i].util);
            assert_same(r[i].util_max, w[i].util_max);
            assert_same(r[i].temp_c, w[i].temp_c);
            assert_same(r[i].power_w, w[i].power_w);
        }
    }
    assert_same(shown.gpus[0].mem_used_mib, (0.1 + 0.2) + 0.3);
    assert_same(shown.gpus[1].util, 25);

    /* what fails: another pod; a pod without its series; another model; a series without
     * the current fields only */
    HolderVals four[4] = { { "a", 1, 1, 1, 1 }, { "b", 1, 1, 1, 1 }, { "c", 1, 1, 1, 1 }, { "d", 1, 1, 1, 1 } };
    for (int k = 0; k < 3; k++) {
        memset(&nd, 0, sizeof nd);
        a = dcgm_accum_new_refill(&shown);
        assert_true(dcgm_accum_add(a, DCGM_FB_USED, mig, 6, 150, NULL));
        if (k == 0) {
            assert_false(add_holders(a, four, 4, "H100"));
            assert_true(dcgm_accum_refill_failed(a));
        } else {
            assert_int_equal(add_holders(a, four, k == 1 ? 2 : 3, k == 2 ? "H200" : "H100"), k == 1);
            assert_int_equal(dcgm_accum_refill_failed(a), k == 2);
        }
        assert_false(dcgm_accum_finish_refill(a, &nd));
        assert_null(nd.refill);
        dcgm_accum_free(a);
        usage_clear(&nd);
    }
    usage_clear(&shown);
    usage_clear(&fresh);
}

/* The joins' index (sorted positions) answers as a scan of the records does, in record order:
 * records interleaved across nodes, one pod name in two namespaces, pooled (usage_intern) and
 * own strings mixed in one UsageData (usage_clear frees only the own ones). */
static void test_joins_match_scan(void **state)
{
    (void)state;
    UsageData d;
    memset(&d, 0, sizeof d);
    d.source = xstrdup("prometheus");
    enum { N = 600, NODES = 37 };
    d.gpus = xcalloc(N, sizeof *d.gpus);
    d.pods = xcalloc(N, sizeof *d.pods);
    char buf[64];
    for (int i = 0; i < N; i++) {
        GpuUsage *g = &d.gpus[d.ngpus++], *p = &d.pods[d.npods++];
        snprintf(buf, sizeof buf, "node-%d", (i * 7) % NODES);
        g->node = i % 2 ? usage_intern(&d, buf) : xstrdup(buf);
        p->node = usage_intern(&d, buf);
        g->gpu = p->gpu = i / NODES;
        g->mig_instance = p->mig_instance = -1;
        snprintf(buf, sizeof buf, "train-%d", i % 50);
        p->pod = i % 3 ? usage_intern(&d, buf) : xstrdup(buf);
        p->ns = usage_intern(&d, i % 4 ? "team-a" : "team-b");
        p->mem_used_mib = 100 + i;
        p->util = i % 5 ? (double)(i % 90) : NAN;
        g->mem_used_mib = p->mem_used_mib;
        if (i % 11 == 0) {                                      /* no node: in no join */
            if (i % 2 == 0) free(g->node);                      /* its own copy */
            g->node = NULL;
        }
    }
    usage_intern_done(&d);
    const GpuUsage *out[N];
    for (int k = 0; k <= NODES; k++) {
        snprintf(buf, sizeof buf, "node-%d", k);
        size_t want = 0;
        const GpuUsage *exp[N];
        for (size_t i = 0; i < d.ngpus; i++)
            if (d.gpus[i].node && strcmp(d.gpus[i].node, buf) == 0) exp[want++] = &d.gpus[i];
        assert_int_equal(usage_node_gpus(&d, buf, out, N), want);
        for (size_t i = 0; i < want; i++) assert_ptr_equal(out[i], exp[i]);
    }
    for (int k = 0; k <= 50; k++) {
        snprintf(buf, sizeof buf, "train-%d", k);
        for (int t = 0; t < 3; t++) {
            const char *ns = t == 0 ? "team-a" : t == 1 ? "team-b" : NULL;
            double mem = 0, usum = 0;
            size_t nmem = 0, nu = 0, found = 0;
            for (size_t i = 0; i < d.npods; i++) {
                const GpuUsage *u = &d.pods[i];
                if (strcmp(u->pod, buf) != 0 || (ns && strcmp(u->ns, ns) != 0)) continue;
                found++;
                mem += u->mem_used_mib; nmem++;
                if (!isnan(u->util)) { usum += u->util; nu++; }
            }
            double m, ut;
            assert_int_equal(usage_for_pod(&d, ns, buf, &m, &ut), found > 0);
            if (nmem) assert_near(m, mem); else assert_true(isnan(m));
            if (nu) assert_near(ut, usum / (double)nu); else assert_true(isnan(ut));
        }
    }
    usage_clear(&d);
}

/* Thousands of devices, their lines in a scrambled order: the records come out sorted by node
 * and gpu (the series reordered in place, the records built from the last device back while
 * the series behind them are given back), each with its own values.  Node k's gpu g is device
 * i = 4k + g: FB_USED 1000 + i, FB_FREE 500, GPU_UTIL i % 100; held by pod "a-i", and devices
 * with i % 3 == 0 also by "b-i" (time-sliced, the same values: the device's repeated); devices
 * with i % 7 == 0 by none. */
static void test_many_devices(void **state)
{
    (void)state;
    enum { NODES = 2000, DEVS = NODES * 4 };
    Strbuf lines[3] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
    static const char *const metric[3] = { "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_FREE", "DCGM_FI_DEV_GPU_UTIL" };
    unsigned seed = 99;
    size_t *order = xcalloc(DEVS, sizeof *order);
    for (size_t i = 0; i < DEVS; i++) order[i] = i;
    for (size_t i = DEVS - 1; i > 0; i--) {          /* Fisher-Yates */
        seed = seed * 1103515245u + 12345u;
        size_t j = (seed >> 8) % (i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (size_t o = 0; o < DEVS; o++) {
        size_t i = order[o];
        for (int m = 0; m < 3; m++) {
            double v = m == 0 ? 1000.0 + (double)i : m == 1 ? 500 : (double)(i % 100);
            for (int holder = 0; holder < 2; holder++) {
                if (holder == 1 && i % 3 != 0) continue;
                char pod[64] = "";
                if (i % 7 != 0)
                    snprintf(pod, sizeof pod, ",namespace=\"ns\",pod=\"%c-%zu\",container=\"c\"", holder ? 'b' : 'a', i);
                else if (holder) continue;
                char *line = xasprintf("%s{gpu=\"%zu\",UUID=\"GPU-%zu\",Hostname=\"n%05zu\"%s} %g\n",
                                       metric[m], i % 4, i, i / 4, pod, v);
                strbuf_adds(&lines[m], line);
                free(line);
            }
        }
    }
    free(order);
    Strbuf all = STRBUF_INIT;
    for (int m = 0; m < 3; m++) { strbuf_add(&all, lines[m].buf, lines[m].len); strbuf_clear(&lines[m]); }
    UsageData d;
    memset(&d, 0, sizeof d);
    PromTextStats st;
    dcgm_parse_text(all.buf, all.len, NULL, &d, &st);
    strbuf_clear(&all);
    assert_int_equal(st.skipped, 0);
    assert_int_equal(d.ngpus, DEVS);
    size_t np = 0;
    for (size_t i = 0; i < DEVS; i++) {
        const GpuUsage *u = &d.gpus[i];
        char node[16];
        snprintf(node, sizeof node, "n%05zu", i / 4);
        assert_string_equal(u->node, node);
        assert_int_equal(u->gpu, (int)(i % 4));
        assert_near(u->mem_used_mib, 1000.0 + (double)i);
        assert_near(u->mem_total_mib, 1500.0 + (double)i);
        assert_near(u->util, (double)(i % 100));
        int holders = i % 7 == 0 ? 0 : i % 3 == 0 ? 2 : 1;
        assert_int_equal(u->holders, holders);
        for (int h = 0; h < holders; h++, np++) {
            char pod[32];
            snprintf(pod, sizeof pod, "%c-%zu", h ? 'b' : 'a', i);
            assert_true(np < d.npods);
            assert_string_equal(d.pods[np].pod, pod);
            assert_string_equal(d.pods[np].node, node);
            assert_near(d.pods[np].mem_used_mib, 1000.0 + (double)i);
        }
    }
    assert_int_equal(d.npods, np);
    usage_clear(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_basics),
        cmocka_unit_test(test_text_stop),
        cmocka_unit_test(test_whole_gpus), cmocka_unit_test(test_health_fields),
        cmocka_unit_test(test_mig_mixed),
        cmocka_unit_test(test_joins_match_scan), cmocka_unit_test(test_many_devices),
        cmocka_unit_test(test_time_sliced),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_truncations),
        cmocka_unit_test(test_accum_window),
        cmocka_unit_test(test_accum_into),
        cmocka_unit_test(test_three_holders), cmocka_unit_test(test_refill),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Unit tests: snapshot_read — the List scanner, item kinds, the filters that mirror the live
 * lists, the snapshot annotations, and every way a file can fail to be a snapshot. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include "model/cluster.h"
#include "util/error.h"
#include "sources/loader.h"
#include "util/util.h"
#include "sources/snapshot_format.h"
#include <math.h>
#include <zlib.h>
#include <cjson/cJSON.h>

static char dir[PATH_MAX];
static const LoadRequest ALL = { true, true, true, true, true, true, true, NULL, NULL, true, false, NULL, true, true };

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/kgpu-snapshot-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static char *write_file(const char *name, const char *text)
{
    char *p = xasprintf("%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return p;
}

#define NODE(name, labels) "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\",\"labels\":{" labels "}}," \
    "\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"8\"},\"allocatable\":{\"nvidia.com/gpu\":\"8\"}," \
    "\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}"
#define POD(ns, name, phase) "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"" ns "\",\"name\":\"" name "\",\"uid\":\"u-" name "\"}," \
    "\"spec\":{\"nodeName\":\"gpu-1\",\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"nvidia.com/gpu\":\"1\"}}}]}," \
    "\"status\":{\"phase\":\"" phase "\"}}"

static const char *FULL =
    "{\n"
    "  \"apiVersion\": \"v1\", \"kind\": \"List\",\n"
    "  \"items\": [\n"
    "    " NODE("gpu-1", "\"pool\":\"a100\"") ",\n"
    "    " NODE("gpu-2", "\"pool\":\"h100\"") ",\n"
    "    " POD("ml", "train-1", "Running") ",\n"
    "    " POD("ml", "done-1", "Succeeded") ",\n"
    "    " POD("web", "infer-1", "Pending") ",\n"
    "    {\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"x\",\"namespace\":\"ml\"},\"data\":{\"k\":\"]}\\\"[{\"}}\n"
    "  ],\n"
    "  \"kubectlGpuMetrics\": {\"source\": \"prometheus\", \"series\": [[1, \"a]b\"], {\"x\": null, \"y\": -1.5e3, \"z\": true}]},\n"
    "  \"metadata\": {\"annotations\": {\"kubectl-gpu/snapshot-time\": \"2024-05-14T17:30:41Z\",\n"
    "     \"kubectl-gpu/context\": \"prod\", \"kubectl-gpu/server\": \"https://api.example.test\",\n"
    "     \"kubectl-gpu/clusterpolicy-checked\": \"true\",\n"
    "     \"kubectl-gpu/warnings\": \"daemonsets: forbidden: no (GPU Operator health not shown)\"}}\n"
    "}\n";

static void test_full_list(void **state)
{
    (void)state;
    char *p = write_file("full.json", FULL);
    Cluster c;
    cluster_init(&c);
    Error err = { 0 };
    assert_int_equal(snapshot_read(&c, p, &ALL, &err), 0);
    assert_int_equal(c.nnodes, 2);
    assert_int_equal(c.all_pods, 2);              /* the Succeeded pod is left out, as live */
    assert_int_equal(c.now, 1715707841);
    assert_string_equal(c.context, "prod");
    assert_string_equal(c.server, "https://api.example.test");
    assert_true(c.clusterpolicy_checked);
    assert_int_equal(c.warnings.n, 1);
    assert_string_equal(c.warnings.v[0], "daemonsets: forbidden: no (GPU Operator health not shown) (when the snapshot was taken)");
    char *src = xasprintf("snapshot %s", p);
    assert_string_equal(c.source, src);
    free(src);
    cluster_release(&c);

    /* -l and -n filter as the live lists do; kinds not asked for are skipped */
    LoadRequest rq = ALL;
    rq.node_selector = "pool=h100";
    rq.pod_namespace = "web";
    cluster_init(&c);
    assert_int_equal(snapshot_read(&c, p, &rq, &err), 0);
    assert_int_equal(c.nnodes, 1);
    assert_string_equal(c.nodes[0].name, "gpu-2");
    assert_int_equal(c.all_pods, 1);
    cluster_release(&c);
    rq = ALL;
    rq.nodes = false;
    cluster_init(&c);
    assert_int_equal(snapshot_read(&c, p, &rq, &err), 0);
    assert_int_equal(c.nnodes, 0);
    assert_int_equal(c.all_pods, 2);
    cluster_release(&c);
    rq = ALL;
    rq.node_selector = "pool in (a";
    cluster_init(&c);
    assert_int_equal(snapshot_read(&c, p, &rq, &err), -1);
    assert_true(str_starts_with(err.msg, "invalid node selector \"pool in (a\" (-l): "));
    cluster_release(&c);
    free(p);
}

static void test_typed_list_and_single_object(void **state)
{
    (void)state;
    /* as the API serves it: NodeList items have no kind */
    char *p = write_file("nodelist.json",
        "{\"kind\":\"NodeList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"5\"},\"items\":["
        "{\"metadata\":{\"name\":\"n1\"}},{\"metadata\":{\"name\":\"n2\"}}]}");
    Cluster c;
    cluster_init(&c);
    Error err = { 0 };
    assert_int_equal(snapshot_read(&c, p, &ALL, &err), 0);
    assert_int_equal(c.nnodes, 2);
    cluster_release(&c);
    free(p);

    p = write_file("node.json", NODE("solo", ""));
    cluster_init(&c);
    assert_int_equal(snapshot_read(&c, p, &ALL, &err), 0);
    assert_int_equal(c.nnodes, 1);
    assert_string_equal(c.nodes[0].name, "solo");
    cluster_release(&c);
    free(p);

    /* "items": null and an empty List are empty clusters, not errors */
    p = write_file("empty-list.json", "{\"kind\":\"List\",\"items\":null}");
    cluster_init(&c);
    assert_int_equal(snapshot_read(&c, p, &ALL, &err), 0);
    assert_int_equal(c.nnodes, 0);
    cluster_release(&c);
    free(p);
}

static void test_mtime_when_no_annotation(void **state)
{
    (void)state;
    char *p = write_file("plain.json", "{\"kind\":\"List\",\"items\":[" NODE("n", "") "]}");
    struct timeval tv[2] = { { 1700000000, 0 }, { 1700000000, 0 } };
    assert_int_equal(utimes(p, tv), 0);
    Cluster c;
    cluster_init(&c);
    Error err = { 0 };
    assert_int_equal(snapshot_read(&c, p, &ALL, &err), 0);
    assert_int_equal(c.now, 1700000000);
    assert_null(c.context);
    cluster_release(&c);
    free(p);
}

static void test_malformed_item_is_a_warning(void **state)
{
    (void)state;
    char *p = write_file("noname.json", "{\"kind\":\"List\",\"items\":[" NODE("ok", "") ","
                         "{\"kind\":\"Node\",\"metadata\":{}}]}");
    Cluster c;
    cluster_init(&c);
    Error err = { 0 };
    assert_int_equal(snapshot_read(&c, p, &ALL, &err), 0);
    assert_int_equal(c.nnodes, 1);
    assert_int_equal(c.warnings.n, 1);
    assert_true(str_starts_with(c.warnings.v[0], "1 object(s) in the snapshot could not be read and were skipped (first: items[1] (Node): "));
    cluster_release(&c);
    free(p);
}

static void expect_error(const char *name, const char *text, const char *want)
{
    char *p = text ? write_file(name, text) : xasprintf("%s/%s", dir, name);
    Cluster c;
    cluster_init(&c);
    Error err = { 0 };
    assert_int_equal(snapshot_read(&c, p, &ALL, &err), -1);
    char *full = xasprintf("snapshot %s: %s", p, want);
    if (!str_starts_with(err.msg, full)) {
        fprintf(stderr, "got:\n  %s\nwant:\n  %s\n", err.msg, full);
        fail();
    }
    free(full);
    cluster_release(&c);
    free(p);
}

static void test_not_a_snapshot(void **state)
{
    (void)state;
    expect_error("missing.json", NULL, "No such file or directory");
    expect_error("empty.json", "", "the file is empty, not a Kubernetes List");
    /* (ConfigMap is a kind the model reads since the planner carries the operator's maps over) */
    expect_error("secret.json", "{\"kind\":\"Secret\",\"data\":{}}", "not a Kubernetes List (kind Secret)");
    expect_error("nokind.json", "{\"items\":[]}", "not a Kubernetes List (kind missing)");
    expect_error("array.json", "[1,2]", "not a Kubernetes List (the file is not a JSON object)");
    expect_error("yaml.yaml", "apiVersion: v1\nkind: List\n", "not a Kubernetes List (the file is not a JSON object)");
    expect_error("truncated.json", "{\"kind\":\"List\",\"items\":[" NODE("n", "") ",{\"kind\":\"Node\",\"metadata\":{\"na",
                 "invalid JSON at byte ");
    expect_error("truncated2.json", "{\"kind\":\"List\",\"items\":[" NODE("n", "") ",{\"kind\":\"Node\"",
                 "invalid JSON at byte ");
    expect_error("trailing.json", "{\"kind\":\"List\",\"items\":[]} {\"more\":1}", "invalid JSON at byte 27: data after the end of the List");
    expect_error("mismatch.json", "{\"kind\":\"List\",\"items\":[{\"a\":[1}]}", "invalid JSON at byte 31: mismatched bracket");
    expect_error("nokey.json", "{\"kind\":\"List\", 5: 1}", "invalid JSON at byte 16: expected a key");
    expect_error("itemkind.json", "{\"kind\":\"List\",\"items\":[" NODE("n", "") ",{\"metadata\":{\"name\":\"x\"}}]}",
                 "items[1] has no kind");
    expect_error("itemnum.json", "{\"kind\":\"List\",\"items\":[42]}", "items[0] is not a JSON object");
    expect_error("itemsobj.json", "{\"kind\":\"List\",\"items\":{}}", "\"items\" is not a list");
    expect_error("ctrl.json", "{\"kind\":\"List\",\"items\":[{\"a\":\"x\ny\"}]}", "invalid JSON at byte ");
    expect_error("badlit.json", "{\"kind\":\"List\",\"items\":[{\"a\":@}]}", "invalid JSON at byte 29: unexpected character");
    /* nesting deep enough to blow a recursive parser's stack is refused by the scanner */
    Strbuf deep = STRBUF_INIT;
    strbuf_adds(&deep, "{\"kind\":\"List\",\"items\":[");
    for (int i = 0; i < 100000; i++) strbuf_addch(&deep, '[');
    expect_error("deep.json", strbuf_str(&deep), "invalid JSON at byte ");
    strbuf_clear(&deep);
    /* a directory is not a snapshot */
    expect_error("", NULL, "not a regular file");
}

/* the truncated case names the reason a person can act on */
static void test_truncated_message(void **state)
{
    (void)state;
    char *p = write_file("cut.json", "{\"kind\":\"List\",\"items\":[" NODE("n", ""));
    Cluster c;
    cluster_init(&c);
    Error err = { 0 };
    assert_int_equal(snapshot_read(&c, p, &ALL, &err), -1);
    assert_non_null(strstr(err.msg, "unexpected end of file (truncated?)"));
    cluster_release(&c);
    free(p);
}

static char *write_gz(const char *name, const char *text, size_t keep)
{
    char *p = xasprintf("%s/%s", dir, name);
    gzFile g = gzopen(p, "wb");
    assert_non_null(g);
    assert_int_equal(gzwrite(g, text, (unsigned)strlen(text)), (int)strlen(text));
    assert_int_equal(gzclose(g), Z_OK);
    if (keep) assert_int_equal(truncate(p, (off_t)keep), 0);
    return p;
}

/* the same List gzip-compressed reads as plain; a cut or damaged gzip file is an error */
static void test_gzip(void **state)
{
    (void)state;
    char *p = write_gz("full.json.gz", FULL, 0);
    Cluster c;
    cluster_init(&c);
    Error err = { 0 };
    assert_int_equal(snapshot_read(&c, p, &ALL, &err), 0);
    assert_int_equal(c.nnodes, 2);
    assert_int_equal(c.all_pods, 2);
    assert_string_equal(c.context, "prod");
    cluster_release(&c);
    free(p);

    struct stat st;
    p = write_gz("cut.json.gz", FULL, 0);
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(truncate(p, st.st_size / 2), 0);
    cluster_init(&c);
    assert_int_equal(snapshot_read(&c, p, &ALL, &err), -1);
    assert_non_null(strstr(err.msg, "the compressed data is damaged or cut short"));
    cluster_release(&c);
    free(p);
}

/* a "<Kind>List" whose kind comes after its items (as kubectl prints a List) */
static void test_kind_after_items(void **state)
{
    (void)state;
    char *p = write_file("late.json", "{\"items\":[{\"metadata\":{\"name\":\"n1\"}},{\"metadata\":{\"name\":\"n2\"}}],"
                         "\"kind\":\"NodeList\",\"apiVersion\":\"v1\"}");
    Cluster c;
    cluster_init(&c);
    Error err = { 0 };
    assert_int_equal(snapshot_read(&c, p, &ALL, &err), 0);
    assert_int_equal(c.nnodes, 2);
    cluster_release(&c);
    free(p);
    p = write_file("late-list.json", "{\"items\":[{\"metadata\":{\"name\":\"n1\"}}],\"kind\":\"List\"}");
    cluster_init(&c);
    assert_int_equal(snapshot_read(&c, p, &ALL, &err), -1);
    assert_non_null(strstr(err.msg, "items[0] has no kind"));
    cluster_release(&c);
    free(p);
}

static void collect(void *ctx, cJSON *rec)
{
    cJSON_AddItemToArray(ctx, cJSON_Duplicate(rec, 1));
}

/* usage records (snapshot_format.h) are read back exactly, and handed out as the query asks */
static void test_usage_records(void **state)
{
    (void)state;
    UsageData d;
    memset(&d, 0, sizeof d);
    d.source = xstrdup("prometheus");
    d.detail = xstrdup("Prometheus http://prom:9090");
    d.window_s = 3600;
    d.idle_threshold = 5;
    d.windowed = true;
    d.evaluated_at = 1748858430;
    strvec_push(&d.warnings, "metrics: one warning");
    d.ngpus = 2;
    d.gpus = xcalloc(2, sizeof *d.gpus);
    d.gpus[0] = (GpuUsage){ .node = xstrdup("a100-01"), .gpu = 3, .uuid = xstrdup("GPU-1"), .model = xstrdup("NVIDIA A100"),
                            .mig_instance = -1, .ns = xstrdup("ml"), .pod = xstrdup("p"), .container = xstrdup("c"),
                            .mem_used_mib = 1234.5, .mem_total_mib = 81920, .util = 0.1 + 0.2, .util_max = NAN, .holders = 1 };
    d.gpus[1] = (GpuUsage){ .node = xstrdup("a100-01"), .gpu = 4, .mig_profile = xstrdup("1g.10gb"), .mig_instance = 7,
                            .mem_used_mib = NAN, .mem_total_mib = 9728, .util = 3, .util_max = 4 };
    /* a series for the first device (the second has none), one per-pod record of it, and the
     * time one pod held it */
    d.series_points = 3;
    d.nseries = 1;
    d.series_start = 1748858310;
    d.series_step = 60;
    usage_series_resize(&d, 1);
    /* the points as the model holds them (usage.h: 16 bits each): 0.1 and 2.5 % are on a
     * grid of hundredths, read back as those floats; memory 1000, 1234.5 and 1/3 MiB on no
     * grid that spans them: step 1 MiB from 0 (base floor(1/3)), read back rounded to whole
     * MiB (half away from zero: 1235) */
    const float su0[3] = { 0.1f, NAN, 2.5f }, sm0[3] = { 1000, 1234.5f, 1.0f / 3 };
    usage_series_put_row(&d, USAGE_SERIES_UTIL, 0, su0);
    usage_series_put_row(&d, USAGE_SERIES_MEM, 0, sm0);
    d.gpus[0].series = 1;
    d.npods = 1;
    d.pods = xcalloc(1, sizeof *d.pods);
    d.pods[0] = (GpuUsage){ .node = xstrdup("a100-01"), .gpu = 3, .uuid = xstrdup("GPU-1"), .mig_instance = -1,
                            .ns = xstrdup("ml"), .pod = xstrdup("p"), .mem_used_mib = 1, .util = 1, .util_max = 2,
                            .series = 1 };
    d.nheld = 1;
    d.held = xcalloc(1, sizeof *d.held);
    d.held[0] = (UsageHeld){ .node = xstrdup("a100-01"), .gpu = 3, .uuid = xstrdup("GPU-1"), .mig_instance = -1,
                             .ns = xstrdup("ml"), .pod = xstrdup("gone-pod"), .held_s = 120, .idle_s = 60,
                             .share_s = 90, .idle_share_s = NAN };
    MetricsQuery dq = { 3600, 5, 95, false, false, false }, wq = { 7 * 86400, 5, 95, true, false, false };
    WorkloadUsage w = { .ns = xstrdup("ml"), .pod = xstrdup("p"), .container = xstrdup("c"), .mem_peak_mib = 9000,
                        .mem_pct_mib = 8123.25, .util_peak = 40, .util_pct = 33.3333333333, .samples = 1008, .devices = 2 };
    cJSON *arr = cJSON_CreateArray();
    snapshot_usage_records("devices", &d, &dq, NULL, 0, collect, arr);
    UsageData wd;
    memset(&wd, 0, sizeof wd);
    wd.source = xstrdup("prometheus");
    wd.detail = xstrdup("Prometheus http://prom:9090");
    wd.window_s = 7 * 86400;
    wd.windowed = true;
    snapshot_usage_records("workloads", &wd, &wq, &w, 1, collect, arr);
    cJSON *list = cJSON_CreateObject();
    cJSON_AddStringToObject(list, "kind", "List");
    cJSON_AddItemToObject(list, "items", arr);
    char *text = cJSON_PrintUnformatted(list);
    cJSON_Delete(list);
    char *p = write_gz("usage.json.gz", text, 0);
    free(text);

    Cluster c;
    cluster_init(&c);
    Error err = { 0 };
    assert_int_equal(snapshot_read(&c, p, &ALL, &err), 0);
    assert_non_null(c.stored_usage);
    UsageData got;
    memset(&got, 0, sizeof got);
    assert_true(snapshot_usage_fill(&c, &dq, &got, NULL, NULL));
    assert_string_equal(got.source, "prometheus");
    assert_non_null(strstr(got.detail, "Prometheus http://prom:9090 (stored in the snapshot, evaluated at 2025-06-02T10:00:30Z)"));
    assert_int_equal(got.ngpus, 2);
    assert_string_equal(got.gpus[0].node, "a100-01");
    assert_int_equal(got.gpus[0].gpu, 3);
    assert_true(got.gpus[0].mem_used_mib == 1234.5);
    assert_true(got.gpus[0].util == 0.1 + 0.2);          /* exactly, as printed and read back */
    assert_true(isnan(got.gpus[0].util_max));
    assert_true(isnan(got.gpus[1].mem_used_mib));
    assert_string_equal(got.gpus[1].mig_profile, "1g.10gb");
    assert_int_equal(got.gpus[1].mig_instance, 7);
    assert_int_equal(got.warnings.n, 1);
    assert_true(got.windowed);
    /* the series: the same floats, NAN kept, the pod record on its device's row */
    assert_int_equal(got.series_points, 3);
    assert_true(got.series_start == 1748858310 && got.series_step == 60);
    float su[USAGE_SERIES_MAX], sm[USAGE_SERIES_MAX], sp[USAGE_SERIES_MAX];
    assert_true(usage_util_series(&got, &got.gpus[0], su));
    assert_true(usage_mem_series(&got, &got.gpus[0], sm));
    assert_false(usage_util_series(&got, &got.gpus[1], sp));
    assert_true(su[0] == 0.1f && isnan(su[1]) && su[2] == 2.5f);
    assert_true(sm[0] == 1000 && sm[1] == 1235 && sm[2] == 0);
    assert_int_equal(got.npods, 1);
    assert_int_equal(got.pods[0].series, got.gpus[0].series);
    assert_true(usage_util_series(&got, &got.pods[0], sp) && memcmp(sp, su, 3 * sizeof *sp) == 0);
    /* idle for the trailing run under the threshold: 2.5 % at the last point only */
    got.idle_threshold = 5;              /* metrics_collect sets it from the query */
    assert_true(usage_idle_for(&got, &got.gpus[0]) == 60);
    assert_int_equal(got.nheld, 1);
    assert_string_equal(got.held[0].pod, "gone-pod");
    assert_true(got.held[0].held_s == 120 && got.held[0].idle_s == 60 && got.held[0].share_s == 90);
    assert_true(isnan(got.held[0].idle_share_s));
    usage_clear(&got);
    /* handed over once per load */
    memset(&got, 0, sizeof got);
    assert_false(snapshot_usage_fill(&c, &dq, &got, NULL, NULL));
    cluster_release(&c);
    /* another window: the stored one, with a warning */
    cluster_init(&c);
    assert_int_equal(snapshot_read(&c, p, &ALL, &err), 0);
    MetricsQuery dq2 = { 7200, 5, 95, false, false, false };
    memset(&got, 0, sizeof got);
    assert_true(snapshot_usage_fill(&c, &dq2, &got, NULL, NULL));
    assert_int_equal(got.warnings.n, 2);
    assert_non_null(strstr(got.warnings.v[1], "the snapshot holds usage over 1h; a window of 2h cannot be applied offline"));
    usage_clear(&got);
    /* the workload profiles */
    WorkloadUsage *gw = NULL;
    size_t ngw = 0;
    memset(&got, 0, sizeof got);
    assert_true(snapshot_usage_fill(&c, &wq, &got, &gw, &ngw));
    assert_int_equal(ngw, 1);
    assert_string_equal(gw[0].pod, "p");
    assert_true(gw[0].mem_pct_mib == 8123.25 && gw[0].util_pct == 33.3333333333 && gw[0].samples == 1008);
    assert_int_equal(gw[0].devices, 2);
    assert_int_equal(got.ngpus, 0);
    workload_usage_free(gw, ngw);
    usage_clear(&got);
    cluster_release(&c);
    cluster_init(&c);
    assert_int_equal(snapshot_read(&c, p, &ALL, &err), 0);
    MetricsQuery wq99 = { 7 * 86400, 5, 99, true, false, false };
    memset(&got, 0, sizeof got);
    assert_true(snapshot_usage_fill(&c, &wq99, &got, &gw, &ngw));
    assert_int_equal(got.warnings.n, 1);
    assert_non_null(strstr(got.warnings.v[0], "p99 cannot be computed offline (the stored p95 is used)"));
    workload_usage_free(gw, ngw);
    usage_clear(&got);
    cluster_release(&c);
    free(p);
    usage_clear(&d);
    usage_clear(&wd);
    free(w.ns); free(w.pod); free(w.container);

    /* a snapshot without usage has none to give */
    p = write_file("nousage.json", FULL);
    cluster_init(&c);
    assert_int_equal(snapshot_read(&c, p, &ALL, &err), 0);
    memset(&got, 0, sizeof got);
    assert_false(snapshot_usage_fill(&c, &dq, &got, NULL, NULL));
    cluster_release(&c);
    free(p);
}

/* a snapshot copies no annotation but the two HAMi ones the model reads (snapshot_reduce.c):
 * the node's registration stays, a credential-looking one and last-applied-configuration go */
static void test_reduce_annotations(void **state)
{
    (void)state;
    cJSON *node = cJSON_Parse("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\","
        "\"annotations\":{\"hami.io/node-nvidia-register\":\"[]\",\"token\":\"s3cr3t\","
        "\"kubectl.kubernetes.io/last-applied-configuration\":\"{}\"}}}");
    cJSON *r = snapshot_reduce(OBJ_NODE, node);
    const cJSON *ann = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "metadata"), "annotations");
    assert_non_null(ann);
    assert_int_equal(cJSON_GetArraySize(ann), 1);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ann, "hami.io/node-nvidia-register")), "[]");
    char *text = cJSON_PrintUnformatted(r);
    assert_null(strstr(text, "s3cr3t"));
    free(text);
    cJSON_Delete(r);
    cJSON_Delete(node);
    /* no HAMi annotation: no annotations member at all (as before) */
    node = cJSON_Parse("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\",\"annotations\":{\"a\":\"b\"}}}");
    r = snapshot_reduce(OBJ_NODE, node);
    assert_null(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "metadata"), "annotations"));
    cJSON_Delete(r);
    cJSON_Delete(node);
}

/* snapshot_reduce_write prints pods and nodes as reduced without building the reduced object:
 * its text must be cJSON_PrintUnformatted(snapshot_reduce(...)), the reference path kept for
 * the other kinds, on objects with every rule's corners: repeated and misplaced members, a
 * "containers" that is not an array before one that is, non-object containers, conditions
 * without PodScheduled, kept and dropped annotations, numbers, escapes, and values larger than
 * the print buffer (printed through cJSON_PrintUnformatted instead) */
typedef struct { char *p; size_t n; } Sunk;

static void sink_text(void *ctx, const char *data, size_t n)
{
    Sunk *s = ctx;
    s->p = realloc(s->p, s->n + n + 1);
    memcpy(s->p + s->n, data, n);
    s->n += n;
    s->p[s->n] = '\0';
}

static void check_reduce_write(ObjKind kind, const char *json, size_t cap)
{
    cJSON *item = cJSON_Parse(json);
    assert_non_null(item);
    cJSON *r = snapshot_reduce(kind, item);
    char *want = cJSON_PrintUnformatted(r);
    char *buf = malloc(cap);
    Sunk got = { NULL, 0 };
    assert_true(snapshot_reduce_write(kind, item, &buf, &cap, sink_text, &got));
    assert_non_null(got.p);
    assert_string_equal(got.p, want);
    free(got.p);
    free(buf);
    free(want);
    cJSON_Delete(r);
    cJSON_Delete(item);
}

static void test_reduce_write_same_text(void **state)
{
    (void)state;
    static const char *const pods[] = {
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\",\"generateName\":\"x-\","
        "\"labels\":{\"a\":\"b\\\"q\\\\\\n\\u0001\\u00e9\"},\"managedFields\":[{\"manager\":\"m\"}],\"uid\":\"u\","
        "\"annotations\":{\"hami.io/vgpu-devices-allocated\":\"GPU-1,NVIDIA,1000,0:;\",\"other\":\"secret\"},"
        "\"ownerReferences\":[{\"kind\":\"Job\",\"name\":\"j\",\"controller\":true}],\"creationTimestamp\":\"2025-01-01T00:00:00Z\"},"
        "\"spec\":{\"nodeName\":\"n1\",\"priority\":2000000000,\"terminationGracePeriodSeconds\":30,"
        "\"containers\":[{\"name\":\"c\",\"image\":\"i\",\"env\":[{\"name\":\"K\",\"value\":\"V\"}],"
        "\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\"},\"requests\":{\"cpu\":\"250m\"}},\"restartPolicy\":\"Always\"},"
        "7,{\"name\":\"d\",\"args\":[\"--x\"]}],\"initContainers\":[{\"name\":\"i\",\"resources\":{}}],"
        "\"tolerations\":[{\"key\":\"k\",\"operator\":\"Exists\",\"tolerationSeconds\":300}],"
        "\"overhead\":{\"cpu\":\"0.5\"},\"affinity\":{\"nodeAffinity\":{}},\"nodeSelector\":{},"
        "\"schedulingGates\":[],\"volumes\":[{\"name\":\"v\"}]},"
        "\"status\":{\"phase\":\"Pending\",\"podIP\":\"10.0.0.1\",\"conditions\":[{\"type\":\"Ready\",\"status\":\"False\"},"
        "{\"type\":\"PodScheduled\",\"status\":\"False\",\"reason\":\"Unschedulable\",\"message\":\"0/3 nodes\"},7,"
        "{\"type\":5}],\"nominatedNodeName\":\"n2\",\"qosClass\":\"Burstable\"}}",
        /* containers first not an array (left as it is), then an array (kept as it is: only the
         * first of a name is reduced); initContainers twice; conditions not an array */
        "{\"kind\":\"Pod\",\"spec\":{\"containers\":{\"name\":\"c\"},\"containers\":[{\"name\":\"c\",\"image\":\"i\"}],"
        "\"initContainers\":[{\"name\":\"i\",\"command\":[\"sh\"]}],\"initContainers\":[{\"name\":\"j\",\"command\":[\"sh\"]}],"
        "\"priority\":1.5,\"overhead\":{\"n\":1e300,\"m\":-0.1,\"z\":0}},\"status\":{\"conditions\":{\"type\":\"PodScheduled\"}},"
        "\"metadata\":{\"name\":\"p\",\"annotations\":{\"x\":\"y\"}},\"metadata\":{\"name\":\"again\"},\"extra\":{\"a\":1}}",
        /* members that are not objects, no conditions kept, empty members */
        "{\"metadata\":\"m\",\"spec\":[1,2],\"status\":{\"conditions\":[]},\"apiVersion\":\"v2\"}",
        "{\"metadata\":{},\"spec\":{},\"status\":{}}",
        /* numbers around the integral fast path, keys and strings that need escapes, literals */
        "{\"spec\":{\"tolerations\":[{\"tolerationSeconds\":-0},{\"a\":999999999999999,\"b\":1000000000000000,"
        "\"c\":-999999999999999,\"d\":3000000000,\"e\":-7,\"f\":0.5,\"g\":1e-7,\"h\":2147483647,\"i\":-2147483648,"
        "\"j\":123456789.25,\"k\":0}],\"affinity\":{\"\":true,\"q\\\"k\\\\\":null,\"t\\tab\":false,"
        "\"s\":[\"\",\"\\u007f\",\"\\/\",\"caf\\u00e9 \\ud83d\\ude00\",\"a\\rb\\fc\\bd\",\"back\\\\slash\"],\"o\":{},\"l\":[]}},"
        "\"metadata\":{\"labels\":{\"\\u001f\":\"\\u0000cut\"}}}",
        "{}",
    };
    static const char *const nodes[] = {
        "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\",\"labels\":{\"nvidia.com/gpu.count\":\"8\"},"
        "\"annotations\":{\"hami.io/node-nvidia-register\":\"[]\",\"token\":\"s3cr3t\"}},"
        "\"spec\":{\"taints\":[{\"key\":\"nvidia.com/gpu\",\"effect\":\"NoSchedule\"}],\"unschedulable\":true,\"podCIDR\":\"x\"},"
        "\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"8\"},\"allocatable\":{\"nvidia.com/gpu\":\"7\"},"
        "\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}],\"images\":[{\"names\":[\"a\"]}],\"nodeInfo\":{}}}",
        "{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]},\"status\":{\"conditions\":[{\"type\":\"Ready\"}]}}",
    };
    for (size_t i = 0; i < sizeof pods / sizeof pods[0]; i++) {
        check_reduce_write(OBJ_POD, pods[i], 64 << 10);
        check_reduce_write(OBJ_POD, pods[i], 16);       /* the buffer grown while the item is written */
    }
    for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++) {
        check_reduce_write(OBJ_NODE, nodes[i], 64 << 10);
        check_reduce_write(OBJ_NODE, nodes[i], 16);
    }
    /* a value larger than the 1 MiB of room it is printed into: through cJSON_PrintUnformatted */
    size_t big = (size_t)3 << 20;
    char *huge = malloc(big + 200);
    int k = snprintf(huge, 200, "{\"metadata\":{\"name\":\"big\",\"labels\":{\"l\":\"");
    memset(huge + k, 'x', big);
    strcpy(huge + k + big, "\"}},\"spec\":{\"priority\":7}}");
    check_reduce_write(OBJ_POD, huge, 64 << 10);
    free(huge);
    /* another kind: nothing written, false */
    cJSON *ev = cJSON_Parse("{\"metadata\":{\"name\":\"e\"}}");
    Sunk got = { NULL, 0 };
    char *buf = NULL;
    size_t cap = 0;
    assert_false(snapshot_reduce_write(OBJ_EVENT, ev, &buf, &cap, sink_text, &got));
    assert_int_equal(got.n, 0);
    free(buf);
    cJSON_Delete(ev);
}

/* A pod the model only folds into its node's usage is written with what that reads
 * (cluster_pod_folded, snapshot_reduce.c FOLDED_*_KEEP): the cluster built from the written
 * pods is the cluster built from the pods as the API serves them.  Pod-level resources
 * (spec.resources, which effective_requests reads for cpu and memory) are kept for every pod. */
#define FPOD(name, extra_meta, spec, phase) "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" name "\"," \
    "\"namespace\":\"ml\",\"uid\":\"u-" name "\",\"labels\":{\"app\":\"a\",\"pod-template-hash\":\"h1\"}," \
    "\"ownerReferences\":[{\"kind\":\"ReplicaSet\",\"name\":\"rs-h1\",\"controller\":true}]" extra_meta "}," \
    "\"spec\":{" spec ",\"tolerations\":[{\"key\":\"k\",\"operator\":\"Exists\"}],\"priority\":7}," \
    "\"status\":{\"phase\":\"" phase "\",\"conditions\":[{\"type\":\"PodScheduled\",\"status\":\"True\"}]}}"
#define CTR(res) "\"containers\":[{\"name\":\"c\",\"image\":\"i\",\"resources\":{" res "}}]"

static const struct { const char *json; bool folded; } FOLD_PODS[] = {
    /* plain, bound: sidecar and plain init containers, overhead, pod-level resources */
    { FPOD("plain", "", "\"nodeName\":\"n1\"," CTR("\"requests\":{\"cpu\":\"1\",\"memory\":\"1Gi\"}") ","
           "\"initContainers\":[{\"name\":\"s\",\"restartPolicy\":\"Always\",\"resources\":{\"requests\":{\"cpu\":\"500m\"}}},"
           "{\"name\":\"i\",\"resources\":{\"requests\":{\"cpu\":\"3\"}}}],\"overhead\":{\"cpu\":\"100m\"},"
           "\"resources\":{\"requests\":{\"memory\":\"4Gi\"}},\"affinity\":{\"podAntiAffinity\":{}}", "Running"), true },
    { FPOD("unbound", "", CTR("\"requests\":{\"cpu\":\"2\"}"), "Pending"), true },
    { FPOD("done", "", "\"nodeName\":\"n1\"," CTR("\"requests\":{\"cpu\":\"2\"}"), "Succeeded"), true },
    { FPOD("noclaims", ",\"annotations\":{\"hami.io/vgpu-devices-allocated\":\"x\"}",
           "\"nodeName\":\"n1\",\"resourceClaims\":[]," CTR("\"limits\":{\"memory\":\"2Gi\"}"), "Running"), true },
    /* kept, or read whole: a GPU resource by name (in limits, in an init container, zero), a
     * claim, node affinity, a name the model refuses */
    { FPOD("gpu", "", "\"nodeName\":\"n1\"," CTR("\"limits\":{\"nvidia.com/gpu\":\"2\"}") ","
           "\"resources\":{\"requests\":{\"cpu\":\"6\"}}", "Running"), false },
    { FPOD("gpuinit", "", "\"nodeName\":\"n1\"," CTR("\"requests\":{\"cpu\":\"1\"}") ","
           "\"initContainers\":[{\"name\":\"i\",\"resources\":{\"requests\":{\"nvidia.com/mig-1g.10gb\":\"1\"}}}]", "Running"), false },
    { FPOD("gpuzero", "", "\"nodeName\":\"n1\"," CTR("\"requests\":{\"nvidia.com/gpu\":\"0\",\"cpu\":\"1\"}"), "Running"), false },
    { FPOD("gpuoverhead", "", "\"nodeName\":\"n1\"," CTR("") ",\"overhead\":{\"nvidia.com/gpu\":\"1\"}", "Running"), false },
    { FPOD("claim", "", "\"nodeName\":\"n1\",\"resourceClaims\":[{\"name\":\"g\",\"resourceClaimName\":\"rc\"}]," CTR(""), "Running"), false },
    { FPOD("affine", "", "\"nodeName\":\"n1\"," CTR("\"requests\":{\"cpu\":\"1\"}") ",\"affinity\":{\"nodeAffinity\":"
           "{\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":[{\"matchExpressions\":"
           "[{\"key\":\"a\",\"operator\":\"In\",\"values\":[\"b\"]}]}]}}}", "Running"), false },
    { FPOD("badop", "", "\"nodeName\":\"n1\"," CTR("") ",\"affinity\":{\"nodeAffinity\":"
           "{\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":[{\"matchExpressions\":"
           "[{\"key\":\"a\",\"operator\":\"Near\"}]}]}}}", "Running"), false },
};

/* each pod ingested into c, as the API serves it or as the snapshot writes it */
static int ingest_fold_pods(Cluster *c, bool written)
{
    cluster_init(c);
    Error e = { 0 };
    cJSON *node = cJSON_Parse(NODE("n1", "\"pool\":\"a\""));
    assert_int_equal(cluster_ingest(c, OBJ_NODE, node, &e), 0);
    cJSON_Delete(node);
    int failed = 0;
    for (size_t i = 0; i < sizeof FOLD_PODS / sizeof FOLD_PODS[0]; i++) {
        cJSON *pod = cJSON_Parse(FOLD_PODS[i].json);
        assert_non_null(pod);
        assert_int_equal(cluster_pod_folded(pod), FOLD_PODS[i].folded);
        if (written) {
            char *buf = NULL;
            size_t cap = 0;
            Sunk got = { NULL, 0 };
            assert_true(snapshot_reduce_write(OBJ_POD, pod, &buf, &cap, sink_text, &got));
            cJSON_Delete(pod);
            pod = cJSON_Parse(got.p);
            assert_non_null(pod);
            /* the folded ones lose what nothing reads */
            bool has_labels = strstr(got.p, "\"labels\"") != NULL;
            assert_int_equal(has_labels, !FOLD_PODS[i].folded);
            free(got.p);
            free(buf);
        }
        Error pe = { 0 };
        failed += cluster_ingest(c, OBJ_POD, pod, &pe) != 0;
        cJSON_Delete(pod);
    }
    cluster_finalize(c);
    return failed;
}

static void test_reduce_folded_same_cluster(void **state)
{
    (void)state;
    Cluster a, b;
    assert_int_equal(ingest_fold_pods(&a, false), 1);      /* badop */
    assert_int_equal(ingest_fold_pods(&b, true), 1);
    assert_int_equal(a.all_pods, b.all_pods);
    assert_int_equal(a.npods, b.npods);
    assert_int_equal(a.npods, 4);       /* gpu, gpuinit, gpuoverhead, claim (gpuzero and affine folded on reading) */
    const NodeUsage *ua = cluster_node_usage(&a, cluster_find_node(&a, "n1"));
    const NodeUsage *ub = cluster_node_usage(&b, cluster_find_node(&b, "n1"));
    assert_non_null(ua);
    assert_non_null(ub);
    assert_int_equal(ua->pods, ub->pods);
    assert_int_equal(ua->requested.n, ub->requested.n);
    for (size_t i = 0; i < ua->requested.n; i++)
        assert_int_equal(ua->requested.items[i].milli, rlist_get(&ub->requested, ua->requested.items[i].name));
    /* plain: max(1 + 0.5 sidecar, 3 + 0.5) cpu + 0.1 overhead; memory 4Gi from the pod level */
    assert_int_equal(rlist_get(&ua->requested, "memory") >= 4LL * 1024 * 1024 * 1024 * 1000, true);
    assert_true(cluster_saw_plain_unbound(&a, "ml", "unbound"));
    assert_true(cluster_saw_plain_unbound(&b, "ml", "unbound"));
    for (size_t i = 0; i < a.npods; i++) {
        const Pod *pa = &a.pods[i], *pb = cluster_find_pod(&b, pa->ns, pa->name);
        assert_non_null(pb);
        assert_string_equal(pa->node_name, pb->node_name);
        assert_int_equal(pa->requests.n, pb->requests.n);
        for (size_t k = 0; k < pa->requests.n; k++)
            assert_int_equal(pa->requests.items[k].milli, rlist_get(&pb->requests, pa->requests.items[k].name));
        assert_int_equal(pa->priority, pb->priority);
        assert_int_equal(pod_more(pa)->ntolerations, pod_more(pb)->ntolerations);
        assert_int_equal(pa->rs_hash_len, pb->rs_hash_len);
        assert_int_equal(pa->nclaims, pb->nclaims);
        assert_int_equal(pa->naffinity_terms, pb->naffinity_terms);
    }
    /* the GPU pod's cpu is the pod level's 6, which a snapshot without spec.resources lost */
    assert_int_equal(rlist_get(&cluster_find_pod(&b, "ml", "gpu")->requests, "cpu"), 6000);
    cluster_release(&a);
    cluster_release(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_list), cmocka_unit_test(test_typed_list_and_single_object),
        cmocka_unit_test(test_mtime_when_no_annotation), cmocka_unit_test(test_malformed_item_is_a_warning),
        cmocka_unit_test(test_not_a_snapshot), cmocka_unit_test(test_truncated_message),
        cmocka_unit_test(test_gzip), cmocka_unit_test(test_kind_after_items), cmocka_unit_test(test_usage_records),
        cmocka_unit_test(test_reduce_annotations), cmocka_unit_test(test_reduce_write_same_text),
        cmocka_unit_test(test_reduce_folded_same_cluster),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

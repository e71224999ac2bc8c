/* Unit tests: manifests.c — the device-plugin and mig-parted ConfigMaps and the ResourceQuotas
 * built from a plan.  The plan is the one of tests/unit/test_plan.c test_rollout (numbers worked
 * there); here: what each object says, and that the config file text is the YAML of the tree.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "manifests.h"
#include "render.h"

static Node mknode(const char *name, const char *product, int gpus, int64_t mem, int ccmaj, int ccmin)
{
    Node n;
    memset(&n, 0, sizeof n);
    n.name = (char *)name;
    n.ready = true;
    n.gpu.has_gfd = n.gpu.present = true;
    n.gpu.product = n.gpu.base_product = (char *)product;
    n.gpu.count = gpus;
    n.gpu.memory_mib = mem;
    n.gpu.replicas = 1;
    char b[16];
    snprintf(b, sizeof b, "%d", ccmaj); kv_set(&n.labels, "nvidia.com/gpu.compute.major", b);
    snprintf(b, sizeof b, "%d", ccmin); kv_set(&n.labels, "nvidia.com/gpu.compute.minor", b);
    return n;
}

static PlanWorkload wl(const char *ns, const char *name, const char *node, int count, int64_t mem, double util)
{
    PlanWorkload w = { .ns = ns, .name = name, .node = node, .resource = "nvidia.com/gpu", .count = count,
                       .has_usage = true, .memory_mib = mem, .utilization = util,
                       .peak_memory_mib = -1, .peak_utilization = NAN, .coverage = NAN };
    return w;
}

static char *yaml_text(const cJSON *doc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    int rc = render_yaml(f, doc, false);
    fclose(f);
    if (rc) { free(buf); return NULL; }
    return buf;
}

static char *failing_yaml(const cJSON *doc) { (void)doc; return NULL; }

typedef struct {
    Node a, b, t;
    PlanWorkload w[16];
    size_t n;
    char nm[8][24];
    PlanResult r;
} Fleet;

static void fleet(Fleet *f)
{
    f->a = mknode("a100-a", "NVIDIA-A100-SXM4-80GB", 8, 81920, 8, 0);
    f->b = mknode("a100-b", "NVIDIA-A100-SXM4-80GB", 8, 81920, 8, 0);
    f->t = mknode("t4-a", "Tesla-T4", 4, 15360, 7, 5);
    const Node *nodes[] = { &f->t, &f->b, &f->a };
    f->n = 0;
    for (int i = 0; i < 7; i++) {
        snprintf(f->nm[i], sizeof f->nm[i], "infer-%d", i);
        f->w[f->n++] = wl("serve", f->nm[i], "a100-b", 1, 8000, 5);     /* 1g.10gb */
    }
    f->w[f->n++] = wl("serve", "mid-0", "a100-b", 1, 30000, 30);          /* 3g.40gb */
    f->w[f->n++] = wl("lab", "mid-1", "a100-b", 1, 30000, 30);
    f->w[f->n++] = wl("lab", "train", "a100-b", 4, 70000, 95);            /* whole x4 */
    f->w[f->n++] = wl("vision", "t4-0", "t4-a", 1, 2000, 10);             /* MPS shared */
    f->w[f->n++] = wl("vision", "t4-1", "t4-a", 1, 2000, 10);
    PlanOptions o = { .choice = PLAN_CHOICE_AUTO, .headroom_pct = 10 };
    assert_int_equal(plan_build(nodes, 3, f->w, f->n, &o, &f->r), 0);
}

static void fleet_free(Fleet *f)
{
    plan_result_free(&f->r);
    kv_free(&f->a.labels); kv_free(&f->b.labels); kv_free(&f->t.labels);
}

static const cJSON *find_doc(const Manifests *m, const char *kind, const char *ns, const char *name)
{
    for (size_t i = 0; i < m->n; i++) {
        const cJSON *meta = cJSON_GetObjectItemCaseSensitive(m->docs[i], "metadata");
        if (strcmp(cJSON_GetObjectItemCaseSensitive(m->docs[i], "kind")->valuestring, kind) == 0 &&
            strcmp(cJSON_GetObjectItemCaseSensitive(meta, "namespace")->valuestring, ns) == 0 &&
            strcmp(cJSON_GetObjectItemCaseSensitive(meta, "name")->valuestring, name) == 0)
            return m->docs[i];
    }
    fail_msg("no %s %s/%s", kind, ns, name);
    return NULL;
}

static const char *data_of(const cJSON *d, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(d, "data"), key);
    assert_true(cJSON_IsString(v));
    return v->valuestring;
}

static void test_objects(void **state)
{
    (void)state;
    Fleet f;
    fleet(&f);
    ManifestOptions o = { .operator_namespace = "nvidia-gpu-operator", .plan_annotation = "p",
                          .usage_annotation = "requests", .yaml_text = yaml_text };
    Manifests m;
    assert_int_equal(manifests_build(&f.r, f.w, NULL, &o, &m), 0);
    assert_true(m.device_plugin);
    assert_true(m.mig_parted);
    assert_int_equal(m.quotas, 3);                   /* serve, lab, vision */
    assert_int_equal(m.n, 5);
    for (size_t i = 0; i < m.n; i++) {
        assert_string_equal(cJSON_GetObjectItemCaseSensitive(m.docs[i], "apiVersion")->valuestring, "v1");
        const cJSON *meta = cJSON_GetObjectItemCaseSensitive(m.docs[i], "metadata");
        assert_string_equal(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(meta, "annotations"),
                                                             "kubectl-gpu/usage")->valuestring, "requests");
    }
    /* device plugin: A100 mixed, T4 MPS x2 renamed; no -whole config (t4-a is the only node) */
    const cJSON *dp = find_doc(&m, "ConfigMap", "nvidia-gpu-operator", MANIFESTS_DEVICE_PLUGIN_CONFIGMAP);
    assert_string_equal(data_of(dp, "kgpu-a100-sxm4-80gb-mig"), "version: v1\nflags:\n  migStrategy: mixed\n");
    assert_string_equal(data_of(dp, "kgpu-tesla-t4-mps"),
                        "version: v1\nflags:\n  migStrategy: none\nsharing:\n  mps:\n    renameByDefault: true\n"
                        "    failRequestsGreaterThanOne: true\n    resources:\n    - name: nvidia.com/gpu\n"
                        "      replicas: 2\n");
    assert_null(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(dp, "data"), "kgpu-tesla-t4-whole"));
    /* mig-parted: all-disabled and a100-a's config: GPUs 0-1 MIG, 2-7 disabled */
    const cJSON *mp = find_doc(&m, "ConfigMap", "nvidia-gpu-operator", MANIFESTS_MIG_PARTED_CONFIGMAP);
    cJSON *file = manifests_mig_parted_file(&f.r);
    char *text = yaml_text(file);
    assert_string_equal(data_of(mp, "config.yaml"), text);
    free(text);
    const cJSON *mc = cJSON_GetObjectItemCaseSensitive(file, "mig-configs");
    assert_int_equal(cJSON_GetArraySize(mc), 2);
    const cJSON *dis = cJSON_GetObjectItemCaseSensitive(mc, "all-disabled");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(dis, 0), "devices")->valuestring, "all");
    const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(mc, "kgpu-a100-sxm4-80gb-mig-1");
    assert_non_null(cfg);
    int mig_gpus = 0, off = 0, instances_1g = 0, instances_3g = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cfg) {
        const cJSON *dev = cJSON_GetObjectItemCaseSensitive(e, "devices");
        assert_true(cJSON_IsArray(dev));
        int n = cJSON_GetArraySize(dev);
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "mig-enabled"))) {
            mig_gpus += n;
            const cJSON *md = cJSON_GetObjectItemCaseSensitive(e, "mig-devices");
            const cJSON *c1 = cJSON_GetObjectItemCaseSensitive(md, "1g.10gb");
            const cJSON *c3 = cJSON_GetObjectItemCaseSensitive(md, "3g.40gb");
            instances_1g += n * (c1 ? c1->valueint : 0);
            instances_3g += n * (c3 ? c3->valueint : 0);
        } else {
            off += n;
            assert_null(cJSON_GetObjectItemCaseSensitive(e, "mig-devices"));
            assert_int_equal(cJSON_GetArrayItem(dev, 0)->valueint, 2);
        }
    }
    assert_int_equal(mig_gpus, 2);
    assert_int_equal(off, 6);
    assert_int_equal(instances_1g, 7);
    assert_int_equal(instances_3g, 2);
    cJSON_Delete(file);
    /* quotas: requests.<resource> only, what the namespace needs under the plan */
    const cJSON *q = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
        find_doc(&m, "ResourceQuota", "serve", MANIFESTS_QUOTA_NAME), "spec"), "hard");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(q, "requests.nvidia.com/mig-1g.10gb")->valuestring, "7");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(q, "requests.nvidia.com/mig-3g.40gb")->valuestring, "1");
    assert_int_equal(cJSON_GetArraySize(q), 2);
    q = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
        find_doc(&m, "ResourceQuota", "lab", MANIFESTS_QUOTA_NAME), "spec"), "hard");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(q, "requests.nvidia.com/gpu")->valuestring, "4");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(q, "requests.nvidia.com/mig-3g.40gb")->valuestring, "1");
    q = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
        find_doc(&m, "ResourceQuota", "vision", MANIFESTS_QUOTA_NAME), "spec"), "hard");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(q, "requests.nvidia.com/gpu.shared")->valuestring, "2");
    manifests_free(&m);

    /* the renderer failing is an error, nothing leaks */
    o.yaml_text = failing_yaml;
    assert_int_equal(manifests_build(&f.r, f.w, NULL, &o, &m), -1);
    manifests_free(&m);
    /* default namespace */
    o.yaml_text = yaml_text;
    o.operator_namespace = NULL;
    assert_int_equal(manifests_build(&f.r, f.w, NULL, &o, &m), 0);
    find_doc(&m, "ConfigMap", "gpu-operator", MANIFESTS_MIG_PARTED_CONFIGMAP);
    manifests_free(&m);
    fleet_free(&f);
}

/* Nothing to change: no ConfigMaps, no quotas */
static void test_nothing(void **state)
{
    (void)state;
    Node h = mknode("h100", "NVIDIA-H100-80GB-HBM3", 2, 81559, 9, 0);
    const Node *nodes[] = { &h };
    PlanWorkload w[] = { wl("ml", "big", "h100", 1, 70000, 90) };
    PlanOptions po = { .choice = PLAN_CHOICE_AUTO, .headroom_pct = 10 };
    PlanResult r;
    assert_int_equal(plan_build(nodes, 1, w, 1, &po, &r), 0);
    assert_int_equal(r.groups[0].strategy, PLAN_NONE);
    assert_null(manifests_device_plugin_file(&r.groups[0], true));
    assert_null(manifests_mig_parted_file(&r));
    ManifestOptions o = { .yaml_text = yaml_text };
    Manifests m;
    assert_int_equal(manifests_build(&r, w, NULL, &o, &m), 0);
    assert_int_equal(m.n, 0);
    manifests_free(&m);
    plan_result_free(&r);
    kv_free(&h.labels);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_objects), cmocka_unit_test(test_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

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
#include "analysis/manifests.h"
#include "util/yaml_load.h"
#include "render/render.h"
#include "node_builder.h"

#define mknode test_gpu_node

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
    int rc = yaml_render(f, doc, false);
    fclose(f);
    if (rc) { free(buf); return NULL; }
    return buf;
}

static char *failing_yaml(const cJSON *doc) { (void)doc; return NULL; }

/* device plugin v0.20.0 (MPS, packed), no MIG strategy set */
static const PlanCurrent cur20 = { .dp_version = { 0, 20, 0 }, .dp_version_known = true,
                                   .dp_version_text = "v0.20.0", .operator_ns = "gpu-operator" };

/* the value of the data key starting with prefix */
static const char *data_prefixed(const cJSON *doc, const char *prefix, const char **key)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(doc, "data"))
        if (strncmp(e->string, prefix, strlen(prefix)) == 0) { if (key) *key = e->string; return e->valuestring; }
    fail_msg("no data key %s*", prefix);
    return NULL;
}

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
    /* measured peaks inside MPS's per-client limit: MPS takes the tie with time-slicing */
    f->w[f->n - 1].peak_memory_mib = f->w[f->n - 2].peak_memory_mib = 2500;
    PlanOptions o = { .choice = PLAN_CHOICE_AUTO, .headroom_pct = 10, .cur = &cur20 };
    assert_int_equal(plan_build(nodes, 3, f->w, f->n, &o, &f->r), 0);
}

static void fleet_free(Fleet *f)
{
    plan_result_clear(&f->r);
    kv_clear(&f->a.labels); kv_clear(&f->b.labels); kv_clear(&f->t.labels);
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
                          .usage_annotation = "requests", .yaml_text = yaml_text, .quotas = true };
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
    assert_string_equal(data_prefixed(dp, "kgpu-a100-sxm4-80gb-mig-", NULL), "version: v1\nflags:\n  migStrategy: mixed\n");
    assert_string_equal(data_prefixed(dp, "kgpu-tesla-t4-mps-", NULL),
                        "version: v1\nflags:\n  migStrategy: none\n  plugin:\n    sharedDevicesAllocationPolicy: packed\n"
                        "sharing:\n  mps:\n    renameByDefault: true\n"
                        "    failRequestsGreaterThanOne: true\n    resources:\n    - name: nvidia.com/gpu\n"
                        "      replicas: 2\n");
    const cJSON *e0;
    cJSON_ArrayForEach(e0, cJSON_GetObjectItemCaseSensitive(dp, "data"))
        assert_null(strstr(e0->string, "-whole-"));
    /* mig-parted: the operator's built-in set (no cluster given: all-disabled, all-enabled) plus
     * a100-a's config: GPUs 0-1 MIG, 2-7 disabled */
    const cJSON *mp = find_doc(&m, "ConfigMap", "nvidia-gpu-operator", MANIFESTS_MIG_PARTED_CONFIGMAP);
    cJSON *file = manifests_mig_parted_file(&f.r);
    cJSON *whole = NULL;
    char *msg = NULL;
    const char *text = data_of(mp, "config.yaml");
    assert_int_equal(yaml_load_json(text, strlen(text), &whole, &msg), 0);
    const cJSON *wmc = cJSON_GetObjectItemCaseSensitive(whole, "mig-configs");
    assert_int_equal(cJSON_GetArraySize(wmc), 3);
    assert_non_null(cJSON_GetObjectItemCaseSensitive(wmc, "all-enabled"));
    const char *a_cfg = NULL;
    for (size_t gi = 0; gi < f.r.ngroups; gi++)
        if (f.r.groups[gi].strategy == PLAN_MIG) a_cfg = f.r.groups[gi].plan_nodes[0].mig_config;
    assert_non_null(a_cfg);
    assert_true(cJSON_Compare(cJSON_GetObjectItemCaseSensitive(wmc, a_cfg),
                              cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(file, "mig-configs"), a_cfg),
                              true));
    cJSON_Delete(whole);
    const cJSON *mc = cJSON_GetObjectItemCaseSensitive(file, "mig-configs");
    assert_int_equal(cJSON_GetArraySize(mc), 2);
    const cJSON *dis = cJSON_GetObjectItemCaseSensitive(mc, "all-disabled");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(dis, 0), "devices")->valuestring, "all");
    const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(mc, a_cfg);
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
    manifests_clear(&m);

    /* the renderer failing is an error, nothing leaks */
    o.yaml_text = failing_yaml;
    assert_int_equal(manifests_build(&f.r, f.w, NULL, &o, &m), -1);
    manifests_clear(&m);
    /* default namespace */
    o.yaml_text = yaml_text;
    o.operator_namespace = NULL;
    assert_int_equal(manifests_build(&f.r, f.w, NULL, &o, &m), 0);
    find_doc(&m, "ConfigMap", "gpu-operator", MANIFESTS_MIG_PARTED_CONFIGMAP);
    manifests_clear(&m);
    fleet_free(&f);
}

/* The serialized config a ConfigMap key's name is hashed from is the emitted object itself:
 * the same tree, and any setting in it changes the text */
static void test_device_plugin_text(void **state)
{
    (void)state;
    Fleet f;
    fleet(&f);
    const PlanGroup *mps = NULL, *mig = NULL;
    for (size_t i = 0; i < f.r.ngroups; i++) {
        if (f.r.groups[i].strategy == PLAN_MPS) mps = &f.r.groups[i];
        if (f.r.groups[i].strategy == PLAN_MIG) mig = &f.r.groups[i];
    }
    assert_non_null(mps);
    assert_non_null(mig);
    char *t = manifests_device_plugin_text(mps, true);
    cJSON *parsed = cJSON_Parse(t), *file = manifests_device_plugin_file(mps, true);
    assert_true(cJSON_Compare(parsed, file, true));
    cJSON_Delete(parsed);
    cJSON_Delete(file);
    assert_non_null(strstr(t, "\"mps\""));
    assert_non_null(strstr(t, "\"replicas\":2"));
    PlanGroup three = *mps;            /* a shallow copy: only replicas differs */
    three.replicas = 3;
    char *t3 = manifests_device_plugin_text(&three, true);
    assert_string_not_equal(t, t3);
    free(t3);
    /* the group's nodes kept whole: no sharing section (replicas 0), hence no packed policy */
    char *whole = manifests_device_plugin_text(mps, false);
    assert_string_equal(whole, "{\"version\":\"v1\",\"flags\":{\"migStrategy\":\"none\"}}");
    free(whole);
    free(t);
    t = manifests_device_plugin_text(mig, true);
    assert_string_equal(t, "{\"version\":\"v1\",\"flags\":{\"migStrategy\":\"mixed\"}}");
    free(t);
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
    assert_null(manifests_device_plugin_text(&r.groups[0], true));
    assert_null(manifests_mig_parted_file(&r));
    ManifestOptions o = { .yaml_text = yaml_text };
    Manifests m;
    assert_int_equal(manifests_build(&r, w, NULL, &o, &m), 0);
    assert_int_equal(m.n, 0);
    manifests_clear(&m);
    plan_result_clear(&r);
    kv_clear(&h.labels);
}

/* The maps in use are carried over (k8s-device-plugin cmd/config-manager/main.go:352-363:
 * a label or default naming a config the map lacks stops the plugin; mig-parted
 * pkg/mig/reconfigure/reconfigure.go:139 fails a config it cannot find); an unreadable one
 * makes the plan unsafe; labels that were inert (no map in use) and name no config are removed. */
static void test_carry_over(void **state)
{
    (void)state;
    Fleet f;
    fleet(&f);
    ConfigMap dpm = { .ns = "gpu-operator", .name = "time-slicing-config" };
    kv_set(&dpm.data, "default", "version: v1\nflags:\n  migStrategy: mixed\n");
    kv_set(&dpm.data, "l4-ts2", "version: v1\nsharing:\n  timeSlicing:\n    resources:\n    - name: nvidia.com/gpu\n      replicas: 2\n");
    ConfigMap mgm = { .ns = "gpu-operator", .name = "custom-mig-config" };
    kv_set(&mgm.data, "config.yaml", "version: v1\nmig-configs:\n  all-disabled:\n  - devices: all\n    mig-enabled: false\n"
                                     "  custom-3g:\n  - devices: [0, 1]\n    mig-enabled: true\n    mig-devices:\n      \"3g.40gb\": 2\n");
    PlanCurrent cur = cur20;
    cur.clusterpolicy = "cluster-policy";
    cur.dp_map = "time-slicing-config"; cur.dp_default = "default"; cur.dp_configmap = &dpm;
    cur.mig_map = "custom-mig-config"; cur.mig_configmap = &mgm;
    /* a node the plan does not touch, labelled with a carried config */
    Node l4 = mknode("l4-a", "NVIDIA-L4", 2, 23034, 8, 9);
    kv_set(&l4.labels, "nvidia.com/device-plugin.config", "l4-ts2");
    Node nodes[4] = { f.a, f.b, f.t, l4 };
    Cluster c;
    memset(&c, 0, sizeof c);
    c.nodes = nodes; c.nnodes = 4;
    ManifestOptions o = { .yaml_text = yaml_text, .cur = &cur };
    Manifests m;
    assert_int_equal(manifests_build(&f.r, f.w, &c, &o, &m), 0);
    assert_null(m.blocked);
    assert_int_equal(m.carried_dp, 2);
    assert_int_equal(m.carried_mig, 2);
    assert_int_equal(m.warnings.n, 0);
    const cJSON *dp = find_doc(&m, "ConfigMap", "gpu-operator", MANIFESTS_DEVICE_PLUGIN_CONFIGMAP);
    assert_string_equal(data_of(dp, "l4-ts2"), kv_get(&dpm.data, "l4-ts2"));
    assert_string_equal(data_of(dp, "default"), kv_get(&dpm.data, "default"));
    const cJSON *mp = find_doc(&m, "ConfigMap", "gpu-operator", MANIFESTS_MIG_PARTED_CONFIGMAP);
    cJSON *mf = NULL;
    char *msg = NULL;
    assert_int_equal(yaml_load_json(data_of(mp, "config.yaml"), strlen(data_of(mp, "config.yaml")), &mf, &msg), 0);
    const cJSON *c3 = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(mf, "mig-configs"), "custom-3g");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(c3, 0), "mig-enabled")));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(c3, 0), "devices")), 2);
    cJSON_Delete(mf);
    manifests_clear(&m);
    /* a label naming a config no map holds: warned */
    kv_set(&nodes[3].labels, "nvidia.com/device-plugin.config", "gone");
    assert_int_equal(manifests_build(&f.r, f.w, &c, &o, &m), 0);
    assert_int_equal(m.warnings.n, 1);
    assert_non_null(strstr(m.warnings.v[0], "specified config gone does not exist"));
    manifests_clear(&m);
    /* no map in use before, and nothing reads the label (the operator without a map runs no
     * config-manager): the label was inert, so it is removed instead */
    cur.dp_map = NULL; cur.dp_default = NULL; cur.dp_configmap = NULL;
    o.labels_unread = true;
    assert_int_equal(manifests_build(&f.r, f.w, &c, &o, &m), 0);
    assert_int_equal(m.warnings.n, 0);
    assert_int_equal(m.unlabel_nodes.n, 1);
    assert_string_equal(m.unlabel_nodes.v[0], "l4-a");
    manifests_clear(&m);
    /* whether anything reads it unknown (issue 27: a config-manager would fall back to its
     * DEFAULT_CONFIG, k8s-device-plugin v0.17.0 cmd/config-manager/main.go:358-365): kept, warned */
    o.labels_unread = false;
    assert_int_equal(manifests_build(&f.r, f.w, &c, &o, &m), 0);
    assert_int_equal(m.unlabel_nodes.n, 0);
    assert_int_equal(m.warnings.n, 1);
    assert_non_null(strstr(m.warnings.v[0], "the label is kept"));
    manifests_clear(&m);
    /* the map in use cannot be read: not safe */
    cur.dp_map = "time-slicing-config";
    assert_int_equal(manifests_build(&f.r, f.w, &c, &o, &m), 0);
    assert_non_null(m.blocked);
    manifests_clear(&m);
    kv_clear(&nodes[3].labels);
    kv_clear(&dpm.data); kv_clear(&mgm.data);
    fleet_free(&f);
}

/* the operator's built-in configs for the cluster's models, when its default map is in use
 * (gpu-operator assets/state-mig-manager/0400_configmap.yaml:10-16, 358: all-disabled,
 * all-enabled, all-balanced) */
static void test_builtin_mig_configs(void **state)
{
    (void)state;
    Fleet f;
    fleet(&f);
    Node nodes[3] = { f.a, f.b, f.t };
    Cluster c;
    memset(&c, 0, sizeof c);
    c.nodes = nodes; c.nnodes = 3;
    ManifestOptions o = { .yaml_text = yaml_text, .cur = &cur20 };
    Manifests m;
    assert_int_equal(manifests_build(&f.r, f.w, &c, &o, &m), 0);
    assert_true(m.mig_builtin);
    const cJSON *mp = find_doc(&m, "ConfigMap", "gpu-operator", MANIFESTS_MIG_PARTED_CONFIGMAP);
    cJSON *mf = NULL;
    char *msg = NULL;
    assert_int_equal(yaml_load_json(data_of(mp, "config.yaml"), strlen(data_of(mp, "config.yaml")), &mf, &msg), 0);
    const cJSON *mc = cJSON_GetObjectItemCaseSensitive(mf, "mig-configs");
    /* A100 80GB: all-1g.10gb x7, all-balanced 2x 1g.10gb + 2g.20gb + 3g.40gb, with its device IDs */
    const cJSON *e = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(mc, "all-1g.10gb"), 0);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(e, "mig-devices"), "1g.10gb")->valueint, 7);
    bool has_id = false;
    const cJSON *id;
    cJSON_ArrayForEach(id, cJSON_GetObjectItemCaseSensitive(e, "device-filter"))
        has_id |= strcasecmp(id->valuestring, "0x20B210DE") == 0;
    assert_true(has_id);
    const cJSON *bal = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(mc, "all-balanced"), 0), "mig-devices");
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(bal, "1g.10gb")->valueint, 2);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(bal, "2g.20gb")->valueint, 1);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(bal, "3g.40gb")->valueint, 1);
    assert_non_null(cJSON_GetObjectItemCaseSensitive(mc, "all-disabled"));
    assert_non_null(cJSON_GetObjectItemCaseSensitive(mc, "all-enabled"));
    cJSON_Delete(mf);
    manifests_clear(&m);
    fleet_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_objects), cmocka_unit_test(test_device_plugin_text), cmocka_unit_test(test_nothing), cmocka_unit_test(test_carry_over),
        cmocka_unit_test(test_builtin_mig_configs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Unit tests: sources/manifest_read.c and model/manifest_pods.c — a manifest's documents to
 * the pods their templates make: multi-document YAML, JSON, Lists, the pod counts per kind,
 * empty documents skipped, and bad input refused with the file and document named. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include "sources/manifest_read.h"
#include "model/pod.h"
#include "util/error.h"

typedef struct { ManifestPodList l; Strvec notes; Error err; int rc; } Read;

static void rd(Read *r, const char *text)
{
    memset(r, 0, sizeof *r);
    r->rc = manifest_read_text("m.yaml", text, strlen(text), "dflt", &r->l, &r->notes, &r->err);
}

static void rd_clear(Read *r)
{
    manifest_pod_list_clear(&r->l);
    strvec_clear(&r->notes);
}

#define GPU_POD_SPEC "spec: {containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: 1}}}]}\n"

static void test_counts_per_kind(void **state)
{
    (void)state;
    Read r;
    rd(&r, "kind: Pod\nmetadata: {name: p}\n" GPU_POD_SPEC
           "---\n---\n"                                           /* an empty document: skipped */
           "kind: Deployment\nmetadata: {name: d, namespace: ml}\nspec: {replicas: 4, template: {" GPU_POD_SPEC "}}\n"
           "---\nkind: StatefulSet\nmetadata: {name: s}\nspec: {template: {" GPU_POD_SPEC "}}\n"
           "---\nkind: Job\nmetadata: {name: j}\nspec: {parallelism: 5, completions: 3, template: {" GPU_POD_SPEC "}}\n"
           "---\nkind: Job\nmetadata: {name: j2}\nspec: {completions: 7, template: {" GPU_POD_SPEC "}}\n"
           "---\nkind: CronJob\nmetadata: {name: cj}\nspec: {jobTemplate: {spec: {parallelism: 2, template: {" GPU_POD_SPEC "}}}}\n"
           "---\nkind: DaemonSet\nmetadata: {name: ds}\nspec: {template: {" GPU_POD_SPEC "}}\n"
           "---\nkind: JobSet\nmetadata: {name: js}\nspec: {replicatedJobs: [{name: w, replicas: 3, template: {spec: "
           "{parallelism: 2, template: {" GPU_POD_SPEC "}}}}]}\n"
           "---\nkind: Deployment\nmetadata: {name: zero}\nspec: {replicas: 0, template: {" GPU_POD_SPEC "}}\n");
    assert_int_equal(r.rc, 0);
    /* Pod 1; replicas 4; StatefulSet default 1; min(5, 3) = 3; parallelism default 1 < 7;
     * CronJob: its job's 2; DaemonSet -1 (its nodes); JobSet 3 x 2 = 6; replicas 0 */
    static const struct { const char *kind, *ns, *name; int64_t n; } want[] = {
        { "Pod", "dflt", "p", 1 }, { "Deployment", "ml", "d", 4 }, { "StatefulSet", "dflt", "s", 1 },
        { "Job", "dflt", "j", 3 }, { "Job", "dflt", "j2", 1 }, { "CronJob", "dflt", "cj", 2 },
        { "DaemonSet", "dflt", "ds", -1 }, { "JobSet", "dflt", "js/w", 6 }, { "Deployment", "dflt", "zero", 0 },
    };
    assert_int_equal(r.l.n, sizeof want / sizeof *want);
    for (size_t i = 0; i < r.l.n; i++) {
        assert_string_equal(r.l.v[i].kind, want[i].kind);
        assert_string_equal(r.l.v[i].ns, want[i].ns);
        assert_string_equal(r.l.v[i].name, want[i].name);
        assert_int_equal(r.l.v[i].replicas, want[i].n);
    }
    /* documents counted from 1, the empty one (the second) included */
    assert_string_equal(r.l.v[1].where, "m.yaml, document 3");
    rd_clear(&r);
}

/* the pod object reads as a cluster's pod does: effective request with init containers, the
 * owner the controller would set, the template's labels */
static void test_pod_object(void **state)
{
    (void)state;
    Read r;
    rd(&r, "kind: Job\nmetadata: {name: j, namespace: ml}\nspec:\n  template:\n    metadata: {labels: {app: t}}\n"
           "    spec:\n      initContainers: [{name: warm, resources: {limits: {nvidia.com/gpu: 4}}}]\n"
           "      containers: [{name: a, resources: {limits: {nvidia.com/gpu: 1}}}, {name: b, resources: {limits: {nvidia.com/gpu: 2}}}]\n");
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.l.n, 1);
    StrPool *pool = strpool_new();
    Pod p;
    Error err = { 0 };
    assert_int_equal(pod_from_json(&p, r.l.v[0].pod, pool, &err), 0);
    assert_int_equal(rlist_get(&p.requests, "nvidia.com/gpu"), 4000);     /* max(4, 1 + 2) */
    assert_string_equal(pod_more(&p)->request_init, "warm");
    assert_string_equal(p.owner_kind, "Job");
    assert_string_equal(p.ns, "ml");
    assert_string_equal(kv_get(&p.labels, "app"), "t");
    assert_true(pod_is_pending_unbound(&p));
    pod_clear(&p);
    strpool_free(pool);
    rd_clear(&r);
}

static void test_json_and_list(void **state)
{
    (void)state;
    Read r;
    rd(&r, "{\"kind\": \"List\", \"items\": [{\"kind\": \"Widget\", \"metadata\": {\"name\": \"w\"}, \"spec\": {\"replicas\": 2, "
           "\"template\": {\"spec\": {\"containers\": [{\"name\": \"c\"}]}}}}, {\"kind\": \"ConfigMap\", \"metadata\": "
           "{\"name\": \"cm\"}, \"data\": {}}]}");
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.l.n, 1);
    assert_string_equal(r.l.v[0].kind, "Widget");      /* any kind with spec.template */
    assert_int_equal(r.l.v[0].replicas, 2);
    assert_int_equal(r.notes.n, 1);                    /* the ConfigMap: no pod template */
    assert_non_null(strstr(r.notes.v[0], "ConfigMap cm has no pod template"));
    rd_clear(&r);
}

/* JSON objects one after the other, as kubectl reads them: each a document */
static void test_json_stream(void **state)
{
    (void)state;
    Read r;
    rd(&r, "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"a\"}, \"spec\": {\"containers\": []}}\n"
           "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"b\"}, \"spec\": {\"containers\": []}}");
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.l.n, 2);
    assert_string_equal(r.l.v[1].name, "b");
    assert_string_equal(r.l.v[1].where, "m.yaml, document 2");
    rd_clear(&r);
    rd(&r, "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"a\"}, \"spec\": {}}\n[1, 2]");
    assert_int_equal(r.rc, -1);
    assert_non_null(strstr(r.err.msg, "m.yaml: document 2: not a Kubernetes object"));
    rd_clear(&r);
}

static void expect_error(const char *text, const char *want)
{
    Read r;
    rd(&r, text);
    assert_int_equal(r.rc, -1);
    if (!strstr(r.err.msg, want)) fail_msg("error \"%s\" lacks \"%s\"", r.err.msg, want);
    rd_clear(&r);
}

static void test_bad_input(void **state)
{
    (void)state;
    expect_error("kind: Pod\nmetadata: {name: a}\n" GPU_POD_SPEC "---\nkind: Pod\nmetadata: {name: [b\n",
                 "m.yaml: document 2: yaml: line");
    expect_error("- a\n- b\n", "m.yaml: document 1: not a Kubernetes object");
    expect_error("just a string\n", "document 1: not a Kubernetes object");
    expect_error("metadata: {name: a}\n", "document 1: the object has no kind");
    expect_error("kind: Pod\n" GPU_POD_SPEC, "document 1: Pod without metadata.name");
    expect_error("kind: Deployment\nmetadata: {name: d}\nspec: {replicas: -2, template: {" GPU_POD_SPEC "}}\n",
                 "replica count must be a non-negative integer");
    expect_error("kind: Deployment\nmetadata: {name: d}\nspec: {replicas: \"3\", template: {" GPU_POD_SPEC "}}\n",
                 "replica count must be a non-negative integer");
    expect_error("kind: Job\nmetadata: {name: j}\nspec: {parallelism: 1.5, template: {" GPU_POD_SPEC "}}\n",
                 "Job j: the replica count must be a non-negative integer");
    expect_error("kind: Pod\nmetadata: {name: a}\n", "the pod template has no spec");
    /* a count fit would place one by one: bounded (1,000,000 pods) */
    expect_error("kind: Deployment\nmetadata: {name: d}\nspec: {replicas: 1000001, template: {" GPU_POD_SPEC "}}\n",
                 "at most 1000000");
    expect_error("kind: JobSet\nmetadata: {name: js}\nspec: {replicatedJobs: [{name: w, replicas: 1001, template: {spec: "
                 "{parallelism: 1000, template: {" GPU_POD_SPEC "}}}}]}\n", "at most 1000000 pods");
    expect_error("kind: List\nitems: [{kind: Pod, metadata: {name: a}, spec: {}}, 7]\n", "document 1: item 1: not a Kubernetes object");
    expect_error("", "no Kubernetes objects");
    expect_error("# only a comment\n", "no Kubernetes objects");
    /* a List with no items is no object, whatever its items key became (the fuzzer's: a
     * "%YAML" line inside the key): kubectl apply says "no objects passed to apply" */
    expect_error("kind: List\nitems: []\n", "no Kubernetes objects");
    expect_error("{\"apiVersion\": \"v1\", \"kind\": \"List\", \"itemz\": [{\"kind\": \"Pod\"}]}", "no Kubernetes objects");
    expect_error("kind: List\n---\nkind: PodList\nitems: []\n", "no Kubernetes objects");
    expect_error("{\"kind\": \"Pod\", \"metadata\": {\"name\": \"a\"}, ", "document 1:");   /* truncated JSON */
}

/* the DaemonSet controller's pinning replaces the required node affinity (kubernetes v1.32.0
 * pkg/controller/daemon/util/daemonset_util.go, ReplaceDaemonSetNodeNameNodeAffinity), and
 * AddOrUpdateDaemonPodTolerations (the same file, lines 47-102 at v1.32.0) adds not-ready and
 * unreachable NoExecute, disk/memory/pid-pressure and unschedulable NoSchedule tolerations */
static void test_pinned(void **state)
{
    (void)state;
    Read r;
    rd(&r, "kind: DaemonSet\nmetadata: {name: ds}\nspec:\n  template:\n    spec:\n      affinity: {nodeAffinity: "
           "{requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: a, operator: "
           "In, values: [b]}]}]}}}\n      containers: [{name: c, resources: {limits: {nvidia.com/gpu: 1}}}]\n");
    assert_int_equal(r.rc, 0);
    cJSON *pinned = manifest_pod_pinned(r.l.v[0].pod, "node-7");
    StrPool *pool = strpool_new();
    Pod p;
    Error err = { 0 };
    assert_int_equal(pod_from_json(&p, pinned, pool, &err), 0);
    assert_int_equal(p.naffinity_terms, 1);
    assert_int_equal(p.affinity_terms[0].match_expressions.n, 0);
    assert_int_equal(p.affinity_terms[0].match_fields.n, 1);
    /* the controller's tolerations: cordoned nodes too */
    bool unsched = false;
    for (uint32_t i = 0; i < pod_more(&p)->ntolerations; i++)
        unsched |= pod_more(&p)->tolerations[i].key && !strcmp(pod_more(&p)->tolerations[i].key, "node.kubernetes.io/unschedulable");
    assert_true(unsched);
    pod_clear(&p);
    strpool_free(pool);
    cJSON_Delete(pinned);
    rd_clear(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_per_kind), cmocka_unit_test(test_pod_object),
        cmocka_unit_test(test_json_and_list), cmocka_unit_test(test_json_stream), cmocka_unit_test(test_bad_input), cmocka_unit_test(test_pinned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Unit tests: cluster_ingest reduction rules, finalize (usage joins, event pruning), lookups,
 * duplicates, hostile objects.  Fixture: tests/fixtures/model/cluster-list.json. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "model/cluster.h"
#include "util/error.h"
#include "model_fixture.h"

#define GI (1024LL * 1024 * 1024 * 1000)

static void ingest_fixture(Cluster *c)
{
    cJSON *list = load_fixture("tests/fixtures/model/cluster-list.json");
    assert_non_null(list);
    cJSON *item;
    cJSON_ArrayForEach(item, cJSON_GetObjectItem(list, "items")) {
        Error e = { 0 };
        if (cluster_ingest(c, OBJ__COUNT, item, &e) < 0) fail_msg("ingest: %s", e.msg);
    }
    cJSON_Delete(list);              /* the cluster must not point into the JSON */
}

static int ingest_str(Cluster *c, ObjKind k, const char *json, Error *e)
{
    cJSON *j = cJSON_Parse(json);
    if (!j) fail_msg("bad test JSON: %s", json);
    int rc = cluster_ingest(c, k, j, e);
    cJSON_Delete(j);
    return rc;
}

static const Event *find_event(const Cluster *c, const char *name)
{
    for (size_t i = 0; i < c->nevents; i++) if (str_eq(c->events[i].name, name)) return &c->events[i];
    return NULL;
}

static void test_fixture_reduction(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    ingest_fixture(&c);
    assert_null(cluster_node_usage(&c, &c.nodes[0]));    /* not before finalize */
    assert_int_equal(c.nevents, 4);                      /* before pruning: web-pending's too */
    cluster_finalize(&c);

    assert_int_equal(c.nnodes, 2);
    Node *gpu = cluster_find_node(&c, "gpu-h100-1"), *cpu = cluster_find_node(&c, "cpu-1");
    assert_non_null(gpu);
    assert_non_null(cpu);
    assert_null(cluster_find_node(&c, "filtered-node"));
    assert_int_equal(gpu->labels.n, 5);                  /* GPU node keeps its labels */
    assert_true(cpu->labels.n > 0);                      /* so do CPU nodes (selectors) */
    assert_int_equal(cluster_node_index(&c, cpu), (size_t)(cpu - c.nodes));

    /* GPU pods kept: infer-0, trainer, batch-done; 8 pods seen */
    assert_int_equal(c.npods, 3);
    assert_int_equal(c.all_pods, 8);
    assert_non_null(cluster_find_pod(&c, "ml", "infer-0"));
    assert_non_null(cluster_find_pod(&c, "ml", "batch-done"));
    Pod *tr = cluster_find_pod(&c, "ml", "trainer-7d9f-abcde");
    assert_non_null(tr);
    assert_int_equal(rlist_get(&tr->requests, "nvidia.com/mig-1g.10gb"), 2000);
    assert_null(cluster_find_pod(&c, "web", "api-1"));
    assert_null(cluster_find_pod(&c, "web", "early-web"));

    /* usage: early-web (cpu 2, 4Gi, before its node) + infer-0 (cpu 1, 1 MIG); batch-done done */
    const NodeUsage *u = cluster_node_usage(&c, gpu);
    assert_non_null(u);
    assert_int_equal(u->pods, 2);
    assert_int_equal(rlist_get(&u->requested, "cpu"), 3000);
    assert_int_equal(rlist_get(&u->requested, "memory"), 4 * GI);
    assert_int_equal(rlist_get(&u->requested, "nvidia.com/mig-1g.10gb"), 1000);
    u = cluster_node_usage(&c, cpu);
    assert_int_equal(u->pods, 1);                        /* api-1; job-done failed */
    assert_int_equal(rlist_get(&u->requested, "cpu"), 500);

    /* events: web-pending's pruned (pod not kept), Scheduled and non-quota FailedCreate never kept */
    assert_int_equal(c.nevents, 3);
    const Event *e = find_event(&c, "trainer-7d9f-abcde.17c");
    assert_non_null(e);
    assert_string_equal(e->ns, "ml");
    assert_string_equal(e->reason, "FailedScheduling");
    assert_string_equal(e->involved_kind, "Pod");
    assert_string_equal(e->involved_name, "trainer-7d9f-abcde");
    assert_string_equal(e->involved_uid, "6f1c2a7e");
    assert_int_equal(e->count, 12);
    assert_int_equal(e->last_seen, 1715708441);          /* 2024-05-14T17:40:41Z */
    e = find_event(&c, "trainer-rs.1");
    assert_non_null(e);
    assert_string_equal(e->involved_kind, "ReplicaSet");
    assert_int_equal(e->count, 3);
    assert_non_null(strstr(e->message, "exceeded quota: gpu-quota"));
    e = find_event(&c, "infer-1.2");                     /* events.k8s.io/v1 shape */
    assert_non_null(e);
    assert_string_equal(e->message, "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.");
    assert_string_equal(e->involved_name, "infer-0");
    assert_int_equal(e->count, 4);
    assert_int_equal(e->last_seen, 1715709600);          /* series.lastObservedTime 18:00:00 */
    assert_null(find_event(&c, "web-pending.1"));
    assert_null(find_event(&c, "other-rs.1"));

    /* quotas mentioning a GPU resource */
    assert_int_equal(c.nquotas, 2);
    assert_string_equal(c.quotas[0].name, "gpu-quota");
    assert_int_equal(rlist_get(&c.quotas[0].hard, "requests.nvidia.com/gpu"), 8000);
    assert_int_equal(rlist_get(&c.quotas[0].used, "requests.nvidia.com/gpu"), 8000);
    assert_int_equal(rlist_get(&c.quotas[0].used, "pods"), 12000);
    assert_string_equal(c.quotas[1].name, "spec-only");
    assert_int_equal(rlist_get(&c.quotas[1].hard, "nvidia.com/mig-1g.10gb"), 4000);   /* spec.hard fallback */

    /* daemonsets: operator namespace, kube-system, app label prefix; fluent-bit dropped */
    assert_int_equal(c.ndaemonsets, 3);
    assert_string_equal(c.daemonsets[0].name, "nvidia-device-plugin-daemonset");
    assert_string_equal(c.daemonsets[0].app, "nvidia-device-plugin-daemonset");
    assert_int_equal(c.daemonsets[0].desired, 3);
    assert_int_equal(c.daemonsets[0].current, 3);
    assert_int_equal(c.daemonsets[0].ready, 2);
    assert_int_equal(c.daemonsets[0].available, 2);
    assert_int_equal(c.daemonsets[0].updated, 3);
    assert_int_equal(c.daemonsets[0].misscheduled, 0);
    assert_string_equal(c.daemonsets[1].name, "kube-proxy");
    assert_null(c.daemonsets[1].app);
    assert_int_equal(c.daemonsets[1].desired, 5);
    assert_string_equal(c.daemonsets[2].app, "gpu-feature-discovery");   /* from matchLabels */
    assert_int_equal(c.daemonsets[2].ready, 1);

    /* services that look like Prometheus */
    assert_int_equal(c.nservices, 2);
    assert_string_equal(c.services[0].name, "prometheus-operated");
    assert_string_equal(c.services[0].type, "ClusterIP");
    assert_int_equal(c.services[0].nports, 1);           /* port 700000 skipped */
    assert_string_equal(c.services[0].ports[0].name, "web");
    assert_int_equal(c.services[0].ports[0].port, 9090);
    assert_string_equal(c.services[1].name, "kps");
    assert_string_equal(kv_get(&c.services[1].labels, "app.kubernetes.io/name"), "Prometheus");
    assert_null(c.services[1].ports[0].name);

    assert_string_equal(c.clusterpolicy_name, "cluster-policy");
    assert_string_equal(c.clusterpolicy_state, "notReady");
    assert_true(c.clusterpolicy_checked);

    /* finalize again: the same numbers, not doubled */
    cluster_finalize(&c);
    u = cluster_node_usage(&c, gpu);
    assert_int_equal(u->pods, 2);
    assert_int_equal(rlist_get(&u->requested, "cpu"), 3000);
    assert_int_equal(c.nevents, 3);
    cluster_release(&c);
}

static void test_typed_lists_and_duplicates(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    Error e = { 0 };
    /* items of a typed list have no "kind": the source passes it */
    assert_int_equal(ingest_str(&c, OBJ_NODE, "{\"metadata\":{\"name\":\"n1\"},\"status\":{\"capacity\":"
                                              "{\"nvidia.com/gpu\":\"4\",\"cpu\":\"8\"}}}", &e), 0);
    assert_int_equal(ingest_str(&c, OBJ__COUNT, "{\"metadata\":{\"name\":\"n1\"}}", &e), -1);
    assert_non_null(strstr(e.msg, "kind"));
    /* the same node again replaces the first */
    assert_int_equal(ingest_str(&c, OBJ_NODE, "{\"metadata\":{\"name\":\"n1\"},\"status\":{\"capacity\":"
                                              "{\"nvidia.com/gpu\":\"8\",\"cpu\":\"8\"}}}", &e), 0);
    assert_int_equal(c.nnodes, 1);
    assert_int_equal(rlist_get(&c.nodes[0].capacity, "nvidia.com/gpu"), 8000);
#define GP "{\"metadata\":{\"name\":\"p\",\"namespace\":\"a\"},\"spec\":{\"nodeName\":\"n1\"," \
           "\"containers\":[{\"resources\":{\"requests\":{\"nvidia.com/gpu\":\"%d\"}}}]}}"
    char *j1 = xasprintf(GP, 1), *j2 = xasprintf(GP, 3);
    assert_int_equal(ingest_str(&c, OBJ_POD, j1, &e), 0);
    assert_int_equal(ingest_str(&c, OBJ_POD, j2, &e), 0);
    free(j1); free(j2);
    assert_int_equal(c.npods, 1);
    cluster_finalize(&c);
    const NodeUsage *u = cluster_node_usage(&c, &c.nodes[0]);
    assert_int_equal(u->pods, 1);
    assert_int_equal(rlist_get(&u->requested, "nvidia.com/gpu"), 3000);
    /* a pod after finalize: usage is stale until finalize runs again */
    assert_int_equal(ingest_str(&c, OBJ_POD, "{\"metadata\":{\"name\":\"q\"},\"spec\":{\"nodeName\":\"n1\","
                                             "\"containers\":[{\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]}}", &e), 0);
    assert_null(cluster_node_usage(&c, &c.nodes[0]));
    cluster_finalize(&c);
    u = cluster_node_usage(&c, &c.nodes[0]);
    assert_int_equal(u->pods, 2);
    assert_int_equal(rlist_get(&u->requested, "cpu"), 1000);
    assert_string_equal(obj_kind_name(OBJ_RESOURCEQUOTA), "ResourceQuota");
    ObjKind k;
    assert_true(obj_kind_from_name("DaemonSet", &k));
    assert_int_equal(k, OBJ_DAEMONSET);
    assert_false(obj_kind_from_name("NodeList", &k));
    assert_false(obj_kind_from_name(NULL, &k));
    cluster_release(&c);
}

static void test_clusterpolicy_choice(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    Error e = { 0 };
    assert_false(c.clusterpolicy_checked);
    assert_int_equal(ingest_str(&c, OBJ_CLUSTERPOLICY, "{\"metadata\":{\"name\":\"extra\"},\"status\":{\"state\":\"ignored\"}}", &e), 0);
    assert_string_equal(c.clusterpolicy_name, "extra");
    assert_int_equal(ingest_str(&c, OBJ_CLUSTERPOLICY, "{\"metadata\":{\"name\":\"main\"},\"status\":{\"state\":\"ready\"}}", &e), 0);
    assert_int_equal(ingest_str(&c, OBJ_CLUSTERPOLICY, "{\"metadata\":{\"name\":\"extra2\"},\"status\":{\"state\":\"ignored\"}}", &e), 0);
    assert_string_equal(c.clusterpolicy_name, "main");
    assert_string_equal(c.clusterpolicy_state, "ready");
    assert_true(c.clusterpolicy_checked);
    cluster_release(&c);
}

static void test_hostile_objects(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    Error e = { 0 };
    assert_int_equal(ingest_str(&c, OBJ_NODE, "[1,2]", &e), -1);
    assert_int_equal(ingest_str(&c, OBJ_NODE, "{\"metadata\":{}}", &e), -1);
    assert_non_null(strstr(e.msg, "metadata.name"));
    assert_int_equal(ingest_str(&c, OBJ_POD, "{\"metadata\":null}", &e), -1);
    assert_int_equal(ingest_str(&c, OBJ__COUNT, "{\"kind\":5}", &e), -1);
    assert_int_equal(ingest_str(&c, OBJ__COUNT, "{\"kind\":\"Secret\"}", &e), 0);   /* unused kind */
    assert_int_equal(ingest_str(&c, OBJ_EVENT, "{\"reason\":\"FailedScheduling\"}", &e), -1);
    assert_int_equal(ingest_str(&c, OBJ_EVENT, "{\"reason\":\"Pulled\"}", &e), 0);  /* not kept anyway */
    assert_int_equal(ingest_str(&c, OBJ_EVENT, "{\"metadata\":{\"name\":\"x\"},\"reason\":\"FailedScheduling\","
                                               "\"involvedObject\":\"pod\",\"count\":\"many\",\"message\":7}", &e), 0);
    assert_int_equal(c.nevents, 1);
    assert_int_equal(c.events[0].count, 1);
    assert_string_equal(c.events[0].message, "");
    assert_null(c.events[0].involved_kind);
    assert_int_equal(ingest_str(&c, OBJ_RESOURCEQUOTA, "{\"metadata\":{\"name\":\"q\"},\"spec\":{\"hard\":"
                                                       "{\"requests.nvidia.com/gpu\":\"4\"}}}", &e), -1);   /* no namespace */
    assert_int_equal(ingest_str(&c, OBJ_RESOURCEQUOTA, "{\"metadata\":{\"name\":\"q\",\"namespace\":\"n\"},\"spec\":{\"hard\":"
                                                       "{\"limits.nvidia.com/gpu\":\"x4\"}}}", &e), 0);
    assert_int_equal(c.nquotas, 1);
    assert_int_equal(c.quotas[0].hard.n, 0);
    assert_int_equal(c.warnings.n, 1);                   /* the bad quantity is reported */
    assert_int_equal(ingest_str(&c, OBJ_DAEMONSET, "{\"metadata\":{\"name\":\"nvidia-x\"},\"status\":"
                                                   "{\"numberReady\":-4,\"desiredNumberScheduled\":1.5}}", &e), 0);
    assert_int_equal(c.daemonsets[0].ready, 0);
    assert_int_equal(c.daemonsets[0].desired, 0);
    assert_int_equal(ingest_str(&c, OBJ_SERVICE, "{\"metadata\":{\"name\":\"prometheus\",\"namespace\":\"m\"},"
                                                 "\"spec\":{\"ports\":{\"port\":1}}}", &e), 0);
    assert_int_equal(c.services[0].nports, 0);
    /* a huge event message is truncated to 4 KiB */
    char *big = xcalloc(1, 20001);
    memset(big, 'y', 20000);
    char *js = xasprintf("{\"metadata\":{\"name\":\"big\",\"namespace\":\"n\"},\"reason\":\"FailedScheduling\","
                         "\"message\":\"%s\"}", big);
    assert_int_equal(ingest_str(&c, OBJ_EVENT, js, &e), 0);
    assert_int_equal(strlen(c.events[1].message), 4096);
    free(js); free(big);
    cluster_finalize(&c);                                /* no pods loaded: events are kept */
    assert_int_equal(c.nevents, 2);
    assert_null(cluster_find_pod(&c, "a", "b"));
    assert_null(cluster_find_node(&c, "none"));
    cluster_release(&c);
}

static void test_warnings(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    assert_true(c.now > 1700000000);
    cluster_warn(&c, "pods: %s", "forbidden");
    assert_string_equal(c.warnings.v[0], "pods: forbidden");
    for (int i = 0; i < 500; i++) cluster_warn(&c, "w%d", i);
    assert_int_equal(c.warnings.n, 101);                 /* capped, with one closing note */
    assert_string_equal(c.warnings.v[100], "more warnings suppressed");
    cluster_release(&c);
}

/* the device-plugin ConfigMap named by the ClusterPolicy: only its sharing facts are kept,
 * per key; the node's nvidia.com/device-plugin.config label picks the key, else the default */
static void test_dpconfig(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    Error e = { 0 };
    assert_int_equal(ingest_str(&c, OBJ__COUNT, "{\"kind\":\"ClusterPolicy\",\"metadata\":{\"name\":\"cp\"},"
                                "\"spec\":{\"devicePlugin\":{\"config\":{\"name\":\"dp\",\"default\":\"any\"}}}}", &e), 0);
    assert_int_equal(ingest_str(&c, OBJ__COUNT, "{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"dp\",\"namespace\":\"gpu-operator\"},"
                                "\"data\":{\"any\":\"version: v1\\nsharing:\\n  timeSlicing:\\n    resources:\\n"
                                "    - name: nvidia.com/gpu\\n      replicas: 4\\n\","
                                "\"m\":\"version: v1\\nsharing:\\n  mps:\\n    renameByDefault: true\\n    resources:\\n"
                                "    - name: nvidia.com/gpu\\n      replicas: 10\\n\","
                                "\"one\":\"version: v1\\nsharing:\\n  timeSlicing:\\n    resources:\\n"
                                "    - name: nvidia.com/gpu\\n      replicas: 1\\n\","
                                "\"junk\":\"{{{\",\"text\":\"hello\"}}", &e), 0);
    assert_int_equal(c.ndpconfigs, 3);                  /* junk and text are not configs */
    assert_int_equal(ingest_str(&c, OBJ__COUNT, "{\"kind\":\"Node\",\"metadata\":{\"name\":\"a\"}}", &e), 0);
    assert_int_equal(ingest_str(&c, OBJ__COUNT, "{\"kind\":\"Node\",\"metadata\":{\"name\":\"b\",\"labels\":"
                                "{\"nvidia.com/device-plugin.config\":\"m\"}}}", &e), 0);
    assert_int_equal(ingest_str(&c, OBJ__COUNT, "{\"kind\":\"Node\",\"metadata\":{\"name\":\"c\",\"labels\":"
                                "{\"nvidia.com/device-plugin.config\":\"one\"}}}", &e), 0);
    cluster_finalize(&c);
    SharingConfig cfg;
    assert_true(dpconfig_sharing_config(&c, cluster_find_node(&c, "a"), &cfg));
    assert_int_equal(cfg.strategy, SHARING_TIME_SLICING);
    assert_int_equal(cfg.replicas, 4);
    assert_string_equal(cfg.where, "ConfigMap gpu-operator/dp, key any");
    assert_true(dpconfig_sharing_config(&c, cluster_find_node(&c, "b"), &cfg));
    assert_int_equal(cfg.strategy, SHARING_MPS);
    assert_int_equal(cfg.replicas, 10);
    assert_true(cfg.renamed);
    /* replicas 1: the device plugin refuses it (api/config/v1/replicas.go); read as no sharing */
    assert_true(dpconfig_sharing_config(&c, cluster_find_node(&c, "c"), &cfg));
    assert_int_equal(cfg.strategy, SHARING_NONE);
    assert_int_equal(cfg.replicas, 1);
    /* a newer copy of the ConfigMap replaces its keys */
    assert_int_equal(ingest_str(&c, OBJ__COUNT, "{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"dp\",\"namespace\":\"gpu-operator\"},"
                                "\"data\":{\"any\":\"version: v1\\n\"}}", &e), 0);
    assert_int_equal(c.ndpconfigs, 1);
    cluster_finalize(&c);
    assert_true(dpconfig_sharing_config(&c, cluster_find_node(&c, "a"), &cfg));
    assert_int_equal(cfg.strategy, SHARING_NONE);
    assert_false(dpconfig_sharing_config(&c, cluster_find_node(&c, "b"), &cfg));   /* key gone */
    cluster_release(&c);
    /* without a ClusterPolicy naming it, a ConfigMap is not used */
    cluster_init(&c);
    assert_int_equal(ingest_str(&c, OBJ__COUNT, "{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"dp\"},"
                                "\"data\":{\"any\":\"version: v1\\n\"}}", &e), 0);
    assert_int_equal(ingest_str(&c, OBJ__COUNT, "{\"kind\":\"Node\",\"metadata\":{\"name\":\"a\"}}", &e), 0);
    cluster_finalize(&c);
    assert_false(dpconfig_sharing_config(&c, cluster_find_node(&c, "a"), &cfg));
    cluster_release(&c);
}

static void ingest_text(Cluster *c, ObjKind k, const char *json)
{
    cJSON *j = cJSON_Parse(json);
    assert_non_null(j);
    Error e = { 0 };
    if (cluster_ingest(c, k, j, &e) < 0) fail_msg("ingest: %s", e.msg);
    cJSON_Delete(j);
}

/* kept objects hold the cluster's one copy of each string: two pods of a Job share their
 * namespace, owner, scheduler, tolerations and requests arrays; their FailedScheduling events share the
 * scheduler's message and reason; the values read back are the objects' own */
static void test_shared_strings(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    char buf[1024];
    for (int i = 0; i < 2; i++) {
        snprintf(buf, sizeof buf,
                 "{\"metadata\":{\"name\":\"train-%d\",\"namespace\":\"ml\",\"ownerReferences\":[{\"kind\":"
                 "\"Job\",\"name\":\"train\",\"controller\":true}]},\"spec\":{\"tolerations\":[{\"key\":"
                 "\"nvidia.com/gpu\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}],\"containers\":[{"
                 "\"name\":\"c\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\"}}}]}}", i);
        ingest_text(&c, OBJ_POD, buf);
        snprintf(buf, sizeof buf,
                 "{\"metadata\":{\"name\":\"train-%d.%d\",\"namespace\":\"ml\"},\"reason\":\"FailedScheduling\","
                 "\"message\":\"0/4 nodes are available: 4 Insufficient nvidia.com/gpu.\",\"involvedObject\":"
                 "{\"kind\":\"Pod\",\"name\":\"train-%d\",\"uid\":\"u-%d\"}}", i, 17 + i, i, i);
        ingest_text(&c, OBJ_EVENT, buf);
    }
    cluster_finalize(&c);
    const Pod *a = cluster_find_pod(&c, "ml", "train-0"), *b = cluster_find_pod(&c, "ml", "train-1");
    assert_non_null(a);
    assert_non_null(b);
    assert_string_equal(a->owner_name, "train");
    assert_ptr_equal(a->ns, b->ns);
    assert_ptr_equal(a->owner_kind, b->owner_kind);
    assert_ptr_equal(a->owner_name, b->owner_name);
    assert_ptr_equal(pod_more(a)->scheduler_name, pod_more(b)->scheduler_name);
    assert_ptr_equal(pod_more(a)->tolerations, pod_more(b)->tolerations);
    assert_ptr_equal(a->requests.items, b->requests.items);   /* one requests array */
    assert_int_equal(rlist_get(&b->requests, "nvidia.com/gpu"), 1000);
    assert_int_equal(c.nevents, 2);
    const Event *e0 = &c.events[0], *e1 = &c.events[1];
    assert_string_equal(e1->involved_name, "train-1");
    assert_string_equal(e1->involved_uid, "u-1");
    assert_string_equal(e0->message, "0/4 nodes are available: 4 Insufficient nvidia.com/gpu.");
    assert_ptr_equal(e0->message, e1->message);
    assert_ptr_equal(e0->reason, e1->reason);
    assert_ptr_equal(e0->ns, a->ns);                    /* one pool for pods and events */
    cluster_release(&c);
}

/* A kept bound pod keeps no labels: what is read of them, whether a ReplicaSet's name ends in
 * its pod-template-hash (plan_pod_workload names the Deployment so), is its rs_hash_len; a
 * pending pod keeps all (pending -l and top's filter select pending rows by label). */
static void test_bound_pod_labels(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    const char *gpu = "\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\"}}}]";
    char buf[1024];
    snprintf(buf, sizeof buf,   /* a Deployment's running pod */
             "{\"metadata\":{\"name\":\"web-7d9f-x\",\"namespace\":\"ml\",\"labels\":{\"app\":\"web\","
             "\"pod-template-hash\":\"7d9f\",\"tier\":\"gpu\"},\"ownerReferences\":[{\"kind\":\"ReplicaSet\","
             "\"name\":\"web-7d9f\",\"controller\":true}]},\"spec\":{\"nodeName\":\"n1\",%s},"
             "\"status\":{\"phase\":\"Running\"}}", gpu);
    ingest_text(&c, OBJ_POD, buf);
    snprintf(buf, sizeof buf,   /* a Job's running pod: a pod-template-hash label of no ReplicaSet */
             "{\"metadata\":{\"name\":\"train-0\",\"namespace\":\"ml\",\"labels\":{\"job-name\":\"train\","
             "\"pod-template-hash\":\"x\"},\"ownerReferences\":[{\"kind\":\"Job\",\"name\":\"train\","
             "\"controller\":true}]},\"spec\":{\"nodeName\":\"n1\",%s},\"status\":{\"phase\":\"Running\"}}", gpu);
    ingest_text(&c, OBJ_POD, buf);
    snprintf(buf, sizeof buf,   /* a pending pod */
             "{\"metadata\":{\"name\":\"train-1\",\"namespace\":\"ml\",\"labels\":{\"job-name\":\"train\","
             "\"team\":\"a\"}},\"spec\":{%s},\"status\":{\"phase\":\"Pending\"}}", gpu);
    ingest_text(&c, OBJ_POD, buf);
    cluster_finalize(&c);
    const Pod *web = cluster_find_pod(&c, "ml", "web-7d9f-x"), *job = cluster_find_pod(&c, "ml", "train-0"),
              *pend = cluster_find_pod(&c, "ml", "train-1");
    assert_non_null(web);
    assert_non_null(job);
    assert_non_null(pend);
    assert_int_equal(web->labels.n, 0);
    assert_null(web->labels.items);
    assert_int_equal(web->rs_hash_len, 4);
    assert_int_equal(job->labels.n, 0);
    assert_int_equal(job->rs_hash_len, 0);
    assert_null(job->labels.items);
    assert_int_equal(pend->labels.n, 2);
    assert_string_equal(kv_get(&pend->labels, "job-name"), "train");
    assert_string_equal(kv_get(&pend->labels, "team"), "a");
    cluster_release(&c);
}

/* Scheduling gates live in the pod's PodMore (most pods have none): the gated pods of a Job
 * share one PodMore and one gates array, and a pod without gates reads none. */
static void test_gates_shared(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    char buf[1024];
    for (int i = 0; i < 2; i++) {
        snprintf(buf, sizeof buf,
                 "{\"metadata\":{\"name\":\"train-%d\",\"namespace\":\"ml\"},\"spec\":{\"schedulingGates\":["
                 "{\"name\":\"kueue.x-k8s.io/admission\"},{\"name\":\"example.com/quota\"}],\"containers\":[{"
                 "\"name\":\"c\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\"}}}]},"
                 "\"status\":{\"phase\":\"Pending\"}}", i);
        ingest_text(&c, OBJ_POD, buf);
    }
    ingest_text(&c, OBJ_POD, "{\"metadata\":{\"name\":\"free\",\"namespace\":\"ml\"},\"spec\":{\"containers\":[{"
                             "\"name\":\"c\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\"}}}]},"
                             "\"status\":{\"phase\":\"Pending\"}}");
    cluster_finalize(&c);
    const Pod *a = cluster_find_pod(&c, "ml", "train-0"), *b = cluster_find_pod(&c, "ml", "train-1"),
              *f = cluster_find_pod(&c, "ml", "free");
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(f);
    assert_int_equal(pod_more(a)->ngates, 2);
    assert_string_equal(pod_more(a)->gates[0], "kueue.x-k8s.io/admission");
    assert_string_equal(pod_more(a)->gates[1], "example.com/quota");
    assert_ptr_equal(pod_more(a), pod_more(b));
    Strvec g = pod_gates(b);
    assert_int_equal(g.n, 2);
    assert_string_equal(g.v[1], "example.com/quota");
    assert_int_equal(pod_more(f)->ngates, 0);
    assert_int_equal(pod_gates(f).n, 0);
    cluster_release(&c);
}

/* A sealed cluster (read once, no watch) drops the per-node usage of the pods it did not keep:
 * finalize has added it to the node's usage, which stays. */
static void test_seal_drops_folded_usage(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    ingest_text(&c, OBJ_NODE, "{\"metadata\":{\"name\":\"n1\"},\"status\":{\"allocatable\":{\"cpu\":\"8\","
                              "\"nvidia.com/gpu\":\"1\"}}}");
    ingest_text(&c, OBJ_POD, "{\"metadata\":{\"name\":\"web\",\"namespace\":\"ml\"},\"spec\":{\"nodeName\":\"n1\","
                             "\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"2\"}}}]},"
                             "\"status\":{\"phase\":\"Running\"}}");
    cluster_finalize(&c);
    assert_int_equal(c.npods, 0);                        /* no GPU: folded, not kept */
    assert_non_null(c.pending_usage);
    cluster_seal_strings(&c);
    assert_null(c.pending_usage);
    const NodeUsage *u = cluster_node_usage(&c, cluster_find_node(&c, "n1"));
    assert_non_null(u);
    assert_int_equal(u->pods, 1);
    assert_int_equal(rlist_get(&u->requested, "cpu"), 2000);
    cluster_release(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_reduction), cmocka_unit_test(test_typed_lists_and_duplicates),
        cmocka_unit_test(test_clusterpolicy_choice), cmocka_unit_test(test_hostile_objects),
        cmocka_unit_test(test_warnings), cmocka_unit_test(test_dpconfig),
        cmocka_unit_test(test_shared_strings), cmocka_unit_test(test_bound_pod_labels),
        cmocka_unit_test(test_gates_shared), cmocka_unit_test(test_seal_drops_folded_usage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

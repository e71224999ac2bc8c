/* Unit tests: effective requests (§11.1: init containers, sidecars, pod-level resources,
 * overhead, limits defaulting), pod_from_json on a full fixture, hostile input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "util/error.h"
#include "model_fixture.h"
#include "model/pod.h"
#include "util/strpool.h"

/* the pool the objects decode into (node.h / pod.h: their strings are its copies) */
static StrPool *pool;
static int pool_setup(void **state) { (void)state; pool = strpool_new(); return 0; }
static int pool_teardown(void **state) { (void)state; strpool_free(pool); pool = NULL; return 0; }

#define GI (1024LL * 1024 * 1024 * 1000)   /* milli-units of one GiB */
#define MI (1024LL * 1024 * 1000)

static ResourceList effective(const char *spec_json)
{
    cJSON *spec = cJSON_Parse(spec_json);
    if (!spec) fail_msg("bad test JSON: %s", spec_json);
    ResourceList r = RESOURCE_LIST_INIT;
    rlist_set(&r, "stale", 1);                           /* out is replaced, not appended to */
    pod_effective_requests(spec, &r);
    cJSON_Delete(spec);
    return r;
}

#define GPU(n) "{\"resources\":{\"requests\":{\"nvidia.com/gpu\":\"" #n "\"}}}"
#define SIDECAR_GPU(n) "{\"restartPolicy\":\"Always\",\"resources\":{\"requests\":{\"nvidia.com/gpu\":\"" #n "\"}}}"

static void test_init_container_max(void **state)
{
    (void)state;
    /* 1 + 1 GPU app containers, init container 4 -> 4 (scheduler-messages.md §11.1 example) */
    ResourceList r = effective("{\"containers\":[" GPU(1) "," GPU(1) "],\"initContainers\":[" GPU(4) "]}");
    assert_int_equal(rlist_get(&r, "nvidia.com/gpu"), 4000);
    assert_false(rlist_has(&r, "stale"));
    rlist_clear(&r);
    /* init smaller than the sum: 3 + 2 = 5 > 4 */
    r = effective("{\"containers\":[" GPU(3) "," GPU(2) "],\"initContainers\":[" GPU(4) "," GPU(1) "]}");
    assert_int_equal(rlist_get(&r, "nvidia.com/gpu"), 5000);
    rlist_clear(&r);
    /* per resource: cpu from the init container, memory from the app containers */
    r = effective("{\"containers\":[{\"resources\":{\"requests\":{\"cpu\":\"500m\",\"memory\":\"2Gi\"}}}],"
                  "\"initContainers\":[{\"resources\":{\"requests\":{\"cpu\":\"2\",\"memory\":\"1Gi\"}}}]}");
    assert_int_equal(rlist_get(&r, "cpu"), 2000);
    assert_int_equal(rlist_get(&r, "memory"), 2 * GI);
    rlist_clear(&r);
}

static void test_sidecars(void **state)
{
    (void)state;
    /* sidecar 1 GPU, then a normal init container 2 GPU, app 1 GPU:
     * sum = 1 + 1 (sidecar) = 2; init peak = 2 + R(1) = 3 -> 3 */
    ResourceList r = effective("{\"containers\":[" GPU(1) "],\"initContainers\":[" SIDECAR_GPU(1) "," GPU(2) "]}");
    assert_int_equal(rlist_get(&r, "nvidia.com/gpu"), 3000);
    rlist_clear(&r);
    /* the same containers, init container first: its peak is 2 (no sidecar yet); sum 2 -> 2 */
    r = effective("{\"containers\":[" GPU(1) "],\"initContainers\":[" GPU(2) "," SIDECAR_GPU(1) "]}");
    assert_int_equal(rlist_get(&r, "nvidia.com/gpu"), 2000);
    rlist_clear(&r);
    /* two sidecars and no app GPU: sum = 2 */
    r = effective("{\"containers\":[{}],\"initContainers\":[" SIDECAR_GPU(1) "," SIDECAR_GPU(1) "]}");
    assert_int_equal(rlist_get(&r, "nvidia.com/gpu"), 2000);
    rlist_clear(&r);
    /* restartPolicy other than Always is a normal init container */
    r = effective("{\"containers\":[" GPU(1) "],\"initContainers\":[{\"restartPolicy\":\"Never\","
                  "\"resources\":{\"requests\":{\"nvidia.com/gpu\":\"1\"}}}]}");
    assert_int_equal(rlist_get(&r, "nvidia.com/gpu"), 1000);
    rlist_clear(&r);
}

static void test_overhead_and_pod_level(void **state)
{
    (void)state;
    ResourceList r = effective("{\"containers\":[{\"resources\":{\"requests\":{\"cpu\":\"1\",\"memory\":\"1Gi\","
                               "\"nvidia.com/gpu\":\"1\"}}}],\"overhead\":{\"cpu\":\"250m\",\"memory\":\"120Mi\"}}");
    assert_int_equal(rlist_get(&r, "cpu"), 1250);
    assert_int_equal(rlist_get(&r, "memory"), 1024 * MI + 120 * MI);
    assert_int_equal(rlist_get(&r, "nvidia.com/gpu"), 1000);
    rlist_clear(&r);
    /* pod-level requests replace cpu/memory, never extended resources; overhead still added */
    r = effective("{\"resources\":{\"requests\":{\"cpu\":\"4\",\"nvidia.com/gpu\":\"5\"},\"limits\":{\"memory\":\"8Gi\"}},"
                  "\"containers\":[{\"resources\":{\"requests\":{\"cpu\":\"1\",\"memory\":\"1Gi\",\"nvidia.com/gpu\":\"1\"}}},"
                  "{\"resources\":{\"requests\":{\"cpu\":\"2\"}}}],\"overhead\":{\"cpu\":\"100m\"}}");
    assert_int_equal(rlist_get(&r, "cpu"), 4100);
    assert_int_equal(rlist_get(&r, "memory"), 8 * GI);   /* pod-level limit defaults the request */
    assert_int_equal(rlist_get(&r, "nvidia.com/gpu"), 1000);
    rlist_clear(&r);
}

static void test_limits_default_requests(void **state)
{
    (void)state;
    ResourceList r = effective("{\"containers\":[{\"resources\":{\"requests\":{\"cpu\":\"1\"},"
                               "\"limits\":{\"nvidia.com/gpu\":\"2\",\"cpu\":\"3\"}}},"
                               "{\"resources\":{\"requests\":{\"nvidia.com/gpu\":\"1\"},\"limits\":{\"nvidia.com/gpu\":\"2\"}}}]}");
    assert_int_equal(rlist_get(&r, "nvidia.com/gpu"), 3000);   /* 2 (from limit) + 1 (request wins) */
    assert_int_equal(rlist_get(&r, "cpu"), 1000);              /* request present: limit ignored */
    rlist_clear(&r);
    r = effective("{\"initContainers\":[{\"resources\":{\"limits\":{\"nvidia.com/mig-1g.10gb\":\"2\"}}}],\"containers\":[]}");
    assert_int_equal(rlist_get(&r, "nvidia.com/mig-1g.10gb"), 2000);
    rlist_clear(&r);
}

static void test_effective_hostile(void **state)
{
    (void)state;
    ResourceList r = effective("{\"containers\":{\"a\":1},\"initContainers\":\"x\",\"overhead\":[1],"
                               "\"resources\":5}");
    assert_int_equal(r.n, 0);
    rlist_clear(&r);
    r = effective("{\"containers\":[1,null,{\"resources\":\"big\"},{\"resources\":{\"requests\":[\"1\"]}},"
                  "{\"resources\":{\"requests\":{\"nvidia.com/gpu\":\"1x\",\"cpu\":\"1\"}}}]}");
    assert_int_equal(r.n, 1);
    assert_int_equal(rlist_get(&r, "cpu"), 1000);
    rlist_clear(&r);
    pod_effective_requests(NULL, &r);
    assert_int_equal(r.n, 0);
    rlist_clear(&r);
}

/* requests the caller computed already are taken as they are (not computed again from the
 * spec), and the caller's list is left empty, also when the pod is rejected */
static void test_requests_given(void **state)
{
    (void)state;
    cJSON *j = cJSON_Parse("{\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":[{\"resources\":"
                           "{\"requests\":{\"nvidia.com/gpu\":\"1\"}}}]}}");
    ResourceList given = RESOURCE_LIST_INIT;
    rlist_set(&given, "nvidia.com/gpu", 2000);    /* not the spec's 1: shows which was used */
    Pod p;
    Error e = { 0 };
    assert_int_equal(pod_from_json_kept(&p, j, pool, &given, &e), 0);
    assert_int_equal(rlist_get(&p.requests, "nvidia.com/gpu"), 2000);
    assert_int_equal(given.n, 0);
    assert_null(given.items);
    pod_clear(&p);
    assert_int_equal(pod_from_json_kept(&p, j, pool, NULL, &e), 0);   /* NULL: from the spec */
    assert_int_equal(rlist_get(&p.requests, "nvidia.com/gpu"), 1000);
    pod_clear(&p);
    cJSON_Delete(j);
    j = cJSON_Parse("{\"metadata\":{},\"spec\":{}}");
    rlist_set(&given, "cpu", 500);
    assert_int_equal(pod_from_json_kept(&p, j, pool, &given, &e), -1);   /* no name */
    assert_null(given.items);                      /* taken (freed) all the same: ASan sees no leak */
    cJSON_Delete(j);
}

static void test_fixture_pod(void **state)
{
    (void)state;
    cJSON *j = load_fixture("tests/fixtures/model/pod-gpu-pending.json");
    assert_non_null(j);
    Pod p;
    Error e = { 0 };
    assert_int_equal(pod_from_json(&p, j, pool, &e), 0);
    cJSON_Delete(j);
    assert_string_equal(p.ns, "ml");
    assert_string_equal(p.name, "trainer-7d9f-abcde");
    assert_int_equal(p.creation, 1715707841);
    assert_false(p.terminating);
    assert_string_equal(p.owner_kind, "ReplicaSet");     /* the controller reference, not the first */
    assert_string_equal(p.owner_name, "trainer-7d9f");
    assert_null(p.node_name);
    assert_string_equal(pod_more(&p)->nominated_node, "gpu-h100-1");
    assert_int_equal(p.phase, PHASE_PENDING);
    assert_string_equal(pod_more(&p)->scheduler_name, "default-scheduler");
    assert_string_equal(pod_more(&p)->priority_class, "high");
    assert_int_equal(p.priority, 100000);
    assert_string_equal(pod_more(&p)->preemption_policy, "Never");
    assert_string_equal(pod_more(&p)->runtime_class, "nvidia");
    assert_string_equal(kv_get(&p.labels, "app"), "trainer");
    /* cpu 4 + 100m; memory 32Gi + 64Mi; GPU 2 from the limit */
    assert_int_equal(rlist_get(&p.requests, "cpu"), 4100);
    assert_int_equal(rlist_get(&p.requests, "memory"), 32 * GI + 64 * MI);
    assert_int_equal(rlist_get(&p.requests, "nvidia.com/gpu"), 2000);
    assert_int_equal(pod_more(&p)->node_selector.n, 1);
    assert_string_equal(kv_get(&pod_more(&p)->node_selector, "nvidia.com/gpu.product"), "NVIDIA-H100-80GB-HBM3");

    assert_int_equal(p.naffinity_terms, 2);
    const LabelSelector *m0 = &p.affinity_terms[0].match_expressions;
    assert_int_equal(m0->n, 3);
    assert_string_equal(m0->reqs[0].key, "pool");
    assert_int_equal(m0->reqs[0].op, SEL_IN);
    assert_int_equal(m0->reqs[0].nvalues, 2);
    assert_string_equal(m0->reqs[0].values[1], "gpu-b");
    assert_int_equal(m0->reqs[1].op, SEL_NOT_EXISTS);
    assert_int_equal(m0->reqs[2].op, SEL_GT);
    assert_string_equal(m0->reqs[2].values[0], "3");
    assert_int_equal(p.affinity_terms[0].match_fields.n, 0);
    assert_int_equal(p.affinity_terms[1].match_expressions.n, 0);
    assert_int_equal(p.affinity_terms[1].match_fields.n, 1);
    assert_string_equal(p.affinity_terms[1].match_fields.reqs[0].key, "metadata.name");
    assert_int_equal(p.affinity_terms[1].match_fields.reqs[0].op, SEL_NOTIN);

    assert_int_equal(pod_more(&p)->ntolerations, 3);
    assert_string_equal(pod_more(&p)->tolerations[0].key, "nvidia.com/gpu");
    assert_string_equal(pod_more(&p)->tolerations[0].op, "Exists");
    assert_string_equal(pod_more(&p)->tolerations[0].effect, "NoSchedule");
    assert_null(pod_more(&p)->tolerations[0].value);
    assert_null(pod_more(&p)->tolerations[1].key);                   /* tolerates everything */
    assert_null(pod_more(&p)->tolerations[1].effect);
    assert_string_equal(pod_more(&p)->tolerations[2].op, "Equal");   /* default operator */
    assert_string_equal(pod_more(&p)->tolerations[2].value, "ml");

    assert_int_equal(pod_more(&p)->ngates, 1);
    assert_string_equal(pod_more(&p)->gates[0], "example.com/quota-check");
    assert_true(pod_more(&p)->scheduled.present);
    assert_false(pod_more(&p)->scheduled.status_true);
    assert_string_equal(pod_more(&p)->scheduled.reason, "Unschedulable");
    assert_non_null(strstr(pod_more(&p)->scheduled.message, "3 Insufficient nvidia.com/gpu."));

    assert_true(pod_requests_gpu(&p));
    assert_true(pod_is_pending_unbound(&p));
    assert_false(pod_holds_resources(&p));
    assert_string_equal(pod_phase_name(p.phase), "Pending");
    pod_clear(&p);
}

static int parse_pod(Pod *p, const char *json, Error *e)
{
    cJSON *j = cJSON_Parse(json);
    if (!j) fail_msg("bad test JSON: %s", json);
    int rc = pod_from_json(p, j, pool, e);
    cJSON_Delete(j);
    return rc;
}

/* required pod anti-affinity on the hostname against the pod's own labels (plan: one pod of the
 * workload per node); other topology keys, selectors that miss its labels, other namespaces and
 * preferred terms do not count.  A namespaceSelector counts: {} selects every namespace
 * (kubernetes pkg/scheduler/framework/types.go newAffinityTerm: namespaces and namespaceSelector
 * are a union, an empty selector matches all); one with labels selects by Namespace labels, which
 * are not read, and is taken to include the pod's own (the plan, the reader, keeps pods apart) */
static void test_spread_by_node(void **state)
{
    (void)state;
    static const struct { const char *term; bool want; } cases[] = {
        { "{\"labelSelector\":{\"matchLabels\":{\"app\":\"asr\"}},\"topologyKey\":\"kubernetes.io/hostname\"}", true },
        { "{\"labelSelector\":{\"matchExpressions\":[{\"key\":\"app\",\"operator\":\"In\",\"values\":[\"asr\",\"x\"]}]},"
          "\"topologyKey\":\"kubernetes.io/hostname\"}", true },
        { "{\"labelSelector\":{},\"topologyKey\":\"kubernetes.io/hostname\"}", true },          /* {} selects all */
        { "{\"labelSelector\":{\"matchLabels\":{\"app\":\"asr\"}},\"topologyKey\":\"topology.kubernetes.io/zone\"}", false },
        { "{\"labelSelector\":{\"matchLabels\":{\"app\":\"other\"}},\"topologyKey\":\"kubernetes.io/hostname\"}", false },
        { "{\"topologyKey\":\"kubernetes.io/hostname\"}", false },                            /* no selector: none */
        { "{\"labelSelector\":{\"matchLabels\":{\"app\":\"asr\"}},\"namespaces\":[\"other\"],"
          "\"topologyKey\":\"kubernetes.io/hostname\"}", false },
        { "{\"labelSelector\":{\"matchLabels\":{\"app\":\"asr\"}},\"namespaces\":[\"speech\"],"
          "\"topologyKey\":\"kubernetes.io/hostname\"}", true },
        { "{\"labelSelector\":{\"matchLabels\":{\"app\":\"asr\"}},\"namespaceSelector\":{},"
          "\"topologyKey\":\"kubernetes.io/hostname\"}", true },
        { "{\"labelSelector\":{\"matchLabels\":{\"app\":\"asr\"}},\"namespaces\":[\"other\"],"
          "\"namespaceSelector\":{\"matchLabels\":{\"team\":\"speech\"}},\"topologyKey\":\"kubernetes.io/hostname\"}", true },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *js = xasprintf("{\"metadata\":{\"name\":\"asr-1\",\"namespace\":\"speech\",\"labels\":{\"app\":\"asr\"}},"
                             "\"spec\":{\"affinity\":{\"podAntiAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":"
                             "[%s]}}}}", cases[i].term);
        Pod p;
        Error e = { 0 };
        assert_int_equal(parse_pod(&p, js, &e), 0);
        if (p.spread_by_node != cases[i].want) fail_msg("case %zu: %s", i, cases[i].term);
        pod_clear(&p);
        free(js);
    }
    Pod p;
    Error e = { 0 };
    assert_int_equal(parse_pod(&p, "{\"metadata\":{\"name\":\"a\",\"labels\":{\"app\":\"asr\"}},\"spec\":{\"affinity\":"
                                   "{\"podAntiAffinity\":{\"preferredDuringSchedulingIgnoredDuringExecution\":[{\"weight\":1,"
                                   "\"podAffinityTerm\":{\"labelSelector\":{},\"topologyKey\":\"kubernetes.io/hostname\"}}]}}}}",
                               &e), 0);
    assert_false(p.spread_by_node);
    pod_clear(&p);
}

/* where the effective GPU request comes from: the init container whose peak (its request plus
 * the sidecars started before it) exceeds the app containers and all sidecars (scheduler rule
 * in pod.c's header); NULL when the app containers set it */
static void test_request_init(void **state)
{
    (void)state;
    Pod p;
    Error e = { 0 };
#define RES_GPU(n) "{\"requests\":{\"nvidia.com/gpu\":\"" #n "\"}}"
    /* apps 1 + 1 = 2; init "warmup" 4 > 2 -> warmup (effective 4) */
    assert_int_equal(parse_pod(&p, "{\"metadata\":{\"name\":\"a\"},\"spec\":{"
                                   "\"containers\":[{\"name\":\"c1\",\"resources\":" RES_GPU(1) "},"
                                   "{\"name\":\"c2\",\"resources\":" RES_GPU(1) "}],"
                                   "\"initContainers\":[{\"name\":\"small\",\"resources\":" RES_GPU(1) "},"
                                   "{\"name\":\"warmup\",\"resources\":" RES_GPU(4) "}]}}", &e), 0);
    assert_int_equal(rlist_get(&p.requests, "nvidia.com/gpu"), 4000);
    assert_string_equal(pod_more(&p)->request_init, "warmup");
    pod_clear(&p);
    /* apps 2 + sidecar 1 = 3; init "prep" 2 after the sidecar peaks at 2 + 1 = 3, not above -> NULL */
    assert_int_equal(parse_pod(&p, "{\"metadata\":{\"name\":\"b\"},\"spec\":{"
                                   "\"containers\":[{\"name\":\"c\",\"resources\":" RES_GPU(2) "}],"
                                   "\"initContainers\":[{\"name\":\"side\",\"restartPolicy\":\"Always\",\"resources\":" RES_GPU(1) "},"
                                   "{\"name\":\"prep\",\"resources\":" RES_GPU(2) "}]}}", &e), 0);
    assert_int_equal(rlist_get(&p.requests, "nvidia.com/gpu"), 3000);
    assert_null(pod_more(&p)->request_init);
    pod_clear(&p);
#undef RES_GPU
}

static void test_phases_and_defaults(void **state)
{
    (void)state;
    Pod p;
    Error e = { 0 };
    assert_int_equal(parse_pod(&p, "{\"metadata\":{\"name\":\"a\",\"deletionTimestamp\":\"2024-05-14T17:30:41Z\"},"
                                   "\"spec\":{\"nodeName\":\"n1\"},\"status\":{\"phase\":\"Running\"}}", &e), 0);
    assert_string_equal(p.ns, "default");
    assert_true(p.terminating);
    assert_true(pod_holds_resources(&p));                /* terminating pods still hold */
    assert_false(pod_is_pending_unbound(&p));
    assert_false(pod_requests_gpu(&p));
    assert_string_equal(pod_more(&p)->preemption_policy, "PreemptLowerPriority");
    assert_string_equal(pod_more(&p)->scheduler_name, "default-scheduler");
    assert_int_equal(p.priority, 0);
    assert_null(p.owner_kind);
    assert_false(pod_more(&p)->scheduled.present);
    pod_clear(&p);
    const struct { const char *phase; PodPhase want; bool holds; } cases[] = {
        { "Succeeded", PHASE_SUCCEEDED, false }, { "Failed", PHASE_FAILED, false },
        { "Pending", PHASE_PENDING, true }, { "Unknown", PHASE_UNKNOWN, true }, { "Bogus", PHASE_UNKNOWN, true },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *js = xasprintf("{\"metadata\":{\"name\":\"b\"},\"spec\":{\"nodeName\":\"n\"},\"status\":{\"phase\":\"%s\"}}",
                             cases[i].phase);
        assert_int_equal(parse_pod(&p, js, &e), 0);
        assert_int_equal(p.phase, cases[i].want);
        assert_int_equal(pod_holds_resources(&p), cases[i].holds);
        pod_clear(&p);
        free(js);
    }
    assert_string_equal(pod_phase_name(PHASE_SUCCEEDED), "Succeeded");
    assert_string_equal(pod_phase_name(PHASE_UNKNOWN), "Unknown");
}

static void test_pod_hostile(void **state)
{
    (void)state;
    Pod p;
    Error e = { 0 };
    assert_int_equal(parse_pod(&p, "{}", &e), -1);
    assert_non_null(strstr(e.msg, "metadata.name"));
    assert_int_equal(parse_pod(&p, "\"pod\"", &e), -1);
    assert_int_equal(parse_pod(&p, "{\"metadata\":{\"name\":[\"x\"]}}", &e), -1);
    /* an operator the scheduler does not know: error (skipping would widen the term) */
    assert_int_equal(parse_pod(&p, "{\"metadata\":{\"name\":\"x\",\"namespace\":\"ns\"},\"spec\":{\"affinity\":"
                                   "{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":"
                                   "[{\"matchExpressions\":[{\"key\":\"k\",\"operator\":\"Near\"}]}]}}}}}", &e), -1);
    assert_non_null(strstr(e.msg, "pod ns/x: "));
    assert_non_null(strstr(e.msg, "unknown operator \"Near\""));
    /* wrong types everywhere: defaults */
    assert_int_equal(parse_pod(&p, "{\"metadata\":{\"name\":\"y\",\"namespace\":7,\"labels\":\"l\",\"ownerReferences\":{},"
                                   "\"deletionTimestamp\":null},"
                                   "\"spec\":{\"nodeName\":5,\"priority\":1e20,\"tolerations\":[1,\"x\",{\"key\":9}],"
                                   "\"schedulingGates\":[{\"name\":1},\"g\"],\"nodeSelector\":[],\"affinity\":[],"
                                   "\"containers\":\"none\"},"
                                   "\"status\":{\"phase\":3,\"conditions\":[{\"type\":\"PodScheduled\",\"status\":true}]}}", &e), 0);
    assert_string_equal(p.ns, "default");
    assert_null(p.node_name);
    assert_int_equal(p.priority, 0);
    assert_false(p.terminating);
    assert_int_equal(pod_more(&p)->ntolerations, 1);                 /* only the object entry */
    assert_null(pod_more(&p)->tolerations[0].key);
    assert_int_equal(pod_more(&p)->ngates, 0);
    assert_int_equal(p.naffinity_terms, 0);
    assert_int_equal(p.phase, PHASE_PENDING);
    assert_true(pod_more(&p)->scheduled.present);
    assert_false(pod_more(&p)->scheduled.status_true);
    pod_clear(&p);
    /* a huge scheduler message is truncated to 4 KiB */
    char *big = xcalloc(1, 100001);
    memset(big, 'x', 100000);
    char *js = xasprintf("{\"metadata\":{\"name\":\"z\"},\"status\":{\"conditions\":[{\"type\":\"PodScheduled\","
                         "\"status\":\"False\",\"message\":\"%s\"}]}}", big);
    assert_int_equal(parse_pod(&p, js, &e), 0);
    assert_int_equal(strlen(pod_more(&p)->scheduled.message), 4096);
    pod_clear(&p);
    free(js); free(big);
}

/* pods decoded into one pool share its strings and their identical tolerations arrays; a
 * pod with other tolerations gets its own; hostile text is cleaned once, in the pool copy */
static void test_pool_sharing(void **state)
{
    (void)state;
#define POOL_POD_FMT "{\"metadata\":{\"name\":\"w-%d\",\"namespace\":\"ml\"},\"spec\":{" \
                      "\"schedulerName\":\"volcano\",\"tolerations\":[{\"key\":\"nvidia.com/gpu\"," \
                      "\"operator\":\"Exists\",\"effect\":\"NoSchedule\"},{\"key\":\"%s\",\"operator\":" \
                      "\"Equal\",\"value\":\"v\\u001b[2J\"}]}}"
    Pod a, b, d;
    Error e = { 0 };
    char *ja = xasprintf(POOL_POD_FMT, 1, "pool"), *jb = xasprintf(POOL_POD_FMT, 2, "pool");
    char *jd = xasprintf(POOL_POD_FMT, 3, "other");
    size_t before = strpool_count(pool);
    assert_int_equal(parse_pod(&a, ja, &e), 0);
    size_t after_one = strpool_count(pool);
    assert_int_equal(parse_pod(&b, jb, &e), 0);
    assert_int_equal(parse_pod(&d, jd, &e), 0);
    assert_string_equal(a.name, "w-1");
    assert_string_equal(b.name, "w-2");
    assert_ptr_equal(a.ns, b.ns);                       /* one copy of "ml" */
    assert_ptr_equal(pod_more(&a)->scheduler_name, pod_more(&b)->scheduler_name);
    assert_ptr_equal(a.more, b.more);                   /* one PodMore for the same scheduler and
                                                           tolerations, ... */
    assert_ptr_not_equal(a.more, d.more);               /* (its tolerations are in it) */
    assert_string_equal(a.more->scheduler_name, "volcano");
    assert_int_equal(pod_more(&a)->ntolerations, 2);
    assert_ptr_equal(pod_more(&a)->tolerations, pod_more(&b)->tolerations);   /* one array for the same */
    assert_ptr_not_equal(pod_more(&a)->tolerations, pod_more(&d)->tolerations);
    assert_string_equal(pod_more(&d)->tolerations[1].key, "other");
    assert_ptr_equal(pod_more(&a)->tolerations[0].key, pod_more(&d)->tolerations[0].key);
    assert_string_equal(pod_more(&a)->tolerations[1].value, "v [2J");   /* ESC cleaned in the pool copy */
    /* the second pod added its name only; the third its name, its key, its tolerations array
     * and its PodMore */
    assert_true(after_one > before);
    assert_int_equal(strpool_count(pool) - after_one, 1 + 4);
    /* a pod nominated to a node has a PodMore of its own */
    Pod f;
    assert_int_equal(parse_pod(&f, "{\"metadata\":{\"name\":\"w-4\",\"namespace\":\"ml\"},\"spec\":{"
                                   "\"schedulerName\":\"volcano\"},\"status\":{\"nominatedNodeName\":\"n1\"}}", &e), 0);
    assert_ptr_not_equal(f.more, a.more);
    assert_string_equal(pod_more(&f)->nominated_node, "n1");
    assert_null(pod_more(&a)->nominated_node);
    pod_clear(&a); pod_clear(&b); pod_clear(&d); pod_clear(&f);
    free(ja); free(jb); free(jd);
}

/* The pool's memo of tolerations (pod.c: the array made from each source text): every
 * tolerations list read from one shared pool, in an order where each near-variant follows the
 * one it is near to, comes out as the same list read alone into a fresh pool (no memo there:
 * the expectation).  The variants differ where a memo key that held less than the source would
 * go wrong: "" vs absent value, absent vs "Equal" operator, bytes past a limit (the same
 * answer), a character cut at a limit and a byte at the limit that is not UTF-8 for what follows
 * it (a different one: str_printable reads past the limit there), a non-object entry. */
static void expect_same_tolerations(const Toleration *got, uint32_t ngot, const Toleration *want, uint32_t nwant)
{
    assert_int_equal(ngot, nwant);
    for (uint32_t i = 0; i < nwant; i++) {
        const char *g[4] = { got[i].key, got[i].op, got[i].value, got[i].effect };
        const char *w[4] = { want[i].key, want[i].op, want[i].value, want[i].effect };
        for (int f = 0; f < 4; f++) {
            if (!w[f]) { assert_null(g[f]); continue; }
            assert_non_null(g[f]);
            assert_string_equal(g[f], w[f]);
        }
    }
}

static void test_tolerations_memo(void **state)
{
    (void)state;
    char a62[63], long_a[70];
    memset(a62, 'a', 62); a62[62] = '\0';
    memset(long_a, 'a', 69); long_a[69] = '\0';
    char *texts[] = {
        xasprintf("[{\"key\":\"k\",\"value\":\"\"}]"),
        xasprintf("[{\"key\":\"k\"}]"),
        xasprintf("[{\"key\":\"k\",\"operator\":\"Equal\"}]"),
        xasprintf("[{\"key\":\"k\",\"operator\":\"Exists\"}]"),
        xasprintf("[{\"key\":\"\",\"operator\":\"Exists\"}]"),
        xasprintf("[{\"operator\":\"Exists\"}]"),
        xasprintf("[{\"key\":\"k\",\"value\":\"%sX\"}]", long_a),     /* past 63: cut, the same */
        xasprintf("[{\"key\":\"k\",\"value\":\"%sY\"}]", long_a),
        xasprintf("[{\"key\":\"k\",\"value\":\"%s\\u00e9\"}]", a62), /* é straddles 63: dropped */
        xasprintf("[{\"key\":\"k\",\"value\":\"%s\xc3(\"}]", a62),       /* not UTF-8 at 63: U+FFFD */
        xasprintf("[{\"key\":\"k\",\"value\":\"%sb\"}]", a62),
        xasprintf("[{\"key\":\"k\",\"value\":\"v\\u001b\"}]"),
        xasprintf("[{\"key\":\"k\",\"value\":\"v \"}]"),
        xasprintf("[{\"key\":\"k\",\"effect\":\"NoSchedule\"}, 7, {\"key\":\"j\"}]"),
        xasprintf("[{\"key\":\"k\",\"effect\":\"NoSchedule\"}, {\"key\":\"j\"}]"),
        xasprintf("[{\"key\":\"k\",\"effect\":\"NoSchedule\"}, {\"key\":\"j\"}, {}]"),
        xasprintf("[{\"key\":7,\"effect\":\"NoSchedule\"}]"),
        xasprintf("[{\"effect\":\"NoSchedule\"}]"),
    };
    size_t n = sizeof texts / sizeof *texts;
    StrPool *shared = strpool_new();
    for (int round = 0; round < 2; round++)            /* the second: every one a memo hit */
        for (size_t i = 0; i < n; i++) {
            cJSON *arr = cJSON_Parse(texts[i]);
            assert_non_null(arr);
            StrPool *fresh = strpool_new();
            uint32_t ng, nw;
            const Toleration *want = pod_tolerations_from_json(arr, fresh, &nw);
            const Toleration *got = pod_tolerations_from_json(arr, shared, &ng);
            expect_same_tolerations(got, ng, want, nw);
            strpool_free(fresh);
            cJSON_Delete(arr);
        }
    strpool_free(shared);
    for (size_t i = 0; i < n; i++) free(texts[i]);
}

/* text read both ways, pod_from_json into *full and pod_from_json_kept into *kept (both must
 * succeed); the parsed JSON, for the caller to delete */
static cJSON *read_both(const char *text, Pod *full, Pod *kept)
{
    cJSON *j = cJSON_Parse(text);
    assert_non_null(j);
    Error e = { 0 };
    assert_int_equal(pod_from_json(full, j, pool, &e), 0);
    assert_int_equal(pod_from_json_kept(kept, j, pool, NULL, &e), 0);
    return j;
}

/* pod_from_json_kept (a Cluster's pods): an unbound pod's labels all, as pod_from_json reads
 * them; a bound pod's none; everything else the same (spread_by_node decided on all its labels:
 * its anti-affinity selects app=w, not the hash), rs_hash_len too (test_rs_hash_len). */
static void test_kept_labels(void **state)
{
    (void)state;
#define KEPT_FMT "{\"metadata\":{\"name\":\"w-1\",\"namespace\":\"ml\",\"labels\":{\"app\":\"w\"," \
    "\"pod-template-hash\":7,\"pod-template-hash\":\"h\\u0007\",\"zz\":\"1\"},\"ownerReferences\":[{\"kind\":" \
    "\"%s\",\"name\":\"w\",\"controller\":true}]},\"spec\":{%s\"affinity\":{\"podAntiAffinity\":" \
    "{\"requiredDuringSchedulingIgnoredDuringExecution\":[{\"topologyKey\":\"kubernetes.io/hostname\"," \
    "\"labelSelector\":{\"matchLabels\":{\"app\":\"w\"}}}]}}}}"
    const char *owners[] = { "ReplicaSet", "Job" }, *binds[] = { "", "\"nodeName\":\"n1\"," };
    for (int o = 0; o < 2; o++)
        for (int b = 0; b < 2; b++) {
            char *text = xasprintf(KEPT_FMT, owners[o], binds[b]);
            Pod full, kept;
            cJSON *j = read_both(text, &full, &kept);
            assert_true(full.spread_by_node);
            assert_int_equal(kept.spread_by_node, full.spread_by_node);
            assert_ptr_equal(kept.more, full.more);
            assert_ptr_equal(kept.node_name, full.node_name);
            assert_int_equal(full.labels.n, 3);
            if (!b) {                                   /* unbound: all of them */
                assert_int_equal(kept.labels.n, full.labels.n);
                for (uint32_t i = 0; i < full.labels.n; i++) {
                    assert_string_equal(kept.labels.items[i].key, full.labels.items[i].key);
                    assert_string_equal(kept.labels.items[i].value, full.labels.items[i].value);
                }
            } else {                                    /* bound: none */
                assert_int_equal(kept.labels.n, 0);
                assert_null(kept.labels.items);
            }
            assert_int_equal(kept.rs_hash_len, full.rs_hash_len);
            pod_clear(&full);
            pod_clear(&kept);
            cJSON_Delete(j);
            free(text);
        }
#undef KEPT_FMT
}

/* rs_hash_len: a ReplicaSet controller named <name>-<pod-template-hash>, as the Deployment
 * controller names it (kubernetes pkg/controller/deployment/sync.go getNewReplicaSet: Name
 * d.Name + "-" + podTemplateSpecHash, the hash also the pods' label); the label's value as
 * the pod's labels keep it (the last of a repeated key that is a string, made printable as
 * the owner's name is); bound or not, kept or not */
static void test_rs_hash_len(void **state)
{
    (void)state;
    static const struct { const char *kind, *owner, *labels; int want; } cases[] = {
        { "ReplicaSet", "web-7d9f", "\"pod-template-hash\":\"7d9f\"", 4 },
        { "ReplicaSet", "web-7d9f", "\"pod-template-hash\":\"d9f\"", 0 },        /* no dash before */
        { "ReplicaSet", "web7d9f", "\"pod-template-hash\":\"7d9f\"", 0 },
        { "ReplicaSet", "-7d9f", "\"pod-template-hash\":\"7d9f\"", 0 },          /* no name before */
        { "ReplicaSet", "web-7d9f", "\"app\":\"web\"", 0 },
        { "ReplicaSet", "web-7d9f", "\"pod-template-hash\":\"\"", 0 },
        { "Job", "web-7d9f", "\"pod-template-hash\":\"7d9f\"", 0 },
        { "ReplicaSet", "web-7d9f", "\"pod-template-hash\":\"x\",\"pod-template-hash\":\"7d9f\"", 4 },
        { "ReplicaSet", "web-7d9f", "\"pod-template-hash\":\"7d9f\",\"pod-template-hash\":7", 4 },
        { "ReplicaSet", "web-7d9f", "\"pod-template-hash\":\"7d9f\",\"pod-template-hash\":\"x\"", 0 },
        { "ReplicaSet", "w-h\\u0007", "\"pod-template-hash\":\"h\\u0007\"", 2 },   /* both "h " */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        for (int bound = 0; bound < 2; bound++) {
            char *text = xasprintf("{\"metadata\":{\"name\":\"p\",\"labels\":{%s},\"ownerReferences\":"
                                   "[{\"kind\":\"%s\",\"name\":\"%s\",\"controller\":true}]},\"spec\":{%s}}",
                                   cases[i].labels, cases[i].kind, cases[i].owner, bound ? "\"nodeName\":\"n1\"" : "");
            Pod full, kept;
            cJSON *j = read_both(text, &full, &kept);
            if (full.rs_hash_len != cases[i].want || kept.rs_hash_len != cases[i].want)
                fail_msg("case %zu (bound %d): %d / %d, want %d", i, bound, full.rs_hash_len, kept.rs_hash_len,
                         cases[i].want);
            pod_clear(&full);
            pod_clear(&kept);
            cJSON_Delete(j);
            free(text);
        }
}

/* A spec member is the first of its name, whatever its type (json_fields.h jget: as cJSON's
 * lookup, which pod.c's one-pass reading of the spec keeps): a number first, a string second
 * reads as absent; a string first wins over a second one.  Every member pod.c reads, each
 * repeated so. */
static void test_spec_first_member(void **state)
{
    (void)state;
    Pod p;
    Error e = { 0 };
    assert_int_equal(parse_pod(&p, "{\"metadata\":{\"name\":\"d\"},\"spec\":{"
        "\"nodeName\":5,\"nodeName\":\"n1\",\"schedulerName\":\"s1\",\"schedulerName\":\"s2\","
        "\"priority\":\"x\",\"priority\":7,\"priorityClassName\":\"pc1\",\"priorityClassName\":\"pc2\","
        "\"preemptionPolicy\":[],\"preemptionPolicy\":\"Never\",\"runtimeClassName\":\"r1\",\"runtimeClassName\":\"r2\","
        "\"tolerations\":{},\"tolerations\":[{\"key\":\"t\"}],\"nodeSelector\":{\"a\":\"1\"},\"nodeSelector\":{\"b\":\"2\"},"
        "\"schedulingGates\":[{\"name\":\"g1\"}],\"schedulingGates\":[{\"name\":\"g2\"}],"
        "\"containers\":[" GPU(1) "],\"containers\":[" GPU(2) "],"
        "\"overhead\":{\"cpu\":\"1\"},\"overhead\":{\"cpu\":\"2\"}}}", &e), 0);
    const PodMore *m = pod_more(&p);
    assert_null(p.node_name);
    assert_string_equal(m->scheduler_name, "s1");
    assert_int_equal(p.priority, 0);
    assert_string_equal(m->priority_class, "pc1");
    assert_string_equal(m->preemption_policy, "PreemptLowerPriority");
    assert_string_equal(m->runtime_class, "r1");
    assert_int_equal(m->ntolerations, 0);
    assert_int_equal(m->node_selector.n, 1);
    assert_string_equal(m->node_selector.items[0].key, "a");
    assert_int_equal(m->ngates, 1);
    assert_string_equal(m->gates[0], "g1");
    assert_int_equal(rlist_get(&p.requests, "nvidia.com/gpu"), 1000);
    assert_int_equal(rlist_get(&p.requests, "cpu"), 1000);
    pod_clear(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_container_max), cmocka_unit_test(test_tolerations_memo), cmocka_unit_test(test_kept_labels), cmocka_unit_test(test_rs_hash_len),
        cmocka_unit_test(test_spec_first_member), cmocka_unit_test(test_sidecars),
        cmocka_unit_test(test_overhead_and_pod_level), cmocka_unit_test(test_limits_default_requests),
        cmocka_unit_test(test_effective_hostile), cmocka_unit_test(test_requests_given),
        cmocka_unit_test(test_fixture_pod),
        cmocka_unit_test(test_phases_and_defaults), cmocka_unit_test(test_pod_hostile),
        cmocka_unit_test(test_spread_by_node),
        cmocka_unit_test(test_pool_sharing), cmocka_unit_test(test_request_init),
    };
    return cmocka_run_group_tests(tests, pool_setup, pool_teardown);
}

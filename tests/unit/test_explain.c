/* Unit tests: explain — tolerations, nodeSelector / node affinity operators, free GPUs (usage,
 * sidecars, terminal pods, nominated pods), per-node reason codes and the verdict funnel. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/cluster.h"
#include "model_fixture.h"
#include "util/error.h"
#include "analysis/explain.h"
#include "../../src/analysis/explain_int.h"


/* a GPU node: name, allocatable GPUs, extra labels JSON (without braces), taints JSON, extra spec */
static void add_node(Cluster *c, const char *name, const char *gpus, const char *labels, const char *taints,
                     const char *spec_extra)
{
    char buf[4096];
    snprintf(buf, sizeof buf,
             "{\"kind\":\"Node\",\"metadata\":{\"name\":\"%s\",\"labels\":{\"nvidia.com/gpu.present\":\"true\","
             "\"nvidia.com/gpu.product\":\"NVIDIA-A100-SXM4-80GB\",\"nvidia.com/gpu.count\":\"8\"%s%s}},"
             "\"spec\":{\"taints\":[%s]%s%s},"
             "\"status\":{\"allocatable\":{\"cpu\":\"64\",\"memory\":\"512Gi\",\"pods\":\"110\"%s%s},"
             "\"capacity\":{\"cpu\":\"64\",\"memory\":\"512Gi\",\"pods\":\"110\"%s%s},"
             "\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}",
             name, labels ? "," : "", labels ? labels : "", taints ? taints : "", spec_extra ? "," : "",
             spec_extra ? spec_extra : "", gpus ? "," : "", gpus ? gpus : "", gpus ? "," : "", gpus ? gpus : "");
    fixture_ingest(c, buf);
}

/* a pod: ns/name, node (NULL = pending), containers JSON, extra spec, phase, extra status */
static void add_pod(Cluster *c, const char *name, const char *node, const char *containers, const char *spec_extra,
                    const char *phase, const char *status_extra)
{
    char buf[4096];
    snprintf(buf, sizeof buf,
             "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\",\"namespace\":\"ml\",\"uid\":\"u-%s\"},"
             "\"spec\":{%s%s%s\"containers\":%s%s%s},\"status\":{\"phase\":\"%s\"%s%s}}",
             name, name, node ? "\"nodeName\":\"" : "", node ? node : "", node ? "\"," : "", containers,
             spec_extra ? "," : "", spec_extra ? spec_extra : "", phase, status_extra ? "," : "",
             status_extra ? status_extra : "");
    fixture_ingest(c, buf);
}

#define GPU(n) "[{\"name\":\"c\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"" #n "\"},\"requests\":{\"cpu\":\"1\"}}}]"

static void test_tolerations(void **state)
{
    (void)state;
    Taint t = { "nvidia.com/gpu", "present", "NoSchedule" };
    Taint t_other_value = { "nvidia.com/gpu", "absent", "NoSchedule" };
    Taint t_exec = { "nvidia.com/gpu", "present", "NoExecute" };
    Taint t_empty = { "node-role.kubernetes.io/control-plane", "", "NoSchedule" };
    Taint t_other = { "dedicated", "ml", "NoSchedule" };

    Toleration eq = { "nvidia.com/gpu", "Equal", "present", "NoSchedule" };
    assert_true(explain_toleration_tolerates(&eq, &t));
    assert_false(explain_toleration_tolerates(&eq, &t_other_value));
    assert_false(explain_toleration_tolerates(&eq, &t_exec));           /* effect must match when set */

    Toleration exists_any_effect = { "nvidia.com/gpu", "Exists", NULL, NULL };
    assert_true(explain_toleration_tolerates(&exists_any_effect, &t));
    assert_true(explain_toleration_tolerates(&exists_any_effect, &t_exec));
    assert_true(explain_toleration_tolerates(&exists_any_effect, &t_other_value));
    assert_false(explain_toleration_tolerates(&exists_any_effect, &t_other));

    Toleration all = { NULL, "Exists", NULL, NULL };             /* empty key + Exists: everything */
    assert_true(explain_toleration_tolerates(&all, &t));
    assert_true(explain_toleration_tolerates(&all, &t_other));
    Toleration all_noexec = { NULL, "Exists", NULL, "NoExecute" };
    assert_false(explain_toleration_tolerates(&all_noexec, &t));
    assert_true(explain_toleration_tolerates(&all_noexec, &t_exec));

    Toleration no_op = { "nvidia.com/gpu", NULL, "present", NULL };   /* no operator = Equal */
    assert_true(explain_toleration_tolerates(&no_op, &t));
    assert_false(explain_toleration_tolerates(&no_op, &t_other_value));
    Toleration no_value = { "node-role.kubernetes.io/control-plane", "Equal", NULL, "NoSchedule" };
    assert_true(explain_toleration_tolerates(&no_value, &t_empty));      /* missing value equals "" */
    /* v1 ToleratesTaint: an empty key with Equal skips the key check and compares values */
    Toleration empty_key_equal = { NULL, "Equal", NULL, NULL };
    assert_true(explain_toleration_tolerates(&empty_key_equal, &t_empty));
    assert_false(explain_toleration_tolerates(&empty_key_equal, &t));
    Toleration bad_op = { "nvidia.com/gpu", "Gt", "present", NULL };
    assert_false(explain_toleration_tolerates(&bad_op, &t));
}

static const NodeResult *node_result(const Explanation *e, const char *name)
{
    for (size_t i = 0; i < e->nnodes; i++)
        if (strcmp(e->nodes[i].node->name, name) == 0) return &e->nodes[i];
    fail_msg("no node %s", name);
    return NULL;
}

static bool has_reason(const NodeResult *r, NodeReasonCode code)
{
    for (size_t i = 0; i < r->nreasons; i++) if (r->reasons[i].code == code) return true;
    return false;
}

static void test_taint_filter(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    add_node(&c, "soft", "\"nvidia.com/gpu\":\"8\"", NULL,
             "{\"key\":\"spot\",\"value\":\"true\",\"effect\":\"PreferNoSchedule\"}", NULL);
    add_node(&c, "exec", "\"nvidia.com/gpu\":\"8\"", NULL,
             "{\"key\":\"nvidia.com/gpu\",\"value\":\"present\",\"effect\":\"NoExecute\"}", NULL);
    add_node(&c, "cordoned", "\"nvidia.com/gpu\":\"8\"", NULL,
             "{\"key\":\"node.kubernetes.io/unschedulable\",\"effect\":\"NoSchedule\"}", "\"unschedulable\":true");
    add_pod(&c, "plain", NULL, GPU(1), NULL, "Pending", NULL);
    add_pod(&c, "tolerant", NULL, GPU(1),
            "\"tolerations\":[{\"key\":\"node.kubernetes.io/unschedulable\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"},"
            "{\"key\":\"nvidia.com/gpu\",\"operator\":\"Exists\"}]", "Pending", NULL);
    cluster_finalize(&c);

    Explanation e;
    explain_pod(&c, cluster_find_pod(&c, "ml", "plain"), &e);
    assert_int_equal(node_result(&e, "soft")->nreasons, 0);               /* PreferNoSchedule ignored */
    assert_true(has_reason(node_result(&e, "exec"), NR_UNTOLERATED_TAINT)); /* NoExecute counts */
    const NodeResult *cr = node_result(&e, "cordoned");
    assert_int_equal(cr->nreasons, 1);                                    /* the cordon taint is not repeated */
    assert_int_equal(cr->reasons[0].code, NR_UNSCHEDULABLE);
    assert_int_equal(e.verdict, V_UNKNOWN);                               /* "soft" fits now */
    explanation_clear(&e);

    explain_pod(&c, cluster_find_pod(&c, "ml", "tolerant"), &e);
    assert_int_equal(node_result(&e, "exec")->nreasons, 0);
    assert_int_equal(node_result(&e, "cordoned")->nreasons, 0);   /* tolerates the unschedulable taint */
    explanation_clear(&e);
    cluster_release(&c);
}

/* affinity with one term built from a matchExpressions JSON array */
static bool affinity(Cluster *c, const char *pod, const char *terms)
{
    char spec[2048];
    snprintf(spec, sizeof spec, "\"affinity\":{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":"
                                "{\"nodeSelectorTerms\":%s}}}", terms);
    add_pod(c, pod, NULL, GPU(1), spec, "Pending", NULL);
    const Pod *p = cluster_find_pod(c, "ml", pod);
    assert_non_null(p);
    char *why = NULL;
    bool m = explain_node_affinity_matches(p, cluster_find_node(c, "n1"), &why);
    if (!m) { assert_non_null(why); free(why); }
    return m;
}

static void test_affinity_operators(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    add_node(&c, "n1", "\"nvidia.com/gpu\":\"8\"", "\"nvidia.com/gpu.memory\":\"81920\",\"pool\":\"train\"", NULL, NULL);
    cluster_finalize(&c);
#define EXPR(k, op, vals) "{\"key\":\"" k "\",\"operator\":\"" op "\",\"values\":[" vals "]}"
#define TERM(...) "{\"matchExpressions\":[" __VA_ARGS__ "]}"
    assert_true(affinity(&c, "in", "[" TERM(EXPR("pool", "In", "\"a\",\"train\"")) "]"));
    assert_false(affinity(&c, "in-no", "[" TERM(EXPR("pool", "In", "\"a\"")) "]"));
    assert_true(affinity(&c, "notin-absent", "[" TERM(EXPR("zone", "NotIn", "\"a\"")) "]"));
    assert_false(affinity(&c, "notin", "[" TERM(EXPR("pool", "NotIn", "\"train\"")) "]"));
    assert_true(affinity(&c, "exists", "[" TERM(EXPR("pool", "Exists", "")) "]"));
    assert_false(affinity(&c, "exists-no", "[" TERM(EXPR("zone", "Exists", "")) "]"));
    assert_true(affinity(&c, "dne", "[" TERM(EXPR("zone", "DoesNotExist", "")) "]"));
    assert_false(affinity(&c, "dne-no", "[" TERM(EXPR("pool", "DoesNotExist", "")) "]"));
    assert_true(affinity(&c, "gt", "[" TERM(EXPR("nvidia.com/gpu.memory", "Gt", "\"80000\"")) "]"));
    assert_false(affinity(&c, "gt-no", "[" TERM(EXPR("nvidia.com/gpu.memory", "Gt", "\"81920\"")) "]"));
    assert_true(affinity(&c, "lt", "[" TERM(EXPR("nvidia.com/gpu.memory", "Lt", "\"90000\"")) "]"));
    assert_false(affinity(&c, "lt-nonint", "[" TERM(EXPR("pool", "Lt", "\"5\"")) "]"));
    /* expressions ANDed */
    assert_false(affinity(&c, "and", "[" TERM(EXPR("pool", "In", "\"train\"") "," EXPR("zone", "Exists", "")) "]"));
    /* terms ORed */
    assert_true(affinity(&c, "or", "[" TERM(EXPR("zone", "Exists", "")) "," TERM(EXPR("pool", "In", "\"train\"")) "]"));
    /* matchFields metadata.name */
    assert_true(affinity(&c, "fields", "[{\"matchFields\":[" EXPR("metadata.name", "In", "\"n1\"") "]}]"));
    assert_false(affinity(&c, "fields-no", "[{\"matchFields\":[" EXPR("metadata.name", "In", "\"n2\"") "]}]"));
    assert_false(affinity(&c, "fields-and", "[{\"matchFields\":[" EXPR("metadata.name", "In", "\"n1\"") "],"
                                             "\"matchExpressions\":[" EXPR("pool", "In", "\"x\"") "]}]"));
    /* an empty term matches nothing */
    assert_false(affinity(&c, "empty", "[{}]"));
    cluster_release(&c);
}

static void test_node_selector(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    add_node(&c, "n1", "\"nvidia.com/gpu\":\"8\"", "\"pool\":\"train\"", NULL, NULL);
    add_pod(&c, "ok", NULL, GPU(1), "\"nodeSelector\":{\"pool\":\"train\",\"nvidia.com/gpu.present\":\"true\"}", "Pending", NULL);
    add_pod(&c, "bad", NULL, GPU(1), "\"nodeSelector\":{\"pool\":\"infer\"}", "Pending", NULL);
    add_pod(&c, "missing", NULL, GPU(1), "\"nodeSelector\":{\"zone\":\"a\"}", "Pending", NULL);
    cluster_finalize(&c);
    const Node *n = cluster_find_node(&c, "n1");
    char *why = NULL;
    assert_true(explain_node_selector_matches(cluster_find_pod(&c, "ml", "ok"), n, &why));
    assert_null(why);
    assert_false(explain_node_selector_matches(cluster_find_pod(&c, "ml", "bad"), n, &why));
    assert_string_equal(why, "nodeSelector pool=infer: node has pool=train");
    free(why);
    assert_false(explain_node_selector_matches(cluster_find_pod(&c, "ml", "missing"), n, &why));
    assert_string_equal(why, "nodeSelector zone=a: node has no label zone");
    free(why);
    cluster_release(&c);
}

static void test_free_gpus(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    add_node(&c, "n1", "\"nvidia.com/gpu\":\"8\"", NULL, NULL, NULL);
    /* 2 GPUs; app 1 + sidecar 1 = 2; init 3 alone -> max(2, 3) = 3 */
    add_pod(&c, "a", "n1", GPU(2), NULL, "Running", NULL);
    add_pod(&c, "b", "n1", GPU(1),
            "\"initContainers\":[{\"name\":\"side\",\"restartPolicy\":\"Always\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\"}}},"
            "{\"name\":\"init\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"2\"}}}]", "Running", NULL);
    add_pod(&c, "done", "n1", GPU(4), NULL, "Succeeded", NULL);           /* terminal: holds nothing */
    add_pod(&c, "nom-hi", NULL, GPU(1), "\"priority\":100", "Pending", "\"nominatedNodeName\":\"n1\"");
    add_pod(&c, "nom-lo", NULL, GPU(2), "\"priority\":1", "Pending", "\"nominatedNodeName\":\"n1\"");
    add_pod(&c, "me", NULL, GPU(3), "\"priority\":50", "Pending", NULL);
    add_pod(&c, "cpu-only", "n1", "[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"60\"}}}]", NULL, "Running", NULL);
    cluster_finalize(&c);
    const Node *n = cluster_find_node(&c, "n1");
    const Pod *me = cluster_find_pod(&c, "ml", "me");
    /* b: sum(app 1 + sidecar 1) = 2, init peak = 2 + sidecar 1 = 3 -> 3.  8 - 2 - 3 - nom-hi 1 = 2 */
    assert_int_equal(explain_node_free_for(&c, n, me, "nvidia.com/gpu"), 2000);
    /* cpu (1 core per GPU() container): 64 - (a 1 + b 1 + cpu-only 60) - nom-hi 1 = 1 core;
     * nom-lo (priority 1 < 50) and done (Succeeded) do not count */
    assert_int_equal(explain_node_free_for(&c, n, me, "cpu"), 1000);

    Explanation e;
    explain_pod(&c, me, &e);
    const NodeResult *r = node_result(&e, "n1");
    assert_int_equal(r->nreasons, 1);
    assert_int_equal(r->reasons[0].code, NR_INSUFFICIENT);
    assert_int_equal(r->reasons[0].requested, 3000);
    assert_int_equal(r->reasons[0].free, 2000);
    assert_int_equal(r->reasons[0].allocatable, 8000);
    /* the holders of what is counted: b 3, a 2 bound, and nom-hi 1 nominated (its reservation
     * counts: priority 100 >= 50); nom-lo (priority 1) reserves nothing against me */
    assert_int_equal(r->reasons[0].nholders, 3);
    assert_string_equal(r->reasons[0].holders[0].pod->name, "b");     /* largest first */
    assert_false(r->reasons[0].holders[0].nominated);
    assert_string_equal(r->reasons[0].holders[2].pod->name, "nom-hi");
    assert_true(r->reasons[0].holders[2].nominated);
    assert_int_equal(e.verdict, V_INSUFFICIENT);
    explanation_clear(&e);
    cluster_release(&c);
}

/* The rows of pending's table (explain_pending_rows) keep no holders in their intent's cached
 * evaluation once its verdict is made, yet the verdict names them as the full explanation
 * does; and the row list is sized at the count of rows (it grew by doubling: 8 slots for 2). */
static void test_rows_name_the_holders(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    add_node(&c, "n1", "\"nvidia.com/gpu\":\"8\"", NULL, NULL, NULL);
    add_pod(&c, "a", "n1", GPU(8), NULL, "Running", NULL);          /* holds every GPU of n1 */
    add_pod(&c, "p1", NULL, GPU(1), NULL, "Pending", NULL);         /* the same intent twice */
    add_pod(&c, "p2", NULL, GPU(1), NULL, "Pending", NULL);
    cluster_finalize(&c);
    ExplanationList full, rows;
    explain_pending(&c, NULL, &full);
    explain_pending_rows(&c, NULL, &rows);
    assert_int_equal(full.n, 2);
    assert_int_equal(rows.n, 2);
    assert_int_equal(rows.cap, 2);
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(rows.items[i].verdict, V_INSUFFICIENT);
        assert_int_equal(full.items[i].verdict, V_INSUFFICIENT);
        assert_non_null(strstr(rows.items[i].summary, "held by ml/a"));
        assert_string_equal(rows.items[i].summary, full.items[i].summary);
    }
    /* the full explanation keeps its per-node holders: a, 8 GPUs */
    const NodeResult *r = node_result(&full.items[1], "n1");
    assert_int_equal(r->nreasons, 1);
    assert_int_equal(r->reasons[0].nholders, 1);
    assert_int_equal(r->reasons[0].holders[0].milli, 8000);
    explanation_list_clear(&full);
    explanation_list_clear(&rows);
    cluster_release(&c);
}

/* explain_pending_rows makes the rows intent by intent (one evaluation of the nodes alive at a
 * time), each into its place: pods of two intents interleaved by name come out in name order,
 * each with its own intent's verdict, as explain_pending lists them; their strings and
 * requests are the list's pooled copies */
static void test_rows_by_intent_in_order(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    add_node(&c, "n1", "\"nvidia.com/gpu\":\"8\"", NULL, NULL, NULL);
    add_pod(&c, "a", "n1", GPU(8), NULL, "Running", NULL);
    add_pod(&c, "p1", NULL, GPU(1), NULL, "Pending", NULL);         /* busy: Insufficient */
    add_pod(&c, "p2", NULL, GPU(9), NULL, "Pending", NULL);         /* more than any node: TooLarge */
    add_pod(&c, "p3", NULL, GPU(1), NULL, "Pending", NULL);
    add_pod(&c, "p4", NULL, GPU(9), NULL, "Pending", NULL);
    cluster_finalize(&c);
    ExplanationList full, rows;
    explain_pending(&c, NULL, &full);
    explain_pending_rows(&c, NULL, &rows);
    assert_int_equal(rows.n, 4);
    assert_int_equal(full.n, 4);
    const char *names[] = { "p1", "p2", "p3", "p4" };
    const Verdict want[] = { V_INSUFFICIENT, V_TOO_LARGE, V_INSUFFICIENT, V_TOO_LARGE };
    for (size_t i = 0; i < 4; i++) {
        assert_string_equal(rows.items[i].name, names[i]);
        assert_int_equal(rows.items[i].verdict, want[i]);
        assert_string_equal(full.items[i].name, names[i]);
        assert_int_equal(full.items[i].verdict, want[i]);
        assert_string_equal(rows.items[i].summary, full.items[i].summary);
        assert_true(rows.items[i].pooled);
    }
    /* the rows of one intent share the list's pooled summary, requests and namespace */
    assert_ptr_equal(rows.items[0].summary, rows.items[2].summary);
    assert_ptr_equal(rows.items[0].requests.items, rows.items[2].requests.items);
    assert_int_equal(rows.items[0].requests.cap, 0);
    assert_ptr_equal(rows.items[0].ns, rows.items[3].ns);
    assert_int_equal(rlist_get(&rows.items[1].requests, "nvidia.com/gpu"), 9000);
    explanation_list_clear(&full);
    explanation_list_clear(&rows);
    cluster_release(&c);
}

static void assert_same_strvec(const Strvec *a, const Strvec *b)
{
    assert_int_equal(a->n, b->n);
    for (size_t i = 0; i < a->n; i++) assert_string_equal(a->v[i], b->v[i]);
}

#define SCHED_COND(msg) "\"conditions\":[{\"type\":\"PodScheduled\",\"status\":\"False\",\"reason\":\"Unschedulable\"," \
                        "\"message\":\"" msg "\"}]"

/* What pods of one intent share is made once, yet each says what it alone would: the verdict
 * naming the holders (gathered unsorted for the rows, sorted where named: the largest first,
 * then by name, over more holders than it names), and the comparison with the scheduler's
 * message (kept for the last words compared: pods with the same words, then other words, then
 * the first words again).  Each pending pod of explain_pending (the evaluation and the
 * comparison shared) and of explain_pending_rows (holders unsorted, intent keys made once) is
 * what explain_pod gives it alone. */
static void test_shared_intent_says_what_alone_would(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    add_node(&c, "n1", "\"nvidia.com/gpu\":\"8\"", NULL, NULL, NULL);
    add_node(&c, "n2", "\"nvidia.com/gpu\":\"8\"", NULL, NULL, NULL);
    /* n1's holders in an order that is not the named one */
    add_pod(&c, "z", "n1", GPU(1), NULL, "Running", NULL);
    add_pod(&c, "b", "n1", GPU(4), NULL, "Running", NULL);
    add_pod(&c, "m", "n1", GPU(1), NULL, "Running", NULL);
    add_pod(&c, "a", "n1", GPU(2), NULL, "Running", NULL);
    const char *small[] = { "y8", "y7", "y6", "y5", "y4", "y3", "y2", "y1" };
    for (size_t i = 0; i < 8; i++) add_pod(&c, small[i], "n2", GPU(1), NULL, "Running", NULL);
    const char *agree = SCHED_COND("0/2 nodes are available: 2 Insufficient nvidia.com/gpu. "
                                   "preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.");
    const char *disagree = SCHED_COND("0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) had untolerated "
                                      "taint {dedicated: ml}. preemption: 0/2 nodes are available: 2 Preemption is not helpful "
                                      "for scheduling.");
    add_pod(&c, "p1", NULL, GPU(1), NULL, "Pending", disagree);
    add_pod(&c, "p2", NULL, GPU(1), NULL, "Pending", disagree);
    add_pod(&c, "p3", NULL, GPU(1), NULL, "Pending", agree);
    add_pod(&c, "p4", NULL, GPU(1), NULL, "Pending", disagree);
    add_pod(&c, "p5", NULL, GPU(1), NULL, "Pending", NULL);
    cluster_finalize(&c);
    ExplanationList full, rows;
    explain_pending(&c, NULL, &full);
    explain_pending_rows(&c, NULL, &rows);
    assert_int_equal(full.n, 5);
    assert_int_equal(rows.n, 5);
    size_t disagreeing = 0;
    for (size_t i = 0; i < full.n; i++) {
        const Explanation *f = &full.items[i], *r = &rows.items[i];
        Explanation alone;
        explain_pod(&c, cluster_find_pod(&c, "ml", f->name), &alone);
        assert_int_equal(f->verdict, V_INSUFFICIENT);
        assert_string_equal(f->summary, alone.summary);
        assert_string_equal(r->summary, alone.summary);
        assert_int_equal(f->agrees, alone.agrees);
        assert_int_equal(r->agrees, alone.agrees);
        assert_same_strvec(&f->disagreements, &alone.disagreements);
        assert_same_strvec(&f->notes, &alone.notes);
        disagreeing += !alone.agrees;
        explanation_clear(&alone);
    }
    assert_int_equal(disagreeing, 3);            /* p1, p2, p4 */
    /* the names in the order given: n1's b (4), a (2), m, z, then n2's y1, y2 (+6 more) */
    assert_non_null(strstr(full.items[0].summary, "held by ml/b, ml/a, ml/m, ml/z, ml/y1, ml/y2 +6 more"));
    explanation_list_clear(&full);
    explanation_list_clear(&rows);
    cluster_release(&c);
}

static void test_resource_reasons(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    add_node(&c, "shared", "\"nvidia.com/gpu\":\"0\",\"nvidia.com/gpu.shared\":\"16\"", NULL, NULL, NULL);
    add_node(&c, "noplugin", NULL, NULL, NULL, NULL);
    add_node(&c, "small", "\"nvidia.com/gpu\":\"2\"", NULL, NULL, NULL);
    fixture_ingest(&c, "{\"kind\":\"Node\",\"metadata\":{\"name\":\"cpu\"},\"status\":{\"allocatable\":{\"cpu\":\"8\",\"pods\":\"1\"},"
            "\"conditions\":[{\"type\":\"Ready\",\"status\":\"False\",\"reason\":\"KubeletNotReady\"}]}}");
    add_pod(&c, "x", "cpu", "[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]", NULL, "Running", NULL);
    add_pod(&c, "p", NULL, GPU(4), NULL, "Pending", NULL);
    cluster_finalize(&c);
    Explanation e;
    explain_pod(&c, cluster_find_pod(&c, "ml", "p"), &e);
    const NodeResult *r = node_result(&e, "shared");
    assert_int_equal(r->reasons[0].code, NR_RESOURCE_NOT_ADVERTISED);
    assert_string_equal(r->reasons[0].advertised.v[0], "nvidia.com/gpu.shared");
    assert_int_equal(node_result(&e, "noplugin")->reasons[0].code, NR_NO_DEVICE_PLUGIN);
    r = node_result(&e, "small");
    assert_int_equal(r->reasons[0].code, NR_EXCEEDS_NODE_CAPACITY);
    assert_int_equal(r->reasons[0].allocatable, 2000);
    r = node_result(&e, "cpu");
    assert_true(has_reason(r, NR_NOT_READY));
    assert_true(has_reason(r, NR_TOO_MANY_PODS));
    assert_true(has_reason(r, NR_EXCEEDS_NODE_CAPACITY));
    /* every GPU node carries 8 x A100 by its labels, so each could hold 4 GPUs: "noplugin" only
     * lacks its device plugin, "shared" offers another name, "small" advertises 2 of its 8.
     * The verdict order puts NoDevicePlugin before ResourceName and TooLarge. */
    assert_int_equal(e.verdict, V_NO_DEVICE_PLUGIN);
    explanation_clear(&e);
    cluster_release(&c);
}

/* funnel order: selector before taint (a tainted node the selector excludes never yields Taint) */
static void test_funnel_selector_before_taint(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    add_node(&c, "h100", "\"nvidia.com/gpu\":\"8\"", "\"pool\":\"a\"", "{\"key\":\"x\",\"effect\":\"NoSchedule\"}", NULL);
    add_node(&c, "a100", "\"nvidia.com/gpu\":\"8\"", "\"pool\":\"b\"", NULL, NULL);
    add_pod(&c, "p", NULL, GPU(1), "\"nodeSelector\":{\"pool\":\"a\"}", "Pending", NULL);
    add_pod(&c, "q", NULL, GPU(1), "\"nodeSelector\":{\"pool\":\"c\"}", "Pending", NULL);
    cluster_finalize(&c);
    Explanation e;
    explain_pod(&c, cluster_find_pod(&c, "ml", "p"), &e);
    assert_int_equal(e.verdict, V_TAINT);
    assert_true(e.fixes.n >= 1);
    assert_non_null(strstr(e.fixes.v[0], "key: \"x\""));
    assert_non_null(strstr(e.fixes.v[0], "operator: \"Exists\""));
    explanation_clear(&e);
    explain_pod(&c, cluster_find_pod(&c, "ml", "q"), &e);
    assert_int_equal(e.verdict, V_SELECTOR);
    explanation_clear(&e);
    cluster_release(&c);
}

/* a MIG profile's size read from a resource or profile name: the hand-read common form and
 * sscanf's "%dg.%dgb" agree, prefixes and suffixes included; malformed names are refused */
static void test_mig_profile_size(void **state)
{
    (void)state;
    struct { const char *name; bool ok; int c, m; } cases[] = {
        { "1g.10gb", true, 1, 10 }, { "mig-3g.40gb", true, 3, 40 }, { "nvidia.com/mig-7g.80gb", true, 7, 80 },
        { "nvidia.com/mig-1g.10gb.me", true, 1, 10 }, { "1g.24gb+gfx", true, 1, 24 }, { "12g.120gb", true, 12, 120 },
        { "+1g.10gb", true, 1, 10 }, { " 2g.20gb", true, 2, 20 },          /* sscanf's own leniency, kept */
        { "0g.10gb", false, 0, 0 }, { "1g.0gb", false, 0, 0 }, { "1g.gb", false, 0, 0 }, { "1g.10g", false, 0, 0 },
        { "g.10gb", false, 0, 0 }, { "1g10gb", false, 0, 0 }, { "-1g.10gb", false, 0, 0 }, { "", false, 0, 0 },
        { "nvidia.com/gpu", false, 0, 0 }, { "123456789g.1gb", true, 123456789, 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int c = -7, m = -7;
        bool ok = explain_mig_profile_size(cases[i].name, &c, &m);
        if (ok != cases[i].ok) fail_msg("%s: %d, want %d", cases[i].name, ok, cases[i].ok);
        if (ok && (c != cases[i].c || m != cases[i].m)) fail_msg("%s: %d/%d, want %d/%d", cases[i].name, c, m,
                                                                  cases[i].c, cases[i].m);
    }
    assert_false(explain_mig_profile_size(NULL, &(int){0}, &(int){0}));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mig_profile_size),
        cmocka_unit_test(test_tolerations),
        cmocka_unit_test(test_taint_filter),
        cmocka_unit_test(test_affinity_operators),
        cmocka_unit_test(test_node_selector),
        cmocka_unit_test(test_free_gpus),
        cmocka_unit_test(test_resource_reasons),
        cmocka_unit_test(test_rows_name_the_holders),
        cmocka_unit_test(test_rows_by_intent_in_order),
        cmocka_unit_test(test_shared_intent_says_what_alone_would),
        cmocka_unit_test(test_funnel_selector_before_taint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

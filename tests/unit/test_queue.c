/* Unit tests: model/queue.c (Kueue, Volcano and KAI objects reduced) and the quota arithmetic of
 * analysis/explain_queue.c.
 *
 * Field names per upstream API types (kubernetes-sigs/kueue ff69552, v0.20.0-devel):
 * apis/kueue/v1beta1/clusterqueue_types.go:79 spec.cohort, apis/kueue/v1beta2/clusterqueue_types.go:91
 * spec.cohortName; :235/:318 nominalQuota, :247/:330 borrowingLimit, :259/:342 lendingLimit;
 * apis/kueue/v1beta2/workload_types.go:39 podSets, :44 queueName, :57 priority, :68 active,
 * :272 admission.clusterQueue, :279 podSetAssignments, :299 flavors; conditions QuotaReserved
 * (:941) and Admitted (:933).  Volcano (ed72c7c) staging/src/volcano.sh/apis/pkg/apis/scheduling/
 * v1beta1/types.go:180 minMember, :196 queue, :212 minResources, :304 phase, :469 capability,
 * :496 deserved.  KAI (72de64f) pkg/apis/scheduling/v2/resources.go:19 quota, :23 limit;
 * pkg/apis/scheduling/v2alpha2/podgroup_types.go:38 minMember, :42 queue.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "model/cluster.h"
#include "model/queue.h"
#include "model/cluster_live.h"
#include "analysis/explain.h"
#include "analysis/explain_queue.h"
#include "util/error.h"

static int ingest(Cluster *c, ObjKind k, const char *json)
{
    cJSON *j = cJSON_Parse(json);
    if (!j) fail_msg("bad test JSON: %s", json);
    Error e = { 0 };
    int rc = cluster_ingest(c, k, j, &e);
    cJSON_Delete(j);
    return rc;
}

/* a ClusterQueue with one flavor f1 and nvidia.com/gpu quota; bl/ll "" = unset; used = reserved */
static void cq(Cluster *c, const char *api, const char *name, const char *cohort_key, const char *cohort,
               const char *nominal, const char *bl, const char *ll, const char *used)
{
    char buf[2048];
    snprintf(buf, sizeof buf,
             "{\"apiVersion\":\"%s\",\"kind\":\"ClusterQueue\",\"metadata\":{\"name\":\"%s\"},\"spec\":{\"%s\":\"%s\","
             "\"resourceGroups\":[{\"coveredResources\":[\"nvidia.com/gpu\"],\"flavors\":[{\"name\":\"f1\",\"resources\":"
             "[{\"name\":\"nvidia.com/gpu\",\"nominalQuota\":\"%s\"%s%s%s%s%s%s}]}]}]},"
             "\"status\":{\"flavorsReservation\":[{\"name\":\"f1\",\"resources\":[{\"name\":\"nvidia.com/gpu\",\"total\":\"%s\"}]}]}}",
             api, name, cohort_key, cohort, nominal, *bl ? ",\"borrowingLimit\":\"" : "", bl, *bl ? "\"" : "",
             *ll ? ",\"lendingLimit\":\"" : "", ll, *ll ? "\"" : "", used);
    assert_int_equal(ingest(c, OBJ__COUNT, buf), 0);
}

static void lq(Cluster *c, const char *ns, const char *name, const char *cqname)
{
    char buf[512];
    snprintf(buf, sizeof buf, "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"LocalQueue\",\"metadata\":"
             "{\"name\":\"%s\",\"namespace\":\"%s\"},\"spec\":{\"clusterQueue\":\"%s\"}}", name, ns, cqname);
    assert_int_equal(ingest(c, OBJ__COUNT, buf), 0);
}

/* a waiting Workload: count pods of gpu GPUs each */
static void wl(Cluster *c, const char *ns, const char *name, const char *queue, int count, int gpu, int priority,
               const char *created)
{
    char buf[2048];
    snprintf(buf, sizeof buf,
             "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"Workload\",\"metadata\":{\"name\":\"%s\",\"namespace\":"
             "\"%s\",\"creationTimestamp\":\"%s\",\"ownerReferences\":[{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\","
             "\"name\":\"%s\",\"controller\":true}]},\"spec\":{\"queueName\":\"%s\",\"priority\":%d,\"podSets\":[{\"name\":"
             "\"main\",\"count\":%d,\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":"
             "{\"cpu\":\"1\"%s%d%s}}}]}}}]},\"status\":{}}",
             name, ns, created, name, queue, priority, count, gpu ? ",\"nvidia.com/gpu\":\"" : "", gpu, gpu ? "\"" : "");
    if (!gpu) {      /* CPU only: no GPU key at all */
        char *p = strstr(buf, "\"cpu\":\"1\"0");
        if (p) memmove(p + 9, p + 10, strlen(p + 10) + 1);
    }
    assert_int_equal(ingest(c, OBJ__COUNT, buf), 0);
}

static void explain_named(const Cluster *c, const char *ns, const char *target, Explanation *e)
{
    bool found = false;
    explain_workload_one(c, ns, target, e, &found);
    assert_true(found);
}

/* v1beta1's spec.cohort and v1beta2's spec.cohortName both name the cohort; Volcano's and KAI's
 * PodGroup and Queue are told apart by group */
static void test_reduction(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    cq(&c, "kueue.x-k8s.io/v1beta1", "old", "cohort", "co", "8", "", "", "0");
    cq(&c, "kueue.x-k8s.io/v1beta2", "new", "cohortName", "co", "8", "2", "", "3");
    assert_string_equal(queue_find_def(c.queues, QSYS_KUEUE, "old")->cohort, "co");
    const QueueDef *d = queue_find_def(c.queues, QSYS_KUEUE, "new");
    assert_string_equal(d->cohort, "co");
    assert_int_equal(d->nquotas, 1);
    assert_int_equal(d->quotas[0].nominal, 8000);
    assert_int_equal(d->quotas[0].borrowing_limit, 2000);
    assert_int_equal(d->quotas[0].lending_limit, -1);
    assert_int_equal(d->quotas[0].used, 3000);
    assert_string_equal(d->strategy, "BestEffortFIFO");
    assert_string_equal(d->stop_policy, "None");
    assert_int_equal(ingest(&c, OBJ__COUNT, "{\"apiVersion\":\"scheduling.run.ai/v2\",\"kind\":\"Queue\",\"metadata\":"
                                            "{\"name\":\"q\"},\"spec\":{\"resources\":{\"gpu\":{\"quota\":2,\"limit\":-1}}}}"), 0);
    assert_int_equal(ingest(&c, OBJ__COUNT, "{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"Queue\","
                                            "\"metadata\":{\"name\":\"q\"},\"spec\":{\"deserved\":{\"nvidia.com/gpu\":\"4\"},"
                                            "\"capability\":{\"nvidia.com/gpu\":\"6\"}},\"status\":{\"state\":\"Closed\"}}"), 0);
    const QueueDef *kai = queue_find_def(c.queues, QSYS_KAI, "q"), *vc = queue_find_def(c.queues, QSYS_VOLCANO, "q");
    assert_non_null(kai);
    assert_non_null(vc);
    assert_int_equal(kai->quotas[0].nominal, 2000);
    assert_int_equal(kai->quotas[0].borrowing_limit, -1);          /* limit -1: none */
    assert_int_equal(vc->quotas[0].nominal, 4000);
    assert_int_equal(vc->quotas[0].borrowing_limit, 2000);         /* capability 6 - deserved 4 */
    assert_false(vc->active);
    /* a Queue kind of another group is not ours */
    assert_int_equal(ingest(&c, OBJ__COUNT, "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Queue\",\"metadata\":{\"name\":\"x\"}}"), 0);
    assert_int_equal(c.queues->ndefs, 4);
    cluster_release(&c);
}

/* Cohort arithmetic (explain_queue.h): a and b in cohort co on flavor f1.
 * a: nominal 4, borrowingLimit 2, used 4; b: nominal 8, lendingLimit 3, used 6.
 *   a's max  = 4 + min(2, b's lendable 3) = 6
 *   a's pool = min(b's lendable 3, b's unused 2) - borrowed now (none) = 2; available = 0 + min(2, 2) = 2
 * A 5-GPU workload of a: needed 3, Queued.  A 7-GPU one: 7 > 6, QueueQuota, needed null (-1). */
static void test_cohort_arithmetic(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    cq(&c, "kueue.x-k8s.io/v1beta2", "a", "cohortName", "co", "4", "2", "", "4");
    cq(&c, "kueue.x-k8s.io/v1beta2", "b", "cohortName", "co", "8", "", "3", "6");
    lq(&c, "ns", "q", "a");
    wl(&c, "ns", "five", "q", 1, 5, 0, "2025-01-15T11:00:00Z");
    wl(&c, "ns", "seven", "q", 1, 7, 0, "2025-01-15T11:01:00Z");
    Explanation e;
    explain_named(&c, "ns", "workload/five", &e);
    assert_int_equal(e.verdict, V_QUEUED);
    assert_int_equal(e.queue->nflavors, 1);
    assert_int_equal(e.queue->flavors[0].needed, 3000);
    explanation_clear(&e);
    explain_named(&c, "ns", "job/seven", &e);
    assert_int_equal(e.verdict, V_QUEUE_QUOTA);
    assert_int_equal(e.queue->flavors[0].needed, -1);
    /* the fix raising nominal to 4 + (7 - 6) = 5: then max = 5 + min(2, 3) = 7 */
    bool fix = false;
    for (size_t i = 0; i < e.fixes.n; i++) fix |= strstr(e.fixes.v[i], "nominalQuota of nvidia.com/gpu on flavor f1 to at least 5") != NULL;
    assert_true(fix);
    explanation_clear(&e);
    cluster_release(&c);
}

/* Position: priority first, then creation, CPU-only workloads counted (Kueue's heap,
 * pkg/workload/ordering.go); StrictFIFO names the head */
static void test_position(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    cq(&c, "kueue.x-k8s.io/v1beta2", "a", "cohortName", "", "4", "", "", "4");
    lq(&c, "ns", "q", "a");
    wl(&c, "ns", "late-high", "q", 1, 0, 10, "2025-01-15T11:30:00Z");      /* CPU only */
    wl(&c, "ns", "early", "q", 1, 1, 0, "2025-01-15T11:00:00Z");
    wl(&c, "ns", "late", "q", 1, 1, 0, "2025-01-15T11:20:00Z");
    Explanation e;
    explain_named(&c, "ns", "workload/early", &e);
    assert_int_equal(e.queue->position, 2);
    assert_int_equal(e.queue->queued, 3);
    assert_null(e.queue->head);                                            /* BestEffortFIFO */
    explanation_clear(&e);
    explain_named(&c, "ns", "workload/late", &e);
    assert_int_equal(e.queue->position, 3);
    explanation_clear(&e);
    /* the CPU-only workload is no row of pending */
    ExplanationList l;
    explain_pending(&c, NULL, &l);
    assert_int_equal(l.n, 2);
    explanation_list_clear(&l);
    cluster_release(&c);
}

/* an admitted Workload of ClusterQueue cqname holding gpu GPUs of flavor f1 */
static void admitted(Cluster *c, const char *ns, const char *name, const char *cqname, int gpu)
{
    char buf[2048];
    snprintf(buf, sizeof buf,
             "{\"apiVersion\":\"kueue.x-k8s.io/v1beta2\",\"kind\":\"Workload\",\"metadata\":{\"name\":\"%s\",\"namespace\":"
             "\"%s\"},\"spec\":{\"queueName\":\"q\",\"podSets\":[{\"name\":\"main\",\"count\":1,\"template\":{\"spec\":"
             "{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"nvidia.com/gpu\":\"%d\"}}}]}}}]},"
             "\"status\":{\"conditions\":[{\"type\":\"QuotaReserved\",\"status\":\"True\"},{\"type\":\"Admitted\","
             "\"status\":\"True\"}],\"admission\":{\"clusterQueue\":\"%s\",\"podSetAssignments\":[{\"name\":\"main\","
             "\"flavors\":{\"nvidia.com/gpu\":\"f1\"}}]}}}", name, ns, gpu, cqname);
    assert_int_equal(ingest(c, OBJ__COUNT, buf), 0);
}

/* 25 admitted workloads of 1..25 GPUs hold flavor f1 (ClusterQueue a: nominal 330, used 1 + ... + 25 = 325):
 * the 20 largest are listed, largest first (25, 24, ... 6), and holdersTotal counts all 25; the
 * 8-GPU workload waits (330 - 325 = 5 free: 3 more needed) */
static void test_holders(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    cq(&c, "kueue.x-k8s.io/v1beta2", "a", "cohortName", "", "330", "", "", "325");
    lq(&c, "ns", "q", "a");
    for (int i = 1; i <= 25; i++) {
        char name[32];
        snprintf(name, sizeof name, "held-%02d", i);
        admitted(&c, "ns", name, "a", i);
    }
    wl(&c, "ns", "big", "q", 1, 8, 0, "2025-01-15T11:00:00Z");
    Explanation e;
    explain_named(&c, "ns", "workload/big", &e);
    assert_int_equal(e.verdict, V_QUEUED);
    assert_int_equal(e.queue->flavors[0].needed, 3000);
    assert_int_equal(e.queue->holders_total, 25);
    assert_int_equal(e.queue->nholders, 20);
    assert_string_equal(e.queue->holders[0].name, "held-25");
    assert_int_equal(e.queue->holders[0].gpus, 25000);
    assert_string_equal(e.queue->holders[19].name, "held-06");
    explanation_clear(&e);
    cluster_release(&c);
}

/* a: nominal 4, borrowingLimit 1; b: nominal 8, unused, lends all.  A 7-GPU workload of a can
 * hold at most 4 + min(1, 8) = 5: QueueQuota.  Both fixes re-checked: nominalQuota 4 + (7 - 5) = 6
 * (6 + min(1, 8) = 7), or a borrowingLimit of 3 (4 + min(3, 8) = 7) */
static void test_borrowing_fix(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    cq(&c, "kueue.x-k8s.io/v1beta2", "a", "cohortName", "co", "4", "1", "", "0");
    cq(&c, "kueue.x-k8s.io/v1beta2", "b", "cohortName", "co", "8", "", "", "0");
    lq(&c, "ns", "q", "a");
    wl(&c, "ns", "seven", "q", 1, 7, 0, "2025-01-15T11:00:00Z");
    Explanation e;
    explain_named(&c, "ns", "job/seven", &e);
    assert_int_equal(e.verdict, V_QUEUE_QUOTA);
    bool nominal = false, borrow = false;
    for (size_t i = 0; i < e.fixes.n; i++) {
        nominal |= strstr(e.fixes.v[i], "nominalQuota of nvidia.com/gpu on flavor f1 to at least 6") != NULL;
        borrow |= strstr(e.fixes.v[i], "borrowingLimit of nvidia.com/gpu on flavor f1 to 3 ") != NULL;
    }
    assert_true(nominal);
    assert_true(borrow);
    explanation_clear(&e);
    cluster_release(&c);
}

/* Volcano Queue q: deserved 4, capability 8, allocated 6.  A gang asking 4 GPUs (minResources):
 * 6 + 4 = 10 > 8: Queued, 2 to be released (needed 2).  One asking 10 > 8: QueueQuota.  A Closed
 * queue: QueueInactive.  (staging/src/volcano.sh/apis/pkg/apis/scheduling/v1beta1/types.go:469,
 * :496; the state Open/Closed, :394) */
static void test_volcano(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    assert_int_equal(ingest(&c, OBJ__COUNT, "{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"Queue\",\"metadata\":"
        "{\"name\":\"q\"},\"spec\":{\"deserved\":{\"nvidia.com/gpu\":\"4\"},\"capability\":{\"nvidia.com/gpu\":\"8\"}},"
        "\"status\":{\"state\":\"Open\",\"allocated\":{\"nvidia.com/gpu\":\"6\"}}}"), 0);
    assert_int_equal(ingest(&c, OBJ__COUNT, "{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"Queue\",\"metadata\":"
        "{\"name\":\"shut\"},\"spec\":{},\"status\":{\"state\":\"Closed\"}}"), 0);
    static const char *const pgs[] = {
        "{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"PodGroup\",\"metadata\":{\"name\":\"four\","
        "\"namespace\":\"ns\"},\"spec\":{\"minMember\":2,\"queue\":\"q\",\"minResources\":{\"nvidia.com/gpu\":\"4\"}},"
        "\"status\":{\"phase\":\"Pending\"}}",
        "{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"PodGroup\",\"metadata\":{\"name\":\"ten\","
        "\"namespace\":\"ns\"},\"spec\":{\"minMember\":2,\"queue\":\"q\",\"minResources\":{\"nvidia.com/gpu\":\"10\"}},"
        "\"status\":{\"phase\":\"Pending\"}}",
        "{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"PodGroup\",\"metadata\":{\"name\":\"closed\","
        "\"namespace\":\"ns\"},\"spec\":{\"minMember\":1,\"queue\":\"shut\",\"minResources\":{\"nvidia.com/gpu\":\"1\"}},"
        "\"status\":{\"phase\":\"Pending\"}}",
    };
    for (size_t i = 0; i < 3; i++) assert_int_equal(ingest(&c, OBJ__COUNT, pgs[i]), 0);
    Explanation e;
    explain_named(&c, "ns", "podgroup/four", &e);
    assert_int_equal(e.verdict, V_QUEUED);
    assert_int_equal(e.queue->flavors[0].needed, 2000);
    explanation_clear(&e);
    explain_named(&c, "ns", "podgroup/ten", &e);
    assert_int_equal(e.verdict, V_QUEUE_QUOTA);
    explanation_clear(&e);
    explain_named(&c, "ns", "podgroup/closed", &e);
    assert_int_equal(e.verdict, V_QUEUE_INACTIVE);
    explanation_clear(&e);
    cluster_release(&c);
}

/* Kueue's WorkloadPriorityClass (kueue apis/kueue/v1beta2/workloadpriorityclass_types.go:31,
 * value int32 required, :41): read by kind in the kueue.x-k8s.io group only, its value an int32
 * (else refused, one line), one per name (a later copy replaces), and followed live: an update,
 * a delete and a relist leave what a fresh list would */
static void wpc(Cluster *c, const char *api, const char *name, const char *value, int want)
{
    char buf[512];
    snprintf(buf, sizeof buf, "{\"apiVersion\":\"%s\",\"kind\":\"WorkloadPriorityClass\",\"metadata\":"
             "{\"name\":\"%s\"}%s%s}", api, name, *value ? ",\"value\":" : "", value);
    assert_int_equal(ingest(c, OBJ__COUNT, buf), want);
}

static void live(Cluster *c, LiveChange ch, const char *name, int value)
{
    char buf[256];
    snprintf(buf, sizeof buf, "{\"metadata\":{\"name\":\"%s\"},\"value\":%d}", name, value);
    cJSON *j = cJSON_Parse(buf);
    Error e = { 0 };
    assert_int_equal(cluster_live_apply(c, OBJ_KUEUE_PRIORITYCLASS, ch, j, &e), 0);
    cJSON_Delete(j);
}

static void test_workload_priority_class(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    ObjKind k;
    assert_true(obj_kind_from_api("kueue.x-k8s.io/v1beta1", "WorkloadPriorityClass", &k));
    assert_int_equal(k, OBJ_KUEUE_PRIORITYCLASS);
    assert_false(obj_kind_from_api("example.com/v1", "WorkloadPriorityClass", &k));
    wpc(&c, "kueue.x-k8s.io/v1beta2", "urgent", "1000", 0);
    wpc(&c, "kueue.x-k8s.io/v1beta1", "batch", "-5", 0);
    wpc(&c, "example.com/v1", "other", "7", 0);            /* not Kueue's: ignored */
    wpc(&c, "kueue.x-k8s.io/v1beta2", "novalue", "", -1);
    wpc(&c, "kueue.x-k8s.io/v1beta2", "fraction", "1.5", -1);
    wpc(&c, "kueue.x-k8s.io/v1beta2", "huge", "2147483648", -1);
    wpc(&c, "kueue.x-k8s.io/v1beta2", "text", "\"10\"", -1);
    assert_non_null(c.queues);
    assert_int_equal(c.queues->npriority_classes, 2);
    assert_int_equal(queue_find_priority_class(c.queues, "urgent")->value, 1000);
    assert_int_equal(queue_find_priority_class(c.queues, "batch")->value, -5);
    assert_null(queue_find_priority_class(c.queues, "other"));
    assert_null(queue_find_priority_class(c.queues, "novalue"));
    wpc(&c, "kueue.x-k8s.io/v1beta2", "urgent", "2000", 0);             /* a later copy replaces */
    assert_int_equal(c.queues->npriority_classes, 2);
    assert_int_equal(queue_find_priority_class(c.queues, "urgent")->value, 2000);
    cluster_finalize(&c);
    live(&c, LIVE_UPSERT, "urgent", 3000);
    live(&c, LIVE_UPSERT, "fresh", 1);
    live(&c, LIVE_DELETE, "batch", 0);
    cluster_live_commit(&c);
    assert_int_equal(c.queues->npriority_classes, 2);
    assert_int_equal(queue_find_priority_class(c.queues, "urgent")->value, 3000);
    assert_int_equal(queue_find_priority_class(c.queues, "fresh")->value, 1);
    assert_null(queue_find_priority_class(c.queues, "batch"));
    cluster_live_reset(&c, OBJ_KUEUE_PRIORITYCLASS);
    assert_int_equal(c.queues->npriority_classes, 0);
    live(&c, LIVE_UPSERT, "batch", 10);
    cluster_live_commit(&c);
    assert_int_equal(c.queues->npriority_classes, 1);
    assert_int_equal(queue_find_priority_class(c.queues, "batch")->value, 10);
    cluster_release(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduction), cmocka_unit_test(test_cohort_arithmetic), cmocka_unit_test(test_position),
        cmocka_unit_test(test_holders),
        cmocka_unit_test(test_borrowing_fix), cmocka_unit_test(test_volcano),
        cmocka_unit_test(test_workload_priority_class),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

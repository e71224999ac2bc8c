/* Unit tests: explain's event lookups (explain_events.c) — a pod's newest FailedScheduling
 * event, its owner's FailedCreate note, and one quota entry per owner — give what a scan of
 * every event gives, with other pods' and owners' events around them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>
#include "model/cluster.h"
#include "model_fixture.h"
#include "analysis/explain.h"

static void add_node(Cluster *c)
{
    fixture_ingest(c, "{\"kind\":\"Node\",\"metadata\":{\"name\":\"gpu-1\",\"labels\":{\"nvidia.com/gpu.present\":\"true\"}},"
                      "\"status\":{\"allocatable\":{\"cpu\":\"64\",\"memory\":\"512Gi\",\"pods\":\"110\",\"nvidia.com/gpu\":\"8\"},"
                      "\"capacity\":{\"cpu\":\"64\",\"memory\":\"512Gi\",\"pods\":\"110\",\"nvidia.com/gpu\":\"8\"},"
                      "\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}");
}

/* a pending pod asking for 16 GPUs (more than any node has), owned by Job owner */
static void add_pod(Cluster *c, const char *ns, const char *name, const char *owner)
{
    char buf[1024];
    snprintf(buf, sizeof buf,
             "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\",\"namespace\":\"%s\",\"uid\":\"u-%s-%s\","
             "\"ownerReferences\":[{\"kind\":\"Job\",\"name\":\"%s\",\"controller\":true}]},"
             "\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"16\"}}}]},"
             "\"status\":{\"phase\":\"Pending\"}}", name, ns, ns, name, owner);
    fixture_ingest(c, buf);
}

/* an event: reason, about kind/name in ns, last seen at minute min of 2026-11-28 10:00 */
static void add_event(Cluster *c, const char *id, const char *reason, const char *ns, const char *kind,
                      const char *name, int min, const char *msg)
{
    char buf[1024];
    snprintf(buf, sizeof buf,
             "{\"kind\":\"Event\",\"metadata\":{\"name\":\"%s\",\"namespace\":\"%s\"},\"reason\":\"%s\","
             "\"involvedObject\":{\"kind\":\"%s\",\"name\":\"%s\",\"namespace\":\"%s\"},\"message\":\"%s\","
             "\"count\":1,\"lastTimestamp\":\"2026-11-28T10:%02d:00Z\"}", id, ns, reason, kind, name, ns, msg, min);
    fixture_ingest(c, buf);
}

static const char *sched_text_of(const Cluster *c, const char *ns, const char *name, Explanation *e)
{
    const Pod *p = cluster_find_pod(c, ns, name);
    assert_non_null(p);
    explain_pod(c, p, e);
    return e->sched_text;
}

static bool has_note(const Explanation *e, const char *text)
{
    for (size_t i = 0; i < e->notes.n; i++)
        if (strstr(e->notes.v[i], text)) return true;
    return false;
}

#define UNSCHED "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are available: "

static void test_newest_failed_scheduling(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    add_node(&c);
    add_pod(&c, "ml", "a", "train-a");
    add_pod(&c, "ml", "b", "train-b");
    add_pod(&c, "ops", "a", "train-a");
    /* a's events are spread among others' and not in time order; the newest is at minute 30,
     * where a second event of the same minute comes later in the list and loses the tie */
    add_event(&c, "e1", "FailedScheduling", "ml", "Pod", "a", 10, UNSCHED "a-10");
    add_event(&c, "e2", "FailedScheduling", "ml", "Pod", "b", 40, UNSCHED "b-40");
    add_event(&c, "e3", "FailedScheduling", "ml", "Pod", "a", 30, UNSCHED "a-30");
    add_event(&c, "e4", "FailedScheduling", "ops", "Pod", "a", 50, UNSCHED "ops-a-50");
    add_event(&c, "e5", "FailedScheduling", "ml", "Pod", "a", 30, UNSCHED "a-30-second");
    add_event(&c, "e6", "FailedScheduling", "ml", "Pod", "a", 20, UNSCHED "a-20");
    add_event(&c, "e7", "FailedScheduling", "ml", "Node", "a", 55, UNSCHED "about a node named a");
    Explanation e;
    assert_string_equal(sched_text_of(&c, "ml", "a", &e), UNSCHED "a-30");
    explanation_clear(&e);
    assert_string_equal(sched_text_of(&c, "ml", "b", &e), UNSCHED "b-40");
    explanation_clear(&e);
    assert_string_equal(sched_text_of(&c, "ops", "a", &e), UNSCHED "ops-a-50");
    explanation_clear(&e);
    cluster_release(&c);
}

#define QUOTA(who) QUOTA_OF(who, "gpu-quota")
#define QUOTA_OF(who, quota) "Error creating: pods \\\"" who "-x\\\" is forbidden: exceeded quota: " quota ", requested: " \
                   "requests.nvidia.com/gpu=16, used: requests.nvidia.com/gpu=0, limited: requests.nvidia.com/gpu=8"

static void test_failed_create(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    c.now = 1795863600;                        /* 2026-11-28T11:00:00Z */
    add_node(&c);
    add_pod(&c, "ml", "a", "train-a");
    add_pod(&c, "ml", "b", "train-b");
    /* train-a: two refusals (the first in the list is the one its pod's note quotes; the newest,
     * minute 45, is the owner's entry); train-b: one; a Deployment of the same name: another owner */
    add_event(&c, "q1", "FailedCreate", "ml", "Job", "train-a", 40, QUOTA("first"));
    add_event(&c, "q2", "FailedCreate", "ml", "Job", "train-b", 10, QUOTA("b"));
    add_event(&c, "q3", "FailedCreate", "ml", "Job", "train-a", 45, QUOTA("second"));
    add_event(&c, "q4", "FailedCreate", "ml", "Deployment", "train-a", 5, QUOTA("deploy"));
    add_event(&c, "q5", "FailedCreate", "ml", "Job", "train-a", 45, QUOTA_OF("second-tie", "team-quota"));
    Explanation e;
    const Pod *p = cluster_find_pod(&c, "ml", "a");
    explain_pod(&c, p, &e);
    assert_true(has_note(&e, "Job train-a could not create further pods: Error creating: pods \"first-x\""));
    assert_false(has_note(&e, "\"second-x\""));
    explanation_clear(&e);
    p = cluster_find_pod(&c, "ml", "b");
    explain_pod(&c, p, &e);
    assert_true(has_note(&e, "Job train-b could not create further pods: Error creating: pods \"b-x\""));
    explanation_clear(&e);

    size_t pods = 0, not_created = 0;
    explain_pending_counts(&c, "ml", &pods, &not_created);
    assert_int_equal(pods, 2);
    assert_int_equal(not_created, 3);          /* Job train-a, Job train-b, Deployment train-a */
    explain_pending_counts(&c, "ops", &pods, &not_created);
    assert_int_equal(not_created, 0);

    /* the entries: one per owner, each its newest event (train-a: q3 at 10:45, 15 minutes before
     * now, not q1 at 10:40; q5, as new, comes later in the list) */
    ExplanationList l = { 0 };
    explain_pending(&c, "ml", &l);
    size_t quota = 0;
    for (size_t i = 0; i < l.n; i++) {
        if (l.items[i].created) continue;
        quota++;
        if (!strcmp(l.items[i].name, "train-a") && !strcmp(l.items[i].owner_kind, "Job"))
        {
            assert_int_equal(l.items[i].age, 15 * 60);
            assert_non_null(strstr(l.items[i].summary, "exceeded quota gpu-quota"));
        }
    }
    assert_int_equal(quota, 3);
    explanation_list_clear(&l);
    cluster_release(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_newest_failed_scheduling),
        cmocka_unit_test(test_failed_create),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Unit tests: schedmsg — one message per wording variant of scheduler-messages.md (1.17 .. 1.35). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/schedmsg.h"
#include "util/util.h"

static const SchedReason *reason(const SchedMessage *m, size_t i)
{
    assert_true(i < m->filter.nreasons);
    return &m->filter.reasons[i];
}

static const char *versions(const SchedMessage *m)
{
    static char buf[32];
    return schedmsg_versions(m, buf, sizeof buf);
}

/* 1.20: no preemption text, node affinity wording without "/selector" */
static void test_v120(void **state)
{
    (void)state;
    SchedMessage m;
    assert_true(schedmsg_parse("0/5 nodes are available: 2 Insufficient nvidia.com/gpu, "
                               "3 node(s) didn't match Pod's node affinity.", &m));
    assert_int_equal(m.kind, SM_FIT_ERROR);
    assert_int_equal(m.filter.total, 5);
    assert_int_equal(m.filter.available, 0);
    assert_int_equal(m.filter.nreasons, 2);
    assert_int_equal(reason(&m, 0)->count, 2);
    assert_int_equal(reason(&m, 0)->code, SC_INSUFFICIENT);
    assert_string_equal(reason(&m, 0)->resource, "nvidia.com/gpu");
    assert_int_equal(reason(&m, 1)->count, 3);
    assert_int_equal(reason(&m, 1)->code, SC_NODE_AFFINITY_MISMATCH);
    assert_false(m.has_preemption);
    assert_string_equal(versions(&m), "1.20");
    schedmsg_clear(&m);
}

/* 1.18–1.23 taint wording contains ", that the pod didn't tolerate" (a comma inside an entry) */
static void test_v121_taint_comma(void **state)
{
    (void)state;
    SchedMessage m;
    schedmsg_parse("0/12 nodes are available: 10 Insufficient cpu, 2 node(s) had taint "
                   "{nvidia.com/gpu: present}, that the pod didn't tolerate, 2 Insufficient nvidia.com/gpu.", &m);
    assert_int_equal(m.filter.total, 12);
    assert_int_equal(m.filter.nreasons, 3);
    assert_string_equal(reason(&m, 0)->resource, "cpu");
    assert_int_equal(reason(&m, 1)->code, SC_UNTOLERATED_TAINT);
    assert_int_equal(reason(&m, 1)->count, 2);
    assert_string_equal(reason(&m, 1)->taint_key, "nvidia.com/gpu");
    assert_string_equal(reason(&m, 1)->taint_value, "present");
    assert_string_equal(reason(&m, 1)->text,
                        "node(s) had taint {nvidia.com/gpu: present}, that the pod didn't tolerate");
    assert_int_equal(reason(&m, 2)->code, SC_INSUFFICIENT);
    assert_string_equal(reason(&m, 2)->resource, "nvidia.com/gpu");
    assert_int_equal(schedmsg_count(&m, SC_INSUFFICIENT, NULL), 12);
    assert_int_equal(schedmsg_count(&m, SC_INSUFFICIENT, "nvidia.com/gpu"), 2);
    assert_string_equal(versions(&m), "1.18-1.23");
    schedmsg_clear(&m);
}

/* 1.21 pod affinity: the generic string is added to the specific one (counts exceed N) */
static void test_v121_pod_affinity(void **state)
{
    (void)state;
    SchedMessage m;
    schedmsg_parse("0/3 nodes are available: 3 node(s) didn't match pod affinity rules, "
                   "3 node(s) didn't match pod affinity/anti-affinity rules.", &m);
    assert_int_equal(m.filter.nreasons, 2);
    assert_int_equal(reason(&m, 0)->code, SC_POD_AFFINITY);
    assert_int_equal(reason(&m, 1)->code, SC_POD_AFFINITY);
    assert_int_equal(schedmsg_count(&m, SC_POD_AFFINITY, NULL), 6);
    assert_string_equal(versions(&m), "1.21");
    schedmsg_clear(&m);
}

/* 1.24–1.25: " preemption: " + its own FitError, single final period */
static void test_v124(void **state)
{
    (void)state;
    SchedMessage m;
    schedmsg_parse("0/5 nodes are available: 3 Insufficient nvidia.com/gpu, 2 node(s) had untolerated taint "
                   "{nvidia.com/gpu: present}. preemption: 0/5 nodes are available: 2 Preemption is not helpful "
                   "for scheduling, 3 No preemption victims found for incoming pod.", &m);
    assert_int_equal(m.filter.nreasons, 2);
    assert_string_equal(reason(&m, 1)->taint_key, "nvidia.com/gpu");
    assert_string_equal(reason(&m, 1)->taint_value, "present");
    assert_true(m.has_preemption);
    assert_int_equal(m.preemption.total, 5);
    assert_int_equal(m.preemption.nreasons, 2);
    assert_int_equal(m.preemption.reasons[0].code, SC_PREEMPTION_NOT_HELPFUL);
    assert_int_equal(m.preemption.reasons[0].count, 2);
    assert_int_equal(m.preemption.reasons[1].code, SC_NO_PREEMPTION_VICTIMS);
    assert_int_equal(m.preemption.reasons[1].count, 3);
    assert_null(m.postfilter_other);
    assert_string_equal(versions(&m), "1.24-1.34");
    schedmsg_clear(&m);
}

/* ≤1.25 PreFilter rejection: every node gets the same status, with a count */
static void test_v124_prefilter_counted(void **state)
{
    (void)state;
    SchedMessage m;
    schedmsg_parse("0/3 nodes are available: 3 pod has unbound immediate PersistentVolumeClaims. "
                   "preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.", &m);
    assert_int_equal(m.filter.nreasons, 1);
    assert_int_equal(reason(&m, 0)->count, 3);
    assert_int_equal(reason(&m, 0)->code, SC_VOLUME);
    assert_false(reason(&m, 0)->prefilter);
    schedmsg_clear(&m);
}

/* 1.26–1.28: every part appended as " %v." -> the message ends in ".." */
static void test_v126_double_period(void **state)
{
    (void)state;
    SchedMessage m;
    schedmsg_parse("0/4 nodes are available: 4 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are "
                   "available: 4 No preemption victims found for incoming pod..", &m);
    assert_int_equal(m.filter.nreasons, 1);
    assert_int_equal(reason(&m, 0)->count, 4);
    assert_int_equal(m.preemption.nreasons, 1);
    assert_string_equal(m.preemption.reasons[0].text, "No preemption victims found for incoming pod");
    assert_string_equal(versions(&m), "1.26-1.28");
    schedmsg_clear(&m);
}

/* 1.26+ PreFilter message without a count */
static void test_v126_prefilter(void **state)
{
    (void)state;
    SchedMessage m;
    schedmsg_parse("0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: "
                   "0/3 nodes are available: 3 Preemption is not helpful for scheduling..", &m);
    assert_int_equal(m.filter.total, 3);
    assert_int_equal(m.filter.nreasons, 1);
    assert_int_equal(reason(&m, 0)->count, -1);
    assert_true(reason(&m, 0)->prefilter);
    assert_int_equal(reason(&m, 0)->code, SC_VOLUME);
    assert_string_equal(versions(&m), "1.26-1.28");
    schedmsg_clear(&m);

    /* sidecar PreFilter (1.28+, gate off) */
    schedmsg_parse("0/2 nodes are available: Pod has a restartable init container and the SidecarContainers "
                   "feature is disabled. preemption: 0/2 nodes are available: 2 Preemption is not helpful "
                   "for scheduling.", &m);
    assert_true(reason(&m, 0)->prefilter);
    assert_int_equal(m.min_minor, 28);
    schedmsg_clear(&m);
}

/* 1.29+: the reference's own examples */
static void test_v129(void **state)
{
    (void)state;
    SchedMessage m;
    schedmsg_parse("0/12 nodes are available: 12 Insufficient nvidia.com/gpu. preemption: 0/12 nodes are "
                   "available: 12 No preemption victims found for incoming pod.", &m);
    assert_int_equal(m.filter.total, 12);
    assert_int_equal(schedmsg_count(&m, SC_INSUFFICIENT, "nvidia.com/gpu"), 12);
    assert_int_equal(m.preemption.reasons[0].count, 12);
    schedmsg_clear(&m);

    schedmsg_parse("0/4 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {restricted: true}, "
                   "2 node(s) didn't match Pod's node affinity/selector. preemption: 0/4 nodes are available: "
                   "1 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.", &m);
    assert_int_equal(m.filter.nreasons, 3);
    assert_string_equal(reason(&m, 1)->taint_key, "restricted");
    assert_string_equal(reason(&m, 1)->taint_value, "true");
    assert_int_equal(reason(&m, 2)->code, SC_NODE_AFFINITY_MISMATCH);
    assert_int_equal(m.preemption.nreasons, 2);
    assert_string_equal(versions(&m), "1.24-1.34");
    schedmsg_clear(&m);
}

/* 1.30: absent nodes get "node is filtered out by the prefilter result" */
static void test_v130_filtered_out(void **state)
{
    (void)state;
    SchedMessage m;
    schedmsg_parse("0/3 nodes are available: 1 Too many pods, 2 node is filtered out by the prefilter result. "
                   "preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, "
                   "2 Preemption is not helpful for scheduling.", &m);
    assert_int_equal(reason(&m, 0)->code, SC_TOO_MANY_PODS);
    assert_int_equal(reason(&m, 1)->code, SC_PREFILTER_EXCLUDED);
    assert_int_equal(reason(&m, 1)->count, 2);
    assert_string_equal(versions(&m), "1.30");
    schedmsg_clear(&m);
}

/* 1.31+: absent nodes as "didn't satisfy plugin(s) [..]"; also the intersection form */
static void test_v131_absent(void **state)
{
    (void)state;
    SchedMessage m;
    schedmsg_parse("0/46 nodes are available: 1 Too many pods, 45 node(s) didn't satisfy plugin(s) "
                   "[NodeAffinity]. preemption: 0/46 nodes are available: 1 No preemption victims found "
                   "for incoming pod, 45 Preemption is not helpful for scheduling.", &m);
    assert_int_equal(m.filter.total, 46);
    assert_int_equal(reason(&m, 1)->code, SC_PREFILTER_EXCLUDED);
    assert_int_equal(reason(&m, 1)->nplugins, 1);
    assert_string_equal(reason(&m, 1)->plugins[0], "NodeAffinity");
    assert_int_equal(m.min_minor, 31);
    schedmsg_clear(&m);

    schedmsg_parse("0/8 nodes are available: 8 node(s) didn't satisfy plugin(s) [NodeAffinity VolumeBinding] "
                   "simultaneously.", &m);
    assert_int_equal(reason(&m, 0)->nplugins, 2);
    assert_string_equal(reason(&m, 0)->plugins[1], "VolumeBinding");
    assert_int_equal(m.min_minor, 24);
    schedmsg_clear(&m);

    schedmsg_parse("0/8 nodes are available: 8 node(s) didn't satisfy plugin NodeAffinity.", &m);
    assert_int_equal(reason(&m, 0)->nplugins, 1);
    assert_string_equal(reason(&m, 0)->plugins[0], "NodeAffinity");
    schedmsg_clear(&m);
}

/* 1.35+ (and late 1.34.x): taint key/value no longer in the message; DRA PostFilter text */
static void test_v135_taints_and_dra(void **state)
{
    (void)state;
    SchedMessage m;
    schedmsg_parse("0/2 nodes are available: 2 node(s) had untolerated taint(s). no new claims to deallocate, "
                   "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.", &m);
    assert_int_equal(m.filter.nreasons, 1);
    assert_int_equal(reason(&m, 0)->code, SC_UNTOLERATED_TAINT);
    assert_null(reason(&m, 0)->taint_key);
    assert_non_null(m.postfilter_other);
    assert_string_equal(m.postfilter_other, "no new claims to deallocate");
    assert_int_equal(m.preemption.reasons[0].count, 2);
    assert_string_equal(versions(&m), "1.34+");
    schedmsg_clear(&m);
}

/* taint without value, cordoned nodes, not-ready taint, node name */
static void test_empty_taint_value(void **state)
{
    (void)state;
    SchedMessage m;
    schedmsg_parse("0/6 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, "
                   "1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, 2 node(s) were unschedulable, "
                   "2 node(s) didn't match the requested node name. preemption: 0/6 nodes are available: "
                   "6 Preemption is not helpful for scheduling.", &m);
    assert_int_equal(m.filter.nreasons, 4);
    assert_string_equal(reason(&m, 0)->taint_key, "node-role.kubernetes.io/control-plane");
    assert_string_equal(reason(&m, 0)->taint_value, "");
    assert_string_equal(reason(&m, 1)->taint_key, "node.kubernetes.io/not-ready");
    assert_int_equal(reason(&m, 2)->code, SC_UNSCHEDULABLE);
    assert_int_equal(reason(&m, 3)->code, SC_NODE_NAME);
    assert_int_equal(m.min_minor, 24);
    schedmsg_clear(&m);
}

/* whole-pod preemption outcomes without a histogram */
static void test_preemption_never(void **state)
{
    (void)state;
    SchedMessage m;
    schedmsg_parse("0/4 nodes are available: 4 Insufficient nvidia.com/gpu. preemption: not eligible due to "
                   "preemptionPolicy=Never.", &m);
    assert_true(m.has_preemption);
    assert_int_equal(m.preemption.nreasons, 0);
    assert_string_equal(m.preemption_text, "not eligible due to preemptionPolicy=Never.");
    assert_int_equal(schedmsg_count(&m, SC_INSUFFICIENT, "nvidia.com/gpu"), 4);
    schedmsg_clear(&m);
}

/* events are cut at 1024 bytes: 1020 + " ..." */
static void test_truncated(void **state)
{
    (void)state;
    Strbuf sb = STRBUF_INIT;
    strbuf_adds(&sb, "0/60 nodes are available: 10 Insufficient nvidia.com/gpu");
    for (int i = 0; i < 40; i++)
        strbuf_addf(&sb, ", 1 node(s) had untolerated taint {team-%02d.example.com/dedicated: gpu-pool-%02d}", i, i);
    strbuf_adds(&sb, ". preemption: 0/60 nodes are available: 60 Preemption is not helpful for scheduling.");
    assert_true(sb.len > 1024);
    char *cut = xasprintf("%.*s ...", 1020, strbuf_str(&sb));
    SchedMessage m;
    schedmsg_parse(cut, &m);
    assert_true(m.truncated);
    assert_int_equal(m.filter.total, 60);
    assert_false(m.has_preemption);
    assert_true(m.filter.nreasons > 5);
    assert_int_equal(reason(&m, 0)->count, 10);
    assert_false(reason(&m, 0)->truncated);
    const SchedReason *last = reason(&m, m.filter.nreasons - 1);
    assert_true(last->truncated);
    assert_string_equal(reason(&m, 3)->taint_key, "team-02.example.com/dedicated");
    assert_string_equal(reason(&m, 3)->taint_value, "gpu-pool-02");
    assert_int_equal(m.min_minor, 24);
    schedmsg_clear(&m);
    free(cut);
    strbuf_clear(&sb);

    /* cut inside the preemption part */
    schedmsg_parse("0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: "
                   "3 No preemption vic ...", &m);
    assert_true(m.truncated);
    assert_int_equal(reason(&m, 0)->count, 3);
    assert_false(reason(&m, 0)->truncated);
    assert_int_equal(m.preemption.nreasons, 1);
    assert_true(m.preemption.reasons[0].truncated);
    assert_int_equal(m.preemption.reasons[0].code, SC_OTHER);
    schedmsg_clear(&m);
}

/* before 1.20: node selector wording, taints without keys, legacy predicates */
static void test_old_wordings(void **state)
{
    (void)state;
    SchedMessage m;
    schedmsg_parse("0/3 nodes are available: 1 node(s) didn't match node selector, 2 node(s) had taints that "
                   "the pod didn't tolerate.", &m);
    assert_int_equal(reason(&m, 0)->code, SC_NODE_SELECTOR_MISMATCH);
    assert_int_equal(reason(&m, 1)->code, SC_UNTOLERATED_TAINT);
    assert_null(reason(&m, 1)->taint_key);
    assert_string_equal(versions(&m), "<=1.17");
    schedmsg_clear(&m);

    schedmsg_parse("No nodes are available that match all of the following predicates:: Insufficient "
                   "nvidia.com/gpu (3), MatchNodeSelector (2).", &m);
    assert_true(m.legacy_predicates);
    assert_int_equal(m.filter.nreasons, 2);
    assert_int_equal(reason(&m, 0)->count, 3);
    assert_string_equal(reason(&m, 0)->resource, "nvidia.com/gpu");
    assert_int_equal(reason(&m, 1)->count, 2);
    assert_string_equal(reason(&m, 1)->text, "MatchNodeSelector");
    schedmsg_clear(&m);
}

static void test_not_fit_errors(void **state)
{
    (void)state;
    SchedMessage m;
    assert_false(schedmsg_parse(NULL, &m));
    assert_int_equal(m.kind, SM_EMPTY);
    schedmsg_clear(&m);
    assert_false(schedmsg_parse("   ", &m));
    assert_int_equal(m.kind, SM_EMPTY);
    schedmsg_clear(&m);
    assert_true(schedmsg_parse("no nodes available to schedule pods", &m));
    assert_int_equal(m.kind, SM_NO_NODES);
    schedmsg_clear(&m);
    assert_true(schedmsg_parse("Scheduling is blocked due to non-empty scheduling gates", &m));
    assert_int_equal(m.kind, SM_GATED);
    schedmsg_clear(&m);
    assert_true(schedmsg_parse("waiting for the preemption for this pod to be finished", &m));
    assert_int_equal(m.kind, SM_WAITING_PREEMPTION);
    schedmsg_clear(&m);
    assert_true(schedmsg_parse("skip schedule deleting pod: ml/train-1", &m));
    assert_int_equal(m.kind, SM_DELETING);
    schedmsg_clear(&m);
    assert_false(schedmsg_parse("binding rejected: something odd", &m));
    assert_int_equal(m.kind, SM_UNRECOGNISED);
    assert_string_equal(m.text, "binding rejected: something odd");
    schedmsg_clear(&m);
    /* garbage after the head does not crash, unknown reasons are Other */
    assert_true(schedmsg_parse("0/2 nodes are available: 2 frobnicated by the extender, , , 1", &m));
    assert_int_equal(reason(&m, 0)->code, SC_OTHER);
    schedmsg_clear(&m);
    assert_true(schedmsg_parse("0/0 nodes are available", &m));
    assert_int_equal(m.filter.total, 0);
    assert_int_equal(m.filter.nreasons, 0);
    schedmsg_clear(&m);
}

static void test_classify(void **state)
{
    (void)state;
    static const struct { const char *text; SchedCode code; } cases[] = {
        { "Insufficient memory", SC_INSUFFICIENT },
        { "Insufficient nvidia.com/mig-1g.10gb", SC_INSUFFICIENT },
        { "node(s) didn't have free ports for the requested pod ports", SC_NODE_PORTS },
        { "node(s) had volume node affinity conflict", SC_VOLUME },
        { "node(s) exceed max volume count", SC_VOLUME },
        { "node(s) didn't match pod topology spread constraints (missing required label)", SC_TOPOLOGY_SPREAD },
        { "node(s) didn't satisfy existing pods anti-affinity rules", SC_POD_AFFINITY },
        { "node(s) didn't match scheduler-enforced node affinity", SC_NODE_AFFINITY_MISMATCH },
        { "pod affinity terms conflict", SC_NODE_AFFINITY_MISMATCH },
        { "node(s) were not ready", SC_NOT_READY },
        { "node(s) had memory pressure", SC_NODE_CONDITION },
        { "cannot allocate all claims", SC_DYNAMIC_RESOURCES },
        { "node(s) didn't match the requested hostname", SC_NODE_NAME },
        { "something new in 1.40", SC_OTHER },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        SchedReason r = { 0 };
        schedmsg_reason_classify(cases[i].text, &r);
        if (r.code != cases[i].code) fail_msg("%s: got %s", cases[i].text, schedmsg_code_name(r.code));
        schedmsg_reason_clear(&r);
    }
    SchedReason r = { 0 };
    schedmsg_reason_classify("Insufficient nvidia.com/mig-1g.10gb", &r);
    assert_string_equal(r.resource, "nvidia.com/mig-1g.10gb");
    assert_string_equal(schedmsg_code_name(r.code), "Insufficient");
    schedmsg_reason_clear(&r);
}

static void same_str(const char *a, const char *b)
{
    if (!a || !b) { assert_true(a == b); return; }
    assert_string_equal(a, b);
    assert_true(a != b);                         /* the copy owns its own */
}

static void same_histogram(const SchedHistogram *a, const SchedHistogram *b)
{
    assert_int_equal(a->total, b->total);
    assert_int_equal(a->available, b->available);
    assert_int_equal(a->nreasons, b->nreasons);
    for (size_t i = 0; i < a->nreasons; i++) {
        const SchedReason *x = &a->reasons[i], *y = &b->reasons[i];
        assert_int_equal(x->count, y->count);
        assert_int_equal(x->code, y->code);
        assert_int_equal(x->prefilter, y->prefilter);
        assert_int_equal(x->truncated, y->truncated);
        same_str(x->text, y->text); same_str(x->resource, y->resource);
        same_str(x->taint_key, y->taint_key); same_str(x->taint_value, y->taint_value);
        assert_int_equal(x->nplugins, y->nplugins);
        for (size_t k = 0; k < x->nplugins; k++) same_str(x->plugins[k], y->plugins[k]);
    }
}

/* schedmsg_copy gives the parse of the same words: every field equal, every string its own
 * (the source cleared first, the copy still whole: ASan would see a shared string) */
static void test_copy(void **state)
{
    (void)state;
    const char *msgs[] = {
        "0/12 nodes are available: 10 Insufficient nvidia.com/gpu, 2 node(s) had untolerated taint "
        "{nvidia.com/gpu: present}. preemption: 0/12 nodes are available: 10 No preemption victims found "
        "for incoming pod, 2 Preemption is not helpful for scheduling.",
        "0/8 nodes are available: 8 node(s) didn't satisfy plugin(s) [NodeAffinity VolumeBinding] "
        "simultaneously. preemption: 0/8 nodes are available: 8 Preemption is not helpful for scheduling.",
        "Reissued from pod/ml/train-0: 0/3 nodes are available: 3 Insufficient cpu.",
        "0/4 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {restricted: true}, 2 ...",
        "No nodes are available that match all of the following predicates:: Insufficient nvidia.com/gpu (3).",
        "no nodes available to schedule pods", "binding rejected: something odd", "",
    };
    for (size_t i = 0; i < sizeof msgs / sizeof *msgs; i++) {
        SchedMessage a, b;
        schedmsg_parse(msgs[i], &a);
        schedmsg_copy(&b, &a);
        assert_int_equal(a.kind, b.kind);
        same_str(a.text, b.text); same_str(a.preemption_text, b.preemption_text);
        same_str(a.postfilter_other, b.postfilter_other); same_str(a.prefix, b.prefix);
        assert_int_equal(a.has_preemption, b.has_preemption);
        assert_int_equal(a.truncated, b.truncated);
        assert_int_equal(a.legacy_predicates, b.legacy_predicates);
        assert_int_equal(a.lists_all_reasons, b.lists_all_reasons);
        assert_int_equal(a.min_minor, b.min_minor);
        assert_int_equal(a.max_minor, b.max_minor);
        same_histogram(&a.filter, &b.filter);
        same_histogram(&a.preemption, &b.preemption);
        schedmsg_clear(&a);
        char v[32];
        schedmsg_versions(&b, v, sizeof v);          /* the copy stands alone */
        assert_true(schedmsg_count(&b, SC_INSUFFICIENT, NULL) >= 0);
        schedmsg_clear(&b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copy),
        cmocka_unit_test(test_v120),
        cmocka_unit_test(test_v121_taint_comma),
        cmocka_unit_test(test_v121_pod_affinity),
        cmocka_unit_test(test_v124),
        cmocka_unit_test(test_v124_prefilter_counted),
        cmocka_unit_test(test_v126_double_period),
        cmocka_unit_test(test_v126_prefilter),
        cmocka_unit_test(test_v129),
        cmocka_unit_test(test_v130_filtered_out),
        cmocka_unit_test(test_v131_absent),
        cmocka_unit_test(test_v135_taints_and_dra),
        cmocka_unit_test(test_empty_taint_value),
        cmocka_unit_test(test_preemption_never),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_old_wordings),
        cmocka_unit_test(test_not_fit_errors),
        cmocka_unit_test(test_classify),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

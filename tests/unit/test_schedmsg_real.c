/* Unit tests: schedmsg on real scheduler messages collected from public issues, PRs and docs
 * (tests/fixtures/real/messages/messages.json; sources and what was verbatim in its README.md).
 * The expected reading of each message was derived by hand from its text, not from this parser:
 * kind, node total, every histogram entry (count, code, resource or taint), the preemption part,
 * a controller's prefix, whether the wording era lists every failing reason per node, and the
 * Kubernetes versions the wording allows. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model_fixture.h"
#include "analysis/schedmsg.h"

static void check_entries(const char *id, const SchedHistogram *h, const cJSON *want, bool with_detail)
{
    int n = cJSON_GetArraySize(want);
    if ((int)h->nreasons != n) fail_msg("%s: %zu entries, want %d", id, h->nreasons, n);
    for (int i = 0; i < n; i++) {
        const cJSON *w = cJSON_GetArrayItem(want, i);
        const SchedReason *r = &h->reasons[i];
        int count = cJSON_GetArrayItem(w, 0)->valueint;
        const char *code = cJSON_GetArrayItem(w, 1)->valuestring;
        if (r->count != count) fail_msg("%s: entry %d count %d, want %d", id, i, r->count, count);
        if (strcmp(schedmsg_code_name(r->code), code) != 0)
            fail_msg("%s: entry %d (%s) code %s, want %s", id, i, r->text, schedmsg_code_name(r->code), code);
        if (!with_detail) continue;
        const cJSON *d = cJSON_GetArrayItem(w, 2);
        if (!cJSON_IsString(d)) continue;
        if (r->code == SC_INSUFFICIENT) {
            if (!r->resource || strcmp(r->resource, d->valuestring) != 0)
                fail_msg("%s: entry %d resource %s, want %s", id, i, r->resource ? r->resource : "(none)", d->valuestring);
        } else if (r->code == SC_UNTOLERATED_TAINT) {
            char kv[256];
            snprintf(kv, sizeof kv, "%s=%s", r->taint_key ? r->taint_key : "?", r->taint_value ? r->taint_value : "?");
            if (strcmp(kv, d->valuestring) != 0) fail_msg("%s: entry %d taint %s, want %s", id, i, kv, d->valuestring);
        }
    }
}

static void test_real_messages(void **state)
{
    (void)state;
    cJSON *doc = load_fixture("tests/fixtures/real/messages/messages.json");
    assert_non_null(doc);
    const cJSON *list = cJSON_GetObjectItem(doc, "messages");
    assert_true(cJSON_GetArraySize(list) >= 15);
    const cJSON *it;
    cJSON_ArrayForEach(it, list) {
        const char *id = cJSON_GetObjectItem(it, "id")->valuestring;
        const char *text = cJSON_GetObjectItem(it, "message")->valuestring;
        const cJSON *ex = cJSON_GetObjectItem(it, "expect");
        SchedMessage m;
        schedmsg_parse(text, &m);
        const char *kind = cJSON_GetObjectItem(ex, "kind")->valuestring;
        if (strcmp(schedmsg_kind_name(m.kind), kind) != 0)
            fail_msg("%s: kind %s, want %s", id, schedmsg_kind_name(m.kind), kind);
        const cJSON *v;
        if ((v = cJSON_GetObjectItem(ex, "total")) && m.filter.total != v->valueint)
            fail_msg("%s: total %d, want %d", id, m.filter.total, v->valueint);
        if ((v = cJSON_GetObjectItem(ex, "reasons"))) check_entries(id, &m.filter, v, true);
        if ((v = cJSON_GetObjectItem(ex, "preemption"))) check_entries(id, &m.preemption, v, false);
        else if (m.kind == SM_FIT_ERROR && m.has_preemption) fail_msg("%s: a preemption part read where none is", id);
        v = cJSON_GetObjectItem(ex, "prefix");
        if (v ? !m.prefix || strcmp(m.prefix, v->valuestring) != 0 : m.prefix != NULL)
            fail_msg("%s: prefix %s, want %s", id, m.prefix ? m.prefix : "(none)", v ? v->valuestring : "(none)");
        if ((v = cJSON_GetObjectItem(ex, "allReasons")) && m.lists_all_reasons != cJSON_IsTrue(v))
            fail_msg("%s: listsAllReasons %d, want %d", id, m.lists_all_reasons, cJSON_IsTrue(v));
        if ((v = cJSON_GetObjectItem(ex, "postFilter")) && (!m.postfilter_other || strcmp(m.postfilter_other, v->valuestring)))
            fail_msg("%s: postFilter %s, want %s", id, m.postfilter_other ? m.postfilter_other : "(none)", v->valuestring);
        if ((v = cJSON_GetObjectItem(ex, "versions"))) {
            char vb[32];
            schedmsg_versions(&m, vb, sizeof vb);
            if (strcmp(vb, v->valuestring) != 0) fail_msg("%s: versions %s, want %s", id, vb, v->valuestring);
        }
        schedmsg_clear(&m);
    }
    cJSON_Delete(doc);
}

/* the reading does not depend on case or on a prefix: the same message four ways */
static void test_case_and_prefix_invariance(void **state)
{
    (void)state;
    static const char *const forms[] = {
        "0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient nvidia.com/gpu.",
        "0/3 Nodes are available: 1 Node(s) were unschedulable, 2 INSUFFICIENT nvidia.com/gpu.",
        "Reissued from pod/nb-0: 0/3 nodes are available: 1 node(s) were unschedulable, 2 insufficient nvidia.com/gpu.",
        "(combined from similar events): Unschedulable: 0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient nvidia.com/gpu.",
    };
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
        SchedMessage m;
        assert_true(schedmsg_parse(forms[i], &m));
        assert_int_equal(m.filter.total, 3);
        assert_int_equal(schedmsg_count(&m, SC_UNSCHEDULABLE, NULL), 1);
        assert_int_equal(schedmsg_count(&m, SC_INSUFFICIENT, "nvidia.com/gpu"), 2);
        assert_int_equal(m.prefix != NULL, i >= 2);
        schedmsg_clear(&m);
    }
}

/* an unknown prefix or wording is never counted: the message stays Unrecognised */
static void test_unrecognised_not_counted(void **state)
{
    (void)state;
    SchedMessage m;
    assert_false(schedmsg_parse("pod didn't trigger scale-up: 2 Insufficient nvidia.com/gpu", &m));
    assert_int_equal(m.kind, SM_UNRECOGNISED);
    assert_int_equal(m.filter.nreasons, 0);
    assert_string_equal(m.text, "pod didn't trigger scale-up: 2 Insufficient nvidia.com/gpu");
    schedmsg_clear(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_messages),
        cmocka_unit_test(test_case_and_prefix_invariance),
        cmocka_unit_test(test_unrecognised_not_counted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

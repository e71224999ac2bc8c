/* Unit tests: PriorityClasses as ingested (model/cluster_kinds.c) and the Priority admission
 * fit applies to a manifest's pods (analysis/fit_admit.c), by the rules of kubernetes
 * plugin/pkg/admission/priority/admission.go admitPod and getDefaultPriorityClass. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "analysis/fit.h"
#include "model/cluster.h"
#include "model/manifest_pods.h"
#include "util/error.h"
#include "model_fixture.h"

/* an object the ingest may refuse: its answer */
static int ingest(Cluster *c, const char *json, Error *e)
{
    cJSON *j = cJSON_Parse(json);
    if (!j) fail_msg("bad test JSON: %s", json);
    int rc = cluster_ingest(c, OBJ__COUNT, j, e);
    cJSON_Delete(j);
    return rc;
}

static void add_class(Cluster *c, const char *name, long value, bool global_default, const char *policy)
{
    char buf[512];
    snprintf(buf, sizeof buf, "{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":\"PriorityClass\","
             "\"metadata\":{\"name\":\"%s\"},\"value\":%ld%s%s%s%s}", name, value,
             global_default ? ",\"globalDefault\":true" : "", policy ? ",\"preemptionPolicy\":\"" : "",
             policy ? policy : "", policy ? "\"" : "");
    fixture_ingest(c, buf);
}

/* one Pod manifest with the given spec members (JSON text after "containers") */
static void one_pod(ManifestPodList *l, const char *spec_extra)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"ml\"},"
             "\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":1}}}]%s}}", spec_extra);
    cJSON *o = cJSON_Parse(buf);
    assert_non_null(o);
    Strvec notes = STRVEC_INIT;
    Error e = { 0 };
    assert_int_equal(manifest_pods_from_object(o, "default", "test, document 1", l, &notes, &e), 0);
    strvec_clear(&notes);
    cJSON_Delete(o);
}

static const cJSON *spec_of(const ManifestPodList *l)
{
    return cJSON_GetObjectItemCaseSensitive(l->v[l->n - 1].pod, "spec");
}

static double spec_number(const ManifestPodList *l, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(spec_of(l), key);
    assert_true(cJSON_IsNumber(v));
    return v->valuedouble;
}

static const char *spec_string(const ManifestPodList *l, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(spec_of(l), key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void test_ingest(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    add_class(&c, "high", 1000, false, "PreemptLowerPriority");
    add_class(&c, "low", -5, false, NULL);
    add_class(&c, "high", 2000, false, "Never");           /* the same name again: replaced */
    assert_int_equal(c.npriority_classes, 2);
    const PriorityClass *h = cluster_find_priority_class(&c, "high"), *l = cluster_find_priority_class(&c, "low");
    assert_non_null(h);
    assert_non_null(l);
    assert_int_equal(h->value, 2000);
    assert_string_equal(h->preemption_policy, "Never");
    assert_int_equal(l->value, -5);
    assert_null(l->preemption_policy);
    assert_null(cluster_find_priority_class(&c, "none"));
    Error e = { 0 };
    /* value is an int32 (required): missing, fractional or out of range is refused, as is no name */
    assert_int_equal(ingest(&c, "{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":\"PriorityClass\","
                                "\"metadata\":{\"name\":\"x\"}}", &e), -1);
    assert_int_equal(ingest(&c, "{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":\"PriorityClass\","
                                "\"metadata\":{\"name\":\"x\"},\"value\":1.5}", &e), -1);
    assert_int_equal(ingest(&c, "{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":\"PriorityClass\","
                                "\"metadata\":{\"name\":\"x\"},\"value\":2147483648}", &e), -1);
    assert_non_null(strstr(e.msg, "32-bit"));
    assert_int_equal(ingest(&c, "{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":\"PriorityClass\","
                                "\"metadata\":{},\"value\":1}", &e), -1);
    assert_int_equal(c.npriority_classes, 2);
    cluster_release(&c);
}

static void test_admission(void **state)
{
    (void)state;
    Cluster c;
    cluster_init(&c);
    ManifestPodList l = { 0 };
    Error e = { 0 };

    /* no class read: the pods are left as written */
    one_pod(&l, ",\"priorityClassName\":\"anything\"");
    assert_int_equal(fit_admit_priority(&c, &l, &e), 0);
    assert_null(cJSON_GetObjectItemCaseSensitive(spec_of(&l), "priority"));
    manifest_pod_list_clear(&l);

    add_class(&c, "system-cluster-critical", 2000000000, false, "PreemptLowerPriority");
    add_class(&c, "high", 1000, false, "PreemptLowerPriority");
    add_class(&c, "quiet", 500, false, "Never");

    /* no name and no global default: priority 0, PreemptLowerPriority, no name given */
    one_pod(&l, "");
    assert_int_equal(fit_admit_priority(&c, &l, &e), 0);
    assert_true(spec_number(&l, "priority") == 0);
    assert_string_equal(spec_string(&l, "preemptionPolicy"), "PreemptLowerPriority");
    assert_null(spec_string(&l, "priorityClassName"));
    manifest_pod_list_clear(&l);

    /* a name: its value and policy */
    one_pod(&l, ",\"priorityClassName\":\"quiet\"");
    assert_int_equal(fit_admit_priority(&c, &l, &e), 0);
    assert_true(spec_number(&l, "priority") == 500);
    assert_string_equal(spec_string(&l, "preemptionPolicy"), "Never");
    manifest_pod_list_clear(&l);

    /* the same value written by hand is allowed; another is refused, as is another policy */
    one_pod(&l, ",\"priorityClassName\":\"high\",\"priority\":1000");
    assert_int_equal(fit_admit_priority(&c, &l, &e), 0);
    manifest_pod_list_clear(&l);
    one_pod(&l, ",\"priorityClassName\":\"high\",\"priority\":999");
    assert_int_equal(fit_admit_priority(&c, &l, &e), -1);
    assert_non_null(strstr(e.msg, "test, document 1: Pod ml/p: spec.priority 999 differs from the 1000"));
    manifest_pod_list_clear(&l);
    one_pod(&l, ",\"priorityClassName\":\"quiet\",\"preemptionPolicy\":\"PreemptLowerPriority\"");
    assert_int_equal(fit_admit_priority(&c, &l, &e), -1);
    assert_non_null(strstr(e.msg, "preemptionPolicy PreemptLowerPriority differs from the Never"));
    manifest_pod_list_clear(&l);

    /* a name the cluster does not have */
    one_pod(&l, ",\"priorityClassName\":\"gone\"");
    assert_int_equal(fit_admit_priority(&c, &l, &e), -1);
    assert_non_null(strstr(e.msg, "no PriorityClass with name gone was found"));
    manifest_pod_list_clear(&l);

    /* two global defaults (a race admission allows): the lower value wins, and the pod names it */
    add_class(&c, "default-b", 300, true, "PreemptLowerPriority");
    add_class(&c, "default-a", 200, true, "Never");
    one_pod(&l, "");
    assert_int_equal(fit_admit_priority(&c, &l, &e), 0);
    assert_true(spec_number(&l, "priority") == 200);
    assert_string_equal(spec_string(&l, "priorityClassName"), "default-a");
    assert_string_equal(spec_string(&l, "preemptionPolicy"), "Never");
    manifest_pod_list_clear(&l);
    cluster_release(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ingest),
        cmocka_unit_test(test_admission),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

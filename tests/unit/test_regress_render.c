/* Regression tests: outside input through the model and the renderers, found by fuzzing
 * (tests/fuzz/fuzz_commands.c, fuzz_ingest.c, fuzz_prom_response.c). */
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
#include "util/error.h"
#include "sources/prometheus.h"
#include "render/render.h"

static char *render_to_string(const cJSON *doc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    int rc = yaml_render(f, doc, false);
    fclose(f);
    if (rc != 0) { free(buf); return NULL; }
    return buf;
}

/* fuzz_commands crash 877af62e: `status -o yaml` of a snapshot whose label held bytes that
 * are not UTF-8.  libyaml refused the scalar and left the event unset; emitting it anyway
 * freed the previous event's memory a second time (double free).  Now the bad bytes are
 * written as U+FFFD and everything else is kept. */
static void test_yaml_invalid_utf8(void **state)
{
    (void)state;
    cJSON *doc = cJSON_CreateObject();
    cJSON *labels = cJSON_AddObjectToObject(doc, "labels");
    cJSON_AddStringToObject(labels, "pool", "a\x9a\xff" "b");
    cJSON_AddStringToObject(labels, "k\xc3", "v");             /* a key cut inside a sequence */
    cJSON_AddStringToObject(labels, "ok", "gr\xc3\xbc\xc3\x9f" "e");  /* valid UTF-8 stays */
    cJSON_AddStringToObject(labels, "surrogate", "\xed\xa0\x80");    /* not valid in UTF-8 */
    cJSON_AddStringToObject(doc, "after", "still here");
    char *out = render_to_string(doc);
    assert_non_null(out);
    assert_non_null(strstr(out, "pool: a\xef\xbf\xbd\xef\xbf\xbd" "b\n"));
    assert_non_null(strstr(out, "k\xef\xbf\xbd: v\n"));
    assert_non_null(strstr(out, "ok: gr\xc3\xbc\xc3\x9f" "e\n"));
    assert_non_null(strstr(out, "surrogate: \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\n"));
    assert_non_null(strstr(out, "after: still here\n"));
    free(out);
    cJSON_Delete(doc);
}

/* fuzz_ingest crash 8a3c1374: a node affinity key with a newline made the ingest error two
 * lines ("error: ..." must be one line) */
static void test_ingest_error_one_line(void **state)
{
    (void)state;
    const char *pod =
        "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"ml\"},\"spec\":{\"containers\":[{\"name\":\"c\","
        "\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\"}}}],\"affinity\":{\"nodeAffinity\":{"
        "\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":[{\"matchExpressions\":["
        "{\"key\":\"pool\\n\\u001b[2Jx\",\"operator\":\"Sometimes\",\"values\":[\"a\"]}]}]}}}},"
        "\"status\":{\"phase\":\"Pending\"}}";
    cJSON *j = cJSON_Parse(pod);
    assert_non_null(j);
    Cluster c;
    cluster_init(&c);
    Error err = { .set = false };
    assert_int_equal(cluster_ingest(&c, OBJ__COUNT, j, &err), -1);
    assert_true(err.set);
    assert_null(strchr(err.msg, '\n'));
    assert_null(strchr(err.msg, '\x1b'));
    assert_non_null(strstr(err.msg, "unknown operator \"Sometimes\""));
    cluster_release(&c);
    cJSON_Delete(j);
}

static int count_series(void *ctx, const PromLabel *l, size_t n, const double *ts, const double *v, size_t np)
{
    (void)l; (void)n; (void)ts; (void)v;
    if (np == 0) fail_msg("a series without points was handed on");
    (*(int *)ctx)++;
    return 0;
}

/* fuzz_prom_response crash e23f4d29: a matrix series with "values": [] as the first series
 * did pointer arithmetic on NULL (UBSan: applying zero offset to null pointer) */
static void test_prom_empty_values(void **state)
{
    (void)state;
    const char *body = "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":["
                       "{\"metric\":{\"pod\":\"p\"},\"values\":[]},"
                       "{\"metric\":{\"pod\":\"q\"},\"values\":[[1715707841,\"2\"]]}]},\"wangs\":[\"w1\"]}";
    int n = 0;
    Strvec w = STRVEC_INIT;
    Error err = { .set = false };
    assert_int_equal(prometheus_parse_response(body, strlen(body), 200, count_series, &n, &w, &err), 0);
    assert_int_equal(n, 1);
    strvec_clear(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_yaml_invalid_utf8), cmocka_unit_test(test_ingest_error_one_line),
        cmocka_unit_test(test_prom_empty_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

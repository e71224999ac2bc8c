/* Unit tests: yaml_load.c — YAML text to cJSON with the scalar types mig-parted's decoder
 * reads (true/false, decimal integers), quoted scalars kept as strings, bad input refused. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include "util/yaml_load.h"

static cJSON *load(const char *text)
{
    cJSON *out = NULL;
    char *msg = NULL;
    assert_int_equal(yaml_load_json(text, strlen(text), &out, &msg), 0);
    assert_null(msg);
    return out;
}

static void test_typed_scalars(void **state)
{
    (void)state;
    cJSON *d = load("version: v1\nmig-configs:\n  custom:\n  - device-filter: [\"0x20B210DE\", 0x20B510DE]\n"
                    "    devices: [0, 1]\n    mig-enabled: true\n    mig-devices:\n      \"3g.40gb\": 2\n"
                    "  off:\n  - devices: all\n    mig-enabled: false\n    note: \"true\"\n    empty:\n");
    const cJSON *e = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(d, "mig-configs"), "custom"), 0);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "mig-enabled")));
    assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(e, "devices"), 1)->valueint, 1);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(e, "mig-devices"), "3g.40gb")->valueint, 2);
    /* hexadecimal device IDs stay strings, quoted or not (mig-parted parses them itself) */
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(e, "device-filter");
    assert_string_equal(cJSON_GetArrayItem(f, 0)->valuestring, "0x20B210DE");
    assert_string_equal(cJSON_GetArrayItem(f, 1)->valuestring, "0x20B510DE");
    const cJSON *o = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(d, "mig-configs"), "off"), 0);
    assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(o, "mig-enabled")));
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(o, "devices")->valuestring, "all");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(o, "note")->valuestring, "true");
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(o, "empty")));
    cJSON_Delete(d);
}

/* the kubeconfig reader's form: every scalar but null stays the string written */
static void test_string_scalars(void **state)
{
    (void)state;
    const char *text = "insecure-skip-tls-verify: true\nport: 6443\nempty:\nname: \"x\"\n";
    cJSON *d = NULL;
    char *msg = NULL;
    assert_int_equal(yaml_load_json_strings(text, strlen(text), &d, &msg), 0);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(d, "insecure-skip-tls-verify")->valuestring, "true");
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(d, "port")->valuestring, "6443");
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(d, "empty")));
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(d, "name")->valuestring, "x");
    cJSON_Delete(d);
}

static void test_bad_input(void **state)
{
    (void)state;
    cJSON *out = NULL;
    char *msg = NULL;
    const char *bad = "a: [1, 2\n";
    assert_int_equal(yaml_load_json(bad, strlen(bad), &out, &msg), -1);
    assert_null(out);
    assert_non_null(msg);
    free(msg);
    /* an alias bomb stops at the node budget */
    const char *bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                       "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                       "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n";
    msg = NULL;
    assert_int_equal(yaml_load_json(bomb, strlen(bomb), &out, &msg), -1);
    assert_non_null(msg);
    free(msg);
    /* an empty document is no tree, not an error */
    msg = NULL;
    assert_int_equal(yaml_load_json("", 0, &out, &msg), 0);
    assert_null(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_typed_scalars), cmocka_unit_test(test_string_scalars),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

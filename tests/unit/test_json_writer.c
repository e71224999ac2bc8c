/* The one JSON writer (render/json_writer.h): a document written call by call gives the same
 * bytes as json_render of the same cJSON tree, and both are laid out as kubectl prints JSON
 * (Go's json.MarshalIndent(v, "", "  "): one member or element per line, two spaces per
 * level, `"key": value`, empty containers as {} and []).  Its YAML backend: the same calls
 * give the bytes yaml_render gives the tree, strings YAML would read as another type come
 * back as the same strings, a stream's documents each start with "---".  Its tree backend: the
 * same calls build the tree they describe (equal to the one built by hand), misuse builds none. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "render/json_writer.h"
#include "render/render.h"
#include "util/util.h"
#include "util/yaml_load.h"

static cJSON *sample_tree(void)
{
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "kind", "GPUStatus");
    cJSON_AddStringToObject(d, "name", "gpu-1\x1b[31m\t\"q\"\\");
    cJSON_AddNumberToObject(d, "count", 8);
    cJSON_AddNumberToObject(d, "ratio", 0.1 + 0.2);
    cJSON_AddNumberToObject(d, "big", 1e300);
    cJSON_AddNumberToObject(d, "neg", -3.5);
    cJSON_AddBoolToObject(d, "ready", true);
    cJSON_AddNullToObject(d, "idle");
    cJSON_AddObjectToObject(d, "empty");
    cJSON_AddArrayToObject(d, "none");
    cJSON *nodes = cJSON_AddArrayToObject(d, "nodes");
    for (int i = 0; i < 2; i++) {
        cJSON *n = cJSON_CreateObject();
        cJSON_AddNumberToObject(n, "index", i);
        cJSON *r = cJSON_AddObjectToObject(n, "resources");
        cJSON_AddNumberToObject(r, "nvidia.com/gpu", 4 * i);
        cJSON *l = cJSON_AddArrayToObject(n, "labels");
        cJSON_AddItemToArray(l, cJSON_CreateString("a"));
        cJSON_AddItemToArray(l, cJSON_CreateNumber(2));
        cJSON_AddItemToArray(nodes, n);
    }
    return d;
}

/* the same document through the writer's calls (the node list element by element) */
static void write_calls(JsonWriter *jw)
{
    jw_object_begin(jw, NULL);
    jw_string(jw, "kind", "GPUStatus");
    jw_string(jw, "name", "gpu-1\x1b[31m\t\"q\"\\");
    jw_number(jw, "count", 8);
    jw_number(jw, "ratio", 0.1 + 0.2);
    jw_number(jw, "big", 1e300);
    jw_number(jw, "neg", -3.5);
    jw_bool(jw, "ready", true);
    jw_null(jw, "idle");
    jw_object_begin(jw, "empty");
    jw_end(jw);
    jw_array_begin(jw, "none");
    jw_end(jw);
    jw_array_begin(jw, "nodes");
    for (int i = 0; i < 2; i++) {
        jw_object_begin(jw, NULL);
        jw_number(jw, "index", i);
        jw_object_begin(jw, "resources");
        jw_number(jw, "nvidia.com/gpu", 4 * i);
        jw_end(jw);
        cJSON *l = cJSON_CreateArray();
        cJSON_AddItemToArray(l, cJSON_CreateString("a"));
        cJSON_AddItemToArray(l, cJSON_CreateNumber(2));
        jw_value(jw, "labels", l);            /* a subtree */
        cJSON_Delete(l);
        jw_end(jw);
    }
    jw_end(jw);
    jw_end(jw);
}

/* sample_tree as kubectl lays it out (numbers as cJSON prints them: 0.1 + 0.2 as 0.3) */
static const char want_text[] =
    "{\n"
    "  \"kind\": \"GPUStatus\",\n"
    "  \"name\": \"gpu-1\\u001b[31m\\t\\\"q\\\"\\\\\",\n"
    "  \"count\": 8,\n"
    "  \"ratio\": 0.3,\n"
    "  \"big\": 1e+300,\n"
    "  \"neg\": -3.5,\n"
    "  \"ready\": true,\n"
    "  \"idle\": null,\n"
    "  \"empty\": {},\n"
    "  \"none\": [],\n"
    "  \"nodes\": [\n"
    "    {\n"
    "      \"index\": 0,\n"
    "      \"resources\": {\n"
    "        \"nvidia.com/gpu\": 0\n"
    "      },\n"
    "      \"labels\": [\n"
    "        \"a\",\n"
    "        2\n"
    "      ]\n"
    "    },\n"
    "    {\n"
    "      \"index\": 1,\n"
    "      \"resources\": {\n"
    "        \"nvidia.com/gpu\": 4\n"
    "      },\n"
    "      \"labels\": [\n"
    "        \"a\",\n"
    "        2\n"
    "      ]\n"
    "    }\n"
    "  ]\n"
    "}\n";

static void test_same_bytes(void **state)
{
    (void)state;
    cJSON *d = sample_tree();
    char *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    FILE *f = open_memstream(&a, &na);
    assert_int_equal(json_render(f, d), 0);
    fclose(f);
    JsonWriter *jw = malloc(sizeof *jw);
    f = open_memstream(&b, &nb);
    jw_init(jw, f);
    write_calls(jw);
    assert_int_equal(jw_release(jw), 0);
    fclose(f);
    free(jw);
    assert_string_equal(b, a);
    assert_string_equal(a, want_text);
    /* and the values are cJSON's: the text parses back to the same tree */
    cJSON *back = cJSON_Parse(a);
    assert_non_null(back);
    assert_true(cJSON_Compare(back, d, true));
    cJSON_Delete(back);
    free(a);
    free(b);
    cJSON_Delete(d);
}

/* integers (written digit by digit, not through snprintf) come out as cJSON prints them, at
 * the edges of the fast path too: zero, minus zero, one digit, fifteen digits, past 2^31 */
static void test_integers_as_cjson(void **state)
{
    (void)state;
    const double v[] = { 0, -0.0, 1, -1, 9, 10, -10, 99, 100, 2147483647.0, 2147483648.0, -2147483649.0,
                         123456789012345.0, -999999999999999.0, 999999999999999.0, 1e15, -1e15, 4096, 0.5 };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        cJSON *a = cJSON_CreateArray();
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
        char *want = cJSON_PrintUnformatted(a), *got = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&got, &n);
        assert_int_equal(json_render(f, a), 0);
        fclose(f);
        /* ours is laid out as kubectl's: "[\n  N\n]\n"; cJSON's unformatted "[N]" */
        char mine[64];
        assert_true(sscanf(got, "[ %63[^ \n]", mine) == 1);
        char theirs[64];
        snprintf(theirs, sizeof theirs, "%.*s", (int)strlen(want) - 2, want + 1);
        if (strcmp(mine, theirs) != 0) fail_msg("%.17g: ours %s, cJSON's %s", v[i], mine, theirs);
        free(want);
        free(got);
        cJSON_Delete(a);
    }
}

static void misuse(JsonWriter *jw, int which)
{
    jw_object_begin(jw, NULL);
    if (which == 0) jw_string(jw, NULL, "no key in an object");
    if (which == 1) { jw_array_begin(jw, "a"); jw_string(jw, "k", "a key in an array"); jw_end(jw); }
    if (which != 2) jw_end(jw);                /* 2: left open */
    if (which == 3) jw_end(jw);                /* closed twice */
}

static void test_misuse(void **state)
{
    (void)state;
    for (int which = 0; which < 4; which++) {
        char *buf = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&buf, &n);
        JsonWriter *jw = malloc(sizeof *jw);
        jw_init(jw, f);
        misuse(jw, which);
        assert_int_equal(jw_release(jw), -1);
        fclose(f);
        free(jw);
        free(buf);
    }
}

/* sample_tree as YAML: block style, the hostile name double-quoted with YAML's escapes, numbers
 * whole or with 6 significant digits, empty containers in flow style */
static const char want_yaml[] =
    "kind: GPUStatus\n"
    "name: \"gpu-1\\e[31m\\t\\\"q\\\"\\\\\"\n"
    "count: 8\n"
    "ratio: 0.3\n"
    "big: 1e+300\n"
    "neg: -3.5\n"
    "ready: true\n"
    "idle: null\n"
    "empty: {}\n"
    "none: []\n"
    "nodes:\n"
    "- index: 0\n"
    "  resources:\n"
    "    nvidia.com/gpu: 0\n"
    "  labels:\n"
    "  - a\n"
    "  - 2\n"
    "- index: 1\n"
    "  resources:\n"
    "    nvidia.com/gpu: 4\n"
    "  labels:\n"
    "  - a\n"
    "  - 2\n";

static char *yaml_of_calls(void (*calls)(JsonWriter *), bool stream, int *rc)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    JsonWriter *jw = malloc(sizeof *jw);
    if (stream) jw_init_yaml_stream(jw, f);
    else jw_init_yaml(jw, f, false);
    calls(jw);
    *rc = jw_release(jw);
    fclose(f);
    free(jw);
    return buf;
}

static void test_yaml_same_bytes(void **state)
{
    (void)state;
    cJSON *d = sample_tree();
    char *a = NULL;
    size_t na = 0;
    FILE *f = open_memstream(&a, &na);
    assert_int_equal(yaml_render(f, d, false), 0);
    fclose(f);
    int rc;
    char *b = yaml_of_calls(write_calls, false, &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(b, a);
    assert_string_equal(a, want_yaml);
    free(a);
    free(b);
    cJSON_Delete(d);
}

/* strings a YAML reader would take for booleans, numbers, null, or for structure */
static const char *const tricky[] = { "true", "no", "Off", "null", "~", "", "1.5", "-1", "0x1f", ".inf", "1e3",
                                      " lead", "trail ", "a: b", "#c", "- x", "[x]", "{x}", "*x", "&x", "!x",
                                      "%x", "@x", "`x", "'x'", "\"x\"", "two\nlines", "tab\there", "x #y",
                                      "nvidia.com/gpu", "1g.10gb", "ü", NULL };

static void write_tricky(JsonWriter *jw)
{
    jw_object_begin(jw, NULL);
    for (size_t i = 0; tricky[i]; i++) jw_string(jw, tricky[i], tricky[i]);
    jw_array_begin(jw, "list");
    for (size_t i = 0; tricky[i]; i++) jw_string(jw, NULL, tricky[i]);
    jw_end(jw);
    jw_end(jw);
}

static void test_yaml_strings_stay_strings(void **state)
{
    (void)state;
    int rc;
    char *text = yaml_of_calls(write_tricky, false, &rc);
    assert_int_equal(rc, 0);
    cJSON *back = NULL;
    char *msg = NULL;
    assert_int_equal(yaml_load_json(text, strlen(text), &back, &msg), 0);   /* true, 1 plain would read back typed */
    cJSON *want = cJSON_CreateObject();
    for (size_t i = 0; tricky[i]; i++) cJSON_AddStringToObject(want, tricky[i], tricky[i]);
    cJSON *l = cJSON_AddArrayToObject(want, "list");
    for (size_t i = 0; tricky[i]; i++) cJSON_AddItemToArray(l, cJSON_CreateString(tricky[i]));
    if (!cJSON_Compare(back, want, true)) fail_msg("YAML did not read back as written:\n%s", text);
    /* and a plain one stays plain: no quotes where YAML needs none */
    assert_non_null(strstr(text, "\nnvidia.com/gpu: nvidia.com/gpu\n"));
    cJSON_Delete(back);
    cJSON_Delete(want);
    free(text);
}

static void write_two_docs(JsonWriter *jw)
{
    for (int i = 0; i < 2; i++) {
        jw_object_begin(jw, NULL);
        jw_string(jw, "kind", "ConfigMap");
        jw_number(jw, "count", i);
        jw_end(jw);
    }
}

static void write_two_in_one(JsonWriter *jw) { write_two_docs(jw); }

static void test_yaml_stream(void **state)
{
    (void)state;
    int rc;
    char *text = yaml_of_calls(write_two_docs, true, &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(text, "---\nkind: ConfigMap\ncount: 0\n---\nkind: ConfigMap\ncount: 1\n");
    cJSON *docs[2];
    for (int i = 0; i < 2; i++) {
        docs[i] = cJSON_CreateObject();
        cJSON_AddStringToObject(docs[i], "kind", "ConfigMap");
        cJSON_AddNumberToObject(docs[i], "count", i);
    }
    char *b = NULL;
    size_t nb = 0;
    FILE *f = open_memstream(&b, &nb);
    assert_int_equal(yaml_render_stream(f, (const cJSON *const *)docs, 2), 0);
    fclose(f);
    assert_string_equal(b, text);
    free(b);
    free(text);
    for (int i = 0; i < 2; i++) cJSON_Delete(docs[i]);
    /* a one-document writer takes one document only */
    text = yaml_of_calls(write_two_in_one, false, &rc);
    assert_int_equal(rc, -1);
    free(text);
}

static void test_yaml_misuse(void **state)
{
    (void)state;
    for (int which = 0; which < 4; which++) {
        char *buf = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&buf, &n);
        JsonWriter *jw = malloc(sizeof *jw);
        jw_init_yaml(jw, f, false);
        misuse(jw, which);
        assert_int_equal(jw_release(jw), -1);
        fclose(f);
        free(jw);
        free(buf);
    }
}

/* keys JSON must escape take the slow path and come out as json_render writes them; a tree
 * deeper than the writer's own depth limit is indented two spaces per level all the way down */
static void test_keys_and_depth(void **state)
{
    (void)state;
    const char *keys[] = { "plain", "a\"b", "tab\there", "nl\n", "back\\slash", "\x01ctl", "" };
    cJSON *d = cJSON_CreateObject();
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) cJSON_AddNumberToObject(d, keys[i], (double)i);
    char *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    FILE *f = open_memstream(&a, &na);
    assert_int_equal(json_render(f, d), 0);
    fclose(f);
    JsonWriter *jw = malloc(sizeof *jw);
    f = open_memstream(&b, &nb);
    jw_init(jw, f);
    jw_object_begin(jw, NULL);
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) jw_number(jw, keys[i], (double)i);
    jw_end(jw);
    assert_int_equal(jw_release(jw), 0);
    fclose(f);
    assert_string_equal(b, a);
    assert_non_null(strstr(a, "\n  \"a\\\"b\": 1,\n"));          /* "a\"b": 1 */
    free(a);
    free(b);
    cJSON_Delete(d);

    enum { DEEP = 150 };
    cJSON *root = cJSON_CreateArray(), *cur = root;
    for (int i = 1; i < DEEP; i++) { cJSON *x = cJSON_CreateArray(); cJSON_AddItemToArray(cur, x); cur = x; }
    cJSON_AddItemToArray(cur, cJSON_CreateNumber(7));
    Strbuf want = STRBUF_INIT;
    for (int i = 0; i < DEEP; i++) {
        strbuf_addch(&want, '[');
        strbuf_addch(&want, '\n');
        for (int k = 0; k <= i; k++) strbuf_adds(&want, "  ");
    }
    strbuf_addch(&want, '7');
    for (int i = DEEP - 1; i >= 0; i--) {
        strbuf_addch(&want, '\n');
        for (int k = 0; k < i; k++) strbuf_adds(&want, "  ");
        strbuf_addch(&want, ']');
    }
    strbuf_addch(&want, '\n');
    a = NULL;
    f = open_memstream(&a, &na);
    assert_int_equal(json_render(f, root), 0);
    fclose(f);
    assert_string_equal(a, strbuf_str(&want));
    free(a);
    strbuf_clear(&want);
    cJSON_Delete(root);
    free(jw);
}

/* the tree backend: write_calls builds sample_tree itself (cJSON_Compare, strict: the same
 * members in the same order, the same numbers) */
static void test_tree_same_tree(void **state)
{
    (void)state;
    JsonWriter *jw = jw_tree_new();
    assert_non_null(jw);
    write_calls(jw);
    cJSON *got = jw_tree_finish(jw), *want = sample_tree();
    assert_non_null(got);
    assert_true(cJSON_Compare(got, want, true));
    char *a = cJSON_PrintUnformatted(got), *b = cJSON_PrintUnformatted(want);
    assert_string_equal(a, b);                  /* the order too (Compare ignores it for objects) */
    free(a);
    free(b);
    cJSON_Delete(got);
    cJSON_Delete(want);
}

/* a NaN or infinite number is null in the tree, as the text says; raw JSON stays raw and prints
 * as itself; a raw member of a YAML writer is an error (YAML cannot take JSON text) */
static void test_tree_null_and_raw(void **state)
{
    (void)state;
    JsonWriter *jw = jw_tree_new();
    jw_object_begin(jw, NULL);
    jw_number(jw, "nan", NAN);
    jw_number(jw, "inf", INFINITY);
    jw_raw(jw, "raw", "[1, 2]");
    jw_end(jw);
    cJSON *t = jw_tree_finish(jw);
    assert_non_null(t);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(t, "nan")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(t, "inf")));
    assert_true(cJSON_IsRaw(cJSON_GetObjectItem(t, "raw")));
    char *text = cJSON_PrintUnformatted(t);
    assert_string_equal(text, "{\"nan\":null,\"inf\":null,\"raw\":[1, 2]}");
    free(text);
    cJSON_Delete(t);

    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    jw = malloc(sizeof *jw);
    jw_init(jw, f);
    jw_array_begin(jw, NULL);
    jw_raw(jw, NULL, "{\"a\": 1}");
    jw_end(jw);
    assert_int_equal(jw_release(jw), 0);
    fclose(f);
    assert_string_equal(buf, "[\n  {\"a\": 1}\n]\n");
    free(buf);
    buf = NULL;
    f = open_memstream(&buf, &n);
    jw_init_yaml(jw, f, false);
    jw_array_begin(jw, NULL);
    jw_raw(jw, NULL, "1");
    jw_end(jw);
    assert_int_equal(jw_release(jw), -1);
    fclose(f);
    free(jw);
    free(buf);
}

static void test_tree_misuse(void **state)
{
    (void)state;
    for (int which = 0; which < 4; which++) {
        JsonWriter *jw = jw_tree_new();
        misuse(jw, which);
        assert_null(jw_tree_finish(jw));
    }
    assert_null(jw_tree_finish(jw_tree_new()));      /* nothing written: no document */
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_same_bytes), cmocka_unit_test(test_misuse),
                                        cmocka_unit_test(test_integers_as_cjson),
                                        cmocka_unit_test(test_yaml_same_bytes),
                                        cmocka_unit_test(test_yaml_strings_stay_strings),
                                        cmocka_unit_test(test_yaml_stream), cmocka_unit_test(test_yaml_misuse),
                                        cmocka_unit_test(test_keys_and_depth),
                                        cmocka_unit_test(test_tree_same_tree),
                                        cmocka_unit_test(test_tree_null_and_raw),
                                        cmocka_unit_test(test_tree_misuse) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

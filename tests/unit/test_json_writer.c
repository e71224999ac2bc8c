/* The one JSON writer (render/json_writer.h): a document written call by call gives the same
 * bytes as render_json of the same cJSON tree, and both are laid out as kubectl prints JSON
 * (Go's json.MarshalIndent(v, "", "  "): one member or element per line, two spaces per
 * level, `"key": value`, empty containers as {} and []). */
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
    assert_int_equal(render_json(f, d), 0);
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

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_same_bytes), cmocka_unit_test(test_misuse) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

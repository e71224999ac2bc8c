/* test_jsonpath.c — kubectl's JSONPath subset (render/jsonpath.c) and custom columns
 * (render/custom_columns.c).  The rules are client-go's util/jsonpath/jsonpath.go (evalField:
 * a missing key gives nothing; evalArray: "array index out of bounds: index %d, length %d",
 * "%v is not array or slice") and cli-runtime's pkg/printers/customcolumn.go
 * (RelaxedJSONPathExpression, the spec and template errors, "<none>", values joined by ","). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "render/jsonpath.h"
#include "render/custom_columns.h"
#include "util/error.h"

static const char doc_text[] =
    "{\"name\": \"dgx-01\", \"product\": null, \"physicalGPUs\": 8, \"util\": 12.5, \"big\": 1234567.5,"
    " \"tiny\": 0.00001, \"ready\": true,"
    " \"resources\": {\"nvidia.com/gpu\": {\"allocatable\": 8, \"allocated\": 3}, \"nvidia.com/mig-1g.10gb\": {\"allocated\": 0}},"
    " \"pods\": [{\"name\": \"a\", \"ns\": \"ml\"}, {\"name\": \"b\", \"ns\": \"ci\"}, {\"name\": \"c\"}],"
    " \"empty\": [], \"sharing\": {\"strategy\": \"mps\", \"replicas\": 4, \"list\": [1, \"x\", null]}}";

/* the cell of expr on the document, or "ERR: message" */
static char *cell(const char *expr)
{
    cJSON *doc = cJSON_Parse(doc_text);
    assert_non_null(doc);
    Error err = { 0 };
    JsonPath *p = jsonpath_compile(expr, &err);
    char *out;
    if (!p) {
        out = malloc(strlen(err.msg) + 12);
        sprintf(out, "COMPILE: %s", err.msg);
    } else {
        out = jsonpath_eval_text(p, doc, &err);
        if (!out) {
            out = malloc(strlen(err.msg) + 8);
            sprintf(out, "ERR: %s", err.msg);
        }
    }
    jsonpath_free(p);
    cJSON_Delete(doc);
    return out;
}

#define assert_cell(expr, want) do { char *got_ = cell(expr); assert_string_equal(got_, want); free(got_); } while (0)

static void test_relaxed_forms(void **state)
{
    (void)state;
    assert_cell("name", "dgx-01");                   /* all four spellings of one path */
    assert_cell(".name", "dgx-01");
    assert_cell("{name}", "dgx-01");
    assert_cell("{.name}", "dgx-01");
    assert_cell("", "<none>");                       /* a column with no path */
    assert_cell("{.a}}", "COMPILE: unexpected path string, expected a 'name1.name2' or '.name1.name2' or "
                         "'{name1.name2}' or '{.name1.name2}'");
    assert_cell("{}", "COMPILE: unexpected path string, expected a 'name1.name2' or '.name1.name2' or "
                      "'{name1.name2}' or '{.name1.name2}'");
}

static void test_fields(void **state)
{
    (void)state;
    assert_cell(".sharing.strategy", "mps");
    assert_cell(".missing", "<none>");               /* missing keys are allowed */
    assert_cell(".missing.deeper", "<none>");
    assert_cell(".name.deeper", "<none>");           /* a field of a string: nothing */
    assert_cell(".product", "<nil>");                /* null is a value, printed as Go does */
    assert_cell(".product.x", "<none>");             /* but has no children */
    assert_cell(".resources.nvidia\\.com/gpu.allocated", "3");     /* escaped dots */
    assert_cell(".resources['nvidia.com/gpu'].allocatable", "8");  /* bracket keys */
    assert_cell(".resources[\"nvidia.com/mig-1g.10gb\"].allocated", "0");
    assert_cell(".resources.nvidia.com/gpu", "<none>");            /* unescaped: three keys */
}

static void test_values(void **state)
{
    (void)state;
    assert_cell(".physicalGPUs", "8");               /* integers without a point */
    assert_cell(".util", "12.5");
    assert_cell(".big", "1.2345675e+06");            /* Go's %v of a float64 */
    assert_cell(".tiny", "1e-05");
    assert_cell(".ready", "true");
    assert_cell(".sharing", "map[list:[1 x <nil>] replicas:4 strategy:mps]");   /* keys sorted */
    assert_cell(".empty", "[]");
    assert_cell(".pods[0]", "map[name:a ns:ml]");
}

static void test_arrays(void **state)
{
    (void)state;
    assert_cell(".pods[*].name", "a,b,c");
    assert_cell(".pods[*].ns", "ml,ci");             /* missing in the third: left out */
    assert_cell(".pods[1].name", "b");
    assert_cell(".pods[-1].name", "c");
    assert_cell(".pods[0:2].name", "a,b");
    assert_cell(".pods[1:].name", "b,c");
    assert_cell(".pods[::2].name", "a,c");
    assert_cell(".pods.*.name", "a,b,c");
    assert_cell(".resources.*.allocated", "3,0");    /* the wildcard on an object: its values */
    assert_cell(".empty[*].name", "<none>");
    assert_cell(".pods[3].name", "ERR: array index out of bounds: index 3, length 3");
    assert_cell(".empty[0]", "ERR: array index out of bounds: index 0, length 0");
    assert_cell(".pods[1:5]", "ERR: array index out of bounds: index 4, length 3");
    assert_cell(".sharing[0]", "ERR: map[string]interface {} is not array or slice");
    assert_cell(".name[0]", "ERR: string is not array or slice");
    assert_cell(".missing[0]", "<none>");            /* nothing to index: nothing */
}

static void test_unsupported(void **state)
{
    (void)state;
    char *c = cell("..name");
    assert_non_null(strstr(c, "recursive descent"));
    free(c);
    c = cell(".pods[?(@.name==\"a\")]");
    assert_non_null(strstr(c, "filters"));
    free(c);
    c = cell(".pods[x]");
    assert_non_null(strstr(c, "invalid array index"));
    free(c);
    c = cell(".pods[0");
    assert_non_null(strstr(c, "unclosed"));
    free(c);
    c = cell(".a b");
    assert_non_null(strstr(c, "COMPILE"));
    free(c);
}

static char *print_columns(CustomColumns *cc, bool no_headers)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(custom_columns_print(cc, f, no_headers), 0);
    fclose(f);
    return buf;
}

static void test_spec(void **state)
{
    (void)state;
    Error err = { 0 };
    CustomColumns *cc = custom_columns_new("custom-columns=NODE:.name,GPUS:physicalGPUs,POD:{.pods[*].name}", &err);
    assert_non_null(cc);
    cJSON *doc = cJSON_Parse(doc_text);
    assert_int_equal(custom_columns_add(cc, doc, &err), 0);
    cJSON_ReplaceItemInObject(doc, "name", cJSON_CreateString("h100-02"));
    cJSON_DeleteItemFromObject(doc, "pods");
    assert_int_equal(custom_columns_add(cc, doc, &err), 0);
    assert_int_equal(custom_columns_rows(cc), 2);
    char *out = print_columns(cc, false);
    assert_string_equal(out, "NODE      GPUS   POD\n"
                             "dgx-01    8      a,b,c\n"
                             "h100-02   8      <none>\n");
    free(out);
    assert_int_equal(custom_columns_rows(cc), 0);    /* printed rows are let go */
    assert_int_equal(custom_columns_add(cc, doc, &err), 0);
    out = print_columns(cc, true);
    assert_string_equal(out, "h100-02   8     <none>\n");     /* "8" takes 6 with its gap */
    free(out);
    out = print_columns(cc, false);                  /* no rows: nothing, not even the header */
    assert_string_equal(out, "");
    free(out);
    cJSON_Delete(doc);
    custom_columns_free(cc);

    /* kubectl's tabwriter (cli-runtime printers/tabwriter.go: minwidth 6, padding 3): a column
     * with its gap is at least 6 wide */
    cc = custom_columns_new("custom-columns=N:.n,M:.m", &err);
    cJSON *small = cJSON_Parse("{\"n\": \"a\", \"m\": \"b\"}");
    assert_int_equal(custom_columns_add(cc, small, &err), 0);
    cJSON_Delete(small);
    out = print_columns(cc, false);
    assert_string_equal(out, "N     M\na     b\n");
    free(out);
    custom_columns_free(cc);

    cc = custom_columns_new("custom-columns=A:.x:y", &err);   /* the first ':' ends the header */
    assert_non_null(cc);
    custom_columns_free(cc);
}

static void test_spec_errors(void **state)
{
    (void)state;
    Error err = { 0 };
    assert_null(custom_columns_new("custom-columns=", &err));
    assert_string_equal(err.msg, "custom-columns format specified but no custom columns given");
    assert_null(custom_columns_new("custom-columns", &err));
    assert_string_equal(err.msg, "custom-columns format specified but no custom columns given");
    assert_null(custom_columns_new("custom-columns=NAME:.name,GPUS", &err));
    assert_string_equal(err.msg, "unexpected custom-columns spec: GPUS, expected <header>:<json-path-expr>");
    assert_null(custom_columns_new("custom-columns=NAME:{.name", &err));
    assert_non_null(strstr(err.msg, "unexpected path string"));
    assert_true(custom_columns_format("custom-columns=A:.a"));
    assert_true(custom_columns_format("custom-columns-file=x"));
    assert_true(custom_columns_format("custom-columns"));
    assert_false(custom_columns_format("custom-columnsx=A:.a"));
    assert_false(custom_columns_format("json"));
}

static char *write_temp(const char *text)
{
    char *path = strdup("/tmp/kgpu-cc-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

static CustomColumns *from_file(const char *text, Error *err)
{
    char *path = write_temp(text);
    char spec[64];
    snprintf(spec, sizeof spec, "custom-columns-file=%s", path);
    CustomColumns *cc = custom_columns_new(spec, err);
    unlink(path);
    free(path);
    return cc;
}

static void test_file(void **state)
{
    (void)state;
    Error err = { 0 };
    CustomColumns *cc = from_file("NAME   ALLOCATED\r\n  .name\t{.resources.nvidia\\.com/gpu.allocated}\n", &err);
    assert_non_null(cc);
    cJSON *doc = cJSON_Parse(doc_text);
    assert_int_equal(custom_columns_add(cc, doc, &err), 0);
    cJSON_Delete(doc);
    char *out = print_columns(cc, false);
    assert_string_equal(out, "NAME     ALLOCATED\ndgx-01   3\n");
    free(out);
    custom_columns_free(cc);

    assert_null(from_file("\n\n", &err));                       /* no columns at all */
    assert_string_equal(err.msg, "custom-columns format specified but no custom columns given");
    assert_null(from_file("", &err));
    assert_non_null(strstr(err.msg, "missing header line"));
    assert_null(from_file("NAME GPUS\n", &err));
    assert_non_null(strstr(err.msg, "missing spec line"));
    assert_null(from_file("NAME GPUS\n.name\n", &err));
    assert_string_equal(err.msg, "number of headers (2) and field specifications (1) don't match");
    assert_null(custom_columns_new("custom-columns-file=/nonexistent/cols.txt", &err));
    assert_non_null(strstr(err.msg, "error reading template /nonexistent/cols.txt"));
}

static void test_eval_error_keeps_no_row(void **state)
{
    (void)state;
    Error err = { 0 };
    CustomColumns *cc = custom_columns_new("custom-columns=N:.name,P:.pods[7]", &err);
    cJSON *doc = cJSON_Parse(doc_text);
    assert_int_equal(custom_columns_add(cc, doc, &err), -1);
    assert_string_equal(err.msg, "array index out of bounds: index 7, length 3");
    assert_int_equal(custom_columns_rows(cc), 0);
    cJSON_Delete(doc);
    custom_columns_free(cc);
}

static void test_compare(void **state)
{
    (void)state;
    cJSON *v = cJSON_Parse("[2, 10, \"a\", \"b\", false, true, null, [1]]");
    const cJSON *two = cJSON_GetArrayItem(v, 0), *ten = cJSON_GetArrayItem(v, 1), *a = cJSON_GetArrayItem(v, 2),
                *b = cJSON_GetArrayItem(v, 3), *f = cJSON_GetArrayItem(v, 4), *t = cJSON_GetArrayItem(v, 5),
                *nul = cJSON_GetArrayItem(v, 6), *list = cJSON_GetArrayItem(v, 7);
    assert_true(jsonpath_value_compare(two, ten) < 0);          /* numbers by value, not text */
    assert_true(jsonpath_value_compare(ten, two) > 0);
    assert_int_equal(jsonpath_value_compare(two, two), 0);
    assert_true(jsonpath_value_compare(a, b) < 0);
    assert_true(jsonpath_value_compare(f, t) < 0);
    assert_true(jsonpath_value_compare(ten, a) < 0);            /* kinds: numbers, strings, ... */
    assert_true(jsonpath_value_compare(t, list) < 0);
    assert_true(jsonpath_value_compare(list, nul) < 0);
    assert_true(jsonpath_value_compare(nul, NULL) < 0);          /* no value last */
    assert_int_equal(jsonpath_value_compare(NULL, NULL), 0);
    cJSON_Delete(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_relaxed_forms), cmocka_unit_test(test_fields),
        cmocka_unit_test(test_values),        cmocka_unit_test(test_arrays),
        cmocka_unit_test(test_unsupported),   cmocka_unit_test(test_spec),
        cmocka_unit_test(test_spec_errors),   cmocka_unit_test(test_file),
        cmocka_unit_test(test_eval_error_keeps_no_row), cmocka_unit_test(test_compare),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

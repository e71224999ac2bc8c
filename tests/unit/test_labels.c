/* Unit tests: KVList, label selector parsing (full string grammar), matching, Gt/Lt, errors. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "util/error.h"
#include "model/labels.h"
#include "util/strpool.h"
#include "util/util.h"

static KVList node_labels(void)
{
    KVList l = KVLIST_INIT;
    kv_set(&l, "nvidia.com/gpu.present", "true");
    kv_set(&l, "pool", "a");
    kv_set(&l, "nvidia.com/gpu.count", "8");
    kv_set(&l, "empty", "");
    return l;
}

static bool sel_match(const char *s, const KVList *l)
{
    LabelSelector sel = LABEL_SELECTOR_INIT;
    Error e = { 0 };
    if (label_selector_parse(&sel, s, &e) < 0) fail_msg("parse \"%s\": %s", s, e.msg);
    bool m = label_selector_matches(&sel, l);
    label_selector_clear(&sel);
    return m;
}

static void test_kv(void **state)
{
    (void)state;
    KVList l = KVLIST_INIT;
    kv_set(&l, "a", "1");
    kv_set(&l, "a", "2");
    kv_set(&l, "b", NULL);
    assert_int_equal(l.n, 2);
    assert_string_equal(kv_get(&l, "a"), "2");
    assert_string_equal(kv_get(&l, "b"), "");
    assert_null(kv_get(&l, "c"));
    assert_null(kv_get(NULL, "a"));
    kv_clear(&l);
    cJSON *j = cJSON_Parse("{\"app\":\"x\",\"n\":5,\"o\":{},\"t\":true,\"ok\":\"\"}");
    kv_from_json(&l, j);
    assert_int_equal(l.n, 2);                            /* string values only */
    assert_string_equal(kv_get(&l, "app"), "x");
    assert_string_equal(kv_get(&l, "ok"), "");
    kv_from_json(&l, NULL);
    kv_clear(&l);
    cJSON_Delete(j);
}

/* an object of more than eight members goes through the key table: repeated keys keep their
 * first place and take the last value (as kv_set does), keys already in the list are found */
static void test_kv_from_json_many(void **state)
{
    (void)state;
    KVList l = KVLIST_INIT;
    kv_set(&l, "k3", "old");
    char text[1024] = "{";
    for (int i = 0; i < 40; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s\"k%d\":\"v%d\"", i ? "," : "", i, i);
    strcat(text, ",\"k7\":\"again\",\"nvidia.com/gpu.product\":\"A100\",\"k39\":\"last\"}");
    cJSON *j = cJSON_Parse(text);
    assert_non_null(j);
    kv_from_json(&l, j);
    assert_int_equal(l.n, 41);                           /* k3 first, then k0..k39 less k3, then the product */
    assert_string_equal(l.items[0].key, "k3");
    assert_string_equal(l.items[0].value, "v3");         /* the list's own k3 overwritten in place */
    assert_string_equal(kv_get(&l, "k7"), "again");
    assert_string_equal(kv_get(&l, "k39"), "last");
    assert_string_equal(kv_get(&l, "k0"), "v0");
    assert_string_equal(l.items[l.n - 1].key, "nvidia.com/gpu.product");
    for (uint32_t a = 0; a < l.n; a++)                   /* no key twice */
        for (uint32_t b = a + 1; b < l.n; b++) assert_string_not_equal(l.items[a].key, l.items[b].key);
    kv_clear(&l);
    cJSON_Delete(j);
}

static void test_parse_structure(void **state)
{
    (void)state;
    LabelSelector sel = LABEL_SELECTOR_INIT;
    Error e = { 0 };
    assert_int_equal(label_selector_parse(&sel,
        " nvidia.com/gpu.present = true , pool in (a, b),tier notin(x),!spot, zone,x!=y,c==d,n>3,m<10", &e), 0);
    assert_int_equal(sel.n, 9);
    assert_string_equal(sel.reqs[0].key, "nvidia.com/gpu.present");
    assert_int_equal(sel.reqs[0].op, SEL_EQ);
    assert_string_equal(sel.reqs[0].values[0], "true");
    assert_int_equal(sel.reqs[1].op, SEL_IN);
    assert_int_equal(sel.reqs[1].nvalues, 2);
    assert_string_equal(sel.reqs[1].values[1], "b");
    assert_int_equal(sel.reqs[2].op, SEL_NOTIN);
    assert_int_equal(sel.reqs[3].op, SEL_NOT_EXISTS);
    assert_string_equal(sel.reqs[3].key, "spot");
    assert_int_equal(sel.reqs[4].op, SEL_EXISTS);
    assert_int_equal(sel.reqs[5].op, SEL_NEQ);
    assert_int_equal(sel.reqs[6].op, SEL_EQ);
    assert_int_equal(sel.reqs[7].op, SEL_GT);
    assert_int_equal(sel.reqs[8].op, SEL_LT);
    char *f = selreq_format(&sel.reqs[1]); assert_string_equal(f, "pool in (a,b)"); free(f);
    f = selreq_format(&sel.reqs[3]); assert_string_equal(f, "!spot"); free(f);
    f = selreq_format(&sel.reqs[0]); assert_string_equal(f, "nvidia.com/gpu.present=true"); free(f);
    f = selreq_format(&sel.reqs[7]); assert_string_equal(f, "n>3"); free(f);
    f = selreq_format(&sel.reqs[2]); assert_string_equal(f, "tier notin (x)"); free(f);
    label_selector_clear(&sel);
    /* empty selectors select everything */
    assert_int_equal(label_selector_parse(&sel, "", &e), 0);
    assert_int_equal(label_selector_parse(&sel, "   ", &e), 0);
    assert_int_equal(sel.n, 0);
    /* "key=" is the empty value */
    assert_int_equal(label_selector_parse(&sel, "empty=", &e), 0);
    assert_int_equal(sel.n, 1);
    assert_string_equal(sel.reqs[0].values[0], "");
    label_selector_clear(&sel);
}

static void test_match(void **state)
{
    (void)state;
    KVList l = node_labels();
    assert_true(sel_match("nvidia.com/gpu.present=true", &l));
    assert_true(sel_match("nvidia.com/gpu.present==true,pool=a", &l));
    assert_false(sel_match("nvidia.com/gpu.present=true,pool=b", &l));
    assert_true(sel_match("pool in (b, a)", &l));
    assert_false(sel_match("pool in (b,c)", &l));
    assert_false(sel_match("pool notin (a)", &l));
    assert_true(sel_match("missing notin (a)", &l));     /* absent key satisfies notin */
    assert_true(sel_match("missing!=a", &l));
    assert_false(sel_match("pool!=a", &l));
    assert_true(sel_match("!spot", &l));
    assert_false(sel_match("!pool", &l));
    assert_true(sel_match("pool", &l));
    assert_false(sel_match("spot", &l));
    assert_true(sel_match("empty=", &l));
    assert_false(sel_match("missing=", &l));             /* = needs the key */
    assert_true(sel_match("nvidia.com/gpu.count>7", &l));
    assert_false(sel_match("nvidia.com/gpu.count>8", &l));
    assert_true(sel_match("nvidia.com/gpu.count<9", &l));
    assert_false(sel_match("pool>1", &l));               /* non-integer label: no match */
    assert_false(sel_match("missing<1", &l));
    assert_true(sel_match("", &l));
    kv_clear(&l);
}

static void test_selreq_gt_lt_direct(void **state)
{
    (void)state;
    KVList l = KVLIST_INIT;
    kv_set(&l, "mem", "-5");
    LabelSelector sel = LABEL_SELECTOR_INIT;
    const char *v[] = { "-10" };
    label_selector_add(&sel, "mem", SEL_GT, v, 1);
    assert_true(selreq_matches(&sel.reqs[0], &l));       /* -5 > -10: integer compare */
    const char *w[] = { "abc" };
    label_selector_add(&sel, "mem", SEL_LT, w, 1);
    assert_false(selreq_matches(&sel.reqs[1], &l));      /* bad requirement value: no match */
    label_selector_add(&sel, "mem", SEL_GT, NULL, 0);
    assert_false(selreq_matches(&sel.reqs[2], &l));      /* no value at all */
    const char *ab[] = { "a", "b" };
    label_selector_add(&sel, "x", SEL_IN, ab, 2);
    char *f = selreq_format(&sel.reqs[3]); assert_string_equal(f, "x in (a,b)"); free(f);
    label_selector_clear(&sel);
    kv_clear(&l);
}

static void expect_error(const char *s, const char *fragment)
{
    LabelSelector sel = LABEL_SELECTOR_INIT;
    Error e = { 0 };
    if (label_selector_parse(&sel, s, &e) == 0) fail_msg("accepted \"%s\"", s);
    assert_int_equal(sel.n, 0);                          /* nothing half-added */
    if (!strstr(e.msg, fragment)) fail_msg("\"%s\": message \"%s\" lacks \"%s\"", s, e.msg, fragment);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("a=b,", "position 5: expected a label key or '!', found end of input");
    expect_error("a in (b", "position 8: expected ',' or ')'");
    expect_error("a in b", "position 6: expected '('");
    expect_error("a b", "position 3: expected an operator");
    expect_error("a=b c", "position 5: expected ',' or end of input, found \"c\"");
    expect_error("!a=b", "position 3: expected ',' or end of input");
    expect_error("=b", "position 1: expected a label key");
    expect_error("-bad=1", "invalid label key \"-bad\"");
    expect_error("a=b$", "invalid label value \"b$\"");
    expect_error("a>x", "position 3: expected an integer, found \"x\"");
    expect_error("a<", "expected an integer, found end of input");
    expect_error("Foo.COM/x=1", "invalid label key");     /* prefix must be lowercase DNS */
    expect_error(",", "position 1");
    expect_error("a in (x y)", "position 9");
    /* valid edge forms */
    LabelSelector sel = LABEL_SELECTOR_INIT;
    Error e = { 0 };
    assert_int_equal(label_selector_parse(&sel, "a in ()", &e), 0);
    assert_int_equal(sel.reqs[0].nvalues, 1);
    assert_string_equal(sel.reqs[0].values[0], "");
    label_selector_clear(&sel);
    /* a selector appends to what is there; a failure removes only its own part */
    label_selector_add(&sel, "keep", SEL_EXISTS, NULL, 0);
    assert_int_equal(label_selector_parse(&sel, "x=1,y in (", &e), -1);
    assert_int_equal(sel.n, 1);
    label_selector_clear(&sel);
}

/* kv_from_json_pooled (a node's labels: one pass, repeated keys found by the pool's pointer)
 * gives the list kv_from_json gives (the expectation: same keys and values, same order), its
 * strings the pool's: few and many members, a repeated key (the last value, the first place),
 * keys and values with control bytes or not UTF-8 (cleaned, and two keys that clean to the same
 * text are one), an empty key, a non-string value, a key and a value past their limits.  And
 * kv_json_value gives each key's value as that list has it, without the list (NULL for a key
 * the list has not). */
static void test_kv_from_json_pooled_same(void **state)
{
    (void)state;
    char *long_key = xcalloc(1, 400), *long_val = xcalloc(1, 5000);
    memset(long_key, 'k', 399);
    memset(long_val, 'v', 4999);
    Strbuf many = STRBUF_INIT;
    strbuf_adds(&many, "{");
    for (int i = 0; i < 40; i++) strbuf_addf(&many, "\"nvidia.com/k%d\":\"%d\",", i % 30, i);
    strbuf_addf(&many, "\"a\\u0007b\":\"x\",\"a b\":\"y\",\"\":\"e\",\"n\":7,\"%s\":\"l\",\"lv\":\"%s\",", long_key, long_val);
    strbuf_adds(&many, "\"bad\\u001b\":\"v\\u0000w\",\"u\":\"\xc3(\",\"last\":\"z\"}");
    const char *texts[] = {
        "{}", "{\"a\":\"1\"}", "{\"a\":\"1\",\"b\":\"2\",\"a\":\"3\"}",
        "{\"a\\u0001\":\"1\",\"a \":\"2\",\"c\":\"\\u00e9\"}", "{\"a \":\"1\",\"a\\u0001\":\"2\\u0007\"}", many.buf,
        /* keys around a plain one that are not plain (DEL, a letter above ASCII, a cut UTF-8
         * byte): kv_json_value's plain-key path must find what the cleaning path finds */
        "{\"p\\u00e9\":\"1\",\"p\":\"2\",\"p\\u007f\":\"3\",\"p\xc3\":\"4\",\"p\":\"5\"}",
    };
    for (size_t t = 0; t < sizeof texts / sizeof *texts; t++) {
        cJSON *obj = cJSON_Parse(texts[t]);
        assert_non_null(obj);
        StrPool *pool = strpool_new();
        KVList want = KVLIST_INIT, got = KVLIST_INIT;
        kv_from_json(&want, obj);
        kv_from_json_pooled(&got, obj, pool);
        assert_int_equal(got.n, want.n);
        for (uint32_t i = 0; i < want.n; i++) {
            assert_string_equal(got.items[i].key, want.items[i].key);
            assert_string_equal(got.items[i].value, want.items[i].value);
            assert_true(strpool_owns(pool, got.items[i].key));
            assert_true(strpool_owns(pool, got.items[i].value));
            char *tofree;
            const char *v = kv_json_value(obj, want.items[i].key, &tofree);
            assert_non_null(v);
            assert_string_equal(v, want.items[i].value);
            free(tofree);
        }
        static const char *const absent[] = { "zz", "a\001", "n", "lv" };
        for (size_t k = 0; k < sizeof absent / sizeof *absent; k++) {
            char *tofree;
            if (kv_get(&want, absent[k])) continue;
            assert_null(kv_json_value(obj, absent[k], &tofree));
            assert_null(tofree);
        }
        free(got.items);
        kv_clear(&want);
        strpool_free(pool);
        cJSON_Delete(obj);
    }
    strbuf_clear(&many);
    free(long_key);
    free(long_val);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kv), cmocka_unit_test(test_kv_from_json_many), cmocka_unit_test(test_kv_from_json_pooled_same), cmocka_unit_test(test_parse_structure), cmocka_unit_test(test_match),
        cmocka_unit_test(test_selreq_gt_lt_direct), cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Unit tests: jsonscan — the in-place parser against cJSON on the same texts (accepted,
 * rejected, printed back identically), list pages walked item by item (errors, continue
 * token, skipped members), and JsonSplit fed in pieces of every size. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sources/jsonscan.h"
#include "util/util.h"

/* cJSON and jsonscan_parse_inplace agree on text[0..len): both fail, or both print the same */
static void same_as_cjson(const char *text, size_t len, JsonArena *a)
{
    cJSON *ref = cJSON_ParseWithLength(text, len);
    char *buf = xmalloc(len + 1);
    memcpy(buf, text, len);
    buf[len] = '\0';
    const cJSON *got = jsonscan_parse_inplace(buf, len, a);
    if (!ref != !got) {
        fprintf(stderr, "cJSON %s, jsonscan %s: %.200s\n", ref ? "parses" : "fails", got ? "parses" : "fails", text);
        fail();
    }
    if (ref) {
        char *p1 = cJSON_PrintUnformatted(ref), *p2 = cJSON_PrintUnformatted(got);
        if (strcmp(p1, p2) != 0) {
            fprintf(stderr, "cJSON: %.300s\njsonscan: %.300s\n", p1, p2);
            fail();
        }
        free(p1);
        free(p2);
    }
    cJSON_Delete(ref);
    free(buf);
    json_arena_reset(a);
}

static void test_parse_like_cjson(void **state)
{
    (void)state;
    static const char *const cases[] = {
        "{\"a\":\"b\"}", "{\"a\":\"\\u00e9\\ud83d\\ude00x\"}", "{\"a\":\"\\ud83d\"}", "{\"a\":\"\\ude00\"}",
        "{\"a\":\"\\uZZZZ\"}", "\"\\u0000abc\"", "{\"a\":-0}", "{\"a\":-0.0}", "{\"a\":1e400}",
        "{\"a\":12345678901234567890}", "{\"a\":123456789012345}", "{\"a\":1234567890123456}",
        "{\"a\":1.5e3}", "{\"a\":-}", "{\"a\":1.2.3}", "{\"a\":01}", "{\"a\":+1}", "[1,2,]", "[1 2]",
        "{\"a\" 1}", "{\"a\":1,}", "{,}", "[]", "{}", " \x01\x1f{\"a\":[true,false,null]} trailing",
        "\xef\xbb\xbf{\"a\":1}", "\xef\xbb\xbf" "1", "nul", "tru", "fals", "\"abc", "\"abc\\",
        "\"a\\\"b\"", "\"a\\\\\"", "\"a\\x\"", "\"\\/\\b\\f\\n\\r\\t\"", "{\"a\":{\"b\":{\"c\":[{\"d\":\"e\"}]}}}",
        "1", "-", "2147483648", "-2147483649", "1e-400", "\"\t raw\"", "{\"a\":\"x\xff\xfe\"}",
        "{\"a\":1}{\"b\":2}", "  ", "{\"\":\"\"}", "{\"a\":1,\"a\":2}", "\"\\u00\"", "\"\\ud800\\u0041\"",
        "\"\\ud800\\udc00\"", "0.1", "1E+2", "1e", "-1e-2", "12abc", "[12abc]", "{\"a\":[1,{\"b\":null}],\"c\":\"\\\"\"}",
    };
    JsonArena *a = json_arena_new();
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) same_as_cjson(cases[i], strlen(cases[i]), a);
    /* the nesting limit: 1000 levels parse, 1001 do not */
    for (int depth = 999; depth <= 1001; depth++) {
        Strbuf sb = STRBUF_INIT;
        for (int i = 0; i < depth; i++) strbuf_addch(&sb, '[');
        for (int i = 0; i < depth; i++) strbuf_addch(&sb, ']');
        same_as_cjson(sb.buf, sb.len, a);
        strbuf_clear(&sb);
    }
    /* random texts over JSON's alphabet */
    static const char alphabet[] = "{}[]\",:01-eE.tfrusnal \\u\"abc";
    unsigned seed = 7;
    for (int i = 0; i < 20000; i++) {
        char t[48];
        seed = seed * 1103515245u + 12345u;
        size_t n = 1 + (seed >> 16) % 40;
        for (size_t k = 0; k < n; k++) {
            seed = seed * 1103515245u + 12345u;
            t[k] = alphabet[(seed >> 16) % (sizeof alphabet - 1)];
        }
        same_as_cjson(t, n, a);
    }
    json_arena_free(a);
}

typedef struct { Strvec names; Strvec metas; int stop_at; } Got;

static int got_item(void *ctx, const cJSON *item)
{
    Got *g = ctx;
    char *s = cJSON_PrintUnformatted(item);
    strvec_push(&g->names, s);
    free(s);
    return g->stop_at && (int)g->names.n == g->stop_at ? 7 : 0;
}

static void got_meta(void *ctx, const char *cont)
{
    Got *g = ctx;
    char buf[80];
    snprintf(buf, sizeof buf, "meta:%s@%zu", cont ? cont : "(none)", g->names.n);
    strvec_push(&g->metas, buf);
}

static int walk(const char *text, const char *const *skip, Got *g, JsonListInfo *info)
{
    char *buf = xstrdup(text);
    JsonArena *a = json_arena_new();
    memset(&g->names, 0, sizeof g->names);
    memset(&g->metas, 0, sizeof g->metas);
    int rc = jsonscan_list_walk(buf, strlen(buf), a, skip, got_item, got_meta, g, info);
    json_arena_free(a);
    free(buf);
    return rc;
}

static void got_free(Got *g, JsonListInfo *info)
{
    strvec_clear(&g->names);
    strvec_clear(&g->metas);
    json_list_info_clear(info);
}

static void test_list_walk(void **state)
{
    (void)state;
    Got g = { STRVEC_INIT, STRVEC_INIT, 0 };
    JsonListInfo info;
    /* metadata first (as kube-apiserver): the hook runs before the items */
    assert_int_equal(walk("{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"5\","
                          "\"continue\":\"tok\"},\"items\":[{\"a\":1},{\"b\":[2,3]}]}", NULL, &g, &info), 0);
    assert_false(info.syntax_error);
    assert_string_equal(info.kind, "PodList");
    assert_string_equal(info.cont, "tok");
    assert_int_equal(g.names.n, 2);
    assert_string_equal(g.names.v[1], "{\"b\":[2,3]}");
    assert_string_equal(g.metas.v[0], "meta:tok@0");
    got_free(&g, &info);
    /* metadata last; an empty continue is none; the first "continue" counts */
    walk("{\"items\":[{}],\"metadata\":{\"continue\":\"\",\"continue\":\"x\"}}", NULL, &g, &info);
    assert_null(info.cont);
    assert_string_equal(g.metas.v[0], "meta:(none)@1");
    got_free(&g, &info);
    /* no metadata at all: the hook still runs, once */
    walk("{\"kind\":\"NodeList\",\"items\":[]}", NULL, &g, &info);
    assert_int_equal(g.metas.n, 1);
    assert_true(info.has_items);
    got_free(&g, &info);
    /* errors */
    walk("{\"kind\":\"NodeList\",\"items\":[{\"metadata\":", NULL, &g, &info);
    assert_true(info.syntax_error);
    got_free(&g, &info);
    walk("<html>", NULL, &g, &info);
    assert_true(info.syntax_error);
    got_free(&g, &info);
    walk("[1,2]", NULL, &g, &info);
    assert_true(info.syntax_error);                  /* the root must be an object */
    got_free(&g, &info);
    walk("{\"items\":{\"a\":1}}", NULL, &g, &info);
    assert_true(info.items_not_array);
    got_free(&g, &info);
    walk("{\"items\":null}", NULL, &g, &info);
    assert_true(info.items_null);
    assert_false(info.items_not_array);
    got_free(&g, &info);
    walk("{\"kind\":\"Status\"}", NULL, &g, &info);
    assert_false(info.has_items);
    assert_string_equal(info.kind, "Status");
    got_free(&g, &info);
    /* a non-object item: earlier items were handed out, later ones are not */
    walk("{\"items\":[{\"a\":1},2,{\"b\":1}]}", NULL, &g, &info);
    assert_int_equal(info.bad_item, 1);
    assert_int_equal(g.names.n, 1);
    got_free(&g, &info);
    /* ... but a syntax error after it is still found */
    walk("{\"items\":[{\"a\":1},2,{\"b\":}]}", NULL, &g, &info);
    assert_true(info.syntax_error);
    got_free(&g, &info);
    /* the callback stops the walk with its value */
    g.stop_at = 1;
    assert_int_equal(walk("{\"items\":[{\"a\":1},{\"b\":1}]}", NULL, &g, &info), 7);
    assert_int_equal(g.names.n, 1);
    g.stop_at = 0;
    got_free(&g, &info);
    /* skipped members are absent, whatever they hold (unchecked), other members intact */
    static const char *const skip[] = { "metadata.managedFields", "status", "spec.volumes", NULL };
    walk("{\"items\":[{\"metadata\":{\"name\":\"p\",\"managedFields\":[{\"x\":\"}]\\\"\"},[]],\"uid\":\"u\"},"
         "\"spec\":{\"volumes\":[{]],\"nodeName\":\"n\"},\"status\":{\"phase\":\"Running\"}}]}", skip, &g, &info);
    assert_false(info.syntax_error);
    assert_int_equal(g.names.n, 1);
    assert_string_equal(g.names.v[0], "{\"metadata\":{\"name\":\"p\",\"uid\":\"u\"},\"spec\":{\"nodeName\":\"n\"}}");
    got_free(&g, &info);
    /* skipped strings end at their closing quote, past escaped quotes and backslashes, short
     * or longer than the scan's sixteen-byte step (an escaped backslash just before a quote) */
    walk("{\"items\":[{\"status\":{\"m\":\"x\\\\\",\"n\":\"0123456789abcdef0123\\\"}]\\\\\\\"}\","
         "\"o\":[\"\\\\\\\\\",{\"p\":\"0123456789abcdef\\\\\"}]},\"spec\":{\"nodeName\":\"n\"}}]}", skip, &g, &info);
    assert_false(info.syntax_error);
    assert_int_equal(g.names.n, 1);
    assert_string_equal(g.names.v[0], "{\"spec\":{\"nodeName\":\"n\"}}");
    got_free(&g, &info);
    /* a skipped member that never ends is a syntax error, not a read past the end; nor does
     * a string whose last byte escapes the end */
    walk("{\"items\":[{\"status\":{\"a\":\"b", skip, &g, &info);
    assert_true(info.syntax_error);
    got_free(&g, &info);
    walk("{\"items\":[{\"status\":{\"a\":\"b\\", skip, &g, &info);
    assert_true(info.syntax_error);
    got_free(&g, &info);
    /* "key.sub:m1,m2": sub kept with only m1 and m2 (whatever they hold), beside a dropped
     * sibling; a name that only starts like a kept one ("m1x", "m") is dropped */
    static const char *const keep[] = { "metadata.managedFields", "metadata.annotations:m1,a/b.c", NULL };
    walk("{\"items\":[{\"metadata\":{\"name\":\"p\",\"annotations\":{\"m1x\":\"1\",\"a/b.c\":\"v\",\"m\":{\"q\":[1]},"
         "\"m1\":{\"deep\":[1,{\"x\":null}]}},\"managedFields\":[1]}},{\"metadata\":{\"annotations\":{}}},"
         "{\"metadata\":{\"annotations\":\"odd\"}}]}", keep, &g, &info);
    assert_false(info.syntax_error);
    assert_int_equal(g.names.n, 3);
    assert_string_equal(g.names.v[0], "{\"metadata\":{\"name\":\"p\",\"annotations\":{\"a/b.c\":\"v\",\"m1\":{\"deep\":[1,{\"x\":null}]}}}}");
    assert_string_equal(g.names.v[1], "{\"metadata\":{\"annotations\":{}}}");
    assert_string_equal(g.names.v[2], "{\"metadata\":{\"annotations\":\"odd\"}}");   /* not an object: as is */
    got_free(&g, &info);
    /* ... and a cut one is a syntax error */
    walk("{\"items\":[{\"metadata\":{\"annotations\":{\"m1\":\"v\",\"zz\":", keep, &g, &info);
    assert_true(info.syntax_error);
    got_free(&g, &info);
    /* "key.sub:m1,m2" on an array: each object in it keeps only m1 and m2; its other elements
     * (a string, a number, an array) are kept whole, and an empty one stays empty */
    static const char *const each[] = { "spec.containers:name,resources", "spec.ephemeralContainers", NULL };
    walk("{\"items\":[{\"spec\":{\"containers\":[{\"env\":[{\"name\":\"A\",\"value\":\"}]\"}],\"name\":\"c0\","
         "\"resources\":{\"requests\":{\"nvidia.com/gpu\":\"1\"}},\"image\":\"x\"},\"s\",7,[{\"env\":1}],{}],"
         "\"ephemeralContainers\":[{\"name\":\"d\"}],\"nodeName\":\"n\"}},"
         "{\"spec\":{\"containers\":[]}},{\"spec\":{\"containers\":\"odd\"}}]}", each, &g, &info);
    assert_false(info.syntax_error);
    assert_int_equal(g.names.n, 3);
    assert_string_equal(g.names.v[0], "{\"spec\":{\"containers\":[{\"name\":\"c0\",\"resources\":{\"requests\":"
                                      "{\"nvidia.com/gpu\":\"1\"}}},\"s\",7,[{\"env\":1}],{}],\"nodeName\":\"n\"}}");
    assert_string_equal(g.names.v[1], "{\"spec\":{\"containers\":[]}}");
    assert_string_equal(g.names.v[2], "{\"spec\":{\"containers\":\"odd\"}}");
    got_free(&g, &info);
    walk("{\"items\":[{\"spec\":{\"containers\":[{\"name\":\"c0\",\"env\":[", each, &g, &info);
    assert_true(info.syntax_error);
    got_free(&g, &info);
}

/* ---- JsonSplit ---- */

typedef struct { Strvec got; bool allow; int stop_at; } SplitCtx;

static bool split_ready(void *ctx, const JsonSplit *s)
{
    SplitCtx *c = ctx;
    const char *st = json_split_watched(s, 0), *rt = json_split_watched(s, 1);
    return c->allow && st && strcmp(st, "success") == 0 && rt && strcmp(rt, "vector") == 0;
}

static int split_elem(void *ctx, const cJSON *e)
{
    SplitCtx *c = ctx;
    char *s = cJSON_PrintUnformatted(e);
    strvec_push(&c->got, s);
    free(s);
    return c->stop_at && (int)c->got.n == c->stop_at;
}

/* feeds text in pieces of `piece` bytes; returns the rest as printed by cJSON (or "BAD") */
static char *split_run(const char *text, size_t piece, SplitCtx *c)
{
    static const char *const path[] = { "data", "result", NULL };
    static const char *const watch[] = { "status", "data.resultType", NULL };
    JsonSplit *s = json_split_new(path, watch, split_ready, split_elem, c);
    size_t len = strlen(text);
    for (size_t i = 0; i < len; i += piece) json_split_feed(s, text + i, len - i < piece ? len - i : piece);
    size_t rl;
    char *rest = json_split_rest(s, &rl);
    char *out;
    if (json_split_bad(s)) {
        out = xstrdup("BAD");
    } else {
        cJSON *r = cJSON_ParseWithLength(rest, rl);
        out = r ? cJSON_PrintUnformatted(r) : xstrdup("BAD");
        cJSON_Delete(r);
    }
    json_split_free(s);
    return out;
}

/* watched values are kept up to 63 bytes: one of 63 is captured, one of 64 is not, whatever
 * the pieces (json_split_feed reads a string's bytes in runs up to the next quote or escape);
 * a key longer than that, or with an escape, is never a path key */
static void test_split_long_strings(void **state)
{
    (void)state;
    static const char *const path[] = { "data", "result", NULL };
    static const char *const watch[] = { "status", "data.resultType", NULL };
    char a63[64], b64[65];
    memset(a63, 'a', 63); a63[63] = '\0';
    memset(b64, 'b', 64); b64[64] = '\0';
    char *doc = xasprintf("{\"%s\":1,\"da\\u0074a\":2,\"status\":\"%s\",\"data\":{\"resultType\":\"%s\","
                          "\"result\":[]}}", b64, a63, b64);
    size_t len = strlen(doc);
    for (size_t piece = 1; piece <= len; piece++) {
        JsonSplit *s = json_split_new(path, watch, NULL, NULL, NULL);
        for (size_t i = 0; i < len; i += piece) json_split_feed(s, doc + i, len - i < piece ? len - i : piece);
        assert_false(json_split_bad(s));
        assert_non_null(json_split_watched(s, 0));
        assert_string_equal(json_split_watched(s, 0), a63);
        assert_null(json_split_watched(s, 1));
        json_split_free(s);
    }
    free(doc);
    /* an escaped quote past the first eight bytes of a string: the raw text is kept */
    const char *esc = "{\"status\":\"aaaaaaaaaaaaaaaaaaaa\\\"aaaaa\",\"data\":{\"resultType\":\"v\\\\\",\"result\":[]}}";
    len = strlen(esc);
    for (size_t piece = 1; piece <= len; piece++) {
        JsonSplit *s = json_split_new(path, watch, NULL, NULL, NULL);
        for (size_t i = 0; i < len; i += piece) json_split_feed(s, esc + i, len - i < piece ? len - i : piece);
        assert_false(json_split_bad(s));
        assert_non_null(json_split_watched(s, 0));
        assert_string_equal(json_split_watched(s, 0), "aaaaaaaaaaaaaaaaaaaa\\\"aaaaa");
        assert_non_null(json_split_watched(s, 1));
        assert_string_equal(json_split_watched(s, 1), "v\\\\");
        json_split_free(s);
    }
}

static void test_split(void **state)
{
    (void)state;
    const char *doc = "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
                      "{\"metric\":{\"a\":\"x]\\\"\"},\"value\":[1,\"2\"]} , {\"metric\":{},\"value\":[3,\"4\"]},7,\"s\",[1,[2]]"
                      "]},\"warnings\":[\"w\"]} trailing";
    for (size_t piece = 1; piece <= strlen(doc); piece++) {
        SplitCtx c = { STRVEC_INIT, true, 0 };
        char *rest = split_run(doc, piece, &c);
        assert_string_equal(rest, "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]},"
                                  "\"warnings\":[\"w\"]}");
        assert_int_equal(c.got.n, 5);
        assert_string_equal(c.got.v[0], "{\"metric\":{\"a\":\"x]\\\"\"},\"value\":[1,\"2\"]}");
        assert_string_equal(c.got.v[2], "7");
        assert_string_equal(c.got.v[3], "\"s\"");
        assert_string_equal(c.got.v[4], "[1,[2]]");
        free(rest);
        strvec_clear(&c.got);
    }
    /* not ready (another status, or the caller says no): everything stays in the document */
    SplitCtx no = { STRVEC_INIT, false, 0 };
    char *rest = split_run(doc, 3, &no);
    assert_int_equal(no.got.n, 0);
    cJSON *ref = cJSON_Parse(doc);
    char *want = cJSON_PrintUnformatted(ref);
    assert_string_equal(rest, want);
    free(want);
    cJSON_Delete(ref);
    free(rest);
    /* resultType after result: not known in time, kept */
    SplitCtx late = { STRVEC_INIT, true, 0 };
    rest = split_run("{\"status\":\"success\",\"data\":{\"result\":[1,2],\"resultType\":\"vector\"}}", 2, &late);
    assert_int_equal(late.got.n, 0);
    assert_string_equal(rest, "{\"status\":\"success\",\"data\":{\"result\":[1,2],\"resultType\":\"vector\"}}");
    free(rest);
    /* only the first "data" counts (as cJSON_GetObjectItem) */
    SplitCtx first = { STRVEC_INIT, true, 0 };
    rest = split_run("{\"status\":\"success\",\"data\":5,\"data\":{\"resultType\":\"vector\",\"result\":[1]}}", 4, &first);
    assert_int_equal(first.got.n, 0);
    free(rest);
    /* bad separators and elements */
    static const char *const bad[] = {
        "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[1,]}}",
        "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[1 2]}}",
        "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[,1]}}",
        "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[12abc]}}",
        "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"a\":}]}}",
        "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"a\":1}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        SplitCtx c = { STRVEC_INIT, true, 0 };
        rest = split_run(bad[i], 5, &c);
        assert_string_equal(rest, "BAD");
        free(rest);
        strvec_clear(&c.got);
    }
    /* the callback stops: later elements are dropped, not kept */
    SplitCtx stop = { STRVEC_INIT, true, 1 };
    rest = split_run("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[1,2,3]}}", 1, &stop);
    assert_int_equal(stop.got.n, 1);
    assert_string_equal(rest, "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}");
    free(rest);
    strvec_clear(&stop.got);
}

/* the string scan's word-at-a-time steps (SSE2's sixteen bytes, the portable eight) stop where
 * a byte loop stops: at the first '"' or '\\' (or control byte, with ctl) in the range, or at
 * its end, never reading past it.  Every stop position 0..47 in ranges of 0..48 bytes, the
 * range starting at each offset 0..15 of an aligned block, among bytes of every other value
 * (high-bit bytes included: the word test's borrow must not hide a stop after them). */
static char *stop_ref(char *q, const char *end, bool ctl)
{
    while (q < end && *q != '"' && *q != '\\' && !(ctl && (unsigned char)*q < 0x20)) q++;
    return q;
}

static void test_string_stop(void **state)
{
    (void)state;
    _Alignas(16) char block[128];
    const char stops[] = { '"', '\\', '\n', 0x01, 0x1f };
    unsigned seed = 12345;
    for (size_t k = 0; k < sizeof stops; k++)
        for (size_t off = 0; off < 16; off++)
            for (size_t len = 0; len <= 48; len++)
                for (size_t at = 0; at <= len; at++) {
                    for (size_t i = 0; i < sizeof block; i++) {
                        seed = seed * 1103515245u + 12345u;
                        unsigned char c = (unsigned char)(seed >> 16);
                        block[i] = (char)(c < 0x20 || c == '"' || c == '\\' ? c | 0xa0 : c);
                    }
                    char *q = block + off, *end = q + len;
                    if (at < len) q[at] = stops[k];
                    end[1] = stops[k];              /* a stop just past the range is not seen */
                    bool ctl_stop = k >= 2;
                    for (int ctl = 0; ctl < 2; ctl++) {
                        char *want = stop_ref(q, end, ctl);
                        assert_ptr_equal(want, at < len && (ctl || !ctl_stop) ? q + at : end);
                        assert_ptr_equal(jsonscan_string_stop(q, end, ctl), want);
                        assert_ptr_equal(jsonscan_string_stop_word(q, end, ctl), want);
                    }
                }
}

/* jsonscan_skip_container (64 bytes a step) ends where the byte walk ends, on any text, with
 * each walk this processor has (SSE2, AVX2: both here, and the test says if one is missing):
 * random bytes drawn mostly from the structural ones (quotes, backslash runs, brackets of both
 * kinds, across block boundaries), each in a heap buffer of its exact length (ASan: nothing
 * read past end); and on generated JSON it ends just past the container's closing bracket. */
static unsigned skip_seed = 777;
static unsigned skip_rand(unsigned n)
{
    skip_seed = skip_seed * 1103515245u + 12345u;
    return (skip_seed >> 8) % n;
}

static void gen_json(Strbuf *sb, int depth)
{
    bool obj = skip_rand(2);
    strbuf_addch(sb, obj ? '{' : '[');
    unsigned n = skip_rand(depth > 4 ? 2 : 6);
    for (unsigned i = 0; i < n; i++) {
        if (i) strbuf_addch(sb, ',');
        if (obj) strbuf_adds(sb, "\"k:{\\\"uid\\\":\\\"a]}\\\\\\\\\\\"}\":");
        unsigned kind = skip_rand(5);
        if (kind == 0 && depth < 8) gen_json(sb, depth + 1);
        else if (kind == 1) {
            strbuf_addch(sb, '"');
            unsigned len = skip_rand(150);
            for (unsigned j = 0; j < len; j++) {
                static const char *const pieces[] = { "a", "}", "]", "{", "[", "\\\"", "\\\\", "x", " ", "\\n", "\\u00e9" };
                strbuf_adds(sb, pieces[skip_rand(11)]);
            }
            strbuf_addch(sb, '"');
        } else if (kind == 2) strbuf_adds(sb, "12345");
        else if (kind == 3) strbuf_adds(sb, " true ");
        else strbuf_adds(sb, "{}");
    }
    strbuf_addch(sb, obj ? '}' : ']');
}

static const JsonSkipWalk skip_walks[] = { JSONSKIP_SSE2, JSONSKIP_AVX2 };

static void test_skip_container(void **state)
{
    (void)state;
    static const char alphabet[] = "{}[]\"\"\"\\\\\\ab:, \n";
    for (size_t w = 0; w < sizeof skip_walks / sizeof *skip_walks; w++)
        if (!jsonscan_skip_walk_available(skip_walks[w]))
            print_message("test_skip_container: this processor has no walk %d: not tested\n", (int)skip_walks[w]);
    for (int round = 0; round < 20000; round++) {
        size_t len = 1 + skip_rand(round < 10000 ? 200 : 700);
        char *buf = xmalloc(len);
        buf[0] = skip_rand(2) ? '{' : '[';
        for (size_t i = 1; i < len; i++) buf[i] = alphabet[skip_rand(sizeof alphabet - 1)];
        const char *want = jsonscan_skip_container_bytes(buf, buf + len);
        assert_ptr_equal(jsonscan_skip_container(buf, buf + len), want);
        for (size_t w = 0; w < sizeof skip_walks / sizeof *skip_walks; w++)
            assert_ptr_equal(jsonscan_skip_container_walk(buf, buf + len, skip_walks[w]), want);
        free(buf);
    }
    for (int round = 0; round < 3000; round++) {
        Strbuf sb = STRBUF_INIT;
        gen_json(&sb, 0);
        size_t pad = skip_rand(70);                      /* the text after it, and where blocks fall */
        for (size_t i = 0; i < pad; i++) strbuf_adds(&sb, skip_rand(2) ? "]" : "\"");
        size_t len = sb.len, body = len - pad;
        char *buf = xmalloc(len);
        memcpy(buf, sb.buf, len);
        assert_ptr_equal(jsonscan_skip_container(buf, buf + len), buf + body);
        assert_ptr_equal(jsonscan_skip_container_bytes(buf, buf + len), buf + body);
        for (size_t w = 0; w < sizeof skip_walks / sizeof *skip_walks; w++)
            assert_ptr_equal(jsonscan_skip_container_walk(buf, buf + len, skip_walks[w]), buf + body);
        /* cut anywhere inside: never found */
        size_t cut = skip_rand((unsigned)body);
        assert_null(jsonscan_skip_container(buf, buf + cut));
        for (size_t w = 0; w < sizeof skip_walks / sizeof *skip_walks; w++)
            assert_null(jsonscan_skip_container_walk(buf, buf + cut, skip_walks[w]));
        free(buf);
        strbuf_clear(&sb);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_like_cjson), cmocka_unit_test(test_list_walk), cmocka_unit_test(test_split), cmocka_unit_test(test_split_long_strings),
        cmocka_unit_test(test_string_stop), cmocka_unit_test(test_skip_container),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

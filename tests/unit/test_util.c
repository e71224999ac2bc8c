/* Unit tests: util (durations, RFC 3339 times, ages), strmap, error context. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/error.h"
#include "util/strarena.h"
#include "util/strmap.h"
#include "util/util.h"

static void test_duration(void **state)
{
    (void)state;
    double s;
    assert_true(util_duration_parse("30s", &s)); assert_true(s == 30);
    assert_true(util_duration_parse("1h30m", &s)); assert_true(s == 5400);
    assert_true(util_duration_parse("7d", &s)); assert_true(s == 7 * 86400);
    assert_true(util_duration_parse("45", &s)); assert_true(s == 45);
    assert_true(util_duration_parse("1.5m", &s)); assert_true(s == 90);
    assert_true(util_duration_parse("250ms", &s)); assert_true(s > 0.249 && s < 0.251);
    assert_false(util_duration_parse("", &s));
    assert_false(util_duration_parse("abc", &s));
    assert_false(util_duration_parse("5x", &s));
    assert_false(util_duration_parse("-5s", &s));
}

static void test_rfc3339(void **state)
{
    (void)state;
    int64_t t;
    assert_true(util_time_parse_rfc3339("1970-01-01T00:00:00Z", &t)); assert_int_equal(t, 0);
    assert_true(util_time_parse_rfc3339("2024-05-14T17:30:41Z", &t)); assert_int_equal(t, 1715707841);
    assert_true(util_time_parse_rfc3339("2024-05-14T17:30:41.123456Z", &t)); assert_int_equal(t, 1715707841);
    assert_true(util_time_parse_rfc3339("2024-05-14T19:30:41+02:00", &t)); assert_int_equal(t, 1715707841);
    assert_false(util_time_parse_rfc3339("2024-05-14 17:30:41", &t));
    assert_false(util_time_parse_rfc3339("2024-13-14T17:30:41Z", &t));
    assert_false(util_time_parse_rfc3339("2024-05-14T17:30:41Zjunk", &t));
}

static void test_age(void **state)
{
    (void)state;
    char b[16];
    util_format_age(59, b, sizeof b); assert_string_equal(b, "59s");
    util_format_age(600, b, sizeof b); assert_string_equal(b, "10m");
    util_format_age(5 * 3600, b, sizeof b); assert_string_equal(b, "5h");
    util_format_age(3 * 86400, b, sizeof b); assert_string_equal(b, "3d");
}

/* deleting keeps every other key findable (linear probing: later entries of a run move back),
 * across many inserts and deletes in a random order, checked against a plain array */
static void test_strmap_del(void **state)
{
    (void)state;
    enum { N = 2000 };
    static bool present[N];
    memset(present, 0, sizeof present);
    StrMap *m = strmap_new();
    unsigned r = 7;
    char key[32];
    for (int step = 0; step < 20000; step++) {
        r = r * 1103515245u + 12345u;
        int k = (int)((r >> 8) % N);
        snprintf(key, sizeof key, "ns-%d/pod-%d", k % 7, k);
        if (present[k] && (r & 1)) {
            assert_ptr_equal(strmap_del(m, key), (void *)(intptr_t)(k + 1));
            present[k] = false;
        } else {
            strmap_put(m, key, (void *)(intptr_t)(k + 1));
            present[k] = true;
        }
    }
    size_t n = 0;
    for (int k = 0; k < N; k++) {
        snprintf(key, sizeof key, "ns-%d/pod-%d", k % 7, k);
        assert_ptr_equal(strmap_get(m, key), present[k] ? (void *)(intptr_t)(k + 1) : NULL);
        n += present[k];
    }
    assert_int_equal(strmap_size(m), n);
    assert_null(strmap_del(m, "absent"));
    strmap_free(m, NULL);
}

static void test_strmap(void **state)
{
    (void)state;
    StrMap *m = strmap_new();
    char keys[1000][24];
    for (int i = 0; i < 1000; i++) {
        snprintf(keys[i], sizeof keys[i], "node-%d", i);
        strmap_put(m, keys[i], (void *)(intptr_t)(i + 1));
    }
    assert_int_equal(strmap_size(m), 1000);
    for (int i = 0; i < 1000; i++) assert_int_equal((intptr_t)strmap_get(m, keys[i]), i + 1);
    assert_null(strmap_get(m, "node-1000"));
    strmap_put(m, "node-5", (void *)(intptr_t)77);
    assert_int_equal((intptr_t)strmap_get(m, "node-5"), 77);
    assert_int_equal(strmap_size(m), 1000);
    size_t idx = 0, n = 0; const char *k; void *v;
    while (strmap_next(m, &idx, &k, &v)) n++;
    assert_int_equal(n, 1000);
    strmap_free(m, NULL);
}

static void test_error_prefix(void **state)
{
    (void)state;
    Error e = { 0 };
    error_set(&e, "field %s missing", "server");
    error_prefix(&e, "kubeconfig %s: cluster \"%s\": ", "/x/config", "prod");
    assert_string_equal(e.msg, "kubeconfig /x/config: cluster \"prod\": field server missing");
    assert_true(e.set);
}

/* strarena: one copy per distinct string; ownership tells pooled copies from own ones */
static void test_strarena(void **state)
{
    (void)state;
    StrArena *a = strarena_new();
    char buf[32];
    char *first[200];
    for (int i = 0; i < 200; i++) {                 /* past the first lookup table (rehash) */
        snprintf(buf, sizeof buf, "pod-%d", i);
        first[i] = strarena_intern(a, buf);
        assert_string_equal(first[i], buf);
        assert_ptr_not_equal(first[i], buf);
    }
    for (int i = 0; i < 200; i++) {
        snprintf(buf, sizeof buf, "pod-%d", i);
        assert_ptr_equal(strarena_intern(a, buf), first[i]);
        assert_true(strarena_owns(a, first[i]));
    }
    assert_null(strarena_intern(a, NULL));
    char *own = xstrdup("pod-1");
    assert_false(strarena_owns(a, own));
    assert_false(strarena_owns(NULL, first[0]));
    strarena_release(a, own);                       /* freed (ASan: no leak) */
    strarena_release(a, first[3]);                  /* the arena's: left alone */
    assert_string_equal(first[3], "pod-3");
    /* longer than a quarter chunk: a copy of its own */
    size_t n = 100000;
    char *big = xmalloc(n + 1);
    memset(big, 'x', n); big[n] = 0;
    char *bc = strarena_intern(a, big);
    assert_string_equal(bc, big);
    assert_false(strarena_owns(a, bc));
    strarena_release(a, bc);
    free(big);
    /* sealed: the strings stay; a new table may copy again, the old copies stay valid */
    strarena_seal(a);
    assert_string_equal(first[199], "pod-199");
    char *again = strarena_intern(a, "pod-7");
    assert_string_equal(again, "pod-7");
    assert_true(strarena_owns(a, again));
    assert_ptr_equal(strarena_intern(a, "pod-7"), again);
    strarena_free(a);
    strarena_free(NULL);
}

/* str_json_plain stops at the first byte JSON escapes (control bytes, the NUL among them, '"'
 * and '\\') and at no other, at every offset of its four-byte step: each byte value placed at
 * each position of strings of 1 to 11 bytes, against the answer of a byte-at-a-time loop */
static void test_json_plain(void **state)
{
    (void)state;
    char s[16];
    for (int len = 1; len <= 11; len++)
        for (int at = 0; at < len; at++)
            for (int b = 1; b < 256; b++) {
                memset(s, 'a', (size_t)len);
                s[len] = '\0';
                s[at] = (char)b;
                size_t want = 0;
                while ((unsigned char)s[want] >= 0x20 && s[want] != '"' && s[want] != '\\') want++;
                if (str_json_plain(s) != want) fail_msg("byte 0x%02x at %d of %d: %zu, want %zu", b, at, len,
                                                        str_json_plain(s), want);
            }
    assert_int_equal(str_json_plain(""), 0);
    assert_int_equal(str_json_plain("caf\xc3\xa9 \"x\""), 6);   /* UTF-8 is plain */
}

/* strbuf_addf formats into the buffer's room and grows when the text does not fit, and
 * xasprintf takes one pass below 256 bytes and two above: every length from 0 to 600 bytes,
 * appended after every prefix length around the first growth (64), gives what snprintf gives */
static void test_strbuf_addf(void **state)
{
    (void)state;
    char pad[700], want[1400];
    memset(pad, 'x', sizeof pad - 1);
    pad[sizeof pad - 1] = '\0';
    for (int prefix = 0; prefix < 140; prefix += 7)
        for (int len = 0; len <= 600; len += (len < 300 ? 1 : 13)) {
            Strbuf sb = STRBUF_INIT;
            strbuf_add(&sb, pad, (size_t)prefix);
            strbuf_addf(&sb, "<%.*s|%d>", len, pad, len);
            snprintf(want, sizeof want, "%.*s<%.*s|%d>", prefix, pad, len, pad, len);
            assert_string_equal(strbuf_str(&sb), want);
            assert_int_equal(sb.len, strlen(want));
            strbuf_clear(&sb);
            char *a = xasprintf("%.*s/%d", len, pad, len);
            snprintf(want, sizeof want, "%.*s/%d", len, pad, len);
            assert_string_equal(a, want);
            free(a);
        }
}

/* strbuf_addi writes what "%lld" writes, at the edges too */
static void test_strbuf_addi(void **state)
{
    (void)state;
    const long long v[] = { 0, 1, -1, 9, 10, -10, 99, 100, 123456789, -987654321, 2147483647LL, -2147483648LL,
                            4294967296LL, LLONG_MAX, LLONG_MIN, LLONG_MIN + 1 };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        Strbuf sb = STRBUF_INIT;
        strbuf_adds(&sb, "x=");
        strbuf_addi(&sb, v[i]);
        char want[64];
        snprintf(want, sizeof want, "x=%lld", v[i]);
        assert_string_equal(strbuf_str(&sb), want);
        strbuf_clear(&sb);
    }
}

/* util_popcount64 (jsonscan_skip's bracket counts, prometheus_series' held seconds) against a
 * bit-by-bit count: edges and a pseudo-random stream */
static void test_popcount64(void **state)
{
    (void)state;
    assert_int_equal(util_popcount64(0), 0);
    assert_int_equal(util_popcount64(~(uint64_t)0), 64);
    assert_int_equal(util_popcount64((uint64_t)1 << 63), 1);
    assert_int_equal(util_popcount64(0x8000000000000001ULL), 2);
    uint64_t x = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < 100000; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        uint64_t v = i % 3 == 0 ? x & (x >> 1) : x;       /* sparse ones too */
        int want = 0;
        for (int b = 0; b < 64; b++) want += (int)((v >> b) & 1);
        assert_int_equal(util_popcount64(v), want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_duration), cmocka_unit_test(test_rfc3339), cmocka_unit_test(test_age),
        cmocka_unit_test(test_strmap), cmocka_unit_test(test_strmap_del), cmocka_unit_test(test_strarena),
        cmocka_unit_test(test_error_prefix), cmocka_unit_test(test_json_plain), cmocka_unit_test(test_strbuf_addf), cmocka_unit_test(test_strbuf_addi), cmocka_unit_test(test_popcount64),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

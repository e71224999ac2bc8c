/* Unit tests: util/strpool — one copy per distinct string across many chunks (the table holds
 * chunk/offset references), long strings in blocks of their own, sanitised copies, byte blocks
 * aligned and shared. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/strpool.h"
#include "util/util.h"

static void test_strings(void **state)
{
    (void)state;
    StrPool *p = strpool_new();
    enum { N = 200000 };                   /* ~40 chunks of 64 KiB */
    const char **got = xcalloc(N, sizeof *got);
    char buf[64];
    for (int i = 0; i < N; i++) {
        snprintf(buf, sizeof buf, "pod-%d.example-namespace", i);
        got[i] = strpool_intern(p, buf);
        assert_string_equal(got[i], buf);
    }
    assert_int_equal(strpool_count(p), N);
    for (int i = N - 1; i >= 0; i -= 7) {  /* the same copy, whichever chunk it lies in */
        snprintf(buf, sizeof buf, "pod-%d.example-namespace", i);
        assert_ptr_equal(strpool_intern(p, buf), got[i]);
    }
    char *big = xcalloc(1, 100001);        /* longer than a quarter chunk: a block of its own */
    memset(big, 'b', 100000);
    const char *b1 = strpool_intern(p, big);
    assert_int_equal(strlen(b1), 100000);
    assert_ptr_equal(strpool_intern(p, big), b1);
    assert_ptr_equal(strpool_intern(p, "pod-5.example-namespace"), got[5]);
    assert_null(strpool_intern(p, NULL));
    assert_int_equal(strpool_count(p), N + 1);
    assert_true(strpool_bytes(p) > (size_t)N * 20);
    free(big);
    free(got);
    strpool_free(p);
}

/* strpool_add: a copy each time, no lookup (an object's own name), counted, owned, and never
 * what an intern of the same text returns */
static void test_add(void **state)
{
    (void)state;
    StrPool *p = strpool_new();
    const char *a = strpool_add(p, "train-0"), *b = strpool_add(p, "train-0");
    assert_string_equal(a, "train-0");
    assert_string_equal(b, "train-0");
    assert_ptr_not_equal(a, b);
    assert_true(strpool_owns(p, a) && strpool_owns(p, b));
    const char *i = strpool_intern(p, "train-0");
    assert_ptr_not_equal(i, a);
    assert_ptr_equal(strpool_intern(p, "train-0"), i);
    assert_null(strpool_add(p, NULL));
    assert_string_equal(strpool_add(p, ""), "");
    assert_int_equal(strpool_count(p), 4);
    char *big = xcalloc(1, 70001);         /* a block of its own */
    memset(big, 'n', 70000);
    const char *c = strpool_add(p, big);
    assert_int_equal(strlen(c), 70000);
    assert_true(strpool_owns(p, c));
    free(big);
    strpool_seal(p);                       /* the copies outlive the tables */
    assert_string_equal(a, "train-0");
    strpool_free(p);
}

static void test_printable_and_blocks(void **state)
{
    (void)state;
    StrPool *p = strpool_new();
    const char *a = strpool_printable(p, "abc\x1b[2Jdef", 100);
    assert_string_equal(a, "abc [2Jdef");
    assert_ptr_equal(strpool_intern(p, "abc [2Jdef"), a);
    assert_string_equal(strpool_printable(p, "abcdef", 3), "abc");
    assert_ptr_equal(strpool_printable(p, "abcxyz", 3), strpool_intern(p, "abc"));
    assert_null(strpool_printable(p, NULL, 3));
    struct { const char *k; int64_t v; } x[3] = { { "a", 1 }, { "b", 2 }, { "c", 3 } }, y[3];
    memcpy(y, x, sizeof x);
    strpool_intern(p, "odd");              /* the next block must still be aligned */
    const void *bx = strpool_intern_mem(p, x, sizeof x), *by = strpool_intern_mem(p, y, sizeof y);
    assert_ptr_equal(bx, by);
    assert_int_equal((uintptr_t)bx % alignof(max_align_t), 0);
    assert_memory_equal(bx, x, sizeof x);
    y[2].v = 4;
    assert_ptr_not_equal(strpool_intern_mem(p, y, sizeof y), bx);
    assert_null(strpool_intern_mem(p, x, 0));
    strpool_free(p);
}

/* The plain-ASCII path tests eight bytes at a step: a byte that is not plain (control, DEL,
 * 0x80 and up) at any position of a word or of the tail, and at every length, still gets
 * str_printable's copy (the expectation); a plain string of any length is the pool's one copy
 * (the same pointer as strpool_intern's: the fused hash is the table's hash). */
static void test_printable_every_position(void **state)
{
    (void)state;
    StrPool *p = strpool_new();
    static const unsigned char bad[] = { 0x01, 0x1f, 0x7f, 0x80, 0xc3, 0xff };
    char buf[40];
    for (size_t len = 0; len < 26; len++) {
        for (size_t i = 0; i < len; i++) buf[i] = (char)(' ' + (i * 7) % 95);   /* 0x20..0x7e */
        buf[len] = '\0';
        assert_ptr_equal(strpool_printable(p, buf, 100), strpool_intern(p, buf));
        char half[40];
        memcpy(half, buf, len / 2);
        half[len / 2] = '\0';
        assert_ptr_equal(strpool_printable(p, buf, len / 2), strpool_intern(p, half));
        for (size_t pos = 0; pos < len; pos++)
            for (size_t b = 0; b < sizeof bad; b++) {
                char save = buf[pos];
                buf[pos] = (char)bad[b];
                char *want = str_printable(buf, 100);
                const char *got = strpool_printable(p, buf, 100);
                assert_string_equal(got, want);
                assert_ptr_equal(got, strpool_intern(p, want));
                free(want);
                buf[pos] = save;
            }
    }
    strpool_free(p);
}

/* the memo: a value for the exact key bytes (not a prefix, not a longer key), replaced by a
 * second put, kept across growth of its table, bounded (STRPOOL_MEMO_MAX keys: later ones are
 * not recorded, the recorded ones stay), dropped by seal */
static void test_memo(void **state)
{
    (void)state;
    StrPool *p = strpool_new();
    int v1, v2;
    assert_null(strpool_memo_get(p, "abc", 3));
    strpool_memo_put(p, "abc", 3, &v1);
    assert_ptr_equal(strpool_memo_get(p, "abc", 3), &v1);
    assert_null(strpool_memo_get(p, "ab", 2));
    assert_null(strpool_memo_get(p, "abcd", 4));
    assert_null(strpool_memo_get(p, "abd", 3));
    strpool_memo_put(p, "abc", 3, &v2);
    assert_ptr_equal(strpool_memo_get(p, "abc", 3), &v2);
    char key[32];
    int *vals = xcalloc(STRPOOL_MEMO_MAX + 10, sizeof *vals);
    for (int i = 0; i < STRPOOL_MEMO_MAX + 10; i++) {
        int n = snprintf(key, sizeof key, "key-%d", i);
        strpool_memo_put(p, key, (size_t)n, &vals[i]);
    }
    size_t recorded = 0;
    for (int i = 0; i < STRPOOL_MEMO_MAX + 10; i++) {
        int n = snprintf(key, sizeof key, "key-%d", i);
        const void *got = strpool_memo_get(p, key, (size_t)n);
        if (got) { assert_ptr_equal(got, &vals[i]); recorded++; }
    }
    assert_int_equal(recorded, STRPOOL_MEMO_MAX - 1);          /* "abc" is the first */
    assert_ptr_equal(strpool_memo_get(p, "abc", 3), &v2);
    strpool_seal(p);
    assert_null(strpool_memo_get(p, "abc", 3));
    free(vals);
    strpool_free(p);
}

/* owns: every copy (in a shared chunk or a block of its own) and any byte inside one, found
 * among chunks allocated at unrelated addresses; nothing else.  seal: the copies stay, the
 * tables go, a later intern may copy again (the old copy is still owned). */
static void test_owns_and_seal(void **state)
{
    (void)state;
    StrPool *p = strpool_new();
    enum { N = 50000 };                    /* ~8 chunks of 64 KiB */
    const char *first[N];
    char buf[32];
    for (int i = 0; i < N; i++) {
        snprintf(buf, sizeof buf, "node-%d", i);
        first[i] = strpool_intern(p, buf);
    }
    size_t n = 30000;                      /* over a quarter chunk: a block of its own */
    char *mid = xmalloc(n + 1);
    memset(mid, 'm', n); mid[n] = 0;
    const char *mc = strpool_intern(p, mid);
    for (int i = 0; i < N; i += 997) {
        assert_true(strpool_owns(p, first[i]));
        assert_true(strpool_owns(p, first[i] + 3));
    }
    assert_true(strpool_owns(p, mc));
    assert_true(strpool_owns(p, mc + n));  /* its NUL */
    assert_false(strpool_owns(p, mid));
    assert_false(strpool_owns(p, buf));
    assert_false(strpool_owns(p, NULL));
    assert_false(strpool_owns(NULL, first[0]));
    strpool_seal(p);
    assert_string_equal(first[N - 1], "node-49999");
    const char *again = strpool_intern(p, "node-7");
    assert_string_equal(again, "node-7");
    assert_true(strpool_owns(p, again));
    assert_ptr_equal(strpool_intern(p, "node-7"), again);
    free(mid);
    strpool_free(p);
}
/* pack: 200,000 strings held a table of 2^19 slots (at most half full); packed, 2^18 (at most
 * 7/8 full: 229,376 >= 200,000), so strpool_bytes drops by 2^18 slots of 4 bytes; every
 * string is still found as the same copy, and the table grows again at 7/8 as more come */
static void test_pack(void **state)
{
    (void)state;
    StrPool *p = strpool_new();
    enum { N = 200000, M = 60000 };
    const char **got = xcalloc(N + M, sizeof *got);
    char buf[64];
    for (int i = 0; i < N; i++) {
        snprintf(buf, sizeof buf, "pod-%d.ns", i);
        got[i] = strpool_intern(p, buf);
    }
    size_t before = strpool_bytes(p);
    strpool_pack(p);
    assert_int_equal(before - strpool_bytes(p), (size_t)1 << 20);
    assert_int_equal(strpool_count(p), N);
    for (int i = 0; i < N; i += 3) {
        snprintf(buf, sizeof buf, "pod-%d.ns", i);
        assert_ptr_equal(strpool_intern(p, buf), got[i]);
    }
    size_t packed = strpool_bytes(p);
    for (int i = N; i < N + M; i++) {      /* past 229,376: the table doubles once */
        snprintf(buf, sizeof buf, "pod-%d.ns", i);
        got[i] = strpool_intern(p, buf);
    }
    assert_int_equal(strpool_count(p), N + M);
    assert_true(strpool_bytes(p) - packed >= ((size_t)1 << 20));
    for (int i = 0; i < N + M; i += 5) {
        snprintf(buf, sizeof buf, "pod-%d.ns", i);
        assert_ptr_equal(strpool_intern(p, buf), got[i]);
    }
    assert_int_equal(strpool_count(p), N + M);
    strpool_pack(NULL);
    free(got);
    strpool_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strings), cmocka_unit_test(test_add), cmocka_unit_test(test_printable_and_blocks),
        cmocka_unit_test(test_printable_every_position), cmocka_unit_test(test_memo),
        cmocka_unit_test(test_owns_and_seal), cmocka_unit_test(test_pack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

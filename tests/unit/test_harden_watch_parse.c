/* Unit tests: the watch stream reader (src/sources/watch.c on_data / on_line, through
 * watch_parse_chunks), issue 28 items 4 and 5:
 *  - linear: a 48 MiB event in 16 KiB chunks (what libcurl hands over) costs about what one
 *    pass over it costs; before, every chunk rescanned the line from its start (3072 chunks,
 *    each scanning 24 MiB on average: ~75 GB of memchr; measured 0.72 s against 0.06 s for
 *    32 MiB, and 3.7 s for 66 MiB without a newline, against 0.04 s now);
 *  - the result does not depend on where the chunks are cut;
 *  - an unreadable event and an over-long line are named as such ("event N of the stream: not
 *    JSON", "over 64 MiB without a line end"), which -v shows instead of "watch lost". */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "../../src/sources/watch_plan.h"

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* feeds text in chunks of `chunk` bytes */
static void parse_in_chunks(const char *text, size_t len, size_t chunk, WatchParseResult *r)
{
    size_t n = (len + chunk - 1) / chunk;
    const char **c = malloc((n ? n : 1) * sizeof *c);
    size_t *l = malloc((n ? n : 1) * sizeof *l);
    assert_non_null(c);
    assert_non_null(l);
    for (size_t i = 0; i < n; i++) {
        c[i] = text + i * chunk;
        l[i] = i + 1 < n ? chunk : len - i * chunk;
    }
    watch_parse_chunks(OBJ_POD, c, l, n, r);
    free(c);
    free(l);
}

/* one ADDED pod event padded to about `size` bytes, with its newline */
static char *big_event(size_t size, size_t *len)
{
    const char *head = "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"big\",\"namespace\":\"a\","
                       "\"resourceVersion\":\"77\",\"annotations\":{\"pad\":\"";
    const char *tail = "\"}}}}\n";
    size_t h = strlen(head), t = strlen(tail);
    char *s = malloc(size + h + t + 1);
    assert_non_null(s);
    memcpy(s, head, h);
    memset(s + h, 'x', size);
    memcpy(s + h + size, tail, t + 1);
    *len = h + size + t;
    return s;
}

static void test_long_event_is_linear(void **state)
{
    (void)state;
    size_t len;
    char *s = big_event((size_t)48 << 20, &len);
    WatchParseResult one, chunked;
    double t0 = cpu_now();
    parse_in_chunks(s, len, len, &one);
    double t1 = cpu_now();
    parse_in_chunks(s, len, 16384, &chunked);
    double t2 = cpu_now();
    assert_int_equal(one.upserts, 1);
    assert_int_equal(chunked.upserts, 1);
    assert_string_equal(chunked.rv, "77");
    /* 3072 chunks cost at most a few times the one-chunk parse (plus a small constant for a
     * loaded machine); the quadratic scan cost ~15 times it at 32 MiB, more at 48 */
    printf("# one chunk %.3f s, 16 KiB chunks %.3f s CPU\n", t1 - t0, t2 - t1);
    assert_true(t2 - t1 < 4 * (t1 - t0) + 0.2);
    free(one.rv);
    free(chunked.rv);
    free(s);
}

static void test_chunking_does_not_matter(void **state)
{
    (void)state;
    const char *text =
        "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"p0\",\"resourceVersion\":\"5\"}}}\r\n"
        "\n"
        "{\"type\":\"BOOKMARK\",\"object\":{\"metadata\":{\"resourceVersion\":\"9\"}}}\n"
        "{\"type\":\"MODIFIED\",\"object\":{\"metadata\":{\"name\":\"p0\",\"resourceVersion\":\"10\"}}}\n"
        "{\"type\":\"DELETED\",\"object\":{\"metadata\":{\"name\":\"p0\",\"resourceVersion\":\"11\"}}}";
    size_t len = strlen(text);
    WatchParseResult want;
    parse_in_chunks(text, len, len, &want);
    /* worked out by hand: ADDED + MODIFIED upserts, one DELETED (its line has no newline:
     * read when the stream ends), the BOOKMARK counted as an event; the last rv is 11 */
    assert_int_equal(want.upserts, 2);
    assert_int_equal(want.deletes, 1);
    assert_int_equal(want.events, 4);
    assert_int_equal(want.end, 'E');
    assert_string_equal(want.rv, "11");
    for (size_t chunk = 1; chunk <= 64; chunk++) {
        WatchParseResult r;
        parse_in_chunks(text, len, chunk, &r);
        assert_int_equal(r.upserts, want.upserts);
        assert_int_equal(r.deletes, want.deletes);
        assert_int_equal(r.events, want.events);
        assert_int_equal(r.end, want.end);
        assert_string_equal(r.rv, want.rv);
        free(r.rv);
    }
    free(want.rv);
}

static void test_unreadable_event_named(void **state)
{
    (void)state;
    const char *text = "{\"type\":\"BOOKMARK\",\"object\":{\"metadata\":{}}}\n<html>oops</html>\n";
    WatchParseResult r;
    parse_in_chunks(text, strlen(text), 7, &r);
    assert_int_equal(r.end, 'B');
    assert_string_equal(r.problem, "event 2 of the stream: not JSON");
    free(r.rv);
    const char *noobj = "{\"type\":\"ADDED\"}\n";
    parse_in_chunks(noobj, strlen(noobj), 3, &r);
    assert_string_equal(r.problem, "event 1 of the stream: not a watch event (no type or object)");
    free(r.rv);
}

static void test_endless_line_capped(void **state)
{
    (void)state;
    size_t len = ((size_t)64 << 20) + (2u << 20);      /* 66 MiB without a newline */
    char *s = malloc(len);
    assert_non_null(s);
    memset(s, 'x', len);
    WatchParseResult r;
    double t0 = cpu_now();
    parse_in_chunks(s, len, 16384, &r);
    double t = cpu_now() - t0;
    printf("# 66 MiB without a newline: %.3f s CPU\n", t);
    assert_int_equal(r.end, 'B');
    assert_string_equal(r.problem, "event 1 of the stream: over 64 MiB without a line end");
    assert_true(t < 3.0);
    free(r.rv);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_long_event_is_linear), cmocka_unit_test(test_chunking_does_not_matter),
        cmocka_unit_test(test_unreadable_event_named), cmocka_unit_test(test_endless_line_capped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

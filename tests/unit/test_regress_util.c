/* Regression tests: durations and RFC 3339 times (src/util/util.c) and error lines
 * (src/util/error.c), from tests/fuzz/fuzz_time.c and fuzz_ingest.c findings. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/error.h"
#include "util/util.h"

/* fuzz_time crash f78aad51: a bare integer skipped the 1e9 s bound ("--request-timeout
 * 33333333333333333" then overflowed the conversion to curl's milliseconds) */
static void test_duration_bound(void **state)
{
    (void)state;
    double s = -1;
    assert_false(util_duration_parse("33333333333333333", &s));
    assert_false(util_duration_parse("9223372036854775807", &s));
    assert_false(util_duration_parse("1000000001", &s));
    assert_true(util_duration_parse("1000000000", &s)); assert_true(s == 1e9);
    assert_false(util_duration_parse("99999999999h", &s));
}

/* util_time_parse_rfc3339 used sscanf %d: signs, blanks and impossible days were accepted and
 * turned into another instant (2024-02-31 became March 2nd) */
static void test_rfc3339_strict(void **state)
{
    (void)state;
    int64_t t = 0;
    static const char *const bad[] = {
        "2024-02-31T00:00:00Z", "2023-02-29T00:00:00Z", "2024-04-31T00:00:00Z",
        "2024-05-14T-1:30:41Z", "2024-05-14T17:-3:41Z", "2024-05-14T17:30:-1Z",
        "2024-05-14T 7:30:41Z", " 2024-05-14T17:30:41Z", "+024-05-14T17:30:41Z", "2024-+5-14T17:30:41Z",
        "2024-05-14T17:30:41+-1:00", "2024-05-14T17:30:41+24:00", "2024-05-14T17:30:41+01:60",
        "2024-05-14T17:30:41+0100", "2024-05-14T17:30:41+01:0", "2024-05-14T17:30:41.Z", "2024-05-14T17:30Z",
        "2024-00-14T17:30:41Z", "2024-05-00T17:30:41Z", "2024-05-14T24:00:00Z", "",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        if (util_time_parse_rfc3339(bad[i], &t)) fail_msg("accepted [%s]", bad[i]);
    }
    assert_true(util_time_parse_rfc3339("2024-02-29T12:00:00Z", &t)); assert_int_equal(t, 1709208000);
    assert_true(util_time_parse_rfc3339("2000-02-29T00:00:00Z", &t)); assert_int_equal(t, 951782400);
    assert_true(util_time_parse_rfc3339("2024-05-14T12:30:41-05:00", &t)); assert_int_equal(t, 1715707841);
    assert_true(util_time_parse_rfc3339("2024-05-14T17:30:41.5z", &t)); assert_int_equal(t, 1715707841);
    assert_true(util_time_parse_rfc3339("0220-04-28T00:00:00Z", &t)); assert_int_equal(t, -55214524800LL);
}

/* fuzz_ingest crash 8a3c1374: an error naming an object field that holds a newline was two
 * lines; every error is one line, whatever it quotes */
static void test_error_one_line(void **state)
{
    (void)state;
    Error e = { .set = false };
    error_set(&e, "node affinity \"%s\": unknown operator \"%s\"", "a\nb", "In\r\x1b[31mred");
    assert_null(strchr(e.msg, '\n'));
    assert_null(strchr(e.msg, '\r'));
    assert_null(strchr(e.msg, '\x1b'));
    assert_string_equal(e.msg, "node affinity \"a b\": unknown operator \"In  [31mred\"");
    error_prefix(&e, "pod \"%s\": ", "x\ty");
    assert_string_equal(e.msg, "pod \"x y\": node affinity \"a b\": unknown operator \"In  [31mred\"");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_duration_bound), cmocka_unit_test(test_rfc3339_strict),
        cmocka_unit_test(test_error_one_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

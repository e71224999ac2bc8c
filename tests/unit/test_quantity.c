/* Unit tests: quantity (apimachinery grammar, rounding, overflow, formatting). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include "model/quantity.h"

static int64_t q(const char *s)
{
    int64_t m = -424242;
    if (!quantity_parse(s, &m)) fail_msg("quantity_parse(\"%s\") failed", s);
    return m;
}

static void test_plain_and_decimal(void **state)
{
    (void)state;
    assert_int_equal(q("0"), 0);
    assert_int_equal(q("1"), 1000);
    assert_int_equal(q("0.5"), 500);
    assert_int_equal(q("500m"), 500);
    assert_int_equal(q("100k"), 100000000);              /* 100e3 units */
    assert_int_equal(q("2M"), 2000000000);
    assert_int_equal(q("3G"), 3000000000000LL);
    assert_int_equal(q("1T"), 1000000000000000LL);
    assert_int_equal(q("1P"), 1000000000000000000LL);
    assert_int_equal(q(".5"), 500);
    assert_int_equal(q("1."), 1000);
    assert_int_equal(q("+2"), 2000);
    assert_int_equal(q("-1"), -1000);
    assert_int_equal(q("-0"), 0);
    assert_int_equal(q("007"), 7000);
    assert_int_equal(q("1500u"), 2);                     /* 1.5 milli -> rounded up to 2 */
    assert_int_equal(q("1000u"), 1);
    assert_int_equal(q("2000000n"), 2);
}

static void test_binary(void **state)
{
    (void)state;
    assert_int_equal(q("1Ki"), 1024000);
    assert_int_equal(q("2Mi"), 2LL * 1048576 * 1000);
    assert_int_equal(q("16Gi"), 16LL * 1073741824 * 1000);
    assert_int_equal(q("1.5Gi"), 1610612736000LL);       /* 1.5 * 2^30 bytes */
    assert_int_equal(q("0.1Ki"), 102400);                /* 102.4 bytes */
    assert_int_equal(q("1Ti"), 1099511627776000LL);
    assert_int_equal(q("1Pi"), 1125899906842624000LL);
    assert_int_equal(q("1056613244Ki"), 1056613244LL * 1024 * 1000);
}

static void test_exponent(void **state)
{
    (void)state;
    assert_int_equal(q("1e3"), 1000000);
    assert_int_equal(q("1E3"), 1000000);
    assert_int_equal(q("1E-3"), 1);
    assert_int_equal(q("1e-3"), 1);
    assert_int_equal(q("1.5e+2"), 150000);
    assert_int_equal(q("2e0"), 2000);
    assert_int_equal(q("1e-1000000"), 1);                /* tiny but positive: rounds up */
    assert_int_equal(q("0e999999"), 0);
    assert_int_equal(q("0.001E"), 1000000000000000000LL);   /* "E" alone is exa: 1e15 units */
}

static void test_rounding(void **state)
{
    (void)state;
    assert_int_equal(q("1n"), 1);                        /* sub-milli rounds up */
    assert_int_equal(q("1u"), 1);
    assert_int_equal(q("0.0001"), 1);
    assert_int_equal(q("0.0011"), 2);
    assert_int_equal(q("1.0000000000000000000000001"), 1001);
    assert_int_equal(q("-1n"), -1);                      /* magnitude rounded up */
    assert_int_equal(q("1.000"), 1000);
    assert_int_equal(q("0.001"), 1);
}

static void test_overflow(void **state)
{
    (void)state;
    int64_t m;
    assert_true(quantity_parse("9223372036854775807m", &m));
    assert_int_equal(m, INT64_MAX);
    assert_false(quantity_parse("9223372036854775808m", &m));
    assert_false(quantity_parse("8Ei", &m));             /* 9.2e18 units > 9.2e15 */
    assert_false(quantity_parse("10E", &m));
    assert_false(quantity_parse("1e100", &m));
    assert_false(quantity_parse("99999999999999999999999", &m));
    assert_true(quantity_parse("9223372036854775", &m));  /* 9.22e15 units fits */
    assert_int_equal(m, 9223372036854775000LL);
    assert_false(quantity_parse("9223372036854776", &m));
}

/* the integer fast path (at most 18 mantissa digits) and the digit-string path meet at its
 * edges with the same answers; each value worked out by hand */
static void test_fast_path_edges(void **state)
{
    (void)state;
    int64_t m;
    /* 18 digits, 10^-6 units = 123456789012.345678 milli: rounded up */
    assert_int_equal(q("123456789012345678n"), 123456789013LL);
    assert_int_equal(q("-123456789012345678n"), -123456789013LL);
    /* 19 digits: the digit-string path, same rule */
    assert_int_equal(q("1234567890123456789n"), 1234567890124LL);
    /* 8 * 2^50 units = 9007199254740992 units, * 1000 milli fits (< 9223372036854775807) */
    assert_int_equal(q("8Pi"), 9007199254740992000LL);
    assert_false(quantity_parse("9Pi", &m));             /* 10133099161583616000 > INT64_MAX */
    assert_false(quantity_parse("1Ei", &m));             /* 2^60 * 1000 */
    /* 0.5 units in Ki = 512 units; 0.0001 Ki = 0.1024 units = 102.4 milli -> 103 */
    assert_int_equal(q("0.5Ki"), 512000);
    assert_int_equal(q("0.0001Ki"), 103);
    /* far below a milli-unit: 10^-37 (past the fast path's 10^36 divisor) and 10^-30 -> 1 */
    assert_int_equal(q("1e-40"), 1);
    assert_int_equal(q("1e-30"), 1);
    assert_int_equal(q("-1e-30"), -1);
    /* 10^15 units = 10^18 milli fits; 10^16 units = 10^19 milli does not */
    assert_int_equal(q("1e15"), 1000000000000000000LL);
    assert_false(quantity_parse("1e16", &m));
    assert_int_equal(q("000000000000000000000001"), 1000);   /* leading zeros are not digits */
    /* the suffixes, each alone: E (10^18) and Ei (2^60) */
    assert_int_equal(q("0.001E"), 1000000000000000000LL);
    assert_false(quantity_parse("0.5Ei", &m));           /* 2^59 units = 5.8e20 milli */
}

static void test_rejects(void **state)
{
    (void)state;
    int64_t m = 77;
    const char *bad[] = { "", " 1", "1 ", "1.2.3", "5Gii", "5gi", "abc", "1e", "1e+", "--1", "+-1",
                          ".", "-", "m", "1mm", "1Ki5", "1 Gi", "0x10", "1,5", "1e3.5", "Ki", "1K",
                          "1i", "∞" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (quantity_parse(bad[i], &m)) fail_msg("accepted \"%s\"", bad[i]);
    assert_false(quantity_parse(NULL, &m));
    char longs[300];
    for (int i = 0; i < 299; i++) longs[i] = '1';
    longs[299] = 0;
    assert_false(quantity_parse(longs, &m));
    assert_int_equal(m, 77);                             /* untouched on failure */
}

static void test_helpers(void **state)
{
    (void)state;
    assert_int_equal(quantity_units_ceil(0), 0);
    assert_int_equal(quantity_units_ceil(1), 1);
    assert_int_equal(quantity_units_ceil(1000), 1);
    assert_int_equal(quantity_units_ceil(1001), 2);
    assert_int_equal(quantity_units_ceil(-1500), -1);
    char b[32];
    quantity_format(4000, b, sizeof b); assert_string_equal(b, "4");
    quantity_format(1500, b, sizeof b); assert_string_equal(b, "1500m");
    quantity_format(0, b, sizeof b); assert_string_equal(b, "0");
    quantity_format(-2000, b, sizeof b); assert_string_equal(b, "-2");
    assert_int_equal(quantity_to_mib(q("16Gi")), 16384);
    assert_int_equal(quantity_to_mib(q("1Mi")), 1);
    assert_int_equal(quantity_to_mib(q("1048575")), 0);  /* one byte short of 1 MiB */
    assert_int_equal(quantity_to_mib(q("1500Ki")), 1);   /* 1.46 MiB, floor */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_and_decimal), cmocka_unit_test(test_binary),
        cmocka_unit_test(test_exponent), cmocka_unit_test(test_rounding),
        cmocka_unit_test(test_overflow), cmocka_unit_test(test_fast_path_edges), cmocka_unit_test(test_rejects), cmocka_unit_test(test_helpers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Regression tests: inputs found by fuzzing the scheduler message parser
 * (tests/fuzz/fuzz_schedmsg.c) that once gave wrong numbers or undefined behaviour. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/schedmsg.h"

/* fuzz_schedmsg crash eed5fd26: "0/-4 nodes" was read (sscanf %d) as a total of -4 nodes */
static void test_negative_total(void **state)
{
    (void)state;
    static const char crash[] = "0/-4 nodes are available: 1 node(s) didn't : 1 node(s) didn't satisfy plugin(s) "
                                "[Nod node(s) didn'y]mpti, o/n: 0/4 node/12";
    SchedMessage m;
    schedmsg_parse(crash, &m);
    assert_int_equal(m.kind, SM_UNRECOGNISED);
    assert_int_equal(m.filter.total, -1);
    assert_int_equal(m.filter.nreasons, 0);
    schedmsg_clear(&m);

    /* signs, blanks and overflowing digit strings are not node counts either */
    static const char *const bad[] = {
        "0/ 4 nodes are available: 4 Insufficient nvidia.com/gpu.",
        "-0/4 nodes are available: 4 Insufficient nvidia.com/gpu.",
        "0/+4 nodes are available: 4 Insufficient nvidia.com/gpu.",
        "0/99999999999999999999 nodes are available: 4 Insufficient nvidia.com/gpu.",
        "0/4nodes are available: 4 Insufficient nvidia.com/gpu.",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        schedmsg_parse(bad[i], &m);
        assert_int_equal(m.kind, SM_UNRECOGNISED);
        assert_int_equal(m.filter.total, -1);
        schedmsg_clear(&m);
    }
    /* the real thing still parses */
    schedmsg_parse("0/4 nodes are available: 4 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are "
                   "available: 4 No preemption victims found for incoming pod.", &m);
    assert_int_equal(m.kind, SM_FIT_ERROR);
    assert_int_equal(m.filter.total, 4);
    assert_int_equal(m.preemption.total, 4);
    assert_int_equal(schedmsg_count(&m, SC_INSUFFICIENT, "nvidia.com/gpu"), 4);
    schedmsg_clear(&m);
}

/* counts that add up beyond INT_MAX (signed overflow in schedmsg_count) */
static void test_count_sum_bounded(void **state)
{
    (void)state;
    SchedMessage m;
    schedmsg_parse("0/5 nodes are available: 1000000000 Insufficient nvidia.com/gpu, 1000000000 Insufficient "
                   "nvidia.com/gpu, 1000000000 Insufficient nvidia.com/gpu.", &m);
    assert_int_equal(m.filter.nreasons, 3);
    assert_int_equal(m.filter.reasons[0].count, 1000000000);
    int n = schedmsg_count(&m, SC_INSUFFICIENT, "nvidia.com/gpu");
    assert_true(n > 0 && n <= 1000000000);
    schedmsg_clear(&m);
    /* a count above 1e9 is no count */
    schedmsg_parse("0/5 nodes are available: 99999999999999999999 Insufficient cpu.", &m);
    assert_int_equal(m.filter.nreasons, 1);
    assert_int_equal(m.filter.reasons[0].count, -1);
    schedmsg_clear(&m);
}

/* the pre-1.10 form "(N)": atoi took signs and overflowed */
static void test_legacy_counts(void **state)
{
    (void)state;
    SchedMessage m;
    schedmsg_parse("No nodes are available that match all of the following predicates:: Insufficient "
                   "nvidia.com/gpu (-3), PodToleratesNodeTaints (99999999999999), MatchNodeSelector (2).", &m);
    assert_int_equal(m.kind, SM_FIT_ERROR);
    assert_int_equal(m.filter.nreasons, 3);
    assert_int_equal(m.filter.reasons[0].count, -1);
    assert_int_equal(m.filter.reasons[1].count, -1);
    assert_int_equal(m.filter.reasons[2].count, 2);
    schedmsg_clear(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_negative_total), cmocka_unit_test(test_count_sum_bounded),
        cmocka_unit_test(test_legacy_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

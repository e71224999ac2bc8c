/* test_suggest.c — "did you mean" (util/suggest.c) */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "util/suggest.h"

static void test_distance(void **state)
{
    (void)state;
    assert_int_equal(suggest_edit_distance("", ""), 0);
    assert_int_equal(suggest_edit_distance("status", "status"), 0);
    assert_int_equal(suggest_edit_distance("stauts", "status"), 2);      /* a swap is two edits */
    assert_int_equal(suggest_edit_distance("kitten", "sitting"), 3);
    assert_int_equal(suggest_edit_distance("PLAN", "plan"), 0);          /* case is ignored */
    assert_int_equal(suggest_edit_distance("", "top"), 3);
    char longw[400];
    memset(longw, 'a', sizeof longw - 1);
    longw[sizeof longw - 1] = '\0';
    assert_int_equal(suggest_edit_distance(longw, "a"), 254);            /* capped at 255 bytes */
}

static void test_nearest(void **state)
{
    (void)state;
    const char *cmds[] = { "status", "pending", "explain", "plan", "top", "snapshot", NULL };
    assert_string_equal(suggest_nearest("stauts", cmds), "status");
    assert_string_equal(suggest_nearest("pnding", cmds), "pending");
    assert_string_equal(suggest_nearest("pend", cmds), "pending");       /* a prefix */
    assert_string_equal(suggest_nearest("tpo", cmds), "top");
    assert_null(suggest_nearest("frobnicate", cmds));
    assert_null(suggest_nearest("", cmds));
    assert_null(suggest_nearest(NULL, cmds));
    const char *flags[] = { "namespace", "all-namespaces", "selector", "", NULL };
    assert_string_equal(suggest_nearest("namespce", flags), "namespace");
    assert_null(suggest_nearest("zzz", flags));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distance),
        cmocka_unit_test(test_nearest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

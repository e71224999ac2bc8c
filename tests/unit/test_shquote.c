/* test_shquote.c — the quoting rule of `plan -o script` (util/shquote.c).  Expected words are
 * written out by hand from the rule in shquote.h: printable ASCII but ' $ ` \ inside '...', a
 * single quote as \', every other byte as $'\xHH'.  The round trip through a shell reader is
 * tests/fuzz/fuzz_plan_script.c; bash itself runs such words in test_plan_apply.sh. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "util/shquote.h"

static void check_word(const char *in, const char *want)
{
    Strbuf sb = STRBUF_INIT;
    shquote_word(&sb, in);
    assert_string_equal(strbuf_str(&sb), want);
    strbuf_clear(&sb);
}

static void test_word(void **state)
{
    (void)state;
    check_word("", "''");
    check_word(NULL, "''");
    check_word("a100-a", "'a100-a'");
    check_word("it's", "'it'\\''s'");
    check_word("'", "\\'");
    /* the issue's context name: the newline is $'\x0a', so the word stays on one line */
    check_word("c\ntouch /tmp/PWNED #", "'c'$'\\x0a''touch /tmp/PWNED #'");
    check_word("$(id)", "$'\\x24''(id)'");
    check_word("`id`", "$'\\x60''id'$'\\x60'");
    check_word("a\\", "'a'$'\\x5c'");
    check_word("\r\x1b", "$'\\x0d\\x1b'");
    check_word("\xff\xfe", "$'\\xff\\xfe'");
    check_word("\xc3\xa9", "$'\\xc3\\xa9'");                  /* é: bytes, not a character */
}

static void check_comment(const char *in, const char *want)
{
    Strbuf sb = STRBUF_INIT;
    shquote_comment(&sb, in);
    assert_string_equal(strbuf_str(&sb), want);
    strbuf_clear(&sb);
}

static void test_comment(void **state)
{
    (void)state;
    check_comment("plain $(x) 'q' `b`", "plain $(x) 'q' `b`");   /* a comment runs nothing */
    check_comment("c\ntouch /tmp/PWNED #", "c\\x0atouch /tmp/PWNED #");
    check_comment("a\rb\x7f", "a\\x0db\\x7f");
    check_comment("NOT MEASURED \xe2\x80\x94 x", "NOT MEASURED \xe2\x80\x94 x");   /* em dash kept */
    check_comment("\xe2\x80\xae", "\\xe2\\x80\\xae");                 /* U+202E right-to-left override */
    check_comment("\xc2\x9b", "\\xc2\\x9b");                          /* C1 CSI */
    check_comment("\xff", "\\xff");                                   /* not UTF-8 */
    check_comment("\xc0\xaf", "\\xc0\\xaf");                          /* overlong */
}

static void test_heredoc(void **state)
{
    (void)state;
    char *d = shquote_heredoc_delim("a: 1\n", "KGPU_MANIFESTS");
    assert_string_equal(d, "KGPU_MANIFESTS");
    free(d);
    d = shquote_heredoc_delim("x\nKGPU_MANIFESTS\nKGPU_MANIFESTS_2\n", "KGPU_MANIFESTS");
    assert_string_equal(d, "KGPU_MANIFESTS_3");
    free(d);
    d = shquote_heredoc_delim("  KGPU_MANIFESTS\nKGPU_MANIFESTS ", "KGPU_MANIFESTS");   /* not whole lines */
    assert_string_equal(d, "KGPU_MANIFESTS");
    free(d);
    d = shquote_heredoc_delim("KGPU_MANIFESTS", "KGPU_MANIFESTS");                      /* last line, no newline */
    assert_string_equal(d, "KGPU_MANIFESTS_2");
    free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_word), cmocka_unit_test(test_comment), cmocka_unit_test(test_heredoc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

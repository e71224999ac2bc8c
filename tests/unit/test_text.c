/* The terminal sink (render/text.h): control characters and escape sequences from outside
 * become spaces, wherever they sit in a string; our own colour codes and the format's own
 * text pass; printf conversions other than %s print as printf does. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render/table.h"
#include "render/text.h"

static void test_clean(void **state)
{
    (void)state;
    char *s = text_clean("gpu-1\x1b]0;t\x07\x1b[31m\r\n\b\x7f|\xc2\x9b" "2J|\xff|caf\xc3\xa9", false);
    assert_string_equal(s, "gpu-1 ]0;t  [31m    | 2J|\xef\xbf\xbd|caf\xc3\xa9");
    free(s);
    s = text_clean("a\nb\rc", true);
    assert_string_equal(s, "a\nb c");
    free(s);
    s = text_clean(NULL, false);
    assert_string_equal(s, "");
    free(s);
    s = text_clean("plain text, nothing to do", false);
    assert_string_equal(s, "plain text, nothing to do");
    free(s);
}

static char *capture(void (*fn)(FILE *))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fn(f);
    fclose(f);
    return buf;
}

static void print_mixed(FILE *f)
{
    text_printf(f, "%s%s%s|%-6s|%5.2f|%zu|%ld|%lld|%d%%|%*s|%.3s|%c\n", color_start(C_RED, true),
                "n\x1b[2Jx", color_end(C_RED, true), "ab\r", 3.14159, (size_t)42, -7L, 1LL << 40, 5, 4, "w",
                "abcdef", '\a');
}

static void test_printf(void **state)
{
    (void)state;
    char *out = capture(print_mixed);
    assert_string_equal(out, "\x1b[31mn [2Jx\x1b[0m|ab    | 3.14|42|-7|1099511627776|5%|   w|abc| \n");
    free(out);
}

/* table cells go through the same sink */
static void print_table(FILE *f)
{
    static const char *const h[] = { "NODE", "X" };
    Table *t = table_new(h, 2);
    table_add_row(t);
    table_cell(t, "gpu\x1b[31m\n1");
    table_cellf(t, "%s", "\x07ok");
    table_print(t, f, false);
    table_free(t);
}

static void test_table(void **state)
{
    (void)state;
    char *out = capture(print_table);
    assert_string_equal(out, "NODE         X\ngpu [31m 1    ok\n");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clean), cmocka_unit_test(test_printf), cmocka_unit_test(test_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The one text presentation (render/textdoc.h): a document printed to a stream reads as the
 * CLI's text (labels with their colon, headings, colour only on TA_OK/WARN/ERROR/STRONG, text
 * from outside cleaned), a table made into a document prints the bytes table_print prints, and
 * text_wrap wraps at the document's width with a hanging indent. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render/table.h"
#include "render/textdoc.h"

static char *printed(const TextDoc *d, bool color)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(text_doc_print(d, f, color), 0);
    fclose(f);
    return buf;
}

static void test_labels_and_headings(void **state)
{
    (void)state;
    TextDoc d;
    text_init(&d, TEXT_NO_WRAP);
    text_label(&d, "Pod", 12);
    text_add(&d, TA_VALUE, "ml/a");
    text_label(&d, "", 4);                        /* continues the field: blank, no colon */
    text_add(&d, TA_NORMAL, "more");
    text_label(&d, "Scheduler (events)", 0);      /* longer than any column: just the colon */
    text_heading(&d, "Fixes", NULL);
    text_heading(&d, "Nodes", "recomputed");
    char *s = printed(&d, false);
    /* "Pod:" is 4 columns, 8 spaces to column 12 */
    assert_string_equal(s, "Pod:        ml/a\n    more\nScheduler (events):\n\nFixes:\n\nNodes (recomputed):\n");
    free(s);
    /* the label takes its 12 columns: text after it starts there */
    assert_int_equal(d.lines[0].cols, 12 + 4);
    text_clear(&d);
}

static void test_colour_and_cleaning(void **state)
{
    (void)state;
    TextDoc d;
    text_init(&d, TEXT_NO_WRAP);
    text_add(&d, TA_STRONG, "Insufficient");
    text_add(&d, TA_LABEL, " L");                 /* no colour for the screen's own roles */
    text_add(&d, TA_OK, " ok");
    text_newline(&d);
    text_add(&d, TA_NORMAL, "gpu-1\x1b]0;x\x07|");   /* from outside: control bytes become spaces */
    char *s = printed(&d, true);
    assert_string_equal(s, "\033[1mInsufficient\033[0m L\033[32m ok\033[0m\ngpu-1 ]0;x |\n");
    free(s);
    s = printed(&d, false);
    assert_string_equal(s, "Insufficient L ok\ngpu-1 ]0;x |\n");
    free(s);
    text_clear(&d);
}

static char *table_printed(const Table *t, bool color)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    table_print(t, f, color);
    fclose(f);
    return buf;
}

/* the same table through table_print and through a document: the same bytes */
static void test_table_doc_is_table_print(void **state)
{
    (void)state;
    static const char *const headers[] = { "  NODES", "REASONS", "X" };
    Table *t = table_new(headers, 3);
    table_indent(t, 2);
    table_add_row(t);
    table_cell(t, "  a");
    table_cell_color(t, C_GREEN, "fits now");
    table_cell(t, "1");
    table_add_row(t);
    table_cell(t, "  gpu-node-long-name, b");
    table_cell(t, "Insufficient nvidia.com/gpu \xc3\xa9");
    table_cell_color(t, C_RED, "22");
    for (int color = 0; color < 2; color++) {
        char *want = table_printed(t, color);       /* a memstream is no terminal: whole */
        TextDoc d;
        text_init(&d, TEXT_NO_WRAP);
        table_doc(t, &d, 0);
        char *got = printed(&d, color);
        assert_string_equal(got, want);
        free(got);
        free(want);
        text_clear(&d);
    }
    /* fitted to 30 columns: the widest column is cut with an ellipsis, as on a terminal */
    TextDoc d;
    text_init(&d, TEXT_NO_WRAP);
    table_doc(t, &d, 30);
    char *got = printed(&d, false);
    assert_non_null(strstr(got, "\xe2\x80\xa6"));
    free(got);
    text_clear(&d);
    table_free(t);
}

static void test_wrap(void **state)
{
    (void)state;
    TextDoc d;
    text_init(&d, 20);
    text_label(&d, "Why", 6);
    text_wrap(&d, 6, TA_NORMAL, "aaa bbb ccc ddd eee fff\nggg");
    char *s = printed(&d, false);
    /* 20 columns: "Why:  " + "aaa bbb ccc" (17), then 6 spaces + "ddd eee fff", the newline
     * starts "      ggg" */
    assert_string_equal(s, "Why:  aaa bbb ccc\n      ddd eee fff\n      ggg\n");
    free(s);
    text_clear(&d);
    text_init(&d, TEXT_NO_WRAP);                      /* a stream's document: one line */
    text_wrap(&d, 6, TA_NORMAL, "aaa bbb ccc ddd eee fff ggg hhh iii jjj kkk lll");
    assert_int_equal(d.n, 1);
    text_clear(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_labels_and_headings),
        cmocka_unit_test(test_colour_and_cleaning),
        cmocka_unit_test(test_table_doc_is_table_print),
        cmocka_unit_test(test_wrap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

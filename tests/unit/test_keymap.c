/* The key table of top (tui/tui_keymap.h, tui_keys.c): dispatch, the function bar and the
 * help's KEYS are made from its rows, so a label or a key changed in a row shows in all three;
 * every row of top's table says what it does in the help. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tui/tui_app.h"
#include "tui/tui_keymap.h"
#include "util/util.h"

/* ---- a table of the test's own */

static int calls_a, calls_b;
static KeyActResult act_a(void *ctx, int ch) { (void)ctx; calls_a = ch; return KEY_ACT_DONE; }
static KeyActResult act_b(void *ctx, int ch) { (void)ctx; calls_b = ch; return KEY_ACT_QUIT; }
static const char *label_dyn(const void *ctx, char *buf, size_t n)
{
    snprintf(buf, n, "Count:%d", *(const int *)ctx);
    return buf;
}

enum { V1 = 1, V2 = 2 };

static const KeyBinding rows[] = {
    { { 'x', 'y' }, V1, act_a, "x y", "does a", V1 | V2, "x", NULL, "Alpha", NULL },
    { { 'z' }, V2, act_b, "z", "does b", V2, "↑z", "^z", NULL, label_dyn },
    { { 'x' }, V2, act_b, "x y", "does a elsewhere", 0, NULL, NULL, NULL, NULL },
};
static const KeyMap map = { rows, 3 };

/* each line of d as plain text */
static char *line_text(const TextDoc *d, size_t i)
{
    Strbuf sb = STRBUF_INIT;
    for (size_t j = 0; j < d->lines[i].n; j++) strbuf_adds(&sb, d->lines[i].spans[j].text);
    return strbuf_detach(&sb);
}

static void test_dispatch(void **state)
{
    (void)state;
    bool found;
    calls_a = calls_b = 0;
    assert_int_equal(keymap_dispatch(&map, V1, 'y', NULL, &found), KEY_ACT_DONE);
    assert_true(found);
    assert_int_equal(calls_a, 'y');
    /* 'x' is row 1 in V1 and row 3 in V2 */
    assert_int_equal(keymap_dispatch(&map, V2, 'x', NULL, &found), KEY_ACT_QUIT);
    assert_int_equal(calls_b, 'x');
    assert_ptr_equal(keymap_find(&map, V1, 'x'), &rows[0]);
    assert_null(keymap_find(&map, V1, 'z'));           /* z acts in V2 only */
    keymap_dispatch(&map, V1, 'q', NULL, &found);
    assert_false(found);
}

static void test_bar_from_rows(void **state)
{
    (void)state;
    KeyBarItem it[8];
    int count = 7;
    size_t n = keymap_bar(&map, V2, &count, true, it, 8);
    assert_int_equal(n, 2);                            /* row 3 has no bar label */
    assert_string_equal(it[0].key, "x");
    assert_string_equal(it[0].label, "Alpha");
    assert_string_equal(it[1].key, "↑z");
    assert_string_equal(it[1].label, "Count:7");
    n = keymap_bar(&map, V2, &count, false, it, 8);    /* without UTF-8: the ASCII name */
    assert_string_equal(it[1].key, "^z");
    n = keymap_bar(&map, V1, &count, true, it, 8);
    assert_int_equal(n, 1);
    /* a label changed in the row is the bar's label */
    KeyBinding changed[3];
    memcpy(changed, rows, sizeof rows);
    changed[0].bar_label = "Changed";
    KeyMap m2 = { changed, 3 };
    keymap_bar(&m2, V1, &count, true, it, 8);
    assert_string_equal(it[0].label, "Changed");
    assert_int_equal(keymap_bar(&m2, V2, &count, true, it, 1), 1);   /* max respected */
}

static void test_help_from_rows(void **state)
{
    (void)state;
    TextDoc d;
    text_init(&d, 80);
    keymap_help(&d, &map, 8);
    /* one line per distinct help_keys: "x y" (the first row's words) and "z" */
    assert_int_equal(d.n, 2);
    char *l0 = line_text(&d, 0), *l1 = line_text(&d, 1);
    assert_string_equal(l0, "  x y   does a");           /* "  x y" padded to column 8 */
    assert_string_equal(l1, "  z     does b");
    free(l0); free(l1);
    text_clear(&d);
}

/* ---- top's own table */

static void test_top_rows_complete(void **state)
{
    (void)state;
    for (size_t i = 0; i < tui_app_keymap.n; i++) {
        const KeyBinding *b = &tui_app_keymap.rows[i];
        assert_non_null(b->help_keys);
        assert_non_null(b->help);
        assert_true(*b->help);
        if (b->action) {
            assert_true(b->keys[0] != 0);
            assert_true(b->views != 0);
        }
        assert_int_equal(b->bar_views & ~b->views, 0);   /* shown only where it acts */
        if (b->bar_views) assert_true(b->bar_label || b->bar_label_fn);
    }
    /* no key bound twice in one view */
    static const unsigned views[] = { KV_MAIN, KV_NODE, KV_EXPLAIN, KV_PODS, KV_HELP, KV_EDIT };
    for (size_t v = 0; v < 6; v++)
        for (size_t i = 0; i < tui_app_keymap.n; i++)
            for (size_t k = 0; k < KEYMAP_MAX_KEYS && tui_app_keymap.rows[i].keys[k]; k++)
                if (tui_app_keymap.rows[i].views & views[v])
                    assert_ptr_equal(keymap_find(&tui_app_keymap, views[v], tui_app_keymap.rows[i].keys[k]), &tui_app_keymap.rows[i]);
}

static char *bar_text(const App *a, unsigned view)
{
    KeyBarItem it[16];
    size_t n = keymap_bar(&tui_app_keymap, view, a, false, it, 16);
    Strbuf sb = STRBUF_INIT;
    for (size_t i = 0; i < n; i++) strbuf_addf(&sb, "%s%s %s", i ? " " : "", it[i].key, it[i].label);
    return strbuf_detach(&sb);
}

/* the bars test_top.sh reads on the screen, from the table: the main screen and the views */
static void test_top_bars(void **state)
{
    (void)state;
    App a;
    memset(&a, 0, sizeof a);
    char *s = bar_text(&a, KV_MAIN);
    assert_string_equal(s, "Enter Node Tab Pane / Filter s Sort:name p Pods r Refresh ? Help q Quit");
    free(s);
    a.focus = PANE_PENDING;
    a.sort = SORT_ALLOC;
    a.filter = (char *)"gpu";
    s = bar_text(&a, KV_MAIN);
    assert_string_equal(s, "Enter Explain Tab Pane / Filter:gpu s Sort:allocation p Pods r Refresh ? Help q Quit");
    free(s);
    a.view = VIEW_NODE;
    s = bar_text(&a, KV_NODE);
    assert_string_equal(s, "Up/Dn Scroll r Refresh ? Help q Back");
    free(s);
    s = bar_text(&a, KV_HELP);
    assert_string_equal(s, "q Back");
    free(s);
    s = bar_text(&a, KV_EDIT);                         /* after what is typed */
    assert_string_equal(s, "Enter Apply Esc Cancel");
    free(s);
    /* while typing, q is text: no row of KV_EDIT takes it */
    assert_null(keymap_find(&tui_app_keymap, KV_EDIT, 'q'));
    assert_non_null(keymap_find(&tui_app_keymap, KV_EDIT, 27));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dispatch),
        cmocka_unit_test(test_bar_from_rows),
        cmocka_unit_test(test_help_from_rows),
        cmocka_unit_test(test_top_rows_complete),
        cmocka_unit_test(test_top_bars),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

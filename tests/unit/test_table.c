/* Tables (render/table.h) on a terminal narrower than they are, and the rows -w prints:
 *  - a kept column (a quantity, a MIG profile, a status) is never cut: its brief form stands in
 *    ("gpu:16" for "nvidia.com/gpu:16"), free text gives way with an ellipsis (issue 34);
 *  - a table of kept columns alone stays wider than the terminal rather than cut a value;
 *  - piped (no width) every cell prints whole, in its full form;
 *  - table_diff: the rows added, changed and gone by key, in kubectl get -w's order, with or
 *    without the EVENT column; an AGE that ticked alone is no change. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render/table.h"

/* the table printed as to a terminal of width columns (0: piped), with its header */
static char *printed(const Table *t, size_t width, bool headers)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    table_assume_width(true, width);
    table_print_rows(t, f, false, headers);
    table_assume_width(false, 0);
    fclose(f);
    return buf;
}

/* the n-th line (0-based) of s, copied */
static char *line(const char *s, int n)
{
    for (; n > 0 && s; n--) { s = strchr(s, '\n'); if (s) s++; }
    if (!s) return strdup("");
    const char *e = strchr(s, '\n');
    return strndup(s, e ? (size_t)(e - s) : strlen(s));
}

static Table *pods_table(void)
{
    static const char *const h[] = { "NAME", "GPUS", "REASON" };
    Table *t = table_new(h, 3);
    table_cut_first(t, 2, 12);
    table_keep_col(t, 1);
    table_add_row(t);
    table_cell(t, "pod-a");
    table_cell_brief(t, "nvidia.com/gpu:16", "gpu:16");
    table_cell(t, "no node has 16 GPUs; the largest has 8 physical GPUs");
    return t;
}

static void test_brief_then_free_text(void **state)
{
    (void)state;
    Table *t = pods_table();
    /* 40 columns: NAME 5, GPUS "gpu:16" 6 (its brief form, as top), gaps 3 + 3: REASON keeps
     * 40 - 17 = 23 characters: the reason's first 22, then the ellipsis */
    char *out = printed(t, 40, true);
    char *row = line(out, 1);
    assert_string_equal(row, "pod-a   gpu:16   no node has 16 GPUs; t…");   /* 22 + "…" */
    free(row);
    free(out);
    /* piped: whole, the full resource name */
    out = printed(t, 0, true);
    row = line(out, 1);
    assert_non_null(strstr(row, "nvidia.com/gpu:16   no node has 16 GPUs; the largest has 8 physical GPUs"));
    free(row);
    free(out);
    table_free(t);
}

static void test_kept_columns_never_cut(void **state)
{
    (void)state;
    static const char *const h[] = { "STATUS", "ALLOC" };
    Table *t = table_new(h, 2);
    table_keep_col(t, 0);
    table_keep_col(t, 1);
    table_add_row(t);
    table_cell(t, "Ready,SchedulingDisabled,MIGConfigFailed");   /* 40 characters */
    table_cell(t, "123/456");
    char *out = printed(t, 30, true);
    assert_null(strstr(out, "\xe2\x80\xa6"));                   /* no ellipsis anywhere */
    char *row = line(out, 1);
    assert_string_equal(row, "Ready,SchedulingDisabled,MIGConfigFailed  123/456");   /* gaps of 2, then as wide as it is */
    free(row);
    free(out);
    table_free(t);
}

/* a pending-like table: NAME (key), AGE (the clock's), VERDICT */
static Table *rows(const char *const *names, const char *const *ages, const char *const *verdicts, size_t n)
{
    static const char *const h[] = { "NAME", "AGE", "VERDICT" };
    Table *t = table_new(h, 3);
    table_clock_col(t, 1);
    for (size_t i = 0; i < n; i++) {
        table_add_row(t);
        table_cell(t, names[i]);
        table_cell(t, ages[i]);
        table_cell(t, verdicts[i]);
        table_row_key(t, names[i]);
    }
    return t;
}

static void test_diff(void **state)
{
    (void)state;
    static const char *const n0[] = { "a", "b", "c" }, *const a0[] = { "1m", "1m", "1m" },
                             *const v0[] = { "Taint", "Quota", "Gated" };
    /* a: only its age ticked (no change); b: verdict changed; c: gone; d: new */
    static const char *const n1[] = { "a", "b", "d" }, *const a1[] = { "2m", "1m", "0s" },
                             *const v1[] = { "Taint", "Insufficient", "TooLarge" };
    Table *old = rows(n0, a0, v0, 3), *now = rows(n1, a1, v1, 3);
    Table *d = table_diff(old, now, true);
    assert_int_equal(table_rows(d), 3);
    char *out = printed(d, 0, false);
    char *l0 = line(out, 0), *l1 = line(out, 1), *l2 = line(out, 2);
    /* changed and added in the new table's order, then the gone row's last state */
    assert_true(strncmp(l0, "MODIFIED", 8) == 0 && strstr(l0, " b ") && strstr(l0, "Insufficient"));
    assert_true(strncmp(l1, "ADDED", 5) == 0 && strstr(l1, " d ") && strstr(l1, "TooLarge"));
    assert_true(strncmp(l2, "DELETED", 7) == 0 && strstr(l2, " c ") && strstr(l2, "Gated"));
    free(l0); free(l1); free(l2);
    free(out);
    table_free(d);
    /* without events: the same rows, no EVENT column; none old: every row (the first table) */
    d = table_diff(old, now, false);
    out = printed(d, 0, false);
    l0 = line(out, 0);
    assert_true(l0[0] == 'b');
    free(l0);
    free(out);
    table_free(d);
    d = table_diff(NULL, now, true);
    assert_int_equal(table_rows(d), 3);
    out = printed(d, 0, true);
    l0 = line(out, 0);
    assert_true(strncmp(l0, "EVENT", 5) == 0 && strstr(l0, "VERDICT"));
    free(l0);
    free(out);
    table_free(d);
    /* nothing changed but ages: no row */
    Table *later = rows(n1, a0, v1, 3);
    d = table_diff(now, later, true);
    assert_int_equal(table_rows(d), 0);
    table_free(d);
    table_free(later);
    table_free(old);
    table_free(now);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_brief_then_free_text),
        cmocka_unit_test(test_kept_columns_never_cut),
        cmocka_unit_test(test_diff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

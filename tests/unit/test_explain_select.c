/* Unit tests: explain_select.c — which nodes `pending -o json` lists per pod (the nearest to
 * holding it, bounded) and the counts by rank, on hand-made per-node results. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/explain.h"

#define N 7
static Node nodes[N];
static NodeResult results[N];
static NodeReason reasons[N][2];
static unsigned char rank[N];

/* node i: rank r, k reasons; an Insufficient reason with `free` GPUs when free >= 0 */
static void set(size_t i, int r, size_t k, int64_t free_)
{
    results[i].node = &nodes[i];
    results[i].reasons = reasons[i];
    results[i].nreasons = k;
    for (size_t j = 0; j < k; j++) {
        reasons[i][j].code = j == 0 && free_ >= 0 ? NR_INSUFFICIENT : NR_UNSCHEDULABLE;
        reasons[i][j].free = free_;
    }
    rank[i] = (unsigned char)r;
}

static Explanation make(void)
{
    static char names[N][8];
    for (size_t i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "n%zu", i);
        nodes[i].name = names[i];
    }
    Explanation e;
    memset(&e, 0, sizeof e);
    e.nodes = results;
    e.nnodes = N;
    e.node_rank = rank;
    return e;
}

static void test_nearest_first_bounded(void **state)
{
    (void)state;
    Explanation e = make();
    set(0, 3, 1, -1);          /* could never hold it */
    set(1, 1, 1, 0);           /* busy, none free */
    set(2, 1, 1, 2000);        /* busy, 2 free: nearer than n1 */
    set(3, 2, 1, -1);          /* excluded by the pod's constraints */
    set(4, 1, 2, 3000);        /* busy and cordoned: two reasons, after the one-reason nodes */
    set(5, 0, 0, -1);          /* fits now: first */
    set(6, 1, 1, 2000);        /* ties n2: cluster order */
    size_t idx[N];
    size_t n = explanation_nodes_that_matter(&e, N, idx);
    size_t want[] = { 5, 2, 6, 1, 4, 3 };
    assert_int_equal(n, 6);    /* never n0: other nodes matter more */
    for (size_t i = 0; i < n; i++) assert_int_equal(idx[i], want[i]);
    n = explanation_nodes_that_matter(&e, 3, idx);     /* bounded: the 3 nearest */
    assert_int_equal(n, 3);
    for (size_t i = 0; i < n; i++) assert_int_equal(idx[i], want[i]);
    NodeCounts k;
    explanation_node_counts(&e, &k);
    assert_int_equal(k.total, 7);
    assert_int_equal(k.fits_now, 1);
    assert_int_equal(k.admits, 4);
    assert_int_equal(k.excluded, 1);
    assert_int_equal(k.never, 1);
}

static void test_only_never(void **state)
{
    (void)state;
    Explanation e = make();
    for (size_t i = 0; i < N; i++) set(i, 3, i % 2 ? 2 : 1, -1);
    size_t idx[N];
    size_t n = explanation_nodes_that_matter(&e, 2, idx);
    assert_int_equal(n, 2);    /* none could hold it: the nearest of those, fewer reasons first */
    assert_int_equal(idx[0], 0);
    assert_int_equal(idx[1], 2);
    assert_int_equal(explanation_nodes_that_matter(&e, 0, idx), 0);
    e.nnodes = 0;
    assert_int_equal(explanation_nodes_that_matter(&e, 2, idx), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nearest_first_bounded),
        cmocka_unit_test(test_only_never),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

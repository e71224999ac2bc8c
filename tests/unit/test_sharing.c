/* Unit tests: time-slicing / MPS replica counts and GPUs after sharing (sharing.c).
 * Expected values are worked by hand in the comments, or checked by brute force written here:
 * every r-subset of the shared workloads is tried as a co-located set (the worst case the
 * scheduler may produce), and every choice of workloads to keep whole is tried for the count.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "analysis/sharing.h"

static ShareParams ts(int64_t mem, double headroom)
{
    ShareParams p = { .mode = SHARE_TIME_SLICING, .gpu_memory_mib = mem, .cc_major = 8, .cc_minor = 0,
                      .headroom_pct = headroom };
    return p;
}

static ShareParams mps(int64_t mem, double headroom, int ccmaj, int ccmin)
{
    ShareParams p = { .mode = SHARE_MPS, .gpu_memory_mib = mem, .cc_major = ccmaj, .cc_minor = ccmin,
                      .headroom_pct = headroom };
    return p;
}

static SharePlan plan(const ShareParams *p, const ShareWorkload *w, size_t n)
{
    SharePlan s;
    assert_int_equal(sharing_plan(p, w, n, &s), 0);
    return s;
}

static void test_time_slicing_by_hand(void **state)
{
    (void)state;
    ShareParams p = ts(81920, 10);
    ShareWorkload w[12];
    /* 5 x (10000 MiB, 10 %): sized 11000 / 11 %; memory allows 7, compute 9, but only 5 */
    for (int i = 0; i < 5; i++) w[i] = (ShareWorkload){ 10000, 10, 1 };
    SharePlan s = plan(&p, w, 5);
    assert_true(s.possible);
    assert_int_equal(s.max_replicas, 5);
    assert_int_equal(s.limit, SHARE_LIMIT_WORKLOADS);
    assert_int_equal(s.replicas, 5);
    assert_int_equal(s.gpus_before, 5);
    assert_int_equal(s.gpus_after, 1);
    sharing_plan_clear(&s);
    /* 10 x 20000 MiB: sized 22000, 3 x 22000 = 66000 <= 81920 < 88000 -> 3, memory-bound;
     * 4 GPUs; the smallest count giving 4 GPUs for 10 workloads is 3 */
    for (int i = 0; i < 10; i++) w[i] = (ShareWorkload){ 20000, 5, 1 };
    s = plan(&p, w, 10);
    assert_int_equal(s.max_replicas, 3);
    assert_int_equal(s.limit, SHARE_LIMIT_MEMORY);
    assert_int_equal(s.gpus_after, 4);
    assert_int_equal(s.replicas, 3);
    sharing_plan_clear(&s);
    /* 10 x 30 %: sized 33, 3 x 33 = 99 <= 100 < 132 -> 3, compute-bound */
    for (int i = 0; i < 10; i++) w[i] = (ShareWorkload){ 1000, 30, 1 };
    s = plan(&p, w, 10);
    assert_int_equal(s.max_replicas, 3);
    assert_int_equal(s.limit, SHARE_LIMIT_COMPUTE);
    assert_int_equal(s.gpus_after, 4);
    sharing_plan_clear(&s);
    /* 9 workloads -> 4 GPUs? no: ceil(9/3) = 3 GPUs, replicas 3 */
    s = plan(&p, w, 9);
    assert_int_equal(s.gpus_after, 3); assert_int_equal(s.replicas, 3);
    sharing_plan_clear(&s);
    /* 7 workloads with max 3 -> 3 GPUs; the smallest count for 3 GPUs is ceil(7/3) = 3;
     * with 5 workloads -> 2 GPUs, replicas ceil(5/2) = 3 */
    s = plan(&p, w, 5);
    assert_int_equal(s.gpus_after, 2); assert_int_equal(s.replicas, 3);
    sharing_plan_clear(&s);
}

static void test_outsized_workload_kept_whole(void **state)
{
    (void)state;
    /* 40000 + 30000 + 8 x 5000 MiB, headroom 10: together 44000 + 33000 = 77000 leaves no
     * room for a third (82500 > 81920) -> 2 replicas, 5 GPUs.  With the 40000 one on its own
     * GPU: 33000 + 8 x 5500 = 77000 fits -> 9 replicas, 1 + 1 = 2 GPUs. */
    ShareParams p = ts(81920, 10);
    ShareWorkload w[10];
    w[0] = (ShareWorkload){ 40000, 20, 1 };
    w[1] = (ShareWorkload){ 30000, 20, 1 };
    for (int i = 2; i < 10; i++) w[i] = (ShareWorkload){ 5000, 5, 1 };
    assert_int_equal(sharing_max_replicas(&p, w, NULL, 10, NULL), 2);
    SharePlan s = plan(&p, w, 10);
    assert_true(s.possible);
    assert_false(s.shared[0]);
    for (int i = 1; i < 10; i++) assert_true(s.shared[i]);
    assert_int_equal(s.max_replicas, 9);
    assert_int_equal(s.replicas, 9);
    assert_int_equal(s.gpus_shared, 1);
    assert_int_equal(s.gpus_whole, 1);
    assert_int_equal(s.gpus_after, 2);
    assert_int_equal(s.gpus_before, 10);
    sharing_plan_clear(&s);
}

static void test_not_shareable(void **state)
{
    (void)state;
    ShareParams p = ts(81920, 10);
    /* two workloads of 50000 MiB never fit together */
    ShareWorkload w[4] = { { 50000, 10, 1 }, { 50000, 10, 1 } };
    SharePlan s = plan(&p, w, 2);
    assert_false(s.possible);
    assert_non_null(s.reason);
    assert_int_equal(s.gpus_after, 2);
    assert_false(s.shared[0] || s.shared[1]);
    sharing_plan_clear(&s);
    /* one workload: nothing to share */
    s = plan(&p, w, 1);
    assert_false(s.possible);
    assert_int_equal(s.gpus_after, 1);
    sharing_plan_clear(&s);
    /* multi-GPU requests and unknown usage keep whole GPUs */
    ShareWorkload v[4] = { { 1000, 5, 4 }, { -1, 0, 1 }, { 1000, 5, 1 }, { 1000, 5, 1 } };
    s = plan(&p, v, 4);
    assert_true(s.possible);
    assert_false(s.shared[0]); assert_false(s.shared[1]);
    assert_true(s.shared[2]); assert_true(s.shared[3]);
    assert_int_equal(s.gpus_before, 7);
    assert_int_equal(s.gpus_whole, 5);
    assert_int_equal(s.gpus_shared, 1);
    assert_int_equal(s.replicas, 2);
    assert_int_equal(s.gpus_after, 6);
    sharing_plan_clear(&s);
    /* MPS on MIG is refused */
    ShareParams q = mps(81920, 10, 8, 0);
    q.mig_enabled = true;
    s = plan(&q, v + 2, 2);
    assert_false(s.possible);
    assert_string_equal(s.reason, "MPS cannot share MIG-enabled GPUs");
    sharing_plan_clear(&s);
    /* bad parameters */
    ShareParams bad = ts(0, 0);
    assert_int_equal(sharing_plan(&bad, w, 2, &s), -1);
    sharing_plan_clear(&s);
}

static void test_mps_by_hand(void **state)
{
    (void)state;
    assert_int_equal(sharing_mps_client_limit(7, 5), 48);
    assert_int_equal(sharing_mps_client_limit(8, 0), 48);
    assert_int_equal(sharing_mps_client_limit(7, 0), 16);     /* V100 */
    assert_int_equal(sharing_mps_client_limit(0, 0), 16);     /* unknown */
    ShareWorkload w[64];
    /* 60 tiny workloads: memory allows 81, compute 100, the plugin 48 -> 2 GPUs of 30 */
    for (int i = 0; i < 60; i++) w[i] = (ShareWorkload){ 1000, 1, 1 };
    ShareParams p = mps(81920, 0, 8, 0);
    SharePlan s = plan(&p, w, 60);
    assert_int_equal(s.max_replicas, 48);
    assert_int_equal(s.limit, SHARE_LIMIT_PLUGIN);
    assert_int_equal(s.gpus_after, 2);
    assert_int_equal(s.replicas, 30);
    sharing_plan_clear(&s);
    /* CC 7.0: 16 clients -> 4 GPUs of 15 */
    p = mps(81920, 0, 7, 0);
    s = plan(&p, w, 60);
    assert_int_equal(s.max_replicas, 16);
    assert_int_equal(s.gpus_after, 4);
    assert_int_equal(s.replicas, 15);
    sharing_plan_clear(&s);
    /* memory: per client floor(24576 / r) must hold 8192 -> r <= 3; 8193 -> r <= 2 */
    p = mps(24576, 0, 8, 0);
    for (int i = 0; i < 6; i++) w[i] = (ShareWorkload){ 8192, 1, 1 };
    assert_int_equal(sharing_max_replicas(&p, w, NULL, 6, NULL), 3);
    w[0].memory_mib = 8193;
    ShareLimit lim;
    assert_int_equal(sharing_max_replicas(&p, w, NULL, 6, &lim), 2);
    assert_int_equal(lim, SHARE_LIMIT_MEMORY);
    /* compute: 100 / r % each; 30 % -> r <= 3 (time-slicing: 3 x 30 = 90 also 3) */
    for (int i = 0; i < 6; i++) w[i] = (ShareWorkload){ 100, 30, 1 };
    assert_int_equal(sharing_max_replicas(&p, w, NULL, 6, &lim), 3);
    assert_int_equal(lim, SHARE_LIMIT_COMPUTE);
    /* MPS is stricter than time-slicing on uneven loads: 60 % + 4 x 10 % sums to 100 (TS: 5)
     * but 60 % needs 100/r >= 60 -> r = 1 under MPS unless the 60 % one is kept whole */
    w[0] = (ShareWorkload){ 100, 60, 1 };
    for (int i = 1; i < 5; i++) w[i] = (ShareWorkload){ 100, 10, 1 };
    ShareParams t = ts(24576, 0);
    assert_int_equal(sharing_max_replicas(&t, w, NULL, 5, NULL), 5);
    assert_int_equal(sharing_max_replicas(&p, w, NULL, 5, NULL), 1);
    s = plan(&p, w, 5);
    assert_false(s.shared[0]);
    assert_int_equal(s.replicas, 4);
    assert_int_equal(s.gpus_after, 2);
    sharing_plan_clear(&s);
    /* MPS on MIG: no replicas at all */
    p.mig_enabled = true;
    assert_int_equal(sharing_max_replicas(&p, w, NULL, 5, NULL), 0);
}

/* ---- brute force ---- */

static double grow(const ShareParams *p) { return 1.0 + p->headroom_pct / 100.0; }

/* every r-subset of idx[0..n) co-located is safe */
static bool subset_safe(const ShareParams *p, const ShareWorkload *w, const int *idx, int n, int r)
{
    if (r > n) return false;
    int pick[16];
    for (int i = 0; i < r; i++) pick[i] = i;
    for (;;) {
        double mem = 0, util = 0;
        for (int i = 0; i < r; i++) {
            const ShareWorkload *x = &w[idx[pick[i]]];
            double m = (double)x->memory_mib * grow(p), u = x->utilization * grow(p);
            if (p->mode == SHARE_MPS) {
                if (m > (double)(p->gpu_memory_mib / r)) return false;     /* integer division */
                if (u > (double)(100 / r)) return false;
            }
            mem += m; util += u;
        }
        if (p->mode == SHARE_TIME_SLICING && (mem > (double)p->gpu_memory_mib + 1e-9 || util > 100 + 1e-9))
            return false;
        int i = r - 1;
        while (i >= 0 && pick[i] == n - r + i) i--;
        if (i < 0) return true;
        pick[i]++;
        for (int j = i + 1; j < r; j++) pick[j] = pick[j - 1] + 1;
    }
}

static int brute_max_r(const ShareParams *p, const ShareWorkload *w, const int *idx, int n)
{
    int lim = p->mode == SHARE_MPS ? sharing_mps_client_limit(p->cc_major, p->cc_minor) : n;
    int best = 0;
    for (int r = 1; r <= n && r <= lim; r++) if (subset_safe(p, w, idx, n, r)) best = r;
    return best;
}

/* fewest GPUs over every choice of shared set (all workloads single-GPU with usage) */
static int brute_min_gpus(const ShareParams *p, const ShareWorkload *w, int n)
{
    int best = n;
    for (int mask = 0; mask < (1 << n); mask++) {
        int idx[16], k = 0;
        for (int i = 0; i < n; i++) if (mask & (1 << i)) idx[k++] = i;
        if (k < 2) continue;
        int r = brute_max_r(p, w, idx, k);
        if (r < 2) continue;
        int g = (n - k) + (k + r - 1) / r;
        if (g < best) best = g;
    }
    return best;
}

static void test_against_brute_force(void **state)
{
    (void)state;
    unsigned seed = 2024;
#define RND(n) ((int)(((seed = seed * 1103515245u + 12345u) >> 16) % (unsigned)(n)))
    int exact_cases = 0;
    for (int t = 0; t < 400; t++) {
        int n = 2 + RND(8);
        bool memory_only = t % 2 == 0;
        int64_t gmem = 24576 + RND(60000);
        double head = RND(30);
        ShareParams p;
        if (t % 4 < 2) p = ts(gmem, head);
        else { int maj = 7 + RND(2); p = mps(gmem, head, maj, RND(10)); }
        ShareWorkload w[16];
        for (int i = 0; i < n; i++) {
            w[i].memory_mib = 200 + RND(30000);
            w[i].utilization = memory_only ? 0 : RND(60);
            w[i].gpus = 1;
        }
        /* the replica count for all of them is exactly the brute-force maximum */
        int idx[16];
        for (int i = 0; i < n; i++) idx[i] = i;
        assert_int_equal(sharing_max_replicas(&p, w, NULL, (size_t)n, NULL), brute_max_r(&p, w, idx, n));
        /* one set asked of several subsets (sorted once, as plan's unify step asks it) gives
         * each subset's brute-force maximum, and sharing_plan_set what sharing_plan gives */
        ShareSet *set = sharing_set_new(&p, w, (size_t)n);
        for (int q = 0; q < 4; q++) {
            bool inc[16];
            int sub[16], k = 0;
            for (int i = 0; i < n; i++) if ((inc[i] = RND(3) != 0)) sub[k++] = i;
            assert_int_equal(sharing_set_max_replicas(set, inc, NULL), k ? brute_max_r(&p, w, sub, k) : 0);
        }
        SharePlan from_set;
        assert_int_equal(sharing_plan_set(set, &from_set), 0);
        sharing_set_free(set);
        SharePlan s = plan(&p, w, (size_t)n);
        assert_int_equal(from_set.possible, s.possible);
        assert_int_equal(from_set.gpus_after, s.gpus_after);
        assert_int_equal(from_set.max_replicas, s.max_replicas);
        assert_memory_equal(from_set.shared, s.shared, (size_t)n);
        sharing_plan_clear(&from_set);
        int bmin = brute_min_gpus(&p, w, n);
        assert_true(s.gpus_after >= bmin);
        if (memory_only) { assert_int_equal(s.gpus_after, bmin); exact_cases++; }
        if (s.possible) {
            /* the advertised replicas are safe for the shared set, and give gpus_shared */
            int k = 0;
            for (int i = 0; i < n; i++) if (s.shared[i]) idx[k++] = i;
            assert_int_equal(k, s.shared_workloads);
            assert_true(s.replicas >= 2 && s.replicas <= s.max_replicas);
            assert_true(subset_safe(&p, w, idx, k, s.replicas));
            assert_true(subset_safe(&p, w, idx, k, s.max_replicas));
            assert_int_equal(s.gpus_shared, (k + s.replicas - 1) / s.replicas);
            assert_int_equal(s.gpus_after, s.gpus_shared + (n - k));
        } else {
            assert_int_equal(s.gpus_after, n);
        }
        sharing_plan_clear(&s);
    }
    assert_int_equal(exact_cases, 200);
#undef RND
}

static void test_many_workloads_fast(void **state)
{
    (void)state;
    /* 40,000 workloads: the plan stays fast (the 1024-exclusion bound) */
    size_t n = 40000;
    ShareWorkload *w = calloc(n, sizeof *w);
    for (size_t i = 0; i < n; i++) {
        w[i].memory_mib = 500 + (int64_t)((i * 7919) % 30000);
        w[i].utilization = (double)((i * 31) % 40);
        w[i].gpus = 1;
    }
    ShareParams p = ts(81920, 10);
    clock_t t0 = clock();
    SharePlan s = plan(&p, w, n);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    print_message("sharing: 40000 workloads -> %d GPUs (replicas %d) in %.3f s CPU\n",
                  s.gpus_after, s.replicas, secs);
    assert_true(s.possible);
    assert_true(secs < 2.0);
    sharing_plan_clear(&s);
    free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time_slicing_by_hand), cmocka_unit_test(test_outsized_workload_kept_whole),
        cmocka_unit_test(test_not_shareable), cmocka_unit_test(test_mps_by_hand),
        cmocka_unit_test(test_against_brute_force), cmocka_unit_test(test_many_workloads_fast),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

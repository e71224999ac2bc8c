/* Unit tests: plan.c — groups by product, strategy choice, GPUs before/after, assignments.
 * Expected numbers are worked by hand in the comments from the rules of plan.h, mig.h and
 * sharing.h and the table values of mig-profiles.md (A100 80GB 1g.10gb = 9728 MiB,
 * 3g.40gb = 40192 MiB).
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
#include "plan.h"

static Node mknode(const char *name, const char *product, int gpus, int64_t mem, int ccmaj, int ccmin)
{
    Node n;
    memset(&n, 0, sizeof n);
    n.name = (char *)name;
    n.ready = true;
    n.gpu.has_gfd = n.gpu.present = true;
    n.gpu.product = n.gpu.base_product = (char *)product;
    n.gpu.count = gpus;
    n.gpu.memory_mib = mem;
    n.gpu.replicas = 1;
    char b[16];
    snprintf(b, sizeof b, "%d", ccmaj); kv_set(&n.labels, "nvidia.com/gpu.compute.major", b);
    snprintf(b, sizeof b, "%d", ccmin); kv_set(&n.labels, "nvidia.com/gpu.compute.minor", b);
    return n;
}

static PlanWorkload wl(const char *name, const char *node, const char *res, int count,
                       bool usage, int64_t mem, double util)
{
    PlanWorkload w = { .ns = "ml", .name = name, .node = node, .resource = res, .count = count,
                       .has_usage = usage, .memory_mib = mem, .utilization = util };
    return w;
}

static const PlanGroup *group(const PlanResult *r, const char *product)
{
    for (size_t i = 0; i < r->ngroups; i++)
        if (strcmp(r->groups[i].product, product) == 0) return &r->groups[i];
    fail_msg("no group %s", product);
    return NULL;
}

static const char *label(const PlanGroup *g, const PlanWorkload *w, const char *name, char *buf)
{
    for (size_t i = 0; i < g->nassign; i++)
        if (strcmp(w[g->assign[i].workload].name, name) == 0)
            return plan_assignment_label(&g->assign[i], buf, 64);
    fail_msg("no workload %s", name);
    return NULL;
}

static void test_mixed_fleet(void **state)
{
    (void)state;
    Node a = mknode("a100-a", "NVIDIA-A100-SXM4-80GB", 8, 81920, 8, 0);
    Node b = mknode("a100-b", "NVIDIA-A100-SXM4-80GB", 8, 81920, 8, 0);
    Node t = mknode("t4-a", "Tesla-T4", 4, 15360, 7, 5);
    const Node *nodes[] = { &t, &b, &a };
    PlanWorkload w[32];
    size_t n = 0;
    char nm[16][24];
    /* node a: 7 inference pods, 8000 MiB / 5 %: x1.1 = 8800 MiB <= 9728 -> 1g.10gb each */
    for (int i = 0; i < 7; i++) {
        snprintf(nm[i], sizeof nm[i], "infer-%d", i);
        w[n++] = wl(nm[i], "a100-a", "nvidia.com/gpu", 1, true, 8000, 5);
    }
    /* node b: 2 x 30000 MiB / 30 % (33000 MiB, 2.31 -> 3 slices: 3g.40gb), a 4-GPU trainer,
     * one pod without usage data */
    w[n++] = wl("mid-0", "a100-b", "nvidia.com/gpu", 1, true, 30000, 30);
    w[n++] = wl("mid-1", "a100-b", "nvidia.com/gpu", 1, true, 30000, 30);
    w[n++] = wl("train", "a100-b", "nvidia.com/gpu", 4, true, 70000, 95);
    w[n++] = wl("blind", "a100-b", "nvidia.com/gpu", 1, false, 0, 0);
    /* T4: 4 pods of 2000 MiB / 10 % */
    for (int i = 0; i < 4; i++) {
        snprintf(nm[8 + i], sizeof nm[8 + i], "t4-%d", i);
        w[n++] = wl(nm[8 + i], "t4-a", "nvidia.com/gpu", 1, true, 2000, 10);
    }
    w[n++] = wl("elsewhere", "cpu-node", "nvidia.com/gpu", 1, true, 1, 1);

    PlanOptions o = { .choice = PLAN_CHOICE_AUTO, .headroom_pct = 10 };
    PlanResult r;
    assert_int_equal(plan_build(nodes, 3, w, n, &o, &r), 0);
    assert_int_equal(r.ngroups, 2);
    assert_string_equal(r.groups[0].product, "NVIDIA-A100-SXM4-80GB");   /* sorted */
    assert_int_equal(r.warnings.n, 1);

    const PlanGroup *g = group(&r, "NVIDIA-A100-SXM4-80GB");
    assert_int_equal(g->nodes.n, 2);
    assert_string_equal(g->nodes.v[0], "a100-a");
    assert_int_equal(g->physical_gpus, 16);
    /* before: node a 7, node b 2 + 4 + 1 = 7 */
    assert_int_equal(g->gpus_before, 14);
    /* MIG: 7x 1g.10gb + 2x 3g.40gb = 13 compute slices -> 2 GPUs ({3g, 1g x4} + {3g, 1g x3}),
     * plus 4 + 1 whole = 7 */
    assert_int_equal(g->after_mig, 7);
    /* time-slicing: sized 33000, 33000, 8800 ... -> 3 fit (74800; a 4th makes 83600) ->
     * 9 sharers on 3 GPUs + 5 whole = 8 (keeping the big ones whole also gives 8) */
    assert_int_equal(g->after_time_slicing, 8);
    /* MPS: 81920 / 33000 -> 2 clients; without the two 33000 ones: 7 -> 5 + 2 + 1 = 8 */
    assert_int_equal(g->after_mps, 8);
    assert_int_equal(g->strategy, PLAN_MIG);
    assert_int_equal(g->gpus_after, 7);
    assert_int_equal(g->mig.gpus, 2);
    assert_true(g->mig.optimal);
    char buf[64];
    assert_string_equal(label(g, w, "infer-3", buf), "mig-1g.10gb");
    assert_string_equal(label(g, w, "mid-1", buf), "mig-3g.40gb");
    assert_string_equal(label(g, w, "train", buf), "whole");
    assert_string_equal(label(g, w, "blind", buf), "whole");
    for (size_t i = 0; i < g->nassign; i++) {
        const PlanAssignment *as = &g->assign[i];
        if (strcmp(w[as->workload].name, "train") == 0) { assert_int_equal(as->gpus, 4); assert_string_equal(as->why, "uses several GPUs"); }
        if (strcmp(w[as->workload].name, "blind") == 0) { assert_int_equal(as->gpus, 1); assert_string_equal(as->why, "no usage data"); assert_int_equal(as->sized_memory_mib, -1); }
        if (strcmp(w[as->workload].name, "infer-0") == 0) assert_int_equal(as->sized_memory_mib, 8800);
    }
    assert_non_null(g->tradeoff);

    /* T4: no MIG; time-slicing 4 on 1 GPU; MPS: 15360 / 2200 -> 6, 100 / 11 -> 9, 4 pods ->
     * 4 on 1 GPU; tie -> MPS (stronger isolation) */
    g = group(&r, "Tesla-T4");
    assert_null(g->model);
    assert_int_equal(g->after_mig, -1);
    assert_int_equal(g->after_time_slicing, 1);
    assert_int_equal(g->after_mps, 1);
    assert_int_equal(g->strategy, PLAN_MPS);
    assert_int_equal(g->replicas, 4);
    assert_int_equal(g->gpus_before, 4);
    assert_int_equal(g->gpus_after, 1);
    assert_string_equal(label(g, w, "t4-2", buf), "shared");
    assert_int_equal(g->cc_major, 7); assert_int_equal(g->cc_minor, 5);

    assert_int_equal(r.gpus_before, 18);
    assert_int_equal(r.gpus_after, 8);
    plan_result_free(&r);

    /* forced time-slicing on the same input */
    o.choice = PLAN_CHOICE_TIME_SLICING;
    assert_int_equal(plan_build(nodes, 3, w, n, &o, &r), 0);
    g = group(&r, "NVIDIA-A100-SXM4-80GB");
    assert_int_equal(g->strategy, PLAN_TIME_SLICING);
    assert_int_equal(g->gpus_after, 8);
    assert_int_equal(g->replicas, 3);
    assert_int_equal(g->after_mig, -1);        /* not evaluated */
    plan_result_free(&r);
    kv_free(&a.labels); kv_free(&b.labels); kv_free(&t.labels);
}

static void test_nothing_to_gain_and_not_possible(void **state)
{
    (void)state;
    Node a = mknode("big", "NVIDIA-A100-SXM4-80GB", 1, 81920, 8, 0);
    Node l = mknode("l4", "NVIDIA-L4", 2, 23034, 8, 9);
    const Node *nodes[] = { &a, &l };
    PlanWorkload w[] = {
        wl("huge", "big", "nvidia.com/gpu", 1, true, 70000, 50),   /* 77000 > 40192: whole */
        wl("l4-0", "l4", "nvidia.com/gpu", 1, true, 1000, 5),
        wl("l4-1", "l4", "nvidia.com/gpu", 1, true, 1000, 5),
    };
    PlanOptions o = { .choice = PLAN_CHOICE_AUTO, .headroom_pct = 10 };
    PlanResult r;
    assert_int_equal(plan_build(nodes, 2, w, 3, &o, &r), 0);
    const PlanGroup *g = group(&r, "NVIDIA-A100-SXM4-80GB");
    assert_int_equal(g->strategy, PLAN_NONE);
    assert_int_equal(g->gpus_before, 1);
    assert_int_equal(g->gpus_after, 1);
    assert_true(g->notes.n >= 1);
    plan_result_free(&r);
    /* MIG asked on L4s: none, with the reason */
    o.choice = PLAN_CHOICE_MIG;
    assert_int_equal(plan_build(nodes, 2, w, 3, &o, &r), 0);
    g = group(&r, "NVIDIA-L4");
    assert_int_equal(g->strategy, PLAN_NONE);
    assert_int_equal(g->gpus_after, g->gpus_before);
    bool said = false;
    for (size_t i = 0; i < g->notes.n; i++) said |= strstr(g->notes.v[i], "does not support MIG") != NULL;
    assert_true(said);
    plan_result_free(&r);
    kv_free(&a.labels); kv_free(&l.labels);
}

static void test_current_sharing_and_mig(void **state)
{
    (void)state;
    /* time-sliced node (replicas 4): four 1-replica pods hold one GPU */
    Node ts = mknode("ts", "NVIDIA-A100-SXM4-80GB", 2, 81920, 8, 0);
    ts.gpu.replicas = 4;
    ts.gpu.sharing = SHARING_TIME_SLICING;
    /* mixed MIG node: a 3g.40gb instance is half a GPU; its utilization is of the instance */
    Node mx = mknode("mx", "NVIDIA-A100-SXM4-80GB", 1, 81920, 8, 0);
    mx.gpu.mig_strategy = MIG_MIXED;
    const Node *nodes[] = { &ts, &mx };
    PlanWorkload w[] = {
        wl("s0", "ts", "nvidia.com/gpu", 1, true, 4000, 5),
        wl("s1", "ts", "nvidia.com/gpu", 1, true, 4000, 5),
        wl("s2", "ts", "nvidia.com/gpu", 1, true, 4000, 5),
        wl("s3", "ts", "nvidia.com/gpu", 1, true, 4000, 5),
        wl("m0", "mx", "nvidia.com/mig-3g.40gb", 1, true, 20000, 70),
        wl("m1", "mx", "nvidia.com/mig-3g.40gb", 1, false, 0, 0),
    };
    PlanOptions o = { .choice = PLAN_CHOICE_MIG, .headroom_pct = 0 };
    PlanResult r;
    assert_int_equal(plan_build(nodes, 2, w, 6, &o, &r), 0);
    const PlanGroup *g = &r.groups[0];
    /* before: ts ceil(4 x 1/4) = 1, mx ceil(0.5 + 0.5) = 1 */
    assert_int_equal(g->gpus_before, 2);
    /* m0: 70 % of a 3g = 30 % of the GPU -> 3 slices (2.1 -> 3), 20000 MiB -> 3g.40gb;
     * m1: no usage, keeps 3g.40gb; s*: 4000 MiB, 5 % -> 1g.10gb.
     * {3g, 3g} + 4x 1g: compute 10 -> 2 GPUs ({3g, 1g x4} and {3g}) */
    char buf[64];
    for (size_t i = 0; i < g->nassign; i++) {
        const PlanAssignment *as = &g->assign[i];
        const char *name = w[as->workload].name;
        if (name[0] == 's') assert_string_equal(plan_assignment_label(as, buf, sizeof buf), "mig-1g.10gb");
        else assert_string_equal(plan_assignment_label(as, buf, sizeof buf), "mig-3g.40gb");
        if (strcmp(name, "m0") == 0) assert_true(fabs(as->gpu_utilization - 30.0) < 1e-9);
    }
    assert_int_equal(g->mig.gpus, 2);
    assert_int_equal(g->gpus_after, 2);
    plan_result_free(&r);
    kv_free(&ts.labels); kv_free(&mx.labels);
}

static void test_choice_parse(void **state)
{
    (void)state;
    PlanChoice c;
    assert_true(plan_choice_parse("auto", &c)); assert_int_equal(c, PLAN_CHOICE_AUTO);
    assert_true(plan_choice_parse("time-slicing", &c)); assert_int_equal(c, PLAN_CHOICE_TIME_SLICING);
    assert_true(plan_choice_parse("mps", &c)); assert_int_equal(c, PLAN_CHOICE_MPS);
    assert_true(plan_choice_parse("mig", &c)); assert_int_equal(c, PLAN_CHOICE_MIG);
    assert_false(plan_choice_parse("timeslicing", &c));
    assert_false(plan_choice_parse(NULL, &c));
    assert_string_equal(plan_strategy_name(PLAN_TIME_SLICING), "time-slicing");
    assert_string_equal(plan_strategy_name(PLAN_NONE), "none");
    PlanAssignment a = { .kind = PLAN_ASSIGN_MIG };
    const MigGpuModel *m = mig_model_for_product("NVIDIA-A100-SXM4-80GB");
    a.profile = mig_model_profile(m, "1g.10gb+me");
    char buf[64];
    assert_string_equal(plan_assignment_label(&a, buf, sizeof buf), "mig-1g.10gb.me");
}

/* 5,000 nodes x 8 GPUs: the plan's computation stays well under 2 s CPU */
static void test_plan_scale(void **state)
{
    (void)state;
    size_t nn = 5000, per = 8;
    Node *ns = calloc(nn, sizeof *ns);
    const Node **np = calloc(nn, sizeof *np);
    char (*names)[24] = calloc(nn, sizeof *names);
    const char *prods[] = { "NVIDIA-A100-SXM4-80GB", "NVIDIA-H100-80GB-HBM3", "NVIDIA-L4", "NVIDIA-A30" };
    int64_t mems[] = { 81920, 81559, 23034, 24576 };
    for (size_t i = 0; i < nn; i++) {
        snprintf(names[i], sizeof names[i], "node-%05zu", i);
        ns[i] = mknode(names[i], prods[i % 4], (int)per, mems[i % 4], 8, 0);
        np[i] = &ns[i];
    }
    size_t nw = nn * per;
    PlanWorkload *w = calloc(nw, sizeof *w);
    unsigned seed = 7;
    for (size_t i = 0; i < nw; i++) {
        seed = seed * 1103515245u + 12345u;
        int64_t mem = 500 + (int64_t)((seed >> 8) % 20000);
        double util = (double)((seed >> 4) % 60);
        w[i] = wl("w", names[i / per], "nvidia.com/gpu", 1, (seed >> 20) % 10 != 0, mem, util);
    }
    PlanOptions o = { .choice = PLAN_CHOICE_AUTO, .headroom_pct = 10 };
    PlanResult r;
    clock_t t0 = clock();
    assert_int_equal(plan_build(np, nn, w, nw, &o, &r), 0);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    print_message("plan: %zu nodes, %zu workloads: %d -> %d GPUs in %.3f s CPU\n",
                  nn, nw, r.gpus_before, r.gpus_after, secs);
    assert_int_equal(r.ngroups, 4);
    assert_int_equal(r.gpus_before, (int)nw);
    assert_true(r.gpus_after < r.gpus_before);
    assert_true(secs < 2.0);
    plan_result_free(&r);
    for (size_t i = 0; i < nn; i++) kv_free(&ns[i].labels);
    free(w); free(names); free(np); free(ns);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mixed_fleet), cmocka_unit_test(test_nothing_to_gain_and_not_possible),
        cmocka_unit_test(test_current_sharing_and_mig), cmocka_unit_test(test_choice_parse),
        cmocka_unit_test(test_plan_scale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

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
#include "analysis/plan.h"
#include "node_builder.h"
#include "model/cluster.h"
#include "util/error.h"
#include "model_fixture.h"

#define mknode test_gpu_node

static PlanWorkload wl(const char *name, const char *node, const char *res, int count,
                       bool usage, int64_t mem, double util)
{
    PlanWorkload w = { .ns = "ml", .name = name, .node = node, .resource = res, .count = count,
                       .has_usage = usage, .memory_mib = mem, .utilization = util,
                       .peak_memory_mib = -1, .peak_utilization = NAN, .coverage = NAN };
    return w;
}

/* a device plugin v0.20.0 (MPS and packed allocation known), MIG strategy not set by an
 * operator: what most tests plan against */
static const PlanCurrent cur20 = { .dp_version = { 0, 20, 0 }, .dp_version_known = true,
                                   .dp_version_text = "v0.20.0", .operator_ns = "gpu-operator" };

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

    PlanOptions o = { .choice = PLAN_CHOICE_AUTO, .headroom_pct = 10, .cur = &cur20 };
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
        if (strcmp(w[as->workload].name, "train") == 0) { assert_int_equal(as->gpus, 4); assert_string_equal(plan_assignment_why(as), "uses several GPUs"); }
        if (strcmp(w[as->workload].name, "blind") == 0) { assert_int_equal(as->gpus, 1); assert_string_equal(plan_assignment_why(as), "no usage data"); assert_int_equal(as->sized_memory_mib, -1); }
        if (strcmp(w[as->workload].name, "infer-0") == 0) assert_int_equal(as->sized_memory_mib, 8800);
    }
    assert_non_null(g->tradeoff);

    /* T4: no MIG; time-slicing 4 on 1 GPU; MPS: 15360 / 2200 -> 6, 100 / 11 -> 9, 4 pods ->
     * 4 on 1 GPU (packed allocation: 1 GPU); the tie stays with time-slicing: no peak memory is
     * known, so MPS's per-client limit cannot be shown safe */
    g = group(&r, "Tesla-T4");
    assert_null(g->model);
    assert_int_equal(g->after_mig, -1);
    assert_int_equal(g->after_time_slicing, 1);
    assert_int_equal(g->after_mps, 1);
    assert_int_equal(g->strategy, PLAN_TIME_SLICING);
    assert_true(g->packed);
    assert_int_equal(g->replicas, 4);
    assert_int_equal(g->gpus_before, 4);
    assert_int_equal(g->gpus_after, 1);
    assert_string_equal(label(g, w, "t4-2", buf), "shared");
    assert_int_equal(g->cc_major, 7); assert_int_equal(g->cc_minor, 5);

    assert_int_equal(r.gpus_before, 18);
    assert_int_equal(r.gpus_after, 8);
    plan_result_clear(&r);

    /* forced time-slicing on the same input */
    o.choice = PLAN_CHOICE_TIME_SLICING;
    assert_int_equal(plan_build(nodes, 3, w, n, &o, &r), 0);
    g = group(&r, "NVIDIA-A100-SXM4-80GB");
    assert_int_equal(g->strategy, PLAN_TIME_SLICING);
    assert_int_equal(g->gpus_after, 8);
    assert_int_equal(g->replicas, 3);
    assert_int_equal(g->after_mig, -1);        /* not evaluated */
    plan_result_clear(&r);
    kv_clear(&a.labels); kv_clear(&b.labels); kv_clear(&t.labels);
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
    PlanOptions o = { .choice = PLAN_CHOICE_AUTO, .headroom_pct = 10, .cur = &cur20 };
    PlanResult r;
    assert_int_equal(plan_build(nodes, 2, w, 3, &o, &r), 0);
    const PlanGroup *g = group(&r, "NVIDIA-A100-SXM4-80GB");
    assert_int_equal(g->strategy, PLAN_NONE);
    assert_int_equal(g->gpus_before, 1);
    assert_int_equal(g->gpus_after, 1);
    assert_true(g->notes.n >= 1);
    plan_result_clear(&r);
    /* MIG asked on L4s: none, with the reason */
    o.choice = PLAN_CHOICE_MIG;
    assert_int_equal(plan_build(nodes, 2, w, 3, &o, &r), 0);
    g = group(&r, "NVIDIA-L4");
    assert_int_equal(g->strategy, PLAN_NONE);
    assert_int_equal(g->gpus_after, g->gpus_before);
    bool said = false;
    for (size_t i = 0; i < g->notes.n; i++) said |= strstr(g->notes.v[i], "does not support MIG") != NULL;
    assert_true(said);
    plan_result_clear(&r);
    kv_clear(&a.labels); kv_clear(&l.labels);
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
    PlanOptions o = { .choice = PLAN_CHOICE_MIG, .headroom_pct = 0, .cur = &cur20 };
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
        /* headroom 0: sized = the GPU's share, 30 % */
        if (strcmp(name, "m0") == 0) assert_true(fabs(as->sized_utilization - 30.0) < 1e-9);
    }
    assert_int_equal(g->mig.gpus, 2);
    assert_int_equal(g->gpus_after, 2);
    plan_result_clear(&r);
    kv_clear(&ts.labels); kv_clear(&mx.labels);
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
    char (*wnames)[16] = calloc(nw, sizeof *wnames);
    unsigned seed = 7;
    for (size_t i = 0; i < nw; i++) {
        seed = seed * 1103515245u + 12345u;
        int64_t mem = 500 + (int64_t)((seed >> 8) % 20000);
        double util = (double)((seed >> 4) % 60);
        snprintf(wnames[i], sizeof wnames[i], "w-%zu", i);
        w[i] = wl(wnames[i], names[i / per], "nvidia.com/gpu", 1, (seed >> 20) % 10 != 0, mem, util);
    }
    PlanOptions o = { .choice = PLAN_CHOICE_AUTO, .headroom_pct = 10, .cur = &cur20 };
    PlanResult r;
    clock_t t0 = clock();
    assert_int_equal(plan_build(np, nn, w, nw, &o, &r), 0);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    print_message("plan: %zu nodes, %zu workloads: %d -> %d GPUs in %.3f s CPU\n",
                  nn, nw, r.gpus_before, r.gpus_after, secs);
    assert_int_equal(r.ngroups, 4);
    assert_int_equal(r.gpus_before, (int)nw);
    assert_true(r.gpus_after < r.gpus_before);
    if (!getenv("KGPU_VALGRIND")) assert_true(secs < 2.0);   /* valgrind runs ~50x slower */
    plan_result_clear(&r);
    for (size_t i = 0; i < nn; i++) kv_clear(&ns[i].labels);
    free(w); free(wnames); free(names); free(np); free(ns);
}

/* The rollout of test_mixed_fleet's plan: whole pods first fit decreasing (train 4 and blind 1
 * on a100-a), then the 2 MIG GPUs on a100-a's next free GPUs; a100-b stays whole. */
static void test_rollout(void **state)
{
    (void)state;
    Node a = mknode("a100-a", "NVIDIA-A100-SXM4-80GB", 8, 81920, 8, 0);
    Node b = mknode("a100-b", "NVIDIA-A100-SXM4-80GB", 8, 81920, 8, 0);
    Node t = mknode("t4-a", "Tesla-T4", 4, 15360, 7, 5);
    const Node *nodes[] = { &t, &b, &a };
    PlanWorkload w[16];
    size_t n = 0;
    char nm[8][24];
    for (int i = 0; i < 7; i++) {
        snprintf(nm[i], sizeof nm[i], "infer-%d", i);
        w[n++] = wl(nm[i], "a100-b", "nvidia.com/gpu", 1, true, 8000, 5);
    }
    w[n++] = wl("mid-0", "a100-b", "nvidia.com/gpu", 1, true, 30000, 30);
    w[n++] = wl("mid-1", "a100-b", "nvidia.com/gpu", 1, true, 30000, 30);
    w[n++] = wl("train", "a100-b", "nvidia.com/gpu", 4, true, 70000, 95);
    w[n++] = wl("blind", "a100-b", "nvidia.com/gpu", 1, false, 0, 0);
    w[n++] = wl("t4-0", "t4-a", "nvidia.com/gpu", 1, true, 2000, 10);
    w[n++] = wl("t4-1", "t4-a", "nvidia.com/gpu", 1, true, 2000, 10);
    PlanOptions o = { .choice = PLAN_CHOICE_AUTO, .headroom_pct = 10, .cur = &cur20 };
    PlanResult r;
    assert_int_equal(plan_build(nodes, 3, w, n, &o, &r), 0);
    const PlanGroup *g = group(&r, "NVIDIA-A100-SXM4-80GB");
    assert_string_equal(g->key, "a100-sxm4-80gb");
    assert_int_equal(g->strategy, PLAN_MIG);
    assert_int_equal(g->nplan_nodes, 2);
    const PlanNode *pa = &g->plan_nodes[0], *pb = &g->plan_nodes[1];
    assert_string_equal(pa->name, "a100-a");
    assert_int_equal(pa->whole_used, 5);
    assert_int_equal(pa->mig_gpus, 2);
    assert_int_equal(pa->gpu_layout[0] >= 0, 1);
    assert_int_equal(pa->gpu_layout[1] >= 0, 1);
    assert_int_equal(pa->gpu_layout[2], -1);
    /* names: kgpu-<group>-<word>-<8 hex of the content> */
    assert_int_equal(strncmp(pa->mig_config, "kgpu-a100-sxm4-80gb-mig-", 24), 0);
    assert_int_equal(strlen(pa->mig_config), 24 + 8);
    assert_int_equal(strncmp(pa->device_plugin_config, "kgpu-a100-sxm4-80gb-mig-", 24), 0);
    assert_string_not_equal(pa->mig_config, pa->device_plugin_config);
    assert_int_equal(rlist_get(&pa->expected, "nvidia.com/gpu"), 6000);
    assert_int_equal(rlist_get(&pa->expected, "nvidia.com/mig-1g.10gb"), 7000);
    assert_int_equal(rlist_get(&pa->expected, "nvidia.com/mig-3g.40gb"), 2000);
    assert_int_equal(pb->mig_gpus, 0);
    assert_string_equal(pb->mig_config, "all-disabled");
    assert_int_equal(rlist_get(&pb->expected, "nvidia.com/gpu"), 8000);
    /* one entry per workload, sorted by name, with its new request */
    assert_int_equal(g->nworkloads, 11);
    bool seen = false;
    for (size_t i = 0; i < g->nworkloads; i++) {
        const PlanWorkload *x = &w[g->assign[g->workloads[i].first].workload];
        if (strcmp(x->name, "infer-3") == 0) {
            assert_string_equal(g->workloads[i].request_resource, "nvidia.com/mig-1g.10gb");
            assert_int_equal(g->workloads[i].request_count, 1);
            seen = true;
        }
        if (strcmp(x->name, "train") == 0) {
            assert_string_equal(g->workloads[i].request_resource, "nvidia.com/gpu");
            assert_int_equal(g->workloads[i].request_count, 4);
        }
    }
    assert_true(seen);
    g = group(&r, "Tesla-T4");
    assert_int_equal(g->strategy, PLAN_TIME_SLICING);
    assert_true(g->plan_nodes[0].shared);
    assert_null(g->plan_nodes[0].mig_config);
    assert_int_equal(strncmp(g->plan_nodes[0].device_plugin_config, "kgpu-tesla-t4-time-slicing-", 27), 0);
    assert_int_equal(rlist_get(&g->plan_nodes[0].expected, "nvidia.com/gpu.shared"), 4 * 2 * 1000);
    plan_result_clear(&r);
    kv_clear(&a.labels); kv_clear(&b.labels); kv_clear(&t.labels);
}

/* The pods of one Deployment share or stay whole together.  T4 (15360 MiB), time-slicing,
 * headroom 10: Deployment "mid" 3 pods x 5000 MiB (5500 sized), 4 bare pods x 1000 (1100).
 * Per pod, sharing_plan keeps one mid pod whole: {5500, 5500, 1100 x4} = 15400 > 15360, so
 * 5 replicas -> 2 shared GPUs + 1 whole = 3 — but that splits "mid".  Consistent: all mid whole
 * (3) + 4 small on 1 GPU = 4, or all shared with 2 replicas (5500 x 3 > 15360) = 4; the tie
 * keeps mid whole. */
static void test_workload_consistency(void **state)
{
    (void)state;
    Node t = mknode("t4", "Tesla-T4", 8, 15360, 7, 5);
    const Node *nodes[] = { &t };
    PlanWorkload w[7];
    for (int i = 0; i < 3; i++) {
        w[i] = wl("mid", "t4", "nvidia.com/gpu", 1, true, 5000, 10);
        w[i].kind = "Deployment";
    }
    const char *small[] = { "s0", "s1", "s2", "s3" };
    for (int i = 0; i < 4; i++) w[3 + i] = wl(small[i], "t4", "nvidia.com/gpu", 1, true, 1000, 5);
    PlanOptions o = { .choice = PLAN_CHOICE_TIME_SLICING, .headroom_pct = 10, .cur = &cur20 };
    PlanResult r;
    assert_int_equal(plan_build(nodes, 1, w, 7, &o, &r), 0);
    const PlanGroup *g = &r.groups[0];
    assert_int_equal(g->strategy, PLAN_TIME_SLICING);
    assert_int_equal(g->gpus_after, 4);
    assert_int_equal(g->replicas, 4);
    for (size_t k = 0; k < g->nassign; k++) {
        const PlanWorkload *x = &w[g->assign[k].workload];
        assert_int_equal(g->assign[k].kind, strcmp(x->name, "mid") == 0 ? PLAN_ASSIGN_WHOLE : PLAN_ASSIGN_SHARED);
    }
    assert_int_equal(g->nworkloads, 5);
    for (size_t i = 0; i < g->nworkloads; i++)
        if (strcmp(w[g->assign[g->workloads[i].first].workload].name, "mid") == 0)
            assert_int_equal(g->workloads[i].pods, 3);
    plan_result_clear(&r);
    kv_clear(&t.labels);
}

/* A split workload may share whole, when that beats keeping it whole (plan_candidates.c
 * unify_sharing).  T4 (15360 MiB), time-slicing, headroom 10 (sizing x1.1): Deployment "mix"
 * pods A 6000 (6600 sized), B and C 1000 (1100); bare "b0", "b1" 4000 (4400).
 * Per pod (sharing_plan): all five: 6600+4400+4400 = 15400 > 15360 -> 2 replicas -> 3 GPUs;
 * A (largest share) whole: 4400+4400+1100+1100 = 11000 -> 4 replicas -> 1 + 1 = 2 GPUs: "mix"
 * split.  Together: all of "mix" whole = 3 + b0,b1 on one GPU (2 replicas) = 4; all shared =
 * 3 GPUs with 2 replicas (ceil(5/3)) -> shared wins.  And when the split workload's staying
 * whole leaves fewer than two pods to share, sharing is not possible, with the reason:
 * "mix" A 14000 (15400 > 15360 alone), B 1000; bare "b0" 1000 -> per pod A whole, B and b0
 * share; together all shared is impossible (A fits no replica) and all whole leaves b0 alone. */
static void test_workload_split_shares_or_stays(void **state)
{
    (void)state;
    Node t = mknode("t4", "Tesla-T4", 8, 15360, 7, 5);
    const Node *nodes[] = { &t };
    PlanWorkload w[5];
    const int64_t mem[] = { 6000, 1000, 1000 };
    for (int i = 0; i < 3; i++) {
        w[i] = wl("mix", "t4", "nvidia.com/gpu", 1, true, mem[i], 5);
        w[i].kind = "Deployment";
    }
    w[3] = wl("b0", "t4", "nvidia.com/gpu", 1, true, 4000, 5);
    w[4] = wl("b1", "t4", "nvidia.com/gpu", 1, true, 4000, 5);
    PlanOptions o = { .choice = PLAN_CHOICE_TIME_SLICING, .headroom_pct = 10, .cur = &cur20 };
    PlanResult r;
    assert_int_equal(plan_build(nodes, 1, w, 5, &o, &r), 0);
    const PlanGroup *g = &r.groups[0];
    assert_int_equal(g->strategy, PLAN_TIME_SLICING);
    assert_int_equal(g->gpus_before, 5);
    assert_int_equal(g->after_time_slicing, 3);
    assert_int_equal(g->gpus_after, 3);
    assert_int_equal(g->replicas, 2);
    for (size_t k = 0; k < g->nassign; k++) assert_int_equal(g->assign[k].kind, PLAN_ASSIGN_SHARED);
    plan_result_clear(&r);

    w[0].memory_mib = 14000;
    assert_int_equal(plan_build(nodes, 1, w, 4, &o, &r), 0);
    g = &r.groups[0];
    assert_int_equal(g->after_time_slicing, -1);
    assert_int_equal(g->strategy, PLAN_NONE);
    assert_int_equal(g->gpus_after, 4);
    bool said = false;
    for (size_t i = 0; i < g->notes.n; i++) said |= strstr(g->notes.v[i], "must stay whole") != NULL;
    assert_true(said);
    for (size_t k = 0; k < g->nassign; k++) assert_int_not_equal(g->assign[k].kind, PLAN_ASSIGN_SHARED);
    plan_result_clear(&r);
    kv_clear(&t.labels);
}

/* Usage from requests is not grown by the headroom: a 1g.10gb request (9728 MiB, the whole
 * instance) stays 1g.10gb; measured 9728 MiB would need 10701 -> 1g.20gb. */
static void test_requests_not_grown(void **state)
{
    (void)state;
    Node a = mknode("mx", "NVIDIA-A100-SXM4-80GB", 1, 81920, 8, 0);
    a.gpu.mig_strategy = MIG_MIXED;
    const Node *nodes[] = { &a };
    PlanWorkload w[2];
    w[0] = wl("req", "mx", "nvidia.com/mig-1g.10gb", 1, true, 9728, 100);
    w[0].from_requests = true;
    w[1] = wl("measured", "mx", "nvidia.com/mig-1g.10gb", 1, true, 9728, 50);
    PlanOptions o = { .choice = PLAN_CHOICE_MIG, .headroom_pct = 10, .cur = &cur20 };
    PlanResult r;
    assert_int_equal(plan_build(nodes, 1, w, 2, &o, &r), 0);
    char buf[64];
    const PlanGroup *g = &r.groups[0];
    assert_string_equal(label(g, w, "req", buf), "mig-1g.10gb");
    assert_string_equal(label(g, w, "measured", buf), "mig-1g.20gb");
    plan_result_clear(&r);
    kv_clear(&a.labels);
}

static void test_group_key(void **state)
{
    (void)state;
    const struct { const char *in, *out; } t[] = {
        { "NVIDIA-A100-SXM4-80GB", "a100-sxm4-80gb" }, { "Tesla-T4", "tesla-t4" },
        { "NVIDIA A100 80GB PCIe", "a100-80gb-pcie" }, { "--x__y--", "x-y" }, { NULL, "unknown" },
        { "NVIDIA-", "nvidia" }, { "???", "gpu" },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        char *k = plan_group_key(t[i].in);
        assert_string_equal(k, t[i].out);
        free(k);
    }
}

/* plan_input_build on tests/fixtures/plan/mixed.json: pods grouped by owner, pods that no
 * longer exist joined by their names, usage the maximum over a workload's pods. */
static void test_plan_input(void **state)
{
    (void)state;
    cJSON *j = load_fixture("tests/fixtures/plan/mixed.json");
    assert_non_null(j);
    Cluster c;
    cluster_init(&c);
    Error e = { 0 };
    const cJSON *item;
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(j, "items"))
        assert_int_equal(cluster_ingest(&c, OBJ__COUNT, item, &e), 0);
    cluster_finalize(&c);
    cJSON_Delete(j);
    const Node *nodes[8];
    size_t nn = 0;
    for (size_t i = 0; i < c.nnodes; i++) if (node_is_gpu_node(&c.nodes[i])) nodes[nn++] = &c.nodes[i];
    assert_int_equal(nn, 5);

    /* without metrics: requests */
    PlanInput in;
    plan_input_build(&in, &c, nodes, nn, NULL, 0, false);
    assert_true(in.from_requests);
    assert_int_equal(in.n, 4 + 4 + 2 + 1 + 5 + 6 + 3 + 1);     /* Succeeded and Pending pods: no */
    size_t chat = 0, embed = 0, train = 0, notebook = 0, asr = 0;
    for (size_t i = 0; i < in.n; i++) {
        const PlanWorkload *x = &in.w[i];
        assert_true(x->has_usage);
        assert_true(x->from_requests);
        if (strcmp(x->name, "chat") == 0) {
            chat++;
            assert_string_equal(x->kind, "Deployment");
            assert_int_equal(x->memory_mib, 9728);
            assert_true(strncmp(plan_workload_pod(x), "chat-58b9c7d6f5-", 16) == 0);
        }
        if (strcmp(x->name, "embed") == 0) { embed++; assert_string_equal(x->kind, "StatefulSet"); }
        if (strcmp(x->name, "train") == 0) {
            train++;
            assert_string_equal(x->kind, "Job");
            assert_int_equal(x->count, 4);
            assert_int_equal(x->memory_mib, 81920);
        }
        if (strcmp(x->name, "notebook") == 0) { notebook++; assert_string_equal(x->kind, "Pod"); }
        if (strcmp(x->name, "asr") == 0) {
            asr++;
            assert_int_equal(x->memory_mib, 15360 / 4);          /* a replica of 4 */
            assert_true(fabs(x->utilization - 25) < 1e-9);
        }
    }
    assert_int_equal(chat, 4); assert_int_equal(embed, 2); assert_int_equal(train, 1);
    assert_int_equal(notebook, 1); assert_int_equal(asr, 6);
    plan_input_clear(&in);

    /* with metrics: one current chat pod, one that is gone (same Deployment, older hash), one
     * gone pod of an unknown workload; a StatefulSet pod with no utilization series */
    const char *chat_pod = NULL;
    for (size_t i = 0; i < c.npods; i++)
        if (strncmp(c.pods[i].name, "chat-", 5) == 0) { chat_pod = c.pods[i].name; break; }
    assert_non_null(chat_pod);
    WorkloadUsage u[4];
    memset(u, 0, sizeof u);
    u[0] = (WorkloadUsage){ .ns = "inference", .pod = (char *)chat_pod, .container = "main",
                            .mem_pct_mib = 6000.4, .mem_peak_mib = 6500, .util_pct = 5, .util_peak = 9,
                            .samples = 1000, .devices = 1 };
    u[1] = (WorkloadUsage){ .ns = "inference", .pod = "chat-4a3b2c1d0e-zzzzz", .container = "main",
                            .mem_pct_mib = 7000, .mem_peak_mib = 8400, .util_pct = 4, .util_peak = 20,
                            .samples = 500, .devices = 1 };
    u[2] = (WorkloadUsage){ .ns = "inference", .pod = "chat-large-6b5c4d3e2f-qwert", .container = "main",
                            .mem_pct_mib = 60000, .mem_peak_mib = 70000, .util_pct = 90, .util_peak = 99,
                            .samples = 2000, .devices = 1 };
    u[3] = (WorkloadUsage){ .ns = "search", .pod = "embed-1", .container = "main",
                            .mem_pct_mib = 12000, .mem_peak_mib = 13000, .util_pct = NAN, .util_peak = NAN,
                            .samples = 100, .devices = 1 };
    plan_input_build(&in, &c, nodes, nn, u, 4, true);
    assert_false(in.from_requests);
    for (size_t i = 0; i < in.n; i++) {
        const PlanWorkload *x = &in.w[i];
        assert_false(x->from_requests);
        if (strcmp(x->name, "chat") == 0) {
            assert_true(x->has_usage);
            assert_int_equal(x->memory_mib, 7000);               /* max over both pods */
            assert_int_equal(x->peak_memory_mib, 8400);
            assert_true(fabs(x->utilization - 5) < 1e-9);
            assert_true(fabs(x->peak_utilization - 20) < 1e-9);
            assert_true(fabs(x->coverage - 1500.0 / (2000 * 4)) < 1e-9);   /* 4 pods now */
        } else if (strcmp(x->name, "embed") == 0) {
            assert_true(x->has_usage);
            assert_true(x->utilization_unknown);
            assert_true(fabs(x->utilization - 100) < 1e-9);
            assert_true(fabs(x->coverage - 100.0 / (2000 * 2)) < 1e-9);    /* 2 pods now */
        } else {
            assert_false(x->has_usage);
        }
    }
    plan_input_clear(&in);
    cluster_release(&c);
}

/* ---- what the device plugin and operator accept (issue 13) ---- */

/* 8 small workloads (1000 MiB, 5 %, peak 1200 MiB) on two 4-GPU T4 nodes: time-slicing and MPS
 * both put them on 1 GPU with 8 replicas (T4 15360 MiB: MPS gives 15360/8 = 1920 MiB per client). */
static void small_t4(Node *a, Node *b, PlanWorkload *w, bool measured)
{
    *a = mknode("t4-a", "Tesla-T4", 4, 15360, 7, 5);
    *b = mknode("t4-b", "Tesla-T4", 4, 15360, 7, 5);
    static const char *names[] = { "w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7" };
    for (int i = 0; i < 8; i++) {
        w[i] = wl(names[i], i < 4 ? "t4-a" : "t4-b", "nvidia.com/gpu", 1, true, 1000, 5);
        w[i].peak_memory_mib = measured ? 1200 : -1;
    }
}

/* k8s-device-plugin cmd/nvidia-device-plugin/main.go:228-229: "using --mig-strategy=mixed is
 * not supported with MPS"; the operator passes spec.mig.strategy as MIG_STRATEGY, which
 * overrides the config file (gpu-operator controllers/object_controls.go:2787-2794). */
static void test_mps_refused_with_mixed(void **state)
{
    (void)state;
    Node a, b;
    PlanWorkload w[8];
    small_t4(&a, &b, w, true);
    const Node *nodes[] = { &a, &b };
    PlanCurrent cur = cur20;
    cur.mig_strategy = "mixed";
    PlanOptions o = { .choice = PLAN_CHOICE_MPS, .headroom_pct = 10, .cur = &cur };
    PlanResult r;
    assert_int_equal(plan_build(nodes, 2, w, 8, &o, &r), 0);
    assert_int_equal(r.groups[0].after_mps, -1);
    assert_int_equal(r.groups[0].strategy, PLAN_NONE);
    bool said = false;
    for (size_t i = 0; i < r.groups[0].notes.n; i++) said |= strstr(r.groups[0].notes.v[i], "mixed") != NULL;
    assert_true(said);
    plan_result_clear(&r);
    /* strategy unset (no MIG_STRATEGY env): the config file's migStrategy none applies, MPS is fine;
     * measured peaks (1200 <= 1920) make MPS win the tie with time-slicing */
    cur.mig_strategy = NULL;
    o.choice = PLAN_CHOICE_AUTO;
    assert_int_equal(plan_build(nodes, 2, w, 8, &o, &r), 0);
    assert_int_equal(r.groups[0].strategy, PLAN_MPS);
    assert_int_equal(r.groups[0].gpus_after, 1);            /* packed */
    plan_result_clear(&r);
    /* the device plugin before v0.15.0 has no MPS (CHANGELOG: MPS in v0.15.0-rc.1) */
    cur.dp_version[1] = 14;
    assert_int_equal(plan_build(nodes, 2, w, 8, &o, &r), 0);
    assert_int_equal(r.groups[0].after_mps, -1);
    assert_int_equal(r.groups[0].strategy, PLAN_TIME_SLICING);
    plan_result_clear(&r);
    /* no measured peaks: time-slicing keeps the tie */
    cur.dp_version[1] = 20;
    kv_clear(&a.labels); kv_clear(&b.labels);
    small_t4(&a, &b, w, false);
    assert_int_equal(plan_build(nodes, 2, w, 8, &o, &r), 0);
    assert_int_equal(r.groups[0].strategy, PLAN_TIME_SLICING);
    plan_result_clear(&r);
    kv_clear(&a.labels); kv_clear(&b.labels);
}

/* A MIG group makes a set strategy mixed, cluster-wide: MPS groups are chosen again without MPS */
static void test_mig_makes_mixed(void **state)
{
    (void)state;
    Node a, b;
    PlanWorkload w[10];
    small_t4(&a, &b, w, true);
    Node m = mknode("a100", "NVIDIA-A100-SXM4-80GB", 8, 81920, 8, 0);
    w[8] = wl("s1", "a100", "nvidia.com/gpu", 1, true, 5000, 5);
    w[9] = wl("s2", "a100", "nvidia.com/gpu", 1, true, 5000, 5);
    const Node *nodes[] = { &a, &b, &m };
    PlanCurrent cur = cur20;
    cur.mig_strategy = "single";
    PlanOptions o = { .choice = PLAN_CHOICE_AUTO, .headroom_pct = 10, .cur = &cur };
    PlanResult r;
    assert_int_equal(plan_build(nodes, 3, w, 10, &o, &r), 0);
    assert_int_equal(group(&r, "NVIDIA-A100-SXM4-80GB")->strategy, PLAN_MIG);
    assert_true(r.mig_strategy_change);
    assert_string_equal(r.mig_strategy_after, "mixed");
    const PlanGroup *g = group(&r, "Tesla-T4");
    assert_int_equal(g->strategy, PLAN_TIME_SLICING);
    assert_int_equal(g->after_mps, -1);
    plan_result_clear(&r);
    kv_clear(&a.labels); kv_clear(&b.labels); kv_clear(&m.labels);
}

/* Sharing is per node and the default allocation is distributed: a pool node counts whole
 * (device-plugin-config.md §3: devices forced to "all"; v0.20.0 adds packed). */
static void test_distributed_accounting(void **state)
{
    (void)state;
    Node a, b;
    PlanWorkload w[8];
    small_t4(&a, &b, w, false);
    const Node *nodes[] = { &a, &b };
    PlanCurrent cur = cur20;
    cur.dp_version[1] = 17;
    PlanOptions o = { .choice = PLAN_CHOICE_TIME_SLICING, .headroom_pct = 10, .cur = &cur };
    PlanResult r;
    assert_int_equal(plan_build(nodes, 2, w, 8, &o, &r), 0);
    const PlanGroup *g = &r.groups[0];
    /* before: 8 whole GPUs; after: the 8 share 1 GPU's worth, but the pool node t4-a has 4 */
    assert_int_equal(g->gpus_before, 8);
    assert_int_equal(g->gpus_after, 4);
    assert_false(g->packed);
    assert_int_equal(g->pool_gpus, 4);
    assert_int_equal(g->shared_slots_free, 4 * g->replicas - 8);
    assert_int_equal(g->nodes_freed.n, 1);
    assert_string_equal(g->nodes_freed.v[0], "t4-b");
    plan_result_clear(&r);
    /* v0.20.0: packed, 1 GPU */
    cur.dp_version[1] = 20;
    assert_int_equal(plan_build(nodes, 2, w, 8, &o, &r), 0);
    assert_true(r.groups[0].packed);
    assert_int_equal(r.groups[0].gpus_after, 1);
    plan_result_clear(&r);
    kv_clear(&a.labels); kv_clear(&b.labels);
}

/* Only a MIG layout change drains (mig-parted resets the GPU); a node already on its config
 * (label and state success, mig-parted cmd/nvidia-mig-manager/main.go:572-577 acts only on a
 * label change) is left alone; names follow the content. */
static void test_drain_and_names(void **state)
{
    (void)state;
    Node a, b;
    PlanWorkload w[8];
    small_t4(&a, &b, w, false);
    const Node *nodes[] = { &a, &b };
    PlanOptions o = { .choice = PLAN_CHOICE_TIME_SLICING, .headroom_pct = 10, .cur = &cur20 };
    PlanResult r;
    assert_int_equal(plan_build(nodes, 2, w, 8, &o, &r), 0);
    const PlanNode *pa = &r.groups[0].plan_nodes[0];
    assert_true(pa->dp_change);
    assert_false(pa->drain);
    assert_false(pa->mig_change);
    char *name8 = xstrdup(pa->device_plugin_config);
    plan_result_clear(&r);
    /* the node already carries the config: no change */
    kv_set(&a.labels, "nvidia.com/device-plugin.config", name8);
    assert_int_equal(plan_build(nodes, 2, w, 8, &o, &r), 0);
    assert_false(r.groups[0].plan_nodes[0].dp_change);
    plan_result_clear(&r);
    /* more headroom, other replicas: another name */
    o.headroom_pct = 100;
    assert_int_equal(plan_build(nodes, 2, w, 8, &o, &r), 0);
    assert_string_not_equal(r.groups[0].plan_nodes[0].device_plugin_config, name8);
    plan_result_clear(&r);
    free(name8);
    /* MIG: an A100 with no MIG now, planned with MIG: drain; labelled as planned: nothing */
    Node m = mknode("a100", "NVIDIA-A100-SXM4-80GB", 2, 81920, 8, 0);
    PlanWorkload mw[2] = { wl("s1", "a100", "nvidia.com/gpu", 1, true, 5000, 5),
                           wl("s2", "a100", "nvidia.com/gpu", 1, true, 5000, 5) };
    const Node *mn[] = { &m };
    o.choice = PLAN_CHOICE_MIG;
    o.headroom_pct = 10;
    assert_int_equal(plan_build(mn, 1, mw, 2, &o, &r), 0);
    const PlanNode *pm = &r.groups[0].plan_nodes[0];
    assert_true(pm->mig_change);
    assert_true(pm->drain);
    kv_set(&m.labels, "nvidia.com/mig.config", pm->mig_config);
    kv_set(&m.labels, "nvidia.com/mig.config.state", "success");
    plan_result_clear(&r);
    assert_int_equal(plan_build(mn, 1, mw, 2, &o, &r), 0);
    assert_false(r.groups[0].plan_nodes[0].mig_change);
    assert_false(r.groups[0].plan_nodes[0].drain);
    plan_result_clear(&r);
    kv_clear(&a.labels); kv_clear(&b.labels); kv_clear(&m.labels);
}

static void test_parse_version(void **state)
{
    (void)state;
    int v[3];
    assert_true(plan_parse_version("v0.17.0", v));
    assert_int_equal(v[1], 17);
    assert_true(plan_parse_version("v0.20.0-ubi9", v));
    assert_int_equal(v[1], 20);
    assert_true(plan_parse_version("0.15.1", v));
    assert_int_equal(v[2], 1);
    assert_false(plan_parse_version("latest", v));
    assert_false(plan_parse_version("sha256", v));
    PlanCurrent c = cur20;
    assert_true(plan_dp_at_least(&c, 0, 20));
    assert_true(plan_dp_at_least(&c, 0, 15));
    c.dp_version_known = false;
    assert_false(plan_dp_at_least(&c, 0, 12));
}

/* Workloads are told apart by (namespace, kind, name) as strings, wherever they are stored
 * (kind unset reads as "Pod"), and numbered per product group: a workload whose pods run on
 * two products is a workload in each group, with one warning.  30 Deployments "d-0".."d-29"
 * in "ml", each with a pod on t4 (first), then one on a100, then one more on t4; a bare pod
 * "solo" with kind unset and one with kind "Pod" (the same workload, on t4); "solo" in another
 * namespace is another workload.  t4: 30 workloads of 2 pods + solo (2 pods) + team/solo = 32;
 * a100: 30 of 1 pod; 30 warnings, each naming the t4 group first (where its first pod ran). */
static void test_workload_keys_and_two_products(void **state)
{
    (void)state;
    Node t = mknode("t4", "Tesla-T4", 8, 15360, 7, 5);
    Node a = mknode("a100", "NVIDIA-A100-SXM4-80GB", 8, 81920, 8, 0);
    const Node *nodes[] = { &t, &a };
    enum { ND = 30 };
    PlanWorkload w[3 * ND + 3];
    char names[3][ND][16];            /* each pod's own copy of its workload's name */
    size_t n = 0;
    for (int pass = 0; pass < 3; pass++)
        for (int d = 0; d < ND; d++) {
            snprintf(names[pass][d], sizeof names[pass][d], "d-%d", d);
            w[n] = wl(names[pass][d], pass == 1 ? "a100" : "t4", "nvidia.com/gpu", 1, true, 1000, 5);
            w[n].kind = "Deployment";
            n++;
        }
    char solo2[] = "solo";
    w[n++] = wl("solo", "t4", "nvidia.com/gpu", 1, true, 1000, 5);
    w[n] = wl(solo2, "t4", "nvidia.com/gpu", 1, true, 1000, 5);
    w[n++].kind = "Pod";
    w[n] = wl("solo", "t4", "nvidia.com/gpu", 1, true, 1000, 5);
    w[n++].ns = "team";
    PlanOptions o = { .choice = PLAN_CHOICE_AUTO, .headroom_pct = 10, .cur = &cur20 };
    PlanResult r;
    assert_int_equal(plan_build(nodes, 2, w, n, &o, &r), 0);
    const PlanGroup *gt = group(&r, "Tesla-T4"), *ga = group(&r, "NVIDIA-A100-SXM4-80GB");
    assert_int_equal(gt->nworkloads, ND + 2);
    assert_int_equal(ga->nworkloads, ND);
    int two = 0, one = 0;
    for (size_t i = 0; i < gt->nworkloads; i++) {
        const PlanWorkload *x = &w[gt->assign[gt->workloads[i].first].workload];
        if (strcmp(x->ns, "team") == 0) assert_int_equal(gt->workloads[i].pods, 1);
        else { assert_int_equal(gt->workloads[i].pods, 2); two++; }
    }
    for (size_t i = 0; i < ga->nworkloads; i++) one += ga->workloads[i].pods == 1;
    /* each group's workloads by namespace, then name: d-0, d-1, d-10, ... d-9, solo, team/solo */
    for (size_t i = 1; i < gt->nworkloads; i++) {
        const PlanWorkload *x = &w[gt->assign[gt->workloads[i - 1].first].workload];
        const PlanWorkload *y = &w[gt->assign[gt->workloads[i].first].workload];
        int c = strcmp(x->ns, y->ns);
        assert_true(c < 0 || (c == 0 && strcmp(x->name, y->name) < 0));
    }
    assert_string_equal(w[gt->assign[gt->workloads[1].first].workload].name, "d-1");
    assert_string_equal(w[gt->assign[gt->workloads[2].first].workload].name, "d-10");
    assert_string_equal(w[gt->assign[gt->workloads[ND + 1].first].workload].ns, "team");
    assert_int_equal(two, ND + 1);
    assert_int_equal(one, ND);
    size_t warned = 0;
    for (size_t i = 0; i < r.warnings.n; i++)
        if (strstr(r.warnings.v[i], "runs on Tesla-T4 and NVIDIA-A100-SXM4-80GB nodes")) warned++;
    assert_int_equal(warned, ND);
    assert_non_null(strstr(r.warnings.v[0], "ml/d-0 runs on"));
    plan_result_clear(&r);
    kv_clear(&t.labels);
    kv_clear(&a.labels);
}

/* A group workload's nodes: the distinct nodes its pods run on, sorted.  Deployment "web" with
 * pods on t4-b, t4-a, t4-b -> {t4-a, t4-b}; "job" with two pods on t4-a -> {t4-a}; a bare pod
 * on t4-b -> {t4-b}. */
static void test_workload_nodes(void **state)
{
    (void)state;
    Node a = mknode("t4-a", "Tesla-T4", 4, 15360, 7, 5), b = mknode("t4-b", "Tesla-T4", 4, 15360, 7, 5);
    const Node *nodes[] = { &b, &a };
    PlanWorkload w[6] = {
        wl("web", "t4-b", "nvidia.com/gpu", 1, true, 1000, 5), wl("web", "t4-a", "nvidia.com/gpu", 1, true, 1000, 5),
        wl("job", "t4-a", "nvidia.com/gpu", 1, true, 1000, 5), wl("web", "t4-b", "nvidia.com/gpu", 1, true, 1000, 5),
        wl("job", "t4-a", "nvidia.com/gpu", 1, true, 1000, 5), wl("bare", "t4-b", "nvidia.com/gpu", 1, true, 1000, 5),
    };
    PlanOptions o = { .choice = PLAN_CHOICE_AUTO, .headroom_pct = 10, .cur = &cur20 };
    PlanResult r;
    assert_int_equal(plan_build(nodes, 2, w, 6, &o, &r), 0);
    const PlanGroup *g = &r.groups[0];
    assert_int_equal(g->nworkloads, 3);
    int seen = 0;
    for (size_t i = 0; i < g->nworkloads; i++) {
        const PlanGroupWorkload *gw = &g->workloads[i];
        const char *name = w[g->assign[gw->first].workload].name;
        if (strcmp(name, "web") == 0) {
            assert_int_equal(gw->pods, 3);
            assert_int_equal(gw->nnodes, 2);
            assert_string_equal(gw->nodes[0], "t4-a");
            assert_string_equal(gw->nodes[1], "t4-b");
            seen |= 1;
        } else if (strcmp(name, "job") == 0) {
            assert_int_equal(gw->pods, 2);
            assert_int_equal(gw->nnodes, 1);
            assert_string_equal(gw->nodes[0], "t4-a");
            seen |= 2;
        } else {
            assert_int_equal(gw->pods, 1);
            assert_int_equal(gw->nnodes, 1);
            assert_string_equal(gw->nodes[0], "t4-b");
            seen |= 4;
        }
    }
    assert_int_equal(seen, 7);
    plan_result_clear(&r);
    kv_clear(&a.labels);
    kv_clear(&b.labels);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mixed_fleet), cmocka_unit_test(test_nothing_to_gain_and_not_possible),
        cmocka_unit_test(test_current_sharing_and_mig), cmocka_unit_test(test_choice_parse),
        cmocka_unit_test(test_plan_scale), cmocka_unit_test(test_rollout),
        cmocka_unit_test(test_workload_consistency),
        cmocka_unit_test(test_workload_split_shares_or_stays), cmocka_unit_test(test_requests_not_grown),
        cmocka_unit_test(test_group_key), cmocka_unit_test(test_plan_input),
        cmocka_unit_test(test_mps_refused_with_mixed), cmocka_unit_test(test_mig_makes_mixed),
        cmocka_unit_test(test_distributed_accounting), cmocka_unit_test(test_drain_and_names),
        cmocka_unit_test(test_parse_version), cmocka_unit_test(test_workload_keys_and_two_products),
        cmocka_unit_test(test_workload_nodes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

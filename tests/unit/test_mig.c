/* Unit tests: MIG tables (mig_tables.c) and layouts, profile choice, packing (mig.c).
 *
 * Expected values come from shared/reference/mig-profiles.md §2 (worked by hand) or from
 * checkers written here independently of mig.c: a brute-force placement oracle (every start
 * for every instance, no symmetry breaking), a layout checker (intervals, compute, maxima),
 * a brute-force optimal packer for tiny instances (every assignment of instances to GPUs)
 * and a plain DP over demand vectors for medium ones.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "analysis/mig.h"
#include "model/mig_tables.h"

/* ------------------------------------------------------------ independent checkers */

/* brute force: can these counts be placed?  Tries every start of every instance. */
static bool oracle_rec(const MigGpuModel *m, const int *inst, int n, int k, const int *st, int *starts)
{
    if (k == n) return true;
    const MigProfile *p = &m->profiles[inst[k]];
    for (int s = 0; s < p->nstarts; s++) {
        int a = p->starts[s];
        if (a + p->size > m->axis) continue;
        bool clash = false;
        for (int j = 0; j < k && !clash; j++) {
            int b = starts[j], bs = m->profiles[inst[j]].size;
            if (a < b + bs && b < a + p->size) clash = true;
        }
        if (clash) continue;
        starts[k] = a;
        if (oracle_rec(m, inst, n, k + 1, st, starts)) return true;
    }
    return false;
}

static bool oracle_valid(const MigGpuModel *m, const int *counts)
{
    int inst[64], n = 0, compute = 0, me = 0, me_all = 0;
    for (size_t i = 0; i < m->nprofiles; i++) {
        if (counts[i] > m->profiles[i].max_instances) return false;
        for (int c = 0; c < counts[i]; c++) {
            if (n >= 64) return false;
            inst[n++] = (int)i;
            compute += m->profiles[i].compute;
            me += m->profiles[i].media_ext;
            me_all += m->profiles[i].media_all;
        }
    }
    if (compute > m->compute_slices || me > 1 || me_all > 1) return false;
    int starts[64];
    return oracle_rec(m, inst, n, 0, NULL, starts);
}

/* a returned layout: placements match counts, starts allowed, disjoint, compute and maxima */
static void check_layout(const MigGpuModel *m, const MigLayout *l)
{
    int seen[MIG_MAX_PROFILES] = { 0 }, compute = 0, me = 0, me_all = 0;
    for (int g = 0; g < l->ngi; g++) {
        int pi = l->gi[g].profile, s = l->gi[g].start;
        assert_true(pi >= 0 && (size_t)pi < m->nprofiles);
        const MigProfile *p = &m->profiles[pi];
        bool allowed = false;
        for (int k = 0; k < p->nstarts; k++) allowed |= p->starts[k] == s;
        assert_true(allowed);
        assert_true(s >= 0 && s + p->size <= m->axis);
        for (int h = 0; h < g; h++) {
            int t = l->gi[h].start, ts = m->profiles[l->gi[h].profile].size;
            assert_false(s < t + ts && t < s + p->size);     /* intervals overlap */
        }
        seen[pi]++;
        compute += p->compute;
        me += p->media_ext; me_all += p->media_all;
    }
    for (size_t i = 0; i < m->nprofiles; i++) {
        assert_int_equal(seen[i], l->counts[i]);
        assert_true(seen[i] <= m->profiles[i].max_instances);
    }
    assert_true(compute <= m->compute_slices);
    assert_true(me <= 1 && me_all <= 1);
}

static const MigGpuModel *model(const char *product)
{
    const MigGpuModel *m = mig_model_for_product(product);
    assert_non_null(m);
    return m;
}

static int pidx(const MigGpuModel *m, const char *name)
{
    const MigProfile *p = mig_model_profile(m, name);
    assert_non_null(p);
    return mig_model_profile_index(m, p);
}

/* check a packing: every layout valid (independently), demand partitioned exactly */
static void check_packing(const MigGpuModel *m, const int *demand, const MigPacking *pk)
{
    int got[MIG_MAX_PROFILES] = { 0 }, gpus = 0;
    for (size_t g = 0; g < pk->ngroups; g++) {
        const MigLayout *l = &pk->groups[g].layout;
        assert_true(pk->groups[g].gpus > 0);
        assert_true(l->ngi > 0);
        check_layout(m, l);
        assert_true(oracle_valid(m, l->counts));
        for (size_t i = 0; i < m->nprofiles; i++) got[i] += l->counts[i] * pk->groups[g].gpus;
        gpus += pk->groups[g].gpus;
    }
    for (size_t i = 0; i < MIG_MAX_PROFILES; i++) assert_int_equal(got[i], demand[i]);
    assert_int_equal(gpus, pk->gpus);
    assert_true(pk->lower_bound <= pk->gpus);
    for (int i = 0; i < pk->gpus; i++) assert_non_null(mig_packing_gpu(pk, i));
    assert_null(mig_packing_gpu(pk, pk->gpus));
}

/* brute force optimum for a few instances: assign each to one of G GPUs (restricted growth) */
static bool brute_rec(const MigGpuModel *m, const int *items, int n, int k, int G,
                      int bins[][MIG_MAX_PROFILES], int used)
{
    if (k == n) return true;
    int lim = used < G ? used + 1 : G;
    for (int b = 0; b < lim; b++) {
        bins[b][items[k]]++;
        if (oracle_valid(m, bins[b]) && brute_rec(m, items, n, k + 1, G, bins, b == used ? used + 1 : used)) {
            bins[b][items[k]]--;
            return true;
        }
        bins[b][items[k]]--;
    }
    return false;
}

static int brute_opt(const MigGpuModel *m, const int *demand)
{
    int items[32], n = 0;
    for (size_t i = 0; i < m->nprofiles; i++)
        for (int c = 0; c < demand[i]; c++) items[n++] = (int)i;
    for (int G = 0; G <= n; G++) {
        int bins[32][MIG_MAX_PROFILES];
        memset(bins, 0, sizeof bins);
        if (brute_rec(m, items, n, 0, G, bins, 0)) return G;
    }
    return -1;
}

/* ------------------------------------------------------------ tables */

static void test_product_matching(void **state)
{
    (void)state;
    assert_string_equal(model("NVIDIA-A100-SXM4-40GB")->key, "a100-40gb");
    assert_string_equal(model("NVIDIA-A100-PCIE-40GB")->key, "a100-40gb");
    assert_string_equal(model("NVIDIA-A100-SXM4-80GB")->key, "a100-80gb");
    assert_string_equal(model("NVIDIA-A100-80GB-PCIe")->key, "a100-80gb");
    assert_string_equal(model("NVIDIA-A30")->key, "a30");
    assert_string_equal(model("NVIDIA-H100-80GB-HBM3")->key, "h100-80gb");
    assert_string_equal(model("NVIDIA-H100-PCIe")->key, "h100-80gb");
    assert_string_equal(model("NVIDIA-H100-NVL")->key, "h100-94gb");
    assert_string_equal(model("NVIDIA-H20")->key, "h100-96gb");
    assert_string_equal(model("NVIDIA-H200")->key, "h200");
    assert_string_equal(model("NVIDIA-H200-NVL")->key, "h200");
    assert_string_equal(model("NVIDIA-B200")->key, "b200");
    assert_string_equal(model("NVIDIA-GB200")->key, "gb200");
    assert_string_equal(model("NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition")->key, "rtx-pro-6000");
    /* suffixes of GFD: single strategy, sharing, invalid; old names without NVIDIA- */
    assert_string_equal(model("NVIDIA-A100-SXM4-40GB-MIG-1g.5gb")->key, "a100-40gb");
    assert_string_equal(model("NVIDIA-A100-SXM4-40GB-MIG-1g.5gb-SHARED")->key, "a100-40gb");
    assert_string_equal(model("NVIDIA-H100-80GB-HBM3-MIG-INVALID")->key, "h100-80gb");
    assert_string_equal(model("NVIDIA-A100-SXM4-80GB-SHARED")->key, "a100-80gb");
    assert_string_equal(model("A100-SXM4-40GB")->key, "a100-40gb");
    assert_string_equal(model("nvidia-a100-80gb-pcie")->key, "a100-80gb");
    /* not MIG-capable, unknown, or near misses */
    const char *none[] = { "Tesla-T4", "NVIDIA-A10G", "NVIDIA-L4", "NVIDIA-L40S", "Tesla-V100-SXM2-16GB",
                           "NVIDIA-A100", "NVIDIA-H100", "NVIDIA-H100-NVL-X", "", "NVIDIA-", NULL };
    for (int i = 0; none[i]; i++) assert_null(mig_model_for_product(none[i]));
    assert_null(mig_model_for_product(NULL));
    assert_ptr_equal(mig_model_by_key("a30"), model("NVIDIA-A30"));
    assert_null(mig_model_by_key("t4"));
}

/* the answers kept per thread (the last few products asked) are the answers: products asked in
 * turn, more of them than are kept, in three orders, each time what the first round said; a
 * name too long to keep is looked up every time; a cut-down name is not taken for a kept one */
static void test_product_memo(void **state)
{
    (void)state;
    const char *prods[] = { "NVIDIA-A100-SXM4-80GB", "NVIDIA-H100-80GB-HBM3", "Tesla-T4", "NVIDIA-A30",
                            "NVIDIA-H200", "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb", "NVIDIA-L4" };
    enum { N = sizeof prods / sizeof *prods };
    const char *want[] = { "a100-80gb", "h100-80gb", NULL, "a30", "h200", "a100-40gb", NULL };
    for (int round = 0; round < 3; round++)
        for (int k = 0; k < 3 * N; k++) {
            int i = round == 0 ? k % N : round == 1 ? (N - 1 - k % N) : (k * 3) % N;
            const MigGpuModel *m = mig_model_for_product(prods[i]);
            if (want[i]) { assert_non_null(m); assert_string_equal(m->key, want[i]); }
            else assert_null(m);
        }
    char longname[200];
    snprintf(longname, sizeof longname, "NVIDIA-A100-SXM4-80GB-MIG-%0150d", 0);
    assert_string_equal(mig_model_for_product(longname)->key, "a100-80gb");
    assert_string_equal(mig_model_for_product(longname)->key, "a100-80gb");
    assert_string_equal(mig_model_for_product("NVIDIA-A100-SXM4-80GB")->key, "a100-80gb");
    assert_null(mig_model_for_product("NVIDIA-A100-SXM4-8"));
}

static void test_profile_names(void **state)
{
    (void)state;
    const MigGpuModel *m = model("NVIDIA-A100-SXM4-80GB");
    const MigProfile *me = mig_model_profile(m, "1g.10gb+me");
    assert_non_null(me);
    assert_true(me->media_ext);
    assert_ptr_equal(mig_model_profile(m, "1g.10gb.me"), me);
    assert_ptr_equal(mig_model_profile(m, "mig-1g.10gb.me"), me);
    assert_string_equal(mig_model_profile(m, "mig-3g.40gb")->name, "3g.40gb");
    assert_null(mig_model_profile(m, "1g.5gb"));          /* a 40GB name */
    assert_null(mig_model_profile(m, "3g.40gb+gfx"));
    const MigGpuModel *r = model("NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition");
    assert_true(mig_model_profile(r, "2g.48gb.me.all")->media_all);
    assert_string_equal(mig_model_profile(r, "1g.24gb.gfx")->name, "1g.24gb+gfx");
    assert_string_equal(mig_model_profile(r, "1g.24gb-me")->name, "1g.24gb-me");
    /* every table name is its own canonical form: found as itself (the exact path) and as
     * "MIG-" and upper case (the canonical path) alike */
    for (size_t i = 0; i < mig_model_count(); i++) {
        const MigGpuModel *g = mig_model_at(i);
        for (size_t k = 0; k < g->nprofiles; k++) {
            char up[80];
            int len = snprintf(up, sizeof up, "MIG-%s", g->profiles[k].name);
            assert_true(len > 0 && (size_t)len < sizeof up);
            for (char *c = up; *c; c++) *c = (char)toupper((unsigned char)*c);
            assert_ptr_equal(mig_model_profile(g, g->profiles[k].name), &g->profiles[k]);
            assert_ptr_equal(mig_model_profile(g, up), &g->profiles[k]);
        }
    }
    /* 1g with 2 memory slices: max 4 at even starts (A100-40GB 1g.10gb, H100 1g.20gb) */
    const MigProfile *p = mig_model_profile(model("NVIDIA-A100-SXM4-40GB"), "1g.10gb");
    assert_int_equal(p->size, 2); assert_int_equal(p->max_instances, 4);
    p = mig_model_profile(model("NVIDIA-H100-80GB-HBM3"), "1g.20gb");
    assert_int_equal(p->size, 2); assert_int_equal(p->compute, 1);
    /* the observed MiB values of the reference */
    assert_int_equal(mig_model_profile(m, "1g.10gb")->memory_mib, 9728);
    assert_int_equal(mig_model_profile(m, "3g.40gb")->memory_mib, 40192);
    assert_int_equal(mig_model_profile(model("NVIDIA-H100-NVL"), "3g.47gb")->memory_mib, 47488);
    assert_int_equal(mig_model_profile(model("NVIDIA-A30"), "2g.12gb")->memory_mib, 11968);
}

/* every table is self-consistent: the "Ng" of the name is the compute, starts fit the axis,
 * memory grows with memory slices, the full profile fits the GPU */
static void test_tables_consistent(void **state)
{
    (void)state;
    assert_true(mig_model_count() >= 9);
    for (size_t i = 0; i < mig_model_count(); i++) {
        const MigGpuModel *m = mig_model_at(i);
        assert_true(m->nprofiles <= MIG_MAX_PROFILES);
        assert_true(m->compute_slices <= MIG_MAX_GI);
        assert_ptr_equal(mig_model_for_product(m->products[0]), m);
        assert_non_null(m->device_ids[0]);
        bool full = false;
        for (size_t j = 0; j < m->nprofiles; j++) {
            const MigProfile *p = &m->profiles[j];
            assert_int_equal(atoi(p->name), p->compute);
            assert_true(p->nstarts >= 1 && p->nstarts <= MIG_MAX_STARTS);
            for (int s = 0; s < p->nstarts; s++) assert_true(p->starts[s] + p->size <= m->axis);
            assert_true(p->max_instances >= 1);
            assert_true(p->memory_mib > 0 && p->memory_mib <= m->memory_mib);
            assert_int_equal(p->variant, strpbrk(p->name, "+-") != NULL);
            assert_ptr_equal(mig_model_profile(m, p->name), p);
            full |= p->compute == m->compute_slices && p->size == m->axis;
            for (size_t k = 0; k < m->nprofiles; k++) {
                const MigProfile *q = &m->profiles[k];
                if (q->size > p->size) assert_true(q->memory_mib > p->memory_mib);
            }
        }
        assert_true(full);
    }
}

/* ------------------------------------------------------------ one GPU: reference §2a */

static bool valid_names(const MigGpuModel *m, const char *const *names, int *starts)
{
    const MigProfile *ps[16];
    size_t n = 0;
    for (; names[n]; n++) { ps[n] = mig_model_profile(m, names[n]); assert_non_null(ps[n]); }
    return mig_layout_valid(m, ps, n, starts);
}

static void test_layout_examples_7slice(void **state)
{
    (void)state;
    /* run the §2a examples on every 7-slice model with that model's names */
    const char *models[] = { "NVIDIA-A100-SXM4-80GB", "NVIDIA-A100-SXM4-40GB", "NVIDIA-H100-80GB-HBM3", NULL };
    const char *names[][6] = {   /* 1g, 1g(2 mem), 2g, 3g, 4g, 7g */
        { "1g.10gb", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb" },
        { "1g.5gb", "1g.10gb", "2g.10gb", "3g.20gb", "4g.20gb", "7g.40gb" },
        { "1g.10gb", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb" },
    };
    for (int mi = 0; models[mi]; mi++) {
        const MigGpuModel *m = model(models[mi]);
        const char *g1 = names[mi][0], *g1m2 = names[mi][1], *g2 = names[mi][2], *g3 = names[mi][3],
                   *g4 = names[mi][4], *g7 = names[mi][5];
        int st[16];
        { const char *s[] = { g4, g3, NULL }; assert_true(valid_names(m, s, st));
          assert_int_equal(st[0], 0); assert_int_equal(st[1], 4); }
        { const char *s[] = { g3, g3, NULL }; assert_true(valid_names(m, s, st));
          assert_true((st[0] == 0 && st[1] == 4) || (st[0] == 4 && st[1] == 0)); }
        /* 3-2-1-1 only as 3g@4, 2g@0, 1g@2, 1g@3 */
        { const char *s[] = { g3, g2, g1, g1, NULL }; assert_true(valid_names(m, s, st));
          assert_int_equal(st[0], 4); assert_int_equal(st[1], 0);
          assert_true((st[2] == 2 && st[3] == 3) || (st[2] == 3 && st[3] == 2)); }
        { const char *s[] = { g1, g1, g2, g3, NULL }; assert_true(valid_names(m, s, st));
          assert_int_equal(st[3], 4); }
        /* 3g + 4x 1g only as 3g@4 + 1g@0..3 */
        { const char *s[] = { g3, g1, g1, g1, g1, NULL }; assert_true(valid_names(m, s, st));
          assert_int_equal(st[0], 4);
          int mask = 0; for (int i = 1; i <= 4; i++) mask |= 1 << st[i];
          assert_int_equal(mask, 0xF); }
        { const char *s[] = { g4, g1, g1, g1, NULL }; assert_true(valid_names(m, s, st));
          assert_int_equal(st[0], 0);
          int mask = 0; for (int i = 1; i <= 3; i++) mask |= 1 << st[i];
          assert_int_equal(mask, 0x70); }
        { const char *s[] = { g4, g2, g1, NULL }; assert_true(valid_names(m, s, st));
          assert_int_equal(st[0], 0); assert_int_equal(st[1], 4); assert_int_equal(st[2], 6); }
        { const char *s[] = { g2, g2, g2, g1, NULL }; assert_true(valid_names(m, s, st));
          assert_int_equal(st[3], 6); }
        { const char *s[] = { g2, g2, g2, g1m2, NULL }; assert_true(valid_names(m, s, st));
          assert_int_equal(st[3], 6); }
        { const char *s[] = { g4, g4, NULL }; assert_false(valid_names(m, s, NULL)); }
        { const char *s[] = { g3, g3, g1, NULL }; assert_false(valid_names(m, s, NULL)); }
        { const char *s[] = { g7, g1, NULL }; assert_false(valid_names(m, s, NULL)); }
        { const char *s[] = { g1m2, g1m2, g1m2, g1m2, g1, NULL }; assert_false(valid_names(m, s, NULL)); }
        { const char *s[] = { g1m2, g1m2, g1m2, g1m2, NULL }; assert_true(valid_names(m, s, NULL)); }
        { const char *s[] = { g2, g2, g2, g2, NULL }; assert_false(valid_names(m, s, NULL)); }
        { const char *s[] = { g1, g1, g1, g1, g1, g1, g1, NULL }; assert_true(valid_names(m, s, NULL)); }
        { const char *s[] = { g1, g1, g1, g1, g1, g1, g1, g1, NULL }; assert_false(valid_names(m, s, NULL)); }
        /* 3g@0 forces the 1g to slice 7, which no 1g may use; 3g@4 leaves 2g+2g: compute 3+2+2+1 = 8 */
        { const char *s[] = { g3, g2, g2, g1, NULL }; assert_false(valid_names(m, s, NULL)); }
        { const char *s[] = { g7, NULL }; assert_true(valid_names(m, s, st)); assert_int_equal(st[0], 0); }
        { const char *s[] = { NULL }; assert_true(valid_names(m, s, NULL)); }
    }
    /* +me: at most one per GPU */
    const MigGpuModel *m = model("NVIDIA-A100-SXM4-80GB");
    { const char *s[] = { "1g.10gb+me", "1g.10gb", "1g.10gb", "1g.10gb", "1g.10gb", "1g.10gb", "1g.10gb", NULL };
      assert_true(valid_names(m, s, NULL)); }
    { const char *s[] = { "1g.10gb+me", "1g.10gb+me", NULL }; assert_false(valid_names(m, s, NULL)); }
    { int c[MIG_MAX_PROFILES] = { 0 }; MigLayout l;
      c[pidx(m, "4g.40gb")] = 1; c[pidx(m, "3g.40gb")] = 1;
      assert_true(mig_layout_from_counts(m, c, &l));
      assert_int_equal(mig_layout_compute(m, &l), 7);
      assert_int_equal(l.ngi, 2); assert_int_equal(l.gi[0].start, 0); assert_int_equal(l.gi[1].start, 4); }
    /* a profile of another model is refused */
    const MigProfile *foreign = mig_model_profile(model("NVIDIA-A30"), "1g.6gb");
    assert_false(mig_layout_valid(m, &foreign, 1, NULL));
}

static void test_layout_examples_a30_rtx(void **state)
{
    (void)state;
    const MigGpuModel *m = model("NVIDIA-A30");
    int st[8];
    { const char *s[] = { "1g.6gb", "1g.6gb", "1g.6gb", "1g.6gb", NULL }; assert_true(valid_names(m, s, NULL)); }
    { const char *s[] = { "2g.12gb", "2g.12gb", NULL }; assert_true(valid_names(m, s, NULL)); }
    { const char *s[] = { "2g.12gb", "1g.6gb", "1g.6gb", NULL }; assert_true(valid_names(m, s, st));
      assert_true((st[0] == 0 && st[1] >= 2 && st[2] >= 2) || (st[0] == 2 && st[1] <= 1 && st[2] <= 1)); }
    { const char *s[] = { "2g.12gb+me", "2g.12gb", NULL }; assert_true(valid_names(m, s, NULL)); }
    { const char *s[] = { "2g.12gb+me", "1g.6gb+me", NULL }; assert_false(valid_names(m, s, NULL)); }
    { const char *s[] = { "1g.6gb+me", "1g.6gb", "1g.6gb", "1g.6gb", NULL }; assert_true(valid_names(m, s, NULL)); }
    { const char *s[] = { "2g.12gb", "2g.12gb", "1g.6gb", NULL }; assert_false(valid_names(m, s, NULL)); }
    { const char *s[] = { "4g.24gb", "1g.6gb", NULL }; assert_false(valid_names(m, s, NULL)); }
    { const char *s[] = { "1g.6gb", "1g.6gb", "1g.6gb", "1g.6gb", "1g.6gb", NULL }; assert_false(valid_names(m, s, NULL)); }
    /* RTX PRO 6000: 12-unit axis; the observed mixed layout 2g@0:6 + 1g@6:3 + 1g@9:3 */
    m = model("NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition");
    { const char *s[] = { "2g.48gb", "1g.24gb", "1g.24gb", NULL }; assert_true(valid_names(m, s, st));
      assert_int_equal(st[0], 0);
      assert_true((st[1] == 6 && st[2] == 9) || (st[1] == 9 && st[2] == 6)); }
    { const char *s[] = { "1g.24gb+me.all", "2g.48gb+me.all", NULL }; assert_false(valid_names(m, s, NULL)); }
    { const char *s[] = { "1g.24gb+me", "1g.24gb+me.all", "2g.48gb-me", NULL }; assert_true(valid_names(m, s, NULL)); }
    { const char *s[] = { "4g.96gb", "1g.24gb", NULL }; assert_false(valid_names(m, s, NULL)); }
}

/* every counts vector up to one past each maximum: mig.c agrees with the brute-force oracle,
 * and its placements pass the checker */
static void cross_check_model(const MigGpuModel *m, size_t nprof)
{
    int counts[MIG_MAX_PROFILES] = { 0 };
    long checked = 0, valid = 0;
    for (;;) {
        MigLayout l;
        bool got = mig_layout_from_counts(m, counts, &l);
        assert_int_equal(got, oracle_valid(m, counts));
        if (got) { check_layout(m, &l); valid++; }
        checked++;
        size_t i = 0;
        while (i < nprof) {
            int lim = m->profiles[i].max_instances + 1;
            if (lim > 8) lim = 8;
            if (++counts[i] <= lim) break;
            counts[i++] = 0;
        }
        if (i == nprof) break;
    }
    assert_true(valid > 10);
    assert_true(checked > valid);
}

static void test_layout_oracle(void **state)
{
    (void)state;
    cross_check_model(model("NVIDIA-A100-SXM4-80GB"), 7);
    cross_check_model(model("NVIDIA-A30"), 5);
    cross_check_model(model("NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition"), 6);
}

static void test_enumerate(void **state)
{
    (void)state;
    /* A30 plain profiles by hand: 1g x1..4, 2g, 2g x2, 2g+1g, 2g+1g x2, 4g = 9 layouts;
     * maximal: {1g x4}, {2g x2}, {2g, 1g x2}, {4g} */
    const MigGpuModel *m = model("NVIDIA-A30");
    bool base[MIG_MAX_PROFILES] = { false };
    for (size_t i = 0; i < m->nprofiles; i++) base[i] = !m->profiles[i].variant;
    MigLayout *ls;
    size_t n = mig_layouts_enumerate(m, base, false, &ls);
    assert_int_equal(n, 9);
    free(ls);
    n = mig_layouts_enumerate(m, base, true, &ls);
    assert_int_equal(n, 4);
    int g1 = pidx(m, "1g.6gb"), g2 = pidx(m, "2g.12gb"), g4 = pidx(m, "4g.24gb");
    int found = 0;
    for (size_t i = 0; i < n; i++) {
        const int *c = ls[i].counts;
        if (c[g1] == 4 && c[g2] == 0 && c[g4] == 0) found |= 1;
        if (c[g1] == 0 && c[g2] == 2 && c[g4] == 0) found |= 2;
        if (c[g1] == 2 && c[g2] == 1 && c[g4] == 0) found |= 4;
        if (c[g1] == 0 && c[g2] == 0 && c[g4] == 1) found |= 8;
    }
    assert_int_equal(found, 15);
    free(ls);

    /* every model: enumeration == set of oracle-valid non-empty counts; maximal ones cannot
     * take one more allowed instance; every valid layout sits under a maximal one */
    for (size_t mi = 0; mi < mig_model_count(); mi++) {
        m = mig_model_at(mi);
        n = mig_layouts_enumerate(m, NULL, false, &ls);
        long oracle_n = 0;
        int counts[MIG_MAX_PROFILES] = { 0 };
        for (;;) {
            bool any = false;
            for (size_t i = 0; i < m->nprofiles; i++) any |= counts[i] > 0;
            if (any && oracle_valid(m, counts)) oracle_n++;
            size_t i = 0;
            while (i < m->nprofiles) {
                if (++counts[i] <= m->profiles[i].max_instances) break;
                counts[i++] = 0;
            }
            if (i == m->nprofiles) break;
        }
        assert_int_equal((long)n, oracle_n);
        for (size_t i = 0; i < n; i++) { check_layout(m, &ls[i]); assert_true(oracle_valid(m, ls[i].counts)); }
        MigLayout *mx;
        size_t nm = mig_layouts_enumerate(m, NULL, true, &mx);
        assert_true(nm >= 1 && nm <= n);
        for (size_t i = 0; i < nm; i++)
            for (size_t p = 0; p < m->nprofiles; p++) {
                int c[MIG_MAX_PROFILES]; memcpy(c, mx[i].counts, sizeof c); c[p]++;
                assert_false(oracle_valid(m, c));
            }
        for (size_t i = 0; i < n; i++) {
            bool under = false;
            for (size_t j = 0; j < nm && !under; j++) {
                bool le = true;
                for (size_t p = 0; p < m->nprofiles; p++) le &= ls[i].counts[p] <= mx[j].counts[p];
                under = le;
            }
            assert_true(under);
        }
        free(ls); free(mx);
    }
}

/* ------------------------------------------------------------ profile choice */

static void test_choose_profile(void **state)
{
    (void)state;
    const MigGpuModel *m = model("NVIDIA-A100-SXM4-80GB");
    /* 8000 MiB x 1.1 = 8800 <= 9728; 5 % x 1.1 x 7 = 0.385 -> 1 slice */
    assert_string_equal(mig_choose_profile(m, 8000, 5, 10)->name, "1g.10gb");
    /* 9000 x 1.1 = 9900 > 9728 -> 2 memory slices; 1 compute slice suffices */
    assert_string_equal(mig_choose_profile(m, 9000, 5, 10)->name, "1g.20gb");
    /* 20 % x 1.1 x 7 = 1.54 -> 2 slices */
    assert_string_equal(mig_choose_profile(m, 9000, 20, 10)->name, "2g.20gb");
    assert_string_equal(mig_choose_profile(m, 30000, 10, 10)->name, "3g.40gb");
    /* 50 % x 1.1 x 7 = 3.85 -> 4 slices */
    assert_string_equal(mig_choose_profile(m, 30000, 50, 10)->name, "4g.40gb");
    /* 40000 x 1.1 = 44000 > 40192: only 7g holds it -> whole GPU */
    assert_null(mig_choose_profile(m, 40000, 10, 10));
    assert_null(mig_choose_profile(m, 1000, 90, 10));           /* 6.93 -> 7 slices */
    /* exactly 3 slices: 3/7 of the GPU after headroom -> 3g, not 4g */
    assert_int_equal(mig_compute_need(m, 300.0 / 7.0 / 1.1, 10), 3);
    assert_int_equal(mig_compute_need(m, 0, 10), 1);
    assert_int_equal(mig_compute_need(m, 100, 0), 7);
    /* headroom 0 at the observed boundary */
    assert_string_equal(mig_choose_profile(m, 9728, 0, 0)->name, "1g.10gb");
    assert_string_equal(mig_choose_profile(m, 9729, 0, 0)->name, "1g.20gb");

    m = model("NVIDIA-A30");
    assert_string_equal(mig_choose_profile(m, 5000, 20, 0)->name, "1g.6gb");
    assert_string_equal(mig_choose_profile(m, 6000, 20, 0)->name, "2g.12gb");
    assert_string_equal(mig_choose_profile(m, 5000, 30, 0)->name, "2g.12gb");   /* 1.2 -> 2 */
    assert_null(mig_choose_profile(m, 12000, 10, 0));
    m = model("NVIDIA-H100-NVL");
    assert_string_equal(mig_choose_profile(m, 20000, 10, 10)->name, "1g.24gb");   /* 22000 <= 22144 */
    assert_null(mig_choose_profile(NULL, 1, 1, 0));
}

/* ------------------------------------------------------------ packing */

static MigPacking pack(const MigGpuModel *m, const int *demand)
{
    MigPacking pk;
    assert_int_equal(mig_pack(m, demand, &pk), 0);
    check_packing(m, demand, &pk);
    return pk;
}

static void test_pack_by_hand(void **state)
{
    (void)state;
    const MigGpuModel *m = model("NVIDIA-A100-SXM4-80GB");
    int g1 = pidx(m, "1g.10gb"), g2 = pidx(m, "2g.20gb"), g3 = pidx(m, "3g.40gb"), g4 = pidx(m, "4g.40gb"),
        g1m2 = pidx(m, "1g.20gb"), g7 = pidx(m, "7g.80gb"), me = pidx(m, "1g.10gb+me");
    struct { int d[MIG_MAX_PROFILES]; int want; } cases[8];
    memset(cases, 0, sizeof cases);
    cases[0].d[g1] = 7; cases[0].want = 1;
    cases[1].d[g1] = 8; cases[1].want = 2;
    cases[2].d[g3] = 2; cases[2].d[g1] = 1; cases[2].want = 2;     /* {3g,3g,1g} invalid */
    cases[3].d[g4] = 3; cases[3].want = 3;
    cases[4].d[g3] = 2; cases[4].d[g2] = 4; cases[4].want = 2;     /* {3g,2g,2g} x2; greedy 3 */
    cases[5].d[g7] = 2; cases[5].d[g1] = 1; cases[5].want = 3;
    cases[6].d[me] = 3; cases[6].want = 3;                         /* one +me per GPU */
    cases[7].d[g1m2] = 5; cases[7].d[g2] = 1; cases[7].want = 2;   /* 4 per GPU; 2g fills the rest */
    for (int i = 0; i < 8; i++) {
        MigPacking pk = pack(m, cases[i].d);
        assert_int_equal(pk.gpus, cases[i].want);
        assert_true(pk.optimal);
        assert_int_equal(pk.lower_bound, cases[i].want);
        assert_int_equal(brute_opt(m, cases[i].d), cases[i].want);
        mig_packing_clear(&pk);
    }
    /* 7x 1g.10gb: one group, one GPU, all seven starts used */
    int d[MIG_MAX_PROFILES] = { 0 };
    d[g1] = 7;
    MigPacking pk = pack(m, d);
    assert_int_equal(pk.ngroups, 1);
    assert_int_equal(pk.groups[0].gpus, 1);
    assert_int_equal(pk.groups[0].layout.ngi, 7);
    mig_packing_clear(&pk);
    /* nothing to pack */
    memset(d, 0, sizeof d);
    pk = pack(m, d);
    assert_int_equal(pk.gpus, 0); assert_true(pk.optimal); assert_int_equal(pk.ngroups, 0);
    mig_packing_clear(&pk);
    /* bad input */
    d[0] = -1;
    assert_int_equal(mig_pack(m, d, &pk), -1);
    memset(d, 0, sizeof d);
    d[MIG_MAX_PROFILES - 1] = 1;
    assert_int_equal(mig_pack(m, d, &pk), -1);
}

/* the test's own first-fit-decreasing: instances by compute then memory slices, first GPU
 * whose layout stays valid (oracle) */
static int naive_greedy(const MigGpuModel *m, const int *demand)
{
    int items[64], n = 0;
    for (size_t i = 0; i < m->nprofiles; i++) for (int c = 0; c < demand[i]; c++) items[n++] = (int)i;
    for (int a = 1; a < n; a++)
        for (int b = a; b > 0; b--) {
            const MigProfile *x = &m->profiles[items[b - 1]], *y = &m->profiles[items[b]];
            if (x->compute > y->compute || (x->compute == y->compute && x->size >= y->size)) break;
            int t = items[b]; items[b] = items[b - 1]; items[b - 1] = t;
        }
    int bins[64][MIG_MAX_PROFILES], nb = 0;
    memset(bins, 0, sizeof bins);
    for (int k = 0; k < n; k++) {
        int b = 0;
        for (; b < nb; b++) {
            bins[b][items[k]]++;
            if (oracle_valid(m, bins[b])) break;
            bins[b][items[k]]--;
        }
        if (b == nb) bins[nb++][items[k]]++;
    }
    return nb;
}

static void test_pack_beats_greedy(void **state)
{
    (void)state;
    const MigGpuModel *m = model("NVIDIA-A100-SXM4-80GB");
    int g1 = pidx(m, "1g.10gb"), g2 = pidx(m, "2g.20gb"), g3 = pidx(m, "3g.40gb"), g4 = pidx(m, "4g.40gb");
    /* {3g x2, 2g x4}: greedy pairs the 3g's (memory full) and needs 3 GPUs;
     * optimum 2 = {3g@4, 2g@0, 2g@2} twice */
    int d[MIG_MAX_PROFILES] = { 0 };
    d[g3] = 2; d[g2] = 4;
    assert_int_equal(naive_greedy(m, d), 3);
    MigPacking pk = pack(m, d);
    assert_int_equal(pk.gpus, 2);
    assert_int_equal(pk.ngroups, 1);
    assert_int_equal(pk.groups[0].layout.counts[g3], 1);
    assert_int_equal(pk.groups[0].layout.counts[g2], 2);
    mig_packing_clear(&pk);
    /* {4g, 3g x3, 2g x4}: greedy 4, optimum 3 (brute force) */
    memset(d, 0, sizeof d);
    d[g4] = 1; d[g3] = 3; d[g2] = 4;
    assert_int_equal(naive_greedy(m, d), 4);
    assert_int_equal(brute_opt(m, d), 3);
    pk = pack(m, d);
    assert_int_equal(pk.gpus, 3);
    mig_packing_clear(&pk);
    /* {1g x2, 2g x3, 3g x2}: greedy 3, optimum 2 */
    memset(d, 0, sizeof d);
    d[g1] = 2; d[g2] = 3; d[g3] = 2;
    assert_int_equal(naive_greedy(m, d), 3);
    assert_int_equal(brute_opt(m, d), 2);
    pk = pack(m, d);
    assert_int_equal(pk.gpus, 2);
    mig_packing_clear(&pk);
}

/* random tiny instances: mig_pack == brute-force optimum */
static void test_pack_vs_brute_force(void **state)
{
    (void)state;
    const char *models[] = { "NVIDIA-A100-SXM4-80GB", "NVIDIA-A30", "NVIDIA-H100-NVL",
                             "NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition", NULL };
    unsigned seed = 12345;
    int cases = 0, searched = 0;
    for (int mi = 0; models[mi]; mi++) {
        const MigGpuModel *m = model(models[mi]);
        /* the profiles a planner asks for (plain ones), plus the +me one */
        int use[MIG_MAX_PROFILES], nu = 0;
        for (size_t i = 0; i < m->nprofiles; i++)
            if (!m->profiles[i].variant || m->profiles[i].media_ext) use[nu++] = (int)i;
        for (int t = 0; t < 150; t++) {
            int d[MIG_MAX_PROFILES] = { 0 }, items = 0;
            int want = 2 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 8;
            while (items < want) {
                seed = seed * 1103515245u + 12345u;
                int p = use[(seed >> 16) % (unsigned)nu];
                const MigProfile *pp = &m->profiles[p];
                if (pp->compute == m->compute_slices && (seed >> 8) % 3) continue;   /* fewer full */
                d[p]++; items++;
            }
            MigPacking pk = pack(m, d);
            int opt = brute_opt(m, d);
            assert_int_equal(pk.gpus, opt);
            assert_true(pk.optimal);
            mig_packing_clear(&pk);
            /* the branch-and-bound alone (no LP rounding) finds the same optimum */
            MigPackOptions o = { .skip_rounding = true };
            assert_int_equal(mig_pack_opts(m, d, &o, &pk), 0);
            check_packing(m, d, &pk);
            assert_int_equal(pk.gpus, opt);
            assert_true(pk.optimal);
            if (opt > 1) searched += pk.search_nodes > 0;
            mig_packing_clear(&pk);
            cases++;
        }
    }
    assert_int_equal(cases, 600);
    assert_true(searched > 100);
}

/* medium instances (up to ~12 GPUs): a plain DP over demand vectors as the reference */
typedef struct { int dims[MIG_MAX_PROFILES]; int k; int *memo; MigLayout *ls; size_t nl; int prof[MIG_MAX_PROFILES]; } Dp;

static int dp_index(const Dp *dp, const int *r)
{
    int idx = 0;
    for (int u = 0; u < dp->k; u++) idx = idx * (dp->dims[u] + 1) + r[u];
    return idx;
}

static int dp_solve(Dp *dp, const int *r)
{
    bool any = false;
    for (int u = 0; u < dp->k; u++) any |= r[u] > 0;
    if (!any) return 0;
    int idx = dp_index(dp, r);
    if (dp->memo[idx] >= 0) return dp->memo[idx];
    int best = 1 << 20;
    for (size_t l = 0; l < dp->nl; l++) {
        int nr[MIG_MAX_PROFILES]; bool helps = false;
        for (int u = 0; u < dp->k; u++) {
            int c = dp->ls[l].counts[dp->prof[u]];
            nr[u] = r[u] > c ? r[u] - c : 0;
            helps |= nr[u] < r[u];
        }
        if (!helps) continue;
        int v = 1 + dp_solve(dp, nr);
        if (v < best) best = v;
    }
    dp->memo[idx] = best;
    return best;
}

static void test_pack_vs_dp(void **state)
{
    (void)state;
    const MigGpuModel *m = model("NVIDIA-H100-80GB-HBM3");
    const char *names[] = { "1g.10gb", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb" };
    unsigned seed = 777;
    for (int t = 0; t < 40; t++) {
        Dp dp = { .k = 5 };
        int d[MIG_MAX_PROFILES] = { 0 }, r[MIG_MAX_PROFILES] = { 0 };
        size_t states = 1;
        for (int u = 0; u < 5; u++) {
            seed = seed * 1103515245u + 12345u;
            int lim[] = { 16, 8, 8, 6, 4 };
            dp.prof[u] = pidx(m, names[u]);
            dp.dims[u] = (int)((seed >> 16) % (unsigned)(lim[u] + 1));
            d[dp.prof[u]] = dp.dims[u]; r[u] = dp.dims[u];
            states *= (size_t)dp.dims[u] + 1;
        }
        /* all layouts over these 5 profiles from the oracle (not from mig.c) */
        dp.ls = calloc(4096, sizeof(MigLayout)); dp.nl = 0;
        int c[5] = { 0 };
        for (;;) {
            int counts[MIG_MAX_PROFILES] = { 0 }; bool any = false;
            for (int u = 0; u < 5; u++) { counts[dp.prof[u]] = c[u]; any |= c[u] > 0; }
            if (any && oracle_valid(m, counts)) memcpy(dp.ls[dp.nl++].counts, counts, sizeof counts);
            int u = 0;
            while (u < 5) { if (++c[u] <= 7) break; c[u++] = 0; }
            if (u == 5) break;
        }
        dp.memo = malloc(states * sizeof(int));
        for (size_t s = 0; s < states; s++) dp.memo[s] = -1;
        int want = dp_solve(&dp, r);
        MigPacking pk = pack(m, d);
        assert_int_equal(pk.gpus, want);
        assert_true(pk.optimal);
        mig_packing_clear(&pk);
        MigPackOptions o = { .skip_rounding = true };
        assert_int_equal(mig_pack_opts(m, d, &o, &pk), 0);
        check_packing(m, d, &pk);
        assert_int_equal(pk.gpus, want);
        assert_true(pk.optimal);
        mig_packing_clear(&pk);
        free(dp.memo); free(dp.ls);
    }
}

/* up to 64 GPUs the answer is proved optimal; bounds hold and it is quick */
static void test_pack_exact_range(void **state)
{
    (void)state;
    const MigGpuModel *m = model("NVIDIA-A100-SXM4-80GB");
    const char *names[] = { "1g.10gb", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb", "1g.10gb+me" };
    unsigned seed = 4242;
    int proved = 0;
    clock_t t0 = clock();
    for (int t = 0; t < 200; t++) {
        int d[MIG_MAX_PROFILES] = { 0 };
        int lim[] = { 120, 40, 50, 40, 20, 5 };
        int compute = 0;
        for (int u = 0; u < 6; u++) {
            seed = seed * 1103515245u + 12345u;
            int p = pidx(m, names[u]);
            d[p] = (int)((seed >> 16) % (unsigned)(lim[u] + 1));
            compute += d[p] * m->profiles[p].compute;
        }
        MigPacking pk = pack(m, d);
        /* independent bounds: compute, memory slices, one 4g per GPU, two 3g per GPU */
        assert_true(pk.gpus * 7 >= compute);
        assert_true(pk.gpus >= d[pidx(m, "4g.40gb")]);
        assert_true(pk.gpus * 2 >= d[pidx(m, "3g.40gb")]);
        assert_true(pk.gpus >= d[pidx(m, "1g.10gb+me")]);
        if (pk.gpus <= MIG_PACK_EXACT_MAX_GPUS) {
            assert_true(pk.optimal);
            proved++;
            /* the branch-and-bound alone reaches the same count from one GPU per instance */
            int want = pk.gpus;
            mig_packing_clear(&pk);
            MigPackOptions o = { .skip_rounding = true };
            assert_int_equal(mig_pack_opts(m, d, &o, &pk), 0);
            check_packing(m, d, &pk);
            assert_int_equal(pk.gpus, want);
            assert_true(pk.optimal);
        }
        mig_packing_clear(&pk);
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    print_message("exact range: %d of 200 instances need <= 64 GPUs, all proved, twice, in %.3f s CPU\n",
                  proved, secs);
    assert_true(proved > 50);
    assert_true(secs < 10.0);
}

/* a search that runs out of budget still returns a valid packing, marked unproven */
static void test_pack_budget(void **state)
{
    (void)state;
    const MigGpuModel *m = model("NVIDIA-A100-SXM4-80GB");
    int d[MIG_MAX_PROFILES] = { 0 };
    d[pidx(m, "3g.40gb")] = 6; d[pidx(m, "2g.20gb")] = 9; d[pidx(m, "1g.10gb")] = 5;
    MigPackOptions o = { .skip_rounding = true, .node_budget = 1 };
    MigPacking pk;
    assert_int_equal(mig_pack_opts(m, d, &o, &pk), 0);
    check_packing(m, d, &pk);
    assert_false(pk.optimal);
    assert_true(pk.gpus > pk.lower_bound);
    mig_packing_clear(&pk);
    /* the default run proves its answer; compute 18 + 18 + 5 = 41 slices -> >= 6 GPUs */
    pk = pack(m, d);
    assert_true(pk.optimal);
    assert_true(pk.gpus >= 6);
    mig_packing_clear(&pk);
}

/* 40,000 GPUs worth of instances: quick, valid, and within a few GPUs of the LP bound */
static void test_pack_scale(void **state)
{
    (void)state;
    const MigGpuModel *m = model("NVIDIA-A100-SXM4-80GB");
    int d[MIG_MAX_PROFILES] = { 0 };
    d[pidx(m, "1g.10gb")] = 70001; d[pidx(m, "2g.20gb")] = 30003; d[pidx(m, "3g.40gb")] = 20005;
    d[pidx(m, "4g.40gb")] = 5003; d[pidx(m, "1g.20gb")] = 10007; d[pidx(m, "1g.10gb+me")] = 1000;
    long compute = 70001 + 2L * 30003 + 3L * 20005 + 4L * 5003 + 10007 + 1000;
    clock_t t0 = clock();
    MigPacking pk;
    assert_int_equal(mig_pack(m, d, &pk), 0);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    check_packing(m, d, &pk);
    print_message("scale: %d GPUs (lower bound %d, compute bound %ld) in %.3f s CPU, %zu layouts\n",
                  pk.gpus, pk.lower_bound, (compute + 6) / 7, secs, pk.ngroups);
    if (!getenv("KGPU_VALGRIND")) assert_true(secs < 2.0);   /* valgrind runs ~50x slower */
    assert_true(pk.gpus >= (compute + 6) / 7);
    assert_true(pk.gpus - pk.lower_bound <= 6);
    mig_packing_clear(&pk);

    /* 280,000 x 1g.10gb = exactly 40,000 full GPUs */
    memset(d, 0, sizeof d);
    d[pidx(m, "1g.10gb")] = 280000;
    t0 = clock();
    pk = pack(m, d);
    secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    assert_int_equal(pk.gpus, 40000);
    assert_true(pk.optimal);
    assert_int_equal(pk.ngroups, 1);
    if (!getenv("KGPU_VALGRIND")) assert_true(secs < 2.0);   /* valgrind runs ~50x slower */
    mig_packing_clear(&pk);
}

/* mig_model_for_product remembers its last answers (a few, by the product's text): every
 * product name of every table, with and without the NVIDIA- prefix and a -SHARED suffix, and
 * names that match nothing, asked in rounds whose order differs (more names than it remembers,
 * so answers are both remembered and forgotten): each answer is the table whose list holds the
 * name (the expectation, found here by walking the tables), or none for the misses. */
static void test_model_memo(void **state)
{
    (void)state;
    char buf[160];
    for (int round = 0; round < 3; round++)
        for (size_t k = 0; k < mig_model_count(); k++) {
            size_t i = round == 1 ? mig_model_count() - 1 - k : (k * 5 + (size_t)round) % mig_model_count();
            const MigGpuModel *m = mig_model_at(i);
            for (const char *const *pp = m->products; *pp; pp++) {
                assert_ptr_equal(mig_model_for_product(*pp), m);
                snprintf(buf, sizeof buf, "%s-SHARED", *pp);
                assert_ptr_equal(mig_model_for_product(buf), m);
                assert_null(mig_model_for_product("NVIDIA-T4"));
                snprintf(buf, sizeof buf, "%sX", *pp);           /* a near miss */
                assert_null(mig_model_for_product(buf));
            }
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_product_matching), cmocka_unit_test(test_product_memo), cmocka_unit_test(test_profile_names),
        cmocka_unit_test(test_model_memo),
        cmocka_unit_test(test_tables_consistent), cmocka_unit_test(test_layout_examples_7slice),
        cmocka_unit_test(test_layout_examples_a30_rtx), cmocka_unit_test(test_layout_oracle),
        cmocka_unit_test(test_enumerate), cmocka_unit_test(test_choose_profile),
        cmocka_unit_test(test_pack_by_hand), cmocka_unit_test(test_pack_beats_greedy),
        cmocka_unit_test(test_pack_vs_brute_force), cmocka_unit_test(test_pack_vs_dp),
        cmocka_unit_test(test_pack_exact_range), cmocka_unit_test(test_pack_budget),
        cmocka_unit_test(test_pack_scale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

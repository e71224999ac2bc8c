/* mig.c — MIG layouts on one GPU, layout enumeration, profile choice, and packing.
 *
 * One GPU.  A layout is valid when per-profile maxima, the one-+me / one-+me.all rules and
 * the compute sum hold, and every instance gets a start from its profile's start set with
 * pairwise disjoint [start, start+size) intervals (reference mig-profiles.md §2).  Placement
 * is a tiny backtracking search (at most 8 instances, at most 12 starts each); instances are
 * placed largest first and identical profiles take increasing starts so that permutations of
 * equal instances are not retried.
 *
 * Many GPUs.  Packing instances onto the fewest GPUs is bin packing with placement rules, so
 * it is solved over *configurations*: the maximal valid layouts restricted to the demanded
 * profiles (a few dozen at most; any GPU's layout is a subset of one of them, and a subset
 * of a valid layout is valid).  The problem becomes: cover the demand vector d with the
 * fewest configurations.
 *   Lower bound — the configuration LP  min sum x_c  s.t.  sum_c x_c a_c >= d, x >= 0.  We
 *   solve its dual  max d.w  s.t.  a_c.w <= 1 for every configuration, w >= 0, with a plain
 *   tableau simplex (origin feasible, Bland's rule).  Compute slices (w_p = c_p/C), memory
 *   slices (w_p = size_p/axis) and per-profile maxima (w_p = 1/max_p) are all feasible dual
 *   points, so ceil(LP) dominates those bounds.  The dual polytope does not depend on d, so
 *   the tableau is kept and only re-priced for each new demand (warm start).
 *   Upper bound — floor(x_c) copies of each configuration of the LP optimum, the small
 *   remainder packed by the exact search below.  This is within a few GPUs of the LP bound
 *   whatever the size, and costs the same for 40,000 GPUs as for 4.
 *   Exact search — iterative deepening on the number of GPUs K from the lower bound: take the
 *   largest remaining profile; some GPU holds one of it, so branch on the configuration that
 *   GPU uses (children whose remainder is dominated by a sibling's are dropped), prune with
 *   the LP bound of the remainder, and remember remainders proved infeasible with K GPUs.
 *   It runs only when the bounds differ and the optimum may be <= MIG_PACK_EXACT_MAX_GPUS,
 *   under a node budget; if the budget runs out the result says it is not proven optimal.
 */
#include "analysis/mig.h"
#include "util/util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LP_EPS 1e-9
#define PACK_NODE_BUDGET 300000L
#define LP_REFRESH_PIVOTS 20000L

/* ------------------------------------------------------------------ one GPU */

typedef struct {
    const MigGpuModel *m;
    int prof[MIG_MAX_GI];     /* profile index per instance, in placement order */
    int n;
    int start[MIG_MAX_GI];
} PlaceJob;

static bool place_rec(PlaceJob *j, int k, uint32_t used, int min_si)
{
    if (k == j->n) return true;
    const MigProfile *p = &j->m->profiles[j->prof[k]];
    for (int si = min_si; si < p->nstarts; si++) {
        int st = p->starts[si];
        if (st < 0 || st + p->size > j->m->axis) continue;
        uint32_t mask = ((1u << p->size) - 1u) << st;
        if (used & mask) continue;
        j->start[k] = st;
        /* the next instance of the same profile starts later: no permutations retried */
        int next_min = (k + 1 < j->n && j->prof[k + 1] == j->prof[k]) ? si + 1 : 0;
        if (place_rec(j, k + 1, used | mask, next_min)) return true;
    }
    return false;
}

/* counts -> placement; fills out (when not NULL) */
static bool place_counts(const MigGpuModel *m, const int *counts, MigLayout *out)
{
    int compute = 0, units = 0, me = 0, me_all = 0, n = 0;
    for (size_t i = 0; i < m->nprofiles; i++) {
        int c = counts[i];
        if (c < 0 || c > m->profiles[i].max_instances) return false;
        if (c == 0) continue;
        compute += c * m->profiles[i].compute;
        units += c * m->profiles[i].size;
        if (m->profiles[i].media_ext) me += c;
        if (m->profiles[i].media_all) me_all += c;
        n += c;
    }
    for (size_t i = m->nprofiles; i < MIG_MAX_PROFILES; i++)
        if (counts[i] != 0) return false;
    if (compute > m->compute_slices || units > m->axis || me > 1 || me_all > 1 || n > MIG_MAX_GI)
        return false;
    PlaceJob j = { .m = m, .n = n };
    /* placement order: larger instances first, then fewer possible starts, then index */
    int order[MIG_MAX_PROFILES], no = 0;
    for (size_t i = 0; i < m->nprofiles; i++) if (counts[i] > 0) order[no++] = (int)i;
    for (int a = 1; a < no; a++) {
        int v = order[a], b = a;
        while (b > 0) {
            const MigProfile *x = &m->profiles[order[b - 1]], *y = &m->profiles[v];
            bool after = x->size > y->size || (x->size == y->size && x->nstarts <= y->nstarts);
            if (after) break;
            order[b] = order[b - 1]; b--;
        }
        order[b] = v;
    }
    int k = 0;
    for (int a = 0; a < no; a++)
        for (int c = 0; c < counts[order[a]]; c++) j.prof[k++] = order[a];
    if (!place_rec(&j, 0, 0, 0)) return false;
    if (out) {
        memset(out, 0, sizeof *out);
        memcpy(out->counts, counts, sizeof out->counts);
        out->ngi = n;
        for (int a = 0; a < n; a++) { out->gi[a].profile = j.prof[a]; out->gi[a].start = j.start[a]; }
        for (int a = 1; a < n; a++) {          /* sort by start */
            MigPlacement v = out->gi[a]; int b = a;
            while (b > 0 && out->gi[b - 1].start > v.start) { out->gi[b] = out->gi[b - 1]; b--; }
            out->gi[b] = v;
        }
    }
    return true;
}

bool mig_layout_from_counts(const MigGpuModel *m, const int *counts, MigLayout *out)
{
    if (!m || !counts) return false;
    return place_counts(m, counts, out);
}

bool mig_layout_valid(const MigGpuModel *m, const MigProfile *const *profiles, size_t n, int *starts)
{
    if (!m) return false;
    if (n > MIG_MAX_GI) return false;
    int counts[MIG_MAX_PROFILES] = { 0 };
    for (size_t i = 0; i < n; i++) {
        int idx = mig_model_profile_index(m, profiles[i]);
        if (idx < 0) return false;
        counts[idx]++;
    }
    MigLayout l;
    if (!place_counts(m, counts, &l)) return false;
    if (starts) {           /* hand the placements back in the caller's order */
        bool taken[MIG_MAX_GI] = { false };
        for (size_t i = 0; i < n; i++) {
            int idx = mig_model_profile_index(m, profiles[i]);
            for (int g = 0; g < l.ngi; g++)
                if (!taken[g] && l.gi[g].profile == idx) { taken[g] = true; starts[i] = l.gi[g].start; break; }
        }
    }
    return true;
}

int mig_layout_compute(const MigGpuModel *m, const MigLayout *l)
{
    int c = 0;
    for (size_t i = 0; i < m->nprofiles; i++) c += l->counts[i] * m->profiles[i].compute;
    return c;
}

/* ------------------------------------------------------------------ enumeration */

typedef struct { MigLayout *v; size_t n, cap; } LayoutVec;

static void enum_rec(const MigGpuModel *m, const bool *allowed, int *counts, size_t i,
                     int compute, int units, LayoutVec *out)
{
    if (i == m->nprofiles) {
        bool any = false;
        for (size_t a = 0; a < m->nprofiles; a++) any |= counts[a] > 0;
        MigLayout l;
        if (any && place_counts(m, counts, &l)) {
            ARRAY_GROW(out->v, out->n, out->cap);
            out->v[out->n++] = l;
        }
        return;
    }
    const MigProfile *p = &m->profiles[i];
    int maxc = (allowed && !allowed[i]) ? 0 : p->max_instances;
    for (int c = 0; c <= maxc; c++) {
        if (compute + c * p->compute > m->compute_slices || units + c * p->size > m->axis) break;
        counts[i] = c;
        enum_rec(m, allowed, counts, i + 1, compute + c * p->compute, units + c * p->size, out);
    }
    counts[i] = 0;
}

static bool layout_is_maximal(const MigGpuModel *m, const bool *allowed, const MigLayout *l)
{
    int counts[MIG_MAX_PROFILES];
    for (size_t p = 0; p < m->nprofiles; p++) {
        if (allowed && !allowed[p]) continue;
        memcpy(counts, l->counts, sizeof counts);
        counts[p]++;
        if (place_counts(m, counts, NULL)) return false;
    }
    return true;
}

size_t mig_layouts_enumerate(const MigGpuModel *m, const bool *allowed, bool maximal_only,
                             MigLayout **out)
{
    LayoutVec v = { NULL, 0, 0 };
    int counts[MIG_MAX_PROFILES] = { 0 };
    if (m) enum_rec(m, allowed, counts, 0, 0, 0, &v);
    if (maximal_only) {
        size_t k = 0;
        for (size_t i = 0; i < v.n; i++)
            if (layout_is_maximal(m, allowed, &v.v[i])) v.v[k++] = v.v[i];
        v.n = k;
    }
    *out = v.v;
    return v.n;
}

/* ------------------------------------------------------------------ profile choice */

int mig_compute_need(const MigGpuModel *m, double util_pct, double headroom_pct)
{
    if (util_pct < 0 || util_pct != util_pct) util_pct = 0;
    if (headroom_pct < 0 || headroom_pct != headroom_pct) headroom_pct = 0;
    double slices = util_pct * (1.0 + headroom_pct / 100.0) / 100.0 * m->compute_slices;
    int need = (int)ceil(slices - 1e-9);
    return need < 1 ? 1 : need;
}

const MigProfile *mig_choose_profile(const MigGpuModel *m, int64_t memory_mib, double util_pct,
                                     double headroom_pct)
{
    if (!m) return NULL;
    if (headroom_pct < 0 || headroom_pct != headroom_pct) headroom_pct = 0;
    double mem = (double)(memory_mib < 0 ? 0 : memory_mib) * (1.0 + headroom_pct / 100.0);
    int need = mig_compute_need(m, util_pct, headroom_pct);
    const MigProfile *best = NULL;
    double best_share = 0;
    for (size_t i = 0; i < m->nprofiles; i++) {
        const MigProfile *p = &m->profiles[i];
        if (p->variant) continue;
        if (p->compute >= m->compute_slices && p->size >= m->axis) continue;   /* whole GPU */
        if (p->compute < need || (double)p->memory_mib < mem) continue;
        double cs = (double)p->compute / m->compute_slices, ms = (double)p->size / m->axis;
        double share = cs > ms ? cs : ms;
        if (!best || share < best_share - 1e-12 ||
            (share <= best_share + 1e-12 &&
             (p->compute < best->compute ||
              (p->compute == best->compute && (p->size < best->size ||
               (p->size == best->size && p->memory_mib < best->memory_mib)))))) {
            best = p; best_share = share;
        }
    }
    return best;
}

/* ------------------------------------------------------------------ packing */

typedef struct { uint64_t h; long off; int kmax; } MemoEnt;   /* off < 0: empty slot */

typedef struct {
    const MigGpuModel *m;
    int k;                          /* demanded profile types */
    int type_prof[MIG_MAX_PROFILES];  /* type -> profile index */
    int nconf;
    int *conf;                      /* nconf x k: instances of each type per configuration */
    /* configuration LP, dual form, tableau nconf x (k + nconf + 1) */
    int ncol;
    double *tab, *zrow, zval;
    int *basis;
    long pivots;
    double wroot[MIG_MAX_PROFILES]; /* root dual weights: child ordering */
    int branch_order[MIG_MAX_PROFILES];
    /* exact search */
    MemoEnt *memo; size_t memo_cap, memo_n;
    int *memo_keys; size_t memo_keys_n, memo_keys_cap;
    long nodes, budget;
    bool aborted;
    int *path; int path_cap;        /* configuration per depth of the current branch */
} Packer;

#define TAB(P, i, j) ((P)->tab[(size_t)(i) * ((size_t)(P)->ncol + 1) + (size_t)(j)])

static void lp_reset(Packer *P)
{
    P->ncol = P->k + P->nconf;
    for (int i = 0; i < P->nconf; i++) {
        for (int j = 0; j <= P->ncol; j++) TAB(P, i, j) = 0;
        for (int t = 0; t < P->k; t++) TAB(P, i, t) = P->conf[i * P->k + t];
        TAB(P, i, P->k + i) = 1;
        TAB(P, i, P->ncol) = 1;
        P->basis[i] = P->k + i;
    }
    P->pivots = 0;
}

static void lp_pivot(Packer *P, int l, int e)
{
    int nc = P->ncol;
    double piv = TAB(P, l, e);
    for (int j = 0; j <= nc; j++) TAB(P, l, j) /= piv;
    TAB(P, l, e) = 1;
    for (int i = 0; i < P->nconf; i++) {
        if (i == l) continue;
        double f = TAB(P, i, e);
        if (f == 0) continue;
        for (int j = 0; j <= nc; j++) {
            double v = TAB(P, i, j) - f * TAB(P, l, j);
            TAB(P, i, j) = fabs(v) < 1e-12 ? 0 : v;
        }
        TAB(P, i, e) = 0;
    }
    double f = P->zrow[e];
    if (f != 0) {
        for (int j = 0; j < nc; j++) {
            double v = P->zrow[j] - f * TAB(P, l, j);
            P->zrow[j] = fabs(v) < 1e-12 ? 0 : v;
        }
        P->zval -= f * TAB(P, l, nc);
        P->zrow[e] = 0;
    }
    P->basis[l] = e;
    P->pivots++;
}

/* LP value for demand r; x (nconf, may be NULL) gets the primal solution, w (k) the dual */
static double lp_solve(Packer *P, const int *r, double *x, double *w)
{
    if (P->pivots > LP_REFRESH_PIVOTS) lp_reset(P);
    int nc = P->ncol;
    for (int j = 0; j < nc; j++) P->zrow[j] = j < P->k ? -(double)r[j] : 0;
    P->zval = 0;
    for (int i = 0; i < P->nconf; i++) {
        int b = P->basis[i];
        double cb = b < P->k ? (double)r[b] : 0;
        if (cb == 0) continue;
        for (int j = 0; j < nc; j++) P->zrow[j] += cb * TAB(P, i, j);
        P->zval += cb * TAB(P, i, nc);
    }
    for (int j = 0; j < nc; j++) if (fabs(P->zrow[j]) < 1e-12) P->zrow[j] = 0;
    for (;;) {
        int e = -1;
        for (int j = 0; j < nc; j++) if (P->zrow[j] < -LP_EPS) { e = j; break; }   /* Bland */
        if (e < 0) break;
        int l = -1; double best = 0;
        for (int i = 0; i < P->nconf; i++) {
            double a = TAB(P, i, e);
            if (a <= LP_EPS) continue;
            double ratio = TAB(P, i, nc) / a;
            if (l < 0 || ratio < best - LP_EPS ||
                (ratio <= best + LP_EPS && P->basis[i] < P->basis[l])) { l = i; best = ratio; }
        }
        if (l < 0) break;      /* unbounded: impossible, every type sits in some configuration */
        lp_pivot(P, l, e);
    }
    if (x) for (int c = 0; c < P->nconf; c++) x[c] = P->zrow[P->k + c] > 0 ? P->zrow[P->k + c] : 0;
    if (w) {
        for (int t = 0; t < P->k; t++) w[t] = 0;
        for (int i = 0; i < P->nconf; i++)
            if (P->basis[i] < P->k) w[P->basis[i]] = TAB(P, i, nc);
    }
    return P->zval;
}

static int lp_bound(Packer *P, const int *r)
{
    bool any = false;
    for (int t = 0; t < P->k; t++) any |= r[t] > 0;
    if (!any) return 0;
    double z = lp_solve(P, r, NULL, NULL);
    int lb = (int)ceil(z - 1e-6);
    return lb < 1 ? 1 : lb;
}

/* ---- memo: remainder -> largest K proved infeasible ---- */

static uint64_t memo_hash(const int *r, int k)
{
    uint64_t h = 1469598103934665603ULL;
    for (int t = 0; t < k; t++) { h ^= (uint64_t)(uint32_t)r[t]; h *= 1099511628211ULL; }
    return h;
}

static MemoEnt *memo_slot(Packer *P, const int *r, uint64_t h)
{
    size_t mask = P->memo_cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        MemoEnt *e = &P->memo[i];
        if (e->off < 0) return e;
        if (e->h == h && memcmp(&P->memo_keys[e->off], r, (size_t)P->k * sizeof(int)) == 0) return e;
    }
}

static int memo_get(Packer *P, const int *r)
{
    if (P->memo_cap == 0) return -1;
    MemoEnt *e = memo_slot(P, r, memo_hash(r, P->k));
    return e->off < 0 ? -1 : e->kmax;
}

static void memo_put(Packer *P, const int *r, int kinf)
{
    if ((P->memo_n + 1) * 10 > P->memo_cap * 7) {
        MemoEnt *old = P->memo; size_t oldcap = P->memo_cap;
        P->memo_cap = oldcap ? oldcap * 2 : 1024;
        P->memo = xmalloc(P->memo_cap * sizeof *P->memo);
        for (size_t i = 0; i < P->memo_cap; i++) P->memo[i].off = -1;
        for (size_t i = 0; i < oldcap; i++) {
            if (old[i].off < 0) continue;
            size_t mask = P->memo_cap - 1, j = old[i].h & mask;
            while (P->memo[j].off >= 0) j = (j + 1) & mask;
            P->memo[j] = old[i];
        }
        free(old);
    }
    uint64_t h = memo_hash(r, P->k);
    MemoEnt *e = memo_slot(P, r, h);
    if (e->off >= 0) { if (kinf > e->kmax) e->kmax = kinf; return; }
    while (P->memo_keys_n + (size_t)P->k > P->memo_keys_cap) {
        P->memo_keys_cap = P->memo_keys_cap ? P->memo_keys_cap * 2 : 4096;
        P->memo_keys = xrealloc(P->memo_keys, P->memo_keys_cap * sizeof(int));
    }
    memcpy(&P->memo_keys[P->memo_keys_n], r, (size_t)P->k * sizeof(int));
    e->h = h; e->off = (long)P->memo_keys_n; e->kmax = kinf;
    P->memo_keys_n += (size_t)P->k;
    P->memo_n++;
}

/* ---- branch and bound: can remainder r be covered by K configurations? ---- */

typedef struct { int conf; double value; int *r; } Child;

static int child_cmp(const void *a, const void *b)
{
    const Child *x = a, *y = b;
    if (x->value > y->value + 1e-12) return -1;
    if (x->value < y->value - 1e-12) return 1;
    return x->conf - y->conf;
}

static bool dfs(Packer *P, const int *r, int K, int depth)
{
    int k = P->k, t = -1;
    for (int a = 0; a < k && t < 0; a++) if (r[P->branch_order[a]] > 0) t = P->branch_order[a];
    if (t < 0) return true;
    if (K <= 0) return false;
    if (++P->nodes > P->budget) { P->aborted = true; return false; }
    if (memo_get(P, r) >= K) return false;
    if (lp_bound(P, r) > K) { memo_put(P, r, K); return false; }

    Child *ch = xmalloc((size_t)P->nconf * sizeof *ch);
    int *buf = xmalloc((size_t)P->nconf * (size_t)k * sizeof(int));
    int nch = 0;
    for (int c = 0; c < P->nconf; c++) {
        const int *a = &P->conf[c * k];
        if (a[t] == 0) continue;
        int *nr = &buf[nch * k];
        double v = 0;
        for (int u = 0; u < k; u++) {
            int left = r[u] - a[u];
            nr[u] = left > 0 ? left : 0;
            v += (r[u] - nr[u]) * P->wroot[u];
        }
        ch[nch].conf = c; ch[nch].value = v; ch[nch].r = nr;
        nch++;
    }
    /* drop children whose remainder is >= a sibling's everywhere (ties: keep the first) */
    bool *drop = xcalloc((size_t)nch, sizeof(bool));
    for (int i = 0; i < nch; i++) {
        for (int j = 0; j < nch && !drop[i]; j++) {
            if (i == j || drop[j]) continue;
            bool ge = true, eq = true;
            for (int u = 0; u < k && ge; u++) {
                if (ch[i].r[u] < ch[j].r[u]) ge = false;
                if (ch[i].r[u] != ch[j].r[u]) eq = false;
            }
            if (ge && (!eq || j < i)) drop[i] = true;
        }
    }
    int kept = 0;
    for (int i = 0; i < nch; i++) if (!drop[i]) ch[kept++] = ch[i];
    free(drop);
    qsort(ch, (size_t)kept, sizeof *ch, child_cmp);

    bool ok = false;
    if (depth >= P->path_cap) {
        P->path_cap = P->path_cap ? P->path_cap * 2 : 64;
        P->path = xrealloc(P->path, (size_t)P->path_cap * sizeof(int));
    }
    for (int i = 0; i < kept && !ok && !P->aborted; i++) {
        P->path[depth] = ch[i].conf;
        ok = dfs(P, ch[i].r, K - 1, depth + 1);
    }
    if (!ok && !P->aborted) memo_put(P, r, K);
    free(ch); free(buf);
    return ok;
}

/* covers r exactly with the fewest configurations in [lb, ub): returns the count found and
 * appends the configurations to *sol, or -1 when none is found (infeasible below ub or out
 * of budget; *lb is raised to what was proved) */
static int search(Packer *P, const int *r, int *lb, int ub, int cap, int **sol, int *nsol)
{
    for (int K = *lb; K < ub && K <= cap; K++) {
        if (dfs(P, r, K, 0)) {
            /* the branch may end early if a configuration covered several items at once */
            int used = 0;
            int *rem = xmalloc((size_t)P->k * sizeof(int));
            memcpy(rem, r, (size_t)P->k * sizeof(int));
            for (int d = 0; d < K; d++) {
                bool any = false;
                for (int u = 0; u < P->k; u++) any |= rem[u] > 0;
                if (!any) break;
                const int *a = &P->conf[P->path[d] * P->k];
                for (int u = 0; u < P->k; u++) rem[u] = rem[u] > a[u] ? rem[u] - a[u] : 0;
                *sol = xrealloc(*sol, (size_t)(*nsol + 1) * sizeof(int));
                (*sol)[(*nsol)++] = P->path[d];
                used++;
            }
            free(rem);
            return used;
        }
        if (P->aborted) return -1;
        *lb = K + 1;
    }
    return -1;
}

/* ---- result assembly ---- */

static void add_group(MigPacking *out, size_t *cap, const MigLayout *l, int gpus)
{
    for (size_t i = 0; i < out->ngroups; i++) {
        if (memcmp(out->groups[i].layout.counts, l->counts, sizeof l->counts) == 0) {
            out->groups[i].gpus += gpus;
            return;
        }
    }
    ARRAY_GROW(out->groups, out->ngroups, *cap);
    out->groups[out->ngroups].layout = *l;
    out->groups[out->ngroups].gpus = gpus;
    out->ngroups++;
}

/* turn "copies of configuration c" into trimmed layouts: exactly the demand, no more */
static void emit(Packer *P, MigPacking *out, size_t *cap, int *rem, int c, long copies)
{
    int k = P->k;
    const int *a = &P->conf[c * k];
    while (copies > 0) {
        int e[MIG_MAX_PROFILES];
        bool any = false;
        for (int u = 0; u < k; u++) { e[u] = a[u] < rem[u] ? a[u] : rem[u]; any |= e[u] > 0; }
        if (!any) return;                        /* the remaining copies would be empty */
        long same = copies;
        for (int u = 0; u < k; u++) if (e[u] > 0 && rem[u] / e[u] < same) same = rem[u] / e[u];
        int counts[MIG_MAX_PROFILES] = { 0 };
        for (int u = 0; u < k; u++) counts[P->type_prof[u]] = e[u];
        MigLayout l;
        if (!place_counts(P->m, counts, &l)) return;   /* cannot happen: subset of a valid layout */
        add_group(out, cap, &l, (int)same);
        for (int u = 0; u < k; u++) rem[u] -= (int)(e[u] * same);
        copies -= same;
    }
}

static int group_cmp(const void *a, const void *b)
{
    const MigLayoutGroup *x = a, *y = b;
    if (x->gpus != y->gpus) return y->gpus - x->gpus;
    for (int i = 0; i < MIG_MAX_PROFILES; i++)
        if (x->layout.counts[i] != y->layout.counts[i]) return y->layout.counts[i] - x->layout.counts[i];
    return 0;
}

static void packer_release(Packer *P)
{
    free(P->conf); free(P->tab); free(P->zrow); free(P->basis);
    free(P->memo); free(P->memo_keys); free(P->path);
}

int mig_pack(const MigGpuModel *m, const int *demand, MigPacking *out)
{
    return mig_pack_opts(m, demand, NULL, out);
}

int mig_pack_opts(const MigGpuModel *m, const int *demand, const MigPackOptions *opts,
                  MigPacking *out)
{
    static const MigPackOptions defaults = { false, 0 };
    const MigPackOptions *o = opts ? opts : &defaults;
    memset(out, 0, sizeof *out);
    if (!m || !demand) return -1;
    for (int i = 0; i < MIG_MAX_PROFILES; i++) {
        if (demand[i] < 0) return -1;
        if (demand[i] > 0 && (size_t)i >= m->nprofiles) return -1;
    }
    Packer P = { .m = m, .budget = o->node_budget > 0 ? o->node_budget : PACK_NODE_BUDGET };
    bool allowed[MIG_MAX_PROFILES] = { false };
    int d[MIG_MAX_PROFILES];
    for (size_t i = 0; i < m->nprofiles; i++) {
        if (demand[i] == 0) continue;
        allowed[i] = true;
        P.type_prof[P.k] = (int)i;
        d[P.k++] = demand[i];
    }
    out->optimal = true;
    if (P.k == 0) return 0;

    /* configurations: maximal layouts over the demanded profiles */
    MigLayout *layouts;
    size_t nl = mig_layouts_enumerate(m, allowed, true, &layouts);
    P.nconf = (int)nl;
    P.conf = xmalloc(nl * (size_t)P.k * sizeof(int));
    for (size_t c = 0; c < nl; c++)
        for (int u = 0; u < P.k; u++) P.conf[c * (size_t)P.k + (size_t)u] = layouts[c].counts[P.type_prof[u]];
    free(layouts);
    P.ncol = P.k + P.nconf;
    P.tab = xcalloc((size_t)P.nconf * (size_t)(P.ncol + 1), sizeof(double));
    P.zrow = xcalloc((size_t)P.ncol, sizeof(double));
    P.basis = xcalloc((size_t)P.nconf, sizeof(int));
    lp_reset(&P);

    /* branching order: most compute first, then most memory slices */
    for (int u = 0; u < P.k; u++) P.branch_order[u] = u;
    for (int a = 1; a < P.k; a++) {
        int v = P.branch_order[a], b = a;
        const MigProfile *pv = &m->profiles[P.type_prof[v]];
        while (b > 0) {
            const MigProfile *pb = &m->profiles[P.type_prof[P.branch_order[b - 1]]];
            if (pb->compute > pv->compute || (pb->compute == pv->compute && pb->size >= pv->size)) break;
            P.branch_order[b] = P.branch_order[b - 1]; b--;
        }
        P.branch_order[b] = v;
    }

    /* root LP: lower bound and the solution to round */
    double *x = xmalloc((size_t)P.nconf * sizeof(double));
    double z = lp_solve(&P, d, x, P.wroot);
    int lb = (int)ceil(z - 1e-6);
    if (lb < 1) lb = 1;

    /* upper bound: floor(x) copies + the remainder by exact search (ceil(x) as fallback) */
    long *copies = xcalloc((size_t)P.nconf, sizeof(long));
    int rem[MIG_MAX_PROFILES];
    memcpy(rem, d, sizeof rem);
    long ub = 0, ceil_extra = 0;
    int *sol = NULL, nsol = 0;
    if (o->skip_rounding) {        /* one GPU per instance: leaves everything to the search */
        for (int u = 0; u < P.k; u++)
            for (int c = 0; c < P.nconf && rem[u] > 0; c++)
                if (P.conf[c * P.k + u] > 0) {
                    sol = xrealloc(sol, (size_t)(nsol + rem[u]) * sizeof(int));
                    for (int i = 0; i < rem[u]; i++) sol[nsol++] = c;
                    rem[u] = 0;
                }
        ub = nsol;
    }
    for (int c = 0; c < P.nconf && !o->skip_rounding; c++) {
        copies[c] = (long)floor(x[c] + 1e-9);
        ub += copies[c];
        if (x[c] - (double)copies[c] > 1e-9) ceil_extra++;
        for (int u = 0; u < P.k; u++) {
            long left = (long)rem[u] - copies[c] * P.conf[c * P.k + u];
            rem[u] = left > 0 ? (int)left : 0;
        }
    }
    bool rem_any = false;
    for (int u = 0; u < P.k; u++) rem_any |= rem[u] > 0;
    if (rem_any) {
        int rlb = lp_bound(&P, rem);
        int got = search(&P, rem, &rlb, (int)ceil_extra + 1, INT32_MAX, &sol, &nsol);
        if (got < 0) {                 /* budget ran out: round the fractional ones up */
            free(sol); sol = NULL; nsol = 0;
            for (int c = 0; c < P.nconf; c++)
                if (x[c] - (double)copies[c] > 1e-9) {
                    sol = xrealloc(sol, (size_t)(nsol + 1) * sizeof(int));
                    sol[nsol++] = c;
                }
            got = nsol;
        }
        ub += got;
    }

    /* exact search when the bounds differ and the optimum may be small */
    int *best = NULL, nbest = 0;
    bool exact_used = false;
    if (ub > lb && lb <= MIG_PACK_EXACT_MAX_GPUS) {
        P.aborted = false;
        int cap = ub - 1 < MIG_PACK_EXACT_MAX_GPUS ? (int)ub - 1 : MIG_PACK_EXACT_MAX_GPUS;
        int got = search(&P, d, &lb, cap + 1, cap, &best, &nbest);
        if (got >= 0) { exact_used = true; ub = got; lb = got; }
    }

    size_t cap = 0;
    memcpy(rem, d, sizeof rem);
    if (exact_used) {
        for (int i = 0; i < nbest; i++) emit(&P, out, &cap, rem, best[i], 1);
    } else {
        for (int c = 0; c < P.nconf; c++) if (copies[c] > 0) emit(&P, out, &cap, rem, c, copies[c]);
        for (int i = 0; i < nsol; i++) emit(&P, out, &cap, rem, sol[i], 1);
    }
    int gpus = 0;
    for (size_t i = 0; i < out->ngroups; i++) gpus += out->groups[i].gpus;
    qsort(out->groups, out->ngroups, sizeof *out->groups, group_cmp);
    out->gpus = gpus;
    out->lower_bound = lb <= gpus ? lb : gpus;
    out->optimal = out->lower_bound == gpus;
    out->search_nodes = P.nodes;
    free(best); free(sol); free(copies); free(x);
    packer_release(&P);
    return 0;
}

void mig_packing_clear(MigPacking *p)
{
    if (!p) return;
    free(p->groups);
    memset(p, 0, sizeof *p);
}

const MigLayout *mig_packing_gpu(const MigPacking *p, int i)
{
    if (!p || i < 0) return NULL;
    for (size_t g = 0; g < p->ngroups; g++) {
        if (i < p->groups[g].gpus) return &p->groups[g].layout;
        i -= p->groups[g].gpus;
    }
    return NULL;
}

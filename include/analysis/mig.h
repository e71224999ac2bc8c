/* mig.h — MIG layouts: validity and placements on one GPU, enumeration of the layouts a GPU
 * model allows, profile choice for a workload, and packing of instances onto the fewest GPUs.
 *
 * Profiles are referred to by their index in the model's table (mig_tables.h); counts vectors
 * have MIG_MAX_PROFILES entries indexed the same way.  Everything here is pure computation on
 * the static tables.  Ownership: MigLayout is a plain value; mig_layouts_enumerate and
 * mig_pack allocate arrays the caller releases with free() / mig_packing_clear().
 */
#ifndef KGPU_MIG_H
#define KGPU_MIG_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/mig_tables.h"

#define MIG_MAX_GI 8                 /* GPU instances on one GPU (<= compute slices) */
#define MIG_PACK_EXACT_MAX_GPUS 64   /* exact search only when the optimum may be <= this */

typedef struct { int profile; int start; } MigPlacement;   /* profile index, placement start */

typedef struct {
    int counts[MIG_MAX_PROFILES];    /* instances per profile index */
    int ngi;
    MigPlacement gi[MIG_MAX_GI];     /* one per instance, sorted by start */
} MigLayout;

/* Can these n instances share one GPU?  Checks max instances per profile, at most one +me and
 * one +me.all, compute sum, and finds starts with disjoint [start, start+size) intervals.
 * On success fills starts[i] for profiles[i] (starts may be NULL).  n == 0 is valid. */
bool mig_layout_valid(const MigGpuModel *m, const MigProfile *const *profiles, size_t n, int *starts);
/* Same from a counts vector; fills *out (counts and placements) when valid (out may be NULL). */
bool mig_layout_from_counts(const MigGpuModel *m, const int *counts, MigLayout *out);
int mig_layout_compute(const MigGpuModel *m, const MigLayout *l);   /* compute slices used */

/* Every valid non-empty layout of model m whose profiles are all allowed (allowed[i] per
 * profile index; NULL = every profile); maximal_only keeps those to which no allowed profile
 * can be added.  *out is malloc'ed (caller frees); returns the number of layouts. */
size_t mig_layouts_enumerate(const MigGpuModel *m, const bool *allowed, bool maximal_only,
                             MigLayout **out);

/* Compute slices a workload needs: utilization (percent of the whole GPU) grown by headroom,
 * as a share of the model's compute slices, rounded up, at least 1. */
int mig_compute_need(const MigGpuModel *m, double util_pct, double headroom_pct);
/* Smallest plain profile (no +me/+gfx/-me variants, not the whole-GPU profile) whose memory
 * holds memory_mib x (1 + headroom/100) and whose compute slices hold mig_compute_need();
 * "smallest" = least share of the GPU (max of compute and memory fractions), then fewer
 * compute slices, then fewer memory slices.  NULL when none fits: the workload needs a
 * whole GPU. */
const MigProfile *mig_choose_profile(const MigGpuModel *m, int64_t memory_mib, double util_pct,
                                     double headroom_pct);

typedef struct {
    MigLayout layout;                /* instances placed on each of these GPUs */
    int gpus;                        /* number of GPUs with this layout */
} MigLayoutGroup;

typedef struct {
    int gpus;                        /* GPUs used by the packing */
    int lower_bound;                 /* no packing uses fewer GPUs (configuration LP, search) */
    bool optimal;                    /* gpus == proven optimum */
    long search_nodes;               /* branch-and-bound nodes visited */
    MigLayoutGroup *groups; size_t ngroups;   /* identical layouts merged; most GPUs first */
} MigPacking;

/* Pack demand[i] instances of profile i (i < m->nprofiles) onto the fewest GPUs of model m,
 * each GPU holding a valid layout that exactly partitions the demand.
 *   - lower bound: the configuration LP (min number of layouts covering the demand, relaxed),
 *     which dominates the compute, memory-slice and per-profile bounds;
 *   - upper bound: the LP solution rounded down, the remainder packed by exact search;
 *   - when the bounds differ and the optimum may be <= MIG_PACK_EXACT_MAX_GPUS, an exact
 *     branch-and-bound over layouts (bounded by a node budget; optimal says if it finished);
 *   - beyond that the rounded LP solution is returned and gpus - lower_bound is the gap.
 * Returns 0, or -1 when a demand is negative or names a profile m does not have. */
int mig_pack(const MigGpuModel *m, const int *demand, MigPacking *out);
typedef struct {
    bool skip_rounding;              /* start from one GPU per instance (tests the search) */
    long node_budget;                /* search nodes; 0 = default (300,000) */
} MigPackOptions;
int mig_pack_opts(const MigGpuModel *m, const int *demand, const MigPackOptions *opts,
                  MigPacking *out);
void mig_packing_clear(MigPacking *p);
/* layout of the i-th GPU (groups expanded in order), NULL when i >= gpus */
const MigLayout *mig_packing_gpu(const MigPacking *p, int i);
#endif

/* mig_tables.h — MIG profiles and placement rules per GPU model, as data
 * (shared/reference/mig-profiles.md).  One table per GPU model; no if-chains elsewhere.
 *
 * Placement axis: memory-slice units (8 on 7-slice parts, 4 on A30, 12 on RTX PRO 6000).
 * A GPU instance of profile P placed at start s occupies [s, s + P.size); two instances
 * conflict iff their intervals overlap; compute slices summed must be <= compute_slices;
 * at most one +me and at most one +me.all instance per GPU.
 * All data is static and read-only; nothing here is freed.
 */
#ifndef KGPU_MIG_TABLES_H
#define KGPU_MIG_TABLES_H
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#define MIG_MAX_STARTS 12
#define MIG_MAX_PROFILES 16      /* profiles per model (RTX PRO 6000 has 11) */

typedef struct {
    const char *name;        /* "+" form: "1g.10gb", "1g.10gb+me", "3g.40gb" */
    int compute;             /* compute slices (the "Ng") */
    int size;                /* placement units (memory slices) */
    int max_instances;       /* per GPU */
    int starts[MIG_MAX_STARTS]; int nstarts;
    int64_t memory_mib;      /* device memory in MiB (observed or derived; see the table) */
    bool media_ext;          /* +me: at most one per GPU */
    bool media_all;          /* +me.all: at most one per GPU */
    bool variant;            /* name carries +attr/-attr (+me, +gfx, -me, +me.all): the planner
                                sizes workloads on the plain profiles only */
} MigProfile;

typedef struct {
    const char *key;         /* short name used in config names: "a100-80gb" */
    const char *display;     /* "A100 80GB" */
    const char *const *products;  /* GFD product names (without -MIG-/-SHARED suffixes) */
    int compute_slices;      /* 7 or 4 */
    int axis;                /* placement units: 8, 4 or 12 */
    int64_t memory_mib;      /* whole-GPU memory (GFD nvidia.com/gpu.memory) */
    const MigProfile *profiles; size_t nprofiles;
    const char *const *device_ids;  /* mig-parted device-filter keys "0x20B210DE" */
    bool placements_inferred;       /* placement table not seen in -lgipp output (reference §2a) */
} MigGpuModel;

/* model for a GFD product ("NVIDIA-A100-SXM4-80GB", also with -MIG-... / -SHARED suffixes,
 * without the "NVIDIA-" prefix of old drivers, any case); NULL if the GPU does not support
 * MIG or is unknown */
const MigGpuModel *mig_model_for_product(const char *gfd_product);
/* profile by name, "+" or "." form ("1g.10gb+me" == "1g.10gb.me"), optional "mig-" prefix */
const MigProfile *mig_model_profile(const MigGpuModel *m, const char *name);
int mig_model_profile_index(const MigGpuModel *m, const MigProfile *p);   /* -1 if not m's */
const MigGpuModel *mig_model_by_key(const char *key);                     /* "a100-80gb" */
size_t mig_model_count(void);
const MigGpuModel *mig_model_at(size_t i);
#endif

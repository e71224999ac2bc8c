/* sharing.h — time-slicing and MPS: how many replicas per GPU are safe, and how many physical
 * GPUs a set of workloads needs once they share (shared/reference/device-plugin-config.md §4).
 *
 * The scheduler sees replicas, not memory: any `replicas` workloads of the group may land on
 * the same GPU.  So a replica count is safe only against the worst case:
 *   time-slicing  isolates no memory: the r largest (sized) memory demands together fit the
 *                 GPU; compute: the r largest (sized) utilizations sum to <= 100 %.
 *   MPS           gives each client memory/r MiB (integer division) and 100/r % of the SMs
 *                 (integer): every sized demand fits memory/r and every sized utilization
 *                 fits 100/r; at most 48 clients for compute capability >= 7.5, else 16;
 *                 no MIG.
 * "Sized" = observed x (1 + headroom/100).  Replicas are >= 2 (the device plugin rejects 1)
 * and never more than the workloads that share.  Workloads asking for more than one GPU, or
 * without usage data, keep whole GPUs (failRequestsGreaterThanOne: a shared resource is
 * handed out one replica at a time).
 * Ownership: SharePlan.shared is allocated by sharing_plan; sharing_plan_clear releases it.
 */
#ifndef KGPU_SHARING_H
#define KGPU_SHARING_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { SHARE_TIME_SLICING, SHARE_MPS } ShareMode;

typedef struct {
    int64_t memory_mib;      /* observed memory (percentile) in MiB; < 0 = unknown */
    double utilization;      /* observed utilization (percentile), % of the whole GPU */
    int gpus;                /* whole GPUs requested now */
} ShareWorkload;

typedef struct {
    ShareMode mode;
    int64_t gpu_memory_mib;  /* memory of one physical GPU */
    int cc_major, cc_minor;  /* compute capability (MPS client limit); 0.0 = unknown -> 16 */
    double headroom_pct;
    bool mig_enabled;        /* MPS cannot share MIG devices */
} ShareParams;

typedef enum {
    SHARE_LIMIT_NONE,        /* nothing to share */
    SHARE_LIMIT_MEMORY,      /* memory bound is the smallest */
    SHARE_LIMIT_COMPUTE,     /* utilization bound */
    SHARE_LIMIT_PLUGIN,      /* MPS client limit (48 / 16) */
    SHARE_LIMIT_WORKLOADS,   /* as many replicas as workloads sharing */
} ShareLimit;
const char *sharing_limit_name(ShareLimit l);   /* "memory", "compute", "device-plugin", ... */
const char *sharing_mode_name(ShareMode m);     /* "time-slicing" | "mps" */

/* MPS clients per GPU the device plugin accepts: 48 for CC >= 7.5, else 16 */
int sharing_mps_client_limit(int cc_major, int cc_minor);

/* Largest safe replica count for the workloads with include[i] (NULL = all), ignoring the
 * >= 2 rule; 0 when none is included, when one alone does not fit, or MPS on MIG.  *limit
 * (may be NULL) names the binding bound. */
int sharing_max_replicas(const ShareParams *p, const ShareWorkload *w, const bool *include,
                         size_t n, ShareLimit *limit);

/* The same for many subsets of one set of workloads: their demands sized and sorted once (a
 * plan group's sharing candidate asks twice for each workload split between shared and
 * whole, and each call sorted the whole group: 113 M instructions at the full training
 * cluster's 51,819 workloads).  p and w are borrowed while the set lives. */
typedef struct ShareSet ShareSet;
ShareSet *sharing_set_new(const ShareParams *p, const ShareWorkload *w, size_t n);
int sharing_set_max_replicas(const ShareSet *s, const bool *include, ShareLimit *limit);
void sharing_set_free(ShareSet *s);

typedef struct {
    bool possible;           /* at least two workloads share with replicas >= 2 */
    const char *reason;      /* static text when !possible */
    int replicas;            /* the smallest count giving gpus_shared (>= 2 when possible) */
    int max_replicas;        /* the largest safe count for the shared set */
    ShareLimit limit;        /* what bounds max_replicas */
    int shared_workloads;
    int gpus_shared;         /* ceil(shared_workloads / replicas) */
    int gpus_whole;          /* sum of the requests of the workloads kept whole */
    int gpus_before;         /* sum of all requests */
    int gpus_after;          /* gpus_shared + gpus_whole (== gpus_before when !possible) */
    bool *shared;            /* per workload: true = on a shared GPU */
    size_t n;
} SharePlan;

/* Decide which workloads share and with how many replicas, minimising physical GPUs: a
 * single outsized workload would drag the safe replica count down for everyone, so the
 * workloads taking the largest share of the GPU (max of memory and utilization fractions)
 * are tried on whole GPUs one by one (up to 1024 of them) and the count with the fewest GPUs
 * wins (ties: more sharing).  Returns 0, or -1 on bad parameters (memory <= 0). */
int sharing_plan(const ShareParams *p, const ShareWorkload *w, size_t n, SharePlan *out);
int sharing_plan_set(const ShareSet *s, SharePlan *out);   /* the same, of a set's workloads */
void sharing_plan_clear(SharePlan *s);
#endif

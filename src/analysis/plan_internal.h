/* plan_internal.h — what the parts of the planner share (not a public interface).  The parts
 * are floors: each calls only the floors below it, never one that calls it back.
 *   plan.c             top: names, groups, plan_build, which runs the stages per group
 *   plan_candidates.c  stage: per group, MIG, time-slicing and MPS evaluated, one chosen
 *   plan_rollout.c     stage: the chosen strategy laid onto the nodes: configs, names, resources
 *   plan_group.c       ground: GroupCtx's helpers both stages share (what a workload holds
 *                      now, strategy names, MIG resource names, the shared-pool nodes)
 *   plan_input.c       step 1, beside them: the cluster's GPU pods as PlanWorkloads
 * The rules are in plan.h.  GroupCtx borrows everything it points to.
 */
#ifndef KGPU_PLAN_INTERNAL_H
#define KGPU_PLAN_INTERNAL_H
#include "analysis/plan.h"

typedef struct {
    PlanGroup *g;
    const PlanWorkload *w;
    uint32_t *idx; size_t n;          /* the group's pods (indices into w) */
    const Node **node;                /* per group pod: its node */
    uint32_t *wid; size_t nwid;       /* per group pod: its workload (0 .. nwid-1) */
    double headroom;
    const PlanOptions *o;
    const Node *const *gnodes; size_t ngnodes;   /* the group's nodes, sorted by name */
    const char *mps_block;            /* why MPS cannot be used in this cluster, NULL = it can */
    const char *mig_block;            /* why MIG cannot be used in this plan, NULL = it can */
    bool packed;                      /* shared pools use packed allocation (plugin v0.20+) */
} GroupCtx;

/* ---- plan_group.c (ground floor) ---- */
const char *plan_tradeoff(PlanStrategy s);
char *plan_mig_resource_name(const MigProfile *p);      /* "nvidia.com/mig-1g.10gb.me"; caller frees */
double plan_profile_share(const MigGpuModel *m, const MigProfile *p);
const MigProfile *plan_current_profile(const Node *n, const MigGpuModel *m, const PlanWorkload *w);
int plan_mig_replicas(const Node *n, const char *profile_resource);
double plan_held_share(const Node *n, const MigGpuModel *m, const PlanWorkload *w);
int plan_whole_need(const Node *n, const MigGpuModel *m, const PlanWorkload *w);
int plan_mig_instances(const Node *n, const MigGpuModel *m, const PlanWorkload *w);
double plan_gpu_util(const Node *n, const MigGpuModel *m, const PlanWorkload *w);
int plan_str_cmp(const void *a, const void *b);
/* the group nodes (chosen[], parallel to gnodes) that become shared pools: first, for each shared
 * pod (shared[k], may be NULL) whose own constraints admit no chosen node, the admitting node
 * with the most GPUs (explain_pod_admits: nodeSelector, required affinity, tolerations); then,
 * for a workload whose pods may not share a node (Pod.spread_by_node), admitting nodes until
 * there is one per pod; then the nodes with the most GPUs until `need` GPUs.  GPUs are the
 * healthy ones (health_good_gpus).  Returns the pools' GPUs. */
int plan_pool_nodes(const GroupCtx *c, int need, const bool *shared, bool *chosen);
/* the group pod k's pod admits group node j (true when the pod is not known) */
bool plan_pod_admits(const GroupCtx *c, size_t k, size_t j);

/* ---- plan.c ---- */
int plan_label_int(const Node *n, const char *key);
/* ---- plan_candidates.c (stage) ---- */
void plan_choose(GroupCtx *c, PlanChoice choice);       /* candidates, strategy, assignments */
/* ---- plan_rollout.c (stage) ---- */
char *plan_config_name(const char *key, const char *word, const char *content);
void plan_build_workloads(GroupCtx *c);                 /* one request per workload */
void plan_rollout(PlanGroup *g, const GroupCtx *c, const Node *const *gnodes);
void plan_collect_risks(PlanGroup *g, const GroupCtx *c);
#endif

/* plan_actions.h — the changes a plan makes, one entry per change, in the order the script
 * (`plan -o script`) applies them: the ConfigMaps, the ClusterPolicy patch, then node by node
 * (nodes holding the fewest GPU pods first, so capacity comes up before the workloads need it),
 * and the ResourceQuotas (--quotas) last: a quota below what a namespace holds refuses every
 * pod of it that is recreated, so it waits until the workloads hold their new requests.
 * A NodeLabel action drains when the node's MIG layout changes (mig-manager resets the GPUs)
 * and when a time-sliced or MPS node goes back to whole GPUs (the kubelet still holds the
 * replica devices "GPU-x::n" of the running pods, so a whole-GPU pod could be given a GPU they
 * use); any other device-plugin config change restarts the plugin and needs no drain.
 * Before a drain, the pods it moves need room elsewhere: `room` is what they ask for under the
 * plan ("nvidia.com/mig-1g.10gb=4"), `room_nodes` the other nodes that admit all of them
 * (explain's filters), and `room_missing` what those nodes lack at that point of the order
 * (NULL = enough), counting the nodes converted before it.  The text report's "Changes", `-o json`'s "actions" and the
 * script are all rendered from this one list.
 * Ownership: PlanActions owns its strings; it borrows the PlanResult's groups and nodes.
 */
#ifndef KGPU_PLAN_ACTIONS_H
#define KGPU_PLAN_ACTIONS_H
#include <stdbool.h>
#include <stddef.h>
#include "analysis/manifests.h"
#include "analysis/plan.h"
#include "util/strmap.h"

/* ACT_ROLLOUT_RESTART: restart a DaemonSet (a device plugin without config-manager reads its
 * config file only at start), target "ns/name", patch the pod-template merge patch that names the
 * config in annotation PLAN_DP_CONFIG_ANNOTATION: a rollout only when the config changed, so a
 * second run restarts nothing; ACT_NODEPOOL: a cloud's node-pool command
 * (GKE, AKS), shown and never run by the script, target the pool */
typedef enum { ACT_CONFIGMAP, ACT_QUOTA, ACT_CLUSTERPOLICY_PATCH, ACT_NODE_LABEL, ACT_ROLLOUT_RESTART,
               ACT_NODEPOOL } PlanActionKind;
const char *plan_action_kind_name(PlanActionKind k);    /* "ConfigMap", "Quota", ... */
#define PLAN_DP_CONFIG_ANNOTATION "kubectl-gpu.io/device-plugin-config"

typedef struct {
    PlanActionKind kind;
    char *target;                 /* "ns/name" (ConfigMap, Quota), "clusterpolicies.nvidia.com/NAME", node name */
    bool drain;
    char *detail;
    char *patch;                  /* ClusterPolicyPatch, RolloutRestart: the JSON merge patch */
    char *command;                /* NodePoolUpdate: the cloud CLI command (shown, not run) */
    const PlanGroup *g;           /* NodeLabel */
    const PlanNode *pn;
    int pods;                     /* NodeLabel: GPU pods on the node now */
    const struct cJSON *doc;      /* ConfigMap, Quota: the manifest (borrowed from Manifests) */
    Strvec room, room_nodes;      /* NodeLabel with drain: see above */
    char *room_missing;
} PlanAction;

typedef struct {
    PlanAction *v; size_t n;
    Strvec changes;               /* cluster-wide changes in words (strategy, maps, drains) */
} PlanActions;

/* node_pods: node name -> GPU pods on it now + 1 (may be NULL); c and w (the plan's input, may
 * be NULL) give the pods on each drained node and where they may go (room, above) */
void plan_actions_build(PlanActions *a, const PlanResult *r, const Manifests *m, const PlanCurrent *cur,
                        const struct StrMap *node_pods, const Cluster *c, const PlanWorkload *w, size_t nw);
void plan_actions_clear(PlanActions *a);
/* moves the Quota actions to the end (order otherwise kept): after actions added later */
void plan_actions_quotas_last(PlanActions *a);
/* appends one action (target and detail copied) and returns it */
PlanAction *plan_actions_add(PlanActions *a, PlanActionKind kind, const char *target, const char *detail);
#endif

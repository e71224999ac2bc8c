/* plan_actions.h — the changes a plan makes, one entry per change, in the order the script
 * (`plan -o script`) applies them: the ConfigMaps, the ResourceQuotas (--quotas), the
 * ClusterPolicy patch, then node by node (nodes holding the fewest GPU pods first, so capacity
 * comes up before the workloads need it).  A NodeLabel action drains only when the node's MIG
 * layout changes (mig-manager resets the GPUs); a device-plugin config change restarts the
 * plugin and needs no drain.  The text report's "Changes", `-o json`'s "actions" and the
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
 * config file only at start), target "ns/name"; ACT_NODEPOOL: a cloud's node-pool command
 * (GKE, AKS), shown and never run by the script, target the pool */
typedef enum { ACT_CONFIGMAP, ACT_QUOTA, ACT_CLUSTERPOLICY_PATCH, ACT_NODE_LABEL, ACT_ROLLOUT_RESTART,
               ACT_NODEPOOL } PlanActionKind;
const char *plan_action_kind_name(PlanActionKind k);    /* "ConfigMap", "Quota", ... */

typedef struct {
    PlanActionKind kind;
    char *target;                 /* "ns/name" (ConfigMap, Quota), "clusterpolicies.nvidia.com/NAME", node name */
    bool drain;
    char *detail;
    char *patch;                  /* ClusterPolicyPatch: the JSON merge patch */
    char *command;                /* NodePoolUpdate: the cloud CLI command (shown, not run) */
    const PlanGroup *g;           /* NodeLabel */
    const PlanNode *pn;
    int pods;                     /* NodeLabel: GPU pods on the node now */
} PlanAction;

typedef struct {
    PlanAction *v; size_t n;
    Strvec changes;               /* cluster-wide changes in words (strategy, maps, drains) */
} PlanActions;

/* node_pods: node name -> GPU pods on it now + 1 (may be NULL) */
void plan_actions_build(PlanActions *a, const PlanResult *r, const Manifests *m, const PlanCurrent *cur,
                        const struct StrMap *node_pods);
void plan_actions_clear(PlanActions *a);
/* appends one action (target and detail copied) and returns it */
PlanAction *plan_actions_add(PlanActions *a, PlanActionKind kind, const char *target, const char *detail);
#endif

/* plan_actuate.h — the plan fitted to who carries it out (model/actuators.h): it emits only
 * what that actuator reads and never leaves a node without a valid config.
 *
 *   GPU Operator          as before: its ClusterPolicy's maps, node labels (plan_actions.h).
 *   Helm chart / manifest with config-manager
 *                         the configs go into the ConfigMap the DaemonSet mounts, every config
 *                         in it and its default kept (config-manager exits on a label naming a
 *                         config its mounted directory lacks, k8s-device-plugin v0.17.0
 *                         cmd/config-manager/main.go:351-355, and an unlabelled node takes
 *                         DEFAULT_CONFIG, :358-365); the text report gives the Helm values change
 *                         that keeps them across `helm upgrade` (the chart renders config.map into
 *                         <fullname>-configs, deployments/helm/nvidia-device-plugin/templates/
 *                         configmap.yml, _helpers.tpl:237-245).
 *   without config-manager (a static manifest)
 *                         the plugin reads one file at start: that key of its map is replaced
 *                         and the DaemonSet restarted (RolloutRestart); no node label (unread);
 *                         only when one config fits every node it runs on, else not safe.
 *   no MIG manager        MIG is not planned (no nvidia.com/mig.config, no drain) and nodes that
 *                         run MIG now are left out (nothing would change their layout; their
 *                         labels stay); the report says how MIG could be applied here.
 *   GKE / AKS / EKS node pools
 *                         no ConfigMap, no label: per group the node-pool command with the
 *                         cloud's own settings (GKE --accelerator gpu-sharing-strategy,
 *                         max-shared-clients-per-gpu <= 48, gpu-partition-size; AKS
 *                         --gpu-instance-profile MIG1g..MIG7g on A100 only; EKS: none), checked
 *                         against those limits, shown (NodePoolUpdate) and never run by the script.
 *   DRA                   DRA-managed nodes are left out (plan_dra.c).
 * Ownership: the functions fill what they are given; strings are the run's.
 */
#ifndef KGPU_ANALYSIS_PLAN_ACTUATE_H
#define KGPU_ANALYSIS_PLAN_ACTUATE_H
#include <stddef.h>
#include "analysis/manifests.h"
#include "analysis/plan.h"
#include "analysis/plan_actions.h"
#include "model/actuators.h"
#include "model/cluster.h"

#define PLAN_GKE_MAX_SHARED_CLIENTS 48

/* what runs now, seen through the actuators: the plugin's own map and default (Helm chart,
 * manifest), its namespace and version.  *ns_out: where its ConfigMap lives (borrowed). */
void plan_actuate_current(PlanCurrent *cur, const Actuators *a, const Cluster *c);
/* why MIG cannot be carried out here (static text), or NULL */
const char *plan_actuate_mig_block(const Actuators *a);
/* nodes running MIG now, when nothing acts on nvidia.com/mig.config: removed from nodes
 * (order kept) with one warning.  Returns the new count. */
size_t plan_actuate_leave_out_mig(const Actuators *a, const Node **nodes, size_t n, Strvec *warnings);
/* the manifests' options for this actuator */
void plan_actuate_manifest_options(const Actuators *a, ManifestOptions *mo);
/* before the actions are built: the node changes nothing reads are dropped (cloud node pools:
 * every label; no MIG manager: nvidia.com/mig.config), and a node that already runs the
 * planned MIG layout (one profile filling every GPU, as GFD counts it) is not drained:
 * mig-manager finds the config applied and touches nothing.  c (may be NULL) gives the nodes. */
void plan_actuate_nodes(PlanResult *r, const Actuators *a, const Cluster *c);
/* after: the RolloutRestart a static plugin needs, the cloud's node-pool commands; lines for
 * the report's "Applied by" section (and the Helm values change) into applied */
void plan_actuate_actions(PlanActions *acts, PlanResult *r, const Manifests *m, const Actuators *a,
                          const Cluster *c, Strvec *applied, Strvec *warnings);
#endif

/* manifests.h — the Kubernetes objects that carry out a plan (plan.h), as cJSON trees:
 *   1. the device-plugin ConfigMap: one config file per key, key = config name (the value of
 *      the node label nvidia.com/device-plugin.config); MIG groups get flags.migStrategy mixed,
 *      shared nodes sharing.timeSlicing / sharing.mps with renameByDefault (the shared GPUs are
 *      advertised as nvidia.com/gpu.shared, so a pod asks for sharing by name) and
 *      failRequestsGreaterThanOne, nodes kept whole a plain config
 *      (shared/reference/device-plugin-config.md);
 *   2. the mig-parted ConfigMap (key config.yaml): all-disabled plus one custom config per
 *      distinct node geometry, `devices: all` when every GPU of the node is alike, else index
 *      lists (shared/reference/mig-parted-config.md);
 *   3. one ResourceQuota per namespace whose workloads the plan changes: requests.<resource>
 *      for each GPU resource they request under the plan, hard = what all of the namespace's
 *      GPU pods need under the plan (planned ones as planned, the others as they are now).
 * The config files inside the ConfigMaps are YAML text produced by the caller's yaml_text
 * function from a cJSON tree (the renderer), so this module only builds trees.
 *
 * Ownership: Manifests owns its documents; manifests_free releases them.  Everything given
 * is borrowed.
 */
#ifndef KGPU_MANIFESTS_H
#define KGPU_MANIFESTS_H
#include <stdbool.h>
#include <stddef.h>
#include "cluster.h"
#include "plan.h"

struct cJSON;
/* YAML text of a tree (newly allocated), or NULL on failure */
typedef char *(*ManifestYamlFn)(const struct cJSON *doc);

#define MANIFESTS_DEVICE_PLUGIN_CONFIGMAP "kubectl-gpu-device-plugin-config"
#define MANIFESTS_MIG_PARTED_CONFIGMAP "kubectl-gpu-mig-parted-config"
#define MANIFESTS_QUOTA_NAME "kubectl-gpu-plan"

typedef struct {
    const char *operator_namespace;   /* where the ConfigMaps go; NULL = "gpu-operator" */
    const char *plan_annotation;      /* value of the kubectl-gpu/plan annotation, may be NULL */
    const char *usage_annotation;     /* value of kubectl-gpu/usage (where usage came from) */
    ManifestYamlFn yaml_text;
} ManifestOptions;

typedef struct {
    struct cJSON **docs; size_t n;    /* in apply order */
    bool device_plugin, mig_parted;   /* which ConfigMaps were emitted */
    size_t quotas;
} Manifests;

/* c (may be NULL) gives the GPU pods outside the plan, which count against the quotas too.
 * Returns 0, or -1 when yaml_text fails. */
int manifests_build(const PlanResult *r, const PlanWorkload *w, const Cluster *c,
                    const ManifestOptions *o, Manifests *out);
void manifests_free(Manifests *m);

/* the config files, as trees (exposed for the tests); NULL when the group has no such config */
struct cJSON *manifests_device_plugin_file(const PlanGroup *g, bool shared_nodes);
struct cJSON *manifests_mig_parted_file(const PlanResult *r);
#endif

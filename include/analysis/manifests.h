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
 *   Both ConfigMaps are the ones in use now plus the plan's configs: every config any node is
 *      labelled with after the plan, and the defaults, stay present (config-manager exits with
 *      "specified config X does not exist" otherwise — k8s-device-plugin
 *      cmd/config-manager/main.go updateConfigName — and mig-manager fails the node).  Where the
 *      operator uses its built-in default-mig-parted-config and it was not read, the map starts
 *      from the operator's set for the cluster's models: all-disabled, all-enabled, all-<profile>,
 *      all-balanced (gpu-operator assets/state-mig-manager/0400_configmap.yaml).
 *   3. with --quotas, one ResourceQuota per namespace whose workloads the plan changes:
 *      requests.<resource> = what its GPU pods hold under the plan + its pending GPU pods +
 *      each Deployment's rolling-update surge (maxSurge 25%, the Deployment default, rounded up).
 * The config files inside the ConfigMaps are YAML text produced by the caller's yaml_text
 * function from a cJSON tree (the renderer), so this module only builds trees.
 *
 * Ownership: Manifests owns its documents; manifests_clear releases them.  Everything given
 * is borrowed.
 */
#ifndef KGPU_MANIFESTS_H
#define KGPU_MANIFESTS_H
#include <stdbool.h>
#include <stddef.h>
#include "model/cluster.h"
#include "analysis/plan.h"

struct cJSON;
/* YAML text of a tree (newly allocated), or NULL on failure */
typedef char *(*ManifestYamlFn)(const struct cJSON *doc);

#define MANIFESTS_DEVICE_PLUGIN_CONFIGMAP "kubectl-gpu-device-plugin-config"
#define MANIFESTS_MIG_PARTED_CONFIGMAP "kubectl-gpu-mig-parted-config"
#define MANIFESTS_QUOTA_NAME "kubectl-gpu-plan"

typedef struct {
    const char *operator_namespace;   /* where the ConfigMaps go; NULL = "gpu-operator" */
    const PlanCurrent *cur;           /* what runs now (carried over); NULL = nothing known */
    bool quotas;                      /* --quotas: emit ResourceQuotas */
    const char *plan_annotation;      /* value of the kubectl-gpu/plan annotation, may be NULL */
    const char *usage_annotation;     /* value of kubectl-gpu/usage (where usage came from) */
    ManifestYamlFn yaml_text;
    /* the device-plugin map: NULL = MANIFESTS_DEVICE_PLUGIN_CONFIGMAP in operator_namespace; else
     * the map the plugin mounts (Helm chart, static manifest: model/actuators.h), its configs
     * carried over from cur->dp_configmap */
    const char *dp_map_name, *dp_map_ns;
    /* a plugin without config-manager reads one file (this key of the map) for every node:
     * the one sharing group's config replaces it (NULL = per-node configs by label) */
    const char *dp_single_key;
    const char *dp_unreadable;        /* why no config the plan writes would be read (a plugin
                                         without config-manager and without a config file):
                                         a device-plugin change is then not safe */
    bool no_configs;                  /* nothing reads the ConfigMaps (cloud node pools): only
                                         the quotas */
    bool labels_unread;               /* provably nothing reads nvidia.com/device-plugin.config
                                         now (the operator without a map): an inert label naming
                                         no config of the new map may be removed */
} ManifestOptions;

typedef struct {
    char *ns;
    char *detail;                     /* "requests.nvidia.com/gpu: 6 (4 running + 1 pending + 1 surge)" */
} ManifestQuota;

typedef struct {
    struct cJSON **docs; size_t n;    /* in apply order */
    bool device_plugin, mig_parted;   /* which ConfigMaps were emitted */
    size_t quotas;
    ManifestQuota *quota_info;        /* parallel to the ResourceQuota documents */
    size_t carried_dp, carried_mig;   /* configs carried over from the maps in use */
    bool mig_builtin;                 /* the mig-parted map starts from the operator's built-in set */
    char *blocked;                    /* why applying would break nodes (a map in use could not be
                                         read); the script refuses to run.  NULL = safe */
    Strvec warnings;                  /* nodes whose labels name configs no map holds, ... */
    Strvec unlabel_nodes, unlabel_values;   /* nvidia.com/device-plugin.config labels that were
                                         inert (no map in use) and name no config of the new map:
                                         removed before the ClusterPolicy points at it */
    Strvec reconstructed;             /* configs written from a sharing node's GFD labels, because
                                         no map in use holds the one its label names */
    char *dp_name, *dp_ns;            /* the device-plugin map emitted (device_plugin) */
    Strvec dp_added;                  /* keys the plan adds to it (for the Helm values change) */
} Manifests;

/* c (may be NULL) gives the GPU pods outside the plan, which count against the quotas too.
 * Returns 0, or -1 when yaml_text fails. */
int manifests_build(const PlanResult *r, const PlanWorkload *w, const Cluster *c,
                    const ManifestOptions *o, Manifests *out);
void manifests_clear(Manifests *m);

/* the config files, as trees (exposed for the tests); NULL when the group has no such config */
struct cJSON *manifests_device_plugin_file(const PlanGroup *g, bool shared_nodes);
struct cJSON *manifests_mig_parted_file(const PlanResult *r);
/* the device-plugin config file of the group as the plan emits it, serialized (compact JSON;
 * caller frees; NULL as manifests_device_plugin_file): the content its ConfigMap key's name is
 * hashed from (plan_config_name), so the name follows the very object written, not a second
 * description of it */
char *manifests_device_plugin_text(const PlanGroup *g, bool shared_nodes);
#endif

/* actuators.h — who acts on what `plan` emits: the device plugin (and its config-manager), the
 * MIG manager, the DRA driver and the clouds' managed node pools, found in the reduced cluster
 * (pure functions; the DaemonSets' facts are cluster.h's DaemonSet).
 *
 * Device plugin, installedBy:
 *   gpu-operator  a ClusterPolicy is present (the operator deploys the plugin; its config is the
 *                 ClusterPolicy's spec.devicePlugin.config)
 *   helm          a device-plugin DaemonSet (any name: by image, the repository's last path
 *                 component k8s-device-plugin) labelled app.kubernetes.io/managed-by=Helm and
 *                 helm.sh/chart=nvidia-device-plugin-<version> (the chart's labels,
 *                 k8s-device-plugin v0.17.0 deployments/helm/nvidia-device-plugin/templates/
 *                 _helpers.tpl:49-56)
 *   manifest      a device-plugin DaemonSet otherwise
 *   gke|aks|eks   no such DaemonSet, and the GPU nodes carry the cloud's node-pool labels
 *                 (cloud.google.com/gke-accelerator; kubernetes.azure.com/accelerator;
 *                 eks.amazonaws.com/nodegroup or karpenter.sh/nodepool)
 *   unknown       no such DaemonSet and the DaemonSets could not be listed
 *   none          none of the above
 * configMap: the ConfigMap the plugin reads its configs from: with config-manager the volume
 *   mounted at CONFIG_FILE_SRCDIR (the chart: `available-configs`, the map named by
 *   config.name or <fullname>-configs, _helpers.tpl:237-245), without it the volume whose mount
 *   path holds CONFIG_FILE (configKey = the file's name); the ClusterPolicy's for the operator.
 *   defaultConfig: DEFAULT_CONFIG (the ClusterPolicy's config.default for the operator).
 * MIG manager, installedBy: gpu-operator (ClusterPolicy with migManager.enabled not false),
 *   standalone (a DaemonSet whose image is k8s-mig-manager), cloud (GKE / AKS node pools, whose
 *   GPU partition setting is the MIG layout), none.
 * DRA: the driver gpu.nvidia.com when it publishes devices (ResourceSlices) or a DeviceClass of
 *   it exists.
 *
 * Ownership: every pointer borrows the Cluster (valid while it is).
 */
#ifndef KGPU_MODEL_ACTUATORS_H
#define KGPU_MODEL_ACTUATORS_H
#include <stdbool.h>
#include <stddef.h>
#include "model/cluster.h"

typedef enum {
    ACTUATOR_NONE, ACTUATOR_UNKNOWN, ACTUATOR_GPU_OPERATOR, ACTUATOR_HELM, ACTUATOR_MANIFEST,
    ACTUATOR_STANDALONE, ACTUATOR_GKE, ACTUATOR_AKS, ACTUATOR_EKS, ACTUATOR_CLOUD
} ActuatorBy;
/* "none", "unknown", "gpu-operator", "helm", "manifest", "standalone", "gke", "aks", "eks", "cloud" */
const char *actuators_by_name(ActuatorBy b);

typedef struct {
    ActuatorBy by;
    const DaemonSet *ds;              /* NULL when none was seen */
    const char *ns, *daemonset;       /* NULL when unknown */
    const char *configmap;            /* the map it reads configs from, NULL = none */
    const char *config_key;           /* without config-manager: the key CONFIG_FILE names */
    const char *default_config;       /* DEFAULT_CONFIG / the ClusterPolicy's default, NULL unset */
    const char *fallback;             /* FALLBACK_STRATEGIES as written, NULL unset */
    bool config_manager;              /* per-node configs by nvidia.com/device-plugin.config */
    const char *version;              /* the image tag, NULL when none (digest only) */
    const char *helm_release, *helm_chart;   /* Helm labels, NULL when absent */
} DevicePluginActuator;

typedef struct {
    ActuatorBy by;                    /* gpu-operator | standalone | cloud | none */
    const DaemonSet *ds;
    const char *ns, *daemonset;
} MigManagerActuator;

typedef struct {
    DevicePluginActuator dp;
    MigManagerActuator mig;
    const char *dra_driver;           /* DRA_GPU_DRIVER or NULL */
    ActuatorBy cloud;                 /* ACTUATOR_GKE | AKS | EKS of the GPU nodes, or NONE */
} Actuators;

void actuators_detect(Actuators *a, const Cluster *c);
/* the cloud whose managed node pool n belongs to (ACTUATOR_GKE/AKS/EKS) and the pool's name
 * (borrowed from its labels; NULL when unnamed); ACTUATOR_NONE when none */
ActuatorBy actuators_node_cloud(const Node *n, const char **pool);
/* the device plugin acts on nvidia.com/device-plugin.config labels (config-manager runs) */
bool actuators_reads_dp_label(const Actuators *a);
/* something acts on nvidia.com/mig.config labels (the operator's or a standalone MIG manager) */
bool actuators_reads_mig_label(const Actuators *a);
#endif

/* actuators.c — who reads what the plan emits (rules in actuators.h). */
#include "model/actuators.h"
#include "model/dra.h"
#include <string.h>

const char *actuators_by_name(ActuatorBy b)
{
    switch (b) {
    case ACTUATOR_NONE: return "none";
    case ACTUATOR_UNKNOWN: return "unknown";
    case ACTUATOR_GPU_OPERATOR: return "gpu-operator";
    case ACTUATOR_HELM: return "helm";
    case ACTUATOR_MANIFEST: return "manifest";
    case ACTUATOR_STANDALONE: return "standalone";
    case ACTUATOR_GKE: return "gke";
    case ACTUATOR_AKS: return "aks";
    case ACTUATOR_EKS: return "eks";
    case ACTUATOR_CLOUD: return "cloud";
    }
    return "unknown";
}

ActuatorBy actuators_node_cloud(const Node *n, const char **pool)
{
    const char *p;
    if (pool) *pool = NULL;
    if ((p = kv_get(&n->labels, "cloud.google.com/gke-nodepool")) ||
        kv_get(&n->labels, "cloud.google.com/gke-accelerator")) {
        if (pool) *pool = p;
        return ACTUATOR_GKE;
    }
    if ((p = kv_get(&n->labels, "kubernetes.azure.com/agentpool")) ||
        kv_get(&n->labels, "kubernetes.azure.com/accelerator")) {
        if (pool) *pool = p;
        return ACTUATOR_AKS;
    }
    if ((p = kv_get(&n->labels, "eks.amazonaws.com/nodegroup")) || (p = kv_get(&n->labels, "karpenter.sh/nodepool"))) {
        if (pool) *pool = p;
        return ACTUATOR_EKS;
    }
    return ACTUATOR_NONE;
}

static bool operator_ds(const DaemonSet *d)
{
    return str_eq(d->name, "nvidia-device-plugin-daemonset") || str_eq(d->app, "nvidia-device-plugin-daemonset");
}

/* the image tag ("v0.17.0"), NULL for a digest or no tag */
static const char *image_tag(const char *image)
{
    if (!image || strchr(image, '@')) return NULL;
    const char *slash = strrchr(image, '/'), *colon = strrchr(image, ':');
    return colon && (!slash || colon > slash) && colon[1] ? colon + 1 : NULL;
}

/* the mount whose path is dir (trailing slashes ignored), or for a file path the mount whose
 * directory holds it */
static const DsConfigMount *mount_at(const DaemonSet *d, const char *path, bool file)
{
    for (size_t i = 0; path && i < d->nmounts; i++) {
        const char *mp = d->mounts[i].mount_path;
        if (!mp) continue;
        size_t n = strlen(mp);
        while (n > 1 && mp[n - 1] == '/') n--;
        if (strncmp(path, mp, n) != 0) continue;
        if (!file && (path[n] == 0 || (path[n] == '/' && path[n + 1] == 0))) return &d->mounts[i];
        if (file && path[n] == '/' && !strchr(path + n + 1, '/')) return &d->mounts[i];
    }
    return NULL;
}

static void detect_dp(DevicePluginActuator *dp, const Cluster *c, bool ds_listed)
{
    const DaemonSet *best = NULL;
    for (size_t i = 0; i < c->ndaemonsets; i++) {
        const DaemonSet *d = &c->daemonsets[i];
        if (d->role != DS_DEVICE_PLUGIN && !operator_ds(d)) continue;
        /* the operator's own first, then one with config-manager, then the first */
        if (!best || (operator_ds(d) && !operator_ds(best)) ||
            (!operator_ds(best) && d->config_manager && !best->config_manager))
            best = d;
    }
    dp->ds = best;
    if (best) {
        dp->ns = best->ns;
        dp->daemonset = best->name;
        dp->version = image_tag(best->image);
        dp->config_manager = best->config_manager;
        dp->default_config = kv_get(&best->env, "DEFAULT_CONFIG");
        dp->fallback = kv_get(&best->env, "FALLBACK_STRATEGIES");
        dp->helm_release = kv_get(&best->helm, "app.kubernetes.io/instance");
        dp->helm_chart = kv_get(&best->helm, "helm.sh/chart");
        if (dp->default_config && !*dp->default_config) dp->default_config = NULL;
        if (best->config_manager) {
            const char *src = kv_get(&best->env, "CONFIG_FILE_SRCDIR");
            const DsConfigMount *m = mount_at(best, src ? src : "/available-configs", false);
            if (!m && best->nmounts) m = &best->mounts[0];
            dp->configmap = m ? m->configmap : NULL;
        } else {
            const char *file = kv_get(&best->env, "CONFIG_FILE");
            const DsConfigMount *m = mount_at(best, file, true);
            if (m) {
                dp->configmap = m->configmap;
                dp->config_key = strrchr(file, '/') + 1;
            }
        }
    }
    if (c->clusterpolicy_name && (!best || operator_ds(best))) {
        dp->by = ACTUATOR_GPU_OPERATOR;
        /* the operator runs config-manager when the policy names a map (object_controls.go) */
        dp->config_manager = c->cp.dp_config_name && *c->cp.dp_config_name;
        dp->configmap = dp->config_manager ? c->cp.dp_config_name : NULL;
        dp->default_config = c->cp.dp_config_default && *c->cp.dp_config_default ? c->cp.dp_config_default : NULL;
        dp->config_key = NULL;
        if (c->cp.dp_version && *c->cp.dp_version) dp->version = c->cp.dp_version;
        if (!best) dp->ns = c->cp.operator_ns;
        return;
    }
    if (best) {
        const char *chart = dp->helm_chart;
        bool helm = str_eq(kv_get(&best->helm, "app.kubernetes.io/managed-by"), "Helm") &&
                    chart && str_starts_with(chart, "nvidia-device-plugin-");
        dp->by = helm ? ACTUATOR_HELM : ACTUATOR_MANIFEST;
        return;
    }
    dp->by = ds_listed ? ACTUATOR_NONE : ACTUATOR_UNKNOWN;
}

void actuators_detect(Actuators *a, const Cluster *c)
{
    memset(a, 0, sizeof *a);
    bool ds_listed = true;
    for (size_t i = 0; i < c->warnings.n; i++)
        if (str_starts_with(c->warnings.v[i], "daemonsets:")) ds_listed = false;
    detect_dp(&a->dp, c, ds_listed);
    /* the cloud of the GPU nodes (the first GPU node's that has one) */
    for (size_t i = 0; i < c->nnodes && a->cloud == ACTUATOR_NONE; i++)
        if (node_is_gpu_node(&c->nodes[i])) a->cloud = actuators_node_cloud(&c->nodes[i], NULL);
    if ((a->dp.by == ACTUATOR_NONE || a->dp.by == ACTUATOR_UNKNOWN) && a->cloud != ACTUATOR_NONE) {
        /* GKE installs its own plugin (not the k8s-device-plugin image); on AKS and EKS the
         * node pool or AMI does; either way the node pool's settings are what it reads */
        a->dp.by = a->cloud;
    }

    MigManagerActuator *m = &a->mig;
    for (size_t i = 0; i < c->ndaemonsets; i++) {
        const DaemonSet *d = &c->daemonsets[i];
        if (d->role == DS_MIG_MANAGER || str_eq(d->name, "nvidia-mig-manager") || str_eq(d->app, "nvidia-mig-manager")) {
            m->ds = d; m->ns = d->ns; m->daemonset = d->name;
            break;
        }
    }
    if (c->clusterpolicy_name && c->cp.mig_manager_enabled != 0) m->by = ACTUATOR_GPU_OPERATOR;
    else if (m->ds && !(c->clusterpolicy_name && str_eq(m->daemonset, "nvidia-mig-manager"))) m->by = ACTUATOR_STANDALONE;
    else if (a->cloud == ACTUATOR_GKE || a->cloud == ACTUATOR_AKS) m->by = ACTUATOR_CLOUD;
    else m->by = ACTUATOR_NONE;

    const DraState *d = c->dra;
    for (size_t i = 0; d && i < d->ndevices && !a->dra_driver; i++)
        if (str_eq(d->devices[i].driver, DRA_GPU_DRIVER)) a->dra_driver = DRA_GPU_DRIVER;
    for (size_t i = 0; d && i < d->nclasses && !a->dra_driver; i++)
        if (d->classes[i].name && strstr(d->classes[i].name, DRA_GPU_DRIVER)) a->dra_driver = DRA_GPU_DRIVER;
}

bool actuators_reads_dp_label(const Actuators *a)
{
    return (a->dp.by == ACTUATOR_GPU_OPERATOR || a->dp.by == ACTUATOR_HELM || a->dp.by == ACTUATOR_MANIFEST) &&
           a->dp.config_manager;
}

bool actuators_reads_mig_label(const Actuators *a)
{
    return a->mig.by == ACTUATOR_GPU_OPERATOR || a->mig.by == ACTUATOR_STANDALONE;
}

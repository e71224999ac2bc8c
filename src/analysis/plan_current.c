/* plan_current.c — what the cluster runs now, as the planner needs it: the ClusterPolicy's MIG
 * strategy and ConfigMap names, the ConfigMaps' content, the device plugin's version.
 *
 * The version comes from spec.devicePlugin.version (what the operator deploys), else from the
 * image tag of the nvidia-device-plugin-daemonset DaemonSet ("...:v0.17.0", "...:v0.17.0-ubi9");
 * a digest-only image leaves it unknown, and then nothing that needs a given version is
 * proposed (MPS: v0.15.0, packed allocation: v0.20.0 — k8s-device-plugin CHANGELOG.md).
 */
#include "analysis/plan.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

bool plan_parse_version(const char *s, int out[3])
{
    if (!s) return false;
    const char *p = s;
    if (*p == 'v' || *p == 'V') p++;
    int v[3] = { 0, 0, 0 };
    for (int i = 0; i < 3; i++) {
        if (!isdigit((unsigned char)*p)) { if (i < 2) return false; break; }
        long x = 0;
        while (isdigit((unsigned char)*p) && x < 100000) x = x * 10 + (*p++ - '0');
        v[i] = (int)x;
        if (i < 2) { if (*p != '.') return false; p++; }
    }
    memcpy(out, v, sizeof v);
    return true;
}

bool plan_dp_at_least(const PlanCurrent *cur, int major, int minor)
{
    if (!cur || !cur->dp_version_known) return false;
    if (cur->dp_version[0] != major) return cur->dp_version[0] > major;
    return cur->dp_version[1] >= minor;
}

static const char *nonempty(const char *s) { return s && *s ? s : NULL; }

void plan_current_init(PlanCurrent *cur, const Cluster *c)
{
    memset(cur, 0, sizeof *cur);
    const DaemonSet *dp = NULL;
    for (size_t i = 0; i < c->ndaemonsets; i++)
        if (str_eq(c->daemonsets[i].app, "nvidia-device-plugin-daemonset") ||
            str_eq(c->daemonsets[i].name, "nvidia-device-plugin-daemonset")) { dp = &c->daemonsets[i]; break; }
    cur->clusterpolicy = nonempty(c->clusterpolicy_name);
    cur->operator_ns = nonempty(c->cp.operator_ns) ? c->cp.operator_ns
                     : dp && nonempty(dp->ns) ? dp->ns : "gpu-operator";
    if (cur->clusterpolicy) {
        cur->mig_strategy = nonempty(c->cp.mig_strategy);
        cur->dp_map = nonempty(c->cp.dp_config_name);
        cur->dp_default = nonempty(c->cp.dp_config_default);
        cur->mig_map = nonempty(c->cp.mig_config_name);
        if (cur->mig_map && strcmp(cur->mig_map, "default-mig-parted-config") == 0) cur->mig_map = NULL;
        cur->mig_default = nonempty(c->cp.mig_config_default);
        if (cur->dp_map) cur->dp_configmap = cluster_find_configmap(c, cur->operator_ns, cur->dp_map);
        cur->mig_configmap = cluster_find_configmap(c, cur->operator_ns,
                                                    cur->mig_map ? cur->mig_map : "default-mig-parted-config");
    }
    const char *ver = NULL;
    if (cur->clusterpolicy && nonempty(c->cp.dp_version)) ver = c->cp.dp_version;
    else if (dp && dp->image && !strchr(dp->image, '@')) {
        const char *slash = strrchr(dp->image, '/'), *colon = strrchr(dp->image, ':');
        if (colon && (!slash || colon > slash)) ver = colon + 1;
    }
    if (ver && plan_parse_version(ver, cur->dp_version)) {
        cur->dp_version_known = true;
        snprintf(cur->dp_version_text, sizeof cur->dp_version_text, "v%d.%d.%d", cur->dp_version[0],
                 cur->dp_version[1], cur->dp_version[2]);
    } else {
        snprintf(cur->dp_version_text, sizeof cur->dp_version_text, "%s",
                 dp ? "unknown (image without a version tag)" : "unknown (no device plugin DaemonSet seen)");
    }
}

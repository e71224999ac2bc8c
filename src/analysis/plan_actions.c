/* plan_actions.c — the plan as an ordered list of changes (contract in plan_actions.h). */
#include "analysis/plan_actions.h"
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *plan_action_kind_name(PlanActionKind k)
{
    switch (k) {
    case ACT_CONFIGMAP: return "ConfigMap";
    case ACT_QUOTA: return "Quota";
    case ACT_CLUSTERPOLICY_PATCH: return "ClusterPolicyPatch";
    case ACT_NODE_LABEL: return "NodeLabel";
    case ACT_ROLLOUT_RESTART: return "RolloutRestart";
    case ACT_NODEPOOL: return "NodePoolUpdate";
    }
    return "?";
}

PlanAction *plan_actions_add(PlanActions *a, PlanActionKind kind, const char *target, const char *detail)
{
    a->v = xrealloc(a->v, (a->n + 1) * sizeof *a->v);
    PlanAction *x = &a->v[a->n++];
    memset(x, 0, sizeof *x);
    x->kind = kind;
    x->target = xstrdup(target);
    x->detail = xstrdup(detail);
    return x;
}

static PlanAction *push(PlanActions *a, PlanActionKind kind)
{
    a->v = xrealloc(a->v, (a->n + 1) * sizeof *a->v);
    PlanAction *x = &a->v[a->n++];
    memset(x, 0, sizeof *x);
    x->kind = kind;
    return x;
}

static int node_cmp(const void *pa, const void *pb)
{
    const PlanAction *x = pa, *y = pb;
    if (x->pods != y->pods) return x->pods - y->pods;
    return strcmp(x->target, y->target);
}

static const char *meta_name(const cJSON *doc, const char *field)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "metadata"), field);
    return cJSON_IsString(v) ? v->valuestring : "";
}

void plan_actions_build(PlanActions *a, const PlanResult *r, const Manifests *m, const PlanCurrent *cur,
                        const StrMap *node_pods)
{
    memset(a, 0, sizeof *a);
    size_t q = 0;
    for (size_t i = 0; i < m->n; i++) {
        const cJSON *kind = cJSON_GetObjectItemCaseSensitive(m->docs[i], "kind");
        bool cm = cJSON_IsString(kind) && strcmp(kind->valuestring, "ConfigMap") == 0;
        PlanAction *x = push(a, cm ? ACT_CONFIGMAP : ACT_QUOTA);
        x->target = xasprintf("%s/%s", meta_name(m->docs[i], "namespace"), meta_name(m->docs[i], "name"));
        if (!cm) { x->detail = xstrdup(q < m->quotas ? m->quota_info[q].detail : ""); q++; continue; }
        bool dp = strcmp(meta_name(m->docs[i], "name"), m->dp_name ? m->dp_name : MANIFESTS_DEVICE_PLUGIN_CONFIGMAP) == 0;
        const cJSON *data = cJSON_GetObjectItemCaseSensitive(m->docs[i], "data");
        int keys = cJSON_GetArraySize(data);
        if (dp)
            x->detail = xasprintf("device-plugin configs: %d (%zu carried over from %s)", keys, m->carried_dp,
                                  cur && cur->dp_map ? cur->dp_map : "no ConfigMap in use");
        else
            x->detail = xasprintf("mig-parted configs (config.yaml): %zu carried over from %s, plus the plan's",
                                  m->carried_mig, m->mig_builtin ? "the operator's built-in set for the cluster's models"
                                  : cur && cur->mig_map ? cur->mig_map : "default-mig-parted-config");
    }
    /* inert labels that would name a missing config once a map is in use: removed first */
    for (size_t i = 0; i < m->unlabel_nodes.n; i++) {
        PlanAction *x = push(a, ACT_NODE_LABEL);
        x->target = xstrdup(m->unlabel_nodes.v[i]);
        x->detail = xasprintf("nvidia.com/device-plugin.config: %s -> (removed): no device-plugin ConfigMap was in use, "
                              "so the label did nothing; the new map has no such config; no drain", m->unlabel_values.v[i]);
    }
    /* the ClusterPolicy patch: point the operator at the new maps; mixed for MIG groups */
    bool point_dp = m->device_plugin && !(cur && cur->dp_map && strcmp(cur->dp_map, MANIFESTS_DEVICE_PLUGIN_CONFIGMAP) == 0);
    bool point_mig = m->mig_parted && !(cur && cur->mig_map && strcmp(cur->mig_map, MANIFESTS_MIG_PARTED_CONFIGMAP) == 0);
    if (cur && cur->clusterpolicy && (point_dp || point_mig || r->mig_strategy_change)) {
        cJSON *patch = cJSON_CreateObject();
        cJSON *spec = cJSON_AddObjectToObject(patch, "spec");
        Strbuf d = STRBUF_INIT;
        if (point_dp) {
            cJSON *cfg = cJSON_AddObjectToObject(cJSON_AddObjectToObject(spec, "devicePlugin"), "config");
            cJSON_AddStringToObject(cfg, "name", MANIFESTS_DEVICE_PLUGIN_CONFIGMAP);
            strbuf_addf(&d, "devicePlugin.config.name: %s -> %s (default %s kept)", cur->dp_map ? cur->dp_map : "(none)",
                        MANIFESTS_DEVICE_PLUGIN_CONFIGMAP, cur->dp_default ? cur->dp_default : "(none)");
        }
        if (point_mig) {
            cJSON *cfg = cJSON_AddObjectToObject(cJSON_AddObjectToObject(spec, "migManager"), "config");
            cJSON_AddStringToObject(cfg, "name", MANIFESTS_MIG_PARTED_CONFIGMAP);
            strbuf_addf(&d, "%smigManager.config.name: %s -> %s", d.len ? "; " : "",
                        cur->mig_map ? cur->mig_map : "(operator default)", MANIFESTS_MIG_PARTED_CONFIGMAP);
        }
        if (r->mig_strategy_change) {
            cJSON_AddStringToObject(cJSON_AddObjectToObject(spec, "mig"), "strategy", "mixed");
            strbuf_addf(&d, "%smig.strategy: %s -> mixed", d.len ? "; " : "", cur->mig_strategy ? cur->mig_strategy : "(unset)");
        }
        PlanAction *x = push(a, ACT_CLUSTERPOLICY_PATCH);
        x->target = xasprintf("clusterpolicies.nvidia.com/%s", cur->clusterpolicy);
        x->patch = cJSON_PrintUnformatted(patch);
        x->detail = strbuf_detach(&d);
        cJSON_Delete(patch);
    }
    /* nodes */
    size_t first = a->n;
    for (size_t i = 0; i < r->ngroups; i++) {
        const PlanGroup *g = &r->groups[i];
        if (g->strategy == PLAN_NONE) continue;
        for (size_t j = 0; j < g->nplan_nodes; j++) {
            const PlanNode *pn = &g->plan_nodes[j];
            if (!pn->mig_change && !pn->dp_change) continue;
            PlanAction *x = push(a, ACT_NODE_LABEL);
            uintptr_t pods = node_pods ? (uintptr_t)strmap_get(node_pods, pn->name) : 0;
            x->g = g; x->pn = pn; x->pods = pods ? (int)(pods - 1) : 0;
            x->target = xstrdup(pn->name);
            x->drain = pn->drain;
            Strbuf d = STRBUF_INIT;
            if (pn->mig_change)
                strbuf_addf(&d, "nvidia.com/mig.config: %s -> %s", pn->mig_config_now ? pn->mig_config_now : "(none)",
                            pn->mig_config);
            if (pn->dp_change)
                strbuf_addf(&d, "%snvidia.com/device-plugin.config: %s -> %s", d.len ? "; " : "",
                            pn->device_plugin_config_now ? pn->device_plugin_config_now : "(none)",
                            pn->device_plugin_config);
            if (pn->drain)
                strbuf_addf(&d, "; MIG layout changes: cordon and drain (%d GPU pod%s on it now)", x->pods,
                            x->pods == 1 ? "" : "s");
            else
                strbuf_adds(&d, "; no drain (the device plugin restarts, running pods keep their GPUs)");
            x->detail = strbuf_detach(&d);
        }
    }
    if (a->n - first > 1) qsort(a->v + first, a->n - first, sizeof *a->v, node_cmp);

    /* in words */
    for (size_t i = 0; i < a->n; i++) {
        const PlanAction *x = &a->v[i];
        if (x->kind == ACT_CONFIGMAP) strvec_pushf(&a->changes, "ConfigMap %s replaced: %s", x->target, x->detail);
        else if (x->kind == ACT_QUOTA) strvec_pushf(&a->changes, "ResourceQuota %s: %s", x->target, x->detail);
        else if (x->kind == ACT_CLUSTERPOLICY_PATCH) strvec_pushf(&a->changes, "ClusterPolicy %s patched: %s", x->target, x->detail);
    }
    if (r->mig_strategy_change)
        strvec_pushf(&a->changes, "MIG strategy %s -> mixed, cluster-wide: nodes running MIG with the single strategy "
                     "will advertise nvidia.com/mig-<profile> instead of nvidia.com/gpu", cur && cur->mig_strategy ? cur->mig_strategy : "(unset)");
    size_t drains = 0, labels = 0;
    for (size_t i = 0; i < a->n; i++) if (a->v[i].kind == ACT_NODE_LABEL && a->v[i].pn) { labels++; drains += a->v[i].drain; }
    for (size_t i = 0; i < m->reconstructed.n; i++)
        strvec_pushf(&a->changes, "device-plugin config %s", m->reconstructed.v[i]);
    if (m->unlabel_nodes.n)
        strvec_pushf(&a->changes, "%zu inert nvidia.com/device-plugin.config label%s removed (no map was in use)",
                     m->unlabel_nodes.n, m->unlabel_nodes.n == 1 ? "" : "s");
    if (labels)
        strvec_pushf(&a->changes, "%zu node%s relabelled, %zu drained (MIG layout changes), %zu without drain",
                     labels, labels == 1 ? "" : "s", drains, labels - drains);
}

void plan_actions_clear(PlanActions *a)
{
    if (!a) return;
    for (size_t i = 0; i < a->n; i++) {
        free(a->v[i].target); free(a->v[i].detail); free(a->v[i].patch); free(a->v[i].command);
    }
    free(a->v);
    strvec_clear(&a->changes);
    memset(a, 0, sizeof *a);
}

/* plan_actuate.c — the plan fitted to who carries it out (rules in plan_actuate.h). */
#include "analysis/plan_actuate.h"
#include "plan_internal.h"
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool by_cloud(ActuatorBy b) { return b == ACTUATOR_GKE || b == ACTUATOR_AKS || b == ACTUATOR_EKS; }

/* the plugin's own map (Helm chart, manifest): the ClusterPolicy's fields do not apply */
static bool own_map(const Actuators *a)
{
    return a->dp.by == ACTUATOR_HELM || a->dp.by == ACTUATOR_MANIFEST;
}

static bool static_plugin(const Actuators *a) { return own_map(a) && !a->dp.config_manager; }

/* the config an unlabelled node takes: DEFAULT_CONFIG, else the fallbacks (FALLBACK_STRATEGIES,
 * the chart's default "named,single": a config named "default", else the only one;
 * k8s-device-plugin v0.17.0 cmd/config-manager/main.go:358-391) */
static const char *effective_default(const DevicePluginActuator *dp, const ConfigMap *cm)
{
    if (dp->default_config) return dp->default_config;
    const char *fb = dp->fallback ? dp->fallback : "named,single";
    for (const char *p = fb; p && *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == 5 && strncmp(p, "named", 5) == 0 && cm && kv_get(&cm->data, "default")) return "default";
        if (n == 6 && strncmp(p, "single", 6) == 0 && cm && cm->data.n == 1) return cm->data.items[0].key;
        p = end ? end + 1 : NULL;
    }
    return NULL;
}

void plan_actuate_current(PlanCurrent *cur, const Actuators *a, const Cluster *c)
{
    const DevicePluginActuator *dp = &a->dp;
    if (!own_map(a)) return;
    cur->operator_ns = dp->ns;
    cur->dp_map = dp->configmap;
    cur->dp_configmap = dp->configmap ? cluster_find_configmap(c, dp->ns, dp->configmap) : NULL;
    cur->dp_default = dp->config_manager ? effective_default(dp, cur->dp_configmap) : NULL;
    /* MIG_STRATEGY in the plugin's env overrides every config file's flag (the chart sets it from
     * values.migStrategy); mixed makes the plugin refuse MPS (k8s-device-plugin
     * cmd/nvidia-device-plugin/main.go): planned as the operator's mixed strategy is */
    const char *ms = dp->ds ? kv_get(&dp->ds->env, "MIG_STRATEGY") : NULL;
    if (str_eq(ms, "mixed")) cur->mig_strategy = "mixed";
    if (dp->version && plan_parse_version(dp->version, cur->dp_version)) {
        cur->dp_version_known = true;
        snprintf(cur->dp_version_text, sizeof cur->dp_version_text, "v%d.%d.%d", cur->dp_version[0],
                 cur->dp_version[1], cur->dp_version[2]);
    }
}

const char *plan_actuate_mig_block(const Actuators *a)
{
    if (a->dp.by == ACTUATOR_EKS)
        return "EKS node groups have no MIG setting (no MIG manager found either): install the GPU Operator "
               "with migManager.enabled=true on the node group to use MIG";
    if (by_cloud(a->dp.by) && a->mig.by == ACTUATOR_CLOUD) return NULL;
    if (static_plugin(a))
        return "the device plugin runs without config-manager (one config file for every node), so the MIG "
               "strategy cannot be set for some nodes only";
    if (!actuators_reads_mig_label(a))
        return "no MIG manager runs here (no ClusterPolicy with migManager.enabled, no mig-manager DaemonSet), so "
               "nothing would apply a nvidia.com/mig.config label; to use MIG, enable the GPU Operator's MIG "
               "manager or deploy NVIDIA mig-parted's nvidia-mig-manager DaemonSet, then plan again";
    return NULL;
}

static bool node_runs_mig(const Node *n)
{
    if (n->gpu.nmig || n->gpu.mig_single_profile || n->gpu.cloud_partition) return true;
    for (size_t i = 0; i < n->allocatable.n; i++)
        if (str_starts_with(n->allocatable.items[i].name, "nvidia.com/mig-")) return true;
    return false;
}

size_t plan_actuate_leave_out_mig(const Actuators *a, const Node **nodes, size_t n, Strvec *warnings)
{
    if (actuators_reads_mig_label(a) || by_cloud(a->dp.by)) return n;
    size_t w = 0, out = 0;
    Strbuf sb = STRBUF_INIT;
    for (size_t i = 0; i < n; i++) {
        if (!node_runs_mig(nodes[i])) { nodes[w++] = nodes[i]; continue; }
        if (out < 6) strbuf_addf(&sb, "%s%s", out ? ", " : "", nodes[i]->name);
        out++;
    }
    if (out > 6) strbuf_addf(&sb, " +%zu more", out - 6);
    if (out)
        strvec_pushf(warnings, "%zu node%s run%s MIG set up without a MIG manager and %s left out of the plan: %s. "
                     "Nothing here would change %s layout, so %s labels and pods stay as they are (never drained)",
                     out, out == 1 ? "" : "s", out == 1 ? "s" : "", out == 1 ? "is" : "are", strbuf_str(&sb),
                     out == 1 ? "its" : "their", out == 1 ? "its" : "their");
    strbuf_clear(&sb);
    return w;
}

void plan_actuate_manifest_options(const Actuators *a, ManifestOptions *mo)
{
    if (by_cloud(a->dp.by)) { mo->no_configs = true; return; }
    if (own_map(a) && a->dp.configmap && (a->dp.config_manager || a->dp.config_key)) {
        mo->dp_map_name = a->dp.configmap;
        mo->dp_map_ns = a->dp.ns;
        if (!a->dp.config_manager) mo->dp_single_key = a->dp.config_key;
    } else if (static_plugin(a)) {
        mo->dp_unreadable = "the device plugin runs without config-manager and reads no config file (no CONFIG_FILE "
                            "from a mounted ConfigMap): no sharing config the plan writes would be read; install it "
                            "with per-node configs (its Helm chart with config.map or config.name) and plan again";
    }
    /* removing a device-plugin label is safe only where provably nothing reads it: the
     * operator without a map runs no config-manager */
    mo->labels_unread = a->dp.by == ACTUATOR_GPU_OPERATOR && !a->dp.config_manager;
}

static const Node *find_node(const Cluster *c, const char *name);

/* The node already runs the planned layout: every GPU gets k instances of one profile, k the
 * most a GPU holds, and the node has exactly gpus x k of it and no whole GPU (so each GPU
 * holds k: GFD's per-profile counts cannot say more).  mig-manager then finds the config
 * applied (mig-parted pkg/mig/reconfigure/reconfigure.go:141-145, isConfigAlreadyApplied) and
 * touches nothing: no drain. */
static bool layout_already_there(const PlanGroup *g, const PlanNode *pn, const Node *n)
{
    if (!g->model || !n || pn->gpus <= 0 || pn->mig_gpus != pn->gpus) return false;
    int lay = pn->gpu_layout[0];
    for (int k = 0; k < pn->gpus; k++) if (pn->gpu_layout[k] != lay || lay < 0) return false;
    if ((size_t)lay >= g->mig.ngroups) return false;
    const MigLayout *l = &g->mig.groups[lay].layout;
    const MigProfile *p = NULL;
    int count = 0;
    for (size_t q = 0; q < g->model->nprofiles; q++) {
        if (!l->counts[q]) continue;
        if (p) return false;
        p = &g->model->profiles[q];
        count = l->counts[q];
    }
    if (!p || count != p->max_instances || n->gpu.nmig != 1) return false;
    char want[32];
    snprintf(want, sizeof want, "%s", p->name);
    for (char *s = want; *s; s++) if (*s == '+') *s = '.';
    if (!str_eq(n->gpu.mig[0].profile, want) || n->gpu.mig[0].count != pn->gpus * count) return false;
    for (size_t i = 0; i < n->allocatable.n; i++)
        if (str_eq(n->allocatable.items[i].name, "nvidia.com/gpu") && n->allocatable.items[i].milli > 0) return false;
    return true;
}

void plan_actuate_nodes(PlanResult *r, const Actuators *a, const Cluster *c)
{
    bool cloud = by_cloud(a->dp.by), mig_read = actuators_reads_mig_label(a);
    for (size_t i = 0; i < r->ngroups; i++) {
        PlanGroup *g = &r->groups[i];
        for (size_t j = 0; j < g->nplan_nodes; j++) {
            PlanNode *pn = &g->plan_nodes[j];
            if (cloud) pn->mig_change = pn->dp_change = pn->drain = false;
            /* nothing reads nvidia.com/mig.config (the nodes planned here run no MIG): no
             * label, no drain */
            if (!mig_read) {
                pn->mig_config = NULL;
                pn->mig_change = false;
                /* a node going from shared replicas back to whole GPUs is still drained
                 * (plan_rollout.c: the kubelet holds the replica IDs), whoever applies it */
                pn->whole_after_shared = pn->whole_after_shared && pn->dp_change;
                pn->drain = pn->whole_after_shared;
            }
            if (pn->drain && !pn->whole_after_shared && c && layout_already_there(g, pn, find_node(c, pn->name)))
                pn->drain = false;
        }
    }
}

/* ---- clouds ---- */

static const char *label(const Node *n, const char *k)
{
    const char *v = n ? kv_get(&n->labels, k) : NULL;
    return v && *v ? v : NULL;
}

/* the node by name: through the cluster's index, else (a cluster not finalized) by a scan */
static const Node *find_node(const Cluster *c, const char *name)
{
    if (c->node_index) return cluster_find_node(c, name);
    for (size_t i = 0; i < c->nnodes; i++) if (str_eq(c->nodes[i].name, name)) return &c->nodes[i];
    return NULL;
}

/* the MIG profile every GPU of every planned node gets, when the layout is that uniform:
 * a cloud partitions all GPUs of a node pool into one size */
static const MigProfile *uniform_profile(const PlanGroup *g)
{
    if (!g->model) return NULL;
    int lay = -2;
    for (size_t j = 0; j < g->nplan_nodes; j++) {
        const PlanNode *pn = &g->plan_nodes[j];
        for (int k = 0; k < pn->gpus; k++) {
            if (pn->gpu_layout[k] < 0) return NULL;
            if (lay == -2) lay = pn->gpu_layout[k];
            else if (pn->gpu_layout[k] != lay) return NULL;
        }
    }
    if (lay < 0 || (size_t)lay >= g->mig.ngroups) return NULL;
    const MigLayout *l = &g->mig.groups[lay].layout;
    const MigProfile *p = NULL;
    for (size_t q = 0; q < g->model->nprofiles; q++) {
        if (!l->counts[q]) continue;
        if (p) return NULL;
        p = &g->model->profiles[q];
    }
    return p && !p->variant ? p : NULL;
}

static void cloud_group(PlanActions *acts, PlanResult *r, PlanGroup *g, const Cluster *c, const Actuators *a,
                        Strvec *warnings)
{
    /* the nodes that change and their pools */
    Strvec pools = STRVEC_INIT;
    const Node *first = NULL;
    int nodes = 0;
    for (size_t j = 0; j < g->nplan_nodes; j++) {
        const PlanNode *pn = &g->plan_nodes[j];
        bool target = g->strategy == PLAN_MIG ? pn->mig_gpus > 0 : pn->shared;
        if (!target) continue;
        const Node *n = find_node(c, pn->name);
        const char *pool = NULL;
        if (n) actuators_node_cloud(n, &pool);
        if (!first) first = n;
        if (pool && !strvec_contains(&pools, pool)) strvec_push(&pools, pool);
        nodes++;
    }
    if (!nodes) { strvec_clear(&pools); return; }
    const char *pool = pools.n ? pools.v[0] : "POOL";
    const char *mtype = label(first, "node.kubernetes.io/instance-type");
    int gpus = g->nplan_nodes ? g->plan_nodes[0].gpus : 1;
    char *cmd = NULL, *detail = NULL, *why = NULL;
    const char *strategy = plan_strategy_name(g->strategy);
    if (a->dp.by == ACTUATOR_GKE) {
        /* GKE: time-sharing / MPS / MIG partitions are node-pool settings, fixed at creation
         * (cloud.google.com/kubernetes-engine/docs/how-to/timesharing-gpus, gpus-multi) */
        const char *acc = label(first, "cloud.google.com/gke-accelerator");
        char knob[160];
        if (g->strategy == PLAN_MIG) {
            const MigProfile *p = uniform_profile(g);
            if (!p) why = xasprintf("the MIG layout differs between GPUs, and GKE partitions every GPU of a node pool "
                                    "into one size (gpu-partition-size)");
            else snprintf(knob, sizeof knob, "gpu-partition-size=%s", p->name);
        } else {
            int rep = g->replicas;
            if (rep > PLAN_GKE_MAX_SHARED_CLIENTS) {
                /* fewer clients per GPU: more GPUs, so more nodes, for the same workloads */
                rep = PLAN_GKE_MAX_SHARED_CLIENTS;
                int need = (g->share.shared_workloads + rep - 1) / rep, per = gpus > 0 ? gpus : 1;
                int want = (need + per - 1) / per;
                strvec_pushf(warnings, "%s: %d replicas planned; GKE allows at most %d shared clients per GPU: "
                             "capped, so the %d shared workloads need %d GPU%s (%d node%s instead of %d)", g->product,
                             g->replicas, rep, g->share.shared_workloads, need, need == 1 ? "" : "s", want > nodes ? want : nodes,
                             (want > nodes ? want : nodes) == 1 ? "" : "s", nodes);
                if (want > nodes) nodes = want;
                if (need > g->share.gpus_shared) {      /* the totals count the GPUs GKE needs */
                    r->gpus_after += need - g->share.gpus_shared;
                    g->gpus_after += need - g->share.gpus_shared;
                }
            }
            snprintf(knob, sizeof knob, "gpu-sharing-strategy=%s,max-shared-clients-per-gpu=%d",
                     g->strategy == PLAN_MPS ? "mps" : "time-sharing", rep);
        }
        if (!why) {
            cmd = xasprintf("gcloud container node-pools create %s-kgpu-%s --cluster=CLUSTER --location=LOCATION "
                            "--machine-type=%s --num-nodes=%d --accelerator=type=%s,count=%d,%s", pool,
                            g->strategy == PLAN_MIG ? "mig" : g->strategy == PLAN_MPS ? "mps" : "ts",
                            mtype ? mtype : "MACHINE_TYPE", nodes, acc ? acc : "ACCELERATOR", gpus, knob);
            detail = xasprintf("%s on %d node%s of GKE node pool %s: a node pool's GPU settings are fixed at "
                               "creation, so create one with %s, move the workloads (they request nvidia.com/gpu: 1 "
                               "and select the new pool), then shrink %s by %d",
                               strategy, nodes, nodes == 1 ? "" : "s", pool, knob, pool, nodes);
        }
    } else if (a->dp.by == ACTUATOR_AKS) {
        if (g->strategy != PLAN_MIG) {
            why = xasprintf("AKS node pools have no %s setting; install the NVIDIA device plugin with per-node configs "
                            "(its Helm chart with config.map) or the GPU Operator on the pool, then plan again", strategy);
        } else {
            const MigProfile *p = uniform_profile(g);
            /* --gpu-instance-profile MIG1g..MIG7g, A100 only (learn.microsoft.com/azure/aks/gpu-multi-instance) */
            bool a100 = g->product && strstr(g->product, "A100");
            if (!a100) why = xasprintf("AKS GPU instance profiles exist for A100 node pools only");
            else if (!p || (p->compute != 1 && p->compute != 2 && p->compute != 3 && p->compute != 4 && p->compute != 7))
                why = xasprintf("the MIG layout differs between GPUs, and an AKS GPU instance profile (MIG1g, MIG2g, "
                                "MIG3g, MIG4g, MIG7g) partitions every GPU of a node pool alike");
            else {
                cmd = xasprintf("az aks nodepool add --resource-group RESOURCE_GROUP --cluster-name CLUSTER --name %.6smig "
                                "--node-vm-size %s --node-count %d --gpu-instance-profile MIG%dg", pool,
                                mtype ? mtype : "VM_SIZE", nodes, p->compute);
                detail = xasprintf("mig (%s) on %d node%s of AKS node pool %s: the GPU instance profile is fixed at "
                                   "creation, so add a pool with MIG%dg, move the workloads, then scale %s down by %d",
                                   p->name, nodes, nodes == 1 ? "" : "s", pool, p->compute, pool, nodes);
            }
        }
    } else {
        why = xasprintf("EKS node groups have no setting for %s; install the NVIDIA device plugin with per-node configs "
                        "(its Helm chart with config.map) or the GPU Operator, then plan again", strategy);
    }
    if (why) {
        strvec_pushf(warnings, "%s: %s not applied on %s node pool %s: %s", g->product, strategy,
                     actuators_by_name(a->dp.by), pool, why);
        /* nothing changes there: the totals say so */
        strvec_pushf(&g->notes, "not applied: %s", why);
        r->gpus_after += g->gpus_before - g->gpus_after;
        g->gpus_after = g->gpus_before;
    } else {
        PlanAction *x = plan_actions_add(acts, ACT_NODEPOOL, pool, detail);
        x->command = cmd;
        cmd = NULL;
    }
    free(cmd); free(detail); free(why);
    strvec_clear(&pools);
}

static void applied_lines(const Actuators *a, const Manifests *m, Strvec *applied)
{
    const DevicePluginActuator *dp = &a->dp;
    Strbuf sb = STRBUF_INIT;
    strbuf_addf(&sb, "device plugin: %s", actuators_by_name(dp->by));
    if (dp->daemonset) strbuf_addf(&sb, ", DaemonSet %s/%s", dp->ns ? dp->ns : "", dp->daemonset);
    if (dp->helm_release) strbuf_addf(&sb, " (Helm release %s, chart %s)", dp->helm_release, dp->helm_chart ? dp->helm_chart : "?");
    if (dp->version) strbuf_addf(&sb, ", %s", dp->version);
    if (dp->by != ACTUATOR_NONE && dp->by != ACTUATOR_UNKNOWN && !by_cloud(dp->by)) {
        strbuf_addf(&sb, "; %s", dp->config_manager ? "config-manager: per-node configs by the nvidia.com/device-plugin.config label"
                                                   : "no config-manager: one config file read at start");
        if (dp->configmap) strbuf_addf(&sb, "; ConfigMap %s%s%s", dp->configmap, dp->config_key ? ", key " : "",
                                       dp->config_key ? dp->config_key : "");
        if (dp->default_config) strbuf_addf(&sb, " (default %s)", dp->default_config);
    }
    strvec_push(applied, strbuf_str(&sb));
    strbuf_clear(&sb);
    strbuf_addf(&sb, "MIG manager: %s", actuators_by_name(a->mig.by));
    if (a->mig.daemonset) strbuf_addf(&sb, ", DaemonSet %s/%s", a->mig.ns ? a->mig.ns : "", a->mig.daemonset);
    const char *block = plan_actuate_mig_block(a);
    if (block) strbuf_addf(&sb, "; MIG not planned: %s", block);
    strvec_push(applied, strbuf_str(&sb));
    strbuf_clear(&sb);
    strvec_pushf(applied, "DRA driver: %s", a->dra_driver ? a->dra_driver : "none");
    /* Helm: the map the chart renders from config.map is rewritten by `helm upgrade` */
    if (dp->by == ACTUATOR_HELM && m->device_plugin && m->dp_added.n && dp->configmap) {
        const char *rel = dp->helm_release ? dp->helm_release : "RELEASE";
        bool embedded = strlen(dp->configmap) > 8 && strcmp(dp->configmap + strlen(dp->configmap) - 8, "-configs") == 0;
        if (embedded) {
            strbuf_addf(&sb, "Helm: `helm upgrade` renders ConfigMap %s from the release's config.map and would drop the "
                        "plan's configs (nodes labelled with them would stop); after the script, keep them in the "
                        "values: for each KEY in", dp->configmap);
            for (size_t i = 0; i < m->dp_added.n; i++) strbuf_addf(&sb, "%s %s", i ? "," : "", m->dp_added.v[i]);
            strbuf_addf(&sb, ": kubectl get configmap -n %s %s -o go-template='{{index .data \"KEY\"}}' > KEY.yaml; then "
                        "helm upgrade %s nvidia-device-plugin/nvidia-device-plugin -n %s --reuse-values", dp->ns,
                        dp->configmap, rel, dp->ns);
            for (size_t i = 0; i < m->dp_added.n; i++)
                strbuf_addf(&sb, " --set-file config.map.%s=%s.yaml", m->dp_added.v[i], m->dp_added.v[i]);
        } else {
            strbuf_addf(&sb, "Helm: the chart reads ConfigMap %s through config.name and does not render it: "
                        "`helm upgrade` keeps the plan's configs", dp->configmap);
        }
        /* config-manager lists the mounted directory on each label change (cmd/config-manager/
         * main.go:336); the kubelet refreshes a ConfigMap volume on its own sync */
        strbuf_adds(&sb, ". config-manager sees a new config once the kubelet has refreshed the mounted map (about a "
                         "minute); a node relabelled before that restarts its sidecar until it does, keeping its old config");
        strvec_push(applied, strbuf_str(&sb));
        strbuf_clear(&sb);
    }
}

/* the data of the device-plugin ConfigMap the plan emits, serialized (caller frees; NULL when
 * none is emitted) */
static char *dp_map_content(const Manifests *m)
{
    for (size_t i = 0; i < m->n; i++) {
        const cJSON *md = cJSON_GetObjectItemCaseSensitive(m->docs[i], "metadata");
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(md, "name");
        const cJSON *data = cJSON_GetObjectItemCaseSensitive(m->docs[i], "data");
        if (cJSON_IsString(name) && m->dp_name && strcmp(name->valuestring, m->dp_name) == 0 && data)
            return cJSON_PrintUnformatted(data);
    }
    return NULL;
}

void plan_actuate_actions(PlanActions *acts, PlanResult *r, const Manifests *m, const Actuators *a,
                          const Cluster *c, Strvec *applied, Strvec *warnings)
{
    if (by_cloud(a->dp.by)) {
        for (size_t i = 0; i < r->ngroups; i++)
            if (r->groups[i].strategy != PLAN_NONE) cloud_group(acts, r, &r->groups[i], c, a, warnings);
    }
    if (static_plugin(a) && m->device_plugin && a->dp.daemonset && a->dp.config_key) {
        /* the plugin reads its file at start only: restart it, before the node checks */
        char *target = xasprintf("%s/%s", a->dp.ns, a->dp.daemonset);
        char *detail = xasprintf("the device plugin runs without config-manager and reads %s only at start: restart it "
                                 "(its pods restart node by node; running pods keep their GPUs)", a->dp.config_key);
        plan_actions_add(acts, ACT_ROLLOUT_RESTART, target, detail);
        free(target); free(detail);
        /* a restart is a change of the pod template; naming the config in a template annotation
         * makes it one only when the config changed: a second run of the script restarts nothing
         * (the DaemonSet controller rolls out a template change only, as for Helm's checksum
         * annotations) */
        char *content = dp_map_content(m);
        char *mark = plan_config_name("device-plugin", "config", content ? content : "");
        cJSON *patch = cJSON_CreateObject();
        cJSON *ann = cJSON_AddObjectToObject(cJSON_AddObjectToObject(cJSON_AddObjectToObject(
            cJSON_AddObjectToObject(patch, "spec"), "template"), "metadata"), "annotations");
        cJSON_AddStringToObject(ann, PLAN_DP_CONFIG_ANNOTATION, mark);
        acts->v[acts->n - 1].patch = cJSON_PrintUnformatted(patch);
        cJSON_Delete(patch);
        free(mark); free(content);
        size_t at = acts->n - 1;
        for (size_t i = 0; i < acts->n - 1; i++)
            if (acts->v[i].kind == ACT_NODE_LABEL && acts->v[i].pn) { at = i; break; }
        PlanAction x = acts->v[acts->n - 1];
        memmove(&acts->v[at + 1], &acts->v[at], (acts->n - 1 - at) * sizeof *acts->v);
        acts->v[at] = x;
        /* one config for every node: the group's nodes kept whole (no pod left on them,
         * single_file_configmap) run the shared config too */
        for (size_t gi = 0; gi < r->ngroups; gi++) {
            PlanGroup *g = &r->groups[gi];
            if (g->strategy != PLAN_TIME_SLICING && g->strategy != PLAN_MPS) continue;
            for (size_t j = 0; j < g->nplan_nodes; j++) {
                PlanNode *pn = &g->plan_nodes[j];
                if (pn->shared) continue;
                rlist_clear(&pn->expected);
                rlist_set(&pn->expected, "nvidia.com/gpu", 0);
                rlist_set(&pn->expected, "nvidia.com/gpu.shared", (int64_t)pn->gpus * g->replicas * 1000);
                rlist_sort(&pn->expected);
                rlist_copy(&pn->expected_max, &pn->expected);
            }
        }
        /* the node steps only wait for the resources: the label is not read */
        for (size_t i = 0; i < acts->n; i++) {
            PlanAction *y = &acts->v[i];
            if (y->kind != ACT_NODE_LABEL || !y->pn) continue;
            PlanNode *pn = (PlanNode *)y->pn;
            pn->device_plugin_config = NULL;
            if (!pn->mig_change) {         /* every node keeps sharing: no shared -> whole drain */
                y->drain = pn->drain = pn->whole_after_shared = false;
                free(y->room_missing);
                y->room_missing = NULL;
                strvec_clear(&y->room);
                strvec_clear(&y->room_nodes);
            }
            free(y->detail);
            y->detail = xstrdup("no label (the device plugin reads no per-node config); waits for the restarted "
                                "device plugin to advertise the planned resources; no drain");
        }
        for (size_t i = 0; i < acts->changes.n; i++)
            if (strstr(acts->changes.v[i], " relabelled, ")) {
                free(acts->changes.v[i]);
                acts->changes.v[i] = xasprintf("no node relabelled (the device plugin reads no per-node config): "
                                               "each changed node is checked once the restarted plugin runs");
            }
    }
    for (size_t i = 0; i < acts->n; i++) {
        PlanAction *y = &acts->v[i];
        if (y->kind == ACT_NODE_LABEL && y->pn && y->pn->mig_change && !y->pn->drain) {
            char *d = xasprintf("%s; the node already runs this layout: mig-manager finds it applied and resets "
                                "nothing, so no drain", y->detail);
            free(y->detail);
            y->detail = d;
        }
    }
    for (size_t i = 0; i < acts->n; i++) {
        const PlanAction *x = &acts->v[i];
        if (x->kind == ACT_NODEPOOL) strvec_pushf(&acts->changes, "node pool %s: %s", x->target, x->detail);
    }
    applied_lines(a, m, applied);
}

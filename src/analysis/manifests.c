/* manifests.c — a plan's Kubernetes objects as cJSON trees (what and why in manifests.h).
 *
 * Names: kgpu-<group>-<mig|time-slicing|mps|whole>-<hash of the content> (plan_rollout.c), so a
 * changed config always changes the node label; the nodes are labelled with them by the
 * script (`-o script`), never by this tool.
 */
#include "util/sort.h"
#include "analysis/manifests.h"
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/resources.h"
#include "util/strmap.h"
#include "util/yaml_load.h"

static cJSON *metadata(const ManifestOptions *o, const char *name, const char *ns)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "name", name);
    cJSON_AddStringToObject(m, "namespace", ns);
    cJSON *l = cJSON_AddObjectToObject(m, "labels");
    cJSON_AddStringToObject(l, "app.kubernetes.io/managed-by", "kubectl-gpu");
    if (o->plan_annotation || o->usage_annotation) {
        cJSON *a = cJSON_AddObjectToObject(m, "annotations");
        if (o->plan_annotation) cJSON_AddStringToObject(a, "kubectl-gpu/plan", o->plan_annotation);
        if (o->usage_annotation) cJSON_AddStringToObject(a, "kubectl-gpu/usage", o->usage_annotation);
    }
    return m;
}

static cJSON *object(const char *api_version, const char *kind, cJSON *meta)
{
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "apiVersion", api_version);
    cJSON_AddStringToObject(d, "kind", kind);
    cJSON_AddItemToObject(d, "metadata", meta);
    return d;
}

/* ---- device plugin ---- */

/* a device-plugin config file (api/config/v1): version, flags.migStrategy and, with replicas
 * > 0, sharing.<timeSlicing|mps> sharing nvidia.com/gpu; *flags_out gets the flags object */
static cJSON *dp_config_file(const char *mig_strategy, bool mps, int replicas, bool renamed,
                             bool fail_gt_one, cJSON **flags_out)
{
    cJSON *f = cJSON_CreateObject();
    cJSON_AddStringToObject(f, "version", "v1");
    cJSON *flags = cJSON_AddObjectToObject(f, "flags");
    cJSON_AddStringToObject(flags, "migStrategy", mig_strategy);
    if (flags_out) *flags_out = flags;
    if (replicas <= 0) return f;
    cJSON *mode = cJSON_AddObjectToObject(cJSON_AddObjectToObject(f, "sharing"), mps ? "mps" : "timeSlicing");
    if (renamed) cJSON_AddBoolToObject(mode, "renameByDefault", true);
    if (fail_gt_one) cJSON_AddBoolToObject(mode, "failRequestsGreaterThanOne", true);
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "name", "nvidia.com/gpu");
    cJSON_AddNumberToObject(r, "replicas", replicas);
    cJSON_AddItemToArray(cJSON_AddArrayToObject(mode, "resources"), r);
    return f;
}

cJSON *manifests_device_plugin_file(const PlanGroup *g, bool shared_nodes)
{
    if (g->strategy == PLAN_NONE) return NULL;
    bool sharing = g->strategy == PLAN_TIME_SLICING || g->strategy == PLAN_MPS;
    if (!sharing && !shared_nodes) return NULL;       /* MIG groups have one config */
    cJSON *flags = NULL;
    cJSON *f = dp_config_file(g->strategy == PLAN_MIG ? "mixed" : "none", g->strategy == PLAN_MPS,
                              sharing && shared_nodes ? g->replicas : 0, true, true, &flags);
    if (sharing && shared_nodes && g->packed)   /* v0.20.0+: fill one GPU's replicas first */
        cJSON_AddStringToObject(cJSON_AddObjectToObject(flags, "plugin"), "sharedDevicesAllocationPolicy", "packed");
    return f;
}

char *manifests_device_plugin_text(const PlanGroup *g, bool shared_nodes)
{
    cJSON *f = manifests_device_plugin_file(g, shared_nodes);
    char *text = f ? cJSON_PrintUnformatted(f) : NULL;
    cJSON_Delete(f);
    if (!text) return NULL;
    char *s = xstrdup(text);          /* cJSON's allocator is not ours to free() with */
    cJSON_free(text);
    return s;
}

static int add_text(cJSON *data, const char *key, cJSON *file, const ManifestOptions *o)
{
    char *text = o->yaml_text(file);
    cJSON_Delete(file);
    if (!text) return -1;
    cJSON_AddStringToObject(data, key, text);
    free(text);
    return 0;
}

/* the label value node n has after the plan (planned nodes: the plan's, else its own) */
static const char *label_after(const PlanResult *r, const Node *n, const char *key, bool mig)
{
    for (size_t i = 0; i < r->ngroups; i++) {
        const PlanGroup *g = &r->groups[i];
        if (g->strategy == PLAN_NONE) continue;
        for (size_t j = 0; j < g->nplan_nodes; j++) {
            if (!str_eq(g->plan_nodes[j].name, n->name)) continue;
            const char *v = mig ? g->plan_nodes[j].mig_config : g->plan_nodes[j].device_plugin_config;
            if (v) return v;
        }
    }
    return kv_get(&n->labels, key);
}

/* the config a sharing node runs, as GFD labels it (device-plugin-config.md §6):
 * nvidia.com/gpu.replicas, nvidia.com/gpu.sharing-strategy, renamed when it advertises
 * nvidia.com/gpu.shared */
static cJSON *reconstructed_config(const Node *n)
{
    const char *mode = kv_get(&n->labels, "nvidia.com/gpu.sharing-strategy");
    bool renamed = false;
    for (size_t i = 0; i < n->allocatable.n; i++) renamed |= str_eq(n->allocatable.items[i].name, "nvidia.com/gpu.shared");
    return dp_config_file(mig_strategy_name(n->gpu.mig_strategy), str_eq(mode, "mps"), n->gpu.replicas, renamed,
                          false, NULL);
}

static cJSON *device_plugin_configmap(const PlanResult *r, const Cluster *c, const ManifestOptions *o,
                                      const char *ns, Manifests *out, int *rc)
{
    cJSON *data = cJSON_CreateObject();
    *rc = 0;
    for (size_t i = 0; i < r->ngroups && *rc == 0; i++) {
        const PlanGroup *g = &r->groups[i];
        if (g->strategy == PLAN_NONE || !g->device_plugin_config) continue;
        *rc = add_text(data, g->device_plugin_config, manifests_device_plugin_file(g, true), o);
        bool whole_used = false;
        for (size_t j = 0; j < g->nplan_nodes; j++)
            whole_used |= g->plan_nodes[j].device_plugin_config == g->device_plugin_whole_config &&
                          g->device_plugin_whole_config;
        if (*rc == 0 && whole_used) *rc = add_text(data, g->device_plugin_whole_config, manifests_device_plugin_file(g, false), o);
    }
    if (*rc || !data->child) { cJSON_Delete(data); return NULL; }
    for (cJSON *k = data->child; k; k = k->next) strvec_push(&out->dp_added, k->string);
    /* the configs of the map in use now stay: nodes labelled with them, and the default */
    const PlanCurrent *cur = o->cur;
    if (cur && cur->dp_map) {
        const ConfigMap *cm = cur->dp_configmap;
        if (!cm || cm->truncated) {
            free(out->blocked);
            out->blocked = xasprintf("the %s ConfigMap %s/%s could not be read%s: its "
                                     "configs cannot be carried over, and nodes using them would crash-loop",
                                     o->dp_map_name ? "device plugin's" : "ClusterPolicy's device-plugin",
                                     o->dp_map_ns ? o->dp_map_ns : cur->operator_ns, cur->dp_map,
                                     cm ? " whole (too large)" : "");
        }
        for (size_t i = 0; cm && i < cm->data.n; i++) {
            if (cJSON_GetObjectItemCaseSensitive(data, cm->data.items[i].key)) continue;
            cJSON_AddStringToObject(data, cm->data.items[i].key, cm->data.items[i].value);
            out->carried_dp++;
        }
    }
    if (cur && cur->dp_default && !cJSON_GetObjectItemCaseSensitive(data, cur->dp_default))
        strvec_pushf(&out->warnings, "%s \"%s\" is in no ConfigMap: unlabelled nodes' device plugins will not start",
                     o->dp_map_name ? "the device plugin's DEFAULT_CONFIG" : "the ClusterPolicy's devicePlugin.config.default",
                     cur->dp_default);
    for (size_t i = 0; c && !out->blocked && i < c->nnodes; i++) {   /* unread map: not knowable */
        const Node *n = &c->nodes[i];
        const char *v = label_after(r, n, "nvidia.com/device-plugin.config", false);
        if (v && *v && !cJSON_GetObjectItemCaseSensitive(data, v) && !(cur && cur->dp_map) &&
            n->gpu.replicas > 1 && *rc == 0) {
            /* no map was in use, yet GFD says the node shares its GPUs: its config came from
             * somewhere the plan cannot see; carry what it runs (GFD's labels) under its name */
            *rc = add_text(data, v, reconstructed_config(n), o);
            strvec_pushf(&out->reconstructed, "%s (from %s's GPU Feature Discovery labels: %s, %d replicas)", v,
                         n->name, kv_get(&n->labels, "nvidia.com/gpu.sharing-strategy") &&
                         str_eq(kv_get(&n->labels, "nvidia.com/gpu.sharing-strategy"), "mps") ? "MPS" : "time-slicing",
                         n->gpu.replicas);
        } else if (v && *v && !cJSON_GetObjectItemCaseSensitive(data, v) && !(cur && cur->dp_map) && o->labels_unread) {
            /* no map was in use: the operator ran no config-manager and the label did nothing;
             * once the ClusterPolicy names a map it would select a config that does not exist */
            strvec_push(&out->unlabel_nodes, n->name);
            strvec_push(&out->unlabel_values, v);
        } else if (v && *v && !cJSON_GetObjectItemCaseSensitive(data, v) && !(cur && cur->dp_map))
            /* nothing shows whether the label is read: it stays (removing it would make a
             * config-manager fall back to its default) */
            strvec_pushf(&out->warnings, "%s is labelled nvidia.com/device-plugin.config=%s, which the emitted "
                         "ConfigMap does not hold; the label is kept (whether anything reads it is unknown)",
                         n->name, v);
        else if (v && *v && !cJSON_GetObjectItemCaseSensitive(data, v))
            strvec_pushf(&out->warnings, "%s is labelled nvidia.com/device-plugin.config=%s, which no ConfigMap "
                         "holds: its device plugin will exit (\"specified config %s does not exist\"); relabel it",
                         n->name, v, v);
    }
    const char *name = o->dp_map_name ? o->dp_map_name : MANIFESTS_DEVICE_PLUGIN_CONFIGMAP;
    if (o->dp_map_ns) ns = o->dp_map_ns;
    out->dp_name = xstrdup(name);
    out->dp_ns = xstrdup(ns);
    cJSON *d = object("v1", "ConfigMap", metadata(o, name, ns));
    cJSON_AddItemToObject(d, "data", data);
    return d;
}

/* A plugin without config-manager reads one file for every node (CONFIG_FILE): the map it
 * mounts keeps its other keys and the one sharing group's config replaces that key.  Blocked
 * when the plan needs different configs on different nodes. */
static cJSON *single_file_configmap(const PlanResult *r, const ManifestOptions *o, Manifests *out, int *rc)
{
    *rc = 0;
    const PlanGroup *one = NULL;
    size_t changed = 0;
    for (size_t i = 0; i < r->ngroups; i++)
        if (r->groups[i].strategy != PLAN_NONE) { one = &r->groups[i]; changed++; }
    if (!changed) return NULL;
    const char *why = NULL;
    if (changed > 1 || r->ngroups > 1) why = "the plan gives different GPU products different configs";
    else if (one->strategy == PLAN_MIG) why = "MIG needs the mixed strategy per node";
    else {
        /* nodes kept whole get the shared config too: only where no whole-GPU pod stays */
        for (size_t j = 0; j < one->nplan_nodes && !why; j++)
            if (!one->plan_nodes[j].shared && one->plan_nodes[j].whole_used)
                why = "whole-GPU pods stay on some of its nodes";
    }
    if (why) {
        free(out->blocked);
        out->blocked = xasprintf("the device plugin runs without config-manager and reads one config file (%s of "
                                 "ConfigMap %s/%s) on every node, but %s; install the device plugin with per-node "
                                 "configs (its Helm chart with config.map or config.name) and plan again",
                                 o->dp_single_key, o->dp_map_ns, o->dp_map_name, why);
        return NULL;
    }
    cJSON *data = cJSON_CreateObject();
    const ConfigMap *cm = o->cur ? o->cur->dp_configmap : NULL;
    for (size_t i = 0; cm && i < cm->data.n; i++) {
        if (str_eq(cm->data.items[i].key, o->dp_single_key)) continue;
        cJSON_AddStringToObject(data, cm->data.items[i].key, cm->data.items[i].value);
        out->carried_dp++;
    }
    if (add_text(data, o->dp_single_key, manifests_device_plugin_file(one, true), o) != 0) {
        cJSON_Delete(data);
        *rc = -1;
        return NULL;
    }
    strvec_push(&out->dp_added, o->dp_single_key);
    out->dp_name = xstrdup(o->dp_map_name);
    out->dp_ns = xstrdup(o->dp_map_ns);
    cJSON *d = object("v1", "ConfigMap", metadata(o, o->dp_map_name, o->dp_map_ns));
    cJSON_AddItemToObject(d, "data", data);
    return d;
}

/* ---- mig-parted ---- */

/* profile indexes of the model (ctx) by compute, size descending, then name */
static int prof_desc(const void *a, const void *b, void *ctx)
{
    const MigGpuModel *sort_model = ctx;
    const MigProfile *x = &sort_model->profiles[*(const int *)a], *y = &sort_model->profiles[*(const int *)b];
    if (x->compute != y->compute) return y->compute - x->compute;
    if (x->size != y->size) return y->size - x->size;
    return strcmp(x->name, y->name);
}

static cJSON *mig_entry(const PlanGroup *g, const PlanNode *pn, int layout, bool all)
{
    cJSON *e = cJSON_CreateObject();
    if (all) {
        cJSON_AddStringToObject(e, "devices", "all");
    } else {
        cJSON *dev = cJSON_AddArrayToObject(e, "devices");
        for (int i = 0; i < pn->gpus; i++)
            if (pn->gpu_layout[i] == layout) cJSON_AddItemToArray(dev, cJSON_CreateNumber(i));
    }
    cJSON_AddBoolToObject(e, "mig-enabled", layout >= 0);
    if (layout >= 0) {
        const MigLayout *l = &g->mig.groups[layout].layout;
        int order[MIG_MAX_PROFILES], n = 0;
        for (size_t q = 0; q < g->model->nprofiles; q++) if (l->counts[q]) order[n++] = (int)q;
        sort_r(order, (size_t)n, sizeof(int), prof_desc, (void *)g->model);
        cJSON *md = cJSON_AddObjectToObject(e, "mig-devices");
        for (int k = 0; k < n; k++)
            cJSON_AddNumberToObject(md, g->model->profiles[order[k]].name, l->counts[order[k]]);
    }
    return e;
}

cJSON *manifests_mig_parted_file(const PlanResult *r)
{
    bool any = false;
    for (size_t i = 0; i < r->ngroups; i++) any |= r->groups[i].strategy == PLAN_MIG;
    if (!any) return NULL;
    cJSON *f = cJSON_CreateObject();
    cJSON_AddStringToObject(f, "version", "v1");
    cJSON *mc = cJSON_AddObjectToObject(f, "mig-configs");
    /* the operator labels MIG-capable nodes all-disabled by default: keep that name valid */
    cJSON *dis = cJSON_AddArrayToObject(mc, "all-disabled");
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "devices", "all");
    cJSON_AddBoolToObject(e, "mig-enabled", false);
    cJSON_AddItemToArray(dis, e);
    for (size_t i = 0; i < r->ngroups; i++) {
        const PlanGroup *g = &r->groups[i];
        if (g->strategy != PLAN_MIG || !g->model) continue;
        for (size_t j = 0; j < g->nplan_nodes; j++) {
            const PlanNode *pn = &g->plan_nodes[j];
            if (!pn->mig_config || pn->mig_gpus == 0 || cJSON_GetObjectItemCaseSensitive(mc, pn->mig_config))
                continue;
            cJSON *list = cJSON_AddArrayToObject(mc, pn->mig_config);
            /* one entry per distinct layout (-1 = MIG disabled), in order of first GPU index */
            bool *done = xcalloc(g->mig.ngroups + 1, sizeof(bool));
            bool all = true;
            for (int k = 1; k < pn->gpus; k++) all &= pn->gpu_layout[k] == pn->gpu_layout[0];
            for (int k = 0; k < pn->gpus; k++) {
                int lay = pn->gpu_layout[k];
                if (done[lay + 1]) continue;
                done[lay + 1] = true;
                cJSON_AddItemToArray(list, mig_entry(g, pn, lay, all));
                if (all) break;
            }
            free(done);
        }
    }
    return f;
}

static void add_entry_list(cJSON *mc, const char *name, cJSON *entry)
{
    cJSON *list = cJSON_GetObjectItemCaseSensitive(mc, name);
    if (!list) list = cJSON_AddArrayToObject(mc, name);
    cJSON_AddItemToArray(list, entry);
}

static cJSON *mig_devices_entry(const MigGpuModel *m, bool enabled, cJSON *devices)
{
    cJSON *e = cJSON_CreateObject();
    if (m && m->device_ids && m->device_ids[0]) {
        cJSON *f = cJSON_AddArrayToObject(e, "device-filter");
        for (const char *const *id = m->device_ids; *id; id++) cJSON_AddItemToArray(f, cJSON_CreateString(*id));
    }
    cJSON_AddStringToObject(e, "devices", "all");
    cJSON_AddBoolToObject(e, "mig-enabled", enabled);
    if (enabled) cJSON_AddItemToObject(e, "mig-devices", devices ? devices : cJSON_CreateObject());
    return e;
}

/* the operator's built-in configs for the MIG models the cluster has: all-disabled, all-enabled,
 * all-<profile> (the most instances of it), all-balanced (mig-parted's builder: 2 x 1g, 1 x 2g,
 * and on 7-slice GPUs 1 x 3g, smallest memory of each) — one device-filtered entry per model */
static void builtin_configs(cJSON *mc, const Cluster *c)
{
    cJSON *dis = cJSON_CreateObject();
    cJSON_AddStringToObject(dis, "devices", "all");
    cJSON_AddBoolToObject(dis, "mig-enabled", false);
    add_entry_list(mc, "all-disabled", dis);
    cJSON *en = cJSON_CreateObject();
    cJSON_AddStringToObject(en, "devices", "all");
    cJSON_AddBoolToObject(en, "mig-enabled", true);
    cJSON_AddItemToObject(en, "mig-devices", cJSON_CreateObject());
    add_entry_list(mc, "all-enabled", en);
    const MigGpuModel *seen[32];
    size_t nseen = 0;
    for (size_t i = 0; c && i < c->nnodes; i++) {
        const Node *n = &c->nodes[i];
        const MigGpuModel *m = mig_model_for_product(n->gpu.base_product ? n->gpu.base_product : n->gpu.product);
        bool dup = !m;
        for (size_t k = 0; k < nseen && !dup; k++) dup = seen[k] == m;
        if (dup || nseen == 32) continue;
        seen[nseen++] = m;
        for (size_t q = 0; q < m->nprofiles; q++) {
            const MigProfile *p = &m->profiles[q];
            char *name = xasprintf("all-%s", p->name);
            for (char *s = name; *s; s++) if (*s == '+') *s = '.';
            cJSON *md = cJSON_CreateObject();
            cJSON_AddNumberToObject(md, p->name, p->max_instances);
            add_entry_list(mc, name, mig_devices_entry(m, true, md));
            free(name);
        }
        int want[3] = { 1, 2, 3 }, count[3] = { 2, 1, 1 }, counts[MIG_MAX_PROFILES] = { 0 };
        int parts = m->compute_slices >= 7 ? 3 : 2;
        bool ok = true;
        for (int k = 0; k < parts && ok; k++) {
            int best = -1;
            for (size_t q = 0; q < m->nprofiles; q++) {
                const MigProfile *p = &m->profiles[q];
                if (p->variant || p->compute != want[k]) continue;
                if (best < 0 || p->size < m->profiles[best].size) best = (int)q;
            }
            if (best < 0) ok = false; else counts[best] = count[k];
        }
        if (!ok || !mig_layout_from_counts(m, counts, NULL)) continue;
        cJSON *md = cJSON_CreateObject();
        for (size_t q = 0; q < m->nprofiles; q++)
            if (counts[q]) cJSON_AddNumberToObject(md, m->profiles[q].name, counts[q]);
        add_entry_list(mc, "all-balanced", mig_devices_entry(m, true, md));
    }
}

static cJSON *mig_parted_configmap(const PlanResult *r, const Cluster *c, const ManifestOptions *o,
                                   const char *ns, Manifests *out, int *rc)
{
    *rc = 0;
    cJSON *file = manifests_mig_parted_file(r);
    if (!file) return NULL;
    cJSON *mine = cJSON_DetachItemFromObjectCaseSensitive(file, "mig-configs");
    cJSON *mc = cJSON_AddObjectToObject(file, "mig-configs");
    /* start from the map in use: the custom one, or the operator's default-mig-parted-config */
    const PlanCurrent *cur = o->cur;
    const ConfigMap *cm = cur ? cur->mig_configmap : NULL;
    const char *text = cm ? kv_get(&cm->data, "config.yaml") : NULL;
    cJSON *old = NULL;
    char *msg = NULL;
    if (text && yaml_load_json(text, strlen(text), &old, &msg) != 0) old = NULL;
    cJSON *oldmc = cJSON_GetObjectItemCaseSensitive(old, "mig-configs");
    if (cJSON_IsObject(oldmc)) {
        for (cJSON *e = oldmc->child; e; e = e->next) {
            cJSON_AddItemToObject(mc, e->string, cJSON_Duplicate(e, true));
            out->carried_mig++;
        }
    } else if (cur && cur->mig_map) {
        free(out->blocked);
        out->blocked = xasprintf("the ClusterPolicy's mig-parted ConfigMap %s/%s could not be read%s%s: its configs "
                                 "cannot be carried over, and nodes using them would fail", cur->operator_ns,
                                 cur->mig_map, msg ? ": " : "", msg ? msg : "");
    } else {
        builtin_configs(mc, c);
        out->mig_builtin = true;
        out->carried_mig = (size_t)cJSON_GetArraySize(mc);
    }
    free(msg);
    cJSON_Delete(old);
    for (cJSON *e = mine ? mine->child : NULL; e; e = e->next)
        if (!cJSON_GetObjectItemCaseSensitive(mc, e->string))
            cJSON_AddItemToObject(mc, e->string, cJSON_Duplicate(e, true));
    cJSON_Delete(mine);
    const char *dflt = cur && cur->mig_default ? cur->mig_default : "all-disabled";
    if (!cJSON_GetObjectItemCaseSensitive(mc, dflt))
        strvec_pushf(&out->warnings, "the MIG manager's default config \"%s\" is in no mig-parted ConfigMap", dflt);
    for (size_t i = 0; c && i < c->nnodes; i++) {
        const Node *n = &c->nodes[i];
        const char *v = label_after(r, n, "nvidia.com/mig.config", true);
        if (v && *v && !cJSON_GetObjectItemCaseSensitive(mc, v))
            strvec_pushf(&out->warnings, "%s is labelled nvidia.com/mig.config=%s, which the mig-parted ConfigMap "
                         "does not hold: mig-manager sets nvidia.com/mig.config.state=failed there; relabel it",
                         n->name, v);
    }
    cJSON *data = cJSON_CreateObject();
    if (add_text(data, "config.yaml", file, o) != 0) { cJSON_Delete(data); *rc = -1; return NULL; }
    cJSON *d = object("v1", "ConfigMap", metadata(o, MANIFESTS_MIG_PARTED_CONFIGMAP, ns));
    cJSON_AddItemToObject(d, "data", data);
    return d;
}

/* ---- quotas ---- */

/* per namespace and resource: held now (under the plan), pending pods, rolling-update surge */
typedef struct { char *ns; ResourceList run, pend, surge; Strvec planned; } NsQuota;

static NsQuota *ns_quota(NsQuota **v, size_t *n, size_t *cap, StrMap *idx, const char *ns)
{
    size_t i = (size_t)(uintptr_t)strmap_get(idx, ns);
    if (i) return &(*v)[i - 1];
    ARRAY_GROW(*v, *n, *cap);
    NsQuota *q = &(*v)[(*n)++];
    memset(q, 0, sizeof *q);
    q->ns = xstrdup(ns);
    strmap_put(idx, ns, (void *)(uintptr_t)*n);
    return q;
}

static int nsq_cmp(const void *a, const void *b)
{
    return strcmp(((const NsQuota *)a)->ns, ((const NsQuota *)b)->ns);
}

static int str_ptr_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int64_t rl_get(const ResourceList *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++) if (str_eq(l->items[i].name, name)) return l->items[i].milli;
    return 0;
}

static size_t add_quotas(const PlanResult *r, const PlanWorkload *w, const Cluster *c,
                         const ManifestOptions *o, Manifests *out)
{
    NsQuota *v = NULL;
    size_t n = 0, cap = 0;
    StrMap *idx = strmap_new();
    /* the planned pods: by index when the entry has its cluster pod (every entry of
     * plan_input_build), else by "ns/name" */
    StrMap *planned_pods = strmap_new();
    bool *planned_at = c && c->npods ? xcalloc(c->npods, sizeof *planned_at) : NULL;
    /* "ns kind name" -> PlanGroupWorkload, only of the workloads a pending GPU pod belongs to
     * (the last in group order, as a map of every group workload had it: 4 MB of keys and
     * slots at 51,647 workloads for the few Jobs that wait) */
    StrMap *wl_request = strmap_new();
    static const char wanted;                /* a pending pod's workload, not matched yet */
    for (size_t i = 0; c && i < c->npods; i++) {
        const Pod *p = &c->pods[i];
        if (!pod_requests_gpu(p) || !pod_is_pending_unbound(p)) continue;
        const char *kind, *name;
        char *tofree;
        plan_pod_workload(p, &kind, &name, &tofree);
        char *wk = xasprintf("%s\x1f%s\x1f%s", p->ns, kind, name);
        strmap_put(wl_request, wk, (void *)&wanted);
        free(wk); free(tofree);
    }
    for (size_t gi = 0; gi < r->ngroups; gi++) {
        const PlanGroup *g = &r->groups[gi];
        for (size_t k = 0; k < g->nassign; k++) {
            const PlanWorkload *x = &w[g->assign[k].workload];
            if (planned_at && x->pod_obj && x->pod_obj >= c->pods && x->pod_obj < c->pods + c->npods &&
                str_eq(x->ns, x->pod_obj->ns)) {
                planned_at[x->pod_obj - c->pods] = true;
                continue;
            }
            char *key = xasprintf("%s/%s", x->ns ? x->ns : "", plan_workload_pod(x) ? plan_workload_pod(x) : "");
            strmap_put(planned_pods, key, (void *)1);
            free(key);
        }
        for (size_t i = 0; i < g->nworkloads; i++) {
            const PlanGroupWorkload *gw = &g->workloads[i];
            const PlanWorkload *x = &w[g->assign[gw->first].workload];
            NsQuota *q = ns_quota(&v, &n, &cap, idx, x->ns ? x->ns : "default");
            int64_t per = (int64_t)gw->request_count * 1000;
            rlist_add(&q->run, gw->request_resource, (int64_t)gw->pods * per);
            /* a Deployment rolls out with maxSurge 25% (its default), rounded up */
            if (x->kind && strcmp(x->kind, "Deployment") == 0)
                rlist_add(&q->surge, gw->request_resource, (int64_t)((gw->pods + 3) / 4) * per);
            if (g->strategy != PLAN_NONE && !strvec_contains(&q->planned, gw->request_resource))
                strvec_push(&q->planned, gw->request_resource);
            if (!strmap_size(wl_request)) continue;
            char *wk = xasprintf("%s\x1f%s\x1f%s", x->ns ? x->ns : "", x->kind ? x->kind : "Pod", x->name ? x->name : "");
            if (strmap_get(wl_request, wk)) strmap_put(wl_request, wk, (void *)gw);
            free(wk);
        }
    }
    /* the namespaces' other GPU pods: running ones as they are, pending ones as they will ask
     * (their workload's planned request when it is planned) */
    for (size_t i = 0; c && i < c->npods; i++) {
        const Pod *p = &c->pods[i];
        if (!pod_requests_gpu(p) || !strmap_get(idx, p->ns)) continue;
        bool pending = pod_is_pending_unbound(p);
        if (!pending && !pod_holds_resources(p)) continue;
        bool planned = planned_at && planned_at[i];
        if (!planned && strmap_size(planned_pods)) {
            char *key = xasprintf("%s/%s", p->ns, p->name);
            planned = strmap_get(planned_pods, key) != NULL;
            free(key);
        }
        if (planned) continue;
        NsQuota *q = ns_quota(&v, &n, &cap, idx, p->ns);
        const PlanGroupWorkload *gw = NULL;
        if (pending) {
            const char *kind, *name;
            char *tofree;
            plan_pod_workload(p, &kind, &name, &tofree);
            char *wk = xasprintf("%s\x1f%s\x1f%s", p->ns, kind, name);
            gw = strmap_get(wl_request, wk);
            if (gw == (const void *)&wanted) gw = NULL;
            free(wk); free(tofree);
        }
        if (gw) { rlist_add(&q->pend, gw->request_resource, (int64_t)gw->request_count * 1000); continue; }
        for (size_t j = 0; j < p->requests.n; j++)
            if (resources_is_gpu(p->requests.items[j].name))
                rlist_add(pending ? &q->pend : &q->run, p->requests.items[j].name, p->requests.items[j].milli);
    }
    if (n > 1) qsort(v, n, sizeof *v, nsq_cmp);
    size_t made = 0;
    for (size_t i = 0; i < n; i++) {
        NsQuota *q = &v[i];
        if (q->planned.n && o->quotas) {
            cJSON *d = object("v1", "ResourceQuota", metadata(o, MANIFESTS_QUOTA_NAME, q->ns));
            cJSON *hard = cJSON_AddObjectToObject(cJSON_AddObjectToObject(d, "spec"), "hard");
            Strbuf det = STRBUF_INIT;
            if (q->planned.n > 1) qsort(q->planned.v, q->planned.n, sizeof(char *), str_ptr_cmp);
            for (size_t j = 0; j < q->planned.n; j++) {
                const char *res = q->planned.v[j];
                long long run = (rl_get(&q->run, res) + 999) / 1000, pend = (rl_get(&q->pend, res) + 999) / 1000,
                          surge = (rl_get(&q->surge, res) + 999) / 1000;
                char *k = xasprintf("requests.%s", res);
                char val[32];
                snprintf(val, sizeof val, "%lld", run + pend + surge);
                cJSON_AddStringToObject(hard, k, val);
                strbuf_addf(&det, "%s%s: %s (%lld running + %lld pending + %lld rolling-update surge)",
                            det.len ? "; " : "", k, val, run, pend, surge);
                free(k);
            }
            out->docs = xrealloc(out->docs, (out->n + 1) * sizeof *out->docs);
            out->docs[out->n++] = d;
            out->quota_info = xrealloc(out->quota_info, (made + 1) * sizeof *out->quota_info);
            out->quota_info[made].ns = xstrdup(q->ns);
            out->quota_info[made].detail = strbuf_detach(&det);
            made++;
        }
        free(q->ns);
        rlist_clear(&q->run); rlist_clear(&q->pend); rlist_clear(&q->surge);
        strvec_clear(&q->planned);
    }
    free(v);
    strmap_free(idx, NULL);
    strmap_free(planned_pods, NULL);
    free(planned_at);
    strmap_free(wl_request, NULL);
    return made;
}

int manifests_build(const PlanResult *r, const PlanWorkload *w, const Cluster *c,
                    const ManifestOptions *o, Manifests *out)
{
    memset(out, 0, sizeof *out);
    const char *ns = o->operator_namespace && *o->operator_namespace ? o->operator_namespace : "gpu-operator";
    int rc = 0;
    cJSON *dp = o->no_configs ? NULL
              : o->dp_single_key && o->dp_map_name && o->dp_map_ns ? single_file_configmap(r, o, out, &rc)
              : device_plugin_configmap(r, c, o, ns, out, &rc);
    if (rc) { manifests_clear(out); return -1; }
    if (dp && o->dp_unreadable) {
        cJSON_Delete(dp);
        dp = NULL;
        free(out->blocked);
        out->blocked = xstrdup(o->dp_unreadable);
    }
    cJSON *mp = o->no_configs ? NULL : mig_parted_configmap(r, c, o, ns, out, &rc);
    if (rc) { cJSON_Delete(dp); manifests_clear(out); return -1; }
    out->docs = xcalloc(2, sizeof *out->docs);
    if (dp) { out->docs[out->n++] = dp; out->device_plugin = true; }
    if (mp) { out->docs[out->n++] = mp; out->mig_parted = true; }
    out->quotas = add_quotas(r, w, c, o, out);
    return 0;
}

void manifests_clear(Manifests *m)
{
    if (!m) return;
    for (size_t i = 0; i < m->n; i++) cJSON_Delete(m->docs[i]);
    free(m->docs);
    for (size_t i = 0; i < m->quotas; i++) { free(m->quota_info[i].ns); free(m->quota_info[i].detail); }
    free(m->quota_info);
    free(m->blocked);
    strvec_clear(&m->warnings);
    strvec_clear(&m->unlabel_nodes);
    strvec_clear(&m->unlabel_values);
    strvec_clear(&m->reconstructed);
    strvec_clear(&m->dp_added);
    free(m->dp_name);
    free(m->dp_ns);
    memset(m, 0, sizeof *m);
}

/* manifests.c — a plan's Kubernetes objects as cJSON trees (what and why in manifests.h).
 *
 * Names: the device-plugin configs are the plan's names (kgpu-<group>-mig, -time-slicing,
 * -mps, -whole), the mig-parted configs kgpu-<group>-mig-<n> per distinct node geometry; the
 * nodes are labelled with them by the script (`-o script`), never by this tool.
 */
#include "manifests.h"
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "resources.h"
#include "strmap.h"

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

cJSON *manifests_device_plugin_file(const PlanGroup *g, bool shared_nodes)
{
    if (g->strategy == PLAN_NONE) return NULL;
    bool sharing = g->strategy == PLAN_TIME_SLICING || g->strategy == PLAN_MPS;
    if (!sharing && !shared_nodes) return NULL;       /* MIG groups have one config */
    cJSON *f = cJSON_CreateObject();
    cJSON_AddStringToObject(f, "version", "v1");
    cJSON *flags = cJSON_AddObjectToObject(f, "flags");
    cJSON_AddStringToObject(flags, "migStrategy", g->strategy == PLAN_MIG ? "mixed" : "none");
    if (sharing && shared_nodes) {
        cJSON *sh = cJSON_AddObjectToObject(f, "sharing");
        cJSON *mode = cJSON_AddObjectToObject(sh, g->strategy == PLAN_MPS ? "mps" : "timeSlicing");
        cJSON_AddBoolToObject(mode, "renameByDefault", true);
        cJSON_AddBoolToObject(mode, "failRequestsGreaterThanOne", true);
        cJSON *res = cJSON_AddArrayToObject(mode, "resources");
        cJSON *r = cJSON_CreateObject();
        cJSON_AddStringToObject(r, "name", "nvidia.com/gpu");
        cJSON_AddNumberToObject(r, "replicas", g->replicas);
        cJSON_AddItemToArray(res, r);
    }
    return f;
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

static cJSON *device_plugin_configmap(const PlanResult *r, const ManifestOptions *o, const char *ns, int *rc)
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
    cJSON *d = object("v1", "ConfigMap", metadata(o, MANIFESTS_DEVICE_PLUGIN_CONFIGMAP, ns));
    cJSON_AddItemToObject(d, "data", data);
    return d;
}

/* ---- mig-parted ---- */

static const MigGpuModel *sort_model;
static int prof_desc(const void *a, const void *b)
{
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
        sort_model = g->model;
        qsort(order, (size_t)n, sizeof(int), prof_desc);
        sort_model = NULL;
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

static cJSON *mig_parted_configmap(const PlanResult *r, const ManifestOptions *o, const char *ns, int *rc)
{
    *rc = 0;
    cJSON *file = manifests_mig_parted_file(r);
    if (!file) return NULL;
    cJSON *data = cJSON_CreateObject();
    if (add_text(data, "config.yaml", file, o) != 0) { cJSON_Delete(data); *rc = -1; return NULL; }
    cJSON *d = object("v1", "ConfigMap", metadata(o, MANIFESTS_MIG_PARTED_CONFIGMAP, ns));
    cJSON_AddItemToObject(d, "data", data);
    return d;
}

/* ---- quotas ---- */

typedef struct { char *ns; ResourceList need; Strvec planned; } NsQuota;

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

static size_t add_quotas(const PlanResult *r, const PlanWorkload *w, const Cluster *c,
                         const ManifestOptions *o, Manifests *out)
{
    NsQuota *v = NULL;
    size_t n = 0, cap = 0;
    StrMap *idx = strmap_new();
    StrMap *planned_pods = strmap_new();
    for (size_t gi = 0; gi < r->ngroups; gi++) {
        const PlanGroup *g = &r->groups[gi];
        for (size_t k = 0; k < g->nassign; k++) {
            const PlanWorkload *x = &w[g->assign[k].workload];
            char *key = xasprintf("%s/%s", x->ns ? x->ns : "", x->pod ? x->pod : x->name);
            strmap_put(planned_pods, key, (void *)1);
            free(key);
        }
        for (size_t i = 0; i < g->nworkloads; i++) {
            const PlanGroupWorkload *gw = &g->workloads[i];
            const PlanWorkload *x = &w[g->assign[gw->first].workload];
            NsQuota *q = ns_quota(&v, &n, &cap, idx, x->ns ? x->ns : "default");
            rlist_add(&q->need, gw->request_resource, (int64_t)gw->pods * gw->request_count * 1000);
            if (g->strategy != PLAN_NONE && !strvec_contains(&q->planned, gw->request_resource))
                strvec_push(&q->planned, gw->request_resource);
        }
    }
    /* GPU pods of these namespaces that the plan does not move count against the quota too */
    for (size_t i = 0; c && i < c->npods; i++) {
        const Pod *p = &c->pods[i];
        if (!pod_holds_resources(p) || !pod_requests_gpu(p)) continue;
        char *key = xasprintf("%s/%s", p->ns, p->name);
        bool planned = strmap_get(planned_pods, key) != NULL;
        free(key);
        if (planned || !strmap_get(idx, p->ns)) continue;
        NsQuota *q = ns_quota(&v, &n, &cap, idx, p->ns);
        for (size_t j = 0; j < p->requests.n; j++)
            if (resource_is_gpu(p->requests.items[j].name))
                rlist_add(&q->need, p->requests.items[j].name, p->requests.items[j].milli);
    }
    if (n > 1) qsort(v, n, sizeof *v, nsq_cmp);
    size_t made = 0;
    for (size_t i = 0; i < n; i++) {
        NsQuota *q = &v[i];
        if (q->planned.n) {
            cJSON *d = object("v1", "ResourceQuota", metadata(o, MANIFESTS_QUOTA_NAME, q->ns));
            cJSON *hard = cJSON_AddObjectToObject(cJSON_AddObjectToObject(d, "spec"), "hard");
            rlist_sort(&q->need);
            for (size_t j = 0; j < q->need.n; j++) {
                if (!strvec_contains(&q->planned, q->need.items[j].name)) continue;
                char *k = xasprintf("requests.%s", q->need.items[j].name);
                char val[32];
                snprintf(val, sizeof val, "%lld", (long long)((q->need.items[j].milli + 999) / 1000));
                cJSON_AddStringToObject(hard, k, val);
                free(k);
            }
            out->docs = xrealloc(out->docs, (out->n + 1) * sizeof *out->docs);
            out->docs[out->n++] = d;
            made++;
        }
        free(q->ns);
        rlist_free(&q->need);
        strvec_free(&q->planned);
    }
    free(v);
    strmap_free(idx, NULL);
    strmap_free(planned_pods, NULL);
    return made;
}

int manifests_build(const PlanResult *r, const PlanWorkload *w, const Cluster *c,
                    const ManifestOptions *o, Manifests *out)
{
    memset(out, 0, sizeof *out);
    const char *ns = o->operator_namespace && *o->operator_namespace ? o->operator_namespace : "gpu-operator";
    int rc = 0;
    cJSON *dp = device_plugin_configmap(r, o, ns, &rc);
    if (rc) return -1;
    cJSON *mp = mig_parted_configmap(r, o, ns, &rc);
    if (rc) { cJSON_Delete(dp); return -1; }
    out->docs = xcalloc(2, sizeof *out->docs);
    if (dp) { out->docs[out->n++] = dp; out->device_plugin = true; }
    if (mp) { out->docs[out->n++] = mp; out->mig_parted = true; }
    out->quotas = add_quotas(r, w, c, o, out);
    return 0;
}

void manifests_free(Manifests *m)
{
    if (!m) return;
    for (size_t i = 0; i < m->n; i++) cJSON_Delete(m->docs[i]);
    free(m->docs);
    memset(m, 0, sizeof *m);
}

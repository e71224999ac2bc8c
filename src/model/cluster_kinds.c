/* cluster_kinds.c — the small kinds of the reduced cluster (the rules for ResourceQuota,
 * DaemonSet, Service, ClusterPolicy and ConfigMap in cluster.c's header): what is kept of each
 * object as it arrives, and released with the cluster (cluster_int.h). */
#include "model/cluster.h"
#include "cluster_int.h"
#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "util/error.h"
#include "json_fields.h"
#include "util/util.h"

/* ---- quotas ---- */

static bool quota_key_is_gpu(const char *key)
{
    if (str_starts_with(key, "requests.")) key += strlen("requests.");
    else if (str_starts_with(key, "limits.")) key += strlen("limits.");
    return resources_is_gpu(key);
}

static bool json_keys_mention_gpu(const cJSON *o)
{
    for (const cJSON *k = cJSON_IsObject(o) ? o->child : NULL; k; k = k->next)
        if (k->string && quota_key_is_gpu(k->string)) return true;
    return false;
}

static int ingest_quota(Cluster *c, const cJSON *obj, Error *err)
{
    const cJSON *meta = jobj(obj, "metadata"), *spec = jobj(obj, "spec"), *status = jobj(obj, "status");
    const cJSON *hard = jobj(status, "hard");
    if (!hard) hard = jobj(spec, "hard");
    if (!json_keys_mention_gpu(hard) && !json_keys_mention_gpu(jobj(spec, "hard")) &&
        !json_keys_mention_gpu(jobj(status, "used")))
        return 0;
    const char *name = jstr_ne(meta, "name"), *ns = jstr_ne(meta, "namespace");
    if (!name || !ns) { error_set(err, "resourcequota without metadata.name or namespace"); return -1; }
    ARRAY_GROW(c->quotas, c->nquotas, c->capquotas);
    Quota *q = &c->quotas[c->nquotas++];
    memset(q, 0, sizeof *q);
    q->ns = jdup_trunc(ns, 63);
    q->name = jdup_trunc(name, MODEL_NAME_MAX);
    const char *bad = NULL;
    rlist_from_json(&q->hard, hard, &bad);
    if (bad) cluster_warn(c, "resourcequota %s/%s: bad quantity for \"%.64s\" ignored", q->ns, q->name, bad);
    rlist_from_json(&q->used, jobj(status, "used"), NULL);
    return 0;
}

/* ---- daemonsets ---- */

/* the image's repository, last path component, without tag or digest:
 * "registry.local:5000/mirror/nvidia/k8s-device-plugin:v0.17.0" -> "k8s-device-plugin" */
bool cluster_image_is(const char *image, const char *repo)
{
    if (!image) return false;
    const char *at = strchr(image, '@');
    size_t len = at ? (size_t)(at - image) : strlen(image);
    const char *slash = NULL;
    for (size_t i = 0; i < len; i++) if (image[i] == '/') slash = image + i;
    const char *last = slash ? slash + 1 : image;
    size_t n = len - (size_t)(last - image);
    const char *colon = memchr(last, ':', n);
    if (colon) n = (size_t)(colon - last);
    return n == strlen(repo) && memcmp(last, repo, n) == 0;
}

static DsRole container_role(const cJSON *ctr)
{
    const char *img = jstr_ne(ctr, "image");
    if (cluster_image_is(img, "k8s-device-plugin")) return DS_DEVICE_PLUGIN;
    if (cluster_image_is(img, "k8s-mig-manager")) return DS_MIG_MANAGER;
    return DS_OTHER;
}

static bool gpu_daemonset(const char *ns, const char *name, const char *app, DsRole role)
{
    if (role != DS_OTHER) return true;
    if (str_eq(ns, "gpu-operator") || str_eq(ns, "nvidia-gpu-operator") || str_eq(ns, "kube-system"))
        return true;
    const char *const pfx[] = { "nvidia-", "gpu-" };
    for (size_t i = 0; i < 2; i++)
        if (str_starts_with(name, pfx[i]) || (app && str_starts_with(app, pfx[i]))) return true;
    return false;
}

/* the command or args of ctr mention config-manager, or it selects by the device-plugin label */
static bool runs_config_manager(const cJSON *ctr)
{
    const char *name = jstr_ne(ctr, "name");
    if (name && strstr(name, "config-manager")) return true;
    const char *const lists[] = { "command", "args" };
    for (size_t k = 0; k < 2; k++) {
        const cJSON *v;
        cJSON_ArrayForEach(v, jarr(ctr, lists[k]))
            if (cJSON_IsString(v) && strstr(v->valuestring, "config-manager")) return true;
    }
    const cJSON *e;
    cJSON_ArrayForEach(e, jarr(ctr, "env"))
        if (str_eq(jstr(e, "name"), "NODE_LABEL") && str_eq(jstr(e, "value"), "nvidia.com/device-plugin.config"))
            return true;
    return false;
}

/* the device-plugin / MIG-manager facts of the pod template (cluster.h: DaemonSet) */
static void daemonset_template(DaemonSet *d, const cJSON *obj)
{
    const cJSON *tspec = jobj(jobj(jobj(obj, "spec"), "template"), "spec");
    static const char *const env_keys[] = DS_ENV_KEYS;
    const cJSON *vol;
    cJSON_ArrayForEach(vol, jarr(tspec, "volumes")) {
        const char *cm = jstr_ne(jobj(vol, "configMap"), "name");
        if (!cm || d->nmounts >= DS_MAX_MOUNTS) continue;
        const char *vname = jstr_ne(vol, "name");
        const char *path = NULL;
        const char *const lists[] = { "initContainers", "containers" };
        for (size_t k = 0; k < 2 && !path && vname; k++) {
            const cJSON *ctr;
            cJSON_ArrayForEach(ctr, jarr(tspec, lists[k])) {
                const cJSON *vm;
                cJSON_ArrayForEach(vm, jarr(ctr, "volumeMounts"))
                    if (!path && str_eq(jstr(vm, "name"), vname)) path = jstr_ne(vm, "mountPath");
            }
        }
        d->mounts = xrealloc(d->mounts, (d->nmounts + 1) * sizeof *d->mounts);
        d->mounts[d->nmounts].configmap = jdup_trunc(cm, MODEL_NAME_MAX);
        d->mounts[d->nmounts].mount_path = jdup_trunc(path, 256);
        d->nmounts++;
    }
    /* env: init containers first, then containers, so the plugin's own values win */
    const char *const lists[] = { "initContainers", "containers" };
    for (size_t k = 0; k < 2; k++) {
        const cJSON *ctr;
        cJSON_ArrayForEach(ctr, jarr(tspec, lists[k])) {
            DsRole r = container_role(ctr);
            bool cfgm = runs_config_manager(ctr);
            d->config_manager |= cfgm && d->role == DS_DEVICE_PLUGIN;
            if (r == DS_OTHER && !cfgm) continue;
            const cJSON *e;
            cJSON_ArrayForEach(e, jarr(ctr, "env")) {
                const char *en = jstr_ne(e, "name"), *ev = jstr(e, "value");
                for (size_t q = 0; en && ev && env_keys[q]; q++) {
                    if (!str_eq(en, env_keys[q])) continue;
                    char *v = jdup_trunc(ev, 256);
                    kv_set(&d->env, en, v);
                    free(v);
                }
            }
        }
    }
    static const char *const helm_keys[] = { "app.kubernetes.io/managed-by", "helm.sh/chart",
                                             "app.kubernetes.io/instance", "app.kubernetes.io/name", NULL };
    const cJSON *labels = jobj(jobj(obj, "metadata"), "labels");
    for (size_t q = 0; helm_keys[q]; q++) {
        const char *v = jstr_ne(labels, helm_keys[q]);
        if (!v) continue;
        char *t = jdup_trunc(v, 128);
        kv_set(&d->helm, helm_keys[q], t);
        free(t);
    }
}

static int ingest_daemonset(Cluster *c, const cJSON *obj, Error *err)
{
    const cJSON *meta = jobj(obj, "metadata"), *status = jobj(obj, "status");
    const char *name = jstr_ne(meta, "name"), *ns = jstr_ne(meta, "namespace");
    if (!name) { error_set(err, "daemonset without metadata.name"); return -1; }
    const char *app = jstr_ne(jobj(meta, "labels"), "app");
    if (!app) app = jstr_ne(jobj(jobj(jobj(obj, "spec"), "selector"), "matchLabels"), "app");
    const cJSON *tspec = jobj(jobj(jobj(obj, "spec"), "template"), "spec");
    const cJSON *ctrs = jarr(tspec, "containers");
    /* the role: the first container whose image is the device plugin's or the MIG manager's;
     * the image of the first of those that is not a config-manager sidecar */
    DsRole role = DS_OTHER;
    const cJSON *rc = NULL, *ctr;
    cJSON_ArrayForEach(ctr, ctrs) {
        DsRole r = container_role(ctr);
        /* GPU Feature Discovery ships in the device plugin's image (and the chart's GFD
         * DaemonSet runs config-manager too): not the plugin */
        const char *cn = jstr_ne(ctr, "name");
        const cJSON *cmd = cJSON_GetArrayItem(jarr(ctr, "command"), 0);
        if ((cn && strstr(cn, "feature-discovery")) ||
            (cJSON_IsString(cmd) && strstr(cmd->valuestring, "feature-discovery")) || strstr(name, "feature-discovery")) {
            role = DS_OTHER; rc = NULL;
            break;
        }
        if (r == DS_OTHER) continue;
        if (role == DS_OTHER) { role = r; rc = ctr; }
        else if (r == role && runs_config_manager(rc) && !runs_config_manager(ctr)) rc = ctr;
    }
    if (!gpu_daemonset(ns ? ns : "", name, app, role)) return 0;
    ARRAY_GROW(c->daemonsets, c->ndaemonsets, c->capdaemonsets);
    DaemonSet *d = &c->daemonsets[c->ndaemonsets++];
    memset(d, 0, sizeof *d);
    d->ns = jdup_trunc(ns ? ns : "", 63);
    d->name = jdup_trunc(name, MODEL_NAME_MAX);
    d->app = jdup_trunc(app, 63);
    d->desired = (int)jint(status, "desiredNumberScheduled", 0, INT32_MAX, 0);
    d->current = (int)jint(status, "currentNumberScheduled", 0, INT32_MAX, 0);
    d->ready = (int)jint(status, "numberReady", 0, INT32_MAX, 0);
    d->available = (int)jint(status, "numberAvailable", 0, INT32_MAX, 0);
    d->updated = (int)jint(status, "updatedNumberScheduled", 0, INT32_MAX, 0);
    d->misscheduled = (int)jint(status, "numberMisscheduled", 0, INT32_MAX, 0);
    d->image = jdup_trunc(jstr_ne(rc ? rc : cJSON_GetArrayItem(ctrs, 0), "image"), 512);
    d->role = role;
    if (role != DS_OTHER) daemonset_template(d, obj);
    return 0;
}

void cluster_daemonset_release(DaemonSet *d)
{
    free(d->ns); free(d->name); free(d->app); free(d->image);
    kv_clear(&d->env); kv_clear(&d->helm);
    for (size_t i = 0; i < d->nmounts; i++) { free(d->mounts[i].configmap); free(d->mounts[i].mount_path); }
    free(d->mounts);
}

/* ---- services ---- */

static bool contains_prometheus(const char *s)
{
    static const char word[] = "prometheus";
    size_t n = strlen(word);
    for (; s && *s; s++) {
        size_t i = 0;
        while (i < n && s[i] && tolower((unsigned char)s[i]) == word[i]) i++;
        if (i == n) return true;
    }
    return false;
}

void cluster_service_release(Service *s)
{
    free(s->ns); free(s->name); free(s->type);
    kv_clear(&s->labels);
    for (size_t i = 0; i < s->nports; i++) free(s->ports[i].name);
    free(s->ports);
}

static int ingest_service(Cluster *c, const cJSON *obj, Error *err)
{
    const cJSON *meta = jobj(obj, "metadata"), *spec = jobj(obj, "spec");
    const char *name = jstr_ne(meta, "name"), *ns = jstr_ne(meta, "namespace");
    if (!name || !ns) { error_set(err, "service without metadata.name or namespace"); return -1; }
    KVList labels = KVLIST_INIT;
    kv_from_json(&labels, jobj(meta, "labels"));
    bool keep = contains_prometheus(name);
    for (size_t i = 0; !keep && i < labels.n; i++)
        keep = contains_prometheus(labels.items[i].key) || contains_prometheus(labels.items[i].value);
    if (!keep) { kv_clear(&labels); return 0; }
    ARRAY_GROW(c->services, c->nservices, c->capservices);
    Service *s = &c->services[c->nservices++];
    memset(s, 0, sizeof *s);
    s->ns = jdup_trunc(ns, 63);
    s->name = jdup_trunc(name, MODEL_NAME_MAX);
    s->type = jdup_trunc(jstr_ne(spec, "type") ? jstr_ne(spec, "type") : "ClusterIP", 32);
    s->labels = labels;
    const cJSON *ports = jarr(spec, "ports"), *p;
    int n = ports ? cJSON_GetArraySize(ports) : 0;
    if (n > 0) s->ports = xcalloc((size_t)n, sizeof *s->ports);
    cJSON_ArrayForEach(p, ports) {
        int port = (int)jint(p, "port", 1, 65535, 0);
        if (!port) continue;
        s->ports[s->nports].name = jdup_trunc(jstr_ne(p, "name"), 63);
        s->ports[s->nports].port = port;
        s->nports++;
    }
    return 0;
}

/* ---- ClusterPolicy ---- */

static void cp_spec_release(ClusterPolicySpec *s)
{
    free(s->mig_strategy); free(s->dp_config_name); free(s->dp_config_default);
    free(s->mig_config_name); free(s->mig_config_default); free(s->dp_version); free(s->operator_ns);
    memset(s, 0, sizeof *s);
}

static int ingest_clusterpolicy(Cluster *c, const cJSON *obj, Error *err)
{
    const char *name = jstr_ne(jobj(obj, "metadata"), "name");
    if (!name) { error_set(err, "clusterpolicy without metadata.name"); return -1; }
    const char *state = jstr_ne(jobj(obj, "status"), "state");
    c->clusterpolicy_checked = true;
    /* only one ClusterPolicy is honoured; the others report state "ignored" */
    if (c->clusterpolicy_name && !str_eq(c->clusterpolicy_state, "ignored")) return 0;
    if (c->clusterpolicy_name && str_eq(state, "ignored")) return 0;
    free(c->clusterpolicy_name);
    free(c->clusterpolicy_state);
    c->clusterpolicy_name = jdup_trunc(name, MODEL_NAME_MAX);
    c->clusterpolicy_state = jdup_trunc(state, 64);
    cp_spec_release(&c->cp);
    const cJSON *spec = jobj(obj, "spec");
    const cJSON *dp = jobj(spec, "devicePlugin"), *mm = jobj(spec, "migManager");
    c->cp.mig_strategy = jdup_trunc(jstr_ne(jobj(spec, "mig"), "strategy"), 16);
    c->cp.dp_config_name = jdup_trunc(jstr_ne(jobj(dp, "config"), "name"), MODEL_NAME_MAX);
    c->cp.dp_config_default = jdup_trunc(jstr_ne(jobj(dp, "config"), "default"), 253);
    c->cp.mig_config_name = jdup_trunc(jstr_ne(jobj(mm, "config"), "name"), MODEL_NAME_MAX);
    c->cp.mig_config_default = jdup_trunc(jstr_ne(jobj(mm, "config"), "default"), 253);
    c->cp.dp_version = jdup_trunc(jstr_ne(dp, "version"), 128);
    c->cp.operator_ns = jdup_trunc(jstr_ne(jobj(obj, "status"), "namespace"), 63);
    const cJSON *en = cJSON_GetObjectItemCaseSensitive(mm, "enabled");
    c->cp.mig_manager_enabled = cJSON_IsBool(en) ? (cJSON_IsTrue(en) ? 1 : 0) : -1;
    return 0;
}

/* ---- ConfigMaps (only those the loader was asked for) ---- */

static int keep_configmap(Cluster *c, const cJSON *obj, Error *err)
{
    const cJSON *meta = jobj(obj, "metadata");
    const char *name = jstr_ne(meta, "name"), *ns = jstr_ne(meta, "namespace");
    if (!name) { error_set(err, "configmap without metadata.name"); return -1; }
    if (c->nconfigmaps >= 16 || cluster_find_configmap(c, ns ? ns : "", name)) return 0;
    ARRAY_GROW(c->configmaps, c->nconfigmaps, c->capconfigmaps);
    ConfigMap *m = &c->configmaps[c->nconfigmaps++];
    memset(m, 0, sizeof *m);
    m->ns = jdup_trunc(ns ? ns : "", 63);
    m->name = jdup_trunc(name, MODEL_NAME_MAX);
    const cJSON *data = jobj(obj, "data"), *v;
    cJSON_ArrayForEach(v, data) {
        if (!cJSON_IsString(v) || !v->string) continue;
        if (strlen(v->valuestring) > CLUSTER_CONFIGMAP_MAX) { m->truncated = true; continue; }
        kv_set(&m->data, v->string, v->valuestring);
    }
    return 0;
}

const ConfigMap *cluster_find_configmap(const Cluster *c, const char *ns, const char *name)
{
    for (size_t i = 0; name && i < c->nconfigmaps; i++)
        if (str_eq(c->configmaps[i].name, name) && (!ns || str_eq(c->configmaps[i].ns, ns)))
            return &c->configmaps[i];
    return NULL;
}

/* ---- priority classes ---- */

const PriorityClass *cluster_find_priority_class(const Cluster *c, const char *name)
{
    for (size_t i = 0; name && i < c->npriority_classes; i++)
        if (str_eq(c->priority_classes[i].name, name)) return &c->priority_classes[i];
    return NULL;
}

/* scheduling.k8s.io/v1 PriorityClass {metadata.name, value (int32, required), globalDefault,
 * preemptionPolicy}; one per name, a later copy replacing the earlier */
static int ingest_priority_class(Cluster *c, const cJSON *obj, Error *err)
{
    const char *name = jstr_ne(jobj(obj, "metadata"), "name");
    if (!name) { error_set(err, "PriorityClass without metadata.name"); return -1; }
    int32_t value;
    if (!jv_int32(jget(obj, "value"), &value)) {
        error_set(err, "PriorityClass %.64s: value is not a 32-bit integer", name);
        return -1;
    }
    PriorityClass pc = { jdup_trunc(name, MODEL_NAME_MAX), value, jbool(obj, "globalDefault", false),
                         jdup_trunc(jstr_ne(obj, "preemptionPolicy"), 64) };
    const PriorityClass *old = cluster_find_priority_class(c, pc.name);
    if (old) {
        size_t i = (size_t)(old - c->priority_classes);
        cluster_priority_class_release(&c->priority_classes[i]);
        c->priority_classes[i] = pc;
        return 0;
    }
    ARRAY_GROW(c->priority_classes, c->npriority_classes, c->cappriority_classes);
    c->priority_classes[c->npriority_classes++] = pc;
    return 0;
}

/* ---- one item released (also for the incremental path), all of them, the entry point ---- */

void cluster_priority_class_release(PriorityClass *pc)
{
    free(pc->name); free(pc->preemption_policy);
}

void cluster_quota_release(Quota *q)
{
    free(q->ns); free(q->name); rlist_clear(&q->hard); rlist_clear(&q->used);
}
void cluster_configmap_release(ConfigMap *m)
{
    free(m->ns); free(m->name); kv_clear(&m->data);
}

void cluster_small_kinds_release(Cluster *c)
{
    for (size_t i = 0; i < c->nquotas; i++) cluster_quota_release(&c->quotas[i]);
    free(c->quotas);
    for (size_t i = 0; i < c->ndaemonsets; i++) cluster_daemonset_release(&c->daemonsets[i]);
    free(c->daemonsets);
    for (size_t i = 0; i < c->nservices; i++) cluster_service_release(&c->services[i]);
    free(c->services);
    free(c->clusterpolicy_name);
    free(c->clusterpolicy_state);
    cp_spec_release(&c->cp);
    for (size_t i = 0; i < c->nconfigmaps; i++) cluster_configmap_release(&c->configmaps[i]);
    free(c->configmaps);
    for (size_t i = 0; i < c->npriority_classes; i++) cluster_priority_class_release(&c->priority_classes[i]);
    free(c->priority_classes);
}

int cluster_ingest_small(Cluster *c, ObjKind kind, const cJSON *obj, Error *err)
{
    switch (kind) {
    case OBJ_RESOURCEQUOTA: return ingest_quota(c, obj, err);
    case OBJ_DAEMONSET: return ingest_daemonset(c, obj, err);
    case OBJ_CLUSTERPOLICY: return ingest_clusterpolicy(c, obj, err);
    case OBJ_SERVICE: return ingest_service(c, obj, err);
    case OBJ_PRIORITYCLASS: return ingest_priority_class(c, obj, err);
    case OBJ_CONFIGMAP:
        if (keep_configmap(c, obj, err) != 0) return -1;
        return dpconfig_ingest_configmap(c, obj, err);      /* its device-plugin configs: dpconfig.c */
    default:
        error_set(err, "object kind %d is not one of the small kinds", (int)kind);
        return -1;
    }
}

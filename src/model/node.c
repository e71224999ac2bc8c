/* node.c — Node objects and the GPU facts of their labels (shared/reference/gfd-labels.md).
 *
 * Physical GPU count (node_physical_gpus), in order of preference:
 *   1. GFD labels, strategy none or mixed: nvidia.com/gpu.count is the number of physical GPUs
 *      (under mixed the MIG-enabled parents are still counted there).
 *   2. GFD labels, strategy single: gpu.count counts MIG devices of one profile, and GFD
 *      assumes all GPUs carry the same geometry, so physical = ceil(devices / max instances of
 *      that profile per GPU) from the MIG table of the product.  An unknown model or profile,
 *      or a -MIG-INVALID product (count 0), gives 0 = unknown: a guess would be printed as if
 *      it were right.
 *   3. No usable GFD count: capacity of nvidia.com/gpu divided by the replicas label (1 when
 *      unset or 0); if that is 0, the sum of the capacities of the other non-MIG GPU resources
 *      (nvidia.com/gpu.shared / replicas, amd.com/gpu, gpu.intel.com/i915|xe).  MIG resources
 *      are not counted: how many devices share a GPU is unknown without labels.
 * GPU memory (node_gpu_memory_mib): physical GPUs x per-GPU memory; under single the label
 * holds the MIG device's memory, so the parent's memory comes from the MIG table.
 */
#include "node.h"
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include "error.h"
#include "json_fields.h"
#include "mig_tables.h"
#include "quantity.h"
#include "util.h"

/* ---- GPU facts ---- */

static int label_int(const KVList *l, const char *key, int dflt)
{
    int64_t v;
    const char *s = kv_get(l, key);
    if (!s || !str_to_int64(s, &v) || v < 0 || v > 1000000) return dflt;
    return (int)v;
}

static int64_t label_int64(const KVList *l, const char *key)
{
    int64_t v;
    const char *s = kv_get(l, key);
    if (!s || !str_to_int64(s, &v) || v < 0 || v > ((int64_t)1 << 40)) return 0;
    return v;
}

static bool label_true(const KVList *l, const char *key) { return str_eq(kv_get(l, key), "true"); }

static int cmp_mig(const void *a, const void *b)
{
    return strcmp(((const MigDeviceFacts *)a)->profile, ((const MigDeviceFacts *)b)->profile);
}

#define MIG_LABEL_PREFIX "nvidia.com/mig-"

/* mixed strategy: one MigDeviceFacts per nvidia.com/mig-<P>.count label */
static void read_mig_devices(GpuFacts *g, const KVList *labels)
{
    size_t cap = 0;
    for (size_t i = 0; i < labels->n; i++) {
        const char *k = labels->items[i].key;
        if (!str_starts_with(k, MIG_LABEL_PREFIX) || !str_ends_with(k, ".count")) continue;
        size_t klen = strlen(k), fixed = strlen(MIG_LABEL_PREFIX) + strlen(".count");
        if (klen <= fixed) continue;                 /* "nvidia.com/mig-.count" */
        size_t plen = klen - fixed;
        ARRAY_GROW(g->mig, g->nmig, cap);
        MigDeviceFacts *m = &g->mig[g->nmig++];
        m->profile = xstrndup(k + strlen(MIG_LABEL_PREFIX), plen);
        m->count = label_int(labels, k, 0);
        char *key = xasprintf(MIG_LABEL_PREFIX "%s.memory", m->profile);
        m->memory_mib = label_int64(labels, key);
        free(key);
        key = xasprintf(MIG_LABEL_PREFIX "%s.replicas", m->profile);
        m->replicas = label_int(labels, key, 1);
        free(key);
        key = xasprintf(MIG_LABEL_PREFIX "%s.slices.gi", m->profile);
        m->slices_gi = label_int(labels, key, 0);
        free(key);
    }
    if (g->nmig > 1) qsort(g->mig, g->nmig, sizeof *g->mig, cmp_mig);
}

void gpu_facts_from_labels(GpuFacts *g, const KVList *labels)
{
    memset(g, 0, sizeof *g);
    g->replicas = 1;
    if (!labels) return;
    const char *product = kv_get(labels, "nvidia.com/gpu.product");
    g->has_gfd = product || kv_get(labels, "nvidia.com/gpu.count");
    g->present = label_true(labels, "nvidia.com/gpu.present") ||
                 label_true(labels, "feature.node.kubernetes.io/pci-10de.present") ||
                 label_true(labels, "feature.node.kubernetes.io/pci-0302_10de.present") ||
                 label_true(labels, "feature.node.kubernetes.io/pci-0300_10de.present");
    g->count = label_int(labels, "nvidia.com/gpu.count", 0);
    g->memory_mib = label_int64(labels, "nvidia.com/gpu.memory");
    g->family = xstrdup(kv_get(labels, "nvidia.com/gpu.family"));
    const char *strategy = kv_get(labels, "nvidia.com/mig.strategy");
    g->mig_strategy = str_eq(strategy, "single") ? MIG_SINGLE : str_eq(strategy, "mixed") ? MIG_MIXED : MIG_NONE;
    g->mig_capable = label_true(labels, "nvidia.com/mig.capable");
    g->mig_config = xstrdup(kv_get(labels, "nvidia.com/mig.config"));
    g->mig_config_state = xstrdup(kv_get(labels, "nvidia.com/mig.config.state"));
    const char *sharing = kv_get(labels, "nvidia.com/gpu.sharing-strategy");
    g->sharing = str_eq(sharing, "time-slicing") ? SHARING_TIME_SLICING
               : str_eq(sharing, "mps") ? SHARING_MPS : SHARING_NONE;
    /* absent -> 1 (no sharing); "0" is meaningful (MIG-enabled parents under mixed, INVALID) */
    g->replicas = label_int(labels, "nvidia.com/gpu.replicas", 1);
    g->device_plugin_config = xstrdup(kv_get(labels, "nvidia.com/device-plugin.config"));
    g->driver_version = xstrdup(kv_get(labels, "nvidia.com/cuda.driver-version.full"));

    if (product) {
        /* "<model>[-MIG-<profile>|-MIG-INVALID][-SHARED]" */
        g->product = xstrdup(product);
        size_t n = strlen(product);
        if (str_ends_with(product, "-SHARED")) n -= strlen("-SHARED");
        char *base = xstrndup(product, n);
        char *mig = strstr(base, "-MIG-");
        if (mig) {
            const char *profile = mig + strlen("-MIG-");
            if (g->mig_strategy == MIG_SINGLE && *profile && strcmp(profile, "INVALID") != 0)
                g->mig_single_profile = xstrdup(profile);
            *mig = '\0';
        }
        g->base_product = base;
    }
    read_mig_devices(g, labels);
}

void gpu_facts_free(GpuFacts *g)
{
    free(g->product); free(g->base_product); free(g->family);
    free(g->mig_config); free(g->mig_config_state); free(g->device_plugin_config);
    free(g->mig_single_profile); free(g->driver_version);
    for (size_t i = 0; i < g->nmig; i++) free(g->mig[i].profile);
    free(g->mig);
    memset(g, 0, sizeof *g);
}

/* ---- Node ---- */

static void read_taints(Node *n, const cJSON *spec)
{
    const cJSON *arr = jarr(spec, "taints");
    if (!arr) return;
    int cnt = cJSON_GetArraySize(arr);
    if (cnt <= 0) return;
    n->taints = xcalloc((size_t)cnt, sizeof *n->taints);
    const cJSON *t;
    cJSON_ArrayForEach(t, arr) {
        const char *key = jstr_ne(t, "key"), *effect = jstr_ne(t, "effect");
        if (!key || !effect) continue;      /* the API requires both; skip hostile entries */
        Taint *x = &n->taints[n->ntaints++];
        x->key = jdup_trunc(key, 317);
        x->value = jdup_trunc(jstr(t, "value"), 63);
        x->effect = jdup_trunc(effect, 32);
    }
}

static void read_ready(Node *n, const cJSON *status)
{
    const cJSON *conds = jarr(status, "conditions"), *c;
    cJSON_ArrayForEach(c, conds) {
        if (!str_eq(jstr(c, "type"), "Ready")) continue;
        const char *st = jstr(c, "status");
        n->ready = str_eq(st, "True");
        if (!n->ready) {
            const char *reason = jstr_ne(c, "reason"), *msg = jstr_ne(c, "message");
            char *s = reason && msg ? xasprintf("%s: %s", reason, msg)
                    : xasprintf("%s", reason ? reason : msg ? msg : st ? st : "Unknown");
            n->not_ready_reason = jdup_trunc(s, MODEL_TEXT_MAX);
            free(s);
        }
        return;
    }
    n->ready = false;                       /* kubelet never posted: treat as Unknown */
    n->not_ready_reason = xstrdup("no Ready condition reported");
}

int node_from_json(Node *n, const cJSON *obj, bool keep_labels, Error *err)
{
    memset(n, 0, sizeof *n);
    if (!cJSON_IsObject(obj)) { error_set(err, "node: not a JSON object"); return -1; }
    const cJSON *meta = jobj(obj, "metadata"), *spec = jobj(obj, "spec"), *status = jobj(obj, "status");
    const char *name = jstr_ne(meta, "name");
    if (!name) { error_set(err, "node without metadata.name"); return -1; }
    if (strlen(name) > MODEL_NAME_MAX) {
        error_set(err, "node name longer than %d characters", MODEL_NAME_MAX);
        return -1;
    }
    n->name = xstrdup(name);
    n->creation = jtime(meta, "creationTimestamp");
    kv_from_json(&n->labels, jobj(meta, "labels"));
    n->unschedulable = jbool(spec, "unschedulable", false);
    read_taints(n, spec);
    read_ready(n, status);
    rlist_from_json(&n->capacity, jobj(status, "capacity"), NULL);
    rlist_from_json(&n->allocatable, jobj(status, "allocatable"), NULL);
    /* allocatable defaults to capacity when the kubelet did not report it */
    if (!jobj(status, "allocatable")) rlist_copy(&n->allocatable, &n->capacity);
    gpu_facts_from_labels(&n->gpu, &n->labels);
    if (!keep_labels) kv_free(&n->labels);
    return 0;
}

void node_free(Node *n)
{
    free(n->name);
    kv_free(&n->labels);
    for (size_t i = 0; i < n->ntaints; i++) {
        free(n->taints[i].key); free(n->taints[i].value); free(n->taints[i].effect);
    }
    free(n->taints);
    free(n->not_ready_reason);
    rlist_free(&n->capacity);
    rlist_free(&n->allocatable);
    gpu_facts_free(&n->gpu);
    memset(n, 0, sizeof *n);
}

static bool list_has_gpu_name(const ResourceList *l)
{
    for (size_t i = 0; i < l->n; i++) if (resource_is_gpu(l->items[i].name)) return true;
    return false;
}

bool node_advertises_gpu(const Node *n)
{
    return list_has_gpu_name(&n->capacity) || list_has_gpu_name(&n->allocatable);
}

bool node_is_gpu_node(const Node *n)
{
    if (n->gpu.has_gfd || n->gpu.present) return true;
    for (size_t i = 0; i < n->capacity.n; i++)
        if (n->capacity.items[i].milli > 0 && resource_is_gpu(n->capacity.items[i].name)) return true;
    return false;
}

static int64_t capacity_units(const Node *n, const char *name)
{
    return quantity_units_ceil(rlist_get(&n->capacity, name));
}

static int clamp_int(int64_t v) { return v < 0 ? 0 : v > 1000000 ? 1000000 : (int)v; }

/* the MIG model and the single-strategy profile, or NULL */
static const MigProfile *single_profile(const Node *n, const MigGpuModel **model)
{
    *model = NULL;
    if (!n->gpu.mig_single_profile || !n->gpu.base_product) return NULL;
    *model = mig_model_for_product(n->gpu.base_product);
    return *model ? mig_model_profile(*model, n->gpu.mig_single_profile) : NULL;
}

int node_physical_gpus(const Node *n)
{
    const GpuFacts *g = &n->gpu;
    bool mig_single = g->mig_single_profile || (g->product && strstr(g->product, "-MIG-"));
    if (g->has_gfd && g->mig_strategy == MIG_SINGLE && mig_single) {
        const MigGpuModel *m;
        const MigProfile *p = single_profile(n, &m);
        if (!p || p->max_instances <= 0) return 0;     /* unknown (or -MIG-INVALID) */
        return (g->count + p->max_instances - 1) / p->max_instances;
    }
    if (g->has_gfd && g->count > 0) return g->count;
    int replicas = g->replicas > 0 ? g->replicas : 1;
    int64_t whole = capacity_units(n, "nvidia.com/gpu");
    if (whole > 0) return clamp_int((whole + replicas - 1) / replicas);
    int64_t sum = 0;
    for (size_t i = 0; i < n->capacity.n; i++) {
        const char *name = n->capacity.items[i].name;
        if (!resource_is_gpu(name) || resource_is_mig(name) || strcmp(name, "nvidia.com/gpu") == 0) continue;
        int64_t u = quantity_units_ceil(n->capacity.items[i].milli);
        if (u <= 0) continue;
        if (strcmp(name, "nvidia.com/gpu.shared") == 0) u = (u + replicas - 1) / replicas;
        if (sum < 1000000) sum += u;
    }
    return clamp_int(sum);
}

int64_t node_gpu_memory_mib(const Node *n)
{
    int gpus = node_physical_gpus(n);
    if (gpus <= 0) return 0;
    if (n->gpu.mig_strategy == MIG_SINGLE && n->gpu.has_gfd && n->gpu.mig_single_profile) {
        const MigGpuModel *m;
        single_profile(n, &m);
        return m ? (int64_t)gpus * m->memory_mib : 0;
    }
    return (int64_t)gpus * n->gpu.memory_mib;
}

const char *mig_strategy_name(MigStrategy s)
{
    switch (s) {
    case MIG_SINGLE: return "single";
    case MIG_MIXED: return "mixed";
    case MIG_NONE: break;
    }
    return "none";
}

const char *sharing_strategy_name(SharingStrategy s)
{
    switch (s) {
    case SHARING_TIME_SLICING: return "time-slicing";
    case SHARING_MPS: return "mps";
    case SHARING_NONE: break;
    }
    return "none";
}

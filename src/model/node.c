/* node.c — Node objects and the GPU facts of their labels (shared/reference/gfd-labels.md).
 *
 * Label readings that changed across GFD / device plugin versions are normalised here:
 *   - sharing: nvidia.com/gpu.sharing-strategy exists from device plugin v0.15; before it
 *     (GFD v0.6-v0.8, plugin v0.12-v0.14) gpu.replicas > 1 or a -SHARED product suffix means
 *     time-slicing (MPS did not exist yet);
 *   - memory: nvidia.com/gpu.memory is MiB from GFD; a value in bytes or a quantity is converted.
 * What the labels, resources and device-plugin config say together is inventory_node's
 * (inventory.c), which also counts physical GPUs.
 */
#include "model/node.h"
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include "util/error.h"
#include "json_fields.h"
#include "model/quantity.h"
#include "util/util.h"

/* ---- GPU facts ---- */

static int value_int(const char *s, int dflt)
{
    int64_t v;
    if (!s || !str_to_int64(s, &v) || v < 0 || v > 1000000) return dflt;
    return (int)v;
}

static int label_int(const KVList *l, const char *key, int dflt) { return value_int(kv_get(l, key), dflt); }

static int64_t label_int64(const KVList *l, const char *key)
{
    int64_t v;
    const char *s = kv_get(l, key);
    if (!s || !str_to_int64(s, &v) || v < 0 || v > ((int64_t)1 << 40)) return 0;
    return v;
}

/* nvidia.com/gpu.memory: MiB as GFD writes it (NVML memory.total >> 20); bytes as some setups
 * write it (16106127360 for a 15 GiB T4); a quantity ("16Gi", "15360Mi").  No GPU has 4 TiB
 * (4194304 MiB) and none has less than 1 GiB (1073741824 bytes): a plain number above the first
 * is bytes.  0 when absent or unreadable. */
static int64_t label_memory_mib(const char *s, bool *in_bytes)
{
    *in_bytes = false;
    if (!s || !*s) return 0;
    int64_t v;
    if (str_to_int64(s, &v)) {
        if (v <= 0) return 0;
        if (v < ((int64_t)1 << 22)) return v;
        *in_bytes = true;
        return v >> 20;
    }
    int64_t milli;
    if (!quantity_parse(s, &milli) || milli <= 0) return 0;
    *in_bytes = true;
    return milli / 1000 / ((int64_t)1 << 20);
}

static bool label_true(const KVList *l, const char *key) { return str_eq(kv_get(l, key), "true"); }

/* The nvidia.com/ labels gpu_facts_from_labels reads, found in one pass over a node's labels:
 * GFD writes some forty of a GPU node's eighty, and looked up one at a time they were a strcmp
 * each (a third of a GPU node's reading).  A key is compared by its length first.  The first
 * entry of a key wins, as kv_get's. */
#define NV_PREFIX "nvidia.com/"
enum { NV_PRODUCT, NV_COUNT, NV_MEMORY, NV_FAMILY, NV_PRESENT, NV_MIG_STRATEGY, NV_MIG_CAPABLE,
       NV_MIG_CONFIG, NV_MIG_CONFIG_STATE, NV_SHARING, NV_REPLICAS, NV_DP_CONFIG, NV_DRIVER, NV__N };
static const struct { const char *suffix; size_t len; } nv_keys[NV__N] = {
#define NV_KEY(s) { s, sizeof s - 1 }
    [NV_PRODUCT] = NV_KEY("gpu.product"), [NV_COUNT] = NV_KEY("gpu.count"),
    [NV_MEMORY] = NV_KEY("gpu.memory"), [NV_FAMILY] = NV_KEY("gpu.family"),
    [NV_PRESENT] = NV_KEY("gpu.present"), [NV_MIG_STRATEGY] = NV_KEY("mig.strategy"),
    [NV_MIG_CAPABLE] = NV_KEY("mig.capable"), [NV_MIG_CONFIG] = NV_KEY("mig.config"),
    [NV_MIG_CONFIG_STATE] = NV_KEY("mig.config.state"), [NV_SHARING] = NV_KEY("gpu.sharing-strategy"),
    [NV_REPLICAS] = NV_KEY("gpu.replicas"), [NV_DP_CONFIG] = NV_KEY("device-plugin.config"),
    [NV_DRIVER] = NV_KEY("cuda.driver-version.full"),
#undef NV_KEY
};

static void nv_labels(const KVList *l, const char *v[NV__N])
{
    for (int j = 0; j < NV__N; j++) v[j] = NULL;
    for (uint32_t i = 0; i < l->n; i++) {
        const char *k = l->items[i].key;
        if (k[0] != 'n' || strncmp(k, NV_PREFIX, strlen(NV_PREFIX)) != 0) continue;
        const char *rest = k + strlen(NV_PREFIX);
        size_t len = strlen(rest);
        for (int j = 0; j < NV__N; j++)
            if (nv_keys[j].len == len && !v[j] && memcmp(rest, nv_keys[j].suffix, len) == 0) {
                v[j] = l->items[i].value;
                break;
            }
    }
}

static int cmp_mig(const void *a, const void *b)
{
    return strcmp(((const MigDeviceFacts *)a)->profile, ((const MigDeviceFacts *)b)->profile);
}

#define MIG_LABEL_PREFIX "nvidia.com/mig-"

/* mixed strategy: one MigDeviceFacts per nvidia.com/mig-<P>.count label */
static void read_mig_devices(GpuFacts *g, const KVList *labels, StrPool *pool)
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
        char *profile = xstrndup(k + strlen(MIG_LABEL_PREFIX), plen);
        m->profile = strpool_intern(pool, profile);
        free(profile);
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

/* Nodes without GFD still say what they carry through their cloud's labels:
 *   Karpenter (AWS provider) karpenter.k8s.aws/instance-gpu-{manufacturer,count,memory,name}:
 *     the instance type's GPUs, memory per GPU in MiB (e.g. g4dn: nvidia, 1, 16384, t4);
 *   GKE cloud.google.com/gke-accelerator (the GPU), gke-gpu-sharing-strategy (time-sharing |
 *     mps), gke-max-shared-clients-per-gpu (nvidia.com/gpu units per GPU), and
 *     gke-gpu-partition-size (MIG: nvidia.com/gpu then counts MIG partitions). */
static void read_cloud_labels(GpuFacts *g, const KVList *labels, StrPool *pool)
{
    bool nvidia = str_eq(kv_get(labels, "karpenter.k8s.aws/instance-gpu-manufacturer"), "nvidia");
    if (nvidia) {
        if (!g->present) g->present_label = "karpenter.k8s.aws/instance-gpu-manufacturer";
        g->present = true;
        g->cloud_count = label_int(labels, "karpenter.k8s.aws/instance-gpu-count", 0);
        g->cloud_memory_mib = label_int64(labels, "karpenter.k8s.aws/instance-gpu-memory");
    }
    /* the GPU model, count and memory the cloud's labels name (cloud_gpus.c), below GFD's */
    CloudGpu cg;
    cloud_gpu_from_labels(labels, &cg);
    if (cg.nvidia && !g->present) { g->present = true; g->present_label = cg.label; }
    if (cg.product && !g->product) {
        g->product = g->base_product = strpool_intern(pool, cg.product);
        g->product_src = cg.src;
        g->product_label = cg.label;
    }
    if (cg.nvidia && !g->has_gfd) {
        if (!g->cloud_count && cg.count) g->cloud_count = cg.count;
        if (!g->cloud_memory_mib && cg.memory_mib) g->cloud_memory_mib = cg.memory_mib;
    }
    if (kv_get(labels, "cloud.google.com/gke-accelerator") && !g->present) {
        g->present = true;
        g->present_label = "cloud.google.com/gke-accelerator";
    }
    const char *gs = kv_get(labels, "cloud.google.com/gke-gpu-sharing-strategy");
    g->cloud_sharing = str_eq(gs, "time-sharing") ? SHARING_TIME_SLICING : str_eq(gs, "mps") ? SHARING_MPS : SHARING_NONE;
    g->cloud_replicas = label_int(labels, "cloud.google.com/gke-max-shared-clients-per-gpu", 0);
    const char *part = kv_get(labels, "cloud.google.com/gke-gpu-partition-size");
    g->cloud_partition = part && *part ? strpool_intern(pool, part) : NULL;
    /* GKE's partitioned pool is MIG single in all but name: every nvidia.com/gpu it advertises is
     * one partition of that profile; said so, every reader of the single strategy (explain's
     * sizes, plan's slices) reads it right */
    if (g->cloud_partition && !g->has_gfd && g->mig_strategy == MIG_NONE) {
        g->mig_strategy = MIG_SINGLE;
        g->mig_single_profile = g->cloud_partition;
    }
}

void gpu_facts_from_labels(GpuFacts *g, const KVList *labels, StrPool *pool)
{
    memset(g, 0, sizeof *g);
    g->replicas = 1;
    if (!labels) return;
    const char *nv[NV__N];
    nv_labels(labels, nv);
    const char *product = nv[NV_PRODUCT];
    g->has_gfd = product || nv[NV_COUNT];
    static const char *const present_keys[] = { "nvidia.com/gpu.present", "feature.node.kubernetes.io/pci-10de.present",
        "feature.node.kubernetes.io/pci-0302_10de.present", "feature.node.kubernetes.io/pci-0300_10de.present" };
    for (size_t i = 0; i < sizeof present_keys / sizeof *present_keys && !g->present; i++)
        if (i == 0 ? str_eq(nv[NV_PRESENT], "true") : label_true(labels, present_keys[i])) {
            g->present = true;
            g->present_label = present_keys[i];
        }
    g->count = value_int(nv[NV_COUNT], 0);
    g->memory_mib = label_memory_mib(nv[NV_MEMORY], &g->memory_in_bytes);
    g->family = strpool_intern(pool, nv[NV_FAMILY]);
    const char *strategy = nv[NV_MIG_STRATEGY];
    g->mig_strategy = str_eq(strategy, "single") ? MIG_SINGLE : str_eq(strategy, "mixed") ? MIG_MIXED : MIG_NONE;
    g->mig_capable = str_eq(nv[NV_MIG_CAPABLE], "true");
    g->mig_config = strpool_intern(pool, nv[NV_MIG_CONFIG]);
    g->mig_config_state = strpool_intern(pool, nv[NV_MIG_CONFIG_STATE]);
    const char *sharing = nv[NV_SHARING];
    g->sharing = str_eq(sharing, "time-slicing") ? SHARING_TIME_SLICING
               : str_eq(sharing, "mps") ? SHARING_MPS : SHARING_NONE;
    /* absent -> 1 (no sharing); "0" is meaningful (MIG-enabled parents under mixed, INVALID) */
    g->replicas = value_int(nv[NV_REPLICAS], 1);
    g->has_sharing_labels = sharing || nv[NV_REPLICAS];
    /* Before device plugin v0.15 (k8s-device-plugin 40e6089b7 "Add resource.sharing-strategy
     * labels") GFD wrote only gpu.replicas and the -SHARED product suffix
     * (gpu-feature-discovery v0.6.0 internal/lm/resource.go productLabel/replicasLabel); MPS
     * came with v0.15 too, so replicas > 1 there means time-slicing. */
    if (!sharing && (g->replicas > 1 || (product && str_ends_with(product, "-SHARED")))) {
        g->sharing = SHARING_TIME_SLICING;
        g->sharing_old_labels = true;
    }
    g->device_plugin_config = strpool_intern(pool, nv[NV_DP_CONFIG]);
    g->driver_version = strpool_intern(pool, nv[NV_DRIVER]);

    if (product) {
        g->product_src = PRODUCT_SRC_GFD;
        /* "<model>[-MIG-<profile>|-MIG-INVALID][-SHARED]" */
        g->product = strpool_intern(pool, product);
        size_t n = strlen(product);
        if (str_ends_with(product, "-SHARED")) n -= strlen("-SHARED");
        char *base = xstrndup(product, n);
        char *mig = strstr(base, "-MIG-");
        if (mig) {
            const char *profile = mig + strlen("-MIG-");
            if (g->mig_strategy == MIG_SINGLE && *profile && strcmp(profile, "INVALID") != 0)
                g->mig_single_profile = strpool_intern(pool, profile);
            *mig = '\0';
        }
        g->base_product = strpool_intern(pool, base);
        free(base);
    } else if (g->mig_strategy == MIG_SINGLE && g->mig_config && str_starts_with(g->mig_config, "all-") &&
               g->mig_config[4] >= '1' && g->mig_config[4] <= '9' && strstr(g->mig_config, "g.") &&
               (!g->mig_config_state || str_eq(g->mig_config_state, "success"))) {
        /* single strategy without a product label (GFD not run yet, or labels pruned, as on a
         * DGX H100 seen with mig.config=all-3g.40gb): mig-parted's "all-<P>" layout, once
         * applied, puts profile P on every GPU, and each nvidia.com/gpu is a P device */
        g->mig_single_profile = strpool_intern(pool, g->mig_config + strlen("all-"));
    }
    read_mig_devices(g, labels, pool);
    read_cloud_labels(g, labels, pool);
}

/* ---- HAMi's registration (Project-HAMi/HAMi pkg/device/devices.go at 4707fb02:
 * MarshalNodeDevices writes a JSON array of {"id","index","count","devmem","devcore","type",
 * "numa","mode","health"} with omitempty, so a false health and a 0 index are absent;
 * DecodeNodeDevices reads the older text "id,count,devmem,devcore,type,numa,health[,index,mode]"
 * per device, ":"-separated) ---- */

#define HAMI_MAX_DEVICES 64

static HamiDevice *hami_add(GpuFacts *g, size_t *cap)
{
    if (g->nhami >= HAMI_MAX_DEVICES) return NULL;
    ARRAY_GROW(g->hami, g->nhami, *cap);
    HamiDevice *d = &g->hami[g->nhami++];
    memset(d, 0, sizeof *d);
    return d;
}

static void hami_from_json(GpuFacts *g, const cJSON *arr, StrPool *pool)
{
    size_t cap = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, arr) {
        if (!cJSON_IsObject(it)) continue;
        HamiDevice *d = hami_add(g, &cap);
        if (!d) break;
        d->uuid = jpool_trunc(pool, jstr(it, "id"), 128);
        d->type = jpool_trunc(pool, jstr(it, "type"), 128);
        d->index = (int)jint(it, "index", 0, 4095, (int64_t)(g->nhami - 1));
        d->count = (int)jint(it, "count", 0, 1000000, 0);
        d->devmem_mib = jint(it, "devmem", 0, (int64_t)1 << 30, 0);
        d->devcore = (int)jint(it, "devcore", 0, 100000, 0);
        d->healthy = jbool(it, "health", false);
    }
}

static void hami_from_text(GpuFacts *g, const char *s, StrPool *pool)
{
    size_t cap = 0;
    char *copy = xstrdup(s), *save = NULL;
    for (char *dev = strtok_r(copy, ":", &save); dev; dev = strtok_r(NULL, ":", &save)) {
        char *f[10];
        size_t nf = 0;
        for (char *p = dev, *q; nf < 10; p = q + 1) {
            f[nf++] = p;
            if (!(q = strchr(p, ','))) break;
            *q = '\0';
        }
        if (nf != 7 && nf != 9) continue;           /* as DecodeNodeDevices: 7 or 9 fields */
        int64_t count, mem, core, index = (int64_t)g->nhami;
        if (!str_to_int64(f[1], &count) || !str_to_int64(f[2], &mem) || !str_to_int64(f[3], &core)) continue;
        if (nf == 9 && (!str_to_int64(f[7], &index) || index < 0 || index > 4095)) continue;
        HamiDevice *d = hami_add(g, &cap);
        if (!d) break;
        d->uuid = jpool_trunc(pool, f[0], 128);
        d->type = jpool_trunc(pool, f[4], 128);
        d->count = count >= 0 && count <= 1000000 ? (int)count : 0;
        d->devmem_mib = mem >= 0 && mem < ((int64_t)1 << 30) ? mem : 0;
        d->devcore = core >= 0 && core <= 100000 ? (int)core : 0;
        d->index = (int)index;
        d->healthy = str_eq(f[6], "true");
    }
    free(copy);
}

/* the HAMi type "NVIDIA-Tesla V100-PCIE-32GB" (NVIDIA- and the NVML name) in GFD's spelling */
static const char *hami_product(const char *type, StrPool *pool)
{
    if (!type || !*type) return NULL;
    const char *t = str_starts_with(type, "NVIDIA-") && type[7] ? type + 7 : type;
    char *s = xstrdup(t);
    for (char *p = s; *p; p++) if (*p == ' ') *p = '-';
    char *gfd = str_starts_with(s, "NVIDIA-") || str_starts_with(s, "Tesla-") ? xstrdup(s) : xasprintf("NVIDIA-%s", s);
    const char *r = strpool_intern(pool, gfd);
    free(s); free(gfd);
    return r;
}

static void read_hami(GpuFacts *g, const cJSON *meta, StrPool *pool)
{
    const char *reg = jstr_ne(jobj(meta, "annotations"), NODE_ANN_HAMI_REGISTER);
    if (!reg || strlen(reg) > 65536) return;
    const char *p = reg;
    while (*p == ' ' || *p == '\n') p++;
    if (*p == '[') {
        cJSON *arr = cJSON_Parse(reg);
        if (cJSON_IsArray(arr)) hami_from_json(g, arr, pool);
        cJSON_Delete(arr);
    } else {
        hami_from_text(g, reg, pool);
    }
    if (!g->nhami) return;
    g->present = true;
    if (!g->present_label) g->present_label = NODE_ANN_HAMI_REGISTER;
    /* order (node.h): GFD's product, then HAMi's (NVML on the node), then the clouds' labels */
    if (g->product_src != PRODUCT_SRC_GFD && g->hami[0].type && *g->hami[0].type) {
        g->product = g->base_product = hami_product(g->hami[0].type, pool);
        g->product_src = PRODUCT_SRC_HAMI;
        g->product_label = NULL;
    }
}

void gpu_facts_clear(GpuFacts *g)
{
    free(g->hami);
    free(g->mig);
    memset(g, 0, sizeof *g);
}

/* ---- Node ---- */

bool node_taint_from_json(const cJSON *t, StrPool *pool, Taint *out)
{
    const char *key = jstr_ne(t, "key"), *effect = jstr_ne(t, "effect");
    if (!key || !effect) return false;      /* the API requires both; skip hostile entries */
    *out = (Taint){ jpool_trunc(pool, key, 317), jpool_trunc(pool, jstr(t, "value"), 63), jpool_trunc(pool, effect, 32) };
    return true;
}

static void read_taints(Node *n, const cJSON *spec, StrPool *pool)
{
    const cJSON *arr = jarr(spec, "taints");
    if (!arr) return;
    int cnt = cJSON_GetArraySize(arr);
    if (cnt <= 0) return;
    n->taints = xcalloc((size_t)cnt, sizeof *n->taints);
    const cJSON *t;
    cJSON_ArrayForEach(t, arr)
        if (node_taint_from_json(t, pool, &n->taints[n->ntaints])) n->ntaints++;
}

/* a condition type GPU health agents set: NVSentinel's check names (Gpu*, SysLogs*, NVSwitch*,
 * DCGMError; NVIDIA/NVSentinel docs/INTEGRATIONS.md "Standard Condition Types", set by its
 * platform connector with status True on a fault) and node-problem-detector custom conditions
 * naming the GPU (any type containing "gpu", any case) */
static bool health_condition_type(const char *t)
{
    if (!t || str_eq(t, "Ready")) return false;
    if (str_starts_with(t, "SysLogs") || str_starts_with(t, "NVSwitch") || str_eq(t, "DCGMError")) return true;
    for (const char *p = t; *p; p++)
        if ((p[0] == 'g' || p[0] == 'G') && (p[1] == 'p' || p[1] == 'P') && (p[2] == 'u' || p[2] == 'U')) return true;
    return false;
}

static void read_health(Node *n, const cJSON *conds, StrPool *pool)
{
    const cJSON *c;
    size_t cap = 0;
    cJSON_ArrayForEach(c, conds) {
        const char *type = jstr_ne(c, "type");
        if (!health_condition_type(type) || !str_eq(jstr(c, "status"), "True")) continue;
        if (n->nhealth >= 64) break;                    /* hostile lists stay bounded */
        ARRAY_GROW(n->health, n->nhealth, cap);
        HealthCondition *h = &n->health[n->nhealth++];
        h->type = jpool_trunc(pool, type, 128);
        h->reason = jpool_trunc(pool, jstr(c, "reason"), 128);
        h->message = jpool_trunc(pool, jstr(c, "message"), MODEL_TEXT_MAX);
    }
}

static void read_ready(Node *n, const cJSON *status, StrPool *pool)
{
    const cJSON *conds = jarr(status, "conditions"), *c;
    read_health(n, conds, pool);
    cJSON_ArrayForEach(c, conds) {
        if (!str_eq(jstr(c, "type"), "Ready")) continue;
        const char *st = jstr(c, "status");
        n->ready = str_eq(st, "True");
        if (!n->ready) {
            const char *reason = jstr_ne(c, "reason"), *msg = jstr_ne(c, "message");
            char *s = reason && msg ? xasprintf("%s: %s", reason, msg)
                    : xasprintf("%s", reason ? reason : msg ? msg : st ? st : "Unknown");
            n->not_ready_reason = jpool_trunc(pool, s, MODEL_TEXT_MAX);
            free(s);
        }
        return;
    }
    n->ready = false;                       /* kubelet never posted: treat as Unknown */
    n->not_ready_reason = strpool_intern(pool, "no Ready condition reported");
}

int node_from_json(Node *n, const cJSON *obj, bool keep_labels, StrPool *pool, Error *err)
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
    n->name = strpool_intern(pool, name);
    n->creation = jtime(meta, "creationTimestamp");
    kv_from_json_pooled(&n->labels, jobj(meta, "labels"), pool);
    n->unschedulable = jbool(spec, "unschedulable", false);
    read_taints(n, spec, pool);
    read_ready(n, status, pool);
    rlist_from_json(&n->capacity, jobj(status, "capacity"), NULL);
    rlist_from_json(&n->allocatable, jobj(status, "allocatable"), NULL);
    /* allocatable defaults to capacity when the kubelet did not report it */
    if (!jobj(status, "allocatable")) rlist_copy(&n->allocatable, &n->capacity);
    gpu_facts_from_labels(&n->gpu, &n->labels, pool);
    read_hami(&n->gpu, meta, pool);
    if (!keep_labels) { free(n->labels.items); n->labels = (KVList)KVLIST_INIT; }
    return 0;
}

void node_clear(Node *n)
{
    free(n->labels.items);                         /* its strings are the pool's */
    free(n->taints);
    free(n->health);
    rlist_clear(&n->capacity);
    rlist_clear(&n->allocatable);
    gpu_facts_clear(&n->gpu);
    memset(n, 0, sizeof *n);
}

static bool list_has_gpu_name(const ResourceList *l)
{
    for (size_t i = 0; i < l->n; i++) if (resources_is_gpu(l->items[i].name)) return true;
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
        if (n->capacity.items[i].milli > 0 && resources_is_gpu(n->capacity.items[i].name)) return true;
    return false;
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

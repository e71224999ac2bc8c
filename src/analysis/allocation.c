/* allocation.c — the status of a cluster's GPUs: who holds what, what is wrong, how busy.
 *
 * One pass over the nodes picks the GPU nodes (GFD / GPU Operator labels, a GPU resource with
 * capacity > 0, or GPU pods bound to it: a device plugin that died drops capacity to 0 while
 * its pods still hold GPUs) and reads their facts from the model.  One pass over the kept GPU
 * pods adds each pod that holds resources (bound, not Succeeded/Failed) to its node: its
 * effective request per GPU resource is what the scheduler counts as allocated.  Then per node:
 * resource rows (capacity / allocatable / allocated, all-zero rows dropped), problems, and with
 * metrics the devices and per-pod usage.  Totals are sums over the GPU nodes shown.
 *
 * Physical GPUs, memory, MIG and sharing come from inventory_node (model/inventory.c: GFD labels
 * of any version, then advertised resources, then the device-plugin config the node runs), so
 * replicas (time-slicing, MPS) and MIG devices are never counted as GPUs.  A node that cannot be
 * counted is left out of the physical total and counted in unknown_gpu_nodes instead.
 *
 * The GPU Operator is looked for among the GPU DaemonSets the cluster kept: namespace
 * gpu-operator, then nvidia-gpu-operator, then wherever its own operands run (custom install);
 * without the operator, the namespace of a device plugin DaemonSet (e.g. kube-system).
 */
#include "analysis/allocation.h"
#include "analysis/explain_queue.h"
#include "analysis/explain_dra.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/dra.h"
#include "model/pod.h"
#include "model/quantity.h"
#include "model/resources.h"
#include "util/strpool.h"

static const char *const problem_names[PROBLEM__COUNT] = {
    [PROBLEM_NOT_READY] = "NotReady",
    [PROBLEM_CORDONED] = "Cordoned",
    [PROBLEM_NO_DEVICE_PLUGIN] = "NoDevicePlugin",
    [PROBLEM_MIG_INVALID] = "MIGInvalid",
    [PROBLEM_MIG_CONFIG_FAILED] = "MIGConfigFailed",
    [PROBLEM_MIG_CONFIG_PENDING] = "MIGConfigPending",
    [PROBLEM_UNHEALTHY] = "Unhealthy",
    [PROBLEM_GPU_HEALTH] = "GpuHealth",
    [PROBLEM_MISSING_GFD] = "MissingGFD",
};

const char *problem_code_name(ProblemCode p)
{
    return p >= 0 && p < PROBLEM__COUNT ? problem_names[p] : "Unknown";
}

/* ------------------------------------------------------------------ small helpers */

static int64_t units(int64_t milli) { return quantity_units_ceil(milli); }

/* name: the Cluster's (a node's or a pod's resource name) */
static ResourceAlloc *res_row(NodeStatus *ns, const char *name, size_t *cap)
{
    for (size_t i = 0; i < ns->nres; i++)
        if (strcmp(ns->res[i].name, name) == 0) return &ns->res[i];
    ARRAY_GROW(ns->res, ns->nres, *cap);
    ResourceAlloc *r = &ns->res[ns->nres++];
    memset(r, 0, sizeof *r);
    r->name = name;
    return r;
}

static void add_problem(NodeStatus *ns, ProblemCode code, char *message /* consumed */)
{
    ns->problems = xrealloc(ns->problems, (ns->nproblems + 1) * sizeof *ns->problems);
    ns->problems[ns->nproblems++] = (NodeProblem){ code, message };
}

static int cmp_res(const void *a, const void *b)
{
    return strcmp(((const ResourceAlloc *)a)->name, ((const ResourceAlloc *)b)->name);
}

static int cmp_problem(const void *a, const void *b)
{
    return (int)((const NodeProblem *)a)->code - (int)((const NodeProblem *)b)->code;
}

static int cmp_pod(const void *a, const void *b)
{
    const HolderPod *x = a, *y = b;
    int c = strcmp(x->ns, y->ns);
    return c ? c : strcmp(x->name, y->name);
}

static int cmp_node(const void *a, const void *b)
{
    return strcmp(((const NodeStatus *)a)->name, ((const NodeStatus *)b)->name);
}

static int cmp_component(const void *a, const void *b)
{
    const ComponentStatus *x = a, *y = b;
    int c = strcmp(x->ns, y->ns);
    return c ? c : strcmp(x->name, y->name);
}

const char *node_status_holder_phase(const HolderPod *p) { return pod_phase_name(p->phase); }

HolderUsage node_status_holder_usage(const NodeStatus *n, const HolderPod *p)
{
    if (!n->pod_usage) return (HolderUsage){ NAN, NAN };
    return n->pod_usage[p - n->pods];
}

int64_t node_status_allocated(const NodeStatus *n)
{
    int64_t s = 0;
    for (size_t i = 0; i < n->nres; i++) s += n->res[i].allocated;
    return s;
}

int64_t node_status_allocatable(const NodeStatus *n)
{
    int64_t s = 0;
    for (size_t i = 0; i < n->nres; i++) s += n->res[i].allocatable;
    return s;
}

char *node_status_mode(const NodeStatus *n)
{
    Strbuf sb = STRBUF_INIT;
    if (n->product && str_ends_with(n->product, "-MIG-INVALID")) strbuf_adds(&sb, "MIG INVALID");
    else if (n->mig_enabled) strbuf_adds(&sb, n->mig_strategy == MIG_SINGLE ? "mig single" : "mig mixed");
    const char *word = n->inv->sharing_known == INV_SHARING_SHARED_UNKNOWN ? "shared"
                     : n->sharing == SHARING_MPS ? "mps" : n->sharing == SHARING_TIME_SLICING ? "ts" : NULL;
    if (word && n->replicas > 0) strbuf_addf(&sb, "%s%s x%d", sb.len ? "," : "", word, n->replicas);
    else if (word) strbuf_addf(&sb, "%s%s x?", sb.len ? "," : "", word);
    else if (n->inv->sharing_known == INV_SHARING_UNKNOWN && !n->mig_enabled && n->nres) strbuf_adds(&sb, "?");
    if (n->dra.devices) strbuf_addf(&sb, "%sdra%s", sb.len ? "," : "", n->dra.mig_devices ? " mig" : "");
    if (!sb.len) strbuf_adds(&sb, "-");
    return strbuf_detach(&sb);
}

char *node_status_gpus_cell(const NodeStatus *n)
{
    if (n->inv->physical < 0) return xstrdup("?");
    return xasprintf("%d%s", n->inv->physical, n->inv->physical_unsure ? "*" : "");
}

char *node_status_word(const NodeStatus *n)
{
    Strbuf sb = STRBUF_INIT;
    strbuf_adds(&sb, n->ready ? "Ready" : "NotReady");
    if (!n->schedulable) strbuf_adds(&sb, ",SchedulingDisabled");
    for (size_t i = 0; i < n->nproblems; i++) {
        ProblemCode c = n->problems[i].code;
        if (c == PROBLEM_NOT_READY || c == PROBLEM_CORDONED) continue;   /* said above */
        strbuf_addf(&sb, ",%s", problem_code_name(c));
    }
    return strbuf_detach(&sb);
}

/* ------------------------------------------------------------------ one node */

static bool gpu_labels(const Node *n) { return n->gpu.has_gfd || n->gpu.present; }

/* zero what follows the string in buf, so that equal inventories are equal bytes */
static void clear_tail(char *buf, size_t size)
{
    size_t len = strnlen(buf, size);
    if (len < size) memset(buf + len, 0, size - len);
}

/* the node's strings are the Cluster's; what is made here goes into the status's pool */
static void explain_node_facts(NodeStatus *ns, const Cluster *c, const Node *n, StrPool *pool)
{
    const GpuFacts *g = &n->gpu;
    ns->name = n->name;
    ns->product = g->product;
    ns->base_product = g->base_product;
    char *short_name = allocation_product_short_name(g->product);
    ns->short_product = strpool_intern(pool, short_name);
    free(short_name);
    SharingConfig cfg;
    NodeInventory inv;              /* zeroed by inventory_node, padding too: compared whole */
    inventory_node(n, dpconfig_sharing_config(c, n, &cfg) ? &cfg : NULL, &inv);
    clear_tail(inv.physical_detail, sizeof inv.physical_detail);   /* text rewritten shorter */
    clear_tail(inv.sharing_detail, sizeof inv.sharing_detail);
    clear_tail(inv.memory_detail, sizeof inv.memory_detail);
    clear_tail(inv.mig_detail, sizeof inv.mig_detail);
    ns->inv = strpool_intern_mem(pool, &inv, sizeof inv);
    ns->physical_gpus = ns->inv->physical > 0 ? ns->inv->physical : 0;
    ns->memory_per_gpu_mib = ns->inv->memory_per_gpu_mib;
    ns->memory_mib = (int64_t)ns->physical_gpus * ns->memory_per_gpu_mib;
    ns->mig_strategy = ns->inv->mig_strategy;
    ns->mig_single_profile = g->mig_single_profile;
    ns->mig_enabled = ns->inv->mig_enabled;
    ns->mig_config = g->mig_config;
    ns->mig_config_state = g->mig_config_state;
    ns->sharing = ns->inv->sharing;
    ns->replicas = ns->inv->replicas;
    ns->ready = n->ready;
    ns->schedulable = !n->unschedulable;
    ns->mem_used_mib = ns->mem_total_mib = ns->util = NAN;
}

static void node_resources(NodeStatus *ns, const Node *n, size_t *cap)
{
    /* as many rows as the node names GPU resources (more only when a pod holds another): not
     * the 8 rows of a first growth, 1.3 MB at 5,000 GPU nodes until they were pruned */
    size_t rows = 0;
    for (size_t i = 0; i < n->capacity.n; i++) rows += resources_is_gpu(n->capacity.items[i].name);
    for (size_t i = 0; i < n->allocatable.n; i++) rows += resources_is_gpu(n->allocatable.items[i].name);
    if (rows > *cap) { ns->res = xrealloc(ns->res, rows * sizeof *ns->res); *cap = rows; }
    for (size_t i = 0; i < n->capacity.n; i++)
        if (resources_is_gpu(n->capacity.items[i].name))
            res_row(ns, n->capacity.items[i].name, cap)->capacity = units(n->capacity.items[i].milli);
    for (size_t i = 0; i < n->allocatable.n; i++)
        if (resources_is_gpu(n->allocatable.items[i].name))
            res_row(ns, n->allocatable.items[i].name, cap)->allocatable = units(n->allocatable.items[i].milli);
}

/* drop rows with nothing in them (e.g. nvidia.com/gpu: 0 left behind after MIG or renaming) */
static void prune_resources(NodeStatus *ns)
{
    size_t w = 0;
    for (size_t i = 0; i < ns->nres; i++) {
        ResourceAlloc *r = &ns->res[i];
        if (r->capacity == 0 && r->allocatable == 0 && r->allocated == 0) continue;
        ns->res[w++] = *r;
    }
    ns->nres = w;
    if (w > 1) qsort(ns->res, w, sizeof *ns->res, cmp_res);
    /* kept for as long as the status: no growth slack (5,000 GPU nodes x 8 rows reserved) */
    if (w) ns->res = xrealloc(ns->res, w * sizeof *ns->res);
    else { free(ns->res); ns->res = NULL; }
}

static void node_problems(NodeStatus *ns, const Node *n)
{
    const GpuFacts *g = &n->gpu;
    if (!n->ready)
        add_problem(ns, PROBLEM_NOT_READY, xasprintf("not Ready (%s): no new pods; its pods still hold their GPUs",
                                                     n->not_ready_reason ? n->not_ready_reason : "Unknown"));
    if (n->unschedulable)
        add_problem(ns, PROBLEM_CORDONED, xstrdup("cordoned (spec.unschedulable): no new pods"));
    bool advertised = false;
    for (size_t i = 0; i < ns->nres; i++) if (ns->res[i].capacity > 0) advertised = true;
    bool mig_invalid = g->product && str_ends_with(g->product, "-MIG-INVALID");
    if (gpu_labels(n) && !advertised && !mig_invalid) {   /* MIGInvalid says why already */
        if (g->has_gfd && g->product)
            add_problem(ns, PROBLEM_NO_DEVICE_PLUGIN,
                        xasprintf("labels say %d x %s but no GPU resource is advertised: is the device plugin "
                                  "running?", g->count, g->product));
        else
            add_problem(ns, PROBLEM_NO_DEVICE_PLUGIN,
                        xstrdup("labels say NVIDIA GPU but no GPU resource is advertised: is the device plugin "
                                "running?"));
    }
    if (mig_invalid)
        add_problem(ns, PROBLEM_MIG_INVALID,
                    xasprintf("invalid MIG layout for the single strategy%s%s%s: %s; use one MIG profile per node "
                              "or the mixed strategy",
                              g->mig_config ? " (mig.config=" : "", g->mig_config ? g->mig_config : "",
                              g->mig_config ? ")" : "",
                              advertised ? "GPU count unknown" : "no GPU advertised, GPU count unknown"));
    if (str_eq(g->mig_config_state, "failed"))
        add_problem(ns, PROBLEM_MIG_CONFIG_FAILED,
                    xasprintf("MIG manager failed to apply mig.config=%s; previous layout kept (see the "
                              "nvidia-mig-manager log)", g->mig_config ? g->mig_config : "?"));
    else if (str_eq(g->mig_config_state, "pending") || str_eq(g->mig_config_state, "rebooting"))
        add_problem(ns, PROBLEM_MIG_CONFIG_PENDING,
                    xasprintf("MIG reconfiguration to mig.config=%s in progress (%s): GPU resources change "
                              "when it completes", g->mig_config ? g->mig_config : "?", g->mig_config_state));
    for (size_t i = 0; i < ns->nres; i++) {
        const ResourceAlloc *r = &ns->res[i];
        if (r->allocatable < r->capacity)
            add_problem(ns, PROBLEM_UNHEALTHY,
                        xasprintf("%s: allocatable %lld < capacity %lld (%lld unhealthy)", r->name,
                                  (long long)r->allocatable, (long long)r->capacity,
                                  (long long)(r->capacity - r->allocatable)));
    }
    /* a cloud's labels naming the GPU (GKE, EKS, AKS; node.h's product order) stand in for GFD */
    if (!g->has_gfd && advertised && !g->product)
        add_problem(ns, PROBLEM_MISSING_GFD,
                    xstrdup("GPUs advertised without GPU Feature Discovery labels: product, memory, MIG and "
                            "sharing unknown"));
    if (ns->nproblems > 1) qsort(ns->problems, ns->nproblems, sizeof *ns->problems, cmp_problem);
}

/* the node's GPU health (health.h): a problem line naming the unhealthy GPUs and why, and each
 * device's reason */
static void node_gpu_health(NodeStatus *ns, const Node *n, const UsageData *usage)
{
    health_node(n, ns->inv, usage, &ns->health);
    const NodeHealth *h = &ns->health;
    for (size_t i = 0; i < ns->ngpus; i++)
        if (!ns->gpus[i].beyond_node) ns->gpus[i].unhealthy = health_gpu(h, ns->gpus[i].index);
    if (!h->ngpus && !h->node_tainted) return;          /* the device plugin's shortfall: Unhealthy */
    Strbuf sb = STRBUF_INIT;
    if (h->ngpus) {
        strbuf_addf(&sb, "%zu GPU%s unhealthy:", h->ngpus, h->ngpus == 1 ? "" : "s");
        for (size_t i = 0; i < h->ngpus; i++)
            strbuf_addf(&sb, "%s GPU %d %s", i ? ";" : "", h->gpus[i].index, h->gpus[i].why);
    } else {
        strbuf_adds(&sb, "a GPU health agent marked the node");
    }
    for (size_t i = 0; i < h->signals.n; i++)
        if (str_starts_with(h->signals.v[i], "taint ")) strbuf_addf(&sb, " (%s)", h->signals.v[i]);
    add_problem(ns, PROBLEM_GPU_HEALTH, strbuf_detach(&sb));
    if (ns->nproblems > 1) qsort(ns->problems, ns->nproblems, sizeof *ns->problems, cmp_problem);
}

/* the GPU resources a holder holds (status_build sizes the status's one array by it) */
static bool holder_res(const ResourceEntry *e) { return resources_is_gpu(e->name) && e->milli > 0; }

/* the next holder of ns (its slice has room: counted); its resources are the pool's copy,
 * shared by every holder that holds the same (the cluster's pooled names, the same counts:
 * most hold "nvidia.com/gpu" x 1, 2, 4 or 8), not a slot of an array per holder (0.8 MB at
 * 51,819 holders) */
static void add_holder(NodeStatus *ns, const Pod *p, StrPool *pool, size_t *rescap)
{
    HolderPod *h = &ns->pods[ns->npods++];
    memset(h, 0, sizeof *h);
    h->ns = p->ns;
    h->name = p->name;
    h->phase = p->phase;
    HolderRes few[8], *res = p->requests.n <= 8 ? few : xcalloc(p->requests.n, sizeof *res);
    for (size_t i = 0; i < p->requests.n; i++) {
        const ResourceEntry *e = &p->requests.items[i];
        if (!holder_res(e)) continue;
        int64_t u = units(e->milli);
        res[h->nres++] = (HolderRes){ e->name, u };
        res_row(ns, e->name, rescap)->allocated += u;
    }
    h->res = strpool_intern_mem(pool, res, h->nres * sizeof *res);
    if (res != few) free(res);
}

/* a reading DCGM cannot mean (utilization outside 0-100, memory used above the device's total,
 * not finite) is flagged and left unknown, never printed as "15000%" or "inf%" */
static void device_ranges(NodeStatus *ns, GpuDevice *g, Strvec *warnings)
{
    if (!isnan(g->util) && (!isfinite(g->util) || g->util < 0 || g->util > 100)) {
        strvec_pushf(warnings, "metrics: node %s GPU %d: utilization %g is outside 0-100; not shown", ns->name,
                     g->index, g->util);
        g->util = NAN;
        g->util_out_of_range = true;
    }
    bool mem_bad = !isnan(g->mem_used_mib) && (!isfinite(g->mem_used_mib) || g->mem_used_mib < 0 ||
                   (!isnan(g->mem_total_mib) && g->mem_total_mib > 0 && g->mem_used_mib > g->mem_total_mib * 1.01));
    if (mem_bad) {
        strvec_pushf(warnings, "metrics: node %s GPU %d: memory used %g MiB is more than the device's %g MiB; not shown",
                     ns->name, g->index, g->mem_used_mib, g->mem_total_mib);
        g->mem_used_mib = NAN;
        g->mem_out_of_range = true;
    }
    if (!isnan(g->mem_total_mib) && (!isfinite(g->mem_total_mib) || g->mem_total_mib < 0)) g->mem_total_mib = NAN;
    if (!(g->temp_c > 0 && g->temp_c < 200)) g->temp_c = NAN;          /* 0: not served (zeroed) */
    if (!(g->power_w > 0 && g->power_w < 10000)) g->power_w = NAN;
}

/* idle physical GPUs: a GPU index is idle when something on it is held and every held device
 * on it (the whole GPU, or each of its MIG instances) is idle; devices on indices the node does
 * not have are a metrics mismatch (a warning), not counted */
static int idle_physical(NodeStatus *ns, Strvec *warnings)
{
    int physical = ns->inv->physical, idle = 0;
    for (size_t i = 0; i < ns->ngpus; i++) {
        GpuDevice *g = &ns->gpus[i];
        if (physical >= 0 && (g->index < 0 || g->index >= physical)) {
            g->beyond_node = true;
            g->idle_allocated = false;                 /* not a GPU of this node to be idle */
            ns->metrics_beyond++;
        }
    }
    if (ns->metrics_beyond)
        strvec_pushf(warnings, "metrics: node %s: %d DCGM device(s) on GPU indices the node does not have (%d GPU%s): "
                     "not counted (another node's exporter, or a wrong Hostname label?)", ns->name, ns->metrics_beyond,
                     physical, physical == 1 ? "" : "s");
    for (size_t i = 0; i < ns->ngpus;) {               /* devices are sorted by index */
        size_t j = i;
        bool held = false, all_idle = true;
        for (; j < ns->ngpus && ns->gpus[j].index == ns->gpus[i].index; j++) {
            const GpuDevice *g = &ns->gpus[j];
            if (g->holders <= 0 && !g->pod) continue;
            held = true;
            if (!g->idle_allocated) all_idle = false;
        }
        if (!ns->gpus[i].beyond_node && held && all_idle) idle++;
        i = j;
    }
    return idle;
}

static void node_usage(NodeStatus *ns, const UsageData *u, Strvec *warnings)
{
    ns->mem_used_mib = ns->mem_total_mib = ns->util = NAN;
    size_t n = usage_node_gpus(u, ns->name, NULL, 0);
    if (n > 0) {
        const GpuUsage **dev = xcalloc(n, sizeof *dev);
        usage_node_gpus(u, ns->name, dev, n);
        ns->gpus = xcalloc(n, sizeof *ns->gpus);
        ns->ngpus = n;
        for (size_t i = 0; i < n; i++) {
            const GpuUsage *d = dev[i];
            GpuDevice *g = &ns->gpus[i];
            g->index = d->gpu;
            g->uuid = d->uuid;                   /* the usage's strings: borrowed (allocation.h) */
            g->mig_profile = d->mig_profile;
            g->mig_instance = d->mig_instance;
            g->mem_used_mib = d->mem_used_mib;
            g->mem_total_mib = d->mem_total_mib;
            g->util = d->util;
            g->holders = d->holders > 0 ? d->holders : (d->pod ? 1 : 0);
            if (d->pod && g->holders <= 1) { g->pod_ns = d->ns; g->pod = d->pod; }
            g->idle_allocated = usage_is_idle_allocated(u, d);
            g->temp_c = d->temp_c;
            g->power_w = d->power_w;
            device_ranges(ns, g, warnings);
        }
        free(dev);
        ns->idle_allocated = idle_physical(ns, warnings);
        double used = 0, total = 0, usum = 0;
        size_t nused = 0, ntotal = 0, nutil = 0;
        for (size_t i = 0; i < n; i++) {
            const GpuDevice *g = &ns->gpus[i];
            if (g->beyond_node) continue;
            if (!isnan(g->mem_used_mib)) { used += g->mem_used_mib; nused++; }
            if (!isnan(g->mem_total_mib)) { total += g->mem_total_mib; ntotal++; }
            if (!isnan(g->util)) { usum += g->util; nutil++; }
        }
        if (nused) ns->mem_used_mib = used;
        if (ntotal) ns->mem_total_mib = total;
        if (nutil) ns->util = usum / (double)nutil;
    }
    for (size_t i = 0; i < ns->npods; i++) {
        HolderPod *h = &ns->pods[i];
        HolderUsage *hu = &ns->pod_usage[i];
        hu->mem_used_mib = hu->util = NAN;
        h->has_usage = usage_for_pod(u, h->ns, h->name, &hu->mem_used_mib, &hu->util);
        /* as the devices' (device_ranges): impossible readings are not shown */
        if (!isnan(hu->util) && (!isfinite(hu->util) || hu->util < 0 || hu->util > 100)) hu->util = NAN;
        if (!isnan(hu->mem_used_mib) && (!isfinite(hu->mem_used_mib) || hu->mem_used_mib < 0 ||
                                         (ns->memory_mib > 0 && hu->mem_used_mib > (double)ns->memory_mib * 1.01)))
            hu->mem_used_mib = NAN;
        for (size_t k = 0; k < ns->ngpus; k++) {       /* a device of its out of range: so is its sum */
            const GpuDevice *g = &ns->gpus[k];
            if (!g->pod || !str_eq(g->pod, h->name) || !str_eq(g->pod_ns, h->ns)) continue;
            if (g->mem_out_of_range) hu->mem_used_mib = NAN;
            if (g->util_out_of_range) hu->util = NAN;
        }
    }
}

/* its strings are the Cluster's, the usage's or the status's pool; its holders the status's */
static void node_status_release(NodeStatus *ns)
{
    health_clear(&ns->health);
    node_dra_status_clear(&ns->dra);
    free(ns->res);
    free(ns->gpus);
    for (size_t i = 0; i < ns->nproblems; i++) free(ns->problems[i].message);
    free(ns->problems);
}

/* ------------------------------------------------------------------ GPU Operator */

/* a DaemonSet that belongs to the GPU stack (the cluster keeps every DaemonSet of
 * kube-system too, kube-proxy included) */
static bool gpu_component(const DaemonSet *d, const char *operator_ns)
{
    const char *n = d->name, *a = d->app ? d->app : "";
    static const char *const words[] = { "nvidia", "gpu-feature-discovery", "dcgm", "device-plugin",
                                         "mig-manager", "gpu-operator" };
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strstr(n, words[i]) || strstr(a, words[i])) return true;
    /* the operator's NFD subchart: only inside the operator's namespace */
    return operator_ns && str_eq(d->ns, operator_ns) && strstr(n, "node-feature-discovery");
}

static bool operator_operand(const char *name)
{
    static const char *const operands[] = { "nvidia-operator-validator", "nvidia-driver-daemonset",
                                            "nvidia-container-toolkit-daemonset" };
    for (size_t i = 0; i < sizeof operands / sizeof *operands; i++)
        if (str_eq(name, operands[i])) return true;
    return false;
}

const char *status_operator_namespace(const Cluster *c, OperatorKind *kind)
{
    const char *ns = NULL;
    OperatorKind k = OPERATOR_NONE;
    static const char *const known[] = { "gpu-operator", "nvidia-gpu-operator" };
    for (size_t j = 0; j < 2 && !ns; j++)
        for (size_t i = 0; i < c->ndaemonsets && !ns; i++)
            if (str_eq(c->daemonsets[i].ns, known[j]) && gpu_component(&c->daemonsets[i], NULL)) ns = known[j];
    for (size_t i = 0; i < c->ndaemonsets && !ns; i++)
        if (operator_operand(c->daemonsets[i].name)) ns = c->daemonsets[i].ns;
    if (ns) k = OPERATOR_GPU_OPERATOR;
    for (size_t i = 0; i < c->ndaemonsets && !ns; i++)
        if (strstr(c->daemonsets[i].name, "device-plugin") ||
            (c->daemonsets[i].app && strstr(c->daemonsets[i].app, "device-plugin"))) {
            ns = c->daemonsets[i].ns;
            k = OPERATOR_DEVICE_PLUGIN;
        }
    if (kind) *kind = k;
    return ns;
}

static void find_operator(GpuStatus *st, const Cluster *c)
{
    OperatorKind kind;
    const char *ns = status_operator_namespace(c, &kind);
    st->operator_kind = kind;
    st->operator_ns = xstrdup(ns);
    for (size_t i = 0; i < c->ndaemonsets; i++) {
        const DaemonSet *d = &c->daemonsets[i];
        if (!gpu_component(d, ns)) continue;
        st->components = xrealloc(st->components, (st->ncomponents + 1) * sizeof *st->components);
        st->components[st->ncomponents++] = (ComponentStatus){ xstrdup(d->ns), xstrdup(d->name), d->desired, d->ready };
    }
    if (st->ncomponents > 1) qsort(st->components, st->ncomponents, sizeof *st->components, cmp_component);
    /* the operator's namespace first */
    if (ns) {
        size_t w = 0;
        ComponentStatus *sorted = xcalloc(st->ncomponents ? st->ncomponents : 1, sizeof *sorted);
        for (int pass = 0; pass < 2; pass++)
            for (size_t i = 0; i < st->ncomponents; i++)
                if (str_eq(st->components[i].ns, ns) == (pass == 0)) sorted[w++] = st->components[i];
        free(st->components);
        st->components = sorted;
    }
    /* the loader words a refused optional list "daemonsets: <why> (<consequence>)" */
    for (size_t i = 0; i < c->warnings.n; i++)
        if (str_starts_with(c->warnings.v[i], "daemonsets:")) st->daemonsets_unreadable = true;
    st->clusterpolicy_name = xstrdup(c->clusterpolicy_name);
    st->clusterpolicy_state = xstrdup(c->clusterpolicy_state);
    st->clusterpolicy_checked = c->clusterpolicy_checked || c->clusterpolicy_name;
}

/* ------------------------------------------------------------------ the whole status */

static bool wanted(const StatusFilter *f, const char *name)
{
    if (!f || !f->nodes) return true;
    for (size_t i = 0; i < f->nnodes; i++) if (str_eq(f->nodes[i], name)) return true;
    return false;
}

/* -n: the node's holder list keeps only the pods of namespace ns (they were counted in the
 * node's allocation already: free GPUs depend on every namespace's pods) */
static void keep_pods_of(NodeStatus *node, const char *ns)
{
    size_t k = 0;
    for (size_t i = 0; i < node->npods; i++)
        if (str_eq(node->pods[i].ns, ns)) node->pods[k++] = node->pods[i];
    node->npods = k;
}

void status_build(GpuStatus *st, const Cluster *c, const UsageData *usage, const StatusFilter *filter)
{
    memset(st, 0, sizeof *st);
    st->idle_allocated_gpus = -1;

    /* GPU pods holding resources, per node index, and the GPU resources they hold */
    size_t *held = c->nnodes ? xcalloc(c->nnodes, sizeof *held) : NULL;
    for (size_t i = 0; i < c->npods; i++) {
        const Pod *p = &c->pods[i];
        if (pod_is_pending_unbound(p) && (pod_requests_gpu(p) || explain_dra_applies(c, p)) &&
            (!filter || !filter->pods_ns || str_eq(p->ns, filter->pods_ns)))
            st->pending_gpu_pods++;
        if (!pod_holds_resources(p) || !pod_requests_gpu(p)) continue;
        const Node *n = cluster_find_node(c, p->node_name);
        if (!n) continue;
        held[cluster_node_index(c, n)]++;
    }

    /* which nodes are shown, and which of them are GPU nodes */
    size_t *slot = c->nnodes ? xcalloc(c->nnodes, sizeof *slot) : NULL;   /* node index -> list index + 1 */
    size_t ngpu = 0;
    for (size_t i = 0; i < c->nnodes; i++) {
        const Node *n = &c->nodes[i];
        if (!wanted(filter, n->name)) continue;
        st->nodes++;
        if (node_is_gpu_node(n) || held[i] > 0 || status_node_has_dra(c, n)) slot[i] = ++ngpu;
    }
    st->gpu_nodes = (int)ngpu;
    st->gpu_node_list = ngpu ? xcalloc(ngpu, sizeof *st->gpu_node_list) : NULL;
    st->strings = strpool_new();
    st->ngpu_node_list = ngpu;
    size_t *rescap = ngpu ? xcalloc(ngpu, sizeof *rescap) : NULL;
    /* the holders, counted above, in one array (each node a slice of it): no growth slack, no
     * block per node or per holder */
    size_t nholders = 0;
    for (size_t i = 0; i < c->nnodes; i++) if (slot[i]) nholders += held[i];
    st->holders = nholders ? xcalloc(nholders, sizeof *st->holders) : NULL;
    bool metrics = usage && usage->source && !str_eq(usage->source, "none");
    if (metrics && nholders) st->holder_usage = xcalloc(nholders, sizeof *st->holder_usage);
    nholders = 0;
    for (size_t i = 0; i < c->nnodes; i++) {
        if (!slot[i]) continue;
        NodeStatus *ns = &st->gpu_node_list[slot[i] - 1];
        explain_node_facts(ns, c, &c->nodes[i], st->strings);
        node_resources(ns, &c->nodes[i], &rescap[slot[i] - 1]);
        if (held[i]) ns->pods = st->holders + nholders;
        if (held[i] && st->holder_usage) ns->pod_usage = st->holder_usage + nholders;
        nholders += held[i];
    }
    for (size_t i = 0; i < c->npods; i++) {
        const Pod *p = &c->pods[i];
        if (!pod_holds_resources(p) || !pod_requests_gpu(p)) continue;
        const Node *n = cluster_find_node(c, p->node_name);
        if (!n) continue;
        size_t k = slot[cluster_node_index(c, n)];
        if (!k) continue;
        add_holder(&st->gpu_node_list[k - 1], p, st->strings, &rescap[k - 1]);
    }
    for (size_t i = 0; i < c->nnodes; i++) {
        if (!slot[i]) continue;
        NodeStatus *ns = &st->gpu_node_list[slot[i] - 1];
        prune_resources(ns);
        node_problems(ns, &c->nodes[i]);
        status_node_dra(ns, c, &c->nodes[i], st->strings);
        if (ns->npods > 1) qsort(ns->pods, ns->npods, sizeof *ns->pods, cmp_pod);
        if (filter && filter->pods_ns) keep_pods_of(ns, filter->pods_ns);   /* before pod_usage is filled */
        if (metrics) node_usage(ns, usage, &st->warnings);
        node_gpu_health(ns, &c->nodes[i], metrics ? usage : NULL);
    }
    if (filter && filter->pods_ns) st->pods_ns = xstrdup(filter->pods_ns);
    if (filter && filter->node_selector && *filter->node_selector) st->node_selector = xstrdup(filter->node_selector);
    st->nodes_named = filter && filter->nodes;
    free(held); free(slot); free(rescap);
    if (ngpu > 1) qsort(st->gpu_node_list, ngpu, sizeof *st->gpu_node_list, cmp_node);

    /* totals */
    size_t totcap = 0;
    if (metrics) st->idle_allocated_gpus = 0;
    for (size_t i = 0; i < ngpu; i++) {
        const NodeStatus *ns = &st->gpu_node_list[i];
        if (ns->inv->physical >= 0) st->physical_gpus += ns->inv->physical;
        else st->unknown_gpu_nodes++;
        if (ns->inv->physical >= 0 && ns->inv->physical_unsure) st->resource_counted_nodes++;
        if (metrics) st->idle_allocated_gpus += ns->idle_allocated;
        for (size_t j = 0; j < ns->nres; j++) {
            const ResourceAlloc *r = &ns->res[j];
            ResourceTotal *t = NULL;
            for (size_t k = 0; k < st->ntotals; k++)
                if (strcmp(st->totals[k].name, r->name) == 0) t = &st->totals[k];
            if (!t) {
                ARRAY_GROW(st->totals, st->ntotals, totcap);
                t = &st->totals[st->ntotals++];
                *t = (ResourceTotal){ 0, 0, xstrdup(r->name) };
            }
            t->allocatable += r->allocatable;
            t->allocated += r->allocated;
        }
    }
    for (size_t i = 1; i < st->ntotals; i++) {          /* insertion sort: a handful of names */
        ResourceTotal t = st->totals[i];
        size_t j = i;
        while (j > 0 && strcmp(st->totals[j - 1].name, t.name) > 0) { st->totals[j] = st->totals[j - 1]; j--; }
        st->totals[j] = t;
    }

    status_dra_totals(st, c);
    size_t waiting;
    st->nqueues = explain_queue_summaries(c, &st->queues, &waiting);
    st->waiting_workloads = (int)waiting;
    find_operator(st, c);

    st->has_metrics = metrics;
    st->metrics_source = xstrdup(usage && usage->source ? usage->source : "none");
    st->metrics_detail = xstrdup(usage && usage->detail ? usage->detail : "metrics not collected");
    st->idle_threshold = usage ? usage->idle_threshold : 0;
    st->window_s = usage ? usage->window_s : 0;
    for (size_t i = 0; i < c->warnings.n; i++) strvec_push(&st->warnings, c->warnings.v[i]);
    for (size_t i = 0; usage && i < usage->warnings.n; i++)   /* "metrics: " once, not twice */
        strvec_pushf(&st->warnings, "%s%s", str_starts_with(usage->warnings.v[i], "metrics: ") ? "" : "metrics: ",
                     usage->warnings.v[i]);
}

void status_clear(GpuStatus *st)
{
    for (size_t i = 0; i < st->ngpu_node_list; i++) node_status_release(&st->gpu_node_list[i]);
    free(st->holders);
    free(st->holder_usage);
    strpool_free(st->strings);
    free(st->gpu_node_list);
    for (size_t i = 0; i < st->ntotals; i++) free(st->totals[i].name);
    free(st->totals);
    for (size_t i = 0; i < st->ncomponents; i++) { free(st->components[i].ns); free(st->components[i].name); }
    free(st->components);
    free(st->operator_ns);
    free(st->pods_ns);
    free(st->node_selector);
    free(st->clusterpolicy_name); free(st->clusterpolicy_state);
    free(st->metrics_source); free(st->metrics_detail);
    strvec_clear(&st->warnings);
    explain_queue_summaries_free(st->queues, st->nqueues);
    memset(st, 0, sizeof *st);
}

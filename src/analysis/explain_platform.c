/* explain_platform.c — fixes in a managed platform's own terms.
 *
 * GKE: GKE partitions MIG GPUs per node pool (gcloud container node-pools create
 * --accelerator type=nvidia-tesla-a100,count=1,gpu-partition-size=1g.5gb) and its device plugin
 * advertises the partitions as nvidia.com/gpu; the node says its partition size in the label
 * cloud.google.com/gke-gpu-partition-size (https://cloud.google.com/kubernetes-engine/docs/how-to/gpus-multi:
 * "request nvidia.com/gpu and select cloud.google.com/gke-gpu-partition-size").  A pod asking
 * nvidia.com/mig-<P> is never served there; the GKE way is nvidia.com/gpu with that nodeSelector.
 * GKE's ExtendedResourceToleration admission adds the toleration of the nvidia.com/gpu taint to a
 * pod that requests nvidia.com/gpu, so the re-check adds it too.  Like every fix, it is printed
 * only when the pod so changed fits (explain_edit.c explain_recheck_fits); where no GKE node pool has the
 * partition size, the node-pool setting is a note (nothing to re-check it against).
 */
#include "explain_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/mig_tables.h"
#include "util/util.h"

#define GKE_PARTITION "cloud.google.com/gke-gpu-partition-size"
#define GKE_ACCEL "cloud.google.com/gke-accelerator"

static const Node *gke_node_with_partition(const Ctx *x, const char *profile)
{
    for (size_t i = 0; i < x->c->nnodes; i++) {
        const Node *n = &x->c->nodes[i];
        if (n->gpu.cloud_partition && str_eq(n->gpu.cloud_partition, profile)) return n;
    }
    return NULL;
}

/* a GKE node whose GPU model offers the profile (the pool that could be partitioned so) */
static const Node *gke_node_for_profile(const Ctx *x, const char *profile)
{
    for (size_t i = 0; i < x->c->nnodes; i++) {
        const Node *n = &x->c->nodes[i];
        if (!kv_get(&n->labels, GKE_ACCEL) || !n->gpu.base_product) continue;
        const MigGpuModel *m = mig_model_for_product(n->gpu.base_product);
        if (m && mig_model_profile(m, profile)) return n;
    }
    return NULL;
}

static void fixes_gke_mig(Ctx *x)
{
    if (!resources_is_mig(x->gpu)) return;
    char *profile = resources_mig_profile(x->gpu);
    if (!profile) return;
    const Node *pool = gke_node_with_partition(x, profile);
    if (!pool) {
        const Node *cand = gke_node_for_profile(x, profile);
        if (cand)
            strvec_pushf(&x->e->notes, "on GKE, MIG is a node-pool setting: a node pool created with --accelerator "
                         "type=%s,count=N,gpu-partition-size=%s advertises %s partitions as nvidia.com/gpu (node %s "
                         "has the GPU for it, not the partitioning)", kv_get(&cand->labels, GKE_ACCEL), profile, profile,
                         cand->name);
        free(profile);
        return;
    }
    int64_t units = explain_milli_units(x->gpu_req);
    PodEdit d;
    explain_edit_begin(&d, x->p);
    rlist_set(&d.req, x->gpu, 0);
    rlist_set(&d.req, "nvidia.com/gpu", x->gpu_req);
    kv_set(&d.sel, GKE_PARTITION, profile);
    d.tol = xrealloc(d.tol, (d.ntol + 1) * sizeof *d.tol);       /* what GKE's admission adds */
    d.tol[d.ntol++] = (Toleration){ "nvidia.com/gpu", "Exists", NULL, "NoSchedule" };
    explain_edit_sync(&d);
    Strvec names = STRVEC_INIT;
    char *where = NULL;
    const Node *at = explain_landing(x, &d.q, pool, &names, &where);
    if (at) {
        FixInfo *fi = explain_fix_add(x, names.n ? EFFORT_END_PODS : EFFORT_POD,
                              "on GKE, MIG partitions are advertised as nvidia.com/gpu: request nvidia.com/gpu instead of "
                              "%s and select the partition size (node %s; %s; GKE adds the toleration of the "
                              "nvidia.com/gpu taint to pods that request nvidia.com/gpu):\n  resources:\n    limits:\n"
                              "      nvidia.com/gpu: %lld\n  nodeSelector:\n    " GKE_PARTITION ": \"%s\"",
                              x->gpu, at->name, where, (long long)units, profile);
        if (fi) {
            fi->fits_on = xstrdup(at->name);
            rlist_set(&fi->requests, x->gpu, 0);
            rlist_set(&fi->requests, "nvidia.com/gpu", x->gpu_req);
            kv_set(&fi->selector, GKE_PARTITION, profile);
            explain_info_end_pods(fi, &names);
        }
    }
    free(where);
    strvec_clear(&names);
    explain_edit_end(&d);
    free(profile);
}

/* NoDevicePlugin on a managed cloud: how that cloud puts the driver and device plugin there
 * (GKE: https://cloud.google.com/kubernetes-engine/docs/how-to/gpus "gpu-driver-version";
 * AKS: https://learn.microsoft.com/azure/aks/gpu-cluster, the device plugin is the user's to
 * install; EKS: https://docs.aws.amazon.com/eks/latest/userguide/ml-eks-optimized-ami.html, the
 * accelerated AMIs carry the driver, the NVIDIA device plugin DaemonSet is the user's) */
static void notes_no_plugin(Ctx *x)
{
    bool gke = false, aks = false, eks = false;
    for (size_t i = 0; i < x->e->nnodes; i++) {
        const NodeResult *r = &x->e->nodes[i];
        if (!x->flags[i].admits || !r->node || !explain_has_code(r, NR_NO_DEVICE_PLUGIN)) continue;
        ProductSource s = r->node->gpu.product_src;
        if (kv_get(&r->node->labels, GKE_ACCEL)) gke = true;
        else if (kv_get(&r->node->labels, "kubernetes.azure.com/accelerator") || s == PRODUCT_SRC_AKS) aks = true;
        else if (s == PRODUCT_SRC_EKS || s == PRODUCT_SRC_KARPENTER || kv_get(&r->node->labels, "k8s.amazonaws.com/accelerator"))
            eks = true;
    }
    if (gke)
        strvec_push(&x->e->notes, "on GKE the node pool installs the driver and device plugin when created with "
                    "--accelerator type=...,count=N,gpu-driver-version=default (or latest); a pool with "
                    "gpu-driver-version=disabled needs NVIDIA's driver installer DaemonSet");
    if (aks)
        strvec_push(&x->e->notes, "on AKS the GPU node pool has the driver but not the NVIDIA device plugin: install "
                    "its DaemonSet (AKS GPU guide) or the GPU Operator");
    if (eks)
        strvec_push(&x->e->notes, "on EKS the accelerated AMIs carry the driver, not the device plugin: install the "
                    "NVIDIA device plugin DaemonSet (or the GPU Operator) on these nodes");
}

void explain_platform_fixes(Ctx *x)
{
    if (x->e->verdict == V_GATED || x->e->verdict == V_QUOTA) return;
    fixes_gke_mig(x);
    if (x->e->verdict == V_NO_DEVICE_PLUGIN) notes_no_plugin(x);
}

/* ---------------------------------------------------------------- HAMi
 *
 * HAMi (Project-HAMi/HAMi at 4707fb02) splits each GPU into `count` vGPUs and schedules memory
 * (nvidia.com/gpumem, MiB; or nvidia.com/gpumem-percentage of the GPU's) and cores
 * (nvidia.com/gpucores, percent) per GPU with its own scheduler extender, which takes those names
 * from kube-scheduler (charts/hami/templates/_helpers.tpl: ignoredByScheduler).  Its fit per GPU
 * (pkg/device/nvidia/device.go Fit): a free vGPU slot (used < count), devmem - used memory >=
 * the request, devcore - used cores >= the cores asked, a 100 % core request only on an unused
 * GPU, a 0 % core request not on a GPU whose cores are all used; unhealthy GPUs never.  What the
 * pods bound to a node use comes from their hami.io/vgpu-devices-allocated annotation
 * ("UUID,Type,MiB,cores:" per device, ";" between containers; pkg/device/devices.go
 * EncodeContainerDevices).  The scheduler's own words for a GPU that does not fit are
 * CardInsufficientMemory / CardInsufficientCore / CardTimeSlicingExhausted
 * (pkg/device/common/common.go:30).
 */

typedef struct { int used; int64_t mem; int cores; Strvec holders; } HamiUse;

/* the devices the node's bound pods were given, per registered GPU */
static void hami_usage(const Ctx *x, const NodeFacts *f, HamiUse *use)
{
    const Node *n = f->node;
    for (size_t k = 0; k < f->bound.n; k++) {
        const Pod *q = &x->c->pods[f->bound.v[k]];
        if (!pod_more(q)->hami_devices || !pod_holds_resources(q)) continue;
        char *copy = xstrdup(pod_more(q)->hami_devices), *save = NULL;
        for (char *dev = strtok_r(copy, ":;", &save); dev; dev = strtok_r(NULL, ":;", &save)) {
            char *f4[4] = { dev, NULL, NULL, NULL };
            for (int j = 1; j < 4; j++) {
                char *c = f4[j - 1] ? strchr(f4[j - 1], ',') : NULL;
                if (!c) break;
                *c = '\0';
                f4[j] = c + 1;
            }
            if (!f4[3]) continue;
            int64_t mem, cores;
            if (!str_to_int64(f4[2], &mem) || !str_to_int64(f4[3], &cores) || mem < 0 || cores < 0) continue;
            for (size_t d = 0; d < n->gpu.nhami; d++) {
                if (!str_eq(n->gpu.hami[d].uuid, f4[0])) continue;
                use[d].used++;
                use[d].mem += mem;
                use[d].cores += (int)(cores > 100 ? 100 : cores);
                strvec_pushf(&use[d].holders, "%s/%s %lld MiB", q->ns, q->name, (long long)mem);
            }
        }
        free(copy);
    }
}

typedef struct { int64_t n, mem, pct, cores; } HamiAsk;

static int64_t ask_units(const Pod *p, const char *name) { return explain_milli_units(rlist_get(&p->requests, name)); }

static bool hami_device_fits(const HamiDevice *d, const HamiUse *u, const HamiAsk *a)
{
    int64_t mem = a->mem > 0 ? a->mem : d->devmem_mib * (a->pct > 0 ? a->pct : 100) / 100;
    if (!d->healthy || u->used >= d->count) return false;
    if (d->devmem_mib - u->mem < mem || d->devcore - u->cores < a->cores) return false;
    if (a->cores >= 100 && u->used > 0) return false;
    if (d->devcore && u->cores >= d->devcore && a->cores == 0) return false;
    return true;
}

/* the node's row says what HAMi's fit says: Insufficient of the memory (or cores) the pod asks
 * per GPU, with the most any one GPU has free */
static void hami_node_reason(Ctx *x, size_t i, const Node *n, const HamiUse *use, const HamiAsk *a)
{
    NodeResult *r = &x->e->nodes[i];
    int64_t best_mem = 0, best_cores = 0, devmem = 0;
    for (size_t d = 0; d < n->gpu.nhami; d++) {
        const HamiDevice *g = &n->gpu.hami[d];
        if (!g->healthy || use[d].used >= g->count) continue;
        if (g->devmem_mib - use[d].mem > best_mem) best_mem = g->devmem_mib - use[d].mem;
        if (g->devcore - use[d].cores > best_cores) best_cores = g->devcore - use[d].cores;
        if (g->devmem_mib > devmem) devmem = g->devmem_mib;
    }
    int64_t mem = a->mem > 0 ? a->mem : devmem * (a->pct > 0 ? a->pct : 100) / 100;
    bool by_mem = best_mem < mem || best_cores >= a->cores;
    r->reasons = xrealloc(r->reasons, (r->nreasons + 1) * sizeof *r->reasons);
    NodeReason *nr = &r->reasons[r->nreasons++];
    memset(nr, 0, sizeof *nr);
    nr->code = NR_INSUFFICIENT;
    nr->resource = xstrdup(by_mem ? "nvidia.com/gpumem" : "nvidia.com/gpucores");
    nr->requested = (by_mem ? mem : a->cores) * 1000;
    nr->free = (by_mem ? best_mem : best_cores) * 1000;
    nr->allocatable = (by_mem ? devmem : 100) * 1000;
    x->flags[i].cls = CL_BUSY;
    x->e->node_rank[i] = 1;
}

/* "node: GPU 0 1024 MiB, 10% free (held by ns/a), ..." after "; " when busy has text */
static void hami_busy_text(Strbuf *busy, const Node *n, const HamiUse *use)
{
    strbuf_addf(busy, "%s%s:", busy->len ? "; " : "", n->name);
    for (size_t d = 0; d < n->gpu.nhami; d++) {
        const HamiDevice *g = &n->gpu.hami[d];
        strbuf_addf(busy, "%s GPU %d %lld MiB, %d%% free", d ? "," : "", g->index,
                    (long long)(g->devmem_mib - use[d].mem), g->devcore - use[d].cores);
        if (!g->healthy) strbuf_adds(busy, " (unhealthy)");
        else if (use[d].used >= g->count) strbuf_addf(busy, " (all %d vGPUs taken)", g->count);
        for (size_t h = 0; h < use[d].holders.n; h++)
            strbuf_addf(busy, "%s%s", h ? ", " : " (held by ", use[d].holders.v[h]);
        if (use[d].holders.n) strbuf_adds(busy, ")");
    }
}

void explain_hami_verdict(Ctx *x)
{
    const Pod *p = x->p;
    bool asks = rlist_get(&p->requests, "nvidia.com/gpumem") > 0 || rlist_get(&p->requests, "nvidia.com/gpucores") > 0 ||
                rlist_get(&p->requests, "nvidia.com/gpumem-percentage") > 0;
    if (!(asks || str_eq(pod_more(p)->scheduler_name, "hami-scheduler")) || !explain_hami_present(x->ix)) return;
    HamiAsk a = { ask_units(p, "nvidia.com/gpu"), ask_units(p, "nvidia.com/gpumem"),
                  ask_units(p, "nvidia.com/gpumem-percentage"), ask_units(p, "nvidia.com/gpucores") };
    if (a.n <= 0) a.n = 1;                     /* HAMi's webhook: defaultGPUNum 1 */
    if (a.cores > 100) a.cores = 100;
    Strbuf what = STRBUF_INIT;
    strbuf_addf(&what, "%lld vGPU%s with ", (long long)a.n, a.n == 1 ? "" : "s");
    if (a.mem > 0) strbuf_addf(&what, "%lld MiB", (long long)a.mem);
    else strbuf_addf(&what, "%lld%% of the memory", (long long)(a.pct > 0 ? a.pct : 100));
    strbuf_addf(&what, " and %lld%% of the cores each", (long long)a.cores);
    const Node *fits = NULL;
    bool could = false, admitted = false;
    Strbuf busy = STRBUF_INIT;
    Strvec more = STRVEC_INIT;         /* busy nodes past the first NODES_TOLD: named only */
    size_t told = 0;
    for (size_t i = 0; i < x->e->nnodes && !fits; i++) {
        const NodeFacts *f = &x->ix->nodes[i];
        const Node *n = f->node;
        if (!n->gpu.nhami || !x->flags[i].admits || !n->ready || n->unschedulable) continue;
        admitted = true;
        HamiUse *use = xcalloc(n->gpu.nhami, sizeof *use);
        hami_usage(x, f, use);
        int64_t ok = 0, ever = 0;
        for (size_t d = 0; d < n->gpu.nhami; d++) {
            const HamiDevice *g = &n->gpu.hami[d];
            HamiUse none = { 0, 0, 0, STRVEC_INIT };
            if (hami_device_fits(g, &use[d], &a)) ok++;
            if (hami_device_fits(g, &none, &a)) ever++;
        }
        if (ever >= a.n) could = true;
        if (ok >= a.n) fits = n;
        else if (ever >= a.n) {
            hami_node_reason(x, i, n, use, &a);
            if (told++ < NODES_TOLD) hami_busy_text(&busy, n, use);   /* GPU by GPU */
            else strvec_push(&more, n->name);
        }
        for (size_t d = 0; d < n->gpu.nhami; d++) strvec_clear(&use[d].holders);
        free(use);
    }
    if (more.n) {
        strbuf_addf(&busy, "; %zu more node%s with such GPUs %s busy too: ", more.n, more.n == 1 ? "" : "s",
                    more.n == 1 ? "is" : "are");
        explain_add_names(&busy, &more);
    }
    strvec_clear(&more);
    if (!admitted) { strbuf_clear(&what); strbuf_clear(&busy); return; }   /* its selector/taints decide */
    char *s;
    if (fits) {
        x->e->verdict = V_UNKNOWN;
        s = xasprintf("HAMi: asks %s; node %s has such GPUs free now: is HAMi's scheduler (schedulerName %s) "
                      "running and binding?", strbuf_str(&what), fits->name, pod_more(p)->scheduler_name ? pod_more(p)->scheduler_name : "?");
    } else if (could) {
        x->e->verdict = V_INSUFFICIENT;
        s = xasprintf("HAMi: asks %s; no GPU has that free now (CardInsufficientMemory/Core): %s", strbuf_str(&what),
                      strbuf_str(&busy));
    } else {
        x->e->verdict = V_TOO_LARGE;
        s = xasprintf("HAMi: asks %s; no registered GPU the pod admits is that large even when empty", strbuf_str(&what));
    }
    free(x->e->summary);
    x->e->summary = s;
    strbuf_clear(&what);
    strbuf_clear(&busy);
}

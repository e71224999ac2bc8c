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
 * only when the pod so changed fits (explain_fixes.c recheck_fits); where no GKE node pool has the
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
    if (!resource_is_mig(x->gpu)) return;
    char *profile = resource_mig_profile(x->gpu);
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
    int64_t units = milli_units(x->gpu_req);
    PodEdit d;
    edit_begin(&d, x->p);
    rlist_set(&d.req, x->gpu, 0);
    rlist_set(&d.req, "nvidia.com/gpu", x->gpu_req);
    kv_set(&d.sel, GKE_PARTITION, profile);
    d.tol = xrealloc(d.tol, (d.ntol + 1) * sizeof *d.tol);       /* what GKE's admission adds */
    d.tol[d.ntol++] = (Toleration){ "nvidia.com/gpu", "Exists", NULL, "NoSchedule" };
    edit_sync(&d);
    Strvec names = STRVEC_INIT;
    char *where = NULL;
    const Node *at = landing(x, &d.q, pool, &names, &where);
    if (at) {
        FixInfo *fi = fix_add(x, names.n ? EFFORT_END_PODS : EFFORT_POD,
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
            info_end_pods(fi, &names);
        }
    }
    free(where);
    strvec_clear(&names);
    edit_end(&d);
    free(profile);
}

void explain_platform_fixes(Ctx *x)
{
    if (x->e->verdict == V_GATED || x->e->verdict == V_QUOTA) return;
    fixes_gke_mig(x);
}

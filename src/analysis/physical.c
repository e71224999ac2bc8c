/* physical.c — physical GPUs in use, free and unavailable (physical.h states the rules). */
#include "analysis/physical.h"
#include "model/mig_capability.h"
#include "model/mig_tables.h"
#include "util/util.h"
#include <stdlib.h>
#include <string.h>

static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }

static bool has_problem(const NodeStatus *n, ProblemCode c)
{
    for (size_t i = 0; i < n->nproblems; i++) if (n->problems[i].code == c) return true;
    return false;
}

/* compute slices of a MIG resource's profile ("nvidia.com/mig-3g.40gb" -> 3); 1 when unreadable */
static int mig_compute(const char *resource)
{
    const char *p = strstr(resource, "mig-");
    if (!p) return 1;
    int c = atoi(p + 4);
    return c > 0 && c <= 8 ? c : 1;
}

PhysicalUse physical_use_node(const NodeStatus *n)
{
    PhysicalUse u = { 0, 0, 0, 0, 0 };
    int phys = n->inv->physical;
    if (phys <= 0) return u;
    if (!n->ready || has_problem(n, PROBLEM_NO_DEVICE_PLUGIN) || has_problem(n, PROBLEM_MIG_INVALID)) {
        u.unavailable = phys;
        return u;
    }
    bool shared = n->sharing != SHARING_NONE;
    int R = n->replicas;                  /* 0: shared with replicas unknown */
    int64_t whole = 0, replicas = 0, mig_devices = 0, mig_slices = 0, unhealthy = 0;
    for (size_t i = 0; i < n->nres; i++) {
        const ResourceAlloc *r = &n->res[i];
        int64_t bad = r->capacity > r->allocatable ? r->capacity - r->allocatable : 0;
        bool is_mig = strstr(r->name, "/mig-") != NULL || (n->mig_strategy == MIG_SINGLE && n->mig_enabled &&
                                                          str_eq(r->name, "nvidia.com/gpu"));
        if (is_mig) {
            int c = n->mig_single_profile && !strstr(r->name, "/mig-") ? atoi(n->mig_single_profile) : mig_compute(r->name);
            mig_devices += r->allocated;
            mig_slices += r->allocated * (c > 0 ? c : 1);
        } else if (shared && (str_eq(r->name, "nvidia.com/gpu") || str_eq(r->name, "nvidia.com/gpu.shared"))) {
            replicas += r->allocated;
            if (bad) unhealthy += R > 0 ? (bad + R - 1) / R : 1;
        } else if (str_starts_with(r->name, "nvidia.com/gpu")) {
            whole += r->allocated;
            unhealthy += bad;
        }
    }
    /* GPUs a health signal names (health.h: agent conditions, DCGM XID / ECC) are unavailable
     * too; the device plugin's shortfall is the same GPUs, so the larger count */
    u.unavailable = (int)imin(phys, (int)imax((int)unhealthy, health_count(&n->health)));
    int healthy = phys - u.unavailable;
    const MigGpuModel *m = mig_model_for_product(n->base_product ? n->base_product : n->product);
    int per_gpu = m ? m->compute_slices : 7;
    /* single strategy without a product (its profile from mig.config, node.c): the devices per
     * GPU every MIG table agrees on, one device at a time (3g.40gb: 2 per GPU, not 7/3) */
    int per_dev = !m && !n->product && n->mig_single_profile ? mig_profile_per_gpu(NULL, n->mig_single_profile) : -1;
    if (per_dev > 0) { per_gpu = per_dev; mig_slices = mig_devices; }
    int mig_min = (int)((mig_slices + per_gpu - 1) / per_gpu), mig_max = (int)mig_devices;
    int rep_min = replicas ? (R > 0 ? (int)((replicas + R - 1) / R) : 1) : 0, rep_max = (int)replicas;
    u.in_use_min = imin(healthy, (int)whole + mig_min + rep_min);
    u.in_use_max = imin(healthy, (int)whole + mig_max + rep_max);
    u.in_use_max = imax(u.in_use_max, u.in_use_min);
    u.in_use = u.in_use_max;              /* distributed replicas; MIG parents at most */
    u.free_ = phys - u.in_use - u.unavailable;
    return u;
}

double physical_share(const NodeStatus *n, const char *resource)
{
    bool named_mig = strstr(resource, "/mig-") != NULL;
    if (named_mig || (n->mig_strategy == MIG_SINGLE && n->mig_enabled && str_eq(resource, "nvidia.com/gpu"))) {
        const MigGpuModel *m = mig_model_for_product(n->base_product ? n->base_product : n->product);
        int c = !named_mig && n->mig_single_profile ? atoi(n->mig_single_profile) : mig_compute(resource);
        return (double)(c > 0 ? c : 1) / (m ? m->compute_slices : 7);
    }
    if (n->sharing != SHARING_NONE && (str_eq(resource, "nvidia.com/gpu") || str_eq(resource, "nvidia.com/gpu.shared")))
        return n->replicas > 0 ? 1.0 / n->replicas : 1.0;
    return 1.0;
}

PhysicalUse physical_use_total(const GpuStatus *st)
{
    PhysicalUse t = { 0, 0, 0, 0, 0 };
    for (size_t i = 0; i < st->ngpu_node_list; i++) {
        PhysicalUse u = physical_use_node(&st->gpu_node_list[i]);
        t.in_use += u.in_use; t.in_use_min += u.in_use_min; t.in_use_max += u.in_use_max;
        t.unavailable += u.unavailable; t.free_ += u.free_;
    }
    return t;
}

int physical_idle_node(const NodeStatus *n)
{
    if (n->inv->physical < 0) return n->idle_allocated;      /* not in the physical counts */
    PhysicalUse u = physical_use_node(n);
    return imin(n->idle_allocated, u.in_use);
}

int physical_idle_total(const GpuStatus *st)
{
    if (!st->has_metrics) return -1;
    int t = 0;
    for (size_t i = 0; i < st->ngpu_node_list; i++) t += physical_idle_node(&st->gpu_node_list[i]);
    return t;
}

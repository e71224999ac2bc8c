/* plan_input.c — step 1 of the plan: the cluster's GPU pods on the planned nodes as
 * PlanWorkloads, tagged with their workload (owner), with usage per workload from the metrics
 * or, without them, from the requests (rules in plan.h).
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "plan_internal.h"
#include "model/mig_capability.h"
#include "model/resources.h"
#include "model/usage_workloads.h"
#include "util/strarena.h"
#include "util/strmap.h"

/* ------------------------------------------------------------------------------------------ */
/* step 1: from the cluster to PlanWorkloads                                                   */

void plan_pod_workload(const Pod *p, const char **kind, const char **name, char **tofree)
{
    *tofree = NULL;
    if (p->owner_kind && p->owner_name && *p->owner_name) {
        if (p->rs_hash_len) {                   /* <deployment>-<pod-template-hash> (pod.h) */
            *tofree = xstrndup(p->owner_name, strlen(p->owner_name) - p->rs_hash_len - 1);
            *kind = "Deployment";
            *name = *tofree;
            return;
        }
        *kind = p->owner_kind;
        *name = p->owner_name;
        return;
    }
    *kind = "Pod";
    *name = p->name;
}

static bool all_alnum(const char *s, size_t n)
{
    if (n == 0) return false;
    for (size_t i = 0; i < n; i++) if (!isalnum((unsigned char)s[i])) return false;
    return true;
}

/* does a pod name follow the naming of this workload's pods?  (for pods that are gone) */
static bool name_follows(const char *pod, const char *kind, const char *wname)
{
    size_t wl = strlen(wname);
    if (strcmp(kind, "Pod") == 0 || strncmp(pod, wname, wl) != 0 || pod[wl] != '-') return false;
    const char *rest = pod + wl + 1;
    size_t rl = strlen(rest);
    if (strcmp(kind, "Deployment") == 0) {
        const char *dash = strchr(rest, '-');
        return dash && all_alnum(rest, (size_t)(dash - rest)) && strlen(dash + 1) == 5 &&
               all_alnum(dash + 1, 5);
    }
    if (strcmp(kind, "StatefulSet") == 0) {
        for (size_t i = 0; i < rl; i++) if (!isdigit((unsigned char)rest[i])) return false;
        return rl > 0;
    }
    if (strcmp(kind, "ReplicaSet") == 0 || strcmp(kind, "Job") == 0 || strcmp(kind, "DaemonSet") == 0)
        return rl == 5 && all_alnum(rest, 5);
    return rl > 0;                    /* other controllers name their pods their own way */
}

typedef struct {                      /* 40 bytes: one per workload (51,647 on the full training
                                         cluster); its usage, with metrics only, in an array beside */
    const char *ns, *kind, *name;     /* borrowed from PlanInput.owned */
    double samples;                   /* summed over its pods (below) */
    int pods;                         /* its pods holding GPUs now */
} WlAgg;

/* the input's copy of a name it makes (a Deployment's, cut from its ReplicaSet's), one per
 * distinct string */
static const char *own(PlanInput *in, const char *s)
{
    if (!s) return NULL;
    if (!in->strings) in->strings = strarena_new();
    char *c = strarena_intern(in->strings, s);
    if (strarena_owns(in->strings, c)) return c;
    free(c);                          /* too long to pool (strarena.h): a copy in owned */
    strvec_push(&in->owned, s);
    return in->owned.v[in->owned.n - 1];
}

/* the GPU resource a pod requests (the largest count) */
static const char *pod_gpu_resource(const Pod *p, int *count, int *nres)
{
    const char *best = NULL;
    int64_t bm = 0;
    *nres = 0;
    for (size_t i = 0; i < p->requests.n; i++) {
        const ResourceEntry *e = &p->requests.items[i];
        if (!resources_is_gpu(e->name) || e->milli <= 0) continue;
        (*nres)++;
        if (!best || e->milli > bm) { best = e->name; bm = e->milli; }
    }
    *count = (int)((bm + 999) / 1000);
    return best;
}

/* each node's MIG table (mig_capability reads its product: a cost per pod), looked up once per
 * node of the cluster's array */
typedef struct { const Node *base; size_t n; const MigGpuModel **model; bool *known; } MigModels;

static const MigGpuModel *node_mig_model(MigModels *mm, const Node *n)
{
    size_t i = (size_t)(n - mm->base);
    if (n < mm->base || i >= mm->n) return mig_capability(n).model;
    if (!mm->known[i]) { mm->model[i] = mig_capability(n).model; mm->known[i] = true; }
    return mm->model[i];
}

/* the request standing in for usage: memory and utilization of what the pod holds */
static bool usage_from_request(MigModels *mm, const Node *n, const char *resource, int64_t *mem, double *util)
{
    const MigGpuModel *m = node_mig_model(mm, n);
    const MigProfile *p = NULL;
    int replicas = 1;
    if (resources_is_mig(resource)) {
        char *prof = resources_mig_profile(resource);
        p = m ? mig_model_profile(m, prof) : NULL;
        for (size_t i = 0; prof && i < n->gpu.nmig; i++)
            if (str_eq(n->gpu.mig[i].profile, prof)) {
                if (n->gpu.mig[i].replicas > 1) replicas = n->gpu.mig[i].replicas;
                if (!p && n->gpu.mig[i].memory_mib > 0) { *mem = n->gpu.mig[i].memory_mib / replicas; *util = 100.0 / replicas; free(prof); return true; }
            }
        free(prof);
        if (!p) return false;
        *mem = p->memory_mib / replicas;
        *util = 100.0 / replicas;             /* of the instance; the plan scales it */
        return true;
    }
    if (n->gpu.mig_strategy == MIG_SINGLE && n->gpu.mig_single_profile && str_eq(resource, "nvidia.com/gpu")) {
        p = m ? mig_model_profile(m, n->gpu.mig_single_profile) : NULL;
        if (!p) return false;
        *mem = p->memory_mib;
        *util = 100.0;
        return true;
    }
    replicas = n->gpu.replicas > 1 ? n->gpu.replicas : 1;
    int64_t total = n->gpu.memory_mib;
    if (total <= 0) return false;
    *mem = total / replicas;
    *util = 100.0 / replicas;
    return true;
}

void plan_input_build(PlanInput *in, const Cluster *c, const Node *const *nodes, size_t nnodes,
                      const WorkloadUsage *u, size_t nu, bool metrics)
{
    memset(in, 0, sizeof *in);
    in->from_requests = !metrics;
    StrMap *planned = strmap_new();
    for (size_t i = 0; i < nnodes; i++) strmap_put(planned, nodes[i]->name, (void *)nodes[i]);

    /* the workloads of the GPU pods on the planned nodes */
    UsageKeys wl;                             /* (ns, kind, name) -> index into agg */
    usage_keys_init(&wl);
    WlAgg *agg = NULL;
    size_t nagg = 0, capagg = 0;
    size_t *pod_wl = xcalloc(c->npods ? c->npods : 1, sizeof(size_t));   /* index + 1, 0 = not planned */
    for (size_t i = 0; i < c->npods; i++) {
        const Pod *p = &c->pods[i];
        if (!pod_holds_resources(p) || !pod_requests_gpu(p)) continue;
        if (!strmap_get(planned, p->node_name)) { in->pods_elsewhere++; continue; }
        const char *kind, *name;
        char *tofree;
        plan_pod_workload(p, &kind, &name, &tofree);
        bool made;
        size_t at = usage_keys_at(&wl, p->ns, kind, name, NULL, &made);
        if (made) {
            ARRAY_GROW(agg, nagg, capagg);
            WlAgg *a = &agg[nagg++];
            memset(a, 0, sizeof *a);
            /* the cluster's strings are borrowed (the cluster outlives the input, as pod_obj
             * says); only a Deployment's name cut from its ReplicaSet's is the input's */
            a->ns = p->ns; a->kind = kind;
            a->name = tofree ? own(in, name) : name;
        }
        pod_wl[i] = at + 1;
        agg[at].pods++;
        free(tofree);
    }
    /* the keys are done with (pod_wl holds each pod's workload) and the workloads counted:
     * both go before the per-pod entries are made (at the full training cluster's 51,647
     * workloads the map held 3.9 MB and the doubled array 1.8 MB of empty slots) */
    usage_keys_release(&wl);
    strarena_seal(in->strings);       /* the Deployments' names are made: their lookup goes */
    if (capagg > nagg && nagg) { agg = xrealloc(agg, nagg * sizeof *agg); capagg = nagg; }
    /* each workload's pods' records folded (usage_workloads.h; no strings): with metrics only */
    WorkloadUsage *uses = metrics && nagg ? xcalloc(nagg, sizeof *uses) : NULL;
    for (size_t j = 0; uses && j < nagg; j++) workload_usage_stats_init(&uses[j]);

    /* usage: every series of a pod that is, or was, one of these workloads' */
    double ref = 0;
    UsageKeys pod_samples;                    /* (ns, pod) -> index into recs */
    usage_keys_init(&pod_samples);
    typedef struct { double samples; size_t wl; } PodRec;
    PodRec *recs = xcalloc(nu ? nu : 1, sizeof *recs);
    size_t nrec = 0;
    for (size_t i = 0; metrics && i < nu; i++) {
        const WorkloadUsage *x = &u[i];
        if (!x->pod) continue;
        size_t idx = 0;
        const Pod *p = cluster_find_pod(c, x->ns ? x->ns : "", x->pod);
        if (p) {
            size_t pi = (size_t)(p - c->pods);
            idx = pi < c->npods ? pod_wl[pi] : 0;
        } else {
            /* a pod that is gone: the workload whose naming it follows (the longest name) */
            size_t best_len = 0;
            for (size_t j = 0; j < nagg; j++) {
                if (!str_eq(agg[j].ns, x->ns ? x->ns : "")) continue;
                size_t l = strlen(agg[j].name);
                if (l > best_len && name_follows(x->pod, agg[j].kind, agg[j].name)) { idx = j + 1; best_len = l; }
            }
        }
        if (x->samples > ref) ref = x->samples;
        if (!idx) continue;
        workload_usage_fold(&uses[idx - 1], x);
        bool made;
        size_t r = usage_keys_at(&pod_samples, x->ns, x->pod, NULL, NULL, &made);
        if (made) recs[nrec++] = (PodRec){ 0, idx };
        if (x->samples > recs[r].samples) recs[r].samples = x->samples;
    }
    for (size_t r = 0; r < nrec; r++) agg[recs[r].wl - 1].samples += recs[r].samples;
    free(recs);
    usage_keys_release(&pod_samples);

    MigModels mm = { c->nodes, c->nnodes, xcalloc(c->nnodes ? c->nnodes : 1, sizeof *mm.model),
                     xcalloc(c->nnodes ? c->nnodes : 1, sizeof *mm.known) };
    /* one PlanWorkload per pod: as many as the workloads' pods, in one allocation */
    size_t npw = 0;
    for (size_t j = 0; j < nagg; j++) npw += (size_t)agg[j].pods;
    in->w = xcalloc(npw ? npw : 1, sizeof *in->w);
    for (size_t i = 0; i < c->npods; i++) {
        if (!pod_wl[i]) continue;
        const Pod *p = &c->pods[i];
        const WlAgg *a = &agg[pod_wl[i] - 1];
        const Node *n = strmap_get(planned, p->node_name);
        int count = 0, nres = 0;
        const char *res = pod_gpu_resource(p, &count, &nres);
        if (nres > 1)
            strvec_pushf(&in->warnings, "%s/%s requests several GPU resources: planned by %s only",
                         p->ns, p->name, res);
        PlanWorkload *w = &in->w[in->n++];
        memset(w, 0, sizeof *w);
        w->ns = a->ns; w->kind = a->kind; w->name = a->name;
        w->pod_obj = p;               /* borrowed, as above */
        w->node = p->node_name;
        w->resource = res;
        w->count = count;
        w->peak_memory_mib = -1;
        w->peak_utilization = NAN;
        w->coverage = NAN;
        if (!metrics) {
            int64_t mem;
            double util;
            if (usage_from_request(&mm, n, res, &mem, &util)) {
                w->has_usage = true;
                w->from_requests = true;
                w->memory_mib = mem;
                w->utilization = util;
            }
            continue;
        }
        const WorkloadUsage *use = &uses[pod_wl[i] - 1];
        if (!isnan(use->mem_pct_mib)) {
            w->has_usage = true;
            w->memory_mib = (int64_t)ceil(use->mem_pct_mib - 1e-9);
            if (!isnan(use->util_pct)) w->utilization = use->util_pct;
            else { w->utilization = 100; w->utilization_unknown = true; }
            w->peak_memory_mib = !isnan(use->mem_peak_mib) ? (int64_t)ceil(use->mem_peak_mib - 1e-9) : -1;
            w->peak_utilization = use->util_peak;
            /* samples per current pod against one series over the whole window: replicas
             * running side by side count once, a pod and the one it replaced add up */
            w->coverage = ref > 0 && a->pods > 0 ? fmin(1.0, a->samples / (ref * a->pods)) : NAN;
        }
    }
    free(mm.model);
    free(mm.known);
    free(pod_wl);
    free(agg);
    free(uses);
    strmap_free(planned, NULL);
}

void plan_input_clear(PlanInput *in)
{
    if (!in) return;
    free(in->w);
    strvec_clear(&in->owned);
    strarena_free(in->strings);
    strvec_clear(&in->warnings);
    memset(in, 0, sizeof *in);
}

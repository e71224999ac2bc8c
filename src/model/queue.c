/* queue.c — Kueue, Volcano and KAI queue objects reduced to model/queue.h's records.
 *
 * Field names, per upstream API types:
 *   Kueue  apis/kueue/v1beta1 + v1beta2 (kubernetes-sigs/kueue): Workload spec.podSets[].{name,
 *          count, template}, spec.queueName, spec.priority, spec.active, status.conditions
 *          (QuotaReserved, Admitted, Finished), status.admission.{clusterQueue,
 *          podSetAssignments[].{name, flavors}}; ClusterQueue spec.cohort (v1beta1) /
 *          spec.cohortName (v1beta2), queueingStrategy, stopPolicy, preemption.{withinClusterQueue,
 *          reclaimWithinCohort}, resourceGroups[].flavors[].
 *          resources[].{name, nominalQuota, borrowingLimit, lendingLimit},
 *          status.flavorsReservation[].resources[].total; LocalQueue spec.clusterQueue,
 *          spec.stopPolicy; ResourceFlavor spec.{nodeLabels, nodeTaints, tolerations};
 *          Cohort spec.parentName.
 *   Volcano scheduling.volcano.sh/v1beta1: PodGroup spec.{minMember, queue, minResources},
 *          status.{phase, conditions[type=Unschedulable]}; Queue spec.{deserved, capability,
 *          parent}, status.{state, allocated}.
 *   KAI    scheduling.run.ai/v2alpha2 PodGroup spec.{minMember, queue},
 *          status.schedulingConditions[].message, status.resourcesStatus.allocated;
 *          scheduling.run.ai/v2 Queue spec.{parentQueue, resources.gpu.{quota, limit}},
 *          status.allocated (GPUs as nvidia.com/gpu).
 */
#include "model/queue.h"
#include "model/pod.h"
#include "model/quantity.h"
#include "util/error.h"
#include "json_fields.h"
#include <stdlib.h>
#include <string.h>

const char *queue_system_name(QueueSystem s)
{
    switch (s) {
    case QSYS_KUEUE: return "kueue";
    case QSYS_VOLCANO: return "volcano";
    case QSYS_KAI: return "kai";
    }
    return "kueue";
}

QueueState *queue_state_new(void)
{
    QueueState *q = xcalloc(1, sizeof(QueueState));
    q->pool = strpool_new();
    return q;
}

static void podset_clear(QueuePodSet *s)
{
    free(s->name);
    rlist_clear(&s->per_pod);
    kv_clear(&s->node_selector);
    if (s->tmpl) { pod_clear(s->tmpl); free(s->tmpl); }
    kv_clear(&s->flavors);
}

static void flavor_clear(QueueFlavor *f)
{
    free(f->name);
    kv_clear(&f->node_labels);
    memset(f, 0, sizeof *f);
}

static void workload_clear(QueueWorkload *w)
{
    free(w->ns); free(w->name); free(w->owner_api); free(w->owner_kind); free(w->owner_name);
    free(w->queue); free(w->cluster_queue); free(w->phase); free(w->reason); free(w->message);
    for (size_t i = 0; i < w->npodsets; i++) podset_clear(&w->podsets[i]);
    free(w->podsets);
    memset(w, 0, sizeof *w);
}

static void def_clear(QueueDef *d)
{
    free(d->name); free(d->cohort); free(d->strategy); free(d->stop_policy); free(d->inactive_reason);
    free(d->preempt_within); free(d->preempt_reclaim);
    strvec_clear(&d->flavors);
    for (size_t i = 0; i < d->nquotas; i++) { free(d->quotas[i].flavor); free(d->quotas[i].resource); }
    free(d->quotas);
    memset(d, 0, sizeof *d);
}

void queue_state_free(QueueState *q)
{
    if (!q) return;
    for (size_t i = 0; i < q->nworkloads; i++) workload_clear(&q->workloads[i]);
    for (size_t i = 0; i < q->ndefs; i++) def_clear(&q->defs[i]);
    for (size_t i = 0; i < q->nlocals; i++) {
        QueueLocal *l = &q->locals[i];
        free(l->ns); free(l->name); free(l->cluster_queue); free(l->stop_policy);
    }
    for (size_t i = 0; i < q->nflavors; i++) flavor_clear(&q->flavors[i]);
    for (size_t i = 0; i < q->ncohorts; i++) { free(q->cohorts[i].name); free(q->cohorts[i].parent); }
    for (size_t i = 0; i < q->npriority_classes; i++) free(q->priority_classes[i].name);
    free(q->workloads); free(q->defs); free(q->locals); free(q->flavors); free(q->cohorts); free(q->priority_classes);
    strpool_free(q->pool);
    free(q);
}

#define GROW(arr, n, cap) do { if ((n) == (cap)) { (cap) = (cap) ? (cap) * 2 : 8; \
    (arr) = xrealloc((arr), (cap) * sizeof *(arr)); } } while (0)

static char *dup_name(const char *s) { return s ? jdup_trunc(s, MODEL_NAME_MAX) : NULL; }

static const char *meta_name(const cJSON *obj, const char *what, Error *err)
{
    const char *name = jstr_ne(jobj(obj, "metadata"), "name");
    if (!name) error_set(err, "%s without metadata.name", what);
    return name;
}

/* a quantity field (string or number) in milli-units; dflt when absent or malformed */
static int64_t jquantity(const cJSON *obj, const char *key, int64_t dflt)
{
    const cJSON *v = jget(obj, key);
    int64_t m;
    if (cJSON_IsString(v) && v->valuestring && quantity_parse(v->valuestring, &m)) return m;
    if (cJSON_IsNumber(v) && isfinite(v->valuedouble) && v->valuedouble > -1e15 && v->valuedouble < 1e15)
        return (int64_t)(v->valuedouble * 1000.0);
    return dflt;
}

/* the condition of that type: its status is "True" (*is_true), its reason and message */
static const cJSON *find_condition(const cJSON *conds, const char *type)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, conds)
        if (str_eq(jstr(c, "type"), type)) return c;
    return NULL;
}

static bool condition_true(const cJSON *c) { return c && str_eq(jstr(c, "status"), "True"); }

static void set_owner(QueueWorkload *w, const cJSON *meta)
{
    const cJSON *refs = jarr(meta, "ownerReferences"), *r, *pick = NULL;
    cJSON_ArrayForEach(r, refs) {
        if (!pick) pick = r;
        if (jbool(r, "controller", false)) { pick = r; break; }
    }
    if (!pick) return;
    w->owner_api = dup_name(jstr_ne(pick, "apiVersion"));
    w->owner_kind = dup_name(jstr_ne(pick, "kind"));
    w->owner_name = dup_name(jstr_ne(pick, "name"));
}

/* a pod set's template read by the pod reader (its tolerations and required node affinity:
 * what a ResourceFlavor must admit); NULL when the template is missing or unreadable */
static Pod *template_pod(QueueState *q, const char *ns, const char *name, const cJSON *tspec)
{
    if (!tspec) return NULL;
    cJSON *o = cJSON_CreateObject(), *meta = cJSON_AddObjectToObject(o, "metadata");
    cJSON_AddStringToObject(meta, "name", name);
    if (ns) cJSON_AddStringToObject(meta, "namespace", ns);
    cJSON_AddItemReferenceToObject(o, "spec", (cJSON *)tspec);
    Pod *p = xcalloc(1, sizeof *p);
    Error e = { 0 };
    if (pod_from_json(p, o, q->pool, &e) < 0) { free(p); p = NULL; }
    cJSON_Delete(o);
    return p;
}

static void kueue_workload(QueueState *q, QueueWorkload *w, const cJSON *obj)
{
    const cJSON *spec = jobj(obj, "spec"), *status = jobj(obj, "status");
    const cJSON *ps;
    size_t n = (size_t)cJSON_GetArraySize(jarr(spec, "podSets"));
    w->podsets = n ? xcalloc(n, sizeof *w->podsets) : NULL;
    cJSON_ArrayForEach(ps, jarr(spec, "podSets")) {
        if (w->npodsets == n) break;
        QueuePodSet *s = &w->podsets[w->npodsets++];
        s->name = dup_name(jstr_ne(ps, "name") ? jstr_ne(ps, "name") : "main");
        s->count = jint(ps, "count", 0, INT32_MAX, 1);
        const cJSON *tspec = jobj(jobj(ps, "template"), "spec");
        pod_effective_requests(tspec, &s->per_pod);
        kv_from_json(&s->node_selector, jobj(tspec, "nodeSelector"));
        s->tmpl = template_pod(q, w->ns, s->name, tspec);
    }
    w->queue = dup_name(jstr_ne(spec, "queueName"));
    w->priority = (int32_t)jint(spec, "priority", INT32_MIN, INT32_MAX, 0);
    w->inactive = !jbool(spec, "active", true);
    const cJSON *conds = jarr(status, "conditions");
    const cJSON *qr = find_condition(conds, "QuotaReserved"), *adm = find_condition(conds, "Admitted");
    w->reserved = condition_true(qr);
    w->admitted = condition_true(adm);
    w->finished = condition_true(find_condition(conds, "Finished"));
    /* the message that says why it waits: QuotaReserved's while none is reserved, else Admitted's */
    const cJSON *why = !w->reserved && qr ? qr : adm ? adm : qr;
    if (why) {
        w->reason = dup_name(jstr_ne(why, "reason"));
        w->message = jstr(why, "message") ? jdup_trunc(jstr(why, "message"), MODEL_TEXT_MAX) : NULL;
    }
    const cJSON *adm_obj = jobj(status, "admission");
    if (w->reserved && adm_obj) {
        w->cluster_queue = dup_name(jstr_ne(adm_obj, "clusterQueue"));
        const cJSON *a;
        cJSON_ArrayForEach(a, jarr(adm_obj, "podSetAssignments")) {
            const char *name = jstr_ne(a, "name") ? jstr_ne(a, "name") : "main";
            for (size_t i = 0; i < w->npodsets; i++)
                if (str_eq(w->podsets[i].name, name)) kv_from_json(&w->podsets[i].flavors, jobj(a, "flavors"));
        }
    }
}

static void podgroup(QueueWorkload *w, QueueSystem sys, const cJSON *obj)
{
    const cJSON *spec = jobj(obj, "spec"), *status = jobj(obj, "status");
    w->queue = dup_name(jstr_ne(spec, "queue") ? jstr_ne(spec, "queue") : "default");
    w->min_member = (int32_t)jint(spec, "minMember", 0, INT32_MAX, 1);
    if (w->min_member < 1) w->min_member = 1;
    w->phase = dup_name(jstr_ne(status, "phase"));
    w->podsets = xcalloc(1, sizeof *w->podsets);
    w->npodsets = 1;
    QueuePodSet *s = &w->podsets[0];
    s->name = xstrdup("main");
    s->count = 1;
    ResourceList min = RESOURCE_LIST_INIT;
    const char *bad = NULL;
    rlist_from_json(&min, jobj(spec, "minResources"), &bad);
    if (rlist_has_gpu(&min)) {
        /* minResources is the gang's total (its pods may differ: a Volcano Job's tasks), kept
         * whole as one set of one */
        for (size_t i = 0; i < min.n; i++) rlist_set(&s->per_pod, min.items[i].name, min.items[i].milli);
    } else {
        w->pods_from_members = true;
    }
    rlist_clear(&min);
    const cJSON *msg = NULL;
    if (sys == QSYS_VOLCANO) {
        w->admitted = str_eq(w->phase, "Running");
        w->finished = str_eq(w->phase, "Completed");
        msg = find_condition(jarr(status, "conditions"), "Unschedulable");
        if (msg && !condition_true(msg)) msg = NULL;
    } else {
        const cJSON *c;
        cJSON_ArrayForEach(c, jarr(status, "schedulingConditions")) msg = c;   /* the newest */
        ResourceList alloc = RESOURCE_LIST_INIT;
        rlist_from_json(&alloc, jobj(jobj(status, "resourcesStatus"), "allocated"), &bad);
        w->admitted = rlist_has_gpu(&alloc) || str_eq(w->phase, "Running");
        rlist_clear(&alloc);
    }
    if (msg) {
        w->reason = dup_name(jstr_ne(msg, "reason"));
        w->message = jstr(msg, "message") ? jdup_trunc(jstr(msg, "message"), MODEL_TEXT_MAX) : NULL;
    }
}

int queue_ingest_workload(QueueState *q, QueueSystem sys, const cJSON *obj, Error *err)
{
    const char *name = meta_name(obj, sys == QSYS_KUEUE ? "Workload" : "PodGroup", err);
    if (!name) return -1;
    const cJSON *meta = jobj(obj, "metadata");
    const char *ns = jstr_ne(meta, "namespace") ? jstr_ne(meta, "namespace") : "default";
    for (size_t i = 0; i < q->nworkloads; i++)           /* a watch's update replaces it */
        if (q->workloads[i].system == sys && str_eq(q->workloads[i].ns, ns) && str_eq(q->workloads[i].name, name)) {
            workload_clear(&q->workloads[i]);
            q->workloads[i] = q->workloads[--q->nworkloads];
            break;
        }
    if (sys == QSYS_KUEUE) q->positions_told = false;     /* the visibility answer is stale now */
    GROW(q->workloads, q->nworkloads, q->capworkloads);
    QueueWorkload *w = &q->workloads[q->nworkloads++];
    memset(w, 0, sizeof *w);
    w->system = sys;
    w->ns = dup_name(ns);
    w->name = dup_name(name);
    w->creation = jtime(meta, "creationTimestamp");
    set_owner(w, meta);
    if (sys == QSYS_KUEUE) kueue_workload(q, w, obj);
    else podgroup(w, sys, obj);
    return 0;
}

static QueueQuota *add_quota(QueueDef *d, const char *flavor, const char *resource)
{
    d->quotas = xrealloc(d->quotas, (d->nquotas + 1) * sizeof *d->quotas);
    QueueQuota *qq = &d->quotas[d->nquotas++];
    memset(qq, 0, sizeof *qq);
    qq->flavor = dup_name(flavor);
    qq->resource = dup_name(resource);
    qq->borrowing_limit = qq->lending_limit = -1;
    return qq;
}

const QueueQuota *queue_def_quota(const QueueDef *d, const char *flavor, const char *resource)
{
    for (size_t i = 0; d && i < d->nquotas; i++)
        if (str_eq(d->quotas[i].flavor, flavor) && str_eq(d->quotas[i].resource, resource)) return &d->quotas[i];
    return NULL;
}

static QueueQuota *find_quota(QueueDef *d, const char *flavor, const char *resource)
{
    return (QueueQuota *)queue_def_quota(d, flavor, resource);     /* d is ours to change */
}

static void kueue_cluster_queue(QueueDef *d, const cJSON *obj)
{
    const cJSON *spec = jobj(obj, "spec"), *status = jobj(obj, "status");
    const char *cohort = jstr_ne(spec, "cohortName") ? jstr_ne(spec, "cohortName") : jstr_ne(spec, "cohort");
    d->cohort = dup_name(cohort);
    d->strategy = dup_name(jstr_ne(spec, "queueingStrategy") ? jstr_ne(spec, "queueingStrategy") : "BestEffortFIFO");
    d->stop_policy = dup_name(jstr_ne(spec, "stopPolicy") ? jstr_ne(spec, "stopPolicy") : "None");
    const cJSON *pre = jobj(spec, "preemption");
    d->preempt_within = dup_name(jstr_ne(pre, "withinClusterQueue") ? jstr_ne(pre, "withinClusterQueue") : "Never");
    d->preempt_reclaim = dup_name(jstr_ne(pre, "reclaimWithinCohort") ? jstr_ne(pre, "reclaimWithinCohort") : "Never");
    const cJSON *rg, *fl, *r;
    cJSON_ArrayForEach(rg, jarr(spec, "resourceGroups")) {
        cJSON_ArrayForEach(fl, jarr(rg, "flavors")) {
            const char *fname = jstr_ne(fl, "name");
            if (!fname) continue;
            strvec_push(&d->flavors, fname);
            cJSON_ArrayForEach(r, jarr(fl, "resources")) {
                const char *rname = jstr_ne(r, "name");
                if (!rname) continue;
                QueueQuota *qq = add_quota(d, fname, rname);
                qq->nominal = jquantity(r, "nominalQuota", 0);
                qq->borrowing_limit = jquantity(r, "borrowingLimit", -1);
                qq->lending_limit = jquantity(r, "lendingLimit", -1);
            }
        }
    }
    /* reserved quota (admitted or with quota reserved): what the scheduler counts as used */
    const cJSON *usage = jarr(status, "flavorsReservation") ? jarr(status, "flavorsReservation")
                                                            : jarr(status, "flavorsUsage");
    cJSON_ArrayForEach(fl, usage) {
        cJSON_ArrayForEach(r, jarr(fl, "resources")) {
            QueueQuota *qq = find_quota(d, jstr(fl, "name"), jstr(r, "name"));
            if (qq) qq->used = jquantity(r, "total", 0);
        }
    }
    const cJSON *active = find_condition(jarr(status, "conditions"), "Active");
    d->active = !active || condition_true(active);
    if (!d->active)
        d->inactive_reason = jdup_trunc(jstr_ne(active, "message") ? jstr_ne(active, "message")
                                        : jstr_ne(active, "reason") ? jstr_ne(active, "reason") : "inactive",
                                        MODEL_TEXT_MAX);
}

static void volcano_queue(QueueDef *d, const cJSON *obj)
{
    const cJSON *spec = jobj(obj, "spec"), *status = jobj(obj, "status");
    d->cohort = dup_name(jstr_ne(spec, "parent"));
    const char *state = jstr_ne(status, "state");
    d->active = !state || str_eq(state, "Open");
    if (!d->active) d->inactive_reason = dup_name(state);
    ResourceList deserved = RESOURCE_LIST_INIT, cap = RESOURCE_LIST_INIT, alloc = RESOURCE_LIST_INIT;
    const char *bad = NULL;
    rlist_from_json(&deserved, jobj(spec, "deserved"), &bad);
    rlist_from_json(&cap, jobj(spec, "capability"), &bad);
    rlist_from_json(&alloc, jobj(status, "allocated"), &bad);
    ResourceList names = RESOURCE_LIST_INIT;
    rlist_add_all(&names, &deserved);
    rlist_add_all(&names, &cap);
    rlist_sort(&names);
    for (size_t i = 0; i < names.n; i++) {
        const char *rn = names.items[i].name;
        if (!resources_is_gpu(rn)) continue;
        QueueQuota *qq = add_quota(d, "", rn);
        /* no deserved: the queue deserves what its capability allows (Volcano's proportion
         * plugin shares the rest by weight; we cannot know that share) */
        qq->nominal = rlist_has(&deserved, rn) ? rlist_get(&deserved, rn) : rlist_get(&cap, rn);
        qq->borrowing_limit = rlist_has(&cap, rn) ? rlist_get(&cap, rn) - qq->nominal : -1;
        if (qq->borrowing_limit < -1) qq->borrowing_limit = 0;
        qq->used = rlist_get(&alloc, rn);
    }
    rlist_clear(&names); rlist_clear(&deserved); rlist_clear(&cap); rlist_clear(&alloc);
}

static void kai_queue(QueueDef *d, const cJSON *obj)
{
    const cJSON *spec = jobj(obj, "spec"), *status = jobj(obj, "status");
    d->cohort = dup_name(jstr_ne(spec, "parentQueue"));
    d->active = true;
    const cJSON *gpu = jobj(jobj(spec, "resources"), "gpu");
    if (gpu) {
        QueueQuota *qq = add_quota(d, "", "nvidia.com/gpu");
        int64_t quota = jquantity(gpu, "quota", 0), limit = jquantity(gpu, "limit", -1000);
        qq->nominal = quota < 0 ? 0 : quota;           /* -1: unlimited deserved, not a quota */
        qq->borrowing_limit = limit < 0 ? -1 : (limit > qq->nominal ? limit - qq->nominal : 0);
        ResourceList alloc = RESOURCE_LIST_INIT;
        const char *bad = NULL;
        rlist_from_json(&alloc, jobj(status, "allocated"), &bad);
        qq->used = rlist_get(&alloc, "nvidia.com/gpu");
        rlist_clear(&alloc);
    }
}

int queue_ingest_def(QueueState *q, QueueSystem sys, const cJSON *obj, Error *err)
{
    const char *name = meta_name(obj, sys == QSYS_KUEUE ? "ClusterQueue" : "Queue", err);
    if (!name) return -1;
    for (size_t i = 0; i < q->ndefs; i++)
        if (q->defs[i].system == sys && str_eq(q->defs[i].name, name)) {
            def_clear(&q->defs[i]);
            q->defs[i] = q->defs[--q->ndefs];
            break;
        }
    GROW(q->defs, q->ndefs, q->capdefs);
    QueueDef *d = &q->defs[q->ndefs++];
    memset(d, 0, sizeof *d);
    d->system = sys;
    d->name = dup_name(name);
    if (sys == QSYS_KUEUE) kueue_cluster_queue(d, obj);
    else if (sys == QSYS_VOLCANO) volcano_queue(d, obj);
    else kai_queue(d, obj);
    return 0;
}

int queue_ingest_local(QueueState *q, const cJSON *obj, Error *err)
{
    const char *name = meta_name(obj, "LocalQueue", err);
    if (!name) return -1;
    const cJSON *meta = jobj(obj, "metadata"), *spec = jobj(obj, "spec");
    const char *ns = jstr_ne(meta, "namespace") ? jstr_ne(meta, "namespace") : "default";
    GROW(q->locals, q->nlocals, q->caplocals);
    QueueLocal *l = &q->locals[q->nlocals++];
    l->ns = dup_name(ns);
    l->name = dup_name(name);
    l->cluster_queue = dup_name(jstr_ne(spec, "clusterQueue"));
    l->stop_policy = dup_name(jstr_ne(spec, "stopPolicy") ? jstr_ne(spec, "stopPolicy") : "None");
    return 0;
}

int queue_ingest_flavor(QueueState *q, const cJSON *obj, Error *err)
{
    const char *name = meta_name(obj, "ResourceFlavor", err);
    if (!name) return -1;
    GROW(q->flavors, q->nflavors, q->capflavors);
    QueueFlavor *f = &q->flavors[q->nflavors++];
    memset(f, 0, sizeof *f);
    f->name = dup_name(name);
    const cJSON *spec = jobj(obj, "spec");
    kv_from_json(&f->node_labels, jobj(spec, "nodeLabels"));
    const cJSON *t;
    size_t n = (size_t)cJSON_GetArraySize(jarr(spec, "nodeTaints"));
    if (n) {
        Taint *taints = xcalloc(n, sizeof *taints);
        cJSON_ArrayForEach(t, jarr(spec, "nodeTaints"))
            if (f->ntaints < n && node_taint_from_json(t, q->pool, &taints[f->ntaints])) f->ntaints++;
        f->node_taints = strpool_intern_mem(q->pool, taints, f->ntaints * sizeof *taints);
        free(taints);
    }
    uint32_t ntol;
    f->tolerations = pod_tolerations_from_json(jarr(spec, "tolerations"), q->pool, &ntol);
    f->ntolerations = ntol;
    return 0;
}

int queue_ingest_cohort(QueueState *q, const cJSON *obj, Error *err)
{
    const char *name = meta_name(obj, "Cohort", err);
    if (!name) return -1;
    GROW(q->cohorts, q->ncohorts, q->capcohorts);
    QueueCohort *c = &q->cohorts[q->ncohorts++];
    c->name = dup_name(name);
    c->parent = dup_name(jstr_ne(jobj(obj, "spec"), "parentName"));
    return 0;
}

const QueuePriorityClass *queue_find_priority_class(const QueueState *q, const char *name)
{
    for (size_t i = 0; q && name && i < q->npriority_classes; i++)
        if (str_eq(q->priority_classes[i].name, name)) return &q->priority_classes[i];
    return NULL;
}

/* kueue.x-k8s.io WorkloadPriorityClass {metadata.name, value (int32, required)}
 * (kueue apis/kueue/v1beta2/workloadpriorityclass_types.go); one per name, a later copy
 * replacing the earlier */
int queue_ingest_priority_class(QueueState *q, const cJSON *obj, Error *err)
{
    const char *name = meta_name(obj, "WorkloadPriorityClass", err);
    if (!name) return -1;
    int32_t value;
    if (!jv_int32(jget(obj, "value"), &value)) {
        error_set(err, "WorkloadPriorityClass %.64s: value is not a 32-bit integer", name);
        return -1;
    }
    const QueuePriorityClass *old = queue_find_priority_class(q, name);
    if (old) { q->priority_classes[old - q->priority_classes].value = value; return 0; }
    GROW(q->priority_classes, q->npriority_classes, q->cappriority_classes);
    q->priority_classes[q->npriority_classes++] = (QueuePriorityClass){ dup_name(name), value };
    return 0;
}

const QueueDef *queue_find_def(const QueueState *q, QueueSystem sys, const char *name)
{
    for (size_t i = 0; q && name && i < q->ndefs; i++)
        if (q->defs[i].system == sys && str_eq(q->defs[i].name, name)) return &q->defs[i];
    return NULL;
}

void queue_def_take(QueueState *q, QueueSystem sys, const char *name, const char *flavor, const char *resource,
                    int64_t milli)
{
    QueueDef *d = (QueueDef *)queue_find_def(q, sys, name);           /* q is ours to change */
    QueueQuota *qq = d ? find_quota(d, flavor, resource) : NULL;
    if (qq) qq->used += milli;
}

const QueueLocal *queue_find_local(const QueueState *q, const char *ns, const char *name)
{
    for (size_t i = 0; q && name && i < q->nlocals; i++)
        if (str_eq(q->locals[i].ns, ns) && str_eq(q->locals[i].name, name)) return &q->locals[i];
    return NULL;
}

const QueueFlavor *queue_find_flavor(const QueueState *q, const char *name)
{
    for (size_t i = 0; q && name && i < q->nflavors; i++)
        if (str_eq(q->flavors[i].name, name)) return &q->flavors[i];
    return NULL;
}

const QueueWorkload *queue_find_workload(const QueueState *q, QueueSystem sys, const char *ns, const char *name)
{
    for (size_t i = 0; q && i < q->nworkloads; i++)
        if (q->workloads[i].system == sys && str_eq(q->workloads[i].ns, ns) && str_eq(q->workloads[i].name, name))
            return &q->workloads[i];
    return NULL;
}

int64_t queue_workload_holds(const QueueWorkload *w, const char *flavor, const char *res)
{
    int64_t g = 0;
    for (size_t s = 0; s < w->npodsets; s++)
        if (str_eq(kv_get(&w->podsets[s].flavors, res), flavor))
            g += rlist_get(&w->podsets[s].per_pod, res) * w->podsets[s].count;
    return g;
}

void queue_workload_total(const QueueWorkload *w, ResourceList *out)
{
    rlist_clear(out);
    for (size_t i = 0; i < w->npodsets; i++)
        for (size_t j = 0; j < w->podsets[i].per_pod.n; j++)
            rlist_add(out, w->podsets[i].per_pod.items[j].name, w->podsets[i].per_pod.items[j].milli * w->podsets[i].count);
}

bool queue_workload_waiting(const QueueWorkload *w)
{
    if (w->finished) return false;
    if (w->system == QSYS_KUEUE) return !w->reserved && !w->inactive;
    return !w->admitted;
}

const char *queue_workload_def_name(const QueueState *q, const QueueWorkload *w)
{
    if (w->system != QSYS_KUEUE) return w->queue;
    if (w->cluster_queue) return w->cluster_queue;
    const QueueLocal *l = queue_find_local(q, w->ns, w->queue);
    return l ? l->cluster_queue : NULL;
}

int queue_ingest_positions(QueueState *q, const cJSON *obj, Error *err)
{
    (void)err;
    const cJSON *it;
    cJSON_ArrayForEach(it, jarr(obj, "items")) {
        const cJSON *meta = jobj(it, "metadata");
        const char *ns = jstr_ne(meta, "namespace"), *name = jstr_ne(meta, "name");
        int64_t pos = jint(it, "positionInClusterQueue", 0, INT32_MAX, -1);
        if (!ns || !name || pos < 0) continue;
        for (size_t i = 0; i < q->nworkloads; i++)
            if (q->workloads[i].system == QSYS_KUEUE && str_eq(q->workloads[i].ns, ns) && str_eq(q->workloads[i].name, name))
                q->workloads[i].visible_position = pos + 1;
    }
    q->positions_told = true;
    return 0;
}

static QueueSystem kind_system(QueueKind k)
{
    return k <= QK_KUEUE_COHORT || k >= QK_KUEUE_PENDING ? QSYS_KUEUE : k <= QK_VOLCANO_QUEUE ? QSYS_VOLCANO : QSYS_KAI;
}

void queue_remove(QueueState *q, QueueKind k, const char *ns, const char *name)
{
    QueueSystem sys = kind_system(k);
    switch (k) {
    case QK_KUEUE_WORKLOAD: case QK_VOLCANO_PODGROUP: case QK_KAI_PODGROUP:
        if (k == QK_KUEUE_WORKLOAD) q->positions_told = false;
        for (size_t i = 0; i < q->nworkloads; i++)
            if (q->workloads[i].system == sys && str_eq(q->workloads[i].ns, ns) && str_eq(q->workloads[i].name, name)) {
                workload_clear(&q->workloads[i]);
                q->workloads[i] = q->workloads[--q->nworkloads];
                return;
            }
        return;
    case QK_KUEUE_CLUSTERQUEUE: case QK_VOLCANO_QUEUE: case QK_KAI_QUEUE:
        for (size_t i = 0; i < q->ndefs; i++)
            if (q->defs[i].system == sys && str_eq(q->defs[i].name, name)) {
                def_clear(&q->defs[i]);
                q->defs[i] = q->defs[--q->ndefs];
                return;
            }
        return;
    case QK_KUEUE_LOCALQUEUE:
        for (size_t i = 0; i < q->nlocals; i++)
            if (str_eq(q->locals[i].ns, ns) && str_eq(q->locals[i].name, name)) {
                QueueLocal *l = &q->locals[i];
                free(l->ns); free(l->name); free(l->cluster_queue); free(l->stop_policy);
                q->locals[i] = q->locals[--q->nlocals];
                return;
            }
        return;
    case QK_KUEUE_FLAVOR:
        for (size_t i = 0; i < q->nflavors; i++)
            if (str_eq(q->flavors[i].name, name)) {
                flavor_clear(&q->flavors[i]);
                q->flavors[i] = q->flavors[--q->nflavors];
                return;
            }
        return;
    case QK_KUEUE_PENDING:
        return;
    case QK_KUEUE_PRIORITYCLASS: {
        const QueuePriorityClass *pc = queue_find_priority_class(q, name);
        if (!pc) return;
        size_t i = (size_t)(pc - q->priority_classes);
        free(q->priority_classes[i].name);
        q->priority_classes[i] = q->priority_classes[--q->npriority_classes];
        return;
    }
    case QK_KUEUE_COHORT:
        for (size_t i = 0; i < q->ncohorts; i++)
            if (str_eq(q->cohorts[i].name, name)) {
                free(q->cohorts[i].name); free(q->cohorts[i].parent);
                q->cohorts[i] = q->cohorts[--q->ncohorts];
                return;
            }
        return;
    }
}

void queue_reset(QueueState *q, QueueKind k)
{
    QueueSystem sys = kind_system(k);
    switch (k) {
    case QK_KUEUE_WORKLOAD: case QK_VOLCANO_PODGROUP: case QK_KAI_PODGROUP:
        for (size_t i = q->nworkloads; i-- > 0;)
            if (q->workloads[i].system == sys) queue_remove(q, k, q->workloads[i].ns, q->workloads[i].name);
        return;
    case QK_KUEUE_CLUSTERQUEUE: case QK_VOLCANO_QUEUE: case QK_KAI_QUEUE:
        for (size_t i = q->ndefs; i-- > 0;)
            if (q->defs[i].system == sys) queue_remove(q, k, NULL, q->defs[i].name);
        return;
    case QK_KUEUE_LOCALQUEUE:
        while (q->nlocals) queue_remove(q, k, q->locals[0].ns, q->locals[0].name);
        return;
    case QK_KUEUE_FLAVOR:
        while (q->nflavors) queue_remove(q, k, NULL, q->flavors[0].name);
        return;
    case QK_KUEUE_COHORT:
        while (q->ncohorts) queue_remove(q, k, NULL, q->cohorts[0].name);
        return;
    case QK_KUEUE_PENDING:
        for (size_t i = 0; i < q->nworkloads; i++) q->workloads[i].visible_position = 0;
        return;
    case QK_KUEUE_PRIORITYCLASS:
        while (q->npriority_classes) queue_remove(q, k, NULL, q->priority_classes[0].name);
        return;
    }
}

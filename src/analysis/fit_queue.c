/* fit_queue.c — fit's queue hook (fit.h, FitOptions.queue) for Kueue: a pod template labelled
 * kueue.x-k8s.io/queue-name would become a Kueue Workload of its pods (one pod set: count x the
 * per-pod effective request, the template's nodeSelector), the newest of its ClusterQueue.  That
 * Workload is put among the cluster's own, judged as `pending` judges a waiting one
 * (explain_queue.c: QueueInactive, QueueQuota, Queued) and taken out again.  When the queue
 * would admit it now, the nodes decide (the hook returns false).
 *
 * Kueue manages a Job, JobSet, Deployment, pod, ... that carries the label (pkg/controller/
 * jobframework: QueueName reads metadata.labels["kueue.x-k8s.io/queue-name"]); without it, its
 * webhook puts one of the kinds it ships enabled in the namespace's LocalQueue "default" when
 * there is one (default_local_queue); otherwise the object is not Kueue's unless
 * manageJobsWithoutQueueName is set, which the cluster's objects do not tell: such templates are
 * judged by the nodes alone.  A Deployment's pods are Workloads of one pod each
 * (workload_per_pod); a JobSet's replicatedJobs one Workload of several pod sets
 * (fit_queue_kueue_group).
 *
 * Volcano (FitOptions.gang_queue): a Volcano Job's PodGroup (minMember, Queue, minResources as
 * the Job controller makes it: fit.c gang_min_resources) is judged the same way
 * (explain_queue.c: the Queue missing or not Open, more than its capability, capability held by
 * others now); when the Queue would take it, its GPUs count as the Queue's for the gangs after
 * it and the nodes decide (fit.c judges the gang).  KAI is not judged here.
 */
#include "analysis/fit.h"
#include "analysis/explain_queue.h"
#include "model/queue.h"
#include "model/quantity.h"
#include "model/resources.h"
#include "util/error.h"
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define KUEUE_QUEUE_LABEL "kueue.x-k8s.io/queue-name"
#define KUEUE_PRIORITY_LABEL "kueue.x-k8s.io/priority-class"
#define KUEUE_DEFAULT_NAME "default"     /* the LocalQueue and WorkloadPriorityClass defaulted to */

/* the pod's tolerations and required node affinity into spec (what a ResourceFlavor must admit) */
static void add_constraints(cJSON *spec, const Pod *p)
{
    static const char *const ops[] = { [SEL_IN] = "In", [SEL_NOTIN] = "NotIn", [SEL_EXISTS] = "Exists",
                                       [SEL_NOT_EXISTS] = "DoesNotExist", [SEL_GT] = "Gt", [SEL_LT] = "Lt" };
    const PodMore *m = pod_more(p);
    if (m->ntolerations) {
        cJSON *arr = cJSON_AddArrayToObject(spec, "tolerations");
        for (size_t i = 0; i < m->ntolerations; i++) {
            const Toleration *t = &m->tolerations[i];
            cJSON *o = cJSON_CreateObject();
            if (t->key) cJSON_AddStringToObject(o, "key", t->key);
            if (t->op) cJSON_AddStringToObject(o, "operator", t->op);
            if (t->value) cJSON_AddStringToObject(o, "value", t->value);
            if (t->effect) cJSON_AddStringToObject(o, "effect", t->effect);
            cJSON_AddItemToArray(arr, o);
        }
    }
    if (!p->naffinity_terms) return;
    cJSON *terms = cJSON_AddArrayToObject(cJSON_AddObjectToObject(cJSON_AddObjectToObject(cJSON_AddObjectToObject(
        spec, "affinity"), "nodeAffinity"), "requiredDuringSchedulingIgnoredDuringExecution"), "nodeSelectorTerms");
    for (size_t i = 0; i < p->naffinity_terms; i++) {
        cJSON *term = cJSON_CreateObject(), *exprs = cJSON_AddArrayToObject(term, "matchExpressions");
        const LabelSelector *sel = &p->affinity_terms[i].match_expressions;
        for (size_t k = 0; k < sel->n; k++) {
            const SelReq *r = &sel->reqs[k];
            if (r->op >= sizeof ops / sizeof *ops || !ops[r->op]) continue;    /* = and != come from no affinity */
            cJSON *x = cJSON_CreateObject();
            cJSON_AddStringToObject(x, "key", r->key);
            cJSON_AddStringToObject(x, "operator", ops[r->op]);
            if (r->nvalues) {
                cJSON *v = cJSON_AddArrayToObject(x, "values");
                for (size_t j = 0; j < r->nvalues; j++) cJSON_AddItemToArray(v, cJSON_CreateString(r->values[j]));
            }
            cJSON_AddItemToArray(exprs, x);
        }
        cJSON_AddItemToArray(terms, term);
    }
}

static void add_pod_template(cJSON *ps, const Pod *p);

/* one pod set of a Workload: count pods like pod, named name */
typedef struct { const Pod *pod; int64_t count; const char *name; } PodSetSpec;

/* the Workload Kueue would create of the pod sets, as the API serves one (what
 * queue_ingest_workload reads) */
static cJSON *workload_json(const PodSetSpec *sets, size_t nsets, const char *ns, const char *name,
                            const char *queue, int32_t priority, int64_t now)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "apiVersion", "kueue.x-k8s.io/v1beta1");
    cJSON_AddStringToObject(o, "kind", "Workload");
    cJSON *md = cJSON_AddObjectToObject(o, "metadata");
    cJSON_AddStringToObject(md, "name", name);
    cJSON_AddStringToObject(md, "namespace", ns);
    char ts[32];
    time_t t = (time_t)now;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
    cJSON_AddStringToObject(md, "creationTimestamp", ts);
    cJSON *spec = cJSON_AddObjectToObject(o, "spec");
    cJSON_AddStringToObject(spec, "queueName", queue);
    cJSON_AddNumberToObject(spec, "priority", priority);
    cJSON *arr = cJSON_AddArrayToObject(spec, "podSets");
    for (size_t k = 0; k < nsets; k++) {
        const Pod *p = sets[k].pod;
        cJSON *ps = cJSON_CreateObject();
        cJSON_AddItemToArray(arr, ps);
        cJSON_AddStringToObject(ps, "name", sets[k].name);
        cJSON_AddNumberToObject(ps, "count", (double)sets[k].count);
        add_pod_template(ps, p);
    }
    return o;
}

/* a pod set's template: the pod's nodeSelector, constraints and requests */
static void add_pod_template(cJSON *ps, const Pod *p)
{
    cJSON *pspec = cJSON_AddObjectToObject(cJSON_AddObjectToObject(ps, "template"), "spec");
    const KVList *node_selector = &pod_more(p)->node_selector;
    if (node_selector->n) {
        cJSON *sel = cJSON_AddObjectToObject(pspec, "nodeSelector");
        for (size_t i = 0; i < node_selector->n; i++)
            cJSON_AddStringToObject(sel, node_selector->items[i].key, node_selector->items[i].value);
    }
    add_constraints(pspec, p);
    cJSON *c = cJSON_CreateObject();
    cJSON_AddItemToArray(cJSON_AddArrayToObject(pspec, "containers"), c);
    cJSON_AddStringToObject(c, "name", "main");
    cJSON *req = cJSON_AddObjectToObject(cJSON_AddObjectToObject(c, "resources"), "requests");
    for (size_t i = 0; i < p->requests.n; i++) {
        char q[32];
        quantity_format(p->requests.items[i].milli, q, sizeof q);
        cJSON_AddStringToObject(req, p->requests.items[i].name, q);
    }
}

/* the first flavor (in the ClusterQueue's order) with none needed now for resource res, or -1
 * (explain_queue.h's "needed"; Kueue's flavor assigner tries the flavors of a resource group in
 * order: pkg/scheduler/flavorassigner/flavorassigner.go) */
static long free_flavor(const QueueFacts *qf, const char *res)
{
    for (size_t j = 0; j < qf->nflavors; j++)
        if (qf->flavors[j].needed == 0 && strcmp(qf->flavors[j].resource, res) == 0) return (long)j;
    return -1;
}

/* Queued with nothing to wait for: no StrictFIFO head before it, and every GPU resource it asks
 * for has a flavor with none needed now */
static bool quota_free_now(const QueueFacts *qf)
{
    if (!qf || qf->head || !qf->nflavors) return false;
    for (size_t i = 0; i < qf->nflavors; i++)
        if (free_flavor(qf, qf->flavors[i].resource) < 0) return false;
    return true;
}

/* Kueue admits it now: it takes quota as admitted workloads do, so the templates after it (they
 * compete in file order, as their pods do for the nodes) see less.  Each resource goes to its
 * free_flavor; the template's other resources (cpu, memory) count on the first of those when the
 * queue covers them there. */
static void take_quota(QueueState *q, const QueueFacts *qf, const Pod *p, int64_t pods)
{
    const char *flavor = NULL;
    for (size_t i = 0; i < qf->nflavors; i++) {
        const QueueFlavorFact *f = &qf->flavors[i];
        if (free_flavor(qf, f->resource) != (long)i) continue;
        queue_def_take(q, QSYS_KUEUE, qf->cluster_queue, f->name, f->resource, rlist_get(&p->requests, f->resource) * pods);
        if (!flavor) flavor = f->name;
    }
    for (size_t r = 0; flavor && r < p->requests.n; r++)
        if (!resources_is_gpu(p->requests.items[r].name))
            queue_def_take(q, QSYS_KUEUE, qf->cluster_queue, flavor, p->requests.items[r].name, p->requests.items[r].milli * pods);
}

/* Workload or PodGroup obj (ns/name, of sys) judged as `pending` judges a waiting one: put among
 * the cluster's own for that and taken out again.  true with *e set (the caller clears it; it
 * owns all it holds), false when obj could not be read as one. */
static bool judge_among_queues(const Cluster *c, QueueSystem sys, QueueKind kind, const cJSON *obj, const char *ns,
                               const char *name, Explanation *e)
{
    Error err = { 0 };
    bool ok = false;
    if (queue_ingest_workload(c->queues, sys, obj, &err) == 0) {
        QueueIndex *qi = explain_queue_new(c);
        long i = explain_queue_find(qi, ns, name);
        if (i >= 0) {
            explain_queue_workload(qi, (size_t)i, NULL, e);
            ok = true;
        }
        explain_queue_free(qi);
        queue_remove(c->queues, kind, ns, name);
    }
    error_clear(&err);
    return ok;
}

/* the queue decided: item takes e's verdict, fixes and notes, with summary (taken) and exit */
static void take_verdict(FitItem *item, const Explanation *e, char *summary, int exit_code)
{
    item->verdict = verdict_name(e->verdict);
    item->summary = summary;
    for (size_t k = 0; k < e->fixes.n; k++) strvec_push(&item->fixes, e->fixes.v[k]);
    for (size_t k = 0; k < e->notes.n; k++) strvec_push(&item->notes, e->notes.v[k]);
    item->exit_code = exit_code;
}

/* the PodGroup Volcano's Job controller makes of a Job (what queue_ingest_workload reads) */
static cJSON *podgroup_json(const ManifestGang *g, const char *ns, const char *name, const ResourceList *total)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "apiVersion", "scheduling.volcano.sh/v1beta1");
    cJSON_AddStringToObject(o, "kind", "PodGroup");
    cJSON *md = cJSON_AddObjectToObject(o, "metadata");
    cJSON_AddStringToObject(md, "name", name);
    cJSON_AddStringToObject(md, "namespace", ns);
    cJSON *spec = cJSON_AddObjectToObject(o, "spec");
    cJSON_AddNumberToObject(spec, "minMember", (double)g->min_member);
    cJSON_AddStringToObject(spec, "queue", g->queue);
    cJSON *min = cJSON_AddObjectToObject(spec, "minResources");
    for (size_t i = 0; i < total->n; i++) {
        char q[32];
        quantity_format(total->items[i].milli, q, sizeof q);
        cJSON_AddStringToObject(min, total->items[i].name, q);
    }
    cJSON_AddStringToObject(cJSON_AddObjectToObject(o, "status"), "phase", "Pending");
    return o;
}

bool fit_queue_volcano(void *ctx, const Cluster *c, const ManifestGang *g, const char *ns, const ResourceList *total,
                       FitItem *item)
{
    (void)ctx;
    QueueState *q = c->queues;
    if (!q || !str_eq(g->system, "volcano") || !rlist_has_gpu(total)) return false;
    bool any = false;                     /* Volcano's queues were read (else nothing to judge) */
    for (size_t i = 0; i < q->ndefs && !any; i++) any = q->defs[i].system == QSYS_VOLCANO;
    if (!any) return false;
    char *name = xasprintf("kubectl-gpu-fit-%s", g->name);
    cJSON *pj = podgroup_json(g, ns, name, total);
    Explanation e;
    bool decided = false;
    if (judge_among_queues(c, QSYS_VOLCANO, QK_VOLCANO_PODGROUP, pj, ns, name, &e)) {
        bool waits = false;
        for (size_t k = 0; e.queue && k < e.queue->nflavors; k++) waits |= e.queue->flavors[k].needed > 0;
        if (e.verdict == V_QUEUE_QUOTA || e.verdict == V_QUEUE_INACTIVE || (e.verdict == V_QUEUED && waits)) {
            decided = true;
            take_verdict(item, &e, xasprintf("Volcano (Queue %s): %s", g->queue, e.summary ? e.summary : ""),
                         e.verdict == V_QUEUED ? 3 : 4);
        } else {
            for (size_t r = 0; r < total->n; r++)
                if (resources_is_gpu(total->items[r].name))
                    queue_def_take(q, QSYS_VOLCANO, g->queue, "", total->items[r].name, total->items[r].milli);
            strvec_pushf(&item->notes, "Volcano: Queue %s has room for the Job's PodGroup now; the nodes decide",
                         g->queue);
        }
        explanation_clear(&e);
    }
    cJSON_Delete(pj);
    free(name);
    return decided;
}

/* The Workload's priority as Kueue sets it (kueue pkg/controller/jobframework/reconciler.go
 * ExtractPriority): the WorkloadPriorityClass the object's label names (its value), else the
 * pods' PriorityClass (fit_admit_priority gave the pod its value, the global default's, or 0).
 * A label naming a class the cluster lacks: Kueue makes no Workload (the Get fails, the Job
 * stays suspended; a WorkloadPriorityClassNotFound event): true with *item decided.  When no
 * WorkloadPriorityClass was read at all (none exist, or the list was refused), a note. */
static bool workload_priority(const QueueState *q, const Pod *p, const char *wpc, FitItem *item, int32_t *out)
{
    *out = p->priority;
    if (!wpc || !*wpc) return false;
    const QueuePriorityClass *pc = queue_find_priority_class(q, wpc);
    if (pc) { *out = pc->value; return false; }
    if (!q->npriority_classes) {
        strvec_pushf(&item->notes, "Kueue: no WorkloadPriorityClass could be read (the cluster has none, or the "
                                   "list was refused): judged at its pods' priority; if %s does not exist, Kueue "
                                   "makes no Workload for it", wpc);
        return false;
    }
    item->verdict = verdict_name(V_QUEUE_INACTIVE);
    item->summary = xasprintf("Kueue makes no Workload for it: WorkloadPriorityClass %s not found", wpc);
    Strbuf have = STRBUF_INIT;
    for (size_t i = 0; i < q->npriority_classes && i < 5; i++)
        strbuf_addf(&have, "%s%s", i ? ", " : "", q->priority_classes[i].name);
    if (q->npriority_classes > 5) strbuf_addf(&have, ", ... (%zu in all)", q->npriority_classes);
    strvec_pushf(&item->fixes, "create WorkloadPriorityClass %s, or name one the cluster has in the label "
                               "kueue.x-k8s.io/priority-class (%s)", wpc, strbuf_str(&have));
    strbuf_clear(&have);
    item->exit_code = 4;
    return true;
}

/* Kueue's LocalQueue defaulting (kueue pkg/controller/jobframework/defaults.go:48
 * ApplyDefaultLocalQueue, :71 defaultLocalQueueApplies; GA in 0.17, on by default from 0.12):
 * an object of a kind its webhooks default, without the queue-name label, in a namespace with a
 * LocalQueue named "default" (constants.go:27) that the managedJobsNamespaceSelector admits
 * (its default: not kube-system, not Kueue's own namespace, kueue-system as shipped) */
/* what Kueue reads of the object a Workload stands for (a template's, a JobSet's) */
typedef struct { const char *ns, *queue_name, *priority_class; bool defaultable; } KueueObject;

static bool default_local_queue(const QueueState *q, const KueueObject *o)
{
    return o->defaultable && !str_eq(o->ns, "kube-system") && !str_eq(o->ns, "kueue-system") &&
           queue_find_local(q, o->ns, KUEUE_DEFAULT_NAME);
}

/* A Deployment's or ReplicaSet's pods are Kueue Workloads of one pod each: the deployment
 * webhook copies the queue to the pod template (kueue pkg/controller/jobs/deployment/
 * deployment_webhook.go Default) and the pod integration makes each pod without pod-group labels
 * its own Workload (unless the template names a pod group: kueue pkg/controller/jobs/pod/constants
 * GroupNameLabel); every other kind is one Workload of all its pods (a StatefulSet's pod group) */
static bool workload_per_pod(const FitItem *item, const Pod *p)
{
    return (str_eq(item->kind, "Deployment") || str_eq(item->kind, "ReplicaSet")) &&
           !kv_get(&p->labels, "kueue.x-k8s.io/pod-group-name");
}

/* judges Workloads of the pod sets, `rounds` of them in turn (each the newest of its ClusterQueue):
 * those the queue admits now take its quota; the first it does not admit decides for the rest,
 * into *rest (verdict, summary, fixes, notes, exit code) and *waits is set.  Returns how many
 * pods are admitted now (*silent: the queue said neither, and they are all taken as admitted),
 * -1 when the Workload could not be judged. */
static int64_t judge_rounds(const Cluster *c, QueueState *q, const PodSetSpec *sets, size_t nsets, const char *ns,
                            const char *name, const char *queue, int32_t priority, int64_t rounds, FitItem *rest,
                            bool *waits, bool *silent)
{
    int64_t admitted = 0, per = 0;
    for (size_t k = 0; k < nsets; k++) per += sets[k].count;
    *waits = *silent = false;
    for (int64_t k = 0; k < rounds && !*waits; k++) {
        cJSON *wj = workload_json(sets, nsets, ns, name, queue, priority, c->now > 0 ? c->now : (int64_t)time(NULL));
        Explanation e;
        bool judged = judge_among_queues(c, QSYS_KUEUE, QK_KUEUE_WORKLOAD, wj, ns, name, &e);
        cJSON_Delete(wj);
        if (!judged) return k ? admitted : -1;
        bool free_now = e.verdict == V_QUEUED && quota_free_now(e.queue);
        if ((e.verdict == V_QUEUED && !free_now) || e.verdict == V_QUEUE_QUOTA || e.verdict == V_QUEUE_INACTIVE) {
            *waits = true;
            /* behind a StrictFIFO head that is never admitted it never starts either */
            take_verdict(rest, &e, xasprintf("Kueue (LocalQueue %s/%s): %s", ns, queue, e.summary ? e.summary : ""),
                         e.verdict == V_QUEUED && !e.queue->head_never ? 3 : 4);
        } else if (free_now) {
            for (size_t j = 0; j < nsets; j++) take_quota(q, e.queue, sets[j].pod, sets[j].count);
            admitted += per;
        } else {
            *silent = true;               /* nothing the queue says: the nodes decide */
            explanation_clear(&e);
            return per * rounds;
        }
        explanation_clear(&e);
    }
    return admitted;
}

/* the LocalQueue (NULL: not Kueue's) and the Workload's priority of object o, p its (first) pod;
 * notes into *item for what Kueue's webhooks default.  true when that decided *item (a
 * WorkloadPriorityClass the cluster lacks) */
static bool kueue_target(const QueueState *q, const Pod *p, const KueueObject *o, FitItem *item,
                         const char **queue_out, int32_t *priority)
{
    /* the object's labels, or a pod's own (Kueue's pod integration: each pod is a Workload) */
    const char *queue = o->queue_name ? o->queue_name : kv_get(&p->labels, KUEUE_QUEUE_LABEL);
    const char *wpc = o->queue_name ? o->priority_class : kv_get(&p->labels, KUEUE_PRIORITY_LABEL);
    *queue_out = NULL;
    if ((!queue || !*queue) && default_local_queue(q, o)) {
        queue = KUEUE_DEFAULT_NAME;
        wpc = o->priority_class;
        strvec_pushf(&item->notes, "Kueue: it names no LocalQueue, and namespace %s has LocalQueue \"default\": "
                                   "Kueue's webhook puts it there (Kueue 0.12 and later; for a kind other than a "
                                   "batch Job, if that integration is enabled, as Kueue ships it)", o->ns);
    }
    if (!queue || !*queue) return false;
    if ((!wpc || !*wpc) && o->defaultable && queue_find_priority_class(q, KUEUE_DEFAULT_NAME)) {
        wpc = KUEUE_DEFAULT_NAME;
        strvec_push(&item->notes, "Kueue: it names no WorkloadPriorityClass, and the cluster has one named "
                                  "\"default\": Kueue's webhook gives it that one (WorkloadPriorityClassDefaulting, "
                                  "on from Kueue 0.20)");
    }
    *queue_out = queue;
    return workload_priority(q, p, wpc, item, priority);
}

static char *fit_workload_name(const char *object)
{
    char *name = xasprintf("kubectl-gpu-fit-%s", object ? object : "template");
    for (char *s = name; *s; s++) if (*s == '/') *s = '-';          /* JobSet items: JOBSET/JOB */
    return name;
}

bool fit_queue_kueue(void *ctx, const Cluster *c, const Pod *p, int64_t pods, FitItem *item)
{
    (void)ctx;
    QueueState *q = c->queues;
    if (!q) return false;
    const char *ns = item->ns ? item->ns : "default", *queue;
    KueueObject obj = { ns, item->queue_name, item->kueue_priority_class, item->kueue_defaultable };
    int32_t priority;
    if (kueue_target(q, p, &obj, item, &queue, &priority)) return true;
    if (!queue) return false;
    char *name = fit_workload_name(item->name);
    bool per_pod = workload_per_pod(item, p) && pods > 1, waits, silent;
    FitItem rest = { 0 };
    PodSetSpec set = { p, per_pod ? 1 : pods, "main" };
    int64_t admitted = judge_rounds(c, q, &set, 1, ns, name, queue, priority, per_pod ? pods : 1, &rest, &waits,
                                    &silent);
    free(name);
    if (admitted < 0 || silent) return false;
    if (per_pod)
        strvec_pushf(&item->notes, "Kueue: each pod of a %s is a Workload of its own; %lld of %lld admitted now",
                     item->kind, (long long)admitted, (long long)pods);
    if (!waits) {
        strvec_pushf(&item->notes, "Kueue: LocalQueue %s/%s has quota for it now; the nodes decide once it is "
                                   "admitted", ns, queue);
        return false;
    }
    if (admitted == 0) {                  /* the queue decides for every pod */
        fit_verdict_move(item, &rest);
        return true;
    }
    /* some pods admitted now: the nodes decide for them, the queue's verdict holds for the rest */
    item->queue_admitted = admitted;
    item->queue_rest = xmalloc(sizeof *item->queue_rest);
    *item->queue_rest = rest;
    return false;
}

/* A JobSet is one Kueue Workload with a pod set per replicatedJob (kueue pkg/controller/jobs/
 * jobset: PodSets, one per replicatedJob of replicas x its Job's pods), its priority from the
 * JobSet's label or the first pod set naming a PriorityClass (reconciler.go ExtractPriority,
 * extractPriorityFromPodSets): judged once for all of them */
bool fit_queue_kueue_group(void *ctx, const Cluster *c, const ManifestPodList *tl, size_t t, size_t u, FitItem *item,
                           bool *admitted)
{
    (void)ctx;
    *admitted = false;
    QueueState *q = c->queues;
    const ManifestPod *first = &tl->v[t];
    if (!q || !str_eq(first->kind, "JobSet")) return false;
    size_t n = u - t, np = 0;
    StrPool *pool = strpool_new();
    Pod *pods = xcalloc(n, sizeof *pods);
    PodSetSpec *sets = xcalloc(n, sizeof *sets);
    bool decided = false, gpu = false;
    for (size_t k = 0; k < n; k++) {
        Error e = { 0 };
        if (pod_from_json(&pods[np], tl->v[t + k].pod, pool, &e) < 0) { error_clear(&e); goto out; }
        const char *slash = strchr(tl->v[t + k].name, '/');
        sets[np] = (PodSetSpec){ &pods[np], tl->v[t + k].replicas, slash ? slash + 1 : tl->v[t + k].name };
        gpu |= pod_requests_gpu(&pods[np]);
        np++;
    }
    if (!gpu) goto out;
    const Pod *by = &pods[0];             /* the first pod set that names a PriorityClass */
    for (size_t k = 0; k < np; k++)
        if (pod_more(&pods[k])->priority_class) { by = &pods[k]; break; }
    const char *slash = strchr(first->name, '/');
    char *object = xstrndup(first->name, slash ? (size_t)(slash - first->name) : strlen(first->name));
    const char *queue, *ns = first->ns;
    KueueObject obj = { ns, first->queue_name, first->kueue_priority_class, first->kueue_defaultable };
    int32_t priority;
    if (kueue_target(q, by, &obj, item, &queue, &priority)) {
        decided = true;
    } else if (queue) {
        char *name = fit_workload_name(object);
        FitItem rest = { 0 };
        bool waits, silent;
        int64_t in = judge_rounds(c, q, sets, np, ns, name, queue, priority, 1, &rest, &waits, &silent);
        free(name);
        if (in >= 0 && !silent) {
            if (waits) {
                fit_verdict_move(item, &rest);
                strvec_pushf(&item->notes, "Kueue: a JobSet is one Workload of its %zu replicatedJobs' pods", np);
                decided = true;
            } else {
                *admitted = true;
                strvec_pushf(&item->notes, "Kueue: LocalQueue %s/%s has quota now for JobSet %s, one Workload of its "
                             "%zu replicatedJobs; the nodes decide once it is admitted", ns, queue, object, np);
            }
        } else {
            fit_verdict_clear(&rest);
        }
    }
    free(object);
out:
    for (size_t k = 0; k < np; k++) pod_clear(&pods[k]);
    free(pods);
    free(sets);
    strpool_free(pool);
    return decided;
}

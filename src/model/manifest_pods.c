/* manifest_pods.c — the pod templates of a manifest's objects (contract in manifest_pods.h). */
#include "model/manifest_pods.h"
#include "json_fields.h"
#include "util/error.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_LIST_DEPTH = 4 };
/* pods one template may make: fit places them one by one, and a count beyond this is a typo or
 * hostile, not a workload */
#define MAX_PODS 1000000

/* a replica count: absent or null -> dflt; a non-negative integer; else -2 (an error) */
static int64_t count_field(const cJSON *obj, const char *key, int64_t dflt)
{
    const cJSON *v = jget(obj, key);
    if (!v || cJSON_IsNull(v)) return dflt;
    return jint(obj, key, 0, MAX_PODS, -2);
}

/* the pods a Job spec runs at once: min(parallelism, completions), parallelism defaulting to 1
 * (batch/v1 JobSpec; completions unset = as many as parallelism) */
static int64_t job_pods(const cJSON *jobspec)
{
    int64_t par = count_field(jobspec, "parallelism", 1);
    int64_t comp = count_field(jobspec, "completions", -1);
    if (par < 0 || comp < -1) return -2;
    return comp >= 0 && comp < par ? comp : par;
}

/* the controller that owns the pods of an object of this kind */
static const char *owner_kind_of(const char *kind)
{
    if (str_eq(kind, "Deployment")) return "ReplicaSet";
    if (str_eq(kind, "CronJob") || str_eq(kind, "JobSet")) return "Job";
    return kind;
}

/* The tolerations the DaemonSet controller adds to every pod it creates (kubernetes
 * pkg/controller/daemon/util/daemonset_util.go, AddOrUpdateDaemonPodTolerations): its pods
 * run on cordoned and pressured nodes. */
static void add_daemon_tolerations(cJSON *spec)
{
    static const char *const tols[][2] = {
        { "node.kubernetes.io/not-ready", "NoExecute" }, { "node.kubernetes.io/unreachable", "NoExecute" },
        { "node.kubernetes.io/disk-pressure", "NoSchedule" }, { "node.kubernetes.io/memory-pressure", "NoSchedule" },
        { "node.kubernetes.io/pid-pressure", "NoSchedule" }, { "node.kubernetes.io/unschedulable", "NoSchedule" },
    };
    cJSON *arr = cJSON_GetObjectItemCaseSensitive(spec, "tolerations");
    if (!cJSON_IsArray(arr)) {
        cJSON_DeleteItemFromObjectCaseSensitive(spec, "tolerations");
        arr = cJSON_AddArrayToObject(spec, "tolerations");
    }
    for (size_t i = 0; i < sizeof tols / sizeof *tols; i++) {
        cJSON *t = cJSON_CreateObject();
        cJSON_AddStringToObject(t, "key", tols[i][0]);
        cJSON_AddStringToObject(t, "operator", "Exists");
        cJSON_AddStringToObject(t, "effect", tols[i][1]);
        cJSON_AddItemToArray(arr, t);
    }
}

cJSON *manifest_pod_pinned(const cJSON *pod, const char *node)
{
    cJSON *copy = cJSON_Duplicate(pod, true);
    cJSON *spec = cJSON_GetObjectItemCaseSensitive(copy, "spec");
    if (!cJSON_IsObject(spec)) return copy;
    cJSON *aff = cJSON_GetObjectItemCaseSensitive(spec, "affinity");
    if (!cJSON_IsObject(aff)) {
        cJSON_DeleteItemFromObjectCaseSensitive(spec, "affinity");
        aff = cJSON_AddObjectToObject(spec, "affinity");
    }
    cJSON *na = cJSON_GetObjectItemCaseSensitive(aff, "nodeAffinity");
    if (!cJSON_IsObject(na)) {
        cJSON_DeleteItemFromObjectCaseSensitive(aff, "nodeAffinity");
        na = cJSON_AddObjectToObject(aff, "nodeAffinity");
    }
    cJSON_DeleteItemFromObjectCaseSensitive(na, "requiredDuringSchedulingIgnoredDuringExecution");
    cJSON *req = cJSON_AddObjectToObject(na, "requiredDuringSchedulingIgnoredDuringExecution");
    cJSON *terms = cJSON_AddArrayToObject(req, "nodeSelectorTerms");
    cJSON *term = cJSON_CreateObject();
    cJSON *mf = cJSON_AddArrayToObject(term, "matchFields");
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "key", "metadata.name");
    cJSON_AddStringToObject(r, "operator", "In");
    cJSON *vals = cJSON_AddArrayToObject(r, "values");
    cJSON_AddItemToArray(vals, cJSON_CreateString(node));
    cJSON_AddItemToArray(mf, r);
    cJSON_AddItemToArray(terms, term);
    return copy;
}

static int add_item(ManifestPodList *out, const char *kind, const char *ns, const char *name, int64_t replicas,
                    const cJSON *tmpl, const char *where, const char *queue, const char *wpc, Error *err)
{
    const cJSON *spec = jobj(tmpl, "spec");
    if (!spec) {
        error_set(err, "%s %s: the pod template has no spec", kind, name);
        return -1;
    }
    cJSON *pod = cJSON_CreateObject();
    cJSON_AddStringToObject(pod, "apiVersion", "v1");
    cJSON_AddStringToObject(pod, "kind", "Pod");
    cJSON *meta = cJSON_AddObjectToObject(pod, "metadata");
    cJSON_AddStringToObject(meta, "name", name);
    cJSON_AddStringToObject(meta, "namespace", ns);
    const cJSON *labels = jobj(jobj(tmpl, "metadata"), "labels");
    if (labels) cJSON_AddItemToObject(meta, "labels", cJSON_Duplicate(labels, true));
    if (!str_eq(kind, "Pod")) {
        cJSON *refs = cJSON_AddArrayToObject(meta, "ownerReferences");
        cJSON *ref = cJSON_CreateObject();
        cJSON_AddStringToObject(ref, "kind", owner_kind_of(kind));
        cJSON_AddStringToObject(ref, "name", name);
        cJSON_AddBoolToObject(ref, "controller", true);
        cJSON_AddItemToArray(refs, ref);
    }
    cJSON *pspec = cJSON_Duplicate(spec, true);
    cJSON_AddItemToObject(pod, "spec", pspec);
    if (str_eq(kind, "DaemonSet")) add_daemon_tolerations(pspec);
    cJSON *status = cJSON_AddObjectToObject(pod, "status");
    cJSON_AddStringToObject(status, "phase", "Pending");
    const char *node = jstr_ne(pspec, "nodeName");
    if (node) {
        /* spec.nodeName set by hand skips the scheduler: the pod goes to that node or nowhere,
         * which the filters judge as a pod pinned there (its required node affinity, which
         * the kubelet checks too, is replaced: a pod that names its node rarely has one) */
        char *n = xstrdup(node);
        cJSON *pinned = manifest_pod_pinned(pod, n);
        cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(pinned, "spec"), "nodeName");
        cJSON_Delete(pod);
        pod = pinned;
        free(n);
    }
    if (out->n == out->cap) {
        out->cap = out->cap ? 2 * out->cap : 8;
        out->v = xrealloc(out->v, out->cap * sizeof *out->v);
    }
    out->v[out->n++] = (ManifestPod){ xstrdup(kind), xstrdup(ns), xstrdup(name), replicas, pod, xstrdup(where),
                                      queue ? xstrdup(queue) : NULL, NULL, wpc ? xstrdup(wpc) : NULL, false };
    return 0;
}

/* the kinds whose Kueue webhook puts an object without kueue.x-k8s.io/queue-name in its
 * namespace's LocalQueue "default" (and gives it WorkloadPriorityClass "default"): the
 * integrations Kueue's shipped configuration enables that fit reads (kueue
 * config/components/manager/controller_manager_config.yaml and charts/kueue/values.yaml
 * frameworks: batch/job, jobset, pod, deployment, statefulset, leaderworkerset; the webhooks
 * call jobframework ApplyDefaultLocalQueue, defaults.go:48, or default it themselves, the pod's:
 * pod_webhook.go:152); a CronJob's Jobs go through the Job's */
static bool kueue_defaultable(const char *api, const char *kind)
{
    static const struct { const char *group, *kind; } k[] = {
        { "batch/", "Job" }, { "batch/", "CronJob" }, { "jobset.x-k8s.io/", "JobSet" }, { "v1", "Pod" },
        { "apps/", "Deployment" }, { "apps/", "StatefulSet" }, { "leaderworkerset.x-k8s.io/", "LeaderWorkerSet" },
    };
    for (size_t i = 0; api && i < sizeof k / sizeof *k; i++)
        if (str_eq(kind, k[i].kind) && (str_eq(k[i].group, "v1") ? str_eq(api, "v1") : str_starts_with(api, k[i].group)))
            return true;
    return false;
}

/* label key of obj, else of a CronJob's jobTemplate (NULL when neither has it) */
static const char *kueue_label(const cJSON *obj, const char *key)
{
    const char *v = jstr_ne(jobj(jobj(obj, "metadata"), "labels"), key);
    return v ? v : jstr_ne(jobj(jobj(jobj(jobj(obj, "spec"), "jobTemplate"), "metadata"), "labels"), key);
}

/* A Volcano Job: one template per task, the Job's pods one gang (ManifestGang's defaults) */
static int volcano_job(const cJSON *obj, const char *ns, const char *name, const char *where, ManifestPodList *out,
                       Strvec *notes, Error *err)
{
    const cJSON *spec = jobj(obj, "spec"), *task;
    const char *queue = jstr_ne(spec, "queue") ? jstr_ne(spec, "queue") : "default";
    const char *sched = jstr_ne(spec, "schedulerName") ? jstr_ne(spec, "schedulerName") : "volcano";
    const char *job_class = jstr_ne(spec, "priorityClassName");
    int64_t job_min = count_field(spec, "minAvailable", 0), sum_min = 0;
    if (job_min < 0) {
        error_set(err, "Job %s: spec.minAvailable must be a non-negative integer (at most %d)", name, MAX_PODS);
        return -1;
    }
    size_t first = out->n;
    int k = 0;
    cJSON_ArrayForEach(task, jarr(spec, "tasks")) {
        char dflt[32];
        snprintf(dflt, sizeof dflt, "default%d", k);
        const char *tname = jstr_ne(task, "name") ? jstr_ne(task, "name") : dflt;
        int64_t reps = count_field(task, "replicas", 0);
        int64_t tmin = count_field(task, "minAvailable", reps);
        if (reps < 0 || tmin < 0) {
            error_set(err, "Job %s/%s: replicas and minAvailable must be non-negative integers (at most %d)", name, tname,
                      MAX_PODS);
            return -1;
        }
        if (!jobj(jobj(task, "template"), "spec")) {
            error_set(err, "Job %s: tasks[%d] has no template.spec", name, k);
            return -1;
        }
        char *full = xasprintf("%s/%s", name, tname);
        int rc = add_item(out, "Job", ns, full, reps, jobj(task, "template"), where, NULL, NULL, err);
        free(full);
        if (rc < 0) return -1;
        ManifestPod *mp = &out->v[out->n - 1];
        cJSON *pspec = cJSON_GetObjectItemCaseSensitive(mp->pod, "spec");
        if (!jstr_ne(pspec, "schedulerName")) {
            cJSON_DeleteItemFromObjectCaseSensitive(pspec, "schedulerName");
            cJSON_AddStringToObject(pspec, "schedulerName", sched);
        }
        const char *own_class = jstr_ne(pspec, "priorityClassName");
        mp->gang = xcalloc(1, sizeof *mp->gang);
        *mp->gang = (ManifestGang){ xstrdup("volcano"), xstrdup(name), xstrdup(queue), 0, tmin, false,
                                    own_class ? xstrdup(own_class) : NULL };
        /* a task without a PriorityClass of its own gets the Job's (volcano
         * pkg/controllers/job/job_controller_util.go createJobPod, at ed72c7c line 68) */
        if (!own_class && job_class) {
            cJSON_DeleteItemFromObjectCaseSensitive(pspec, "priorityClassName");
            cJSON_AddStringToObject(pspec, "priorityClassName", job_class);
        }
        sum_min += tmin;
        k++;
    }
    if (!k) { strvec_pushf(notes, "%s: Job %s has no tasks", where, name); return 0; }
    if (!job_min) job_min = sum_min;
    for (size_t i = first; i < out->n; i++) {
        out->v[i].gang->min_member = job_min;
        out->v[i].gang->per_task = job_min >= sum_min;
    }
    return 0;
}

static int from_object(const cJSON *obj, const char *default_ns, const char *where, int depth,
                       ManifestPodList *out, Strvec *notes, Error *err)
{
    if (!cJSON_IsObject(obj)) {
        error_set(err, "not a Kubernetes object (a mapping with apiVersion, kind and metadata)");
        return -1;
    }
    const char *kind = jstr_ne(obj, "kind");
    if (!kind) {
        error_set(err, "the object has no kind");
        return -1;
    }
    if (str_eq(kind, "List") || (strlen(kind) > 4 && !strcmp(kind + strlen(kind) - 4, "List") && jarr(obj, "items"))) {
        if (depth >= MAX_LIST_DEPTH) { error_set(err, "Lists nested too deeply"); return -1; }
        const cJSON *it;
        int k = 0;
        cJSON_ArrayForEach(it, jarr(obj, "items")) {
            if (from_object(it, default_ns, where, depth + 1, out, notes, err) < 0) {
                error_prefix(err, "item %d: ", k);
                return -1;
            }
            k++;
        }
        return 0;
    }
    const cJSON *meta = jobj(obj, "metadata");
    const char *name = jstr_ne(meta, "name");
    char *gen = NULL;
    if (!name && jstr_ne(meta, "generateName")) name = gen = xasprintf("%s*", jstr_ne(meta, "generateName"));
    if (!name) {
        error_set(err, "%s without metadata.name", kind);
        return -1;
    }
    const char *ns = jstr_ne(meta, "namespace") ? jstr_ne(meta, "namespace") : default_ns;
    const cJSON *spec = jobj(obj, "spec");
    /* Kueue's queue and WorkloadPriorityClass: the object's labels (jobframework QueueName,
     * WorkloadPriorityClassName: utils.go), a CronJob's on its jobTemplate (the Job's labels) */
    const char *queue = kueue_label(obj, "kueue.x-k8s.io/queue-name");
    const char *wpc = kueue_label(obj, "kueue.x-k8s.io/priority-class");
    bool defaultable = kueue_defaultable(jstr_ne(obj, "apiVersion"), kind);
    size_t before = out->n;
    int rc = 0;
    int64_t n = 1;
    if (str_eq(kind, "Pod")) {
        rc = add_item(out, kind, ns, name, 1, obj, where, queue, wpc, err);
    } else if (str_eq(kind, "Job") && jstr_ne(obj, "apiVersion") &&
               !strncmp(jstr_ne(obj, "apiVersion"), "batch.volcano.sh/", 17)) {
        rc = volcano_job(obj, ns, name, where, out, notes, err);
    } else if (str_eq(kind, "JobSet")) {
        const cJSON *rj;
        int k = 0;
        cJSON_ArrayForEach(rj, jarr(spec, "replicatedJobs")) {
            const char *rjname = jstr_ne(rj, "name");
            const cJSON *jobspec = jobj(jobj(rj, "template"), "spec");
            int64_t reps = count_field(rj, "replicas", 1), per = job_pods(jobspec);
            if (!rjname || !jobj(jobspec, "template")) {
                error_set(err, "JobSet %s: replicatedJobs[%d] has no name or no template.spec.template", name, k);
                rc = -1;
                break;
            }
            if (reps < 0 || per < 0 || reps * per > MAX_PODS) {
                error_set(err, "JobSet %s/%s: replicas, parallelism and completions must be non-negative integers "
                          "(at most %d pods)", name, rjname, MAX_PODS);
                rc = -1;
                break;
            }
            char *full = xasprintf("%s/%s", name, rjname);
            rc = add_item(out, kind, ns, full, reps * per, jobj(jobspec, "template"), where, queue, wpc, err);
            free(full);
            if (rc < 0) break;
            k++;
        }
        if (!rc && !k) strvec_pushf(notes, "%s: JobSet %s has no replicatedJobs", where, name);
    } else if (jobj(spec, "template")) {
        if (str_eq(kind, "DaemonSet")) n = -1;
        else if (str_eq(kind, "Job")) n = job_pods(spec);
        else n = count_field(spec, "replicas", 1);
        if (n < -1 || (n == -1 && !str_eq(kind, "DaemonSet"))) {
            error_set(err, "%s %s: the replica count must be a non-negative integer (at most %d)", kind, name, MAX_PODS);
            rc = -1;
        } else {
            rc = add_item(out, kind, ns, name, n, jobj(spec, "template"), where, queue, wpc, err);
        }
    } else if (jobj(jobj(jobj(spec, "jobTemplate"), "spec"), "template")) {
        const cJSON *jobspec = jobj(jobj(spec, "jobTemplate"), "spec");
        n = job_pods(jobspec);
        if (n < 0) {
            error_set(err, "%s %s: parallelism and completions must be non-negative integers (at most %d)", kind, name,
                      MAX_PODS);
            rc = -1;
        } else {
            rc = add_item(out, kind, ns, name, n, jobj(jobspec, "template"), where, queue, wpc, err);
        }
    } else {
        strvec_pushf(notes, "%s: %s %s has no pod template; skipped", where, kind, name);
    }
    for (size_t i = before; !rc && defaultable && i < out->n; i++) out->v[i].kueue_defaultable = true;
    free(gen);
    return rc;
}

int manifest_pods_from_object(const cJSON *obj, const char *default_ns, const char *where,
                              ManifestPodList *out, Strvec *notes, Error *err)
{
    return from_object(obj, default_ns, where, 0, out, notes, err);
}

void manifest_pod_list_clear(ManifestPodList *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->v[i].kind);
        free(l->v[i].ns);
        free(l->v[i].name);
        free(l->v[i].where);
        free(l->v[i].queue_name);
        free(l->v[i].kueue_priority_class);
        if (l->v[i].gang) {
            free(l->v[i].gang->system); free(l->v[i].gang->name); free(l->v[i].gang->queue);
            free(l->v[i].gang->task_class);
            free(l->v[i].gang);
        }
        cJSON_Delete(l->v[i].pod);
    }
    free(l->v);
    memset(l, 0, sizeof *l);
}

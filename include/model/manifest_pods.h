/* manifest_pods.h — the pod templates of a manifest's objects (`kubectl gpu fit -f FILE`),
 * each turned into the Pod object a controller would create from it, with how many such pods
 * it makes.  No I/O: the documents come parsed (sources/manifest_read.h).
 *
 * Which objects: Pod; Deployment, ReplicaSet, StatefulSet, ReplicationController and any
 * object with spec.template (spec.replicas, default 1); DaemonSet (spec.template, one pod per
 * node it admits: replicas -1, judged by analysis/fit.c); Job (min(parallelism, completions),
 * parallelism defaulting to 1); CronJob and any object with spec.jobTemplate.spec.template (its
 * Job's count); JobSet (one template per replicatedJobs[] entry, named JOBSET/NAME, replicas x
 * its Job's count); Volcano Job (batch.volcano.sh: one template per spec.tasks[] entry, named
 * JOB/TASK, its replicas; the pods of the Job are one gang, see ManifestGang); List (its
 * items).  An object with none of these is skipped with a note.
 *
 * The Pod object: metadata {name, namespace (the object's, else the default given), labels
 * (the template's), ownerReferences (the controller kind that would own the pod)}, spec (the
 * template's spec as written), status {phase: Pending}: model/pod.h's pod_from_json reads it
 * as it reads a pod of the cluster (effective requests with init containers included).
 *
 * Ownership: a ManifestPodList owns its items and their strings and trees;
 * manifest_pod_list_clear frees them and leaves the list empty.
 */
#ifndef KGPU_MANIFEST_PODS_H
#define KGPU_MANIFEST_PODS_H
#include <stdbool.h>
#include <stdint.h>
#include "util/util.h"

struct cJSON;
struct Error;

/* A gang: pods that start together or not at all.  A Volcano Job (batch.volcano.sh/v1alpha1):
 * its PodGroup has minMember = spec.minAvailable and its Queue spec.queue, as Volcano's
 * admission webhook defaults them (volcano pkg/webhooks/admission/jobs/mutate/mutate_job.go
 * patchDefaultQueue: "default"; patchDefaultMinAvailable: the sum over tasks of minAvailable;
 * mutateSpec: a task's minAvailable defaults to its replicas, its name to "default" + index). */
typedef struct {
    char *system;              /* "volcano" */
    char *name;                /* the owning object's name (the Job's) */
    char *queue;               /* the Queue the PodGroup names */
    int64_t min_member;        /* pods that must start at once (the Job's minAvailable) */
    int64_t task_min;          /* of this template's task: its minAvailable */
    bool per_task;             /* each task's minAvailable holds too (the scheduler checks it when
                                  minAvailable >= the sum of the tasks': JobInfo.CheckTaskReady) */
    char *task_class;          /* the task template's own priorityClassName (NULL: none), which
                                  orders the tasks in the PodGroup's minResources */
} ManifestGang;

typedef struct {
    char *kind, *ns, *name;    /* the object's kind; namespace; name (JOBSET/REPLICATEDJOB for a JobSet) */
    int64_t replicas;          /* pods it makes; -1: a DaemonSet (one per node it admits) */
    struct cJSON *pod;         /* the Pod object a controller would create (owned) */
    char *where;               /* "FILE, document N" (for notes) */
    char *queue_name;          /* label kueue.x-k8s.io/queue-name of the object (a CronJob: of its
                                  jobTemplate too), which Kueue reads (NULL: none) */
    ManifestGang *gang;        /* the gang its pods belong to (owned), NULL when none; the templates
                                  of one gang are consecutive in the list */
    char *kueue_priority_class;   /* label kueue.x-k8s.io/priority-class of the object (a CronJob: of
                                  its jobTemplate too): the Workload's priority (NULL: none) */
    bool kueue_defaultable;    /* a kind Kueue's shipped configuration manages (a batch Job or
                                  CronJob, JobSet, Pod, Deployment, StatefulSet, LeaderWorkerSet):
                                  without queue-name it goes to its namespace's LocalQueue
                                  "default" when there is one */
} ManifestPod;

typedef struct { ManifestPod *v; size_t n, cap; } ManifestPodList;

/* The pod templates of obj (one document of a manifest), appended to out; objects without a
 * pod template add a line to notes.  default_ns: namespace of objects without one.  where
 * names the document in notes and errors.  Returns 0, or -1 with err set when obj is not a
 * Kubernetes object (not a mapping, no kind, no name, a replica count that is not a
 * non-negative integer). */
int manifest_pods_from_object(const struct cJSON *obj, const char *default_ns, const char *where,
                              ManifestPodList *out, Strvec *notes, struct Error *err);
void manifest_pod_list_clear(ManifestPodList *l);
/* a copy of a DaemonSet's pod (caller frees) pinned to node as the DaemonSet controller pins
 * its pods: the required node affinity replaced by matchFields metadata.name In [node]
 * (kubernetes pkg/controller/daemon/util/daemonset_util.go, ReplaceDaemonSetNodeNameNodeAffinity).
 * A DaemonSet's pod carries the tolerations that controller adds (not-ready, unreachable,
 * disk/memory/pid-pressure, unschedulable). */
struct cJSON *manifest_pod_pinned(const struct cJSON *pod, const char *node);
#endif

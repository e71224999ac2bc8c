/* queue.h — batch queues in front of the scheduler: Kueue (kueue.x-k8s.io Workload, LocalQueue,
 * ClusterQueue, ResourceFlavor, Cohort), Volcano (scheduling.volcano.sh/v1beta1 PodGroup, Queue)
 * and NVIDIA's KAI Scheduler (scheduling.run.ai/v2alpha2 PodGroup, v2 Queue), reduced to what
 * `pending`, `explain` and `status` read.
 *
 * A QueueWorkload is one unit of waiting work: a Kueue Workload (the Job, JobSet, RayJob or pod
 * it stands for is its owner) or a Volcano/KAI PodGroup.  Its pod sets hold a count and the
 * per-pod effective request (model/pod.h's rule, applied to the pod template); a PodGroup has
 * one pod set, minMember x minResources/minMember when minResources names GPUs, else filled
 * from its member pods at finalize.  A QueueDef is a Kueue ClusterQueue or a Volcano/KAI Queue:
 * its quota per flavor and resource (Volcano and KAI have one flavor, "").
 *
 * Both Kueue API versions are read (v1beta1: spec.cohort, v1beta2: spec.cohortName).  Every
 * string is the record's own copy (printable, truncated as model/json_fields.h does);
 * queue_state_free releases all of it.
 */
#ifndef KGPU_QUEUES_H
#define KGPU_QUEUES_H
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include "model/labels.h"
#include "model/node.h"
#include "model/pod.h"
#include "model/resources.h"
#include "util/util.h"

typedef enum { QSYS_KUEUE, QSYS_VOLCANO, QSYS_KAI } QueueSystem;
const char *queue_system_name(QueueSystem s);          /* "kueue" | "volcano" | "kai" */

typedef struct {
    char *name;
    int64_t count;             /* pods of the set (a PodGroup's: 1, per_pod its minResources) */
    ResourceList per_pod;      /* effective request of one pod (milli-units) */
    KVList node_selector;      /* the template's nodeSelector */
    Pod *tmpl;                 /* Kueue: the template read as a pod (its tolerations and required
                                  node affinity, which a flavor must admit), strings in the
                                  QueueState's pool; NULL when it could not be read */
    KVList flavors;            /* admitted (Kueue): resource -> flavor of podSetAssignments */
} QueuePodSet;

typedef struct {
    QueueSystem system;
    char *ns, *name;
    char *owner_api, *owner_kind, *owner_name;   /* controller ownerReference (NULL: none) */
    char *queue;               /* Kueue: spec.queueName (a LocalQueue); Volcano/KAI: spec.queue */
    char *cluster_queue;       /* Kueue: status.admission.clusterQueue, NULL when not admitted */
    int32_t priority;          /* Kueue: spec.priority; PodGroups: 0 */
    int64_t creation;          /* epoch seconds */
    QueuePodSet *podsets; size_t npodsets;
    int32_t min_member;        /* PodGroups: spec.minMember */
    bool pods_from_members;    /* PodGroup: the pod set is filled from its member pods */
    bool reserved;             /* Kueue: condition QuotaReserved True (it holds quota) */
    bool admitted;             /* Kueue: condition Admitted True; PodGroups: phase Running */
    bool finished;             /* Kueue: Finished True; PodGroups: phase Completed */
    bool inactive;             /* Kueue: spec.active false (deactivated) */
    int64_t visible_position;  /* Kueue's visibility API: positionInClusterQueue + 1; 0 = not told
                                  (a watch's update of the Workload forgets it: it is stale then) */
    char *phase;               /* PodGroups: status.phase */
    char *reason, *message;    /* the controller's condition (Kueue QuotaReserved, Volcano
                                  Unschedulable, KAI's last schedulingCondition), NULL when none */
} QueueWorkload;

typedef struct {
    char *flavor, *resource;   /* Volcano/KAI: flavor "" */
    int64_t nominal;           /* milli; Volcano: deserved; KAI: quota */
    int64_t borrowing_limit;   /* milli, -1 = no limit; Volcano: capability - deserved; KAI: limit - quota */
    int64_t lending_limit;     /* milli, -1 = no limit (all of nominal may be lent) */
    int64_t used;              /* milli: status flavorsReservation (Kueue), allocated (Volcano, KAI) */
} QueueQuota;

typedef struct {
    QueueSystem system;
    char *name;
    char *cohort;              /* Kueue cohort; KAI parentQueue; Volcano parent; NULL when none */
    char *strategy;            /* Kueue queueingStrategy (default BestEffortFIFO) */
    char *stop_policy;         /* Kueue stopPolicy ("None" when unset) */
    char *preempt_within;      /* Kueue spec.preemption.withinClusterQueue: Never (unset) |
                                  LowerPriority | LowerOrNewerEqualPriority */
    char *preempt_reclaim;     /* Kueue spec.preemption.reclaimWithinCohort: Never (unset) |
                                  LowerPriority | Any */
    bool active;               /* Kueue condition Active (true when absent); Volcano state Open */
    char *inactive_reason;     /* condition message / Volcano's state, NULL when active */
    Strvec flavors;            /* Kueue: every flavor named by its resource groups */
    QueueQuota *quotas; size_t nquotas;   /* per flavor x resource, in spec order */
} QueueDef;

typedef struct { char *ns, *name, *cluster_queue, *stop_policy; } QueueLocal;
typedef struct {
    char *name;
    KVList node_labels;        /* spec.nodeLabels */
    const Taint *node_taints; size_t ntaints;        /* spec.nodeTaints (pool's) */
    const Toleration *tolerations; size_t ntolerations;   /* spec.tolerations (pool's):
                                  added to the pods Kueue admits on the flavor */
} QueueFlavor;
typedef struct { char *name, *parent; } QueueCohort;
typedef struct { char *name; int32_t value; } QueuePriorityClass;     /* a WorkloadPriorityClass */

typedef struct QueueState {
    QueueWorkload *workloads; size_t nworkloads, capworkloads;
    QueueDef *defs; size_t ndefs, capdefs;
    QueueLocal *locals; size_t nlocals, caplocals;
    QueueFlavor *flavors; size_t nflavors, capflavors;
    QueueCohort *cohorts; size_t ncohorts, capcohorts;
    QueuePriorityClass *priority_classes; size_t npriority_classes, cappriority_classes;
    StrPool *pool;             /* the strings of templates, taints and tolerations */
    bool positions_told;       /* visible_position holds Kueue's answer: set by queue_ingest_positions,
                                  cleared by any later Workload change (a watch) */
} QueueState;

struct cJSON;
struct Error;
QueueState *queue_state_new(void);
void queue_state_free(QueueState *q);

/* ingest one object; kind names which: "Workload", "LocalQueue", "ClusterQueue",
 * "ResourceFlavor", "Cohort" (Kueue), "PodGroup", "Queue" with sys VOLCANO or KAI.
 * -1 with err set when it has no name. */
int queue_ingest_workload(QueueState *q, QueueSystem sys, const struct cJSON *obj, struct Error *err);
int queue_ingest_def(QueueState *q, QueueSystem sys, const struct cJSON *obj, struct Error *err);
int queue_ingest_local(QueueState *q, const struct cJSON *obj, struct Error *err);
int queue_ingest_flavor(QueueState *q, const struct cJSON *obj, struct Error *err);
int queue_ingest_cohort(QueueState *q, const struct cJSON *obj, struct Error *err);
/* a WorkloadPriorityClass: its name and value (an int32, required: -1 with err set otherwise) */
int queue_ingest_priority_class(QueueState *q, const struct cJSON *obj, struct Error *err);
/* a PendingWorkloadsSummary (visibility.kueue.x-k8s.io, GET .../clusterqueues/NAME/pendingworkloads):
 * items[].metadata.{namespace, name} and positionInClusterQueue (0-based) set the Workloads'
 * visible_position; Workloads must be ingested first (the loader lists them before) */
int queue_ingest_positions(QueueState *q, const struct cJSON *obj, struct Error *err);

/* the queue kinds, in ObjKind's order from OBJ_KUEUE_WORKLOAD (model/cluster.h) */
typedef enum { QK_KUEUE_WORKLOAD, QK_KUEUE_LOCALQUEUE, QK_KUEUE_CLUSTERQUEUE, QK_KUEUE_FLAVOR, QK_KUEUE_COHORT,
               QK_VOLCANO_PODGROUP, QK_VOLCANO_QUEUE, QK_KAI_PODGROUP, QK_KAI_QUEUE, QK_KUEUE_PENDING,
               QK_KUEUE_PRIORITYCLASS } QueueKind;
/* a watch's delete (and the remove before an update): forgets that object; reset forgets all
 * of a kind (a watch that lists again) */
void queue_remove(QueueState *q, QueueKind k, const char *ns, const char *name);
void queue_reset(QueueState *q, QueueKind k);

/* lookups (NULL when absent) */
const QueueDef *queue_find_def(const QueueState *q, QueueSystem sys, const char *name);
const QueueLocal *queue_find_local(const QueueState *q, const char *ns, const char *name);
const QueueFlavor *queue_find_flavor(const QueueState *q, const char *name);
const QueuePriorityClass *queue_find_priority_class(const QueueState *q, const char *name);
/* the quota of (flavor, resource) of queue d (flavor "" for Volcano / KAI), NULL when none */
const QueueQuota *queue_def_quota(const QueueDef *d, const char *flavor, const char *resource);
const QueueWorkload *queue_find_workload(const QueueState *q, QueueSystem sys, const char *ns, const char *name);

/* queue `name` of sys (a Kueue ClusterQueue, a Volcano or KAI Queue: flavor "")'s usage of
 * (flavor, resource) grows by milli, as when it reserves quota for a workload (fit: a template
 * the queue would admit takes quota from the templates after it); nothing when it has no quota
 * for that pair */
void queue_def_take(QueueState *q, QueueSystem sys, const char *name, const char *flavor, const char *resource,
                    int64_t milli);

/* the workload's total request over its pod sets (count x per pod), into *out (replaced) */
void queue_workload_total(const QueueWorkload *w, ResourceList *out);
/* what an admitted Kueue workload holds of resource res on flavor (its pod sets assigned to that
 * flavor for res: count x per pod), milli-units */
int64_t queue_workload_holds(const QueueWorkload *w, const char *flavor, const char *res);
/* waiting: Kueue: active, not finished, no quota reserved; PodGroups: not Running/Completed */
bool queue_workload_waiting(const QueueWorkload *w);
/* the ClusterQueue (Kueue) or Queue a workload goes to: admitted -> its admission's; else the
 * LocalQueue's clusterQueue; NULL when not known */
const char *queue_workload_def_name(const QueueState *q, const QueueWorkload *w);
#endif

/* explain_queue.h — work that waits in a batch queue (model/queue.h): a Kueue Workload not
 * admitted, a Volcano or KAI PodGroup not scheduled, explained as one row of `pending` and one
 * `explain`, with the queue's facts (product.md, third round: the "queue" object).
 *
 * Verdicts (explain.h's Verdict):
 *   QueueInactive  Kueue: its LocalQueue or ClusterQueue is missing, stopped (stopPolicy Hold or
 *                  HoldAndDrain) or not Active (e.g. a ResourceFlavor it names does not exist);
 *                  Volcano: its Queue is missing or not Open; KAI: its Queue is missing.
 *   QueueQuota     it can never be admitted as the queues are set: no flavor of the ClusterQueue
 *                  covers a GPU resource it asks for, or none admits its pod sets (the flavor's
 *                  nodeTaints, nodeLabels: explain_queue_flavor.c), or it asks more than a flavor's nominal quota plus
 *                  what the cohort may lend (borrowingLimit, the others' lendingLimit); Volcano:
 *                  more than the Queue's capability; KAI: more than the Queue's GPU limit.
 *   Queued         admission waits for quota that admitted workloads hold now; "needed" per
 *                  flavor is what must be released first; a StrictFIFO workload behind the head
 *                  is Queued with the head named; Volcano/KAI: the queue's allocation plus the
 *                  request exceeds its capability / limit now.
 *   Gang           Volcano/KAI: the queue allows it, but fewer than minMember of its pods can be
 *                  placed at once on the nodes as they are (the per-node reasons are its first
 *                  pending pod's, as for a pod).
 *
 * Kueue's quota arithmetic per flavor and resource (kueue pkg/cache/scheduler/resource_node.go
 * available, potentialAvailable, localQuota; cohorts one level deep):
 *   guaranteed(cq) = nominal - lendingLimit when a lendingLimit is set, else 0 (never lent)
 *   stored         = sum over the cohort's members of nominal - guaranteed (lent to the cohort)
 *   cohort used    = sum over the members of max(0, used - guaranteed)
 *   parent         = stored - cohort used, and with a borrowingLimit at most
 *                    (nominal - guaranteed) - max(0, used - guaranteed) + borrowingLimit
 *   available      = max(0, guaranteed - used) + parent (not below 0); without a cohort
 *                    nominal - used
 *   max            = guaranteed + stored, at most nominal + borrowingLimit; without a cohort
 *                    nominal
 *   needed         = requested - available (not below 0); null (never) when requested > max.
 * So the unused nominal quota of a member is not its own when others borrow it: it is free
 * only when the cohort has room.  When it waits, Kueue may preempt (explain_queue_preempt.c):
 * the summary then names the workloads it would evict.
 * Position: among all waiting workloads of the ClusterQueue, CPU-only ones included, by
 * priority (high first) then creation time, as both queueing strategies order their heap.
 *
 * Ownership: QueueFacts is owned by its Explanation (explanation_clear frees it).
 */
#ifndef KGPU_EXPLAIN_QUEUE_H
#define KGPU_EXPLAIN_QUEUE_H
#include <stdbool.h>
#include <stdint.h>
#include "analysis/explain.h"
#include "model/queue.h"

typedef struct {
    char *name, *resource;     /* flavor ("" for Volcano / KAI), resource */
    int64_t nominal;           /* milli */
    int64_t borrowing_limit;   /* milli, -1 = none */
    int64_t used, requested;   /* milli */
    int64_t needed;            /* milli more needed now; -1 = never fits this flavor */
} QueueFlavorFact;

typedef struct { char *ns, *name; int64_t gpus; } QueueHolder;   /* gpus in milli */

typedef struct QueueFacts {
    QueueSystem system;
    const char *row_kind;      /* "Workload" | "PodGroup" (static) */
    char *local_queue;         /* Kueue: spec.queueName */
    char *cluster_queue;       /* Kueue: the ClusterQueue; Volcano/KAI: the Queue */
    char *cohort;              /* NULL when none */
    int64_t position;          /* 1-based; 0 = unknown */
    int64_t queued;            /* waiting workloads of the ClusterQueue (0 unknown) */
    char *head;                /* StrictFIFO: the head ("ns/name") when it is another workload */
    bool head_never;           /* that head is never admitted as the queues are set (its own
                                * verdict QueueQuota or QueueInactive): this one waits for ever too */
    bool preempts;             /* Kueue: the quota it waits for is taken back by preempting admitted
                                * workloads (named in the summary) */
    char *message;             /* the controller's own message, NULL when none */
    char *owner_api;           /* the owner's apiVersion, NULL unknown */
    QueueFlavorFact *flavors; size_t nflavors;
    QueueHolder *holders; size_t nholders;   /* the largest first, at most 20 per flavor */
    size_t holders_total;      /* admitted workloads holding the flavors (all of them) */
    int32_t min_member;        /* PodGroups */
    size_t pending_pods;       /* its pods that exist and wait (not listed on their own) */
} QueueFacts;

void explain_queue_facts_free(QueueFacts *q);

/* The waiting GPU workloads of a cluster and what a pending list needs about them: built once
 * per list (borrows c). */
typedef struct QueueIndex QueueIndex;
QueueIndex *explain_queue_new(const Cluster *c);
void explain_queue_free(QueueIndex *qi);
/* waiting workloads that ask for a GPU (their total), in namespace ns (NULL all): indices into
 * c->queues->workloads, in namespace/name order */
size_t explain_queue_waiting(const QueueIndex *qi, const char *ns, const size_t **idx);
/* the listed workload p belongs to (same namespace and owner, or a Kueue Workload of the pod
 * itself), or -1: p is then not a row of its own */
long explain_queue_member(const QueueIndex *qi, const Pod *p);
/* the first pending unbound member pod of workload i (NULL when none): its per-node reasons
 * stand for the gang's */
const Pod *explain_queue_first_pod(const QueueIndex *qi, size_t i);
/* find a waiting workload by "workload/NAME", "podgroup/NAME", an owner "KIND/NAME" (job/NAME)
 * or a member pod's name, in namespace ns: its index, or -1 */
long explain_queue_find(const QueueIndex *qi, const char *ns, const char *target);

/* Explains workload i into e (which it sets up).  member: the Explanation of its first pending
 * pod (explain_queue_first_pod, explained by the caller) or NULL; its per-node results and notes
 * are taken over (member is left empty). */
void explain_queue_workload(const QueueIndex *qi, size_t i, Explanation *member, Explanation *e);
/* a pod of an admitted Kueue workload (same owner) that still waits: a note in e saying the queue
 * let it start (ClusterQueue, flavors) and the nodes stop it */
void explain_queue_note_admitted(const QueueIndex *qi, const Pod *p, Explanation *e);
/* the note of a workload its queue would admit later (queued: the queue's reason, NULL for
 * "Queued") whose pods no node could ever hold, whose verdict the nodes' then is (pending's
 * rows, fit's templates) */
void explain_queue_note_never(Strvec *notes, const char *queued);
/* how many waiting GPU workloads, for status (ns NULL: all) */
size_t explain_queue_count(const QueueIndex *qi, const char *ns);

/* status' Queues section: one line per ClusterQueue (Kueue) or Queue (Volcano, KAI), GPUs over
 * every GPU resource and flavor, in milli: nominal (Volcano: deserved; KAI: quota), borrowed
 * (used above nominal), used, and the waiting workloads going to it with their GPUs (CPU-only
 * ones not counted).  Sorted by system, then name.  Owns its strings (explain_queue_summaries_free). */
typedef struct QueueSummary {
    QueueSystem system;
    char *name, *cohort;
    int64_t nominal, borrowed, used, pending;
    size_t pending_workloads;
    bool active;
} QueueSummary;
/* *out and the count; 0 and NULL when c has no queues.  *waiting: every workload waiting in a
 * queue, GPU ones (the Workload and PodGroup rows of pending -A), also those of no known queue */
size_t explain_queue_summaries(const Cluster *c, QueueSummary **out, size_t *waiting);
void explain_queue_summaries_free(QueueSummary *v, size_t n);
#endif

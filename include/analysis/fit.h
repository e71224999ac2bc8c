/* fit.h — `kubectl gpu fit`: would a manifest's GPU pods schedule now?  Each pod template
 * (model/manifest_pods.h) becomes a hypothetical pending Pod, judged by explain's own per-node
 * filters, verdicts and re-checked fixes (analysis/explain.h) — there is no second scheduler.
 *
 * Replicas compete for free GPUs, and templates compete with each other in file order (they
 * would be applied together): each pod that fits is placed on a node — the node, among those
 * where explain's filters find no reason, with the least of the pod's GPU resource free (best
 * fit, ties in cluster order), filled while it still fits — and its requests are added to that
 * node's usage, so the next replica and the next template see the GPUs it takes.  The first
 * replica that does not fit is explained (explain_pod, with every earlier placement counted);
 * its verdict and fixes are the template's, with fitsReplicas = the replicas placed before it.
 * A pod whose template requires one pod per node (required pod anti-affinity on
 * kubernetes.io/hostname selecting itself) gets one node each.  A DaemonSet makes one pod per
 * node its template admits (explain_pod_admits; DaemonSet pods tolerate cordons, as the
 * DaemonSet controller adds that toleration); each is judged on its own node, the first that
 * does not fit explained with the pod pinned there (matchFields metadata.name, as the
 * controller pins them).
 *
 * ResourceQuota: judged before the nodes, as the API server admits pods: for every resource the
 * pod requests, a quota of its namespace with hard `requests.<name>` (or `<name>` for cpu and
 * memory) admits pods while status.used + the pods of earlier replicas and templates in the
 * namespace stay within hard.  A replica refused is verdict Quota: exit 3 when pods that run now
 * ending would make room (the template's pods fit under hard), 4 when they alone exceed it.
 *
 * Exit codes per item, the worst one the run's (4 over 3 over 0): 0 Fits; 3 Insufficient,
 * Fragmented, Gated, Unknown and Quota with room once pods end; 4 every other verdict (TooLarge,
 * Selector, Taint, ResourceName, NoDevicePlugin, NotReady, Unschedulable, Quota beyond hard).
 *
 * Queues (Kueue, Volcano, KAI; issue 31): FitOptions.queue, when set, is asked first for each
 * template; returning true it has set the item's verdict (Queued: exit 3, QueueQuota: exit 4),
 * summary, fixes and exit code, and the nodes are not looked at.
 *
 * Gangs (a Volcano Job, model/manifest_pods.h ManifestGang): FitOptions.gang_queue is asked
 * once for the gang's templates together.  Then each template is judged on the nodes as above;
 * the gang starts only when at least minMember of its pods fit at once (and each task's
 * minAvailable, when minMember is at least their sum: volcano pkg/scheduler/api/job_info.go
 * IsReady, CheckTaskReady).  Templates without a GPU request count as placed (their nodes are
 * not judged).  A gang that does not start places nothing (its pods are taken off the nodes
 * again, so the templates after it see those GPUs free): its templates whose pods fit get
 * verdict Gang, exit 3 (or the worst exit of the gang's other templates when higher).
 *
 * The cluster's per-node usage is changed while fit_run works and restored before it returns.
 * Ownership: a FitResult owns its items (their strings, Pods, Explanations, pool); an item's
 * Explanation and placements borrow the Cluster's nodes: clear the result before the Cluster.
 */
#ifndef KGPU_FIT_H
#define KGPU_FIT_H
#include <stdbool.h>
#include <stdint.h>
#include "analysis/explain.h"
#include "model/manifest_pods.h"

typedef struct { const char *node; int64_t replicas; } FitPlacement;   /* node: the Cluster's */

typedef struct FitItem {
    char *kind, *ns, *name;
    char *queue_name;           /* the object's kueue.x-k8s.io/queue-name label (NULL: none) */
    char *kueue_priority_class; /* its kueue.x-k8s.io/priority-class label (NULL: none) */
    bool kueue_defaultable;     /* ManifestPod's: Kueue's default LocalQueue applies to it */
    int64_t queue_admitted;     /* set by the queue hook with queue_rest: the pods its queue admits now
                                   (the nodes judge those), of a kind whose pods are Workloads each */
    struct FitItem *queue_rest; /* (owned, transient) the queue's verdict for the other pods, which the
                                   item takes when the admitted ones all fit (fit_one) */
    int64_t replicas;           /* pods the template makes (a DaemonSet: the nodes it admits) */
    bool daemonset;
    Pod pod;                    /* the hypothetical pod (strings in the result's pool) */
    Pod pinned;                 /* a DaemonSet's pod pinned to the node explained (else zero) */
    const char *verdict;        /* "Fits", a verdict_name(), or the queue hook's (static text) */
    char *summary;              /* one line: why it does not fit (NULL when it fits) */
    int64_t fits_replicas;
    FitPlacement *nodes; size_t nnodes;
    Strvec fixes, notes;
    int exit_code;              /* 0, 3 or 4 */
    Explanation expl; bool has_expl;   /* the first replica that does not fit, when the nodes
                                          decided (not a quota or a queue) */
} FitItem;

typedef struct {
    FitItem *items; size_t n;
    Strvec skipped;             /* templates without a GPU request, one line each */
    int exit_code;              /* the worst item's */
    struct StrPool *pool;
} FitResult;

typedef bool (*FitQueueFn)(void *ctx, const Cluster *c, const Pod *p, int64_t pods, FitItem *item);
/* asked once per gang (its templates together) with the gang's total request: true when it set
 * the verdict, summary, fixes, notes and exit code of *item, which every template of the gang
 * then takes (the nodes are not looked at) */
typedef bool (*FitGangQueueFn)(void *ctx, const Cluster *c, const ManifestGang *g, const char *ns,
                               const ResourceList *total, FitItem *item);
/* asked once for the templates [t, u) of one object that is one queue workload of several pod
 * sets (a JobSet's replicatedJobs: Kueue makes one Workload of them all): true when it set *item
 * (verdict, summary, fixes, notes, exit code), which every template then takes; else *admitted
 * says whether the queue admits them now (their quota taken; the nodes decide, and the
 * templates are not asked about one by one) or is not theirs (each template as alone) */
typedef bool (*FitGroupQueueFn)(void *ctx, const Cluster *c, const ManifestPodList *tl, size_t t, size_t u,
                                FitItem *item, bool *admitted);
typedef struct { FitQueueFn queue; void *queue_ctx; FitGangQueueFn gang_queue; FitGroupQueueFn group_queue; } FitOptions;
/* a FitItem that holds a verdict only (a queue's for several templates, or for the pods it does
 * not admit now): its summary, fixes and notes freed */
void fit_verdict_clear(FitItem *v);
/* src's verdict, summary, exit code and fixes replace dst's, and its notes are added to dst's;
 * src is left holding none of them */
void fit_verdict_move(FitItem *dst, FitItem *src);

/* the hook for Kueue (fit_queue.c): a template labelled kueue.x-k8s.io/queue-name is judged as
 * the Workload Kueue would make of it (QueueInactive, QueueQuota: exit 4; Queued: exit 3); when
 * its queue would admit it now, false (the nodes decide).  ctx unused. */
bool fit_queue_kueue(void *ctx, const Cluster *c, const Pod *p, int64_t pods, FitItem *item);
/* the group hook for Kueue (fit_queue.c): a JobSet of several replicatedJobs is one Workload with
 * a pod set per replicatedJob (kueue pkg/controller/jobs/jobset PodSets) */
bool fit_queue_kueue_group(void *ctx, const Cluster *c, const ManifestPodList *tl, size_t t, size_t u, FitItem *item,
                           bool *admitted);

/* the gang hook for Volcano (fit_queue.c): a Volcano Job's PodGroup judged as `pending` judges
 * one (QueueInactive, QueueQuota: exit 4; Queued for capability held now: exit 3); when the
 * Queue takes it, false (the nodes decide).  ctx unused. */
bool fit_queue_volcano(void *ctx, const Cluster *c, const ManifestGang *g, const char *ns, const ResourceList *total,
                       FitItem *item);

/* fit_admit.c: the manifests' pods as the API server's Priority admission plugin would leave
 * them: spec.priority (and spec.preemptionPolicy) from their PriorityClass, the global default
 * class's when they name none (which they then name).  -1 with err set when admission would
 * refuse them (a class that does not exist, a spec.priority or preemptionPolicy that differs
 * from the class's).  Nothing is changed when c holds no PriorityClass (none could be read). */
int fit_admit_priority(const Cluster *c, ManifestPodList *templates, struct Error *err);

/* templates judged in order against c (its usage changed meanwhile, restored on return).
 * o may be NULL.  A template whose pod cannot be read (a bad affinity operator) is an error:
 * -1 with err set. */
struct Error;
int fit_run(Cluster *c, const ManifestPodList *templates, const FitOptions *o, FitResult *out, struct Error *err);
void fit_result_clear(FitResult *r);
/* the exit code of an Explanation's verdict for a pod that does not exist yet */
int fit_verdict_exit(Verdict v);
#endif

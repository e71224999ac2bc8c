/* explain.h — why a GPU pod is Pending: the scheduler's GPU-relevant filters recomputed for
 * one pod against every node of the reduced Cluster, a verdict, and concrete fixes.
 *
 * Per node, every reason that stops the pod there (not only the first, as the scheduler
 * reports), in the scheduler's filter order: Unschedulable (cordoned, unless the pod
 * tolerates node.kubernetes.io/unschedulable:NoSchedule), NotReady, UntoleratedTaint (each
 * NoSchedule/NoExecute taint no toleration matches), NodeSelectorMismatch,
 * NodeAffinityMismatch (required terms ORed, expressions ANDed, matchFields metadata.name),
 * TooManyPods, then per requested resource: NoDevicePlugin (GPU labels, no GPU resource
 * advertised), ResourceNotAdvertised (another GPU resource name offered), ExceedsNodeCapacity
 * (request > allocatable: never fits; also a node without the resource at all), Insufficient
 * (request > free).  free = allocatable − Σ effective requests of the pods holding resources
 * on the node (NodeUsage) − Σ requests of pods nominated to it with priority >= the pod's.
 *
 * Verdict order (product.md, man page; the one rule is written in explain_verdict.c).  The
 * pod's own constraints — nodeSelector, required node affinity, tolerations — are its intent;
 * "could ever hold" counts what each node advertises per its strategy: physical GPUs (never
 * time-sliced or MPS replicas: N replicas may sit on one GPU), MIG devices on a MIG single node,
 * MIG profile sizes on GPUs whose MIG capability is not no (model/mig_capability.h), and the
 * node's allocatable cpu/memory.  Let E = the nodes that admit the pod and could ever hold it.
 *   1. Gated          spec.schedulingGates is not empty (the scheduler ignores the pod).
 *   2. Quota          only for pods never created (FailedCreate "exceeded quota" on the owner).
 *   3. E is empty:    TooLarge when no node at all could hold the request; else Selector when
 *                     none of those that could passes nodeSelector/affinity; else Taint.
 *   4. Otherwise each node of E is classed by its most severe blocker (NotReady > cordoned >
 *      no device plugin > another resource name > allocatable too small > busy > fits; a node
 *      without a device plugin is "no device plugin" only where its plugin, as configured for
 *      it, would advertise the requested name, else "another resource name"), and
 *      the verdict is the first class present in this order:
 *        fits now -> Unknown (the scheduler has not retried, or its reason is not a GPU filter),
 *        busy -> Insufficient, or Fragmented when the free GPUs of the busy nodes add up to the
 *        request but no node has enough, then NoDevicePlugin, ResourceName, TooLarge
 *        (allocatable below the physical GPUs, e.g. unhealthy devices), NotReady, Unschedulable.
 * "Room" means free now on a Ready, schedulable node; the word is used in no other sense.
 * Every fix is re-checked before it is kept: the pod is evaluated again with the change applied
 * (request, selector, toleration, profile, pods ended, or the one node-side change) by the same
 * per-node filters, and the fix names the node where the pod would then fit.  Fixes are
 * ordered by effort: no change < change the pod < end pods < change the cluster.
 *
 * Reconciliation: the scheduler's message (PodScheduled condition first, the newest
 * FailedScheduling event second) is parsed and compared with the recomputation reduced to
 * what that scheduler would print: from 1.20 the first failing filter per node, counted per
 * reason; in the older wording (GeneralPredicates, <= 1.19) every failing reason of a node is
 * listed, so each reason is compared with the number of nodes that fail it.  Differences are
 * listed in `disagreements` and both views are kept.  Reasons the scheduler gives that are not
 * GPU filters (volumes, pod affinity, ports, DRA ...) are carried over as notes; a message that
 * is not recognised is shown verbatim with a note and never counted.
 *
 * Cost: the per-node facts (pods per node, physical GPUs, MIG model) are an ExplainIndex built
 * once per cluster and shared by every pod explained against it.
 *
 * Ownership: an Explanation owns its strings, lists and parsed message; it borrows the
 * Cluster's Node and Pod objects, so it must be freed before the Cluster (and an ExplainIndex
 * borrows the Cluster too).
 */
#ifndef KGPU_EXPLAIN_H
#define KGPU_EXPLAIN_H
#include <stdbool.h>
#include <stdint.h>
#include "model/cluster.h"
#include "analysis/schedmsg.h"

typedef enum {
    NR_UNSCHEDULABLE, NR_NOT_READY, NR_UNTOLERATED_TAINT, NR_NODE_SELECTOR_MISMATCH,
    NR_NODE_AFFINITY_MISMATCH, NR_TOO_MANY_PODS, NR_NO_DEVICE_PLUGIN, NR_RESOURCE_NOT_ADVERTISED,
    NR_EXCEEDS_NODE_CAPACITY, NR_INSUFFICIENT,
    NR_NO_MATCHING_DEVICE,    /* DRA: the node publishes no device a claim's request selects */
    NR_CLAIM_ELSEWHERE        /* DRA: a claim of the pod is allocated on another node */
} NodeReasonCode;

typedef struct {               /* pod borrowed from the Cluster */
    const Pod *pod; int64_t milli;
    bool nominated;            /* not bound: nominated to the node (status.nominatedNodeName) with
                                  at least the explained pod's priority; its request is reserved */
} PodHold;

typedef struct {               /* 104 bytes (a 112-byte block): one per node and reason of an
                                  evaluation, 5,000 nodes an intent */
    NodeReasonCode code;
    uint32_t nholders;        /* of holders, below */
    char *resource;           /* resource reasons: the requested resource ("pods" for TooManyPods) */
    int64_t requested, free, allocatable;   /* milli-units (TooManyPods: pods x 1000) */
    PodHold *holders;                       /* Insufficient: GPU pods on the node holding
                                               `resource`, nominated ones included (other pods
                                               only count in usage) */
    char *key, *value, *effect;             /* UntoleratedTaint */
    Strvec advertised;        /* ResourceNotAdvertised: GPU names the node offers (allocatable > 0) */
    char *detail;             /* selector/affinity: what did not match; NotReady: the condition;
                                 UntoleratedTaint: the pod's toleration that nearly matches and
                                 how it differs (NULL when none) */
} NodeReason;

typedef struct {
    const Node *node;         /* borrowed */
    NodeReason *reasons; size_t nreasons;   /* none: the pod fits there now */
} NodeResult;

typedef enum {
    V_INSUFFICIENT, V_FRAGMENTED, V_TAINT, V_SELECTOR, V_RESOURCE_NAME, V_NO_DEVICE_PLUGIN,
    V_TOO_LARGE, V_QUOTA, V_GATED, V_UNSCHEDULABLE, V_UNKNOWN, V_NOT_READY,
    V_QUEUED, V_QUEUE_QUOTA, V_QUEUE_INACTIVE, V_GANG      /* batch queues (explain_queue.h) */
} Verdict;

/* how much a fix asks for; fixes are listed in this order */
typedef enum { EFFORT_NONE, EFFORT_POD, EFFORT_END_PODS, EFFORT_CLUSTER } FixEffort;
const char *fix_effort_name(FixEffort f);   /* "none" | "pod" | "endPods" | "cluster" */

/* What one fix changes, as data (JSON "fixDetails"), so that a test can apply it to the
 * cluster and check the pod then fits.  Owned by the Explanation. */
typedef struct {
    FixEffort effort;
    char *fits_on;            /* node the re-check found the pod fits on; NULL: not re-checkable
                                 by the filters (a plan command, a quota, a gate) */
    ResourceList requests;    /* pod requests to set per container total (0 = remove) */
    KVList selector;          /* nodeSelector entries to set */
    bool drop_affinity;       /* remove the required node affinity */
    Strvec tolerations;       /* "key=value:effect", or "key:effect" for operator Exists */
    Strvec end_pods;          /* "ns/name" of pods to end */
    char *node;               /* node-side change: on this node ... */
    bool uncordon, make_ready;
    char *advertise;          /* ... advertise this resource, advertise_count of it */
    int64_t advertise_count;
    KVList labels;            /* ... set these labels */
} FixInfo;

/* 240 bytes (the pending rows of top and `pending` are 5,000 of them on the full training
 * cluster: the flags beside the verdict, the parsed message behind a pointer; 368 before) */
typedef struct {
    char *ns, *name;
    char *owner_kind, *owner_name;
    const Pod *pod;           /* borrowed; NULL when not created */
    ResourceList requests;    /* effective requests (all resources) */
    int64_t age;              /* seconds since creation (or the newest FailedCreate); -1 unknown */
    Verdict verdict;
    bool created;             /* false: an owner's pods rejected at admission (quota) */
    bool pooled;              /* a row of explain_pending_rows: ns, name, owner_kind, owner_name,
                                 summary, sched_text, dra_gpus and the requests (items and names,
                                 read-only, cap 0) are the list's pooled copies (the rows of one
                                 intent share theirs), not freed with e */
    bool agrees;              /* recomputation matches the scheduler's counts (true when no message) */
    char *summary;            /* one line: the REASON column of `pending` */
    char *sched_text;         /* the scheduler's message, NULL when none */
    const char *sched_source; /* "PodScheduled condition" | "FailedScheduling event" | NULL */
    char *event_text;         /* newest FailedScheduling note when it differs from the condition */
    SchedMessage *sched;      /* sched_text parsed, owned; NULL when there is none, and in a slimmed
                                 row: read it through explanation_sched */
    Strvec disagreements;
    NodeResult *nodes; size_t nnodes;   /* every node, in cluster order */
    unsigned char *node_rank; /* parallel to nodes: 0 fits now, 1 admits the pod and could hold it,
                                 2 could hold it but the pod's constraints exclude it, 3 could not
                                 hold it (too small, no GPUs) */
    Strvec fixes;             /* copy-pasteable; may span lines; each re-checked */
    FixInfo *fix_info;        /* parallel to fixes */
    Strvec notes;
    struct ExplainShared *shared;   /* when set, nodes and node_rank are borrowed from it (pods
                                       with the same intent share one evaluation) */
    char *dra_gpus;           /* DRA: the device classes the pod's claims ask for with their
                                 counts ("gpu.nvidia.com:4"), NULL for device-plugin pods */
    struct QueueFacts *queue; /* a Workload / PodGroup row (explain_queue.h), owned; NULL: a pod */
} Explanation;

typedef struct {
    Explanation *items; size_t n, cap;
    struct StrPool *strings;  /* explain_pending_rows: one copy of each row's summary (a Job's
                                 pods share theirs, up to kilobytes each); NULL otherwise */
} ExplanationList;
typedef struct ExplainShared ExplainShared;
void explain_shared_unref(ExplainShared *s);
ExplainShared *explain_shared_ref(ExplainShared *s);
/* explain_pending, with or without the fixes (their re-checks cost most) */
void explain_pending_opts(const Cluster *c, const char *ns, bool with_fixes, ExplanationList *out);
/* identical waiting pods — the same owner, requests, verdict and reason — have the same key
 * (caller frees); NULL for a pod without an owner or an owner whose pods were not created */
char *explanation_group_key(const Explanation *e);
/* e's parsed scheduler message; an empty one (SM_EMPTY, as schedmsg_parse(NULL) makes) when it
 * has none (inline: explain.c's helpers read it too) */
static inline const SchedMessage *explanation_sched(const Explanation *e)
{
    static const SchedMessage empty = { .kind = SM_EMPTY, .filter = { .total = -1 }, .preemption = { .total = -1 } };
    return e->sched ? e->sched : &empty;
}
/* drop the per-node results of e (a table row needs none) */
void explanation_drop_nodes(Explanation *e);
/* keep only what a row of a list shows (verdict, summary, requests, owner, age, agrees, the
 * borrowed pod): the per-node results, notes, disagreements, fixes, event text and parsed
 * scheduler message go; sched_text becomes "" when there was one.  An owner whose pods were
 * not created keeps all but the (absent) per-node results: it is explained from the list */
void explanation_slim(Explanation *e);
/* explain_pending without the fixes, each entry slimmed as it is made: the rows of `pending`
 * and of top's pending pane (memory: what the rows print, not every pod's evaluation); the
 * strings and requests are pooled in out->strings (pooled), freed by explanation_list_clear */
void explain_pending_rows(const Cluster *c, const char *ns, ExplanationList *out);

/* The per-node facts shared by every pod explained against c (built once; borrows c). */
typedef struct ExplainIndex ExplainIndex;
ExplainIndex *explain_index_new(const Cluster *c);
void explain_index_free(ExplainIndex *ix);
/* explain_pod with a prepared index */
void explain_pod_indexed(const ExplainIndex *ix, const Pod *p, Explanation *out);
/* counts of what explain_pending lists for ns (NULL = all): unbound Pending GPU pods, and
 * owners whose pods a ResourceQuota refused (not created; one entry per owner) */
void explain_pending_counts(const Cluster *c, const char *ns, size_t *pods, size_t *not_created);

/* Explain one pod of c.  The pod should be Pending and unbound; for others the verdict is
 * Unknown with a summary saying where it is. */
void explain_pod(const Cluster *c, const Pod *p, Explanation *out);
/* Every unbound Pending GPU pod of namespace ns (NULL = all) plus one Quota entry per owner
 * with FailedCreate "exceeded quota" events, sorted by namespace and name. */
void explain_pending(const Cluster *c, const char *ns, ExplanationList *out);
/* The same entries in the same order, explained one at a time: fn gets each (it may take
 * what it wants and zero the rest; what is left is freed after the call), so memory holds one
 * explanation, not all of them (a pod's per-node results are as many as the nodes).  A
 * non-zero return stops. */
typedef int (*ExplanationFn)(void *ctx, Explanation *e);
void explain_pending_each(const Cluster *c, const char *ns, ExplanationFn fn, void *ctx);
/* the same; with_fixes false leaves fixes (and their re-checks) out, for lists that show none */
void explain_pending_each_opts(const Cluster *c, const char *ns, bool with_fixes, ExplanationFn fn, void *ctx);
/* explain's target when it names a queue's waiting workload (explain_queue.h): "workload/NAME",
 * "podgroup/NAME", an owner "job/NAME" (any owner kind), or the name of a workload; *found false
 * (e untouched) when none waits by that name in ns */
void explain_workload_one(const Cluster *c, const char *ns, const char *target, Explanation *e, bool *found);
/* the same for a pod that belongs to a waiting workload (Kueue's gated pod, a gang's pod) */
void explain_workload_of_pod(const Cluster *c, const Pod *p, Explanation *e, bool *found);
/* explain_pod, with a note when the pod's Kueue workload is admitted (the queue let it start) */
void explain_pod_queued(const Cluster *c, const Pod *p, Explanation *e);
void explanation_clear(Explanation *e);
void explanation_list_clear(ExplanationList *l);

/* one line for a node reason: "Insufficient nvidia.com/gpu: requested 4, free 2 of 8" */
char *node_reason_describe(const NodeReason *r);

/* Nodes whose reasons read the same and whose node_rank is the same, in first-seen order: one
 * row of explain's node table.
 * reasons is "fits now" for a node with none.  The groups own their strings;
 * reason_groups_free releases them and the array. */
typedef struct { char *reasons; Strvec nodes; bool fits; int rank; } ReasonGroup;
size_t explain_group_nodes(const Explanation *e, ReasonGroup **out);
/* the same groups, the relevant ones first (by node_rank: fit now, admit and could hold, could
 * hold); *relevant = how many groups hold nodes that could hold the pod (the rest, nodes that
 * never could, are listed with explain --all-nodes) */
size_t explain_group_nodes_ranked(const Explanation *e, ReasonGroup **out, size_t *relevant);
void reason_groups_free(ReasonGroup *g, size_t n);
/* how many of e's nodes have each node_rank: fit now, admit the pod and could hold it, could
 * hold it but the pod's constraints exclude them, could never hold it */
typedef struct { size_t total, fits_now, admits, excluded, never; } NodeCounts;
void explanation_node_counts(const Explanation *e, NodeCounts *out);
/* The nodes that matter, nearest to holding the pod first (rank, then fewer reasons, then more
 * free of what it lacks), at most max, as indices into e->nodes written to idx: those of rank
 * 0-2, or, when every node could never hold the pod, those.  Returns how many. */
size_t explanation_nodes_that_matter(const Explanation *e, size_t max, size_t *idx);
/* "nvidia.com/gpu:4" (GPU resources, comma-separated; a DRA pod's dra_gpus; "-" when none) */
/* a request the pod's GPU requests show: GPU resources, and the per-pod memory and core limits
 * of HAMi's vGPUs (nvidia.com/gpumem MiB, nvidia.com/gpumem-percentage, nvidia.com/gpucores %),
 * which say how much of a GPU the pod asks for */
bool explanation_request_shown(const char *resource);
char *explanation_gpus(const Explanation *e);

const char *verdict_name(Verdict v);
/* the nodes could never hold the pod as the cluster is (Taint, Selector, ResourceName,
 * NoDevicePlugin, TooLarge, Unschedulable, NotReady): waiting does not start it */
bool verdict_never_by_nodes(Verdict v);
const char *node_reason_code_name(NodeReasonCode c);

/* ---- the filters, exposed for tests ---- */
bool explain_toleration_tolerates(const Toleration *t, const Taint *taint);
bool explain_pod_tolerates_taint(const Pod *p, const Taint *taint);
/* nodeSelector / required node affinity; *why (optional, caller frees) says what failed */
bool explain_node_selector_matches(const Pod *p, const Node *n, char **why);
bool explain_node_affinity_matches(const Pod *p, const Node *n, char **why);
/* free milli-units of resource on n for p (may be negative when over-committed) */
int64_t explain_node_free_for(const Cluster *c, const Node *n, const Pod *p, const char *resource);
/* the pod's own constraints admit n, as explain ranks nodes ("admits": explain_node_flags): every
 * NoSchedule/NoExecute taint tolerated but node-state ones (keys under node.kubernetes.io/), nodeSelector
 * and required node affinity matched.  Cordon, readiness and resources are not looked at: the
 * planner (plan_rollout.c) asks where a workload may ever run. */
bool explain_pod_admits(const Pod *p, const Node *n);
/* all reasons for p on n, appended to *out (node set, reasons empty on entry) */
void explain_node(const Cluster *c, const Pod *p, const Node *n, NodeResult *out);
/* the same with a prepared index (no per-call index: fit judges many replicas against one
 * cluster; free GPUs are read from the cluster's usage at each call) */
void explain_node_indexed(const ExplainIndex *ix, const Pod *p, const Node *n, NodeResult *out);
void node_result_clear(NodeResult *r);
#endif

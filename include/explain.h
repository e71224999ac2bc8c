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
 * Verdict precedence (a funnel over all nodes; the first step that leaves no node decides):
 *   1. Gated          spec.schedulingGates is not empty (the scheduler ignores the pod).
 *   2. Quota          only for pods never created: FailedCreate "exceeded quota" events on
 *                     the owner (ReplicaSet/Job/StatefulSet/...).  A pod that exists has passed
 *                     quota admission, and ResourceQuota cannot keep it Pending.
 *   3. ResourceName / NoDevicePlugin / TooLarge   no node advertises every requested GPU
 *                     resource: ResourceName if some node offers another GPU resource name,
 *                     else NoDevicePlugin if some node has GPU labels but no GPU resource,
 *                     else TooLarge (no node has the resource at all).
 *   4. TooLarge       no node that advertises it has enough allocatable, even when empty.
 *   5. Selector       no such node matches nodeSelector / required node affinity.
 *   6. Taint          each of those has a taint the pod does not tolerate.
 *   7. Unschedulable  each of those is cordoned or NotReady.
 *   8. Unknown        some of those fit right now (the scheduler has not retried yet, or its
 *                     reason is outside the GPU filters — then its own reason is given).
 *   9. Fragmented     the free GPUs of those nodes add up to the request but none has enough.
 *  10. Insufficient   otherwise: the nodes are busy; the pods holding them are named.
 * The pod's own constraints (resource name, size, selector) come before taints and node
 * state because they decide which nodes are even candidates; only candidates' taints and
 * states matter, so a tainted node the pod's selector excludes never yields "Taint".
 *
 * Reconciliation: the scheduler's message (PodScheduled condition first, the newest
 * FailedScheduling event second) is parsed and compared with the recomputation reduced to
 * what the scheduler would print — the first failing filter per node, counted per reason.
 * Any difference in node total or per-reason counts is listed in `disagreements` and both
 * views are kept.  Reasons the scheduler gives that are not GPU filters (volumes, pod
 * affinity, ports, DRA ...) are not recomputed; they are carried over as notes.
 *
 * Ownership: an Explanation owns its strings, lists and parsed message; it borrows the
 * Cluster's Node and Pod objects, so it must be freed before the Cluster.
 */
#ifndef KGPU_EXPLAIN_H
#define KGPU_EXPLAIN_H
#include <stdbool.h>
#include <stdint.h>
#include "cluster.h"
#include "schedmsg.h"

typedef enum {
    NR_UNSCHEDULABLE, NR_NOT_READY, NR_UNTOLERATED_TAINT, NR_NODE_SELECTOR_MISMATCH,
    NR_NODE_AFFINITY_MISMATCH, NR_TOO_MANY_PODS, NR_NO_DEVICE_PLUGIN, NR_RESOURCE_NOT_ADVERTISED,
    NR_EXCEEDS_NODE_CAPACITY, NR_INSUFFICIENT
} NodeReasonCode;

typedef struct { const Pod *pod; int64_t milli; } PodHold;   /* pod borrowed from the Cluster */

typedef struct {
    NodeReasonCode code;
    char *resource;           /* resource reasons: the requested resource ("pods" for TooManyPods) */
    int64_t requested, free, allocatable;   /* milli-units (TooManyPods: pods x 1000) */
    PodHold *holders; size_t nholders;      /* Insufficient: GPU pods on the node holding
                                               `resource` (other pods only count in usage) */
    char *key, *value, *effect;             /* UntoleratedTaint */
    Strvec advertised;        /* ResourceNotAdvertised: GPU names the node offers (allocatable > 0) */
    char *detail;             /* selector/affinity: what did not match; NotReady: the condition */
} NodeReason;

typedef struct {
    const Node *node;         /* borrowed */
    NodeReason *reasons; size_t nreasons;   /* none: the pod fits there now */
} NodeResult;

typedef enum {
    V_INSUFFICIENT, V_FRAGMENTED, V_TAINT, V_SELECTOR, V_RESOURCE_NAME, V_NO_DEVICE_PLUGIN,
    V_TOO_LARGE, V_QUOTA, V_GATED, V_UNSCHEDULABLE, V_UNKNOWN
} Verdict;

typedef struct {
    char *ns, *name;
    bool created;             /* false: an owner's pods rejected at admission (quota) */
    char *owner_kind, *owner_name;
    const Pod *pod;           /* borrowed; NULL when not created */
    ResourceList requests;    /* effective requests (all resources) */
    int64_t age;              /* seconds since creation (or the newest FailedCreate); -1 unknown */
    Verdict verdict;
    char *summary;            /* one line: the REASON column of `pending` */
    char *sched_text;         /* the scheduler's message, NULL when none */
    const char *sched_source; /* "PodScheduled condition" | "FailedScheduling event" | NULL */
    char *event_text;         /* newest FailedScheduling note when it differs from the condition */
    SchedMessage sched;       /* sched_text parsed */
    bool agrees;              /* recomputation matches the scheduler's counts (true when no message) */
    Strvec disagreements;
    NodeResult *nodes; size_t nnodes;   /* every node, in cluster order */
    Strvec fixes;             /* copy-pasteable; may span lines */
    Strvec notes;
} Explanation;

typedef struct { Explanation *items; size_t n, cap; } ExplanationList;

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
void explanation_free(Explanation *e);
void explanation_list_free(ExplanationList *l);

/* the EXPLANATION object of product.md ("kind" added when with_kind) */
struct cJSON *explanation_to_json(const Explanation *e, bool with_kind);
/* one line for a node reason: "Insufficient nvidia.com/gpu: requested 4, free 2 of 8" */
char *node_reason_describe(const NodeReason *r);

/* Nodes whose reasons read the same, in first-seen order: one row of explain's node table.
 * reasons is "fits now" for a node with none.  The groups own their strings;
 * reason_groups_free releases them and the array. */
typedef struct { char *reasons; Strvec nodes; bool fits; } ReasonGroup;
size_t explain_group_nodes(const Explanation *e, ReasonGroup **out);
void reason_groups_free(ReasonGroup *g, size_t n);
/* "nvidia.com/gpu:4" (GPU resources, comma-separated; "-" when none) */
char *explanation_gpus(const Explanation *e);

const char *verdict_name(Verdict v);
const char *node_reason_code_name(NodeReasonCode c);

/* ---- the filters, exposed for tests ---- */
bool toleration_tolerates(const Toleration *t, const Taint *taint);
bool pod_tolerates_taint(const Pod *p, const Taint *taint);
/* nodeSelector / required node affinity; *why (optional, caller frees) says what failed */
bool node_selector_matches(const Pod *p, const Node *n, char **why);
bool node_affinity_matches(const Pod *p, const Node *n, char **why);
/* free milli-units of resource on n for p (may be negative when over-committed) */
int64_t node_free_for(const Cluster *c, const Node *n, const Pod *p, const char *resource);
/* all reasons for p on n, appended to *out (node set, reasons empty on entry) */
void explain_node(const Cluster *c, const Pod *p, const Node *n, NodeResult *out);
void node_result_free(NodeResult *r);
#endif

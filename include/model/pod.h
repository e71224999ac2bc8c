/* pod.h — a Pod reduced to what scheduling analysis needs (shared/reference/scheduler-messages.md).
 *
 * Ownership: a Pod is decoded straight into a string pool (util/strpool.h; a Cluster's, or
 * the caller's): every `const char *` field and the PodMore (its arrays too) are the pool's copies,
 * shared with other pods, read-only, and live as long as the pool.  The Pod owns only its
 * lists (labels, requests, affinity_terms, claims); their
 * strings are the Pod's own until a Cluster moves them into its pool too (cluster.c), and a
 * Cluster's pods share their requests array from the pool as well.
 * pod_clear frees what the Pod owns (not the struct itself, not the pool's strings) and
 * zeroes it.
 */
#ifndef KGPU_POD_H
#define KGPU_POD_H
#include <stdbool.h>
#include <stdint.h>
#include "model/labels.h"
#include "model/resources.h"
#include "util/strpool.h"
#include "util/util.h"

typedef struct { const char *key, *op, *value, *effect; } Toleration;   /* op: Equal|Exists; NULL key = all */

/* the label a ReplicaSet's pods carry: the suffix of its name after its Deployment's */
#define POD_TEMPLATE_HASH_LABEL "pod-template-hash"

/* one required node-affinity term: all requirements must match (AND); terms are ORed.
 * match_fields only supports metadata.name in Kubernetes. */
typedef struct { LabelSelector match_expressions; LabelSelector match_fields; } NodeSelectorTerm;

typedef enum { PHASE_PENDING, PHASE_RUNNING, PHASE_SUCCEEDED, PHASE_FAILED, PHASE_UNKNOWN } PodPhase;

typedef struct {             /* status.conditions[type=PodScheduled] (its lastTransitionTime is
                                not kept: nothing reads it, and it would make every pod's PodMore
                                its own) */
    const char *reason;      /* "Unschedulable", "SchedulingGated" */
    const char *message;
    bool present;
    bool status_true;
} PodScheduledCondition;

/* What a pod's scheduling reads beyond its requests and constraints, and what most pods share
 * (every running pod of the default scheduler has the same): one block in the pool per
 * distinct content (strpool_intern_mem), the Pod points to it.  Read it through pod_more(). */
typedef struct PodMore {
    const char *nominated_node; /* status.nominatedNodeName */
    const char *scheduler_name;
    const char *priority_class;
    const char *preemption_policy;   /* "PreemptLowerPriority" (default) | "Never" */
    const char *runtime_class;
    const char *hami_devices;   /* annotation hami.io/vgpu-devices-allocated (HAMi's devices given
                                   to the pod: "UUID,Type,MiB,cores:" per container, ";" between
                                   containers), NULL when none */
    const char *pod_group;      /* the PodGroup a batch scheduler's pod belongs to, by the annotation
                                   it is matched by: KAI "pod-group-name" (KAI-Scheduler
                                   pkg/common/constants/constants.go PodGroupAnnotationForPod),
                                   Volcano "scheduling.k8s.io/group-name", else
                                   "scheduling.volcano.sh/group-name" (volcano apis scheduling/
                                   v1beta1/labels.go); NULL when none */
    const char *request_init;   /* the init container whose request sets the effective GPU
                                   request (it asks more than the app containers), NULL if none */
    const char *const *gates;   /* spec.schedulingGates[].name (ngates; the pool's array: the
                                   pods of a Job share one), NULL when none */
    KVList node_selector;       /* spec.nodeSelector: the pool's array (cap 0), read-only */
    const Toleration *tolerations;      /* the pool's array (ntolerations) */
    PodScheduledCondition scheduled;
    uint32_t ngates, ntolerations;
} PodMore;

/* spec.resourceClaims[] (DRA): the claim it names, or the template its claim is made from and
 * the claim made (status.resourceClaimStatuses[].resourceClaimName, NULL until created) */
typedef struct { const char *name, *claim, *template_name; } PodClaimRef;

typedef struct Pod {          /* fields ordered for size (120 bytes): 56,819 kept pods at 5,000 nodes */
    const char *ns, *name;      /* (the UID is not kept: nothing reads it) */
    const char *node_name;      /* spec.nodeName, NULL when unbound */
    const PodMore *more;        /* the pool's, shared (NULL: none set, read as pod_more_none) */
    int32_t priority;
    uint32_t naffinity_terms;
    int64_t creation;           /* epoch seconds */
    const char *owner_kind, *owner_name;   /* controller ownerReference, NULL if none */
    KVList labels;              /* of a Cluster's bound pod: none (cluster.c: nothing reads a
                                   bound pod's labels; rs_hash_len keeps the one fact read of
                                   them); a pending pod's: all */
    ResourceList requests;      /* effective request per scheduler rules (all resources); of a
                                   Cluster's pod: the pool's array, shared, read-only (cap 0) */
    NodeSelectorTerm *affinity_terms;   /* required node affinity (naffinity_terms) */
    PodClaimRef *claims;        /* DRA resource claims (array owned, strings pooled; nclaims) */
    uint32_t nclaims;
    uint8_t phase;              /* a PodPhase, in one byte */
    bool terminating;           /* metadata.deletionTimestamp set */
    bool spread_by_node;        /* a required pod anti-affinity term on kubernetes.io/hostname
                                   selects the pod itself (its own labels, its namespace): at
                                   most one such pod per node (replicas spread over nodes) */
    uint8_t rs_hash_len;        /* the controller is a ReplicaSet named <name>-<the pod's
                                   pod-template-hash label>, as a Deployment's are: that
                                   label's length (1-255), so that owner_name less it and the
                                   dash is the Deployment (plan_pod_workload); else 0 */
                                /* (scheduling gates, nodeSelector and tolerations: in PodMore,
                                   the same for the pods of a Job: 48 of 176 bytes; the phase in
                                   a byte: 8 more) */
} Pod;

/* The annotations pod.c reads (PodMore hami_devices and pod_group), and the list of them for the
 * readers that keep only those (jsonscan.h's "key.sub:m1,m2") */
#define POD_ANN_HAMI_DEVICES  "hami.io/vgpu-devices-allocated"
#define POD_ANN_KAI_GROUP     "pod-group-name"
#define POD_ANN_KUBE_GROUP    "scheduling.k8s.io/group-name"
#define POD_ANN_VOLCANO_GROUP "scheduling.volcano.sh/group-name"
#define POD_ANNOTATIONS_READ \
    POD_ANN_HAMI_DEVICES "," POD_ANN_KAI_GROUP "," POD_ANN_KUBE_GROUP "," POD_ANN_VOLCANO_GROUP
/* the members of a container (spec.containers[], initContainers[]) that pod.c reads: the
 * effective requests (resources, and restartPolicy for sidecars) and the init container named
 * for the GPU request; readers that keep only those ("key.sub:m1,m2") */
#define POD_CONTAINER_READ "name,resources,restartPolicy"

extern const PodMore pod_more_none;

struct cJSON;
/* a tolerations array (a pod spec's, a Kueue ResourceFlavor's) as pool's shared block, its
 * length in *count; NULL when there are none */
const Toleration *pod_tolerations_from_json(const struct cJSON *arr, StrPool *pool, uint32_t *count);
/* p's PodMore: never NULL */
static inline const PodMore *pod_more(const Pod *p) { return p->more ? p->more : &pod_more_none; }
/* p's scheduling gates, as a read-only Strvec view (nothing to free; cap 0) */
static inline Strvec pod_gates(const Pod *p)
{
    return (Strvec){ (char **)pod_more(p)->gates, pod_more(p)->ngates, 0 };
}

struct cJSON;
struct Error;
/* -1 when metadata.name is missing/too long or a node-affinity operator is unknown (nothing
 * to free then); wrong-typed fields get defaults (namespace "default", phase Pending).
 * Strings and the tolerations array go into pool (which must outlive p). */
int pod_from_json(Pod *p, const struct cJSON *obj, StrPool *pool, struct Error *err);
/* the same, for a pod a Cluster keeps (cluster.c): its effective requests
 * (pod_effective_requests of obj's spec) may be computed by the caller already: *requests is
 * taken (left empty), also on failure; NULL: computed here.  A bound pod's labels are only its
 * pod-template-hash, and only when a ReplicaSet owns it (nothing else reads a bound pod's
 * labels; its spread_by_node is still decided on all of them) */
int pod_from_json_kept(Pod *p, const struct cJSON *obj, StrPool *pool, ResourceList *requests,
                       struct Error *err);
void pod_clear(Pod *p);
/* effective request of a pod spec JSON, per scheduler rules (init containers, restartable
 * init containers = sidecars, overhead; pod-level resources for cpu/memory/hugepages-*;
 * a container's limit stands in for a missing request, as API defaulting does).
 * *out is replaced (its previous entries are freed). */
void pod_effective_requests(const struct cJSON *spec, ResourceList *out);
bool pod_requests_gpu(const Pod *p);
/* holds resources on its node: bound and phase neither Succeeded nor Failed */
bool pod_holds_resources(const Pod *p);
bool pod_is_pending_unbound(const Pod *p);   /* phase Pending and no nodeName */

const char *pod_phase_name(PodPhase ph);
#endif

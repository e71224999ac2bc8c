/* cluster.h — the reduced cluster: only the objects and fields kubectl-gpu uses.
 *
 * Sources (API client, snapshot reader) hand objects one at a time to cluster_ingest();
 * the JSON is borrowed and may be freed right after the call, so memory follows the number
 * of GPU nodes and GPU pods, not the size of the JSON:
 *   - every node is kept: name, labels, readiness, taints and resources (labels of CPU nodes
 *     too, so that selectors and affinity are judged on every node, as the scheduler does);
 *   - pods that request a GPU are kept (bound or pending), without their UID (Pod has no uid:
 *     nothing reads it); other bound pods are folded into per-node usage (cpu, memory, pod
 *     count) and dropped; other unbound pods are dropped;
 *   - pods with DRA resource claims (spec.resourceClaims) are kept too, GPU request or not;
 *     ResourceSlices, ResourceClaims (+ templates) and DeviceClasses go to c->dra (dra.h);
 *   - events: FailedScheduling of kept pods, FailedCreate "exceeded quota" of owners;
 *   - ResourceQuotas that mention a GPU resource; DaemonSets of the GPU Operator / device
 *     plugin; the ClusterPolicy state and the spec fields the planner reads; the ConfigMaps the
 *     ClusterPolicy names (device-plugin and mig-parted configs): their data as text (plan
 *     carries them over) and, of each device-plugin config key, its sharing facts (dpconfig.c,
 *     at most 256 keys in all).
 * cluster_finalize() must be called once after the last object: it joins pods to nodes and
 * computes per-node allocation.  Cluster owns everything; cluster_release releases it.  Nodes and
 * pods are decoded into its string pool (util/strpool.h): their `const char *` fields point
 * there and stay valid until cluster_release (top's live cluster compacts the pool, see
 * cluster_live.h, so borrowed strings must not outlive a refresh).  Events are in the pool too.
 * The few objects of the other kinds (Quota, DaemonSet, Service, ConfigMap, DevicePluginConfig,
 * the ClusterPolicy's fields, the DRA records of dra.h) own their `char *` strings: a watch
 * that replaces or deletes one frees them at once (ConfigMap values run to 1 MiB, which the
 * pool would keep until its next compaction), and cluster_release frees the rest.
 */
#ifndef KGPU_CLUSTER_H
#define KGPU_CLUSTER_H
#include <stdbool.h>
#include <stdint.h>
#include "model/node.h"
#include "model/pod.h"
#include "util/util.h"

typedef enum {
    OBJ_NODE, OBJ_POD, OBJ_EVENT, OBJ_RESOURCEQUOTA, OBJ_DAEMONSET, OBJ_CLUSTERPOLICY,
    OBJ_SERVICE, OBJ_CONFIGMAP, OBJ_PRIORITYCLASS,
    OBJ_RESOURCESLICE, OBJ_RESOURCECLAIM, OBJ_RESOURCECLAIMTEMPLATE, OBJ_DEVICECLASS,   /* DRA (dra.h) */
    OBJ_KUEUE_WORKLOAD, OBJ_KUEUE_LOCALQUEUE, OBJ_KUEUE_CLUSTERQUEUE, OBJ_KUEUE_FLAVOR,    /* queues.h */
    OBJ_KUEUE_COHORT, OBJ_VOLCANO_PODGROUP, OBJ_VOLCANO_QUEUE, OBJ_KAI_PODGROUP, OBJ_KAI_QUEUE,
    OBJ_KUEUE_PENDING,      /* visibility.kueue.x-k8s.io PendingWorkloadsSummary of one ClusterQueue */
    OBJ_KUEUE_PRIORITYCLASS,    /* Kueue's WorkloadPriorityClass (fit: a Job's label names one) */
    OBJ__COUNT
} ObjKind;
const char *obj_kind_name(ObjKind k);           /* "Node", "Pod", ... (JSON kind) */
bool obj_kind_from_name(const char *kind, ObjKind *out);
/* the same, told apart by the API group where two kinds share a name (Volcano's and KAI's
 * PodGroup and Queue: scheduling.volcano.sh / scheduling.run.ai); api_version may be NULL */
bool obj_kind_from_api(const char *api_version, const char *kind, ObjKind *out);
/* a queue kind (Kueue, Volcano, KAI: model/queue.h) */
bool obj_kind_is_queue(ObjKind k);

/* every string is the cluster's pool's copy (the pods of a Job share one message) */
typedef struct {
    const char *ns, *name;
    const char *reason;      /* FailedScheduling | FailedCreate | Scheduled | ... */
    const char *message;
    const char *involved_kind, *involved_name, *involved_uid;
    int count;
    int64_t last_seen;       /* lastTimestamp, eventTime or series.lastObservedTime */
} Event;

typedef struct {
    char *ns, *name;
    ResourceList hard, used;   /* status.hard / status.used (spec.hard when status absent) */
} Quota;

/* A ConfigMap volume of a device-plugin / MIG-manager DaemonSet and where its containers
 * mount it (the first mount path seen; NULL when no container mounts it). */
typedef struct {
    char *configmap;           /* volumes[].configMap.name */
    char *mount_path;          /* volumeMounts[].mountPath */
} DsConfigMount;

/* What a DaemonSet's pod template says about the GPU software it runs (kept only for the
 * device plugin and the MIG manager, found by image: the repository's last path component
 * k8s-device-plugin / k8s-mig-manager, so registry mirrors match too; model/actuators.h reads
 * it).  DS_ENV_KEYS are the only env values kept (config selection, never credentials). */
typedef enum { DS_OTHER, DS_DEVICE_PLUGIN, DS_MIG_MANAGER } DsRole;
#define DS_ENV_KEYS { "CONFIG_FILE", "DEFAULT_CONFIG", "FALLBACK_STRATEGIES", "MIG_STRATEGY", \
                      "NODE_LABEL", "CONFIG_FILE_SRCDIR", NULL }
#define DS_MAX_MOUNTS 8

typedef struct {
    char *ns, *name, *app;     /* app = metadata.labels.app or spec.selector.matchLabels.app */
    int desired, current, ready, available, updated, misscheduled;
    char *image;               /* first container's image ("nvcr.io/nvidia/k8s-device-plugin:v0.17.0");
                                  of a device plugin / MIG manager: that container's image */
    DsRole role;
    bool config_manager;       /* a container or init container runs config-manager (by name,
                                  command or NODE_LABEL=nvidia.com/device-plugin.config) */
    KVList env;                /* DS_ENV_KEYS of its containers (the plugin's wins) */
    KVList helm;               /* metadata.labels app.kubernetes.io/managed-by, helm.sh/chart,
                                  app.kubernetes.io/instance, app.kubernetes.io/name */
    DsConfigMount *mounts; size_t nmounts;   /* its ConfigMap volumes (at most DS_MAX_MOUNTS) */
} DaemonSet;

/* A ConfigMap the GPU Operator uses for the device plugin or the MIG manager (the loader reads
 * only those the ClusterPolicy names, and default-mig-parted-config); data kept as text, at
 * most CLUSTER_CONFIGMAP_MAX bytes per value (larger values: the ConfigMap is marked
 * truncated and must not be carried over). */
#define CLUSTER_CONFIGMAP_MAX (1024 * 1024)
typedef struct {
    char *ns, *name;
    KVList data;
    bool truncated;
} ConfigMap;

/* the honoured ClusterPolicy's spec fields the planner needs (NULL = not set) */
typedef struct {
    char *mig_strategy;        /* spec.mig.strategy: none|single|mixed */
    char *dp_config_name;      /* spec.devicePlugin.config.name */
    char *dp_config_default;   /* spec.devicePlugin.config.default */
    char *mig_config_name;     /* spec.migManager.config.name */
    char *mig_config_default;  /* spec.migManager.config.default */
    char *dp_version;          /* spec.devicePlugin.version (image tag) */
    char *operator_ns;         /* status.namespace */
    int mig_manager_enabled;   /* spec.migManager.enabled: 1, 0, -1 unset (the operator's
                                  default: enabled) */
} ClusterPolicySpec;

typedef struct {
    char *ns, *name;
    char *type;                /* ClusterIP, ... */
    KVList labels;
    struct { char *name; int port; } *ports; size_t nports;
} Service;

/* scheduling.k8s.io/v1 PriorityClass: what the Priority admission plugin gives a new pod
 * (analysis/fit_admit.c) */
typedef struct {
    char *name;
    int32_t value;
    bool global_default;
    char *preemption_policy;   /* NULL when the class sets none */
} PriorityClass;

/* one key of a device-plugin ConfigMap, reduced to its sharing facts */
typedef struct {
    char *ns, *name, *key;
    SharingStrategy strategy;
    int replicas;              /* 1 when not shared */
    bool renamed;
    char *where;               /* "ConfigMap NS/NAME, key KEY" (for SharingConfig.where) */
} DevicePluginConfig;

/* per-node usage by pods bound to it (all pods, GPU or not), computed by finalize */
typedef struct {
    ResourceList requested;    /* sum of effective requests of pods holding resources */
    int pods;                  /* number of such pods */
} NodeUsage;

typedef struct Cluster {
    Node *nodes; size_t nnodes, capnodes;
    NodeUsage *usage;          /* parallel to nodes, valid after finalize */
    Pod *pods; size_t npods, cappods;   /* GPU pods only */
    Event *events; size_t nevents, capevents;
    Quota *quotas; size_t nquotas, capquotas;
    DaemonSet *daemonsets; size_t ndaemonsets, capdaemonsets;
    Service *services; size_t nservices, capservices;
    PriorityClass *priority_classes; size_t npriority_classes, cappriority_classes;
    char *clusterpolicy_name, *clusterpolicy_state;   /* NULL when absent */
    ClusterPolicySpec cp;      /* of the honoured ClusterPolicy */
    ConfigMap *configmaps; size_t nconfigmaps, capconfigmaps;
    bool clusterpolicy_checked;  /* the CRD was queried (present or not) */
    DevicePluginConfig *dpconfigs; size_t ndpconfigs, capdpconfigs;
    struct DraState *dra;      /* DRA devices, claims and classes (model/dra.h); NULL when none */
    struct QueueState *queues; /* Kueue / Volcano / KAI objects (model/queue.h); NULL when none */
    Strvec warnings;           /* gaps and problems met while loading ("pods: forbidden ...") */
    int64_t now;               /* reference time for ages: snapshot time or wall clock */
    char *context, *server;    /* for headers; NULL offline */
    char *source;              /* "api" or "snapshot FILE" */
    char *pods_namespace;      /* live: the namespace pods, events and quotas were read from when
                                * the cluster-wide list was forbidden (LoadRequest.pods_forbidden_ns);
                                * their watches follow it (watch_plan.c).  NULL otherwise */
    struct UsageSnapshot *stored_usage;   /* usage a snapshot holds (usage.h), NULL when none */
    /* private: */
    struct StrMap *node_index;      /* name -> index+1 */
    struct StrMap *pending_usage;   /* node name -> NodeUsage* of non-GPU pods (dropped pods) */
    struct StrMap *plain_unbound;   /* "ns/name" of dropped pods bound to no node (explain says
                                     * such a pod requests no GPU); values unused */
    struct PodIndex *pod_index;     /* ns, name -> index+1 into pods (model/pod_index.h) */
    struct StrPool *strings;        /* one copy of each string of kept nodes and pods */
    size_t all_pods;           /* every pod seen */
    struct ClusterLive *live;       /* the incremental path's indexes (cluster_live.h), or NULL */
    bool finalized;
} Cluster;

void cluster_init(Cluster *c);     /* zeroes *c; now = wall clock (sources may override) */
void cluster_release(Cluster *c);
struct cJSON;
struct Error;
/* ingest one object of the given kind; kind OBJ__COUNT = read "kind" from the object.
 * Returns 0, or -1 with err set when the object is malformed beyond use (e.g. no name). */
int cluster_ingest(Cluster *c, ObjKind kind, const struct cJSON *obj, struct Error *err);
/* may be called again after more ingest; ingesting clears `finalized` (usage is stale until
 * the next finalize: cluster_node_usage returns NULL meanwhile).  Also drops FailedScheduling
 * events of pods that were not kept, when any pod was ingested. */
void cluster_finalize(Cluster *c);
/* c is read and will not be updated (no watch, no more ingest): the string pool's lookup
 * tables go, the strings stay (a later intern starts new tables); so does the usage of the
 * pods not kept, folded per node (finalize added it to `usage`; a later finalize would miss
 * it).  3.5 MB at 5,000 GPU nodes / 56,819 pods, given back before a command's own work
 * (explain, plan) builds on top of the cluster. */
void cluster_seal_strings(Cluster *c);

/* The device-plugin config node n runs, when known: the ClusterPolicy names the ConfigMap
 * (spec.devicePlugin.config.name), the node's nvidia.com/device-plugin.config label picks the
 * key, else the policy's default (the operator passes FALLBACK_STRATEGIES=empty: nothing else).
 * Fills *cfg (strings borrowed from c) and returns true; false when any of it is unknown. */
bool dpconfig_sharing_config(const Cluster *c, const Node *n, SharingConfig *cfg);
/* dpconfig.c, for cluster.c: ingest one ConfigMap; free the DevicePluginConfig list */
int dpconfig_ingest_configmap(Cluster *c, const struct cJSON *obj, struct Error *err);
void dpconfig_cluster_clear(Cluster *c);

Node *cluster_find_node(const Cluster *c, const char *name);
size_t cluster_node_index(const Cluster *c, const Node *n);
const NodeUsage *cluster_node_usage(const Cluster *c, const Node *n);
Pod *cluster_find_pod(const Cluster *c, const char *ns, const char *name);
/* a pod of that name was seen in ns, bound to no node and requesting no GPU (so not kept) */
bool cluster_saw_plain_unbound(const Cluster *c, const char *ns, const char *name);
/* A pod (API JSON) that cluster_ingest folds into its node's usage and keeps nothing else of:
 * a name and namespace ingest accepts, no container's, init container's or overhead's resource
 * named as a GPU resource (resources_is_gpu; a zero quantity counts too), no DRA claim and no
 * node affinity.  Of such a pod ingest reads only metadata.name and .namespace, spec.nodeName,
 * .containers and .initContainers (their resources and restartPolicy), .resources and
 * .overhead, and status.phase, so a copy with just those members (snapshot_reduce) gives the
 * same cluster.  Conservative: a pod it refuses may still be folded. */
bool cluster_pod_folded(const struct cJSON *pod);
const ConfigMap *cluster_find_configmap(const Cluster *c, const char *ns, const char *name);
/* the PriorityClass named name, NULL when none (or name NULL) */
const PriorityClass *cluster_find_priority_class(const Cluster *c, const char *name);
/* the image's repository is repo: its last path component, without tag or digest
 * ("mirror.local/nvidia/k8s-device-plugin:v0.17.0" is "k8s-device-plugin") */
bool cluster_image_is(const char *image, const char *repo);
/* appends to warnings; after 100 one "more warnings suppressed" line and nothing more */
void cluster_warn(Cluster *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif

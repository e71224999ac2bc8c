/* cluster_int.h — private to src/model: what cluster.c lends the incremental path
 * (cluster_live.c).  Strings of kept objects live in the cluster's pool: share moves a list's
 * names into it, unshare forgets them (the pool frees them with the cluster). */
#ifndef KGPU_MODEL_CLUSTER_INT_H
#define KGPU_MODEL_CLUSTER_INT_H
#include "model/cluster.h"

void cluster_share_rlist(Cluster *c, ResourceList *l);
void cluster_unshare_rlist(Cluster *c, ResourceList *l);
void cluster_release_node(Cluster *c, Node *n);     /* frees what n holds, not n */
void cluster_release_pod(Cluster *c, Pod *p);
void cluster_event_clear(Event *e);
/* what one quota, service or ConfigMap holds (not the struct); the device-plugin facts of a
 * ConfigMap (dpconfig.c) are forgotten with dpconfig_forget */
void cluster_quota_release(Quota *q);
void cluster_service_release(Service *s);
void cluster_priority_class_release(PriorityClass *pc);
void cluster_configmap_release(ConfigMap *m);
void cluster_daemonset_release(DaemonSet *d);
/* cluster_kinds.c: a quota, DaemonSet, ClusterPolicy, service or ConfigMap ingested (what is
 * kept of it, cluster.c's rules); all of them released (cluster_release) */
struct cJSON;
struct Error;
int cluster_ingest_small(Cluster *c, ObjKind kind, const struct cJSON *obj, struct Error *err);
void cluster_small_kinds_release(Cluster *c);
void dpconfig_forget(Cluster *c, const char *ns, const char *name);
/* cluster_live_kinds.c: quotas, DaemonSets, the ClusterPolicy, services, ConfigMaps and the
 * DRA kinds replaced, removed or dropped by namespace/name (for cluster_live.c) */
struct cJSON;
struct Error;
int cluster_live_small_apply(Cluster *c, ObjKind kind, bool del, const struct cJSON *obj, struct Error *err);
void cluster_live_small_reset(Cluster *c, ObjKind kind);
/* per-node sums of the pods that were folded away (no GPU), or NULL */
NodeUsage *cluster_pending_usage(Cluster *c, const char *node);
/* forgets those sums (before the pods are listed again) */
void cluster_live_clear_folded(Cluster *c);

/* strings of the pool (kept objects share one copy); compact = intern what is still used
 * into a new pool and drop the old one (O(kept objects)) */
size_t cluster_pooled_strings(const Cluster *c);
size_t cluster_pooled_bytes(const Cluster *c);
void cluster_compact_strings(Cluster *c);

/* cluster_plain.c: a pod without GPUs holding resources on node was folded into the node's
 * usage (called by ingest while c->live is set); free the live indexes; a NodeUsage* of a
 * StrMap freed (strmap_free's callback) */
void cluster_live_note_plain(Cluster *c, const char *ns, const char *name, const char *node,
                             const ResourceList *req);
void cluster_live_free(Cluster *c);
void cluster_usage_free(void *v);
#endif

/* cluster_live.h — a Cluster kept current by watch events, one object at a time.
 *
 * loader_cluster_load() builds the cluster once; a watch then says which node, pod or event was
 * added, modified or deleted.  Applying one costs time in proportion to that object (hash
 * lookups, the sums of at most two nodes), not to the cluster:
 *   - nodes: replaced in place, appended, or removed (the last node takes the hole);
 *   - GPU pods: the same, with the per-node usage of the node they leave and the node they
 *     join recomputed from two running sums (pods without GPUs, pods with GPUs);
 *   - pods without GPUs: what each contributes to its node's usage is remembered (node and
 *     effective request), so a modification or a deletion takes exactly that back;
 *   - events: FailedScheduling of kept pods and FailedCreate "exceeded quota", by name.
 * Other kinds (quotas, DaemonSets, the ClusterPolicy, services, ConfigMaps, and the DRA
 * ResourceSlices, ResourceClaims, ResourceClaimTemplates, DeviceClasses) are small: an upsert
 * replaces by namespace/name (kept or not by the list's rule), a delete removes; a change to
 * a DRA object makes the DRA joins again at commit (O(DRA objects), not nodes or pods).
 *
 * Use: cluster_live_enable() before the first cluster_ingest (so pods without GPUs are
 * remembered), cluster_finalize() and cluster_live_loaded() after the list, then cluster_live_apply() per event and
 * cluster_live_commit() after a batch (it leaves the cluster finalized).  A relist of one kind
 * is cluster_live_reset(kind), the items through cluster_live_apply(UPSERT), then commit
 * (which then runs a full cluster_finalize, as a list does).
 */
#ifndef KGPU_CLUSTER_LIVE_H
#define KGPU_CLUSTER_LIVE_H
#include <stdbool.h>
#include <stddef.h>
#include "model/cluster.h"

typedef enum { LIVE_UPSERT, LIVE_DELETE } LiveChange;

void cluster_live_enable(Cluster *c);
/* after the list (and its cluster_finalize): the records of the pods folded away are packed,
 * and the string pool's size is the one a compaction compares with (without it the first
 * commit would compact the whole pool, holding two copies of it for a moment) */
void cluster_live_loaded(Cluster *c);
/* obj is borrowed.  0, or -1 with err set (a malformed object; the cluster is unchanged) */
int cluster_live_apply(Cluster *c, ObjKind kind, LiveChange change, const struct cJSON *obj,
                       struct Error *err);
/* drops every object of kind (before its relist; events: the FailedScheduling ones, which
 * are what is watched) */
void cluster_live_reset(Cluster *c, ObjKind kind);
/* after a batch of changes: the cluster is finalized again; the string pool is compacted
 * when it doubled since the last time (strings of objects gone are dropped) */
void cluster_live_commit(Cluster *c);
/* strings the cluster holds in its pool (for tests and diagnostics) */
size_t cluster_live_pooled_strings(const Cluster *c);
size_t cluster_live_pooled_bytes(const Cluster *c);      /* the pool's chunks and tables */
#endif

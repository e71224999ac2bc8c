/* watch_plan.h — private to src/sources: what each kind's watch asks for (watch.c).
 *
 * One target per kind that was listed with a resourceVersion (loader_cluster_load_at's list_rv),
 * with the list's own path and selectors, so that a watch (and a relist after 410) sees the
 * same objects the list saw:
 *   nodes                 /api/v1/nodes [?labelSelector=--selector]
 *   pods                  /api/v1[/namespaces/NS]/pods?fieldSelector=not finished[&labelSelector=-l]
 *   events                /api/v1[/namespaces/NS]/events?fieldSelector=reason=FailedScheduling
 *   resourcequotas        /api/v1[/namespaces/NS]/resourcequotas
 *   daemonsets            /apis/apps/v1/daemonsets
 *   clusterpolicies       /apis/nvidia.com/v1/clusterpolicies
 *   services              /api/v1/services
 *   configmaps            the ClusterPolicy's device-plugin and mig-parted ConfigMaps (the names
 *                         the loader read, by the cluster's honoured ClusterPolicy): in its
 *                         namespace (else every namespace), fieldSelector=metadata.name=N when
 *                         there is one name, else the namespace's ConfigMaps kept by name
 *   DRA                   /apis/resource.k8s.io/VERSION/{resourceslices,resourceclaims,
 *                         resourceclaimtemplates,deviceclasses} (the version the list used)
 * A kind refused (403) or not served (404) when listed has no list_rv: it is not watched.
 */
#ifndef KGPU_SOURCES_WATCH_PLAN_H
#define KGPU_SOURCES_WATCH_PLAN_H
#include "model/cluster.h"
#include "sources/loader.h"

typedef struct {
    ObjKind kind;
    char *path;
    char *query;                   /* the selectors, encoded ("fieldSelector=...&labelSelector=..."), or NULL */
    char *rv;                      /* where the watch starts */
    char *only[2];                 /* ConfigMaps: keep only objects of these names (NULL: every object) */
} WatchTarget;

/* fills out (room for OBJ__COUNT) and returns how many; c: the listed cluster (may be NULL) */
int watch_plan(const LoadRequest *rq, const Cluster *c, char *const *list_rv, WatchTarget *out);
/* the object's name passes t's name filter */
bool watch_target_keeps(const WatchTarget *t, const char *name);
void watch_target_clear(WatchTarget *t);

/* The stream reader of one kind's watch (watch.c), without threads or requests, for tests and
 * tests/fuzz/fuzz_watch.c: the chunks are fed in order as libcurl hands them, then the stream
 * ends as a server ending it.  Counts what would have been queued; end is how the watch
 * ended: 'E' ended, 'G' 410 gone, 'X' another ERROR event, 'R' retried (429/500 event),
 * 'B' unreadable or oversized event.  rv: the last resourceVersion seen (caller frees). */
typedef struct {
    long upserts, deletes, events;
    char end;
    char problem[256];
    char *rv;
} WatchParseResult;
void watch_parse_chunks(ObjKind kind, const char *const *chunks, const size_t *lens, size_t n,
                        WatchParseResult *out);
#endif

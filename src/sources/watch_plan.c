/* watch_plan.c — the path and selectors of each kind's watch (watch_plan.h). */
#include "watch_plan.h"
#include "sources/apiclient.h"
#include "util/util.h"
#include <stdlib.h>
#include <string.h>

static char *selector(const char *param, const char *value)
{
    return value && *value ? apiclient_query_param(param, value) : NULL;
}

/* the ConfigMaps loader_cluster_load read: by the honoured ClusterPolicy, as loader.c picks them */
static bool configmap_target(const Cluster *c, WatchTarget *t)
{
    if (!c || !c->clusterpolicy_name) return false;
    const char *dp = c->cp.dp_config_name, *mig = c->cp.mig_config_name ? c->cp.mig_config_name
                                                                       : "default-mig-parted-config";
    const char *ns = c->cp.operator_ns;
    t->path = ns && *ns ? apiclient_core_path(ns, "configmaps") : xstrdup("/api/v1/configmaps");
    if (!dp || strcmp(dp, mig) == 0) {
        char *sel = xasprintf("metadata.name=%s", mig);
        t->query = apiclient_query_param("fieldSelector", sel);
        free(sel);
    }
    t->only[0] = xstrdup(mig);
    t->only[1] = dp ? xstrdup(dp) : NULL;
    return true;
}

static const char *queue_plural(ObjKind k)
{
    switch (k) {
    case OBJ_KUEUE_WORKLOAD: return "workloads";
    case OBJ_KUEUE_LOCALQUEUE: return "localqueues";
    case OBJ_KUEUE_CLUSTERQUEUE: return "clusterqueues";
    case OBJ_KUEUE_FLAVOR: return "resourceflavors";
    case OBJ_KUEUE_COHORT: return "cohorts";
    case OBJ_KUEUE_PRIORITYCLASS: return "workloadpriorityclasses";
    case OBJ_VOLCANO_PODGROUP: case OBJ_KAI_PODGROUP: return "podgroups";
    default: return "queues";
    }
}

int watch_plan(const LoadRequest *rq, const Cluster *c, char *const *list_rv, WatchTarget *out)
{
    /* the namespace the lists were read from: -n's, or the one read when the pods of every
     * namespace were forbidden (a cluster-wide watch would be refused too) */
    const char *ns = rq->pod_namespace ? rq->pod_namespace : c ? c->pods_namespace : NULL;
    const char *dra = strchr(loader_dra_api_version(), '/');     /* "resource.k8s.io/v1" */
    static const struct { ObjKind kind; const char *plural; } dra_kinds[] = {
        { OBJ_RESOURCESLICE, "resourceslices" }, { OBJ_RESOURCECLAIM, "resourceclaims" },
        { OBJ_RESOURCECLAIMTEMPLATE, "resourceclaimtemplates" }, { OBJ_DEVICECLASS, "deviceclasses" },
    };
    int n = 0;
    for (int k = 0; k < OBJ__COUNT; k++) {
        if (!list_rv || !list_rv[k]) continue;
        WatchTarget t = { .kind = (ObjKind)k };
        bool want = true;
        switch ((ObjKind)k) {
        case OBJ_NODE:
            want = rq->nodes;
            t.path = xstrdup("/api/v1/nodes");
            t.query = selector("labelSelector", rq->node_selector);
            break;
        case OBJ_POD:
            want = rq->pods;
            t.path = apiclient_core_path(ns, "pods");
            t.query = selector("fieldSelector", "status.phase!=Succeeded,status.phase!=Failed");
            break;
        case OBJ_EVENT:
            want = rq->events;
            t.path = apiclient_core_path(ns, "events");
            t.query = selector("fieldSelector", "reason=FailedScheduling");
            break;
        case OBJ_RESOURCEQUOTA:
            want = rq->quotas;
            t.path = apiclient_core_path(ns, "resourcequotas");
            break;
        case OBJ_DAEMONSET:
            want = rq->daemonsets;
            t.path = xstrdup("/apis/apps/v1/daemonsets");
            break;
        case OBJ_CLUSTERPOLICY:
            want = rq->clusterpolicy;
            t.path = xstrdup("/apis/nvidia.com/v1/clusterpolicies");
            break;
        case OBJ_SERVICE:
            want = rq->services;
            t.path = xstrdup("/api/v1/services");
            break;
        case OBJ_CONFIGMAP:
            want = rq->configmaps && rq->clusterpolicy && configmap_target(c, &t);
            break;
        case OBJ_PRIORITYCLASS:
            want = rq->priority_classes;
            t.path = xstrdup("/apis/scheduling.k8s.io/v1/priorityclasses");
            break;
        case OBJ_RESOURCESLICE: case OBJ_RESOURCECLAIM: case OBJ_RESOURCECLAIMTEMPLATE: case OBJ_DEVICECLASS:
            want = loader_wants_dra(rq) && dra;
            for (size_t i = 0; want && i < sizeof dra_kinds / sizeof *dra_kinds; i++)
                if (dra_kinds[i].kind == (ObjKind)k) t.path = xasprintf("/apis/resource.k8s.io%s/%s", dra, dra_kinds[i].plural);
            break;
        case OBJ_KUEUE_WORKLOAD: case OBJ_KUEUE_LOCALQUEUE: case OBJ_KUEUE_CLUSTERQUEUE: case OBJ_KUEUE_FLAVOR:
        case OBJ_KUEUE_COHORT: case OBJ_VOLCANO_PODGROUP: case OBJ_VOLCANO_QUEUE: case OBJ_KAI_PODGROUP:
        case OBJ_KAI_QUEUE: case OBJ_KUEUE_PRIORITYCLASS:
            want = loader_wants_queues(rq) && (k != OBJ_KUEUE_PRIORITYCLASS || rq->priority_classes);
            t.path = xasprintf("/apis/%s/%s", loader_queue_api_version((ObjKind)k), queue_plural((ObjKind)k));
            break;
        case OBJ_KUEUE_PENDING:          /* an answer, not a list: not watched (explain_queue.c
                                            computes positions once Workloads change) */
        case OBJ__COUNT:
            want = false;
            break;
        }
        if (!want || !t.path) { watch_target_clear(&t); continue; }
        t.rv = xstrdup(list_rv[k]);
        out[n++] = t;
    }
    return n;
}

bool watch_target_keeps(const WatchTarget *t, const char *name)
{
    if (!t->only[0]) return true;
    if (!name) return false;
    return strcmp(name, t->only[0]) == 0 || (t->only[1] && strcmp(name, t->only[1]) == 0);
}

void watch_target_clear(WatchTarget *t)
{
    free(t->path); free(t->query); free(t->rv); free(t->only[0]); free(t->only[1]);
    memset(t, 0, sizeof *t);
}

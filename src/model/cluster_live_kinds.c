/* cluster_live_kinds.c — the small kinds under a watch (cluster_int.h, for cluster_live.c).
 *
 * ResourceQuotas, DaemonSets, the ClusterPolicy, Services, ConfigMaps and the DRA kinds are
 * kept as the list keeps them (cluster.c decides what is kept); an event replaces or removes
 * one object by namespace/name:
 *   - an upsert takes the old copy out, then ingests the new one through cluster_ingest, so
 *     what is kept (a quota that no longer names a GPU resource, a Service no longer about
 *     Prometheus, a slice of another driver) follows the same rule as the list;
 *   - a delete takes it out;
 *   - a reset (before a relist) drops every object of the kind.
 * Cost: a scan of that kind's array (tens of objects; DRA: the devices of the cluster's DRA
 * slices), never of nodes or pods.  The DRA joins (dra_finalize: results to devices, class
 * matches) are made again once per batch, at cluster_live_commit, when a DRA object changed.
 */
#include "cluster_int.h"
#include "json_fields.h"
#include "model/dra.h"
#include "model/queue.h"
#include "util/error.h"
#include <stdlib.h>
#include <string.h>

#define REMOVE_AT(arr, n, i) do { memmove(&(arr)[i], &(arr)[(i) + 1], ((n) - (i) - 1) * sizeof *(arr)); (n)--; } while (0)

static void quota_remove(Cluster *c, const char *ns, const char *name)
{
    for (size_t i = 0; i < c->nquotas; i++)
        if (str_eq(c->quotas[i].ns, ns) && str_eq(c->quotas[i].name, name)) {
            cluster_quota_release(&c->quotas[i]);
            REMOVE_AT(c->quotas, c->nquotas, i);
            return;
        }
}

static void daemonset_remove(Cluster *c, const char *ns, const char *name)
{
    for (size_t i = 0; i < c->ndaemonsets; i++) {
        DaemonSet *d = &c->daemonsets[i];
        if (!str_eq(d->ns, ns) || !str_eq(d->name, name)) continue;
        cluster_daemonset_release(d);
        REMOVE_AT(c->daemonsets, c->ndaemonsets, i);
        return;
    }
}

static void service_remove(Cluster *c, const char *ns, const char *name)
{
    for (size_t i = 0; i < c->nservices; i++)
        if (str_eq(c->services[i].ns, ns) && str_eq(c->services[i].name, name)) {
            cluster_service_release(&c->services[i]);
            REMOVE_AT(c->services, c->nservices, i);
            return;
        }
}

static void priority_class_remove(Cluster *c, const char *name)
{
    const PriorityClass *pc = cluster_find_priority_class(c, name);
    if (!pc) return;
    size_t i = (size_t)(pc - c->priority_classes);
    cluster_priority_class_release(&c->priority_classes[i]);
    REMOVE_AT(c->priority_classes, c->npriority_classes, i);
}

static void configmap_remove(Cluster *c, const char *ns, const char *name)
{
    dpconfig_forget(c, ns, name);
    for (size_t i = 0; i < c->nconfigmaps; i++)
        if (str_eq(c->configmaps[i].ns, ns) && str_eq(c->configmaps[i].name, name)) {
            cluster_configmap_release(&c->configmaps[i]);
            REMOVE_AT(c->configmaps, c->nconfigmaps, i);
            return;
        }
}

static void clusterpolicy_forget(Cluster *c, const char *name)
{
    if (!c->clusterpolicy_name || !str_eq(c->clusterpolicy_name, name)) return;
    free(c->clusterpolicy_name);
    free(c->clusterpolicy_state);
    c->clusterpolicy_name = c->clusterpolicy_state = NULL;
}

static void dra_remove(Cluster *c, ObjKind kind, const char *ns, const char *name)
{
    if (!c->dra) return;
    switch (kind) {
    case OBJ_RESOURCESLICE: dra_remove_slice(c->dra, name); break;
    case OBJ_RESOURCECLAIM: dra_remove_claim(c->dra, ns, name, false); break;
    case OBJ_RESOURCECLAIMTEMPLATE: dra_remove_claim(c->dra, ns, name, true); break;
    case OBJ_DEVICECLASS: dra_remove_class(c->dra, name); break;
    default: break;
    }
}

int cluster_live_small_apply(Cluster *c, ObjKind kind, bool del, const cJSON *obj, Error *err)
{
    const cJSON *meta = jobj(obj, "metadata");
    const char *name = jstr_ne(meta, "name"), *ns = jstr_ne(meta, "namespace");
    if (!name) { error_set(err, "%s without metadata.name", obj_kind_name(kind)); return -1; }
    /* as ingest stores them: no namespace is "" (DRA claims: "default", dra.c's own rule) */
    const char *sns = ns ? ns : "";
    switch (kind) {
    case OBJ_RESOURCEQUOTA: quota_remove(c, sns, name); break;
    case OBJ_DAEMONSET: daemonset_remove(c, sns, name); break;
    case OBJ_SERVICE: service_remove(c, sns, name); break;
    case OBJ_CONFIGMAP: configmap_remove(c, sns, name); break;
    case OBJ_CLUSTERPOLICY: clusterpolicy_forget(c, name); break;
    case OBJ_PRIORITYCLASS: priority_class_remove(c, name); break;
    case OBJ_RESOURCESLICE: case OBJ_RESOURCECLAIM: case OBJ_RESOURCECLAIMTEMPLATE: case OBJ_DEVICECLASS:
        dra_remove(c, kind, ns, name);
        break;
    default:
        if (obj_kind_is_queue(kind)) {
            if (c->queues) queue_remove(c->queues, (QueueKind)(kind - OBJ_KUEUE_WORKLOAD), ns ? ns : "default", name);
            break;
        }
        error_set(err, "%s is not one of the small kinds", obj_kind_name(kind));
        return -1;
    }
    return del ? 0 : cluster_ingest(c, kind, obj, err);
}

void cluster_live_small_reset(Cluster *c, ObjKind kind)
{
    switch (kind) {
    case OBJ_RESOURCEQUOTA:
        for (size_t i = 0; i < c->nquotas; i++) cluster_quota_release(&c->quotas[i]);
        c->nquotas = 0;
        break;
    case OBJ_DAEMONSET:
        while (c->ndaemonsets) daemonset_remove(c, c->daemonsets[0].ns, c->daemonsets[0].name);
        break;
    case OBJ_SERVICE:
        for (size_t i = 0; i < c->nservices; i++) cluster_service_release(&c->services[i]);
        c->nservices = 0;
        break;
    case OBJ_CONFIGMAP:
        while (c->nconfigmaps) configmap_remove(c, c->configmaps[0].ns, c->configmaps[0].name);
        break;
    case OBJ_CLUSTERPOLICY:
        if (c->clusterpolicy_name) clusterpolicy_forget(c, c->clusterpolicy_name);
        break;
    case OBJ_PRIORITYCLASS:
        for (size_t i = 0; i < c->npriority_classes; i++) cluster_priority_class_release(&c->priority_classes[i]);
        c->npriority_classes = 0;
        break;
    case OBJ_RESOURCESLICE:
        while (c->dra && c->dra->ndevices) {
            char *slice = xstrdup(c->dra->devices[0].slice ? c->dra->devices[0].slice : "");
            size_t before = c->dra->ndevices;
            dra_remove_slice(c->dra, slice);
            free(slice);
            if (c->dra->ndevices == before) break;      /* a device without its slice's name */
        }
        break;
    case OBJ_RESOURCECLAIM: case OBJ_RESOURCECLAIMTEMPLATE: {
        bool t = kind == OBJ_RESOURCECLAIMTEMPLATE;
        while (c->dra && (t ? c->dra->ntemplates : c->dra->nclaims)) {
            const DraClaim *cl = t ? &c->dra->templates[0] : &c->dra->claims[0];
            dra_remove_claim(c->dra, cl->ns, cl->name, t);
        }
        break;
    }
    case OBJ_DEVICECLASS:
        while (c->dra && c->dra->nclasses) dra_remove_class(c->dra, c->dra->classes[0].name);
        break;
    default:
        if (obj_kind_is_queue(kind) && c->queues) queue_reset(c->queues, (QueueKind)(kind - OBJ_KUEUE_WORKLOAD));
        break;
    }
}

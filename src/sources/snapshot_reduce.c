/* snapshot_reduce.c — an API object reduced to what the model reads, for the snapshot.
 *
 * The members kept are those node.c, pod.c, cluster.c and dpconfig.c read (and the
 * analysis reads only the model), so a command gives the same answer from the snapshot as
 * live.  Everything else is left out: it is most of the bytes (managed fields, container
 * statuses, images, volumes), and what a snapshot does not copy it cannot leak (annotations,
 * env values, commands and arguments).  A member the model starts to read must be added here;
 * the tests compare live and snapshot answers on the same cluster (test_auth.sh,
 * test_snapshot_metrics.sh).
 */
#include "sources/snapshot_format.h"
#include "sources/loader.h"
#include "util/util.h"
#include <cjson/cJSON.h>
#include <string.h>

static const char *const META_KEEP[] = {
    "name", "namespace", "uid", "labels", "ownerReferences", "creationTimestamp", "deletionTimestamp", NULL
};
static const char *const CONTAINER_KEEP[] = { "name", "image", "resources", "restartPolicy", NULL };
static const char *const POD_SPEC_KEEP[] = {
    "nodeName", "containers", "initContainers", "overhead", "affinity", "nodeSelector", "tolerations",
    "priority", "priorityClassName", "preemptionPolicy", "schedulerName", "runtimeClassName",
    "schedulingGates", "resourceClaims", NULL
};
static const char *const POD_STATUS_KEEP[] = { "phase", "conditions", "nominatedNodeName", "reason", "message", NULL };
static const char *const NODE_SPEC_KEEP[] = { "taints", "unschedulable", NULL };
static const char *const NODE_STATUS_KEEP[] = { "capacity", "allocatable", "conditions", NULL };
static const char *const TEMPLATE_SPEC_KEEP[] = {
    "containers", "initContainers", "nodeSelector", "affinity", "tolerations", NULL
};

static bool listed(const char *const *keep, const char *name)
{
    for (; *keep; keep++)
        if (str_eq(*keep, name)) return true;
    return false;
}

/* a copy of the members of o named in keep (NULL when o is not an object) */
static cJSON *pick(const cJSON *o, const char *const *keep)
{
    if (!cJSON_IsObject(o)) return NULL;
    cJSON *out = cJSON_CreateObject();
    const cJSON *m;
    cJSON_ArrayForEach(m, o)
        if (m->string && listed(keep, m->string) && !cJSON_GetObjectItemCaseSensitive(out, m->string))
            cJSON_AddItemToObject(out, m->string, cJSON_Duplicate(m, 1));
    return out;
}

static void put(cJSON *o, const char *name, cJSON *v)
{
    if (v) cJSON_AddItemToObject(o, name, v);
}

/* containers reduced to CONTAINER_KEEP, in place */
static void reduce_containers(cJSON *spec, const char *name)
{
    cJSON *list = cJSON_GetObjectItemCaseSensitive(spec, name);
    if (!cJSON_IsArray(list)) return;
    cJSON *out = cJSON_CreateArray(), *c;
    cJSON_ArrayForEach(c, list) {
        cJSON *r = pick(c, CONTAINER_KEEP);
        cJSON_AddItemToArray(out, r ? r : cJSON_Duplicate(c, 1));
    }
    cJSON_ReplaceItemInObjectCaseSensitive(spec, name, out);
}

/* env values, wherever an object carries a list "env" of {name, value} (operator specs) */
static void drop_env_values(cJSON *o)
{
    if (!cJSON_IsObject(o) && !cJSON_IsArray(o)) return;
    cJSON *m;
    cJSON_ArrayForEach(m, o) {
        if (m->string && strcmp(m->string, "env") == 0 && cJSON_IsArray(m)) {
            cJSON *e;
            cJSON_ArrayForEach(e, m) {
                cJSON_DeleteItemFromObjectCaseSensitive(e, "value");
                cJSON_DeleteItemFromObjectCaseSensitive(e, "valueFrom");
            }
        } else {
            drop_env_values(m);
        }
    }
}

cJSON *snapshot_reduce(ObjKind kind, const cJSON *item)
{
    cJSON *out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "apiVersion", loader_api_version(kind));
    cJSON_AddStringToObject(out, "kind", obj_kind_name(kind));
    const cJSON *m;
    cJSON_ArrayForEach(m, item) {
        const char *k = m->string;
        if (!k || str_eq(k, "apiVersion") || str_eq(k, "kind") || cJSON_GetObjectItemCaseSensitive(out, k)) continue;
        if (str_eq(k, "metadata")) {
            put(out, k, pick(m, META_KEEP));
        } else if (kind == OBJ_POD && str_eq(k, "spec")) {
            cJSON *spec = pick(m, POD_SPEC_KEEP);
            reduce_containers(spec, "containers");
            reduce_containers(spec, "initContainers");
            put(out, k, spec);
        } else if (kind == OBJ_POD && str_eq(k, "status")) {
            put(out, k, pick(m, POD_STATUS_KEEP));
        } else if (kind == OBJ_NODE && str_eq(k, "spec")) {
            put(out, k, pick(m, NODE_SPEC_KEEP));
        } else if (kind == OBJ_NODE && str_eq(k, "status")) {
            put(out, k, pick(m, NODE_STATUS_KEEP));
        } else if (kind == OBJ_POD || kind == OBJ_NODE) {
            continue;       /* nothing else of a pod or node is read */
        } else if (kind == OBJ_DAEMONSET && str_eq(k, "spec")) {
            cJSON *spec = cJSON_CreateObject();
            put(spec, "selector", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(m, "selector"), 1));
            const cJSON *tpl = cJSON_GetObjectItemCaseSensitive(m, "template");
            if (cJSON_IsObject(tpl)) {
                cJSON *t = cJSON_AddObjectToObject(spec, "template");
                put(t, "metadata", pick(cJSON_GetObjectItemCaseSensitive(tpl, "metadata"), META_KEEP));
                cJSON *ts = pick(cJSON_GetObjectItemCaseSensitive(tpl, "spec"), TEMPLATE_SPEC_KEEP);
                reduce_containers(ts, "containers");
                reduce_containers(ts, "initContainers");
                put(t, "spec", ts);
            }
            put(out, k, spec);
        } else {
            cJSON_AddItemToObject(out, k, cJSON_Duplicate(m, 1));
        }
    }
    drop_env_values(out);
    return out;
}

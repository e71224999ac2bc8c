/* snapshot_reduce.c — an API object reduced to what the model reads, for the snapshot.
 *
 * The members kept are those node.c, pod.c, cluster.c and dpconfig.c read (and the
 * analysis reads only the model), so a command gives the same answer from the snapshot as
 * live.  Everything else is left out: it is most of the bytes (managed fields, container
 * statuses, images, volumes), and what a snapshot does not copy it cannot leak (annotations,
 * env values, commands and arguments; of a DaemonSet only the config-selection env values
 * DS_ENV_KEYS, the word config-manager and ConfigMap volume names stay).  A member the model starts to read must be added here;
 * the tests compare live and snapshot answers on the same cluster (test_auth.sh,
 * test_snapshot_metrics.sh).
 */
#include "sources/snapshot_format.h"
#include "sources/loader.h"
#include "model/cluster.h"
#include "util/util.h"
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const META_KEEP[] = {
    "name", "namespace", "uid", "labels", "ownerReferences", "creationTimestamp", "deletionTimestamp", NULL
};
/* the only annotations read (model/node.c NODE_ANNOTATIONS_READ, model/pod.c
 * POD_ANNOTATIONS_READ): HAMi's device registration of a node and the devices it gave a pod
 * (Project-HAMi/HAMi pkg/device/nvidia/device.go RegisterAnnos, SupportDevices), the PodGroup a
 * KAI or Volcano pod belongs to; no other annotation is copied */
static const char *const ANNOTATION_KEEP[] = { NODE_ANN_HAMI_REGISTER, POD_ANN_HAMI_DEVICES, POD_ANN_KAI_GROUP,
                                               POD_ANN_KUBE_GROUP, POD_ANN_VOLCANO_GROUP, NULL };
static const char *const CONTAINER_KEEP[] = { "name", "resources", "restartPolicy", NULL };
/* the image: versions and which software it is; env (names, and values of DS_ENV_KEYS only),
 * volumeMounts and command/args reduced below: which configs the device plugin reads */
static const char *const DS_CONTAINER_KEEP[] = { "name", "image", "resources", "env", "volumeMounts", "command",
                                                 "args", NULL };
static const char *const DS_MOUNT_KEEP[] = { "name", "mountPath", NULL };
static const char *const POD_SPEC_KEEP[] = {
    "nodeName", "containers", "initContainers", "overhead", "affinity", "nodeSelector", "tolerations",
    "priority", "priorityClassName", "preemptionPolicy", "schedulerName", "runtimeClassName",
    "schedulingGates", "resourceClaims", "resources", NULL
};
static const char *const POD_STATUS_KEEP[] = { "phase", "conditions", "nominatedNodeName", "reason", "message", NULL };
/* A pod the model only folds into its node's usage (model/cluster.h cluster_pod_folded: no GPU
 * resource, no claim, no node affinity; most pods of a cluster) keeps what that reads: its
 * name, namespace, node, phase and what its requests are computed from.  Its labels, owners,
 * tolerations and conditions were two thirds of a snapshot's bytes, read by nothing. */
static const char *const FOLDED_META_KEEP[] = { "name", "namespace", NULL };
static const char *const FOLDED_SPEC_KEEP[] = { "nodeName", "containers", "initContainers", "resources", "overhead", NULL };
static const char *const FOLDED_STATUS_KEEP[] = { "phase", NULL };
static const char *const NODE_SPEC_KEEP[] = { "taints", "unschedulable", NULL };
static const char *const NODE_STATUS_KEEP[] = { "capacity", "allocatable", "conditions", NULL };

/* what a pod or node keeps of its metadata, spec and status, and whether its kept annotations */
typedef struct {
    const char *const *meta, *const *spec, *const *status;
    bool annotations;
} ItemKeep;
static const ItemKeep POD_KEEP = { META_KEEP, POD_SPEC_KEEP, POD_STATUS_KEEP, true };
static const ItemKeep FOLDED_POD_KEEP = { FOLDED_META_KEEP, FOLDED_SPEC_KEEP, FOLDED_STATUS_KEEP, false };
static const ItemKeep NODE_KEEP = { META_KEEP, NODE_SPEC_KEEP, NODE_STATUS_KEEP, true };

/* the lists for item (a pod or a node: the reference tree and the writer ask alike) */
static const ItemKeep *item_keep(ObjKind kind, const cJSON *item)
{
    if (kind == OBJ_NODE) return &NODE_KEEP;
    return cluster_pod_folded(item) ? &FOLDED_POD_KEEP : &POD_KEEP;
}
static const char *const TEMPLATE_SPEC_KEEP[] = {
    "containers", "initContainers", "nodeSelector", "affinity", "tolerations", "volumes", NULL
};

static bool listed(const char *const *keep, const char *name)
{
    for (; *keep; keep++)
        if (**keep == *name && strcmp(*keep, name) == 0) return true;      /* (first bytes: most differ) */
    return false;
}

/* A new object with the members of o named in keep (NULL when o is not an object): copies,
 * or with ref, references to them (cJSON_AddItemReferenceToObject: printed as the member,
 * never freed or changed through the new object; o must outlive it).  Pods and nodes, most of
 * a snapshot, take references: nothing of theirs is changed afterwards other than by
 * replacing a member of the new object. */
static cJSON *pick_as(const cJSON *o, const char *const *keep, bool ref)
{
    if (!cJSON_IsObject(o)) return NULL;
    cJSON *out = cJSON_CreateObject();
    const cJSON *m;
    cJSON_ArrayForEach(m, o) {
        if (!m->string || !listed(keep, m->string)) continue;     /* (a repeated key stays repeated) */
        if (ref) cJSON_AddItemReferenceToObject(out, m->string, (cJSON *)m);
        else cJSON_AddItemToObject(out, m->string, cJSON_Duplicate(m, 1));
    }
    return out;
}

static cJSON *pick(const cJSON *o, const char *const *keep) { return pick_as(o, keep, false); }
static cJSON *pick_ref(const cJSON *o, const char *const *keep) { return pick_as(o, keep, true); }

static void put(cJSON *o, const char *name, cJSON *v)
{
    if (v) cJSON_AddItemToObject(o, name, v);
}

/* containers reduced to the members in keep: the member is replaced by a new list (of
 * references with ref) */
static void reduce_containers(cJSON *spec, const char *name, const char *const *keep, bool ref)
{
    cJSON *list = cJSON_GetObjectItemCaseSensitive(spec, name);
    if (!cJSON_IsArray(list)) return;
    cJSON *out = cJSON_CreateArray(), *c;
    cJSON_ArrayForEach(c, list) {
        cJSON *r = pick_as(c, keep, ref);
        if (r) cJSON_AddItemToArray(out, r);
    }
    cJSON_ReplaceItemInObjectCaseSensitive(spec, name, out);
}

/* a pod's conditions: only PodScheduled is read (pod.c); the member is replaced by a list of
 * references to those */
static void only_scheduled_condition(cJSON *status)
{
    cJSON *conds = cJSON_GetObjectItemCaseSensitive(status, "conditions");
    if (!cJSON_IsArray(conds)) return;
    cJSON *out = cJSON_CreateArray(), *c;
    cJSON_ArrayForEach(c, conds)
        if (str_eq(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "type")), "PodScheduled"))
            cJSON_AddItemReferenceToArray(out, c);
    cJSON_ReplaceItemInObjectCaseSensitive(status, "conditions", out);
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

/* a DaemonSet template's containers: env values only of DS_ENV_KEYS (cluster.h), mounts'
 * name and path, command and args only the words "config-manager" (what cluster.c reads);
 * volumes: only ConfigMap volumes, by name and map name */
static void reduce_ds_template(cJSON *ts)
{
    static const char *const env_keys[] = DS_ENV_KEYS;
    /* only the device plugin's and the MIG manager's DaemonSets keep anything of this */
    bool gpu = false;
    const char *const all[] = { "containers", "initContainers" };
    for (size_t k = 0; k < 2; k++) {
        const cJSON *ctr;
        cJSON_ArrayForEach(ctr, cJSON_GetObjectItemCaseSensitive(ts, all[k])) {
            const char *img = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ctr, "image"));
            gpu |= cluster_image_is(img, "k8s-device-plugin") || cluster_image_is(img, "k8s-mig-manager");
        }
    }
    if (!gpu) {
        drop_env_values(ts);
        cJSON_DeleteItemFromObjectCaseSensitive(ts, "volumes");
    }
    const char *const lists[] = { "containers", "initContainers" };
    for (size_t k = 0; k < 2; k++) {
        cJSON *ctr;
        cJSON_ArrayForEach(ctr, cJSON_GetObjectItemCaseSensitive(ts, lists[k])) {
            cJSON *e;
            cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(ctr, "env")) {
                const char *n = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "name"));
                bool keep = false;
                for (size_t q = 0; gpu && n && env_keys[q]; q++) keep |= str_eq(n, env_keys[q]);
                cJSON_DeleteItemFromObjectCaseSensitive(e, "valueFrom");
                if (!keep) cJSON_DeleteItemFromObjectCaseSensitive(e, "value");
            }
            cJSON *mounts = cJSON_GetObjectItemCaseSensitive(ctr, "volumeMounts");
            if (cJSON_IsArray(mounts)) {
                cJSON *out = cJSON_CreateArray(), *m;
                cJSON_ArrayForEach(m, mounts) { cJSON *r = pick(m, DS_MOUNT_KEEP); if (r) cJSON_AddItemToArray(out, r); }
                cJSON_ReplaceItemInObjectCaseSensitive(ctr, "volumeMounts", out);
            }
            const char *const words[] = { "command", "args" };
            for (size_t w = 0; w < 2; w++) {
                cJSON *list = cJSON_GetObjectItemCaseSensitive(ctr, words[w]);
                if (!list) continue;
                bool cm = false;
                cJSON *v;
                cJSON_ArrayForEach(v, list) cm |= cJSON_IsString(v) && strstr(v->valuestring, "config-manager") != NULL;
                if (cm) {
                    cJSON *out = cJSON_CreateArray();
                    cJSON_AddItemToArray(out, cJSON_CreateString("config-manager"));
                    cJSON_ReplaceItemInObjectCaseSensitive(ctr, words[w], out);
                } else {
                    cJSON_DeleteItemFromObjectCaseSensitive(ctr, words[w]);
                }
            }
        }
    }
    cJSON *vols = cJSON_GetObjectItemCaseSensitive(ts, "volumes");
    if (cJSON_IsArray(vols)) {
        cJSON *out = cJSON_CreateArray(), *v;
        cJSON_ArrayForEach(v, vols) {
            const cJSON *cm = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(v, "configMap"), "name");
            const cJSON *name = cJSON_GetObjectItemCaseSensitive(v, "name");
            if (!cJSON_IsString(cm) || !cJSON_IsString(name)) continue;
            cJSON *r = cJSON_CreateObject();
            cJSON_AddStringToObject(r, "name", name->valuestring);
            cJSON_AddStringToObject(cJSON_AddObjectToObject(r, "configMap"), "name", cm->valuestring);
            cJSON_AddItemToArray(out, r);
        }
        cJSON_ReplaceItemInObjectCaseSensitive(ts, "volumes", out);
    }
}

/* a Kueue Workload's pod templates: what model/queue.c reads (each container's name, resources
 * and restartPolicy, the init containers alike, overhead, pod-level resources, nodeSelector);
 * never command, args, env or image (a Job's credentials ride there) */
static void reduce_workload_templates(cJSON *spec)
{
    static const char *const spec_keep[] = { "containers", "initContainers", "overhead", "resources", "nodeSelector", NULL };
    static const char *const ctr_keep[] = { "name", "resources", "restartPolicy", NULL };
    cJSON *ps;
    cJSON_ArrayForEach(ps, cJSON_GetObjectItemCaseSensitive(spec, "podSets")) {
        cJSON *tmpl = cJSON_GetObjectItemCaseSensitive(ps, "template");
        cJSON *ts = cJSON_GetObjectItemCaseSensitive(tmpl, "spec");
        if (!cJSON_IsObject(ts)) continue;
        cJSON *keep = cJSON_CreateObject();
        for (size_t i = 0; spec_keep[i]; i++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(ts, spec_keep[i]);
            if (!v) continue;
            if (!cJSON_IsArray(v)) { cJSON_AddItemToObject(keep, spec_keep[i], cJSON_Duplicate(v, 1)); continue; }
            cJSON *arr = cJSON_AddArrayToObject(keep, spec_keep[i]);
            const cJSON *ctr;
            cJSON_ArrayForEach(ctr, v) {
                cJSON *c = cJSON_CreateObject();
                for (size_t k = 0; ctr_keep[k]; k++) {
                    const cJSON *f = cJSON_GetObjectItemCaseSensitive(ctr, ctr_keep[k]);
                    if (f) cJSON_AddItemToObject(c, ctr_keep[k], cJSON_Duplicate(f, 1));
                }
                cJSON_AddItemToArray(arr, c);
            }
        }
        cJSON_ReplaceItemInObjectCaseSensitive(tmpl, "spec", keep);
        cJSON_DeleteItemFromObjectCaseSensitive(tmpl, "metadata");    /* labels, annotations: not read */
    }
}

cJSON *snapshot_reduce(ObjKind kind, const cJSON *item)
{
    bool pod_or_node = kind == OBJ_POD || kind == OBJ_NODE;
    const ItemKeep *keep = pod_or_node ? item_keep(kind, item) : NULL;
    cJSON *out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "apiVersion", loader_api_version(kind));
    cJSON_AddStringToObject(out, "kind", obj_kind_name(kind));
    const cJSON *m;
    cJSON_ArrayForEach(m, item) {
        const char *k = m->string;
        if (!k || str_eq(k, "apiVersion") || str_eq(k, "kind")) continue;
        if (str_eq(k, "metadata")) {
            cJSON *meta = pick_as(m, keep ? keep->meta : META_KEEP, pod_or_node);
            cJSON *ann = keep && keep->annotations
                       ? pick_as(cJSON_GetObjectItemCaseSensitive(m, "annotations"), ANNOTATION_KEEP, true) : NULL;
            if (ann && ann->child) cJSON_AddItemToObject(meta, "annotations", ann);
            else cJSON_Delete(ann);
            put(out, k, meta);
        } else if (kind == OBJ_POD && str_eq(k, "spec")) {
            cJSON *spec = pick_ref(m, keep->spec);
            reduce_containers(spec, "containers", CONTAINER_KEEP, true);
            reduce_containers(spec, "initContainers", CONTAINER_KEEP, true);
            put(out, k, spec);
        } else if (kind == OBJ_POD && str_eq(k, "status")) {
            cJSON *st = pick_ref(m, keep->status);
            only_scheduled_condition(st);
            put(out, k, st);
        } else if (kind == OBJ_NODE && str_eq(k, "spec")) {
            put(out, k, pick_ref(m, keep->spec));
        } else if (kind == OBJ_NODE && str_eq(k, "status")) {
            put(out, k, pick_ref(m, keep->status));
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
                reduce_containers(ts, "containers", DS_CONTAINER_KEEP, false);
                reduce_containers(ts, "initContainers", DS_CONTAINER_KEEP, false);
                reduce_ds_template(ts);
                put(t, "spec", ts);
            }
            put(out, k, spec);
        } else {
            cJSON_AddItemToObject(out, k, cJSON_Duplicate(m, 1));
        }
    }
    if (kind == OBJ_KUEUE_WORKLOAD) reduce_workload_templates(cJSON_GetObjectItemCaseSensitive(out, "spec"));
    /* (a pod's or node's members kept hold no env: their containers are reduced; a
     * DaemonSet's spec keeps only DS_ENV_KEYS values, reduce_ds_template) */
    if (!pod_or_node && kind != OBJ_DAEMONSET) drop_env_values(out);
    else if (kind == OBJ_DAEMONSET)
        for (cJSON *m2 = out->child; m2; m2 = m2->next)
            if (!str_eq(m2->string, "spec")) drop_env_values(m2);
    return out;
}

/* ---- snapshot_reduce_write: pods and nodes printed as reduced, without building them ---- */

/* the item's text is gathered in *buf (grown as needed, kept by the caller from item to item)
 * and handed to the sink once */
typedef struct {
    char **buf; size_t *cap, n;
    bool ok;
} Emit;

static void emit_grow(Emit *e, size_t need)
{
    size_t cap = *e->cap ? *e->cap : 4096;
    while (cap - e->n < need) cap *= 2;
    *e->buf = xrealloc(*e->buf, cap);
    *e->cap = cap;
}

/* every piece written asks for room: the test in place, the growing out of line */
__attribute__((always_inline)) static inline void emit_room(Emit *e, size_t need)
{
    if (*e->cap - e->n < need) emit_grow(e, need);
}

__attribute__((always_inline)) static inline void emit_mem(Emit *e, const char *s, size_t n)
{
    emit_room(e, n + 1);
    memcpy(*e->buf + e->n, s, n);
    e->n += n;
}

#define EMIT_LIT(e, lit) emit_mem((e), (lit), sizeof(lit) - 1)
static void emit_text(Emit *e, const char *s) { emit_mem(e, s, strlen(s)); }

/* a constant key (one of the keep lists' names, or a top-level member name): no escapes */
static void emit_key(Emit *e, bool *first, const char *key)
{
    size_t n = strlen(key);
    emit_room(e, n + 5);                               /* ,"key": in one piece */
    char *o = *e->buf + e->n, *start = o;
    if (!*first) *o++ = ',';
    *first = false;
    *o++ = '"';
    memcpy(o, key, n);
    o += n;
    *o++ = '"';
    *o++ = ':';
    e->n += (size_t)(o - start);
}

/* a value of the item, printed by cJSON itself, in place (a value that does not fit in 1 MiB of
 * room: through cJSON_PrintUnformatted) */
static void emit_value(Emit *e, const cJSON *v)
{
    for (size_t room = 4096;; room *= 4) {
        emit_room(e, room);
        if (cJSON_PrintPreallocated((cJSON *)v, *e->buf + e->n, (int)(*e->cap - e->n), 0)) {
            e->n += strlen(*e->buf + e->n);
            return;
        }
        if (room >= ((size_t)1 << 20)) break;
    }
    char *text = cJSON_PrintUnformatted(v);
    if (!text) { e->ok = false; return; }
    emit_text(e, text);
    free(text);
}

/* a string as cJSON prints it: one that needs no escape (no '"', '\\' or control character) is
 * its bytes between quotes (print_string_ptr copies such bytes as they are); any other, and
 * NULL, printed by cJSON */
static void emit_string_then(Emit *e, const char *s, char then);
static void emit_string(Emit *e, const char *s) { emit_string_then(e, s, 0); }

/* the string, then the byte then (a member's ':'; 0: none) */
static void emit_string_then(Emit *e, const char *s, char then)
{
    if (s) {
        size_t n = str_json_plain(s);
        if (!s[n]) {
            emit_room(e, n + 4);
            char *o = *e->buf + e->n;
            o[0] = '"';
            memcpy(o + 1, s, n);
            o[n + 1] = '"';
            e->n += n + 2;
            if (then) { o[n + 2] = then; e->n++; }
            return;
        }
    }
    cJSON tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.type = cJSON_String;
    tmp.valuestring = (char *)s;
    emit_value(e, &tmp);
    if (then) emit_mem(e, &then, 1);
}

/* a number as cJSON prints it: an integral value of magnitude under 10^15 is its digits in
 * every cJSON version (1.7.15's "%1.15g", later ones' "%d"); fractions, larger values and -0
 * printed by cJSON */
static void emit_number(Emit *e, const cJSON *v)
{
    double d = v->valuedouble;
    if (!(d > -1e15 && d < 1e15) || d != (double)(long long)d || (d == 0 && signbit(d))) { emit_value(e, v); return; }
    long long x = (long long)d;
    unsigned long long u = x < 0 ? 0ULL - (unsigned long long)x : (unsigned long long)x;
    char tmp[24];
    size_t i = sizeof tmp;
    do { tmp[--i] = (char)('0' + u % 10); u /= 10; } while (u);
    if (x < 0) tmp[--i] = '-';
    emit_mem(e, tmp + i, sizeof tmp - i);
}

/* any value of the item, as cJSON_PrintUnformatted prints it (print_object, print_array: no
 * blanks, "key":value joined by commas, a member without a key as "") */
static void emit_any(Emit *e, const cJSON *v)
{
    switch (v->type & 0xFF) {
    case cJSON_String: emit_string(e, v->valuestring); return;
    case cJSON_Number: emit_number(e, v); return;
    case cJSON_Array:
    case cJSON_Object: {
        bool obj = (v->type & 0xFF) == cJSON_Object;
        if (obj) EMIT_LIT(e, "{");
        else EMIT_LIT(e, "[");
        for (const cJSON *c = v->child; c; c = c->next) {
            if (c != v->child) EMIT_LIT(e, ",");
            if (obj) emit_string_then(e, c->string, ':');
            emit_any(e, c);
        }
        if (obj) EMIT_LIT(e, "}");
        else EMIT_LIT(e, "]");
        return;
    }
    default: emit_value(e, v); return;
    }
}

/* what replaces the first member of that name in a picked object when it is an array (as
 * cJSON_GetObjectItemCaseSensitive then cJSON_ReplaceItemInObjectCaseSensitive do) */
typedef enum { SPECIAL_NONE, SPECIAL_CONTAINERS, SPECIAL_SCHEDULED } Special;

/* pick_as(o, keep) printed (o an object); the first member of each name in specials (at most
 * two), when an array, printed as special makes it */
static void emit_pick(Emit *e, const cJSON *o, const char *const *keep, const char *const *specials, Special special,
                      const cJSON *annotations);

static void emit_special(Emit *e, const cJSON *list, Special special)
{
    EMIT_LIT(e, "[");
    bool first = true;
    const cJSON *c;
    cJSON_ArrayForEach(c, list) {
        if (special == SPECIAL_CONTAINERS) {            /* reduce_containers: pick_as of each object */
            if (!cJSON_IsObject(c)) continue;
            if (!first) EMIT_LIT(e, ",");
            first = false;
            emit_pick(e, c, CONTAINER_KEEP, NULL, SPECIAL_NONE, NULL);
        } else {                                        /* only_scheduled_condition */
            if (!str_eq(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "type")), "PodScheduled")) continue;
            if (!first) EMIT_LIT(e, ",");
            first = false;
            emit_any(e, c);
        }
    }
    EMIT_LIT(e, "]");
}

static void emit_pick(Emit *e, const cJSON *o, const char *const *keep, const char *const *specials, Special special,
                      const cJSON *annotations)
{
    EMIT_LIT(e, "{");
    bool first = true, seen[2] = { false, false };
    const cJSON *m;
    cJSON_ArrayForEach(m, o) {
        if (!m->string || !listed(keep, m->string)) continue;
        emit_key(e, &first, m->string);
        size_t i = 0;
        while (specials && specials[i] && strcmp(m->string, specials[i]) != 0) i++;
        if (specials && specials[i] && !seen[i]) {
            seen[i] = true;
            if (cJSON_IsArray(m)) { emit_special(e, m, special); continue; }
        }
        emit_any(e, m);
    }
    if (annotations) {                                  /* a metadata's kept annotations, last */
        bool any = false;
        cJSON_ArrayForEach(m, annotations) any |= m->string && listed(ANNOTATION_KEEP, m->string);
        if (any) {
            emit_key(e, &first, "annotations");
            emit_pick(e, annotations, ANNOTATION_KEEP, NULL, SPECIAL_NONE, NULL);
        }
    }
    EMIT_LIT(e, "}");
}

bool snapshot_reduce_write(ObjKind kind, const cJSON *item, char **buf, size_t *cap, SnapshotSinkFn sink, void *ctx)
{
    static const char *const container_lists[] = { "containers", "initContainers", NULL };
    static const char *const conditions[] = { "conditions", NULL };
    if (kind != OBJ_POD && kind != OBJ_NODE) return false;
    const ItemKeep *keep = item_keep(kind, item);
    Emit e = { buf, cap, 0, true };
    EMIT_LIT(&e, "{\"apiVersion\":\"");
    emit_text(&e, loader_api_version(kind));
    EMIT_LIT(&e, "\",\"kind\":\"");
    emit_text(&e, obj_kind_name(kind));
    EMIT_LIT(&e, "\"");
    bool first = false;
    const cJSON *m;
    cJSON_ArrayForEach(m, item) {
        const char *k = m->string;
        if (!k || str_eq(k, "apiVersion") || str_eq(k, "kind") || !cJSON_IsObject(m)) continue;
        if (str_eq(k, "metadata")) {
            const cJSON *ann = keep->annotations ? cJSON_GetObjectItemCaseSensitive(m, "annotations") : NULL;
            emit_key(&e, &first, "metadata");
            emit_pick(&e, m, keep->meta, NULL, SPECIAL_NONE, cJSON_IsObject(ann) ? ann : NULL);
        } else if (kind == OBJ_POD && str_eq(k, "spec")) {
            emit_key(&e, &first, "spec");
            emit_pick(&e, m, keep->spec, container_lists, SPECIAL_CONTAINERS, NULL);
        } else if (kind == OBJ_POD && str_eq(k, "status")) {
            emit_key(&e, &first, "status");
            emit_pick(&e, m, keep->status, conditions, SPECIAL_SCHEDULED, NULL);
        } else if (kind == OBJ_NODE && (str_eq(k, "spec") || str_eq(k, "status"))) {
            emit_key(&e, &first, k);
            emit_pick(&e, m, str_eq(k, "spec") ? keep->spec : keep->status, NULL, SPECIAL_NONE, NULL);
        }
    }
    EMIT_LIT(&e, "}");
    if (e.ok) sink(ctx, *buf, e.n);
    return e.ok;
}

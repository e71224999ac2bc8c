/* loader_queues.c — the batch queues' lists (model/queue.h), page by page like the rest:
 *   kueue.x-k8s.io         clusterqueues, localqueues, resourceflavors, cohorts, workloads, in
 *                          the version the server prefers (v1beta2 or v1beta1: the group's
 *                          discovery document, GET /apis/kueue.x-k8s.io, says which);
 *                          workloadpriorityclasses too when PriorityClasses are asked for (fit)
 *   scheduling.volcano.sh  v1beta1 queues, podgroups
 *   scheduling.run.ai      v2 queues, v2alpha2 podgroups (KAI Scheduler)
 *   visibility.kueue.x-k8s.io  after the Workloads, when served: each ClusterQueue's
 *                          pendingworkloads (Kueue's own positions; list_visibility)
 * Each group is asked for once (GET /apis/GROUP): a 404 means the system is not installed and
 * costs nothing more and says nothing.  A list refused with 403 (or 404: a kind an older
 * release does not serve, e.g. Kueue's cohorts) is a warning naming what is not shown; only a
 * 403 warns, a missing kind is silent.  Other failures fail the load.  The versions found are
 * what snapshots write as the items' apiVersion.
 */
#include "sources/loader.h"
#include "sources/apiclient.h"
#include "util/error.h"
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char kueue_version[96] = "kueue.x-k8s.io/v1beta1";   /* last one served (for snapshots) */

static char visibility_version[64] = "visibility.kueue.x-k8s.io/v1beta2";

const char *loader_queue_api_version(ObjKind kind)
{
    switch (kind) {
    case OBJ_KUEUE_PENDING: return visibility_version;
    case OBJ_VOLCANO_PODGROUP: case OBJ_VOLCANO_QUEUE: return "scheduling.volcano.sh/v1beta1";
    case OBJ_KAI_PODGROUP: return "scheduling.run.ai/v2alpha2";
    case OBJ_KAI_QUEUE: return "scheduling.run.ai/v2";
    default: return kueue_version;
    }
}

bool loader_wants_queues(const LoadRequest *rq) { return rq->queues; }

typedef struct {
    ObjKind kind;
    LoaderItemFn fn;
    void *ctx;
} QueueListCtx;

static int group_version(ApiClient *api, const char *group, const char *want, char *ver, size_t vlen,
                         Strvec *warnings, Error *err);

static Strvec *seen_cqs;        /* the ClusterQueues listed, for the visibility API (one load at a time) */

static int on_queue_item(void *ctx, const cJSON *item, Error *err)
{
    QueueListCtx *lc = ctx;
    if (lc->kind == OBJ_KUEUE_CLUSTERQUEUE && seen_cqs) {
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(item, "metadata"), "name"));
        if (name && *name) strvec_push(seen_cqs, name);
    }
    return lc->fn(lc->ctx, lc->kind, item, err);
}

/* Kueue's own positions: GET /apis/visibility.kueue.x-k8s.io/VER/clusterqueues/NAME/pendingworkloads
 * (pkg/visibility/storage/pending_workloads_cq.go; at most 100,000 per answer, constants.go:49)
 * when the aggregated API is served; each answer goes to fn as OBJ_KUEUE_PENDING.  Not retried
 * (a visibility server that is down answers 503 for long): any failure leaves the positions to
 * be computed; a 403 says so once. */
static int list_visibility(ApiClient *api, const Strvec *cqs, LoaderItemFn fn, void *ctx, Strvec *warnings, Error *err)
{
    char ver[32] = "";
    Error e = { 0 };
    int served = group_version(api, "visibility.kueue.x-k8s.io", NULL, ver, sizeof ver, warnings, &e);
    if (served != 0) return 0;                      /* not served (or refused: warned) */
    snprintf(visibility_version, sizeof visibility_version, "visibility.kueue.x-k8s.io/%s", ver);
    ApiRequestOptions ro = { .max_retries = 0, .timeout = 0 };
    for (size_t i = 0; i < cqs->n; i++) {
        char *name = apiclient_query_escape(cqs->v[i]);
        char *path = xasprintf("/apis/visibility.kueue.x-k8s.io/%s/clusterqueues/%s/pendingworkloads", ver, name);
        free(name);
        Strbuf body = STRBUF_INIT;
        Error ge = { 0 };
        int rc = apiclient_get_raw_ex(api, path, "limit=100000", &ro, &body, &ge);
        free(path);
        if (rc == 0) {
            cJSON *doc = cJSON_ParseWithLength(body.buf ? body.buf : "", body.len);
            if (cJSON_IsObject(doc) && fn(ctx, OBJ_KUEUE_PENDING, doc, err)) { cJSON_Delete(doc); strbuf_clear(&body); return -1; }
            cJSON_Delete(doc);
        } else if (ge.code == 403) {
            strvec_pushf(warnings, "pendingworkloads.visibility.kueue.x-k8s.io: %s (Kueue's positions computed here)", ge.msg);
            strbuf_clear(&body);
            break;
        }
        strbuf_clear(&body);
    }
    return 0;
}

static const char *const queue_skip[] = { "metadata.managedFields", "metadata.annotations", NULL };

/* GET /apis/GROUP: 0 with the preferred version (or, when want is given, want if served) in
 * ver; 1 not served; -1 failed (err set) */
static int group_version(ApiClient *api, const char *group, const char *want, char *ver, size_t vlen,
                         Strvec *warnings, Error *err)
{
    char *path = xasprintf("/apis/%s", group);
    cJSON *doc = NULL;
    Error e = { 0 };
    int rc = apiclient_get_json(api, path, NULL, &doc, &e);
    free(path);
    if (rc) {
        if (e.code == 404) return 1;
        if (e.code == 403) {
            strvec_pushf(warnings, "%s: %s (its queues not shown)", group, e.msg);
            return 1;
        }
        *err = e;
        return -1;
    }
    const char *pref = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(doc, "preferredVersion"), "version"));
    const cJSON *v;
    bool found = false;
    cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(doc, "versions")) {
        const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "version"));
        if (want && s && strcmp(s, want) == 0) found = true;
    }
    if (want) snprintf(ver, vlen, "%s", want);
    else if (pref) snprintf(ver, vlen, "%s", pref);
    else found = false;
    cJSON_Delete(doc);
    return want ? (found ? 0 : 1) : (pref ? 0 : 1);
}

int loader_list_queues(ApiClient *api, LoaderItemFn fn, void *ctx, Strvec *warnings, bool model,
                       bool priority_classes, char **list_rv, Error *err)
{
    static const struct {
        const char *group, *version;     /* NULL: the group's preferred version */
        ObjKind kind;
        const char *plural, *consequence;
    } lists[] = {
        { "kueue.x-k8s.io", NULL, OBJ_KUEUE_CLUSTERQUEUE, "clusterqueues", "Kueue quotas not shown" },
        { "kueue.x-k8s.io", NULL, OBJ_KUEUE_LOCALQUEUE, "localqueues", "Kueue local queues not read" },
        { "kueue.x-k8s.io", NULL, OBJ_KUEUE_FLAVOR, "resourceflavors", "Kueue flavors' nodes not read" },
        { "kueue.x-k8s.io", NULL, OBJ_KUEUE_COHORT, "cohorts", "Kueue cohort tree not read" },
        { "kueue.x-k8s.io", NULL, OBJ_KUEUE_PRIORITYCLASS, "workloadpriorityclasses",
          "the Kueue priority of a template that names one is its pods'" },
        { "kueue.x-k8s.io", NULL, OBJ_KUEUE_WORKLOAD, "workloads", "Kueue workloads not shown" },
        { "scheduling.volcano.sh", "v1beta1", OBJ_VOLCANO_QUEUE, "queues", "Volcano queues not shown" },
        { "scheduling.volcano.sh", "v1beta1", OBJ_VOLCANO_PODGROUP, "podgroups", "Volcano gangs not shown" },
        { "scheduling.run.ai", "v2", OBJ_KAI_QUEUE, "queues", "KAI queues not shown" },
        { "scheduling.run.ai", "v2alpha2", OBJ_KAI_PODGROUP, "podgroups", "KAI gangs not shown" },
    };
    const char *group = NULL;
    int served = 0;
    char ver[32] = "";
    Strvec cqs = STRVEC_INIT;
    seen_cqs = &cqs;
    bool kueue = false;
    for (size_t i = 0; i < sizeof lists / sizeof *lists; i++) {
        if (!group || strcmp(group, lists[i].group) != 0 || (lists[i].version && strcmp(ver, lists[i].version) != 0)) {
            bool new_group = !group || strcmp(group, lists[i].group) != 0;
            group = lists[i].group;
            if (!new_group && !served) continue;          /* the group is not served at all */
            served = group_version(api, group, lists[i].version, ver, sizeof ver, warnings, err);
            if (served < 0) { seen_cqs = NULL; strvec_clear(&cqs); return -1; }
            served = served == 0;
            if (served && !lists[i].version) kueue = true;
            if (served && !lists[i].version) snprintf(kueue_version, sizeof kueue_version, "kueue.x-k8s.io/%s", ver);
        }
        if (!served || (lists[i].kind == OBJ_KUEUE_PRIORITYCLASS && !priority_classes)) continue;
        char *path = xasprintf("/apis/%s/%s/%s", group, ver, lists[i].plural);
        QueueListCtx lc = { lists[i].kind, fn, ctx };
        Error e = { 0 };
        int rc = apiclient_list_skip(api, path, NULL, on_queue_item, NULL, model ? queue_skip : NULL, &lc, &e);
        free(path);
        if (rc == 0) {
            if (list_rv) {
                free(list_rv[lists[i].kind]);
                list_rv[lists[i].kind] = apiclient_list_rv(api) ? xstrdup(apiclient_list_rv(api)) : NULL;
            }
        } else if (e.code == 404) {
            /* this release does not serve the kind (e.g. no Cohort before Kueue 0.11) */
        } else if (e.code == 403) {
            strvec_pushf(warnings, "%s.%s: %s (%s)", lists[i].plural, group, e.msg, lists[i].consequence);
        } else {
            *err = e;
            seen_cqs = NULL;
            strvec_clear(&cqs);
            return -1;
        }
        if (lists[i].kind == OBJ_KUEUE_WORKLOAD) {          /* the Workloads are in: Kueue's positions */
            seen_cqs = NULL;
            if (kueue && cqs.n && list_visibility(api, &cqs, fn, ctx, warnings, err)) { strvec_clear(&cqs); return -1; }
        }
    }
    seen_cqs = NULL;
    strvec_clear(&cqs);
    return 0;
}

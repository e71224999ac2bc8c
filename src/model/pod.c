/* pod.c — Pod objects reduced to what scheduling analysis needs, and the effective request.
 *
 * Effective request (shared/reference/scheduler-messages.md §11.1, component-helpers
 * resource.PodRequests):
 *   sum      = sum of the app containers' requests
 *   init containers in order, with R = running sum of restartable (sidecar) init containers:
 *     sidecar (restartPolicy Always): sum += req, R += req, peak = R
 *     normal:                         peak = req + R
 *   initMax  = element-wise max of the peaks
 *   request  = element-wise max(sum, initMax); pod-level spec.resources.requests replace cpu,
 *              memory and hugepages-* (the resources PodLevelResources supports — the reference
 *              lists hugepages too); then spec.overhead is added.
 * Per container (and for pod-level resources), a resource present in limits but not in
 * requests counts as requested = limit: the API server defaults requests from limits
 * (SetDefaults_Pod), so hand-written snapshots behave like objects read from the API.
 */
#include "model/pod.h"
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include "util/error.h"
#include "json_fields.h"
#include "util/util.h"

/* The members of a pod's spec that its reading looks at, found in one pass (the first member
 * of each name, as jget finds it; NULL when absent): looked up one by one, most of them absent,
 * each lookup walked the spec's dozen members (a third of a GPU pod's reading). */
typedef struct {
    const cJSON *affinity, *containers, *init_containers, *node_name, *node_selector, *overhead,
                *preemption_policy, *priority, *priority_class, *resource_claims, *resources,
                *runtime_class, *scheduler_name, *scheduling_gates, *tolerations;
} SpecView;

static void spec_view(SpecView *v, const cJSON *spec)
{
    memset(v, 0, sizeof *v);
    if (!jtype(spec, cJSON_Object)) return;
    for (const cJSON *c = spec->child; c && c->string; c = c->next) {
        const char *k = c->string;
        const cJSON **f = NULL;
        switch (k[0]) {
        case 'a': if (strcmp(k, "affinity") == 0) f = &v->affinity; break;
        case 'c': if (strcmp(k, "containers") == 0) f = &v->containers; break;
        case 'i': if (strcmp(k, "initContainers") == 0) f = &v->init_containers; break;
        case 'n':
            if (strcmp(k, "nodeName") == 0) f = &v->node_name;
            else if (strcmp(k, "nodeSelector") == 0) f = &v->node_selector;
            break;
        case 'o': if (strcmp(k, "overhead") == 0) f = &v->overhead; break;
        case 'p':
            if (strcmp(k, "priority") == 0) f = &v->priority;
            else if (strcmp(k, "priorityClassName") == 0) f = &v->priority_class;
            else if (strcmp(k, "preemptionPolicy") == 0) f = &v->preemption_policy;
            break;
        case 'r':
            if (strcmp(k, "resources") == 0) f = &v->resources;
            else if (strcmp(k, "resourceClaims") == 0) f = &v->resource_claims;
            else if (strcmp(k, "runtimeClassName") == 0) f = &v->runtime_class;
            break;
        case 's':
            if (strcmp(k, "schedulerName") == 0) f = &v->scheduler_name;
            else if (strcmp(k, "schedulingGates") == 0) f = &v->scheduling_gates;
            break;
        case 't': if (strcmp(k, "tolerations") == 0) f = &v->tolerations; break;
        default: break;
        }
        if (f && !*f) *f = c;
    }
}

/* The same for metadata and status: seven and four lookups a pod, among their members. */
typedef struct {
    const cJSON *name, *ns, *creation, *deletion, *owners, *labels, *annotations;
} MetaView;

static void meta_view(MetaView *v, const cJSON *meta)
{
    memset(v, 0, sizeof *v);
    if (!jtype(meta, cJSON_Object)) return;
    for (const cJSON *c = meta->child; c && c->string; c = c->next) {
        const char *k = c->string;
        const cJSON **f = NULL;
        switch (k[0]) {
        case 'a': if (strcmp(k, "annotations") == 0) f = &v->annotations; break;
        case 'c': if (strcmp(k, "creationTimestamp") == 0) f = &v->creation; break;
        case 'd': if (strcmp(k, "deletionTimestamp") == 0) f = &v->deletion; break;
        case 'l': if (strcmp(k, "labels") == 0) f = &v->labels; break;
        case 'n':
            if (strcmp(k, "name") == 0) f = &v->name;
            else if (strcmp(k, "namespace") == 0) f = &v->ns;
            break;
        case 'o': if (strcmp(k, "ownerReferences") == 0) f = &v->owners; break;
        default: break;
        }
        if (f && !*f) *f = c;
    }
}

typedef struct { const cJSON *phase, *nominated, *conditions, *claim_statuses; } StatusView;

static void status_view(StatusView *v, const cJSON *status)
{
    memset(v, 0, sizeof *v);
    if (!jtype(status, cJSON_Object)) return;
    for (const cJSON *c = status->child; c && c->string; c = c->next) {
        const char *k = c->string;
        const cJSON **f = NULL;
        switch (k[0]) {
        case 'c': if (strcmp(k, "conditions") == 0) f = &v->conditions; break;
        case 'n': if (strcmp(k, "nominatedNodeName") == 0) f = &v->nominated; break;
        case 'p': if (strcmp(k, "phase") == 0) f = &v->phase; break;
        case 'r': if (strcmp(k, "resourceClaimStatuses") == 0) f = &v->claim_statuses; break;
        default: break;
        }
        if (f && !*f) *f = c;
    }
}

/* requests of one "resources" block, defaulted from limits */
static void resources_requests(const cJSON *resources, ResourceList *out)
{
    rlist_from_json(out, jobj(resources, "requests"), NULL);
    rlist_default_from_json(out, jobj(resources, "limits"), out->n);
}

/* The init container whose request sets the pod's effective request of a GPU resource (its
 * peak above what the app containers and sidecars ask), NULL when the app containers do: an
 * explanation says where a request comes from ("nvidia.com/gpu:4 (from init container X)"). */
static const char *gpu_request_init_container(const SpecView *spec)
{
    const cJSON *inits = jv_arr(spec->init_containers);
    if (!inits || !inits->child) return NULL;      /* the app containers ask: most pods */
    ResourceList apps = RESOURCE_LIST_INIT, sidecars = RESOURCE_LIST_INIT;
    const cJSON *c;
    cJSON_ArrayForEach(c, jv_arr(spec->containers)) {
        ResourceList r = RESOURCE_LIST_INIT;
        resources_requests(jobj(c, "resources"), &r);
        rlist_add_all(&apps, &r);
        rlist_clear(&r);
    }
    cJSON_ArrayForEach(c, inits) {
        if (!str_eq(jstr(c, "restartPolicy"), "Always")) continue;
        ResourceList r = RESOURCE_LIST_INIT;
        resources_requests(jobj(c, "resources"), &r);
        rlist_add_all(&apps, &r);
        rlist_clear(&r);
    }
    const char *from = NULL;
    int64_t best = 0;
    cJSON_ArrayForEach(c, inits) {
        ResourceList r = RESOURCE_LIST_INIT;
        resources_requests(jobj(c, "resources"), &r);
        bool sidecar = str_eq(jstr(c, "restartPolicy"), "Always");
        if (sidecar) rlist_add_all(&sidecars, &r);
        for (size_t i = 0; !sidecar && i < r.n; i++) {
            const char *res = r.items[i].name;
            if (!resources_is_gpu(res)) continue;
            int64_t peak = r.items[i].milli + rlist_get(&sidecars, res);
            if (peak > rlist_get(&apps, res) && peak > best) { best = peak; from = jstr_ne(c, "name"); }
        }
        rlist_clear(&r);
    }
    rlist_clear(&apps);
    rlist_clear(&sidecars);
    return from;
}

static bool pod_level_resource(const char *name)
{
    return strcmp(name, "cpu") == 0 || strcmp(name, "memory") == 0 || str_starts_with(name, "hugepages-");
}

static void effective_requests(const SpecView *spec, ResourceList *out)
{
    ResourceList sum = RESOURCE_LIST_INIT, sidecars = RESOURCE_LIST_INIT, init_max = RESOURCE_LIST_INIT;
    const cJSON *c;
    cJSON_ArrayForEach(c, jv_arr(spec->containers)) {
        if (!sum.n) { resources_requests(jobj(c, "resources"), &sum); continue; }   /* the sum of one */
        ResourceList r = RESOURCE_LIST_INIT;
        resources_requests(jobj(c, "resources"), &r);
        rlist_add_all(&sum, &r);
        rlist_clear(&r);
    }
    cJSON_ArrayForEach(c, jv_arr(spec->init_containers)) {
        ResourceList r = RESOURCE_LIST_INIT;
        resources_requests(jobj(c, "resources"), &r);
        if (str_eq(jstr(c, "restartPolicy"), "Always")) {
            rlist_add_all(&sum, &r);
            rlist_add_all(&sidecars, &r);
            rlist_max_into(&init_max, &sidecars);
        } else {
            rlist_add_all(&r, &sidecars);
            rlist_max_into(&init_max, &r);
        }
        rlist_clear(&r);
    }
    rlist_max_into(&sum, &init_max);

    const cJSON *pod_res = jv_obj(spec->resources);
    if (pod_res) {
        ResourceList pl = RESOURCE_LIST_INIT;
        resources_requests(pod_res, &pl);
        for (size_t i = 0; i < pl.n; i++)
            if (pod_level_resource(pl.items[i].name)) rlist_set(&sum, pl.items[i].name, pl.items[i].milli);
        rlist_clear(&pl);
    }
    ResourceList overhead = RESOURCE_LIST_INIT;
    rlist_from_json(&overhead, jv_obj(spec->overhead), NULL);
    rlist_add_all(&sum, &overhead);
    rlist_clear(&overhead);

    rlist_clear(&sidecars);
    rlist_clear(&init_max);
    rlist_clear(out);
    *out = sum;
}

/* (the four members it reads looked up alone: the pods of a cluster that request no GPU are read
 * for this and little else, and a whole view of their spec costs more than four lookups) */
void pod_effective_requests(const cJSON *spec, ResourceList *out)
{
    SpecView v = { .containers = jget(spec, "containers"), .init_containers = jget(spec, "initContainers"),
                   .resources = jget(spec, "resources"), .overhead = jget(spec, "overhead") };
    effective_requests(&v, out);
}

/* ---- node affinity ---- */

static bool selop_from_operator(const char *op, SelOp *out)
{
    static const struct { const char *name; SelOp op; } ops[] = {
        { "In", SEL_IN }, { "NotIn", SEL_NOTIN }, { "Exists", SEL_EXISTS },
        { "DoesNotExist", SEL_NOT_EXISTS }, { "Gt", SEL_GT }, { "Lt", SEL_LT },
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (str_eq(op, ops[i].name)) { *out = ops[i].op; return true; }
    return false;
}

/* matchExpressions / matchFields: [{key, operator, values}] */
static int read_requirements(LabelSelector *sel, const cJSON *arr, const char *what, Error *err)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, arr) {
        const char *key = jstr(e, "key"), *op = jstr(e, "operator");
        SelOp sop;
        if (!key) { error_set(err, "node affinity %s without key", what); return -1; }
        if (!selop_from_operator(op, &sop)) {
            /* skipping it would make the term match more nodes than the scheduler allows */
            error_set(err, "node affinity %s \"%.64s\": unknown operator \"%.32s\"", what, key,
                      op ? op : "(none)");
            return -1;
        }
        Strvec vals = STRVEC_INIT;
        const cJSON *v;
        cJSON_ArrayForEach(v, jarr(e, "values"))
            if (cJSON_IsString(v) && v->valuestring) strvec_push(&vals, v->valuestring);
        label_selector_add(sel, key, sop, (const char *const *)vals.v, vals.n);
        strvec_clear(&vals);
    }
    return 0;
}

/* spec.affinity.podAntiAffinity.required...: a term with topologyKey kubernetes.io/hostname
 * whose labelSelector (matchLabels, matchExpressions) selects the pod's own labels, in its own
 * namespace: no namespaces list and no namespaceSelector, a list naming it, or a
 * namespaceSelector.  An empty namespaceSelector selects every namespace; one with labels
 * selects by the Namespace objects' labels, which are not read, so it is taken to select the
 * pod's own: the plan and fit, its readers, then keep the pods on nodes apart, the safe side
 * (kubernetes pkg/scheduler/framework/types.go newAffinityTerm: namespaces and
 * namespaceSelector are a union; an empty selector matches all). */
static const cJSON *anti_affinity_terms(const SpecView *spec)
{
    return jarr(jobj(jv_obj(spec->affinity), "podAntiAffinity"), "requiredDuringSchedulingIgnoredDuringExecution");
}

static bool spread_by_node(const Pod *p, const KVList *labels, const SpecView *spec)
{
    const cJSON *t;
    cJSON_ArrayForEach(t, anti_affinity_terms(spec)) {
        const cJSON *ls = jobj(t, "labelSelector");
        if (!str_eq(jstr(t, "topologyKey"), "kubernetes.io/hostname") || !ls) continue;
        const cJSON *nss = jarr(t, "namespaces"), *ns;
        bool in_ns = cJSON_IsObject(jobj(t, "namespaceSelector")) || !nss || cJSON_GetArraySize(nss) == 0;
        cJSON_ArrayForEach(ns, nss) in_ns |= cJSON_IsString(ns) && str_eq(ns->valuestring, p->ns);
        if (!in_ns) continue;
        LabelSelector sel;
        memset(&sel, 0, sizeof sel);
        const cJSON *kv;
        cJSON_ArrayForEach(kv, jobj(ls, "matchLabels")) {
            if (!cJSON_IsString(kv) || !kv->string) continue;
            const char *v = kv->valuestring;
            label_selector_add(&sel, kv->string, SEL_IN, &v, 1);
        }
        Error e;
        memset(&e, 0, sizeof e);
        bool ok = read_requirements(&sel, jarr(ls, "matchExpressions"), "podAntiAffinity matchExpressions", &e) == 0;
        error_clear(&e);
        bool match = ok && label_selector_matches(&sel, labels);
        label_selector_clear(&sel);
        if (match) return true;
    }
    return false;
}

static int read_affinity(Pod *p, const SpecView *spec, Error *err)
{
    const cJSON *req = jobj(jobj(jv_obj(spec->affinity), "nodeAffinity"),
                            "requiredDuringSchedulingIgnoredDuringExecution");
    const cJSON *terms = jarr(req, "nodeSelectorTerms");
    int n = terms ? cJSON_GetArraySize(terms) : 0;
    if (n <= 0) return 0;
    p->affinity_terms = xcalloc((size_t)n, sizeof *p->affinity_terms);
    const cJSON *t;
    cJSON_ArrayForEach(t, terms) {
        if (!cJSON_IsObject(t)) continue;
        NodeSelectorTerm *term = &p->affinity_terms[p->naffinity_terms++];
        if (read_requirements(&term->match_expressions, jarr(t, "matchExpressions"), "matchExpressions", err) < 0 ||
            read_requirements(&term->match_fields, jarr(t, "matchFields"), "matchFields", err) < 0)
            return -1;
    }
    return 0;
}

/* a toleration's four strings, as read (defaults applied) and their length limits */
typedef struct { const char *s[4]; } TolSource;
static const size_t tol_max[4] = { 317, 32, 63, 32 };

/* one pass over the toleration's members (jget's answers: the first member of each name; a
 * member without a name ends it): three tolerations a GPU pod, four lookups each, were a
 * quarter of its tolerations' reading */
static TolSource tol_source(const cJSON *t)
{
    const cJSON *f[4] = { NULL, NULL, NULL, NULL };   /* key, operator, value, effect */
    for (const cJSON *c = t->child; c && c->string; c = c->next) {
        const char *k = c->string;
        int i = k[0] == 'k' ? 0 : k[0] == 'o' ? 1 : k[0] == 'v' ? 2 : k[0] == 'e' ? 3 : -1;
        static const char *const names[4] = { "key", "operator", "value", "effect" };
        if (i >= 0 && !f[i] && strcmp(k, names[i]) == 0) f[i] = c;
    }
    const char *op = jv_str_ne(f[1]);
    return (TolSource){ { jv_str_ne(f[0]),          /* NULL = every key (with Exists) */
                          op ? op : "Equal", jv_str(f[2]),
                          jv_str_ne(f[3]) } };      /* NULL = every effect */
}

/* src appended to a memo key (util/strpool.h): per string 0 (none), or 1, the bytes that
 * str_printable(s, max) reads (at most max + 3: a character starting before max is read
 * whole) and a NUL; false when the key would pass cap */
static bool tol_key_add(unsigned char *key, size_t *n, size_t cap, const TolSource *src)
{
    for (int i = 0; i < 4; i++) {
        const char *s = src->s[i];
        size_t len = s ? strnlen(s, tol_max[i] + 3) : 0;
        if (*n + len + 2 > cap) return false;
        key[(*n)++] = s != NULL;
        if (!s) continue;
        memcpy(key + *n, s, len);
        *n += len;
        key[(*n)++] = 0;
    }
    return true;
}

/* The array is built on the stack (or once on the heap when long) and interned whole: the
 * pods of a Job, a Deployment or a queue carry the same tolerations.  So the pool's memo keeps
 * the array made from each source text (the strings as read, not yet made printable): a pod
 * whose tolerations were seen before reads them and copies their bytes into the key, no more
 * (twelve strings made printable and interned were 3,500 instructions a GPU pod). */
const Toleration *pod_tolerations_from_json(const cJSON *arr, StrPool *pool, uint32_t *count)
{
    *count = 0;
    int n = arr ? cJSON_GetArraySize(arr) : 0;
    if (n <= 0) return NULL;
    unsigned char key[STRPOOL_MEMO_KEY_MAX];
    size_t klen = 0;
    bool fits = true;
    uint32_t k = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, arr) {
        if (!jtype(t, cJSON_Object)) continue;
        TolSource src = tol_source(t);
        fits = fits && tol_key_add(key, &klen, sizeof key, &src);
        k++;
    }
    const Toleration *out = fits ? strpool_memo_get(pool, key, klen) : NULL;
    if (out) { *count = k; return out; }
    Toleration local[16], *tol = n <= 16 ? local : xcalloc((size_t)n, sizeof *tol);
    k = 0;
    cJSON_ArrayForEach(t, arr) {
        if (!jtype(t, cJSON_Object)) continue;
        TolSource src = tol_source(t);
        const char *v[4];
        for (int i = 0; i < 4; i++) v[i] = jpool_trunc(pool, src.s[i], tol_max[i]);
        tol[k++] = (Toleration){ v[0], v[1], v[2], v[3] };
    }
    out = strpool_intern_mem(pool, tol, k * sizeof *tol);
    if (fits) strpool_memo_put(pool, key, klen, out);
    *count = k;
    if (tol != local) free(tol);
    return out;
}

static void read_tolerations(PodMore *m, const SpecView *spec, StrPool *pool)
{
    m->tolerations = pod_tolerations_from_json(jv_arr(spec->tolerations), pool, &m->ntolerations);
}

static PodPhase phase_from_string(const char *s)
{
    if (!s) return PHASE_PENDING;                                /* no status yet: just created */
    switch (s[0]) {
    case 'P': if (str_eq(s, "Pending")) return PHASE_PENDING; break;
    case 'R': if (str_eq(s, "Running")) return PHASE_RUNNING; break;
    case 'S': if (str_eq(s, "Succeeded")) return PHASE_SUCCEEDED; break;
    case 'F': if (str_eq(s, "Failed")) return PHASE_FAILED; break;
    default: break;
    }
    return PHASE_UNKNOWN;
}

static void read_status(Pod *p, PodMore *m, const StatusView *status, StrPool *pool)
{
    p->phase = phase_from_string(jv_str(status->phase));
    m->nominated_node = jpool_trunc(pool, jv_str_ne(status->nominated), MODEL_NAME_MAX);
    const cJSON *c;
    cJSON_ArrayForEach(c, jv_arr(status->conditions)) {
        const char *type = jstr(c, "type");      /* a running pod has five: PodScheduled's P first */
        if (!type || type[0] != 'P' || !str_eq(type, "PodScheduled")) continue;
        m->scheduled.present = true;
        m->scheduled.status_true = str_eq(jstr(c, "status"), "True");
        m->scheduled.reason = jpool_trunc(pool, jstr_ne(c, "reason"), 256);
        m->scheduled.message = jpool_trunc(pool, jstr_ne(c, "message"), MODEL_TEXT_MAX);
        break;
    }
}

static void read_owner(Pod *p, const MetaView *meta, StrPool *pool)
{
    const cJSON *o;
    cJSON_ArrayForEach(o, jv_arr(meta->owners)) {
        if (!jbool(o, "controller", false)) continue;
        const char *kind = jstr_ne(o, "kind"), *name = jstr_ne(o, "name");
        if (!kind || !name) continue;
        p->owner_kind = jpool_trunc(pool, kind, 256);
        p->owner_name = jpool_trunc(pool, name, MODEL_NAME_MAX);
        return;
    }
}

/* spec.resourceClaims joined with status.resourceClaimStatuses by name */
static void pod_claims_from_json(Pod *p, const SpecView *spec, const StatusView *status, StrPool *pool)
{
    const cJSON *rcs = jv_arr(spec->resource_claims), *rc;
    size_t n = (size_t)cJSON_GetArraySize(rcs);
    if (!n) return;
    p->claims = xcalloc(n, sizeof *p->claims);
    cJSON_ArrayForEach(rc, rcs) {
        const char *name = jstr_ne(rc, "name");
        if (!name) continue;
        PodClaimRef *r = &p->claims[p->nclaims++];
        r->name = jpool_trunc(pool, name, 63);
        r->claim = jpool_trunc(pool, jstr_ne(rc, "resourceClaimName"), 253);
        r->template_name = jpool_trunc(pool, jstr_ne(rc, "resourceClaimTemplateName"), 253);
        const cJSON *st;
        cJSON_ArrayForEach(st, jv_arr(status->claim_statuses))
            if (!r->claim && str_eq(jstr(st, "name"), name)) r->claim = jpool_trunc(pool, jstr_ne(st, "resourceClaimName"), 253);
    }
}

const PodMore pod_more_none;

/* spec.nodeSelector into the pool, its strings and the array (the pods of a Job share it) */
static void read_node_selector(PodMore *m, const SpecView *spec, StrPool *pool)
{
    KVList own = KVLIST_INIT;
    kv_from_json(&own, jv_obj(spec->node_selector));
    if (!own.n) return;
    KV *v = xmalloc(own.n * sizeof *v);
    for (uint32_t i = 0; i < own.n; i++) {
        v[i].key = (char *)strpool_intern(pool, own.items[i].key);
        v[i].value = (char *)strpool_intern(pool, own.items[i].value);
    }
    m->node_selector.items = (KV *)strpool_intern_mem(pool, v, own.n * sizeof *v);
    m->node_selector.n = own.n;     /* cap 0: the pool's, never written */
    free(v);
    kv_clear(&own);
}

/* spec.schedulingGates[].name into the pool, the array too (the pods of a Job share it) */
static void read_gates(PodMore *m, const SpecView *spec, StrPool *pool)
{
    const cJSON *arr = jv_arr(spec->scheduling_gates), *g;
    size_t n = 0, k = 0;
    cJSON_ArrayForEach(g, arr) n += jstr_ne(g, "name") != NULL;
    if (!n) return;
    const char **v = xmalloc(n * sizeof *v);
    cJSON_ArrayForEach(g, arr) {
        const char *gn = jstr_ne(g, "name");
        if (gn) v[k++] = jpool_trunc(pool, gn, 317);
    }
    m->gates = strpool_intern_mem(pool, v, n * sizeof *v);
    m->ngates = (uint32_t)n;
    free(v);
}

static int pod_read(Pod *p, const cJSON *obj, StrPool *pool, ResourceList *requests, bool kept, Error *err);

/* Pod.rs_hash_len: the Deployment controller names a ReplicaSet <deployment>-<hash> and labels
 * its pods pod-template-hash=<hash> (kubernetes pkg/controller/deployment/sync.go
 * getNewReplicaSet: newRSTemplate's label, Name: d.Name + "-" + podTemplateSpecHash); the
 * label's value as the pod's labels would keep it (labels.h kv_json_value) */
static uint8_t deployment_hash_len(const Pod *p, const cJSON *labels)
{
    if (!p->owner_name || !str_eq(p->owner_kind, "ReplicaSet")) return 0;
    char *tofree;
    const char *hash = kv_json_value(labels, POD_TEMPLATE_HASH_LABEL, &tofree);
    size_t ol = strlen(p->owner_name), hl = hash ? strlen(hash) : 0;
    bool named = hl && hl <= UINT8_MAX && ol > hl + 1 && p->owner_name[ol - hl - 1] == '-' &&
                 strcmp(p->owner_name + ol - hl, hash) == 0;
    free(tofree);
    return named ? (uint8_t)hl : 0;
}

int pod_from_json(Pod *p, const cJSON *obj, StrPool *pool, Error *err)
{
    return pod_read(p, obj, pool, NULL, false, err);
}

int pod_from_json_kept(Pod *p, const cJSON *obj, StrPool *pool, ResourceList *requests, Error *err)
{
    return pod_read(p, obj, pool, requests, true, err);
}

/* kept: a bound pod's labels as a Cluster keeps them (pod.h) */
static int pod_read(Pod *p, const cJSON *obj, StrPool *pool, ResourceList *requests, bool kept, Error *err)
{
    ResourceList req = RESOURCE_LIST_INIT;
    if (requests) { req = *requests; *requests = (ResourceList)RESOURCE_LIST_INIT; }
    memset(p, 0, sizeof *p);
    if (!cJSON_IsObject(obj)) { rlist_clear(&req); error_set(err, "pod: not a JSON object"); return -1; }
    MetaView mv, *meta = &mv;
    SpecView sv, *spec = &sv;
    StatusView stv, *status = &stv;
    const cJSON *parts[3] = { NULL, NULL, NULL };    /* metadata, spec, status: one pass */
    for (const cJSON *c = obj->child; c && c->string; c = c->next) {
        int i = c->string[0] == 'm' ? 0 : c->string[0] == 's' ? (c->string[1] == 'p' ? 1 : 2) : -1;
        static const char *const names[3] = { "metadata", "spec", "status" };
        if (i >= 0 && !parts[i] && strcmp(c->string, names[i]) == 0) parts[i] = c;
    }
    meta_view(meta, jv_obj(parts[0]));
    spec_view(spec, jv_obj(parts[1]));
    status_view(status, jv_obj(parts[2]));
    const char *name = jv_str_ne(meta->name), *ns = jv_str_ne(meta->ns);
    if (!name) { rlist_clear(&req); error_set(err, "pod without metadata.name"); return -1; }
    if (strlen(name) > MODEL_NAME_MAX || (ns && strlen(ns) > 63)) {
        rlist_clear(&req);
        error_set(err, "pod \"%.64s...\": name or namespace too long", name);
        return -1;
    }
    p->ns = strpool_intern(pool, ns ? ns : "default");
    p->name = strpool_add(pool, name);         /* unique in its namespace: no lookup */
    p->creation = jv_time(meta->creation);
    p->terminating = jv_str_ne(meta->deletion) != NULL;
    read_owner(p, meta, pool);
    p->node_name = jpool_trunc(pool, jv_str_ne(spec->node_name), MODEL_NAME_MAX);
    const cJSON *labels = jv_obj(meta->labels);
    bool trimmed = kept && p->node_name;
    if (!trimmed) kv_from_json(&p->labels, labels);
    p->rs_hash_len = deployment_hash_len(p, labels);

    PodMore m;
    memset(&m, 0, sizeof m);          /* padding too: the block is pooled by its bytes */
    const char *scheduler = jv_str_ne(spec->scheduler_name), *preemption = jv_str_ne(spec->preemption_policy);
    m.scheduler_name = strpool_intern(pool, scheduler ? scheduler : "default-scheduler");
    m.priority_class = jpool_trunc(pool, jv_str_ne(spec->priority_class), MODEL_NAME_MAX);
    p->priority = (int32_t)jv_int(spec->priority, INT32_MIN, INT32_MAX, 0);
    m.preemption_policy = jpool_trunc(pool, preemption ? preemption : "PreemptLowerPriority", 64);
    m.runtime_class = jpool_trunc(pool, jv_str_ne(spec->runtime_class), MODEL_NAME_MAX);
    const cJSON *ann = jv_obj(meta->annotations);
    m.hami_devices = jpool_trunc(pool, jstr_ne(ann, POD_ANN_HAMI_DEVICES), 16384);
    const char *group = jstr_ne(ann, POD_ANN_KAI_GROUP);
    if (!group) group = jstr_ne(ann, POD_ANN_KUBE_GROUP);
    if (!group) group = jstr_ne(ann, POD_ANN_VOLCANO_GROUP);
    m.pod_group = jpool_trunc(pool, group, MODEL_NAME_MAX);
    read_node_selector(&m, spec, pool);
    read_tolerations(&m, spec, pool);
    read_gates(&m, spec, pool);
    if (requests) p->requests = req;
    else effective_requests(spec, &p->requests);
    m.request_init = jpool_trunc(pool, gpu_request_init_container(spec), MODEL_NAME_MAX);
    pod_claims_from_json(p, spec, status, pool);
    read_status(p, &m, status, pool);
    p->more = strpool_intern_mem(pool, &m, sizeof m);
    if (!trimmed || !anti_affinity_terms(spec)) {
        p->spread_by_node = spread_by_node(p, &p->labels, spec);
    } else {                          /* (its own labels, all of them: rare) */
        KVList all = KVLIST_INIT;
        kv_from_json(&all, labels);
        p->spread_by_node = spread_by_node(p, &all, spec);
        kv_clear(&all);
    }
    if (read_affinity(p, spec, err) < 0) {
        error_prefix(err, "pod %s/%s: ", p->ns, p->name);
        pod_clear(p);
        return -1;
    }
    return 0;
}

void pod_clear(Pod *p)
{
    kv_clear(&p->labels);
    rlist_clear(&p->requests);
    for (size_t i = 0; i < p->naffinity_terms; i++) {
        label_selector_clear(&p->affinity_terms[i].match_expressions);
        label_selector_clear(&p->affinity_terms[i].match_fields);
    }
    free(p->affinity_terms);
    free(p->claims);
    memset(p, 0, sizeof *p);
}

bool pod_requests_gpu(const Pod *p) { return rlist_has_gpu(&p->requests); }

bool pod_holds_resources(const Pod *p)
{
    return p->node_name && p->phase != PHASE_SUCCEEDED && p->phase != PHASE_FAILED;
}

bool pod_is_pending_unbound(const Pod *p) { return p->phase == PHASE_PENDING && !p->node_name; }

const char *pod_phase_name(PodPhase ph)
{
    switch (ph) {
    case PHASE_PENDING: return "Pending";
    case PHASE_RUNNING: return "Running";
    case PHASE_SUCCEEDED: return "Succeeded";
    case PHASE_FAILED: return "Failed";
    case PHASE_UNKNOWN: break;
    }
    return "Unknown";
}

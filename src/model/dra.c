/* dra.c — ResourceSlices, ResourceClaims (and templates), DeviceClasses reduced to the GPU
 * driver's devices and the claims on them (dra.h; upstream facts in docs/dra.md).
 */
#include "model/dra.h"
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json_fields.h"
#include "model/pod.h"
#include "model/quantity.h"
#include "util/error.h"
#include "util/strmap.h"
#include "util/util.h"

#define DRA_EXPR_MAX 4096        /* a CEL expression may be 10 KiB; we show and match less */

DraState *dra_state_new(void) { return xcalloc(1, sizeof(DraState)); }

static void device_release(DraDevice *v)
{
    free(v->driver); free(v->pool); free(v->name); free(v->node); free(v->type); free(v->slice);
    free(v->uuid); free(v->parent_uuid); free(v->product); free(v->profile);
    kv_clear(&v->attrs); kv_clear(&v->capacity);
}

static void claim_release(DraClaim *cl)
{
    free(cl->ns); free(cl->name); free(cl->uid);
    for (size_t i = 0; i < cl->nrequests; i++) {
        DraRequest *r = &cl->requests[i];
        for (size_t j = 0; j < r->nalts; j++) {
            free(r->alts[j].device_class); free(r->alts[j].mode); strvec_clear(&r->alts[j].selectors);
            free(r->alts[j].sel_ids);
        }
        free(r->alts); free(r->name);
    }
    free(cl->requests);
    for (size_t i = 0; i < cl->nresults; i++) {
        DraResult *r = &cl->results[i];
        free(r->request); free(r->driver); free(r->pool); free(r->device);
    }
    free(cl->results);
    strvec_clear(&cl->reserved_for);
}

void dra_state_free(DraState *d)
{
    if (!d) return;
    for (size_t i = 0; i < d->ndevices; i++) device_release(&d->devices[i]);
    free(d->devices);
    for (size_t i = 0; i < d->nclaims; i++) claim_release(&d->claims[i]);
    free(d->claims);
    for (size_t i = 0; i < d->ntemplates; i++) claim_release(&d->templates[i]);
    free(d->templates);
    for (size_t i = 0; i < d->nclasses; i++) {
        free(d->classes[i].name); strvec_clear(&d->classes[i].selectors); free(d->classes[i].extended_resource);
    }
    free(d->classes);
    strmap_free(d->device_index, NULL);
    strmap_free(d->claim_index, NULL);
    strmap_free(d->node_index, NULL);
    free(d->class_match);
    free(d->expr_match);
    free(d);
}

/* ---- ResourceSlice ---- */

/* an attribute value as text: {"string":..} {"version":..} {"int":n} {"bool":b} */
static char *attr_text(const cJSON *v)
{
    const char *s = jstr(v, "string");
    if (!s) s = jstr(v, "version");
    if (s) return jdup_trunc(s, 1024);
    const cJSON *n = jget(v, "int");
    if (cJSON_IsNumber(n)) return xasprintf("%lld", (long long)n->valuedouble);
    const cJSON *b = jget(v, "bool");
    if (cJSON_IsBool(b)) return xstrdup(cJSON_IsTrue(b) ? "true" : "false");
    return NULL;
}

/* attribute and capacity names are qualified with the driver's domain when they have none */
static char *qualified(const char *driver, const char *name)
{
    return strchr(name, '/') ? xstrdup(name) : xasprintf("%s/%s", driver, name);
}

static void read_device(DraDevice *v, const cJSON *dev, const char *driver)
{
    const cJSON *basic = jobj(dev, "basic");           /* v1beta1 */
    const cJSON *src = basic ? basic : dev;
    const cJSON *a;
    cJSON_ArrayForEach(a, jobj(src, "attributes")) {
        if (!a->string) continue;
        char *val = attr_text(a);
        if (!val) continue;
        char *key = qualified(driver, a->string);
        kv_set(&v->attrs, key, val);
        free(key); free(val);
    }
    cJSON_ArrayForEach(a, jobj(src, "capacity")) {
        if (!a->string) continue;
        const char *q = cJSON_IsString(a) ? a->valuestring : jstr(a, "value");   /* v1alpha3: a bare quantity */
        if (!q) continue;
        char *key = qualified(driver, a->string);
        kv_set(&v->capacity, key, q);
        free(key);
    }
    char k[256];
#define ATTR(field, n) do { snprintf(k, sizeof k, "%s/%s", driver, n); v->field = xstrdup(kv_get(&v->attrs, k)); } while (0)
    ATTR(type, "type"); ATTR(uuid, "uuid"); ATTR(parent_uuid, "parentUUID");
    ATTR(product, "productName"); ATTR(profile, "profile");
#undef ATTR
    snprintf(k, sizeof k, "%s/memory", driver);
    int64_t milli;
    const char *mem = kv_get(&v->capacity, k);
    if (mem && quantity_parse(mem, &milli) && milli > 0) v->memory_bytes = milli / 1000;
}

int dra_ingest_slice(DraState *d, const cJSON *obj, Error *err)
{
    const cJSON *meta = jobj(obj, "metadata"), *spec = jobj(obj, "spec");
    if (!jstr_ne(meta, "name")) { error_set(err, "ResourceSlice without metadata.name"); return -1; }
    const char *driver = jstr_ne(spec, "driver");
    if (!str_eq(driver, DRA_GPU_DRIVER)) return 0;
    const char *node = jstr_ne(spec, "nodeName");
    if (!node) return 0;          /* network-attached devices: not GPUs of a node */
    const cJSON *pool = jobj(spec, "pool");
    const char *pool_name = jstr_ne(pool, "name");
    int64_t gen = jint(pool, "generation", 0, INT64_MAX, 0);
    const cJSON *dev;
    cJSON_ArrayForEach(dev, jarr(spec, "devices")) {
        const char *name = jstr_ne(dev, "name");
        if (!name) continue;
        ARRAY_GROW(d->devices, d->ndevices, d->capdevices);
        DraDevice *v = &d->devices[d->ndevices++];
        memset(v, 0, sizeof *v);
        v->driver = xstrdup(driver);
        v->pool = jdup_trunc(pool_name ? pool_name : node, 253);
        v->name = jdup_trunc(name, 253);
        v->node = jdup_trunc(node, 253);
        v->slice = jdup_trunc(jstr_ne(meta, "name"), 253);
        v->generation = gen;
        read_device(v, dev, driver);
    }
    d->finalized = false;
    return 0;
}

/* ---- ResourceClaim / ResourceClaimTemplate ---- */

static void read_alt(DraAlternative *a, const cJSON *src)
{
    a->device_class = jdup_trunc(jstr_ne(src, "deviceClassName"), 253);
    const char *mode = jstr_ne(src, "allocationMode");
    a->mode = xstrdup(mode ? mode : "ExactCount");
    a->count = str_eq(a->mode, "All") ? 0 : jint(src, "count", 1, 1 << 20, 1);
    const cJSON *s;
    cJSON_ArrayForEach(s, jarr(src, "selectors")) {
        const char *e = jstr_ne(jobj(s, "cel"), "expression");
        if (!e) continue;
        char *t = jdup_trunc(e, DRA_EXPR_MAX);
        strvec_push(&a->selectors, t);
        free(t);
    }
}

static void read_requests(DraClaim *cl, const cJSON *spec)
{
    const cJSON *req;
    const cJSON *reqs = jarr(jobj(spec, "devices"), "requests");
    size_t n = (size_t)cJSON_GetArraySize(reqs), i = 0;
    if (!n) return;
    cl->requests = xcalloc(n, sizeof *cl->requests);
    cJSON_ArrayForEach(req, reqs) {
        DraRequest *r = &cl->requests[i++];
        r->name = jdup_trunc(jstr_ne(req, "name") ? jstr_ne(req, "name") : "", 63);
        const cJSON *fa = jarr(req, "firstAvailable");
        if (cJSON_GetArraySize(fa) > 0) {
            r->first_available = true;
            r->nalts = (size_t)cJSON_GetArraySize(fa);
            r->alts = xcalloc(r->nalts, sizeof *r->alts);
            size_t j = 0;
            const cJSON *sub;
            cJSON_ArrayForEach(sub, fa) read_alt(&r->alts[j++], sub);
        } else {
            r->nalts = 1;
            r->alts = xcalloc(1, sizeof *r->alts);
            const cJSON *exactly = jobj(req, "exactly");   /* v1, v1beta2; v1beta1: the request itself */
            read_alt(&r->alts[0], exactly ? exactly : req);
        }
    }
    cl->nrequests = i;
}

int dra_ingest_claim(DraState *d, const cJSON *obj, bool is_template, Error *err)
{
    const cJSON *meta = jobj(obj, "metadata");
    const char *name = jstr_ne(meta, "name");
    if (!name) {
        error_set(err, "%s without metadata.name", is_template ? "ResourceClaimTemplate" : "ResourceClaim");
        return -1;
    }
    DraClaim cl = { 0 };
    cl.is_template = is_template;
    cl.ns = jdup_trunc(jstr_ne(meta, "namespace") ? jstr_ne(meta, "namespace") : "default", 63);
    cl.name = jdup_trunc(name, 253);
    cl.uid = jdup_trunc(jstr_ne(meta, "uid"), 64);
    cl.deleting = jstr_ne(meta, "deletionTimestamp") != NULL;
    /* a template's claim spec sits one level down */
    const cJSON *spec = jobj(obj, "spec");
    read_requests(&cl, is_template ? jobj(spec, "spec") : spec);
    const cJSON *status = jobj(obj, "status");
    const cJSON *alloc = jobj(status, "allocation");
    if (!is_template && alloc) {
        cl.allocated = true;
        const cJSON *results = jarr(jobj(alloc, "devices"), "results"), *r;
        size_t n = (size_t)cJSON_GetArraySize(results);
        cl.results = n ? xcalloc(n, sizeof *cl.results) : NULL;
        cJSON_ArrayForEach(r, results) {
            const char *dev = jstr_ne(r, "device");
            if (!dev) continue;
            DraResult *x = &cl.results[cl.nresults++];
            x->request = jdup_trunc(jstr_ne(r, "request") ? jstr_ne(r, "request") : "", 127);
            x->driver = jdup_trunc(jstr_ne(r, "driver"), 253);
            x->pool = jdup_trunc(jstr_ne(r, "pool"), 253);
            x->device = jdup_trunc(dev, 253);
            x->admin = jbool(r, "adminAccess", false);
        }
    }
    const cJSON *rf;
    cJSON_ArrayForEach(rf, jarr(status, "reservedFor")) {
        const char *res = jstr_ne(rf, "resource"), *pn = jstr_ne(rf, "name");
        if (str_eq(res, "pods") && pn && !jstr_ne(rf, "apiGroup")) {
            char *t = jdup_trunc(pn, 253);
            strvec_push(&cl.reserved_for, t);
            free(t);
        }
    }
    if (is_template) {
        ARRAY_GROW(d->templates, d->ntemplates, d->captemplates);
        d->templates[d->ntemplates++] = cl;
    } else {
        ARRAY_GROW(d->claims, d->nclaims, d->capclaims);
        d->claims[d->nclaims++] = cl;
    }
    d->finalized = false;
    return 0;
}

int dra_ingest_class(DraState *d, const cJSON *obj, Error *err)
{
    const char *name = jstr_ne(jobj(obj, "metadata"), "name");
    if (!name) { error_set(err, "DeviceClass without metadata.name"); return -1; }
    ARRAY_GROW(d->classes, d->nclasses, d->capclasses);
    DraDeviceClass *k = &d->classes[d->nclasses++];
    memset(k, 0, sizeof *k);
    k->name = jdup_trunc(name, 253);
    const cJSON *spec = jobj(obj, "spec"), *s;
    cJSON_ArrayForEach(s, jarr(spec, "selectors")) {
        const char *e = jstr_ne(jobj(s, "cel"), "expression");
        if (!e) continue;
        char *t = jdup_trunc(e, DRA_EXPR_MAX);
        strvec_push(&k->selectors, t);
        free(t);
    }
    k->extended_resource = jdup_trunc(jstr_ne(spec, "extendedResourceName"), 253);
    d->finalized = false;              /* class_match has a row per class */
    return 0;
}

/* ---- joins ---- */

static char *device_key(const char *driver, const char *pool, const char *name)
{
    return xasprintf("%s/%s/%s", driver ? driver : "", pool ? pool : "", name ? name : "");
}

size_t dra_node_first(const DraState *d, const char *node)
{
    return d && d->node_index && node ? (size_t)(uintptr_t)strmap_get(d->node_index, node) : 0;
}

const DraDeviceClass *dra_find_class(const DraState *d, const char *name)
{
    for (size_t i = 0; d && name && i < d->nclasses; i++)
        if (str_eq(d->classes[i].name, name)) return &d->classes[i];
    return NULL;
}

static DraMatch and_match(DraMatch a, DraMatch b)
{
    if (a == DRA_MATCH_NO || b == DRA_MATCH_NO) return DRA_MATCH_NO;
    return a == DRA_MATCH_UNKNOWN || b == DRA_MATCH_UNKNOWN ? DRA_MATCH_UNKNOWN : DRA_MATCH_YES;
}

/* the alternative's class and own selectors against a device: dra_finalize's tables when the
 * device is one of the state's, else each selector through dra_cel.c */
DraMatch dra_alt_match(const DraState *d, const DraAlternative *a, const DraDevice *dev)
{
    const DraDeviceClass *k = dra_find_class(d, a->device_class);
    if (!k) return DRA_MATCH_NO;
    DraMatch m = DRA_MATCH_YES;
    size_t di = (size_t)(dev - d->devices);
    if (d->finalized && d->class_match && dev >= d->devices && di < d->ndevices)   /* dra_finalize's table */
        m = (DraMatch)d->class_match[(size_t)(k - d->classes) * d->ndevices + di];
    else
        for (size_t i = 0; i < k->selectors.n && m != DRA_MATCH_NO; i++) m = and_match(m, dra_cel_match(dev, k->selectors.v[i]));
    bool tabled = d->finalized && dev >= d->devices && di < d->ndevices && a->sel_ids;
    for (size_t i = 0; i < a->selectors.n && m != DRA_MATCH_NO; i++) {
        size_t id = tabled ? a->sel_ids[i] : 0;
        m = and_match(m, id ? (DraMatch)d->expr_match[(id - 1) * d->ndevices + di] : dra_cel_match(dev, a->selectors.v[i]));
    }
    return m;
}

DraClaim *dra_find_claim(const DraState *d, const char *ns, const char *name)
{
    if (!d || !d->claim_index || !name) return NULL;
    char *key = xasprintf("%s/%s", ns ? ns : "", name);
    size_t i = (size_t)(uintptr_t)strmap_get(d->claim_index, key);
    free(key);
    return i ? &d->claims[i - 1] : NULL;
}

const DraClaim *dra_find_template(const DraState *d, const char *ns, const char *name)
{
    for (size_t i = 0; d && name && i < d->ntemplates; i++)
        if (str_eq(d->templates[i].ns, ns) && str_eq(d->templates[i].name, name)) return &d->templates[i];
    return NULL;
}

const DraDevice *dra_result_device(const DraState *d, const DraResult *r)
{
    if (!d || !d->device_index) return NULL;
    char *key = device_key(r->driver, r->pool, r->device);
    size_t i = (size_t)(uintptr_t)strmap_get(d->device_index, key);
    free(key);
    return i ? &d->devices[i - 1] : NULL;
}

/* a claim asks for the GPU driver's devices when one of its classes selects driver
 * gpu.nvidia.com (NVIDIA's classes gpu.nvidia.com and mig.nvidia.com do), or holds them */
static bool class_is_gpu(const DraState *d, const char *class_name)
{
    const DraDeviceClass *k = dra_find_class(d, class_name);
    if (k)
        for (size_t i = 0; i < k->selectors.n; i++)
            if (strstr(k->selectors.v[i], "'" DRA_GPU_DRIVER "'") || strstr(k->selectors.v[i], "\"" DRA_GPU_DRIVER "\""))
                return true;
    /* without the class object: NVIDIA's own class names */
    return class_name && (str_eq(class_name, "gpu.nvidia.com") || str_eq(class_name, "mig.nvidia.com"));
}

static bool claim_is_gpu(const DraState *d, const DraClaim *cl)
{
    for (size_t i = 0; i < cl->nresults; i++) if (str_eq(cl->results[i].driver, DRA_GPU_DRIVER)) return true;
    for (size_t i = 0; i < cl->nrequests; i++)
        for (size_t j = 0; j < cl->requests[i].nalts; j++)
            if (class_is_gpu(d, cl->requests[i].alts[j].device_class)) return true;
    return false;
}

/* the requests' own selectors, each distinct expression evaluated once per device: pods made
 * from one template share them, and explain matches every pending pod against every device */
static void table_alternatives(DraState *d, DraClaim *cl, StrMap *ids)
{
    for (size_t r = 0; r < cl->nrequests; r++)
        for (size_t a = 0; a < cl->requests[r].nalts; a++) {
            DraAlternative *alt = &cl->requests[r].alts[a];
            free(alt->sel_ids);
            alt->sel_ids = alt->selectors.n ? xcalloc(alt->selectors.n, sizeof *alt->sel_ids) : NULL;
            for (size_t k = 0; k < alt->selectors.n; k++) {
                size_t id = (size_t)(uintptr_t)strmap_get(ids, alt->selectors.v[k]);
                if (!id && d->nexpr < DRA_EXPR_TABLE) {
                    id = ++d->nexpr;
                    strmap_put(ids, alt->selectors.v[k], (void *)(uintptr_t)id);
                    d->expr_match = xrealloc(d->expr_match, d->nexpr * (d->ndevices ? d->ndevices : 1));
                    for (size_t i = 0; i < d->ndevices; i++)
                        d->expr_match[(id - 1) * d->ndevices + i] = (unsigned char)dra_cel_match(&d->devices[i], alt->selectors.v[k]);
                }
                alt->sel_ids[k] = id;
            }
        }
}

static void table_request_selectors(DraState *d)
{
    free(d->expr_match);
    d->expr_match = NULL;
    d->nexpr = 0;
    StrMap *ids = strmap_new();
    for (size_t i = 0; i < d->nclaims; i++) if (!d->claims[i].allocated) table_alternatives(d, &d->claims[i], ids);
    for (size_t i = 0; i < d->ntemplates; i++) table_alternatives(d, &d->templates[i], ids);
    strmap_free(ids, NULL);
}

void dra_finalize(DraState *d)
{
    if (!d || d->finalized) return;
    /* the highest generation of each pool is the current one */
    StrMap *gen = strmap_new();
    for (size_t i = 0; i < d->ndevices; i++) {
        char *k = device_key(d->devices[i].driver, d->devices[i].pool, "");
        int64_t *g = strmap_get(gen, k);
        if (!g) { g = xcalloc(1, sizeof *g); *g = d->devices[i].generation; strmap_put(gen, k, g); }
        else if (d->devices[i].generation > *g) *g = d->devices[i].generation;
        free(k);
    }
    strmap_free(d->device_index, NULL);
    d->device_index = strmap_new();
    for (size_t i = 0; i < d->ndevices; i++) {
        DraDevice *v = &d->devices[i];
        char *k = device_key(v->driver, v->pool, "");
        v->stale = v->generation < *(int64_t *)strmap_get(gen, k);
        free(k);
        v->claim = 0;
        if (v->stale) continue;
        k = device_key(v->driver, v->pool, v->name);
        strmap_put(d->device_index, k, (void *)(uintptr_t)(i + 1));
        free(k);
    }
    strmap_free(gen, free);
    /* chains of devices on one physical GPU of one node (dra_device_busy walks them) */
    StrMap *first = strmap_new();
    for (size_t i = d->ndevices; i-- > 0;) {
        DraDevice *v = &d->devices[i];
        v->gpu_next = v->gpu_first = 0;
        if (v->stale) continue;
        char *k = xasprintf("%s\x1f%s", v->node, dra_device_gpu_key(v));
        v->gpu_next = (size_t)(uintptr_t)strmap_get(first, k);
        strmap_put(first, k, (void *)(uintptr_t)(i + 1));
        free(k);
    }
    for (size_t i = 0; i < d->ndevices; i++) {
        DraDevice *v = &d->devices[i];
        if (v->stale) continue;
        char *k = xasprintf("%s\x1f%s", v->node, dra_device_gpu_key(v));
        v->gpu_first = (size_t)(uintptr_t)strmap_get(first, k);
        free(k);
    }
    strmap_free(first, NULL);
    /* each node's devices, in ingest order */
    strmap_free(d->node_index, NULL);
    d->node_index = strmap_new();
    for (size_t i = d->ndevices; i-- > 0;) {
        DraDevice *v = &d->devices[i];
        v->node_next = 0;
        if (v->stale) continue;
        v->node_next = (size_t)(uintptr_t)strmap_get(d->node_index, v->node);
        strmap_put(d->node_index, v->node, (void *)(uintptr_t)(i + 1));
    }
    strmap_free(d->claim_index, NULL);
    d->claim_index = strmap_new();
    for (size_t i = 0; i < d->nclaims; i++) {
        DraClaim *cl = &d->claims[i];
        char *k = xasprintf("%s/%s", cl->ns, cl->name);
        strmap_put(d->claim_index, k, (void *)(uintptr_t)(i + 1));
        free(k);
        cl->node = NULL;
        for (size_t j = 0; j < cl->nresults; j++) {
            const DraDevice *v = dra_result_device(d, &cl->results[j]);
            if (!v) continue;
            if (!cl->results[j].admin) d->devices[v - d->devices].claim = i + 1;
            if (!cl->node) cl->node = v->node;
        }
    }
    /* every class against every device, once: explain matches many pods against the same devices */
    free(d->class_match);
    d->class_match = NULL;
    if (d->nclasses && d->ndevices) {
        d->class_match = xmalloc(d->nclasses * d->ndevices);
        for (size_t k = 0; k < d->nclasses; k++)
            for (size_t i = 0; i < d->ndevices; i++) {
                DraMatch m = DRA_MATCH_YES;
                const Strvec *sel = &d->classes[k].selectors;
                for (size_t j = 0; j < sel->n && m != DRA_MATCH_NO; j++) {
                    DraMatch x = dra_cel_match(&d->devices[i], sel->v[j]);
                    if (x == DRA_MATCH_NO || (x == DRA_MATCH_UNKNOWN && m == DRA_MATCH_YES)) m = x;
                }
                d->class_match[k * d->ndevices + i] = (unsigned char)m;
            }
    }
    table_request_selectors(d);
    for (size_t i = 0; i < d->nclaims; i++) d->claims[i].gpu = claim_is_gpu(d, &d->claims[i]);
    for (size_t i = 0; i < d->ntemplates; i++) d->templates[i].gpu = claim_is_gpu(d, &d->templates[i]);
    d->finalized = true;
}

bool dra_pod_wants_gpu(const DraState *d, const Pod *p)
{
    if (!d || !p->nclaims) return false;
    for (size_t i = 0; i < p->nclaims; i++) {
        const PodClaimRef *r = &p->claims[i];
        const DraClaim *cl = r->claim ? dra_find_claim(d, p->ns, r->claim)
                                      : dra_find_template(d, p->ns, r->template_name);
        if (cl && cl->gpu) return true;
    }
    return false;
}

const char *dra_device_gpu_key(const DraDevice *dev)
{
    if (dev->parent_uuid) return dev->parent_uuid;
    if (dev->uuid) return dev->uuid;
    return dev->name;
}

static bool slices_overlap(const DraDevice *a, const DraDevice *b)
{
    for (size_t i = 0; i < a->capacity.n; i++) {
        const char *k = a->capacity.items[i].key;
        const char *slash = strrchr(k, '/');
        if (str_starts_with(slash ? slash + 1 : k, "memorySlice") && kv_get(&b->capacity, k)) return true;
    }
    return false;
}

bool dra_device_busy(const DraState *d, const DraDevice *dev)
{
    if (dev->stale) return true;
    if (dev->claim) return true;
    for (size_t i = dev->gpu_first; i; i = d->devices[i - 1].gpu_next) {
        const DraDevice *o = &d->devices[i - 1];
        if (o == dev || !o->claim) continue;
        bool whole_a = !dev->parent_uuid, whole_b = !o->parent_uuid;
        if (whole_a || whole_b || slices_overlap(dev, o)) return true;
    }
    return false;
}

/* ---- one object at a time (watch events) ---- */

void dra_remove_slice(DraState *d, const char *name)
{
    size_t w = 0;
    for (size_t i = 0; i < d->ndevices; i++) {
        if (str_eq(d->devices[i].slice, name)) device_release(&d->devices[i]);
        else d->devices[w++] = d->devices[i];
    }
    if (w != d->ndevices) d->finalized = false;
    d->ndevices = w;
}

void dra_remove_claim(DraState *d, const char *ns, const char *name, bool is_template)
{
    DraClaim *a = is_template ? d->templates : d->claims;
    size_t *n = is_template ? &d->ntemplates : &d->nclaims;
    const char *cns = ns && *ns ? ns : "default";
    for (size_t i = 0; i < *n; i++) {
        if (!str_eq(a[i].ns, cns) || !str_eq(a[i].name, name)) continue;
        claim_release(&a[i]);
        memmove(&a[i], &a[i + 1], (*n - i - 1) * sizeof *a);
        (*n)--;
        d->finalized = false;
        return;
    }
}

void dra_remove_class(DraState *d, const char *name)
{
    for (size_t i = 0; i < d->nclasses; i++) {
        DraDeviceClass *k = &d->classes[i];
        if (!str_eq(k->name, name)) continue;
        free(k->name); strvec_clear(&k->selectors); free(k->extended_resource);
        memmove(k, k + 1, (d->nclasses - i - 1) * sizeof *k);
        d->nclasses--;
        d->finalized = false;
        return;
    }
}

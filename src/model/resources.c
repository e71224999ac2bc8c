/* resources.c — ResourceList (name -> milli-units) and GPU resource names. */
#include "model/resources.h"
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/quantity.h"
#include "util/util.h"

/* The resource names nearly every list holds, kept once in the binary.  An entry for one of
 * them points here, never at a copy of its own (find_or_add): no allocation per entry, nothing
 * to free, and a name looked up by one of these pointers (an entry of another list: sums,
 * usage, copies) is found by address, without reading a string that may be cold by then.  Each
 * name is in `known` once, so an entry equal to a known name always holds its pointer. */
static const struct {
    char cpu[4], memory[7], pods[5], ephemeral[18], gpu[15], gpu_shared[22], amd[12], huge2m[14], huge1g[14];
} known = {
    "cpu", "memory", "pods", "ephemeral-storage", "nvidia.com/gpu", "nvidia.com/gpu.shared", "amd.com/gpu",
    "hugepages-2Mi", "hugepages-1Gi",
};

bool resources_name_static(const char *name)
{
    /* (as integers: < between pointers into different objects is undefined) */
    return (uintptr_t)name - (uintptr_t)&known < sizeof known;
}

static const char *known_is(const char *name, const char *k) { return strcmp(name, k) == 0 ? k : NULL; }

/* known's copy of name (not itself one), NULL when it has none */
static __attribute__((noinline)) const char *known_copy(const char *name)
{
    switch (name[0]) {
    case 'c': return known_is(name, known.cpu);
    case 'm': return known_is(name, known.memory);
    case 'p': return known_is(name, known.pods);
    case 'e': return known_is(name, known.ephemeral);
    case 'a': return known_is(name, known.amd);
    case 'n':
        if (strncmp(name, known.gpu, sizeof known.gpu - 1) != 0) return NULL;
        return !name[sizeof known.gpu - 1] ? known.gpu : known_is(name, known.gpu_shared);
    case 'h':
        if (strncmp(name, known.huge2m, 10) != 0) return NULL;      /* "hugepages-" */
        return known_is(name, name[10] == '2' ? known.huge2m : known.huge1g);
    default: return NULL;
    }
}

/* *found: known's copy of name, NULL when it has none (a name that is one is found by address,
 * the usual case of a list added to another) */
static inline ResourceEntry *find_known(const ResourceList *l, const char *name, const char **found)
{
    const char *k = *found = resources_name_static(name) ? name : known_copy(name);
    if (k) {
        for (size_t i = 0; i < l->n; i++)
            if (l->items[i].name == k) return &l->items[i];
        return NULL;
    }
    for (size_t i = 0; i < l->n; i++)
        if (!resources_name_static(l->items[i].name) && strcmp(l->items[i].name, name) == 0) return &l->items[i];
    return NULL;
}

static ResourceEntry *find(const ResourceList *l, const char *name)
{
    const char *k;
    return find_known(l, name, &k);
}

static ResourceEntry *find_or_add(ResourceList *l, const char *name)
{
    const char *k;
    ResourceEntry *e = find_known(l, name, &k);
    if (e) return e;
    ARRAY_GROW(l->items, l->n, l->cap);
    e = &l->items[l->n++];
    e->name = k ? (char *)k : xstrdup(name);
    e->milli = 0;
    return e;
}

/* saturating add: sums of hostile quantities must not overflow (UB) */
static int64_t sat_add(int64_t a, int64_t b)
{
    if (b > 0 && a > INT64_MAX - b) return INT64_MAX;
    if (b < 0 && a < INT64_MIN - b) return INT64_MIN;
    return a + b;
}

void rlist_set(ResourceList *l, const char *name, int64_t milli) { find_or_add(l, name)->milli = milli; }

void rlist_add(ResourceList *l, const char *name, int64_t milli)
{
    ResourceEntry *e = find_or_add(l, name);
    e->milli = sat_add(e->milli, milli);
}

int64_t rlist_get(const ResourceList *l, const char *name)
{
    const ResourceEntry *e = find(l, name);
    return e ? e->milli : 0;
}

bool rlist_has(const ResourceList *l, const char *name) { return find(l, name) != NULL; }

void rlist_max_into(ResourceList *dst, const ResourceList *src)
{
    for (size_t i = 0; i < src->n; i++) {
        ResourceEntry *e = find(dst, src->items[i].name);
        if (!e) rlist_set(dst, src->items[i].name, src->items[i].milli);
        else if (src->items[i].milli > e->milli) e->milli = src->items[i].milli;
    }
}

void rlist_add_all(ResourceList *dst, const ResourceList *src)
{
    for (size_t i = 0; i < src->n; i++) rlist_add(dst, src->items[i].name, src->items[i].milli);
}

void rlist_copy(ResourceList *dst, const ResourceList *src)
{
    if (dst == src) return;
    rlist_clear(dst);
    for (size_t i = 0; i < src->n; i++) rlist_set(dst, src->items[i].name, src->items[i].milli);
}

void rlist_clear(ResourceList *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (!resources_name_static(l->items[i].name)) free(l->items[i].name);
    free(l->items);
    l->items = NULL;
    l->n = l->cap = 0;
}

/* Quantities are strings in the API, but Go's Quantity also unmarshals bare JSON numbers
 * ({"cpu": 2}); accept those too. */
static bool json_quantity(const cJSON *v, int64_t *milli)
{
    if (cJSON_IsString(v)) return quantity_parse(v->valuestring, milli);
    if (cJSON_IsNumber(v) && isfinite(v->valuedouble)) {
        char buf[64];
        snprintf(buf, sizeof buf, "%.15g", v->valuedouble);
        return quantity_parse(buf, milli);
    }
    return false;
}

/* a resource name as the lists take it: not empty, at most a qualified name's 317 characters */
static bool resource_named(const cJSON *c)
{
    return c->string && *c->string && strlen(c->string) <= 317;
}

int rlist_from_json(ResourceList *l, const cJSON *obj, const char **bad)
{
    int count = 0;
    if (bad) *bad = NULL;
    if (!cJSON_IsObject(obj)) return 0;
    for (const cJSON *c = obj->child; c; c = c->next) {
        int64_t m;
        /* capacities, requests and quota amounts are never negative (the API server refuses
         * them): a negative one is as bad as an unreadable one, not a number to add up */
        if (!resource_named(c) || !json_quantity(c, &m) || m < 0) {
            if (bad && !*bad) *bad = c->string ? c->string : "";
            continue;
        }
        rlist_set(l, c->string, m);
        count++;
    }
    return count;
}

int rlist_default_from_json(ResourceList *l, const cJSON *obj, uint32_t given)
{
    int count = 0;
    if (!cJSON_IsObject(obj)) return 0;
    if (given > l->n) given = l->n;
    for (const cJSON *c = obj->child; c; c = c->next) {
        int64_t m;
        if (!resource_named(c)) continue;
        bool named = false;                            /* (before the quantity is parsed) */
        for (uint32_t i = 0; i < given && !named; i++) named = strcmp(l->items[i].name, c->string) == 0;
        if (named || !json_quantity(c, &m) || m < 0) continue;
        rlist_set(l, c->string, m);
        count++;
    }
    return count;
}

bool resources_is_mig(const char *name)
{
    return name && str_starts_with(name, "nvidia.com/mig-") && name[strlen("nvidia.com/mig-")];
}

bool resources_is_shared(const char *name) { return name && str_ends_with(name, ".shared"); }

/* Intel's plugin also advertises gpu.intel.com/millicores, memory.max, tiles, i915_monitoring:
 * shares or monitoring handles, not devices, so only i915 and xe count as GPUs. */
bool resources_is_gpu(const char *name)
{
    if (!name) return false;
    if (name[0] != 'n' && name[0] != 'a' && name[0] != 'g') return false;   /* cpu, memory, pods, ... */
    static const char *const exact[] = {
        "nvidia.com/gpu", "nvidia.com/gpu.shared", "amd.com/gpu",
        "gpu.intel.com/i915", "gpu.intel.com/xe",
    };
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
        if (strcmp(name, exact[i]) == 0) return true;
    return resources_is_mig(name);
}

char *resources_mig_profile(const char *name)
{
    if (!resources_is_mig(name)) return NULL;
    const char *p = name + strlen("nvidia.com/mig-");
    size_t n = strlen(p);
    if (str_ends_with(p, ".shared") && n > strlen(".shared")) n -= strlen(".shared");
    return xstrndup(p, n);
}

bool rlist_has_gpu(const ResourceList *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->items[i].milli != 0 && resources_is_gpu(l->items[i].name)) return true;
    return false;
}

void rlist_sort(ResourceList *l)
{
    for (size_t i = 1; i < l->n; i++) {          /* insertion sort: stable, lists are tiny */
        ResourceEntry e = l->items[i];
        size_t j = i;
        while (j > 0 && strcmp(l->items[j - 1].name, e.name) > 0) { l->items[j] = l->items[j - 1]; j--; }
        l->items[j] = e;
    }
}

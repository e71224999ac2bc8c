/* libFuzzer target: pods and nodes of any shape through the snapshot's reduction
 * (src/sources/snapshot_reduce.c).  Input: one JSON object, an array of objects, or a List
 * ({"items": [...]}); each item is taken as a pod, then as a node.
 * Invariants, for every item:
 *   - snapshot_reduce_write prints what cJSON_PrintUnformatted prints of snapshot_reduce (the
 *     fast writer and the reference tree agree), and the text parses;
 *   - a pod cluster_pod_folded accepts is folded by cluster_ingest whether it is read as the
 *     API serves it or as the snapshot wrote it: the same answer (taken or refused), nothing
 *     kept, the same count of pods, the same "unbound, no GPU" note and the same usage of its
 *     node (requested resources and pods).
 * Any input: no crash, no leak. */
#include <stdio.h>
#include <cjson/cJSON.h>
#include "model/cluster.h"
#include "model/resources.h"
#include "util/error.h"
#include "sources/snapshot_format.h"
#include "fuzz_util.h"

typedef struct { char *p; size_t n; } Sunk;

static void sink(void *ctx, const char *data, size_t n)
{
    Sunk *s = ctx;
    char *p = realloc(s->p, s->n + n + 1);
    if (!p) abort();
    s->p = p;
    memcpy(s->p + s->n, data, n);
    s->n += n;
    s->p[s->n] = '\0';
}

/* the item as the snapshot writes it (NULL when the writer refused), checked against the tree */
static char *written(ObjKind kind, const cJSON *item)
{
    char *buf = NULL;
    size_t cap = 0;
    Sunk got = { NULL, 0 };
    bool ok = snapshot_reduce_write(kind, item, &buf, &cap, sink, &got);
    free(buf);
    cJSON *tree = snapshot_reduce(kind, item);
    char *want = tree ? cJSON_PrintUnformatted(tree) : NULL;
    cJSON_Delete(tree);
    if (ok && want) FUZZ_ASSERT(got.p && strcmp(got.p, want) == 0);
    free(want);
    if (!ok) { free(got.p); return NULL; }
    return got.p;
}

typedef struct { int rc; size_t npods, all_pods; bool unbound; int upods; ResourceList req; } Folded;

static void fold(const cJSON *pod, const char *node, const char *ns, const char *name, Folded *f)
{
    Cluster c;
    cluster_init(&c);
    Error e = { 0 };
    if (node) {
        cJSON *n = cJSON_CreateObject(), *m = cJSON_AddObjectToObject(n, "metadata");
        cJSON_AddStringToObject(m, "name", node);
        (void)cluster_ingest(&c, OBJ_NODE, n, &e);
        cJSON_Delete(n);
        error_clear(&e);
    }
    f->rc = cluster_ingest(&c, OBJ_POD, pod, &e);
    cluster_finalize(&c);
    f->npods = c.npods;
    f->all_pods = c.all_pods;
    f->unbound = name && cluster_saw_plain_unbound(&c, ns ? ns : "default", name);
    const Node *nd = node ? cluster_find_node(&c, node) : NULL;
    const NodeUsage *u = nd ? cluster_node_usage(&c, nd) : NULL;
    f->upods = u ? u->pods : -1;
    f->req = (ResourceList)RESOURCE_LIST_INIT;
    if (u) rlist_add_all(&f->req, &u->requested);
    cluster_release(&c);
}

static const char *str_of(const cJSON *o, const char *a, const char *b)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, a), b);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void check_pod(const cJSON *item)
{
    char *text = written(OBJ_POD, item);
    if (!text) return;
    cJSON *back = cJSON_Parse(text);
    FUZZ_ASSERT(back != NULL);
    if (cluster_pod_folded(item)) {
        const char *node = str_of(item, "spec", "nodeName");
        if (node && !*node) node = NULL;
        Folded a, b;
        fold(item, node, str_of(item, "metadata", "namespace"), str_of(item, "metadata", "name"), &a);
        fold(back, node, str_of(item, "metadata", "namespace"), str_of(item, "metadata", "name"), &b);
        FUZZ_ASSERT(a.rc == 0 && b.rc == 0);
        FUZZ_ASSERT(a.npods == 0 && b.npods == 0);
        FUZZ_ASSERT(a.all_pods == b.all_pods && a.unbound == b.unbound && a.upods == b.upods);
        FUZZ_ASSERT(a.req.n == b.req.n);
        for (size_t i = 0; i < a.req.n; i++)
            FUZZ_ASSERT(a.req.items[i].milli == rlist_get(&b.req, a.req.items[i].name));
        rlist_clear(&a.req);
        rlist_clear(&b.req);
    }
    cJSON_Delete(back);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cJSON *doc = cJSON_ParseWithLength((const char *)data, size);
    if (!doc) return 0;
    const cJSON *items = cJSON_IsArray(doc) ? doc : cJSON_GetObjectItemCaseSensitive(doc, "items");
    const cJSON *it;
    if (cJSON_IsArray(items)) {
        cJSON_ArrayForEach(it, items) {
            check_pod(it);
            free(written(OBJ_NODE, it));
        }
    } else {
        check_pod(doc);
        free(written(OBJ_NODE, doc));
    }
    cJSON_Delete(doc);
    return 0;
}

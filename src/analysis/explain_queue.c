/* explain_queue.c — a batch queue's waiting workload explained (explain_queue.h): which queue,
 * whether it can ever be admitted, what it waits for, its place in the line, who holds the
 * quota, and fixes re-checked against the same arithmetic before they are printed.
 *
 * A verdict stage beside explain_verdict.c's (explain_int.h's floors): it calls only the
 * per-node helpers below it; the gang's member pod is explained by the caller (explain.c).
 */
#include "explain_queue_int.h"
#include "model/quantity.h"
#include "util/strmap.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO_LIMIT INT64_MAX

/* the admitted workloads holding one flavor's resource in one ClusterQueue or cohort: the
 * QUEUE_HOLDERS_MAX largest, and how many there are (a cohort of 50 queues holds thousands) */
#define QUEUE_HOLDERS_MAX 20
typedef struct { QueueHolder *v; size_t n, total; } HolderList;

static void holder_list_free(void *p)
{
    HolderList *h = p;
    for (size_t i = 0; i < h->n; i++) { free(h->v[i].ns); free(h->v[i].name); }
    free(h->v);
    free(h);
}

void explain_queue_facts_free(QueueFacts *q)
{
    if (!q) return;
    free(q->local_queue); free(q->cluster_queue); free(q->cohort); free(q->head); free(q->message);
    free(q->owner_api);
    for (size_t i = 0; i < q->nflavors; i++) { free(q->flavors[i].name); free(q->flavors[i].resource); }
    free(q->flavors);
    for (size_t i = 0; i < q->nholders; i++) { free(q->holders[i].ns); free(q->holders[i].name); }
    free(q->holders);
    free(q);
}

static char *owner_key(const char *ns, const char *kind, const char *name)
{
    return xasprintf("%s\x1f%s\x1f%s", ns ? ns : "", kind ? kind : "", name ? name : "");
}

/* ---------------------------------------------------------------- the index */

/* map puts w (index i) under its owner's key and, a PodGroup, under its own name too: KAI and
 * Volcano match a pod to its PodGroup by the pod's annotation (PodMore.pod_group), and a
 * PodGroup's owner is the workload's top owner, not always the pod's (a Deployment's pods are
 * the ReplicaSet's) */
static void put_workload(StrMap *map, const QueueWorkload *w, size_t i)
{
    char *k = owner_key(w->ns, w->owner_kind, w->owner_name);
    if (w->owner_kind && !strmap_get(map, k)) strmap_put(map, k, (void *)(uintptr_t)(i + 1));
    free(k);
    if (w->system == QSYS_KUEUE) return;
    k = owner_key(w->ns, "PodGroup", w->name);
    if (!strmap_get(map, k)) strmap_put(map, k, (void *)(uintptr_t)(i + 1));
    free(k);
}

/* the workload of map a pod belongs to: its PodGroup's by the annotation, else its owner's;
 * index + 1, 0 when none */
static size_t pod_workload(const StrMap *map, const Pod *p)
{
    size_t i = 0;
    if (pod_more(p)->pod_group) {
        char *k = owner_key(p->ns, "PodGroup", pod_more(p)->pod_group);
        i = (size_t)(uintptr_t)strmap_get(map, k);
        free(k);
    }
    if (!i && p->owner_kind) {
        char *k = owner_key(p->ns, p->owner_kind, p->owner_name);
        i = (size_t)(uintptr_t)strmap_get(map, k);
        free(k);
    }
    if (!i) {                                   /* Kueue's pod integration: the pod owns its Workload */
        char *k = owner_key(p->ns, "Pod", p->name);
        i = (size_t)(uintptr_t)strmap_get(map, k);
        free(k);
    }
    return i;
}

static const QueueIndex *sort_ix;       /* qsort has no context argument */

static int cmp_ns_name(const void *a, const void *b)
{
    const QueueWorkload *x = &sort_ix->q->workloads[*(const size_t *)a], *y = &sort_ix->q->workloads[*(const size_t *)b];
    int c = strcmp(x->ns, y->ns);
    return c ? c : strcmp(x->name, y->name);
}

/* Kueue's heap order (pkg/workload/ordering.go: priority, then the queue-order timestamp) */
static int cmp_queue_order(const void *a, const void *b)
{
    const QueueWorkload *x = &sort_ix->q->workloads[*(const size_t *)a], *y = &sort_ix->q->workloads[*(const size_t *)b];
    if (x->priority != y->priority) return x->priority > y->priority ? -1 : 1;
    if (x->creation != y->creation) return x->creation < y->creation ? -1 : 1;
    int c = strcmp(x->ns, y->ns);
    return c ? c : strcmp(x->name, y->name);
}

static void positions(QueueIndex *qi)
{
    const QueueState *q = qi->q;
    size_t *line = xcalloc(q->nworkloads ? q->nworkloads : 1, sizeof *line);
    for (size_t d = 0; d < q->ndefs; d++) {
        const QueueDef *def = &q->defs[d];
        if (def->system != QSYS_KUEUE) continue;
        size_t n = 0;
        for (size_t i = 0; i < q->nworkloads; i++) {
            const QueueWorkload *w = &q->workloads[i];
            if (w->system == QSYS_KUEUE && queue_workload_waiting(w) && qi->def[i] == def) line[n++] = i;
        }
        sort_ix = qi;
        if (n > 1) qsort(line, n, sizeof *line, cmp_queue_order);
        for (size_t k = 0; k < n; k++) {
            /* Kueue's own answer (visibility API) when it was read, else the heap's order */
            const QueueWorkload *w = &q->workloads[line[k]];
            qi->position[line[k]] = q->positions_told && w->visible_position > 0 ? w->visible_position : (int64_t)k + 1;
            qi->queued[line[k]] = (int64_t)n;
            qi->head[line[k]] = str_eq(def->strategy, "StrictFIFO") && k > 0 ? (long)line[0] : -1;
        }
    }
    free(line);
}

static void explain_kueue(const QueueIndex *qi, size_t i, Explanation *e, QueueFacts *qf);

/* A StrictFIFO head is requeued at once and stays the head (Kueue pkg/cache/queue/
 * cluster_queue.go:829-831, RequeueIfNotPresent: immediate for StrictFIFO): a head that is never
 * admitted as the queues are set keeps everything behind it waiting too.  Head h is judged the
 * first time a workload behind it is explained, then remembered (its own head is none; one
 * being judged counts as admissible), so an index that explains nothing (status's queue
 * summaries, on every top refresh) judges no head. */
static bool head_never(const QueueIndex *qi, size_t h)
{
    unsigned char *st = &qi->head_state[h];
    if (!*st) {
        *st = 3;
        Explanation he;
        memset(&he, 0, sizeof he);
        QueueFacts *hf = xcalloc(1, sizeof *hf);
        explain_kueue(qi, h, &he, hf);
        *st = he.verdict == V_QUEUE_QUOTA || he.verdict == V_QUEUE_INACTIVE ? 1 : 2;
        explain_queue_facts_free(hf);
        free(he.summary);                  /* all explain_kueue gives an Explanation */
        strvec_clear(&he.fixes);
    }
    return *st == 1;
}

QueueIndex *explain_queue_new(const Cluster *c)
{
    QueueIndex *qi = xcalloc(1, sizeof *qi);
    qi->c = c;
    qi->q = c->queues;
    qi->owners = strmap_new();
    const QueueState *q = c->queues;
    if (!q || !q->nworkloads) return qi;
    size_t n = q->nworkloads;
    qi->total = xcalloc(n, sizeof *qi->total);
    qi->position = xcalloc(n, sizeof *qi->position);
    qi->queued = xcalloc(n, sizeof *qi->queued);
    qi->head = xcalloc(n, sizeof *qi->head);
    qi->head_state = xcalloc(n, sizeof *qi->head_state);
    qi->first_pod = xcalloc(n, sizeof *qi->first_pod);
    qi->pending_pods = xcalloc(n, sizeof *qi->pending_pods);
    qi->waiting = xcalloc(n, sizeof *qi->waiting);
    qi->def = xcalloc(n, sizeof *qi->def);
    qi->holders = strmap_new();
    qi->admitted = strmap_new();
    for (size_t i = 0; i < n; i++) {
        const QueueWorkload *w = &q->workloads[i];
        qi->def[i] = queue_find_def(q, w->system, queue_workload_def_name(q, w));
        if (w->system == QSYS_KUEUE && w->reserved && !w->finished && w->owner_kind) {
            char *k = owner_key(w->ns, w->owner_kind, w->owner_name);
            if (!strmap_get(qi->admitted, k)) strmap_put(qi->admitted, k, (void *)(uintptr_t)(i + 1));
            free(k);
        }
    }
    StrMap *all = strmap_new();                 /* owners of every waiting workload, GPU or not */
    for (size_t i = 0; i < n; i++) {
        const QueueWorkload *w = &q->workloads[i];
        queue_workload_total(w, &qi->total[i]);
        if (queue_workload_waiting(w)) put_workload(all, w, i);
    }
    /* PodGroups without GPU minResources: their pods say what they ask */
    for (size_t p = 0; p < c->npods; p++) {
        const Pod *pod = &c->pods[p];
        size_t i = pod_workload(all, pod);
        if (!i) continue;
        const QueueWorkload *w = &q->workloads[i - 1];
        if (w->pods_from_members) {
            if (!qi->pending_pods[i - 1] && !qi->first_pod[i - 1]) rlist_clear(&qi->total[i - 1]);
            rlist_add_all(&qi->total[i - 1], &pod->requests);
        }
        if (pod_is_pending_unbound(pod)) {
            qi->pending_pods[i - 1]++;
            if (!qi->first_pod[i - 1]) qi->first_pod[i - 1] = p + 1;
        }
    }
    strmap_free(all, NULL);
    for (size_t i = 0; i < n; i++) {
        const QueueWorkload *w = &q->workloads[i];
        qi->head[i] = -1;
        if (!queue_workload_waiting(w) || !rlist_has_gpu(&qi->total[i])) continue;
        qi->waiting[qi->nwaiting++] = i;
        put_workload(qi->owners, w, i);
    }
    sort_ix = qi;
    if (qi->nwaiting > 1) qsort(qi->waiting, qi->nwaiting, sizeof *qi->waiting, cmp_ns_name);
    positions(qi);
    return qi;
}

void explain_queue_free(QueueIndex *qi)
{
    if (!qi) return;
    for (size_t i = 0; qi->q && i < qi->q->nworkloads && qi->total; i++) rlist_clear(&qi->total[i]);
    free(qi->total); free(qi->position); free(qi->queued); free(qi->head); free(qi->head_state); free(qi->first_pod);
    free(qi->pending_pods); free(qi->waiting); free(qi->def);
    strmap_free(qi->owners, NULL);
    if (qi->holders) strmap_free(qi->holders, holder_list_free);
    if (qi->admitted) strmap_free(qi->admitted, NULL);
    free(qi);
}

size_t explain_queue_waiting(const QueueIndex *qi, const char *ns, const size_t **idx)
{
    *idx = qi->waiting;
    if (!ns) return qi->nwaiting;
    /* the namespace's run within the sorted list */
    size_t b = 0;
    while (b < qi->nwaiting && strcmp(qi->q->workloads[qi->waiting[b]].ns, ns) < 0) b++;
    size_t e = b;
    while (e < qi->nwaiting && str_eq(qi->q->workloads[qi->waiting[e]].ns, ns)) e++;
    *idx = qi->waiting ? qi->waiting + b : NULL;    /* (none waiting: no array to offset) */
    return e - b;
}

size_t explain_queue_count(const QueueIndex *qi, const char *ns)
{
    const size_t *idx;
    return explain_queue_waiting(qi, ns, &idx);
}

long explain_queue_member(const QueueIndex *qi, const Pod *p)
{
    if (!qi->nwaiting) return -1;
    size_t i = pod_workload(qi->owners, p);
    if (!i) {                                  /* a plain pod's own Workload (kind Pod) */
        char *k = owner_key(p->ns, "Pod", p->name);
        i = (size_t)(uintptr_t)strmap_get(qi->owners, k);
        free(k);
    }
    return i ? (long)i - 1 : -1;
}

const Pod *explain_queue_first_pod(const QueueIndex *qi, size_t i)
{
    return qi->first_pod && qi->first_pod[i] ? &qi->c->pods[qi->first_pod[i] - 1] : NULL;
}

long explain_queue_find(const QueueIndex *qi, const char *ns, const char *target)
{
    const char *slash = strchr(target, '/');
    const char *name = slash ? slash + 1 : target;
    size_t klen = slash ? (size_t)(slash - target) : 0;
    for (size_t k = 0; k < qi->nwaiting; k++) {
        size_t i = qi->waiting[k];
        const QueueWorkload *w = &qi->q->workloads[i];
        if (ns && !str_eq(w->ns, ns)) continue;
        if (slash) {
            bool is_wl = klen == 8 && strncasecmp(target, "workload", 8) == 0 && w->system == QSYS_KUEUE;
            bool is_pg = klen == 8 && strncasecmp(target, "podgroup", 8) == 0 && w->system != QSYS_KUEUE;
            bool is_owner = w->owner_kind && strlen(w->owner_kind) == klen && strncasecmp(target, w->owner_kind, klen) == 0;
            if ((is_wl || is_pg) && str_eq(w->name, name)) return (long)i;
            if (is_owner && str_eq(w->owner_name, name)) return (long)i;
        } else if (str_eq(w->name, name)) {
            return (long)i;
        }
    }
    return -1;
}

/* ---------------------------------------------------------------- Kueue arithmetic */

static void add_flavor_fact(QueueFacts *qf, const char *flavor, const char *res, const QueueQuota *qq,
                            int64_t requested, int64_t needed)
{
    qf->flavors = xrealloc(qf->flavors, (qf->nflavors + 1) * sizeof *qf->flavors);
    QueueFlavorFact *f = &qf->flavors[qf->nflavors++];
    f->name = xstrdup(flavor);
    f->resource = xstrdup(res);
    f->nominal = qq ? qq->nominal : 0;
    f->borrowing_limit = qq ? qq->borrowing_limit : -1;
    f->used = qq ? qq->used : 0;
    f->requested = requested;
    f->needed = needed;
}

static int cmp_holder(const void *a, const void *b)
{
    const QueueHolder *x = a, *y = b;
    if (x->gpus != y->gpus) return x->gpus > y->gpus ? -1 : 1;
    int c = strcmp(x->ns, y->ns);
    return c ? c : strcmp(x->name, y->name);
}

/* admitted Kueue workloads of the ClusterQueue's cohort (or of it alone) holding flavor/res,
 * found once per scope, flavor and resource */
static const HolderList *holders_of(const QueueIndex *qi, const QueueDef *d, const char *flavor, const char *res)
{
    char *key = xasprintf("%s\x1f%s\x1f%s\x1f%s", d->cohort ? "cohort" : "cq", d->cohort ? d->cohort : d->name, flavor, res);
    HolderList *h = strmap_get(qi->holders, key);
    if (h) { free(key); return h; }
    h = xcalloc(1, sizeof *h);
    const QueueState *q = qi->q;
    QueueHolder *all = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < q->nworkloads; i++) {
        const QueueWorkload *w = &q->workloads[i];
        if (w->system != QSYS_KUEUE || !w->reserved || w->finished) continue;
        const QueueDef *wd = qi->def[i];
        if (!(wd == d || (d->cohort && wd && str_eq(wd->cohort, d->cohort)))) continue;
        int64_t g = queue_workload_holds(w, flavor, res);
        if (g <= 0) continue;
        ARRAY_GROW(all, n, cap);
        all[n++] = (QueueHolder){ w->ns, w->name, g };      /* borrowed until copied below */
    }
    if (n > 1) qsort(all, n, sizeof *all, cmp_holder);
    h->total = n;
    h->n = n < QUEUE_HOLDERS_MAX ? n : QUEUE_HOLDERS_MAX;
    h->v = h->n ? xcalloc(h->n, sizeof *h->v) : NULL;
    for (size_t i = 0; i < h->n; i++) h->v[i] = (QueueHolder){ xstrdup(all[i].ns), xstrdup(all[i].name), all[i].gpus };
    free(all);
    strmap_put(qi->holders, key, h);
    free(key);
    return h;
}

static void add_holders(const QueueIndex *qi, QueueFacts *qf, const QueueDef *d, const char *flavor, const char *res)
{
    const HolderList *h = holders_of(qi, d, flavor, res);
    qf->holders_total += h->total;
    for (size_t i = 0; i < h->n; i++) {
        bool dup = false;
        for (size_t k = 0; k < qf->nholders && !dup; k++)
            dup = str_eq(qf->holders[k].ns, h->v[i].ns) && str_eq(qf->holders[k].name, h->v[i].name);
        if (dup) continue;
        qf->holders = xrealloc(qf->holders, (qf->nholders + 1) * sizeof *qf->holders);
        qf->holders[qf->nholders++] = (QueueHolder){ xstrdup(h->v[i].ns), xstrdup(h->v[i].name), h->v[i].gpus };
    }
}

static void fmt_units(int64_t milli, char *out, size_t n) { quantity_format(milli, out, n); }

static void add_fix(Explanation *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_fix(Explanation *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    strvec_push(&e->fixes, s);
    free(s);
}

static void set_summary(Explanation *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_summary(Explanation *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    free(e->summary);
    e->summary = s;
}

/* a LocalQueue of the namespace whose ClusterQueue is active and could hold the request now */
static const QueueLocal *local_with_room(const QueueIndex *qi, const QueueWorkload *w, const ResourceList *total)
{
    const QueueState *q = qi->q;
    for (size_t i = 0; i < q->nlocals; i++) {
        const QueueLocal *l = &q->locals[i];
        if (!str_eq(l->ns, w->ns) || str_eq(l->name, w->queue) || !str_eq(l->stop_policy, "None")) continue;
        const QueueDef *d = queue_find_def(q, QSYS_KUEUE, l->cluster_queue);
        if (!d || !d->active || !str_eq(d->stop_policy, "None")) continue;
        bool all = true;
        for (size_t r = 0; r < total->n && all; r++) {
            if (!resources_is_gpu(total->items[r].name) || total->items[r].milli <= 0) continue;
            bool any = false;
            for (size_t k = 0; k < d->nquotas && !any; k++) {
                const QueueQuota *qq = &d->quotas[k];
                if (!str_eq(qq->resource, total->items[r].name) || !explain_queue_flavor_admits(q, w, qq->flavor, NULL)) continue;
                any = explain_queue_flavor_room(q, d, qq, -2).available >= total->items[r].milli;
            }
            all = any;
        }
        if (all) return l;
    }
    return NULL;
}

static void kueue_inactive(Explanation *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void kueue_inactive(Explanation *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    e->verdict = V_QUEUE_INACTIVE;
    free(e->summary);
    e->summary = s;
}

typedef struct { const char *res, *flavor; int64_t need; } WaitOn;

static void explain_kueue(const QueueIndex *qi, size_t i, Explanation *e, QueueFacts *qf)
{
    const QueueState *q = qi->q;
    const QueueWorkload *w = &q->workloads[i];
    const ResourceList *total = &qi->total[i];
    qf->local_queue = w->queue ? xstrdup(w->queue) : NULL;
    const QueueLocal *lq = queue_find_local(q, w->ns, w->queue);
    const char *cq_name = queue_workload_def_name(q, w);
    qf->cluster_queue = cq_name ? xstrdup(cq_name) : NULL;
    const QueueDef *d = qi->def[i];
    if (d && d->cohort) qf->cohort = xstrdup(d->cohort);
    qf->position = qi->position[i];
    qf->queued = qi->queued[i];
    if (qi->head[i] >= 0) {
        const QueueWorkload *h = &q->workloads[qi->head[i]];
        qf->head = xasprintf("%s/%s", h->ns, h->name);
        qf->head_never = head_never(qi, (size_t)qi->head[i]);
    }
    const QueueLocal *other = NULL;
    if (!w->queue) {
        kueue_inactive(e, "Workload names no LocalQueue (spec.queueName)");
    } else if (!lq) {
        kueue_inactive(e, "LocalQueue %s/%s does not exist", w->ns, w->queue);
        other = local_with_room(qi, w, total);
    } else if (!str_eq(lq->stop_policy, "None")) {
        kueue_inactive(e, "LocalQueue %s/%s is stopped (stopPolicy %s)", w->ns, w->queue, lq->stop_policy);
        add_fix(e, "resume the LocalQueue:\n  kubectl patch localqueue %s -n %s --type merge -p '{\"spec\":{\"stopPolicy\":\"None\"}}'",
                w->queue, w->ns);
        other = local_with_room(qi, w, total);
    } else if (!d) {
        kueue_inactive(e, "ClusterQueue %s (of LocalQueue %s/%s) does not exist", cq_name ? cq_name : "(none)", w->ns, w->queue);
        other = local_with_room(qi, w, total);
    } else if (!str_eq(d->stop_policy, "None")) {
        kueue_inactive(e, "ClusterQueue %s is stopped (stopPolicy %s)", d->name, d->stop_policy);
        add_fix(e, "resume the ClusterQueue:\n  kubectl patch clusterqueue %s --type merge -p '{\"spec\":{\"stopPolicy\":\"None\"}}'",
                d->name);
        other = local_with_room(qi, w, total);
    } else {
        const char *missing = NULL;
        for (size_t k = 0; q->nflavors && k < d->flavors.n && !missing; k++)
            if (!queue_find_flavor(q, d->flavors.v[k])) missing = d->flavors.v[k];
        if (!d->active || missing) {
            if (missing) {
                kueue_inactive(e, "ClusterQueue %s is inactive: ResourceFlavor %s does not exist", d->name, missing);
                add_fix(e, "create ResourceFlavor %s (spec.nodeLabels naming its nodes), or take it out of ClusterQueue %s's "
                        "resourceGroups", missing, d->name);
            }
            else kueue_inactive(e, "ClusterQueue %s is inactive: %s", d->name, d->inactive_reason ? d->inactive_reason : "not Active");
            other = local_with_room(qi, w, total);
        }
    }
    if (other)
        add_fix(e, "submit it to LocalQueue %s/%s (ClusterQueue %s has room for it now):\n"
                "  metadata.labels: kueue.x-k8s.io/queue-name: %s", other->ns, other->name, other->cluster_queue, other->name);
    else if (e->verdict == V_QUEUE_INACTIVE && (!w->queue || !lq)) {
        Strbuf names = STRBUF_INIT;
        for (size_t k = 0; k < q->nlocals; k++)
            if (str_eq(q->locals[k].ns, w->ns)) strbuf_addf(&names, "%s%s", names.len ? ", " : "", q->locals[k].name);
        if (names.len)
            add_fix(e, "name one of the LocalQueues of namespace %s in label kueue.x-k8s.io/queue-name (none has room for "
                    "it now): %s", w->ns, strbuf_str(&names));
        else
            add_fix(e, "create LocalQueue %s in namespace %s pointing at a ClusterQueue (spec.clusterQueue)",
                    w->queue ? w->queue : "(name)", w->ns);
        strbuf_clear(&names);
    }
    if (e->verdict == V_QUEUE_INACTIVE) return;

    /* per GPU resource: the flavors that cover it and match the pod sets' nodeSelectors */
    bool never = false, waits = false;
    WaitOn wait_on[8];                         /* what it waits for */
    size_t nwait = 0;
    Strbuf why = STRBUF_INIT;
    for (size_t r = 0; r < total->n; r++) {
        const char *res = total->items[r].name;
        int64_t want = total->items[r].milli;
        if (!resources_is_gpu(res) || want <= 0) continue;
        size_t covering = 0, matching = 0;
        Strbuf refused = STRBUF_INIT;       /* why each covering flavor does not admit the pods */
        int64_t best_max = -1, best_need = -1;
        const QueueQuota *best = NULL;
        for (size_t k = 0; k < d->nquotas; k++) {
            const QueueQuota *qq = &d->quotas[k];
            if (!str_eq(qq->resource, res)) continue;
            covering++;
            if (!explain_queue_flavor_admits(q, w, qq->flavor, &refused)) continue;
            matching++;
            FlavorRoom room = explain_queue_flavor_room(q, d, qq, -2);
            int64_t need = want > room.max ? -1 : want > room.available ? want - room.available : 0;
            add_flavor_fact(qf, qq->flavor, res, qq, want, need);
            add_holders(qi, qf, d, qq->flavor, res);
            if (room.max > best_max) { best_max = room.max; if (need < 0) best = qq; }
            if (need >= 0 && (best_need < 0 || need < best_need)) { best_need = need; best = qq; }
        }
        char a[32], b[32];
        fmt_units(want, a, sizeof a);
        if (!covering) {
            never = true;
            strbuf_addf(&why, "%sno flavor of ClusterQueue %s covers %s", why.len ? "; " : "", d->name, res);
        } else if (!matching) {
            never = true;
            strbuf_addf(&why, "%sno flavor of ClusterQueue %s that covers %s admits the pods (%s)",
                        why.len ? "; " : "", d->name, res, strbuf_str(&refused));
            add_fix(e, "make the pod template fit a flavor of ClusterQueue %s (tolerations for its nodeTaints, nodeSelector "
                    "and node affinity within its nodeLabels), or submit it to a LocalQueue whose ClusterQueue has a "
                    "flavor for it", d->name);
        } else if (best_need < 0) {
            never = true;
            fmt_units(best_max, b, sizeof b);
            strbuf_addf(&why, "%sneeds %s %s; ClusterQueue %s can hold at most %s on flavor %s (nominal + what %s may lend)",
                        why.len ? "; " : "", a, res, d->name, b, best ? best->flavor : "?",
                        d->cohort ? d->cohort : "no cohort");
            if (best) {
                /* re-checked: the nominal quota that admits it, and a borrowing limit that would */
                char nq[32];
                int64_t raise = best->nominal + (want - best_max);
                QueueQuota probe = *best;
                probe.nominal = raise;
                fmt_units(raise, nq, sizeof nq);
                if (explain_queue_flavor_room(q, d, &probe, -2).max >= want)          /* re-checked */
                    add_fix(e, "raise ClusterQueue %s's nominalQuota of %s on flavor %s to at least %s",
                            d->name, res, best->flavor, nq);
                probe = *best;
                for (int64_t bl = 1000; d->cohort && bl <= want; bl += 1000) {
                    if (explain_queue_flavor_room(q, d, &probe, bl).max >= want) {
                        char bls[32];
                        fmt_units(bl, bls, sizeof bls);
                        if (best->borrowing_limit >= 0 && bl > best->borrowing_limit)
                            add_fix(e, "or raise its borrowingLimit of %s on flavor %s to %s (cohort %s can lend it)",
                                    res, best->flavor, bls, d->cohort);
                        break;
                    }
                }
                add_fix(e, "or ask for at most %s %s in all (the most flavor %s can ever hold)", b, res, best->flavor);
            }
        } else if (best_need > 0) {
            waits = true;
            if (nwait < sizeof wait_on / sizeof *wait_on && best)
                wait_on[nwait++] = (WaitOn){ res, best->flavor, best_need };
            fmt_units(best_need, b, sizeof b);
            strbuf_addf(&why, "%s%s more %s needed on flavor %s", why.len ? "; " : "", b, res, best ? best->flavor : "?");
        }
        strbuf_clear(&refused);
    }
    if (never) {
        e->verdict = V_QUEUE_QUOTA;
        e->summary = strbuf_detach(&why);
        return;
    }
    e->verdict = V_QUEUED;
    if (qf->head) {
        set_summary(e, "StrictFIFO: waits behind the head %s%s (position %lld of %lld in ClusterQueue %s)%s%s", qf->head,
                    qf->head_never ? ", which is never admitted as the queues are set" : "",
                    (long long)qf->position, (long long)qf->queued, d->name, why.len ? "; " : "", strbuf_str(&why));
        if (qf->head_never) {
            const char *slash = strchr(qf->head, '/');
            add_fix(e, "make the head %s admissible or delete it (kubectl gpu explain workload/%s -n %.*s says why it "
                    "is not)", qf->head, slash + 1, (int)(slash - qf->head), qf->head);
            add_fix(e, "or let ClusterQueue %s admit past its head:\n  kubectl patch clusterqueue %s --type merge -p "
                    "'{\"spec\":{\"queueingStrategy\":\"BestEffortFIFO\"}}'", d->name, d->name);
        }
    } else if (waits) {
        /* the quota it waits for may be taken back from admitted workloads (Kueue preemption) */
        Strbuf victims = STRBUF_INIT;
        bool preempts = nwait > 0;
        for (size_t k = 0; k < nwait && preempts; k++)
            preempts = explain_queue_preempts(qi, i, d, wait_on[k].flavor, wait_on[k].res, wait_on[k].need, &victims);
        if (preempts) {
            qf->preempts = true;
            set_summary(e, "%s, held by admitted workloads: Kueue preempts %s to admit it (preemption "
                        "withinClusterQueue %s, reclaimWithinCohort %s; position %lld of %lld in ClusterQueue %s)",
                        strbuf_str(&why), strbuf_str(&victims), d->preempt_within, d->preempt_reclaim,
                        (long long)qf->position, (long long)qf->queued, d->name);
        } else {
            set_summary(e, "%s, held by admitted workloads (position %lld of %lld in ClusterQueue %s)", strbuf_str(&why),
                        (long long)qf->position, (long long)qf->queued, d->name);
        }
        strbuf_clear(&victims);
    } else {
        set_summary(e, "quota is free: next in line (position %lld of %lld in ClusterQueue %s)",
                    (long long)qf->position, (long long)qf->queued, d->name);
    }
    strbuf_clear(&why);
}

static void explain_podgroup(const QueueIndex *qi, size_t i, Explanation *member, Explanation *e, QueueFacts *qf)
{
    const QueueState *q = qi->q;
    const QueueWorkload *w = &q->workloads[i];
    const ResourceList *total = &qi->total[i];
    qf->cluster_queue = w->queue ? xstrdup(w->queue) : NULL;
    qf->min_member = w->min_member;
    const QueueDef *d = queue_find_def(q, w->system, w->queue);
    if (d && d->cohort) qf->cohort = xstrdup(d->cohort);
    const char *qkind = w->system == QSYS_VOLCANO ? "Volcano Queue" : "KAI Queue";
    if (!d) { kueue_inactive(e, "%s %s does not exist", qkind, w->queue); return; }
    if (!d->active) {
        kueue_inactive(e, "%s %s is %s", qkind, d->name, d->inactive_reason ? d->inactive_reason : "closed");
        return;
    }
    Strbuf why = STRBUF_INIT;
    bool never = false, waits = false;
    for (size_t r = 0; r < total->n; r++) {
        const char *res = total->items[r].name;
        int64_t want = total->items[r].milli;
        if (!resources_is_gpu(res) || want <= 0) continue;
        const QueueQuota *qq = queue_def_quota(d, "", res);
        if (!qq) continue;                     /* the queue does not limit it */
        int64_t max = qq->borrowing_limit < 0 ? NO_LIMIT : qq->nominal + qq->borrowing_limit;
        int64_t need = want > max ? -1 : qq->used + want > max ? qq->used + want - max : 0;
        add_flavor_fact(qf, "", res, qq, want, need);
        char a[32], b[32];
        fmt_units(want, a, sizeof a);
        if (need < 0) {
            never = true;
            fmt_units(max, b, sizeof b);
            strbuf_addf(&why, "%sneeds %s %s; %s %s allows at most %s (%s)", why.len ? "; " : "", a, res, qkind, d->name, b,
                        w->system == QSYS_VOLCANO ? "capability" : "limit");
            add_fix(e, "raise %s %s's %s of %s to at least %s, or ask for at most %s", qkind, d->name,
                    w->system == QSYS_VOLCANO ? "spec.capability" : "spec.resources.gpu.limit", res, a, b);
        } else if (need > 0) {
            waits = true;
            fmt_units(need, b, sizeof b);
            strbuf_addf(&why, "%s%s %s must be released in %s %s first", why.len ? "; " : "", b, res, qkind, d->name);
        }
    }
    if (never) { e->verdict = V_QUEUE_QUOTA; e->summary = strbuf_detach(&why); return; }
    if (waits) { e->verdict = V_QUEUED; e->summary = strbuf_detach(&why); return; }
    strbuf_clear(&why);
    /* the gang: how many of its pods fit at once on the nodes its first pod may use */
    const Pod *p = explain_queue_first_pod(qi, i);
    if (!p || !member) {
        e->verdict = V_QUEUED;
        set_summary(e, "%s %s has room; the gang's pods are not created yet", qkind, d->name);
        return;
    }
    int64_t per_pod = 0;
    const char *res = NULL;
    for (size_t k = 0; k < p->requests.n && !res; k++)
        if (resources_is_gpu(p->requests.items[k].name) && p->requests.items[k].milli > 0) {
            res = p->requests.items[k].name;
            per_pod = p->requests.items[k].milli;
        }
    int64_t slots = 0;
    Strbuf where = STRBUF_INIT;
    for (size_t n = 0; res && n < qi->c->nnodes; n++) {
        const Node *node = &qi->c->nodes[n];
        if (!node->ready || node->unschedulable || !explain_pod_admits(p, node)) continue;
        int64_t free_ = explain_node_free_for(qi->c, node, p, res);
        int64_t fit = free_ > 0 ? free_ / per_pod : 0;
        if (fit <= 0) continue;
        slots += fit;
        strbuf_addf(&where, "%s%s: %lld", where.len ? ", " : "", node->name, (long long)fit);
    }
    /* the gang's pods that already hold a node count towards minMember */
    int64_t placed = (int64_t)qi->pending_pods[i] < w->min_member ? w->min_member - (int64_t)qi->pending_pods[i] : 0;
    if (res && slots + placed < w->min_member) {
        char a[32];
        fmt_units(per_pod, a, sizeof a);
        e->verdict = V_GANG;
        set_summary(e, "gang of %d needs %lld pods x %s %s at once; %lld fit now%s%s%s", w->min_member,
                    (long long)(w->min_member - placed), a, res, (long long)slots, where.len ? " (" : "",
                    strbuf_str(&where), where.len ? ")" : "");
    } else {
        e->verdict = member->verdict;
        e->summary = member->summary;
        member->summary = NULL;
    }
    strbuf_clear(&where);
}

/* Queued, but its pods could never be placed: the queue admits a workload without asking the
 * nodes (Kueue's flavor assignment counts quota, not node room; Volcano's enqueue the Queue's
 * capability), so once admitted its pods would stay Pending.  The nodes' verdict, summary and
 * fixes are the answer; what the queue said stays as a note. */
static void nodes_decide(Explanation *e, Explanation *member)
{
    char *queued = e->summary;
    e->verdict = member->verdict;
    e->summary = member->summary;
    member->summary = NULL;
    for (size_t k = 0; k < e->fixes.n; k++) if (e->fix_info) explain_fix_info_release(&e->fix_info[k]);
    free(e->fix_info);
    strvec_clear(&e->fixes);
    e->fixes = member->fixes;                       /* the fixes and their details move */
    e->fix_info = member->fix_info;
    member->fixes = (Strvec)STRVEC_INIT;
    member->fix_info = NULL;
    explain_queue_note_never(&e->notes, queued);
    free(queued);
}

void explain_queue_note_never(Strvec *notes, const char *queued)
{
    strvec_pushf(notes, "the queue would admit it once quota is released (%s), but no node could hold its pods "
                 "then: it never starts as the cluster is", queued ? queued : "Queued");
}

void explain_queue_workload(const QueueIndex *qi, size_t i, Explanation *member, Explanation *e)
{
    const QueueState *q = qi->q;
    const QueueWorkload *w = &q->workloads[i];
    memset(e, 0, sizeof *e);
    e->ns = xstrdup(w->ns);
    e->name = xstrdup(w->name);
    e->created = true;
    e->owner_kind = w->owner_kind ? xstrdup(w->owner_kind) : NULL;
    e->owner_name = w->owner_name ? xstrdup(w->owner_name) : NULL;
    e->age = w->creation > 0 && qi->c->now >= w->creation ? qi->c->now - w->creation : -1;
    for (size_t r = 0; r < qi->total[i].n; r++)
        if (resources_is_gpu(qi->total[i].items[r].name) && qi->total[i].items[r].milli > 0)
            rlist_set(&e->requests, qi->total[i].items[r].name, qi->total[i].items[r].milli);
    rlist_sort(&e->requests);
    e->agrees = true;
    QueueFacts *qf = xcalloc(1, sizeof *qf);
    e->queue = qf;
    qf->system = w->system;
    qf->row_kind = w->system == QSYS_KUEUE ? "Workload" : "PodGroup";
    qf->message = w->message ? xstrdup(w->message) : NULL;
    qf->owner_api = w->owner_api ? xstrdup(w->owner_api) : NULL;
    qf->pending_pods = qi->pending_pods[i];
    if (member) {                              /* the gang's per-node picture is its pod's */
        e->nodes = member->nodes; e->nnodes = member->nnodes; e->node_rank = member->node_rank;
        e->shared = member->shared;
        member->nodes = NULL; member->nnodes = 0; member->node_rank = NULL; member->shared = NULL;
        if (member->sched_text) { e->sched_text = member->sched_text; member->sched_text = NULL; }
        e->sched_source = member->sched_source;
    }
    if (w->system == QSYS_KUEUE) explain_kueue(qi, i, e, qf);
    else explain_podgroup(qi, i, member, e, qf);
    if (e->verdict == V_QUEUED && member && verdict_never_by_nodes(member->verdict)) nodes_decide(e, member);
    if (!e->summary) e->summary = xstrdup("");
    /* waits and never told apart, as for pods */
    if (e->verdict == V_QUEUED && qf->head_never)
        strvec_push(&e->notes, "it never starts as the queues are set: under StrictFIFO nothing behind a head that is "
                               "never admitted is admitted (one of the fixes is needed)");
    else if (e->verdict == V_QUEUED && qf->preempts)
        strvec_push(&e->notes, "it waits briefly: Kueue evicts the workloads named (their pods end) and then admits it "
                               "(no change needed)");
    else if (e->verdict == V_QUEUED)
        strvec_push(&e->notes, "it waits: admitted once the quota named is released (no change needed)");
    else if (e->verdict == V_QUEUE_QUOTA || e->verdict == V_QUEUE_INACTIVE)
        strvec_push(&e->notes, "it never starts as the queues are set: one of the fixes (or another change) is needed");
    else if (e->verdict == V_GANG)
        strvec_push(&e->notes, "it waits until enough nodes have room for the whole gang at once (the nodes below are "
                               "judged for one pod)");
}

void explain_queue_note_admitted(const QueueIndex *qi, const Pod *p, Explanation *e)
{
    if (!qi->admitted || !p->owner_kind) return;
    char *k = owner_key(p->ns, p->owner_kind, p->owner_name);
    size_t i = (size_t)(uintptr_t)strmap_get(qi->admitted, k);
    free(k);
    if (!i) return;
    const QueueWorkload *w = &qi->q->workloads[i - 1];
    Strbuf fl = STRBUF_INIT;
    for (size_t s = 0; s < w->npodsets; s++)
        for (size_t r = 0; r < w->podsets[s].flavors.n; r++) {
            const char *res = w->podsets[s].flavors.items[r].key;
            if (!resources_is_gpu(res)) continue;
            strbuf_addf(&fl, "%s%s on flavor %s", fl.len ? ", " : "", res, w->podsets[s].flavors.items[r].value);
        }
    strvec_pushf(&e->notes, "Kueue admitted its Workload %s to ClusterQueue %s%s%s%s: the queue let it start; what "
                 "stops it now is the nodes", w->name, w->cluster_queue ? w->cluster_queue : "?",
                 fl.len ? " (" : "", strbuf_str(&fl), fl.len ? ")" : "");
    strbuf_clear(&fl);
}

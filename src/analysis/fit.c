/* fit.c — manifests' pod templates judged against the cluster now (contract in fit.h). */
#include "analysis/fit.h"
#include "analysis/explain_queue.h"
#include "model/quantity.h"
#include "util/error.h"
#include "util/strpool.h"
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* pods of earlier replicas and templates per namespace: what quota admission has counted */
typedef struct { char *ns; ResourceList used; } NsUse;
typedef struct { NsUse *v; size_t n; } NsUseList;

static ResourceList *ns_use(NsUseList *l, const char *ns)
{
    for (size_t i = 0; i < l->n; i++) if (str_eq(l->v[i].ns, ns)) return &l->v[i].used;
    l->v = xrealloc(l->v, (l->n + 1) * sizeof *l->v);
    l->v[l->n] = (NsUse){ xstrdup(ns), RESOURCE_LIST_INIT };
    return &l->v[l->n++].used;
}

static void ns_use_clear(NsUseList *l)
{
    for (size_t i = 0; i < l->n; i++) { free(l->v[i].ns); rlist_clear(&l->v[i].used); }
    free(l->v);
}

int fit_verdict_exit(Verdict v)
{
    switch (v) {
    case V_INSUFFICIENT: case V_FRAGMENTED: case V_GATED: case V_UNKNOWN: return 3;
    default: return 4;
    }
}

static const char *first_gpu(const ResourceList *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (resources_is_gpu(l->items[i].name) && l->items[i].milli > 0) return l->items[i].name;
    return NULL;
}

static void place(Cluster *c, size_t idx, const Pod *p, FitItem *it)
{
    rlist_add_all(&c->usage[idx].requested, &p->requests);
    c->usage[idx].pods++;
    it->fits_replicas++;
    const char *name = c->nodes[idx].name;
    if (it->nnodes && str_eq(it->nodes[it->nnodes - 1].node, name)) { it->nodes[it->nnodes - 1].replicas++; return; }
    for (size_t k = 0; k < it->nnodes; k++)
        if (str_eq(it->nodes[k].node, name)) { it->nodes[k].replicas++; return; }
    it->nodes = xrealloc(it->nodes, (it->nnodes + 1) * sizeof *it->nodes);
    it->nodes[it->nnodes++] = (FitPlacement){ name, 1 };
}

static bool fits_on(const ExplainIndex *ix, const Pod *p, const Node *n)
{
    NodeResult r = { .node = n };
    explain_node_indexed(ix, p, n, &r);
    bool ok = r.nreasons == 0;
    node_result_clear(&r);
    return ok;
}

static bool placed_on(const FitItem *it, const char *node)
{
    for (size_t k = 0; k < it->nnodes; k++) if (str_eq(it->nodes[k].node, node)) return true;
    return false;
}

/* a node where the next replica would go (the same rule as fit_replicas, asking every node):
 * SIZE_MAX when none */
static size_t best_node(const Cluster *c, const ExplainIndex *ix, const Pod *p, const FitItem *it)
{
    const char *gpu = first_gpu(&p->requests);
    size_t best = SIZE_MAX;
    int64_t best_free = 0;
    for (size_t i = 0; i < c->nnodes; i++) {
        const Node *n = &c->nodes[i];
        if (p->spread_by_node && placed_on(it, n->name)) continue;
        if (!fits_on(ix, p, n)) continue;
        int64_t free_ = rlist_get(&n->allocatable, gpu) - rlist_get(&c->usage[i].requested, gpu);
        if (best == SIZE_MAX || free_ < best_free) { best = i; best_free = free_; }
    }
    return best;
}

/* ---------------------------------------------------------------- quota */

/* the quota key that limits requests of res, as the API server's quota evaluator names it:
 * requests.<name>; cpu and memory also bare */
static int64_t quota_hard(const Quota *q, const char *res, const char **key, char *buf, size_t bn)
{
    snprintf(buf, bn, "requests.%s", res);
    if (rlist_has(&q->hard, buf)) { *key = buf; return rlist_get(&q->hard, buf); }
    if ((str_eq(res, "cpu") || str_eq(res, "memory")) && rlist_has(&q->hard, res)) { *key = res; return rlist_get(&q->hard, res); }
    return -1;
}

typedef struct {
    int64_t room;               /* pods the quotas admit; INT64_MAX when none limits */
    const Quota *q;             /* the quota that admits fewest */
    char key[300];
    int64_t hard, used, per;
} QuotaRoom;

static void quota_room(const Cluster *c, const Pod *p, const ResourceList *earlier, QuotaRoom *out)
{
    memset(out, 0, sizeof *out);
    out->room = INT64_MAX;
    for (size_t i = 0; i < c->nquotas; i++) {
        const Quota *q = &c->quotas[i];
        if (!str_eq(q->ns, p->ns)) continue;
        for (size_t r = 0; r < p->requests.n; r++) {
            const ResourceEntry *re = &p->requests.items[r];
            if (re->milli <= 0) continue;
            char buf[300];
            const char *key = NULL;
            int64_t hard = quota_hard(q, re->name, &key, buf, sizeof buf);
            if (hard < 0) continue;
            int64_t used = rlist_get(&q->used, key) + rlist_get(earlier, key);
            int64_t room = hard > used ? (hard - used) / re->milli : 0;
            if (room < out->room) {
                out->room = room;
                out->q = q;
                snprintf(out->key, sizeof out->key, "%s", key);
                out->hard = hard; out->used = used; out->per = re->milli;
            }
        }
    }
}

/* the pods created count against the namespace's quotas, whether they then schedule or not */
static void quota_count(const Cluster *c, const Pod *p, int64_t pods, ResourceList *earlier)
{
    for (size_t i = 0; i < c->nquotas; i++) {
        if (!str_eq(c->quotas[i].ns, p->ns)) continue;
        for (size_t r = 0; r < p->requests.n; r++) {
            char buf[300];
            const char *key = NULL;
            if (quota_hard(&c->quotas[i], p->requests.items[r].name, &key, buf, sizeof buf) < 0) continue;
            rlist_add(earlier, key, 0);          /* the key counted below, once */
        }
    }
    /* one entry per key, summed once (several quotas may name the same key) */
    for (size_t k = 0; k < earlier->n; k++) {
        const char *key = earlier->items[k].name;
        const char *res = str_starts_with(key, "requests.") ? key + strlen("requests.") : key;
        int64_t per = rlist_get(&p->requests, res);
        if (per > 0 && pods > 0) earlier->items[k].milli += per * pods;
    }
}

static void quota_verdict(const QuotaRoom *qr, int64_t pods, FitItem *it)
{
    /* quantities as Kubernetes writes them ("4", "1500m"): GPUs, cpu and memory alike */
    char h[48], u[48], per[48], nd[48];
    quantity_format(qr->hard, h, sizeof h);
    quantity_format(qr->used, u, sizeof u);
    quantity_format(qr->per, per, sizeof per);
    bool never = pods * qr->per > qr->hard;
    it->verdict = verdict_name(V_QUOTA);
    it->exit_code = never ? 4 : 3;
    it->summary = xasprintf("ResourceQuota %s/%s: %s is %s used of %s; %lld pod(s) asking %s each %s", qr->q->ns,
                            qr->q->name, qr->key, u, h, (long long)pods, per,
                            never ? "exceed the hard limit even with nothing else running"
                                  : "fit under the hard limit only once running pods of the namespace end");
    /* qr was taken before this template's first pod: all of its pods on top of what is used */
    quantity_format(qr->used + pods * qr->per, nd, sizeof nd);
    strvec_pushf(&it->fixes, "raise %s of ResourceQuota %s/%s from %s to at least %s:\n  kubectl patch resourcequota %s -n %s "
                 "--type merge -p '{\"spec\":{\"hard\":{\"%s\":\"%s\"}}}'", qr->key, qr->q->ns, qr->q->name, h, nd,
                 qr->q->name, qr->q->ns, qr->key, nd);
}

/* ---------------------------------------------------------------- one template */

static void take_explanation(FitItem *it, Explanation *e)
{
    it->expl = *e;
    it->has_expl = true;
    it->verdict = verdict_name(e->verdict);
    it->exit_code = fit_verdict_exit(e->verdict);
    it->summary = e->summary ? xstrdup(e->summary) : NULL;
    for (size_t k = 0; k < e->fixes.n; k++) strvec_push(&it->fixes, e->fixes.v[k]);
    for (size_t k = 0; k < e->notes.n; k++) strvec_push(&it->notes, e->notes.v[k]);
}

/* the first replica that did not fit, explained with every earlier placement counted */
static void explain_failure(Cluster *c, const Pod *p, FitItem *it, int64_t placed_before)
{
    Explanation e;
    explain_pod(c, p, &e);
    take_explanation(it, &e);
    if (placed_before + it->fits_replicas > 0)
        strvec_pushf(&it->notes, "the free GPUs above count the pods of the manifests placed before this one as running "
                     "(%lld of this template, %lld of earlier templates); the pods named as holders are the cluster's",
                     (long long)it->fits_replicas, (long long)placed_before);
    if (e.verdict == V_UNKNOWN && p->spread_by_node) {
        /* explain's filters pass on a node that already holds a pod of this template, which the
         * pod's required anti-affinity keeps it off: the others that admit it and could hold it
         * decide — busy ones make it wait (Insufficient), none means it never fits as the
         * cluster is set (Selector: its own constraints leave no node) */
        size_t others = 0;
        for (size_t i = 0; i < it->expl.nnodes; i++)
            if (it->expl.node_rank[i] <= 1 && !placed_on(it, it->expl.nodes[i].node->name)) others++;
        free(it->summary);
        Verdict v = others ? V_INSUFFICIENT : V_SELECTOR;
        it->verdict = verdict_name(v);
        it->exit_code = fit_verdict_exit(v);
        it->summary = xasprintf("its pods may not share a node (required pod anti-affinity on kubernetes.io/hostname): "
                                "%lld node(s) hold one each, %s", (long long)it->fits_replicas,
                                others ? "the other nodes that admit it are busy"
                                       : "and no other node admits it and could hold it");
        Strbuf sb = STRBUF_INIT;
        for (size_t k = 0; k < it->nnodes; k++) strbuf_addf(&sb, "%s%s", k ? ", " : "", it->nodes[k].node);
        strvec_pushf(&it->notes, "nodes listed as fitting already hold a pod of this template (%s)", strbuf_str(&sb));
        strbuf_clear(&sb);
    }
}

/* Which nodes take the pod is asked of explain's filters once per node; placing a pod changes
 * only its own node, so only that node is asked again (fit costs nodes + pods, not their
 * product: 20,000 replicas on 5,000 nodes).  Among the nodes that take it, the one with the
 * least of its GPU resource free, first in cluster order, is filled. */
static void fit_replicas(Cluster *c, const ExplainIndex *ix, FitItem *it, const QuotaRoom *qr, int64_t placed_before)
{
    const Pod *p = &it->pod;
    const char *gpu = first_gpu(&p->requests);
    bool *takes = c->nnodes ? xcalloc(c->nnodes, sizeof *takes) : NULL;
    for (size_t i = 0; i < c->nnodes && it->replicas > 0; i++) takes[i] = fits_on(ix, p, &c->nodes[i]);
    while (it->fits_replicas < it->replicas) {
        if (it->fits_replicas >= qr->room) {
            quota_verdict(qr, it->replicas, it);
            size_t idx = best_node(c, ix, p, it);      /* and the nodes, once admitted? */
            if (idx != SIZE_MAX) strvec_pushf(&it->notes, "once admitted, the next pod would fit node %s now", c->nodes[idx].name);
            else strvec_pushf(&it->notes, "once admitted, the next pod would not fit any node now either "
                              "(kubectl gpu fit after raising the quota says why)");
            break;
        }
        size_t idx = SIZE_MAX;
        int64_t best_free = 0;
        for (size_t i = 0; i < c->nnodes; i++) {
            if (!takes[i]) continue;
            int64_t free_ = rlist_get(&c->nodes[i].allocatable, gpu) - rlist_get(&c->usage[i].requested, gpu);
            if (idx == SIZE_MAX || free_ < best_free) { idx = i; best_free = free_; }
        }
        if (idx == SIZE_MAX) { explain_failure(c, p, it, placed_before); break; }
        /* fill the chosen node while it holds more (one pod per node when the pods spread) */
        do place(c, idx, p, it);
        while (!p->spread_by_node && it->fits_replicas < it->replicas && it->fits_replicas < qr->room &&
               fits_on(ix, p, &c->nodes[idx]));
        takes[idx] = !p->spread_by_node && fits_on(ix, p, &c->nodes[idx]);
    }
    free(takes);
}

static int fit_daemonset(Cluster *c, const ExplainIndex *ix, const cJSON *podjson, FitItem *it,
                         const QuotaRoom *qr, int64_t placed_before, StrPool *pool, Error *err)
{
    const Pod *p = &it->pod;
    const Node *first_fail = NULL;
    bool quota_fail = false;
    it->replicas = 0;
    for (size_t i = 0; i < c->nnodes; i++) {
        const Node *n = &c->nodes[i];
        if (!explain_pod_admits(p, n)) continue;
        it->replicas++;
        if (it->replicas > qr->room) { if (!first_fail) quota_fail = true; continue; }
        if (fits_on(ix, p, n)) place(c, i, p, it);
        else if (!first_fail && !quota_fail) first_fail = n;
    }
    if (quota_fail) { quota_verdict(qr, it->replicas, it); return 0; }
    if (!first_fail) return 0;
    cJSON *pinned = manifest_pod_pinned(podjson, first_fail->name);
    int rc = pod_from_json(&it->pinned, pinned, pool, err);
    cJSON_Delete(pinned);
    if (rc < 0) return -1;
    explain_failure(c, &it->pinned, it, placed_before);
    strvec_pushf(&it->notes, "a DaemonSet makes one pod per node it admits (%lld here); the first that does not fit, "
                 "on node %s, is explained", (long long)it->replicas, first_fail->name);
    return 0;
}

/* Queued by its queue (Kueue's LocalQueue, Volcano's Queue), which admits without asking the
 * nodes: when no node could ever hold the template's pods, waiting does not start them, and the
 * nodes' verdict (exit 4) is the answer, the queue's kept as a note.  it->pod is the template's. */
static void queued_but_never(const Cluster *c, FitItem *it)
{
    Explanation e;
    explain_pod(c, &it->pod, &e);
    if (!verdict_never_by_nodes(e.verdict)) { explanation_clear(&e); return; }
    char *queued = it->summary;
    Strvec qnotes = it->notes;
    it->summary = NULL;
    it->notes = (Strvec)STRVEC_INIT;
    strvec_clear(&it->fixes);
    take_explanation(it, &e);
    explain_queue_note_never(&it->notes, queued);
    for (size_t k = 0; k < qnotes.n; k++)
        if (!strstr(qnotes.v[k], "no change needed")) strvec_push(&it->notes, qnotes.v[k]);
    strvec_clear(&qnotes);
    free(queued);
}

void fit_verdict_clear(FitItem *v)
{
    free(v->summary);
    v->summary = NULL;
    strvec_clear(&v->fixes);
    strvec_clear(&v->notes);
}

void fit_verdict_move(FitItem *dst, FitItem *src)
{
    free(dst->summary);
    strvec_clear(&dst->fixes);
    dst->verdict = src->verdict;
    dst->summary = src->summary;
    src->summary = NULL;
    dst->exit_code = src->exit_code;
    for (size_t k = 0; k < src->fixes.n; k++) strvec_push(&dst->fixes, src->fixes.v[k]);
    for (size_t k = 0; k < src->notes.n; k++) strvec_push(&dst->notes, src->notes.v[k]);
    fit_verdict_clear(src);
}

/* the pods the queue admitted now were judged by the nodes (of all the item's): when they all fit,
 * the item takes the queue's verdict for the others (with their count: "k of all fit now");
 * else the nodes' verdict stands, and a note says the others wait for the queue */
static void take_queue_rest(FitItem *it, int64_t all)
{
    FitItem *rest = it->queue_rest;
    if (it->fits_replicas == it->queue_admitted) {
        fit_verdict_move(it, rest);
    } else {
        int64_t others = all - it->queue_admitted;
        strvec_pushf(&it->notes, "the other %lld pod%s for the queue: %s", (long long)others,
                     others == 1 ? " waits" : "s wait", rest->summary ? rest->summary : rest->verdict);
    }
    it->replicas = all;
    fit_verdict_clear(rest);
    free(rest);
    it->queue_rest = NULL;
}

/* decided: the gang's queue verdict (fit_gang), which the template takes; NULL when none */
static int fit_one(Cluster *c, const ManifestPod *mp, const FitOptions *o, const FitItem *decided, NsUseList *nsu,
                   int64_t *placed, FitResult *out, Error *err)
{
    FitItem it = { 0 };
    if (pod_from_json(&it.pod, mp->pod, out->pool, err) < 0) {
        error_prefix(err, "%s: ", mp->where);
        return -1;
    }
    if (!pod_requests_gpu(&it.pod)) {
        strvec_pushf(&out->skipped, "%s: %s %s/%s requests no GPU%s; not judged", mp->where, mp->kind, mp->ns, mp->name,
                     it.pod.nclaims ? " (its DRA resource claims are not judged by fit)" : "");
        pod_clear(&it.pod);
        return 0;
    }
    it.kind = xstrdup(mp->kind);
    it.ns = xstrdup(mp->ns);
    it.queue_name = mp->queue_name ? xstrdup(mp->queue_name) : NULL;
    it.kueue_priority_class = mp->kueue_priority_class ? xstrdup(mp->kueue_priority_class) : NULL;
    it.kueue_defaultable = mp->kueue_defaultable;
    it.name = xstrdup(mp->name);
    it.replicas = mp->replicas;
    it.daemonset = mp->replicas < 0;
    it.verdict = "Fits";
    ResourceList *earlier = ns_use(nsu, it.pod.ns);
    QuotaRoom qr;
    quota_room(c, &it.pod, earlier, &qr);
    int rc = 0;
    if (decided) {
        it.verdict = decided->verdict;
        it.summary = decided->summary ? xstrdup(decided->summary) : NULL;
        for (size_t k = 0; k < decided->fixes.n; k++) strvec_push(&it.fixes, decided->fixes.v[k]);
        for (size_t k = 0; k < decided->notes.n; k++) strvec_push(&it.notes, decided->notes.v[k]);
        it.exit_code = decided->exit_code;
    } else if (o && o->queue && o->queue(o->queue_ctx, c, &it.pod, it.replicas, &it)) {
        /* the queue hook decided (Queued, QueueQuota): it set verdict, summary, fixes, exit */
    } else {
        int64_t all = it.replicas;
        if (it.queue_rest) it.replicas = it.queue_admitted;       /* the nodes judge those the queue admits */
        ExplainIndex *ix = explain_index_new(c);
        if (pod_more(&it.pod)->ngates) {
            /* the scheduler ignores a gated pod until its controller removes the gates (Kueue
             * when it admits the workload): explain's Gated, with where it would fit then */
            if (it.daemonset) {
                it.replicas = 0;
                for (size_t i = 0; i < c->nnodes; i++) it.replicas += explain_pod_admits(&it.pod, &c->nodes[i]);
            }
            if (it.replicas > 0) explain_failure(c, &it.pod, &it, *placed);
        } else if (it.daemonset) {
            rc = fit_daemonset(c, ix, mp->pod, &it, &qr, *placed, out->pool, err);
        } else {
            fit_replicas(c, ix, &it, &qr, *placed);
        }
        *placed += it.fits_replicas;
        explain_index_free(ix);
        if (it.queue_rest) take_queue_rest(&it, all);
        int64_t created = it.replicas < qr.room ? it.replicas : qr.room;
        quota_count(c, &it.pod, created, earlier);
    }
    if (it.exit_code == 3 && str_eq(it.verdict, verdict_name(V_QUEUED))) queued_but_never(c, &it);
    const cJSON *spec = cJSON_GetObjectItemCaseSensitive(mp->pod, "spec");
    if (it.exit_code && pod_more(&it.pod)->priority_class && !cJSON_GetObjectItemCaseSensitive(spec, "priority"))
        strvec_pushf(&it.notes, "priorityClassName %s: admission sets the pod's priority from it, and the cluster's "
                     "PriorityClasses could not be read; preemption was judged at priority 0",
                     pod_more(&it.pod)->priority_class);
    out->items = xrealloc(out->items, (out->n + 1) * sizeof *out->items);
    out->items[out->n++] = it;
    if (it.exit_code > out->exit_code) out->exit_code = it.exit_code;
    return rc;
}

/* the item's pods taken off the nodes again (a gang that does not start) */
static void unplace(Cluster *c, const FitItem *it)
{
    for (size_t k = 0; k < it->nnodes; k++) {
        const Node *n = cluster_find_node(c, it->nodes[k].node);
        if (!n) continue;
        NodeUsage *u = &c->usage[cluster_node_index(c, n)];
        for (size_t r = 0; r < it->pod.requests.n; r++)
            rlist_add(&u->requested, it->pod.requests.items[r].name, -it->pod.requests.items[r].milli * it->nodes[k].replicas);
        u->pods -= it->nodes[k].replicas;
    }
}

/* templates [t, u) of one gang (fit.h: Gangs) */
/* n pods of template k's requests added to total */
static void add_pods(ResourceList *total, const ManifestPod *mp, int64_t n)
{
    if (n <= 0) return;
    ResourceList per = RESOURCE_LIST_INIT;
    pod_effective_requests(cJSON_GetObjectItemCaseSensitive(mp->pod, "spec"), &per);
    for (size_t r = 0; r < per.n; r++) rlist_add(total, per.items[r].name, per.items[r].milli * n);
    rlist_clear(&per);
}

/* The PodGroup's minResources as Volcano's Job controller makes it (volcano
 * pkg/controllers/job/job_controller_actions.go calcPGMinResources, job_controller_util.go
 * CalcFirstCountResources / CalcPGMinResources, at ed72c7c), the tasks taken in priority order:
 * the value of each task template's own PriorityClass, 0 when it names none or one that does
 * not exist (calcPGMinResources, job_controller_actions.go:938-945), highest first
 * (TasksPriority.Less, job_controller_util.go:319), the manifest's order among equals (Go's
 * sort.Sort is an insertion sort below 12 tasks, which keeps it):
 *   - the Job's minAvailable below the sum of the tasks': the first minAvailable pods, whole
 *     tasks' replicas in turn;
 *   - else each task's minAvailable pods, then the rest of minAvailable from the tasks'
 *     replicas beyond their minAvailable, in turn. */
static int32_t task_priority(const Cluster *c, const ManifestPod *mp)
{
    const PriorityClass *pc = cluster_find_priority_class(c, mp->gang->task_class);
    return pc ? pc->value : 0;
}

static void gang_min_resources(const Cluster *c, const ManifestPodList *tl, size_t t, size_t u, ResourceList *total)
{
    const ManifestGang *g = tl->v[t].gang;
    size_t n_tasks = u - t;
    const ManifestPod **v = xcalloc(n_tasks, sizeof *v);
    for (size_t k = 0; k < n_tasks; k++) {          /* stable insertion, highest priority first */
        const ManifestPod *mp = &tl->v[t + k];
        size_t j = k;
        for (; j > 0 && task_priority(c, v[j - 1]) < task_priority(c, mp); j--) v[j] = v[j - 1];
        v[j] = mp;
    }
    int64_t sum_min = 0;
    for (size_t k = 0; k < n_tasks; k++) sum_min += v[k]->gang->task_min;
    int64_t left = g->min_member;
    if (g->min_member < sum_min) {
        for (size_t k = 0; k < n_tasks && left > 0; k++) {
            int64_t n = left <= v[k]->replicas ? left : v[k]->replicas;
            add_pods(total, v[k], n);
            left -= n;
        }
        free(v);
        return;
    }
    for (size_t k = 0; k < n_tasks && left > 0; k++) {
        int64_t n = v[k]->gang->task_min < left ? v[k]->gang->task_min : left;
        add_pods(total, v[k], n);
        left -= n;
    }
    for (size_t k = 0; k < n_tasks && left > 0; k++) {
        int64_t spare = v[k]->replicas - v[k]->gang->task_min;
        int64_t n = spare < left ? spare : left;
        add_pods(total, v[k], n);
        if (n > 0) left -= n;
    }
    free(v);
}

static int fit_gang(Cluster *c, const ManifestPodList *tl, size_t t, size_t u, const FitOptions *o, NsUseList *nsu,
                    int64_t *placed, FitResult *out, Error *err)
{
    const ManifestGang *g = tl->v[t].gang;
    ResourceList total = RESOURCE_LIST_INIT;
    gang_min_resources(c, tl, t, u, &total);
    FitItem qd = { 0 };
    bool decided = o && o->gang_queue && o->gang_queue(o->queue_ctx, c, g, tl->v[t].ns, &total, &qd);
    rlist_clear(&total);
    int rc = 0;
    size_t first = out->n;
    int64_t started = 0;
    bool tasks_ok = true;
    Strbuf tasks = STRBUF_INIT;
    for (size_t k = t; k < u && !rc; k++) {
        const ManifestPod *mp = &tl->v[k];
        size_t before = out->n;
        rc = fit_one(c, mp, o, decided ? &qd : NULL, nsu, placed, out, err);
        const char *task = strrchr(mp->name, '/') ? strrchr(mp->name, '/') + 1 : mp->name;
        int64_t fit = out->n > before ? out->items[out->n - 1].fits_replicas : mp->replicas;   /* no GPU: placed */
        started += fit;
        if (fit < mp->gang->task_min) tasks_ok = false;
        strbuf_addf(&tasks, "%s%s %lld of %lld", tasks.len ? ", " : "", task, (long long)fit, (long long)mp->gang->task_min);
    }
    for (size_t i = first; !decided && i < out->n; i++)       /* the queue's word, when it took the gang */
        for (size_t k = 0; k < qd.notes.n; k++) strvec_push(&out->items[i].notes, qd.notes.v[k]);
    fit_verdict_clear(&qd);
    if (!rc && !decided && (started < g->min_member || (g->per_task && !tasks_ok))) {
        int worst = 3;
        for (size_t i = first; i < out->n; i++) if (out->items[i].exit_code > worst) worst = out->items[i].exit_code;
        for (size_t i = first; i < out->n; i++) {
            FitItem *it = &out->items[i];
            unplace(c, it);
            *placed -= it->fits_replicas;
            strvec_pushf(&it->notes, "Volcano Job %s is a gang: none of its pods start until %lld fit at once%s; the "
                         "nodes listed would hold those of this template that fit now (not counted for the templates "
                         "after it)", g->name, (long long)g->min_member,
                         g->per_task ? " and each task has its minAvailable" : "");
            if (it->exit_code) continue;                  /* its own verdict says why */
            it->verdict = verdict_name(V_GANG);
            it->summary = xasprintf("gang of %lld (Volcano Job %s, minAvailable): %lld of its pods fit at once now "
                                    "(by task, fitting of minAvailable: %s)", (long long)g->min_member, g->name,
                                    (long long)started, strbuf_str(&tasks));
            it->exit_code = worst;
            if (worst > out->exit_code) out->exit_code = worst;
        }
    }
    strbuf_clear(&tasks);
    return rc;
}

/* the end of the run of templates from t that one JobSet made (its replicatedJobs, "JOBSET/JOB",
 * consecutive: manifest_pods.c); t + 1 for any other */
static size_t same_object_end(const ManifestPodList *tl, size_t t)
{
    const ManifestPod *a = &tl->v[t];
    const char *slash = str_eq(a->kind, "JobSet") ? strchr(a->name, '/') : NULL;
    size_t u = t + 1;
    while (slash && u < tl->n && str_eq(tl->v[u].kind, "JobSet") && str_eq(tl->v[u].ns, a->ns) &&
           !strncmp(tl->v[u].name, a->name, (size_t)(slash - a->name) + 1) && str_eq(tl->v[u].where, a->where))
        u++;
    return u;
}

/* templates [t, u) of one object that a queue takes as one workload (a JobSet): the group hook
 * judges them together; its verdict is every template's, or, admitted, the nodes decide for each
 * (not asked about one by one); when the queue is not theirs, each template as alone */
static int fit_group(Cluster *c, const ManifestPodList *tl, size_t t, size_t u, const FitOptions *o, NsUseList *nsu,
                     int64_t *placed, FitResult *out, Error *err)
{
    FitItem qd = { 0 };
    bool admitted = false;
    bool decided = o && o->group_queue && o->group_queue(o->queue_ctx, c, tl, t, u, &qd, &admitted);
    FitOptions alone = o ? *o : (FitOptions){ 0 };
    if (admitted) alone.queue = NULL;
    int rc = 0;
    for (size_t k = t; k < u && !rc; k++) {
        size_t before = out->n;
        rc = fit_one(c, &tl->v[k], &alone, decided ? &qd : NULL, nsu, placed, out, err);
        for (size_t i = before; admitted && !rc && i < out->n; i++)
            for (size_t n = 0; n < qd.notes.n; n++) strvec_push(&out->items[i].notes, qd.notes.v[n]);
    }
    fit_verdict_clear(&qd);
    return rc;
}

int fit_run(Cluster *c, const ManifestPodList *templates, const FitOptions *o, FitResult *out, Error *err)
{
    memset(out, 0, sizeof *out);
    out->pool = strpool_new();
    /* the cluster's usage, as owned copies the placements add to; the original comes back */
    NodeUsage *orig = c->usage;
    c->usage = c->nnodes ? xcalloc(c->nnodes, sizeof *c->usage) : NULL;
    for (size_t i = 0; orig && i < c->nnodes; i++) {
        rlist_copy(&c->usage[i].requested, &orig[i].requested);
        c->usage[i].pods = orig[i].pods;
    }
    NsUseList nsu = { 0 };
    int64_t placed = 0;
    int rc = 0;
    for (size_t t = 0; t < templates->n && rc == 0;) {
        const ManifestGang *g = templates->v[t].gang;
        size_t u = t + 1;
        while (g && u < templates->n && templates->v[u].gang && str_eq(templates->v[u].gang->name, g->name) &&
               str_eq(templates->v[u].ns, templates->v[t].ns))
            u++;
        if (!g) u = same_object_end(templates, t);
        rc = g ? fit_gang(c, templates, t, u, o, &nsu, &placed, out, err)
           : u - t > 1 ? fit_group(c, templates, t, u, o, &nsu, &placed, out, err)
                       : fit_one(c, &templates->v[t], o, NULL, &nsu, &placed, out, err);
        t = u;
    }
    ns_use_clear(&nsu);
    /* the items have moved since they were explained: the Explanations borrow their pods */
    for (size_t i = 0; i < out->n; i++)
        if (out->items[i].has_expl) out->items[i].expl.pod = out->items[i].pinned.name ? &out->items[i].pinned
                                                                                         : &out->items[i].pod;
    for (size_t i = 0; c->usage && i < c->nnodes; i++) rlist_clear(&c->usage[i].requested);
    free(c->usage);
    c->usage = orig;
    return rc;
}

void fit_result_clear(FitResult *r)
{
    for (size_t i = 0; i < r->n; i++) {
        FitItem *it = &r->items[i];
        if (it->has_expl) explanation_clear(&it->expl);
        pod_clear(&it->pod);
        pod_clear(&it->pinned);
        if (it->queue_rest) fit_verdict_clear(it->queue_rest);
        free(it->queue_rest);
        free(it->kind); free(it->ns); free(it->queue_name); free(it->kueue_priority_class);
        free(it->name); free(it->summary); free(it->nodes);
        strvec_clear(&it->fixes);
        strvec_clear(&it->notes);
    }
    free(r->items);
    strvec_clear(&r->skipped);
    strpool_free(r->pool);
    memset(r, 0, sizeof *r);
}

/* explain_json.c — an Explanation as the EXPLANATION object of product.md (JSON / YAML through
 * one cJSON tree): the render layer of analysis/explain*.c.
 */
#include "render/render_explain.h"
#include "analysis/explain_queue.h"
#include "render/render.h"
#include "model/quantity.h"
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static bool is_bytes(const char *res)
{
    return str_eq(res, "memory") || str_eq(res, "ephemeral-storage") || str_starts_with(res, "hugepages-");
}

static int64_t units(int64_t milli) { return milli <= 0 ? 0 : quantity_units_ceil(milli); }

/* JSON amount: whole units; memory-like in MiB; cpu in cores (may be fractional) */
static void json_amount(cJSON *o, const char *key, const char *res, int64_t milli)
{
    if (milli < 0) milli = 0;
    if (is_bytes(res)) cJSON_AddNumberToObject(o, key, (double)quantity_to_mib(milli));
    else if (str_eq(res, "cpu")) cJSON_AddNumberToObject(o, key, (double)milli / 1000.0);
    else cJSON_AddNumberToObject(o, key, (double)units(milli));
}

static cJSON *strvec_json(const Strvec *v)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < v->n; i++) cJSON_AddItemToArray(a, cJSON_CreateString(v->v[i]));
    return a;
}

static cJSON *fix_info_json(const FixInfo *f)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "effort", fix_effort_name(f->effort));
    if (f->fits_on) cJSON_AddStringToObject(o, "fitsOn", f->fits_on);
    else cJSON_AddNullToObject(o, "fitsOn");
    cJSON *ch = cJSON_AddObjectToObject(o, "change");
    if (f->requests.n) {
        cJSON *r = cJSON_AddObjectToObject(ch, "requests");
        for (size_t i = 0; i < f->requests.n; i++)
            json_amount(r, f->requests.items[i].name, f->requests.items[i].name, f->requests.items[i].milli);
    }
    if (f->selector.n) {
        cJSON *s = cJSON_AddObjectToObject(ch, "nodeSelector");
        for (size_t i = 0; i < f->selector.n; i++) cJSON_AddStringToObject(s, f->selector.items[i].key, f->selector.items[i].value);
    }
    if (f->drop_affinity) cJSON_AddBoolToObject(ch, "removeRequiredNodeAffinity", true);
    if (f->tolerations.n) cJSON_AddItemToObject(ch, "addTolerations", strvec_json(&f->tolerations));
    if (f->end_pods.n) cJSON_AddItemToObject(ch, "endPods", strvec_json(&f->end_pods));
    if (f->node) {
        cJSON *n = cJSON_AddObjectToObject(ch, "node");
        cJSON_AddStringToObject(n, "name", f->node);
        if (f->uncordon) cJSON_AddBoolToObject(n, "uncordon", true);
        if (f->make_ready) cJSON_AddBoolToObject(n, "ready", true);
        if (f->advertise) {
            cJSON *a = cJSON_AddObjectToObject(n, "advertise");
            cJSON_AddNumberToObject(a, f->advertise, (double)f->advertise_count);
        }
        if (f->labels.n) {
            cJSON *l = cJSON_AddObjectToObject(n, "labels");
            for (size_t i = 0; i < f->labels.n; i++) cJSON_AddStringToObject(l, f->labels.items[i].key, f->labels.items[i].value);
        }
    }
    return o;
}

static cJSON *sched_reasons_json(const SchedHistogram *h)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < h->nreasons; i++) {
        const SchedReason *r = &h->reasons[i];
        cJSON *o = cJSON_CreateObject();
        if (r->count >= 0) cJSON_AddNumberToObject(o, "count", r->count);
        else cJSON_AddNullToObject(o, "count");
        cJSON_AddStringToObject(o, "reason", r->text);
        cJSON_AddStringToObject(o, "code", schedmsg_code_name(r->code));
        if (r->resource) cJSON_AddStringToObject(o, "resource", r->resource);
        if (r->taint_key) {
            cJSON_AddStringToObject(o, "key", r->taint_key);
            cJSON_AddStringToObject(o, "value", r->taint_value ? r->taint_value : "");
        }
        if (r->nplugins) {
            cJSON *pl = cJSON_AddArrayToObject(o, "plugins");
            for (size_t k = 0; k < r->nplugins; k++) cJSON_AddItemToArray(pl, cJSON_CreateString(r->plugins[k]));
        }
        if (r->prefilter) cJSON_AddBoolToObject(o, "preFilter", true);
        if (r->truncated) cJSON_AddBoolToObject(o, "truncated", true);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

static cJSON *sched_json(const SchedMessage *m)
{
    cJSON *o = cJSON_CreateObject();
    char vb[32];
    cJSON_AddStringToObject(o, "kind", schedmsg_kind_name(m->kind));
    if (m->filter.total >= 0) {
        cJSON_AddNumberToObject(o, "nodes", m->filter.total);
        cJSON_AddNumberToObject(o, "available", m->filter.available);
    }
    cJSON_AddItemToObject(o, "reasons", sched_reasons_json(&m->filter));
    if (m->has_preemption) {
        cJSON *p = cJSON_AddObjectToObject(o, "preemption");
        cJSON_AddStringToObject(p, "message", m->preemption_text ? m->preemption_text : "");
        if (m->preemption.total >= 0) cJSON_AddNumberToObject(p, "nodes", m->preemption.total);
        cJSON_AddItemToObject(p, "reasons", sched_reasons_json(&m->preemption));
    }
    if (m->postfilter_other) cJSON_AddStringToObject(o, "postFilter", m->postfilter_other);
    cJSON_AddBoolToObject(o, "truncated", m->truncated);
    cJSON_AddBoolToObject(o, "listsEveryReasonPerNode", m->lists_all_reasons);
    if (m->prefix) cJSON_AddStringToObject(o, "prefix", m->prefix);
    schedmsg_versions(m, vb, sizeof vb);
    if (*vb) cJSON_AddStringToObject(o, "wordingOfVersions", vb);
    return o;
}

static cJSON *node_reason_json(const NodeReason *x)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "code", node_reason_code_name(x->code));
    switch (x->code) {
    case NR_INSUFFICIENT: case NR_EXCEEDS_NODE_CAPACITY: case NR_TOO_MANY_PODS:
        cJSON_AddStringToObject(o, "resource", x->resource);
        json_amount(o, "requested", x->resource, x->requested);
        json_amount(o, "free", x->resource, x->free);
        json_amount(o, "allocatable", x->resource, x->allocatable);
        if (is_bytes(x->resource)) cJSON_AddStringToObject(o, "unit", "MiB");
        if (x->code == NR_INSUFFICIENT) {
            cJSON *h = cJSON_AddArrayToObject(o, "heldBy");
            for (size_t i = 0; i < x->nholders; i++) {
                cJSON *p = cJSON_CreateObject();
                cJSON_AddStringToObject(p, "namespace", x->holders[i].pod->ns);
                cJSON_AddStringToObject(p, "name", x->holders[i].pod->name);
                json_amount(p, "amount", x->resource, x->holders[i].milli);
                cJSON_AddNumberToObject(p, "priority", x->holders[i].pod->priority);
                if (x->holders[i].nominated)   /* pending, its request reserved by nominatedNodeName */
                    cJSON_AddBoolToObject(p, "nominated", true);
                cJSON_AddItemToArray(h, p);
            }
        }
        break;
    case NR_UNTOLERATED_TAINT:
        cJSON_AddStringToObject(o, "key", x->key);
        cJSON_AddStringToObject(o, "value", x->value);
        cJSON_AddStringToObject(o, "effect", x->effect);
        break;
    case NR_RESOURCE_NOT_ADVERTISED:
        cJSON_AddStringToObject(o, "resource", x->resource);
        cJSON_AddItemToObject(o, "advertised", strvec_json(&x->advertised));
        break;
    case NR_NO_DEVICE_PLUGIN:
        cJSON_AddStringToObject(o, "resource", x->resource);
        break;
    default:
        break;
    }
    if (x->detail) cJSON_AddStringToObject(o, "detail", x->detail);
    return o;
}

static cJSON *node_json(const NodeResult *r)
{
    cJSON *n = cJSON_CreateObject();
    cJSON_AddStringToObject(n, "name", r->node->name);
    cJSON *rs = cJSON_AddArrayToObject(n, "reasons");
    for (size_t k = 0; k < r->nreasons; k++) cJSON_AddItemToArray(rs, node_reason_json(&r->reasons[k]));
    return n;
}

cJSON *explain_nodes_json(const Explanation *e)
{
    return explain_nodes_json_max(e, 0);
}

cJSON *explain_nodes_json_max(const Explanation *e, size_t max_nodes)
{
    cJSON *nodes = cJSON_CreateArray();
    if (!max_nodes) {
        for (size_t i = 0; i < e->nnodes; i++) cJSON_AddItemToArray(nodes, node_json(&e->nodes[i]));
        return nodes;
    }
    size_t *idx = xcalloc(max_nodes, sizeof *idx);
    size_t n = explanation_nodes_that_matter(e, max_nodes, idx);
    for (size_t i = 0; i < n; i++) cJSON_AddItemToArray(nodes, node_json(&e->nodes[idx[i]]));
    free(idx);
    return nodes;
}

cJSON *explain_node_counts_json(const Explanation *e, size_t listed)
{
    NodeCounts k;
    explanation_node_counts(e, &k);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "total", (double)k.total);
    cJSON_AddNumberToObject(o, "fitsNow", (double)k.fits_now);
    cJSON_AddNumberToObject(o, "admitAndCouldHold", (double)k.admits);
    cJSON_AddNumberToObject(o, "excludedByConstraints", (double)k.excluded);
    cJSON_AddNumberToObject(o, "couldNeverHold", (double)k.never);
    cJSON_AddNumberToObject(o, "listed", (double)listed);
    return o;
}

/* whole units of a milli amount as a JSON number (GPUs: integers; fractions kept) */
static cJSON *units_json(int64_t milli)
{
    return milli % 1000 ? cJSON_CreateNumber((double)milli / 1000.0) : cJSON_CreateNumber((double)(milli / 1000));
}

/* product.md, third round: the "queue" object of a Workload / PodGroup row */
static cJSON *explain_queue_json(const QueueFacts *q)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "system", queue_system_name(q->system));
    if (q->system == QSYS_KUEUE) {
        if (q->local_queue) cJSON_AddStringToObject(o, "localQueue", q->local_queue);
        else cJSON_AddNullToObject(o, "localQueue");
        if (q->cluster_queue) cJSON_AddStringToObject(o, "clusterQueue", q->cluster_queue);
        else cJSON_AddNullToObject(o, "clusterQueue");
    } else {
        if (q->cluster_queue) cJSON_AddStringToObject(o, "queue", q->cluster_queue);
        else cJSON_AddNullToObject(o, "queue");
        cJSON_AddNumberToObject(o, "minMember", q->min_member);
    }
    if (q->cohort) cJSON_AddStringToObject(o, "cohort", q->cohort);
    else cJSON_AddNullToObject(o, "cohort");
    if (q->position > 0) cJSON_AddNumberToObject(o, "position", (double)q->position);
    else cJSON_AddNullToObject(o, "position");
    if (q->queued > 0) cJSON_AddNumberToObject(o, "queued", (double)q->queued);
    if (q->head) cJSON_AddStringToObject(o, "head", q->head);
    if (q->message) cJSON_AddStringToObject(o, "message", q->message);
    else cJSON_AddNullToObject(o, "message");
    cJSON *fl = cJSON_AddArrayToObject(o, "flavors");
    for (size_t i = 0; i < q->nflavors; i++) {
        const QueueFlavorFact *f = &q->flavors[i];
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "name", f->name);
        cJSON_AddStringToObject(x, "resource", f->resource);
        cJSON_AddItemToObject(x, "nominal", units_json(f->nominal));
        cJSON_AddItemToObject(x, "borrowingLimit", f->borrowing_limit < 0 ? cJSON_CreateNull() : units_json(f->borrowing_limit));
        cJSON_AddItemToObject(x, "used", units_json(f->used));
        cJSON_AddItemToObject(x, "requested", units_json(f->requested));
        cJSON_AddItemToObject(x, "needed", f->needed < 0 ? cJSON_CreateNull() : units_json(f->needed));
        cJSON_AddItemToArray(fl, x);
    }
    cJSON *h = cJSON_AddArrayToObject(o, "holders");
    for (size_t i = 0; i < q->nholders; i++) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "namespace", q->holders[i].ns);
        cJSON_AddStringToObject(x, "name", q->holders[i].name);
        cJSON_AddItemToObject(x, "gpus", units_json(q->holders[i].gpus));
        cJSON_AddItemToArray(h, x);
    }
    cJSON_AddNumberToObject(o, "holdersTotal", (double)q->holders_total);   /* "holders" lists the 20 largest per flavor */
    cJSON_AddNumberToObject(o, "pendingPods", (double)q->pending_pods);
    return o;
}

cJSON *explain_to_json(const Explanation *e, bool with_kind)
{
    return explain_to_json_max(e, with_kind, 0);
}

cJSON *explain_to_json_max(const Explanation *e, bool with_kind, size_t max_nodes)
{
    cJSON *o = cJSON_CreateObject();
    if (with_kind) {
        cJSON_AddStringToObject(o, "apiVersion", KGPU_API_VERSION);
        cJSON_AddStringToObject(o, "kind", "GPUExplanation");
    }
    else                                        /* a row of pending: what it stands for */
        cJSON_AddStringToObject(o, "kind", e->queue ? e->queue->row_kind : "Pod");
    cJSON_AddStringToObject(o, "namespace", e->ns);
    cJSON_AddStringToObject(o, "name", e->name);
    cJSON_AddBoolToObject(o, "created", e->created);
    if (e->owner_kind && e->owner_name) {
        cJSON *ow = cJSON_AddObjectToObject(o, "owner");
        if (e->queue && e->queue->owner_api) cJSON_AddStringToObject(ow, "apiVersion", e->queue->owner_api);
        cJSON_AddStringToObject(ow, "kind", e->owner_kind);
        cJSON_AddStringToObject(ow, "name", e->owner_name);
    }
    if (e->pod) {
        cJSON_AddStringToObject(o, "phase", pod_phase_name(e->pod->phase));
        cJSON_AddNumberToObject(o, "priority", e->pod->priority);
        if (pod_more(e->pod)->nominated_node) cJSON_AddStringToObject(o, "nominatedNode", pod_more(e->pod)->nominated_node);
    }
    if (e->age >= 0) cJSON_AddNumberToObject(o, "ageSeconds", (double)e->age);
    cJSON *req = cJSON_AddObjectToObject(o, "requests");
    for (size_t i = 0; i < e->requests.n; i++)
        if (explanation_request_shown(e->requests.items[i].name) && e->requests.items[i].milli > 0)
            cJSON_AddNumberToObject(req, e->requests.items[i].name, (double)units(e->requests.items[i].milli));
    if (e->pod && pod_more(e->pod)->request_init)   /* the GPU request is an init container's, not the app containers' */
        cJSON_AddStringToObject(o, "requestFromInitContainer", pod_more(e->pod)->request_init);
    if (e->dra_gpus) cJSON_AddStringToObject(o, "draDevices", e->dra_gpus);   /* DRA: "gpu.nvidia.com:4" */
    if (e->queue) cJSON_AddItemToObject(o, "queue", explain_queue_json(e->queue));
    cJSON_AddStringToObject(o, "verdict", verdict_name(e->verdict));
    cJSON_AddStringToObject(o, "reason", e->summary ? e->summary : "");
    if (e->sched_text) cJSON_AddStringToObject(o, "schedulerMessage", e->sched_text);
    else cJSON_AddNullToObject(o, "schedulerMessage");
    if (e->sched_source) cJSON_AddStringToObject(o, "schedulerMessageSource", e->sched_source);
    if (e->event_text) cJSON_AddStringToObject(o, "eventMessage", e->event_text);
    if (explanation_sched(e)->kind != SM_EMPTY) cJSON_AddItemToObject(o, "scheduler", sched_json(explanation_sched(e)));
    cJSON_AddBoolToObject(o, "agreesWithScheduler", e->agrees);
    cJSON_AddItemToObject(o, "disagreements", strvec_json(&e->disagreements));
    cJSON *nodes = explain_nodes_json_max(e, max_nodes);
    size_t listed = (size_t)cJSON_GetArraySize(nodes);
    cJSON_AddItemToObject(o, "nodes", nodes);
    cJSON_AddItemToObject(o, "nodeCounts", explain_node_counts_json(e, listed));
    cJSON_AddItemToObject(o, "fixes", strvec_json(&e->fixes));
    cJSON *fd = cJSON_AddArrayToObject(o, "fixDetails");
    for (size_t i = 0; i < e->fixes.n && e->fix_info; i++) cJSON_AddItemToArray(fd, fix_info_json(&e->fix_info[i]));
    cJSON_AddItemToObject(o, "notes", strvec_json(&e->notes));
    return o;
}


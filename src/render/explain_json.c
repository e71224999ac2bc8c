/* explain_json.c — an Explanation as the EXPLANATION object of product.md, written through the
 * JSON writer (render/json_writer.h): straight to the stream for -o json / yaml, or as a tree
 * for --sort-by and -o custom-columns.  The render layer of analysis/explain*.c.
 */
#include "render/render_explain.h"
#include "analysis/explain_queue.h"
#include "render/render.h"
#include "render/json_writer.h"
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
static void json_amount(JsonWriter *jw, const char *key, const char *res, int64_t milli)
{
    if (milli < 0) milli = 0;
    if (is_bytes(res)) jw_number(jw, key, (double)quantity_to_mib(milli));
    else if (str_eq(res, "cpu")) jw_number(jw, key, (double)milli / 1000.0);
    else jw_number(jw, key, (double)units(milli));
}

static void strvec_write(JsonWriter *jw, const char *key, const Strvec *v)
{
    jw_array_begin(jw, key);
    for (size_t i = 0; i < v->n; i++) jw_string(jw, NULL, v->v[i]);
    jw_end(jw);
}

static void kv_write(JsonWriter *jw, const char *key, const KVList *l)
{
    jw_object_begin(jw, key);
    for (size_t i = 0; i < l->n; i++) jw_string(jw, l->items[i].key, l->items[i].value);
    jw_end(jw);
}

static void fix_info_write(JsonWriter *jw, const FixInfo *f)
{
    jw_object_begin(jw, NULL);
    jw_string(jw, "effort", fix_effort_name(f->effort));
    jw_string(jw, "fitsOn", f->fits_on);                 /* NULL: null */
    jw_object_begin(jw, "change");
    if (f->requests.n) {
        jw_object_begin(jw, "requests");
        for (size_t i = 0; i < f->requests.n; i++)
            json_amount(jw, f->requests.items[i].name, f->requests.items[i].name, f->requests.items[i].milli);
        jw_end(jw);
    }
    if (f->selector.n) kv_write(jw, "nodeSelector", &f->selector);
    if (f->drop_affinity) jw_bool(jw, "removeRequiredNodeAffinity", true);
    if (f->tolerations.n) strvec_write(jw, "addTolerations", &f->tolerations);
    if (f->end_pods.n) strvec_write(jw, "endPods", &f->end_pods);
    if (f->node) {
        jw_object_begin(jw, "node");
        jw_string(jw, "name", f->node);
        if (f->uncordon) jw_bool(jw, "uncordon", true);
        if (f->make_ready) jw_bool(jw, "ready", true);
        if (f->advertise) {
            jw_object_begin(jw, "advertise");
            jw_number(jw, f->advertise, (double)f->advertise_count);
            jw_end(jw);
        }
        if (f->labels.n) kv_write(jw, "labels", &f->labels);
        jw_end(jw);
    }
    jw_end(jw);
    jw_end(jw);
}

static void sched_reasons_write(JsonWriter *jw, const char *key, const SchedHistogram *h)
{
    jw_array_begin(jw, key);
    for (size_t i = 0; i < h->nreasons; i++) {
        const SchedReason *r = &h->reasons[i];
        jw_object_begin(jw, NULL);
        if (r->count >= 0) jw_number(jw, "count", r->count);
        else jw_null(jw, "count");
        jw_string(jw, "reason", r->text);
        jw_string(jw, "code", schedmsg_code_name(r->code));
        if (r->resource) jw_string(jw, "resource", r->resource);
        if (r->taint_key) {
            jw_string(jw, "key", r->taint_key);
            jw_string(jw, "value", r->taint_value ? r->taint_value : "");
        }
        if (r->nplugins) {
            jw_array_begin(jw, "plugins");
            for (size_t k = 0; k < r->nplugins; k++) jw_string(jw, NULL, r->plugins[k]);
            jw_end(jw);
        }
        if (r->prefilter) jw_bool(jw, "preFilter", true);
        if (r->truncated) jw_bool(jw, "truncated", true);
        jw_end(jw);
    }
    jw_end(jw);
}

static void sched_write(JsonWriter *jw, const char *key, const SchedMessage *m)
{
    char vb[32];
    jw_object_begin(jw, key);
    jw_string(jw, "kind", schedmsg_kind_name(m->kind));
    if (m->filter.total >= 0) {
        jw_number(jw, "nodes", m->filter.total);
        jw_number(jw, "available", m->filter.available);
    }
    sched_reasons_write(jw, "reasons", &m->filter);
    if (m->has_preemption) {
        jw_object_begin(jw, "preemption");
        jw_string(jw, "message", m->preemption_text ? m->preemption_text : "");
        if (m->preemption.total >= 0) jw_number(jw, "nodes", m->preemption.total);
        sched_reasons_write(jw, "reasons", &m->preemption);
        jw_end(jw);
    }
    if (m->postfilter_other) jw_string(jw, "postFilter", m->postfilter_other);
    jw_bool(jw, "truncated", m->truncated);
    jw_bool(jw, "listsEveryReasonPerNode", m->lists_all_reasons);
    if (m->prefix) jw_string(jw, "prefix", m->prefix);
    schedmsg_versions(m, vb, sizeof vb);
    if (*vb) jw_string(jw, "wordingOfVersions", vb);
    jw_end(jw);
}

static void node_reason_write(JsonWriter *jw, const NodeReason *x)
{
    jw_object_begin(jw, NULL);
    jw_string(jw, "code", node_reason_code_name(x->code));
    switch (x->code) {
    case NR_INSUFFICIENT: case NR_EXCEEDS_NODE_CAPACITY: case NR_TOO_MANY_PODS:
        jw_string(jw, "resource", x->resource);
        json_amount(jw, "requested", x->resource, x->requested);
        json_amount(jw, "free", x->resource, x->free);
        json_amount(jw, "allocatable", x->resource, x->allocatable);
        if (is_bytes(x->resource)) jw_string(jw, "unit", "MiB");
        if (x->code == NR_INSUFFICIENT) {
            jw_array_begin(jw, "heldBy");
            for (size_t i = 0; i < x->nholders; i++) {
                jw_object_begin(jw, NULL);
                jw_string(jw, "namespace", x->holders[i].pod->ns);
                jw_string(jw, "name", x->holders[i].pod->name);
                json_amount(jw, "amount", x->resource, x->holders[i].milli);
                jw_number(jw, "priority", x->holders[i].pod->priority);
                if (x->holders[i].nominated)   /* pending, its request reserved by nominatedNodeName */
                    jw_bool(jw, "nominated", true);
                jw_end(jw);
            }
            jw_end(jw);
        }
        break;
    case NR_UNTOLERATED_TAINT:
        jw_string(jw, "key", x->key);
        jw_string(jw, "value", x->value);
        jw_string(jw, "effect", x->effect);
        break;
    case NR_RESOURCE_NOT_ADVERTISED:
        jw_string(jw, "resource", x->resource);
        strvec_write(jw, "advertised", &x->advertised);
        break;
    case NR_NO_DEVICE_PLUGIN:
        jw_string(jw, "resource", x->resource);
        break;
    default:
        break;
    }
    if (x->detail) jw_string(jw, "detail", x->detail);
    jw_end(jw);
}

static void node_write(JsonWriter *jw, const NodeResult *r)
{
    jw_object_begin(jw, NULL);
    jw_string(jw, "name", r->node->name);
    jw_array_begin(jw, "reasons");
    for (size_t k = 0; k < r->nreasons; k++) node_reason_write(jw, &r->reasons[k]);
    jw_end(jw);
    jw_end(jw);
}

size_t explain_nodes_write(JsonWriter *jw, const char *key, const Explanation *e, size_t max_nodes)
{
    jw_array_begin(jw, key);
    size_t n = e->nnodes;
    if (!max_nodes) {
        for (size_t i = 0; i < e->nnodes; i++) node_write(jw, &e->nodes[i]);
    } else {
        size_t *idx = xcalloc(max_nodes, sizeof *idx);
        n = explanation_nodes_that_matter(e, max_nodes, idx);
        for (size_t i = 0; i < n; i++) node_write(jw, &e->nodes[idx[i]]);
        free(idx);
    }
    jw_end(jw);
    return n;
}

cJSON *explain_nodes_json_max(const Explanation *e, size_t max_nodes)
{
    JsonWriter *jw = jw_tree_new();
    if (jw) explain_nodes_write(jw, NULL, e, max_nodes);
    return jw_tree_finish(jw);
}

static void node_counts_write(JsonWriter *jw, const Explanation *e, const NodeCounts *counted, size_t listed)
{
    NodeCounts k;
    if (counted) k = *counted;
    else explanation_node_counts(e, &k);
    jw_object_begin(jw, "nodeCounts");
    jw_number(jw, "total", (double)k.total);
    jw_number(jw, "fitsNow", (double)k.fits_now);
    jw_number(jw, "admitAndCouldHold", (double)k.admits);
    jw_number(jw, "excludedByConstraints", (double)k.excluded);
    jw_number(jw, "couldNeverHold", (double)k.never);
    jw_number(jw, "listed", (double)listed);
    jw_end(jw);
}

/* whole units of a milli amount as a JSON number (GPUs: integers; fractions kept) */
static void units_write(JsonWriter *jw, const char *key, int64_t milli)
{
    jw_number(jw, key, milli % 1000 ? (double)milli / 1000.0 : (double)(milli / 1000));
}

/* product.md, third round: the "queue" object of a Workload / PodGroup row */
static void explain_queue_write(JsonWriter *jw, const QueueFacts *q)
{
    jw_object_begin(jw, "queue");
    jw_string(jw, "system", queue_system_name(q->system));
    if (q->system == QSYS_KUEUE) {
        jw_string(jw, "localQueue", q->local_queue);          /* NULL: null */
        jw_string(jw, "clusterQueue", q->cluster_queue);
    } else {
        jw_string(jw, "queue", q->cluster_queue);
        jw_number(jw, "minMember", q->min_member);
    }
    jw_string(jw, "cohort", q->cohort);
    if (q->position > 0) jw_number(jw, "position", (double)q->position);
    else jw_null(jw, "position");
    if (q->queued > 0) jw_number(jw, "queued", (double)q->queued);
    if (q->head) jw_string(jw, "head", q->head);
    jw_string(jw, "message", q->message);
    jw_array_begin(jw, "flavors");
    for (size_t i = 0; i < q->nflavors; i++) {
        const QueueFlavorFact *f = &q->flavors[i];
        jw_object_begin(jw, NULL);
        jw_string(jw, "name", f->name);
        jw_string(jw, "resource", f->resource);
        units_write(jw, "nominal", f->nominal);
        if (f->borrowing_limit < 0) jw_null(jw, "borrowingLimit");
        else units_write(jw, "borrowingLimit", f->borrowing_limit);
        units_write(jw, "used", f->used);
        units_write(jw, "requested", f->requested);
        if (f->needed < 0) jw_null(jw, "needed");
        else units_write(jw, "needed", f->needed);
        jw_end(jw);
    }
    jw_end(jw);
    jw_array_begin(jw, "holders");
    for (size_t i = 0; i < q->nholders; i++) {
        jw_object_begin(jw, NULL);
        jw_string(jw, "namespace", q->holders[i].ns);
        jw_string(jw, "name", q->holders[i].name);
        units_write(jw, "gpus", q->holders[i].gpus);
        jw_end(jw);
    }
    jw_end(jw);
    jw_number(jw, "holdersTotal", (double)q->holders_total);   /* "holders" lists the 20 largest per flavor */
    jw_number(jw, "pendingPods", (double)q->pending_pods);
    jw_end(jw);
}

void explain_json_write(JsonWriter *jw, const Explanation *e, const ExplainJsonOpts *opts)
{
    jw_object_begin(jw, NULL);
    if (opts->with_kind) {
        jw_string(jw, "apiVersion", KGPU_API_VERSION);
        jw_string(jw, "kind", "GPUExplanation");
    }
    else                                        /* a row of pending: what it stands for */
        jw_string(jw, "kind", e->queue ? e->queue->row_kind : "Pod");
    jw_string(jw, "namespace", e->ns);
    jw_string(jw, "name", e->name);
    jw_bool(jw, "created", e->created);
    if (e->owner_kind && e->owner_name) {
        jw_object_begin(jw, "owner");
        if (e->queue && e->queue->owner_api) jw_string(jw, "apiVersion", e->queue->owner_api);
        jw_string(jw, "kind", e->owner_kind);
        jw_string(jw, "name", e->owner_name);
        jw_end(jw);
    }
    if (e->pod) {
        jw_string(jw, "phase", pod_phase_name(e->pod->phase));
        jw_number(jw, "priority", e->pod->priority);
        if (pod_more(e->pod)->nominated_node) jw_string(jw, "nominatedNode", pod_more(e->pod)->nominated_node);
    }
    if (e->age >= 0) jw_number(jw, "ageSeconds", (double)e->age);
    jw_object_begin(jw, "requests");
    for (size_t i = 0; i < e->requests.n; i++)
        if (explanation_request_shown(e->requests.items[i].name) && e->requests.items[i].milli > 0)
            jw_number(jw, e->requests.items[i].name, (double)units(e->requests.items[i].milli));
    jw_end(jw);
    if (e->pod && pod_more(e->pod)->request_init)   /* the GPU request is an init container's, not the app containers' */
        jw_string(jw, "requestFromInitContainer", pod_more(e->pod)->request_init);
    if (e->dra_gpus) jw_string(jw, "draDevices", e->dra_gpus);   /* DRA: "gpu.nvidia.com:4" */
    if (e->queue) explain_queue_write(jw, e->queue);
    jw_string(jw, "verdict", verdict_name(e->verdict));
    jw_string(jw, "reason", e->summary ? e->summary : "");
    jw_string(jw, "schedulerMessage", e->sched_text);        /* NULL: null */
    if (e->sched_source) jw_string(jw, "schedulerMessageSource", e->sched_source);
    if (e->event_text) jw_string(jw, "eventMessage", e->event_text);
    if (explanation_sched(e)->kind != SM_EMPTY) sched_write(jw, "scheduler", explanation_sched(e));
    jw_bool(jw, "agreesWithScheduler", e->agrees);
    strvec_write(jw, "disagreements", &e->disagreements);
    size_t listed = opts->nodes_json ? opts->nodes_listed : 0;
    if (opts->nodes_json) jw_raw(jw, "nodes", opts->nodes_json);
    else listed = explain_nodes_write(jw, "nodes", e, opts->max_nodes);
    node_counts_write(jw, e, opts->counts, listed);
    strvec_write(jw, "fixes", &e->fixes);
    jw_array_begin(jw, "fixDetails");
    for (size_t i = 0; i < e->fixes.n && e->fix_info; i++) fix_info_write(jw, &e->fix_info[i]);
    jw_end(jw);
    strvec_write(jw, "notes", &e->notes);
    if (opts->warnings) strvec_write(jw, "warnings", opts->warnings);
    jw_end(jw);
}

cJSON *explain_to_json_max(const Explanation *e, bool with_kind, size_t max_nodes)
{
    JsonWriter *jw = jw_tree_new();
    ExplainJsonOpts o = { .with_kind = with_kind, .max_nodes = max_nodes };
    if (jw) explain_json_write(jw, e, &o);
    return jw_tree_finish(jw);
}

cJSON *explain_to_json(const Explanation *e, bool with_kind) { return explain_to_json_max(e, with_kind, 0); }

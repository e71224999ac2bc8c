/* explain.c — recompute the scheduler's GPU-relevant filters for a pending pod, decide a
 * verdict, reconcile with the scheduler's own message and write fixes (see explain.h for the
 * filters, the verdict precedence and the reconciliation rule).
 */
#include "explain.h"
#include "quantity.h"
#include "strmap.h"
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNSCHEDULABLE_TAINT "node.kubernetes.io/unschedulable"
#define MAX_NAMES 6            /* node / pod names listed in one line before "+N more" */

static const char *const verdict_names[] = {
    [V_INSUFFICIENT] = "Insufficient", [V_FRAGMENTED] = "Fragmented", [V_TAINT] = "Taint",
    [V_SELECTOR] = "Selector", [V_RESOURCE_NAME] = "ResourceName",
    [V_NO_DEVICE_PLUGIN] = "NoDevicePlugin", [V_TOO_LARGE] = "TooLarge", [V_QUOTA] = "Quota",
    [V_GATED] = "Gated", [V_UNSCHEDULABLE] = "Unschedulable", [V_UNKNOWN] = "Unknown",
};
const char *verdict_name(Verdict v) { return (size_t)v <= V_UNKNOWN ? verdict_names[v] : "Unknown"; }

static const char *const reason_names[] = {
    [NR_UNSCHEDULABLE] = "Unschedulable", [NR_NOT_READY] = "NotReady",
    [NR_UNTOLERATED_TAINT] = "UntoleratedTaint", [NR_NODE_SELECTOR_MISMATCH] = "NodeSelectorMismatch",
    [NR_NODE_AFFINITY_MISMATCH] = "NodeAffinityMismatch", [NR_TOO_MANY_PODS] = "TooManyPods",
    [NR_NO_DEVICE_PLUGIN] = "NoDevicePlugin", [NR_RESOURCE_NOT_ADVERTISED] = "ResourceNotAdvertised",
    [NR_EXCEEDS_NODE_CAPACITY] = "ExceedsNodeCapacity", [NR_INSUFFICIENT] = "Insufficient",
};
const char *node_reason_code_name(NodeReasonCode c)
{
    return (size_t)c <= NR_INSUFFICIENT ? reason_names[c] : "Unknown";
}

/* ---------------------------------------------------------------- amounts */

static bool is_bytes(const char *res)
{
    return str_eq(res, "memory") || str_eq(res, "ephemeral-storage") || str_starts_with(res, "hugepages-");
}

/* human amount: "4", "500m" (cpu), "16384Mi" (bytes) */
static void fmt_amount(const char *res, int64_t milli, char *buf, size_t n)
{
    if (milli < 0) milli = 0;
    if (is_bytes(res)) snprintf(buf, n, "%lldMi", (long long)quantity_to_mib(milli));
    else if (str_eq(res, "cpu")) quantity_format(milli, buf, n);
    else snprintf(buf, n, "%lld", (long long)quantity_units_ceil(milli));
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

/* "a, b, c +4 more" */
static void add_names(Strbuf *sb, const Strvec *names)
{
    for (size_t i = 0; i < names->n && i < MAX_NAMES; i++)
        strbuf_addf(sb, "%s%s", i ? ", " : "", names->v[i]);
    if (names->n > MAX_NAMES) strbuf_addf(sb, " +%zu more", names->n - MAX_NAMES);
}

/* ---------------------------------------------------------------- filters */

bool toleration_tolerates(const Toleration *t, const Taint *taint)
{
    /* v1.Toleration.ToleratesTaint: effect and key, when set, must equal; an empty key with
     * Exists tolerates every taint; Equal (or no operator) compares values */
    if (t->effect && *t->effect && !str_eq(t->effect, taint->effect)) return false;
    if (t->key && *t->key && !str_eq(t->key, taint->key)) return false;
    if (!t->op || !*t->op || str_eq(t->op, "Equal"))
        return str_eq(t->value ? t->value : "", taint->value ? taint->value : "");
    return str_eq(t->op, "Exists");
}

bool pod_tolerates_taint(const Pod *p, const Taint *taint)
{
    for (size_t i = 0; i < p->ntolerations; i++)
        if (toleration_tolerates(&p->tolerations[i], taint)) return true;
    return false;
}

bool node_selector_matches(const Pod *p, const Node *n, char **why)
{
    for (size_t i = 0; i < p->node_selector.n; i++) {
        const KV *kv = &p->node_selector.items[i];
        const char *have = kv_get(&n->labels, kv->key);
        if (str_eq(have, kv->value)) continue;
        if (why) *why = have ? xasprintf("nodeSelector %s=%s: node has %s=%s", kv->key, kv->value, kv->key, have)
                             : xasprintf("nodeSelector %s=%s: node has no label %s", kv->key, kv->value, kv->key);
        return false;
    }
    return true;
}

/* first requirement of term that n fails, or NULL when the term matches */
static const SelReq *term_failure(const NodeSelectorTerm *t, const Node *n, bool *is_field)
{
    KVList fields = KVLIST_INIT;
    kv_set(&fields, "metadata.name", n->name);
    const SelReq *bad = NULL;
    for (size_t i = 0; i < t->match_expressions.n && !bad; i++)
        if (!selreq_matches(&t->match_expressions.reqs[i], &n->labels)) { bad = &t->match_expressions.reqs[i]; *is_field = false; }
    for (size_t i = 0; i < t->match_fields.n && !bad; i++)
        if (!selreq_matches(&t->match_fields.reqs[i], &fields)) { bad = &t->match_fields.reqs[i]; *is_field = true; }
    kv_free(&fields);
    return bad;
}

bool node_affinity_matches(const Pod *p, const Node *n, char **why)
{
    if (p->naffinity_terms == 0) return true;
    char *first = NULL;
    for (size_t i = 0; i < p->naffinity_terms; i++) {
        const NodeSelectorTerm *t = &p->affinity_terms[i];
        if (t->match_expressions.n == 0 && t->match_fields.n == 0) {   /* an empty term matches nothing */
            if (!first) first = xstrdup("empty nodeSelectorTerm matches no node");
            continue;
        }
        bool is_field = false;
        const SelReq *bad = term_failure(t, n, &is_field);
        if (!bad) { free(first); return true; }
        if (!first) {
            char *req = selreq_format(bad);
            const char *have = is_field ? n->name : kv_get(&n->labels, bad->key);
            first = have ? xasprintf("%s %s (node has %s)", is_field ? "matchFields" : "node affinity", req, have)
                         : xasprintf("%s %s (node has no label %s)", is_field ? "matchFields" : "node affinity",
                                     req, bad->key);
            free(req);
        }
    }
    if (why) {
        *why = p->naffinity_terms > 1 ? xasprintf("none of %zu node affinity terms match; term 1: %s",
                                                  p->naffinity_terms, first) : xstrdup(first);
    }
    free(first);
    return false;
}

/* Per-node lists of the pods bound to / nominated to each node, so explaining many pending
 * pods on a large cluster costs O(pods on the node), not O(all pods), per node.  NULL index
 * = scan every pod (the public single-node helpers). */
typedef struct { size_t *v; size_t n, cap; } IdxVec;
typedef struct { IdxVec *bound, *nominated; size_t nnodes; } PodIndex;

static void pod_index_build(const Cluster *c, PodIndex *ix)
{
    ix->nnodes = c->nnodes;
    ix->bound = c->nnodes ? xcalloc(c->nnodes, sizeof *ix->bound) : NULL;
    ix->nominated = c->nnodes ? xcalloc(c->nnodes, sizeof *ix->nominated) : NULL;
    for (size_t i = 0; i < c->npods; i++) {
        const Pod *q = &c->pods[i];
        const char *name = q->node_name ? q->node_name : q->nominated_node;
        const Node *n = name ? cluster_find_node(c, name) : NULL;
        if (!n) continue;
        IdxVec *v = q->node_name ? &ix->bound[cluster_node_index(c, n)] : &ix->nominated[cluster_node_index(c, n)];
        ARRAY_GROW(v->v, v->n, v->cap);
        v->v[v->n++] = i;
    }
}

static void pod_index_free(PodIndex *ix)
{
    for (size_t i = 0; i < ix->nnodes; i++) { free(ix->bound[i].v); free(ix->nominated[i].v); }
    free(ix->bound);
    free(ix->nominated);
}

/* candidate pods for node n: *count of them; returns the index list, or NULL = pods 0..count-1 */
static const size_t *pods_near(const Cluster *c, const PodIndex *ix, const Node *n, bool nominated, size_t *count)
{
    if (!ix) { *count = c->npods; return NULL; }
    const IdxVec *v = nominated ? &ix->nominated[cluster_node_index(c, n)] : &ix->bound[cluster_node_index(c, n)];
    *count = v->n;
    return v->v;
}
#define FOR_PODS_NEAR(c, ix, n, nominated, q) \
    for (size_t q##_cnt, q##_k = 0, *q##_dummy = NULL; !q##_dummy; q##_dummy = (size_t *)1) \
        for (const size_t *q##_l = pods_near(c, ix, n, nominated, &q##_cnt); q##_k < q##_cnt; q##_k++) \
            for (const Pod *q = &(c)->pods[q##_l ? q##_l[q##_k] : q##_k]; q; q = NULL)

static bool pod_is_nominated_competitor(const Pod *q, const Pod *p, const Node *n)
{
    return q != p && !q->node_name && q->nominated_node && str_eq(q->nominated_node, n->name) &&
           q->phase == PHASE_PENDING && q->priority >= p->priority;
}

static int64_t free_ix(const Cluster *c, const PodIndex *ix, const Node *n, const Pod *p, const char *resource)
{
    int64_t free_ = rlist_get(&n->allocatable, resource);
    const NodeUsage *u = cluster_node_usage(c, n);
    if (u) free_ -= rlist_get(&u->requested, resource);
    FOR_PODS_NEAR(c, ix, n, true, q)
        if (pod_is_nominated_competitor(q, p, n)) free_ -= rlist_get(&q->requests, resource);
    return free_;
}

int64_t node_free_for(const Cluster *c, const Node *n, const Pod *p, const char *resource)
{
    return free_ix(c, NULL, n, p, resource);
}

static NodeReason *add_reason(NodeResult *r, NodeReasonCode code)
{
    r->reasons = xrealloc(r->reasons, (r->nreasons + 1) * sizeof *r->reasons);
    NodeReason *x = &r->reasons[r->nreasons++];
    memset(x, 0, sizeof *x);
    x->code = code;
    return x;
}

static int cmp_hold(const void *a, const void *b)
{
    const PodHold *x = a, *y = b;
    if (x->milli != y->milli) return x->milli > y->milli ? -1 : 1;
    int c = strcmp(x->pod->ns, y->pod->ns);
    return c ? c : strcmp(x->pod->name, y->pod->name);
}

static void add_holders(const Cluster *c, const PodIndex *ix, const Node *n, const char *res, NodeReason *x)
{
    FOR_PODS_NEAR(c, ix, n, false, q) {
        if (!str_eq(q->node_name, n->name) || !pod_holds_resources(q)) continue;
        int64_t m = rlist_get(&q->requests, res);
        if (m <= 0) continue;
        x->holders = xrealloc(x->holders, (x->nholders + 1) * sizeof *x->holders);
        x->holders[x->nholders++] = (PodHold){ q, m };
    }
    if (x->nholders > 1) qsort(x->holders, x->nholders, sizeof *x->holders, cmp_hold);
}

static char *no_plugin_detail(const Node *n)
{
    const char *state = n->gpu.mig_config_state, *dp = kv_get(&n->labels, "nvidia.com/gpu.deploy.device-plugin");
    Strbuf sb = STRBUF_INIT;
    if (n->gpu.product) strbuf_addf(&sb, "GFD labels: %d x %s", n->gpu.count, n->gpu.product);
    else strbuf_adds(&sb, "nvidia.com/gpu.present=true");
    if (state && !str_eq(state, "success"))
        strbuf_addf(&sb, "; MIG reconfiguration %s (nvidia.com/mig.config=%s)", state,
                    n->gpu.mig_config ? n->gpu.mig_config : "?");
    if (dp && !str_eq(dp, "true")) strbuf_addf(&sb, "; nvidia.com/gpu.deploy.device-plugin=%s", dp);
    return strbuf_detach(&sb);
}

static void explain_node_ix(const Cluster *c, const PodIndex *ix, const Pod *p, const Node *n, NodeResult *out)
{
    out->node = n;
    if (n->unschedulable) {
        Taint t = { (char *)UNSCHEDULABLE_TAINT, NULL, (char *)"NoSchedule" };
        if (!pod_tolerates_taint(p, &t)) add_reason(out, NR_UNSCHEDULABLE);
    }
    if (!n->ready) {
        NodeReason *x = add_reason(out, NR_NOT_READY);
        x->detail = xstrdup(n->not_ready_reason);
    }
    for (size_t i = 0; i < n->ntaints; i++) {
        const Taint *t = &n->taints[i];
        if (!str_eq(t->effect, "NoSchedule") && !str_eq(t->effect, "NoExecute")) continue;
        if (n->unschedulable && str_eq(t->key, UNSCHEDULABLE_TAINT)) continue;   /* reported as Unschedulable */
        if (pod_tolerates_taint(p, t)) continue;
        NodeReason *x = add_reason(out, NR_UNTOLERATED_TAINT);
        x->key = xstrdup(t->key);
        x->value = xstrdup(t->value ? t->value : "");
        x->effect = xstrdup(t->effect);
    }
    /* labels are kept for GPU nodes only (cluster.h): other nodes cannot be judged on them */
    if (node_is_gpu_node(n) || n->labels.n) {
        char *why = NULL;
        if (!node_selector_matches(p, n, &why)) add_reason(out, NR_NODE_SELECTOR_MISMATCH)->detail = why;
        why = NULL;
        if (!node_affinity_matches(p, n, &why)) add_reason(out, NR_NODE_AFFINITY_MISMATCH)->detail = why;
    }
    const NodeUsage *u = cluster_node_usage(c, n);
    int64_t max_pods = rlist_get(&n->allocatable, "pods");
    if (max_pods > 0 && u) {
        int64_t used = (int64_t)u->pods * 1000;
        FOR_PODS_NEAR(c, ix, n, true, q)
            if (pod_is_nominated_competitor(q, p, n)) used += 1000;
        if (used + 1000 > max_pods) {
            NodeReason *x = add_reason(out, NR_TOO_MANY_PODS);
            x->resource = xstrdup("pods");
            x->requested = 1000;
            x->free = max_pods - used;
            x->allocatable = max_pods;
        }
    }
    for (size_t i = 0; i < p->requests.n; i++) {
        const ResourceEntry *re = &p->requests.items[i];
        if (re->milli <= 0) continue;
        int64_t alloc = rlist_get(&n->allocatable, re->name);
        if (resource_is_gpu(re->name) && alloc <= 0) {
            Strvec adv = STRVEC_INIT;
            for (size_t j = 0; j < n->allocatable.n; j++)
                if (resource_is_gpu(n->allocatable.items[j].name) && n->allocatable.items[j].milli > 0)
                    strvec_push(&adv, n->allocatable.items[j].name);
            NodeReason *x;
            if (adv.n) {
                x = add_reason(out, NR_RESOURCE_NOT_ADVERTISED);
                x->advertised = adv;
            } else {
                strvec_free(&adv);
                if (n->gpu.has_gfd || n->gpu.present) {
                    x = add_reason(out, NR_NO_DEVICE_PLUGIN);
                    x->detail = no_plugin_detail(n);
                } else {
                    x = add_reason(out, NR_EXCEEDS_NODE_CAPACITY);
                }
            }
            x->resource = xstrdup(re->name);
            x->requested = re->milli;
            continue;
        }
        int64_t free_ = free_ix(c, ix, n, p, re->name);
        if (re->milli > alloc) {
            NodeReason *x = add_reason(out, NR_EXCEEDS_NODE_CAPACITY);
            x->resource = xstrdup(re->name);
            x->requested = re->milli; x->allocatable = alloc; x->free = free_;
        } else if (re->milli > free_) {
            NodeReason *x = add_reason(out, NR_INSUFFICIENT);
            x->resource = xstrdup(re->name);
            x->requested = re->milli; x->allocatable = alloc; x->free = free_;
            add_holders(c, ix, n, re->name, x);
        }
    }
}

void explain_node(const Cluster *c, const Pod *p, const Node *n, NodeResult *out)
{
    explain_node_ix(c, NULL, p, n, out);
}

static void node_reason_free(NodeReason *x)
{
    free(x->resource); free(x->holders); free(x->key); free(x->value); free(x->effect);
    free(x->detail); strvec_free(&x->advertised);
}

void node_result_free(NodeResult *r)
{
    for (size_t i = 0; i < r->nreasons; i++) node_reason_free(&r->reasons[i]);
    free(r->reasons);
    r->reasons = NULL;
    r->nreasons = 0;
}

char *node_reason_describe(const NodeReason *x)
{
    char a[48], b[48], c[48];
    Strbuf sb = STRBUF_INIT;
    switch (x->code) {
    case NR_UNSCHEDULABLE: strbuf_adds(&sb, "cordoned (spec.unschedulable)"); break;
    case NR_NOT_READY: strbuf_addf(&sb, "NotReady%s%s", x->detail ? ": " : "", x->detail ? x->detail : ""); break;
    case NR_UNTOLERATED_TAINT:
        strbuf_addf(&sb, "untolerated taint %s%s%s:%s", x->key, *x->value ? "=" : "", x->value, x->effect);
        break;
    case NR_NODE_SELECTOR_MISMATCH: case NR_NODE_AFFINITY_MISMATCH:
        strbuf_adds(&sb, x->detail ? x->detail : node_reason_code_name(x->code));
        break;
    case NR_TOO_MANY_PODS:
        strbuf_addf(&sb, "too many pods (%lld of %lld)", (long long)units(x->allocatable - x->free),
                    (long long)units(x->allocatable));
        break;
    case NR_NO_DEVICE_PLUGIN:
        strbuf_addf(&sb, "no device plugin: no GPU resource advertised (%s)", x->detail);
        break;
    case NR_RESOURCE_NOT_ADVERTISED:
        strbuf_addf(&sb, "no %s; node offers ", x->resource);
        for (size_t i = 0; i < x->advertised.n; i++) strbuf_addf(&sb, "%s%s", i ? ", " : "", x->advertised.v[i]);
        break;
    case NR_EXCEEDS_NODE_CAPACITY:
        if (x->allocatable <= 0) { strbuf_addf(&sb, "no %s (not a GPU node)", x->resource); break; }
        fmt_amount(x->resource, x->requested, a, sizeof a);
        fmt_amount(x->resource, x->allocatable, b, sizeof b);
        strbuf_addf(&sb, "%s %s exceeds the node's allocatable %s", x->resource, a, b);
        break;
    case NR_INSUFFICIENT:
        fmt_amount(x->resource, x->requested, a, sizeof a);
        fmt_amount(x->resource, x->free, b, sizeof b);
        fmt_amount(x->resource, x->allocatable, c, sizeof c);
        strbuf_addf(&sb, "Insufficient %s: requested %s, free %s of %s", x->resource, a, b, c);
        if (x->nholders) {
            strbuf_adds(&sb, " (held by ");
            for (size_t i = 0; i < x->nholders && i < MAX_NAMES; i++) {
                fmt_amount(x->resource, x->holders[i].milli, a, sizeof a);
                strbuf_addf(&sb, "%s%s/%s %s", i ? ", " : "", x->holders[i].pod->ns, x->holders[i].pod->name, a);
            }
            if (x->nholders > MAX_NAMES) strbuf_addf(&sb, " +%zu more", x->nholders - MAX_NAMES);
            strbuf_addch(&sb, ')');
        }
        break;
    }
    return strbuf_detach(&sb);
}

/* ---------------------------------------------------------------- per-node flags */

typedef struct { bool name_ok, cap_ok, sel_ok, taint_ok, state_ok, fits; } NodeFlags;

static bool has_code(const NodeResult *r, NodeReasonCode code)
{
    for (size_t i = 0; i < r->nreasons; i++) if (r->reasons[i].code == code) return true;
    return false;
}

static const NodeReason *find_code(const NodeResult *r, NodeReasonCode code, const char *res)
{
    for (size_t i = 0; i < r->nreasons; i++)
        if (r->reasons[i].code == code && (!res || str_eq(res, r->reasons[i].resource))) return &r->reasons[i];
    return NULL;
}

static NodeFlags node_flags(const Pod *p, const NodeResult *r)
{
    NodeFlags f = { true, true, true, true, true, r->nreasons == 0 };
    for (size_t i = 0; i < p->requests.n; i++)
        if (resource_is_gpu(p->requests.items[i].name) && p->requests.items[i].milli > 0 &&
            rlist_get(&r->node->allocatable, p->requests.items[i].name) <= 0)
            f.name_ok = false;
    f.cap_ok = f.name_ok && !has_code(r, NR_EXCEEDS_NODE_CAPACITY);
    f.sel_ok = !has_code(r, NR_NODE_SELECTOR_MISMATCH) && !has_code(r, NR_NODE_AFFINITY_MISMATCH);
    /* node.kubernetes.io/... taints (not-ready, unreachable, pressure) are node state, not a
     * taint a toleration should fix */
    f.state_ok = !has_code(r, NR_UNSCHEDULABLE) && !has_code(r, NR_NOT_READY);
    for (size_t i = 0; i < r->nreasons; i++) {
        if (r->reasons[i].code != NR_UNTOLERATED_TAINT) continue;
        if (str_starts_with(r->reasons[i].key, "node.kubernetes.io/")) f.state_ok = false;
        else f.taint_ok = false;
    }
    return f;
}

/* ---------------------------------------------------------------- verdict and fixes */

typedef struct {
    const Cluster *c;
    const PodIndex *ix;
    const Pod *p;
    Explanation *e;
    NodeFlags *flags;
    const char *gpu;           /* the (first) GPU resource requested */
    int64_t gpu_req;
} Ctx;

static bool in_stage(const NodeFlags *f, int stage)
{
    /* stage 1 name, 2 capacity, 3 selector, 4 taints, 5 node state */
    if (!f->name_ok) return false;
    if (stage >= 2 && !f->cap_ok) return false;
    if (stage >= 3 && !f->sel_ok) return false;
    if (stage >= 4 && !f->taint_ok) return false;
    if (stage >= 5 && !f->state_ok) return false;
    return true;
}

static size_t count_stage(const Ctx *x, int stage)
{
    size_t n = 0;
    for (size_t i = 0; i < x->e->nnodes; i++) n += in_stage(&x->flags[i], stage);
    return n;
}

static void fix(Explanation *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fix(Explanation *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    if (!strvec_contains(&e->fixes, s)) strvec_push(&e->fixes, s);
    free(s);
}

static void resource_name_hint(const Node *n, const char *name, Strbuf *sb)
{
    if (resource_is_mig(name)) {
        char *prof = resource_mig_profile(name);
        strbuf_addf(sb, "MIG %s slices (mixed strategy)", prof ? prof : "?");
        free(prof);
    } else if (resource_is_shared(name)) {
        strbuf_addf(sb, "time-sliced GPUs, renameByDefault, %d replicas each", n->gpu.replicas);
    } else if (str_eq(name, "nvidia.com/gpu") && n->gpu.mig_strategy == MIG_SINGLE) {
        strbuf_addf(sb, "MIG single strategy: each is a %s slice", n->gpu.mig_single_profile ? n->gpu.mig_single_profile : "MIG");
    } else if (str_eq(name, "nvidia.com/gpu") && n->gpu.replicas > 1) {
        strbuf_addf(sb, "time-sliced, %d replicas per GPU", n->gpu.replicas);
    } else {
        strbuf_adds(sb, "whole GPUs");
    }
}

/* A MIG slice or a time-sliced replica stands in for one GPU of one process: CUDA sees a single
 * MIG device per process, and the device plugin fails shared requests above one
 * (failRequestsGreaterThanOne).  So these are no alternative for a pod asking for several GPUs. */
static bool alternative_fits_count(const char *alt, int64_t requested_milli)
{
    if (units(requested_milli) <= 1) return true;
    return !resource_is_mig(alt) && !resource_is_shared(alt);
}

/* ResourceName: alternatives offered by nodes the pod could otherwise use (its selector,
 * affinity and tolerations allow them); also an extra hint for Insufficient */
static void fixes_resource_name(Ctx *x, bool only_if_free)
{
    StrMap *seen = strmap_new();
    for (size_t i = 0; i < x->e->nnodes; i++) {
        const NodeResult *r = &x->e->nodes[i];
        const NodeReason *rna = find_code(r, NR_RESOURCE_NOT_ADVERTISED, NULL);
        if (!rna) continue;
        if (!x->flags[i].sel_ok || !x->flags[i].taint_ok) continue;
        for (size_t j = 0; j < rna->advertised.n; j++) {
            const char *alt = rna->advertised.v[j];
            if (strmap_get(seen, alt)) continue;
            if (!alternative_fits_count(alt, rna->requested)) continue;
            int64_t free_ = free_ix(x->c, x->ix, r->node, x->p, alt);
            if (only_if_free && free_ < rna->requested) continue;
            strmap_put(seen, alt, (void *)1);
            Strbuf hint = STRBUF_INIT;
            resource_name_hint(r->node, alt, &hint);
            fix(x->e, "request %s instead of %s: node %s offers %lld (%lld free; %s):\n"
                      "  resources:\n    limits:\n      %s: %lld",
                alt, rna->resource, r->node->name, (long long)units(rlist_get(&r->node->allocatable, alt)),
                (long long)units(free_), strbuf_str(&hint), alt, (long long)units(rna->requested));
            strbuf_free(&hint);
        }
    }
    strmap_free(seen, NULL);
}

static bool gfd_managed(const char *key)
{
    return str_starts_with(key, "nvidia.com/") || str_starts_with(key, "feature.node.kubernetes.io/");
}

/* Labels a candidate node (room for the pod) would need.  Keys GPU Feature Discovery or the
 * GPU Operator set from the hardware cannot be relabelled by hand: for those, say which values
 * the candidate nodes have, so the pod's selector can be changed instead. */
static void fixes_selector(Ctx *x)
{
    size_t shown = 0;
    Strvec managed_keys = STRVEC_INIT;
    bool pinned = false;
    for (size_t i = 0; i < x->e->nnodes; i++) {
        if (!in_stage(&x->flags[i], 2)) continue;
        const Node *n = x->e->nodes[i].node;
        Strvec cmd = STRVEC_INIT;
        for (size_t k = 0; k < x->p->node_selector.n; k++) {
            const KV *kv = &x->p->node_selector.items[k];
            if (str_eq(kv_get(&n->labels, kv->key), kv->value)) continue;
            if (gfd_managed(kv->key)) { if (!strvec_contains(&managed_keys, kv->key)) strvec_push(&managed_keys, kv->key); }
            else strvec_pushf(&cmd, "%s=%s", kv->key, kv->value);
        }
        if (x->p->naffinity_terms && !node_affinity_matches(x->p, n, NULL)) {
            const NodeSelectorTerm *t = &x->p->affinity_terms[0];
            for (size_t k = 0; k < t->match_expressions.n; k++) {
                const SelReq *r = &t->match_expressions.reqs[k];
                if (selreq_matches(r, &n->labels)) continue;
                if (gfd_managed(r->key)) {
                    if (!strvec_contains(&managed_keys, r->key)) strvec_push(&managed_keys, r->key);
                    continue;
                }
                int64_t v;
                switch (r->op) {
                case SEL_EQ: case SEL_IN: if (r->nvalues) strvec_pushf(&cmd, "%s=%s", r->key, r->values[0]); break;
                case SEL_EXISTS: strvec_pushf(&cmd, "%s=true", r->key); break;
                case SEL_NEQ: case SEL_NOTIN: case SEL_NOT_EXISTS: strvec_pushf(&cmd, "%s-", r->key); break;
                case SEL_GT: if (r->nvalues && str_to_int64(r->values[0], &v)) strvec_pushf(&cmd, "%s=%lld", r->key, (long long)(v + 1)); break;
                case SEL_LT: if (r->nvalues && str_to_int64(r->values[0], &v)) strvec_pushf(&cmd, "%s=%lld", r->key, (long long)(v - 1)); break;
                }
            }
        }
        if (cmd.n && shown < 3) {
            Strbuf sb = STRBUF_INIT;
            strbuf_addf(&sb, "kubectl label node %s", n->name);
            for (size_t k = 0; k < cmd.n; k++) strbuf_addf(&sb, " %s", cmd.v[k]);
            fix(x->e, "label node %s (it has room for the pod) so the pod's selector matches:\n  %s",
                n->name, strbuf_str(&sb));
            strbuf_free(&sb);
            shown++;
        }
        strvec_free(&cmd);
    }
    for (size_t k = 0; k < managed_keys.n; k++) {
        const char *key = managed_keys.v[k];
        /* distinct values of key among candidate nodes, with their nodes */
        Strvec vals = STRVEC_INIT;
        Strbuf sb = STRBUF_INIT;
        for (size_t i = 0; i < x->e->nnodes; i++) {
            if (!in_stage(&x->flags[i], 2)) continue;
            const char *v = kv_get(&x->e->nodes[i].node->labels, key);
            if (!v || strvec_contains(&vals, v)) continue;
            strvec_push(&vals, v);
            Strvec nodes = STRVEC_INIT;
            for (size_t j = i; j < x->e->nnodes; j++)
                if (in_stage(&x->flags[j], 2) && str_eq(kv_get(&x->e->nodes[j].node->labels, key), v))
                    strvec_push(&nodes, x->e->nodes[j].node->name);
            strbuf_addf(&sb, "%s%s=%s (", vals.n > 1 ? "; " : "", key, v);
            add_names(&sb, &nodes);
            strbuf_addch(&sb, ')');
            strvec_free(&nodes);
        }
        if (vals.n)
            fix(x->e, "%s is set by GPU Feature Discovery / the GPU Operator from the hardware, not by hand; the nodes "
                      "with room have %s: change the pod's nodeSelector/affinity to admit them, e.g.\n"
                      "  nodeSelector:\n    %s: %s", key, strbuf_str(&sb), key, vals.v[0]);
        else
            fix(x->e, "no node with room for the pod has the label %s (set by GPU Feature Discovery from the "
                      "hardware): drop that requirement or add such nodes", key);
        strbuf_free(&sb);
        strvec_free(&vals);
    }
    Strvec pins = STRVEC_INIT;
    for (size_t t = 0; t < x->p->naffinity_terms; t++)
        for (size_t k = 0; k < x->p->affinity_terms[t].match_fields.n; k++) {
            const SelReq *r = &x->p->affinity_terms[t].match_fields.reqs[k];
            for (size_t v = 0; v < r->nvalues; v++)
                if (!strvec_contains(&pins, r->values[v])) strvec_push(&pins, r->values[v]);
            pinned = true;
        }
    if (pinned) {
        Strbuf sb = STRBUF_INIT;
        add_names(&sb, &pins);
        fix(x->e, "a node affinity term pins the pod by matchFields metadata.name to %s, and no such node has room "
                  "(DaemonSet pods wait for their own node)", sb.len ? strbuf_str(&sb) : "named nodes");
        strbuf_free(&sb);
    }
    strvec_free(&pins);
    strvec_free(&managed_keys);
}

static void fixes_taint(Ctx *x)
{
    Strvec seen = STRVEC_INIT;
    Strbuf yaml = STRBUF_INIT;
    Strvec nodes = STRVEC_INIT;
    for (size_t i = 0; i < x->e->nnodes; i++) {
        if (!in_stage(&x->flags[i], 3)) continue;
        const NodeResult *r = &x->e->nodes[i];
        bool any = false;
        for (size_t k = 0; k < r->nreasons; k++) {
            const NodeReason *t = &r->reasons[k];
            if (t->code != NR_UNTOLERATED_TAINT) continue;
            if (str_starts_with(t->key, "node.kubernetes.io/")) continue;   /* a node condition, see NotReady */
            any = true;
            char *id = xasprintf("%s=%s:%s", t->key, t->value, t->effect);
            if (!strvec_contains(&seen, id)) {
                strvec_push(&seen, id);
                if (*t->value)
                    strbuf_addf(&yaml, "\n  - key: \"%s\"\n    operator: \"Equal\"\n    value: \"%s\"\n    effect: \"%s\"",
                                t->key, t->value, t->effect);
                else
                    strbuf_addf(&yaml, "\n  - key: \"%s\"\n    operator: \"Exists\"\n    effect: \"%s\"", t->key, t->effect);
            }
            free(id);
        }
        if (any) strvec_push(&nodes, r->node->name);
    }
    if (yaml.len) {
        Strbuf nl = STRBUF_INIT;
        add_names(&nl, &nodes);
        fix(x->e, "add to the pod spec (tolerates the taints of %s):\n  tolerations:%s", strbuf_str(&nl), strbuf_str(&yaml));
        strbuf_free(&nl);
        for (size_t i = 0; i < seen.n; i++)
            if (resource_is_gpu(seen.v[i]) || str_starts_with(seen.v[i], "nvidia.com/gpu=") ||
                str_starts_with(seen.v[i], "nvidia.com/gpu:")) {
                fix(x->e, "or enable the ExtendedResourceToleration admission plugin on the API server: it adds "
                          "this toleration to every pod that requests %s", x->gpu);
                break;
            }
    }
    strbuf_free(&yaml);
    strvec_free(&seen);
    strvec_free(&nodes);
}

static void fixes_node_state(Ctx *x, int stage)
{
    for (size_t i = 0; i < x->e->nnodes; i++) {
        if (!in_stage(&x->flags[i], stage)) continue;
        const NodeResult *r = &x->e->nodes[i];
        if (has_code(r, NR_UNSCHEDULABLE))
            fix(x->e, "uncordon node %s if its maintenance is over:\n  kubectl uncordon %s", r->node->name, r->node->name);
        const NodeReason *nr = find_code(r, NR_NOT_READY, NULL);
        if (nr)
            fix(x->e, "node %s is NotReady%s%s: check its kubelet (kubectl describe node %s)", r->node->name,
                nr->detail ? " — " : "", nr->detail ? nr->detail : "", r->node->name);
    }
}

static void fixes_no_device_plugin(Ctx *x)
{
    for (size_t i = 0; i < x->e->nnodes; i++) {
        const NodeResult *r = &x->e->nodes[i];
        const NodeReason *nd = find_code(r, NR_NO_DEVICE_PLUGIN, NULL);
        if (!nd) continue;
        fix(x->e, "node %s has GPUs (%s) but advertises no GPU resource: check the NVIDIA device plugin on it:\n"
                  "  kubectl get pods -A -o wide --field-selector spec.nodeName=%s | grep -i device-plugin",
            r->node->name, nd->detail, r->node->name);
    }
}

/* largest allocatable of res over nodes (stage filter 1 = advertises) */
static const NodeResult *largest(const Ctx *x, const char *res, int64_t *alloc)
{
    const NodeResult *best = NULL;
    *alloc = 0;
    for (size_t i = 0; i < x->e->nnodes; i++) {
        int64_t a = rlist_get(&x->e->nodes[i].node->allocatable, res);
        if (a > *alloc) { *alloc = a; best = &x->e->nodes[i]; }
    }
    return best;
}

static int cmp_victim(const void *a, const void *b)
{
    const PodHold *x = a, *y = b;
    if (x->pod->priority != y->pod->priority) return x->pod->priority < y->pod->priority ? -1 : 1;
    return cmp_hold(a, b);
}

/* pods whose end (or eviction by preemption) frees enough `res` on one eligible node */
static int cmp_holder_larger(const void *a, const void *b)
{
    const PodHold *x = a, *y = b;
    if (x->milli != y->milli) return x->milli > y->milli ? -1 : 1;
    int c = strcmp(x->pod->ns, y->pod->ns);
    return c ? c : strcmp(x->pod->name, y->pod->name);
}

static void fixes_busy(Ctx *x)
{
    const Pod *p = x->p;
    size_t ends = 0;
    bool preempt_possible = false;
    for (size_t i = 0; i < x->e->nnodes; i++) {
        if (!in_stage(&x->flags[i], 5)) continue;
        const NodeResult *r = &x->e->nodes[i];
        const NodeReason *ins = find_code(r, NR_INSUFFICIENT, x->gpu);
        if (!ins) continue;
        bool other_blockers = false;
        for (size_t k = 0; k < r->nreasons; k++)
            if (&r->reasons[k] != ins) other_blockers = true;
        int64_t need = ins->requested - ins->free;
        /* one pod whose end is enough; else the fewest pods (largest holders first) */
        bool single = false;
        for (size_t h = 0; h < ins->nholders && ends < 3; h++) {
            if (ins->holders[h].milli < need) continue;
            const Pod *q = ins->holders[h].pod;
            fix(x->e, "when %s/%s ends, node %s has %lld %s free (enough)%s", q->ns, q->name, r->node->name,
                (long long)units(ins->free + ins->holders[h].milli), x->gpu,
                other_blockers ? ", if its other reasons are resolved too" : "");
            ends++;
            single = true;
            break;
        }
        if (!single && ends < 3 && ins->nholders > 1) {
            PodHold *by_size = xcalloc(ins->nholders, sizeof *by_size);
            memcpy(by_size, ins->holders, ins->nholders * sizeof *by_size);
            qsort(by_size, ins->nholders, sizeof *by_size, cmp_holder_larger);
            int64_t got = 0;
            Strvec names = STRVEC_INIT;
            for (size_t h = 0; h < ins->nholders && got < need; h++) {
                strvec_pushf(&names, "%s/%s", by_size[h].pod->ns, by_size[h].pod->name);
                got += by_size[h].milli;
            }
            if (got >= need) {
                Strbuf sb = STRBUF_INIT;
                add_names(&sb, &names);
                fix(x->e, "when %s end, node %s has %lld %s free (enough)%s", strbuf_str(&sb), r->node->name,
                    (long long)units(ins->free + got), x->gpu,
                    other_blockers ? ", if its other reasons are resolved too" : "");
                strbuf_free(&sb);
                ends++;
            }
            strvec_free(&names);
            free(by_size);
        }
        /* preemption: lower-priority holders, lowest priority first, larger first */
        int64_t freed = 0;
        Strvec victims = STRVEC_INIT;
        PodHold *cand = xcalloc(ins->nholders + 1, sizeof *cand);
        size_t ncand = 0;
        for (size_t h = 0; h < ins->nholders; h++)
            if (ins->holders[h].pod->priority < p->priority) cand[ncand++] = ins->holders[h];
        qsort(cand, ncand, sizeof *cand, cmp_victim);
        for (size_t h = 0; h < ncand && freed < need; h++) {
            strvec_pushf(&victims, "%s/%s (priority %d)", cand[h].pod->ns, cand[h].pod->name, cand[h].pod->priority);
            freed += cand[h].milli;
        }
        free(cand);
        if (freed >= need && victims.n) {
            preempt_possible = true;
            Strbuf sb = STRBUF_INIT;
            add_names(&sb, &victims);
            if (str_eq(p->preemption_policy, "Never"))
                fix(x->e, "preemption could free node %s by evicting %s, but the pod has preemptionPolicy: Never",
                    r->node->name, strbuf_str(&sb));
            else
                fix(x->e, "preemption can evict lower-priority %s on node %s (this pod has priority %d); "
                          "the scheduler does it on a later attempt unless a PodDisruptionBudget blocks it",
                    strbuf_str(&sb), r->node->name, p->priority);
            strbuf_free(&sb);
        }
        strvec_free(&victims);
    }
    if (!preempt_possible && !str_eq(p->preemption_policy, "Never"))
        strvec_pushf(&x->e->notes, "no set of lower-priority pods (priority < %d) frees enough %s on one node, "
                     "so preemption cannot help; a higher PriorityClass would let it evict others", p->priority, x->gpu);
}

/* the verdict funnel of explain.h */
static void decide(Ctx *x)
{
    Explanation *e = x->e;
    char a[48], b[48];
    size_t n1 = count_stage(x, 1);
    if (n1 == 0) {
        bool rna = false, ndp = false;
        Strvec alts = STRVEC_INIT, ndp_nodes = STRVEC_INIT;
        for (size_t i = 0; i < e->nnodes; i++) {
            const NodeReason *r = find_code(&e->nodes[i], NR_RESOURCE_NOT_ADVERTISED, x->gpu);
            if (r) { rna = true; for (size_t k = 0; k < r->advertised.n; k++)
                         if (!strvec_contains(&alts, r->advertised.v[k])) strvec_push(&alts, r->advertised.v[k]); }
            if (find_code(&e->nodes[i], NR_NO_DEVICE_PLUGIN, NULL)) { ndp = true; strvec_push(&ndp_nodes, e->nodes[i].node->name); }
        }
        Strbuf sb = STRBUF_INIT;
        if (rna) {
            e->verdict = V_RESOURCE_NAME;
            add_names(&sb, &alts);
            e->summary = xasprintf("no node offers %s; nodes offer %s", x->gpu, strbuf_str(&sb));
            fixes_resource_name(x, false);
        } else if (ndp) {
            e->verdict = V_NO_DEVICE_PLUGIN;
            add_names(&sb, &ndp_nodes);
            e->summary = xasprintf("GPU node(s) %s advertise no GPU resource: device plugin not running", strbuf_str(&sb));
            fixes_no_device_plugin(x);
        } else {
            e->verdict = V_TOO_LARGE;
            e->summary = xasprintf("no node has %s", x->gpu);
            fix(e, "no node in the cluster offers %s: add GPU nodes, or check that the resource name is right", x->gpu);
        }
        if (ndp && e->verdict != V_NO_DEVICE_PLUGIN) fixes_no_device_plugin(x);
        strbuf_free(&sb);
        strvec_free(&alts);
        strvec_free(&ndp_nodes);
        return;
    }
    if (count_stage(x, 2) == 0) {
        e->verdict = V_TOO_LARGE;
        /* the resource that is too large on the largest advertising node */
        const char *res = x->gpu;
        for (size_t i = 0; i < e->nnodes; i++) {
            if (!in_stage(&x->flags[i], 1)) continue;
            const NodeReason *r = find_code(&e->nodes[i], NR_EXCEEDS_NODE_CAPACITY, NULL);
            if (r) { res = r->resource; if (str_eq(res, x->gpu)) break; }
        }
        int64_t alloc;
        const NodeResult *big = largest(x, res, &alloc);
        fmt_amount(res, rlist_get(&x->p->requests, res), a, sizeof a);
        fmt_amount(res, alloc, b, sizeof b);
        e->summary = xasprintf("requests %s %s; the largest node has %s (%s)", a, res, b, big ? big->node->name : "-");
        fix(e, "request at most %s %s per pod (largest node %s) and split the work across pods", b, res,
            big ? big->node->name : "-");
        fixes_no_device_plugin(x);
        return;
    }
    if (count_stage(x, 3) == 0) {
        e->verdict = V_SELECTOR;
        Strvec names = STRVEC_INIT;
        const char *why = NULL;
        for (size_t i = 0; i < e->nnodes; i++) {
            if (!in_stage(&x->flags[i], 2)) continue;
            strvec_push(&names, e->nodes[i].node->name);
            const NodeReason *r = find_code(&e->nodes[i], NR_NODE_SELECTOR_MISMATCH, NULL);
            if (!r) r = find_code(&e->nodes[i], NR_NODE_AFFINITY_MISMATCH, NULL);
            if (r && !why) why = r->detail;
        }
        Strbuf sb = STRBUF_INIT;
        add_names(&sb, &names);
        e->summary = xasprintf("nodeSelector/affinity excludes every node with room (%s): %s", strbuf_str(&sb),
                               why ? why : "mismatch");
        strbuf_free(&sb);
        strvec_free(&names);
        fixes_selector(x);
        return;
    }
    if (count_stage(x, 4) == 0) {
        e->verdict = V_TAINT;
        Strvec taints = STRVEC_INIT;
        for (size_t i = 0; i < e->nnodes; i++) {
            if (!in_stage(&x->flags[i], 3)) continue;
            for (size_t k = 0; k < e->nodes[i].nreasons; k++) {
                const NodeReason *r = &e->nodes[i].reasons[k];
                if (r->code != NR_UNTOLERATED_TAINT) continue;
                char *t = xasprintf("%s%s%s:%s", r->key, *r->value ? "=" : "", r->value, r->effect);
                if (!strvec_contains(&taints, t)) strvec_push(&taints, t);
                free(t);
            }
        }
        Strbuf sb = STRBUF_INIT;
        add_names(&sb, &taints);
        e->summary = xasprintf("untolerated taint %s on every node that would fit", strbuf_str(&sb));
        strbuf_free(&sb);
        strvec_free(&taints);
        fixes_taint(x);
        fixes_node_state(x, 3);
        return;
    }
    if (count_stage(x, 5) == 0) {
        e->verdict = V_UNSCHEDULABLE;
        Strvec cordoned = STRVEC_INIT, notready = STRVEC_INIT;
        for (size_t i = 0; i < e->nnodes; i++) {
            if (!in_stage(&x->flags[i], 4)) continue;
            if (has_code(&e->nodes[i], NR_UNSCHEDULABLE)) strvec_push(&cordoned, e->nodes[i].node->name);
            if (has_code(&e->nodes[i], NR_NOT_READY)) strvec_push(&notready, e->nodes[i].node->name);
        }
        Strbuf sb = STRBUF_INIT;
        strbuf_adds(&sb, "every node that would fit is ");
        if (cordoned.n) { strbuf_adds(&sb, "cordoned ("); add_names(&sb, &cordoned); strbuf_adds(&sb, ")"); }
        if (cordoned.n && notready.n) strbuf_adds(&sb, " or ");
        if (notready.n) { strbuf_adds(&sb, "NotReady ("); add_names(&sb, &notready); strbuf_adds(&sb, ")"); }
        e->summary = strbuf_detach(&sb);
        strvec_free(&cordoned);
        strvec_free(&notready);
        fixes_node_state(x, 4);
        return;
    }
    /* eligible nodes exist: does one fit now? */
    for (size_t i = 0; i < e->nnodes; i++) {
        if (!in_stage(&x->flags[i], 5) || !x->flags[i].fits) continue;
        e->verdict = V_UNKNOWN;
        const Node *n = e->nodes[i].node;
        if (x->p->nominated_node)
            e->summary = xasprintf("nominated to node %s: waiting for preempted pods to end", x->p->nominated_node);
        else
            e->summary = xasprintf("fits node %s now (%lld %s free); the scheduler has not placed it since",
                                   n->name, (long long)units(free_ix(x->c, x->ix, n, x->p, x->gpu)), x->gpu);
        return;
    }
    /* Fragmented: free GPUs summed over eligible nodes suffice, no single node has enough */
    int64_t sum = 0, best = 0;
    Strvec frees = STRVEC_INIT;
    for (size_t i = 0; i < e->nnodes; i++) {
        if (!in_stage(&x->flags[i], 5)) continue;
        int64_t f = free_ix(x->c, x->ix, e->nodes[i].node, x->p, x->gpu);
        if (f > best) best = f;
        if (f > 0) { sum += f; strvec_pushf(&frees, "%s %lld", e->nodes[i].node->name, (long long)units(f)); }
    }
    Strbuf sb = STRBUF_INIT;
    add_names(&sb, &frees);
    if (best < x->gpu_req && sum >= x->gpu_req) {
        e->verdict = V_FRAGMENTED;
        e->summary = xasprintf("%lld %s free in total (%s) but no node has %lld", (long long)units(sum), x->gpu,
                               strbuf_str(&sb), (long long)units(x->gpu_req));
        fix(e, "split the work into pods of at most %lld %s each (the most one node has free), or free one node as below",
            (long long)units(best), x->gpu);
        fixes_busy(x);
    } else {
        e->verdict = V_INSUFFICIENT;
        /* the GPU, unless some eligible node has the GPUs but lacks something else */
        if (best < x->gpu_req) {
            Strvec holders = STRVEC_INIT;
            for (size_t i = 0; i < e->nnodes; i++) {
                if (!in_stage(&x->flags[i], 5)) continue;
                const NodeReason *r = find_code(&e->nodes[i], NR_INSUFFICIENT, x->gpu);
                for (size_t h = 0; r && h < r->nholders; h++) {
                    char *id = xasprintf("%s/%s", r->holders[h].pod->ns, r->holders[h].pod->name);
                    if (!strvec_contains(&holders, id)) strvec_push(&holders, id);
                    free(id);
                }
            }
            Strbuf hb = STRBUF_INIT;
            add_names(&hb, &holders);
            if (sum > 0)
                e->summary = xasprintf("%s busy: %lld free in total (%s), needs %lld on one node%s%s",
                                       x->gpu, (long long)units(sum), strbuf_str(&sb),
                                       (long long)units(x->gpu_req), holders.n ? "; held by " : "", strbuf_str(&hb));
            else
                e->summary = xasprintf("%s busy: none free on the %zu node(s) that would fit%s%s", x->gpu,
                                       count_stage(x, 5), holders.n ? "; held by " : "", strbuf_str(&hb));
            strbuf_free(&hb);
            strvec_free(&holders);
            fixes_busy(x);
        } else {
            /* nodes with enough GPUs: say what else each one lacks */
            Strbuf why = STRBUF_INIT;
            size_t shown = 0;
            bool pods_limit = false;
            for (size_t i = 0; i < e->nnodes; i++) {
                if (!in_stage(&x->flags[i], 5)) continue;
                const NodeResult *r = &e->nodes[i];
                if (find_code(r, NR_INSUFFICIENT, x->gpu)) continue;
                for (size_t k = 0; k < r->nreasons; k++) {
                    const NodeReason *rr = &r->reasons[k];
                    if (rr->code != NR_INSUFFICIENT && rr->code != NR_TOO_MANY_PODS) continue;
                    if (shown++ < MAX_NAMES) {
                        if (rr->code == NR_TOO_MANY_PODS) {
                            strbuf_addf(&why, "%s%s is at its pod limit", why.len ? "; " : "", r->node->name);
                            pods_limit = true;
                        } else {
                            fmt_amount(rr->resource, rr->requested, a, sizeof a);
                            fmt_amount(rr->resource, rr->free, b, sizeof b);
                            strbuf_addf(&why, "%s%s lacks %s (%s free, %s requested)", why.len ? "; " : "",
                                        r->node->name, rr->resource, b, a);
                            fix(e, "lower the pod's %s request to at most %s, or free %s on node %s",
                                rr->resource, b, rr->resource, r->node->name);
                        }
                    }
                    break;
                }
            }
            e->summary = xasprintf("enough %s, but %s", x->gpu, strbuf_str(&why));
            if (pods_limit) fix(e, "move other pods off a GPU node at its pod limit, or raise the kubelet's maxPods there");
            strbuf_free(&why);
        }
        fixes_resource_name(x, true);
    }
    strbuf_free(&sb);
    strvec_free(&frees);
}

/* ---------------------------------------------------------------- scheduler message */

static const Event *newest_failed_scheduling(const Cluster *c, const Pod *p)
{
    const Event *best = NULL;
    for (size_t i = 0; i < c->nevents; i++) {
        const Event *ev = &c->events[i];
        if (!str_eq(ev->reason, "FailedScheduling")) continue;
        if (ev->involved_kind && !str_eq(ev->involved_kind, "Pod")) continue;
        if (!str_eq(ev->involved_name, p->name) || !str_eq(ev->ns, p->ns)) continue;
        if (ev->involved_uid && p->uid && !str_eq(ev->involved_uid, p->uid)) continue;   /* an older pod of that name */
        if (!best || ev->last_seen > best->last_seen) best = ev;
    }
    return best;
}

static const char *first_gpu_name(const ResourceList *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (resource_is_gpu(l->items[i].name) && l->items[i].milli > 0) return l->items[i].name;
    return "nvidia.com/gpu";
}

typedef struct { char *key; int sim, msg; bool in_msg; } Tally;
typedef struct { Tally *v; size_t n; } Tallies;

static Tally *tally(Tallies *t, const char *key)
{
    for (size_t i = 0; i < t->n; i++) if (strcmp(t->v[i].key, key) == 0) return &t->v[i];
    t->v = xrealloc(t->v, (t->n + 1) * sizeof *t->v);
    t->v[t->n] = (Tally){ xstrdup(key), 0, 0, false };
    return &t->v[t->n++];
}

static const char *tally_label(const char *key, char *buf, size_t n)
{
    if (str_eq(key, "Unschedulable")) return "node(s) were unschedulable";
    if (str_eq(key, "UntoleratedTaint")) return "node(s) had untolerated taint";
    if (str_eq(key, "NodeAffinity")) return "node(s) didn't match Pod's node affinity/selector";
    if (str_eq(key, "TooManyPods")) return "Too many pods";
    if (str_eq(key, "Fit")) return "node(s) fit";
    snprintf(buf, n, "%s", key);   /* "Insufficient <resource>" */
    return buf;
}

/* The recomputation reduced to what the scheduler prints: the first failing filter per node
 * (NodeUnschedulable, TaintToleration, NodeAffinity, NodeResourcesFit — the last lists every
 * insufficient resource), compared per reason with the parsed message. */
static void reconcile(const Cluster *c, Explanation *e)
{
    SchedMessage *m = &e->sched;
    e->agrees = true;
    if (m->kind == SM_EMPTY) return;
    if (m->kind == SM_GATED) {
        if (e->verdict != V_GATED) {
            e->agrees = false;
            strvec_push(&e->disagreements, "the condition says scheduling gates block the pod, but the pod has none now");
        }
        return;
    }
    if (m->kind == SM_NO_NODES) {
        if (c->nnodes) {
            e->agrees = false;
            strvec_pushf(&e->disagreements, "the scheduler saw no nodes; the cluster has %zu now", c->nnodes);
        }
        return;
    }
    if (m->kind != SM_FIT_ERROR) return;

    Tallies t = { NULL, 0 };
    char key[300];
    /* labels of non-GPU nodes are not kept: when the pod has a selector, the scheduler may
     * have stopped such a node at NodeAffinity rather than at NodeResourcesFit */
    const Pod *p = e->pod;
    bool has_selector = p && (p->node_selector.n || p->naffinity_terms);
    int unknown_labels = 0;
    for (size_t i = 0; i < e->nnodes; i++) {
        const NodeResult *r = &e->nodes[i];
        if (has_selector && !node_is_gpu_node(r->node) && !r->node->labels.n &&
            !has_code(r, NR_UNSCHEDULABLE) && !has_code(r, NR_UNTOLERATED_TAINT))
            unknown_labels++;
        if (has_code(r, NR_UNSCHEDULABLE)) { tally(&t, "Unschedulable")->sim++; continue; }
        if (has_code(r, NR_UNTOLERATED_TAINT)) { tally(&t, "UntoleratedTaint")->sim++; continue; }
        if (has_code(r, NR_NODE_SELECTOR_MISMATCH) || has_code(r, NR_NODE_AFFINITY_MISMATCH)) {
            tally(&t, "NodeAffinity")->sim++; continue;
        }
        bool fit_failed = false;
        for (size_t k = 0; k < r->nreasons; k++) {
            const NodeReason *x = &r->reasons[k];
            if (x->code == NR_TOO_MANY_PODS) { tally(&t, "TooManyPods")->sim++; fit_failed = true; }
            else if (x->code >= NR_NO_DEVICE_PLUGIN) {
                snprintf(key, sizeof key, "Insufficient %s", x->resource);
                tally(&t, key)->sim++;
                fit_failed = true;
            }
        }
        if (!fit_failed) tally(&t, "Fit")->sim++;   /* includes NotReady nodes without a taint */
    }
    int other = 0;
    Strvec other_text = STRVEC_INIT;
    for (size_t i = 0; i < m->filter.nreasons; i++) {
        const SchedReason *r = &m->filter.reasons[i];
        if (r->truncated) continue;
        const char *k = NULL;
        switch (r->code) {
        case SC_UNSCHEDULABLE: k = "Unschedulable"; break;
        case SC_UNTOLERATED_TAINT: k = "UntoleratedTaint"; break;
        case SC_NODE_SELECTOR_MISMATCH: case SC_NODE_AFFINITY_MISMATCH: k = "NodeAffinity"; break;
        case SC_TOO_MANY_PODS: k = "TooManyPods"; break;
        case SC_INSUFFICIENT:
            if (r->resource) { snprintf(key, sizeof key, "Insufficient %s", r->resource); k = key; }
            break;
        case SC_PREFILTER_EXCLUDED:
            for (size_t j = 0; j < r->nplugins; j++) if (str_eq(r->plugins[j], "NodeAffinity")) k = "NodeAffinity";
            break;
        default: break;
        }
        if (k && r->count >= 0) {
            Tally *x = tally(&t, k);
            x->msg += r->count;
            x->in_msg = true;
        } else {
            if (r->count > 0) other += r->count;
            strvec_push(&other_text, r->text);
        }
    }
    for (size_t i = 0; i < other_text.n; i++)
        strvec_pushf(&e->notes, "the scheduler also reports \"%s\" (not a GPU filter; not recomputed)", other_text.v[i]);
    strvec_free(&other_text);
    if (m->postfilter_other) strvec_pushf(&e->notes, "scheduler PostFilter: %s", m->postfilter_other);
    if (m->has_preemption && m->preemption.nreasons == 0 && m->preemption_text)
        strvec_pushf(&e->notes, "preemption: %s", m->preemption_text);

    if (unknown_labels) {
        Tally *aff = tally(&t, "NodeAffinity");
        int shift = aff->msg - aff->sim;
        if (shift > unknown_labels) shift = unknown_labels;
        snprintf(key, sizeof key, "Insufficient %s", first_gpu_name(&p->requests));
        Tally *ins = tally(&t, key);
        if (shift > ins->sim) shift = ins->sim;
        if (shift > 0) { aff->sim += shift; ins->sim -= shift; }
    }
    if (m->filter.total >= 0 && (size_t)m->filter.total != c->nnodes) {
        e->agrees = false;
        strvec_pushf(&e->disagreements, "the scheduler counted %d node(s); the cluster has %zu now",
                     m->filter.total, c->nnodes);
    }
    char lb[320];
    for (size_t i = 0; i < t.n; i++) {
        Tally *x = &t.v[i];
        if (str_eq(x->key, "Fit")) {
            int unexplained = x->sim - other;
            if (unexplained > 0) {
                e->agrees = false;
                strvec_pushf(&e->disagreements, "the scheduler found no node for the pod; recomputed now, %d node(s) pass "
                             "the GPU filters", x->sim);
            }
            continue;
        }
        if (m->truncated && !x->in_msg) continue;   /* the cut part may hold it */
        if (x->sim != x->msg) {
            e->agrees = false;
            strvec_pushf(&e->disagreements, "scheduler: %d %s; recomputed now: %d", x->msg,
                         tally_label(x->key, lb, sizeof lb), x->sim);
        }
    }
    for (size_t i = 0; i < t.n; i++) free(t.v[i].key);
    free(t.v);
}

/* ---------------------------------------------------------------- explain_pod */

static void set_scheduler_message(const Cluster *c, const Pod *p, Explanation *e)
{
    const Event *ev = newest_failed_scheduling(c, p);
    const char *cond = p->scheduled.present && !p->scheduled.status_true ? p->scheduled.message : NULL;
    if (cond && *cond) {
        e->sched_text = xstrdup(cond);
        e->sched_source = "PodScheduled condition";
        if (ev && ev->message && !str_eq(ev->message, cond)) e->event_text = xstrdup(ev->message);
    } else if (ev && ev->message && *ev->message) {
        e->sched_text = xstrdup(ev->message);
        e->sched_source = "FailedScheduling event";
    }
    schedmsg_parse(e->sched_text, &e->sched);
}

static const char *first_gpu(const ResourceList *l, int64_t *milli)
{
    for (size_t i = 0; i < l->n; i++)
        if (resource_is_gpu(l->items[i].name) && l->items[i].milli > 0) { *milli = l->items[i].milli; return l->items[i].name; }
    *milli = 0;
    return NULL;
}

static void explain_pod_ix(const Cluster *c, const PodIndex *ix, const Pod *p, Explanation *e)
{
    memset(e, 0, sizeof *e);
    e->ns = xstrdup(p->ns);
    e->name = xstrdup(p->name);
    e->created = true;
    e->owner_kind = xstrdup(p->owner_kind);
    e->owner_name = xstrdup(p->owner_name);
    e->pod = p;
    rlist_copy(&e->requests, &p->requests);
    rlist_sort(&e->requests);
    e->age = p->creation > 0 && c->now >= p->creation ? c->now - p->creation : -1;
    e->agrees = true;
    set_scheduler_message(c, p, e);

    if (p->node_name || p->phase != PHASE_PENDING) {
        e->verdict = V_UNKNOWN;
        e->summary = p->node_name ? xasprintf("%s on node %s; nothing to explain", pod_phase_name(p->phase), p->node_name)
                                  : xasprintf("%s; nothing to explain", pod_phase_name(p->phase));
        return;
    }
    e->nnodes = c->nnodes;
    e->nodes = c->nnodes ? xcalloc(c->nnodes, sizeof *e->nodes) : NULL;
    for (size_t i = 0; i < c->nnodes; i++) explain_node_ix(c, ix, p, &c->nodes[i], &e->nodes[i]);

    Ctx x = { c, ix, p, e, NULL, NULL, 0 };
    x.gpu = first_gpu(&p->requests, &x.gpu_req);
    if (!x.gpu) { x.gpu = "nvidia.com/gpu"; x.gpu_req = 0; }
    x.flags = e->nnodes ? xcalloc(e->nnodes, sizeof *x.flags) : NULL;
    for (size_t i = 0; i < e->nnodes; i++) x.flags[i] = node_flags(p, &e->nodes[i]);

    if (p->scheduling_gates.n) {
        e->verdict = V_GATED;
        Strbuf sb = STRBUF_INIT;
        add_names(&sb, &p->scheduling_gates);
        e->summary = xasprintf("scheduling gates: %s", strbuf_str(&sb));
        strbuf_free(&sb);
        bool kueue = false;
        for (size_t i = 0; i < p->scheduling_gates.n; i++) kueue |= strstr(p->scheduling_gates.v[i], "kueue") != NULL;
        if (kueue)
            fix(e, "the gate belongs to Kueue: the workload waits for admission in its queue (kubectl get workloads -n %s)", p->ns);
        fix(e, "the controller that added the gates removes them when it admits the pod; to release it by hand:\n"
               "  kubectl patch pod %s -n %s --type json -p '[{\"op\":\"remove\",\"path\":\"/spec/schedulingGates\"}]'",
            p->name, p->ns);
    } else if (c->nnodes == 0) {
        e->verdict = V_UNKNOWN;
        e->summary = xstrdup("the cluster has no nodes");
    } else {
        decide(&x);
    }
    if (!e->sched_text && !str_eq(p->scheduler_name, "default-scheduler") && e->verdict == V_UNKNOWN) {
        free(e->summary);
        e->summary = xasprintf("spec.schedulerName is %s and no scheduler has reported on the pod: is it running?",
                               p->scheduler_name);
    }
    if (e->verdict != V_GATED) reconcile(c, e);
    if (e->verdict == V_UNKNOWN && e->sched.kind == SM_FIT_ERROR && !p->nominated_node) {
        /* GPU filters pass: the scheduler's own non-GPU reason is the best explanation */
        for (size_t i = 0; i < e->sched.filter.nreasons; i++) {
            const SchedReason *r = &e->sched.filter.reasons[i];
            if (r->code <= SC_TOO_MANY_PODS || r->code == SC_PREFILTER_EXCLUDED) continue;
            free(e->summary);
            e->summary = xasprintf("GPU filters pass; the scheduler says: %s", r->text);
            break;
        }
    }
    if (p->nominated_node && e->verdict != V_UNKNOWN)
        strvec_pushf(&e->notes, "nominated to node %s: preemption is under way", p->nominated_node);
    if (e->event_text)
        strvec_push(&e->notes, "the newest FailedScheduling event differs from the PodScheduled condition "
                               "(an event series keeps its first message); the condition is newer");
    /* siblings rejected by quota */
    for (size_t i = 0; p->owner_name && i < c->nevents; i++) {
        const Event *ev = &c->events[i];
        if (str_eq(ev->reason, "FailedCreate") && str_eq(ev->ns, p->ns) && str_eq(ev->involved_name, p->owner_name) &&
            str_eq(ev->involved_kind, p->owner_kind)) {
            strvec_pushf(&e->notes, "%s %s could not create further pods: %s", p->owner_kind, p->owner_name, ev->message);
            break;
        }
    }
    free(x.flags);
}

void explain_pod(const Cluster *c, const Pod *p, Explanation *e)
{
    PodIndex ix;
    pod_index_build(c, &ix);
    explain_pod_ix(c, &ix, p, e);
    pod_index_free(&ix);
}

/* ---------------------------------------------------------------- never-created pods (quota) */

/* "requests.nvidia.com/gpu=2,requests.cpu=4" up to end (exclusive) */
static void parse_quota_list(const char *s, const char *end, ResourceList *out)
{
    while (s < end) {
        const char *comma = memchr(s, ',', (size_t)(end - s));
        const char *stop = comma ? comma : end;
        const char *eq = memchr(s, '=', (size_t)(stop - s));
        if (eq) {
            char *name = xstrndup(s, (size_t)(eq - s)), *val = xstrndup(eq + 1, (size_t)(stop - eq - 1));
            int64_t milli;
            if (quantity_parse(val, &milli)) rlist_set(out, name, milli);
            free(name); free(val);
        }
        s = comma ? comma + 1 : end;
    }
}

typedef struct { char *quota; ResourceList requested, used, limited; } QuotaError;

static bool parse_quota_error(const char *msg, QuotaError *q)
{
    memset(q, 0, sizeof *q);
    const char *p = strstr(msg, "exceeded quota: ");
    if (!p) return false;
    p += strlen("exceeded quota: ");
    const char *r = strstr(p, ", requested: "), *u = r ? strstr(r, ", used: ") : NULL,
               *l = u ? strstr(u, ", limited: ") : NULL;
    if (!r || !u || !l) { q->quota = xstrndup(p, strcspn(p, ",")); return true; }
    q->quota = xstrndup(p, (size_t)(r - p));
    parse_quota_list(r + strlen(", requested: "), u, &q->requested);
    parse_quota_list(u + strlen(", used: "), l, &q->used);
    const char *ls = l + strlen(", limited: ");
    size_t n = strcspn(ls, " \n");
    parse_quota_list(ls, ls + n, &q->limited);
    return true;
}

static void quota_error_free(QuotaError *q)
{
    free(q->quota);
    rlist_free(&q->requested); rlist_free(&q->used); rlist_free(&q->limited);
}

static void explain_never_created(const Cluster *c, const Event *ev, Explanation *e)
{
    memset(e, 0, sizeof *e);
    e->ns = xstrdup(ev->ns);
    e->name = xstrdup(ev->involved_name);
    e->created = false;
    e->owner_kind = xstrdup(ev->involved_kind);
    e->owner_name = xstrdup(ev->involved_name);
    e->age = ev->last_seen > 0 && c->now >= ev->last_seen ? c->now - ev->last_seen : -1;
    e->agrees = true;
    e->verdict = V_QUOTA;
    e->sched_text = NULL;
    schedmsg_parse(NULL, &e->sched);
    QuotaError q;
    parse_quota_error(ev->message, &q);
    for (size_t i = 0; i < q.requested.n; i++) {
        const char *name = q.requested.items[i].name;
        const char *res = str_starts_with(name, "requests.") ? name + 9 : name;
        rlist_set(&e->requests, res, q.requested.items[i].milli);
    }
    rlist_sort(&e->requests);
    Strbuf sb = STRBUF_INIT;
    strbuf_addf(&sb, "%s %s cannot create pods: exceeded quota %s", ev->involved_kind ? ev->involved_kind : "owner",
                ev->involved_name, q.quota ? q.quota : "?");
    for (size_t i = 0; i < q.requested.n; i++) {
        const char *name = q.requested.items[i].name;
        char a[48], b[48], d[48];
        const char *res = str_starts_with(name, "requests.") ? name + 9 : name;
        fmt_amount(res, q.requested.items[i].milli, a, sizeof a);
        fmt_amount(res, rlist_get(&q.used, name), b, sizeof b);
        fmt_amount(res, rlist_get(&q.limited, name), d, sizeof d);
        strbuf_addf(&sb, "%s %s requested %s, used %s of %s", i ? ";" : ":", name, a, b, d);
        /* the Quota object, when loaded, has the fresher usage */
        int64_t used = rlist_get(&q.used, name);
        for (size_t k = 0; k < c->nquotas; k++)
            if (str_eq(c->quotas[k].ns, ev->ns) && str_eq(c->quotas[k].name, q.quota) && rlist_has(&c->quotas[k].used, name))
                used = rlist_get(&c->quotas[k].used, name);
        char hard[48];
        fmt_amount(res, used + q.requested.items[i].milli, hard, sizeof hard);
        fix(e, "raise the quota to at least %s (used %s + requested %s):\n"
               "  kubectl patch resourcequota %s -n %s --type merge -p '{\"spec\":{\"hard\":{\"%s\":\"%s\"}}}'",
            hard, b, a, q.quota, ev->ns, name, hard);
    }
    fix(e, "or lower what %s %s asks for (replicas or per-pod %s), or free quota by ending other pods in %s",
        ev->involved_kind ? ev->involved_kind : "the owner", ev->involved_name, q.requested.n ? "requests" : "resources", ev->ns);
    e->summary = strbuf_detach(&sb);
    strvec_pushf(&e->notes, "%s (x%d): %s", ev->reason, ev->count, ev->message);
    quota_error_free(&q);
}

/* ---------------------------------------------------------------- lists */

static void list_push(ExplanationList *l, Explanation *e)
{
    ARRAY_GROW(l->items, l->n, l->cap);
    l->items[l->n++] = *e;
}

/* what explain_pending lists, before it is explained: a pending pod or a quota event */
typedef struct { const char *ns, *name; bool created; size_t idx; } PendingEntry;

static int cmp_entry(const void *a, const void *b)
{
    const PendingEntry *x = a, *y = b;
    int c = strcmp(x->ns, y->ns);
    if (c) return c;
    c = strcmp(x->name, y->name);
    return c ? c : (int)x->created - (int)y->created;
}

/* one entry per owner: its newest FailedCreate "exceeded quota" event asking for a GPU */
static bool quota_entry(const Cluster *c, const char *ns, size_t i)
{
    const Event *ev = &c->events[i];
    if (!str_eq(ev->reason, "FailedCreate") || !ev->message || !strstr(ev->message, "exceeded quota")) return false;
    if (!ev->involved_name || (ns && !str_eq(ev->ns, ns))) return false;
    for (size_t k = 0; k < c->nevents; k++) {
        const Event *o = &c->events[k];
        if (k == i || !str_eq(o->reason, "FailedCreate") || !str_eq(o->ns, ev->ns) ||
            !str_eq(o->involved_name, ev->involved_name) || !str_eq(o->involved_kind, ev->involved_kind))
            continue;
        if (o->last_seen > ev->last_seen || (o->last_seen == ev->last_seen && k < i)) return false;
    }
    /* only GPU quota matters here */
    QuotaError q;
    parse_quota_error(ev->message, &q);
    bool gpu = false;
    for (size_t k = 0; k < q.requested.n; k++) {
        const char *name = q.requested.items[k].name;
        gpu |= resource_is_gpu(str_starts_with(name, "requests.") ? name + 9 : name);
    }
    quota_error_free(&q);
    return gpu;
}

void explain_pending_each(const Cluster *c, const char *ns, ExplanationFn fn, void *ctx)
{
    PendingEntry *v = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < c->npods; i++) {
        const Pod *p = &c->pods[i];
        if (!pod_is_pending_unbound(p) || !pod_requests_gpu(p)) continue;
        if (ns && !str_eq(p->ns, ns)) continue;
        ARRAY_GROW(v, n, cap);
        v[n++] = (PendingEntry){ p->ns, p->name, true, i };
    }
    for (size_t i = 0; i < c->nevents; i++) {
        if (!quota_entry(c, ns, i)) continue;
        ARRAY_GROW(v, n, cap);
        v[n++] = (PendingEntry){ c->events[i].ns, c->events[i].involved_name, false, i };
    }
    if (n > 1) qsort(v, n, sizeof *v, cmp_entry);
    PodIndex ix;
    pod_index_build(c, &ix);
    int stop = 0;
    for (size_t i = 0; i < n && !stop; i++) {
        Explanation e;
        if (v[i].created) explain_pod_ix(c, &ix, &c->pods[v[i].idx], &e);
        else explain_never_created(c, &c->events[v[i].idx], &e);
        stop = fn(ctx, &e);
        explanation_free(&e);
    }
    pod_index_free(&ix);
    free(v);
}

static int push_explanation(void *ctx, Explanation *e)
{
    list_push(ctx, e);
    memset(e, 0, sizeof *e);             /* the list owns it now */
    return 0;
}

void explain_pending(const Cluster *c, const char *ns, ExplanationList *out)
{
    memset(out, 0, sizeof *out);
    explain_pending_each(c, ns, push_explanation, out);
}

void explanation_free(Explanation *e)
{
    free(e->ns); free(e->name); free(e->owner_kind); free(e->owner_name);
    rlist_free(&e->requests);
    free(e->summary); free(e->sched_text); free(e->event_text);
    schedmsg_free(&e->sched);
    strvec_free(&e->disagreements);
    for (size_t i = 0; i < e->nnodes; i++) node_result_free(&e->nodes[i]);
    free(e->nodes);
    strvec_free(&e->fixes);
    strvec_free(&e->notes);
    memset(e, 0, sizeof *e);
}

void explanation_list_free(ExplanationList *l)
{
    for (size_t i = 0; i < l->n; i++) explanation_free(&l->items[i]);
    free(l->items);
    memset(l, 0, sizeof *l);
}

/* ---------------------------------------------------------------- JSON */

char *explanation_gpus(const Explanation *e)
{
    Strbuf sb = STRBUF_INIT;
    for (size_t i = 0; i < e->requests.n; i++) {
        const ResourceEntry *r = &e->requests.items[i];
        if (!resource_is_gpu(r->name) || r->milli <= 0) continue;
        strbuf_addf(&sb, "%s%s:%lld", sb.len ? "," : "", r->name, (long long)units(r->milli));
    }
    if (!sb.len) strbuf_adds(&sb, "-");
    return strbuf_detach(&sb);
}

static cJSON *strvec_json(const Strvec *v)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < v->n; i++) cJSON_AddItemToArray(a, cJSON_CreateString(v->v[i]));
    return a;
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
        cJSON_AddStringToObject(o, "code", sched_code_name(r->code));
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

cJSON *explanation_to_json(const Explanation *e, bool with_kind)
{
    cJSON *o = cJSON_CreateObject();
    if (with_kind) cJSON_AddStringToObject(o, "kind", "GPUExplanation");
    cJSON_AddStringToObject(o, "namespace", e->ns);
    cJSON_AddStringToObject(o, "name", e->name);
    cJSON_AddBoolToObject(o, "created", e->created);
    if (e->owner_kind && e->owner_name) {
        cJSON *ow = cJSON_AddObjectToObject(o, "owner");
        cJSON_AddStringToObject(ow, "kind", e->owner_kind);
        cJSON_AddStringToObject(ow, "name", e->owner_name);
    }
    if (e->pod) {
        cJSON_AddStringToObject(o, "phase", pod_phase_name(e->pod->phase));
        cJSON_AddNumberToObject(o, "priority", e->pod->priority);
        if (e->pod->nominated_node) cJSON_AddStringToObject(o, "nominatedNode", e->pod->nominated_node);
    }
    if (e->age >= 0) cJSON_AddNumberToObject(o, "ageSeconds", (double)e->age);
    cJSON *req = cJSON_AddObjectToObject(o, "requests");
    for (size_t i = 0; i < e->requests.n; i++)
        if (resource_is_gpu(e->requests.items[i].name) && e->requests.items[i].milli > 0)
            cJSON_AddNumberToObject(req, e->requests.items[i].name, (double)units(e->requests.items[i].milli));
    cJSON_AddStringToObject(o, "verdict", verdict_name(e->verdict));
    cJSON_AddStringToObject(o, "reason", e->summary ? e->summary : "");
    if (e->sched_text) cJSON_AddStringToObject(o, "schedulerMessage", e->sched_text);
    else cJSON_AddNullToObject(o, "schedulerMessage");
    if (e->sched_source) cJSON_AddStringToObject(o, "schedulerMessageSource", e->sched_source);
    if (e->event_text) cJSON_AddStringToObject(o, "eventMessage", e->event_text);
    if (e->sched.kind != SM_EMPTY) cJSON_AddItemToObject(o, "scheduler", sched_json(&e->sched));
    cJSON_AddBoolToObject(o, "agreesWithScheduler", e->agrees);
    cJSON_AddItemToObject(o, "disagreements", strvec_json(&e->disagreements));
    cJSON *nodes = cJSON_AddArrayToObject(o, "nodes");
    for (size_t i = 0; i < e->nnodes; i++) {
        cJSON *n = cJSON_CreateObject();
        cJSON_AddStringToObject(n, "name", e->nodes[i].node->name);
        cJSON *rs = cJSON_AddArrayToObject(n, "reasons");
        for (size_t k = 0; k < e->nodes[i].nreasons; k++) cJSON_AddItemToArray(rs, node_reason_json(&e->nodes[i].reasons[k]));
        cJSON_AddItemToArray(nodes, n);
    }
    cJSON_AddItemToObject(o, "fixes", strvec_json(&e->fixes));
    cJSON_AddItemToObject(o, "notes", strvec_json(&e->notes));
    return o;
}

/* ---------------------------------------------------------------- node groups for display */

size_t explain_group_nodes(const Explanation *e, ReasonGroup **out)
{
    ReasonGroup *g = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < e->nnodes; i++) {
        const NodeResult *r = &e->nodes[i];
        Strbuf sb = STRBUF_INIT;
        for (size_t k = 0; k < r->nreasons; k++) {
            char *d = node_reason_describe(&r->reasons[k]);
            strbuf_addf(&sb, "%s%s", k ? "; " : "", d);
            free(d);
        }
        if (!r->nreasons) strbuf_adds(&sb, "fits now");
        size_t j = 0;
        while (j < n && strcmp(g[j].reasons, strbuf_str(&sb)) != 0) j++;
        if (j == n) {
            ARRAY_GROW(g, n, cap);
            g[n++] = (ReasonGroup){ strbuf_detach(&sb), STRVEC_INIT, r->nreasons == 0 };
        }
        strvec_push(&g[j].nodes, r->node->name);
        strbuf_free(&sb);
    }
    *out = g;
    return n;
}

void reason_groups_free(ReasonGroup *g, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(g[i].reasons);
        strvec_free(&g[i].nodes);
    }
    free(g);
}

/* explain_filters.c — the pod-vs-node predicates the scheduler's filters apply (tolerations,
 * nodeSelector, required node affinity), names of verdicts and reasons, amounts, and the
 * one-line description of a node reason.  Pure functions of a Pod and a Node.
 */
#include "explain_int.h"
#include "model/quantity.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const verdict_names[] = {
    [V_INSUFFICIENT] = "Insufficient", [V_FRAGMENTED] = "Fragmented", [V_TAINT] = "Taint",
    [V_SELECTOR] = "Selector", [V_RESOURCE_NAME] = "ResourceName",
    [V_NO_DEVICE_PLUGIN] = "NoDevicePlugin", [V_TOO_LARGE] = "TooLarge", [V_QUOTA] = "Quota",
    [V_GATED] = "Gated", [V_UNSCHEDULABLE] = "Unschedulable", [V_UNKNOWN] = "Unknown",
    [V_NOT_READY] = "NotReady",
    [V_QUEUED] = "Queued", [V_QUEUE_QUOTA] = "QueueQuota", [V_QUEUE_INACTIVE] = "QueueInactive", [V_GANG] = "Gang",
};
const char *verdict_name(Verdict v) { return (size_t)v <= V_GANG ? verdict_names[v] : "Unknown"; }

bool verdict_never_by_nodes(Verdict v)
{
    switch (v) {
    case V_TAINT: case V_SELECTOR: case V_RESOURCE_NAME: case V_NO_DEVICE_PLUGIN: case V_TOO_LARGE:
    case V_UNSCHEDULABLE: case V_NOT_READY:
        return true;
    default:
        return false;
    }
}

static const char *const reason_names[] = {
    [NR_UNSCHEDULABLE] = "Unschedulable", [NR_NOT_READY] = "NotReady",
    [NR_UNTOLERATED_TAINT] = "UntoleratedTaint", [NR_NODE_SELECTOR_MISMATCH] = "NodeSelectorMismatch",
    [NR_NODE_AFFINITY_MISMATCH] = "NodeAffinityMismatch", [NR_TOO_MANY_PODS] = "TooManyPods",
    [NR_NO_DEVICE_PLUGIN] = "NoDevicePlugin", [NR_RESOURCE_NOT_ADVERTISED] = "ResourceNotAdvertised",
    [NR_EXCEEDS_NODE_CAPACITY] = "ExceedsNodeCapacity", [NR_INSUFFICIENT] = "Insufficient",
    [NR_NO_MATCHING_DEVICE] = "NoMatchingDevice", [NR_CLAIM_ELSEWHERE] = "ClaimAllocatedElsewhere",
};
const char *node_reason_code_name(NodeReasonCode c)
{
    return (size_t)c <= NR_CLAIM_ELSEWHERE ? reason_names[c] : "Unknown";
}

const char *fix_effort_name(FixEffort f)
{
    switch (f) {
    case EFFORT_NONE: return "none";
    case EFFORT_POD: return "pod";
    case EFFORT_END_PODS: return "endPods";
    case EFFORT_CLUSTER: return "cluster";
    }
    return "cluster";
}

/* ---------------------------------------------------------------- amounts */

bool explain_is_bytes_resource(const char *res)
{
    return str_eq(res, "memory") || str_eq(res, "ephemeral-storage") || str_starts_with(res, "hugepages-");
}

/* human amount: "4", "500m" (cpu), "16384Mi" (bytes) */
void explain_fmt_amount(const char *res, int64_t milli, char *buf, size_t n)
{
    if (milli < 0) milli = 0;
    if (explain_is_bytes_resource(res)) snprintf(buf, n, "%lldMi", (long long)quantity_to_mib(milli));
    else if (str_eq(res, "cpu")) quantity_format(milli, buf, n);
    else snprintf(buf, n, "%lld", (long long)quantity_units_ceil(milli));
}

int64_t explain_milli_units(int64_t milli) { return milli <= 0 ? 0 : quantity_units_ceil(milli); }

/* "a, b, c +4 more" */
void explain_add_names(Strbuf *sb, const Strvec *names)
{
    for (size_t i = 0; i < names->n && i < MAX_NAMES; i++)
        strbuf_addf(sb, "%s%s", i ? ", " : "", names->v[i]);
    if (names->n > MAX_NAMES) strbuf_addf(sb, " +%zu more", names->n - MAX_NAMES);
}

/* ---------------------------------------------------------------- filters */

bool explain_toleration_tolerates(const Toleration *t, const Taint *taint)
{
    /* v1.Toleration.ToleratesTaint: effect and key, when set, must equal; an empty key with
     * Exists tolerates every taint; Equal (or no operator) compares values */
    if (t->effect && *t->effect && !str_eq(t->effect, taint->effect)) return false;
    if (t->key && *t->key && !str_eq(t->key, taint->key)) return false;
    if (!t->op || !*t->op || str_eq(t->op, "Equal"))
        return str_eq(t->value ? t->value : "", taint->value ? taint->value : "");
    return str_eq(t->op, "Exists");
}

bool explain_pod_tolerates_taint(const Pod *p, const Taint *taint)
{
    const PodMore *m = pod_more(p);
    for (size_t i = 0; i < m->ntolerations; i++)
        if (explain_toleration_tolerates(&m->tolerations[i], taint)) return true;
    return false;
}

bool explain_node_selector_matches(const Pod *p, const Node *n, char **why)
{
    const KVList *sel = &pod_more(p)->node_selector;
    for (size_t i = 0; i < sel->n; i++) {
        const KV *kv = &sel->items[i];
        const char *have = kv_get(&n->labels, kv->key);
        if (str_eq(have, kv->value)) continue;
        if (why) {
            /* a near miss: the only entry that differs, and how (value, or the label missing) */
            size_t differ = 0;
            for (size_t j = 0; j < sel->n; j++)
                differ += !str_eq(kv_get(&n->labels, sel->items[j].key), sel->items[j].value);
            const char *only = differ == 1 && sel->n > 1 ? " (the only entry that differs)" : "";
            *why = have ? xasprintf("nodeSelector %s=%s: node has %s=%s%s", kv->key, kv->value, kv->key, have, only)
                        : xasprintf("nodeSelector %s=%s: node has no label %s%s", kv->key, kv->value, kv->key, only);
        }
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
    kv_clear(&fields);
    return bad;
}

bool explain_node_affinity_matches(const Pod *p, const Node *n, char **why)
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
            /* a near miss: the term's only requirement the node fails */
            size_t fails = 0, all = t->match_expressions.n + t->match_fields.n;
            for (size_t k = 0; k < t->match_expressions.n; k++)
                fails += !selreq_matches(&t->match_expressions.reqs[k], &n->labels);
            if (t->match_fields.n) {
                KVList fields = KVLIST_INIT;
                kv_set(&fields, "metadata.name", n->name);
                for (size_t k = 0; k < t->match_fields.n; k++) fails += !selreq_matches(&t->match_fields.reqs[k], &fields);
                kv_clear(&fields);
            }
            const char *only = fails == 1 && all > 1 ? ", the only requirement of the term that differs" : "";
            first = have ? xasprintf("%s %s (node has %s%s)", is_field ? "matchFields" : "node affinity", req, have, only)
                         : xasprintf("%s %s (node has no label %s%s)", is_field ? "matchFields" : "node affinity",
                                     req, bad->key, only);
            free(req);
        }
    }
    if (why) {
        *why = p->naffinity_terms > 1 ? xasprintf("none of %zu node affinity terms match; term 1: %s",
                                                  (size_t)p->naffinity_terms, first) : xstrdup(first);
    }
    free(first);
    return false;
}

bool explain_pod_admits(const Pod *p, const Node *n)
{
    for (size_t i = 0; i < n->ntaints; i++) {
        const Taint *t = &n->taints[i];
        if (!str_eq(t->effect, "NoSchedule") && !str_eq(t->effect, "NoExecute")) continue;
        if (str_starts_with(t->key, "node.kubernetes.io/")) continue;      /* node state */
        if (!explain_pod_tolerates_taint(p, t)) return false;
    }
    /* called per pod and node (plan's moves): the selector's entries read here, without the
     * near-miss words explain_node_selector_matches makes */
    const KVList *sel = &pod_more(p)->node_selector;
    for (size_t i = 0; i < sel->n; i++)
        if (!str_eq(kv_get(&n->labels, sel->items[i].key), sel->items[i].value)) return false;
    return explain_node_affinity_matches(p, n, NULL);
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
        if (x->detail) strbuf_addf(&sb, " (near miss: %s)", x->detail);
        break;
    case NR_NODE_SELECTOR_MISMATCH: case NR_NODE_AFFINITY_MISMATCH:
        strbuf_adds(&sb, x->detail ? x->detail : node_reason_code_name(x->code));
        break;
    case NR_TOO_MANY_PODS:
        strbuf_addf(&sb, "too many pods (%lld of %lld)", (long long)explain_milli_units(x->allocatable - x->free),
                    (long long)explain_milli_units(x->allocatable));
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
        explain_fmt_amount(x->resource, x->requested, a, sizeof a);
        explain_fmt_amount(x->resource, x->allocatable, b, sizeof b);
        strbuf_addf(&sb, "%s %s exceeds the node's allocatable %s", x->resource, a, b);
        break;
    case NR_INSUFFICIENT:
        explain_fmt_amount(x->resource, x->requested, a, sizeof a);
        explain_fmt_amount(x->resource, x->free, b, sizeof b);
        explain_fmt_amount(x->resource, x->allocatable, c, sizeof c);
        strbuf_addf(&sb, "Insufficient %s: requested %s, free %s of %s", x->resource, a, b, c);
        if (x->nholders) {
            strbuf_adds(&sb, " (held by ");
            for (size_t i = 0; i < x->nholders && i < MAX_NAMES; i++) {
                explain_fmt_amount(x->resource, x->holders[i].milli, a, sizeof a);
                strbuf_addf(&sb, "%s%s/%s %s%s", i ? ", " : "", x->holders[i].pod->ns, x->holders[i].pod->name, a,
                            x->holders[i].nominated ? " nominated" : "");
            }
            if (x->nholders > MAX_NAMES) strbuf_addf(&sb, " +%zu more", (size_t)x->nholders - MAX_NAMES);
            strbuf_addch(&sb, ')');
        }
        break;
    case NR_NO_MATCHING_DEVICE: case NR_CLAIM_ELSEWHERE:   /* DRA (explain_dra.c) */
        strbuf_adds(&sb, x->detail ? x->detail : node_reason_code_name(x->code));
        break;
    }
    return strbuf_detach(&sb);
}

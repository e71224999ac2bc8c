/* explain_queue_flavor.c — Kueue's flavors: whether a ResourceFlavor admits a Workload's pod
 * sets, and a ClusterQueue's room on a flavor (explain_queue.h's arithmetic). */
#include "explain_queue_int.h"

/* the part of the nominal quota never lent to the cohort: nominal - lendingLimit (none without a
 * lendingLimit: all of it may be lent) (kueue pkg/cache/scheduler/resource_node.go localQuota) */
static int64_t guaranteed(const QueueQuota *qq)
{
    return qq->lending_limit >= 0 && qq->lending_limit < qq->nominal ? qq->nominal - qq->lending_limit : 0;
}

/* the room of flavor/res for ClusterQueue d: the most it may ever use and what it may use now
 * (explain_queue.h's formulas) */
FlavorRoom explain_queue_flavor_room(const QueueState *q, const QueueDef *d, const QueueQuota *own, int64_t bl_override)
{
    int64_t bl = bl_override != -2 ? bl_override : own->borrowing_limit;
    FlavorRoom r;
    if (!d->cohort) {
        r.max = own->nominal;
        r.available = own->nominal > own->used ? own->nominal - own->used : 0;
        return r;
    }
    /* the cohort's quota: what each ClusterQueue stores in it (its nominal past the guaranteed
     * part), and the usage past each one's guaranteed part */
    int64_t stored = 0, used = 0;
    for (size_t i = 0; i < q->ndefs; i++) {
        const QueueDef *o = &q->defs[i];
        if (o->system != QSYS_KUEUE || !str_eq(o->cohort, d->cohort)) continue;
        const QueueQuota *oq = queue_def_quota(o, own->flavor, own->resource);
        if (!oq) continue;
        int64_t olq = guaranteed(oq);
        stored += oq->nominal - olq;
        used += oq->used > olq ? oq->used - olq : 0;
    }
    int64_t lq = guaranteed(own);
    int64_t parent = stored - used;
    if (bl >= 0) {
        int64_t in_parent = own->used > lq ? own->used - lq : 0;
        int64_t with_max = (own->nominal - lq) - in_parent + bl;
        if (with_max < parent) parent = with_max;
    }
    r.available = (lq > own->used ? lq - own->used : 0) + parent;
    if (r.available < 0) r.available = 0;
    r.max = lq + stored;
    if (bl >= 0 && own->nominal + bl < r.max) r.max = own->nominal + bl;
    return r;
}

/* a required node-affinity term of the template, cut to the requirements on the flavor's label
 * keys, matches the flavor's nodeLabels; *empty when none of its requirements is on those keys */
static bool term_matches_flavor(const NodeSelectorTerm *t, const QueueFlavor *f, bool *empty)
{
    bool match = true;
    *empty = true;
    for (size_t i = 0; i < t->match_expressions.n; i++) {
        const SelReq *r = &t->match_expressions.reqs[i];
        if (!kv_get(&f->node_labels, r->key)) continue;
        *empty = false;
        match = match && selreq_matches(r, &f->node_labels);
    }
    return match;
}

/* Whether ResourceFlavor `flavor` admits every pod set, as Kueue's flavor assigner checks it
 * (kueue pkg/scheduler/flavorassigner/flavorassigner.go checkFlavorForPodSets, flavorSelector):
 *   - each NoSchedule/NoExecute taint of spec.nodeTaints is tolerated by the template's
 *     tolerations or the flavor's own spec.tolerations;
 *   - the template's nodeSelector and required node affinity, cut to the keys of the flavor's
 *     nodeLabels, match those labels (a key the flavor does not name is not judged; an affinity
 *     term left with no requirement makes the whole affinity pass, its terms being ORed).
 * A flavor that does not exist admits (the ClusterQueue is inactive then, said elsewhere).
 * When it does not admit and why is given, why it does not is added to it ("; " between). */
bool explain_queue_flavor_admits(const QueueState *q, const QueueWorkload *w, const char *flavor, Strbuf *why)
{
    const QueueFlavor *f = queue_find_flavor(q, flavor);
    if (!f) return true;
    const char *sep = why && why->len ? "; " : "";
    for (size_t s = 0; s < w->npodsets; s++) {
        const QueuePodSet *ps = &w->podsets[s];
        for (size_t i = 0; i < f->ntaints; i++) {
            const Taint *t = &f->node_taints[i];
            if (!str_eq(t->effect, "NoSchedule") && !str_eq(t->effect, "NoExecute")) continue;
            bool ok = ps->tmpl && explain_pod_tolerates_taint(ps->tmpl, t);
            for (size_t k = 0; !ok && k < f->ntolerations; k++) ok = explain_toleration_tolerates(&f->tolerations[k], t);
            if (ok) continue;
            if (why)
                strbuf_addf(why, "%sflavor %s: its nodeTaints %s%s%s:%s is not tolerated", sep, flavor, t->key,
                            t->value && *t->value ? "=" : "", t->value && *t->value ? t->value : "", t->effect);
            return false;
        }
        for (size_t i = 0; i < ps->node_selector.n; i++) {
            const KV *kv = &ps->node_selector.items[i];
            const char *v = kv_get(&f->node_labels, kv->key);
            if (!v || str_eq(v, kv->value)) continue;
            if (why)
                strbuf_addf(why, "%sflavor %s: its nodeLabels %s=%s, the pods' nodeSelector %s=%s", sep, flavor, kv->key, v,
                            kv->key, kv->value);
            return false;
        }
        if (!ps->tmpl || !ps->tmpl->naffinity_terms) continue;
        bool any = false;
        for (size_t i = 0; i < ps->tmpl->naffinity_terms && !any; i++) {
            bool empty;
            bool m = term_matches_flavor(&ps->tmpl->affinity_terms[i], f, &empty);
            any = m || empty;
        }
        if (any) continue;
        if (why) strbuf_addf(why, "%sflavor %s: its nodeLabels do not match the pods' required node affinity", sep, flavor);
        return false;
    }
    return true;
}

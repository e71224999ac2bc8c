/* explain_queue_flavor.c — whether a Kueue ResourceFlavor admits a Workload's pod sets. */
#include "explain_queue_int.h"

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

/* explain_reconcile.c — the recomputation compared with the scheduler's own message.
 *
 * The recomputation is reduced to what the scheduler that wrote the message would print, per
 * the wording era the parser found (schedmsg.h):
 *   - 1.20 and later: filters run in order and stop at the first failure per node
 *     (pkg/scheduler/framework/runtime/framework.go RunFilterPlugins), so each node counts once,
 *     under its first failing filter: NodeUnschedulable, TaintToleration, NodeAffinity,
 *     NodeResourcesFit (which lists every insufficient resource of the node);
 *   - older (predicates; GeneralPredicates gathered the failures of resources, host name, ports
 *     and node selector together, pkg/scheduler/algorithm/predicates/predicates.go): a node is
 *     counted under every reason it fails, so each reason is compared with the number of nodes
 *     that fail it, and the counts are not expected to add up to the node total.
 * A message that is not recognised, or entries that are not GPU filters, are never counted:
 * they are shown verbatim with a note.
 */
#include "explain_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *first_gpu_name(const ResourceList *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (resources_is_gpu(l->items[i].name) && l->items[i].milli > 0) return l->items[i].name;
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
    if (str_eq(key, "NotReady")) return "node(s) were not ready";
    snprintf(buf, n, "%s", key);   /* "Insufficient <resource>" */
    return buf;
}

/* The recomputation counted per reason as the scheduler would (every reason of a node when
 * all, else its first failing filter) into *t; returns the non-GPU nodes whose labels are not
 * kept while the pod has a selector (the scheduler may have stopped them at NodeAffinity). */
static int tally_nodes(const Explanation *e, bool all, Tallies *tp)
{
    char key[300];
    const Pod *p = e->pod;
    bool has_selector = p && (pod_more(p)->node_selector.n || p->naffinity_terms);
    int unknown_labels = 0;
    for (size_t i = 0; i < e->nnodes; i++) {
        const NodeResult *r = &e->nodes[i];
        if (has_selector && !node_is_gpu_node(r->node) && !r->node->labels.n &&
            !explain_has_code(r, NR_UNSCHEDULABLE) && !explain_has_code(r, NR_UNTOLERATED_TAINT))
            unknown_labels++;
        if (all) {
            /* every failing reason of the node, each counted once per node */
            bool any = false;
            if (explain_has_code(r, NR_UNSCHEDULABLE)) { tally(tp, "Unschedulable")->sim++; any = true; }
            if (explain_has_code(r, NR_NOT_READY)) { tally(tp, "NotReady")->sim++; any = true; }
            if (explain_has_code(r, NR_UNTOLERATED_TAINT)) { tally(tp, "UntoleratedTaint")->sim++; any = true; }
            if (explain_has_code(r, NR_NODE_SELECTOR_MISMATCH) || explain_has_code(r, NR_NODE_AFFINITY_MISMATCH)) {
                tally(tp, "NodeAffinity")->sim++; any = true;
            }
            for (size_t k = 0; k < r->nreasons; k++) {
                const NodeReason *x = &r->reasons[k];
                if (x->code == NR_TOO_MANY_PODS) { tally(tp, "TooManyPods")->sim++; any = true; }
                else if (x->code >= NR_NO_DEVICE_PLUGIN) {
                    snprintf(key, sizeof key, "Insufficient %s", x->resource);
                    tally(tp, key)->sim++;
                    any = true;
                }
            }
            if (!any) tally(tp, "Fit")->sim++;
            continue;
        }
        if (explain_has_code(r, NR_UNSCHEDULABLE)) { tally(tp, "Unschedulable")->sim++; continue; }
        if (explain_has_code(r, NR_UNTOLERATED_TAINT)) { tally(tp, "UntoleratedTaint")->sim++; continue; }
        if (explain_has_code(r, NR_NODE_SELECTOR_MISMATCH) || explain_has_code(r, NR_NODE_AFFINITY_MISMATCH)) {
            tally(tp, "NodeAffinity")->sim++; continue;
        }
        bool fit_failed = false;
        for (size_t k = 0; k < r->nreasons; k++) {
            const NodeReason *x = &r->reasons[k];
            if (x->code == NR_TOO_MANY_PODS) { tally(tp, "TooManyPods")->sim++; fit_failed = true; }
            else if (x->code >= NR_NO_DEVICE_PLUGIN) {
                snprintf(key, sizeof key, "Insufficient %s", x->resource);
                tally(tp, key)->sim++;
                fit_failed = true;
            }
        }
        if (!fit_failed) tally(tp, "Fit")->sim++;   /* includes NotReady nodes without a taint */
    }
    return unknown_labels;
}

/* said_*: what the comparison added for the last message compared (said_for, its text): the
 * pods of a Job pending with the same words get the same lines (they share the evaluation, so
 * the count per reason; their requests, so the GPU named) */
struct NodeTally {
    Tallies t; int unknown_labels;
    char *said_for; bool said_agrees; Strvec said_notes, said_dis;
};
typedef struct NodeTally NodeTally;

void explain_node_tally_free(NodeTally *nt)
{
    if (!nt) return;
    for (size_t i = 0; i < nt->t.n; i++) free(nt->t.v[i].key);
    free(nt->t.v);
    free(nt->said_for);
    strvec_clear(&nt->said_notes);
    strvec_clear(&nt->said_dis);
    free(nt);
}

static void push_from(Strvec *to, const Strvec *from, size_t at)
{
    for (size_t i = at; i < from->n; i++) strvec_push(to, from->v[i]);
}

/* The recomputation reduced to what the scheduler prints: the first failing filter per node
 * (NodeUnschedulable, TaintToleration, NodeAffinity, NodeResourcesFit — the last lists every
 * insufficient resource), compared per reason with the parsed message. */
void explain_reconcile_scheduler(const Cluster *c, Explanation *e)
{
    const SchedMessage *m = explanation_sched(e);
    e->agrees = true;
    if (m->kind == SM_EMPTY) return;
    if (m->kind == SM_GATED) {
        if (e->verdict != V_GATED) {
            e->agrees = false;
            strvec_push(&e->disagreements, "the condition says scheduling gates block the pod, but the pod has none now");
        }
        return;
    }
    if (m->kind == SM_UNRECOGNISED) {
        strvec_pushf(&e->notes, "the scheduler's message is not one this tool reads; it is shown verbatim and not "
                     "compared with the recomputation");
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
    const Pod *p = e->pod;
    int unknown_labels = 0;
    /* the nodes' side depends on the nodes and the pod's selector only: the pods sharing an
     * evaluation (explain_intent.c) share it too */
    NodeTally **cached = e->shared ? &e->shared->tally[m->lists_all_reasons ? 1 : 0] : NULL;
    if (cached && *cached && (*cached)->said_for && e->sched_text && str_eq((*cached)->said_for, e->sched_text)) {
        e->agrees = (*cached)->said_agrees;
        push_from(&e->notes, &(*cached)->said_notes, 0);
        push_from(&e->disagreements, &(*cached)->said_dis, 0);
        return;
    }
    size_t notes_at = e->notes.n, dis_at = e->disagreements.n;
    if (cached && *cached) {
        unknown_labels = (*cached)->unknown_labels;
        for (size_t i = 0; i < (*cached)->t.n; i++) tally(&t, (*cached)->t.v[i].key)->sim = (*cached)->t.v[i].sim;
    } else {
        unknown_labels = tally_nodes(e, m->lists_all_reasons, &t);
        if (cached) {
            NodeTally *nt = xcalloc(1, sizeof *nt);
            nt->unknown_labels = unknown_labels;
            for (size_t i = 0; i < t.n; i++) tally(&nt->t, t.v[i].key)->sim = t.v[i].sim;
            *cached = nt;
        }
    }
    int other = 0;
    Strvec other_text = STRVEC_INIT;
    for (size_t i = 0; i < m->filter.nreasons; i++) {
        const SchedReason *r = &m->filter.reasons[i];
        if (r->truncated) continue;
        const char *k = NULL;
        switch (r->code) {
        case SC_UNSCHEDULABLE: k = "Unschedulable"; break;
        case SC_NOT_READY: if (m->lists_all_reasons) k = "NotReady"; break;
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
    strvec_clear(&other_text);
    if (m->postfilter_other) strvec_pushf(&e->notes, "scheduler PostFilter: %s", m->postfilter_other);
    /* the preemption part ("not eligible due to preemptionPolicy=Never") is the scheduler's
     * message itself (and JSON scheduler.preemption): not repeated as a note */

    if (unknown_labels && !m->lists_all_reasons) {
        Tally *aff = tally(&t, "NodeAffinity");
        int shift = aff->msg - aff->sim;
        if (shift > unknown_labels) shift = unknown_labels;
        snprintf(key, sizeof key, "Insufficient %s", first_gpu_name(&p->requests));
        Tally *ins = tally(&t, key);
        if (shift > ins->sim) shift = ins->sim;
        if (shift > 0) { aff->sim += shift; ins->sim -= shift; }
    }
    if (m->lists_all_reasons)
        strvec_pushf(&e->notes, "the scheduler's wording is of Kubernetes %s, which lists every failing reason of "
                     "a node: compared per reason", m->max_minor && m->max_minor <= 19 ? "<= 1.19" : "before 1.20");
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
    if (!cached || !e->sched_text) return;
    NodeTally *nt = *cached;
    free(nt->said_for);
    strvec_clear(&nt->said_notes);
    strvec_clear(&nt->said_dis);
    nt->said_for = xstrdup(e->sched_text);
    nt->said_agrees = e->agrees;
    push_from(&nt->said_notes, &e->notes, notes_at);
    push_from(&nt->said_dis, &e->disagreements, dis_at);
}


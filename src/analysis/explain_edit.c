/* explain_edit.c — the fix re-check's tools, shared by the fix searches (explain_fixes*.c,
 * explain_platform.c) and below them: the fix list (explain_fix_add), a modified copy of the pod
 * (PodEdit), and where that copy lands (explain_recheck_fits, explain_fits_after_ending, explain_landing), evaluated by
 * the same per-node code as the pod itself (explain_node_relief).  Calls only the node stage
 * and the shared helpers below it.
 */
#include "explain_int.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- the fix list */

FixInfo *explain_fix_add(Ctx *x, FixEffort effort, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    for (size_t i = 0; i < x->nfixes; i++)
        if (strcmp(x->fixes[i].text, s) == 0) { free(s); return NULL; }
    ARRAY_GROW(x->fixes, x->nfixes, x->capfixes);
    FixItem *f = &x->fixes[x->nfixes++];
    memset(f, 0, sizeof *f);
    f->text = s;
    f->info.effort = effort;
    return &f->info;
}

/* ---------------------------------------------------------------- re-check */

void explain_edit_sync(PodEdit *d)
{
    d->q.requests = d->req;
    d->more.node_selector = d->sel;
    d->more.tolerations = d->tol;
    d->more.ntolerations = (uint32_t)d->ntol;
    d->q.more = &d->more;           /* the copy's own (not pooled): d must not move */
}

void explain_edit_begin(PodEdit *d, const Pod *p)
{
    memset(d, 0, sizeof *d);
    d->q = *p;
    d->more = *pod_more(p);
    const PodMore *m = pod_more(p);
    rlist_copy(&d->req, &p->requests);
    for (size_t i = 0; i < m->node_selector.n; i++) kv_set(&d->sel, m->node_selector.items[i].key, m->node_selector.items[i].value);
    d->tol = xcalloc(m->ntolerations + 1, sizeof *d->tol);
    if (m->ntolerations) memcpy(d->tol, m->tolerations, m->ntolerations * sizeof *d->tol);
    d->ntol = m->ntolerations;
    explain_edit_sync(d);
}

void explain_edit_end(PodEdit *d)
{
    rlist_clear(&d->req);
    kv_clear(&d->sel);
    free(d->tol);
}

/* only the nodes advertising enough of q's GPU resource are evaluated (explain_int.h, NodeCands):
 * the first node in cluster order where q fits, as a walk over every node would find.  A node
 * with less of that resource free than q asks (explain_node_free_relief, the number the node's
 * evaluation compares with the request) is passed over unevaluated: it would say Insufficient.
 * On a full cluster that is every node, and the whole evaluation of each (taints, selectors,
 * the holders gathered and sorted) was most of a resource-name fix's cost: 58 M instructions a
 * re-check at 5,000 GPU nodes. */
const Node *explain_recheck_fits(const Ctx *x, const Pod *q, const Relief *rl)
{
    NodeCands it;
    explain_cands_begin(&it, x->ix, q);
    const char *res = it.rn && it.rn->name && !explain_hami_ignored(x->ix, it.rn->name) ? it.rn->name : NULL;
    for (const Node *n; (n = explain_cands_next(&it));) {
        if (res && explain_node_free_relief(x->ix, n, q, res, rl) < it.need) continue;
        NodeResult r = { 0 };
        explain_node_relief(x->ix, q, n, rl, &r);
        bool ok = r.nreasons == 0 && explain_node_serves_request(x->ix, q, x->p, n);
        node_result_clear(&r);
        if (ok) return n;
    }
    return NULL;
}

/* The fewest pods (largest holders first) on node n whose end makes q fit there, when only
 * GPU/cpu/memory shortfalls stop q on n.  Fills *rl (caller frees rl->ended) and names. */
bool explain_fits_after_ending(const Ctx *x, const Pod *q, const Node *n, Relief *rl, Strvec *names)
{
    NodeResult r = { 0 };
    explain_node_relief(x->ix, q, n, NULL, &r);
    rl->ended = NULL;
    rl->nended = 0;
    bool ok = r.nreasons > 0;
    for (size_t k = 0; k < r.nreasons && ok; k++) ok = r.reasons[k].code == NR_INSUFFICIENT;
    for (size_t k = 0; k < r.nreasons && ok; k++) {
        const NodeReason *ins = &r.reasons[k];
        int64_t need = ins->requested - ins->free, got = 0;
        for (size_t h = 0; h < ins->nholders && got < need; h++) {
            bool dup = false;
            for (size_t j = 0; j < rl->nended; j++) dup |= rl->ended[j] == ins->holders[h].pod;
            if (dup) { got += ins->holders[h].milli; continue; }
            rl->ended = xrealloc(rl->ended, (rl->nended + 1) * sizeof *rl->ended);
            rl->ended[rl->nended++] = ins->holders[h].pod;
            got += ins->holders[h].milli;
        }
        ok = got >= need;
    }
    node_result_clear(&r);
    if (ok) {
        NodeResult after = { 0 };
        explain_node_relief(x->ix, q, n, rl, &after);
        ok = after.nreasons == 0 && explain_node_serves_request(x->ix, q, x->p, n);
        node_result_clear(&after);
    }
    if (!ok) { free(rl->ended); rl->ended = NULL; rl->nended = 0; return false; }
    for (size_t j = 0; j < rl->nended; j++) strvec_pushf(names, "%s/%s", rl->ended[j]->ns, rl->ended[j]->name);
    return true;
}

/* node n with the pod as is, ignoring the reasons `ignore` says a node-side change removes */
bool explain_fits_on_ignoring(const Ctx *x, const Node *n, bool (*ignore)(const NodeReason *))
{
    NodeResult r = { 0 };
    explain_node_relief(x->ix, x->p, n, NULL, &r);
    bool ok = true;
    for (size_t k = 0; k < r.nreasons && ok; k++) ok = ignore(&r.reasons[k]);
    node_result_clear(&r);
    return ok && explain_node_serves_request(x->ix, x->p, x->p, n);
}

void explain_info_end_pods(FixInfo *fi, const Strvec *names)
{
    for (size_t i = 0; i < names->n; i++) strvec_push(&fi->end_pods, names->v[i]);
}

/* "fits node X" or "fits node X once a, b end": where an edited pod lands.  Returns the node
 * (NULL: it fits nowhere even then); *names gets the pods to end. */
const Node *explain_landing(const Ctx *x, const Pod *q, const Node *prefer, Strvec *names, char **where)
{
    const Node *n = NULL;
    if (prefer) {
        NodeResult r = { 0 };
        explain_node_relief(x->ix, q, prefer, NULL, &r);
        if (r.nreasons == 0 && explain_node_serves_request(x->ix, q, x->p, prefer)) n = prefer;
        node_result_clear(&r);
    }
    if (!n) n = explain_recheck_fits(x, q, NULL);
    if (n) { *where = xasprintf("the pod then fits node %s", n->name); return n; }
    for (size_t pass = 0; pass < 2; pass++) {
        NodeCands it;
        explain_cands_begin(&it, x->ix, q);
        for (const Node *cand; (cand = explain_cands_next(&it));) {
            if ((pass == 0) != (cand == prefer)) continue;
            Relief rl;
            if (!explain_fits_after_ending(x, q, cand, &rl, names)) continue;
            free(rl.ended);
            Strbuf sb = STRBUF_INIT;
            explain_add_names(&sb, names);
            *where = xasprintf("the pod then fits node %s once %s end%s", cand->name, strbuf_str(&sb),
                               names->n == 1 ? "s" : "");
            strbuf_clear(&sb);
            return cand;
        }
    }
    return NULL;
}

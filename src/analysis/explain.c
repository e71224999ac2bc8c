/* explain.c — one pod explained: its scheduler message, the per-node evaluation, the verdict
 * stages, the fixes and the reconciliation (each in its own explain_*.c, see explain_int.h),
 * plus the pending list (pods and owners whose pods a quota refused) and the node groups
 * the text views print.
 */
#include "explain_int.h"
#include "analysis/explain_dra.h"
#include "analysis/explain_queue.h"
#include "model/quantity.h"
#include "util/strpool.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_scheduler_message(const ExplainIndex *ix, const Pod *p, Explanation *e)
{
    const Event *ev = explain_events_failed_scheduling(ix->events, p->ns, p->name);
    const char *cond = pod_more(p)->scheduled.present && !pod_more(p)->scheduled.status_true ? pod_more(p)->scheduled.message : NULL;
    if (cond && *cond) {
        e->sched_text = xstrdup(cond);
        e->sched_source = "PodScheduled condition";
        if (ev && ev->message && !str_eq(ev->message, cond)) e->event_text = xstrdup(ev->message);
    } else if (ev && ev->message && *ev->message) {
        e->sched_text = xstrdup(ev->message);
        e->sched_source = "FailedScheduling event";
    }
    if (!e->sched_text) return;
    e->sched = xmalloc(sizeof *e->sched);
    SchedMemo *memo = ix->sched_memo;
    if (memo && memo->text && str_eq(memo->text, e->sched_text)) {
        schedmsg_copy(e->sched, &memo->m);      /* the same words as the last pod's */
        return;
    }
    schedmsg_parse(e->sched_text, e->sched);
    if (!memo) return;
    if (memo->text) schedmsg_clear(&memo->m);
    free(memo->text);
    memo->text = xstrdup(e->sched_text);
    schedmsg_copy(&memo->m, e->sched);
}

static const char *first_gpu(const ResourceList *l, int64_t *milli)
{
    for (size_t i = 0; i < l->n; i++)
        if (resources_is_gpu(l->items[i].name) && l->items[i].milli > 0) { *milli = l->items[i].milli; return l->items[i].name; }
    *milli = 0;
    return NULL;
}


static void explain_pod_ix(const ExplainIndex *ix, const Pod *p, bool with_fixes, Explanation *e)
{
    const Cluster *c = ix->c;
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
    set_scheduler_message(ix, p, e);

    if (p->node_name || p->phase != PHASE_PENDING) {
        e->verdict = V_UNKNOWN;
        e->summary = p->node_name ? xasprintf("%s on node %s; nothing to explain", pod_phase_name(p->phase), p->node_name)
                                  : xasprintf("%s; nothing to explain", pod_phase_name(p->phase));
        return;
    }
    if (explain_dra_takes(c, p)) { explain_dra_pod(ix, p, with_fixes, e); return; }   /* DRA claims */
    /* the nodes, the verdict and its notes: once per intent (explain_intent.c) */
    char *made = NULL;
    const char *key = ix->keyed == p ? ix->keyed_key : (made = explain_intent_key(p));
    ExplainShared *sh = explain_intent_lookup(ix, key);
    bool fresh = !sh;
    if (fresh) sh = explain_shared_new(c->nnodes);
    else sh->refs++;
    e->shared = sh;
    e->nnodes = sh->n;
    e->nodes = sh->nodes;
    e->node_rank = sh->rank;
    Ctx x = { .c = c, .ix = ix, .p = p, .e = e, .flags = sh->flags };
    x.gpu = first_gpu(&p->requests, &x.gpu_req);
    if (!x.gpu) { x.gpu = "nvidia.com/gpu"; x.gpu_req = 0; }
    if (fresh) {
        for (size_t i = 0; i < c->nnodes; i++) {
            explain_node_relief(ix, p, &c->nodes[i], NULL, &e->nodes[i]);
            x.flags[i] = explain_node_flags(ix, p, &e->nodes[i]);
            e->node_rank[i] = !e->nodes[i].nreasons ? 0 : !x.flags[i].could_hold ? 3 : x.flags[i].admits ? 1 : 2;
        }
        explain_decide_verdict(&x);
        explain_health_note(&x);
        explain_hami_verdict(&x);
        sh->verdict = e->verdict;
        sh->summary = e->summary ? xstrdup(e->summary) : NULL;
        for (size_t i = 0; i < e->notes.n; i++) strvec_push(&sh->notes, e->notes.v[i]);
        if (ix->rows) explain_node_drop_holders(e->nodes, e->nnodes);   /* the verdict named them */
        explain_intent_store(ix, key, sh);
    } else {
        e->verdict = sh->verdict;
        e->summary = sh->summary ? xstrdup(sh->summary) : NULL;
        for (size_t i = 0; i < sh->notes.n; i++) strvec_push(&e->notes, sh->notes.v[i]);
    }
    free(made);
    if (with_fixes && sh->has_fixes) {
        explain_shared_give_fixes(sh, e);             /* the same intent's fixes, made once */
    } else {
        if (with_fixes) explain_fixes_for_verdict(&x);    /* the re-checks cost most: only when shown */
        explain_fixes_flush(&x);
        if (with_fixes && sh->refs > 1) explain_shared_keep_fixes(sh, e);   /* kept by the index: others will use it */
    }

    if (!e->sched_text && !str_eq(pod_more(p)->scheduler_name, "default-scheduler") && e->verdict == V_UNKNOWN && c->nnodes) {
        free(e->summary);
        e->summary = xasprintf("spec.schedulerName is %s and no scheduler has reported on the pod: is it running?",
                               pod_more(p)->scheduler_name);
    }
    explain_dra_adjust(c, e);     /* DRA nodes are not missing a device plugin */
    if (e->verdict != V_GATED) explain_reconcile_scheduler(c, e);
    const SchedMessage *sm = explanation_sched(e);
    if (e->verdict == V_UNKNOWN && c->nnodes && sm->kind == SM_FIT_ERROR && !pod_more(p)->nominated_node) {
        /* the GPU filters pass on some node: the scheduler's own non-GPU reason is the best explanation */
        for (size_t i = 0; i < sm->filter.nreasons; i++) {
            const SchedReason *r = &sm->filter.reasons[i];
            if (r->code <= SC_TOO_MANY_PODS || r->code == SC_PREFILTER_EXCLUDED) continue;
            free(e->summary);
            e->summary = xasprintf("GPU filters pass; the scheduler says: %s", r->text);
            break;
        }
    }
    if (c->nnodes == 0 && e->sched_text)
        strvec_pushf(&e->notes, "the dump has no nodes: the scheduler's message above is all there is to go on");
    if (pod_more(p)->nominated_node && e->verdict != V_UNKNOWN) {
        /* said once: no "on a later attempt" fix for a nominated pod (explain_fixes_busy.c) */
        Strvec victims = STRVEC_INIT;
        const Node *nn = cluster_find_node(c, pod_more(p)->nominated_node);
        const NodeFacts *nf = nn ? explain_node_facts(ix, nn) : NULL;
        for (size_t k = 0; nf && k < nf->bound.n; k++) {
            const Pod *q = &c->pods[nf->bound.v[k]];
            if (pod_holds_resources(q) && q->priority < p->priority && rlist_get(&q->requests, x.gpu) > 0)
                strvec_pushf(&victims, "%s/%s", q->ns, q->name);
        }
        Strbuf sb = STRBUF_INIT;
        explain_add_names(&sb, &victims);
        strvec_pushf(&e->notes, "nominated to node %s: preemption is under way%s%s%s", pod_more(p)->nominated_node,
                     victims.n ? " (lower-priority " : "", strbuf_str(&sb), victims.n ? " there)" : "");
        strbuf_clear(&sb);
        strvec_clear(&victims);
    }
    if (e->event_text)
        strvec_push(&e->notes, "the newest FailedScheduling event differs from the PodScheduled condition "
                               "(an event series keeps its first message); the condition is newer");
    if (sm->prefix)
        strvec_pushf(&e->notes, "the message carries a prefix a controller added (%s); the scheduler's text follows it",
                     sm->prefix);
    /* siblings rejected by quota */
    const Event *refused = p->owner_name ? explain_events_failed_create(ix->events, p->ns, p->owner_kind, p->owner_name) : NULL;
    if (refused)
        strvec_pushf(&e->notes, "%s %s could not create further pods: %s", p->owner_kind, p->owner_name, refused->message);
}

void explain_pod_indexed(const ExplainIndex *ix, const Pod *p, Explanation *e)
{
    explain_pod_ix(ix, p, true, e);
}

void explain_pod(const Cluster *c, const Pod *p, Explanation *e)
{
    ExplainIndex *ix = explain_index_new(c);
    explain_pod_ix(ix, p, true, e);
    explain_index_free(ix);
}

/* ---------------------------------------------------------------- never-created pods (quota) */

/* a fix for an owner whose pods were not created: not re-checkable by the node filters */
static void owner_fix(Explanation *e, FixEffort effort, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void owner_fix(Explanation *e, FixEffort effort, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    e->fix_info = xrealloc(e->fix_info, (e->fixes.n + 1) * sizeof *e->fix_info);
    memset(&e->fix_info[e->fixes.n], 0, sizeof *e->fix_info);
    e->fix_info[e->fixes.n].effort = effort;
    strvec_push(&e->fixes, s);
    free(s);
}

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

static void quota_error_release(QuotaError *q)
{
    free(q->quota);
    rlist_clear(&q->requested); rlist_clear(&q->used); rlist_clear(&q->limited);
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
        explain_fmt_amount(res, q.requested.items[i].milli, a, sizeof a);
        explain_fmt_amount(res, rlist_get(&q.used, name), b, sizeof b);
        explain_fmt_amount(res, rlist_get(&q.limited, name), d, sizeof d);
        strbuf_addf(&sb, "%s %s requested %s, used %s of %s", i ? ";" : ":", name, a, b, d);
        /* the Quota object, when loaded, has the fresher usage */
        int64_t used = rlist_get(&q.used, name);
        for (size_t k = 0; k < c->nquotas; k++)
            if (str_eq(c->quotas[k].ns, ev->ns) && str_eq(c->quotas[k].name, q.quota) && rlist_has(&c->quotas[k].used, name))
                used = rlist_get(&c->quotas[k].used, name);
        char hard[48];
        explain_fmt_amount(res, used + q.requested.items[i].milli, hard, sizeof hard);
        owner_fix(e, EFFORT_CLUSTER, "raise the quota to at least %s (used %s + requested %s):\n"
               "  kubectl patch resourcequota %s -n %s --type merge -p '{\"spec\":{\"hard\":{\"%s\":\"%s\"}}}'",
            hard, b, a, q.quota, ev->ns, name, hard);
    }
    owner_fix(e, EFFORT_POD, "or lower what %s %s asks for (replicas or per-pod %s), or free quota by ending other pods in %s",
        ev->involved_kind ? ev->involved_kind : "the owner", ev->involved_name, q.requested.n ? "requests" : "resources", ev->ns);
    e->summary = strbuf_detach(&sb);
    strvec_pushf(&e->notes, "%s (x%d): %s", ev->reason, ev->count, ev->message);
    quota_error_release(&q);
}

/* ---------------------------------------------------------------- lists */

static void list_push(ExplanationList *l, Explanation *e)
{
    ARRAY_GROW(l->items, l->n, l->cap);
    l->items[l->n++] = *e;
}

/* what explain_pending lists, before it is explained: a pending pod, a quota event, or a
 * queue's waiting workload (explain_queue.h) */
typedef struct { const char *ns, *name; bool created; size_t idx; bool workload; } PendingEntry;

static int cmp_entry(const void *a, const void *b)
{
    const PendingEntry *x = a, *y = b;
    int c = strcmp(x->ns, y->ns);
    if (c) return c;
    c = strcmp(x->name, y->name);
    return c ? c : (int)x->created - (int)y->created;
}

/* one entry per owner: its newest FailedCreate "exceeded quota" event asking for a GPU */
static bool quota_entry(const Cluster *c, const ExplainEvents *evs, const char *ns, size_t i)
{
    const Event *ev = &c->events[i];
    if (!str_eq(ev->reason, "FailedCreate") || !ev->message || !strstr(ev->message, "exceeded quota")) return false;
    if (!ev->involved_name || (ns && !str_eq(ev->ns, ns))) return false;
    if (!explain_events_newest_create(evs, ev)) return false;
    /* only GPU quota matters here */
    QuotaError q;
    parse_quota_error(ev->message, &q);
    bool gpu = false;
    for (size_t k = 0; k < q.requested.n; k++) {
        const char *name = q.requested.items[k].name;
        gpu |= resources_is_gpu(str_starts_with(name, "requests.") ? name + 9 : name);
    }
    quota_error_release(&q);
    return gpu;
}

/* p explained as if its scheduling gates were gone: a queue's member pod is gated until the
 * queue admits it (Kueue's pod integration), and what matters then is where it could go */
static void explain_ungated(const ExplainIndex *ix, const Pod *p, bool with_fixes, Explanation *e)
{
    const PodMore *m = pod_more(p);
    if (!m->ngates) { explain_pod_ix(ix, p, with_fixes, e); return; }
    PodMore more = *m;
    more.gates = NULL;
    more.ngates = 0;
    Pod copy = *p;                                  /* shallow: read, never cleared */
    copy.more = &more;
    explain_pod_ix(ix, &copy, with_fixes, e);
    e->pod = p;
}

/* a queue's waiting workload: its gang's first pending pod explained (ungated) for the
 * per-node picture and the nodes' own verdict */
static void explain_workload(const ExplainIndex *ix, const QueueIndex *qi, size_t idx, bool with_fixes, Explanation *e)
{
    const Pod *p = explain_queue_first_pod(qi, idx);
    Explanation member;
    if (p) explain_ungated(ix, p, with_fixes, &member);
    explain_queue_workload(qi, idx, p ? &member : NULL, e);
    if (p) explanation_clear(&member);
}

void explain_workload_of_pod(const Cluster *c, const Pod *p, Explanation *e, bool *found)
{
    QueueIndex *qi = explain_queue_new(c);
    long idx = explain_queue_member(qi, p);
    *found = idx >= 0;
    if (idx >= 0) {
        ExplainIndex *ix = explain_index_new(c);
        explain_workload(ix, qi, (size_t)idx, true, e);
        explain_index_free(ix);
    }
    explain_queue_free(qi);
}

void explain_pod_queued(const Cluster *c, const Pod *p, Explanation *e)
{
    explain_pod(c, p, e);
    QueueIndex *qi = explain_queue_new(c);
    explain_queue_note_admitted(qi, p, e);
    explain_queue_free(qi);
}

void explain_workload_one(const Cluster *c, const char *ns, const char *target, Explanation *e, bool *found)
{
    QueueIndex *qi = explain_queue_new(c);
    long idx = explain_queue_find(qi, ns, target);
    *found = idx >= 0;
    if (idx >= 0) {
        ExplainIndex *ix = explain_index_new(c);
        explain_workload(ix, qi, (size_t)idx, true, e);
        explain_index_free(ix);
    }
    explain_queue_free(qi);
}

void explain_pending_each(const Cluster *c, const char *ns, ExplanationFn fn, void *ctx)
{
    explain_pending_each_opts(c, ns, true, fn, ctx);
}

static void put_row(ExplanationList *l, size_t at, Explanation *e);

/* the order rows are made in: the entries of one intent (explain_intent.c) together, so that
 * one evaluation of the nodes is alive at a time (each row drops its share of it; the index
 * lets it go when the next intent starts) */
typedef struct { const char *key; size_t at; const Pod *p; } RowTurn;   /* key: the walk's pooled copy (p's) */

static int cmp_turn(const void *a, const void *b)
{
    const RowTurn *x = a, *y = b;
    int c = !x->key - !y->key;                       /* no key (evaluated alone): last */
    if (!c && x->key) c = strcmp(x->key, y->key);
    return c ? c : (x->at > y->at) - (x->at < y->at);
}

/* rows: the walk of explain_pending_rows (ctx its list): no fixes, the intents' per-node
 * evaluations kept without their holders once the verdict has named them (a slimmed row
 * drops the nodes; only the verdict, the fixes and a node's description read the holders:
 * 3.3 MB of the evaluations kept on the full training cluster), made intent by intent (up to
 * 64 evaluations of 5,000 nodes were kept at once, 6-7 MB on the full training cluster) into
 * their place in the list, which is sized once at the count of entries (it grew by doubling:
 * 8,192 slots of 376 bytes for 5,000 rows) */
static void pending_walk(const Cluster *c, const char *ns, bool with_fixes, bool rows, ExplanationFn fn, void *ctx)
{
    PendingEntry *v = NULL;
    size_t n = 0, cap = 0;
    QueueIndex *qi = explain_queue_new(c);
    for (size_t i = 0; i < c->npods; i++) {
        const Pod *p = &c->pods[i];
        if (!pod_is_pending_unbound(p) || (!pod_requests_gpu(p) && !explain_dra_applies(c, p))) continue;
        if (ns && !str_eq(p->ns, ns)) continue;
        if (explain_queue_member(qi, p) >= 0) continue;      /* its workload's row stands for it */
        ARRAY_GROW(v, n, cap);
        v[n++] = (PendingEntry){ p->ns, p->name, true, i, false };
    }
    const size_t *wl;
    size_t nwl = explain_queue_waiting(qi, ns, &wl);
    for (size_t k = 0; k < nwl; k++) {
        const QueueWorkload *w = &c->queues->workloads[wl[k]];
        ARRAY_GROW(v, n, cap);
        v[n++] = (PendingEntry){ w->ns, w->name, true, wl[k], true };
    }
    ExplainIndex *ix = explain_index_new(c);
    for (size_t i = 0; i < c->nevents; i++) {
        if (!quota_entry(c, ix->events, ns, i)) continue;
        ARRAY_GROW(v, n, cap);
        v[n++] = (PendingEntry){ c->events[i].ns, c->events[i].involved_name, false, i, false };
    }
    if (n > 1) qsort(v, n, sizeof *v, cmp_entry);
    RowTurn *turns = NULL;
    StrPool *keys = NULL;     /* one copy of each intent key: a Job's pods share theirs (a
                                 copy per entry was 1.4 MB at 5,000 entries, alive with an
                                 intent's evaluation at the rows' peak) */
    if (rows) {
        ExplanationList *l = ctx;
        ix->rows = true;
        if (n > l->cap) { l->items = xrealloc(l->items, n * sizeof *l->items); l->cap = n; }
        turns = n ? xcalloc(n, sizeof *turns) : NULL;
        keys = strpool_new();
        for (size_t i = 0; i < n; i++) {
            const Pod *p = v[i].workload ? explain_queue_first_pod(qi, v[i].idx)
                         : v[i].created ? &c->pods[v[i].idx] : NULL;
            char *key = p && !explain_dra_takes(c, p) ? explain_intent_key(p) : NULL;
            turns[i] = (RowTurn){ key ? strpool_intern(keys, key) : NULL, i, p };
            free(key);
        }
        if (n > 1) qsort(turns, n, sizeof *turns, cmp_turn);
    }
    int stop = 0;
    for (size_t t = 0; t < n && !stop; t++) {
        size_t i = turns ? turns[t].at : t;
        if (turns && t && !str_eq(turns[t].key, turns[t - 1].key)) explain_intents_forget(ix);
        Explanation e;
        if (turns) { ix->keyed = turns[t].p; ix->keyed_key = turns[t].key; }
        if (v[i].workload) explain_workload(ix, qi, v[i].idx, with_fixes, &e);
        else if (v[i].created) {
            explain_pod_ix(ix, &c->pods[v[i].idx], with_fixes, &e);
            explain_queue_note_admitted(qi, &c->pods[v[i].idx], &e);
        }
        else explain_never_created(c, &c->events[v[i].idx], &e);
        if (turns) put_row(ctx, i, &e);
        else stop = fn(ctx, &e);
        explanation_clear(&e);
    }
    if (rows) ((ExplanationList *)ctx)->n = n;
    strpool_free(keys);
    free(turns);
    explain_index_free(ix);
    explain_queue_free(qi);
    free(v);
}

void explain_pending_each_opts(const Cluster *c, const char *ns, bool with_fixes, ExplanationFn fn, void *ctx)
{
    pending_walk(c, ns, with_fixes, false, fn, ctx);
}

void explain_pending_counts(const Cluster *c, const char *ns, size_t *pods, size_t *not_created)
{
    *pods = *not_created = 0;
    for (size_t i = 0; i < c->npods; i++) {
        const Pod *p = &c->pods[i];
        if (pod_is_pending_unbound(p) && (pod_requests_gpu(p) || explain_dra_applies(c, p)) && (!ns || str_eq(p->ns, ns)))
            (*pods)++;
    }
    if (!c->nevents) return;
    ExplainEvents *evs = explain_events_new(c);
    for (size_t i = 0; i < c->nevents; i++) *not_created += quota_entry(c, evs, ns, i);
    explain_events_free(evs);
}

static int push_explanation(void *ctx, Explanation *e)
{
    list_push(ctx, e);
    memset(e, 0, sizeof *e);             /* the list owns it now */
    return 0;
}

void explain_pending(const Cluster *c, const char *ns, ExplanationList *out)
{
    explain_pending_opts(c, ns, true, out);
}

void explain_pending_opts(const Cluster *c, const char *ns, bool with_fixes, ExplanationList *out)
{
    memset(out, 0, sizeof *out);
    explain_pending_each_opts(c, ns, with_fixes, push_explanation, out);
}

char *explanation_group_key(const Explanation *e)
{
    if (!e->created || e->queue || !e->owner_kind || !e->owner_name) return NULL;
    Strbuf sb = STRBUF_INIT;            /* ns, owner, verdict, agrees, summary, requests; \x1f between */
    const char *text[] = { e->ns, e->owner_kind, e->owner_name };
    for (size_t i = 0; i < 3; i++) { strbuf_adds(&sb, text[i] ? text[i] : ""); strbuf_addch(&sb, '\x1f'); }
    strbuf_addi(&sb, (int)e->verdict);
    strbuf_addch(&sb, '\x1f');
    strbuf_addi(&sb, (int)e->agrees);
    strbuf_addch(&sb, '\x1f');
    strbuf_adds(&sb, e->summary ? e->summary : "");
    strbuf_addch(&sb, '\x1f');
    for (size_t i = 0; i < e->requests.n; i++) {
        strbuf_adds(&sb, e->requests.items[i].name);
        strbuf_addch(&sb, '=');
        strbuf_addi(&sb, (long long)e->requests.items[i].milli);
        strbuf_addch(&sb, '\x1f');
    }
    return strbuf_detach(&sb);
}

static void explanation_sched_free(Explanation *e)
{
    if (!e->sched) return;
    schedmsg_clear(e->sched);
    free(e->sched);
    e->sched = NULL;
}

void explanation_clear(Explanation *e)
{
    if (!e->pooled) {
        free(e->ns); free(e->name); free(e->owner_kind); free(e->owner_name);
        rlist_clear(&e->requests);
        free(e->summary); free(e->sched_text); free(e->dra_gpus);
    }
    free(e->event_text);
    explain_queue_facts_free(e->queue);
    explanation_sched_free(e);
    strvec_clear(&e->disagreements);
    explanation_drop_nodes(e);
    for (size_t i = 0; i < e->fixes.n; i++) if (e->fix_info) explain_fix_info_release(&e->fix_info[i]);
    free(e->fix_info);
    strvec_clear(&e->fixes);
    strvec_clear(&e->notes);
    memset(e, 0, sizeof *e);
}

void explanation_slim(Explanation *e)
{
    explanation_drop_nodes(e);
    if (!e->pod) return;      /* an owner not created: its fixes and notes are its explanation */
    if (e->sched_text) { free(e->sched_text); e->sched_text = xstrdup(""); }
    free(e->event_text);
    e->event_text = NULL;
    explanation_sched_free(e);
    strvec_clear(&e->notes);
    strvec_clear(&e->disagreements);
    for (size_t i = 0; i < e->fixes.n; i++) if (e->fix_info) explain_fix_info_release(&e->fix_info[i]);
    free(e->fix_info);
    e->fix_info = NULL;
    strvec_clear(&e->fixes);
}

/* *s (e's own) replaced by the pool's copy */
static void pool_field(StrPool *pool, char **s)
{
    const char *c = strpool_intern(pool, *s);
    free(*s);
    *s = (char *)c;
}

/* a row kept at its place in the list (sized): slimmed, its strings and requests the list's
 * pooled copies (the pods of one intent have the same summary and requests, and a summary
 * that names nodes runs to kilobytes: 5,000 pods of a few Jobs held 18 MB of copies of a few
 * strings; the names, owners and requests of each row's own were 2 MB more) */
static void put_row(ExplanationList *l, size_t at, Explanation *e)
{
    explanation_slim(e);
    StrPool *pool = l->strings;
    pool_field(pool, &e->ns); pool_field(pool, &e->name);
    pool_field(pool, &e->owner_kind); pool_field(pool, &e->owner_name);
    pool_field(pool, &e->summary); pool_field(pool, &e->sched_text); pool_field(pool, &e->dra_gpus);
    ResourceList *r = &e->requests;
    for (uint32_t i = 0; i < r->n; i++)
        if (!resources_name_static(r->items[i].name)) pool_field(pool, &r->items[i].name);   /* (resources.h) */
    ResourceEntry *items = r->n ? (ResourceEntry *)strpool_intern_mem(pool, r->items, r->n * sizeof *r->items) : NULL;
    free(r->items);
    *r = (ResourceList){ items, r->n, 0 };           /* read-only */
    e->pooled = true;
    l->items[at] = *e;
    memset(e, 0, sizeof *e);             /* the list owns it now */
}

void explain_pending_rows(const Cluster *c, const char *ns, ExplanationList *out)
{
    memset(out, 0, sizeof *out);
    out->strings = strpool_new();
    pending_walk(c, ns, false, true, NULL, out);
}

void explanation_drop_nodes(Explanation *e)
{
    if (e->shared) {
        explain_shared_unref(e->shared);
    } else {
        for (size_t i = 0; i < e->nnodes; i++) node_result_clear(&e->nodes[i]);
        free(e->nodes);
        free(e->node_rank);
    }
    e->shared = NULL;
    e->nodes = NULL;
    e->node_rank = NULL;
    e->nnodes = 0;
}

void explanation_list_clear(ExplanationList *l)
{
    for (size_t i = 0; i < l->n; i++) explanation_clear(&l->items[i]);
    free(l->items);
    strpool_free(l->strings);          /* after the items: they point into it */
    memset(l, 0, sizeof *l);
}


/* ---------------------------------------------------------------- JSON */

bool explanation_request_shown(const char *resource)
{
    return resources_is_gpu(resource) ||
           (explain_hami_resource(resource) && !str_eq(resource, "nvidia.com/priority"));
}

char *explanation_gpus(const Explanation *e)
{
    Strbuf sb = STRBUF_INIT;
    for (size_t i = 0; i < e->requests.n; i++) {
        const ResourceEntry *r = &e->requests.items[i];
        if (!explanation_request_shown(r->name) || r->milli <= 0) continue;
        strbuf_addf(&sb, "%s%s:%lld", sb.len ? "," : "", r->name, (long long)explain_milli_units(r->milli));
    }
    if (!sb.len && e->dra_gpus) strbuf_adds(&sb, e->dra_gpus);
    if (!sb.len) strbuf_adds(&sb, "-");
    return strbuf_detach(&sb);
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
        /* same words and same rank: a node that could never hold the pod is not grouped with
         * one that could, even where their reasons read alike */
        int rank = e->node_rank ? e->node_rank[i] : (r->nreasons ? 2 : 0);
        size_t j = 0;
        while (j < n && (g[j].rank != rank || strcmp(g[j].reasons, strbuf_str(&sb)) != 0)) j++;
        if (j == n) {
            ARRAY_GROW(g, n, cap);
            g[n++] = (ReasonGroup){ strbuf_detach(&sb), STRVEC_INIT, r->nreasons == 0, rank };
        }
        strvec_push(&g[j].nodes, r->node->name);
        strbuf_clear(&sb);
    }
    *out = g;
    return n;
}

static int cmp_group_rank(const void *a, const void *b)
{
    const ReasonGroup *x = a, *y = b;
    return x->rank - y->rank;
}

size_t explain_group_nodes_ranked(const Explanation *e, ReasonGroup **out, size_t *relevant)
{
    size_t n = explain_group_nodes(e, out);
    /* stable: insertion order kept within a rank */
    ReasonGroup *g = *out;
    for (size_t i = 1; i < n; i++) {
        ReasonGroup t = g[i];
        size_t j = i;
        while (j > 0 && cmp_group_rank(&g[j - 1], &t) > 0) { g[j] = g[j - 1]; j--; }
        g[j] = t;
    }
    size_t r = 0;
    while (r < n && g[r].rank < 3) r++;
    *relevant = r;
    return n;
}

void reason_groups_free(ReasonGroup *g, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(g[i].reasons);
        strvec_clear(&g[i].nodes);
    }
    free(g);
}


/* explain_intent.c — pods that ask for the same thing share one evaluation.
 *
 * The per-node results, the node ranks and flags, the verdict, its summary and its notes of a
 * Pending pod depend only on what the pod asks for (requests, nodeSelector, required node
 * affinity, tolerations, scheduling gates, priority) and on the cluster: a queue of a Job's
 * 1,500 identical pods is evaluated once.  The key of that intent is built here; a pod whose
 * own evaluation depends on itself (nominated to a node: it is excluded from the competitors of
 * that node by name) has no key and is evaluated alone.
 *
 * An ExplainShared is reference-counted: the index's map holds one reference, every
 * Explanation that borrows its nodes holds one (explanation_clear drops it).  The counts are
 * not atomic: explanations that share an evaluation are made by one explain_pending_each
 * call and freed together by one thread.
 *
 * KGPU_EXPLAIN_PLAIN=1 in the environment turns the sharing off (every pod evaluated on its
 * own): tests/integration/test_explain_shared.sh compares the two on every fixture.
 */
#include "explain_int.h"
#include "util/strmap.h"
#include <stdlib.h>
#include <string.h>

#define MAX_SHARED 64          /* evaluations kept for reuse before the map starts over */

static void add_field(Strbuf *sb, const char *s)
{
    strbuf_adds(sb, s ? s : "\x02");            /* NULL differs from "" */
    strbuf_addch(sb, '\x1f');
}

/* tag, the number, the separator ("r3\x1f"): no printf, this runs per pending pod */
static void add_count(Strbuf *sb, char tag, long long n)
{
    strbuf_addch(sb, tag);
    strbuf_addi(sb, n);
    strbuf_addch(sb, '\x1f');
}

static void add_selector(Strbuf *sb, const LabelSelector *s)
{
    for (size_t i = 0; i < s->n; i++) {
        const SelReq *r = &s->reqs[i];
        add_field(sb, r->key);
        strbuf_addi(sb, (int)r->op);
        add_count(sb, ':', (long long)r->nvalues);
        for (size_t k = 0; k < r->nvalues; k++) add_field(sb, r->values[k]);
    }
    strbuf_addch(sb, '\x1e');
}

char *explain_intent_key(const Pod *p)
{
    if (pod_more(p)->nominated_node || p->node_name) return NULL;
    Strbuf sb = STRBUF_INIT;
    add_count(&sb, 'r', (long long)p->requests.n);
    for (size_t i = 0; i < p->requests.n; i++) {
        strbuf_adds(&sb, p->requests.items[i].name);
        add_count(&sb, '=', (long long)p->requests.items[i].milli);
    }
    const PodMore *more = pod_more(p);
    add_count(&sb, 's', (long long)more->node_selector.n);
    for (size_t i = 0; i < more->node_selector.n; i++) {
        add_field(&sb, more->node_selector.items[i].key);
        add_field(&sb, more->node_selector.items[i].value);
    }
    add_count(&sb, 'a', (long long)p->naffinity_terms);
    for (size_t i = 0; i < p->naffinity_terms; i++) {
        add_selector(&sb, &p->affinity_terms[i].match_expressions);
        add_selector(&sb, &p->affinity_terms[i].match_fields);
    }
    add_count(&sb, 't', (long long)more->ntolerations);
    for (size_t i = 0; i < more->ntolerations; i++) {
        const Toleration *t = &more->tolerations[i];
        add_field(&sb, t->key); add_field(&sb, t->op); add_field(&sb, t->value); add_field(&sb, t->effect);
    }
    add_count(&sb, 'g', (long long)more->ngates);
    for (size_t i = 0; i < more->ngates; i++) add_field(&sb, more->gates[i]);
    add_count(&sb, 'p', (long long)p->priority);
    add_field(&sb, pod_more(p)->preemption_policy);
    add_count(&sb, 'o', explain_owner_is_training(p->owner_kind));   /* the fixes' order (explain_fixes_flush) */
    return strbuf_detach(&sb);
}

ExplainShared *explain_shared_new(size_t n)
{
    ExplainShared *s = xcalloc(1, sizeof *s);
    s->refs = 1;
    s->n = n;
    s->nodes = n ? xcalloc(n, sizeof *s->nodes) : NULL;
    s->rank = n ? xcalloc(n, 1) : NULL;
    s->flags = n ? xcalloc(n, sizeof *s->flags) : NULL;
    return s;
}

ExplainShared *explain_shared_ref(ExplainShared *s)
{
    if (s) s->refs++;
    return s;
}

void explain_shared_unref(ExplainShared *s)
{
    if (!s || --s->refs) return;
    for (size_t i = 0; i < s->n; i++) node_result_clear(&s->nodes[i]);
    free(s->nodes);
    free(s->rank);
    free(s->flags);
    free(s->summary);
    strvec_clear(&s->notes);
    for (size_t i = 0; s->fix_info && i < s->fixes.n; i++) explain_fix_info_release(&s->fix_info[i]);
    free(s->fix_info);
    strvec_clear(&s->fixes);
    strvec_clear(&s->fix_notes);
    explain_node_tally_free(s->tally[0]);
    explain_node_tally_free(s->tally[1]);
    free(s);
}

static void kv_copy(KVList *dst, const KVList *src)
{
    for (size_t i = 0; i < src->n; i++) kv_set(dst, src->items[i].key, src->items[i].value);
}

static void strvec_copy(Strvec *dst, const Strvec *src)
{
    for (size_t i = 0; i < src->n; i++) strvec_push(dst, src->v[i]);
}

static void fix_info_copy(FixInfo *d, const FixInfo *s)
{
    memset(d, 0, sizeof *d);
    d->effort = s->effort;
    d->fits_on = s->fits_on ? xstrdup(s->fits_on) : NULL;
    rlist_copy(&d->requests, &s->requests);
    kv_copy(&d->selector, &s->selector);
    d->drop_affinity = s->drop_affinity;
    strvec_copy(&d->tolerations, &s->tolerations);
    strvec_copy(&d->end_pods, &s->end_pods);
    d->node = s->node ? xstrdup(s->node) : NULL;
    d->uncordon = s->uncordon;
    d->make_ready = s->make_ready;
    d->advertise = s->advertise ? xstrdup(s->advertise) : NULL;
    d->advertise_count = s->advertise_count;
    kv_copy(&d->labels, &s->labels);
}

static void fixes_copy(Strvec *fixes, FixInfo **info, const Strvec *from, const FixInfo *from_info)
{
    strvec_copy(fixes, from);
    *info = from->n && from_info ? xcalloc(from->n, sizeof **info) : NULL;
    for (size_t i = 0; *info && i < from->n; i++) fix_info_copy(&(*info)[i], &from_info[i]);
}

/* The fixes of an intent are the same for each of its pods, except a gated pod's: the command
 * that releases it names the pod (explain_fixes.c, fixes_gated); those are never kept. */
void explain_shared_keep_fixes(ExplainShared *s, const Explanation *e)
{
    if (s->has_fixes || e->verdict == V_GATED) return;
    fixes_copy(&s->fixes, &s->fix_info, &e->fixes, e->fix_info);
    for (size_t i = s->notes.n; i < e->notes.n; i++) strvec_push(&s->fix_notes, e->notes.v[i]);
    s->has_fixes = true;
}

void explain_shared_give_fixes(const ExplainShared *s, Explanation *e)
{
    fixes_copy(&e->fixes, &e->fix_info, &s->fixes, s->fix_info);
    strvec_copy(&e->notes, &s->fix_notes);
}

static void unref_void(void *p) { explain_shared_unref(p); }

struct IntentCache { StrMap *map; };

void explain_intents_init(ExplainIndex *ix)
{
    const char *plain = getenv("KGPU_EXPLAIN_PLAIN");
    if (plain && *plain && strcmp(plain, "0") != 0) { ix->intents = NULL; return; }
    ix->intents = xcalloc(1, sizeof *ix->intents);
    ix->intents->map = strmap_new();
}

void explain_intents_clear(ExplainIndex *ix)
{
    if (!ix->intents) return;
    strmap_free(ix->intents->map, unref_void);
    free(ix->intents);
    ix->intents = NULL;
}

void explain_intents_forget(const ExplainIndex *ix)
{
    if (!ix->intents || !strmap_size(ix->intents->map)) return;
    strmap_free(ix->intents->map, unref_void);
    ix->intents->map = strmap_new();
}

ExplainShared *explain_intent_lookup(const ExplainIndex *ix, const char *key)
{
    return ix->intents && key ? strmap_get(ix->intents->map, key) : NULL;
}

void explain_intent_store(const ExplainIndex *ix, const char *key, ExplainShared *s)
{
    if (!ix->intents || !key) return;
    if (strmap_size(ix->intents->map) >= MAX_SHARED) explain_intents_forget(ix);   /* many: start over */
    s->refs++;
    strmap_put(ix->intents->map, key, s);
}

/* explain_health.c — a pending pod's GPU health reason: where a node the pod admits is short of
 * the request only because some of its GPUs are unhealthy, say which GPUs and why
 * (analysis/health.h reads the signals: the device plugin's allocatable < capacity, health agents'
 * conditions, DCGM).  "the only GPU not held on node gpu-u1 is unhealthy: GPU 1 XID 79
 * (GpuXidError)" is added to the verdict's reason (said once, there); the verdict stays the
 * scheduler's (Insufficient: the GPU is not allocatable), the why is what a user acts on.
 */
#include "explain_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/health.h"
#include "model/quantity.h"
#include "util/util.h"

/* the node's GPUs of `res` held back by the device plugin (capacity - allocatable), units */
static int64_t withheld(const Node *n, const char *res)
{
    int64_t c = quantity_units_ceil(rlist_get(&n->capacity, res)), a = quantity_units_ceil(rlist_get(&n->allocatable, res));
    return c > a ? c - a : 0;
}

static char *health_text(const Node *n, const NodeResult *r, const NodeReason *why, const NodeHealth *h)
{
    int bad = health_count(h);
    int64_t free_units = explain_milli_units(why->free), need = explain_milli_units(why->requested);
    Strbuf sb = STRBUF_INIT;
    if (free_units == 0 && bad == 1)
        strbuf_addf(&sb, "the only GPU not held on node %s is unhealthy", n->name);
    else
        strbuf_addf(&sb, "node %s would have %lld %s free for the %lld requested but %d of its GPUs %s unhealthy",
                    n->name, (long long)(free_units + withheld(n, why->resource)), why->resource, (long long)need, bad,
                    bad == 1 ? "is" : "are");
    if (h->ngpus) {
        strbuf_adds(&sb, ":");
        for (size_t i = 0; i < h->ngpus; i++)
            strbuf_addf(&sb, "%s GPU %d %s", i ? ";" : "", h->gpus[i].index, h->gpus[i].why);
    } else {
        strbuf_addf(&sb, " (the device plugin advertises %lld of %lld %s: kubectl describe node %s)",
                    (long long)quantity_units_ceil(rlist_get(&n->allocatable, why->resource)),
                    (long long)quantity_units_ceil(rlist_get(&n->capacity, why->resource)), why->resource, n->name);
    }
    (void)r;
    return strbuf_detach(&sb);
}

/* NODES_TOLD nodes told in full, the rest named: a bad batch of GPUs leaves dozens of nodes
 * short only by an unhealthy GPU (8 KB of reason a pod on a 5,000-node training cluster). */
void explain_health_note(Ctx *x)
{
    Explanation *e = x->e;
    if (e->verdict != V_INSUFFICIENT && e->verdict != V_FRAGMENTED) return;
    Strbuf notes = STRBUF_INIT;
    Strvec more = STRVEC_INIT;
    size_t told = 0;
    for (size_t i = 0; i < e->nnodes; i++) {
        const NodeResult *r = &e->nodes[i];
        if (!x->flags[i].admits || !r->node) continue;
        const NodeReason *why = explain_find_code(r, NR_INSUFFICIENT, x->gpu);
        if (!why || r->nreasons != 1) continue;          /* only the GPU stands in the way */
        const Node *n = r->node;
        int64_t back = withheld(n, why->resource);
        if (back <= 0 || why->free + back * 1000 < why->requested) continue;   /* cheap test first */
        NodeInventory inv;
        inventory_node(n, NULL, &inv);
        NodeHealth h;
        health_node(n, &inv, NULL, &h);
        /* the unhealthy GPUs are what stands between the pod and the node */
        if (health_count(&h) > 0) {
            if (told < NODES_TOLD) {
                char *t = health_text(n, r, why, &h);
                strbuf_addf(&notes, "; %s", t);
                free(t);
                told++;
            } else {
                strvec_push(&more, n->name);
            }
        }
        health_clear(&h);
    }
    if (more.n) {
        strbuf_addf(&notes, "; %zu more node%s short of the request only by unhealthy GPUs: ", more.n,
                    more.n == 1 ? " is" : "s are");
        explain_add_names(&notes, &more);
    }
    if (notes.len) {
        char *s = xasprintf("%s%s", e->summary ? e->summary : "", notes.buf);
        free(e->summary);
        e->summary = s;
    }
    strbuf_clear(&notes);
    strvec_clear(&more);
}

/* explain_select.c — which of an explanation's per-node results matter to a reader: the counts
 * by node_rank, and the few nodes nearest to holding the pod (what `pending -o json` lists per
 * pod instead of every node of the cluster).
 */
#include "explain_int.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int node_rank_of(const Explanation *e, size_t i)
{
    return e->node_rank ? e->node_rank[i] : (e->nodes[i].nreasons ? 2 : 0);
}

void explanation_node_counts(const Explanation *e, NodeCounts *out)
{
    memset(out, 0, sizeof *out);
    out->total = e->nnodes;
    for (size_t i = 0; i < e->nnodes; i++) {
        switch (node_rank_of(e, i)) {
        case 0: out->fits_now++; break;
        case 1: out->admits++; break;
        case 2: out->excluded++; break;
        default: out->never++; break;
        }
    }
}

/* how near node i is to holding the pod: rank, then fewer reasons, then more free of the
 * resource it lacks (a node whose only lack is one GPU is nearer than a node with none free) */
typedef struct { int rank; size_t nreasons; int64_t free; size_t i; } Nearness;

static Nearness nearness(const Explanation *e, size_t i)
{
    const NodeResult *r = &e->nodes[i];
    Nearness k = { node_rank_of(e, i), r->nreasons, INT64_MAX, i };
    for (size_t j = 0; j < r->nreasons; j++)
        if (r->reasons[j].code == NR_INSUFFICIENT && r->reasons[j].free < k.free) k.free = r->reasons[j].free;
    return k;
}

static bool nearer(const Nearness *a, const Nearness *b)
{
    if (a->rank != b->rank) return a->rank < b->rank;
    if (a->nreasons != b->nreasons) return a->nreasons < b->nreasons;
    if (a->free != b->free) return a->free > b->free;
    return a->i < b->i;
}

size_t explanation_nodes_that_matter(const Explanation *e, size_t max, size_t *idx)
{
    if (!max || !e->nnodes) return 0;
    int limit = 3;                       /* nodes that never could hold it: only when no other */
    for (size_t i = 0; i < e->nnodes && limit == 3; i++)
        if (node_rank_of(e, i) < 3) limit = 2;
    Nearness *top = xcalloc(max, sizeof *top);
    size_t n = 0;
    for (size_t i = 0; i < e->nnodes; i++) {
        if (node_rank_of(e, i) > limit) continue;
        Nearness k = nearness(e, i);
        if (n == max && !nearer(&k, &top[n - 1])) continue;
        size_t at = n < max ? n++ : n - 1;   /* the last one drops out when full */
        while (at > 0 && nearer(&k, &top[at - 1])) { top[at] = top[at - 1]; at--; }
        top[at] = k;
    }
    for (size_t j = 0; j < n; j++) idx[j] = top[j].i;
    free(top);
    return n;
}

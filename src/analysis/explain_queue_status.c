/* explain_queue_status.c — status's Queues section (explain_queue.h's explain_queue_summaries):
 * per ClusterQueue / Queue its GPU quota, use and borrowing, and the GPUs its waiting workloads
 * ask for, from the same index pending and explain read. */
#include "explain_queue_int.h"
#include <stdlib.h>
#include <string.h>

static int cmp_summary(const void *a, const void *b)
{
    const QueueSummary *x = a, *y = b;
    if (x->system != y->system) return (int)x->system - (int)y->system;
    return strcmp(x->name, y->name);
}

size_t explain_queue_summaries(const Cluster *c, QueueSummary **out, size_t *waiting)
{
    *out = NULL;
    *waiting = 0;
    const QueueState *q = c->queues;
    if (!q) return 0;
    QueueSummary *v = q->ndefs ? xcalloc(q->ndefs, sizeof *v) : NULL;
    for (size_t i = 0; i < q->ndefs; i++) {
        const QueueDef *d = &q->defs[i];
        QueueSummary *s = &v[i];
        s->system = d->system;
        s->name = xstrdup(d->name);
        s->cohort = d->cohort ? xstrdup(d->cohort) : NULL;
        s->active = d->active && (!d->stop_policy || str_eq(d->stop_policy, "None"));
        for (size_t k = 0; k < d->nquotas; k++) {
            const QueueQuota *qq = &d->quotas[k];
            if (!resources_is_gpu(qq->resource)) continue;
            s->nominal += qq->nominal;
            s->used += qq->used;
            if (qq->used > qq->nominal) s->borrowed += qq->used - qq->nominal;
        }
    }
    QueueIndex *qi = explain_queue_new(c);
    *waiting = qi->nwaiting;
    for (size_t k = 0; k < qi->nwaiting; k++) {
        size_t w = qi->waiting[k];
        const QueueDef *def = qi->def[w];
        for (size_t i = 0; def && i < q->ndefs; i++) {
            if (&q->defs[i] != def) continue;
            for (size_t r = 0; r < qi->total[w].n; r++)
                if (resources_is_gpu(qi->total[w].items[r].name)) v[i].pending += qi->total[w].items[r].milli;
            v[i].pending_workloads++;
        }
    }
    explain_queue_free(qi);
    if (v) qsort(v, q->ndefs, sizeof *v, cmp_summary);
    *out = v;
    return q->ndefs;
}

void explain_queue_summaries_free(QueueSummary *v, size_t n)
{
    for (size_t i = 0; i < n; i++) { free(v[i].name); free(v[i].cohort); }
    free(v);
}

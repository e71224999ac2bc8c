/* explain_events.c — the cluster's kept events looked up by what they are about.
 *
 * explain reads two kinds of event per entry: a pod's newest FailedScheduling, and its owner's
 * FailedCreate ("exceeded quota").  Scanning every event for every pending pod is pods x
 * events: on a training cluster with 5,000 pending pods and their 4,286 FailedScheduling
 * events that was 21 million comparisons, a third of `pending -A`'s CPU.  Here each kind is
 * an array of pointers sorted by its key (namespace, then name; FailedCreate by kind between
 * them) and, within a key, by position in the cluster, so a lookup is a binary search and a
 * walk over the events of that one key, and every answer is the one the scan gave: the
 * newest (the first in cluster order among equals).
 */
#include "explain_int.h"
#include "util/util.h"
#include <stdlib.h>
#include <string.h>

struct ExplainEvents {
    const Cluster *c;
    const Event **sched;     /* FailedScheduling about a pod (kind Pod or unset) */
    size_t nsched;
    const Event **create;    /* FailedCreate */
    size_t ncreate;
};

/* NULL sorts first and equals only NULL (str_eq's rule) */
static int cmp_opt(const char *a, const char *b)
{
    if (!a || !b) return (a != NULL) - (b != NULL);
    return strcmp(a, b);
}

static int cmp_sched_key(const Event *x, const char *ns, const char *name)
{
    int r = cmp_opt(x->ns, ns);
    return r ? r : cmp_opt(x->involved_name, name);
}

static int cmp_create_key(const Event *x, const char *ns, const char *kind, const char *name)
{
    int r = cmp_opt(x->ns, ns);
    if (!r) r = cmp_opt(x->involved_kind, kind);
    return r ? r : cmp_opt(x->involved_name, name);
}

/* the pointers are into one array, so their order is the cluster's */
static int cmp_pos(const Event *x, const Event *y) { return (x > y) - (x < y); }

static int cmp_sched(const void *a, const void *b)
{
    const Event *x = *(const Event *const *)a, *y = *(const Event *const *)b;
    int r = cmp_sched_key(x, y->ns, y->involved_name);
    return r ? r : cmp_pos(x, y);
}

static int cmp_create(const void *a, const void *b)
{
    const Event *x = *(const Event *const *)a, *y = *(const Event *const *)b;
    int r = cmp_create_key(x, y->ns, y->involved_kind, y->involved_name);
    return r ? r : cmp_pos(x, y);
}

ExplainEvents *explain_events_new(const Cluster *c)
{
    ExplainEvents *ev = xcalloc(1, sizeof *ev);
    ev->c = c;
    size_t ns = 0, nc = 0;
    for (size_t i = 0; i < c->nevents; i++) {
        const Event *e = &c->events[i];
        if (str_eq(e->reason, "FailedScheduling")) ns += !e->involved_kind || str_eq(e->involved_kind, "Pod");
        else nc += str_eq(e->reason, "FailedCreate");
    }
    ev->sched = ns ? xmalloc(ns * sizeof *ev->sched) : NULL;
    ev->create = nc ? xmalloc(nc * sizeof *ev->create) : NULL;
    for (size_t i = 0; i < c->nevents; i++) {
        const Event *e = &c->events[i];
        if (str_eq(e->reason, "FailedScheduling")) {
            if (!e->involved_kind || str_eq(e->involved_kind, "Pod")) ev->sched[ev->nsched++] = e;
        } else if (str_eq(e->reason, "FailedCreate")) ev->create[ev->ncreate++] = e;
    }
    if (ev->nsched > 1) qsort(ev->sched, ev->nsched, sizeof *ev->sched, cmp_sched);
    if (ev->ncreate > 1) qsort(ev->create, ev->ncreate, sizeof *ev->create, cmp_create);
    return ev;
}

void explain_events_free(ExplainEvents *ev)
{
    if (!ev) return;
    free(ev->sched);
    free(ev->create);
    free(ev);
}

const Event *explain_events_failed_scheduling(const ExplainEvents *ev, const char *ns, const char *name)
{
    size_t lo = 0, hi = ev->nsched;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_sched_key(ev->sched[mid], ns, name) < 0) lo = mid + 1;
        else hi = mid;
    }
    const Event *best = NULL;
    for (size_t i = lo; i < ev->nsched && !cmp_sched_key(ev->sched[i], ns, name); i++)
        if (!best || ev->sched[i]->last_seen > best->last_seen) best = ev->sched[i];
    return best;
}

/* the first FailedCreate of (ns, kind, name) in the sorted array, and how many share the key */
static size_t create_range(const ExplainEvents *ev, const char *ns, const char *kind, const char *name, size_t *n)
{
    size_t lo = 0, hi = ev->ncreate;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_create_key(ev->create[mid], ns, kind, name) < 0) lo = mid + 1;
        else hi = mid;
    }
    size_t end = lo;
    while (end < ev->ncreate && !cmp_create_key(ev->create[end], ns, kind, name)) end++;
    *n = end - lo;
    return lo;
}

const Event *explain_events_failed_create(const ExplainEvents *ev, const char *ns, const char *kind, const char *name)
{
    size_t n, at = create_range(ev, ns, kind, name, &n);
    return n ? ev->create[at] : NULL;
}

bool explain_events_newest_create(const ExplainEvents *ev, const Event *e)
{
    size_t n, at = create_range(ev, e->ns, e->involved_kind, e->involved_name, &n);
    const Event *best = NULL;
    for (size_t i = at; i < at + n; i++)
        if (!best || ev->create[i]->last_seen > best->last_seen) best = ev->create[i];
    return best == e;
}

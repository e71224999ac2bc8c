/* groups.c — status --by: allocation, physical GPUs, idle and cost per group (groups.h). */
#include "analysis/groups.h"
#include "analysis/physical.h"
#include "groups_int.h"
#include "util/util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const by_names[] = { "namespace", "node", "product", "workload" };

bool group_by_parse(const char *s, GroupBy *by)
{
    for (int i = 0; i < 4; i++) if (s && str_eq(s, by_names[i])) { *by = (GroupBy)i; return true; }
    return false;
}

const char *group_by_name(GroupBy by) { return by_names[by]; }

/* the price of a node's GPUs */
static double price_of(const PriceList *pl, const NodeStatus *n)
{
    return price_list_for_product(pl, n->base_product, n->short_product);
}

#define group_for status_group_for

static void add_units(StatusGroup *sg, const char *resource, int64_t count)
{
    for (size_t i = 0; i < sg->nres; i++)
        if (str_eq(sg->res[i].name, resource)) { sg->res[i].count += count; return; }
    sg->res = xrealloc(sg->res, (sg->nres + 1) * sizeof *sg->res);
    sg->res[sg->nres++] = (ResourceCount){ xstrdup(resource), count };
}

/* a node's resources into its group's capacity (--by node, --by product) */
static void add_capacity(StatusGroup *sg, const NodeStatus *n)
{
    sg->nodes++;
    bool takes_pods = n->ready && n->schedulable;
    for (size_t i = 0; i < n->nres; i++) {
        const ResourceAlloc *r = &n->res[i];
        GroupCapacity *gc = NULL;
        for (size_t k = 0; k < sg->ncap && !gc; k++) if (str_eq(sg->cap[k].name, r->name)) gc = &sg->cap[k];
        if (!gc) {
            sg->cap = xrealloc(sg->cap, (sg->ncap + 1) * sizeof *sg->cap);
            gc = &sg->cap[sg->ncap++];
            *gc = (GroupCapacity){ .name = xstrdup(r->name) };
        }
        gc->allocatable += r->allocatable;
        gc->allocated += r->allocated;
        int64_t free_here = takes_pods && r->allocatable > r->allocated ? r->allocatable - r->allocated : 0;
        gc->free += free_here;
        if (free_here > gc->largest_free) gc->largest_free = free_here;
    }
}

static int cmp_cap(const void *a, const void *b)
{
    return strcmp(((const GroupCapacity *)a)->name, ((const GroupCapacity *)b)->name);
}

static int cmp_res(const void *a, const void *b)
{
    return strcmp(((const ResourceCount *)a)->name, ((const ResourceCount *)b)->name);
}

static int cmp_group(const void *a, const void *b)
{
    return strcmp(((const StatusGroup *)a)->name, ((const StatusGroup *)b)->name);
}

static const char *key_of(const NodeStatus *n, GroupBy by, const char *pod_ns)
{
    if (by == GROUP_NAMESPACE) return pod_ns;
    if (by == GROUP_NODE) return n->name;
    return n->short_product && *n->short_product ? n->short_product : "-";
}

void status_groups_build(StatusGroups *g, const GpuStatus *st, GroupBy by, const PriceList *prices)
{
    status_groups_build_for(g, st, NULL, NULL, by, prices);
}

void status_groups_build_for(StatusGroups *g, const GpuStatus *st, const struct Cluster *c,
                             const UsageData *u, GroupBy by, const PriceList *prices)
{
    memset(g, 0, sizeof *g);
    g->by = by;
    g->has_metrics = st->has_metrics;
    g->has_prices = prices && prices->n;
    size_t cap = 0;
    for (size_t i = 0; i < st->ngpu_node_list; i++) {
        const NodeStatus *n = &st->gpu_node_list[i];
        double price = price_of(prices, n);
        if (by == GROUP_NODE || by == GROUP_PRODUCT) {
            add_capacity(group_for(g, key_of(n, by, NULL), &cap), n);   /* a node with nothing held still shows */
        }
        for (size_t k = 0; k < n->npods; k++) {
            const HolderPod *p = &n->pods[k];
            char *wl = by == GROUP_WORKLOAD ? group_workload_of(c, p->ns, p->name) : NULL;
            StatusGroup *sg = group_for(g, wl ? wl : key_of(n, by, p->ns), &cap);
            free(wl);
            sg->pods++;
            for (size_t r = 0; r < p->nres; r++) {
                add_units(sg, p->res[r].name, p->res[r].count);
                double phys = (double)p->res[r].count * physical_share(n, p->res[r].name);
                sg->physical += phys;
                sg->cost_per_hour += phys * price;       /* NAN sticks: a holding without a price */
            }
        }
        for (size_t d = 0; st->has_metrics && d < n->ngpus; d++) {
            const GpuDevice *dev = &n->gpus[d];
            if (!dev->idle_allocated) continue;
            if ((by == GROUP_NAMESPACE || by == GROUP_WORKLOAD) && !dev->pod_ns) continue;   /* shared by several */
            char *wl = by == GROUP_WORKLOAD ? group_workload_of(c, dev->pod_ns, dev->pod) : NULL;
            group_for(g, wl ? wl : key_of(n, by, dev->pod_ns), &cap)->idle++;
            free(wl);
        }
    }
    status_groups_add_hours(g, st, c, u, prices, &cap);
    for (size_t i = 0; i < g->n; i++) {
        if (g->v[i].nres > 1) qsort(g->v[i].res, g->v[i].nres, sizeof *g->v[i].res, cmp_res);
        if (g->v[i].ncap > 1) qsort(g->v[i].cap, g->v[i].ncap, sizeof *g->v[i].cap, cmp_cap);
    }
    if (g->n > 1) qsort(g->v, g->n, sizeof *g->v, cmp_group);
}

void status_groups_clear(StatusGroups *g)
{
    for (size_t i = 0; i < g->n; i++) {
        free(g->v[i].name);
        for (size_t r = 0; r < g->v[i].nres; r++) free(g->v[i].res[r].name);
        free(g->v[i].res);
        for (size_t r = 0; r < g->v[i].ncap; r++) free(g->v[i].cap[r].name);
        free(g->v[i].cap);
    }
    free(g->v);
    memset(g, 0, sizeof *g);
}

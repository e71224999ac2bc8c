/* groups_hours.c — GPU-hours over the window per group and in status's summary (groups.h),
 * from the held times the Prometheus series give (usage.h UsageHeld).
 *
 * A held record counts physical GPU-hours: its share seconds (each interval of a time-shared
 * device divided among the pods holding it then) times the part of a physical GPU the device
 * is (a MIG device its compute slices over the GPU's, physical.h physical_share), over 3600.
 * Idle GPU-hours are the same over the intervals whose highest utilization stayed under the
 * idle threshold.  Money: hours times the price of the GPU's product (--price).
 */
#include "analysis/groups.h"
#include "analysis/physical.h"
#include "analysis/plan.h"
#include "model/cluster.h"
#include "model/mig_tables.h"
#include "util/strmap.h"
#include "util/util.h"
#include "groups_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int node_cmp(const void *key, const void *elem)
{
    return strcmp(key, ((const NodeStatus *)elem)->name);
}

/* the node as status shows it; NULL when it is not shown (filtered, or gone) */
static const NodeStatus *shown_node(const GpuStatus *st, const char *name)
{
    if (!name || !st->ngpu_node_list) return NULL;
    return bsearch(name, st->gpu_node_list, st->ngpu_node_list, sizeof *st->gpu_node_list, node_cmp);
}

/* "NVIDIA A100-SXM4-80GB" (DCGM modelName) -> "NVIDIA-A100-SXM4-80GB" (the GFD product) */
static char *model_as_product(const char *model)
{
    if (!model) return NULL;
    char *p = xstrdup(model);
    for (char *x = p; *x; x++) if (*x == ' ') *x = '-';
    return p;
}

/* the part of a physical GPU the held device is */
static double held_fraction(const NodeStatus *n, const UsageHeld *h)
{
    if (h->mig_instance < 0 || !h->mig_profile) return 1;
    if (n) {
        char *res = xasprintf("nvidia.com/mig-%s", h->mig_profile);
        double f = physical_share(n, res);
        free(res);
        return f;
    }
    char *prod = model_as_product(h->model);
    const MigGpuModel *m = prod ? mig_model_for_product(prod) : NULL;
    free(prod);
    int c = atoi(h->mig_profile);
    return (double)(c > 0 ? c : 1) / (m ? m->compute_slices : 7);
}

static double held_price(const PriceList *prices, const NodeStatus *n, const UsageHeld *h)
{
    if (!prices || !prices->n) return NAN;
    if (n) return price_list_for_product(prices, n->base_product, n->short_product);
    char *prod = model_as_product(h->model);
    double p = price_list_for_product(prices, prod, NULL);
    free(prod);
    return p;
}

/* is the record one status shows: its node among st's (a gone node only when no node
 * filter), its namespace st's (-n) */
static bool held_shown(const GpuStatus *st, const UsageHeld *h, const NodeStatus **n)
{
    *n = shown_node(st, h->node);
    if (!*n && (st->nodes_named || st->node_selector)) return false;
    if (st->pods_ns && !str_eq(st->pods_ns, h->ns)) return false;
    return h->pod != NULL;
}

char *group_workload_of(const struct Cluster *c, const char *ns, const char *pod)
{
    const Pod *p = c && ns && pod ? cluster_find_pod(c, ns, pod) : NULL;
    if (!p) return xasprintf("%s/Pod/%s", ns ? ns : "", pod ? pod : "");
    const char *kind, *name;
    char *tofree;
    plan_pod_workload(p, &kind, &name, &tofree);
    char *r = xasprintf("%s/%s/%s", ns, kind, name);
    free(tofree);
    return r;
}

/* a gone pod's workload: the known workload of its namespace whose name its own name extends
 * by one to three dash-separated parts (NAME-HASH-XXXXX, NAME-N, NAME-XXXXX), else Pod/NAME */
static char *gone_workload(StrMap *known, const char *ns, const char *pod)
{
    char *prefix = xasprintf("%s\x1f%s", ns ? ns : "", pod);
    char *r = NULL;
    for (int cut = 0; cut < 3 && !r; cut++) {
        char *dash = strrchr(prefix, '-');
        if (!dash) break;
        *dash = '\0';
        const char *w = strmap_get(known, prefix);
        if (w) r = xstrdup(w);
    }
    free(prefix);
    return r ? r : xasprintf("%s/Pod/%s", ns ? ns : "", pod);
}

static void free_str(void *v) { free(v); }

/* the workloads of the pods that exist, by "ns\x1fNAME" (for gone pods) */
static StrMap *known_workloads(const struct Cluster *c, const UsageData *u)
{
    StrMap *m = strmap_new();
    for (size_t i = 0; c && i < u->nheld; i++) {
        const UsageHeld *h = &u->held[i];
        const Pod *p = cluster_find_pod(c, h->ns, h->pod);
        if (!p) continue;
        const char *kind, *name;
        char *tofree;
        plan_pod_workload(p, &kind, &name, &tofree);
        if (strcmp(kind, "Pod") != 0) {
            char *key = xasprintf("%s\x1f%s", h->ns, name);
            if (!strmap_get(m, key)) strmap_put(m, key, xasprintf("%s/%s/%s", h->ns, kind, name));
            free(key);
        }
        free(tofree);
    }
    return m;
}

static void add_money(double *acc, double hours, double price)
{
    if (hours == 0) return;         /* no hours: the price does not matter */
    if (isnan(hours)) { *acc = NAN; return; }
    *acc += hours * price;          /* NAN sticks: a product without a price */
}

void status_groups_add_hours(StatusGroups *g, const GpuStatus *st, const struct Cluster *c,
                             const UsageData *u, const PriceList *prices, size_t *cap)
{
    g->has_hours = u && (u->nseries > 0 || u->nheld > 0);
    g->window_s = u ? u->window_s : 0;
    if (!g->has_hours) return;
    StrMap *known = g->by == GROUP_WORKLOAD ? known_workloads(c, u) : NULL;
    for (size_t i = 0; i < u->nheld; i++) {
        const UsageHeld *h = &u->held[i];
        const NodeStatus *n;
        if (!held_shown(st, h, &n)) continue;
        char *key = NULL;
        switch (g->by) {
        case GROUP_NAMESPACE: key = xstrdup(h->ns ? h->ns : ""); break;
        case GROUP_NODE: key = xstrdup(h->node ? h->node : "-"); break;
        case GROUP_PRODUCT: key = xstrdup(n && n->short_product && *n->short_product ? n->short_product : "-"); break;
        case GROUP_WORKLOAD:
            key = c && cluster_find_pod(c, h->ns, h->pod) ? group_workload_of(c, h->ns, h->pod)
                                                          : gone_workload(known, h->ns, h->pod);
            break;
        }
        StatusGroup *sg = status_group_for(g, key, cap);
        free(key);
        double f = held_fraction(n, h), price = held_price(prices, n, h);
        double gh = h->share_s * f / 3600, ih = h->idle_share_s * f / 3600;
        sg->held_records++;
        sg->gpu_hours += gh;
        sg->idle_gpu_hours += ih;      /* NAN sticks: a device without utilization */
        add_money(&sg->cost, gh, price);
        add_money(&sg->idle_cost, ih, price);
    }
    if (known) strmap_free(known, free_str);
    /* a group holding GPUs now that no series names: its hours are not known, not 0 */
    for (size_t i = 0; i < g->n; i++) {
        StatusGroup *sg = &g->v[i];
        if (sg->held_records || !sg->pods) continue;
        sg->gpu_hours = sg->idle_gpu_hours = sg->cost = sg->idle_cost = NAN;
    }
}

void status_hours_fill(GpuStatus *st, const UsageData *u, const PriceList *prices)
{
    st->has_hours = u && (u->nseries > 0 || u->nheld > 0);
    st->has_cost = prices && prices->n;        /* asked for: said even when not measured */
    st->gpu_hours = st->idle_gpu_hours = st->idle_cost = 0;
    if (!st->has_hours) return;
    for (size_t i = 0; i < u->nheld; i++) {
        const UsageHeld *h = &u->held[i];
        const NodeStatus *n;
        if (!held_shown(st, h, &n)) continue;
        double f = held_fraction(n, h), price = held_price(prices, n, h);
        double ih = h->idle_share_s * f / 3600;
        st->gpu_hours += h->share_s * f / 3600;
        st->idle_gpu_hours += ih;
        add_money(&st->idle_cost, ih, price);
    }
}

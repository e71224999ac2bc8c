/* health.c — a node's unhealthy GPUs from every health signal (health.h says which and why).
 *
 * NVSentinel condition messages (platform connector; NVIDIA/NVSentinel
 * platform-connectors/pkg/connectors/kubernetes, TestK8sNodeConditions) hold one fault per
 * ";"-terminated part: "ErrorCode:<code> GPU:<index> [PCI:... GPU_UUID:...] <text> Recommended
 * Action=<A>;".  For GpuXidError the error code is the XID number; for the DCGM watches it is a
 * DCGM_FR_* name and the text says "XID <n>" when an XID caused it.  A part naming no GPU makes
 * the node, not a GPU, unhealthy (the signal line says so).
 */
#include "analysis/health.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/quantity.h"
#include "util/util.h"

bool health_taint(const Taint *t)
{
    if (!t || !t->key) return false;
    /* NVSentinel fault-quarantine's documented keys (docs/INTEGRATIONS.md "Default Taint
     * Examples"): nvidia.com/gpu-xid-error, gpu-nvlink-error, syslog-xid-error, gpu-error */
    if (str_starts_with(t->key, "nvidia.com/") && str_ends_with(t->key, "-error")) return true;
    return str_starts_with(t->key, "gpu.health/") || str_starts_with(t->key, "nvlink.health/") ||
           str_starts_with(t->key, "nvswitch.health/");
}

static UnhealthyGpu *gpu_entry(NodeHealth *h, int index)
{
    for (size_t i = 0; i < h->ngpus; i++) if (h->gpus[i].index == index) return &h->gpus[i];
    if (h->ngpus >= HEALTH_MAX_GPUS) return NULL;
    h->gpus = xrealloc(h->gpus, (h->ngpus + 1) * sizeof *h->gpus);
    UnhealthyGpu *g = &h->gpus[h->ngpus++];
    g->index = index;
    g->why = NULL;
    return g;
}

static void add_reason(NodeHealth *h, int index, const char *why)
{
    UnhealthyGpu *g = gpu_entry(h, index);
    if (!g) return;
    if (!g->why) { g->why = xstrdup(why); return; }
    if (strstr(g->why, why)) return;
    char *s = xasprintf("%s; %s", g->why, why);
    free(g->why);
    g->why = s;
}

/* the integer after `key` in [p, end), -1 when none */
static long number_after(const char *p, const char *end, const char *key)
{
    size_t kl = strlen(key);
    for (const char *q = p; q + kl <= end; q++) {
        if (strncmp(q, key, kl) != 0) continue;
        const char *d = q + kl;
        while (d < end && *d == ' ') d++;
        if (d < end && isdigit((unsigned char)*d)) {
            long v = 0;
            while (d < end && isdigit((unsigned char)*d) && v < 1000000) v = v * 10 + (*d++ - '0');
            return v;
        }
    }
    return -1;
}

/* one condition: its ";" parts, each naming a GPU (or not) and maybe an XID */
static void from_condition(NodeHealth *h, const HealthCondition *c)
{
    const char *msg = c->message ? c->message : "";
    strvec_pushf(&h->signals, "condition %s=True%s%s%s%s", c->type, c->reason && *c->reason ? " (" : "",
                 c->reason ? c->reason : "", c->reason && *c->reason ? ")" : "", *msg ? ": " : "");
    if (*msg) {
        char *last = h->signals.v[h->signals.n - 1];
        char *s = xasprintf("%s%.300s", last, msg);
        free(last);
        h->signals.v[h->signals.n - 1] = s;
    }
    for (const char *p = msg; *p;) {
        const char *end = strchr(p, ';');
        if (!end) end = p + strlen(p);
        long gpu = number_after(p, end, "GPU:");
        if (gpu >= 0 && gpu < 4096) {
            long xid = number_after(p, end, "XID ");
            long code = number_after(p, end, "ErrorCode:");
            char why[160];
            if (xid < 0 && str_eq(c->type, "GpuXidError")) xid = code;   /* its error code is the XID */
            if (xid >= 0) snprintf(why, sizeof why, "XID %ld (%s)", xid, c->type);
            else snprintf(why, sizeof why, "%s", c->type);
            add_reason(h, (int)gpu, why);
        }
        p = *end ? end + 1 : end;
        while (*p == ' ') p++;
    }
}

static int64_t cap_units(const ResourceList *l, const char *name)
{
    int64_t u = quantity_units_ceil(rlist_get(l, name));
    return u < 0 ? 0 : u;
}

/* GPUs the device plugin holds back: capacity - allocatable, replicas and MIG devices turned
 * into GPUs (at least one GPU when any unit is missing) */
static int plugin_shortfall(const Node *n, const NodeInventory *inv, NodeHealth *h)
{
    int gpus = 0;
    for (size_t i = 0; i < n->capacity.n; i++) {
        const char *name = n->capacity.items[i].name;
        if (!resources_is_gpu(name)) continue;
        int64_t bad = cap_units(&n->capacity, name) - cap_units(&n->allocatable, name);
        if (bad <= 0) continue;
        int per = 1;
        if (resources_is_mig(name) || (inv && inv->mig_strategy == MIG_SINGLE && inv->mig_enabled)) per = 0;
        else if (inv && inv->replicas > 1) per = inv->replicas;
        int g = per > 0 ? (int)((bad + per - 1) / per) : 1;
        gpus += g;
        strvec_pushf(&h->signals, "device plugin: %s allocatable %lld < capacity %lld", name,
                     (long long)cap_units(&n->allocatable, name), (long long)cap_units(&n->capacity, name));
    }
    return gpus;
}

static void from_usage(NodeHealth *h, const Node *n, const UsageData *u)
{
    size_t nd = usage_node_gpus(u, n->name, NULL, 0);
    if (!nd) return;
    const GpuUsage **dev = xcalloc(nd, sizeof *dev);
    usage_node_gpus(u, n->name, dev, nd);
    for (size_t i = 0; i < nd; i++) {
        const GpuUsage *d = dev[i];
        char why[96];
        if (!isnan(d->xid) && d->xid > 0) {
            snprintf(why, sizeof why, "XID %.0f (DCGM)", d->xid);
            add_reason(h, d->gpu, why);
        }
        if (!isnan(d->ecc_dbe) && d->ecc_dbe > 0) {
            snprintf(why, sizeof why, "%.0f double-bit ECC error(s) (DCGM)", d->ecc_dbe);
            add_reason(h, d->gpu, why);
        }
    }
    free(dev);
}

static int cmp_gpu(const void *a, const void *b)
{
    return ((const UnhealthyGpu *)a)->index - ((const UnhealthyGpu *)b)->index;
}

void health_node(const Node *n, const NodeInventory *inv, const UsageData *usage, NodeHealth *h)
{
    memset(h, 0, sizeof *h);
    for (size_t i = 0; i < n->nhealth; i++) from_condition(h, &n->health[i]);
    for (size_t i = 0; i < n->ntaints; i++)
        if (health_taint(&n->taints[i])) {
            h->node_tainted = true;
            strvec_pushf(&h->signals, "taint %s%s%s:%s", n->taints[i].key, n->taints[i].value && *n->taints[i].value
                         ? "=" : "", n->taints[i].value ? n->taints[i].value : "", n->taints[i].effect);
        }
    for (size_t i = 0; i < n->gpu.nhami; i++)      /* HAMi's device plugin reports health per GPU */
        if (!n->gpu.hami[i].healthy) add_reason(h, n->gpu.hami[i].index, "HAMi registration: health false");
    if (usage) from_usage(h, n, usage);
    int physical = inv ? inv->physical : -1;
    /* indices beyond the node's GPUs name no GPU of it */
    if (physical > 0) {
        size_t w = 0;
        for (size_t i = 0; i < h->ngpus; i++) {
            if (h->gpus[i].index < physical) { h->gpus[w++] = h->gpus[i]; continue; }
            free(h->gpus[i].why);
        }
        h->ngpus = w;
    }
    if (h->ngpus > 1) qsort(h->gpus, h->ngpus, sizeof *h->gpus, cmp_gpu);
    int shortfall = plugin_shortfall(n, inv, h);
    /* the plugin's count and the named GPUs are likely the same GPUs: only the excess is unnamed */
    h->unhealthy_unnamed = shortfall > (int)h->ngpus ? shortfall - (int)h->ngpus : 0;
    if (physical >= 0 && (int)h->ngpus + h->unhealthy_unnamed > physical)
        h->unhealthy_unnamed = physical > (int)h->ngpus ? physical - (int)h->ngpus : 0;
}

void health_clear(NodeHealth *h)
{
    for (size_t i = 0; i < h->ngpus; i++) free(h->gpus[i].why);
    free(h->gpus);
    strvec_clear(&h->signals);
    memset(h, 0, sizeof *h);
}

int health_count(const NodeHealth *h) { return (int)h->ngpus + h->unhealthy_unnamed; }

int health_good_gpus(const Node *n)
{
    NodeInventory inv;
    inventory_node(n, NULL, &inv);
    if (inv.physical <= 0) return 0;
    NodeHealth h;
    health_node(n, &inv, NULL, &h);
    int bad = health_count(&h);
    health_clear(&h);
    return bad >= inv.physical ? 0 : inv.physical - bad;
}

const char *health_gpu(const NodeHealth *h, int index)
{
    for (size_t i = 0; i < h->ngpus; i++) if (h->gpus[i].index == index) return h->gpus[i].why;
    return NULL;
}

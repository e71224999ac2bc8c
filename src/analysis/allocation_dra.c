/* allocation_dra.c — the GPUs NVIDIA's DRA driver publishes, in `status` (allocation.h).
 *
 * Per node: the devices of its current ResourceSlices (model/dra.h), each with the claim it
 * is allocated to and the pods the claim is reserved for.  Physical GPUs behind them are
 * counted by uuid (a MIG device by its parentUUID), so a GPU published whole and as MIG
 * partitions (the driver's partitionable devices) is one GPU.  A node whose GPUs the device
 * plugin also advertises is the same hardware: its physical count is the larger of the two
 * counts, never their sum, so a mixed cluster (device plugin on some nodes, DRA on others, or
 * both while moving) adds up once.
 */
#include "analysis/allocation.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/dra.h"
#include "util/strmap.h"
#include "util/strpool.h"

bool status_node_has_dra(const Cluster *c, const Node *n)
{
    return dra_node_first(c->dra, n->name) != 0;
}

void node_dra_status_clear(NodeDraStatus *d)
{
    for (size_t i = 0; i < d->ndevs; i++) {
        DraDeviceStatus *v = &d->devs[i];
        free(v->name); free(v->type); free(v->product); free(v->profile); free(v->uuid); free(v->parent_uuid);
        free(v->claim);
        strvec_clear(&v->pods);
    }
    free(d->devs);
    memset(d, 0, sizeof *d);
}

/* "gpu-10" after "gpu-9": names compare with their numbers as numbers */
static int cmp_natural(const char *a, const char *b)
{
    while (*a && *b) {
        if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
            char *ea, *eb;
            unsigned long x = strtoul(a, &ea, 10), y = strtoul(b, &eb, 10);
            if (x != y) return x < y ? -1 : 1;
            a = ea; b = eb;
            continue;
        }
        if (*a != *b) return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++; b++;
    }
    return *a ? 1 : *b ? -1 : 0;
}

static int cmp_dev(const void *a, const void *b)
{
    return cmp_natural(((const DraDeviceStatus *)a)->name, ((const DraDeviceStatus *)b)->name);
}

/* "NVIDIA H100 80GB HBM3" -> the GFD spelling "NVIDIA-H100-80GB-HBM3" */
static char *gfd_spelling(const char *product)
{
    char *s = xstrdup(product);
    for (char *p = s; p && *p; p++) if (*p == ' ') *p = '-';
    return s;
}

void status_node_dra(NodeStatus *ns, const Cluster *c, const Node *n, StrPool *pool)
{
    const DraState *d = c->dra;
    if (!d) return;
    NodeDraStatus *o = &ns->dra;
    StrMap *gpus = strmap_new();
    size_t cap = 0;
    const DraDevice *first_gpu = NULL;
    for (size_t i = dra_node_first(d, n->name); i; i = d->devices[i - 1].node_next) {
        const DraDevice *v = &d->devices[i - 1];
        ARRAY_GROW(o->devs, o->ndevs, cap);
        DraDeviceStatus *s = &o->devs[o->ndevs++];
        memset(s, 0, sizeof *s);
        s->name = xstrdup(v->name); s->type = xstrdup(v->type); s->product = xstrdup(v->product);
        s->profile = xstrdup(v->profile); s->uuid = xstrdup(v->uuid); s->parent_uuid = xstrdup(v->parent_uuid);
        s->memory_mib = v->memory_bytes / (1024 * 1024);
        if (v->claim) {
            const DraClaim *cl = &d->claims[v->claim - 1];
            s->claim = xasprintf("%s/%s", cl->ns, cl->name);
            for (size_t k = 0; k < cl->reserved_for.n; k++) strvec_pushf(&s->pods, "%s/%s", cl->ns, cl->reserved_for.v[k]);
            o->allocated++;
        } else {
            s->blocked = dra_device_busy(d, v);
        }
        o->devices++;
        if (str_eq(v->type, "mig")) o->mig_devices++;
        if (!first_gpu && !str_eq(v->type, "mig") && v->memory_bytes > 0) first_gpu = v;
        const char *key = dra_device_gpu_key(v);
        if (!strmap_get(gpus, key)) { strmap_put(gpus, key, (void *)1); o->gpus++; }
    }
    strmap_free(gpus, NULL);
    if (!o->ndevs) return;
    qsort(o->devs, o->ndevs, sizeof *o->devs, cmp_dev);

    /* the same GPUs whichever way they are published: the larger count, never the sum */
    if (ns->inv->physical < o->gpus) {
        NodeInventory inv = *ns->inv;
        inv.physical = o->gpus;
        inv.physical_unsure = false;
        memset(inv.physical_detail, 0, sizeof inv.physical_detail);   /* compared whole */
        snprintf(inv.physical_detail, sizeof inv.physical_detail,
                 "counted from the devices the DRA driver publishes (%d)", o->gpus);
        ns->inv = strpool_intern_mem(pool, &inv, sizeof inv);
        ns->physical_gpus = o->gpus;
    }
    if (!ns->memory_per_gpu_mib && first_gpu) ns->memory_per_gpu_mib = first_gpu->memory_bytes / (1024 * 1024);
    ns->memory_mib = (int64_t)ns->physical_gpus * ns->memory_per_gpu_mib;
    if (!ns->product && o->devs[0].product) {
        /* one product for the table and JSON (issue 29 item 5): the driver's, in GFD spelling */
        char *product = gfd_spelling(o->devs[0].product), *short_name = allocation_product_short_name(product);
        ns->product = ns->base_product = strpool_intern(pool, product);
        ns->short_product = strpool_intern(pool, short_name);
        free(product); free(short_name);
        NodeInventory inv = *ns->inv;
        inv.product_src = PRODUCT_SRC_DRA;
        memset(inv.product_detail, 0, sizeof inv.product_detail);
        snprintf(inv.product_detail, sizeof inv.product_detail, "DRA driver attribute productName=%s",
                 o->devs[0].product);
        ns->inv = strpool_intern_mem(pool, &inv, sizeof inv);
    }
    /* the DRA driver is what publishes this node's GPUs: no device plugin is expected */
    size_t w = 0;
    for (size_t i = 0; i < ns->nproblems; i++) {
        if (ns->problems[i].code == PROBLEM_NO_DEVICE_PLUGIN) { free(ns->problems[i].message); continue; }
        ns->problems[w++] = ns->problems[i];
    }
    ns->nproblems = w;
}

void status_dra_totals(GpuStatus *st, const Cluster *c)
{
    for (size_t i = 0; i < st->ngpu_node_list; i++) {
        const NodeDraStatus *d = &st->gpu_node_list[i].dra;
        st->dra_gpus += d->gpus;
        st->dra_devices += d->devices;
        st->dra_allocated += d->allocated;
    }
    for (size_t i = 0; c->dra && i < c->dra->nclaims; i++) {
        const DraClaim *cl = &c->dra->claims[i];
        if (!cl->gpu) continue;
        st->dra_claims++;
        if (cl->allocated) st->dra_claims_allocated++;
        else st->dra_claims_pending++;
    }
}

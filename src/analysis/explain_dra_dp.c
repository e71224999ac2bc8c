/* explain_dra_dp.c — a device-plugin pod (nvidia.com/gpu) in a cluster where some nodes hand
 * their GPUs out through NVIDIA's DRA driver (explain_dra.h: explain_dra_adjust).
 *
 * Such a node carries GFD labels and advertises no GPU resource, which the device-plugin path
 * reads as "no device plugin" and would fix by running one.  On a DRA node that is wrong: the
 * driver already hands those GPUs out, and a device plugin beside it would hand them out twice.
 * So the fixes that would start a device plugin on a DRA node are dropped, a NoDevicePlugin
 * verdict whose nodes are all DRA nodes becomes ResourceName, and where a DRA node admitting
 * the pod has enough free whole GPUs of the driver, the fix is to ask for them with a claim.
 */
#include "explain_int.h"
#include "analysis/explain_dra.h"
#include "model/dra.h"
#include <stdlib.h>
#include <string.h>

static bool is_dra_node(const Cluster *c, const char *name) { return dra_node_first(c->dra, name) != 0; }

/* whole GPUs of the driver on the node that no claim holds */
static int free_whole_gpus(const Cluster *c, const char *node, int *total)
{
    int f = 0;
    *total = 0;
    for (size_t i = dra_node_first(c->dra, node); i; i = c->dra->devices[i - 1].node_next) {
        const DraDevice *v = &c->dra->devices[i - 1];
        if (!str_eq(v->type, "gpu")) continue;
        (*total)++;
        if (!dra_device_busy(c->dra, v)) f++;
    }
    return f;
}

void explain_dra_adjust(const Cluster *c, Explanation *e)
{
    if (!c->dra || !e->pod || !e->nnodes) return;
    int64_t want = 0;
    for (size_t i = 0; i < e->requests.n; i++)
        if (str_eq(e->requests.items[i].name, "nvidia.com/gpu")) want = explain_milli_units(e->requests.items[i].milli);
    /* 1. fixes that start a device plugin on a DRA node */
    size_t w = 0;
    for (size_t i = 0; i < e->fixes.n; i++) {
        FixInfo *fi = e->fix_info ? &e->fix_info[i] : NULL;
        if (fi && fi->advertise && fi->node && is_dra_node(c, fi->node)) {
            explain_fix_info_release(fi);
            free(e->fixes.v[i]);
            continue;
        }
        e->fixes.v[w] = e->fixes.v[i];
        if (e->fix_info) e->fix_info[w] = e->fix_info[i];
        w++;
    }
    e->fixes.n = w;
    /* 2. the DRA nodes among those stopped for want of a device plugin */
    Strvec dra_nodes = STRVEC_INIT;
    bool other_no_plugin = false;
    const char *claim_node = NULL;
    int claim_free = 0;
    for (size_t i = 0; i < e->nnodes; i++) {
        const NodeResult *r = &e->nodes[i];
        if (!explain_has_code(r, NR_NO_DEVICE_PLUGIN)) continue;
        if (!is_dra_node(c, r->node->name)) { other_no_plugin = true; continue; }
        strvec_push(&dra_nodes, r->node->name);
        bool only = true;      /* nothing else stops the pod there */
        for (size_t k = 0; k < r->nreasons; k++) if (r->reasons[k].code != NR_NO_DEVICE_PLUGIN) only = false;
        int total, f = free_whole_gpus(c, r->node->name, &total);
        if (only && want > 0 && f >= want && f > claim_free) { claim_node = r->node->name; claim_free = f; }
    }
    if (!dra_nodes.n) { strvec_clear(&dra_nodes); return; }
    Strbuf names = STRBUF_INIT;
    for (size_t i = 0; i < dra_nodes.n && i < MAX_NAMES; i++) strbuf_addf(&names, "%s%s", i ? ", " : "", dra_nodes.v[i]);
    if (dra_nodes.n > MAX_NAMES) strbuf_addf(&names, " +%zu more", dra_nodes.n - MAX_NAMES);
    strvec_pushf(&e->notes, "%s hand%s out %s GPUs through NVIDIA's DRA driver, not the device plugin: a pod gets them "
                 "with a ResourceClaim (DeviceClass gpu.nvidia.com), not with nvidia.com/gpu; do not start a device "
                 "plugin there (both would hand out the same GPUs)", strbuf_str(&names), dra_nodes.n == 1 ? "s" : "",
                 dra_nodes.n == 1 ? "its" : "their");
    if (!other_no_plugin) {     /* the notes that blame a missing device plugin are about DRA nodes */
        size_t k = 0;
        for (size_t i = 0; i < e->notes.n; i++) {
            if (strstr(e->notes.v[i], "(device plugin not running)")) { free(e->notes.v[i]); continue; }
            e->notes.v[k++] = e->notes.v[i];
        }
        e->notes.n = k;
    }
    if (e->verdict == V_NO_DEVICE_PLUGIN && !other_no_plugin) {
        e->verdict = V_RESOURCE_NAME;
        free(e->summary);
        e->summary = xasprintf("the nodes that could hold the pod hand out their GPUs through DRA (%s): nvidia.com/gpu "
                               "is not offered there", strbuf_str(&names));
    }
    if (claim_node) {            /* a pod change: after the fixes that change nothing or the pod */
        size_t at = 0;
        while (at < e->fixes.n && e->fix_info && e->fix_info[at].effort <= EFFORT_POD) at++;
        char *text = xasprintf("ask for the GPUs with a ResourceClaim instead of nvidia.com/gpu (spec.resourceClaims "
                               "with a ResourceClaimTemplate: deviceClassName gpu.nvidia.com, count %lld, and the "
                               "container's resources.claims naming it): node %s has %d free", (long long)want,
                               claim_node, claim_free);
        strvec_push(&e->fixes, "");                  /* one more slot */
        free(e->fixes.v[e->fixes.n - 1]);
        e->fix_info = xrealloc(e->fix_info, e->fixes.n * sizeof *e->fix_info);
        for (size_t i = e->fixes.n - 1; i > at; i--) {
            e->fixes.v[i] = e->fixes.v[i - 1];
            e->fix_info[i] = e->fix_info[i - 1];
        }
        e->fixes.v[at] = text;
        FixInfo *fi = &e->fix_info[at];
        memset(fi, 0, sizeof *fi);
        fi->effort = EFFORT_POD;
        fi->fits_on = xstrdup(claim_node);
    }
    strbuf_clear(&names);
    strvec_clear(&dra_nodes);
}

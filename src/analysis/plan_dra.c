/* plan_dra.c — nodes whose GPUs NVIDIA's DRA driver publishes are not planned (plan.h).
 *
 * The plan's levers are the device plugin's: a device-plugin ConfigMap key per node
 * (time-slicing, MPS) and mig-parted's nvidia.com/mig.config label.  Under DRA the driver
 * publishes the GPUs and their MIG devices itself, and sharing is asked for in a claim's
 * opaque driver config (GpuConfig sharing: TimeSlicing / MPS), so those levers do not apply:
 * such nodes are listed and left out, with the reason, instead of being given a plan.
 */
#include "analysis/plan.h"
#include "analysis/allocation.h"
#include "model/dra.h"
#include <stdlib.h>
#include <string.h>

size_t plan_leave_out_dra(const Cluster *c, const Node **nodes, size_t n, Strvec *warnings)
{
    if (!c->dra) return n;
    size_t w = 0, out = 0;
    Strbuf sb = STRBUF_INIT;
    for (size_t i = 0; i < n; i++) {
        if (!status_node_has_dra(c, nodes[i])) { nodes[w++] = nodes[i]; continue; }
        /* what the driver publishes there: physical GPUs, MIG devices, the product */
        int gpus = 0, migs = 0;
        const char *product = NULL;
        Strvec keys = STRVEC_INIT;
        for (size_t k = dra_node_first(c->dra, nodes[i]->name); k; k = c->dra->devices[k - 1].node_next) {
            const DraDevice *v = &c->dra->devices[k - 1];
            if (str_eq(v->type, "mig")) migs++;
            if (!product) product = v->product;
            if (!strvec_contains(&keys, dra_device_gpu_key(v))) { strvec_push(&keys, dra_device_gpu_key(v)); gpus++; }
        }
        strvec_clear(&keys);
        if (out < 6) {
            strbuf_addf(&sb, "%s%s %d x %s", out ? ", " : "", nodes[i]->name, gpus, product ? product : "GPU");
            if (migs) strbuf_addf(&sb, " (%d MIG device%s)", migs, migs == 1 ? "" : "s");
        }
        out++;
    }
    if (out > 6) strbuf_addf(&sb, " +%zu more", out - 6);
    if (out)
        strvec_pushf(warnings, "%zu node%s publish%s GPUs through NVIDIA's DRA driver and %s left out of MIG and sharing "
                     "plans: %s. Under DRA the driver publishes MIG devices and a claim's driver config asks for "
                     "time-slicing or MPS; the device-plugin ConfigMap and nvidia.com/mig.config this plan writes do "
                     "not apply there", out, out == 1 ? "" : "s", out == 1 ? "es" : "", out == 1 ? "is" : "are",
                     strbuf_str(&sb));
    strbuf_clear(&sb);
    return w;
}

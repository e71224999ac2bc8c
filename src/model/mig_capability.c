/* mig_capability.c — MIG capability of a node from its signals (mig_capability.h).
 *
 * The signals, in the order they are tried (the first that knows decides; adding a source is
 * one line in mig_capability):
 *   1. MIG devices on the node: a GFD single-strategy product "-MIG-<P>" (or the profile of an
 *      applied mig.config "all-<P>" layout, node.c), "-MIG-INVALID", mixed-strategy
 *      nvidia.com/mig-<P>.count labels, or nvidia.com/mig-* resources advertised -> yes;
 *   2. GFD's nvidia.com/mig.capable label, true or false (k8s-device-plugin
 *      internal/lm/nvml.go: true when any GPU of the node supports MIG);
 *   3. the MIG tables (mig_tables.c): a GFD product with a table -> yes; a product named but
 *      without a table (L40S, L4, T4, A10G ...) -> no: the tables hold every MIG-capable model;
 *   4. nothing else: unknown.  GPU memory size is never a signal: an L40S has 48 GB and no MIG.
 */
#include "model/mig_capability.h"
#include <string.h>
#include "util/util.h"

const char *mig_capable_name(MigCapable c)
{
    return c == MIG_CAP_YES ? "yes" : c == MIG_CAP_NO ? "no" : "unknown";
}

static bool has_mig_devices(const Node *n)
{
    const GpuFacts *g = &n->gpu;
    if (g->mig_single_profile || g->nmig) return true;
    if (g->product && strstr(g->product, "-MIG-")) return true;
    for (size_t i = 0; i < n->capacity.n; i++)
        if (resources_is_mig(n->capacity.items[i].name) && n->capacity.items[i].milli > 0) return true;
    return false;
}

static MigCapability cap(MigCapable c, const char *source, const MigGpuModel *m)
{
    return (MigCapability){ c, source, m };
}

MigCapability mig_capability(const Node *n)
{
    const GpuFacts *g = &n->gpu;
    const MigGpuModel *m = g->base_product ? mig_model_for_product(g->base_product) : NULL;
    if (!m && g->product) m = mig_model_for_product(g->product);
    const char *label = kv_get(&n->labels, "nvidia.com/mig.capable");
    const char *product = g->base_product ? g->base_product : g->product;

    if (has_mig_devices(n)) return cap(MIG_CAP_YES, "MIG devices on the node", m);                    /* 1 */
    if (str_eq(label, "true")) return cap(MIG_CAP_YES, "GFD label nvidia.com/mig.capable=true", m);  /* 2 */
    if (str_eq(label, "false")) return cap(MIG_CAP_NO, "GFD label nvidia.com/mig.capable=false", m);
    if (m) return cap(MIG_CAP_YES, "MIG table of the GPU model", m);                                  /* 3 */
    if (product && *product) return cap(MIG_CAP_NO, "GPU model without MIG (no MIG table)", NULL);
    return cap(MIG_CAP_UNKNOWN, NULL, NULL);                                                          /* 4 */
}

int mig_profile_per_gpu(const MigGpuModel *model, const char *profile)
{
    if (!profile) return -1;
    if (str_starts_with(profile, "nvidia.com/")) profile += strlen("nvidia.com/");
    if (model) {
        const MigProfile *p = mig_model_profile(model, profile);
        return p ? p->max_instances : -1;
    }
    int per = -1;
    for (size_t i = 0; i < mig_model_count(); i++) {
        const MigProfile *p = mig_model_profile(mig_model_at(i), profile);
        if (!p) continue;
        if (per >= 0 && per != p->max_instances) return -1;   /* the models disagree */
        per = p->max_instances;
    }
    return per;
}

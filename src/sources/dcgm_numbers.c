/* dcgm_numbers.c — a device's and a pod's usage numbers from their series' values, by the
 * rules dcgm.h states (dcgm_int.h): split or repeated values combined, utilization from
 * GR_ENGINE_ACTIVE or GPU_UTIL, the window maxima and health figures. */
#include "dcgm_int.h"
#include <math.h>

/* Several pod series of one device: equal values = the device value repeated per pod; different
 * values = a per-process split, whose sum is the device's. */
static double combine_split(const double *v, size_t n)
{
    if (n == 0) return NAN;
    bool equal = true;
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i] != v[0]) equal = false;
        sum += v[i];
    }
    return equal ? v[0] : sum;
}

static double combine_max(const double *v, size_t n)
{
    if (n == 0) return NAN;
    double m = v[0];
    for (size_t i = 1; i < n; i++) if (v[i] > m) m = v[i];
    return m;
}

bool dcgm_series_is_current(const SeriesVals *s)
{
    return HAS(s, DCGM_FB_USED) || HAS(s, DCGM_FB_FREE) || HAS(s, DCGM_GPU_UTIL) ||
           HAS(s, DCGM_GR_ENGINE_ACTIVE);
}

/* utilization in percent of one series following the device's choice of metric */
static double series_util(const SeriesVals *s, bool use_gr, bool max)
{
    DcgmField f = use_gr ? (max ? DCGM_GR_ENGINE_ACTIVE_MAX : DCGM_GR_ENGINE_ACTIVE)
                         : (max ? DCGM_GPU_UTIL_MAX : DCGM_GPU_UTIL);
    if (!HAS(s, f)) return NAN;
    return use_gr ? s->v[f] * 100.0 : s->v[f];
}

/* the largest value of field f over a device's series, NAN when none has it; values that
 * cannot be a reading (negative, not finite, DCGM's blank sentinels near 2^63) are skipped */
static double device_max(const SeriesVals *const *dev, size_t n, DcgmField f)
{
    double m = NAN;
    for (size_t i = 0; i < n; i++) {
        double x = dev[i]->v[f];
        if (!HAS(dev[i], f) || !isfinite(x) || x < 0 || x > 1e15) continue;
        if (isnan(m) || x > m) m = x;
    }
    return m;
}

static void collect_values(const SeriesVals *const *dev, size_t n, DcgmField f, double *buf, size_t *k)
{
    *k = 0;
    for (size_t i = 0; i < n; i++)
        if (HAS(dev[i], f)) buf[(*k)++] = dev[i]->v[f];
}

/* The numbers of a device's record from the values of its series (the current ones, in the
 * records' order: the one without a pod, then by namespace, pod, container), by dcgm.h's
 * rules; *use_gr: its utilization is GR_ENGINE_ACTIVE's.  buf has room for nd values.  One
 * function for the records built (dcgm_accum_finish) and the ones refilled, so both agree. */
void dcgm_device_numbers(const SeriesVals *const *dev, size_t nd, bool mig, double *buf,
                           UsageNumbers *u, bool *use_gr)
{
    size_t k;
    bool gr = false;
    for (size_t t = 0; t < nd; t++)
        if (HAS(dev[t], DCGM_GR_ENGINE_ACTIVE) || HAS(dev[t], DCGM_GR_ENGINE_ACTIVE_MAX)) gr = true;
    *use_gr = gr;
    u->mem_total_mib = u->util = u->util_max = NAN;
    collect_values(dev, nd, DCGM_FB_USED, buf, &k);
    u->mem_used_mib = combine_split(buf, k);
    collect_values(dev, nd, DCGM_FB_FREE, buf, &k);
    double free_mib = combine_max(buf, k);
    collect_values(dev, nd, DCGM_FB_RESERVED, buf, &k);
    double reserved = k ? combine_max(buf, k) : 0;
    if (!isnan(u->mem_used_mib) && !isnan(free_mib)) u->mem_total_mib = u->mem_used_mib + free_mib + reserved;
    if (gr || !mig) {
        k = 0;
        for (size_t t = 0; t < nd; t++) { double x = series_util(dev[t], gr, false); if (!isnan(x)) buf[k++] = x; }
        u->util = combine_split(buf, k);
        k = 0;
        for (size_t t = 0; t < nd; t++) { double x = series_util(dev[t], gr, true); if (!isnan(x)) buf[k++] = x; }
        u->util_max = combine_split(buf, k);
    }
    u->temp_c = device_max(dev, nd, DCGM_GPU_TEMP);
    u->power_w = device_max(dev, nd, DCGM_POWER_USAGE);
    u->xid = device_max(dev, nd, DCGM_XID_ERRORS);
    u->ecc_dbe = device_max(dev, nd, DCGM_ECC_DBE);
}

/* the numbers of a per-pod record from its series and its device's numbers */
void dcgm_pod_numbers(const SeriesVals *s, const UsageNumbers *dev, bool mig, bool use_gr, UsageNumbers *p)
{
    p->mem_used_mib = HAS(s, DCGM_FB_USED) ? s->v[DCGM_FB_USED] : NAN;
    p->mem_total_mib = dev->mem_total_mib;
    p->util = p->util_max = NAN;
    if (use_gr || !mig) {
        p->util = series_util(s, use_gr, false);
        p->util_max = series_util(s, use_gr, true);
    }
    p->temp_c = p->power_w = p->xid = p->ecc_dbe = NAN;
}

void dcgm_numbers_put(GpuUsage *u, const UsageNumbers *n)
{
    u->mem_used_mib = n->mem_used_mib; u->mem_total_mib = n->mem_total_mib;
    u->util = n->util; u->util_max = n->util_max;
    u->temp_c = n->temp_c; u->power_w = n->power_w; u->xid = n->xid; u->ecc_dbe = n->ecc_dbe;
}


/* dcgm_int.h — private to src/sources/dcgm*.c: a series' values as the accumulator keeps them,
 * and the numbers of a record made from them (dcgm_numbers.c), shared by the records built
 * (dcgm_accum_finish) and the ones refilled at top's ticks (dcgm_accum_finish_refill) so both
 * agree.  Not a public contract. */
#ifndef KGPU_SOURCES_DCGM_INT_H
#define KGPU_SOURCES_DCGM_INT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sources/dcgm.h"
#include "model/usage.h"

/* a series' values */
typedef struct {
    double v[DCGM__FIELDS];
    uint16_t has;               /* bit f: v[f] was given (a bool each was 8 bytes more a series,
                                 * some 70,000 at 5,000 GPU nodes) */
    int32_t gpu;                /* refill: the series' gpu index (as Series.gpu) */
} SeriesVals;

#define HAS(x, f) (((x)->has >> (f)) & 1u)
_Static_assert(DCGM__FIELDS <= 12, "SeriesVals.has holds a bit per field, and a slot's flags above");

/* the series carries a current reading (memory or utilization), not only window maxima */
bool dcgm_series_is_current(const SeriesVals *s);
/* The numbers of a device's record from the values of its series (the current ones, in the
 * records' order: the one without a pod, then by namespace, pod, container), by dcgm.h's
 * rules; *use_gr: its utilization is GR_ENGINE_ACTIVE's.  buf has room for nd values. */
void dcgm_device_numbers(const SeriesVals *const *dev, size_t nd, bool mig, double *buf,
                         UsageNumbers *u, bool *use_gr);
/* the numbers of a per-pod record from its series and its device's numbers */
void dcgm_pod_numbers(const SeriesVals *s, const UsageNumbers *dev, bool mig, bool use_gr, UsageNumbers *p);
/* n's numbers written into record u */
void dcgm_numbers_put(GpuUsage *u, const UsageNumbers *n);
#endif

/* usage_workloads.h — DCGM usage folded per workload, once, for every reader: the records of
 * Prometheus' per-workload queries (sources/prometheus_usage.c) and the plan's per-owner usage
 * (analysis/plan_input.c) are made by the same keyed table and the same fold.
 *
 * UsageKeys: an index of records by a key of up to four strings (namespace, then names; NULL
 * reads as ""), so that no reader joins its own key.
 *
 * The fold: a workload's statistic is the largest of its devices' (or its containers') —
 * memory and utilization are per device, never summed — NAN meaning unknown and losing to any
 * number; samples are the most any part has; devices add up.
 */
#ifndef KGPU_USAGE_WORKLOADS_H
#define KGPU_USAGE_WORKLOADS_H
#include <stdbool.h>
#include <stddef.h>
#include "model/usage.h"
#include "util/strmap.h"
#include <stdint.h>

typedef struct { char *key; uint32_t at, hash; } UsageKeySlot;   /* at = index + 1, 0 = free */
typedef struct { UsageKeySlot *slots; size_t cap, n; } UsageKeys;
void usage_keys_init(UsageKeys *k);
void usage_keys_release(UsageKeys *k);
/* the index of the key (a, b, c, d): a new one (the number of keys so far, *made = true) when
 * the key is new */
size_t usage_keys_at(UsageKeys *k, const char *a, const char *b, const char *c, const char *d, bool *made);

double usage_max_nan(double a, double b);   /* the larger; NAN only when both are */
/* a record with nothing folded in yet: NAN statistics, no samples, no devices (strings untouched) */
void workload_usage_stats_init(WorkloadUsage *u);
/* from's statistics folded into into's (see above); from->devices of 0 counts as one device */
void workload_usage_fold(WorkloadUsage *into, const WorkloadUsage *from);

/* DCGM's window statistics of one device held by one container, one query each */
typedef enum {
    USAGE_WL_MEM_PCT, USAGE_WL_MEM_MAX, USAGE_WL_GR_PCT, USAGE_WL_GR_MAX, USAGE_WL_UTIL_PCT,
    USAGE_WL_UTIL_MAX, USAGE_WL_SAMPLES, USAGE_WL__N
} UsageWlStat;

typedef struct {
    char *ns, *pod, *container;
    int gi;                    /* GPU_I_ID, -1 for a whole GPU */
    double v[USAGE_WL__N];
    bool has[USAGE_WL__N];
} UsageWlDevice;

typedef struct { UsageWlDevice *d; size_t n, cap; UsageKeys keys; } UsageWlDevices;
void usage_wl_devices_init(UsageWlDevices *t);
void usage_wl_devices_release(UsageWlDevices *t);
/* one statistic of the device `device` (any string naming it) held by (ns, pod, container) */
void usage_wl_devices_add(UsageWlDevices *t, const char *ns, const char *pod, const char *container,
                          const char *device, int gi, UsageWlStat s, double v);
/* per container, sorted by namespace, pod and container: its devices folded (utilization from
 * the graphics engine's activity when a device reports it, else GPU_UTIL, which means nothing
 * on a MIG instance); the caller frees with workload_usage_free */
void usage_wl_devices_fold(const UsageWlDevices *t, WorkloadUsage **out, size_t *nout);
#endif

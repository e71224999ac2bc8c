/* dcgm.h — the Prometheus text exposition format as the DCGM exporter serves it, and the
 * DCGM series turned into GpuUsage records (shared/reference/dcgm-exporter.md).
 *
 * Two layers:
 *   dcgm_promtext_parse   any Prometheus text / OpenMetrics body -> one callback per sample;
 *                    malformed lines are skipped and counted, never fatal.
 *   DcgmAccum        collects DCGM series (from a scrape or from Prometheus query results)
 *                    keyed by device and pod, and turns them into UsageData.gpus (one per
 *                    device) and UsageData.pods (one per device and pod).
 *
 * Labels understood: Hostname | hostname (node; else node | kubernetes_node), gpu, UUID | uuid,
 * modelName, GPU_I_PROFILE, GPU_I_ID, namespace/pod/container (or pod_namespace/pod_name/
 * container_name of --use-old-namespace; exported_namespace/exported_pod/exported_container,
 * which Prometheus writes when the scrape target's own pod labels collide — those win).
 *
 * Strings passed to callbacks are borrowed and live only during the call.
 */
#ifndef KGPU_DCGM_H
#define KGPU_DCGM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/usage.h"

typedef struct { const char *name, *value; } PromLabel;

#define PROM_NO_TIMESTAMP INT64_MIN

typedef struct {
    size_t lines;          /* lines read (comments and blanks included) */
    size_t samples;        /* samples handed to the callback */
    size_t skipped;        /* malformed lines skipped */
    size_t first_bad_line; /* 1-based line number of the first skipped line, 0 if none */
} PromTextStats;

/* called once per sample; return non-zero to stop parsing */
typedef int (*PromSampleFn)(void *ctx, const char *metric, const PromLabel *labels,
                            size_t nlabels, double value, int64_t timestamp_ms);

/* Parses text[0..len) (need not be NUL-terminated).  Accepts # HELP / # TYPE / # EOF and other
 * comments, label values with \" \\ \n escapes, optional timestamps (ms, or OpenMetrics
 * seconds with a fraction), NaN, +Inf, -Inf.  Returns 0, or the callback's non-zero value. */
int dcgm_promtext_parse(const char *text, size_t len, PromSampleFn fn, void *ctx, PromTextStats *st);

/* label lookup (first of the names given, NULL-terminated list) */
const char *dcgm_prom_label(const PromLabel *labels, size_t n, const char *name);

typedef enum {
    DCGM_FB_USED, DCGM_FB_FREE, DCGM_FB_RESERVED,
    DCGM_GPU_UTIL,               /* percent */
    DCGM_GR_ENGINE_ACTIVE,       /* ratio 0..1 as served; stored x100 */
    DCGM_GPU_UTIL_MAX,           /* max over the idle window (from Prometheus) */
    DCGM_GR_ENGINE_ACTIVE_MAX,   /* ratio, max over the idle window */
    DCGM_GPU_TEMP,               /* degrees C */
    DCGM_POWER_USAGE,            /* W */
    DCGM_XID_ERRORS,             /* the last XID code (0 none); from Prometheus its max over the window */
    DCGM_ECC_DBE,                /* double-bit ECC errors: volatile total (scrape), or the
                                    volatile / aggregate total's increase over the window */
    DCGM__FIELDS
} DcgmField;

/* DCGM metric name -> field; false for metrics this tool does not use */
bool dcgm_field_from_metric(const char *metric, DcgmField *f);

/* the pod a series names, by the label rules above (NULLs when none); borrowed from labels */
void dcgm_series_pod(const PromLabel *labels, size_t n, const char **ns, const char **pod,
                     const char **container);
/* "node\x1fUUID-or-gpuN\x1fGPU_I_ID" naming the series' device, NULL when the series names no
 * node or no device (or a bad GPU_I_ID); caller frees */
char *dcgm_series_device(const PromLabel *labels, size_t n, const char *default_node);
/* the parts of that device name: node, UUID (NULL when none), gpu index, GPU_I_ID (-1 when
 * none); false as dcgm_series_device gives NULL.  Borrowed from labels */
bool dcgm_series_ids(const PromLabel *labels, size_t n, const char **node, const char **uuid,
                     int *gpu, int *gi);
/* GPU_I_ID of a series, -1 for a whole GPU */
int dcgm_series_instance(const PromLabel *labels, size_t n);

typedef struct DcgmAccum DcgmAccum;
DcgmAccum *dcgm_accum_new(void);
/* the same, its series' strings interned in d's pool (usage_intern) as they arrive: the records
 * dcgm_accum_finish builds into d then share them instead of copying each again (a second copy
 * of every name and UUID while the records are built).  Finish into that d only. */
DcgmAccum *dcgm_accum_new_into(UsageData *d);
void dcgm_accum_free(DcgmAccum *a);
/* An accumulator that refills the records of `of` (UsageData.refill, usage.h): instead of
 * series it keeps a slot of values per record of `of` (whose records it only reads, and which
 * must not change until the refill is applied or dropped).  It fails (dcgm_accum_refill_failed)
 * as soon as a series names no record of `of`, other than a GPU-level series beside MIG
 * instances, which the records leave out too. */
DcgmAccum *dcgm_accum_new_refill(const UsageData *of);
bool dcgm_accum_refill_failed(const DcgmAccum *a);
/* A refill accumulator's result: true and d->refill set (the numbers every record of `of`
 * would have if dcgm_accum_finish made them again: same rules, same order), or false when the
 * series would make other records than of's (a record without a current series, another
 * holder count, model or MIG profile, or a failure above).  The accumulator is empty after. */
bool dcgm_accum_finish_refill(DcgmAccum *a, UsageData *d);
/* Adds one value.  default_node names the node when the series has no Hostname label (a pod
 * scrape knows its node); may be NULL.  Series without a node and without a UUID are
 * ignored (returns false). */
bool dcgm_accum_add(DcgmAccum *a, DcgmField f, const PromLabel *labels, size_t n,
                    double value, const char *default_node);
/* Moves the result into d->gpus / d->pods (appending; sorted by node, gpu, GPU_I_ID, pod).
 * Rules, per device (node + UUID + GPU_I_ID):
 *   - several pod series (time-slicing): when their values are equal the exporter repeated
 *     the device value for each pod (the usual case) and the device gets that value; when they
 *     differ the exporter split it per process (4.5+ sharing-aware mode) and the device gets
 *     the sum.  Same rule for memory, utilization and its maximum;
 *   - total memory = used + free + reserved (FB_FREE, FB_RESERVED are device values);
 *   - utilization = GR_ENGINE_ACTIVE x 100 when the device reports it (MIG instances always
 *     need it: GPU_UTIL is not reported there), else GPU_UTIL;
 *   - a GPU that has MIG-instance series drops its own GPU-level series (older exporters
 *     emitted both; counting both would count its memory twice).
 * The accumulator is empty afterwards. */
void dcgm_accum_finish(DcgmAccum *a, UsageData *d);

/* Convenience: one scrape body of the exporter -> d (source, detail untouched). */
void dcgm_parse_text(const char *text, size_t len, const char *default_node, UsageData *d,
                     PromTextStats *st);
#endif

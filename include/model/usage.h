/* usage.h — GPU usage as the model holds it: per device, per (device, pod) and per workload,
 * and the joins to nodes and pods.  The sources (metrics.h: Prometheus, the DCGM exporter)
 * fill these records; analysis and render read them through the joins.
 *
 * UsageData owns everything; usage_clear releases it.  Memory is MiB, utilization percent
 * (0-100); NAN means unknown.
 *
 * Devices: UsageData.gpus has one record per device (whole GPU or MIG instance);
 * UsageData.pods one per (device, pod).
 */
#ifndef KGPU_USAGE_H
#define KGPU_USAGE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "util/util.h"

typedef struct {
    char *node;                 /* Hostname / hostname label = node name */
    int gpu;                    /* gpu index */
    int mig_instance;           /* GPU_I_ID, -1 for a whole GPU (beside gpu: 136 bytes a
                                 * record, not 144, at 70,000 records a set) */
    char *uuid;
    char *model;                /* modelName */
    char *mig_profile;          /* GPU_I_PROFILE ("1g.10gb"), NULL for a whole GPU */
    char *ns, *pod, *container; /* pod holding the device, NULL when none (or not mapped) */
    double mem_used_mib, mem_total_mib;
    double util;                /* now (instant) or average over the window */
    double util_max;            /* highest over the idle window (NAN for instant-only sources) */
    /* added with the metrics sources (issue 5): */
    int holders;                /* pods whose series name this device (time-slicing: > 1);
                                 * in UsageData.gpus ns/pod/container are set only when 1 */
    /* added with the series (issue 16): */
    int series;                 /* 1 + the row of this device's series in UsageData
                                 * (series_util/series_mem); the device's record in gpus and its
                                 * per-pod records in pods share it; 0 = no series */
    /* added with health (issue 29), device records only; NAN (or 0 from a zeroed record)
     * when the exporter does not serve them */
    double temp_c, power_w;     /* DCGM_FI_DEV_GPU_TEMP (C), DCGM_FI_DEV_POWER_USAGE (W) */
    double xid;                 /* DCGM_FI_DEV_XID_ERRORS: last XID code, 0 none (Prometheus:
                                 * the largest over the window) */
    double ecc_dbe;             /* double-bit ECC errors (DCGM_FI_DEV_ECC_DBE_VOL_TOTAL /
                                 * _AGG_TOTAL; Prometheus: their increase over the window) */
} GpuUsage;

/* How long one pod held one device over the window, from the downsampled series (Prometheus
 * only).  One record per (device, pod) whose series exist in the window, including pods that
 * are gone now.  Seconds are whole series intervals (UsageData.series_step) in which the pod's
 * series has a sample. */
typedef struct {
    char *node, *uuid, *model, *mig_profile;   /* the device, as in GpuUsage */
    int gpu, mig_instance;
    char *ns, *pod;
    double held_s;              /* seconds of the window the pod held the device */
    double idle_s;              /* of those, seconds whose highest utilization stayed under the
                                 * idle threshold; NAN when the device reports no utilization */
    double share_s;             /* held_s with each interval divided among the pods holding the
                                 * device in it (time-slicing): the device-seconds that are the
                                 * pod's; summed over pods it never exceeds the window */
    double idle_share_s;        /* idle_s divided the same way; NAN as idle_s */
} UsageHeld;

typedef struct {
    char *ns, *pod, *container;
    char *owner_kind, *owner_name;   /* filled by the plan from the cluster, may be NULL */
    double mem_peak_mib, mem_pct_mib;   /* peak and --percentile of memory used over the window */
    double util_peak, util_pct;         /* peak and percentile of utilization over the window */
    double samples;             /* how much data backs this (sample count or coverage) */
    int devices;                /* devices (GPUs / MIG instances) the workload's series name;
                                 * memory and utilization above are per device (the largest) */
} WorkloadUsage;

typedef struct UsageData {
    GpuUsage *gpus; size_t ngpus;
    char *source;               /* "prometheus" | "dcgm" | "none" */
    char *detail;               /* URL / how found, or why there are no metrics */
    double window_s;            /* idle window */
    double idle_threshold;      /* percent */
    Strvec warnings;            /* server warnings, partial data */
    /* added with the metrics sources (issue 5): */
    GpuUsage *pods; size_t npods;   /* one record per (device, pod) holding it; a time-sliced
                                     * device shared by two pods has two records here and one
                                     * in gpus.  Memory/utilization are what the exporter
                                     * attributes to that pod (the whole device's value on
                                     * exporters that do not split per process). */
    bool windowed;              /* util_max is known (Prometheus); false for a DCGM scrape */
    double evaluated_at;        /* epoch seconds the values are for (0 = unknown) */
    struct UsageIndex *index;   /* private: the joins' lookups by node and pod, made on first
                                 * use (for as many gpus/pods as there are then) */
    struct StrArena *strings;   /* private: the pool of usage_intern (util/strarena.h) */
    /* added with the series (issue 16), Prometheus only (MetricsQuery.want_series):
     * series_points values per device, point k standing for the interval
     * (series_start + (k-1) * series_step, series_start + k * series_step] of the window (the
     * last point ends at evaluated_at).  Read them through usage_util_series /
     * usage_mem_series (floats, NAN = no sample in that interval); the sources write them
     * through usage_series_set. */
    size_t series_points;       /* per row, at most USAGE_SERIES_MAX; 0 = no series */
    size_t nseries;             /* rows */
    double series_start, series_step;   /* epoch seconds of point 0's end; seconds per point */
    /* private (usage_series.c): the points in 16 bits each (issue 35: 51,424 devices x 60
     * points x 2 fields were 24.7 MB as floats), nseries x series_points per field, and per
     * row and field the grid of the codes (series_grid[2 * row + field]) */
    uint16_t *series_util;      /* highest utilization (percent) */
    uint16_t *series_mem;       /* highest memory used (MiB) */
    struct UsageSeriesGrid *series_grid;
    UsageHeld *held; size_t nheld;   /* per (device, pod) over the window, sorted by ns, pod */
    struct UsageSeriesShare *series_share;  /* private: the series arrays are shared by copies
                                 * (usage_copy) and freed with the last; NULL = d's own */
    struct UsageStringsShare *strings_share;  /* private: the pool (strings) is shared the same
                                 * way by copies, read-only once shared; NULL = d's own */
    struct UsageRecordsShare *records_share;  /* private: so are the records (gpus, pods, held):
                                 * read-only once shared; NULL = d's own */
    /* added with the refill (issue 35): the new numbers of another UsageData's records instead
     * of records of its own (MetricsQuery.refill, usage_refill_apply); NULL = none */
    struct UsageRefill *refill;
    struct StrArena *held_strings;  /* private: after a refill with series, the pool of the held
                                 * records' strings that are not in `strings` (shared as it is) */
} UsageData;

/* The numbers of a record that a metrics refresh changes (GpuUsage's, in its order). */
typedef struct {
    double mem_used_mib, mem_total_mib, util, util_max, temp_c, power_w, xid, ecc_dbe;
} UsageNumbers;

/* A number kept exactly in 4 bytes (a refill's, issue 35): the bits of the float it is when
 * the double is that float bit for bit (whole numbers up to 2^24, halves, quarters...), else
 * (wide) the index of the double in a list beside.  Reads back as the same double, bit for
 * bit, so nothing shown or written changes. */
static inline bool usage_exact_narrow(double x, uint32_t *bits)
{
    if (!(x >= -3.4e38 && x <= 3.4e38)) return false;      /* NaN, infinities, beyond a float */
    float f = (float)x;
    double back = (double)f;
    if (memcmp(&back, &x, sizeof x) != 0) return false;
    memcpy(bits, &f, sizeof f);
    return true;
}

static inline double usage_exact_value(uint32_t code, bool wide, const double *wides)
{
    if (wide) return wides[code];
    float f;
    memcpy(&f, &code, sizeof f);
    return (double)f;
}

/* A record's UsageNumbers as such codes (36 bytes, was 64): bit i of wide says v[i] is an
 * index into the refill's wide values */
typedef struct { uint32_t v[8]; uint8_t wide; } UsageNumbersPacked;

/* A refill (top's metrics ticks, issue 35): when the instant values name the same devices
 * and pods as records already shown, only their numbers are new, and a second set of records
 * (some 90,000 of 136 bytes at 5,000 GPU nodes) is never built beside the shown one.  Per
 * record of `of` its new numbers, packed (gnums: per gpu record, pnums: per pod record; the
 * source accumulates its values in place of them and leaves the numbers there). */
typedef struct UsageRefill {
    const UsageData *of;        /* the records the numbers are for (their counts below) */
    size_t ngpus, npods;
    UsageNumbersPacked *gnums, *pnums;   /* both NULL: the series alone (the numbers stay) */
    double *wide; size_t nwide;          /* the numbers no float holds exactly */
    /* with the series fetched again (MetricsQuery.want_series): the refill's UsageData holds
     * the new series and held records (their strings of's or its own pool's), and per record
     * of `of` (gpus, then pods) 1 + its row there, 0 none; series_new without series (NULL):
     * the fetch failed, and the records are left without series as a new set would be */
    bool series_new;
    uint32_t *series;
} UsageRefill;

#define USAGE_SERIES_MAX 64     /* points per series at most (60 cover a window) */

typedef struct {
    double window_s;            /* default 3600 for status, 7d for plan */
    double idle_threshold;      /* default 5 (%) */
    double percentile;          /* for workload profiles, default 95 */
    bool want_workloads;        /* collect per-workload profiles (plan); from Prometheus the
                                 * device records (gpus, pods) are then not kept: the caller
                                 * reads the workloads */
    bool want_series;           /* also the downsampled series and held time (UsageData.series_*,
                                 * held): one more range query (top, snapshot, status --by) */
    bool no_held;               /* with want_series: the series without the held records (top
                                 * reads none; at 5,000 GPU nodes they and their build were
                                 * some 5 MB at the series re-fetch's peak) */
} MetricsQuery;

/* Usage kept in a snapshot (`kubectl gpu snapshot` with metrics reachable), for the commands
 * that read it offline: the device records over status's idle window (status, top) and the
 * workload profiles over plan's window (plan).  Filled by the snapshot reader. */
typedef struct UsageSnapshot {
    UsageData devices;          /* source, detail, window_s, idle_threshold, windowed,
                                 * evaluated_at, warnings, gpus, pods */
    bool have_devices;
    size_t capgpus, cappods, capseries, capheld;   /* the reader's capacities */
    WorkloadUsage *workloads; size_t nworkloads, capworkloads;
    bool have_workloads;
    char *wl_source, *wl_detail;
    double wl_window_s, wl_percentile, wl_evaluated_at;
    bool wl_windowed;
    Strvec wl_warnings;
} UsageSnapshot;

void usage_clear(UsageData *d);
void usage_snapshot_free(UsageSnapshot *s);   /* and s itself */
/* dst = a copy of src (dst's previous contents are not freed); the records, the series arrays
 * and the pool of interned strings, which never change once filled, are shared (counted,
 * thread-safe), not copied: neither src nor dst is changed afterwards (but freed, in any order,
 * and usage_take_series's src); the index of the joins is each copy's own */
void usage_copy(UsageData *dst, const UsageData *src);
/* The series and held times of src moved to dst, whose records are linked to src's rows by
 * device (node, gpu index, GPU_I_ID, UUID): for a refresh that reads the instant values again
 * but keeps series fetched shortly before (top).  dst's own series, if any, are kept instead;
 * nothing is done when dst's records are shared (a copy's).  src keeps its records, without
 * series. */
void usage_take_series(UsageData *dst, UsageData *src);
/* For the sources filling records: the UsageData's one copy of s (NULL for NULL), so that
 * memory follows the distinct node, model, UUID and pod names, not the records (every device
 * has a record in gpus and one per holder in pods, seven strings each).  The copy belongs to
 * d: put it in a record's field and never free or change it; usage_clear tells it from a
 * field's own malloc'd string, so records may mix both.  usage_intern_done drops the lookup
 * table once the records are filled (the strings stay; a later usage_intern starts a new
 * table, which may then copy a string twice). */
char *usage_intern(UsageData *d, const char *s);
/* next->refill's numbers written into shown's records (next->refill->of must be shown), and
 * next's source, detail, warnings, window, threshold and evaluation time moved into shown
 * (without numbers, only next's warnings are added to shown's); with series_new, shown's series and held records are replaced by next's (the records
 * linked to the new rows).  next is cleared.  false (nothing changed, next kept) when next
 * has no refill for shown. */
bool usage_refill_apply(UsageData *shown, UsageData *next);
void usage_intern_done(UsageData *d);
void workload_usage_free(WorkloadUsage *w, size_t n);


/* joins */
/* the devices (whole GPUs and MIG instances) of a node, sorted by gpu index then GPU_I_ID;
 * returns how many there are (out gets at most max) */
size_t usage_node_gpus(const UsageData *d, const char *node, const GpuUsage **out, size_t max);
/* per pod: summed memory, mean utilization over its devices; false when unknown */
bool usage_for_pod(const UsageData *d, const char *ns, const char *pod, double *mem_mib, double *util);
/* a device held by a pod whose utilization stayed under the threshold over the window */
bool usage_is_idle_allocated(const UsageData *d, const GpuUsage *u);
/* the per-pod records (UsageData.pods) of one device from UsageData.gpus */
size_t usage_device_pods(const UsageData *d, const GpuUsage *dev, const GpuUsage **out, size_t max);
/* a device's series into out (UsageData.series_points floats, NAN = no sample; out has room
 * for USAGE_SERIES_MAX); false, out untouched, when the device has none */
bool usage_util_series(const UsageData *d, const GpuUsage *u, float *out);
bool usage_mem_series(const UsageData *d, const GpuUsage *u, float *out);

/* The series' storage (usage_series.c), 16 bits a point.  Each row and field has its grid:
 * value = (base + code x step) / unit, unit 10,000 for utilization (percent) and 1 for memory
 * (MiB), base and step whole numbers chosen when the row is put.  When every value of the row
 * is on a grid of 1, 10, 100, 1,000 or 10,000 units that spans the row in 65,535 codes, they
 * read back as the floats they were (whole MiB up to 64 GiB of spread, whole percents,
 * GR_ENGINE_ACTIVE's two or four decimals); otherwise the finest step that spans the row,
 * within half a step (memory spread over more than 64 GiB: 0.5 MiB per 64 GiB; utilization
 * spread over 0-100 %: 0.0008 %).  A utilization point reads back on the same side of
 * UsageData.idle_threshold as its float (the idle answers do not change): set idle_threshold
 * before putting rows. */
typedef enum { USAGE_SERIES_UTIL = 0, USAGE_SERIES_MEM = 1 } UsageSeriesField;
/* for the sources, with series_points set: room for rows (d->nseries is the caller's to set;
 * new rows are not initialised; 0 rows frees the storage) */
void usage_series_resize(UsageData *d, size_t rows);
/* the same for the fields whose bit (1 << UsageSeriesField) is set in fields (the grid always;
 * no field: the grid alone, for usage_series_append) */
void usage_series_resize_fields(UsageData *d, unsigned fields, size_t rows);
/* a row's field from series_points floats (NAN or infinite = no sample) */
void usage_series_put_row(UsageData *d, UsageSeriesField f, size_t row, const float *v);
/* once every row is put (d->nseries of them): each row and field stored in as few bits as
 * its distinct codes need (a row of one value, or of the same few values, in 0-8 bits a
 * point after a list of them), or as its codes' spread needs (many values close together:
 * each point's code less the row's lowest, in 1-15 bits; whole percents take 7), whichever
 * is smaller, else 16; the storage cut to its size; every point reads back as before.  No row can be put afterwards (a second call does
 * nothing).  51,424 devices whose rows hold 11 values each: 12.3 MB to about 5.5 MB. */
void usage_series_pack(UsageData *d);
/* A build row by row (prometheus_series.c): each row put whole, packed as usage_series_pack
 * packs, at the end of its field's array (room made as needed; the grid's is the caller's:
 * usage_series_resize_fields without a field); a row reads back (usage_series_get) as soon as
 * it is put, and a row put again replaces the first, whose words stay behind until
 * usage_series_append_done drops them and cuts the arrays to rows [0, rows) (each of them
 * put).  exact_only: false, nothing put, when the values are on no grid where they read back
 * exactly (the caller keeps that row as floats and puts it at the end without exact_only). */
typedef struct { size_t used[2], cap[2]; bool reserved; } UsageSeriesAppend;   /* zeroed to start */
bool usage_series_append(UsageData *d, UsageSeriesAppend *st, UsageSeriesField f, size_t row,
                         const float *v, bool exact_only);
/* room for words codes of field f at once (a build whose size is about known: the set it
 * replaces); set st->reserved so that the field then grows by a sixteenth, not a quarter */
void usage_series_append_reserve(UsageData *d, UsageSeriesAppend *st, UsageSeriesField f, size_t words);
void usage_series_append_done(UsageData *d, UsageSeriesAppend *st, size_t rows);
/* the 16-bit words the rows' points take (both fields; a row's list of values included) */
size_t usage_series_codes(const UsageData *d);
/* the same for one field */
size_t usage_series_field_codes(const UsageData *d, UsageSeriesField f);
/* point k of a row (0-based, not GpuUsage.series) */
float usage_series_get(const UsageData *d, UsageSeriesField f, size_t row, size_t k);
/* seconds the device has been under the idle threshold up to the window's end: the trailing
 * run of its utilization series' intervals under the threshold (intervals without a sample
 * end the run, except the last one or two, where the newest scrape may not be in yet: those
 * are left out); NAN without a series */
double usage_idle_for(const UsageData *d, const GpuUsage *u);
/* how long all of a pod's devices have been idle: the shortest usage_idle_for of its per-pod
 * records; NAN when none has a series */
double usage_pod_idle_for(const UsageData *d, const char *ns, const char *pod);
/* the device records (UsageData.pods) of one pod */
size_t usage_pod_devices(const UsageData *d, const char *ns, const char *pod,
                         const GpuUsage **out, size_t max);
#endif

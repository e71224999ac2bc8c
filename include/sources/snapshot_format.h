/* snapshot_format.h — what `kubectl gpu snapshot` writes (format 2) and what only it writes.
 *
 * A snapshot is a JSON List (gzip-compressed by default) of the objects the model reads,
 * reduced to the fields it reads (snapshot_reduce), then, when metrics were reachable, the
 * usage the commands read offline as items of apiVersion kubectl-gpu/v1:
 *   UsageSource    one per query: "for": "devices" (status/top: the idle window) or
 *                  "workloads" (plan: its window and percentile); source, detail, window,
 *                  threshold, percentile, evaluation time, warnings
 *   GPUUsage       one per device ("of": "device") and per (device, pod) ("of": "pod")
 *   WorkloadUsage  one per workload container: percentile and peak of memory and utilization
 * The List's metadata.annotations carry the time, context, server, tool version (loader.h)
 * and the format version (SNAPSHOT_ANN_FORMAT).
 */
#ifndef KGPU_SNAPSHOT_FORMAT_H
#define KGPU_SNAPSHOT_FORMAT_H
#include <stdbool.h>
#include <stddef.h>
#include "model/cluster.h"
#include "model/usage.h"

#define SNAPSHOT_FORMAT_VERSION "2"
#define SNAPSHOT_ANN_FORMAT     "kubectl-gpu/snapshot-format"
#define SNAPSHOT_API_VERSION    "kubectl-gpu/v1"

struct cJSON;

/* A new object holding what the model reads of item (a kind the loader lists), with apiVersion
 * and kind first: metadata reduced to name, namespace, uid, labels, owners and timestamps (no
 * annotations, no managedFields), a pod's containers to name, resources and restartPolicy (a
 * DaemonSet's to name, image and resources: no env, command, args, mounts), pod and node spec
 * and status to the members read (of a pod's conditions, PodScheduled); env values anywhere are
 * dropped.  For pods and nodes the new object refers to members of item (item must outlive
 * it, and is not changed).  The caller deletes it. */
struct cJSON *snapshot_reduce(ObjKind kind, const struct cJSON *item);

/* Pods and nodes (most of a snapshot): the text of snapshot_reduce(kind, item) as
 * cJSON_PrintUnformatted prints it, byte for byte, handed to sink in one piece, without
 * building the reduced object: the kept values of item are walked, strings that need no
 * escape and integral numbers under 10^15 written as cJSON writes them, every other string,
 * number and literal printed by cJSON (cJSON_PrintPreallocated in place); the keys of the
 * reduction are its own constants.  The text is gathered in
 * *buf of *cap bytes (NULL/0 at first; grown with realloc, kept from item to item, freed by
 * the caller).  False for another kind or when a value could not be printed (nothing handed
 * to sink). */
typedef void (*SnapshotSinkFn)(void *ctx, const char *data, size_t n);
bool snapshot_reduce_write(ObjKind kind, const struct cJSON *item, char **buf, size_t *cap, SnapshotSinkFn sink,
                           void *ctx);

/* The usage records of one query, handed to fn one at a time (deleted when fn returns): for
 * "devices" d's gpus and pods, for "workloads" the n workload profiles w; q is the query that
 * gave them. */
typedef void (*SnapshotEmitFn)(void *ctx, struct cJSON *record);
void snapshot_usage_records(const char *what, const UsageData *d, const MetricsQuery *q,
                            const WorkloadUsage *w, size_t n, SnapshotEmitFn fn, void *ctx);

/* One item of apiVersion kubectl-gpu/v1 read from a snapshot, into c->stored_usage. */
void snapshot_usage_ingest(Cluster *c, const struct cJSON *item);

/* Offline: fills data (and, for a workloads query, *w / *nw) from c->stored_usage as the query
 * q asks (device records, or workload profiles when q->want_workloads).  The records are
 * handed over, not copied (at 5,000 nodes they are tens of MB): each kind is given once per
 * load, and a second query of the same kind finds none (the commands ask once; top with
 * --snapshot does not refresh); a workloads query also releases the device records (plan
 * reads none, as live).  A window or percentile other than the stored one becomes a
 * warning.  False when the snapshot holds no usage for that query (data untouched). */
bool snapshot_usage_fill(const Cluster *c, const MetricsQuery *q, UsageData *data,
                         WorkloadUsage **w, size_t *nw);
#endif

/* metrics.h — GPU usage from DCGM, through Prometheus or the DCGM exporter's own text format
 * (shared/reference/dcgm-exporter.md), joined to nodes, GPUs and pods.
 *
 * Source order (product.md): --prometheus URL; else a Prometheus found in the cluster, reached
 * through the API server's service proxy; else the DCGM exporter pods scraped through the pod
 * proxy (instant values only); else none, with the reason in UsageData.detail.
 * What is gathered (UsageData, WorkloadUsage) and its joins to nodes and pods are the
 * model's (usage.h); the sources only fill them.  How device values are derived from the
 * exporter's series (time-slicing, MIG, GR_ENGINE_ACTIVE vs GPU_UTIL) is stated in dcgm.h.
 *
 * Hidden environment variable (tests only, not in --help): KUBECTL_GPU_NOW=EPOCH_SECONDS
 * evaluates the Prometheus queries at that instant instead of the server's now, so tests can
 * read backfilled data at a known time (tests/integration/test_metrics_prometheus.sh).
 */
#ifndef KGPU_METRICS_H
#define KGPU_METRICS_H
#include <stdbool.h>
#include <stddef.h>
#include "model/cluster.h"
#include "sources/source_config.h"
#include "model/usage.h"

struct ApiClient;
struct Error;
/* Never fails the command: on any failure data->source = "none" and detail says why.
 * sc may be NULL (no metrics flags); api may be NULL (offline snapshot: metrics come from --prometheus or the snapshot). */
void metrics_collect(UsageData *data, const SourceConfig *sc, struct ApiClient *api,
                     const Cluster *c, const MetricsQuery *q,
                     WorkloadUsage **workloads, size_t *nworkloads);
/* The same for a view that shows `shown` (top's metrics refreshes, issue 35): when the instant
 * values come from Prometheus and name the same devices and pods as shown's records, data
 * holds only their new numbers (UsageData.refill: usage_refill_apply writes them into shown),
 * no records of its own; with q->want_series, the series alone: the new series and held
 * records (none with q->no_held) with the rows of shown's records (its numbers stay until the next refresh: the
 * device query only tells whether the source has DCGM series); otherwise (another source, a
 * device or pod come or gone) data is what metrics_collect makes.  shown's records are only read: they
 * must not change until data is applied or cleared (reading them beside another reader is
 * safe). */
void metrics_collect_refill(UsageData *data, const SourceConfig *sc, struct ApiClient *api,
                            const Cluster *c, const MetricsQuery *q, const UsageData *shown);
#endif

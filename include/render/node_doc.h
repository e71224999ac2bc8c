/* node_doc.h — a GPU node as a document (render/textdoc.h), built once from the analyses'
 * facts: the compact pane that top shows under its node list and the full node screen
 * (identity, sharing, problems, taints, the GPU Operator's components, usage, resources,
 * devices with their sparklines, DRA devices, the pods holding GPUs, labels).  top draws it;
 * a stream could print it with text_doc_print.  Presentation only: every fact comes from
 * GpuStatus, UsageData and the Cluster as the analyses computed and read them.
 */
#ifndef KGPU_RENDER_NODE_DOC_H
#define KGPU_RENDER_NODE_DOC_H
#include <stdbool.h>
#include <stddef.h>
#include "analysis/allocation.h"
#include "model/cluster.h"
#include "model/usage.h"
#include "render/textdoc.h"

typedef struct {
    const GpuStatus *status;     /* has_metrics, the metrics' source */
    const UsageData *usage;      /* the series of the sparklines; NULL: none */
    const Cluster *cluster;      /* the node's labels and taints */
} NodeDocData;

/* the pane under the node list: problems, resources, usage, the pods holding GPUs */
void node_doc_pane(TextDoc *d, const NodeDocData *td, const NodeStatus *n);
/* the full node screen; n NULL = the node is gone (name says which) */
void node_doc(TextDoc *d, const NodeDocData *td, const NodeStatus *n, const char *name);

/* "whole GPUs", "MIG devices", "time-slicing slots" for a node's resource; static or NULL */
const char *node_doc_resource_kind(const NodeStatus *n, const char *resource);
/* "nvidia.com/mig-1g.10gb" -> "mig-1g.10gb" */
const char *node_doc_short_resource(const char *name);
/* MiB as "512Mi", "12.5Gi"; "-" when NAN */
void node_doc_fmt_mib(char *out, size_t n, double mib);
/* seconds as "45s", "12m", "3h10m", "2d04h"; "-" when NAN or 0 */
void node_doc_fmt_duration(char *out, size_t n, double seconds);
/* a sparkline of v[0..n) scaled to [0, top], width columns (points merged by their highest):
 * block characters when utf8, else ASCII; a blank where no point has a sample.  Caller frees */
char *node_doc_sparkline(const float *v, size_t n, double top, int width, bool utf8);
/* the node's colour: red not ready / broken, yellow other problems, green fine */
TextAttr node_doc_attr(const NodeStatus *n);
/* one line under the header of the pane and the node screen: "A100-SXM4-80GB, 8 GPUs x 80Gi,
 * MIG mixed, Ready"; caller frees */
char *node_doc_summary(const NodeStatus *n);
#endif

/* node_doc_parts.h — the parts of a node's document made in their own files (private to
 * render): DRA devices and claims (node_doc_dra.c), the devices' sparklines (node_doc_spark.c). */
#ifndef KGPU_RENDER_NODE_DOC_PARTS_H
#define KGPU_RENDER_NODE_DOC_PARTS_H
#include "render/node_doc.h"

/* the pane: "DRA  6/8 devices allocated (8 GPUs)" and one line per claim with its pod;
 * nothing when the node has no DRA devices.  lw = the pane's label width */
void node_doc_dra_line(TextDoc *d, const NodeStatus *n, int lw);
/* the node screen: every DRA device with its MIG profile, memory, claim and pods */
void node_doc_dra_devices(TextDoc *d, const NodeStatus *n);
/* under a device's row of the node screen: its utilization and memory sparklines (nothing
 * when the metrics have no series for it) */
void node_doc_sparklines(TextDoc *d, const NodeDocData *td, const NodeStatus *n, const GpuDevice *g);
#endif

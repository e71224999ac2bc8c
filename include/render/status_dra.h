/* status_dra.h — the DRA part of `kubectl gpu status` (allocation.h: NodeDraStatus and the
 * summary's dra_* counts): a section of the table view, per-device rows with -o wide, and the
 * "dra" members of the JSON/YAML document.  Nothing is printed for a cluster without DRA GPUs.
 */
#ifndef KGPU_STATUS_DRA_H
#define KGPU_STATUS_DRA_H
#include <stdbool.h>
#include "analysis/allocation.h"
#include "render/json_writer.h"

struct cJSON;
void status_dra_print(const GpuStatus *st, bool wide, bool color);
/* summary.dra, when there are DRA GPU devices or claims */
void status_dra_summary_json(struct cJSON *summary, const GpuStatus *st);
/* node.dra, when the node has DRA devices: the member, written into the node's open object */
void status_dra_node_write(JsonWriter *jw, const NodeStatus *n);
#endif

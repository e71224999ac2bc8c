/* fleet.h — the presentation of a fleet: `status` or `pending` over several kubeconfig contexts
 * (--contexts, --all-contexts; the runs themselves are cmd/fleet.c's).
 *
 * Each context's result is the document `--context X -o json` prints (GPUStatus, GPUPending),
 * handed over in the kubeconfig's order as soon as it and every context before it are done:
 *
 *   - JSON/YAML: {"apiVersion", "kind": "GPUFleetStatus"|"GPUFleetPending", "contexts":
 *     [{"context", "error", "status"|"pending": the document, or null}], "summary"} written
 *     through the JSON writer one context at a time (no document is kept after its turn);
 *     the summary (totals over the contexts that answered) comes last.
 *   - table: status — a row per context with its fleet figures and a TOTAL row, the free
 *     physical GPUs per product across the fleet, then the GPU nodes with CONTEXT first;
 *     pending — the pending GPU pods with CONTEXT first.  Only the rows are kept.
 *
 * A figure a context cannot give (idle GPUs without metrics) is null in JSON and "?" in the
 * table, and makes the fleet's total null / "?" too: never 0.
 *
 * Ownership: fleet_render_new returns a FleetRender that fleet_render_finish prints and frees.
 */
#ifndef KGPU_RENDER_FLEET_H
#define KGPU_RENDER_FLEET_H
#include <stdbool.h>
#include "render/render.h"

struct cJSON;
typedef enum { FLEET_STATUS, FLEET_PENDING } FleetKind;
typedef struct FleetRender FleetRender;

/* fmt: RENDER_TEXT, RENDER_WIDE (the same table, never cut), RENDER_JSON or RENDER_YAML;
 * no_headers: the node (pod) rows alone, as the command's own --no-headers */
FleetRender *fleet_render_new(FleetKind kind, RenderFormat fmt, bool color, bool no_headers);
/* the next context in order: doc (borrowed for the call) when it answered, else error (one
 * line, already cleaned of credentials by the command that failed) */
void fleet_render_context(FleetRender *r, const char *context, const char *error, const struct cJSON *doc);
/* the summary (and, for a table, everything); frees r; 0, or -1 when output could not be written */
int fleet_render_finish(FleetRender *r);
#endif

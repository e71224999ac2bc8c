/* tui_views.h — the text screens of `kubectl gpu top`, built as TextDocs from one TopData:
 * the node detail (compact for the pane under the node list, full when drilled into), the
 * explanation of a pending pod, and the help screen.  Presentation only: every fact comes
 * from GpuStatus, UsageData and Explanation as the analyses computed them.
 */
#ifndef KGPU_TUI_VIEWS_H
#define KGPU_TUI_VIEWS_H
#include <stdbool.h>
#include "tui/tui.h"
#include "tui/tui_text.h"
#include "tui/tui_keymap.h"

/* "5/16 shared slots (time-slicing x4)" words for a node's resource; static or NULL */
const char *view_resource_kind(const NodeStatus *n, const char *resource);
/* "nvidia.com/mig-1g.10gb" -> "mig-1g.10gb" */
const char *view_short_resource(const char *name);
/* MiB as "512Mi", "12.5Gi"; "-" when NAN */
void view_fmt_mib(char *out, size_t n, double mib);
/* seconds as "45s", "12m", "3h10m", "2d04h"; "-" when NAN or 0 (tui_spark.c) */
void view_fmt_duration(char *out, size_t n, double seconds);
/* a sparkline of v[0..n) scaled to [0, top], width columns (points merged by their highest):
 * the block characters of a UTF-8 locale, else ASCII; a blank where no point has a sample.
 * Caller frees */
char *view_sparkline(const float *v, size_t n, double top, int width);
/* under a device's row of the node view: its utilization and memory sparklines (nothing
 * when the metrics have no series for it) */
void view_device_sparklines(TextDoc *d, const TopData *td, const NodeStatus *n, const GpuDevice *g);

/* the node's colour: red not ready / broken, yellow other problems, green fine */
TuiAttr view_node_attr(const NodeStatus *n);
/* the verdict's colour, as `kubectl gpu pending` paints it */
TuiAttr view_verdict_attr(Verdict v);
/* one line under the header of the detail pane and the node view: "A100-SXM4-80GB x8, 80Gi,
 * MIG mixed, Ready"; caller frees */
char *view_node_summary(const NodeStatus *n);

/* the pane under the node list: problems, resources, usage, the pods holding GPUs */
void view_node_detail(TextDoc *d, const TopData *td, const NodeStatus *n);
/* the full node screen; n NULL = the node is gone (name says which) */
void view_node(TextDoc *d, const TopData *td, const NodeStatus *n, const char *name);
/* the explanation of one pending pod; e NULL = it is no longer pending (ns/name say which) */
void view_explain(TextDoc *d, const TopData *td, const Explanation *e, const char *ns, const char *name);
/* the help: the KEYS of the key table (tui_keymap.h), how to read the screen, the refresh */
void view_help(TextDoc *d, const KeyMap *keys, bool live, double interval, int full_every);
#endif

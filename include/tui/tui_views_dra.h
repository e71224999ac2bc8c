/* tui_views_dra.h — DRA devices and claims in the node views of `kubectl gpu top`. */
#ifndef KGPU_TUI_VIEWS_DRA_H
#define KGPU_TUI_VIEWS_DRA_H
#include <math.h>
#include "tui/tui_views.h"

/* the detail pane: "DRA  6/8 devices allocated (8 GPUs)" and one line per claim with its pod;
 * nothing when the node has no DRA devices.  lw = the pane's label width */
void view_dra_line(TextDoc *d, const NodeStatus *n, int lw);
/* the node screen: every DRA device with its MIG profile, memory, claim and pods */
void view_dra_devices(TextDoc *d, const NodeStatus *n);
#endif

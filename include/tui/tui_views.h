/* tui_views.h — the text screens of `kubectl gpu top`, TextDocs made from one TopData: the
 * node detail (compact for the pane under the node list, full when drilled into: the node's
 * document, render/node_doc.h), the explanation of a pending pod (explain's own document,
 * render_explain.h) and the help screen (from the key table, tui_keymap.h).
 */
#ifndef KGPU_TUI_VIEWS_H
#define KGPU_TUI_VIEWS_H
#include <stdbool.h>
#include "tui/tui.h"
#include "tui/tui_text.h"
#include "tui/tui_keymap.h"
#include "render/node_doc.h"

/* the verdict's colour, as `kubectl gpu pending` paints it */
TuiAttr tui_view_verdict_attr(Verdict v);
/* the pane under the node list: problems, resources, usage, the pods holding GPUs */
void tui_view_node_detail(TextDoc *d, const TopData *td, const NodeStatus *n);
/* the full node screen; n NULL = the node is gone (name says which) */
void tui_view_node(TextDoc *d, const TopData *td, const NodeStatus *n, const char *name);
/* the explanation of one pending pod; e NULL = it is no longer pending (ns/name say which) */
void tui_view_explain(TextDoc *d, const TopData *td, const Explanation *e, const char *ns, const char *name);
/* the help: the KEYS of the key table (tui_keymap.h), how to read the screen, the refresh */
void tui_view_help(TextDoc *d, const KeyMap *keys, bool live, double interval, int full_every);
#endif

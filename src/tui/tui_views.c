/* tui_views.c — the screens of top as TextDocs: the node pane and screen (render/node_doc.h),
 * the explain view (render_explain.h: explain's own document) and the help (see tui_views.h). */
#include "tui/tui_views.h"
#include "tui/tui_keymap.h"
#include "render/node_doc.h"
#include "render/render_explain.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TuiAttr tui_view_verdict_attr(Verdict v)
{
    return v == V_GATED || v == V_UNKNOWN ? TA_WARN : TA_ERROR;
}

static NodeDocData doc_data(const TopData *td)
{
    NodeDocData nd = { td->status, td->usage, &td->tc->cluster };
    return nd;
}

void tui_view_node_detail(TextDoc *d, const TopData *td, const NodeStatus *n)
{
    NodeDocData nd = doc_data(td);
    node_doc_pane(d, &nd, n);
}

void tui_view_node(TextDoc *d, const TopData *td, const NodeStatus *n, const char *name)
{
    NodeDocData nd = doc_data(td);
    node_doc(d, &nd, n, name);
}

static void section(TextDoc *d, const char *title)
{
    text_newline(d);
    text_newline(d);
    text_add(d, TA_COLUMNS, title);
}

/* explain's own document (render_explain.h), as `kubectl gpu explain --all-nodes` prints it:
 * the nodes' table fitted to the screen, long lines wrapped */
void tui_view_explain(TextDoc *d, const TopData *td, const Explanation *e, const char *ns, const char *name)
{
    if (!e) {
        text_newline(d);
        text_addf(d, TA_OK, "%s/%s is no longer a pending GPU pod (it was scheduled, deleted or finished).", ns, name);
        text_newline(d);
        text_add(d, TA_DIM, "Press q to go back.");
        return;
    }
    explain_doc(d, e, true, (size_t)d->width);
    (void)td;
}

/* ------------------------------------------------------------------ help */

void tui_view_help(TextDoc *d, const KeyMap *keys, bool live, double interval, int full_every)
{
    text_newline(d);
    text_add(d, TA_VALUE, "kubectl gpu top");
    text_add(d, TA_NORMAL, " - the cluster's GPUs, live");
    section(d, "KEYS");
    keymap_help(d, keys, 16);
    section(d, "READING THE SCREEN");
    static const char *const legend[] = {
        "ALLOC: GPU resource units the scheduler has handed out of what the node offers (all GPU "
        "resource names together: whole GPUs, MIG devices, shared slots).",
        "UTIL and MEM: GPU utilization and memory used from DCGM, when metrics are available.",
        "Idle: GPUs held by a pod whose utilization stayed under the idle threshold.",
        "GPUS in the pods view: the GPU resource units a pod holds (whole GPUs, MIG devices and "
        "shared slots together, as its RESOURCES column lists them).",
        "Text cut to fit a column ends in an ellipsis; a wider terminal shows more of it.",
        "Filter: a word matches node names, pod names and label keys or values; key=value, "
        "key!=value or 'key in (a,b)' match labels as a selector.",
    };
    for (size_t i = 0; i < sizeof legend / sizeof *legend; i++) {
        text_newline(d);
        text_add(d, TA_NORMAL, "  ");
        text_wrap(d, 2, TA_NORMAL, legend[i]);
    }
    section(d, "REFRESH");
    text_newline(d);
    text_add(d, TA_NORMAL, "  ");
    if (live) {
        char *s = xasprintf("The cluster is listed once, then followed by watches: a change shows within a "
                            "second.  A lost watch is resumed, or that kind listed again, in the background; the "
                            "header says since when it is lost and how old the data is, and the last good data "
                            "stays on screen.  Metrics every %gs (--interval); r asks for them now.  Only when "
                            "the watches cannot start are the lists read again, every %d intervals.  Keys keep "
                            "working while the API server answers slowly.", interval, full_every);
        text_wrap(d, 2, TA_NORMAL, s);
        free(s);
    } else {
        text_wrap(d, 2, TA_NORMAL, "A snapshot (--snapshot FILE) is a still picture: refresh is disabled.");
    }
    text_newline(d);
    text_newline(d);
    text_add(d, TA_DIM, "  Press q, Esc or ? to go back.");
}

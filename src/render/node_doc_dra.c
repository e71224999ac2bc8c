/* node_doc_dra.c — GPUs published through DRA in a node's document (node_doc_parts.h): one
 * line in the pane, a DRA DEVICES section in the node screen.
 * Presentation only: the facts are status_build's (allocation.h: NodeDraStatus).
 */
#include "render/node_doc.h"
#include "node_doc_parts.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void node_doc_dra_line(TextDoc *d, const NodeStatus *n, int lw)
{
    const NodeDraStatus *r = &n->dra;
    if (!r->devices) return;
    text_label(d, "DRA", lw);
    text_addf(d, TA_NORMAL, "%d/%d device%s allocated (%d GPU%s", r->allocated, r->devices, r->devices == 1 ? "" : "s",
              r->gpus, r->gpus == 1 ? "" : "s");
    if (r->mig_devices) text_addf(d, TA_NORMAL, ", %d MIG", r->mig_devices);
    text_add(d, TA_NORMAL, ")");
    Strvec claims = STRVEC_INIT;
    for (size_t i = 0; i < r->ndevs; i++)
        if (r->devs[i].claim && !strvec_contains(&claims, r->devs[i].claim)) strvec_push(&claims, r->devs[i].claim);
    for (size_t i = 0; i < claims.n; i++) {
        text_newline(d);
        text_pad(d, lw);
        text_addf(d, TA_NORMAL, "claim %s", claims.v[i]);
        for (size_t k = 0; k < r->ndevs; k++)
            if (str_eq(r->devs[k].claim, claims.v[i]) && r->devs[k].pods.n) {
                text_addf(d, TA_DIM, "  pod %s%s", r->devs[k].pods.v[0], r->devs[k].pods.n > 1 ? " +more" : "");
                break;
            }
    }
    strvec_clear(&claims);
}

void node_doc_dra_devices(TextDoc *d, const NodeStatus *n)
{
    const NodeDraStatus *r = &n->dra;
    if (!r->devices) return;
    text_newline(d);
    text_newline(d);
    text_add(d, TA_COLUMNS, "DRA DEVICES (driver gpu.nvidia.com)");
    text_newline(d);
    text_add(d, TA_DIM, "  DEVICE                    MIG       MEMORY    CLAIM -> PODS");
    for (size_t i = 0; i < r->ndevs; i++) {
        const DraDeviceStatus *v = &r->devs[i];
        char mem[32];
        text_newline(d);
        text_add(d, TA_NORMAL, "  ");
        text_add_fit(d, TA_NORMAL, v->name, 24);
        text_pad(d, 28);
        text_add(d, v->profile ? TA_NORMAL : TA_DIM, v->profile ? v->profile : "-");
        text_pad(d, 38);
        node_doc_fmt_mib(mem, sizeof mem, v->memory_mib > 0 ? (double)v->memory_mib : NAN);
        text_add(d, TA_NORMAL, mem);
        text_pad(d, 48);
        if (!v->claim) {
            text_add(d, TA_DIM, v->blocked ? "(its GPU is held)" : "free");
            continue;
        }
        text_add(d, TA_NORMAL, v->claim);
        for (size_t k = 0; k < v->pods.n; k++) text_addf(d, TA_NORMAL, "%s%s", k ? ", " : " -> ", v->pods.v[k]);
        if (!v->pods.n) text_add(d, TA_WARN, " (no pod)");
    }
}

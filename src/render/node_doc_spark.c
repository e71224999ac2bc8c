/* node_doc_spark.c — sparklines of the usage series and idle durations (node_doc.h). */
#include "render/node_doc.h"
#include "node_doc_parts.h"
#include "model/usage.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *node_doc_sparkline(const float *v, size_t n, double top, int width, bool utf8)
{
    static const char *const blocks[8] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
    static const char ascii[8] = { '_', '.', '-', ':', '=', '+', '*', '#' };
    Strbuf sb = STRBUF_INIT;
    if (!v || !n || width <= 0) return strbuf_detach(&sb);
    size_t w = (size_t)width < n ? (size_t)width : n;
    for (size_t c = 0; c < w; c++) {
        /* the points of column c: [c*n/w, (c+1)*n/w) */
        size_t lo = c * n / w, hi = (c + 1) * n / w;
        double m = NAN;
        for (size_t k = lo; k < hi; k++)
            if (!isnan(v[k]) && (isnan(m) || v[k] > m)) m = v[k];
        if (isnan(m)) { strbuf_adds(&sb, " "); continue; }
        double f = top > 0 ? m / top : 0;
        int level = f <= 0 ? 0 : (int)ceil(f * 8) - 1;
        if (level < 0) level = 0;
        if (level > 7) level = 7;
        if (utf8) strbuf_adds(&sb, blocks[level]);
        else strbuf_addf(&sb, "%c", ascii[level]);
    }
    return strbuf_detach(&sb);
}

/* the utilization and memory series of one device, as two sparklines on one line */
void node_doc_sparklines(TextDoc *d, const NodeDocData *td, const NodeStatus *n, const GpuDevice *g)
{
    const UsageData *u = td->usage;
    if (!u || !u->nseries || !u->series_points) return;
    size_t nd = usage_node_gpus(u, n->name, NULL, 0);
    if (!nd) return;
    const GpuUsage **all = xcalloc(nd, sizeof *all);
    usage_node_gpus(u, n->name, all, nd);
    const GpuUsage *dev = NULL;
    for (size_t k = 0; k < nd && !dev; k++)
        if (all[k]->gpu == g->index && all[k]->mig_instance == g->mig_instance &&
            (!g->uuid || !all[k]->uuid || str_eq(all[k]->uuid, g->uuid)))
            dev = all[k];
    free(all);
    float su[USAGE_SERIES_MAX], sm[USAGE_SERIES_MAX];
    if (!usage_util_series(u, dev, su) || !usage_mem_series(u, dev, sm)) return;
    int width = (d->width - 7 - 5 - 6) / 2;
    if (width > (int)u->series_points) width = (int)u->series_points;
    if (width < 8) width = 8;
    double mtop = dev->mem_total_mib;
    if (!(mtop > 0))
        for (size_t k = 0; k < u->series_points; k++) if (!isnan(sm[k]) && sm[k] > mtop) mtop = sm[k];
    char *ul = node_doc_sparkline(su, u->series_points, 100, width, d->utf8);
    char *ml = node_doc_sparkline(sm, u->series_points, mtop, width, d->utf8);
    text_newline(d);
    text_add(d, TA_DIM, "       util ");
    text_add(d, TA_BAR_UTIL, ul);
    text_add(d, TA_DIM, "  mem ");
    text_add(d, TA_BAR_MEM, ml);
    free(ul);
    free(ml);
}

/* node_doc_fmt.c — the small formats of a node's document (node_doc.h): resource names,
 * memory, durations.  Below the parts that use them (node_doc.c, node_doc_dra.c, top's pods
 * view), calling none of them. */
#include "render/node_doc.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

const char *node_doc_short_resource(const char *name)
{
    return str_starts_with(name, "nvidia.com/") ? name + strlen("nvidia.com/") : name;
}

void node_doc_fmt_mib(char *out, size_t n, double mib)
{
    if (isnan(mib)) snprintf(out, n, "-");
    else if (mib >= 1024) snprintf(out, n, "%.1fGi", mib / 1024.0);
    else snprintf(out, n, "%.0fMi", mib);
}

void node_doc_fmt_duration(char *out, size_t n, double s)
{
    if (isnan(s) || s <= 0) { snprintf(out, n, "-"); return; }
    long t = (long)llround(s);
    if (t < 60) snprintf(out, n, "%lds", t);
    else if (t < 3600) snprintf(out, n, "%ldm", t / 60);
    else if (t < 86400 && t % 3600 < 60) snprintf(out, n, "%ldh", t / 3600);
    else if (t < 86400) snprintf(out, n, "%ldh%02ldm", t / 3600, t % 3600 / 60);
    else if (t % 86400 < 3600) snprintf(out, n, "%ldd", t / 86400);
    else snprintf(out, n, "%ldd%02ldh", t / 86400, t % 86400 / 3600);
}

/* cluster_warn.c — the cluster's warnings, one line each (cluster.h).  The bottom floor of
 * the cluster files: ingest of every kind (cluster.c, cluster_kinds.c, dpconfig.c) warns
 * through it and it calls none of them. */
#include "model/cluster.h"
#include <stdarg.h>
#include <stdlib.h>
#include "util/util.h"

#define MAX_WARNINGS 100

void cluster_warn(Cluster *c, const char *fmt, ...)
{
    if (c->warnings.n > MAX_WARNINGS) return;
    if (c->warnings.n == MAX_WARNINGS) { strvec_push(&c->warnings, "more warnings suppressed"); return; }
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    for (unsigned char *q = (unsigned char *)s; *q; q++)   /* one line each, whatever the objects hold */
        if (*q < 0x20 || *q == 0x7f) *q = ' ';
    strvec_push(&c->warnings, s);
    free(s);
}

/* tui_data.c — reference counting of the data `top` shows (see tui.h). */
#include "tui/tui.h"
#include <stdlib.h>

TopCluster *top_cluster_new(void)
{
    TopCluster *tc = xcalloc(1, sizeof *tc);
    cluster_init(&tc->cluster);
    atomic_init(&tc->refs, 1);
    return tc;
}

TopCluster *top_cluster_ref(TopCluster *tc)
{
    if (tc) atomic_fetch_add(&tc->refs, 1);
    return tc;
}

void top_cluster_unref(TopCluster *tc)
{
    if (!tc || atomic_fetch_sub(&tc->refs, 1) != 1) return;
    explanation_list_clear(&tc->pending);     /* borrows the cluster: first */
    cluster_release(&tc->cluster);
    free(tc);
}

void top_data_free(TopData *d)
{
    if (!d) return;
    status_clear(&d->status);
    usage_clear(&d->usage);
    top_cluster_unref(d->tc);
    free(d);
}

/* tui_data.c — reference counting of the data `top` shows (see tui.h). */
#include "tui/tui.h"
#ifdef __GLIBC__
#include <malloc.h>
#endif
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

void top_cluster_explain_pending(TopCluster *tc, const char *ns)
{
    explanation_list_clear(&tc->pending);     /* the old rows go before the new are made */
    explain_pending_rows(&tc->cluster, ns, &tc->pending);   /* sized at its rows: no slack */
#ifdef __GLIBC__
    /* the intents' evaluations are gone, but their blocks lay among the rows kept: about 8 MB
     * of holes in the heap on the full training cluster, which the status built next did not
     * fill (its arrays are mapped on their own).  Their pages go back now. */
    malloc_trim(0);
#endif
}

void top_cluster_unref(TopCluster *tc)
{
    if (!tc || atomic_fetch_sub(&tc->refs, 1) != 1) return;
    explanation_list_clear(&tc->pending);     /* borrows the cluster: first */
    cluster_release(&tc->cluster);
    free(tc);
}

TopShown *top_shown_new(void)
{
    TopShown *ts = xcalloc(1, sizeof *ts);
    atomic_init(&ts->refs, 1);
    return ts;
}

TopShown *top_shown_ref(TopShown *ts)
{
    if (ts) atomic_fetch_add(&ts->refs, 1);
    return ts;
}

void top_shown_clear(TopShown *ts, bool drop_usage)
{
    status_clear(&ts->status);
    if (drop_usage) usage_clear(&ts->usage);
}

void top_shown_unref(TopShown *ts)
{
    if (!ts || atomic_fetch_sub(&ts->refs, 1) != 1) return;
    top_shown_clear(ts, true);
    free(ts);
}

void top_data_free(TopData *d)
{
    if (!d) return;
    top_shown_unref(d->shown);
    top_cluster_unref(d->tc);
    free(d);
}

/* status_present.c — one picture of `kubectl gpu status` from the cluster and the usage: the
 * analyses run here, render/status.h presents their result (status_present.h). */
#include "cmd/status_present.h"
#include "analysis/explain.h"
#include "render/status.h"
#include "util/error.h"

int status_nodes_exist(const Cluster *c, const StatusFilter *f, Error *err)
{
    for (size_t i = 0; i < f->nnodes; i++) {
        if (cluster_find_node(c, f->nodes[i])) continue;
        if (f->node_selector && *f->node_selector)
            error_set(err, "node \"%s\" not found among the nodes matching -l \"%s\"", f->nodes[i], f->node_selector);
        else
            error_set(err, "node \"%s\" not found", f->nodes[i]);
        return -1;
    }
    return 0;
}

/* one picture of the cluster in fmt (warnings: say the loader's and metrics' warnings, which
 * -w does only with its first table) */
int status_present(const Cluster *c, const UsageData *usage, const StatusPresent *p, bool warnings, Error *err)
{
    RenderFormat fmt = p->fmt;
    GpuStatus st;
    status_build(&st, c, usage, &p->filter);
    size_t pods_pending = 0, not_created = 0;        /* the quota note: only when such owners exist */
    explain_pending_counts(c, p->filter.pods_ns, &pods_pending, &not_created);
    st.pending_not_created = (int)not_created;
    if (!warnings && fmt != RENDER_JSON && fmt != RENDER_YAML)
        strvec_clear(&st.warnings);             /* on stderr once, with the first table */
    TableView view = { p->no_headers, p->sort_by, p->columns };
    if (p->sort_by && status_sort_path_missing(&st, p->sort_by)) {      /* as kubectl: an error */
        error_set(err, "--sort-by: unknown field \"%s\": no node of -o json has a value there (status sorts by %s, "
                  "or any JSONPath into a node)", p->sort_by, status_sort_fields_help);
        status_clear(&st);
        return -2;
    }
    GroupBy by;
    int rc;
    if (p->by && group_by_parse(p->by, &by)) {
        StatusGroups groups;
        PriceList prices;
        price_list_parse(&prices, p->price, err);
        status_groups_build_for(&groups, &st, c, usage, by, &prices);
        rc = status_groups_render(&groups, &st, fmt, p->color, p->no_headers);
        status_groups_clear(&groups);
        price_list_clear(&prices);
    } else {
        if (p->price) {                        /* the idle GPU-hours in money, in the summary */
            PriceList prices;
            price_list_parse(&prices, p->price, err);
            status_hours_fill(&st, usage, &prices);
            price_list_clear(&prices);
        }
        rc = status_render_view(&st, fmt, p->color, &view, err);
    }
    status_clear(&st);
    return rc;
}

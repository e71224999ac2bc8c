/* pending.h — the one presentation of `kubectl gpu pending`: table, wide, name, JSON, YAML.
 *
 * All pods are loaded whatever -n says (free GPUs on a node depend on the pods of every
 * namespace); ns only chooses which pending pods are listed.
 */
#ifndef KGPU_RENDER_PENDING_H
#define KGPU_RENDER_PENDING_H
#include <stdbool.h>
#include "model/cluster.h"
#include "render/render.h"

struct Error;
struct CustomColumns;

typedef struct {
    const char *ns;            /* the namespace listed; NULL: all */
    RenderFormat fmt;
    bool all_nodes;            /* JSON/YAML: every node per pod, not only the nearest */
    bool no_headers;           /* tables: the rows without the header line */
    bool color;
    const char *sort_by;       /* --sort-by (pending_view.h), NULL: the analysis' order */
    const char *selector;      /* -l over the pods' labels, NULL or "": none */
    bool warnings;             /* tables: say the cluster's warnings (and what -l left out) on stderr */
    struct CustomColumns *columns;  /* -o custom-columns (render/custom_columns.h): one row per pod
                                     * of -o json instead of fmt; NULL: fmt */
} PendingView;

/* the list to stdout; 0, -1 when the output could not be written (or, set in err, a custom
 * column's path could not be evaluated), -2 with err set on a bad -l or a --sort-by path no pod
 * has a value at */
int pending_render(const Cluster *c, const PendingView *v, struct Error *err);
#endif

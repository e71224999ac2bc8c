/* status_present.h — one picture of `kubectl gpu status`: the command chooses the analyses
 * (the GpuStatus of a cluster and its usage, analysis/allocation.h; the groups of --by; the
 * idle hours' price) and hands their result to render/status.h in the -o format, to stdout.
 * (It was in render, which then ran the analysis it presented.) */
#ifndef KGPU_CMD_STATUS_PRESENT_H
#define KGPU_CMD_STATUS_PRESENT_H
#include <stdbool.h>
#include "analysis/allocation.h"
#include "model/cluster.h"
#include "model/usage.h"
#include "render/render.h"

struct Error;
struct CustomColumns;

/* what status was asked to show (its flags) */
typedef struct {
    RenderFormat fmt;
    StatusFilter filter;       /* NODE arguments, -n, -l */
    bool no_headers;
    const char *sort_by;       /* --sort-by, NULL: by name */
    const char *by;            /* --by namespace|node|product|workload, NULL: per node */
    const char *price;         /* --price, NULL: none */
    bool color;
    struct CustomColumns *columns;  /* -o custom-columns (render/custom_columns.h): one row per node
                                     * of -o json instead of fmt; NULL: fmt */
} StatusPresent;

/* warnings: say the loader's and metrics' warnings (status -w does with its first table only).
 * 0, -1 when the output could not be written (or, err set, a custom column's path could not be
 * evaluated), -2 with err set when --sort-by is a path no node has a value at (kubectl's usage
 * error). */
int status_present(const Cluster *c, const UsageData *usage, const StatusPresent *p, bool warnings,
                   struct Error *err);
/* every node the filter names is in c: 0, or -1 with err set ("node \"x\" not found") */
int status_nodes_exist(const Cluster *c, const StatusFilter *f, struct Error *err);
#endif

/* pending.h — the one presentation of `kubectl gpu pending`: table, wide, name, JSON, YAML.
 *
 * All pods are loaded whatever -n says (free GPUs on a node depend on the pods of every
 * namespace); ns only chooses which pending pods are listed.
 */
#ifndef KGPU_RENDER_PENDING_H
#define KGPU_RENDER_PENDING_H
#include <stdbool.h>
#include <stddef.h>
#include "analysis/explain.h"
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
    size_t elsewhere;          /* with ns: pending GPU pods of other namespaces (said, on stderr,
                                * with -A, when ns has none) */
} PendingView;

/* The command explains the pods (analysis/explain.h) and hands them here: render chooses no
 * analysis.  max_nodes per pod in JSON/YAML and custom columns: 0 with --all-nodes, else the
 * nearest few */
size_t pending_max_nodes(const PendingView *v);
/* l (explained, sorted and filtered by the command) to stdout in v's format, the cluster's
 * warnings on stderr before a table (v->warnings) or inside the JSON/YAML list; 0, or -1 when
 * the output could not be written (or, set in err, a custom column's path could not be
 * evaluated) */
int pending_render(const ExplanationList *l, const Strvec *warnings, const PendingView *v, struct Error *err);

/* JSON/YAML written a pod at a time, as the command explains them (a queue's explanations
 * together would not fit in memory): begin writes the head (selector: NULL unless -l),
 * pending_stream_pod is an ExplanationFn, end writes the warnings and the tail and frees the
 * stream; 0, or -1 on a write error */
typedef struct PendingStream PendingStream;
PendingStream *pending_stream_begin(const char *ns, const char *selector, size_t max_nodes, bool yaml);
int pending_stream_pod(void *stream, Explanation *e);
int pending_stream_end(PendingStream *s, const Strvec *warnings);
#endif

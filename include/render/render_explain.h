/* render_explain.h — an Explanation (analysis/explain.h) rendered: the EXPLANATION object of
 * product.md (explain_json.c: written through the JSON writer, or as a new tree the caller
 * owns: cJSON_Delete), and the one presentation of `kubectl gpu explain` (explain.c).
 */
#ifndef KGPU_RENDER_EXPLAIN_H
#define KGPU_RENDER_EXPLAIN_H
#include <stdbool.h>
#include <stddef.h>
#include "analysis/explain.h"
#include "render/json_writer.h"
#include "render/render.h"
#include "render/textdoc.h"
#include "util/util.h"

struct cJSON;
/* How explain_json_write writes the object: */
typedef struct {
    bool with_kind;             /* "apiVersion" and "kind": "GPUExplanation" (else "kind" says the row's kind) */
    size_t max_nodes;           /* "nodes": the nodes that matter, at most this many, nearest first
                                   (explanation_nodes_that_matter); 0 = every node, in cluster order */
    const char *nodes_json;     /* else: "nodes" is this JSON text, rendered already at the depth of
                                   a member of the object (the pods of one intent share it) ... */
    size_t nodes_listed;        /* ... and lists this many nodes */
    const NodeCounts *counts;   /* "nodeCounts" as counted already (the pods of one intent share
                                   them: explanation_node_counts walks every node), NULL: count */
    const Strvec *warnings;     /* a last member "warnings" (explain's document), when set */
} ExplainJsonOpts;
/* the EXPLANATION object as the next element of jw's open array, or as its document */
void explain_json_write(JsonWriter *jw, const Explanation *e, const ExplainJsonOpts *opts);
/* its "nodes" as member key (NULL: an element or the document); returns how many it listed */
size_t explain_nodes_write(JsonWriter *jw, const char *key, const Explanation *e, size_t max_nodes);
/* the object as a tree; "kind": "GPUExplanation" and "apiVersion" added when with_kind */
struct cJSON *explain_to_json(const Explanation *e, bool with_kind);
/* the same with at most max_nodes nodes in "nodes": the nodes that matter, nearest first
 * (explanation_nodes_that_matter); 0 = every node, in cluster order.  "nodeCounts" says how
 * many nodes there are of each rank and how many are listed. */
struct cJSON *explain_to_json_max(const Explanation *e, bool with_kind, size_t max_nodes);
/* `explain` to stdout: text (warnings to stderr first; a pod not pending has nothing to explain;
 * all_nodes lists the nodes that could never hold it too) or JSON/YAML with the warnings inside.
 * 0, or -1 when the document could not be written. */
int explain_render(const Explanation *e, const Strvec *warnings, bool pending, RenderFormat fmt,
                   bool all_nodes, bool color);
/* explain's text as a document (render/textdoc.h): what `explain` prints and top's explain
 * view draws.  all_nodes lists the nodes that could never hold the pod too; the nodes' table
 * is fitted to table_width columns (0: whole) */
void explain_doc(TextDoc *d, const Explanation *e, bool all_nodes, size_t table_width);
/* -o custom-columns: one row from the document -o json prints (without its warnings); 0, or
 * -1 when writing failed or (err set) a path could not be evaluated */
struct CustomColumns;
struct Error;
int explain_print_columns(const Explanation *e, struct CustomColumns *cc, bool no_headers, struct Error *err);
/* its "nodes" as a tree: every node with its reasons (max_nodes 0), or the nodes that matter */
struct cJSON *explain_nodes_json_max(const Explanation *e, size_t max_nodes);
#endif

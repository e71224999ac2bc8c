/* render_explain.h — an Explanation (analysis/explain.h) rendered as the EXPLANATION object of
 * product.md.  The tree is new; the caller owns it (cJSON_Delete).
 */
#ifndef KGPU_RENDER_EXPLAIN_H
#define KGPU_RENDER_EXPLAIN_H
#include <stdbool.h>
#include <stddef.h>
#include "analysis/explain.h"

struct cJSON;
/* "kind": "GPUExplanation" and "apiVersion" added when with_kind */
struct cJSON *explanation_to_json(const Explanation *e, bool with_kind);
/* the same with at most max_nodes nodes in "nodes": the nodes that matter, nearest first
 * (explanation_nodes_that_matter); 0 = every node, in cluster order.  "nodeCounts" says how
 * many nodes there are of each rank and how many are listed. */
struct cJSON *explanation_to_json_max(const Explanation *e, bool with_kind, size_t max_nodes);
/* its "nodes": every node with its reasons (max_nodes 0), or the nodes that matter */
struct cJSON *explanation_nodes_json(const Explanation *e);
struct cJSON *explanation_nodes_json_max(const Explanation *e, size_t max_nodes);
/* its "nodeCounts", listed = how many nodes "nodes" holds */
struct cJSON *explanation_node_counts_json(const Explanation *e, size_t listed);
#endif

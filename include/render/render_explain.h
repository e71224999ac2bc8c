/* render_explain.h — an Explanation (analysis/explain.h) rendered as the EXPLANATION object of
 * product.md.  The tree is new; the caller owns it (cJSON_Delete).
 */
#ifndef KGPU_RENDER_EXPLAIN_H
#define KGPU_RENDER_EXPLAIN_H
#include <stdbool.h>
#include "analysis/explain.h"

struct cJSON;
/* "kind": "GPUExplanation" and "apiVersion" added when with_kind */
struct cJSON *explanation_to_json(const Explanation *e, bool with_kind);
/* its "nodes": every node with its reasons */
struct cJSON *explanation_nodes_json(const Explanation *e);
#endif

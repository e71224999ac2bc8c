/* libFuzzer target: API objects of any shape through cluster_ingest (src/model: nodes,
 * pods, events, quotas, daemonsets, ClusterPolicy, services) and then every analysis that reads
 * them: cluster_finalize, status_build, explain_pending / explain_pod, explain_to_json.
 * Input: one JSON object, an array of objects, or a List ({"items": [...]}).  The first byte
 * picks the kind for objects without "kind" handling: '{' or '[' = by the object's own "kind".
 * Any input: no crash, no leak; ingest either takes an object or says why. */
#include <stdio.h>
#include <cjson/cJSON.h>
#include "analysis/allocation.h"
#include "model/cluster.h"
#include "util/error.h"
#include "analysis/explain.h"
#include "fuzz_util.h"
#include "render/render.h"
#include "render/render_explain.h"

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!devnull) devnull = fopen("/dev/null", "w");
    ObjKind kind = OBJ__COUNT;
    if (size && data[0] != '{' && data[0] != '[') {
        kind = (ObjKind)(data[0] % (OBJ__COUNT + 1));
        data++; size--;
    }
    cJSON *doc = cJSON_ParseWithLength((const char *)data, size);
    if (!doc) return 0;
    const cJSON *items = cJSON_IsArray(doc) ? doc : cJSON_GetObjectItemCaseSensitive(doc, "items");
    Cluster c;
    cluster_init(&c);
    c.now = 1715707841;   /* fixed: ages do not depend on the wall clock */
    Error err = { .set = false };
    if (cJSON_IsArray(items)) {
        const cJSON *it;
        cJSON_ArrayForEach(it, items) {
            error_clear(&err);
            if (cluster_ingest(&c, kind, it, &err) != 0) FUZZ_ASSERT(err.set && !strchr(err.msg, '\n'));
        }
    } else if (cluster_ingest(&c, kind, doc, &err) != 0) {
        FUZZ_ASSERT(err.set);
    }
    cluster_finalize(&c);
    cluster_finalize(&c);          /* finalize twice is allowed */

    GpuStatus st;
    status_build(&st, &c, NULL, NULL);
    FUZZ_ASSERT(st.nodes >= 0 && st.gpu_nodes >= 0 && st.gpu_nodes <= st.nodes);
    status_clear(&st);

    ExplanationList el;
    memset(&el, 0, sizeof el);
    explain_pending(&c, NULL, &el);
    for (size_t i = 0; i < el.n; i++) {
        cJSON *j = explain_to_json(&el.items[i], true);
        FUZZ_ASSERT(j != NULL);
        json_render(devnull, j);
        char *g = explanation_gpus(&el.items[i]);
        free(g);
        cJSON_Delete(j);
    }
    explanation_list_clear(&el);
    for (size_t i = 0; i < c.npods && i < 8; i++) {
        Explanation e;
        memset(&e, 0, sizeof e);
        explain_pod(&c, &c.pods[i], &e);
        explanation_clear(&e);
    }
    cluster_release(&c);
    cJSON_Delete(doc);
    return 0;
}

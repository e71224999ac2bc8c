/* libFuzzer target: manifests of `kubectl gpu fit -f` (sources/manifest_read.c,
 * model/manifest_pods.c, util/yaml_load.c's stream reader).  Any bytes: no crash; an error has
 * a message naming the document; a manifest read holds objects (templates or notes), and each
 * template's pod reads as a cluster pod (or is refused with a message), pinned too. */
#include <stdio.h>
#include "fuzz_util.h"
#include "model/pod.h"
#include "sources/manifest_read.h"
#include "util/error.h"
#include <cjson/cJSON.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ManifestPodList l = { 0 };
    Strvec notes = STRVEC_INIT;
    Error err = { 0 };
    int rc = manifest_read_text("in.yaml", (const char *)data, size, "default", &l, &notes, &err);
    if (rc < 0) {
        FUZZ_ASSERT(err.set && strncmp(err.msg, "in.yaml: ", 9) == 0);
    } else {
        FUZZ_ASSERT(l.n + notes.n > 0);
        StrPool *pool = strpool_new();
        for (size_t i = 0; i < l.n; i++) {
            FUZZ_ASSERT(l.v[i].replicas >= -1);
            Pod p;
            Error pe = { 0 };
            if (pod_from_json(&p, l.v[i].pod, pool, &pe) == 0) pod_clear(&p);
            else FUZZ_ASSERT(pe.set);
            cJSON *pinned = manifest_pod_pinned(l.v[i].pod, "node-0");
            if (pod_from_json(&p, pinned, pool, &pe) == 0) pod_clear(&p);
            cJSON_Delete(pinned);
        }
        strpool_free(pool);
    }
    manifest_pod_list_clear(&l);
    strvec_clear(&notes);
    return 0;
}

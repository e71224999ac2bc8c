/* libFuzzer target: manifests of `kubectl gpu fit -f` (sources/manifest_read.c,
 * model/manifest_pods.c, util/yaml_load.c's stream reader).  Any bytes: no crash; an error has
 * a message naming the document; a manifest read holds objects (templates or notes), and each
 * template's pod reads as a cluster pod (or is refused with a message), pinned too; then the
 * Priority admission fit applies (analysis/fit_admit.c) against a cluster with classes: it takes
 * every template or refuses one in one line naming its document, and the admitted pods read too. */
#include <stdio.h>
#include "fuzz_util.h"
#include "analysis/fit.h"
#include "model/cluster.h"
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
        static Cluster c;                 /* classes as the API serves them, one global default */
        static bool ready;
        if (!ready) {
            cluster_init(&c);
            static const char *const classes[] = {
                "{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":\"PriorityClass\",\"metadata\":{\"name\":\"high\"},"
                "\"value\":1000,\"preemptionPolicy\":\"PreemptLowerPriority\"}",
                "{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":\"PriorityClass\",\"metadata\":{\"name\":\"low\"},"
                "\"value\":-5,\"globalDefault\":true,\"preemptionPolicy\":\"Never\"}",
            };
            for (size_t i = 0; i < sizeof classes / sizeof *classes; i++) {
                cJSON *o = cJSON_Parse(classes[i]);
                Error ce = { 0 };
                FUZZ_ASSERT(o && cluster_ingest(&c, OBJ__COUNT, o, &ce) == 0);
                cJSON_Delete(o);
            }
            ready = true;
        }
        Error ae = { 0 };
        if (fit_admit_priority(&c, &l, &ae) < 0) {
            FUZZ_ASSERT(ae.set && strncmp(ae.msg, "in.yaml", 7) == 0 && !strchr(ae.msg, '\n'));
        } else {
            for (size_t i = 0; i < l.n; i++) {
                Pod p;
                Error pe = { 0 };
                if (pod_from_json(&p, l.v[i].pod, pool, &pe) == 0) {
                    FUZZ_ASSERT(p.priority == 1000 || p.priority == -5);
                    pod_clear(&p);
                }
            }
        }
        strpool_free(pool);
    }
    manifest_pod_list_clear(&l);
    strvec_clear(&notes);
    return 0;
}

/* libFuzzer target: CEL selectors of any text through dra_cel_match (src/model/dra_cel.c) on a
 * whole GPU and a MIG device as NVIDIA's DRA driver publishes them.  Any input: no crash, no
 * leak, an answer of YES, NO or UNKNOWN; and "E && false-term" is never YES. */
#include <stdio.h>
#include <cjson/cJSON.h>
#include "model/cluster.h"
#include "model/dra.h"
#include "util/error.h"
#include "fuzz_util.h"

static Cluster c;
static bool ready;

static void setup(void)
{
    cluster_init(&c);
    const char *slice =
        "{\"metadata\":{\"name\":\"s\"},\"spec\":{\"driver\":\"gpu.nvidia.com\",\"nodeName\":\"n\","
        "\"pool\":{\"name\":\"n\",\"generation\":1},\"devices\":["
        "{\"name\":\"gpu-0\",\"attributes\":{\"type\":{\"string\":\"gpu\"},\"productName\":{\"string\":\"NVIDIA H100 80GB HBM3\"},"
        "\"driverVersion\":{\"version\":\"570.124.6\"},\"index\":{\"int\":0},\"mig\":{\"bool\":false}},"
        "\"capacity\":{\"memory\":{\"value\":\"81559Mi\"}}},"
        "{\"name\":\"gpu-1-mig-1g10gb-19-0\",\"attributes\":{\"type\":{\"string\":\"mig\"},\"profile\":{\"string\":\"1g.10gb\"}},"
        "\"capacity\":{\"memory\":{\"value\":\"9856Mi\"},\"memorySlice0\":{\"value\":\"1\"}}}]}}";
    cJSON *j = cJSON_Parse(slice);
    Error e = { .set = false };
    if (!j || cluster_ingest(&c, OBJ_RESOURCESLICE, j, &e) != 0) abort();
    cJSON_Delete(j);
    cluster_finalize(&c);
    ready = true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ready) setup();
    char *expr = fuzz_cstr(data, size);
    char *with_false = malloc(size + 40);
    if (!with_false) abort();
    snprintf(with_false, size + 40, "%s && device.driver == 'none'", expr);
    for (size_t i = 0; i < c.dra->ndevices; i++) {
        DraMatch m = dra_cel_match(&c.dra->devices[i], expr);
        FUZZ_ASSERT(m == DRA_MATCH_YES || m == DRA_MATCH_NO || m == DRA_MATCH_UNKNOWN);
        FUZZ_ASSERT(dra_cel_match(&c.dra->devices[i], with_false) != DRA_MATCH_YES);
    }
    free(with_false);
    free(expr);
    return 0;
}

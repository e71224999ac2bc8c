/* libFuzzer target: the DCGM exporter's Prometheus text format (src/sources/dcgm.c).
 *   clang -fsanitize=fuzzer,address -Iinclude tests/fuzz/fuzz_dcgm_text.c build/asan/libkgpu.a ...
 * Seeds: tests/fixtures/dcgm/.  Any input: no crash, no leak, records always name a node. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sources/dcgm.h"
#include "sources/metrics.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    UsageData d;
    memset(&d, 0, sizeof d);
    d.idle_threshold = 5;
    PromTextStats st;
    dcgm_parse_text((const char *)data, size, size % 2 ? "fuzz-node" : NULL, &d, &st);
    for (size_t i = 0; i < d.ngpus; i++) {
        if (!d.gpus[i].node) abort();
        (void)usage_is_idle_allocated(&d, &d.gpus[i]);
    }
    for (size_t i = 0; i < d.npods; i++) {
        double m, u;
        if (!usage_for_pod(&d, d.pods[i].ns, d.pods[i].pod, &m, &u)) abort();
    }
    usage_clear(&d);
    return 0;
}

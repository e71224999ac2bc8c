/* libFuzzer target: Prometheus HTTP API responses (prometheus_parse_response, src/sources/prometheus.c).
 * Any body and status code: 0 or -1 with an error, never a crash or a leak. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include "util/error.h"
#include "sources/prometheus.h"

static int count(void *ctx, const PromLabel *l, size_t n, const double *ts, const double *v, size_t np)
{
    (void)l; (void)n; (void)ts; (void)v;
    if (np == 0) abort();
    (*(size_t *)ctx)++;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n = 0;
    Strvec w = STRVEC_INIT;
    Error err = { .set = false };
    static const long codes[8] = { 200, 200, 200, 200, 400, 422, 503, 0 };
    long code = codes[size % 8];
    int rc = prometheus_parse_response((const char *)data, size, code, count, &n, &w, &err);
    if (rc != 0 && !err.set) abort();
    strvec_clear(&w);
    return 0;
}

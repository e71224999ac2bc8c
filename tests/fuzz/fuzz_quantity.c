/* libFuzzer target: Kubernetes quantities (quantity_parse, src/model/quantity.c).
 * Any string: no crash; a parsed value formats and parses back to the same value (a number
 * printed is the number read), and whole units round up. */
#include <stdio.h>
#include "fuzz_util.h"
#include "model/quantity.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_cstr(data, size);
    int64_t v = 0;
    if (quantity_parse(s, &v)) {
        char buf[64];
        quantity_format(v, buf, sizeof buf);
        int64_t back = 0;
        FUZZ_ASSERT(quantity_parse(buf, &back));
        FUZZ_ASSERT(back == v);
        int64_t units = quantity_units_ceil(v);
        if (v > 0) FUZZ_ASSERT(units >= 1 && units == v / 1000 + (v % 1000 != 0));
        if (v == 0) FUZZ_ASSERT(units == 0);
        (void)quantity_to_mib(v);
    }
    free(s);
    return 0;
}

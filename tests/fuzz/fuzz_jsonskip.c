/* libFuzzer target: a skipped member passed over (src/sources/jsonscan_skip.c, 64 bytes a
 * step: the SSE2 walk, and the AVX2 walk where the processor has it) ends at the same byte as
 * the byte-by-byte walk, on any text: an opening bracket, then the input, in a heap buffer of
 * its exact length (nothing read past its end). */
#include <stdio.h>
#include "fuzz_util.h"
#include "sources/jsonscan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1);
    FUZZ_ASSERT(buf != NULL);
    buf[0] = size && (data[0] & 1) ? '[' : '{';
    memcpy(buf + 1, data, size);
    const char *a = jsonscan_skip_container(buf, buf + size + 1);
    const char *b = jsonscan_skip_container_bytes(buf, buf + size + 1);
    FUZZ_ASSERT(a == b);
    FUZZ_ASSERT(jsonscan_skip_container_walk(buf, buf + size + 1, JSONSKIP_SSE2) == b);
    FUZZ_ASSERT(jsonscan_skip_container_walk(buf, buf + size + 1, JSONSKIP_AVX2) == b);
    FUZZ_ASSERT(!a || (a > buf && a <= buf + size + 1 && (a[-1] == '}' || a[-1] == ']')));
    free(buf);
    return 0;
}

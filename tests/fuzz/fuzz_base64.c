/* libFuzzer target: base64 (certificate-authority-data, client-key-data, the Secret-free
 * base64 of kubeconfigs; src/sources/base64.c).  Any text: no crash; decoding what was
 * encoded gives the bytes back. */
#include <stdio.h>
#include "fuzz_util.h"
#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n = 0;
    char *dec = base64_decode((const char *)data, size, &n);
    if (dec) FUZZ_ASSERT(dec[n] == '\0' && n <= size);
    free(dec);
    char *enc = base64_encode(data, size);
    FUZZ_ASSERT(enc != NULL);
    size_t m = 0;
    char *back = base64_decode(enc, strlen(enc), &m);
    FUZZ_ASSERT(back != NULL && m == size && memcmp(back, data, size) == 0);
    free(back);
    free(enc);
    return 0;
}

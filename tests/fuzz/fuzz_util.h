/* fuzz_util.h — small helpers shared by the libFuzzer targets of tests/fuzz (header only). */
#ifndef KGPU_FUZZ_UTIL_H
#define KGPU_FUZZ_UTIL_H
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* the input as a C string (it ends at the first NUL byte, as C callers see it); caller frees */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s) abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* abort with a message when an invariant fails: libFuzzer saves the input */
#define FUZZ_ASSERT(cond) do { if (!(cond)) { \
    fprintf(stderr, "FUZZ: invariant failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); abort(); } } while (0)
#endif

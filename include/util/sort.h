/* sort.h — qsort with a context argument, for comparisons that need more than the two
 * elements (an array of keys, the model the elements index into).  The context travels with
 * the call, never through a file-scope variable: the analyses run on top's worker thread too.
 * Same algorithm and order as qsort (it is the C library's qsort_r). */
#ifndef KGPU_UTIL_SORT_H
#define KGPU_UTIL_SORT_H
#include <stddef.h>

typedef int (*SortCmpFn)(const void *a, const void *b, void *ctx);
void sort_r(void *base, size_t n, size_t size, SortCmpFn cmp, void *ctx);
#endif

/* sort.c — sort_r (sort.h) on the C library's qsort_r (glibc 2.8+, musl 1.2.3+). */
#define _GNU_SOURCE
#include "util/sort.h"
#include <stdlib.h>

void sort_r(void *base, size_t n, size_t size, SortCmpFn cmp, void *ctx)
{
    if (n > 1) qsort_r(base, n, size, cmp, ctx);
}

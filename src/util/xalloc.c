/* xalloc.c — allocation that never returns NULL: x + the libc name it wraps, as git's wrapper.c
 * (xmalloc is malloc that prints "out of memory" and exits). */
#include "util/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(void)
{
    fputs("error: out of memory\n", stderr);
    exit(1);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) oom();
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) oom();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) oom();
    return q;
}

char *xstrdup(const char *s)
{
    if (!s) return NULL;
    return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

/* one formatting pass when the text fits a small buffer (most do: names, counts, short
 * sentences), two only for the long ones */
char *xvasprintf(const char *fmt, va_list ap)
{
    char small[256];
    va_list cp;
    va_copy(cp, ap);
    int n = vsnprintf(small, sizeof small, fmt, cp);
    va_end(cp);
    if (n < 0) n = 0;
    char *p = xmalloc((size_t)n + 1);
    if ((size_t)n < sizeof small) memcpy(p, small, (size_t)n + 1);
    else vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = xvasprintf(fmt, ap);
    va_end(ap);
    return p;
}

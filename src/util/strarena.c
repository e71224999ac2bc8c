/* strarena.c — strarena.h over the one string pool (util/strpool.h): the pool interns, owns and
 * seals; this view adds the own copy of a long string, which its owner frees. */
#include "util/strarena.h"
#include "util/strpool.h"
#include "util/util.h"
#include <stdlib.h>
#include <string.h>

#define ARENA_LONG ((size_t)64 << 10)   /* a string this long or longer is copied on its own */

struct StrArena {
    StrPool *pool;
};

StrArena *strarena_new(void)
{
    StrArena *a = xcalloc(1, sizeof *a);
    a->pool = strpool_new();
    return a;
}

void strarena_free(StrArena *a)
{
    if (!a) return;
    strpool_free(a->pool);
    free(a);
}

char *strarena_intern(StrArena *a, const char *s)
{
    if (!s) return NULL;
    if (strlen(s) + 1 > ARENA_LONG) return xstrdup(s);
    return (char *)strpool_intern(a->pool, s);
}

bool strarena_owns(const StrArena *a, const char *s)
{
    return a && strpool_owns(a->pool, s);
}

void strarena_seal(StrArena *a)
{
    if (a) strpool_seal(a->pool);
}

void strarena_release(const StrArena *a, char *s)
{
    if (s && !strarena_owns(a, s)) free(s);
}

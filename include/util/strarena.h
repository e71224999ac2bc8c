/* strarena.h — one copy of each string, for owners that mix pooled strings and their own.
 *
 * For result sets that hold the same strings many times (usage records, status holders): a
 * string is copied once into the arena and every field that needs it points at that copy.  The
 * arena is the project's one string pool (util/strpool.h) seen through this interface.  The
 * copies live until strarena_free.  A string of 64 KiB or more is not pooled:
 * strarena_intern returns a malloc'd copy of its own then, which strarena_owns tells apart (so
 * a container may mix pooled and own strings and free only its own).
 */
#ifndef KGPU_STRARENA_H
#define KGPU_STRARENA_H
#include <stdbool.h>

typedef struct StrArena StrArena;

StrArena *strarena_new(void);
void strarena_free(StrArena *a);                  /* NULL is fine */
/* the arena's copy of s (NULL for NULL): never free it or write to it */
char *strarena_intern(StrArena *a, const char *s);
/* s points into the arena (a may be NULL: false) */
bool strarena_owns(const StrArena *a, const char *s);
/* drop the lookup table (the strings stay); a later intern starts a new one, which may then
 * copy a string twice */
void strarena_seal(StrArena *a);
/* free(s) unless the arena owns it */
void strarena_release(const StrArena *a, char *s);
#endif

/* suggest.h — "did you mean": the known word nearest to a mistyped one.
 *
 * Used for subcommands and flags, as cobra (kubectl's command library) suggests subcommands:
 * a candidate is offered when it is within 2 edits of the typed word (Levenshtein distance,
 * case-insensitive) or starts with it.  Among several, the nearest wins; ties go to the
 * first in the list.
 */
#ifndef KGPU_SUGGEST_H
#define KGPU_SUGGEST_H
#include <stddef.h>

/* Levenshtein distance between a and b, ignoring ASCII case (capped at 255 for long input) */
size_t suggest_edit_distance(const char *a, const char *b);

/* the candidate to suggest for word, or NULL; candidates is NULL-terminated; a NULL or empty
 * entry is skipped */
const char *suggest_nearest(const char *word, const char *const *candidates);
#endif

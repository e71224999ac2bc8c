/* suggest.c — see suggest.h */
#include "util/suggest.h"
#include <ctype.h>
#include <string.h>
#include <strings.h>

#define MAX_LEN 255     /* longer words are compared on their first MAX_LEN bytes */

size_t suggest_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > MAX_LEN) la = MAX_LEN;
    if (lb > MAX_LEN) lb = MAX_LEN;
    size_t row[MAX_LEN + 1];
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t cost = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]) ? 0 : 1;
            size_t best = diag + cost;
            if (row[j] + 1 < best) best = row[j] + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *suggest_nearest(const char *word, const char *const *candidates)
{
    if (!word || !*word || !candidates) return NULL;
    const char *best = NULL;
    size_t best_d = 3;                       /* offer only within 2 edits */
    for (const char *const *c = candidates; *c; c++) {
        if (!**c) continue;
        size_t d = suggest_edit_distance(word, *c);
        if (strncasecmp(*c, word, strlen(word)) == 0 && d > 2) d = 2;   /* a prefix of it */
        if (d < best_d) { best = *c; best_d = d; }
    }
    return best;
}

/* jsonscan_int.h — what jsonscan.c gives json_split.c (not a public contract). */
#ifndef KGPU_SOURCES_JSONSCAN_INT_H
#define KGPU_SOURCES_JSONSCAN_INT_H
#include <stddef.h>
#include "sources/jsonscan.h"

#define NESTING_LIMIT 1000                 /* CJSON_NESTING_LIMIT */

/* buf[0..len) (modified in place) as exactly one JSON value (whitespace around it allowed),
 * parsed as if depth containers were already open; its node in a, or NULL when it is not
 * one value ("12abc", two values, bad syntax). */
const struct cJSON *jsonscan_parse_at(char *buf, size_t len, JsonArena *a, int depth);

#endif

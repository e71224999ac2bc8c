/* sort_field.h — the --sort-by argument of a table (kubectl's meaning): one of the table's named
 * fields, written as kubectl users do (".metadata.name", also "{.metadata.name}"), or any other
 * JSONPath into an item of the command's -o json (render/jsonpath.h), sorted by its first value.
 */
#ifndef KGPU_RENDER_SORT_FIELD_H
#define KGPU_RENDER_SORT_FIELD_H
#include <stdbool.h>
#include <stddef.h>
#include "render/jsonpath.h"

typedef struct { const char *path; int id; } SortFieldName;

/* the id of the field path names ("{...}" unwrapped), -1 when it names none */
int sort_field_lookup(const SortFieldName *fields, size_t n, const char *path);
/* the JSONPath of a path that names no field (caller frees with jsonpath_free); NULL when path
 * is NULL, empty, names a field or is not a valid JSONPath */
JsonPath *sort_field_jsonpath(const SortFieldName *fields, size_t n, const char *path);
/* a field or a valid JSONPath */
bool sort_field_known(const SortFieldName *fields, size_t n, const char *path);
#endif

/* sort_field.c — a table's --sort-by argument (sort_field.h). */
#include "render/sort_field.h"
#include "util/error.h"
#include <string.h>

int sort_field_lookup(const SortFieldName *fields, size_t n, const char *path)
{
    if (!path) return -1;
    for (size_t i = 0; i < n; i++)
        if (strcmp(fields[i].path, path) == 0) return fields[i].id;
    size_t len = strlen(path);
    if (len > 2 && path[0] == '{' && path[len - 1] == '}') {      /* kubectl also takes "{.path}" */
        char inner[64];
        if (len - 2 >= sizeof inner) return -1;
        memcpy(inner, path + 1, len - 2);
        inner[len - 2] = '\0';
        return sort_field_lookup(fields, n, inner);
    }
    return -1;
}

JsonPath *sort_field_jsonpath(const SortFieldName *fields, size_t n, const char *path)
{
    Error err = { 0 };
    if (!path || !*path || sort_field_lookup(fields, n, path) >= 0) return NULL;
    return jsonpath_compile(path, &err);
}

bool sort_field_known(const SortFieldName *fields, size_t n, const char *path)
{
    if (sort_field_lookup(fields, n, path) >= 0) return true;
    JsonPath *p = sort_field_jsonpath(fields, n, path);
    jsonpath_free(p);
    return p != NULL;
}

/* model_fixture.h — load a JSON fixture for unit tests, relative to the repository root
 * ($KGPU_ROOT when set, as run-all.sh exports it; else the current directory). */
#ifndef KGPU_TEST_MODEL_FIXTURE_H
#define KGPU_TEST_MODEL_FIXTURE_H
#include <stdio.h>
#include <stdlib.h>
#include <cjson/cJSON.h>
#include "util/util.h"

static inline cJSON *load_fixture(const char *rel)
{
    const char *root = getenv("KGPU_ROOT");
    char *path = xasprintf("%s/%s", root && *root ? root : ".", rel);
    char *err = NULL;
    size_t len = 0;
    char *text = util_read_file(path, &len, &err);
    if (!text) { fprintf(stderr, "fixture %s: %s\n", path, err); free(err); free(path); return NULL; }
    cJSON *j = cJSON_Parse(text);
    if (!j) fprintf(stderr, "fixture %s: invalid JSON\n", path);
    free(text);
    free(path);
    return j;
}
#endif

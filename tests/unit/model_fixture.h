/* model_fixture.h — load a JSON fixture for unit tests, relative to the repository root
 * ($KGPU_ROOT when set, as run-all.sh exports it; else the current directory); ingest one
 * object written inline into a Cluster.  Include after <cmocka.h>. */
#ifndef KGPU_TEST_MODEL_FIXTURE_H
#define KGPU_TEST_MODEL_FIXTURE_H
#include <stdio.h>
#include <stdlib.h>
#include <cjson/cJSON.h>
#include "model/cluster.h"
#include "util/error.h"
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

/* one object (its "kind" says which) ingested into c; a test fails on bad JSON or a refused object */
static inline void fixture_ingest(Cluster *c, const char *json)
{
    cJSON *o = cJSON_Parse(json);
    if (!o) fail_msg("bad test JSON: %s", json);
    Error err = { 0 };
    if (cluster_ingest(c, OBJ__COUNT, o, &err) < 0) fail_msg("ingest: %s", err.msg);
    cJSON_Delete(o);
}
#endif

/* yaml_render.c — cJSON trees as YAML through the JSON writer (json_writer.h), whose YAML
 * backend is yaml.c: above both json.c and yaml.c. */
#include "render/render.h"
#include "render/json_writer.h"
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

int yaml_render(FILE *f, const cJSON *doc, bool explicit_start)
{
    JsonWriter *jw = malloc(sizeof *jw);
    if (!jw) return -1;
    jw_init_yaml(jw, f, explicit_start);
    jw_value(jw, NULL, doc);
    int rc = jw_release(jw);
    free(jw);
    return rc;
}

int yaml_render_stream(FILE *f, const cJSON *const *docs, size_t n)
{
    JsonWriter *jw = malloc(sizeof *jw);
    if (!jw) return -1;
    jw_init_yaml_stream(jw, f);
    for (size_t i = 0; i < n; i++) jw_value(jw, NULL, docs[i]);
    int rc = jw_release(jw);
    free(jw);
    return rc;
}

/* yaml_out.h — the JSON writer's YAML backend (private to src/render: json.c calls it, yaml.c
 * holds it).  Each function sends libyaml's emitter the events of one call of the writer; false
 * (and jw->failed) when the emitter refused them. */
#ifndef KGPU_RENDER_YAML_OUT_H
#define KGPU_RENDER_YAML_OUT_H
#include <stdbool.h>
#include "render/json_writer.h"

struct cJSON;

bool yaml_out_open(JsonWriter *jw);                   /* the emitter, and the stream's start */
bool yaml_out_document_start(JsonWriter *jw);
bool yaml_out_document_end(JsonWriter *jw);
bool yaml_out_key(JsonWriter *jw, const char *key);  /* a mapping's key */
bool yaml_out_begin(JsonWriter *jw, bool array);
bool yaml_out_end(JsonWriter *jw, bool array);
bool yaml_out_string(JsonWriter *jw, const char *s); /* NULL: null */
bool yaml_out_number(JsonWriter *jw, double v);
bool yaml_out_bool(JsonWriter *jw, bool v);
bool yaml_out_null(JsonWriter *jw);
bool yaml_out_value(JsonWriter *jw, const struct cJSON *v);
/* the stream's end when complete; the emitter released either way */
bool yaml_out_close(JsonWriter *jw, bool complete);
#endif

/* render.h — JSON and YAML output of cJSON trees, and colour decisions.
 *
 * Every command builds one cJSON result and renders it here as JSON or YAML; tables are
 * built by table.h from the same result structures.  Trees are borrowed.
 */
#ifndef KGPU_RENDER_H
#define KGPU_RENDER_H
#include <stdbool.h>
#include <stdio.h>

struct cJSON;
/* the apiVersion every document of ours carries beside its kind (as kubectl's objects do) */
#define KGPU_API_VERSION "kubectl-gpu/v1"
/* the presentation a result is rendered in (the CLI's -o, mapped by the command) */
typedef enum { RENDER_TEXT, RENDER_WIDE, RENDER_JSON, RENDER_YAML, RENDER_SCRIPT,
               RENDER_NAME /* -o name: one KIND/NAME line per object, as kubectl */ } RenderFormat;

int json_render(FILE *f, const struct cJSON *doc);            /* pretty, newline-terminated */
/* one value as it appears nested `depth` levels deep in json_render's text (no newline): a
 * document can be written piece by piece */
int json_render_value(FILE *f, const struct cJSON *item, int depth);
/* YAML through the writer's libyaml backend (json_writer.h); strings that look like other
 * types are quoted.  explicit_start prints "---" first (used between documents of a stream). */
int yaml_render(FILE *f, const struct cJSON *doc, bool explicit_start);
/* multi-document stream: each document preceded by "---" */
int yaml_render_stream(FILE *f, const struct cJSON *const *docs, size_t n);
#endif

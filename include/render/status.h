/* status.h — the one presentation of `kubectl gpu status`: text table, wide table, JSON, YAML.
 *
 * Everything is computed before (analysis/allocation.h status_build); this only prints.  The
 * GpuStatus is borrowed.  Warnings go to stderr before a table; JSON/YAML carry them inside.
 */
#ifndef KGPU_RENDER_STATUS_H
#define KGPU_RENDER_STATUS_H
#include <stdbool.h>
#include "analysis/allocation.h"
#include "render/render.h"

struct cJSON;
/* to stdout: the table (wide: every section) */
void status_print_table(const GpuStatus *st, bool wide, bool color);
/* the JSON document (kind GPUStatus); caller cJSON_Deletes it */
struct cJSON *status_to_json(const GpuStatus *st);
/* the result in fmt to stdout; 0, or -1 when it could not be written */
int status_render(const GpuStatus *st, RenderFormat fmt, bool color);
#endif

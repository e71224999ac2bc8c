/* status.h — the one presentation of `kubectl gpu status`: text table, wide table, JSON, YAML.
 *
 * Everything is computed before (analysis/allocation.h status_build); this only prints.  The
 * GpuStatus is borrowed.  Warnings go to stderr before a table; JSON/YAML carry them inside.
 */
#ifndef KGPU_RENDER_STATUS_H
#define KGPU_RENDER_STATUS_H
#include <stdbool.h>
#include "analysis/allocation.h"
#include "analysis/groups.h"
#include "render/json_writer.h"
#include "render/render.h"
#include "render/table.h"
#include "render/textdoc.h"

struct cJSON;
/* to stdout: the table (wide: every section) */
void status_print_table(const GpuStatus *st, bool wide, bool color);
/* STATUS's brief form, printed where node_status_word's does not fit (a table or top's list
 * narrower than it): the node's problems by the names the PROBLEM table gives them ("Cordoned"
 * for Ready,SchedulingDisabled, "MIGConfigFailed"), "Ready" alone when there are none; caller frees */
char *status_node_brief(const NodeStatus *n);
/* the JSON document (kind GPUStatus); caller cJSON_Deletes it */
struct cJSON *status_to_json(const GpuStatus *st);
/* the result in fmt to stdout; 0, or -1 when it could not be written */
int status_render(const GpuStatus *st, RenderFormat fmt, bool color);
/* the same with kubectl's --no-headers (the node table's rows alone), --sort-by (the node
 * table, -o name, and the JSON/YAML node list) and -o custom-columns (view->columns, whose
 * path errors are set in err); view NULL = none */
struct Error;
int status_render_view(const GpuStatus *st, RenderFormat fmt, bool color, const TableView *view, struct Error *err);

/* status_view.c: the --sort-by fields of the node table, for --help and the error; any other
 * JSONPath into a node of -o json (render/jsonpath.h) sorts by its first value, as kubectl's */
extern const char status_sort_fields_help[];
bool status_sort_field_known(const char *path);
/* the order of st->gpu_node_list under sort_by (NULL: as it is); caller frees */
size_t *status_node_order(const GpuStatus *st, const char *sort_by);
/* status_node.c: node i of st->gpu_node_list as -o json lists it, written as the next element
 * of jw's open array (status_node_write), or as a tree the caller cJSON_Deletes (status_node_json) */
void status_node_write(JsonWriter *jw, const GpuStatus *st, size_t i);
struct cJSON *status_node_json(const GpuStatus *st, size_t i);
/* --sort-by a JSONPath (not one of the named fields) that no node of st has a value at */
bool status_sort_path_missing(const GpuStatus *st, const char *sort_by);
/* -o custom-columns (view->columns): one row per node of -o json; 0, or -1 when writing failed
 * or (err set) a path could not be evaluated */
int status_print_columns(const GpuStatus *st, const TableView *view, struct Error *err);
/* -o name: node/NAME per GPU node */
int status_print_names(const GpuStatus *st, const char *sort_by);
/* status --by (status_groups.c): the groups as a table, -o name, JSON (kind GPUStatusByGroup) or YAML */
int status_groups_render(const StatusGroups *g, const GpuStatus *st, RenderFormat fmt, bool color, bool no_headers);
/* status_physical.c: physical GPUs in use / idle while allocated / free / unavailable
 * (analysis/physical.h): the summary's "physical" object, a node's, and the text line that
 * leads the summary */
void status_physical_json(struct cJSON *summary, const GpuStatus *st);
void status_node_physical_write(JsonWriter *jw, const NodeStatus *n, bool metrics);
void status_print_physical(const GpuStatus *st, bool color);
/* the Queues table (per ClusterQueue / Queue: GPUs nominal, borrowed, used, pending) as a
 * document, for top's queues view; width as table_doc's */
void status_queues_doc(TextDoc *d, const GpuStatus *st, size_t width);
/* "1h", "90m", "7d": a --window as typed */
void status_fmt_window(char *out, size_t n, double seconds);
#endif

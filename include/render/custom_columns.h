/* custom_columns.h — kubectl's -o custom-columns=SPEC and -o custom-columns-file=FILE.
 *
 * SPEC is HEADER:JSONPATH,... ; FILE holds a line of headers and a line of JSONPaths, each
 * separated by whitespace (cli-runtime pkg/printers/customcolumn.go).  The paths are those of
 * render/jsonpath.h and are evaluated on each item a command's -o json lists (status: a node,
 * pending: a pod): the command builds one item at a time, adds it as a row and lets it go, so
 * only the cells are kept.  The table prints like every table (table.h: cut to a terminal
 * with an ellipsis, whole when piped); the header row is the headers as typed.
 *
 * Ownership: a CustomColumns is the caller's (custom_columns_free); items are borrowed.
 */
#ifndef KGPU_RENDER_CUSTOM_COLUMNS_H
#define KGPU_RENDER_CUSTOM_COLUMNS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct cJSON;
struct Error;
typedef struct CustomColumns CustomColumns;

/* the -o value asks for custom columns ("custom-columns=...", "custom-columns-file=...", or
 * either word alone, which custom_columns_new refuses as kubectl does) */
bool custom_columns_format(const char *output);
/* the columns of an -o value; NULL with err set (kubectl's message) on a bad spec or file */
CustomColumns *custom_columns_new(const char *output, struct Error *err);
/* one row: every column's path on item; -1 with err set when a path cannot be evaluated
 * (an index out of bounds, an index into a non-array) */
int custom_columns_add(CustomColumns *cc, const struct cJSON *item, struct Error *err);
/* the rows added so far to f, then forgets them (for the next picture of -w); no rows print
 * nothing, not even the header (kubectl says "No resources found" on stderr: the caller's
 * part); 0, or -1 when writing failed */
size_t custom_columns_rows(const CustomColumns *cc);      /* rows added since the last print */
int custom_columns_print(CustomColumns *cc, FILE *f, bool no_headers);
void custom_columns_free(CustomColumns *cc);
#endif

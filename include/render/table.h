/* table.h — kubectl-style tables: upper-case headers, columns separated by three spaces,
 * left-aligned, colour only when asked (TTY and no NO_COLOR/--no-color).
 *
 * Cells are copied, cleaned for the terminal (text.h: control characters and escape
 * sequences from outside never reach it).  Widths count UTF-8 characters, not bytes; colour
 * escapes do not count.
 */
#ifndef KGPU_TABLE_H
#define KGPU_TABLE_H
#include <stdbool.h>
#include <stdio.h>
#include "render/textdoc.h"

typedef enum { C_NONE = 0, C_RED, C_YELLOW, C_GREEN, C_CYAN, C_BOLD, C_DIM } Color;
typedef struct Table Table;

/* kubectl's --no-headers and --sort-by for a command's main table (the other sections of a
 * command's text are left out with --no-headers: what remains is rows for a script) */
struct CustomColumns;
typedef struct {
    bool no_headers;
    const char *sort_by;        /* a field path as the command's --help lists them, or NULL */
    struct CustomColumns *columns;   /* -o custom-columns (render/custom_columns.h), or NULL */
} TableView;

Table *table_new(const char *const *headers, size_t ncols);
void table_add_row(Table *t);                                   /* starts a new row */
void table_cell(Table *t, const char *text);                    /* next cell of the row */
void table_cellf(Table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void table_cell_color(Table *t, Color c, const char *text);
/* a cell with a brief form (brief NULL or equal: none), printed instead when the table is
 * wider than the terminal: "gpu:16" for "nvidia.com/gpu:16", as top writes it */
void table_cell_brief(Table *t, const char *text, const char *brief);
void table_cell_brief_color(Table *t, Color c, const char *text, const char *brief);
size_t table_rows(const Table *t);
/* -w (cmd/watch_loop.c): the current row's identity (a pod's namespace/name), what rows of two
 * pictures are compared by.  While a capture slot is set, table_print_rows of a table whose rows
 * have keys also leaves a copy of it in *slot (the last such table printed; freeing the one
 * there before); table_capture(NULL) stops. */
void table_row_key(Table *t, const char *key);
void table_capture(Table **slot);
/* a captured table was printed with its header line (not --no-headers) */
bool table_headed(const Table *t);
/* the rows of now that are new or changed since old, then old's rows now gone (their last
 * state, as kubectl get -w prints a deleted object), by key; with events an EVENT column first
 * (ADDED, MODIFIED, DELETED: kubectl's --output-watch-events).  old or now may be NULL (none
 * yet, none left); the columns are at least as wide as now's whole table with its header, so
 * the rows line up under the header printed first.  NULL when both are NULL; caller frees */
Table *table_diff(const Table *old, const Table *now, bool events);
/* On a terminal narrower than the table (80 columns when the width cannot be read; COLUMNS
 * first) cells print their brief forms, then free text is cut with "…"; piped output is whole,
 * and so is a table marked whole (-o wide).  The whole rule is fit_widths' in table.c: brief
 * forms, then the column marked cut_first gives way (down to floor_width characters), then the
 * gaps narrow, then the widest column not kept is cut. */
void table_keep_whole(Table *t, bool whole);
void table_cut_first(Table *t, size_t col, size_t floor_width);
/* the column holds values (a quantity, a resource or MIG profile, a status word): never cut
 * with "…" (its cells' brief forms may stand in); only free text is cut */
void table_keep_col(Table *t, size_t col);
/* the column changes with the clock (AGE): -w does not print a row for that alone */
void table_clock_col(Table *t, size_t col);
/* every line starts with indent spaces, and the width left is what the table fits */
void table_indent(Table *t, size_t indent);
/* tables printed into a buffer meant for a terminal (status -w, pending -w): on, width is
 * what table_terminal_width says of any stream (the real stdout's, 0 = whole) until off */
void table_assume_width(bool on, size_t width);
/* the width tables are cut to on f: 0 (no limit) when f is not a terminal, else COLUMNS (as
 * kubectl reads it), else the terminal's, else 80 */
size_t table_terminal_width(FILE *f);
void table_print(const Table *t, FILE *f, bool color);
void table_print_rows(const Table *t, FILE *f, bool color, bool headers);   /* headers false: rows only */
/* the table as lines of a document (render/textdoc.h), the header line first, fitted to width
 * columns as table_print fits it to a terminal (0: whole); coloured cells carry the matching
 * attribute (green TA_OK, red TA_ERROR, yellow TA_WARN, bold TA_STRONG) */
void table_doc(const Table *t, TextDoc *d, size_t width);
void table_free(Table *t);
/* colour helpers for free text (color.c) */
const char *color_start(Color c, bool enabled);
const char *color_end(Color c, bool enabled);
/* s is one of the codes color_start/color_end return (the same pointer): ours, not text */
bool color_is_code(const char *s);
size_t table_utf8_width(const char *s);
/* a copy of s cut to at most width characters, the last one "…" when cut (width >= 1) */
char *table_utf8_truncate(const char *s, size_t width);
#endif

/* table.c — aligned columns like `kubectl get`. */
#include "render/table.h"
#include "render/textdoc.h"
#include "render/text.h"
#include "util/util.h"
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

typedef struct { char *text; Color color; } Cell;
struct Table {
    char **headers; size_t ncols;
    Cell *cells; size_t ncells, cap;   /* row-major, ncols per row */
    size_t cur;                        /* cells filled in the current row */
    bool whole;                        /* -o wide: never cut to the terminal */
    bool has_first;                    /* table_cut_first: this column gives way first */
    size_t first, first_floor;
    size_t indent;                     /* spaces before every line */
};

void table_keep_whole(Table *t, bool whole) { t->whole = whole; }
void table_cut_first(Table *t, size_t col, size_t floor_width)
{
    t->has_first = col < t->ncols;
    t->first = col;
    t->first_floor = floor_width ? floor_width : 1;
}
void table_indent(Table *t, size_t indent) { t->indent = indent; }

static bool width_assumed;
static size_t assumed_width;
void table_assume_width(bool on, size_t width)
{
    width_assumed = on;
    assumed_width = width;
}

size_t table_terminal_width(FILE *f)
{
    if (width_assumed) return assumed_width;
    int fd = fileno(f);
    if (fd < 0 || !isatty(fd)) return 0;
    const char *env = getenv("COLUMNS");
    int64_t v;
    if (env && str_to_int64(env, &v) && v > 0 && v < 10000) return (size_t)v;
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    return 80;
}

Table *table_new(const char *const *headers, size_t ncols)
{
    Table *t = xcalloc(1, sizeof *t);
    t->ncols = ncols;
    t->headers = xcalloc(ncols, sizeof(char *));
    for (size_t i = 0; i < ncols; i++) t->headers[i] = xstrdup(headers[i]);
    t->cur = ncols;
    return t;
}

static void pad_row(Table *t)
{
    while (t->cur < t->ncols) {
        ARRAY_GROW(t->cells, t->ncells, t->cap);
        t->cells[t->ncells++] = (Cell){ xstrdup(""), C_NONE };
        t->cur++;
    }
}

void table_add_row(Table *t)
{
    pad_row(t);
    t->cur = 0;
}

void table_cell_color(Table *t, Color c, const char *text)
{
    if (t->cur >= t->ncols) return;   /* extra cells are a caller bug; ignore them */
    ARRAY_GROW(t->cells, t->ncells, t->cap);
    t->cells[t->ncells++] = (Cell){ text_clean(text, false), c };
    t->cur++;
}

void table_cell(Table *t, const char *text) { table_cell_color(t, C_NONE, text); }

void table_cellf(Table *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    table_cell_color(t, C_NONE, s);
    free(s);
}

size_t table_rows(const Table *t) { return t->ncols ? (t->ncells + t->ncols - 1) / t->ncols : 0; }

size_t table_utf8_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++) if (((unsigned char)*s & 0xC0) != 0x80) w++;
    return w;
}

char *table_utf8_truncate(const char *s, size_t width)
{
    if (table_utf8_width(s) <= width || width == 0) return xstrdup(s);
    const char *p = s;
    size_t w = 0;
    while (*p && w < width - 1) {         /* keep width-1 characters, then the ellipsis */
        p++;
        while (((unsigned char)*p & 0xC0) == 0x80) p++;
        w++;
    }
    return xasprintf("%.*s\u2026", (int)(p - s), s);
}

void table_print(const Table *t, FILE *f, bool color) { table_print_rows(t, f, color, true); }

static size_t total_width(const size_t *w, size_t n, size_t gap)
{
    size_t total = 0;
    for (size_t c = 0; c < n; c++) total += w[c] + (c + 1 < n ? gap : 0);
    return total;
}

/* cut the widest column above its floor (the header's width when headers show, and at least
 * min_floor) by what is over, not below the floor; false when no column can give */
static bool cut_widest(const Table *t, size_t *w, bool *cut_col, bool headers, size_t min_floor, size_t over)
{
    size_t widest = SIZE_MAX, widest_floor = 0;
    for (size_t c = 0; c < t->ncols; c++) {
        size_t hw = headers ? table_utf8_width(t->headers[c]) : 0;
        size_t floor_w = hw > min_floor ? hw : min_floor;
        if (w[c] > floor_w && (widest == SIZE_MAX || w[c] > w[widest])) { widest = c; widest_floor = floor_w; }
    }
    if (widest == SIZE_MAX) return false;
    w[widest] = w[widest] > widest_floor + over ? w[widest] - over : widest_floor;
    cut_col[widest] = true;
    return true;
}

/* The one rule that fits a table to a terminal narrower than it (piped or -o wide: whole):
 *   1. the column marked table_cut_first gives way, down to its floor;
 *   2. then the widest column is cut, then the next widest, none below its header or 8
 *      characters;
 *   3. then the columns are 2 spaces apart instead of kubectl's 3;
 *   4. then the widest may go down to its header or 3 characters.
 * A cut cell ends in "…".  Only a table whose headers alone are wider stays wider. */
static size_t fit_widths(const Table *t, size_t term, bool headers, size_t *w, bool *cut_col)
{
    size_t gap = 3;
    if (!term || !t->ncols) return gap;
    size_t total = total_width(w, t->ncols, gap);
    if (total > term && t->has_first && w[t->first] > t->first_floor) {
        size_t over = total - term;
        w[t->first] = w[t->first] > t->first_floor + over ? w[t->first] - over : t->first_floor;
        cut_col[t->first] = true;
        total = total_width(w, t->ncols, gap);
    }
    while (total > term && cut_widest(t, w, cut_col, headers, 8, total - term)) total = total_width(w, t->ncols, gap);
    if (total > term) {
        gap = 2;
        total = total_width(w, t->ncols, gap);
    }
    while (total > term && cut_widest(t, w, cut_col, headers, 3, total - term)) total = total_width(w, t->ncols, gap);
    return gap;
}

/* the widths of t's columns fitted to term columns (0: whole), which were cut, and the gap;
 * without headers the columns are as wide as their widest cell (as kubectl's --no-headers) */
static int layout(const Table *t, size_t term, bool headers, size_t **w_out, bool **cut_out)
{
    size_t *w = xcalloc(t->ncols ? t->ncols : 1, sizeof *w);
    for (size_t c = 0; c < t->ncols && headers; c++) w[c] = table_utf8_width(t->headers[c]);
    for (size_t i = 0; i < t->ncells; i++) {
        size_t cw = table_utf8_width(t->cells[i].text);
        if (cw > w[i % t->ncols]) w[i % t->ncols] = cw;
    }
    /* kubectl's tabwriter (cli-runtime printers.GetNewTabWriter: minwidth 6, padding 3): a
     * column and its gap take at least 6 characters */
    for (size_t c = 0; c + 1 < t->ncols; c++) if (w[c] < 3) w[c] = 3;
    if (t->whole) term = 0;
    if (term) term = term > t->indent + 20 ? term - t->indent : 20;
    bool *cut_col = xcalloc(t->ncols ? t->ncols : 1, sizeof *cut_col);
    *w_out = w;
    *cut_out = cut_col;
    return (int)fit_widths(t, term, headers, w, cut_col);
}

void table_print_rows(const Table *t, FILE *f, bool color, bool headers)
{
    size_t rows = table_rows(t);
    size_t *w;
    bool *cut_col;
    int gap = layout(t, t->whole ? 0 : table_terminal_width(f), headers, &w, &cut_col);
    for (size_t c = 0; c < t->ncols && headers; c++) {
        if (c == 0 && t->indent) fprintf(f, "%*s", (int)t->indent, "");
        if (c + 1 == t->ncols) fprintf(f, "%s\n", t->headers[c]);
        else fprintf(f, "%s%*s", t->headers[c], (int)(w[c] - table_utf8_width(t->headers[c])) + gap, "");
    }
    for (size_t r = 0; r < rows; r++) {
        if (t->indent) fprintf(f, "%*s", (int)t->indent, "");
        for (size_t c = 0; c < t->ncols; c++) {
            size_t i = r * t->ncols + c;
            const Cell *cell = i < t->ncells ? &t->cells[i] : NULL;
            const char *text = cell ? cell->text : "";
            char *cut = cut_col[c] ? table_utf8_truncate(text, w[c]) : NULL;
            if (cut) text = cut;
            Color col = cell ? cell->color : C_NONE;
            fprintf(f, "%s%s%s", color_start(col, color), text, color_end(col, color));
            if (c + 1 < t->ncols) fprintf(f, "%*s", (int)(w[c] - table_utf8_width(text)) + gap, "");
            free(cut);
        }
        fputc('\n', f);
    }
    free(cut_col);
    free(w);
}

static void doc_spaces(TextDoc *d, size_t n)
{
    if (!n) return;
    char *sp = xmalloc(n + 1);
    memset(sp, ' ', n);
    sp[n] = '\0';
    text_add(d, TA_NORMAL, sp);
    free(sp);
}

/* the colours of cells as a document's attributes (textdoc.h prints OK, WARN, ERROR, STRONG) */
static TextAttr color_attr(Color c)
{
    static const TextAttr attrs[] = { [C_NONE] = TA_NORMAL, [C_RED] = TA_ERROR, [C_YELLOW] = TA_WARN,
                                      [C_GREEN] = TA_OK, [C_CYAN] = TA_VALUE, [C_BOLD] = TA_STRONG, [C_DIM] = TA_DIM };
    return (size_t)c < sizeof attrs / sizeof *attrs ? attrs[c] : TA_NORMAL;
}

void table_doc(const Table *t, TextDoc *d, size_t width)
{
    size_t rows = table_rows(t);
    size_t *w;
    bool *cut_col;
    int gap = layout(t, width, true, &w, &cut_col);
    text_newline(d);
    doc_spaces(d, t->indent);
    for (size_t c = 0; c < t->ncols; c++) {
        text_add(d, TA_COLUMNS, t->headers[c]);
        if (c + 1 < t->ncols) doc_spaces(d, w[c] - table_utf8_width(t->headers[c]) + (size_t)gap);
    }
    for (size_t r = 0; r < rows; r++) {
        text_newline(d);
        doc_spaces(d, t->indent);
        for (size_t c = 0; c < t->ncols; c++) {
            size_t i = r * t->ncols + c;
            const Cell *cell = i < t->ncells ? &t->cells[i] : NULL;
            const char *text = cell ? cell->text : "";
            char *cut = cut_col[c] ? table_utf8_truncate(text, w[c]) : NULL;
            if (cut) text = cut;
            text_add(d, color_attr(cell ? cell->color : C_NONE), text);
            if (c + 1 < t->ncols) doc_spaces(d, w[c] - table_utf8_width(text) + (size_t)gap);
            free(cut);
        }
    }
    free(cut_col);
    free(w);
}

void table_free(Table *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->ncols; i++) free(t->headers[i]);
    for (size_t i = 0; i < t->ncells; i++) free(t->cells[i].text);
    free(t->headers);
    free(t->cells);
    free(t);
}

/* table.c — aligned columns like `kubectl get`. */
#include "render/table.h"
#include "render/textdoc.h"
#include "render/text.h"
#include "util/strmap.h"
#include "util/util.h"
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

typedef struct { char *text; char *brief; Color color; } Cell;   /* brief: the short form, or NULL */
struct Table {
    char **headers; size_t ncols;
    Cell *cells; size_t ncells, cap;   /* row-major, ncols per row */
    size_t cur;                        /* cells filled in the current row */
    bool whole;                        /* -o wide: never cut to the terminal */
    bool has_first;                    /* table_cut_first: this column gives way first */
    size_t first, first_floor;
    size_t indent;                     /* spaces before every line */
    bool *keep;                        /* per column: a value (a quantity, a profile, a status), never cut */
    bool *vol;                         /* per column: changes with the clock (AGE), not compared by -w */
    char **keys; size_t nkeys;         /* per row (table_row_key): what -w compares rows by */
    size_t *min_w;                     /* per column, or NULL: rows printed under another table's header */
    bool headed;                       /* a capture: the table was printed with its header line */
};

static Table **capture_slot;
void table_capture(Table **slot) { capture_slot = slot; }

void table_keep_whole(Table *t, bool whole) { t->whole = whole; }
void table_cut_first(Table *t, size_t col, size_t floor_width)
{
    t->has_first = col < t->ncols;
    t->first = col;
    t->first_floor = floor_width ? floor_width : 1;
}
void table_indent(Table *t, size_t indent) { t->indent = indent; }
void table_keep_col(Table *t, size_t col) { if (col < t->ncols) t->keep[col] = true; }
void table_clock_col(Table *t, size_t col) { if (col < t->ncols) t->vol[col] = true; }

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
    t->keep = xcalloc(ncols ? ncols : 1, sizeof *t->keep);
    t->vol = xcalloc(ncols ? ncols : 1, sizeof *t->vol);
    t->cur = ncols;
    return t;
}

static void pad_row(Table *t)
{
    while (t->cur < t->ncols) {
        ARRAY_GROW(t->cells, t->ncells, t->cap);
        t->cells[t->ncells++] = (Cell){ xstrdup(""), NULL, C_NONE };
        t->cur++;
    }
}

void table_add_row(Table *t)
{
    pad_row(t);
    t->cur = 0;
}

void table_row_key(Table *t, const char *key)
{
    if (!t->ncols || t->ncells < t->cur) return;
    size_t row = (t->ncells - t->cur) / t->ncols;          /* the row table_add_row started */
    if (t->nkeys <= row) {
        t->keys = xrealloc(t->keys, (row + 1) * sizeof *t->keys);
        while (t->nkeys <= row) t->keys[t->nkeys++] = NULL;
    }
    free(t->keys[row]);
    t->keys[row] = xstrdup(key);
}

void table_cell_brief_color(Table *t, Color c, const char *text, const char *brief)
{
    if (t->cur >= t->ncols) return;   /* extra cells are a caller bug; ignore them */
    ARRAY_GROW(t->cells, t->ncells, t->cap);
    bool differs = brief && strcmp(brief, text ? text : "") != 0;
    t->cells[t->ncells++] = (Cell){ text_clean(text, false), differs ? text_clean(brief, false) : NULL, c };
    t->cur++;
}

void table_cell_color(Table *t, Color c, const char *text) { table_cell_brief_color(t, c, text, NULL); }
void table_cell_brief(Table *t, const char *text, const char *brief) { table_cell_brief_color(t, C_NONE, text, brief); }

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

/* cut the widest column that may be cut (not kept) above its floor (the header's width when
 * headers show, and at least min_floor) by what is over, not below the floor; false when no
 * column can give */
static bool cut_widest(const Table *t, size_t *w, bool *cut_col, bool headers, size_t min_floor, size_t over)
{
    size_t widest = SIZE_MAX, widest_floor = 0;
    for (size_t c = 0; c < t->ncols; c++) {
        if (t->keep[c]) continue;
        size_t hw = headers ? table_utf8_width(t->headers[c]) : 0;
        size_t floor_w = hw > min_floor ? hw : min_floor;
        if (w[c] > floor_w && (widest == SIZE_MAX || w[c] > w[widest])) { widest = c; widest_floor = floor_w; }
    }
    if (widest == SIZE_MAX) return false;
    w[widest] = w[widest] > widest_floor + over ? w[widest] - over : widest_floor;
    cut_col[widest] = true;
    return true;
}

/* the widths of the columns from their cells (the brief forms of the columns in brief[]) and
 * headers; kubectl's tabwriter (cli-runtime printers.GetNewTabWriter: minwidth 6, padding 3):
 * a column and its gap take at least 6 characters */
static void cell_widths(const Table *t, bool headers, const bool *brief, size_t *w, bool with_min)
{
    for (size_t c = 0; c < t->ncols; c++) w[c] = headers ? table_utf8_width(t->headers[c]) : 0;
    for (size_t i = 0; i < t->ncells; i++) {
        const Cell *cell = &t->cells[i];
        size_t c = i % t->ncols;
        size_t cw = table_utf8_width(brief[c] && cell->brief ? cell->brief : cell->text);
        if (cw > w[c]) w[c] = cw;
    }
    for (size_t c = 0; c + 1 < t->ncols; c++) if (w[c] < 3) w[c] = 3;
    for (size_t c = 0; with_min && t->min_w && c < t->ncols; c++) if (w[c] < t->min_w[c]) w[c] = t->min_w[c];
}

/* The one rule that fits a table to a terminal narrower than it (piped or -o wide: whole):
 *   1. the columns whose cells have a brief form (table_cell_brief: "gpu:16" for
 *      "nvidia.com/gpu:16", as top writes them) print that form;
 *   2. the column marked table_cut_first gives way, down to its floor;
 *   3. then the columns are 2 spaces apart instead of kubectl's 3 (narrower gaps hide nothing);
 *   4. then the widest column is cut, then the next widest, none below its header or 8
 *      characters;
 *   5. then the widest may go down to its header or 3 characters.
 * A cut cell ends in "…".  A column kept (table_keep_col: a quantity, a MIG profile, a status)
 * is never cut: a table whose kept columns and headers alone are wider stays wider. */
static size_t fit_widths(const Table *t, size_t term, bool headers, size_t *w, bool *cut_col, bool *brief)
{
    size_t gap = 3;
    if (!term || !t->ncols) return gap;
    size_t total = total_width(w, t->ncols, gap);
    if (total > term) {       /* the widths of the header printed first (table_diff) no longer hold */
        for (size_t i = 0; i < t->ncells; i++) if (t->cells[i].brief) brief[i % t->ncols] = true;
        cell_widths(t, headers || t->min_w, brief, w, false);
        total = total_width(w, t->ncols, gap);
    }
    if (total > term && t->has_first && !t->keep[t->first] && w[t->first] > t->first_floor) {
        size_t over = total - term;
        w[t->first] = w[t->first] > t->first_floor + over ? w[t->first] - over : t->first_floor;
        cut_col[t->first] = true;
        total = total_width(w, t->ncols, gap);
    }
    if (total > term) {
        gap = 2;
        total = total_width(w, t->ncols, gap);
    }
    while (total > term && cut_widest(t, w, cut_col, headers, 8, total - term)) total = total_width(w, t->ncols, gap);
    while (total > term && cut_widest(t, w, cut_col, headers, 3, total - term)) total = total_width(w, t->ncols, gap);
    return gap;
}

/* the widths of t's columns fitted to term columns (0: whole), which were cut, and the gap;
 * without headers the columns are as wide as their widest cell (as kubectl's --no-headers) */
typedef struct { size_t *w; bool *cut; bool *brief; int gap; } Layout;

static void layout(const Table *t, size_t term, bool headers, Layout *lo)
{
    size_t n = t->ncols ? t->ncols : 1;
    lo->w = xcalloc(n, sizeof *lo->w);
    lo->cut = xcalloc(n, sizeof *lo->cut);
    lo->brief = xcalloc(n, sizeof *lo->brief);
    cell_widths(t, headers, lo->brief, lo->w, true);
    if (t->whole) term = 0;
    if (term) term = term > t->indent + 20 ? term - t->indent : 20;
    lo->gap = (int)fit_widths(t, term, headers, lo->w, lo->cut, lo->brief);
}

static void layout_release(Layout *lo)
{
    free(lo->w);
    free(lo->cut);
    free(lo->brief);
}

/* the text cell i prints in a layout: its brief form where the column went brief, cut where
 * it was cut (*cut: what to free) */
static const char *cell_text(const Table *t, const Layout *lo, size_t i, char **cut)
{
    size_t c = i % t->ncols;
    const Cell *cell = i < t->ncells ? &t->cells[i] : NULL;
    const char *text = !cell ? "" : lo->brief[c] && cell->brief ? cell->brief : cell->text;
    *cut = lo->cut[c] ? table_utf8_truncate(text, lo->w[c]) : NULL;
    return *cut ? *cut : text;
}

static Table *table_copy(const Table *t);

void table_print_rows(const Table *t, FILE *f, bool color, bool headers)
{
    if (capture_slot && t->nkeys) {               /* -w: the rows, to compare with the next picture */
        table_free(*capture_slot);
        *capture_slot = table_copy(t);
        (*capture_slot)->headed = headers;
    }
    size_t rows = table_rows(t);
    Layout lo;
    layout(t, t->whole ? 0 : table_terminal_width(f), headers, &lo);
    size_t *w = lo.w;
    int gap = lo.gap;
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
            char *cut;
            const char *text = cell_text(t, &lo, i, &cut);
            Color col = cell ? cell->color : C_NONE;
            fprintf(f, "%s%s%s", color_start(col, color), text, color_end(col, color));
            if (c + 1 < t->ncols) fprintf(f, "%*s", (int)(w[c] - table_utf8_width(text)) + gap, "");
            free(cut);
        }
        fputc('\n', f);
    }
    layout_release(&lo);
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
    Layout lo;
    layout(t, width, true, &lo);
    size_t *w = lo.w;
    int gap = lo.gap;
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
            char *cut;
            const char *text = cell_text(t, &lo, i, &cut);
            text_add(d, color_attr(cell ? cell->color : C_NONE), text);
            if (c + 1 < t->ncols) doc_spaces(d, w[c] - table_utf8_width(text) + (size_t)gap);
            free(cut);
        }
    }
    layout_release(&lo);
}

static void copy_row(Table *dst, const Table *src, size_t row, const char *event)
{
    table_add_row(dst);
    if (event) table_cell(dst, event);
    for (size_t c = 0; c < src->ncols; c++) {
        size_t i = row * src->ncols + c;
        const Cell *cell = i < src->ncells ? &src->cells[i] : NULL;
        table_cell_brief_color(dst, cell ? cell->color : C_NONE, cell ? cell->text : "", cell ? cell->brief : NULL);
    }
    if (row < src->nkeys && src->keys[row]) table_row_key(dst, src->keys[row]);
}

/* an empty table shaped as t (headers, before an EVENT column when event; the fitting marks) */
static Table *table_like(const Table *t, bool event)
{
    size_t shift = event ? 1 : 0;
    const char **h = xcalloc(t->ncols + shift, sizeof *h);
    if (event) h[0] = "EVENT";
    for (size_t c = 0; c < t->ncols; c++) h[c + shift] = t->headers[c];
    Table *n = table_new(h, t->ncols + shift);
    free(h);
    n->whole = t->whole;
    n->indent = t->indent;
    if (t->has_first) table_cut_first(n, t->first + shift, t->first_floor);
    if (event) n->keep[0] = true;
    for (size_t c = 0; c < t->ncols; c++) { n->keep[c + shift] = t->keep[c]; n->vol[c + shift] = t->vol[c]; }
    return n;
}

static Table *table_copy(const Table *t)
{
    Table *n = table_like(t, false);
    for (size_t r = 0; r < table_rows(t); r++) copy_row(n, t, r, NULL);
    return n;
}

bool table_headed(const Table *t) { return t && t->headed; }

static const char *key_at(const Table *t, size_t row) { return row < t->nkeys && t->keys[row] ? t->keys[row] : ""; }

static bool row_same(const Table *a, size_t ra, const Table *b, size_t rb)
{
    if (a->ncols != b->ncols) return false;
    for (size_t c = 0; c < a->ncols; c++) {
        if (a->vol[c]) continue;                  /* an age that ticked is no change */
        const Cell *x = &a->cells[ra * a->ncols + c], *y = &b->cells[rb * b->ncols + c];
        if (strcmp(x->text, y->text) != 0 || x->color != y->color) return false;
    }
    return true;
}

/* row r of t by key: 1 + r (0: none) */
static StrMap *row_index(const Table *t)
{
    StrMap *m = strmap_new();
    for (size_t r = 0; t && r < table_rows(t); r++)
        if (!strmap_get(m, key_at(t, r))) strmap_put(m, key_at(t, r), (void *)(uintptr_t)(r + 1));
    return m;
}

Table *table_diff(const Table *old, const Table *now, bool events)
{
    const Table *shape = now ? now : old;
    if (!shape) return NULL;
    Table *d = table_like(shape, events);
    d->min_w = xcalloc(d->ncols, sizeof *d->min_w);   /* aligned under the header printed first */
    const Table *ref = now ? now : old;
    size_t *w = xcalloc(ref->ncols ? ref->ncols : 1, sizeof *w);
    bool *brief = xcalloc(ref->ncols ? ref->ncols : 1, sizeof *brief);
    cell_widths(ref, true, brief, w, false);
    for (size_t c = 0; c < ref->ncols; c++) d->min_w[c + (events ? 1 : 0)] = w[c];
    if (events) d->min_w[0] = strlen("MODIFIED");
    free(w);
    free(brief);
    StrMap *old_rows = row_index(old), *now_rows = row_index(now);
    for (size_t r = 0; now && r < table_rows(now); r++) {
        size_t o = (size_t)(uintptr_t)strmap_get(old_rows, key_at(now, r));
        if (!o) copy_row(d, now, r, events ? "ADDED" : NULL);
        else if (!row_same(old, o - 1, now, r)) copy_row(d, now, r, events ? "MODIFIED" : NULL);
    }
    for (size_t r = 0; old && r < table_rows(old); r++)       /* gone: its last state, as kubectl */
        if (!strmap_get(now_rows, key_at(old, r))) copy_row(d, old, r, events ? "DELETED" : NULL);
    strmap_free(old_rows, NULL);
    strmap_free(now_rows, NULL);
    return d;
}

void table_free(Table *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->nkeys; i++) free(t->keys[i]);
    free(t->keys);
    free(t->min_w);
    for (size_t i = 0; i < t->ncols; i++) free(t->headers[i]);
    for (size_t i = 0; i < t->ncells; i++) { free(t->cells[i].text); free(t->cells[i].brief); }
    free(t->keep);
    free(t->vol);
    free(t->headers);
    free(t->cells);
    free(t);
}

/* table.c — aligned columns like `kubectl get`. */
#include "render/table.h"
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
};

void table_keep_whole(Table *t, bool whole) { t->whole = whole; }

size_t table_terminal_width(FILE *f)
{
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

size_t utf8_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++) if (((unsigned char)*s & 0xC0) != 0x80) w++;
    return w;
}

char *utf8_truncate(const char *s, size_t width)
{
    if (utf8_width(s) <= width || width == 0) return xstrdup(s);
    const char *p = s;
    size_t w = 0;
    while (*p && w < width - 1) {         /* keep width-1 characters, then the ellipsis */
        p++;
        while (((unsigned char)*p & 0xC0) == 0x80) p++;
        w++;
    }
    return xasprintf("%.*s\u2026", (int)(p - s), s);
}

static const char *const codes[] = { "", "\033[31m", "\033[33m", "\033[32m", "\033[36m", "\033[1m", "\033[2m" };
const char *color_start(Color c, bool enabled) { return enabled && c ? codes[c] : ""; }
static const char reset_code[] = "\033[0m";
const char *color_end(Color c, bool enabled) { return enabled && c ? reset_code : ""; }
bool color_is_code(const char *s)
{
    if (s == reset_code) return true;
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++) if (s == codes[i]) return true;
    return false;
}

void table_print(const Table *t, FILE *f, bool color) { table_print_rows(t, f, color, true); }

/* without headers the columns are as wide as their widest cell (as kubectl's --no-headers) */
void table_print_rows(const Table *t, FILE *f, bool color, bool headers)
{
    ((Table *)t)->cur = t->cur;
    size_t rows = table_rows(t);
    size_t *w = xcalloc(t->ncols, sizeof *w);
    for (size_t c = 0; c < t->ncols && headers; c++) w[c] = utf8_width(t->headers[c]);
    for (size_t i = 0; i < t->ncells; i++) {
        size_t cw = utf8_width(t->cells[i].text);
        if (cw > w[i % t->ncols]) w[i % t->ncols] = cw;
    }
    /* on a terminal too narrow for the table the widest column is cut, its cells ending in "…"
     * (never below its header or 8 characters), then the next widest while it is still too
     * wide; piped or -o wide: whole */
    size_t term = t->whole ? 0 : table_terminal_width(f);
    bool *cut_col = xcalloc(t->ncols ? t->ncols : 1, sizeof *cut_col);
    while (term && t->ncols) {
        size_t total = 0, widest = SIZE_MAX;
        for (size_t c = 0; c < t->ncols; c++) {
            total += w[c] + (c + 1 < t->ncols ? 3 : 0);
            size_t floor_w = headers && utf8_width(t->headers[c]) > 8 ? utf8_width(t->headers[c]) : 8;
            if (w[c] > floor_w && (widest == SIZE_MAX || w[c] > w[widest])) widest = c;
        }
        if (total <= term || widest == SIZE_MAX) break;
        size_t floor_w = headers && utf8_width(t->headers[widest]) > 8 ? utf8_width(t->headers[widest]) : 8;
        size_t over = total - term;
        w[widest] = w[widest] > floor_w + over ? w[widest] - over : floor_w;
        cut_col[widest] = true;
    }
    for (size_t c = 0; c < t->ncols && headers; c++) {
        if (c + 1 == t->ncols) fprintf(f, "%s\n", t->headers[c]);
        else fprintf(f, "%s%*s", t->headers[c], (int)(w[c] - utf8_width(t->headers[c]) + 3), "");
    }
    for (size_t r = 0; r < rows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            size_t i = r * t->ncols + c;
            const Cell *cell = i < t->ncells ? &t->cells[i] : NULL;
            const char *text = cell ? cell->text : "";
            char *cut = cut_col[c] ? utf8_truncate(text, w[c]) : NULL;
            if (cut) text = cut;
            Color col = cell ? cell->color : C_NONE;
            fprintf(f, "%s%s%s", color_start(col, color), text, color_end(col, color));
            if (c + 1 < t->ncols) fprintf(f, "%*s", (int)(w[c] - utf8_width(text) + 3), "");
            free(cut);
        }
        fputc('\n', f);
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

/* textdoc.h — a TextDoc: lines made of attributed spans, the one text presentation that both
 * stdout and `kubectl gpu top` show.  explain's text (render_explain.h), top's node screens and
 * help are built once as TextDocs; text_doc_print writes one to a stream (the CLI), and top
 * draws the same document into a box with a scroll offset (tui/tui_text.h).
 *
 * Two kinds of spans read differently by medium, so that one document serves both:
 *   - a field label (text_label): "Pod:" padded to its column on stdout, as kubectl describe
 *     prints, "Pod" in the label colour on the screen;
 *   - a section heading (text_heading): "Fixes:" on stdout, "FIXES" on the screen (its first
 *     word upper case, as top's sections are), a detail in parentheses kept as it is.
 * The attributes say what a span is; stdout paints only TA_OK green, TA_WARN yellow, TA_ERROR
 * red and TA_STRONG bold (when colour is on), the screen paints each (tui_screen.c).
 *
 * Text from outside is cleaned where it is printed (render/text.h) or drawn (tui_screen.c);
 * the document holds it as given.  text_wrap wraps at the document's width: a document meant
 * for stdout is made with TEXT_NO_WRAP, its lines as long as their text.
 *
 * Ownership: a TextDoc owns copies of every string added; text_clear releases them.
 */
#ifndef KGPU_RENDER_TEXTDOC_H
#define KGPU_RENDER_TEXTDOC_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "util/util.h"

typedef enum {
    TA_NORMAL,
    TA_TITLE,            /* top: the header's first line */
    TA_LABEL,            /* "Nodes", "GPUs": labels before numbers */
    TA_VALUE,            /* the numbers, names */
    TA_DIM,              /* secondary text, empty bar cells */
    TA_OK, TA_WARN, TA_ERROR,
    TA_PANE_TITLE,       /* top: title row of a pane without focus */
    TA_PANE_FOCUS,       /* top: title row of the focused pane */
    TA_COLUMNS,          /* column headers, section headings */
    TA_SELECTED,         /* top: selected row of the focused pane */
    TA_SELECTED_BLUR,    /* top: selected row of a pane without focus */
    TA_BAR_ALLOC, TA_BAR_UTIL, TA_BAR_MEM,
    TA_FKEY, TA_FLABEL,  /* function bar and help: key, label */
    TA_BUSY,             /* top: "refreshing… 4s" */
    TA_INPUT,            /* top: the filter being typed */
    TA_STRONG,           /* emphasis: bold on stdout and on the screen */
    TA__COUNT
} TextAttr;

typedef enum { SPAN_TEXT, SPAN_LABEL, SPAN_HEADING } TextSpanKind;
/* cols: the columns the span takes (a label: up to its column, the colon or a space included) */
typedef struct { char *text; TextAttr attr; TextSpanKind kind; int cols; } TextSpan;
typedef struct { TextSpan *spans; size_t n, cap; int cols; } TextLine;
typedef struct { TextLine *lines; size_t n, cap; int width; bool utf8; } TextDoc;

/* a width for documents printed to a stream: nothing wraps */
#define TEXT_NO_WRAP (1 << 28)

/* width: where text_wrap wraps (at least 10); glyphs (ellipsis, bars) are UTF-8 */
void text_init(TextDoc *d, int width);
void text_clear(TextDoc *d);
/* starts a new (empty) line */
void text_newline(TextDoc *d);
/* appends to the current line (starting the first line when there is none) */
void text_add(TextDoc *d, TextAttr a, const char *s);
void text_addf(TextDoc *d, TextAttr a, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* a field label on a new line, taking the columns up to col (see above); col 0: just the label;
 * "" continues the field above (blank up to col, no colon) */
void text_label(TextDoc *d, const char *label, int col);
/* a blank line, then a section heading: title and, when not NULL, a detail in parentheses */
void text_heading(TextDoc *d, const char *title, const char *detail);
/* s cut to w columns (the last one an ellipsis when cut) */
void text_add_fit(TextDoc *d, TextAttr a, const char *s, int w);
/* pads the current line with spaces up to column col (one space when it is there already) */
void text_pad(TextDoc *d, int col);
/* a bar w columns wide: filled part in fill, the rest dim */
void text_bar(TextDoc *d, int w, double frac, TextAttr fill);
/* the two parts of a bar w columns wide, frac in [0,1] (NAN: unknown, all empty): eighths of a
 * block in UTF-8, else '#' and '.' */
void text_bar_parts(int w, double frac, bool utf8, Strbuf *fill, Strbuf *empty);
/* s word-wrapped to the doc's width, continuing the current line; continuation lines start
 * with `indent` spaces.  Embedded newlines start new (indented) lines. */
void text_wrap(TextDoc *d, int indent, TextAttr a, const char *s);
/* columns used on the current line */
int text_col(const TextDoc *d);
/* the columns s takes on a terminal (wcwidth of the locale; a control character or a byte that
 * is no character counts one) */
int text_width(const char *s);
/* d to f, line by line: labels with their colon, headings as written, every span cleaned
 * (render/text.h), colour codes only when color.  0, -1 on a write error */
int text_doc_print(const TextDoc *d, FILE *f, bool color);
#endif

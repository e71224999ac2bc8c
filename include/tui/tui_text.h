/* tui_text.h — a TextDoc: lines made of attributed spans, built for a given width and drawn
 * into a box from a scroll offset.  The node view, the explain view, the help screen and the
 * detail pane are TextDocs, rebuilt from the current data each time they are drawn.
 *
 * Ownership: a TextDoc owns copies of every string added; text_clear releases them.
 */
#ifndef KGPU_TUI_TEXT_H
#define KGPU_TUI_TEXT_H
#include <stddef.h>
#include "tui/tui_screen.h"

typedef struct { char *text; TuiAttr attr; } TextSpan;
typedef struct { TextSpan *spans; size_t n, cap; int cols; } TextLine;
typedef struct { TextLine *lines; size_t n, cap; int width; } TextDoc;

void text_init(TextDoc *d, int width);
void text_clear(TextDoc *d);
/* starts a new (empty) line */
void text_newline(TextDoc *d);
/* appends to the current line (starting the first line when there is none) */
void text_add(TextDoc *d, TuiAttr a, const char *s);
void text_addf(TextDoc *d, TuiAttr a, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* s cut to w columns (the last one an ellipsis when cut) */
void text_add_fit(TextDoc *d, TuiAttr a, const char *s, int w);
/* pads the current line with spaces up to column col */
void text_pad(TextDoc *d, int col);
/* a bar w columns wide: filled part in fill, the rest dim */
void text_bar(TextDoc *d, int w, double frac, TuiAttr fill);
/* s word-wrapped to the doc's width, continuing the current line; continuation lines start
 * with `indent` spaces.  Embedded newlines start new (indented) lines. */
void text_wrap(TextDoc *d, int indent, TuiAttr a, const char *s);
/* columns used on the current line */
int text_col(const TextDoc *d);
/* lines top.. into the box (y, x, h rows, w columns); rows past the end are blanked */
void text_draw(const TextDoc *d, int y, int x, int h, int w, size_t top);
#endif

/* tui_text.c — a TextDoc drawn with a scroll offset (see tui_text.h). */
#include "tui/tui_text.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void tui_doc_init(TextDoc *d, int width)
{
    text_init(d, width);
    d->utf8 = tui_screen_utf8();
}

/* a heading on the screen: its first word upper case ("Fixes" -> "FIXES") */
static char *screen_heading(const char *s)
{
    char *h = xstrdup(s);
    for (char *p = h; *p && *p != ' '; p++) *p = (char)toupper((unsigned char)*p);
    return h;
}

void tui_text_draw(const TextDoc *d, int y, int x, int h, int w, size_t top)
{
    for (int r = 0; r < h; r++) {
        tui_screen_fill(y + r, x, w, TA_NORMAL);
        size_t i = top + (size_t)r;
        if (i >= d->n) continue;
        const TextLine *l = &d->lines[i];
        int col = 0;
        for (size_t j = 0; j < l->n && col < w; j++) {
            const TextSpan *sp = &l->spans[j];
            if (sp->kind == SPAN_HEADING) {
                char *hd = screen_heading(sp->text);
                col += tui_screen_put(y + r, x + col, w - col, sp->attr, hd);
                free(hd);
            } else if (sp->kind == SPAN_LABEL) {
                tui_screen_put(y + r, x + col, w - col, sp->attr, sp->text);
                col += sp->cols;                   /* the rest of its columns blank */
            } else {
                col += tui_screen_put(y + r, x + col, w - col, sp->attr, sp->text);
            }
        }
    }
}

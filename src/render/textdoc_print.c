/* textdoc_print.c — a TextDoc printed to a stream (text_doc_print, textdoc.h): apart from
 * textdoc.c so that building a document calls nothing of the table or the terminal sink. */
#include "render/textdoc.h"
#include "render/table.h"
#include "render/text.h"
#include <stdlib.h>

static const Color print_colors[TA__COUNT] = {
    [TA_OK] = C_GREEN, [TA_WARN] = C_YELLOW, [TA_ERROR] = C_RED, [TA_STRONG] = C_BOLD,
};

int text_doc_print(const TextDoc *d, FILE *f, bool color)
{
    for (size_t i = 0; i < d->n; i++) {
        const TextLine *l = &d->lines[i];
        for (size_t j = 0; j < l->n; j++) {
            const TextSpan *sp = &l->spans[j];
            char *clean = text_clean(sp->text, false);
            Color c = sp->attr < TA__COUNT ? print_colors[sp->attr] : C_NONE;
            fputs(color_start(c, color), f);
            fputs(clean, f);
            fputs(color_end(c, color), f);
            if (sp->kind != SPAN_TEXT) {           /* an empty label continues a field: no colon */
                int k = text_width(clean);
                if (*clean) { fputc(':', f); k++; }
                for (; k < sp->cols; k++) fputc(' ', f);
            }
            free(clean);
        }
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

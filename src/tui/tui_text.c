/* tui_text.c — attributed lines, word wrap, drawing with a scroll offset (see tui_text.h). */
#include "tui/tui_text.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void text_init(TextDoc *d, int width)
{
    memset(d, 0, sizeof *d);
    d->width = width > 10 ? width : 10;
}

void text_clear(TextDoc *d)
{
    for (size_t i = 0; i < d->n; i++) {
        for (size_t j = 0; j < d->lines[i].n; j++) free(d->lines[i].spans[j].text);
        free(d->lines[i].spans);
    }
    free(d->lines);
    memset(d, 0, sizeof *d);
}

void text_newline(TextDoc *d)
{
    ARRAY_GROW(d->lines, d->n, d->cap);
    memset(&d->lines[d->n], 0, sizeof d->lines[d->n]);
    d->n++;
}

static TextLine *cur_line(TextDoc *d)
{
    if (!d->n) text_newline(d);
    return &d->lines[d->n - 1];
}

void text_add(TextDoc *d, TuiAttr a, const char *s)
{
    if (!s || !*s) return;
    TextLine *l = cur_line(d);
    ARRAY_GROW(l->spans, l->n, l->cap);
    l->spans[l->n].text = xstrdup(s);
    l->spans[l->n].attr = a;
    l->n++;
    l->cols += screen_width(s);
}

void text_addf(TextDoc *d, TuiAttr a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    text_add(d, a, s);
    free(s);
}

void text_add_fit(TextDoc *d, TuiAttr a, const char *s, int w)
{
    if (!s || w <= 0) return;
    if (screen_width(s) <= w) { text_add(d, a, s); return; }
    /* w-1 columns of s, then an ellipsis (data here is names: one column per character) */
    const char *p = s;
    int cols = 0;
    while (*p && cols < w - 1) {
        p++;
        while (*p && ((unsigned char)*p & 0xC0) == 0x80) p++;
        cols++;
    }
    char *cut = xstrndup(s, (size_t)(p - s));
    text_add(d, a, cut);
    text_add(d, TA_DIM, screen_glyph(G_ELLIPSIS));
    free(cut);
}

int text_col(const TextDoc *d) { return d->n ? d->lines[d->n - 1].cols : 0; }

void text_pad(TextDoc *d, int col)
{
    int have = text_col(d);
    if (col <= have) { if (have) text_add(d, TA_NORMAL, " "); return; }
    char *sp = xmalloc((size_t)(col - have) + 1);
    memset(sp, ' ', (size_t)(col - have));
    sp[col - have] = '\0';
    text_add(d, TA_NORMAL, sp);
    free(sp);
}

void text_bar(TextDoc *d, int w, double frac, TuiAttr fill)
{
    Strbuf f = STRBUF_INIT, e = STRBUF_INIT;
    screen_bar_parts(w, frac, &f, &e);
    text_add(d, fill, strbuf_str(&f));
    text_add(d, TA_DIM, strbuf_str(&e));
    strbuf_clear(&f);
    strbuf_clear(&e);
}

/* one paragraph (no newlines) wrapped at word boundaries; over-long words are cut */
static void wrap_para(TextDoc *d, int indent, TuiAttr a, const char *s, size_t len)
{
    /* a narrow terminal: keep at least 10 columns for the text itself */
    if (indent > d->width - 10) indent = d->width > 10 ? d->width - 10 : 0;
    size_t i = 0;
    while (i < len) {
        int room = d->width - text_col(d);
        if (room <= 0) { text_newline(d); text_pad(d, indent); continue; }
        /* the longest prefix of whole words that fits in room columns */
        size_t best = i, j = i;
        int cols = 0;
        while (j < len) {
            size_t k = j;
            while (k < len && s[k] == ' ') k++;
            size_t e = k;
            while (e < len && s[e] != ' ') e++;
            char *word = xstrndup(s + j, e - j);
            int w = screen_width(word);
            free(word);
            if (cols + w > room) break;
            cols += w;
            j = e;
            best = e;
        }
        if (best == i) {
            if (text_col(d) > indent) { text_newline(d); text_pad(d, indent); continue; }
            /* one word longer than the line: cut it */
            size_t e = i;
            int c = 0;
            while (e < len && (c < room || e == i)) {
                e++;
                while (e < len && ((unsigned char)s[e] & 0xC0) == 0x80) e++;
                c++;
            }
            best = e;
        }
        char *piece = xstrndup(s + i, best - i);
        text_add(d, a, piece);
        free(piece);
        i = best;
        while (i < len && s[i] == ' ') i++;
        if (i < len) { text_newline(d); text_pad(d, indent); }
    }
}

void text_wrap(TextDoc *d, int indent, TuiAttr a, const char *s)
{
    if (!s) return;
    const char *p = s;
    for (;;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        wrap_para(d, indent, a, p, len);
        if (!nl) break;
        p = nl + 1;
        if (!*p) break;
        text_newline(d);
        text_pad(d, indent);
    }
}

void text_draw(const TextDoc *d, int y, int x, int h, int w, size_t top)
{
    for (int r = 0; r < h; r++) {
        screen_fill(y + r, x, w, TA_NORMAL);
        size_t i = top + (size_t)r;
        if (i >= d->n) continue;
        const TextLine *l = &d->lines[i];
        int col = 0;
        for (size_t j = 0; j < l->n && col < w; j++)
            col += screen_put(y + r, x + col, w - col, l->spans[j].attr, l->spans[j].text);
    }
}

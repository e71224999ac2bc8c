/* textdoc.c — attributed lines, labels and headings, word wrap, printing (see textdoc.h). */
#include "render/textdoc.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

/* Counted as top's screen draws it (tui_screen.c's sanitize): ASCII one column each, a
 * character wcwidth's columns, a byte that starts no character (the rest of its broken
 * sequence skipped) or an unprintable character one. */
int text_width(const char *s)
{
    if (!s) return 0;
    int cols = 0;
    mbstate_t st;
    memset(&st, 0, sizeof st);
    const char *p = s, *end = s + strlen(s);
    while (p < end) {
        if ((unsigned char)*p < 0x80) { cols++; p++; continue; }
        wchar_t wc;
        size_t n = mbrtowc(&wc, p, (size_t)(end - p), &st);
        if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
            memset(&st, 0, sizeof st);
            cols++; p++;
            while (p < end && ((unsigned char)*p & 0xC0) == 0x80) p++;
            continue;
        }
        int w = wcwidth(wc);
        cols += w < 0 ? 1 : w;
        p += n;
    }
    return cols;
}

void text_init(TextDoc *d, int width)
{
    memset(d, 0, sizeof *d);
    d->width = width > 10 ? width : 10;
    d->utf8 = true;
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

static void add_span(TextDoc *d, TextAttr a, TextSpanKind kind, const char *s, int cols)
{
    TextLine *l = cur_line(d);
    ARRAY_GROW(l->spans, l->n, l->cap);
    l->spans[l->n].text = xstrdup(s);
    l->spans[l->n].attr = a;
    l->spans[l->n].kind = kind;
    l->spans[l->n].cols = cols;
    l->n++;
    l->cols += cols;
}

void text_add(TextDoc *d, TextAttr a, const char *s)
{
    if (!s || !*s) return;
    add_span(d, a, SPAN_TEXT, s, text_width(s));
}

void text_label(TextDoc *d, const char *label, int col)
{
    text_newline(d);
    int w = text_width(label) + 1;                 /* the colon, or a space on the screen */
    add_span(d, TA_LABEL, SPAN_LABEL, label, col > w ? col : w);
}

void text_heading(TextDoc *d, const char *title, const char *detail)
{
    text_newline(d);
    text_newline(d);
    char *s = detail ? xasprintf("%s (%s)", title, detail) : xstrdup(title);
    add_span(d, TA_COLUMNS, SPAN_HEADING, s, text_width(s) + 1);
    free(s);
}

void text_addf(TextDoc *d, TextAttr a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    text_add(d, a, s);
    free(s);
}

void text_add_fit(TextDoc *d, TextAttr a, const char *s, int w)
{
    if (!s || w <= 0) return;
    if (text_width(s) <= w) { text_add(d, a, s); return; }
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
    text_add(d, TA_DIM, d->utf8 ? "…" : "~");
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

void text_bar_parts(int w, double frac, bool utf8, Strbuf *fill, Strbuf *empty)
{
    if (w <= 0) return;
    static const char *const eighths[] = { "", "▏", "▎", "▍", "▌", "▋", "▊", "▉" };
    int full = 0, part = 0;
    if (!isnan(frac)) {
        if (frac < 0) frac = 0;
        if (frac > 1) frac = 1;
        if (utf8) {
            int e = (int)lround(frac * w * 8);
            if (frac > 0 && e == 0) e = 1;       /* something held shows */
            full = e / 8; part = e % 8;
        } else {
            full = (int)lround(frac * w);
            if (frac > 0 && full == 0) full = 1;
        }
    }
    for (int i = 0; i < full; i++) strbuf_adds(fill, utf8 ? "█" : "#");
    if (part) strbuf_adds(fill, eighths[part]);
    for (int i = full + (part ? 1 : 0); i < w; i++) strbuf_adds(empty, utf8 ? "·" : ".");
}

void text_bar(TextDoc *d, int w, double frac, TextAttr fill)
{
    Strbuf f = STRBUF_INIT, e = STRBUF_INIT;
    text_bar_parts(w, frac, d->utf8, &f, &e);
    text_add(d, fill, strbuf_str(&f));
    text_add(d, TA_DIM, strbuf_str(&e));
    strbuf_clear(&f);
    strbuf_clear(&e);
}

/* one paragraph (no newlines) wrapped at word boundaries; over-long words are cut */
static void wrap_para(TextDoc *d, int indent, TextAttr a, const char *s, size_t len)
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
            int w = text_width(word);
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

void text_wrap(TextDoc *d, int indent, TextAttr a, const char *s)
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

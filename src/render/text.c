/* text.c — the terminal sink (text.h). */
#include "render/text.h"
#include "render/table.h"
#include "util/util.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* bytes of the UTF-8 character at p (1-4), 0 when it is not one */
static size_t utf8_char(const unsigned char *p)
{
    if (p[0] < 0x80) return 1;
    size_t n = p[0] >= 0xF0 && p[0] <= 0xF4 ? 4 : p[0] >= 0xE0 ? 3 : p[0] >= 0xC2 && p[0] < 0xE0 ? 2 : 0;
    for (size_t i = 1; i < n; i++) if ((p[i] & 0xC0) != 0x80) return 0;
    return n;
}

char *text_clean(const char *s, bool keep_newlines)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t i = 0;
    while (p[i] >= 0x20 && p[i] < 0x7f) i++;                 /* the usual case: plain ASCII */
    if (!p[i]) return xstrndup((const char *)p, i);
    Strbuf sb = STRBUF_INIT;
    strbuf_add(&sb, (const char *)p, i);
    while (p[i]) {
        size_t k = utf8_char(p + i);
        if (k == 0) { strbuf_adds(&sb, "\xef\xbf\xbd"); i++; continue; }
        if (k == 1 && (p[i] < 0x20 || p[i] == 0x7f)) strbuf_addch(&sb, p[i] == '\n' && keep_newlines ? '\n' : ' ');
        else if (k == 2 && p[i] == 0xC2 && p[i + 1] < 0xA0) strbuf_addch(&sb, ' ');    /* C1: U+0080-U+009F */
        else strbuf_add(&sb, (const char *)p + i, k);
        i += k;
    }
    return strbuf_detach(&sb);
}

/* The conversions below print one piece of a format that the compiler checked already
 * (text_printf has the printf format attribute), so the non-literal formats are safe. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* One conversion of fmt (starting at '%') printed with its argument; returns the bytes of fmt
 * it used.  The argument types follow the C standard's table for the length modifiers used
 * here (none, hh, h, l, ll, z, j, t, L). */
static size_t one_conversion(FILE *f, const char *fmt, va_list *ap)
{
    char spec[32];
    size_t n = 1;
    int star[2], nstar = 0;
    while (strchr("-+ #0", fmt[n])) n++;
    if (fmt[n] == '*') { star[nstar++] = va_arg(*ap, int); n++; } else while (fmt[n] >= '0' && fmt[n] <= '9') n++;
    if (fmt[n] == '.') {
        n++;
        if (fmt[n] == '*') { star[nstar++] = va_arg(*ap, int); n++; } else while (fmt[n] >= '0' && fmt[n] <= '9') n++;
    }
    const char *len = fmt + n;
    while (strchr("hlzjtL", fmt[n])) n++;
    size_t nlen = (size_t)(fmt + n - len);
    char conv = fmt[n++];
    if (n >= sizeof spec) { fputs("?", f); return n; }
    memcpy(spec, fmt, n);
    spec[n] = '\0';
#define PRINT(v) (nstar == 2 ? fprintf(f, spec, star[0], star[1], v) : nstar == 1 ? fprintf(f, spec, star[0], v) \
                                                                       : fprintf(f, spec, v))
    bool l = nlen == 1 && len[0] == 'l', ll = nlen == 2 && len[0] == 'l', z = nlen == 1 && len[0] == 'z';
    bool j = nlen == 1 && len[0] == 'j', t = nlen == 1 && len[0] == 't', L = nlen == 1 && len[0] == 'L';
    switch (conv) {
    case '%': fputc('%', f); break;
    case 's': {
        const char *s = va_arg(*ap, const char *);
        if (color_is_code(s)) { PRINT(s); break; }
        char *c = text_clean(s, false);
        PRINT(c);
        free(c);
        break;
    }
    case 'c': { int ch = va_arg(*ap, int); PRINT((ch >= 0 && ch < 0x20) || ch == 0x7f ? ' ' : ch); break; }
    case 'd': case 'i':
        if (ll) PRINT(va_arg(*ap, long long)); else if (l) PRINT(va_arg(*ap, long));
        else if (z) PRINT(va_arg(*ap, ptrdiff_t)); else if (j) PRINT(va_arg(*ap, intmax_t));
        else if (t) PRINT(va_arg(*ap, ptrdiff_t)); else PRINT(va_arg(*ap, int));
        break;
    case 'u': case 'x': case 'X': case 'o':
        if (ll) PRINT(va_arg(*ap, unsigned long long)); else if (l) PRINT(va_arg(*ap, unsigned long));
        else if (z) PRINT(va_arg(*ap, size_t)); else if (j) PRINT(va_arg(*ap, uintmax_t));
        else if (t) PRINT(va_arg(*ap, size_t)); else PRINT(va_arg(*ap, unsigned));
        break;
    case 'f': case 'F': case 'g': case 'G': case 'e': case 'E': case 'a': case 'A':
        if (L) PRINT(va_arg(*ap, long double)); else PRINT(va_arg(*ap, double));
        break;
    case 'p': PRINT(va_arg(*ap, void *)); break;
    default: fputs("?", f); break;        /* not used here (%n is never honoured) */
    }
#undef PRINT
    return n;
}
#pragma GCC diagnostic pop

void text_printf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    while (*fmt) {
        const char *pct = strchr(fmt, '%');
        if (!pct) { fputs(fmt, f); break; }
        fwrite(fmt, 1, (size_t)(pct - fmt), f);
        fmt = pct + one_conversion(f, pct, &ap);
    }
    va_end(ap);
}

/* shquote.c — quoting for generated bash scripts (rules in shquote.h). */
#include "util/shquote.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* printable ASCII that reads the same inside '...' and is not a quote, nor one of $ ` \ (they
 * would mean something outside the quotes: written as $'\xHH' too, so a reviewer never sees
 * what looks like an expansion, and shellcheck has nothing to warn about) */
static bool plain(unsigned char c)
{
    return c >= 0x20 && c <= 0x7e && c != '\'' && c != '$' && c != '`' && c != '\\';
}

void shquote_word_n(Strbuf *sb, const char *s, size_t n)
{
    if (n == 0) { strbuf_adds(sb, "''"); return; }
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (plain(c)) {
            size_t j = i;
            while (j < n && plain((unsigned char)s[j])) j++;
            strbuf_addch(sb, '\'');
            strbuf_add(sb, s + i, j - i);
            strbuf_addch(sb, '\'');
            i = j;
        } else if (c == '\'') {
            strbuf_adds(sb, "\\'");
            i++;
        } else {
            strbuf_adds(sb, "$'");
            for (; i < n && !plain((unsigned char)s[i]) && s[i] != '\''; i++)
                strbuf_addf(sb, "\\x%02x", (unsigned char)s[i]);
            strbuf_addch(sb, '\'');
        }
    }
}

void shquote_word(Strbuf *sb, const char *s)
{
    shquote_word_n(sb, s ? s : "", s ? strlen(s) : 0);
}

/* length of the well-formed UTF-8 sequence of a printable character at s (2-4), 0 when the
 * bytes are malformed, overlong, a surrogate, a C1 control or a bidirectional/format control */
static size_t utf8_printable(const unsigned char *s)
{
    unsigned cp;
    size_t len;
    if (s[0] >= 0xc2 && s[0] <= 0xdf) { len = 2; cp = s[0] & 0x1fu; }
    else if (s[0] >= 0xe0 && s[0] <= 0xef) { len = 3; cp = s[0] & 0x0fu; }
    else if (s[0] >= 0xf0 && s[0] <= 0xf4) { len = 4; cp = s[0] & 0x07u; }
    else return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        cp = cp << 6 | (s[i] & 0x3fu);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff))) return 0;
    if (cp >= 0xd800 && cp <= 0xdfff) return 0;
    if (cp >= 0x80 && cp <= 0x9f) return 0;                          /* C1 */
    if (cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
        (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029 || cp == 0xfeff)
        return 0;                                                    /* bidi, line separators, BOM */
    return len;
}

void shquote_comment(Strbuf *sb, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        if (*p >= 0x20 && *p <= 0x7e) { strbuf_addch(sb, (char)*p++); continue; }
        size_t len = *p >= 0x80 ? utf8_printable(p) : 0;
        if (len) { strbuf_add(sb, (const char *)p, len); p += len; continue; }
        strbuf_addf(sb, "\\x%02x", *p++);
    }
}

static bool has_line(const char *body, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = body; p; ) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len == n && memcmp(p, line, n) == 0) return true;
        p = nl ? nl + 1 : NULL;
    }
    return false;
}

char *shquote_heredoc_delim(const char *body, const char *base)
{
    char *d = xstrdup(base);
    for (unsigned i = 2; has_line(body ? body : "", d); i++) {
        free(d);
        d = xasprintf("%s_%u", base, i);
    }
    return d;
}

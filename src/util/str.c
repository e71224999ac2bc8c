/* str.c — growable strings (Strbuf), string vectors (Strvec) and small string tests. */
#include "util/util.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void strbuf_grow(Strbuf *sb, size_t n)
{
    if (sb->len + n + 1 > sb->cap) {
        size_t cap = sb->cap ? sb->cap : 64;
        while (cap < sb->len + n + 1) cap *= 2;
        sb->buf = xrealloc(sb->buf, cap);
        sb->cap = cap;
    }
}

void strbuf_add(Strbuf *sb, const char *data, size_t n)
{
    strbuf_grow(sb, n);
    if (n) memcpy(sb->buf + sb->len, data, n);
    sb->len += n;
    sb->buf[sb->len] = '\0';
}

void strbuf_adds(Strbuf *sb, const char *s) { strbuf_add(sb, s, strlen(s)); }
void strbuf_addch(Strbuf *sb, char c) { strbuf_add(sb, &c, 1); }

void strbuf_addi(Strbuf *sb, long long v)
{
    char buf[24], *e = buf + sizeof buf, *q = e;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do { *--q = (char)('0' + u % 10); u /= 10; } while (u);
    if (v < 0) *--q = '-';
    strbuf_add(sb, q, (size_t)(e - q));
}

/* formatted straight into the buffer's room; grown and formatted again only when it did not fit */
void strbuf_addf(Strbuf *sb, const char *fmt, ...)
{
    strbuf_grow(sb, 64);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, ap);
    va_end(ap);
    if (n < 0) { sb->buf[sb->len] = '\0'; return; }
    if ((size_t)n >= sb->cap - sb->len) {
        strbuf_grow(sb, (size_t)n);
        va_start(ap, fmt);
        vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, ap);
        va_end(ap);
    }
    sb->len += (size_t)n;
}

const char *strbuf_str(Strbuf *sb) { return sb->buf ? sb->buf : ""; }

char *strbuf_detach(Strbuf *sb)
{
    char *s = sb->buf ? sb->buf : xstrdup("");
    sb->buf = NULL;
    sb->len = sb->cap = 0;
    return s;
}

void strbuf_reset(Strbuf *sb)
{
    sb->len = 0;
    if (sb->buf) sb->buf[0] = '\0';
}

void strbuf_clear(Strbuf *sb)
{
    free(sb->buf);
    sb->buf = NULL;
    sb->len = sb->cap = 0;
}

void strvec_push(Strvec *sv, const char *s)
{
    ARRAY_GROW(sv->v, sv->n + 1, sv->cap);
    sv->v[sv->n++] = xstrdup(s);
    sv->v[sv->n] = NULL;
}

void strvec_pushf(Strvec *sv, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    ARRAY_GROW(sv->v, sv->n + 1, sv->cap);
    sv->v[sv->n++] = s;
    sv->v[sv->n] = NULL;
}

bool strvec_contains(const Strvec *sv, const char *s)
{
    for (size_t i = 0; i < sv->n; i++)
        if (strcmp(sv->v[i], s) == 0) return true;
    return false;
}

void strvec_clear(Strvec *sv)
{
    for (size_t i = 0; i < sv->n; i++) free(sv->v[i]);
    free(sv->v);
    sv->v = NULL;
    sv->n = sv->cap = 0;
}

bool str_starts_with(const char *s, const char *prefix)
{
    return s && prefix && strncmp(s, prefix, strlen(prefix)) == 0;
}

bool str_ends_with(const char *s, const char *suffix)
{
    if (!s || !suffix) return false;
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

bool str_eq(const char *a, const char *b)
{
    if (!a || !b) return a == b;
    return strcmp(a, b) == 0;
}

bool str_to_int64(const char *s, int64_t *out)
{
    if (!s || !*s) return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || isspace((unsigned char)*s)) return false;
    *out = (int64_t)v;
    return true;
}

size_t str_utf8_len(const unsigned char *s)
{
    if (s[0] < 0x80) return 1;
    size_t n = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3 : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    for (size_t i = 1; i < n; i++) if ((s[i] & 0xc0) != 0x80) return 0;
    if (n == 3) {
        unsigned cp = (s[0] & 0x0fu) << 12 | (s[1] & 0x3fu) << 6 | (s[2] & 0x3fu);
        if (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    } else if (n == 4) {
        unsigned cp = (s[0] & 0x07u) << 18 | (s[1] & 0x3fu) << 12 | (s[2] & 0x3fu) << 6 | (s[3] & 0x3fu);
        if (cp < 0x10000 || cp > 0x10ffff) return 0;
    }
    return n;
}

char *str_printable(const char *s, size_t max)
{
    if (!s) return NULL;
    const unsigned char *p = (const unsigned char *)s;
    size_t in = 0;
    while (in < max && p[in] >= 0x20 && p[in] < 0x7f) in++;    /* the usual case: plain ASCII */
    if (in == max || !p[in]) return xstrndup(s, in);
    Strbuf sb = STRBUF_INIT;
    strbuf_add(&sb, s, in);
    while (p[in] && in < max) {
        size_t k = str_utf8_len(p + in);
        if (k == 0) { strbuf_adds(&sb, "\xef\xbf\xbd"); in++; continue; }
        if (in + k > max) break;                       /* do not split a character */
        if (k == 1 && (p[in] < 0x20 || p[in] == 0x7f)) strbuf_addch(&sb, ' ');
        else strbuf_add(&sb, (const char *)p + in, k);
        in += k;
    }
    return strbuf_detach(&sb);
}

/* a table lookup a byte, four at a step: a pending document's and a snapshot's strings are most
 * of their bytes (1.8 million strings of eleven bytes on average in a 1,000-node snapshot: the
 * comparisons a byte at a time were a tenth of its cost; a sixteen-byte scan after strlen was
 * slower at that length) */
size_t str_json_plain(const char *s)
{
    static const unsigned char stop[256] = {
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        ['"'] = 1, ['\\'] = 1,
    };
    const unsigned char *p = (const unsigned char *)s;
    size_t n = 0;
    while (!stop[p[n]] && !stop[p[n + 1]] && !stop[p[n + 2]] && !stop[p[n + 3]]) n += 4;   /* (&&: never past a stop) */
    while (!stop[p[n]]) n++;
    return n;
}

/* util.c — allocation, strings, string vectors, file reading, time and duration parsing. */
#include "util/util.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void oom(void)
{
    fputs("error: out of memory\n", stderr);
    exit(1);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) oom();
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) oom();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) oom();
    return q;
}

char *xstrdup(const char *s)
{
    if (!s) return NULL;
    return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
    va_list cp;
    va_copy(cp, ap);
    int n = vsnprintf(NULL, 0, fmt, cp);
    va_end(cp);
    if (n < 0) n = 0;
    char *p = xmalloc((size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = xvasprintf(fmt, ap);
    va_end(ap);
    return p;
}

void strbuf_add(Strbuf *sb, const char *data, size_t n)
{
    if (sb->len + n + 1 > sb->cap) {
        size_t cap = sb->cap ? sb->cap : 64;
        while (cap < sb->len + n + 1) cap *= 2;
        sb->buf = xrealloc(sb->buf, cap);
        sb->cap = cap;
    }
    if (n) memcpy(sb->buf + sb->len, data, n);
    sb->len += n;
    sb->buf[sb->len] = '\0';
}

void strbuf_adds(Strbuf *sb, const char *s) { strbuf_add(sb, s, strlen(s)); }
void strbuf_addch(Strbuf *sb, char c) { strbuf_add(sb, &c, 1); }

void strbuf_addf(Strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    strbuf_adds(sb, s);
    free(s);
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

#define READ_FILE_MAX (64 << 20)

char *util_read_file(const char *path, size_t *len, char **errmsg)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errmsg) *errmsg = xasprintf("%s", strerror(errno));
        return NULL;
    }
    Strbuf sb = STRBUF_INIT;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        /* kubeconfigs, tokens and CA files are small: a path to /dev/zero or a runaway
         * pipe must not eat the machine's memory */
        if (sb.len + n > READ_FILE_MAX) {
            if (errmsg) *errmsg = xasprintf("larger than %d MiB", READ_FILE_MAX >> 20);
            fclose(f);
            strbuf_clear(&sb);
            return NULL;
        }
        strbuf_add(&sb, buf, n);
    }
    if (ferror(f)) {
        if (errmsg) *errmsg = xasprintf("%s", strerror(errno ? errno : EIO));
        fclose(f);
        strbuf_clear(&sb);
        return NULL;
    }
    fclose(f);
    if (len) *len = sb.len;
    return strbuf_detach(&sb);
}

/* days from civil date (Howard Hinnant's algorithm), avoids timegm portability issues */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

/* n decimal digits at s (no sign, no blanks); -1 when they are not all digits */
static int fixed_digits(const char *s, int n)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i])) return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

static bool leap_year(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

/* Strictly "YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM)", as Go's time.RFC3339 parses it: fixed
 * digit fields (sscanf's %d would take signs and blanks), the day checked against the month
 * (2024-02-31 is not March 2nd), offsets below 24 h. */
bool util_time_parse_rfc3339(const char *s, int64_t *epoch)
{
    if (!s || strlen(s) < 20) return false;
    int Y = fixed_digits(s, 4), M = fixed_digits(s + 5, 2), D = fixed_digits(s + 8, 2);
    int h = fixed_digits(s + 11, 2), m = fixed_digits(s + 14, 2), sec = fixed_digits(s + 17, 2);
    if (s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':') return false;
    if (Y < 0 || M < 1 || M > 12 || D < 1 || h < 0 || h > 23 || m < 0 || m > 59 || sec < 0 || sec > 60)
        return false;
    static const int mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    if (D > mdays[M - 1] + (M == 2 && leap_year(Y))) return false;
    const char *p = s + 19;
    if (*p == '.') {
        p++;
        if (!isdigit((unsigned char)*p)) return false;
        while (isdigit((unsigned char)*p)) p++;
    }
    int64_t off = 0;
    if (*p == 'Z' || *p == 'z') {
        p++;
    } else if (*p == '+' || *p == '-') {
        int oh = fixed_digits(p + 1, 2), om = oh >= 0 && p[3] == ':' ? fixed_digits(p + 4, 2) : -1;
        if (oh < 0 || oh > 23 || om < 0 || om > 59) return false;
        off = (int64_t)(oh * 3600 + om * 60) * (*p == '-' ? -1 : 1);
        p += 6;
    } else {
        return false;
    }
    if (*p) return false;
    *epoch = days_from_civil(Y, (unsigned)M, (unsigned)D) * 86400 + h * 3600 + m * 60 + sec - off;
    return true;
}

void util_format_age(int64_t s, char *out, size_t outlen)
{
    if (s < 0) s = 0;
    /* kubectl's HumanDuration, simplified: seconds < 2m, minutes < 3h (with seconds dropped),
     * hours < 2d (8h shown as 8h), days < 2y */
    if (s < 120) snprintf(out, outlen, "%llds", (long long)s);
    else if (s < 3 * 3600) snprintf(out, outlen, "%lldm", (long long)(s / 60));
    else if (s < 48 * 3600) snprintf(out, outlen, "%lldh", (long long)(s / 3600));
    else if (s < 2LL * 365 * 86400) snprintf(out, outlen, "%lldd", (long long)(s / 86400));
    else snprintf(out, outlen, "%lldy", (long long)(s / (365 * 86400)));
}

bool util_duration_parse(const char *s, double *seconds)
{
    if (!s || !*s) return false;
    char *end;
    /* bare integer = seconds (kubectl --request-timeout) */
    errno = 0;
    long long whole = strtoll(s, &end, 10);
    if (!*end && !errno && whole >= 0) {
        if (whole > 1000000000LL) return false;    /* the same bound as below: ~31 years */
        *seconds = (double)whole;
        return true;
    }
    double total = 0;
    const char *p = s;
    while (*p) {
        if (!isdigit((unsigned char)*p) && *p != '.') return false;
        errno = 0;
        double v = strtod(p, &end);
        if (end == p || errno || v < 0) return false;
        p = end;
        double unit;
        if (strncmp(p, "ms", 2) == 0) { unit = 0.001; p += 2; }
        else if (*p == 's') { unit = 1; p++; }
        else if (*p == 'm') { unit = 60; p++; }
        else if (*p == 'h') { unit = 3600; p++; }
        else if (*p == 'd') { unit = 86400; p++; }
        else if (*p == 'w') { unit = 7 * 86400; p++; }
        else return false;
        total += v * unit;
    }
    if (total > 1e9) return false;
    *seconds = total;
    return true;
}

size_t util_utf8_len(const unsigned char *s)
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
        size_t k = util_utf8_len(p + in);
        if (k == 0) { strbuf_adds(&sb, "\xef\xbf\xbd"); in++; continue; }
        if (in + k > max) break;                       /* do not split a character */
        if (k == 1 && (p[in] < 0x20 || p[in] == 0x7f)) strbuf_addch(&sb, ' ');
        else strbuf_add(&sb, (const char *)p + in, k);
        in += k;
    }
    return strbuf_detach(&sb);
}

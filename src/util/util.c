/* util.c — allocation, strings, string vectors, file reading, time and duration parsing. */
#include "util.h"
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

void strbuf_free(Strbuf *sb)
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

void strvec_free(Strvec *sv)
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

char *read_file(const char *path, size_t *len, char **errmsg)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errmsg) *errmsg = xasprintf("%s", strerror(errno));
        return NULL;
    }
    Strbuf sb = STRBUF_INIT;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) strbuf_add(&sb, buf, n);
    if (ferror(f)) {
        if (errmsg) *errmsg = xasprintf("%s", strerror(errno ? errno : EIO));
        fclose(f);
        strbuf_free(&sb);
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

bool time_parse_rfc3339(const char *s, int64_t *epoch)
{
    if (!s) return false;
    int Y, M, D, h, m, sec, n = 0;
    if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &Y, &M, &D, &h, &m, &sec, &n) != 6 || n != 19)
        return false;
    if (M < 1 || M > 12 || D < 1 || D > 31 || h > 23 || m > 59 || sec > 60) return false;
    const char *p = s + n;
    if (*p == '.') {
        p++;
        if (!isdigit((unsigned char)*p)) return false;
        while (isdigit((unsigned char)*p)) p++;
    }
    int64_t off = 0;
    if (*p == 'Z' || *p == 'z') {
        p++;
    } else if (*p == '+' || *p == '-') {
        int oh, om, k = 0;
        if (sscanf(p + 1, "%2d:%2d%n", &oh, &om, &k) != 2 || k != 5) return false;
        off = (int64_t)(oh * 3600 + om * 60) * (*p == '-' ? -1 : 1);
        p += 6;
    } else {
        return false;
    }
    if (*p) return false;
    *epoch = days_from_civil(Y, (unsigned)M, (unsigned)D) * 86400 + h * 3600 + m * 60 + sec - off;
    return true;
}

void format_age(int64_t s, char *out, size_t outlen)
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

bool duration_parse(const char *s, double *seconds)
{
    if (!s || !*s) return false;
    char *end;
    /* bare integer = seconds (kubectl --request-timeout) */
    errno = 0;
    long long whole = strtoll(s, &end, 10);
    if (!*end && !errno && whole >= 0) { *seconds = (double)whole; return true; }
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

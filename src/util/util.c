/* util.c — file reading, time and duration parsing.  Allocation is xalloc.c,
 * strings str.c. */
#include "util/util.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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


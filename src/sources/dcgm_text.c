/* dcgm_text.c — the Prometheus text exposition format as the DCGM exporter serves it, the DCGM
 * metric names, and the labels naming a series' pod (dcgm.h).
 *
 * The parser works on (pointer, length) lines and never relies on a terminating NUL, so a
 * truncated or hostile body cannot make it read past the buffer.  A line that does not parse
 * is counted and skipped; the rest of the body is still used.
 */
#include "sources/dcgm.h"
#include "util/util.h"
#include <ctype.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------- */
/* text format                                                                               */

typedef struct {
    Strbuf strings;                 /* unescaped names/values, NUL-separated */
    size_t *offs; size_t noffs, capoffs;   /* pairs of offsets into strings: name, value */
    PromLabel *labels; size_t caplabels;
} LineScratch;

static bool is_name_start(char c) { return isalpha((unsigned char)c) || c == '_' || c == ':'; }
static bool is_name_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == ':'; }
static bool is_label_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool is_label_char(char c) { return isalnum((unsigned char)c) || c == '_'; }
static bool is_blank(char c) { return c == ' ' || c == '\t'; }

static size_t scratch_add(LineScratch *s, const char *p, size_t n)
{
    size_t off = s->strings.len;
    strbuf_add(&s->strings, p, n);
    strbuf_addch(&s->strings, '\0');
    return off;
}

static void scratch_push_off(LineScratch *s, size_t off)
{
    ARRAY_GROW(s->offs, s->noffs, s->capoffs);
    s->offs[s->noffs++] = off;
}

/* strtod independent of LC_NUMERIC (the TUI may set a locale with a decimal comma) */
static bool parse_double(const char *p, size_t n, double *out)
{
    char buf[80];
    if (n == 0 || n >= sizeof buf) return false;
    memcpy(buf, p, n);
    buf[n] = '\0';
    const char *dp = localeconv()->decimal_point;
    if (dp && dp[0] && dp[0] != '.' && !dp[1]) {
        char *dot = strchr(buf, '.');
        if (dot) *dot = dp[0];
    }
    char *end;
    double v = strtod(buf, &end);
    if (end != buf + n) return false;
    *out = v;
    return true;
}

/* timestamp: integer milliseconds (text format) or seconds with a fraction (OpenMetrics) */
static bool parse_timestamp(const char *p, size_t n, int64_t *ms)
{
    bool fractional = false;
    for (size_t i = 0; i < n; i++)
        if (p[i] == '.' || p[i] == 'e' || p[i] == 'E') fractional = true;
    double v;
    if (!parse_double(p, n, &v) || !isfinite(v) || fabs(v) > 9.2e15) return false;
    *ms = fractional ? (int64_t)llround(v * 1000.0) : (int64_t)v;
    return true;
}

/* one sample line -> callback; returns 1 parsed, 0 malformed, or the callback's stop code
 * shifted (stop != 0 is returned through *stop) */
static bool parse_sample(const char *p, size_t n, LineScratch *s, PromSampleFn fn, void *ctx,
                         int *stop)
{
    size_t i = 0;
    while (i < n && is_blank(p[i])) i++;
    if (i >= n || !is_name_start(p[i])) return false;
    size_t name_start = i;
    while (i < n && is_name_char(p[i])) i++;
    size_t name_len = i - name_start;

    strbuf_reset(&s->strings);
    s->noffs = 0;
    size_t name_off = scratch_add(s, p + name_start, name_len);

    size_t after_name = i;
    while (i < n && is_blank(p[i])) i++;
    if (i < n && p[i] == '{') {
        i++;
        for (;;) {
            while (i < n && is_blank(p[i])) i++;
            if (i >= n) return false;
            if (p[i] == '}') { i++; break; }
            if (!is_label_start(p[i])) return false;
            size_t ls = i;
            while (i < n && is_label_char(p[i])) i++;
            size_t loff = scratch_add(s, p + ls, i - ls);
            while (i < n && is_blank(p[i])) i++;
            if (i >= n || p[i] != '=') return false;
            i++;
            while (i < n && is_blank(p[i])) i++;
            if (i >= n || p[i] != '"') return false;
            i++;
            size_t voff = s->strings.len;
            bool closed = false;
            while (i < n) {
                char c = p[i];
                if (c == '"') { closed = true; i++; break; }
                if (c == '\0') return false;
                if (c == '\\') {
                    if (i + 1 >= n) return false;
                    char e = p[i + 1];
                    if (e == 'n') strbuf_addch(&s->strings, '\n');
                    else if (e == '\\' || e == '"') strbuf_addch(&s->strings, e);
                    else return false;
                    i += 2;
                    continue;
                }
                strbuf_addch(&s->strings, c);
                i++;
            }
            if (!closed) return false;
            strbuf_addch(&s->strings, '\0');
            scratch_push_off(s, loff);
            scratch_push_off(s, voff);
            while (i < n && is_blank(p[i])) i++;
            if (i < n && p[i] == ',') { i++; continue; }
            if (i < n && p[i] == '}') { i++; break; }
            return false;
        }
    } else {
        i = after_name;
    }
    /* value, after at least one blank */
    if (i >= n || !is_blank(p[i])) return false;
    while (i < n && is_blank(p[i])) i++;
    size_t vs = i;
    while (i < n && !is_blank(p[i])) i++;
    double value;
    if (!parse_double(p + vs, i - vs, &value)) return false;
    while (i < n && is_blank(p[i])) i++;
    int64_t ts = PROM_NO_TIMESTAMP;
    if (i < n && p[i] != '#') {
        size_t ts_start = i;
        while (i < n && !is_blank(p[i])) i++;
        if (!parse_timestamp(p + ts_start, i - ts_start, &ts)) return false;
        while (i < n && is_blank(p[i])) i++;
    }
    /* anything left must be an OpenMetrics exemplar ("# {...} v"), which is ignored */
    if (i < n && p[i] != '#') return false;

    size_t nl = s->noffs / 2;
    if (nl > s->caplabels) {
        s->caplabels = nl;
        s->labels = xrealloc(s->labels, nl * sizeof *s->labels);
    }
    for (size_t k = 0; k < nl; k++) {
        s->labels[k].name = s->strings.buf + s->offs[2 * k];
        s->labels[k].value = s->strings.buf + s->offs[2 * k + 1];
    }
    *stop = fn(ctx, s->strings.buf + name_off, s->labels, nl, value, ts);
    return true;
}

int dcgm_promtext_parse(const char *text, size_t len, PromSampleFn fn, void *ctx, PromTextStats *st)
{
    PromTextStats local = { 0, 0, 0, 0 };
    if (!st) st = &local;
    memset(st, 0, sizeof *st);
    LineScratch s = { STRBUF_INIT, NULL, 0, 0, NULL, 0 };
    int stop = 0;
    size_t pos = 0;
    while (text && pos < len && !stop) {
        const char *line = text + pos;
        const char *nlp = memchr(line, '\n', len - pos);
        size_t n = nlp ? (size_t)(nlp - line) : len - pos;
        pos += n + (nlp ? 1 : 0);
        st->lines++;
        if (n > 0 && line[n - 1] == '\r') n--;
        size_t i = 0;
        while (i < n && is_blank(line[i])) i++;
        if (i == n || line[i] == '#') continue;       /* blank, # HELP, # TYPE, # EOF, comment */
        if (parse_sample(line, n, &s, fn, ctx, &stop)) {
            st->samples++;
        } else {
            st->skipped++;
            if (!st->first_bad_line) st->first_bad_line = st->lines;
        }
    }
    strbuf_clear(&s.strings);
    free(s.offs);
    free(s.labels);
    return stop;
}

const char *dcgm_prom_label(const PromLabel *labels, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(labels[i].name, name) == 0) return labels[i].value;
    return NULL;
}

/* ---------------------------------------------------------------------------------------- */
/* DCGM fields                                                                               */

static const struct { const char *metric; DcgmField field; } field_names[] = {
    { "DCGM_FI_DEV_FB_USED", DCGM_FB_USED },
    { "DCGM_FI_DEV_FB_FREE", DCGM_FB_FREE },
    { "DCGM_FI_DEV_FB_RESERVED", DCGM_FB_RESERVED },
    { "DCGM_FI_DEV_GPU_UTIL", DCGM_GPU_UTIL },
    { "DCGM_FI_PROF_GR_ENGINE_ACTIVE", DCGM_GR_ENGINE_ACTIVE },
    /* health and thermals (shared/reference/dcgm-exporter.md field table) */
    { "DCGM_FI_DEV_GPU_TEMP", DCGM_GPU_TEMP },
    { "DCGM_FI_DEV_POWER_USAGE", DCGM_POWER_USAGE },
    { "DCGM_FI_DEV_BOARD_POWER_WATTS", DCGM_POWER_USAGE },       /* DCGM 4.x name */
    { "DCGM_FI_DEV_XID_ERRORS", DCGM_XID_ERRORS },
    { "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", DCGM_ECC_DBE },
    { "DCGM_FI_DEV_ECC_DBE_AGG_TOTAL", DCGM_ECC_DBE },
};

bool dcgm_field_from_metric(const char *metric, DcgmField *f)
{
    for (size_t i = 0; i < sizeof field_names / sizeof field_names[0]; i++)
        if (strcmp(field_names[i].metric, metric) == 0) { *f = field_names[i].field; return true; }
    return false;
}

void dcgm_series_pod(const PromLabel *l, size_t n, const char **ns, const char **pod,
                     const char **container)
{
    /* exported_* (Prometheus renamed the exporter's labels) win, then the plain names, then
     * the 1.x names; the three are taken from the same family so they stay coherent */
    static const char *const fam[3][3] = {
        { "exported_namespace", "exported_pod", "exported_container" },
        { "namespace", "pod", "container" },
        { "pod_namespace", "pod_name", "container_name" },
    };
    *ns = *pod = *container = NULL;
    for (int i = 0; i < 3; i++) {
        const char *p = dcgm_prom_label(l, n, fam[i][1]);
        if (!p || !*p) continue;
        const char *s = dcgm_prom_label(l, n, fam[i][0]), *c = dcgm_prom_label(l, n, fam[i][2]);
        *pod = p;
        *ns = s && *s ? s : NULL;
        *container = c && *c ? c : NULL;
        return;
    }
}

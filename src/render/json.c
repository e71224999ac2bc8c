/* json.c — JSON output: cJSON_Print's formatted text, written straight to the stream.
 *
 * The text is exactly what cJSON_Print gives (objects one member per line with a tab after
 * the colon, arrays on one line with ", " between elements, numbers as "%1.15g", or "%1.17g"
 * when 15 digits do not round-trip (newer cJSON: "%d" when integral), NaN and infinities as null,
 * strings with cJSON's escapes), except that the indentation is 4 spaces per level, as
 * kubectl prints it, instead of tabs.  Nothing is built in memory first: the output of a
 * large document costs no second copy of it.
 */
#include "render/render.h"
#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* stdio's per-call locking costs more than the formatting: text is gathered here and written
 * in large pieces */
typedef struct { FILE *f; size_t n; char buf[1 << 16]; } Out;

static void out_flush(Out *o)
{
    if (o->n) fwrite(o->buf, 1, o->n, o->f);
    o->n = 0;
}

static void out_add(Out *o, const char *s, size_t n)
{
    if (n > sizeof o->buf - o->n) {
        out_flush(o);
        if (n > sizeof o->buf) { fwrite(s, 1, n, o->f); return; }
    }
    memcpy(o->buf + o->n, s, n);
    o->n += n;
}

static void out_s(Out *o, const char *s) { out_add(o, s, strlen(s)); }

static void out_c(Out *o, char c)
{
    if (o->n == sizeof o->buf) out_flush(o);
    o->buf[o->n++] = c;
}

static void indent(Out *f, int depth)
{
    for (int i = 0; i < depth; i++) out_add(f, "    ", 4);
}

static void put_string(Out *f, const char *s)
{
    if (!s) { out_s(f, "\"\""); return; }
    out_c(f, '"');
    const unsigned char *p = (const unsigned char *)s, *run = p;
    for (; *p; p++) {
        if (*p > 31 && *p != '"' && *p != '\\') continue;
        if (p > run) out_add(f, (const char *)run, (size_t)(p - run));
        switch (*p) {
        case '\\': out_s(f, "\\\\"); break;
        case '"': out_s(f, "\\\""); break;
        case '\b': out_s(f, "\\b"); break;
        case '\f': out_s(f, "\\f"); break;
        case '\n': out_s(f, "\\n"); break;
        case '\r': out_s(f, "\\r"); break;
        case '\t': out_s(f, "\\t"); break;
        default: {
            char u[8];
            snprintf(u, sizeof u, "\\u%04x", *p);
            out_s(f, u);
            break;
        }
        }
        run = p + 1;
    }
    if (p > run) out_add(f, (const char *)run, (size_t)(p - run));
    out_c(f, '"');
}

static bool same_double(double a, double b)
{
    double maxv = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return fabs(a - b) <= maxv * DBL_EPSILON;
}

/* cJSON 1.7.16 and later print integral values with "%d" (-0 as "0"); older ones always use
 * "%1.15g" (-0 as "-0"): ask the library once which it is */
static bool int_style(void)
{
    static int style = -1;
    if (style < 0) {
        cJSON *z = cJSON_CreateNumber(-0.0);
        char *s = z ? cJSON_PrintUnformatted(z) : NULL;
        style = s && strcmp(s, "0") == 0;
        free(s);
        cJSON_Delete(z);
    }
    return style == 1;
}

static bool put_number(Out *f, const cJSON *item)
{
    char buf[32];
    double d = item->valuedouble, test = 0;
    int n;
    if (d > -1e15 && d < 1e15 && d == (double)(long long)d && (d != 0 || !signbit(d))) {
        /* an integer of at most 15 digits: "%d" and "%1.15g" both give its digits */
        n = snprintf(buf, sizeof buf, "%lld", (long long)d);
        out_add(f, buf, (size_t)n);
        return true;
    }
    if (isnan(d) || isinf(d)) n = snprintf(buf, sizeof buf, "null");
    else if (int_style() && d == (double)item->valueint) n = snprintf(buf, sizeof buf, "%d", item->valueint);
    else {
        n = snprintf(buf, sizeof buf, "%1.15g", d);
        if (sscanf(buf, "%lg", &test) != 1 || !same_double(test, d)) n = snprintf(buf, sizeof buf, "%1.17g", d);
    }
    if (n < 0 || n > 25) return false;           /* cJSON's buffer: it would fail */
    for (char *p = buf; *p; p++) if (*p == ',') *p = '.';   /* whatever LC_NUMERIC says */
    out_s(f, buf);
    return true;
}

static bool put_value(Out *f, const cJSON *item, int depth)
{
    switch (item->type & 0xFF) {
    case cJSON_NULL: out_add(f, "null", 4); return true;
    case cJSON_False: out_add(f, "false", 5); return true;
    case cJSON_True: out_add(f, "true", 4); return true;
    case cJSON_Number: return put_number(f, item);
    case cJSON_Raw:
        if (!item->valuestring) return false;
        out_s(f, item->valuestring);
        return true;
    case cJSON_String: put_string(f, item->valuestring); return true;
    case cJSON_Array:
        out_c(f, '[');
        for (const cJSON *e = item->child; e; e = e->next) {
            if (!put_value(f, e, depth + 1)) return false;
            if (e->next) out_add(f, ", ", 2);
        }
        out_c(f, ']');
        return true;
    case cJSON_Object:
        out_add(f, "{\n", 2);
        for (const cJSON *e = item->child; e; e = e->next) {
            indent(f, depth + 1);
            put_string(f, e->string);
            out_add(f, ":\t", 2);
            if (!put_value(f, e, depth + 1)) return false;
            if (e->next) out_c(f, ',');
            out_c(f, '\n');
        }
        indent(f, depth);
        out_c(f, '}');
        return true;
    default:
        return false;
    }
}

int render_json_value(FILE *f, const cJSON *item, int depth)
{
    Out *o = malloc(sizeof *o);
    if (!o) return -1;
    o->f = f;
    o->n = 0;
    bool ok = item && put_value(o, item, depth);
    out_flush(o);
    free(o);
    return ok && !ferror(f) ? 0 : -1;
}

int render_json(FILE *f, const cJSON *doc)
{
    if (render_json_value(f, doc, 0)) return -1;
    fputc('\n', f);
    return ferror(f) ? -1 : 0;
}

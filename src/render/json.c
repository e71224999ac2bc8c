/* json.c — the one JSON writer (json_writer.h) and json_render on it; with jw_init_yaml the
 * same calls go to the YAML backend (yaml.c) instead of the JSON text below.
 *
 * The layout is kubectl's (Go's json.MarshalIndent with two spaces): every member and every
 * array element on its own line, indented two spaces per level, `"key": value`, empty objects
 * and arrays as {} and []. Numbers and strings are as cJSON_Print gives them (numbers as
 * "%1.15g", or "%1.17g" when 15 digits do not round-trip (newer cJSON: "%d" when integral),
 * NaN and infinities as null, strings with cJSON's escapes).  Nothing is built in memory first: the output of a
 * large document costs no second copy of it, and a writer's caller can emit a list item by
 * item.
 */
#include "render/json_writer.h"
#include "render/render.h"
#include "util/util.h"
#include "yaml_out.h"
#include <cjson/cJSON.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* stdio's per-call locking costs more than the formatting: text is gathered in the writer and
 * written in large pieces */
typedef JsonWriter Out;

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

static const char spaces[2 * JW_MAX_DEPTH + 1] =
    "                                                                "
    "                                                                ";

static void indent(Out *f, int depth)
{
    for (; depth > JW_MAX_DEPTH; depth -= JW_MAX_DEPTH) out_add(f, spaces, 2 * JW_MAX_DEPTH);   /* a deep tree */
    if (depth > 0) out_add(f, spaces, 2 * (size_t)depth);
}

static void put_string(Out *f, const char *s)
{
    if (!s) { out_s(f, "\"\""); return; }
    out_c(f, '"');
    const unsigned char *p = (const unsigned char *)s, *run = p;
    for (;; p++) {
        p += str_json_plain((const char *)p);
        if (!*p) break;
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
        /* an integer of at most 15 digits: "%d" and "%1.15g" both give its digits, written
         * here from the last (snprintf was most of a status document's numbers' cost) */
        long long v = (long long)d;
        unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
        char *e = buf + sizeof buf, *q = e;
        do { *--q = (char)('0' + u % 10); u /= 10; } while (u);
        if (v < 0) *--q = '-';
        out_add(f, q, (size_t)(e - q));
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
    case cJSON_Object: {
        bool obj = (item->type & 0xFF) == cJSON_Object;
        out_c(f, obj ? '{' : '[');
        for (const cJSON *e = item->child; e; e = e->next) {
            out_c(f, '\n');
            indent(f, depth + 1);
            if (obj) {
                put_string(f, e->string);
                out_add(f, ": ", 2);
            }
            if (!put_value(f, e, depth + 1)) return false;
            if (e->next) out_c(f, ',');
        }
        if (item->child) {
            out_c(f, '\n');
            indent(f, depth);
        }
        out_c(f, obj ? '}' : ']');
        return true;
    }
    default:
        return false;
    }
}

/* ---- the writer ---- */

void jw_init(JsonWriter *jw, FILE *f)
{
    jw->f = f;
    jw->depth = 0;
    jw->failed = false;
    jw->yaml = jw->yaml_stream = jw->yaml_explicit = false;
    jw->em = NULL;
    jw->tree = false;
    jw->root = NULL;
    jw->n = 0;
    jw->has_items[0] = false;
}

void jw_init_yaml(JsonWriter *jw, FILE *f, bool explicit_start)
{
    jw_init(jw, f);
    jw->yaml = true;
    jw->yaml_explicit = explicit_start;
    yaml_out_open(jw);
}

void jw_init_yaml_stream(JsonWriter *jw, FILE *f)
{
    jw_init_yaml(jw, f, true);
    jw->yaml_stream = true;
}

/* what comes before a member or element: the separator, the indentation, the key */
static bool jw_prefix(JsonWriter *jw, const char *key)
{
    if (jw->failed) return false;
    if (jw->depth == 0) {
        if (key || (jw->has_items[0] && !jw->yaml_stream)) { jw->failed = true; return false; }   /* one document */
        return !jw->yaml || yaml_out_document_start(jw);
    }
    int top = jw->depth - 1;
    if (jw->in_array[top] == (key != NULL)) { jw->failed = true; return false; }
    if (jw->tree) {
        jw->has_items[top] = true;
        return true;
    }
    if (jw->yaml) {
        jw->has_items[top] = true;
        return !key || yaml_out_key(jw, key);
    }
    /* the usual case in one piece: separator, indentation, and a key JSON prints as it is */
    size_t klen = key ? str_json_plain(key) : 0;
    size_t need = 2 + 2 * (size_t)jw->depth + (key ? klen + 4 : 0);
    if ((!key || !key[klen]) && need <= sizeof jw->buf) {
        if (need > sizeof jw->buf - jw->n) out_flush(jw);
        char *q = jw->buf + jw->n;
        if (jw->has_items[top]) *q++ = ',';
        *q++ = '\n';
        memcpy(q, spaces, 2 * (size_t)jw->depth);
        q += 2 * (size_t)jw->depth;
        if (key) {
            *q++ = '"';
            memcpy(q, key, klen);
            q += klen;
            memcpy(q, "\": ", 3);
            q += 3;
        }
        jw->n = (size_t)(q - jw->buf);
        jw->has_items[top] = true;
        return true;
    }
    out_add(jw, jw->has_items[top] ? ",\n" : "\n", jw->has_items[top] ? 2 : 1);
    indent(jw, jw->depth);
    if (key) {
        put_string(jw, key);
        out_add(jw, ": ", 2);
    }
    jw->has_items[top] = true;
    return true;
}

/* the tree backend: item as this member or element (after jw_prefix) */
static void tree_add(JsonWriter *jw, const char *key, cJSON *item)
{
    if (!item) { jw->failed = true; return; }
    if (jw->depth == 0) { jw->root = item; return; }
    cJSON *parent = jw->open[jw->depth - 1];
    if (key) cJSON_AddItemToObject(parent, key, item);
    else cJSON_AddItemToArray(parent, item);
}

/* the document itself counts as written in slot 0 of a writer with nothing open */
static void jw_wrote_document(JsonWriter *jw)
{
    if (jw->depth == 0) jw->has_items[0] = true;
}

/* after a scalar or a whole value: a YAML document that was only that ends */
static void jw_after_value(JsonWriter *jw)
{
    if (jw->yaml && jw->depth == 0 && !jw->failed) yaml_out_document_end(jw);
}

static void jw_begin(JsonWriter *jw, const char *key, bool array)
{
    if (!jw_prefix(jw, key)) return;
    if (jw->depth >= JW_MAX_DEPTH - 1) { jw->failed = true; return; }
    jw_wrote_document(jw);
    if (jw->tree) {
        cJSON *c = array ? cJSON_CreateArray() : cJSON_CreateObject();
        tree_add(jw, key, c);
        if (jw->failed) return;
        jw->open[jw->depth] = c;
    } else if (jw->yaml) {
        if (!yaml_out_begin(jw, array)) return;
    } else {
        out_c(jw, array ? '[' : '{');
    }
    jw->in_array[jw->depth] = array;
    jw->has_items[jw->depth] = false;
    jw->depth++;
    jw->has_items[jw->depth] = false;
}

void jw_object_begin(JsonWriter *jw, const char *key) { jw_begin(jw, key, false); }
void jw_array_begin(JsonWriter *jw, const char *key) { jw_begin(jw, key, true); }

void jw_end(JsonWriter *jw)
{
    if (jw->failed) return;
    if (jw->depth == 0) { jw->failed = true; return; }
    int top = --jw->depth;
    if (jw->tree) {
        if (top == 0) jw->has_items[0] = true;
        return;
    }
    if (jw->yaml) {
        if (yaml_out_end(jw, jw->in_array[top]) && top == 0) yaml_out_document_end(jw);
        if (top == 0) jw->has_items[0] = true;
        return;
    }
    if (jw->has_items[top]) {
        out_c(jw, '\n');
        indent(jw, top);
    }
    out_c(jw, jw->in_array[top] ? ']' : '}');
    if (top == 0) jw->has_items[0] = true;
}

void jw_value(JsonWriter *jw, const char *key, const cJSON *v)
{
    if (!jw_prefix(jw, key)) return;
    jw_wrote_document(jw);
    if (jw->tree) tree_add(jw, key, v ? cJSON_Duplicate(v, true) : NULL);
    else if (jw->yaml) yaml_out_value(jw, v);
    else if (!v || !put_value(jw, v, jw->depth)) jw->failed = true;
    jw_after_value(jw);
}

void jw_raw(JsonWriter *jw, const char *key, const char *json)
{
    if (!jw_prefix(jw, key)) return;
    jw_wrote_document(jw);
    if (!json || jw->yaml) jw->failed = true;
    else if (jw->tree) tree_add(jw, key, cJSON_CreateRaw(json));
    else out_s(jw, json);
}

void jw_string(JsonWriter *jw, const char *key, const char *s)
{
    if (!jw_prefix(jw, key)) return;
    jw_wrote_document(jw);
    if (jw->tree) tree_add(jw, key, s ? cJSON_CreateString(s) : cJSON_CreateNull());
    else if (jw->yaml) yaml_out_string(jw, s);
    else if (s) put_string(jw, s);
    else out_add(jw, "null", 4);
    jw_after_value(jw);
}

void jw_number(JsonWriter *jw, const char *key, double v)
{
    if (!jw_prefix(jw, key)) return;
    jw_wrote_document(jw);
    if (jw->tree) { tree_add(jw, key, isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull()); return; }
    if (jw->yaml) { yaml_out_number(jw, v); jw_after_value(jw); return; }
    cJSON n;                                 /* as cJSON_CreateNumber would hold it */
    memset(&n, 0, sizeof n);
    n.type = cJSON_Number;
    n.valuedouble = v;
    n.valueint = v >= INT_MAX ? INT_MAX : v <= (double)INT_MIN ? INT_MIN : isnan(v) ? 0 : (int)v;
    if (!put_number(jw, &n)) jw->failed = true;
    jw_after_value(jw);
}

void jw_bool(JsonWriter *jw, const char *key, bool v)
{
    if (!jw_prefix(jw, key)) return;
    jw_wrote_document(jw);
    if (jw->tree) tree_add(jw, key, cJSON_CreateBool(v));
    else if (jw->yaml) yaml_out_bool(jw, v);
    else out_add(jw, v ? "true" : "false", v ? 4 : 5);
    jw_after_value(jw);
}

void jw_null(JsonWriter *jw, const char *key)
{
    if (!jw_prefix(jw, key)) return;
    jw_wrote_document(jw);
    if (jw->tree) tree_add(jw, key, cJSON_CreateNull());
    else if (jw->yaml) yaml_out_null(jw);
    else out_add(jw, "null", 4);
    jw_after_value(jw);
}

int jw_release(JsonWriter *jw)
{
    bool ok = !jw->failed && jw->depth == 0 && (jw->has_items[0] || jw->yaml_stream);
    if (jw->yaml) {
        ok = yaml_out_close(jw, ok) && ok;
        return ok && !ferror(jw->f) ? 0 : -1;
    }
    if (ok) out_c(jw, '\n');
    out_flush(jw);
    return ok && !ferror(jw->f) ? 0 : -1;
}

/* ---- the tree backend ---- */

JsonWriter *jw_tree_new(void)
{
    JsonWriter *jw = malloc(sizeof *jw);
    if (!jw) return NULL;
    jw_init(jw, NULL);
    jw->tree = true;
    return jw;
}

cJSON *jw_tree_finish(JsonWriter *jw)
{
    if (!jw) return NULL;
    cJSON *root = jw->root;
    if (jw->failed || jw->depth != 0 || !root) { cJSON_Delete(root); root = NULL; }
    free(jw);
    return root;
}

/* ---- cJSON trees through the writer ---- */

int json_render_value(FILE *f, const cJSON *item, int depth)
{
    JsonWriter *o = malloc(sizeof *o);
    if (!o) return -1;
    jw_init(o, f);
    bool ok = item && put_value(o, item, depth);
    out_flush(o);
    free(o);
    return ok && !ferror(f) ? 0 : -1;
}

int json_render(FILE *f, const cJSON *doc)
{
    JsonWriter *jw = malloc(sizeof *jw);
    if (!jw) return -1;
    jw_init(jw, f);
    jw_value(jw, NULL, doc);
    int rc = jw_release(jw);
    free(jw);
    return rc;
}

/* jsonpath.c — kubectl's JSONPath subset for custom columns (render/jsonpath.h).
 *
 * An expression compiles to a list of steps (field, wildcard, slice); evaluation walks the
 * cJSON value step by step, calling back for every value the last step reaches, so nothing
 * is copied but the text of the cell.
 */
#include "render/jsonpath.h"
#include "util/error.h"
#include "util/util.h"
#include <cjson/cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { STEP_FIELD, STEP_WILDCARD, STEP_INDEX, STEP_SLICE } StepKind;

typedef struct {
    StepKind kind;
    char *name;                      /* STEP_FIELD */
    long long start, end, step;      /* STEP_INDEX: start; STEP_SLICE: all three */
    bool has_start, has_end;
} Step;

struct JsonPath {
    Step *steps;
    size_t n, cap;
    bool empty;                      /* "" (a column with no path): always <none> */
};

void jsonpath_free(JsonPath *p)
{
    if (!p) return;
    for (size_t i = 0; i < p->n; i++) free(p->steps[i].name);
    free(p->steps);
    free(p);
}

static Step *add_step(JsonPath *p, StepKind k)
{
    ARRAY_GROW(p->steps, p->n, p->cap);
    Step *s = &p->steps[p->n++];
    memset(s, 0, sizeof *s);
    s->kind = k;
    s->step = 1;
    return s;
}

/* kubectl's RelaxedJSONPathExpression: "{.x}", "{x}", ".x" and "x" all mean "{.x}"; braces
 * inside are not allowed.  *inner gets x (a copy). */
static bool relaxed(const char *expr, char **inner)
{
    size_t n = strlen(expr);
    const char *s = expr;
    if (n >= 2 && expr[0] == '{' && expr[n - 1] == '}') { s = expr + 1; n -= 2; }
    if (n && *s == '.') { s++; n--; }
    if (!n) return false;
    for (size_t i = 0; i < n; i++) if (s[i] == '{' || s[i] == '}') return false;
    *inner = xasprintf("%.*s", (int)n, s);
    return true;
}

static bool parse_int(const char *s, size_t n, long long *out)
{
    char buf[32];
    while (n && *s == ' ') { s++; n--; }
    while (n && s[n - 1] == ' ') n--;
    if (!n || n >= sizeof buf) return false;
    memcpy(buf, s, n);
    buf[n] = '\0';
    int64_t v;
    if (!str_to_int64(buf, &v)) return false;
    *out = v;
    return true;
}

/* [...] from s (at '['); returns the character after ']' or NULL with err set */
static const char *parse_bracket(JsonPath *p, const char *s, const char *expr, Error *err)
{
    const char *b = s + 1;
    if (*b == '\'' || *b == '"') {                   /* ['key'] */
        char q = *b;
        const char *e = strchr(b + 1, q);
        if (!e || e[1] != ']') {
            error_set(err, "JSONPath \"%s\": unterminated quoted key", expr);
            return NULL;
        }
        add_step(p, STEP_FIELD)->name = xasprintf("%.*s", (int)(e - b - 1), b + 1);
        return e + 2;
    }
    const char *e = strchr(b, ']');
    if (!e) {
        error_set(err, "JSONPath \"%s\": unclosed [", expr);
        return NULL;
    }
    size_t n = (size_t)(e - b);
    if (n == 1 && *b == '*') { add_step(p, STEP_WILDCARD); return e + 1; }
    if (n && *b == '?') {
        error_set(err, "JSONPath \"%s\": filters [?(...)] are not supported", expr);
        return NULL;
    }
    if (memchr(b, ',', n)) {
        error_set(err, "JSONPath \"%s\": unions [a,b] are not supported (custom-columns splits on commas)", expr);
        return NULL;
    }
    const char *c1 = memchr(b, ':', n);
    if (!c1) {
        long long v;
        if (!parse_int(b, n, &v)) {
            error_set(err, "JSONPath \"%s\": invalid array index [%.*s]", expr, (int)n, b);
            return NULL;
        }
        add_step(p, STEP_INDEX)->start = v;
        return e + 1;
    }
    Step *st = add_step(p, STEP_SLICE);
    const char *c2 = memchr(c1 + 1, ':', (size_t)(e - c1 - 1));
    const char *end_of_end = c2 ? c2 : e;
    bool ok = true;
    if (c1 > b) { ok = ok && parse_int(b, (size_t)(c1 - b), &st->start); st->has_start = true; }
    if (end_of_end > c1 + 1) { ok = ok && parse_int(c1 + 1, (size_t)(end_of_end - c1 - 1), &st->end); st->has_end = true; }
    if (c2 && e > c2 + 1) ok = ok && parse_int(c2 + 1, (size_t)(e - c2 - 1), &st->step) && st->step > 0;
    if (!ok) {
        error_set(err, "JSONPath \"%s\": invalid array slice [%.*s]", expr, (int)n, b);
        return NULL;
    }
    return e + 1;
}

JsonPath *jsonpath_compile(const char *expr, Error *err)
{
    JsonPath *p = xcalloc(1, sizeof *p);
    if (!expr || !*expr) { p->empty = true; return p; }   /* kubectl: an empty path prints <none> */
    char *inner;
    if (!relaxed(expr, &inner)) {
        error_set(err, "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or "
                       "'{.name1.name2}'");
        free(p);
        return NULL;
    }
    const char *s = inner;
    bool need_field = true;                          /* the text starts after a '.' */
    while (*s) {
        if (*s == '[') {
            s = parse_bracket(p, s, expr, err);
            if (!s) goto fail;
            need_field = false;
            continue;
        }
        if (!need_field) {
            if (*s != '.') {
                error_set(err, "JSONPath \"%s\": unexpected \"%c\" after ]", expr, *s);
                goto fail;
            }
            s++;
            if (*s == '.') {
                error_set(err, "JSONPath \"%s\": recursive descent (..) is not supported", expr);
                goto fail;
            }
        }
        need_field = false;
        if (*s == '[') continue;
        if (*s == '*' && (s[1] == '.' || s[1] == '[' || !s[1])) { add_step(p, STEP_WILDCARD); s++; continue; }
        Strbuf name = STRBUF_INIT;
        while (*s && *s != '.' && *s != '[') {
            if (*s == '\\' && s[1]) s++;             /* "\." is a dot inside the key */
            if (*s == ' ' || *s == '(' || *s == ')' || *s == '"' || *s == '\'') {
                error_set(err, "JSONPath \"%s\": unexpected \"%c\" in a field name", expr, *s);
                strbuf_clear(&name);
                goto fail;
            }
            strbuf_addch(&name, *s++);
        }
        if (!name.len) {
            error_set(err, "JSONPath \"%s\": %s", expr, *s == '.' ? "recursive descent (..) is not supported"
                                                                : "empty field name");
            strbuf_clear(&name);
            goto fail;
        }
        add_step(p, STEP_FIELD)->name = strbuf_detach(&name);
    }
    free(inner);
    return p;
fail:
    free(inner);
    jsonpath_free(p);
    return NULL;
}

JsonPath *jsonpath_row_alias(const char *expr)
{
    char *inner;
    if (!expr || !relaxed(expr, &inner)) return NULL;
    const char *key = strcmp(inner, "metadata.name") == 0 ? ".name"
                    : strcmp(inner, "metadata.namespace") == 0 ? ".namespace" : NULL;
    free(inner);
    Error err = { 0 };
    return key ? jsonpath_compile(key, &err) : NULL;
}

/* ---- evaluation ---- */

typedef int (*ValueFn)(void *ctx, const cJSON *v);

/* Go's name of the type a decoded JSON value has, for kubectl's "... is not array or slice" */
static const char *go_type(const cJSON *v)
{
    if (cJSON_IsObject(v)) return "map[string]interface {}";
    if (cJSON_IsString(v)) return "string";
    if (cJSON_IsBool(v)) return "bool";
    if (cJSON_IsNumber(v)) return v->valuedouble == floor(v->valuedouble) && fabs(v->valuedouble) < 9.2e18 ? "int64" : "float64";
    return "interface {}";
}

static int walk(const JsonPath *p, size_t i, const cJSON *v, ValueFn fn, void *ctx, Error *err)
{
    if (i == p->n) return fn(ctx, v);
    if (!v || cJSON_IsNull(v)) return 0;             /* a nil value has no children */
    const Step *s = &p->steps[i];
    switch (s->kind) {
    case STEP_FIELD: {
        if (!cJSON_IsObject(v)) return 0;
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(v, s->name);
        return c ? walk(p, i + 1, c, fn, ctx, err) : 0;
    }
    case STEP_WILDCARD:
        if (!cJSON_IsObject(v) && !cJSON_IsArray(v)) return 0;
        for (const cJSON *c = v->child; c; c = c->next)
            if (walk(p, i + 1, c, fn, ctx, err) < 0) return -1;
        return 0;
    case STEP_INDEX:
    case STEP_SLICE: {
        if (!cJSON_IsArray(v)) {
            error_set(err, "%s is not array or slice", go_type(v));
            return -1;
        }
        long long len = cJSON_GetArraySize(v), start, end;
        if (s->kind == STEP_INDEX) {
            start = s->start < 0 ? s->start + len : s->start;
            end = start + 1;
            if (start < 0 || start >= len) {
                error_set(err, "array index out of bounds: index %lld, length %lld", s->start, len);
                return -1;
            }
        } else {
            start = !s->has_start ? 0 : s->start < 0 ? s->start + len : s->start;
            end = !s->has_end ? len : s->end < 0 ? s->end + len : s->end;
            if (start < 0) start = 0;
            if (end != start) {
                if (start >= len) {
                    error_set(err, "array index out of bounds: index %lld, length %lld", start, len);
                    return -1;
                }
                if (end > len) {
                    error_set(err, "array index out of bounds: index %lld, length %lld", end - 1, len);
                    return -1;
                }
            }
        }
        long long k = 0;
        for (const cJSON *c = v->child; c && k < end; c = c->next, k++)
            if (k >= start && (k - start) % s->step == 0 && walk(p, i + 1, c, fn, ctx, err) < 0) return -1;
        return 0;
    }
    }
    return 0;
}

/* Go's %v of a float64: the shortest digits that read back the same (strconv's 'g' with
 * precision -1), in %e form when the exponent is under -4 or 6 and over (strconv: "if
 * precision was the shortest possible, use precision 6 for this decision"): 12.5, 1e-05,
 * 1.2345675e+06 */
static void go_float(Strbuf *sb, double d)
{
    if (isnan(d)) { strbuf_adds(sb, "NaN"); return; }
    if (isinf(d)) { strbuf_adds(sb, d > 0 ? "+Inf" : "-Inf"); return; }
    char buf[64];
    int prec = 1;
    for (; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec - 1, d);
        if (strtod(buf, NULL) == d) break;
    }
    int exp10 = atoi(strchr(buf, 'e') + 1);
    if (exp10 < -4 || exp10 >= 6) {
        strbuf_adds(sb, buf);                        /* 1.2345675e+06, as Go writes it */
        return;
    }
    int decimals = prec - 1 - exp10;
    snprintf(buf, sizeof buf, "%.*f", decimals > 0 ? decimals : 0, d);
    strbuf_adds(sb, buf);
}

static int cmp_keys(const void *a, const void *b)
{
    return strcmp((*(const cJSON *const *)a)->string, (*(const cJSON *const *)b)->string);
}

static void value_text(Strbuf *sb, const cJSON *v, int depth)
{
    if (depth > 64) { strbuf_adds(sb, "..."); return; }
    if (!v || cJSON_IsNull(v)) strbuf_adds(sb, "<nil>");
    else if (cJSON_IsString(v)) strbuf_adds(sb, v->valuestring ? v->valuestring : "");
    else if (cJSON_IsTrue(v)) strbuf_adds(sb, "true");
    else if (cJSON_IsFalse(v)) strbuf_adds(sb, "false");
    else if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        if (d == floor(d) && fabs(d) < 9.2e18) strbuf_addf(sb, "%lld", (long long)d);   /* decoded as int64 */
        else go_float(sb, d);
    } else if (cJSON_IsArray(v)) {
        strbuf_addch(sb, '[');
        for (const cJSON *c = v->child; c; c = c->next) {
            if (c != v->child) strbuf_addch(sb, ' ');
            value_text(sb, c, depth + 1);
        }
        strbuf_addch(sb, ']');
    } else if (cJSON_IsObject(v)) {
        size_t n = 0;
        for (const cJSON *c = v->child; c; c = c->next) n++;
        const cJSON **keys = xcalloc(n ? n : 1, sizeof *keys);
        n = 0;
        for (const cJSON *c = v->child; c; c = c->next) keys[n++] = c;
        qsort(keys, n, sizeof *keys, cmp_keys);      /* Go prints a map's keys sorted */
        strbuf_adds(sb, "map[");
        for (size_t i = 0; i < n; i++) {
            if (i) strbuf_addch(sb, ' ');
            strbuf_addf(sb, "%s:", keys[i]->string);
            value_text(sb, keys[i], depth + 1);
        }
        strbuf_addch(sb, ']');
        free(keys);
    }
}

char *jsonpath_value_text(const cJSON *v)
{
    Strbuf sb = STRBUF_INIT;
    value_text(&sb, v, 0);
    return strbuf_detach(&sb);
}

typedef struct { Strbuf sb; size_t n; } Cell;

static int add_value(void *ctx, const cJSON *v)
{
    Cell *c = ctx;
    if (c->n++) strbuf_addch(&c->sb, ',');
    value_text(&c->sb, v, 0);
    return 0;
}

char *jsonpath_eval_text(const JsonPath *p, const cJSON *v, Error *err)
{
    Cell c = { STRBUF_INIT, 0 };
    if (!p->empty && walk(p, 0, v, add_value, &c, err) < 0) {
        strbuf_clear(&c.sb);
        return NULL;
    }
    if (!c.n) strbuf_adds(&c.sb, "<none>");
    return strbuf_detach(&c.sb);
}

int jsonpath_each(const JsonPath *p, const cJSON *v, int (*fn)(void *ctx, const cJSON *v), void *ctx, Error *err)
{
    return p->empty ? 0 : walk(p, 0, v, fn, ctx, err);
}

static int keep_first(void *ctx, const cJSON *v)
{
    *(const cJSON **)ctx = v;
    return -1;                                       /* stop at the first */
}

const cJSON *jsonpath_first(const JsonPath *p, const cJSON *v)
{
    const cJSON *first = NULL;
    Error err = { 0 };
    if (!p->empty) walk(p, 0, v, keep_first, &first, &err);
    return first;
}

/* order of kinds when two values differ in kind: numbers, strings, booleans, lists and
 * objects (by their text), null, then no value at all */
static int kind_rank(const cJSON *v)
{
    if (!v) return 5;
    if (cJSON_IsNumber(v)) return 0;
    if (cJSON_IsString(v)) return 1;
    if (cJSON_IsBool(v)) return 2;
    if (cJSON_IsNull(v)) return 4;
    return 3;
}

int jsonpath_value_compare(const cJSON *a, const cJSON *b)
{
    int ra = kind_rank(a), rb = kind_rank(b);
    if (ra != rb) return ra < rb ? -1 : 1;
    switch (ra) {
    case 0: return a->valuedouble < b->valuedouble ? -1 : a->valuedouble > b->valuedouble;
    case 1: return strcmp(a->valuestring ? a->valuestring : "", b->valuestring ? b->valuestring : "");
    case 2: return cJSON_IsTrue(a) - cJSON_IsTrue(b);
    case 3: {
        char *x = jsonpath_value_text(a), *y = jsonpath_value_text(b);
        int c = strcmp(x, y);
        free(x);
        free(y);
        return c;
    }
    default: return 0;
    }
}

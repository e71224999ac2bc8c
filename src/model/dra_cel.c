/* dra_cel.c — the CEL selectors of DeviceClasses and requests, evaluated on one device for the
 * forms that NVIDIA's chart and its examples write (dra.h: dra_cel_match).  This is not a CEL
 * interpreter: a term in any other form is DRA_MATCH_UNKNOWN, and callers say so instead of
 * guessing.  A reference to an attribute the device does not have does not match (the
 * scheduler's CEL evaluation fails for that device: docs/dra.md).
 */
#include "model/dra.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "model/quantity.h"
#include "util/util.h"

typedef struct { const char *p, *end; } Cur;

static void skip_ws(Cur *c) { while (c->p < c->end && isspace((unsigned char)*c->p)) c->p++; }

static bool eat(Cur *c, const char *tok)
{
    skip_ws(c);
    size_t n = strlen(tok);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, tok, n) != 0) return false;
    c->p += n;
    return true;
}

/* 'text' or "text" (no escapes: an escaped quote makes the term unknown) */
static char *string_lit(Cur *c)
{
    skip_ws(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"')) return NULL;
    char q = *c->p++;
    const char *s = c->p;
    while (c->p < c->end && *c->p != q) { if (*c->p == '\\') return NULL; c->p++; }
    if (c->p >= c->end) return NULL;
    char *out = xstrndup(s, (size_t)(c->p - s));
    c->p++;
    return out;
}

static char *ident(Cur *c)
{
    skip_ws(c);
    const char *s = c->p;
    while (c->p < c->end && (isalnum((unsigned char)*c->p) || *c->p == '_')) c->p++;
    return c->p > s ? xstrndup(s, (size_t)(c->p - s)) : NULL;
}

/* a literal on the right of == / != as the text attributes are kept in (dra.c: attr_text) */
static char *literal(Cur *c)
{
    char *s = string_lit(c);
    if (s) return s;
    skip_ws(c);
    const char *b = c->p;
    if (c->p < c->end && *c->p == '-') c->p++;
    while (c->p < c->end && (isalnum((unsigned char)*c->p))) c->p++;
    if (c->p == b) return NULL;
    char *t = xstrndup(b, (size_t)(c->p - b));
    bool num = true;
    for (const char *q = t + (*t == '-'); *q; q++) if (!isdigit((unsigned char)*q)) num = false;
    if (num || str_eq(t, "true") || str_eq(t, "false")) return t;
    free(t);
    return NULL;
}

static DraMatch cmp_op(Cur *c, int cmp)
{
    static const struct { const char *op; int lt, eq, gt; } ops[] = {
        { ">=", 0, 1, 1 }, { "<=", 1, 1, 0 }, { "==", 0, 1, 0 }, { "!=", 1, 0, 1 }, { ">", 0, 0, 1 }, { "<", 1, 0, 0 },
    };
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        if (!eat(c, ops[i].op)) continue;
        skip_ws(c);
        if (!eat(c, "0")) return DRA_MATCH_UNKNOWN;
        int r = cmp < 0 ? ops[i].lt : cmp == 0 ? ops[i].eq : ops[i].gt;
        return r ? DRA_MATCH_YES : DRA_MATCH_NO;
    }
    return DRA_MATCH_UNKNOWN;
}

/* device.attributes['D'].A ...  or  device.capacity['D'].C.compareTo(quantity('Q')) OP 0 */
static DraMatch term_map(Cur *c, const DraDevice *dev, bool capacity)
{
    if (!eat(c, "[")) return DRA_MATCH_UNKNOWN;
    char *domain = string_lit(c);
    if (!domain || !eat(c, "]") || !eat(c, ".")) { free(domain); return DRA_MATCH_UNKNOWN; }
    char *name = ident(c);
    if (!name) { free(domain); return DRA_MATCH_UNKNOWN; }
    char *key = xasprintf("%s/%s", domain, name);
    free(domain); free(name);
    const char *have = kv_get(capacity ? &dev->capacity : &dev->attrs, key);
    free(key);
    DraMatch m = DRA_MATCH_UNKNOWN;
    if (capacity) {
        char *q = NULL;
        if (eat(c, ".") && eat(c, "compareTo") && eat(c, "(") && eat(c, "quantity") && eat(c, "(") &&
            (q = string_lit(c)) && eat(c, ")") && eat(c, ")")) {
            int64_t want, got;
            if (!quantity_parse(q, &want)) m = DRA_MATCH_UNKNOWN;
            else if (!have || !quantity_parse(have, &got)) m = DRA_MATCH_NO;
            else m = cmp_op(c, got < want ? -1 : got > want);
        }
        free(q);
        return m;
    }
    bool neg = false;
    const char *method = NULL;
    if (eat(c, "==")) neg = false;
    else if (eat(c, "!=")) neg = true;
    else if (eat(c, ".startsWith(")) method = "startsWith";
    else if (eat(c, ".endsWith(")) method = "endsWith";
    else if (eat(c, ".contains(")) method = "contains";
    else return DRA_MATCH_UNKNOWN;
    char *lit = method ? string_lit(c) : literal(c);
    if (!lit || (method && !eat(c, ")"))) { free(lit); return DRA_MATCH_UNKNOWN; }
    bool r;
    if (!have) r = false;
    else if (!method) r = str_eq(have, lit) != neg;
    else if (str_eq(method, "startsWith")) r = str_starts_with(have, lit);
    else if (str_eq(method, "endsWith")) r = str_ends_with(have, lit);
    else r = strstr(have, lit) != NULL;
    free(lit);
    return r ? DRA_MATCH_YES : DRA_MATCH_NO;
}

static DraMatch term(const char *s, const char *end, const DraDevice *dev)
{
    Cur c = { s, end };
    DraMatch m;
    if (eat(&c, "device.driver")) {
        bool neg;
        if (eat(&c, "==")) neg = false;
        else if (eat(&c, "!=")) neg = true;
        else return DRA_MATCH_UNKNOWN;
        char *lit = string_lit(&c);
        if (!lit) return DRA_MATCH_UNKNOWN;
        m = (str_eq(dev->driver, lit) != neg) ? DRA_MATCH_YES : DRA_MATCH_NO;
        free(lit);
    } else if (eat(&c, "device.attributes")) {
        m = term_map(&c, dev, false);
    } else if (eat(&c, "device.capacity")) {
        m = term_map(&c, dev, true);
    } else {
        return DRA_MATCH_UNKNOWN;
    }
    skip_ws(&c);
    return c.p == c.end ? m : DRA_MATCH_UNKNOWN;   /* anything after it: a form we do not read */
}

DraMatch dra_cel_match(const DraDevice *dev, const char *expr)
{
    if (!expr) return DRA_MATCH_UNKNOWN;
    const char *s = expr, *e = expr + strlen(expr);
    while (s < e && isspace((unsigned char)*s)) s++;
    while (e > s && isspace((unsigned char)e[-1])) e--;
    /* one pair of parentheses around the whole expression */
    if (e - s >= 2 && *s == '(' && e[-1] == ')') { s++; e--; }
    /* split on && outside quotes and parentheses; || anywhere outside quotes: unknown */
    DraMatch all = DRA_MATCH_YES;
    const char *t = s;
    int depth = 0;
    char quote = 0;
    for (const char *p = s; p <= e; p++) {
        if (p < e && quote) { if (*p == quote) quote = 0; continue; }
        if (p < e && (*p == '\'' || *p == '"')) { quote = *p; continue; }
        if (p < e && *p == '(') depth++;
        if (p < e && *p == ')') depth--;
        if (p < e && depth == 0 && p + 1 < e && p[0] == '|' && p[1] == '|') return DRA_MATCH_UNKNOWN;
        if (p == e || (depth == 0 && p + 1 < e && p[0] == '&' && p[1] == '&')) {
            const char *a = t, *b = p;
            while (a < b && isspace((unsigned char)*a)) a++;
            while (b > a && isspace((unsigned char)b[-1])) b--;
            if (b - a >= 2 && *a == '(' && b[-1] == ')') { a++; b--; }
            DraMatch m = term(a, b, dev);
            if (m == DRA_MATCH_NO) return DRA_MATCH_NO;   /* false && anything is false */
            if (m == DRA_MATCH_UNKNOWN) all = DRA_MATCH_UNKNOWN;
            if (p == e) break;
            p++;
            t = p + 1;
        }
    }
    if (quote || depth) return DRA_MATCH_UNKNOWN;
    return all;
}

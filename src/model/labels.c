/* labels.c — key/value lists and Kubernetes label selectors.
 *
 * The selector grammar follows k8s.io/apimachinery/pkg/labels/selector.go:
 *   selector    ::= "" | requirement ("," requirement)*
 *   requirement ::= "!" key | key | key ("=" | "==" | "!=") [value]
 *                 | key ("in" | "notin") "(" [value] ("," [value])* ")"
 *                 | key (">" | "<") integer
 * Whitespace separates tokens anywhere.  Keys are qualified names ([dns-prefix/]name, name at
 * most 63 characters of [A-Za-z0-9-_.], alphanumeric at both ends); values are empty or the
 * same form as a name.  Errors name the 1-based position and the text at fault.
 */
#include "model/labels.h"
#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "util/error.h"
#include "util/util.h"

/* ---- KVList ---- */

/* key's entry, index + 1; 0 when absent (the first bytes compared before strcmp is called: a
 * node's GPU facts look up some thirty labels among its eighty) */
static uint32_t kv_find(const KVList *l, const char *key)
{
    if (!key[0]) {
        for (uint32_t i = 0; i < l->n; i++) if (!l->items[i].key[0]) return i + 1;
        return 0;
    }
    for (uint32_t i = 0; i < l->n; i++) {
        const char *k = l->items[i].key;
        if (k[0] == key[0] && k[1] == key[1] && strcmp(k, key) == 0) return i + 1;
    }
    return 0;
}

void kv_set(KVList *l, const char *key, const char *value)
{
    uint32_t i = kv_find(l, key);
    if (i) {
        free(l->items[i - 1].value);
        l->items[i - 1].value = xstrdup(value ? value : "");
        return;
    }
    ARRAY_GROW(l->items, l->n, l->cap);
    l->items[l->n].key = xstrdup(key);
    l->items[l->n].value = xstrdup(value ? value : "");
    l->n++;
}

const char *kv_get(const KVList *l, const char *key)
{
    if (!l || !key) return NULL;
    uint32_t i = kv_find(l, key);
    return i ? l->items[i - 1].value : NULL;
}

void kv_clear(KVList *l)
{
    for (size_t i = 0; i < l->n; i++) { free(l->items[i].key); free(l->items[i].value); }
    free(l->items);
    l->items = NULL;
    l->n = l->cap = 0;
}

/* label keys are at most 253+1+63 characters; values are short but annotations-like misuse
 * exists, so values are capped generously; longer entries are hostile and skipped */
#define KV_KEY_MAX 317
#define KV_VALUE_MAX 4096

static bool not_plain(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p >= 0x7f) return true;     /* control, or maybe not UTF-8 */
    return false;
}

/* A label object's keys are looked up in a table of their hashes while the list is made: a
 * node carries some eighty labels, and kv_set's scan for a repeated key made the reading of
 * them quadratic.  Slots hold an entry's index + 1. */
typedef struct { uint32_t *slot; uint32_t mask; } KeyIndex;

static uint32_t key_hash(const char *s)
{
    uint32_t h = 2166136261u;                     /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) h = (h ^ *p) * 16777619u;
    return h;
}

/* the slot of key: its entry's, or the empty one where it goes */
static uint32_t *key_slot(const KeyIndex *ix, const KVList *l, const char *key)
{
    uint32_t j = key_hash(key) & ix->mask;
    while (ix->slot[j] && strcmp(l->items[ix->slot[j] - 1].key, key) != 0) j = (j + 1) & ix->mask;
    return &ix->slot[j];
}

/* key = value in l: the strings copied (pool NULL) or the pool's */
static void kv_put(KVList *l, const KeyIndex *ix, const char *key, const char *value, StrPool *pool)
{
    if (!value) value = "";
    if (!ix && !pool) { kv_set(l, key, value); return; }
    uint32_t found = 0;
    if (ix) {
        uint32_t *s = key_slot(ix, l, key);
        if (!*s) *s = l->n + 1;                       /* where it goes, below */
        else found = *s;
    } else {
        found = kv_find(l, key);
    }
    if (found) {
        KV *e = &l->items[found - 1];
        if (pool) { e->value = (char *)strpool_intern(pool, value); return; }
        free(e->value);
        e->value = xstrdup(value);
        return;
    }
    ARRAY_GROW(l->items, l->n, l->cap);
    l->items[l->n].key = pool ? (char *)strpool_intern(pool, key) : xstrdup(key);
    l->items[l->n].value = pool ? (char *)strpool_intern(pool, value) : xstrdup(value);
    l->n++;
}

/* one member of a labels object into l: string values only, within the limits; a key or value
 * that is not plain text is kept (for selectors to work alike on both sides) but made
 * printable, as the model's other strings are (json_fields.h jdup_trunc) */
/* a member kept as a label: a named string within the limits */
static bool member_kept(const cJSON *c)
{
    return c->string && *c->string && cJSON_IsString(c) && c->valuestring &&
           strnlen(c->string, KV_KEY_MAX + 1) <= KV_KEY_MAX && strnlen(c->valuestring, KV_VALUE_MAX + 1) <= KV_VALUE_MAX;
}

static void put_member(KVList *l, const KeyIndex *ix, const cJSON *c, StrPool *pool)
{
    if (!member_kept(c)) return;
    if (not_plain(c->string) || not_plain(c->valuestring)) {
        char *k = str_printable(c->string, KV_KEY_MAX * 3), *v = str_printable(c->valuestring, KV_VALUE_MAX * 3);
        kv_put(l, ix, k, v, pool);
        free(k); free(v);
        return;
    }
    kv_put(l, ix, c->string, c->valuestring, pool);
}

static void from_json(KVList *l, const cJSON *obj, StrPool *pool)
{
    if (!cJSON_IsObject(obj)) return;
    size_t members = 0;
    for (const cJSON *c = obj->child; c; c = c->next) members++;
    KeyIndex index = { NULL, 0 }, *ix = NULL;
    if (l->n + members > 8) {                     /* a handful: kv_set's scan is cheaper */
        uint32_t cap = 16;
        while (cap < 2 * (l->n + members)) cap <<= 1;
        index.slot = xcalloc(cap, sizeof *index.slot);
        index.mask = cap - 1;
        ix = &index;
        for (uint32_t i = 0; i < l->n; i++) {
            uint32_t *s = key_slot(ix, l, l->items[i].key);
            if (!*s) *s = i + 1;
        }
    }
    for (const cJSON *c = obj->child; c; c = c->next) put_member(l, ix, c, pool);
    free(index.slot);
}

void kv_from_json(KVList *l, const cJSON *obj) { from_json(l, obj, NULL); }

const char *kv_json_value(const cJSON *obj, const char *key, char **tofree)
{
    *tofree = NULL;
    if (!key || !cJSON_IsObject(obj)) return NULL;
    const cJSON *last = NULL;         /* kv_put: of the keys that are key once cleaned, the last */
    if (!not_plain(key) && !strchr(key, ' ')) {
        /* a key that is not plain keeps, once cleaned, a space (for a control character) or a
         * byte above 0x7e (the rest, U+FFFD among them): it can only be a plain key without
         * spaces as itself, so no key needs cleaning (a pod's labels: one lookup a GPU pod) */
        for (const cJSON *c = obj->child; c; c = c->next)
            if (c->string && c->string[0] == key[0] && strcmp(c->string, key) == 0 && member_kept(c)) last = c;
    } else for (const cJSON *c = obj->child; c; c = c->next) {
        if (!member_kept(c)) continue;
        bool same;
        if (!not_plain(c->string)) {
            same = strcmp(c->string, key) == 0;
        } else {                                  /* put_member's copy of the key */
            char *k = str_printable(c->string, KV_KEY_MAX * 3);
            same = strcmp(k, key) == 0;
            free(k);
        }
        if (same) last = c;
    }
    if (!last) return NULL;
    if (!not_plain(last->valuestring)) return last->valuestring;
    return *tofree = str_printable(last->valuestring, KV_VALUE_MAX * 3);
}
/* A fresh pooled list (a node's labels: some eighty of them): each key and value made printable
 * and interned in one pass (strpool_printable: the same copy from_json makes, as no entry it
 * keeps is longer than the limit it cuts at), and a repeated key found by the pool's pointer
 * (one copy per distinct text: within this call, interning the same text twice gives the same
 * pointer) instead of a second hash of its text and a strcmp. */
static void from_json_pooled_fresh(KVList *l, const cJSON *obj, StrPool *pool)
{
    uint32_t members = 0;
    for (const cJSON *c = obj->child; c; c = c->next) members++;
    if (!members) return;
    uint32_t cap = 16, local[256];
    while (cap < 2 * members) cap <<= 1;
    uint32_t *slot = cap <= 256 ? local : xmalloc(cap * sizeof *slot);
    memset(slot, 0, cap * sizeof *slot);
    l->items = xmalloc(members * sizeof *l->items);
    l->cap = members;
    for (const cJSON *c = obj->child; c; c = c->next) {
        if (!member_kept(c)) continue;
        const char *k = strpool_printable(pool, c->string, KV_KEY_MAX * 3);
        const char *v = strpool_printable(pool, c->valuestring, KV_VALUE_MAX * 3);
        uint64_t h = (uint64_t)(uintptr_t)k * 0x9e3779b97f4a7c15ULL;
        uint32_t j = (uint32_t)(h >> 32) & (cap - 1);
        while (slot[j] && l->items[slot[j] - 1].key != k) j = (j + 1) & (cap - 1);
        if (slot[j]) { l->items[slot[j] - 1].value = (char *)v; continue; }
        slot[j] = l->n + 1;
        l->items[l->n++] = (KV){ (char *)k, (char *)v };
    }
    if (slot != local) free(slot);
    if (!l->n) { free(l->items); l->items = NULL; l->cap = 0; }
}

void kv_from_json_pooled(KVList *l, const cJSON *obj, StrPool *pool)
{
    if (!l->n && !l->items && cJSON_IsObject(obj)) from_json_pooled_fresh(l, obj, pool);
    else from_json(l, obj, pool);
}

/* ---- validation of keys and values ---- */

static bool name_char(char c) { return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '.'; }

static bool valid_name(const char *s, size_t n)
{
    if (n == 0 || n > 63) return false;
    if (!isalnum((unsigned char)s[0]) || !isalnum((unsigned char)s[n - 1])) return false;
    for (size_t i = 0; i < n; i++) if (!name_char(s[i])) return false;
    return true;
}

static bool valid_value(const char *s, size_t n) { return n == 0 || valid_name(s, n); }

static bool valid_key(const char *s, size_t n)
{
    const char *slash = memchr(s, '/', n);
    if (!slash) return valid_name(s, n);
    size_t plen = (size_t)(slash - s);
    if (plen == 0 || plen > 253) return false;
    for (size_t i = 0; i < plen; i++) {
        char c = s[i];
        if (!(islower((unsigned char)c) || isdigit((unsigned char)c) || c == '-' || c == '.')) return false;
    }
    if (!isalnum((unsigned char)s[0]) || !isalnum((unsigned char)s[plen - 1])) return false;
    return valid_name(slash + 1, n - plen - 1);
}

/* ---- lexer ---- */

typedef enum { T_END, T_IDENT, T_BANG, T_EQ, T_DEQ, T_NEQ, T_COMMA, T_LPAR, T_RPAR, T_GT, T_LT } TokType;
typedef struct { TokType type; size_t pos, len; } Tok;
typedef struct { const char *s; size_t pos; Tok peeked; bool has_peek; } Lexer;

static bool special(char c)
{
    return c == '!' || c == '=' || c == ',' || c == '(' || c == ')' || c == '<' || c == '>';
}

static Tok lex_next(Lexer *lx)
{
    if (lx->has_peek) { lx->has_peek = false; return lx->peeked; }
    const char *s = lx->s;
    while (s[lx->pos] && isspace((unsigned char)s[lx->pos])) lx->pos++;
    Tok t = { T_END, lx->pos, 0 };
    char c = s[lx->pos];
    if (!c) return t;
    t.len = 1;
    switch (c) {
    case '!': if (s[lx->pos + 1] == '=') { t.type = T_NEQ; t.len = 2; } else t.type = T_BANG; break;
    case '=': if (s[lx->pos + 1] == '=') { t.type = T_DEQ; t.len = 2; } else t.type = T_EQ; break;
    case ',': t.type = T_COMMA; break;
    case '(': t.type = T_LPAR; break;
    case ')': t.type = T_RPAR; break;
    case '>': t.type = T_GT; break;
    case '<': t.type = T_LT; break;
    default:
        t.type = T_IDENT;
        t.len = 0;
        while (s[lx->pos + t.len] && !isspace((unsigned char)s[lx->pos + t.len]) &&
               !special(s[lx->pos + t.len]))
            t.len++;
    }
    lx->pos += t.len;
    return t;
}

static Tok lex_peek(Lexer *lx)
{
    if (!lx->has_peek) { lx->peeked = lex_next(lx); lx->has_peek = true; }
    return lx->peeked;
}

static bool tok_is(const Lexer *lx, Tok t, const char *word)
{
    return t.type == T_IDENT && t.len == strlen(word) && strncmp(lx->s + t.pos, word, t.len) == 0;
}

static int syntax_error(Error *err, const Lexer *lx, Tok t, const char *expected)
{
    if (t.type == T_END)
        error_set(err, "label selector \"%s\": position %zu: expected %s, found end of input",
                  lx->s, t.pos + 1, expected);
    else
        error_set(err, "label selector \"%s\": position %zu: expected %s, found \"%.*s\"",
                  lx->s, t.pos + 1, expected, (int)(t.len > 64 ? 64 : t.len), lx->s + t.pos);
    return -1;
}

static void value_error(Error *err, const Lexer *lx, Tok v)
{
    error_set(err, "label selector \"%s\": position %zu: invalid label value \"%.*s\"",
              lx->s, v.pos + 1, (int)(v.len > 64 ? 64 : v.len), lx->s + v.pos);
}

/* ---- LabelSelector ---- */

static void selreq_release(SelReq *r)
{
    free(r->key);
    for (size_t i = 0; i < r->nvalues; i++) free(r->values[i]);
    free(r->values);
}

void label_selector_add(LabelSelector *sel, const char *key, SelOp op,
                        const char *const *values, size_t nvalues)
{
    ARRAY_GROW(sel->reqs, sel->n, sel->cap);
    SelReq *r = &sel->reqs[sel->n++];
    r->key = xstrdup(key ? key : "");
    r->op = op;
    r->nvalues = nvalues;
    r->values = nvalues ? xcalloc(nvalues, sizeof *r->values) : NULL;
    for (size_t i = 0; i < nvalues; i++) r->values[i] = xstrdup(values[i] ? values[i] : "");
}

void label_selector_clear(LabelSelector *sel)
{
    for (size_t i = 0; i < sel->n; i++) selreq_release(&sel->reqs[i]);
    free(sel->reqs);
    sel->reqs = NULL;
    sel->n = sel->cap = 0;
}

/* parse one requirement; on success appends it to sel */
static int parse_requirement(LabelSelector *sel, Lexer *lx, Error *err)
{
    Tok t = lex_next(lx);
    bool negated = false;
    if (t.type == T_BANG) { negated = true; t = lex_next(lx); }
    if (t.type != T_IDENT) return syntax_error(err, lx, t, negated ? "a label key" : "a label key or '!'");
    if (!valid_key(lx->s + t.pos, t.len)) {
        error_set(err, "label selector \"%s\": position %zu: invalid label key \"%.*s\"",
                  lx->s, t.pos + 1, (int)(t.len > 64 ? 64 : t.len), lx->s + t.pos);
        return -1;
    }
    char *key = xstrndup(lx->s + t.pos, t.len);
    Tok op = lex_peek(lx);
    if (negated || op.type == T_END || op.type == T_COMMA) {
        label_selector_add(sel, key, negated ? SEL_NOT_EXISTS : SEL_EXISTS, NULL, 0);
        free(key);
        return 0;
    }
    lex_next(lx);
    Strvec vals = STRVEC_INIT;
    SelOp sop;
    int rc = -1;
    if (op.type == T_EQ || op.type == T_DEQ || op.type == T_NEQ) {
        sop = op.type == T_NEQ ? SEL_NEQ : SEL_EQ;
        Tok v = lex_peek(lx);          /* "key=" (empty value) is valid */
        size_t vlen = 0;
        if (v.type == T_IDENT) { lex_next(lx); vlen = v.len; }
        else if (v.type != T_END && v.type != T_COMMA) { syntax_error(err, lx, v, "a label value"); goto out; }
        if (!valid_value(lx->s + v.pos, vlen)) { value_error(err, lx, v); goto out; }
        char *val = xstrndup(lx->s + v.pos, vlen);
        strvec_push(&vals, val);
        free(val);
    } else if (op.type == T_GT || op.type == T_LT) {
        sop = op.type == T_GT ? SEL_GT : SEL_LT;
        Tok v = lex_next(lx);
        int64_t dummy;
        char *num = v.type == T_IDENT ? xstrndup(lx->s + v.pos, v.len) : NULL;
        if (!num || !str_to_int64(num, &dummy)) { free(num); syntax_error(err, lx, v, "an integer"); goto out; }
        strvec_push(&vals, num);
        free(num);
    } else if (tok_is(lx, op, "in") || tok_is(lx, op, "notin")) {
        sop = tok_is(lx, op, "in") ? SEL_IN : SEL_NOTIN;
        Tok lp = lex_next(lx);
        if (lp.type != T_LPAR) { syntax_error(err, lx, lp, "'('"); goto out; }
        for (;;) {
            /* an empty slot ("in ()", "in (a,)") is the empty value, as in Kubernetes */
            Tok v = lex_next(lx);
            if (v.type == T_IDENT) {
                if (!valid_value(lx->s + v.pos, v.len)) { value_error(err, lx, v); goto out; }
                char *val = xstrndup(lx->s + v.pos, v.len);
                strvec_push(&vals, val);
                free(val);
                v = lex_next(lx);
            } else {
                strvec_push(&vals, "");
            }
            if (v.type == T_RPAR) break;
            if (v.type != T_COMMA) { syntax_error(err, lx, v, "',' or ')'"); goto out; }
        }
    } else {
        syntax_error(err, lx, op, "an operator (=, ==, !=, in, notin, >, <)");
        goto out;
    }
    label_selector_add(sel, key, sop, (const char *const *)vals.v, vals.n);
    rc = 0;
out:
    free(key);
    strvec_clear(&vals);
    return rc;
}

int label_selector_parse(LabelSelector *sel, const char *s, Error *err)
{
    if (!s) return 0;
    Lexer lx = { s, 0, { T_END, 0, 0 }, false };
    size_t start_n = sel->n;
    if (lex_peek(&lx).type == T_END) return 0;      /* empty selector: matches everything */
    for (;;) {
        if (parse_requirement(sel, &lx, err) < 0) goto fail;
        Tok t = lex_next(&lx);
        if (t.type == T_END) return 0;
        if (t.type != T_COMMA) { syntax_error(err, &lx, t, "',' or end of input"); goto fail; }
    }
fail:
    while (sel->n > start_n) selreq_release(&sel->reqs[--sel->n]);
    if (sel->n == 0) label_selector_clear(sel);          /* nothing left allocated on failure */
    return -1;
}

static bool value_in(const SelReq *r, const char *v)
{
    for (size_t i = 0; i < r->nvalues; i++) if (strcmp(r->values[i], v) == 0) return true;
    return false;
}

bool selreq_matches(const SelReq *r, const KVList *labels)
{
    const char *v = kv_get(labels, r->key);
    switch (r->op) {
    case SEL_EQ: case SEL_IN: return v && value_in(r, v);
    case SEL_NEQ: case SEL_NOTIN: return !v || !value_in(r, v);
    case SEL_EXISTS: return v != NULL;
    case SEL_NOT_EXISTS: return v == NULL;
    case SEL_GT: case SEL_LT: {
        /* as node affinity: both sides must be integers, else no match */
        int64_t have, want;
        if (!v || r->nvalues != 1 || !str_to_int64(v, &have) || !str_to_int64(r->values[0], &want))
            return false;
        return r->op == SEL_GT ? have > want : have < want;
    }
    }
    return false;
}

bool label_selector_matches(const LabelSelector *sel, const KVList *labels)
{
    for (size_t i = 0; i < sel->n; i++) if (!selreq_matches(&sel->reqs[i], labels)) return false;
    return true;
}

char *selreq_format(const SelReq *r)
{
    const char *v0 = r->nvalues ? r->values[0] : "";
    switch (r->op) {
    case SEL_EQ: return xasprintf("%s=%s", r->key, v0);
    case SEL_NEQ: return xasprintf("%s!=%s", r->key, v0);
    case SEL_EXISTS: return xstrdup(r->key);
    case SEL_NOT_EXISTS: return xasprintf("!%s", r->key);
    case SEL_GT: return xasprintf("%s>%s", r->key, v0);
    case SEL_LT: return xasprintf("%s<%s", r->key, v0);
    case SEL_IN: case SEL_NOTIN: {
        Strbuf sb = STRBUF_INIT;
        strbuf_addf(&sb, "%s %s (", r->key, r->op == SEL_IN ? "in" : "notin");
        for (size_t i = 0; i < r->nvalues; i++) strbuf_addf(&sb, "%s%s", i ? "," : "", r->values[i]);
        strbuf_adds(&sb, ")");
        return strbuf_detach(&sb);
    }
    }
    return xstrdup(r->key);
}

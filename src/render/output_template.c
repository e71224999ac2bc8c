/* output_template.c — -o jsonpath= and -o go-template= (output_template.h).
 *
 * A template compiles to a tree of nodes (text, a value, a range, an if); running it walks
 * the cJSON document the command's -o json printed, through render/jsonpath.c's paths.
 */
#include "render/output_template.h"
#include "render/jsonpath.h"
#include "render/text.h"
#include "util/error.h"
#include "util/util.h"
#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef enum { N_TEXT, N_VALUE, N_RANGE, N_IF } NodeKind;

typedef struct Node Node;
typedef struct { Node *v; size_t n, cap; } NodeList;

/* a value: the current object (path NULL) or a path from it (or from the document: root),
 * then, for go's index, one key or list index */
typedef struct {
    JsonPath *path;
    bool root;
    char *key;               /* index .x "key" */
    long long idx;           /* index .x 3 (key NULL, has_idx) */
    bool has_idx;
} Pipe;

struct Node {
    NodeKind kind;
    char *text;              /* N_TEXT (also a literal action) */
    Pipe pipe;               /* N_VALUE, N_RANGE, N_IF */
    NodeList body, alt;      /* N_RANGE, N_IF: the body and the {{else}} part */
};

struct OutputTemplate {
    bool go;
    NodeList nodes;
};

static void list_clear(NodeList *l);

static void node_clear(Node *n)
{
    free(n->text);
    jsonpath_free(n->pipe.path);
    free(n->pipe.key);
    list_clear(&n->body);
    list_clear(&n->alt);
}

static void list_clear(NodeList *l)
{
    for (size_t i = 0; i < l->n; i++) node_clear(&l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

void output_template_free(OutputTemplate *t)
{
    if (!t) return;
    list_clear(&t->nodes);
    free(t);
}

static Node *push(NodeList *l, NodeKind k)
{
    ARRAY_GROW(l->v, l->n, l->cap);
    Node *n = &l->v[l->n++];
    memset(n, 0, sizeof *n);
    n->kind = k;
    return n;
}

/* ---- parsing ---- */

typedef struct {
    const char *p;           /* where the parse is */
    bool go;
    bool trim_next;          /* go's "-}}": the text after loses its leading blanks */
    Error *err;
} Parser;

/* a quoted literal at s (s at the quote) with \n \t \r \\ \" \' unescaped into *out; returns
 * the character after the closing quote, NULL when it does not close */
static const char *literal(const char *s, char **out)
{
    char q = *s++;
    Strbuf sb = STRBUF_INIT;
    for (; *s && *s != q; s++) {
        if (*s == '\\' && s[1]) {
            s++;
            strbuf_addch(&sb, *s == 'n' ? '\n' : *s == 't' ? '\t' : *s == 'r' ? '\r' : *s);
        } else {
            strbuf_addch(&sb, *s);
        }
    }
    if (*s != q) { strbuf_clear(&sb); return NULL; }
    *out = strbuf_detach(&sb);
    if (!*out) *out = xstrdup("");
    return s + 1;
}

/* the end of the action that starts at s (after its opening delimiter): the closing delimiter
 * outside quotes; NULL when there is none */
static const char *action_end(const char *s, bool go)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\'') {
            char q = *s;
            for (s++; *s && *s != q; s++) if (*s == '\\' && s[1]) s++;
            if (!*s) return NULL;
            continue;
        }
        if (go ? (s[0] == '}' && s[1] == '}') : *s == '}') return s;
    }
    return NULL;
}

static bool starts_word(const char *a, const char *w)
{
    size_t n = strlen(w);
    return strncmp(a, w, n) == 0 && (!a[n] || isspace((unsigned char)a[n]));
}

/* a value as the action writes it: "@", "$", "@.x", "$.x", ".x", "x" (jsonpath); ".", ".x",
 * "index .x KEY" (go) */
static int parse_pipe(Parser *ps, const char *a, Pipe *out)
{
    memset(out, 0, sizeof *out);
    char *base = NULL, *keytext = NULL;
    if (ps->go && starts_word(a, "index")) {
        const char *s = a + 5;
        while (isspace((unsigned char)*s)) s++;
        size_t n = strcspn(s, " \t");
        base = xstrndup(s, n);
        s += n;
        while (isspace((unsigned char)*s)) s++;
        if (*s == '"') {
            const char *e = literal(s, &keytext);
            if (!e || *e) { free(keytext); keytext = NULL; }
        } else if (*s) {
            int64_t v;
            if (str_to_int64(s, &v)) { out->idx = v; out->has_idx = true; }
        }
        if (!keytext && !out->has_idx) {
            error_set(ps->err, "template: {{%s}}: index takes a value and one key (\"nvidia.com/gpu\") or list index", a);
            free(base);
            return -1;
        }
        out->key = keytext;
    } else {
        base = xstrdup(a);
    }
    const char *b = base;
    if (!ps->go && (*b == '@' || *b == '$')) { out->root = *b == '$'; b++; }
    if (ps->go && *b == '$') { out->root = true; b++; }
    int rc = 0;
    if (*b && !(ps->go && strcmp(b, ".") == 0)) {
        if (ps->go && *b != '.') {
            error_set(ps->err, "template: {{%s}}: not supported here (fields, index, range, if, else, end and "
                               "\"text\" are)", a);
            rc = -1;
        } else if (!(out->path = jsonpath_compile(b, ps->err))) {
            rc = -1;
        }
    }
    free(base);
    return rc;
}

static int parse_list(Parser *ps, NodeList *out, const char **stopped);

/* text up to the next action, into out */
static void parse_text(Parser *ps, NodeList *out)
{
    const char *open = ps->go ? strstr(ps->p, "{{") : strchr(ps->p, '{');
    size_t n = open ? (size_t)(open - ps->p) : strlen(ps->p);
    const char *s = ps->p;
    if (ps->trim_next) while (n && isspace((unsigned char)*s)) { s++; n--; }
    ps->trim_next = false;
    if (ps->go && open && open[2] == '-' && isspace((unsigned char)open[3]))   /* "{{- " trims before */
        while (n && isspace((unsigned char)s[n - 1])) n--;
    if (n) push(out, N_TEXT)->text = xstrndup(s, n);
    ps->p = open ? open : ps->p + strlen(ps->p);
}

/* one action at ps->p (at its opening delimiter); *word gets "end"/"else" when it is one */
static int parse_action(Parser *ps, NodeList *out, const char **word)
{
    *word = NULL;
    const char *s = ps->p + (ps->go ? 2 : 1);
    if (ps->go && *s == '-' && isspace((unsigned char)s[1])) s += 2;
    const char *e = action_end(s, ps->go);
    if (!e) {
        error_set(ps->err, "template: unclosed action %s%.20s", ps->go ? "{{" : "{", s);
        return -1;
    }
    const char *ae = e;
    if (ps->go && ae > s && ae[-1] == '-' && (ae - 1 == s || isspace((unsigned char)ae[-2]))) {
        ae--;
        ps->trim_next = true;
    }
    char *a = xstrndup(s, (size_t)(ae - s));
    char *t = a;                                          /* trimmed */
    while (isspace((unsigned char)*t)) t++;
    for (size_t n = strlen(t); n && isspace((unsigned char)t[n - 1]);) t[--n] = '\0';
    ps->p = e + (ps->go ? 2 : 1);
    int rc = 0;
    if (strcmp(t, "end") == 0) {
        *word = "end";
    } else if (ps->go && strcmp(t, "else") == 0) {
        *word = "else";
    } else if (*t == '"' || (*t == '\'' && !ps->go)) {
        char *lit = NULL;
        const char *after = literal(t, &lit);
        if (!after || *after) {
            error_set(ps->err, "template: {%s}: a literal is one quoted string", t);
            free(lit);
            rc = -1;
        } else {
            push(out, N_TEXT)->text = lit;
        }
    } else if (starts_word(t, "range") || (ps->go && starts_word(t, "if"))) {
        bool range = starts_word(t, "range");
        const char *arg = t + (range ? 5 : 2);
        while (isspace((unsigned char)*arg)) arg++;
        Node tmp;
        memset(&tmp, 0, sizeof tmp);
        tmp.kind = range ? N_RANGE : N_IF;
        const char *stop = NULL;
        rc = parse_pipe(ps, arg, &tmp.pipe);
        if (rc == 0) rc = parse_list(ps, &tmp.body, &stop);
        if (rc == 0 && stop && strcmp(stop, "else") == 0) rc = parse_list(ps, &tmp.alt, &stop);
        if (rc == 0 && (!stop || strcmp(stop, "end") != 0)) {
            error_set(ps->err, "template: {%s%s} has no {%send%s}", ps->go ? "{" : "", t, ps->go ? "{" : "",
                      ps->go ? "}" : "");
            rc = -1;
        }
        if (rc == 0) *push(out, tmp.kind) = tmp;
        else node_clear(&tmp);
    } else if (!*t) {
        error_set(ps->err, "template: an empty action");
        rc = -1;
    } else {
        Node tmp;
        memset(&tmp, 0, sizeof tmp);
        tmp.kind = N_VALUE;
        if ((rc = parse_pipe(ps, t, &tmp.pipe)) == 0) *push(out, N_VALUE) = tmp;
        else node_clear(&tmp);
    }
    free(a);
    return rc;
}

/* nodes up to the end of the text or an {end}/{else} (*stopped names it; NULL at the end) */
static int parse_list(Parser *ps, NodeList *out, const char **stopped)
{
    *stopped = NULL;
    while (*ps->p) {
        parse_text(ps, out);
        if (!*ps->p) break;
        const char *word;
        if (parse_action(ps, out, &word) < 0) return -1;
        if (word) { *stopped = word; return 0; }
    }
    return 0;
}

static bool is_format(const char *output, const char *word, const char **value)
{
    size_t n = strlen(word);
    if (!output || strncmp(output, word, n) != 0 || (output[n] && output[n] != '=')) return false;
    *value = output[n] ? output + n + 1 : "";
    return true;
}

bool output_template_format(const char *output)
{
    const char *v;
    return is_format(output, "jsonpath", &v) || is_format(output, "jsonpath-file", &v) ||
           is_format(output, "go-template", &v) || is_format(output, "go-template-file", &v);
}

OutputTemplate *output_template_new(const char *output, Error *err)
{
    const char *value = "";
    bool go = false, file = false;
    if (is_format(output, "jsonpath-file", &value)) file = true;
    else if (is_format(output, "go-template-file", &value)) go = file = true;
    else if (is_format(output, "go-template", &value)) go = true;
    else if (!is_format(output, "jsonpath", &value)) {
        error_set(err, "not a template format: %s", output ? output : "");
        return NULL;
    }
    if (!*value) {                              /* kubectl's words */
        error_set(err, "template format specified but no template given");
        return NULL;
    }
    char *text = NULL;
    if (file) {
        size_t len = 0;
        char *msg = NULL;
        if (!(text = util_read_file(value, &len, &msg))) {
            error_set(err, "error reading template %s, %s", value, msg ? msg : strerror(errno));
            free(msg);
            return NULL;
        }
        if (strlen(text) != len) {
            error_set(err, "template %s holds a NUL byte", value);
            free(text);
            return NULL;
        }
    }
    OutputTemplate *t = xcalloc(1, sizeof *t);
    t->go = go;
    Parser ps = { file ? text : value, go, false, err };
    const char *stop = NULL;
    int rc = parse_list(&ps, &t->nodes, &stop);
    if (rc == 0 && stop) {
        error_set(err, "template: {%s%s%s} without a range%s before it", go ? "{" : "", stop, go ? "}}" : "}",
                  go ? " or if" : "");
        rc = -1;
    }
    free(text);
    if (rc < 0) { output_template_free(t); return NULL; }
    return t;
}

/* ---- running ---- */

typedef struct { const cJSON **v; size_t n, cap; } Values;

static int collect(void *ctx, const cJSON *v)
{
    Values *vs = ctx;
    ARRAY_GROW(vs->v, vs->n, vs->cap);
    vs->v[vs->n++] = v;
    return 0;
}

/* the values of a pipe at cur (root: the document) */
static int pipe_values(const Pipe *p, const cJSON *cur, const cJSON *root, Values *out, Error *err)
{
    memset(out, 0, sizeof *out);
    const cJSON *from = p->root ? root : cur;
    Values base = { NULL, 0, 0 };
    if (!p->path) collect(&base, from);
    else if (jsonpath_each(p->path, from, collect, &base, err) < 0) { free(base.v); return -1; }
    if (!p->key && !p->has_idx) { *out = base; return 0; }
    for (size_t i = 0; i < base.n; i++) {             /* go's index */
        const cJSON *v = NULL;
        if (p->key && cJSON_IsObject(base.v[i])) v = cJSON_GetObjectItemCaseSensitive(base.v[i], p->key);
        else if (p->has_idx && cJSON_IsArray(base.v[i])) {
            long long n = cJSON_GetArraySize(base.v[i]);
            if (p->idx < 0 || p->idx >= n) {
                error_set(err, "template: index out of range: %lld", p->idx);
                free(base.v);
                free(out->v);
                return -1;
            }
            v = cJSON_GetArrayItem(base.v[i], (int)p->idx);
        }
        if (v) collect(out, v);
    }
    free(base.v);
    return 0;
}

static void print_value(FILE *f, const cJSON *v, bool go)
{
    if (!go && (cJSON_IsObject(v) || cJSON_IsArray(v))) {   /* kubectl's jsonpath: JSON */
        char *j = cJSON_PrintUnformatted(v);
        fputs(j ? j : "", f);
        free(j);
        return;
    }
    char *s = jsonpath_value_text(v);
    char *clean = text_clean(s, false);      /* the cluster's strings meet the terminal here */
    fputs(clean, f);
    free(clean);
    free(s);
}

/* Go's truth of a value */
static bool truthy(const cJSON *v)
{
    if (!v || cJSON_IsNull(v) || cJSON_IsFalse(v)) return false;
    if (cJSON_IsNumber(v)) return v->valuedouble != 0;
    if (cJSON_IsString(v)) return v->valuestring && *v->valuestring;
    if (cJSON_IsArray(v) || cJSON_IsObject(v)) return v->child != NULL;
    return true;
}

static int cmp_key(const void *a, const void *b)
{
    return strcmp((*(const cJSON *const *)a)->string, (*(const cJSON *const *)b)->string);
}

static int run_list(const OutputTemplate *t, const NodeList *l, const cJSON *cur, const cJSON *root, FILE *f,
                    Error *err);

/* the items a range goes over: each list's items; in go an object's values by sorted key,
 * in jsonpath an object itself */
static void range_items(const Values *vs, bool go, Values *items)
{
    memset(items, 0, sizeof *items);
    for (size_t i = 0; i < vs->n; i++) {
        const cJSON *v = vs->v[i];
        if (cJSON_IsArray(v)) {
            for (const cJSON *c = v->child; c; c = c->next) collect(items, c);
        } else if (go && cJSON_IsObject(v)) {
            size_t first = items->n;
            for (const cJSON *c = v->child; c; c = c->next) collect(items, c);
            qsort(items->v + first, items->n - first, sizeof *items->v, cmp_key);
        } else if (!go || !cJSON_IsNull(v)) {
            collect(items, v);
        }
    }
}

static int run_node(const OutputTemplate *t, const Node *n, const cJSON *cur, const cJSON *root, FILE *f, Error *err)
{
    if (n->kind == N_TEXT) { fputs(n->text, f); return 0; }
    Values vs;
    if (pipe_values(&n->pipe, cur, root, &vs, err) < 0) return -1;
    int rc = 0;
    if (n->kind == N_VALUE) {
        if (t->go) {
            if (vs.n) print_value(f, vs.v[0], true);
            else fputs("<no value>", f);              /* Go's text/template for a missing key */
        } else {
            for (size_t i = 0; i < vs.n; i++) {
                if (i) fputc(' ', f);
                print_value(f, vs.v[i], false);
            }
        }
    } else if (n->kind == N_IF) {
        rc = run_list(t, truthy(vs.n ? vs.v[0] : NULL) ? &n->body : &n->alt, cur, root, f, err);
    } else {
        Values items;
        range_items(&vs, t->go, &items);
        for (size_t i = 0; i < items.n && rc == 0; i++) rc = run_list(t, &n->body, items.v[i], root, f, err);
        if (!items.n && rc == 0) rc = run_list(t, &n->alt, cur, root, f, err);
        free(items.v);
    }
    free(vs.v);
    return rc;
}

static int run_list(const OutputTemplate *t, const NodeList *l, const cJSON *cur, const cJSON *root, FILE *f,
                    Error *err)
{
    for (size_t i = 0; i < l->n; i++)
        if (run_node(t, &l->v[i], cur, root, f, err) < 0) return -1;
    return 0;
}

int output_template_execute(const OutputTemplate *t, const cJSON *doc, FILE *f, Error *err)
{
    if (run_list(t, &t->nodes, doc, doc, f, err) < 0) return -1;
    if (ferror(f)) { error_set(err, "writing output failed"); return -1; }
    return 0;
}

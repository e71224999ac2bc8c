/* custom_columns.c — kubectl's -o custom-columns / custom-columns-file (custom_columns.h).
 *
 * The spec and the file are read as cli-runtime reads them (NewCustomColumnsPrinterFromSpec,
 * NewCustomColumnsPrinterFromTemplate), with the same error texts; the paths compile up
 * front, so a bad one is a usage error before anything is loaded.
 */
#include "render/custom_columns.h"
#include "render/jsonpath.h"
#include "render/table.h"
#include "util/error.h"
#include "util/util.h"
#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct CustomColumns {
    char **headers;
    JsonPath **paths;
    JsonPath **aliases;       /* per column: the row's own key a kubectl path names, or NULL */
    size_t n, cap;
    Table *t;                 /* the rows added since the last print */
};

static const char spec_prefix[] = "custom-columns", file_prefix[] = "custom-columns-file";

/* output is WORD or WORD=VALUE: *value gets VALUE ("" when none) */
static bool is_format(const char *output, const char *word, const char **value)
{
    size_t n = strlen(word);
    if (!output || strncmp(output, word, n) != 0 || (output[n] && output[n] != '=')) return false;
    *value = output[n] ? output + n + 1 : "";
    return true;
}

bool custom_columns_format(const char *output)
{
    const char *v;
    return is_format(output, spec_prefix, &v) || is_format(output, file_prefix, &v);
}

void custom_columns_free(CustomColumns *cc)
{
    if (!cc) return;
    for (size_t i = 0; i < cc->n; i++) {
        free(cc->headers[i]);
        jsonpath_free(cc->paths[i]);
        jsonpath_free(cc->aliases[i]);
    }
    free(cc->headers);
    free(cc->paths);
    free(cc->aliases);
    table_free(cc->t);
    free(cc);
}

static int add_column(CustomColumns *cc, const char *header, size_t hlen, const char *path, Error *err)
{
    JsonPath *p = jsonpath_compile(path, err);
    if (!p) return -1;
    if (cc->n >= cc->cap) {
        cc->cap = cc->cap ? cc->cap * 2 : 8;
        cc->headers = xrealloc(cc->headers, cc->cap * sizeof *cc->headers);
        cc->paths = xrealloc(cc->paths, cc->cap * sizeof *cc->paths);
        cc->aliases = xrealloc(cc->aliases, cc->cap * sizeof *cc->aliases);
    }
    cc->headers[cc->n] = xasprintf("%.*s", (int)hlen, header);
    cc->aliases[cc->n] = jsonpath_row_alias(path);
    cc->paths[cc->n++] = p;
    return 0;
}

/* HEADER:PATH,HEADER:PATH (the first ':' of a part ends its header) */
static int parse_spec(CustomColumns *cc, const char *spec, Error *err)
{
    char *copy = xstrdup(spec);
    int rc = 0;
    for (char *part = copy, *next; part && rc == 0; part = next) {
        next = strchr(part, ',');
        if (next) *next++ = '\0';
        char *colon = strchr(part, ':');
        if (!colon) {
            error_set(err, "unexpected custom-columns spec: %s, expected <header>:<json-path-expr>", part);
            rc = -1;
            break;
        }
        rc = add_column(cc, part, (size_t)(colon - part), colon + 1, err);
    }
    free(copy);
    return rc;
}

/* the whitespace-separated words of one line: returns how many, *words (caller frees each) */
static size_t line_words(const char *line, size_t len, char ***words)
{
    size_t n = 0, cap = 0;
    *words = NULL;
    for (size_t i = 0; i < len;) {
        while (i < len && isspace((unsigned char)line[i])) i++;
        size_t s = i;
        while (i < len && !isspace((unsigned char)line[i])) i++;
        if (i > s) {
            ARRAY_GROW(*words, n, cap);
            (*words)[n++] = xasprintf("%.*s", (int)(i - s), line + s);
        }
    }
    return n;
}

/* the next line of *p (without its newline); false at the end of the text */
static bool next_line(const char **p, const char *end, const char **line, size_t *len)
{
    if (*p >= end) return false;
    const char *nl = memchr(*p, '\n', (size_t)(end - *p));
    *line = *p;
    *len = (size_t)((nl ? nl : end) - *p);
    *p = nl ? nl + 1 : end;
    return true;
}

static int parse_file(CustomColumns *cc, const char *path, Error *err)
{
    size_t len = 0;
    char *msg = NULL;
    char *text = util_read_file(path, &len, &msg);
    if (!text) {
        error_set(err, "error reading template %s, %s", path, msg ? msg : strerror(errno));
        free(msg);
        return -1;
    }
    static const char format[] =
        "Expected format is one line of space separated headers, one line of space separated column specs.";
    const char *p = text, *end = text + len, *line;
    size_t llen;
    char **headers = NULL, **specs = NULL;
    size_t nh = 0, ns = 0;
    int rc = -1;
    if (!next_line(&p, end, &line, &llen)) {
        error_set(err, "invalid template, missing header line. %s", format);
        goto out;
    }
    nh = line_words(line, llen, &headers);
    if (!next_line(&p, end, &line, &llen)) {
        error_set(err, "invalid template, missing spec line. %s", format);
        goto out;
    }
    ns = line_words(line, llen, &specs);
    if (nh != ns) {
        error_set(err, "number of headers (%zu) and field specifications (%zu) don't match", nh, ns);
        goto out;
    }
    rc = 0;
    for (size_t i = 0; i < nh && rc == 0; i++) rc = add_column(cc, headers[i], strlen(headers[i]), specs[i], err);
out:
    for (size_t i = 0; i < nh; i++) free(headers[i]);
    for (size_t i = 0; i < ns; i++) free(specs[i]);
    free(headers);
    free(specs);
    free(text);
    return rc;
}

CustomColumns *custom_columns_new(const char *output, Error *err)
{
    const char *value = "";
    bool file = is_format(output, file_prefix, &value);
    if (!file && !is_format(output, spec_prefix, &value)) {
        error_set(err, "not a custom-columns format: %s", output ? output : "");
        return NULL;
    }
    if (!*value) {
        error_set(err, "custom-columns format specified but no custom columns given");
        return NULL;
    }
    CustomColumns *cc = xcalloc(1, sizeof *cc);
    if ((file ? parse_file(cc, value, err) : parse_spec(cc, value, err)) < 0) {
        custom_columns_free(cc);
        return NULL;
    }
    if (!cc->n) {                                    /* a file of two empty lines */
        error_set(err, "custom-columns format specified but no custom columns given");
        custom_columns_free(cc);
        return NULL;
    }
    return cc;
}

int custom_columns_add(CustomColumns *cc, const cJSON *item, Error *err)
{
    if (!cc->t) cc->t = table_new((const char *const *)cc->headers, cc->n);
    char **cells = xcalloc(cc->n ? cc->n : 1, sizeof *cells);
    int rc = 0;
    for (size_t i = 0; i < cc->n && rc == 0; i++)
        /* .metadata.name of a row without metadata: the row's own name, as --sort-by takes it */
        if (!(cells[i] = jsonpath_eval_text(cc->aliases[i] && !jsonpath_first(cc->paths[i], item) ? cc->aliases[i]
                                                                                                 : cc->paths[i],
                                            item, err)))
            rc = -1;
    if (rc == 0) {                                   /* a row whole or not at all */
        table_add_row(cc->t);
        for (size_t i = 0; i < cc->n; i++) table_cell(cc->t, cells[i]);
    }
    for (size_t i = 0; i < cc->n; i++) free(cells[i]);
    free(cells);
    return rc;
}

size_t custom_columns_rows(const CustomColumns *cc) { return cc->t ? table_rows(cc->t) : 0; }

int custom_columns_print(CustomColumns *cc, FILE *f, bool no_headers)
{
    if (!cc->t) cc->t = table_new((const char *const *)cc->headers, cc->n);
    if (table_rows(cc->t)) table_print_rows(cc->t, f, false, !no_headers);   /* none: no header either, as kubectl */
    table_free(cc->t);
    cc->t = NULL;
    return ferror(f) ? -1 : 0;
}

/* yaml_load.c — YAML text to cJSON with typed plain scalars (contract in yaml_load.h). */
#include "util/yaml_load.h"
#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "util/util.h"

enum { MAX_NODES = 200000, MAX_DEPTH = 64 };

typedef struct { yaml_document_t *doc; long budget; bool typed; } Conv;

static bool decimal(const char *v)
{
    const char *p = v;
    if (*p == '-' || *p == '+') p++;
    if (!*p || strlen(p) > 15) return false;
    for (; *p; p++) if (!isdigit((unsigned char)*p)) return false;
    return true;
}

static cJSON *node_to_json(Conv *c, yaml_node_t *node, int depth)
{
    if (!node || depth > MAX_DEPTH || --c->budget < 0) return NULL;
    switch (node->type) {
    case YAML_SCALAR_NODE: {
        const char *v = (const char *)node->data.scalar.value;
        size_t len = node->data.scalar.length;
        if (strlen(v) != len) return NULL;
        if (node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
            if (len == 0 || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") || !strcmp(v, "NULL"))
                return cJSON_CreateNull();
            if (!c->typed) return cJSON_CreateString(v);
            if (!strcmp(v, "true") || !strcmp(v, "True") || !strcmp(v, "TRUE")) return cJSON_CreateTrue();
            if (!strcmp(v, "false") || !strcmp(v, "False") || !strcmp(v, "FALSE")) return cJSON_CreateFalse();
            if (decimal(v)) return cJSON_CreateNumber((double)strtoll(v, NULL, 10));
        }
        return cJSON_CreateString(v);
    }
    case YAML_SEQUENCE_NODE: {
        cJSON *arr = cJSON_CreateArray();
        for (yaml_node_item_t *it = node->data.sequence.items.start; it < node->data.sequence.items.top; it++) {
            cJSON *child = node_to_json(c, yaml_document_get_node(c->doc, *it), depth + 1);
            if (!child) { cJSON_Delete(arr); return NULL; }
            cJSON_AddItemToArray(arr, child);
        }
        return arr;
    }
    case YAML_MAPPING_NODE: {
        cJSON *obj = cJSON_CreateObject();
        for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
            yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
            if (!k || k->type != YAML_SCALAR_NODE) { cJSON_Delete(obj); return NULL; }
            cJSON *child = node_to_json(c, yaml_document_get_node(c->doc, p->value), depth + 1);
            if (!child) { cJSON_Delete(obj); return NULL; }
            const char *key = (const char *)k->data.scalar.value;
            cJSON_DeleteItemFromObjectCaseSensitive(obj, key);   /* later key wins, as in Go */
            cJSON_AddItemToObject(obj, key, child);
        }
        return obj;
    }
    default:
        return NULL;
    }
}

static int load(const char *text, size_t len, bool typed, cJSON **out, char **msg)
{
    yaml_parser_t parser;
    yaml_document_t doc;
    *out = NULL;
    *msg = NULL;
    if (!yaml_parser_initialize(&parser)) { *msg = xstrdup("cannot initialise the YAML parser"); return -1; }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    if (!yaml_parser_load(&parser, &doc)) {
        *msg = xasprintf("yaml: line %lu: %s", (unsigned long)parser.problem_mark.line + 1,
                         parser.problem ? parser.problem : "syntax error");
        yaml_parser_delete(&parser);
        return -1;
    }
    int rc = 0;
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (root) {
        Conv c = { &doc, MAX_NODES, typed };
        *out = node_to_json(&c, root, 0);
        if (!*out) {
            *msg = xstrdup(c.budget < 0 ? "yaml: document too large or too deeply nested (alias expansion?)"
                                        : "yaml: unsupported structure (non-scalar key or binary data)");
            rc = -1;
        }
    }
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    return rc;
}

int yaml_load_json_stream(const char *text, size_t len, YamlDocFn fn, void *ctx, int *index, char **msg)
{
    yaml_parser_t parser;
    *msg = NULL;
    *index = 0;
    if (!yaml_parser_initialize(&parser)) { *msg = xstrdup("cannot initialise the YAML parser"); return -1; }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    int rc = 0;
    for (;;) {
        yaml_document_t doc;
        if (!yaml_parser_load(&parser, &doc)) {
            *msg = xasprintf("yaml: line %lu: %s", (unsigned long)parser.problem_mark.line + 1,
                             parser.problem ? parser.problem : "syntax error");
            rc = -1;
            break;
        }
        yaml_node_t *root = yaml_document_get_root_node(&doc);
        if (!root) { yaml_document_delete(&doc); break; }      /* the end of the stream */
        Conv c = { &doc, MAX_NODES, true };
        cJSON *obj = node_to_json(&c, root, 0);
        yaml_document_delete(&doc);
        if (!obj) {
            *msg = xstrdup(c.budget < 0 ? "yaml: document too large or too deeply nested (alias expansion?)"
                                        : "yaml: unsupported structure (non-scalar key or binary data)");
            rc = -1;
            break;
        }
        rc = fn(ctx, obj, *index);
        if (rc) break;
        ++*index;
    }
    yaml_parser_delete(&parser);
    return rc;
}

int yaml_load_json(const char *text, size_t len, cJSON **out, char **msg)
{
    return load(text, len, true, out, msg);
}

int yaml_load_json_strings(const char *text, size_t len, cJSON **out, char **msg)
{
    return load(text, len, false, out, msg);
}

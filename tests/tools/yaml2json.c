/* yaml2json — a YAML stream (FILE, or stdin) as JSON Lines: one compact JSON document per
 * line on stdout, in stream order (tests only).
 *
 *     cc -std=c11 -o yaml2json tests/tools/yaml2json.c $(pkg-config --cflags --libs yaml-0.1 libcjson)
 *     yaml2json [FILE]
 *
 * Parses with libyaml's loader (not kubectl-gpu's emitter), resolving plain scalars the YAML 1.1
 * way Kubernetes' YAML reader does for the values that matter here: null/~, true/false, integers,
 * floats; quoted and block scalars stay strings.  Anchors/aliases are followed.  Exit 1 with a
 * message on a parse error (so a test sees malformed YAML), 0 otherwise.
 */
#include <cjson/cJSON.h>
#include <yaml.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cJSON *plain_scalar(const char *s)
{
    if (!*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") || !strcmp(s, "NULL"))
        return cJSON_CreateNull();
    if (!strcmp(s, "true") || !strcmp(s, "True") || !strcmp(s, "TRUE")) return cJSON_CreateTrue();
    if (!strcmp(s, "false") || !strcmp(s, "False") || !strcmp(s, "FALSE")) return cJSON_CreateFalse();
    char *end;
    long long i = strtoll(s, &end, 10);
    if (*end == '\0' && (s[0] == '-' || s[0] == '+' || (s[0] >= '0' && s[0] <= '9')))
        return cJSON_CreateNumber((double)i);
    double d = strtod(s, &end);
    if (*end == '\0' && ((s[0] >= '0' && s[0] <= '9') || s[0] == '-' || s[0] == '+' || s[0] == '.'))
        return cJSON_CreateNumber(d);
    return cJSON_CreateString(s);
}

static cJSON *convert(yaml_document_t *doc, yaml_node_t *n, int depth)
{
    if (!n || depth > 200) return cJSON_CreateNull();
    switch (n->type) {
    case YAML_SCALAR_NODE: {
        const char *s = (const char *)n->data.scalar.value;
        if (n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) return plain_scalar(s);
        return cJSON_CreateString(s);
    }
    case YAML_SEQUENCE_NODE: {
        cJSON *a = cJSON_CreateArray();
        for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++)
            cJSON_AddItemToArray(a, convert(doc, yaml_document_get_node(doc, *it), depth + 1));
        return a;
    }
    case YAML_MAPPING_NODE: {
        cJSON *o = cJSON_CreateObject();
        for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
            yaml_node_t *k = yaml_document_get_node(doc, p->key);
            const char *key = k && k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : "?";
            cJSON_AddItemToObject(o, key, convert(doc, yaml_document_get_node(doc, p->value), depth + 1));
        }
        return o;
    }
    default:
        return cJSON_CreateNull();
    }
}

int main(int argc, char **argv)
{
    FILE *in = stdin;
    if (argc > 2) { fprintf(stderr, "usage: yaml2json [FILE]\n"); return 2; }
    if (argc == 2 && !(in = fopen(argv[1], "rb"))) { perror(argv[1]); return 1; }
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) return 1;
    yaml_parser_set_input_file(&parser, in);
    int rc = 0;
    for (;;) {
        yaml_document_t doc;
        if (!yaml_parser_load(&parser, &doc)) {
            fprintf(stderr, "yaml2json: line %zu: %s\n", parser.problem_mark.line + 1,
                    parser.problem ? parser.problem : "parse error");
            rc = 1;
            break;
        }
        yaml_node_t *root = yaml_document_get_root_node(&doc);
        if (!root) { yaml_document_delete(&doc); break; }
        cJSON *j = convert(&doc, root, 0);
        char *s = cJSON_PrintUnformatted(j);
        puts(s);
        free(s);
        cJSON_Delete(j);
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    if (in != stdin) fclose(in);
    return rc;
}

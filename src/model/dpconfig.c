/* dpconfig.c — read sharing.timeSlicing / sharing.mps of a device-plugin config (dpconfig.h).
 *
 * The device plugin (api/config/v1/sharing.go, replicas.go) takes replicas per resource name;
 * only the entry for nvidia.com/gpu tells how many units one whole GPU is advertised as.  When
 * both timeSlicing and mps list it the plugin refuses the config; the first found is kept.
 * Replicas below 2 are rejected by the plugin (replicas.go): such a config is read as no
 * sharing.  YAML through libyaml's document API; aliases are bounded by libyaml's loader.
 */
#include "dpconfig.h"
#include <stdint.h>
#include <string.h>
#include <yaml.h>
#include "util.h"

static yaml_node_t *map_get(yaml_document_t *d, yaml_node_t *m, const char *key)
{
    if (!m || m->type != YAML_MAPPING_NODE) return NULL;
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(d, p->key);
        if (k && k->type == YAML_SCALAR_NODE && strcmp((const char *)k->data.scalar.value, key) == 0)
            return yaml_document_get_node(d, p->value);
    }
    return NULL;
}

static const char *scalar(yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* replicas of nvidia.com/gpu in one strategy block; 0 when not listed */
static int gpu_replicas(yaml_document_t *d, yaml_node_t *block)
{
    yaml_node_t *res = map_get(d, block, "resources");
    if (!res || res->type != YAML_SEQUENCE_NODE) return 0;
    for (yaml_node_item_t *it = res->data.sequence.items.start; it < res->data.sequence.items.top; it++) {
        yaml_node_t *r = yaml_document_get_node(d, *it);
        if (!str_eq(scalar(map_get(d, r, "name")), "nvidia.com/gpu")) continue;
        int64_t v;
        const char *s = scalar(map_get(d, r, "replicas"));
        if (!s || !str_to_int64(s, &v) || v < 2 || v > 1000000) return 0;
        return (int)v;
    }
    return 0;
}

bool dpconfig_parse_sharing(const char *text, size_t len, DpSharing *out)
{
    memset(out, 0, sizeof *out);
    out->replicas = 1;
    if (!text || len == 0 || len > 65536) return false;
    yaml_parser_t parser;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&parser)) return false;
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    bool ok = false;
    if (yaml_parser_load(&parser, &doc)) {
        yaml_node_t *root = yaml_document_get_root_node(&doc);
        if (root && root->type == YAML_MAPPING_NODE &&
            (map_get(&doc, root, "version") || map_get(&doc, root, "flags") || map_get(&doc, root, "sharing"))) {
            ok = true;
            yaml_node_t *sharing = map_get(&doc, root, "sharing");
            static const char *const keys[] = { "timeSlicing", "mps" };
            for (int i = 0; i < 2; i++) {
                yaml_node_t *b = map_get(&doc, sharing, keys[i]);
                int r = gpu_replicas(&doc, b);
                if (!r) continue;
                out->strategy = i == 0 ? SHARING_TIME_SLICING : SHARING_MPS;
                out->replicas = r;
                out->renamed = str_eq(scalar(map_get(&doc, b, "renameByDefault")), "true");
                break;
            }
        }
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    return ok;
}

/* dpconfig.c — read sharing.timeSlicing / sharing.mps of a device-plugin config (dpconfig.h).
 *
 * The device plugin (api/config/v1/sharing.go, replicas.go) takes replicas per resource name;
 * only the entry for nvidia.com/gpu tells how many units one whole GPU is advertised as.  When
 * both timeSlicing and mps list it the plugin refuses the config; the first found is kept.
 * Replicas below 2 are rejected by the plugin (replicas.go): such a config is read as no
 * sharing.  YAML through libyaml's document API; only a fixed path is walked (sharing ->
 * timeSlicing|mps -> resources[] -> name/replicas), so aliases, even cyclic ones, cost nothing.
 */
#include "model/dpconfig.h"
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "model/cluster.h"
#include "cluster_int.h"
#include "util/error.h"
#include "json_fields.h"
#include "util/util.h"

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

/* ---- the cluster's device-plugin ConfigMaps (cluster.h) ----
 *
 * Each data value of a ConfigMap that parses as a device-plugin config becomes one
 * DevicePluginConfig (strategy, replicas, rename); the YAML is not kept.  At most 256 keys in
 * all; a later copy of the same namespace/name replaces its keys. */

#define MAX_DPCONFIGS 256

static void dpconfig_release(DevicePluginConfig *d)
{
    free(d->ns); free(d->name); free(d->key); free(d->where);
}

void dpconfig_forget(Cluster *c, const char *ns, const char *name)
{
    size_t w = 0;
    for (size_t i = 0; i < c->ndpconfigs; i++) {
        DevicePluginConfig *d = &c->dpconfigs[i];
        if (str_eq(d->ns, ns ? ns : "") && str_eq(d->name, name)) dpconfig_release(d);
        else c->dpconfigs[w++] = *d;
    }
    c->ndpconfigs = w;
}

int dpconfig_ingest_configmap(Cluster *c, const cJSON *obj, Error *err)
{
    const cJSON *meta = jobj(obj, "metadata");
    const char *name = jstr_ne(meta, "name"), *ns = jstr_ne(meta, "namespace");
    if (!name) { error_set(err, "configmap without metadata.name"); return -1; }
    if (!ns) ns = "";
    size_t w = 0;                           /* a newer copy of the same ConfigMap replaces its keys */
    for (size_t i = 0; i < c->ndpconfigs; i++) {
        DevicePluginConfig *d = &c->dpconfigs[i];
        if (str_eq(d->ns, ns) && str_eq(d->name, name)) dpconfig_release(d);
        else c->dpconfigs[w++] = *d;
    }
    c->ndpconfigs = w;
    const cJSON *data = jobj(obj, "data");
    for (const cJSON *v = data ? data->child : NULL; v; v = v->next) {
        if (!v->string || !cJSON_IsString(v) || !v->valuestring) continue;
        DpSharing sh;
        if (!dpconfig_parse_sharing(v->valuestring, strlen(v->valuestring), &sh)) continue;
        if (c->ndpconfigs >= MAX_DPCONFIGS) {
            cluster_warn(c, "configmap %s/%s: more than %d device-plugin configs; the rest ignored", ns, name,
                         MAX_DPCONFIGS);
            break;
        }
        ARRAY_GROW(c->dpconfigs, c->ndpconfigs, c->capdpconfigs);
        DevicePluginConfig *d = &c->dpconfigs[c->ndpconfigs++];
        d->ns = jdup_trunc(ns, 63);
        d->name = jdup_trunc(name, MODEL_NAME_MAX);
        d->key = jdup_trunc(v->string, 253);
        d->strategy = sh.strategy;
        d->replicas = sh.replicas;
        d->renamed = sh.renamed;
        d->where = xasprintf("ConfigMap %s%s%s, key %s", d->ns, *d->ns ? "/" : "", d->name, d->key);
    }
    return 0;
}

bool dpconfig_sharing_config(const Cluster *c, const Node *n, SharingConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    if (!c || !c->cp.dp_config_name) return false;
    const char *key = n->gpu.device_plugin_config ? n->gpu.device_plugin_config : c->cp.dp_config_default;
    if (!key) return false;
    for (size_t i = 0; i < c->ndpconfigs; i++) {
        const DevicePluginConfig *d = &c->dpconfigs[i];
        if (!str_eq(d->name, c->cp.dp_config_name) || !str_eq(d->key, key)) continue;
        if (c->cp.operator_ns && !str_eq(d->ns, c->cp.operator_ns)) continue;   /* another namespace's map */
        cfg->strategy = d->strategy;
        cfg->replicas = d->replicas;
        cfg->renamed = d->renamed;
        cfg->where = d->where;
        return true;
    }
    return false;
}

void dpconfig_cluster_clear(Cluster *c)
{
    for (size_t i = 0; i < c->ndpconfigs; i++) dpconfig_release(&c->dpconfigs[i]);
    free(c->dpconfigs);
    c->dpconfigs = NULL;
    c->ndpconfigs = c->capdpconfigs = 0;
}

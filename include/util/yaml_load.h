/* yaml_load.h — one YAML document (libyaml's loader) as a cJSON tree, for config files the
 * planner carries over (the mig-parted config of a ConfigMap).  Plain scalars true/false
 * become booleans and plain decimal integers numbers (what mig-parted's Go decoder reads
 * them as); everything else is a string, null for ~/null/empty.  Bounded: at most 200,000
 * nodes and depth 64 (alias bombs fail).  *out (caller frees) is NULL for an empty document.
 * Returns 0, or -1 with *msg allocated (caller frees).
 */
#ifndef KGPU_YAML_LOAD_H
#define KGPU_YAML_LOAD_H
#include <stddef.h>
struct cJSON;
int yaml_load_json(const char *text, size_t len, struct cJSON **out, char **msg);
/* the same, every non-null scalar a string (kubeconfig: client-go reads the fields it knows by
 * their Go types, so "true" and 1 stay as written for the reader to interpret) */
int yaml_load_json_strings(const char *text, size_t len, struct cJSON **out, char **msg);
/* every document of a multi-document stream ("---" between them), in order: fn gets each one
 * (typed as yaml_load_json; fn takes the tree and frees it) with its index from 0.  An empty
 * document between two "---" comes as a null tree; the end of the stream ends the walk.
 * Returns 0; fn's non-zero return (the walk stops); or -1 with *msg (caller frees) when
 * document *index is not YAML or is too large.  Bounded per document as yaml_load_json. */
typedef int (*YamlDocFn)(void *ctx, struct cJSON *doc, int index);
int yaml_load_json_stream(const char *text, size_t len, YamlDocFn fn, void *ctx, int *index, char **msg);
#endif

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
#endif

/* resources.h — a list of (resource name, quantity in milli-units), and which names are GPUs.
 *
 * ResourceList owns its names, except the common ones (cpu, memory, pods, ephemeral-storage,
 * nvidia.com/gpu, nvidia.com/gpu.shared, amd.com/gpu, hugepages-2Mi and -1Gi): an entry for one
 * of those points at the binary's single copy (resources_name_static), which nobody frees or
 * replaces.  Lookups are linear: lists hold a handful of entries.
 */
#ifndef KGPU_RESOURCES_H
#define KGPU_RESOURCES_H
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

typedef struct { char *name; int64_t milli; } ResourceEntry;
typedef struct { ResourceEntry *items; uint32_t n, cap; } ResourceList;   /* 16 bytes: one in each pod, three in a node */
#define RESOURCE_LIST_INIT { NULL, 0, 0 }

void rlist_set(ResourceList *l, const char *name, int64_t milli);
void rlist_add(ResourceList *l, const char *name, int64_t milli);   /* adds to existing */
int64_t rlist_get(const ResourceList *l, const char *name);          /* 0 if absent */
bool rlist_has(const ResourceList *l, const char *name);
/* name is the binary's copy of a common resource name (an entry's name nobody owns) */
bool resources_name_static(const char *name);
void rlist_max_into(ResourceList *dst, const ResourceList *src);     /* element-wise max */
void rlist_add_all(ResourceList *dst, const ResourceList *src);      /* element-wise sum */
void rlist_copy(ResourceList *dst, const ResourceList *src);         /* dst cleared first */
void rlist_clear(ResourceList *l);
/* parse a JSON object {"cpu":"500m","nvidia.com/gpu":"1"}; bad quantities are reported
 * through *bad (first offending name, borrowed from json) and skipped; returns count parsed */
struct cJSON;
int rlist_from_json(ResourceList *l, const struct cJSON *obj, const char **bad);
/* obj's entries whose names are not among l's first `given` entries, set in l (the last of a
 * repeated name wins, as in rlist_from_json); bad quantities are skipped: the defaulting of
 * requests from limits, read straight from the JSON without a second list */
int rlist_default_from_json(ResourceList *l, const struct cJSON *obj, uint32_t given);

/* GPU resource names: nvidia.com/gpu, nvidia.com/gpu.shared, nvidia.com/mig-<profile>,
 * nvidia.com/mig-<profile>.shared, amd.com/gpu, gpu.intel.com/i915, gpu.intel.com/xe
 * (Intel's millicores / memory.max / tiles are shares, not devices: no), habana.ai/gaudi
 * (not a GPU: no).  Everything else (cpu, memory, pods, hugepages-N, ephemeral-storage,
 * other extended resources) is not. */
bool resources_is_gpu(const char *name);
bool resources_is_mig(const char *name);          /* nvidia.com/mig-* */
/* "nvidia.com/mig-2g.20gb" -> "2g.20gb" (without ".shared"); NULL if not MIG; caller frees */
char *resources_mig_profile(const char *name);
bool resources_is_shared(const char *name);       /* ends with ".shared" */
/* true when the list holds any GPU resource with a non-zero quantity */
bool rlist_has_gpu(const ResourceList *l);
/* sort entries by name (stable, for deterministic output) */
void rlist_sort(ResourceList *l);
#endif

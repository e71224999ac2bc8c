/* pod_index.h — private to src/model: the cluster's kept pods by namespace and name.
 *
 * An open-addressing table of positions in the cluster's pod array; a key is read from the pod
 * itself (its pooled ns and name), so the index holds no strings: 8 bytes a slot (the position
 * and 32 bits of the key's hash), at most half full.  Positions are 1-based in the API
 * (0 = absent), as the other indexes of cluster.c. */
#ifndef KGPU_MODEL_POD_INDEX_H
#define KGPU_MODEL_POD_INDEX_H
#include <stddef.h>
#include "model/pod.h"

typedef struct PodIndex PodIndex;

PodIndex *pod_index_new(void);
void pod_index_free(PodIndex *x);                    /* NULL is fine */
/* position+1 of the pod ns/name in pods, 0 when absent (x may be NULL) */
size_t pod_index_get(const PodIndex *x, const Pod *pods, const char *ns, const char *name);
/* pods[i] is at position i: added, or its entry moved there (same ns/name found in the table) */
void pod_index_put(PodIndex *x, const Pod *pods, size_t i);
/* forget ns/name (nothing when absent) */
void pod_index_del(PodIndex *x, const Pod *pods, const char *ns, const char *name);
#endif

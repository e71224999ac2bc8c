/* node_builder.h — a GPU Node as GFD labels it, for the plan and manifest unit tests: Ready,
 * product, count, memory and compute capability set; labels owned by the Node (kv_clear), the
 * name and product borrowed. */
#ifndef KGPU_TEST_NODE_BUILDER_H
#define KGPU_TEST_NODE_BUILDER_H
#include <stdio.h>
#include <string.h>
#include "model/node.h"

static inline Node test_gpu_node(const char *name, const char *product, int gpus, int64_t mem, int ccmaj, int ccmin)
{
    Node n;
    memset(&n, 0, sizeof n);
    n.name = (char *)name;
    n.ready = true;
    n.gpu.has_gfd = n.gpu.present = true;
    n.gpu.product = n.gpu.base_product = (char *)product;
    n.gpu.count = gpus;
    n.gpu.memory_mib = mem;
    n.gpu.replicas = 1;
    char b[16];
    snprintf(b, sizeof b, "%d", ccmaj); kv_set(&n.labels, "nvidia.com/gpu.compute.major", b);
    snprintf(b, sizeof b, "%d", ccmin); kv_set(&n.labels, "nvidia.com/gpu.compute.minor", b);
    return n;
}
#endif

/* physical.h — how many physical GPUs are in use, free and unavailable, from what the node
 * advertises and the scheduler allocated (analysis/allocation.h NodeStatus).
 *
 * Unavailable: every GPU of a node that is NotReady, has no device plugin or an invalid MIG
 * layout; else the unhealthy ones (capacity - allocatable of the node's GPU resource, in GPUs).
 * In use, per kind of resource (the upstream device plugin's allocation, NVIDIA/k8s-device-plugin
 * internal/rm):
 *   - whole GPUs (nvidia.com/gpu without sharing or MIG): one physical GPU per unit;
 *   - time-sliced / MPS replicas: k replicas on a node of G healthy GPUs with R replicas each
 *     occupy between ceil(k/R) and min(k, G) GPUs; the device plugin's default
 *     sharedDevicesAllocationPolicy "distributed" prefers the GPU with the fewest allocated
 *     replicas (allocate.go:48, nvml_manager.go:120), so min(k, G) is what it does;
 *   - MIG devices: each sits on one parent GPU, but the plugin does not group MIG devices by
 *     parent when it picks them, so without metrics only a range is known: at least
 *     ceil(compute slices allocated / slices per GPU), at most min(devices, GPUs).
 * inUse is the distributed policy's value for replicas and the upper bound for MIG (a parent
 * with one slice allocated cannot be given whole); free = physical - inUse - unavailable.
 */
#ifndef KGPU_ANALYSIS_PHYSICAL_H
#define KGPU_ANALYSIS_PHYSICAL_H
#include "analysis/allocation.h"

typedef struct {
    int in_use, in_use_min, in_use_max;   /* min == max when it is known */
    int unavailable, free_;
} PhysicalUse;

/* one node; a node whose GPUs cannot be counted gives all zeros */
PhysicalUse physical_use_node(const NodeStatus *n);
/* the part of a physical GPU one unit of resource on node n is: 1 for a whole GPU, 1/replicas
 * for a time-sliced or MPS replica, compute slices / slices per GPU for a MIG device */
double physical_share(const NodeStatus *n, const char *resource);
/* the sum over st's GPU nodes */
PhysicalUse physical_use_total(const GpuStatus *st);
/* idle physical GPUs held (NodeStatus.idle_allocated) as every output states them: never more
 * than the node's GPUs in use; a node whose GPUs cannot be counted keeps its own count.  The
 * total is the sum over the nodes, -1 without metrics */
int physical_idle_node(const NodeStatus *n);
int physical_idle_total(const GpuStatus *st);
#endif

/* health.h — which GPUs of a node are unhealthy, and why, from every health signal:
 *   1. the device plugin: a GPU resource whose allocatable is below its capacity (the plugin
 *      reports unhealthy devices so; NVIDIA/k8s-device-plugin marks a device Unhealthy on a
 *      critical XID) — how many, not which;
 *   2. node conditions set by GPU health agents (model/node.h HealthCondition): NVIDIA
 *      NVSentinel's (GpuXidError, GpuMemWatch, ... with "GPU:<index>" and "XID <n>" in the
 *      message), node-problem-detector's GPU conditions;
 *   3. taints health agents put on the node (NVSentinel's fault-quarantine rulesets:
 *      nvidia.com/gpu-xid-error, nvidia.com/gpu-nvlink-error, nvidia.com/syslog-xid-error,
 *      nvidia.com/gpu-error, ...: any nvidia.com/ key ending in "-error") — the node, not a GPU;
 *   4. HAMi's registration (hami.io/node-nvidia-register) marking a GPU not healthy;
 *   5. DCGM: an XID error (DCGM_FI_DEV_XID_ERRORS, the last XID code, non-zero) or double-bit
 *      ECC errors (DCGM_FI_DEV_ECC_DBE_VOL_TOTAL / _AGG_TOTAL > 0) on a device in the window.
 * Ownership: NodeHealth owns its strings; health_clear frees them.
 */
#ifndef KGPU_ANALYSIS_HEALTH_H
#define KGPU_ANALYSIS_HEALTH_H
#include <stdbool.h>
#include <stddef.h>
#include "model/node.h"
#include "model/usage.h"

#define HEALTH_MAX_GPUS 64

typedef struct {
    int index;                   /* GPU index on the node */
    char *why;                   /* "XID 31 (GpuMemWatch, NVSentinel)", "DCGM XID 79" ... */
} UnhealthyGpu;

typedef struct {
    UnhealthyGpu *gpus; size_t ngpus;     /* by index, one per GPU */
    int unhealthy_unnamed;       /* unhealthy by count only (allocatable < capacity), in GPUs,
                                    beyond those named above */
    Strvec signals;              /* one line per signal that says something: "condition GpuMemWatch
                                    (GpuMemWatchIsNotHealthy): ...", "taint nvidia.com/gpu-xid-error=true:NoSchedule" */
    bool node_tainted;           /* a health taint keeps new pods off the whole node */
} NodeHealth;

/* usage may be NULL (no metrics); inv (may be NULL) turns a device-plugin shortfall in
 * replicas into GPUs and caps every count at the node's physical GPUs */
void health_node(const Node *n, const NodeInventory *inv, const UsageData *usage, NodeHealth *h);
void health_clear(NodeHealth *h);
/* unhealthy GPUs in all: named + unnamed */
int health_count(const NodeHealth *h);
/* the taint is one a GPU health agent sets (see above) */
bool health_taint(const Taint *t);
/* the node's physical GPUs less the unhealthy ones (no metrics: the device plugin's shortfall,
 * health agents' conditions, HAMi's registration), 0 when they cannot be counted: the capacity
 * a plan may count on (plan.c, plan_candidates.c) */
int health_good_gpus(const Node *n);
/* index is one of h's named unhealthy GPUs; its reason, else NULL */
const char *health_gpu(const NodeHealth *h, int index);
#endif

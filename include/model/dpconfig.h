/* dpconfig.h — the sharing part of an NVIDIA device-plugin / GFD config file (the YAML held
 * under each key of the device-plugin ConfigMap; shared/reference/device-plugin-config.md §1):
 * sharing.timeSlicing or sharing.mps, renameByDefault, and the replicas of nvidia.com/gpu.
 * Only these facts are kept (cluster.c keeps one DpSharing per ConfigMap key).
 */
#ifndef KGPU_DPCONFIG_H
#define KGPU_DPCONFIG_H
#include <stdbool.h>
#include <stddef.h>
#include "model/node.h"

typedef struct {
    SharingStrategy strategy;    /* the one that lists nvidia.com/gpu; NONE when neither does */
    int replicas;                /* its replicas (>= 2), 1 when not shared */
    bool renamed;                /* renameByDefault of that strategy */
} DpSharing;

/* false when text is not YAML, or not a device-plugin config (neither "version", "flags" nor
 * "sharing" at the top); a config without sharing is strategy NONE, replicas 1 */
bool dpconfig_parse_sharing(const char *text, size_t len, DpSharing *out);
#endif

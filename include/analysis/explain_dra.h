/* explain_dra.h — the DRA side of explain (explain_dra.c): a Pending pod whose GPUs come from
 * ResourceClaims and that requests no device-plugin GPU resource.  explain.c hands such a pod
 * here after the scheduler's message is read; the Explanation it fills is the same structure
 * (per-node reasons, verdict, fixes, notes), so every renderer shows it unchanged.
 */
#ifndef KGPU_EXPLAIN_DRA_H
#define KGPU_EXPLAIN_DRA_H
#include <stdbool.h>
#include "analysis/explain.h"

/* p asks for GPUs through DRA claims and for no GPU resource of the device plugin (or has
 * claims the loader could not read): pending lists it */
bool explain_dra_applies(const Cluster *c, const Pod *p);
/* explain takes p down the DRA path: claims and no GPU resource, in a cluster with DRA */
bool explain_dra_takes(const Cluster *c, const Pod *p);
/* nodes (owned by e, not shared), verdict, summary, fixes (when with_fixes), notes and the
 * comparison with the scheduler's message; e is set up by the caller (names, message) */
void explain_dra_pod(const ExplainIndex *ix, const Pod *p, bool with_fixes, Explanation *e);
/* a device-plugin pod's explanation in a cluster with DRA nodes (explain_dra_dp.c): no fix that
 * starts a device plugin on a DRA node, NoDevicePlugin -> ResourceName when only DRA nodes lack
 * the plugin, and a claim as the fix where a DRA node has the GPUs free.  e is final otherwise. */
void explain_dra_adjust(const Cluster *c, Explanation *e);
#endif

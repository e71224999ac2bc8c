/* mig_capability.h — can a node's GPUs be partitioned with MIG, and from which signal.
 *
 * One function decides it for every command (explain, plan, status): never from the GPU's
 * memory size.  The signals are tried in the order written in mig_capability.c; the first that
 * knows decides, and a node no signal speaks for is MIG_CAP_UNKNOWN (said as unknown, never
 * taken as yes or no).
 */
#ifndef KGPU_MIG_CAPABILITY_H
#define KGPU_MIG_CAPABILITY_H
#include "model/mig_tables.h"
#include "model/node.h"

typedef enum { MIG_CAP_UNKNOWN = 0, MIG_CAP_NO, MIG_CAP_YES } MigCapable;

typedef struct {
    MigCapable capable;
    const char *source;          /* the signal that decided, a static string ("GFD label
                                    nvidia.com/mig.capable=false", "MIG table for ..."); NULL
                                    when unknown */
    const MigGpuModel *model;    /* the node's MIG table when its product names one, else NULL */
} MigCapability;

MigCapability mig_capability(const Node *n);
const char *mig_capable_name(MigCapable c);   /* "yes" | "no" | "unknown" */

/* MIG devices of `profile` ("3g.40gb", "nvidia.com/mig-3g.40gb") one GPU holds: from model's
 * table when model is given; else from every table that has the profile when they all agree
 * (3g.40gb: 2 on A100 80GB and H100 80GB), else -1 (1g.10gb: 4 on A100 40GB, 7 on A100 80GB). */
int mig_profile_per_gpu(const MigGpuModel *model, const char *profile);
#endif

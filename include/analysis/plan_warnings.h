/* plan_warnings.h — warnings a plan owes the user about nodes outside what it changes.
 *
 * plan_mig_single_warnings: when the plan switches the cluster-wide MIG strategy to mixed
 * (r->mig_strategy_change), every node that runs MIG with the single strategy is told what
 * happens to it: outside the plan's MIG groups it starts advertising nvidia.com/mig-<profile>
 * instead of nvidia.com/gpu, so pods asking for nvidia.com/gpu there stay Pending; inside them
 * the pods (of w, nw) that request nvidia.com/gpu there are named, as their request means a
 * whole GPU after the switch.  Lines are appended to out.
 */
#ifndef KGPU_ANALYSIS_PLAN_WARNINGS_H
#define KGPU_ANALYSIS_PLAN_WARNINGS_H
#include <stddef.h>
#include "analysis/plan.h"
#include "model/cluster.h"
#include "util/util.h"

void plan_mig_single_warnings(const Cluster *c, const PlanResult *r, const PlanWorkload *w, size_t nw, Strvec *out);
#endif

/* explain_target.h — what `kubectl gpu explain NAME` names: NAME or pod/NAME (in ns, or with
 * ns NULL the only pod of that name in any namespace), or KIND/NAME as `pending` lists an owner
 * whose pods a ResourceQuota refused. */
#ifndef KGPU_ANALYSIS_EXPLAIN_TARGET_H
#define KGPU_ANALYSIS_EXPLAIN_TARGET_H
#include <stdbool.h>
#include "analysis/explain.h"
#include "model/cluster.h"

struct Error;

/* 0 with *out (explanation_clear it; it borrows from c) and *pending (the pod waits to be
 * scheduled; an owner's always does); -1 with err set when there is no such pod or owner; -2
 * with err set when arg is not a name (a usage error) */
int explain_target(const Cluster *c, const char *ns, const char *arg, Explanation *out, bool *pending,
                   struct Error *err);
#endif

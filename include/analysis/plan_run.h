/* plan_run.h — one run of `kubectl gpu plan`: the input, the plan, its manifests, actions,
 * warnings and what-if, built once from the cluster and the usage (plan_run_build) and handed
 * to every presentation (render/plan_report.h).
 *
 * Ownership: PlanRun owns everything in it but the PriceList and the Cluster its PlanCurrent
 * borrows; plan_run_release frees it (the struct itself is the caller's).
 */
#ifndef KGPU_ANALYSIS_PLAN_RUN_H
#define KGPU_ANALYSIS_PLAN_RUN_H
#include <stdbool.h>
#include "analysis/manifests.h"
#include "analysis/plan.h"
#include "analysis/plan_actions.h"
#include "model/actuators.h"
#include "model/cluster.h"
#include "model/usage.h"
#include "util/strmap.h"
#include "util/util.h"

struct cJSON;
struct Error;
struct PriceList;

/* everything a renderer needs, built once */
typedef struct PlanRun {
    const char *window;
    double window_s, percentile, headroom;
    PlanInput in;
    PlanResult r;
    Manifests m;
    char *usage_line;                 /* where usage came from, one sentence */
    bool from_requests;
    char *metrics_source, *metrics_detail;
    char *operator_ns;
    char *clusterpolicy;              /* NULL when the cluster has none */
    char *context;
    Strvec warnings;
    char *server;                     /* the API server the plan was made for (NULL offline) */
    PlanCurrent cur;                  /* what the cluster runs now (borrows the Cluster) */
    PlanActions actions;              /* the changes, in the script's order */
    Strvec whatif;                    /* "ns/name" of pending GPU pods that fit after the plan */
    bool whatif_done;                 /* the what-if was computed (pending pods were read) */
    bool quotas;                      /* --quotas */
    const struct PriceList *prices;   /* --price (borrowed), NULL when not given */
    Actuators act;                    /* who carries the plan out (borrows the Cluster) */
    Strvec applied;                   /* "Applied by": the actuators and what they need, in words */
} PlanRun;

/* what the run was asked (plan's flags) */
typedef struct {
    const char *window;               /* as given, e.g. "7d" */
    double window_s, percentile, headroom;
    PlanChoice choice;
    const char *strategy;             /* as given, for the manifests' annotation */
    bool quotas;
    const struct PriceList *prices;   /* NULL: no --price */
    const char *selector;             /* -l, NULL or "": every node */
    char *(*yaml_text)(const struct cJSON *doc);   /* a config file's YAML text (manifests.h) */
} PlanRunOptions;

/* Builds the run from c and the usage the metrics gave over the window (usage, and wu/nwu the
 * workload profiles; both are consumed: released here once read).  0, or -1 with err set when
 * the manifests could not be made (the run then holds the plan without them). */
int plan_run_build(PlanRun *run, const Cluster *c, UsageData *usage, WorkloadUsage *wu, size_t nwu,
                   const PlanRunOptions *o, struct Error *err);
void plan_run_release(PlanRun *run);
#endif

/* plan_report.h — the outputs of `kubectl gpu plan` from one PlanRun: the text report (with
 * the "Changes" section and the what-if line), the JSON document (the contract's keys plus
 * actions, warnings, whatIf) and the reviewed bash script (`-o script`).
 * Ownership: PlanRun owns everything in it; plan_run_release frees it (cmd_plan.c builds it).
 */
#ifndef KGPU_PLAN_REPORT_H
#define KGPU_PLAN_REPORT_H
#include <stdbool.h>
#include <stdio.h>
#include "analysis/manifests.h"
#include "analysis/plan.h"
#include "analysis/plan_actions.h"
#include "util/strmap.h"
#include "render/render.h"
struct cJSON;

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
    StrMap *node_pods;                /* node -> GPU pods on it now (count + 1) */
    char *server;                     /* the API server the plan was made for (NULL offline) */
    PlanCurrent cur;                  /* what the cluster runs now (borrows the Cluster) */
    PlanActions actions;              /* the changes, in the script's order */
    Strvec whatif;                    /* "ns/name" of pending GPU pods that fit after the plan */
    bool whatif_done;                 /* the what-if was computed (pending pods were read) */
    bool quotas;                      /* --quotas */
    const struct PriceList *prices;   /* --price (borrowed), NULL when not given */
} PlanRun;

void plan_run_release(PlanRun *run);
void plan_report_text(const PlanRun *run, bool color);           /* to stdout */
struct cJSON *plan_report_json(const PlanRun *run);
/* the same document written to f as render_json would, its long lists element by element;
 * 0, or -1 when it could not be written */
int plan_report_write_json(const PlanRun *run, FILE *f);
/* each group of -o json's "groups", whole (workloads and node plan included), built one at a
 * time and handed to fn (borrowed for the call); stops at fn's first non-zero, returned */
int plan_report_each_group_json(const PlanRun *run, int (*fn)(void *ctx, const struct cJSON *group), void *ctx);
/* -o custom-columns (render/custom_columns.h): one row per group of -o json, the warnings on
 * stderr; 0, or -1 when a path could not be evaluated (said on stderr) or writing failed */
struct CustomColumns;
int plan_print_columns(const PlanRun *run, struct CustomColumns *cc, bool no_headers);
char *plan_report_script(const PlanRun *run, const char *yaml);  /* caller frees */
char *plan_yaml_text(const struct cJSON *doc);                    /* one document; NULL on failure */
char *plan_yaml_stream_text(const Manifests *m);                  /* every manifest, multi-document */
/* the one presentation of `plan` (plan.c): text, JSON, YAML or the script to stdout; 0, or -1
 * when it could not be written */
int plan_render(const PlanRun *run, RenderFormat fmt, bool color);
#endif

/* plan_report.h — the outputs of `kubectl gpu plan` from one PlanRun: the text report (with
 * the "Changes" section and the what-if line), the JSON document (the contract's keys plus
 * actions, warnings, whatIf) and the reviewed bash script (`-o script`).
 * The PlanRun itself: analysis/plan_run.h.
 */
#ifndef KGPU_PLAN_REPORT_H
#define KGPU_PLAN_REPORT_H
#include <stdbool.h>
#include <stdio.h>
#include "analysis/manifests.h"
#include "analysis/plan.h"
#include "analysis/plan_actions.h"
#include "analysis/plan_run.h"
#include "util/strmap.h"
#include "render/render.h"
struct cJSON;


void plan_report_text(const PlanRun *run, bool color);           /* to stdout */
struct cJSON *plan_report_json(const PlanRun *run);
/* the same document written to f as json_render would, its long lists element by element;
 * 0, or -1 when it could not be written */
int plan_report_write_json(const PlanRun *run, FILE *f);
/* each group of -o json's "groups", whole (workloads and node plan included), built one at a
 * time and handed to fn (borrowed for the call); stops at fn's first non-zero, returned */
int plan_report_each_group_json(const PlanRun *run, int (*fn)(void *ctx, const struct cJSON *group), void *ctx);
/* -o custom-columns (render/custom_columns.h): one row per group of -o json, the warnings on
 * stderr; 0, or -1 when writing failed or (err set) a path could not be evaluated */
struct CustomColumns;
struct Error;
int plan_print_columns(const PlanRun *run, struct CustomColumns *cc, bool no_headers, struct Error *err);
char *plan_report_script(const PlanRun *run, const char *yaml);  /* caller frees */
char *plan_yaml_text(const struct cJSON *doc);                    /* one document; NULL on failure */
char *plan_yaml_stream_text(const Manifests *m);                  /* every manifest, multi-document */
/* the one presentation of `plan` (plan.c): text, JSON, YAML or the script to stdout; 0, or -1
 * when it could not be written */
int plan_render(const PlanRun *run, RenderFormat fmt, bool color);
#endif

/* plan.c — the one presentation of `kubectl gpu plan` (plan_report.h): one PlanRun to stdout as
 * the text report, the JSON document, the manifests as YAML (multi-document) or the reviewed
 * bash script.  YAML and the script leave stdout to what can be applied or run, so the warnings
 * (and the caveat that requests stood in for usage) go to stderr; text and JSON carry them.
 */
#include "render/plan_report.h"
#include "render/render.h"
#include "render/text.h"
#include "render/custom_columns.h"
#include "util/error.h"
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int plan_render(const PlanRun *run, RenderFormat fmt, bool color)
{
    int rc = 0;
    if (fmt == RENDER_JSON) {
        if (plan_report_write_json(run, stdout)) rc = -1;
    } else if (fmt == RENDER_YAML || fmt == RENDER_SCRIPT) {
        if (run->from_requests) text_printf(stderr, "warning: %s\n", run->usage_line);
        for (size_t i = 0; i < run->warnings.n; i++) text_printf(stderr, "warning: %s\n", run->warnings.v[i]);
        char *yaml = plan_yaml_stream_text(&run->m);
        if (!yaml) rc = -1;
        else if (fmt == RENDER_YAML && run->m.n == 0) {
            fputs("# kubectl gpu plan: nothing to apply (the plan changes nothing)\n", stdout);
            fputs("kubectl gpu plan: nothing to apply: no manifests\n", stderr);
        } else if (fmt == RENDER_YAML) fputs(yaml, stdout);
        else {
            char *script = plan_report_script(run, yaml);
            fputs(script, stdout);
            free(script);
        }
        free(yaml);
    } else {
        plan_report_text(run, color);
    }
    if (fflush(stdout) != 0) rc = -1;
    return rc;
}

typedef struct { CustomColumns *cc; Error err; } ColumnsCtx;

static int add_group_row(void *vctx, const cJSON *group)
{
    ColumnsCtx *ctx = vctx;
    return custom_columns_add(ctx->cc, group, &ctx->err);
}

int plan_print_columns(const PlanRun *run, CustomColumns *cc, bool no_headers, Error *err)
{
    if (run->from_requests) text_printf(stderr, "warning: %s\n", run->usage_line);
    for (size_t i = 0; i < run->warnings.n; i++) text_printf(stderr, "warning: %s\n", run->warnings.v[i]);
    ColumnsCtx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.cc = cc;
    if (plan_report_each_group_json(run, add_group_row, &ctx) < 0) {
        *err = ctx.err;
        return -1;
    }
    if (!custom_columns_rows(cc)) text_printf(stderr, "No GPU node groups to plan.\n");
    return custom_columns_print(cc, stdout, no_headers);
}

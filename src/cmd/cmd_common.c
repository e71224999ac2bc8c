/* cmd_common.c — the cluster load and format mapping every command shares (cmd_common.h). */
#include "cmd/cmd_common.h"
#include "sources/apiclient.h"
#include "util/error.h"
#include "render/text.h"
#include <stdio.h>
#include <string.h>

int cmd_metrics_outcome(const char *source, const char *detail, const GlobalOptions *g, bool require, Error *err)
{
    if (source && !str_eq(source, "none")) return 0;
    if (require) {
        error_set(err, "no metrics (--require-metrics): %s", detail && *detail ? detail : "no source answered");
        return -1;
    }
    if (g->prometheus && !g->no_metrics)
        text_printf(stderr, "warning: metrics unavailable: %s\n", detail && *detail ? detail : "--prometheus gave nothing");
    return 0;
}

int cmd_load_cluster(CmdCluster *cc, const GlobalOptions *g, const LoadRequest *rq, bool want_api, Error *err)
{
    memset(cc, 0, sizeof *cc);
    cluster_init(&cc->cluster);
    if (loader_cluster_load(&cc->cluster, &g->source, rq, want_api ? &cc->api : NULL, err) < 0) {
        cmd_cluster_release(cc);
        return -1;
    }
    return 0;
}

void cmd_cluster_release(CmdCluster *cc)
{
    if (cc->api) apiclient_free(cc->api);
    cc->api = NULL;
    cluster_release(&cc->cluster);
}

RenderFormat cmd_render_format(OutputFormat f)
{
    switch (f) {
    case OUT_WIDE: return RENDER_WIDE;
    case OUT_JSON: return RENDER_JSON;
    case OUT_YAML: return RENDER_YAML;
    case OUT_SCRIPT: return RENDER_SCRIPT;
    case OUT_NAME: return RENDER_NAME;
    default: return RENDER_TEXT;
    }
}

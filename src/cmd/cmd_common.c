/* cmd_common.c — the cluster load and format mapping every command shares (cmd_common.h). */
#include "cmd/cmd_common.h"
#include "analysis/allocation.h"
#include "analysis/groups.h"
#include "sources/apiclient.h"
#include "util/error.h"
#include "render/output_template.h"
#include "render/text.h"
#include "util/util.h"
#include <cjson/cJSON.h>
#include <unistd.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

int cmd_price_check(const Cluster *c, const char *price, Error *err)
{
    PriceList pl;
    if (!price || price_list_parse(&pl, price, err) < 0) return price ? -1 : 0;
    Strvec known = STRVEC_INIT;              /* "A100-SXM4-80GB (A100)" once per product */
    int rc = 0;
    for (size_t k = 0; k < pl.n && rc == 0; k++) {
        PriceList one = { &pl.v[k], 1 };
        bool hit = false;
        for (size_t i = 0; i < c->nnodes && !hit; i++) {
            const char *prod = c->nodes[i].gpu.base_product;
            if (!prod || !*prod) continue;
            char *shortn = allocation_product_short_name(prod);
            hit = !isnan(price_list_for_product(&one, prod, shortn));
            free(shortn);
        }
        if (hit) continue;
        for (size_t i = 0; i < c->nnodes; i++) {
            const char *prod = c->nodes[i].gpu.base_product;
            if (!prod || !*prod) continue;
            const char *bare = str_starts_with(prod, "NVIDIA-") ? prod + 7 : prod;
            char *shortn = allocation_product_short_name(prod);
            char *item = shortn && *shortn && strcmp(shortn, bare) != 0 ? xasprintf("%s (%s)", bare, shortn)
                                                                         : xstrdup(bare);
            bool dup = false;
            for (size_t j = 0; j < known.n && !dup; j++) dup = strcmp(known.v[j], item) == 0;
            if (!dup) strvec_push(&known, item);
            free(item);
            free(shortn);
        }
        Strbuf list = STRBUF_INIT;
        for (size_t j = 0; j < known.n; j++) strbuf_addf(&list, "%s%s", j ? ", " : "", known.v[j]);
        if (known.n)
            error_set(err, "--price: \"%s\" names no GPU product of the cluster; its products are %s", pl.v[k].model,
                      list.buf);
        else
            error_set(err, "--price: \"%s\" names no GPU product: the cluster has no node with a known GPU product",
                      pl.v[k].model);
        strbuf_clear(&list);
        rc = -1;
    }
    strvec_clear(&known);
    price_list_clear(&pl);
    return rc;
}

int cmd_template_begin(CmdTemplateRun *r, Error *err)
{
    fflush(stdout);
    r->tmp = tmpfile();
    r->saved_fd = r->tmp ? dup(STDOUT_FILENO) : -1;
    if (!r->tmp || r->saved_fd < 0 || dup2(fileno(r->tmp), STDOUT_FILENO) < 0) {
        error_set(err, "-o template: no temporary file for the document: %s", strerror(errno));
        if (r->saved_fd >= 0) close(r->saved_fd);
        if (r->tmp) fclose(r->tmp);
        r->tmp = NULL;
        return -1;
    }
    return 0;
}

int cmd_template_end(CmdTemplateRun *r, const OutputTemplate *t, int rc, Error *err)
{
    fflush(stdout);
    bool wrote = !ferror(stdout);
    dup2(r->saved_fd, STDOUT_FILENO);
    close(r->saved_fd);
    clearerr(stdout);
    if (rc == EXIT_OK && !wrote) { error_set(err, "-o template: the document could not be kept"); rc = EXIT_FAIL; }
    if (rc == EXIT_OK) {
        Strbuf doc = STRBUF_INIT;
        char buf[65536];
        size_t n;
        rewind(r->tmp);
        while ((n = fread(buf, 1, sizeof buf, r->tmp)) > 0) strbuf_add(&doc, buf, n);
        cJSON *j = doc.len ? cJSON_ParseWithLength(doc.buf, doc.len) : NULL;
        if (!j) {
            error_set(err, "-o template: the command's JSON did not parse");
            rc = EXIT_FAIL;
        } else if (output_template_execute(t, j, stdout, err) < 0) {
            rc = EXIT_FAIL;
        }
        cJSON_Delete(j);
        strbuf_clear(&doc);
    }
    fclose(r->tmp);
    r->tmp = NULL;
    return rc;
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
